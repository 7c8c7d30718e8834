/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "ws-config.h"
#include "ws-analysis.h"
#include "ws-analysis-private.h"
#include "ws-program-private.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define HAVE_AVX2_MASKS 1
#endif

static void init_lane_masks (void);

/* ------------------------------------------------------------------ */
/* A pattern compiled for evaluation                                  */
/* ------------------------------------------------------------------ */

typedef struct
{
  const WsPattern *pattern;
  WsProgram *prog;
  WsValue *defs;            /* per definition, compiled on first use */
  gboolean *defs_done;
  WsValue guard;
  guint n_accesses;
  WsValue *index;           /* per access, varying */
  WsValue *address;         /* per access: byte address or private offset, varying */
  guint warps_per_block;
  gint64 (*inputs)[WS_N_VARYING_INPUTS][WS_WARP_SIZE];   /* per warp of a block */
  guint32 *valid;                                        /* per warp of a block */
  guint32 *changed;         /* per warp: the inputs that differ from the warp before's */
} Compiled;

static void
compiled_free (Compiled *c)
{
  if (c == NULL)
    return;
  ws_program_free (c->prog);
  g_free (c->defs);
  g_free (c->defs_done);
  g_free (c->index);
  g_free (c->address);
  g_free (c->inputs);
  g_free (c->valid);
  g_free (c->changed);
  g_free (c);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Compiled, compiled_free)

static gboolean
resolve_name (const char *name,
              gpointer    user_data,
              WsValue    *out,
              GError    **error)
{
  Compiled *c = user_data;
  gint64 value;

  for (guint i = 0; i < ws_pattern_get_n_definitions (c->pattern); i++)
    {
      const WsDefinition *d = ws_pattern_get_definition (c->pattern, i);

      if (strcmp (d->name, name) != 0)
        continue;
      if (!c->defs_done[i])
        {
          if (!ws_program_compile (c->prog, d->expr, resolve_name, c, &c->defs[i], error))
            return FALSE;
          c->defs_done[i] = TRUE;
        }
      *out = c->defs[i];
      return TRUE;
    }
  if (ws_pattern_get_param (c->pattern, name, &value))
    {
      *out = (WsValue) { .cls = WS_VALUE_CONST, .value = value };
      return TRUE;
    }
  g_set_error (error, WS_PATTERN_ERROR, WS_PATTERN_ERROR_INVALID, _("unknown name “%s”"), name);
  return FALSE;
}

static void
setup_lanes (Compiled *c)
{
  WsDim3 block = ws_pattern_get_block (c->pattern);
  guint64 threads = ws_dim3_count (block);

  c->warps_per_block = ws_pattern_get_warps_per_block (c->pattern);
  c->inputs = g_malloc0 (sizeof *c->inputs * c->warps_per_block);
  c->valid = g_new0 (guint32, c->warps_per_block);
  for (guint w = 0; w < c->warps_per_block; w++)
    for (guint l = 0; l < WS_WARP_SIZE; l++)
      {
        guint64 t = (guint64) w * WS_WARP_SIZE + l;
        if (t >= threads)
          continue;
        c->valid[w] |= 1u << l;
        c->inputs[w][WS_VARYING_IN_THREAD_X][l] = t % block.x;
        c->inputs[w][WS_VARYING_IN_THREAD_Y][l] = (t / block.x) % block.y;
        c->inputs[w][WS_VARYING_IN_THREAD_Z][l] = t / ((guint64) block.x * block.y);
        c->inputs[w][WS_VARYING_IN_LANE][l] = l;
        c->inputs[w][WS_VARYING_IN_WARP][l] = w;
      }
  c->changed = g_new0 (guint32, c->warps_per_block);
  for (guint w = 0; w < c->warps_per_block; w++)
    for (guint r = 0; r < WS_N_VARYING_INPUTS; r++)
      if (w == 0 || memcmp (c->inputs[w][r], c->inputs[w - 1][r], sizeof c->inputs[w][r]) != 0)
        c->changed[w] |= 1u << r;
}

static Compiled *
compile_pattern (const WsPattern *pattern,
                 GError         **error)
{
  g_autoptr (Compiled) c = g_new0 (Compiled, 1);
  gint64 launch[WS_N_BUILTINS];
  guint n_defs;

  if (!ws_pattern_validate (pattern, error))
    return NULL;

  init_lane_masks ();
  ws_pattern_get_launch_builtins (pattern, launch);
  c->pattern = pattern;
  c->prog = ws_program_new (launch);
  n_defs = ws_pattern_get_n_definitions (pattern);
  c->defs = g_new0 (WsValue, MAX (n_defs, 1));
  c->defs_done = g_new0 (gboolean, MAX (n_defs, 1));
  c->n_accesses = ws_pattern_get_n_accesses (pattern);
  c->index = g_new0 (WsValue, c->n_accesses);
  c->address = g_new0 (WsValue, c->n_accesses);

  if (ws_pattern_get_guard (pattern) != NULL)
    {
      if (!ws_program_compile (c->prog, ws_pattern_get_guard (pattern), resolve_name, c, &c->guard, error))
        return NULL;
    }
  else
    c->guard = (WsValue) { .cls = WS_VALUE_CONST, .value = 1 };
  c->guard = ws_program_as_varying (c->prog, c->guard);

  for (guint i = 0; i < c->n_accesses; i++)
    {
      const WsAccess *a = ws_pattern_get_access (pattern, i);
      WsValue index;

      if (!ws_program_compile (c->prog, a->index, resolve_name, c, &index, error))
        return NULL;
      c->address[i] = ws_program_as_varying (c->prog, ws_program_scale_offset (c->prog, index, a->elem_size, a->base));
      c->index[i] = ws_program_as_varying (c->prog, index);
    }
  setup_lanes (c);
  return g_steal_pointer (&c);
}

