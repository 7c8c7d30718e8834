/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "ws-hierarchy.h"
#include "ws-analysis-private.h"
#include "ws-hierarchy-private.h"

#include <string.h>

#define LOCAL_ARRAY_ID 127
/* Launches of fewer warp instructions keep L2 on the walk's thread (a
 * thread's start would cost more than it saves). A kernel's walk, whose
 * warps may loop for long, always has it on its own where there are cores. */
#define PIPE_MIN_INSTRUCTIONS 1024
/* How much blocks' durations vary, for the order they reach SMs in. */
#define BLOCK_JITTER 0.05

/* ------------------------------------------------------------------ */
/* A warp's sectors                                                   */
/* ------------------------------------------------------------------ */

static void
sort_sectors (WsSectors *s)
{
  for (guint i = 1; i < s->n; i++)
    {
      guint64 v = s->sector[i];
      guint32 m = s->mask[i];
      guint j = i;

      for (; j > 0 && s->sector[j - 1] > v; j--)
        {
          s->sector[j] = s->sector[j - 1];
          s->mask[j] = s->mask[j - 1];
        }
      s->sector[j] = v;
      s->mask[j] = m;
    }
}

/* Whether the 32 lanes' addresses run on one element after another from
 * the first, which lies on its element's alignment: a stretch of whole
 * elements (none across a sector's end, as elements of 1 to 16 bytes
 * divide 32). */
static inline gboolean
contiguous_lanes (const gint64 *addr,
                  guint         elem)
{
  if (addr[0] < 0 || elem == 0 || elem > 16 || addr[0] % elem != 0)
    return FALSE;
#ifdef __SSE2__
  {
    /* two lanes a step; 64-bit values are equal where both halves are */
    __m128i want = _mm_set_epi64x (addr[0] + elem, addr[0]);
    __m128i step = _mm_set1_epi64x (2 * (gint64) elem);
    __m128i same = _mm_set1_epi32 (-1);

    for (guint l = 0; l < WS_WARP_SIZE; l += 2)
      {
        same = _mm_and_si128 (same, _mm_cmpeq_epi32 (_mm_loadu_si128 ((const __m128i *) (addr + l)), want));
        want = _mm_add_epi64 (want, step);
      }
    return _mm_movemask_epi8 (same) == 0xffff;
  }
#else
  {
    guint64 diff = 0;

    for (guint l = 1; l < WS_WARP_SIZE; l++)
      diff |= (guint64) addr[l] - (guint64) addr[0] - (guint64) l * elem;
    return diff == 0;
  }
#endif
}

/* The sectors of a contiguous stretch of bytes [start, end), each with the
 * bytes of it that the stretch covers (what the lanes' elements, gathered
 * one by one, make of it), after those s has. */
static void
stretch_sectors (guint64    start,
                 guint64    end,
                 guint64    base,
                 WsSectors *s)
{
  guint n = s->n;

  for (guint64 sector = start >> 5; sector <= (end - 1) >> 5; sector++)
    {
      guint lo = sector == start >> 5 ? (guint) (start & 31) : 0;
      guint hi = sector == (end - 1) >> 5 ? (guint) ((end - 1) & 31) + 1 : 32;

      s->sector[n] = sector | base;
      s->mask[n] = (hi - lo == 32 ? WS_HIER_FULL_MASK : ((1u << (hi - lo)) - 1)) << lo;
      n++;
    }
  s->n = n;
}

/* The distinct sectors the active lanes touch, ascending, with the bytes of
 * each they touch. Addresses are byte addresses; base sets the array apart. */