/* ------------------------------------------------------------------ */
/* Errors, reported for the first failing lane                        */
/* ------------------------------------------------------------------ */

static WsDim3
thread_of (const Compiled *c,
           guint           warp,
           guint           lane)
{
  return WS_DIM3 ((guint) c->inputs[warp][WS_VARYING_IN_THREAD_X][lane],
                  (guint) c->inputs[warp][WS_VARYING_IN_THREAD_Y][lane],
                  (guint) c->inputs[warp][WS_VARYING_IN_THREAD_Z][lane]);
}

/* Where an error happened: the first %s of the messages below. */
static char *
describe_lane (const Compiled *c,
               WsDim3          block_idx,
               guint           warp,
               guint           lane)
{
  WsDim3 t = thread_of (c, warp, lane);

  /* Translators: where in a launch an error happened; it begins the
   * messages that say what happened there: "block (0, 0, 0), thread
   * (5, 0, 0) — warp 0, lane 5: the guard: division by zero in …" */
  return g_strdup_printf (_("block (%u, %u, %u), thread (%u, %u, %u) — warp %u, lane %u"),
                          block_idx.x, block_idx.y, block_idx.z, t.x, t.y, t.z, warp, lane);
}

/* Re-evaluates the failing lane with the reference evaluator, which says
 * exactly what went wrong: in the guard (array NULL) or in the index of
 * array. */
static void
set_evaluation_error (const Compiled *c,
                      GError        **error,
                      const char     *array,
                      const WsExpr   *expr,
                      WsDim3          block_idx,
                      guint           warp,
                      guint           lane)
{
  g_autofree char *where = describe_lane (c, block_idx, warp, lane);
  g_autoptr (GError) local = NULL;
  gint64 value;

  /* definitions it uses are evaluated on the way, and named if they fail */
  ws_pattern_eval_thread (c->pattern, expr, block_idx, thread_of (c, warp, lane), &value, &local);
  if (local != NULL && array == NULL)
    /* Translators: where (block, thread, warp and lane), then what went wrong */
    g_set_error (error, WS_PATTERN_ERROR, WS_PATTERN_ERROR_EVALUATION, _("%s: the guard: %s"), where,
                 local->message);
  else if (local != NULL)
    /* Translators: where (block, thread, warp and lane), the array, then what went wrong */
    g_set_error (error, WS_PATTERN_ERROR, WS_PATTERN_ERROR_EVALUATION, _("%s: the index of %s: %s"), where,
                 array, local->message);
  else if (array == NULL)
    /* Translators: where (block, thread, warp and lane) */
    g_set_error (error, WS_PATTERN_ERROR, WS_PATTERN_ERROR_EVALUATION, _("%s: the guard cannot be evaluated"),
                 where);
  else
    g_set_error (error, WS_PATTERN_ERROR, WS_PATTERN_ERROR_EVALUATION,
                 /* Translators: where (block, thread, warp and lane), then the array */
                 _("%s: the index of %s cannot be evaluated"), where, array);
}

static gint64
space_limit (WsSpace space)
{
  switch (space)
    {
    case WS_SPACE_SHARED:
      return WS_MAX_SHARED_BYTES;
    case WS_SPACE_CONSTANT:
      return WS_MAX_CONSTANT_BYTES;
    case WS_SPACE_LOCAL:
      return WS_MAX_LOCAL_BYTES;
    case WS_SPACE_REGISTER:
      return WS_MAX_REGISTER_BYTES;
    case WS_SPACE_GLOBAL:
    case WS_N_SPACES:
    default:
      return G_MAXINT64;
    }
}

/* An address before the array: a sentence for each space. */
static const char *
before_start_format (WsSpace space)
{
  switch (space)
    {
    case WS_SPACE_LOCAL:
      /* Translators: where (block, thread, warp and lane), the array, its
       * index expression, then the byte address the index gives */
      return _("%s: %s[%s] is byte %lld of the thread's private array — before the start of the local array");
    case WS_SPACE_SHARED:
      /* Translators: where (block, thread, warp and lane), the array, its
       * index expression, then the byte address the index gives */
      return _("%s: %s[%s] is byte %lld from the array's start — before the start of the shared array");
    case WS_SPACE_CONSTANT:
      /* Translators: where (block, thread, warp and lane), the array, its
       * index expression, then the byte address the index gives */
      return _("%s: %s[%s] is byte %lld from the array's start — before the start of the constant array");
    case WS_SPACE_REGISTER:
      /* Translators: where (block, thread, warp and lane), the array, its
       * index expression, then the byte address the index gives */
      return _("%s: %s[%s] is byte %lld from the array's start — before the start of the register array");
    case WS_SPACE_GLOBAL:
    case WS_N_SPACES:
    default:
      /* Translators: where (block, thread, warp and lane), the array, its
       * index expression, then the byte address the index gives */
      return _("%s: %s[%s] is byte %lld from the array's start — before the start of the global array");
    }
}

/* An address past what the space holds: a sentence for each space. */
static const char *
beyond_end_format (WsSpace space)
{
  switch (space)
    {
    case WS_SPACE_SHARED:
      /* Translators: where (block, thread, warp and lane), the array, its
       * index expression, the byte address the index gives, then how many
       * bytes the memory holds */
      return _("%s: %s[%s] is byte %lld, beyond the %lld bytes shared memory can hold per block");
    case WS_SPACE_CONSTANT:
      /* Translators: where (block, thread, warp and lane), the array, its
       * index expression, the byte address the index gives, then how many
       * bytes the memory holds */
      return _("%s: %s[%s] is byte %lld, beyond the %lld bytes constant memory can hold");
    case WS_SPACE_LOCAL:
      /* Translators: where (block, thread, warp and lane), the array, its
       * index expression, the byte address the index gives, then how many
       * bytes the memory holds */
      return _("%s: %s[%s] is byte %lld, beyond the %lld bytes local memory can hold per thread");
    case WS_SPACE_GLOBAL:
    case WS_SPACE_REGISTER:
    case WS_N_SPACES:
    default:
      /* Translators: where (block, thread, warp and lane), the array, its
       * index expression, the byte address the index gives, then how many
       * bytes the memory holds */
      return _("%s: %s[%s] is byte %lld, beyond the %lld bytes global memory can hold");
    }
}

static void
set_address_error (const Compiled *c,
                   GError        **error,
                   guint           access,
                   gint64          address,
                   WsDim3          block_idx,
                   guint           warp,
                   guint           lane)
{
  const WsAccess *a = ws_pattern_get_access (c->pattern, access);
  g_autofree char *where = describe_lane (c, block_idx, warp, lane);
  gint64 limit = space_limit (a->space);

  if (address < 0)
    g_set_error (error, WS_PATTERN_ERROR, WS_PATTERN_ERROR_ADDRESS, before_start_format (a->space),
                 where, a->array, a->index_text, (long long) address);
  else if (address % a->elem_size != 0)
    g_set_error (error, WS_PATTERN_ERROR, WS_PATTERN_ERROR_ADDRESS,
                 /* Translators: where (block, thread, warp and lane), the array, its
                  * index expression, the byte address it gives, then the element's size */
                 _("%s: %s[%s] is byte %lld, not a multiple of the %u-byte element: "
                   "the GPU faults on misaligned accesses"),
                 where, a->array, a->index_text, (long long) address, a->elem_size);
  else if (a->space == WS_SPACE_REGISTER)
    g_set_error (error, WS_PATTERN_ERROR, WS_PATTERN_ERROR_ADDRESS,
                 /* Translators: where (block, thread, warp and lane), the array, its
                  * index expression, the byte address it gives, then how many bytes
                  * (and registers) a thread can keep an array in */
                 _("%s: %s[%s] is byte %lld, beyond the %lld bytes (%d registers) a thread can keep an array in"),
                 where, a->array, a->index_text, (long long) address, (long long) limit, (int) (limit / 4));
  else
    g_set_error (error, WS_PATTERN_ERROR, WS_PATTERN_ERROR_ADDRESS, beyond_end_format (a->space),
                 where, a->array, a->index_text, (long long) address, (long long) limit);
}

/* ------------------------------------------------------------------ */
/* One warp                                                           */
/* ------------------------------------------------------------------ */

/* Lanes whose value is non-zero, as a bit mask. */
static guint32
mask_nonzero_generic (const gint64 *v)
{
  guint32 m = 0;

  for (guint l = 0; l < WS_WARP_SIZE; l++)
    m |= (guint32) (v[l] != 0) << l;
  return m;
}

#ifdef HAVE_AVX2_MASKS
__attribute__ ((target ("avx2"))) static guint32
mask_nonzero_avx2 (const gint64 *v)
{
  guint32 m = 0;

  for (guint l = 0; l < WS_WARP_SIZE; l += 4)
    {
      __m256i x = _mm256_loadu_si256 ((const __m256i *) (v + l));
      __m256i zero = _mm256_cmpeq_epi64 (x, _mm256_setzero_si256 ());
      m |= (guint32) (~_mm256_movemask_pd (_mm256_castsi256_pd (zero)) & 0xf) << l;
    }
  return m;
}
#endif

static guint32 (*mask_nonzero) (const gint64 *v);

static void
init_lane_masks (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done))
    {
      mask_nonzero = mask_nonzero_generic;
#ifdef HAVE_AVX2_MASKS
      if (__builtin_cpu_supports ("avx2"))
        mask_nonzero = mask_nonzero_avx2;
#endif
      g_once_init_leave (&done, 1);
    }
}

/* Evaluates the warp's guard; FALSE and an error if a lane cannot. */
static gboolean
warp_active (const Compiled *c,
             WsProgramState *s,
             WsDim3          block_idx,
             guint           warp,
             guint32        *active,
             GError        **error)
{
  const gint64 *g = ws_program_state_values (s, c->guard);
  const guint64 *gp = s->vp[c->guard.reg];
  guint32 valid = c->valid[warp];
  guint32 on = mask_nonzero (g);
  guint32 poisoned = mask_nonzero ((const gint64 *) gp);

  if (poisoned & valid)
    {
      guint lane = g_bit_nth_lsf (poisoned & valid, -1);
      set_evaluation_error (c, error, NULL, ws_pattern_get_guard (c->pattern), block_idx, warp, lane);
      return FALSE;
    }
  *active = on & valid;
  return TRUE;
}

WS_LANE_LOOPS static void
scan_addresses (const gint64  *addr,
                const guint64 *ap,
                guint32        active,
                gint64         align,
                gint64         limit,
                guint64       *any,
                gint64        *low,
                gint64        *high)
{
  gint64 lo = G_MAXINT64, hi = G_MININT64;
  guint64 bad = 0;

  for (guint l = 0; l < WS_WARP_SIZE; l++)
    {
      gint64 on = -(gint64) ((active >> l) & 1);
      gint64 x = addr[l];

      bad |= (ap[l] | (x < 0) | ((x & align) != 0) | (x > limit)) & (guint64) on;
      lo = MIN (lo, (x & on) | (G_MAXINT64 & ~on));
      hi = MAX (hi, (x & on) | (G_MININT64 & ~on));
    }
  *any = bad;
  *low = lo;
  *high = hi;
}