static void
gather_sectors (const gint64 *addr,
                guint32       active,
                guint         elem,
                guint64       base,
                WsSectors    *s)
{
  guint32 bytes = elem >= 32 ? WS_HIER_FULL_MASK : (1u << elem) - 1;
  gboolean sorted = TRUE;
  guint n = 0;
  /* the sector being gathered, in registers: lanes next to each other
   * mostly share one */
  guint64 cur = 0;
  guint32 cur_mask = 0;

  s->n = 0;
  if (active == 0)
    return;
  /* a warp's lanes one element after another: the stretch's sectors */
  if (active == WS_HIER_FULL_MASK && contiguous_lanes (addr, elem))
    {
      stretch_sectors ((guint64) addr[0], (guint64) addr[0] + WS_WARP_SIZE * elem, base, s);
      return;
    }
  for (guint32 a = active; a; a &= a - 1)
    {
      guint l = (guint) __builtin_ctz (a);
      guint64 sector = ((guint64) addr[l] >> 5) | base;
      guint32 mask = bytes << (addr[l] & 31);

      if (n > 0 && cur == sector)
        {
          cur_mask |= mask;
          continue;
        }
      if (n > 0)
        {
          s->sector[n - 1] = cur;
          s->mask[n - 1] = cur_mask;
          sorted &= cur < sector;
        }
      cur = sector;
      cur_mask = mask;
      n++;
    }
  s->sector[n - 1] = cur;
  s->mask[n - 1] = cur_mask;
  s->n = n;
  if (sorted)
    return;
  sort_sectors (s);
  n = 0;
  for (guint i = 0; i < s->n; i++)
    {
      if (n > 0 && s->sector[n - 1] == s->sector[i])
        s->mask[n - 1] |= s->mask[i];
      else
        {
          s->sector[n] = s->sector[i];
          s->mask[n] = s->mask[i];
          n++;
        }
    }
  s->n = n;
}

/* Local memory: word w of lane l of a warp at (w × 32 + l) × 4 in the
 * warp's slice; each warp an SM can hold has its own slice, the SM's one
 * after another, so that the warps of a block that follows another in its
 * slot use the same memory. */
static void
local_sectors (const WsHier       *h,
               const WsBlockPlace *place,
               const gint64       *offsets,
               guint32             active,
               guint               elem,
               guint               warp,
               WsSectors          *s)
{
  gint64 addr[WS_WARP_SIZE];
  guint64 slice = (guint64) place->sm * h->max_warps_per_sm + (guint64) place->slot * h->warps_per_block + warp;
  gint64 base = (gint64) (slice * h->local_slice);

  for (guint l = 0; l < WS_WARP_SIZE; l++)
    addr[l] = base + ((offsets[l] >> 2) * WS_WARP_SIZE + l) * 4 + (offsets[l] & 3);
  /* a wide element is one word per 4 bytes, each in its own line */
  if (elem > 4)
    {
      WsSectors part;
      /* the lanes' words one after another: each word is a stretch */
      gboolean stretch = active == WS_HIER_FULL_MASK && contiguous_lanes (addr, 4);

      s->n = 0;
      for (guint w = 0; w < elem / 4; w++)
        {
          gint64 a2[WS_WARP_SIZE];

          if (stretch)
            {
              guint64 start = (guint64) addr[0] + (guint64) w * WS_WARP_SIZE * 4;

              stretch_sectors (start, start + WS_WARP_SIZE * 4, (guint64) LOCAL_ARRAY_ID << 56, s);
              continue;
            }

          for (guint l = 0; l < WS_WARP_SIZE; l++)
            a2[l] = addr[l] + (gint64) w * WS_WARP_SIZE * 4;
          gather_sectors (a2, active, 4, (guint64) LOCAL_ARRAY_ID << 56, &part);
          for (guint i = 0; i < part.n && s->n < G_N_ELEMENTS (s->sector); i++)
            {
              s->sector[s->n] = part.sector[i];
              s->mask[s->n] = part.mask[i];
              s->n++;
            }
        }
      return;
    }
  gather_sectors (addr, active, elem, (guint64) LOCAL_ARRAY_ID << 56, s);
}

/* ------------------------------------------------------------------ */
/* The walk                                                           */
/* ------------------------------------------------------------------ */

/* The place of a block, for a warp the walk shows: the schedule deals
 * every block in order, those without an active warp too. It runs a warp
 * ahead of the caches (see visit_warp). */
static const WsBlockPlace *
schedule_to (WsHier  *h,
             guint64  block)
{
  while (!h->ahead_started || h->ahead_block < block)
    {
      ws_block_schedule_next (h->schedule, &h->ahead_place);
      h->ahead_block = h->ahead_started ? h->ahead_block + 1 : 0;
      h->ahead_started = TRUE;
    }
  return &h->ahead_place;
}