/* Checks one access's addresses — no poison, no negative, misaligned or
 * out-of-space address on an active lane — and widens the extent it touches.
 * One pass over the lanes, written to vectorise. */
static gboolean
check_addresses (const Compiled *c,
                 WsProgramState *s,
                 guint           access,
                 guint32         active,
                 WsDim3          block_idx,
                 guint           warp,
                 gint64         *lo,
                 gint64         *hi,
                 GError        **error)
{
  const WsAccess *a = ws_pattern_get_access (c->pattern, access);
  const gint64 *addr = ws_program_state_values (s, c->address[access]);
  const guint64 *ap = s->vp[c->address[access].reg];
  gint64 limit = space_limit (a->space) - a->elem_size;
  gint64 align = a->elem_size - 1;
  gint64 low = G_MAXINT64;
  gint64 high = G_MININT64;
  guint64 any = 0;

  scan_addresses (addr, ap, active, align, limit, &any, &low, &high);
  if (G_UNLIKELY (any))
    {
      guint32 poisoned = 0;
      guint32 bad = 0;

      for (guint l = 0; l < WS_WARP_SIZE; l++)
        {
          poisoned |= (guint32) ap[l] << l;
          bad |= (guint32) ((addr[l] < 0) | ((addr[l] & align) != 0) | (addr[l] > limit)) << l;
        }
      poisoned &= active;
      bad &= active & ~poisoned;
      if (poisoned)
        {
          guint lane = g_bit_nth_lsf (poisoned, -1);
          gint64 index;

          /* the index may be fine and its byte address overflow */
          if (ws_pattern_eval_thread (c->pattern, a->index, block_idx, thread_of (c, warp, lane), &index, NULL))
            {
              g_autofree char *where = describe_lane (c, block_idx, warp, lane);
              g_set_error (error, WS_PATTERN_ERROR, WS_PATTERN_ERROR_ADDRESS,
                           /* Translators: where (block, thread, warp and lane), the
                            * array, its index expression, the index, then the element's size */
                           _("%s: %s[%s] is element %lld, whose byte address (× %u bytes) overflows 64 bits"),
                           where, a->array, a->index_text, (long long) index, a->elem_size);
            }
          else
            set_evaluation_error (c, error, a->array, a->index, block_idx, warp, lane);
          return FALSE;
        }
      if (bad)
        {
          guint lane = g_bit_nth_lsf (bad, -1);
          set_address_error (c, error, access, addr[lane], block_idx, warp, lane);
          return FALSE;
        }
    }
  *lo = MIN (*lo, low);
  *hi = MAX (*hi, high);
  return TRUE;
}

/* Inactive lanes hold any value: wrap rather than overflow. */
static void
local_addresses (const gint64 *offsets,
                 gint64       *out)
{
  for (guint l = 0; l < WS_WARP_SIZE; l++)
    out[l] = (gint64) ((((guint64) (offsets[l] >> 2) * WS_WARP_SIZE + l) * WS_BANK_BYTES) + (guint64) (offsets[l] & 3));
}

WsWarpResult *
ws_model_analyze_warp (const WsPattern *pattern,
                       guint            access,
                       WsDim3           block_idx,
                       guint            warp,
                       GError         **error)
{
  g_autoptr (Compiled) c = NULL;
  g_autoptr (WsWarpResult) r = NULL;
  WsProgramState *s;
  WsDim3 grid;
  const WsAccess *a;
  gint64 block[3];
  gboolean ok;

  g_return_val_if_fail (pattern != NULL, NULL);

  c = compile_pattern (pattern, error);
  if (c == NULL)
    return NULL;
  grid = ws_pattern_get_grid (pattern);
  if (access >= c->n_accesses || warp >= c->warps_per_block ||
      block_idx.x >= grid.x || block_idx.y >= grid.y || block_idx.z >= grid.z)
    {
      g_set_error (error, WS_PATTERN_ERROR, WS_PATTERN_ERROR_INVALID,
                   _("there is no access %u, warp %u or block (%u, %u, %u) in this launch of %u warps per block"),
                   access, warp, block_idx.x, block_idx.y, block_idx.z, c->warps_per_block);
      return NULL;
    }

  a = ws_pattern_get_access (pattern, access);
  r = g_new0 (WsWarpResult, 1);
  r->access = access;
  r->block_idx = block_idx;
  r->warp = warp;
  r->space = a->space;
  r->kind = a->kind;
  r->elem_size = a->elem_size;
  r->valid = c->valid[warp];
  r->steps = g_array_new (FALSE, FALSE, sizeof (WsStep));

  s = ws_program_state_new (c->prog);
  block[0] = block_idx.x;
  block[1] = block_idx.y;
  block[2] = block_idx.z;
  ws_program_run_block (c->prog, s, block);
  ws_program_run_warp (c->prog, s, c->inputs[warp]);
  {
    gint64 lo = G_MAXINT64, hi = G_MININT64;
    ok = warp_active (c, s, block_idx, warp, &r->active, error) &&
         check_addresses (c, s, access, r->active, block_idx, warp, &lo, &hi, error);
  }
  if (ok)
    {
      const gint64 *addr = ws_program_state_values (s, c->address[access]);

      memcpy (r->index, ws_program_state_values (s, c->index[access]), sizeof r->index);
      if (a->space == WS_SPACE_LOCAL)
        {
          memcpy (r->private_offset, addr, sizeof r->private_offset);
          local_addresses (addr, r->address);
        }
      else
        memcpy (r->address, addr, sizeof r->address);
      for (guint l = 0; l < WS_WARP_SIZE; l++)
        r->bank[l] = (guint8) ((r->address[l] >> 2) & (WS_N_BANKS - 1));
      ws_model_count_warp (a->space, a->kind, a->elem_size, r->active, addr, &r->counts, r->steps);
    }
  ws_program_state_free (s);
  if (!ok)
    return NULL;
  return g_steal_pointer (&r);
}

void
ws_warp_result_free (WsWarpResult *result)
{
  if (result == NULL)
    return;
  g_clear_pointer (&result->steps, g_array_unref);
  g_free (result);
}

const WsStep *
ws_warp_result_step (const WsWarpResult *result,
                     guint               i)
{
  g_return_val_if_fail (result != NULL, NULL);
  g_return_val_if_fail (i < result->steps->len, NULL);

  return &g_array_index (result->steps, WsStep, i);
}

/* ------------------------------------------------------------------ */
/* Blocks and launches                                                */
/* ------------------------------------------------------------------ */

static void
stats_init (WsStats *s)
{
  memset (s, 0, sizeof *s);
  s->min_address = G_MAXINT64;
  s->end_address = G_MININT64;
}

static inline void
stats_add_counts (WsStats            *s,
                  const WsWarpCounts *c,
                  guint32             active)
{
  s->instructions++;
  s->active_lanes += (guint) __builtin_popcount (active);
  s->requests += c->requests;
  s->sectors += c->sectors;
  s->lines += c->lines;
  s->bytes_requested += c->bytes_requested;
  s->bytes_moved += c->bytes_moved;
  s->wavefronts += c->wavefronts;
  s->ideal_wavefronts += c->ideal_wavefronts;
  s->distinct_addresses += c->distinct_addresses;
  s->replays += c->replays;
  s->atomic_conflicts += c->atomic_conflicts;
}

void
ws_stats_add (WsStats       *into,
              const WsStats *from)
{
  into->instructions += from->instructions;
  into->active_lanes += from->active_lanes;
  into->requests += from->requests;
  into->sectors += from->sectors;
  into->lines += from->lines;
  into->bytes_requested += from->bytes_requested;
  into->bytes_moved += from->bytes_moved;
  into->wavefronts += from->wavefronts;
  into->ideal_wavefronts += from->ideal_wavefronts;
  into->distinct_addresses += from->distinct_addresses;
  into->replays += from->replays;
  into->atomic_conflicts += from->atomic_conflicts;
  into->min_address = MIN (into->min_address, from->min_address);
  into->end_address = MAX (into->end_address, from->end_address);
}

/* Consecutive warps very often ask for the same addresses shifted by a whole
 * number of lines (or banks): their counts are the same, so remember the
 * last warp's and skip the counting. The warp before it is remembered too,
 * for rows of an odd number of half lines (a 10000-float row is 312.5
 * lines: every other warp is a whole number of lines further). */
typedef struct
{
  gboolean valid;
  guint32 active;
  gint64 addr[WS_WARP_SIZE];
  WsWarpCounts counts;
} Memo;

typedef struct
{
  Memo m[2];
  guint last;               /* the last warp's */
} Memos;

/* In unsigned arithmetic: inactive lanes hold any value, and the
 * difference of two addresses may not fit in 64 signed bits. */
WS_LANE_LOOPS static gboolean
same_shift (const gint64 *addr,
            const gint64 *prev,
            guint32       active,
            guint64       delta)
{
  guint64 diff = 0;

  for (guint l = 0; l < WS_WARP_SIZE; l++)
    diff |= ((guint64) addr[l] - (guint64) prev[l] - delta) & -(guint64) ((active >> l) & 1);
  return diff == 0;
}

static inline gboolean
memo_hit (const Memo   *m,
          guint32       active,
          const gint64 *addr,
          gint64        granule)
{
  guint64 delta;
  guint first;

  if (!m->valid || m->active != active)
    return FALSE;
  first = g_bit_nth_lsf (active, -1);
  /* granules are powers of two: the low bits say whether it divides */
  g_assert ((granule & (granule - 1)) == 0);
  delta = (guint64) addr[first] - (guint64) m->addr[first];
  if ((delta & (guint64) (granule - 1)) != 0)
    return FALSE;
  return same_shift (addr, m->addr, active, delta);
}

static gint64
memo_granule (WsSpace space)
{
  switch (space)
    {
    case WS_SPACE_GLOBAL:
      return WS_LINE_BYTES;
    case WS_SPACE_SHARED:
    case WS_SPACE_LOCAL:
      return WS_BANK_BYTES;
    case WS_SPACE_CONSTANT:
    case WS_SPACE_REGISTER:
    case WS_N_SPACES:
    default:
      return 1;
    }
}

typedef struct
{
  const Compiled *c;
  WsDim3 grid;
  guint64 first_block;
  guint64 n_blocks;
  guint64 chunk;
  gint64 next_chunk;           /* atomic */
  gint64 first_failed_block;   /* atomic: blocks from here on are not needed */
  GCancellable *cancellable;
  WsAnalysisProgress *progress;
} Shared;

typedef struct
{
  Shared *shared;
  WsStats *stats;              /* per access */
  guint64 warps;
  guint64 failed_block;
  GError *error;
} Worker;

/* Set when a launch is walked in order (ws_model_walk_launch): each warp is
 * shown to the visitor once its accesses are counted. */
typedef struct
{
  WsWarpVisitor visit;
  gpointer user_data;
  guint64 block;
  const gint64 **addresses;       /* per access */
  const WsWarpCounts **counts;    /* per access */
} Walk;