/* A warp's atomics: each address gets its lanes' updates; each sector is
 * passed over once per lane on its busiest address, in its L2 slice. */
static void
count_atomics (WsHier       *h,
               const gint64 *addr,
               guint32       active,
               guint64       array,
               guint64       times)
{
  gint64 a[WS_WARP_SIZE];
  guint n = 0;

  for (guint32 m = active; m; m &= m - 1)
    a[n++] = addr[__builtin_ctz (m)];
  for (guint i = 1; i < n; i++)
    for (guint j = i; j > 0 && a[j - 1] > a[j]; j--)
      {
        gint64 t = a[j];
        a[j] = a[j - 1];
        a[j - 1] = t;
      }
  for (guint i = 0; i < n;)
    {
      guint64 sector = (guint64) a[i] >> 5;
      guint busiest = 0;
      guint j = i;

      while (j < n && ((guint64) a[j] >> 5) == sector)
        {
          guint k = j;

          while (k < n && a[k] == a[j])
            k++;
          h->atomic_sketch[ws_hier_hash ((guint64) a[j] ^ (array << 56)) % WS_HIER_ATOMIC_SKETCH] += (k - j) * times;
          busiest = MAX (busiest, k - j);
          j = k;
        }
      h->slice_passes[ws_hier_hash (((sector << 5) >> 8) ^ (array << 56)) % h->n_slices] += busiest * times;
      i = j;
    }
}

/* The repeats of an access after its first: loads hit L1 (or whatever
 * served them), stores go through to L2 again, to sectors already there. */
static void
count_repeats (WsHier              *h,
               guint                i,
               const WsAccessShape *a,
               const WsSectors *s,
               guint64          more)
{
  WsHierStats *st = &h->stats[i];

  if (a->kind == WS_ACCESS_LOAD)
    {
      st->l1_sectors += s->n * more;
      st->l1_hits += s->n * more;
    }
  else if (a->kind == WS_ACCESS_STORE)
    {
      guint lines = 0;

      for (guint k = 0; k < s->n; k++)
        lines += k == 0 || (s->sector[k] >> 2) != (s->sector[k - 1] >> 2);
      st->l2_write_sectors += s->n * more;
      st->l2_write_requests += lines * more;
    }
}

/* What a warp's accesses ask of the caches, in the order the hardware
 * would see them; a new block first sends the previous one's stores on. */
static void
run_warp (WsHier           *h,
          const WsHeldWarp *w)
{
  if (!h->started || w->block != h->block)
    {
      if (h->started)
        ws_hier_send_apply (h);
      h->block = w->block;
      h->place = w->place;
      h->started = TRUE;
    }
  for (guint i = 0; i < h->n_accesses; i++)
    {
      const WsAccessShape *a = &h->shapes[i];
      const WsSectors *s = &w->sectors[i];

      if (a->space != WS_SPACE_GLOBAL && a->space != WS_SPACE_LOCAL)
        continue;
      if (a->kind == WS_ACCESS_LOAD)
        ws_hier_load (h, i, s);
      else if (a->space == WS_SPACE_LOCAL)
        ws_hier_store (h, i, s, h->l1_sets > 0);
      else if (a->kind == WS_ACCESS_ATOMIC)
        ws_hier_atomic (h, i, s);
      else
        ws_hier_store (h, i, s, FALSE);
    }
}

/* A warp's sectors are taken when the walk shows it, and what only adds up
 * (repeats, atomics' sketches) is counted then, and the cache lines of the
 * tables' keys it will look up are asked for. When the walk shows the next
 * warp, those keys have come: the records of the L2 entries they point at
 * are asked for. Its turn at the caches comes a warp after that. The caches
 * see the warps in the same order, two warps later. */