static gboolean
analyze_one_block (const Compiled *c,
                   WsProgramState *s,
                   Memos          *memos,
                   WsStats        *stats,
                   guint64        *warps,
                   WsDim3          block_idx,
                   Walk           *walk,
                   GError        **error)
{
  gint64 block[3] = { block_idx.x, block_idx.y, block_idx.z };

  ws_program_run_block (c->prog, s, block);
  for (guint w = 0; w < c->warps_per_block; w++)
    {
      guint32 active;

      ws_program_run_next_warp (c->prog, s, c->inputs[w], c->changed[w]);
      if (!warp_active (c, s, block_idx, w, &active, error))
        return FALSE;
      (*warps)++;
      if (active == 0)
        continue;
      for (guint i = 0; i < c->n_accesses; i++)
        {
          const WsAccess *a = ws_pattern_get_access (c->pattern, i);
          const gint64 *addr = ws_program_state_values (s, c->address[i]);
          Memos *ms = &memos[i];
          Memo *m = &ms->m[ms->last];
          Memo *older = &ms->m[!ms->last];
          WsStats *st = &stats[i];
          gint64 lo = st->min_address;
          gint64 hi = st->end_address == G_MININT64 ? G_MININT64 : st->end_address - (gint64) a->elem_size;

          if (!check_addresses (c, s, i, active, block_idx, w, &lo, &hi, error))
            return FALSE;
          /* the warp takes the older one's place, and becomes the last */
          if (memo_hit (m, active, addr, memo_granule (a->space)))
            older->counts = m->counts;
          else if (!memo_hit (older, active, addr, memo_granule (a->space)))
            ws_model_count_warp (a->space, a->kind, a->elem_size, active, addr, &older->counts, NULL);
          older->valid = TRUE;
          older->active = active;
          memcpy (older->addr, addr, sizeof older->addr);
          ms->last = !ms->last;
          m = older;
          stats_add_counts (st, &m->counts, active);
          if (a->space == WS_SPACE_REGISTER)
            st->instructions--;   /* not a memory instruction */
          st->min_address = lo;
          st->end_address = hi + (gint64) a->elem_size;
          if (walk)
            {
              walk->addresses[i] = addr;
              walk->counts[i] = &m->counts;
            }
        }
      if (walk)
        {
          WsWarpVisit v = { walk->block, block_idx, w, active, c->n_accesses, walk->addresses, walk->counts };

          if (!walk->visit (&v, walk->user_data, error))
            return FALSE;
        }
    }
  return TRUE;
}

static gpointer
worker_run (gpointer data)
{
  Worker *wk = data;
  Shared *sh = wk->shared;
  const Compiled *c = sh->c;
  WsProgramState *s = ws_program_state_new (c->prog);
  g_autofree Memos *memos = g_new0 (Memos, c->n_accesses);

  for (;;)
    {
      guint64 start = (guint64) g_atomic_pointer_add (&sh->next_chunk, 1) * sh->chunk;

      if (start >= sh->n_blocks || g_cancellable_is_cancelled (sh->cancellable))
        break;
      if (sh->progress)
        g_atomic_pointer_add (&sh->progress->blocks_done, (gint64) (MIN (start + sh->chunk, sh->n_blocks) - start));
      for (guint64 b = start; b < MIN (start + sh->chunk, sh->n_blocks); b++)
        {
          if ((gint64) b >= g_atomic_pointer_get (&sh->first_failed_block))
            break;
          if (!analyze_one_block (c, s, memos, wk->stats, &wk->warps, ws_dim3_block_of (sh->grid, sh->first_block + b), NULL,
                                  &wk->error))
            {
              gint64 old;

              wk->failed_block = b;
              do
                old = g_atomic_pointer_get (&sh->first_failed_block);
              while ((gint64) b < old &&
                     !g_atomic_pointer_compare_and_exchange (&sh->first_failed_block, old, (gint64) b));
              goto out;
            }
        }
    }
out:
  ws_program_state_free (s);
  return NULL;
}

static WsLaunchStats *
launch_stats_new (const WsPattern *pattern,
                  guint            n_accesses)
{
  WsLaunchStats *ls = g_new0 (WsLaunchStats, 1);

  ls->pattern = ws_pattern_ref ((WsPattern *) pattern);
  ls->n_accesses = n_accesses;
  ls->accesses = g_new0 (WsStats, n_accesses);
  for (guint i = 0; i < n_accesses; i++)
    stats_init (&ls->accesses[i]);
  stats_init (&ls->total);
  return ls;
}

static void
finish_totals (WsLaunchStats  *ls,
               const Compiled *c,
               guint64         count,
               gint64          t0)
{
  for (guint k = 0; k < c->n_accesses; k++)
    {
      const WsAccess *a = ws_pattern_get_access (c->pattern, k);
      WsStats *st = &ls->accesses[k];
      gint64 lo = ls->total.min_address, hi = ls->total.end_address;

      ws_stats_add (&ls->total, st);
      /* bytes are only comparable between global and local accesses */
      if (a->space != WS_SPACE_GLOBAL && a->space != WS_SPACE_LOCAL)
        {
          ls->total.bytes_requested -= st->bytes_requested;
          ls->total.bytes_moved -= st->bytes_moved;
        }
      /* the extent of several arrays means nothing together */
      ls->total.min_address = c->n_accesses == 1 ? st->min_address : lo;
      ls->total.end_address = c->n_accesses == 1 ? st->end_address : hi;
    }
  ls->blocks = count;
  ls->threads = count * ws_dim3_count (ws_pattern_get_block (c->pattern));
  ls->seconds = (g_get_monotonic_time () - t0) / 1e6;
}

static WsLaunchStats *
analyze_blocks (const WsPattern    *pattern,
                guint64             first,
                guint64             count,
                GCancellable       *cancellable,
                WsAnalysisProgress *progress,
                GError            **error)
{
  g_autoptr (Compiled) c = NULL;
  g_autoptr (WsLaunchStats) ls = NULL;
  Shared sh = { 0 };
  guint n_workers;
  Worker *workers;
  GThread **threads;
  gint64 t0 = g_get_monotonic_time ();
  GError *first_error = NULL;

  c = compile_pattern (pattern, error);
  if (c == NULL)
    return NULL;

  ls = launch_stats_new (pattern, c->n_accesses);
  sh.c = c;
  sh.grid = ws_pattern_get_grid (pattern);
  sh.first_block = first;
  sh.n_blocks = count;
  sh.first_failed_block = G_MAXINT64;
  sh.cancellable = cancellable;
  sh.progress = progress;
  n_workers = count * c->warps_per_block < 4096 ? 1 : CLAMP (g_get_num_processors (), 1, 16);
  sh.chunk = MAX (1, MIN (256, count / (n_workers * 8)));

  workers = g_new0 (Worker, n_workers);
  threads = g_new0 (GThread *, n_workers);
  for (guint i = 0; i < n_workers; i++)
    {
      workers[i].shared = &sh;
      workers[i].stats = g_new0 (WsStats, c->n_accesses);
      for (guint k = 0; k < c->n_accesses; k++)
        stats_init (&workers[i].stats[k]);
    }
  if (n_workers == 1)
    worker_run (&workers[0]);
  else
    {
      for (guint i = 0; i < n_workers; i++)
        threads[i] = g_thread_new ("ws-model", worker_run, &workers[i]);
      for (guint i = 0; i < n_workers; i++)
        g_thread_join (threads[i]);
    }

  for (guint i = 0; i < n_workers; i++)
    {
      Worker *wk = &workers[i];

      if (wk->error && (first_error == NULL || (gint64) wk->failed_block == sh.first_failed_block))
        {
          g_clear_error (&first_error);
          first_error = g_steal_pointer (&wk->error);
        }
      g_clear_error (&wk->error);
      for (guint k = 0; k < c->n_accesses; k++)
        ws_stats_add (&ls->accesses[k], &wk->stats[k]);
      ls->warps += wk->warps;
      g_free (wk->stats);
    }
  g_free (workers);
  g_free (threads);

  if (first_error)
    {
      g_propagate_error (error, first_error);
      return NULL;
    }
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;

  finish_totals (ls, c, count, t0);
  return g_steal_pointer (&ls);
}

/* The time a launch of that many warps would take here, from the time
 * the first of its blocks take. */
static double
estimate_seconds (const WsPattern *pattern,
                  guint64          blocks,
                  guint64          warps)
{
  guint64 sample = MIN (blocks, 1 << 14);
  g_autoptr (WsLaunchStats) first = analyze_blocks (pattern, 0, sample, NULL, NULL, NULL);
  guint cores = CLAMP (g_get_num_processors (), 1, 16);

  if (first == NULL || first->warps == 0)
    return NAN;
  return first->seconds * ((double) warps / (double) first->warps) / cores;
}

/* Refuses, at once, a launch of more warps than the model analyses. */
static gboolean
check_warps (const WsPattern *pattern,
             GError         **error)
{
  guint64 blocks = ws_dim3_count (ws_pattern_get_grid (pattern));
  guint64 per_block = ws_pattern_get_warps_per_block (pattern);
  guint64 warps = blocks * per_block;
  guint64 threads;
  double seconds;

  if (warps <= WS_MODEL_MAX_WARPS)
    return TRUE;
  seconds = estimate_seconds (pattern, blocks, warps);
  threads = ws_dim3_count (ws_pattern_get_block (pattern));
  g_set_error (error, WS_PATTERN_ERROR, WS_PATTERN_ERROR_INVALID,
               /* Translators: the launch's warps and blocks, the threads of a
                * block, the most warps the model analyses, then how long this
                * launch would take, in seconds */
               g_dngettext (GETTEXT_PACKAGE,
                            "the launch has %llu warps (%llu blocks of %llu thread, each block at least a warp of its "
                            "own): the model analyses at most %llu (2^27) warps in one launch, the warps of 2^32 "
                            "threads in full warps, and this one would take about %.0f s here; use fewer, larger blocks",
                            "the launch has %llu warps (%llu blocks of %llu threads, each block at least a warp of its "
                            "own): the model analyses at most %llu (2^27) warps in one launch, the warps of 2^32 "
                            "threads in full warps, and this one would take about %.0f s here; use fewer, larger blocks",
                            (gulong) MIN (threads, G_MAXULONG)),
               (unsigned long long) warps, (unsigned long long) blocks, (unsigned long long) threads,
               (unsigned long long) WS_MODEL_MAX_WARPS, isnan (seconds) ? 0 : ceil (seconds));
  return FALSE;
}

/* Blocks in order, one after another, each warp shown to the visitor: what
 * the memory hierarchy sees, in the order the hardware dispatches blocks. */