static gboolean
visit_warp (const WsWarpVisit *v,
            gpointer           user_data,
            GError           **error)
{
  WsHier *h = user_data;
  WsHeldWarp *w = &h->held[h->n_visited % WS_HIER_HELD];

  w->block = v->block;
  w->place = *schedule_to (h, v->block);
  for (guint i = 0; i < v->n_accesses; i++)
    {
      const WsAccessShape *a = &h->shapes[i];
      guint64 times = h->repeat ? MAX (h->repeat[i], 1) : 1;
      WsSectors *s = &w->sectors[i];

      s->n = 0;
      switch (a->space)
        {
        case WS_SPACE_GLOBAL:
          gather_sectors (v->addresses[i], v->active, a->elem_size, (guint64) h->array_id[i] << 56, s);
          if (a->kind == WS_ACCESS_ATOMIC)
            {
              h->stats[i].l2_atomic_sectors += v->counts[i]->sectors * times;
              count_atomics (h, v->addresses[i], v->active, h->array_id[i], times);
            }
          if (times > 1 && a->kind != WS_ACCESS_ATOMIC)
            count_repeats (h, i, a, s, times - 1);
          break;
        case WS_SPACE_LOCAL:
          local_sectors (h, &w->place, v->addresses[i], v->active, a->elem_size, v->warp, s);
          if (times > 1)
            count_repeats (h, i, a, s, times - 1);
          break;
        case WS_SPACE_SHARED:
        case WS_SPACE_CONSTANT:
        case WS_SPACE_REGISTER:
        case WS_N_SPACES:
        default:
          break;
        }
      if (a->kind == WS_ACCESS_LOAD)
        ws_hier_l1_prefetch (h, i, w->place.sm, s);
    }
  /* the warp before: its keys have come, the records they point at next */
  if (h->n_visited >= 1)
    {
      const WsHeldWarp *before = &h->held[(h->n_visited - 1) % WS_HIER_HELD];

      for (guint i = 0; i < v->n_accesses; i++)
        if (h->shapes[i].kind == WS_ACCESS_LOAD)
          ws_hier_l1_prefetch_entries (h, i, &before->sectors[i]);
    }
  if (h->n_visited >= WS_HIER_HELD - 1)
    run_warp (h, &h->held[(h->n_visited - (WS_HIER_HELD - 1)) % WS_HIER_HELD]);
  h->n_visited++;
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Setting up                                                         */
/* ------------------------------------------------------------------ */

/* Bytes of the pattern's arrays in a space: the extent of each array (as
 * the generated kernel sizes it), summed; from block 0. */
static guint64
array_bytes (const WsPattern     *pattern,
             const WsLaunchStats *block0,
             WsSpace              space)
{
  g_autoptr (GHashTable) extent = g_hash_table_new (g_str_hash, g_str_equal);
  GHashTableIter iter;
  gpointer value;
  guint64 total = 0;

  for (guint i = 0; i < ws_pattern_get_n_accesses (pattern); i++)
    {
      const WsAccess *a = ws_pattern_get_access (pattern, i);
      const WsStats *st = &block0->accesses[i];
      guint64 end;

      if (a->space != space || st->instructions == 0 || st->end_address <= 0)
        continue;
      end = ((guint64) st->end_address + 15) & ~(guint64) 15;
      if (end > GPOINTER_TO_SIZE (g_hash_table_lookup (extent, a->array)))
        g_hash_table_insert (extent, a->array, GSIZE_TO_POINTER (end));
    }
  g_hash_table_iter_init (&iter, extent);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    total += GPOINTER_TO_SIZE (value);
  return total;
}

static void
assign_arrays (WsHier *h)
{
  g_autoptr (GPtrArray) names = g_ptr_array_new ();

  h->array_id = g_new0 (guint8, MAX (h->n_accesses, 1));
  for (guint i = 0; i < h->n_accesses; i++)
    {
      const WsAccess *a = ws_pattern_get_access (h->pattern, i);
      guint k;

      if (a->space != WS_SPACE_GLOBAL)
        continue;
      for (k = 0; k < names->len; k++)
        if (g_strcmp0 (g_ptr_array_index (names, k), a->array) == 0)
          break;
      if (k == names->len)
        g_ptr_array_add (names, a->array);
      h->array_id[i] = (guint8) MIN (k, LOCAL_ARRAY_ID - 1);
    }
}

static void
hier_clear (WsHier *h)
{
  g_free (h->atomic_sketch);
  g_free (h->slice_passes);
  ws_hier_l1_clear (h);
  ws_hier_l2_clear (h);
  g_free (h->array_id);
  for (guint k = 0; k < WS_HIER_HELD; k++)
    g_free (h->held[k].sectors);
  g_clear_pointer (&h->schedule, ws_block_schedule_free);
}

/* How many blocks an SM holds: the occupancy rules, with the profile's SM. */
static guint
blocks_per_sm (const WsDeviceProfile    *p,
               const WsPattern          *pattern,
               guint64                   shared,
               const WsHierarchyOptions *options,
               GError                  **error)
{
  const WsSmLimits *limits = ws_device_profile_sm_limits (p);
  guint threads = (guint) ws_dim3_count (ws_pattern_get_block (pattern));
  guint registers = options && options->registers_per_thread ? options->registers_per_thread : 32;
  WsOccupancy occ;

  if (!ws_occupancy_compute (limits, threads, registers, (guint) MIN (shared, G_MAXUINT), &occ, error))
    return 0;
  return MAX (occ.blocks_per_sm, 1);
}

/* What a block lasts, for the order blocks reach SMs in: the latency of a
 * load that misses, plus the issue of its warps' instructions. Blocks this
 * short are dealt round the SMs in turn while an SM has room for
 * slots × block_ns of them (what the H200's L1 hits of i % M show); longer
 * ones go wherever a slot frees. */
static double
block_duration_ns (const WsDeviceProfile *p,
                   const WsPattern       *pattern)
{
  guint warps = ws_pattern_get_warps_per_block (pattern);
  guint n = ws_pattern_get_n_accesses (pattern);

  return p->dram_latency_ns + 2.0 * warps * n + p->warp_ns * 64;
}

WsHierarchy *
ws_hierarchy_analyze (const WsPattern          *pattern,
                      const WsDeviceProfile    *profile,
                      const WsHierarchyOptions *options,
                      GCancellable             *cancellable,
                      GError                  **error)
{
  g_autoptr (WsHierarchy) r = NULL;
  g_autoptr (WsLaunchStats) block0 = NULL;
  WsHier h = { 0 };
  gint64 t0 = g_get_monotonic_time ();

  g_return_val_if_fail (pattern != NULL && profile != NULL, NULL);

  if (!ws_device_profile_validate (profile, error))
    return NULL;
  block0 = ws_model_analyze_block (pattern, WS_DIM3 (0, 0, 0), error);
  if (block0 == NULL)
    return NULL;

  r = g_new0 (WsHierarchy, 1);
  r->n_accesses = ws_pattern_get_n_accesses (pattern);
  r->accesses = g_new0 (WsHierStats, MAX (r->n_accesses, 1));
  r->shapes = g_new0 (WsAccessShape, MAX (r->n_accesses, 1));
  for (guint i = 0; i < r->n_accesses; i++)
    {
      const WsAccess *a = ws_pattern_get_access (pattern, i);

      r->shapes[i] = (WsAccessShape) { a->space, a->kind, a->elem_size };
    }
  r->shared_per_block = array_bytes (pattern, block0, WS_SPACE_SHARED);
  if (options && options->shared_bytes > r->shared_per_block)
    r->shared_per_block = options->shared_bytes;
  r->local_per_thread = array_bytes (pattern, block0, WS_SPACE_LOCAL);
  r->blocks_per_sm = blocks_per_sm (profile, pattern, r->shared_per_block, options, error);
  if (r->blocks_per_sm == 0)
    return NULL;
  r->warps_per_sm = r->blocks_per_sm * ws_pattern_get_warps_per_block (pattern);
  r->l1_bytes = ws_device_profile_l1_bytes (profile, r->blocks_per_sm, r->shared_per_block);

  h.pattern = pattern;
  h.n_accesses = r->n_accesses;
  h.shapes = r->shapes;
  h.stats = r->accesses;
  h.warps_per_block = ws_pattern_get_warps_per_block (pattern);
  h.slots = r->blocks_per_sm;
  assign_arrays (&h);
  h.sms = profile->sms;
  for (guint k = 0; k < WS_HIER_HELD; k++)
    h.held[k].sectors = g_new (WsSectors, MAX (h.n_accesses, 1));
  h.max_warps_per_sm = ws_device_profile_sm_limits (profile)->max_threads_per_sm / WS_WARP_SIZE;
  /* the generated kernel's private arrays, 16-byte aligned, for 32 lanes */
  h.local_slice = MAX (r->local_per_thread, 16) * WS_WARP_SIZE;
  h.repeat = options ? options->repeat : NULL;
  h.n_slices = profile->l2_slices;
  h.atomic_sketch = g_new0 (guint64, WS_HIER_ATOMIC_SKETCH);
  h.slice_passes = g_new0 (guint64, h.n_slices);
  ws_hier_l1_init (&h, profile, r->l1_bytes);
  /* L2 on a thread of its own where there are cores to spare and warps
   * enough (ws_hier_pipe_wanted) */
  if (ws_hier_pipe_wanted () &&
      ws_dim3_count (ws_pattern_get_grid (pattern)) * h.warps_per_block * h.n_accesses >= PIPE_MIN_INSTRUCTIONS)
    h.pipe = ws_hier_pipe_new (profile, h.n_accesses);
  else
    ws_hier_l2_init (&h, profile);
  h.schedule = ws_block_schedule_new (profile->sms, r->blocks_per_sm,
                                      profile->block_ns,
                                      block_duration_ns (profile, pattern), BLOCK_JITTER);

  r->launch = ws_model_walk_launch (pattern, visit_warp, &h, cancellable, error);
  if (r->launch != NULL)
    {
      /* the warps still held, in the order they came */
      for (guint64 k = h.n_visited >= WS_HIER_HELD - 1 ? h.n_visited - (WS_HIER_HELD - 1) : 0; k < h.n_visited; k++)
        run_warp (&h, &h.held[k % WS_HIER_HELD]);
      for (guint sm = 0; sm < profile->sms; sm++)
        ws_hier_flush_stores (&h, sm);
      ws_hier_send_apply (&h);
    }
  if (h.pipe)
    ws_hier_pipe_finish (g_steal_pointer (&h.pipe), r->accesses);
  for (guint k = 0; k < WS_HIER_ATOMIC_SKETCH; k++)
    r->atomic_max_address = MAX (r->atomic_max_address, h.atomic_sketch[k]);
  for (guint k = 0; k < h.n_slices; k++)
    r->atomic_max_slice = MAX (r->atomic_max_slice, h.slice_passes[k]);
  hier_clear (&h);
  if (r->launch == NULL)
    return NULL;
  for (guint i = 0; i < r->n_accesses; i++)
    ws_hier_stats_add (&r->total, &r->accesses[i]);
  r->seconds = (g_get_monotonic_time () - t0) / 1e6;
  return g_steal_pointer (&r);
}

void
ws_hierarchy_free (WsHierarchy *hierarchy)
{
  if (hierarchy == NULL)
    return;
  g_clear_pointer (&hierarchy->launch, ws_launch_stats_free);
  g_free (hierarchy->accesses);
  g_free (hierarchy->shapes);
  g_free (hierarchy);
}

void
ws_hier_stats_add (WsHierStats       *into,
                   const WsHierStats *from)
{
  into->l1_sectors += from->l1_sectors;
  into->l1_hits += from->l1_hits;
  into->l2_read_sectors += from->l2_read_sectors;
  into->l2_read_requests += from->l2_read_requests;
  into->l2_read_hits += from->l2_read_hits;
  into->l2_write_sectors += from->l2_write_sectors;
  into->l2_write_requests += from->l2_write_requests;
  into->l2_partial_sectors += from->l2_partial_sectors;
  into->l2_atomic_sectors += from->l2_atomic_sectors;
  into->dram_read_bytes += from->dram_read_bytes;
  into->dram_write_bytes += from->dram_write_bytes;
  into->dram_transfers += from->dram_transfers;
  into->dram_row_misses += from->dram_row_misses;
  into->dram_small_writes += from->dram_small_writes;
}

double
ws_hier_stats_l1_hit_rate (const WsHierStats *stats)
{
  return stats->l1_sectors ? (double) stats->l1_hits / (double) stats->l1_sectors : 0.0;
}

double
ws_hier_stats_l2_hit_rate (const WsHierStats *stats)
{
  return stats->l2_read_sectors ? (double) stats->l2_read_hits / (double) stats->l2_read_sectors : 0.0;
}

/* ------------------------------------------------------------------ */
/* A launch as a stream of warp instructions                          */
/* ------------------------------------------------------------------ */

struct _WsHierWalk
{
  WsHier h;
  WsHierarchy *r;
  guint8 *arrays;
  gint64 t0;
};

WsHierWalk *
ws_hier_walk_new (const WsDeviceProfile  *profile,
                  const WsHierWalkLaunch *launch,
                  GError                **error)
{
  g_autoptr (WsHierWalk) w = NULL;
  WsHier *h;
  WsHierarchy *r;
  guint warps;
  WsHierarchyOptions options = { 0 };
  WsOccupancy occ;
  guint threads;

  g_return_val_if_fail (profile != NULL && launch != NULL, NULL);
  g_return_val_if_fail (launch->n_accesses <= WS_HIER_WALK_MAX_ACCESSES, NULL);

  if (!ws_device_profile_validate (profile, error))
    return NULL;
  threads = (guint) ws_dim3_count (launch->block);
  warps = (threads + WS_WARP_SIZE - 1) / WS_WARP_SIZE;
  options.registers_per_thread = launch->registers_per_thread ? launch->registers_per_thread : 32;
  if (!ws_occupancy_compute (ws_device_profile_sm_limits (profile), threads, options.registers_per_thread,
                             (guint) MIN (launch->shared_per_block, G_MAXUINT), &occ, error))
    return NULL;

  w = g_new0 (WsHierWalk, 1);
  w->t0 = g_get_monotonic_time ();
  w->r = r = g_new0 (WsHierarchy, 1);
  r->n_accesses = launch->n_accesses;
  r->accesses = g_new0 (WsHierStats, MAX (r->n_accesses, 1));
  r->shapes = g_new0 (WsAccessShape, MAX (r->n_accesses, 1));
  if (r->n_accesses > 0)
    memcpy (r->shapes, launch->shapes, r->n_accesses * sizeof *r->shapes);
  r->shared_per_block = launch->shared_per_block;
  r->local_per_thread = launch->local_per_thread;
  r->blocks_per_sm = MAX (occ.blocks_per_sm, 1);
  r->warps_per_sm = r->blocks_per_sm * warps;
  r->l1_bytes = ws_device_profile_l1_bytes (profile, r->blocks_per_sm, r->shared_per_block);

  w->arrays = g_new0 (guint8, MAX (r->n_accesses, 1));
  for (guint i = 0; i < r->n_accesses; i++)
    w->arrays[i] = launch->arrays ? MIN (launch->arrays[i], LOCAL_ARRAY_ID - 1) : 0;

  h = &w->h;
  h->n_accesses = r->n_accesses;
  h->shapes = r->shapes;
  h->stats = r->accesses;
  h->array_id = w->arrays;
  h->warps_per_block = warps;
  h->slots = r->blocks_per_sm;
  h->sms = profile->sms;
  h->max_warps_per_sm = ws_device_profile_sm_limits (profile)->max_threads_per_sm / WS_WARP_SIZE;
  h->local_slice = MAX (r->local_per_thread, 16) * WS_WARP_SIZE;
  h->n_slices = profile->l2_slices;
  h->atomic_sketch = g_new0 (guint64, WS_HIER_ATOMIC_SKETCH);
  h->slice_passes = g_new0 (guint64, h->n_slices);
  ws_hier_l1_init (h, profile, r->l1_bytes);
  /* L2 on a thread of its own where there are cores and warps enough */
  if (ws_hier_pipe_wanted ())
    h->pipe = ws_hier_pipe_new (profile, h->n_accesses);
  else
    ws_hier_l2_init (h, profile);
  h->schedule = ws_block_schedule_new (profile->sms, r->blocks_per_sm, profile->block_ns,
                                       profile->dram_latency_ns + 2.0 * warps * MAX (r->n_accesses, 1) +
                                         profile->warp_ns * 64,
                                       BLOCK_JITTER);
  return g_steal_pointer (&w);
}

void
ws_hier_walk_access (WsHierWalk   *walk,
                     guint64       block,
                     guint         warp,
                     guint         access,
                     guint32       active,
                     const gint64 *addresses)
{
  WsHier *h = &walk->h;
  const WsAccessShape *a;
  WsSectors s;

  g_return_if_fail (access < h->n_accesses);
  g_return_if_fail (!h->started || block >= h->block);

  a = &h->shapes[access];
  if (active == 0 || (a->space != WS_SPACE_GLOBAL && a->space != WS_SPACE_LOCAL))
    return;
  if (!h->started || block != h->block)
    {
      if (h->started)
        ws_hier_send_apply (h);
      h->block = block;
      h->place = *schedule_to (h, block);
      h->started = TRUE;
    }
  if (a->space == WS_SPACE_LOCAL)
    {
      local_sectors (h, &h->place, addresses, active, a->elem_size, warp, &s);
      if (a->kind == WS_ACCESS_LOAD)
        ws_hier_load (h, access, &s);
      else
        ws_hier_store (h, access, &s, h->l1_sets > 0);
      return;
    }
  gather_sectors (addresses, active, a->elem_size, (guint64) h->array_id[access] << 56, &s);
  switch (a->kind)
    {
    case WS_ACCESS_LOAD:
      ws_hier_load (h, access, &s);
      break;
    case WS_ACCESS_ATOMIC:
      {
        WsWarpCounts counts;

        /* the sectors L2 passes over: once per round of updates to one address */
        ws_model_count_warp (a->space, a->kind, a->elem_size, active, addresses, &counts, NULL);
        h->stats[access].l2_atomic_sectors += counts.sectors;
      }
      count_atomics (h, addresses, active, h->array_id[access], 1);
      ws_hier_atomic (h, access, &s);
      break;
    case WS_ACCESS_STORE:
    case WS_N_ACCESS_KINDS:
    default:
      ws_hier_store (h, access, &s, FALSE);
      break;
    }
}

WsHierarchy *
ws_hier_walk_finish (WsHierWalk    *walk,
                     WsLaunchStats *launch)
{
  WsHier *h = &walk->h;
  WsHierarchy *r = g_steal_pointer (&walk->r);

  for (guint sm = 0; sm < h->sms; sm++)
    ws_hier_flush_stores (h, sm);
  ws_hier_send_apply (h);
  if (h->pipe)
    ws_hier_pipe_finish (g_steal_pointer (&h->pipe), r->accesses);
  for (guint k = 0; k < WS_HIER_ATOMIC_SKETCH; k++)
    r->atomic_max_address = MAX (r->atomic_max_address, h->atomic_sketch[k]);
  for (guint k = 0; k < h->n_slices; k++)
    r->atomic_max_slice = MAX (r->atomic_max_slice, h->slice_passes[k]);
  for (guint i = 0; i < r->n_accesses; i++)
    ws_hier_stats_add (&r->total, &r->accesses[i]);
  r->launch = launch;
  r->seconds = (g_get_monotonic_time () - walk->t0) / 1e6;
  ws_hier_walk_free (walk);
  return r;
}

void
ws_hier_walk_free (WsHierWalk *walk)
{
  if (walk == NULL)
    return;
  walk->h.array_id = NULL;   /* the walk's own, freed below */
  if (walk->h.pipe)
    ws_hier_pipe_finish (g_steal_pointer (&walk->h.pipe), NULL);
  g_free (walk->h.atomic_sketch);
  g_free (walk->h.slice_passes);
  ws_hier_l1_clear (&walk->h);
  ws_hier_l2_clear (&walk->h);
  g_clear_pointer (&walk->h.schedule, ws_block_schedule_free);
  g_free (walk->arrays);
  g_clear_pointer (&walk->r, ws_hierarchy_free);
  g_free (walk);
}