WsLaunchStats *
ws_model_walk_launch (const WsPattern *pattern,
                      WsWarpVisitor    visit,
                      gpointer         user_data,
                      GCancellable    *cancellable,
                      GError         **error)
{
  g_autoptr (Compiled) c = NULL;
  g_autoptr (WsLaunchStats) ls = NULL;
  g_autofree Memos *memos = NULL;
  g_autofree const gint64 **addresses = NULL;
  g_autofree const WsWarpCounts **counts = NULL;
  WsProgramState *s;
  WsDim3 grid;
  guint64 count;
  gint64 t0 = g_get_monotonic_time ();
  gboolean ok = TRUE;
  Walk walk = { visit, user_data, 0, NULL, NULL };

  g_return_val_if_fail (pattern != NULL && visit != NULL, NULL);

  if (!check_warps (pattern, error))
    return NULL;
  c = compile_pattern (pattern, error);
  if (c == NULL)
    return NULL;
  ls = launch_stats_new (pattern, c->n_accesses);
  memos = g_new0 (Memos, c->n_accesses);
  addresses = walk.addresses = g_new0 (const gint64 *, MAX (c->n_accesses, 1));
  counts = walk.counts = g_new0 (const WsWarpCounts *, MAX (c->n_accesses, 1));
  grid = ws_pattern_get_grid (pattern);
  count = ws_dim3_count (grid);
  s = ws_program_state_new (c->prog);
  for (guint64 b = 0; ok && b < count; b++)
    {
      if ((b & 1023) == 0 && g_cancellable_set_error_if_cancelled (cancellable, error))
        {
          ok = FALSE;
          break;
        }
      walk.block = b;
      ok = analyze_one_block (c, s, memos, ls->accesses, &ls->warps, ws_dim3_block_of (grid, b), &walk, error);
    }
  ws_program_state_free (s);
  if (!ok)
    return NULL;
  finish_totals (ls, c, count, t0);
  return g_steal_pointer (&ls);
}

WsLaunchStats *
ws_model_analyze_launch (const WsPattern *pattern,
                         GCancellable    *cancellable,
                         GError         **error)
{
  return ws_model_analyze_launch_full (pattern, cancellable, NULL, error);
}

WsLaunchStats *
ws_model_analyze_launch_full (const WsPattern    *pattern,
                              GCancellable       *cancellable,
                              WsAnalysisProgress *progress,
                              GError            **error)
{
  guint64 blocks;
  guint64 threads;

  g_return_val_if_fail (pattern != NULL, NULL);

  blocks = ws_dim3_count (ws_pattern_get_grid (pattern));
  threads = blocks * ws_dim3_count (ws_pattern_get_block (pattern));
  if (threads > WS_MODEL_MAX_THREADS)
    {
      g_set_error (error, WS_PATTERN_ERROR, WS_PATTERN_ERROR_INVALID,
                   _("the launch has %llu threads: the model analyses at most %llu (2^32) in one launch; "
                     "use a smaller grid"), (unsigned long long) threads, (unsigned long long) WS_MODEL_MAX_THREADS);
      return NULL;
    }
  if (!check_warps (pattern, error))
    return NULL;
  if (progress)
    {
      g_atomic_pointer_set (&progress->blocks_done, 0);
      g_atomic_pointer_set (&progress->blocks_total, (gint64) blocks);
    }
  return analyze_blocks (pattern, 0, blocks, cancellable, progress, error);
}

WsLaunchStats *
ws_model_analyze_block (const WsPattern *pattern,
                        WsDim3           block_idx,
                        GError         **error)
{
  WsDim3 grid;

  g_return_val_if_fail (pattern != NULL, NULL);

  grid = ws_pattern_get_grid (pattern);
  if (block_idx.x >= grid.x || block_idx.y >= grid.y || block_idx.z >= grid.z)
    {
      g_set_error (error, WS_PATTERN_ERROR, WS_PATTERN_ERROR_INVALID,
                   _("block (%u, %u, %u) is outside the grid (%u, %u, %u)"),
                   block_idx.x, block_idx.y, block_idx.z, grid.x, grid.y, grid.z);
      return NULL;
    }
  return analyze_blocks (pattern, block_idx.x + (guint64) grid.x * (block_idx.y + (guint64) grid.y * block_idx.z),
                         1, NULL, NULL, error);
}

void
ws_launch_stats_free (WsLaunchStats *stats)
{
  if (stats == NULL)
    return;
  g_clear_pointer (&stats->pattern, ws_pattern_unref);
  g_free (stats->accesses);
  g_free (stats);
}

/* ------------------------------------------------------------------ */
/* Derived figures                                                    */
/* ------------------------------------------------------------------ */

static gdouble
ratio (guint64 a,
       guint64 b)
{
  return b == 0 ? 0.0 : (gdouble) a / (gdouble) b;
}

gdouble
ws_stats_sectors_per_request (const WsStats *stats)
{
  return ratio (stats->sectors, stats->requests);
}

gdouble
ws_stats_efficiency (const WsStats *stats)
{
  if (stats->bytes_moved > 0)
    return ratio (stats->bytes_requested, stats->bytes_moved);
  if (stats->wavefronts > 0)
    return ratio (stats->ideal_wavefronts, stats->wavefronts);
  if (stats->distinct_addresses > 0)
    return ratio (stats->instructions, stats->distinct_addresses);
  return stats->instructions > 0 ? 1.0 : 0.0;
}

gdouble
ws_stats_wavefronts_per_instruction (const WsStats *stats)
{
  return ratio (stats->wavefronts, stats->instructions);
}

gdouble
ws_stats_distinct_per_instruction (const WsStats *stats)
{
  return ratio (stats->distinct_addresses, stats->instructions);
}

gdouble
ws_stats_replays_per_instruction (const WsStats *stats)
{
  return ratio (stats->replays, stats->instructions);
}

guint64
ws_stats_bank_conflicts (const WsStats *stats)
{
  return stats->wavefronts - stats->ideal_wavefronts;
}
