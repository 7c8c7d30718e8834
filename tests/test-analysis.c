/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "ws-analysis.h"
#include "ws-analysis-private.h"
#include "ws-presets.h"

#include <string.h>

/* ------------------------------------------------------------------ */
/* The literature's numbers, for 4-byte floats from an aligned array   */
/* ------------------------------------------------------------------ */

static WsPattern *
one_access (const char *index,
            WsSpace     space,
            guint       elem,
            WsDim3      block,
            WsDim3      grid)
{
  g_autoptr (GError) error = NULL;
  WsPattern *p = ws_pattern_new ();

  g_assert_true (ws_pattern_set_block (p, block, &error));
  g_assert_true (ws_pattern_set_grid (p, grid, &error));
  g_assert_true (ws_pattern_add_access (p, "x", space, WS_ACCESS_LOAD, elem, index, 0, &error));
  g_assert_no_error (error);
  return p;
}

static WsLaunchStats *
analyze (WsPattern *p)
{
  g_autoptr (GError) error = NULL;
  WsLaunchStats *s = ws_model_analyze_launch (p, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (s);
  return s;
}

typedef struct
{
  const char *name;
  const char *index;
  guint grid;
  double sectors_per_request;
  double efficiency;
} CoalescingCase;

static const CoalescingCase coalescing[] = {
  { "sequential", "blockIdx.x * blockDim.x + threadIdx.x", 64, 4, 1.0 },
  { "permuted", "blockIdx.x * blockDim.x + (threadIdx.x ^ 1)", 64, 4, 1.0 },
  { "offset", "blockIdx.x * blockDim.x + threadIdx.x + 1", 64, 5, 0.8 },
  { "stride", "blockIdx.x + threadIdx.x * gridDim.x", 128, 32, 0.125 },
  { "broadcast", "0", 64, 1, 0.125 },
};

static void
test_coalescing (gconstpointer data)
{
  const CoalescingCase *c = data;
  g_autoptr (WsPattern) p = one_access (c->index, WS_SPACE_GLOBAL, 4, WS_DIM3 (256, 1, 1), WS_DIM3 (c->grid, 1, 1));
  g_autoptr (WsLaunchStats) s = analyze (p);

  g_assert_cmpuint (s->total.instructions, ==, c->grid * 8);
  g_assert_cmpuint (s->total.requests, ==, s->total.instructions);
  g_assert_cmpfloat_with_epsilon (ws_stats_sectors_per_request (&s->total), c->sectors_per_request, 1e-9);
  g_assert_cmpfloat_with_epsilon (ws_stats_efficiency (&s->total), c->efficiency, 1e-9);
}

static void
test_presets_match_literature (void)
{
  struct { const char *id; double spr; double eff; } cases[] = {
    { "coalescing/sequential", 4, 1.0 },
    { "coalescing/permuted", 4, 1.0 },
    { "coalescing/offset", 5, 0.8 },
    { "coalescing/stride", 32, 0.125 },
    { "coalescing/broadcast", 1, 0.125 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (WsPattern) p = ws_preset_build (ws_preset_lookup (cases[i].id));
      g_autoptr (WsLaunchStats) s = analyze (p);

      g_test_message ("%s", cases[i].id);
      g_assert_cmpfloat_with_epsilon (ws_stats_sectors_per_request (&s->total), cases[i].spr, 1e-9);
      g_assert_cmpfloat_with_epsilon (ws_stats_efficiency (&s->total), cases[i].eff, 1e-9);
    }
}

static void
test_transpose (void)
{
  struct { const char *id; double read_spr; double write_spr; } cases[] = {
    { "transpose/copy", 4, 4 },
    { "transpose/read-coalesced", 4, 32 },
    { "transpose/write-coalesced", 32, 4 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (WsPattern) p = ws_preset_build (ws_preset_lookup (cases[i].id));
      g_autoptr (WsLaunchStats) s = NULL;

      g_assert_true (ws_pattern_set_param (p, "N", 1024, NULL));
      g_assert_true (ws_pattern_set_grid (p, WS_DIM3 (32, 32, 1), NULL));
      s = analyze (p);
      g_assert_cmpuint (s->n_accesses, ==, 2);
      g_assert_cmpfloat_with_epsilon (ws_stats_sectors_per_request (&s->accesses[0]), cases[i].read_spr, 1e-9);
      g_assert_cmpfloat_with_epsilon (ws_stats_sectors_per_request (&s->accesses[1]), cases[i].write_spr, 1e-9);
    }
}

static void
test_tile (void)
{
  /* A 32 × 32 float tile read by column: 32 wavefronts; padded by one word: 1. */
  g_autoptr (WsPattern) plain = one_access ("threadIdx.x * 32 + threadIdx.y", WS_SPACE_SHARED, 4,
                                            WS_DIM3 (32, 32, 1), WS_DIM3 (1, 1, 1));
  g_autoptr (WsPattern) padded = one_access ("threadIdx.x * 33 + threadIdx.y", WS_SPACE_SHARED, 4,
                                             WS_DIM3 (32, 32, 1), WS_DIM3 (1, 1, 1));
  g_autoptr (WsLaunchStats) a = analyze (plain);
  g_autoptr (WsLaunchStats) b = analyze (padded);

  g_assert_cmpfloat_with_epsilon (ws_stats_wavefronts_per_instruction (&a->total), 32, 1e-9);
  g_assert_cmpuint (ws_stats_bank_conflicts (&a->total), ==, 31 * 32);
  g_assert_cmpfloat_with_epsilon (ws_stats_wavefronts_per_instruction (&b->total), 1, 1e-9);
  g_assert_cmpuint (ws_stats_bank_conflicts (&b->total), ==, 0);

  {
    g_autoptr (WsPattern) p1 = ws_preset_build (ws_preset_lookup ("transpose/shared"));
    g_autoptr (WsPattern) p2 = ws_preset_build (ws_preset_lookup ("transpose/shared-padded"));
    g_autoptr (WsLaunchStats) s1 = NULL;
    g_autoptr (WsLaunchStats) s2 = NULL;

    ws_pattern_set_param (p1, "N", 256, NULL);
    ws_pattern_set_grid (p1, WS_DIM3 (8, 8, 1), NULL);
    ws_pattern_set_param (p2, "N", 256, NULL);
    ws_pattern_set_grid (p2, WS_DIM3 (8, 8, 1), NULL);
    s1 = analyze (p1);
    s2 = analyze (p2);
    g_assert_cmpfloat_with_epsilon (ws_stats_wavefronts_per_instruction (&s1->accesses[2]), 32, 1e-9);
    g_assert_cmpfloat_with_epsilon (ws_stats_wavefronts_per_instruction (&s2->accesses[2]), 1, 1e-9);
    /* both global sides stay coalesced */
    g_assert_cmpfloat_with_epsilon (ws_stats_sectors_per_request (&s1->accesses[0]), 4, 1e-9);
    g_assert_cmpfloat_with_epsilon (ws_stats_sectors_per_request (&s1->accesses[3]), 4, 1e-9);
  }
}

static void
test_local_interleaving (void)
{
  /* a warp-uniform index touches 4 sectors; lane-distinct indices 32 */
  g_autoptr (WsPattern) uniform = one_access ("blockIdx.x % 8", WS_SPACE_LOCAL, 4, WS_DIM3 (64, 1, 1), WS_DIM3 (16, 1, 1));
  g_autoptr (WsPattern) distinct = one_access ("lane", WS_SPACE_LOCAL, 4, WS_DIM3 (64, 1, 1), WS_DIM3 (16, 1, 1));
  g_autoptr (WsLaunchStats) u = analyze (uniform);
  g_autoptr (WsLaunchStats) d = analyze (distinct);
  g_autoptr (WsWarpResult) w = ws_model_analyze_warp (distinct, 0, WS_DIM3 (0, 0, 0), 1, NULL);

  g_assert_cmpfloat_with_epsilon (ws_stats_sectors_per_request (&u->total), 4, 1e-9);
  g_assert_cmpfloat_with_epsilon (ws_stats_replays_per_instruction (&u->total), 0, 1e-9);
  g_assert_cmpfloat_with_epsilon (ws_stats_sectors_per_request (&d->total), 32, 1e-9);
  g_assert_cmpfloat_with_epsilon (ws_stats_replays_per_instruction (&d->total), 31, 1e-9);
  /* word i of lane l at (i * 32 + l) * 4 */
  g_assert_nonnull (w);
  for (guint l = 0; l < 32; l++)
    g_assert_cmpint (w->address[l], ==, (l * 32 + l) * 4);
}

static void
test_constant_and_atomics (void)
{
  g_autoptr (WsPattern) c = one_access ("lane % 8", WS_SPACE_CONSTANT, 4, WS_DIM3 (64, 1, 1), WS_DIM3 (4, 1, 1));
  g_autoptr (WsLaunchStats) cs = analyze (c);
  g_autoptr (WsPattern) a = ws_preset_build (ws_preset_lookup ("atomics/one-address"));
  g_autoptr (WsLaunchStats) as = NULL;
  g_autoptr (WsWarpResult) w = NULL;

  g_assert_cmpfloat_with_epsilon (ws_stats_distinct_per_instruction (&cs->total), 8, 1e-9);
  g_assert_cmpfloat_with_epsilon (ws_stats_replays_per_instruction (&cs->total), 7, 1e-9);
  g_assert_cmpuint (cs->total.requests, ==, 8 * cs->total.instructions);

  /* a 16-byte constant is read by four 4-byte LDCs, each once per address */
  {
    g_autoptr (WsPattern) wide = one_access ("lane % 4", WS_SPACE_CONSTANT, 16, WS_DIM3 (64, 1, 1), WS_DIM3 (4, 1, 1));
    g_autoptr (WsLaunchStats) ws = analyze (wide);

    g_assert_cmpuint (ws->total.distinct_addresses, ==, 4 * ws->total.instructions);
    g_assert_cmpuint (ws->total.requests, ==, 16 * ws->total.instructions);
  }

  ws_pattern_set_grid (a, WS_DIM3 (4, 1, 1), NULL);
  as = analyze (a);
  g_assert_cmpuint (as->total.atomic_conflicts, ==, 31 * as->total.instructions);
  g_assert_cmpfloat_with_epsilon (ws_stats_replays_per_instruction (&as->total), 31, 1e-9);
  w = ws_model_analyze_warp (a, 0, WS_DIM3 (1, 0, 0), 0, NULL);
  g_assert_cmpuint (w->steps->len, ==, 32);
  for (guint i = 0; i < 32; i++)
    g_assert_cmpuint (g_array_index (w->steps, WsStep, i).lanes, ==, 1u << i);
}

/* ------------------------------------------------------------------ */
/* Hardware counters: tests/data/sm90-probe.txt, measured on an H100   */
/* ------------------------------------------------------------------ */

/* The per-lane element offsets of tools/hw-probe/probe.cu, -1 = inactive. */
static gboolean
probe_pattern (const char *name,
               gint64      off[32])
{
  static const int strides[] = { 1, 2, 3, 4, 8, 16, 17, 32, 33 };

  for (guint s = 0; s < G_N_ELEMENTS (strides); s++)
    {
      g_autofree char *n = g_strdup_printf ("stride%d", strides[s]);
      if (strcmp (name, n) == 0)
        {
          for (int l = 0; l < 32; l++)
            off[l] = l * strides[s];
          return TRUE;
        }
    }
#define PAT(NAME, EXPR) \
  if (strcmp (name, NAME) == 0) { for (int l = 0; l < 32; l++) off[l] = (EXPR); return TRUE; }
  PAT ("offset1", l + 1)
  PAT ("bcast", 0)
  PAT ("mod16", l % 16)
  PAT ("mod8", l % 8)
  PAT ("mod4", l % 4)
  PAT ("div2", l / 2)
  PAT ("div4", l / 4)
  PAT ("rev", 31 - l)
  PAT ("xor1", l ^ 1)
  PAT ("xor16", l ^ 16)
  PAT ("xor8", l ^ 8)
  PAT ("perm", (l * 7 + 3) % 32)
  PAT ("even_active", l % 2 ? -1 : l)
  PAT ("first8", l < 8 ? l : -1)
  PAT ("halves_far", l < 16 ? l : l + 64)
  PAT ("halves_swapped", l < 16 ? l + 16 : l - 16)
  PAT ("quarters_rev", (3 - l / 8) * 8 + l % 8)
  PAT ("q0q1same", l < 16 ? l % 8 : l)
  PAT ("stride2_mod16", (l % 16) * 2)
  PAT ("lane_x8_mod", (l * 8) % 64 + l / 8)
  PAT ("two_per_bank", (l % 16) + (l / 16) * 32)
  PAT ("bank0_4", (l % 4) * 32)
#undef PAT
  return FALSE;
}

static void
test_hardware_probe (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "sm90-probe.txt", NULL);
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  g_autoptr (GError) error = NULL;
  guint checked = 0;

  g_assert_true (g_file_get_contents (path, &text, NULL, &error));
  g_assert_no_error (error);
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      g_auto (GStrv) f = NULL;
      WsSpace space;
      WsAccessKind kind;
      guint elem;
      gint64 off[32], addr[32];
      guint32 active = 0;
      WsWarpCounts c;
      gint64 expected, got;
      const char *metric;

      if (lines[i][0] == '#' || lines[i][0] == '\0')
        continue;
      f = g_strsplit (lines[i], " ", -1);
      g_assert_cmpuint (g_strv_length (f), ==, 6);
      g_assert_true (ws_space_from_string (f[0], &space));
      g_assert_true (ws_access_kind_from_string (f[1], &kind));
      elem = (guint) g_ascii_strtoull (f[2], NULL, 10);
      g_assert_true (probe_pattern (f[3], off));
      metric = f[4];
      expected = g_ascii_strtoll (f[5], NULL, 10);

      /* the probe ran constants with inactive lanes on element 0, and
       * local memory and atomics on offsets modulo 64 */
      for (guint l = 0; l < 32; l++)
        {
          if (space == WS_SPACE_CONSTANT || space == WS_SPACE_LOCAL || kind == WS_ACCESS_ATOMIC)
            off[l] = MAX (off[l], 0);
          if (space == WS_SPACE_LOCAL || kind == WS_ACCESS_ATOMIC)
            off[l] %= 64;
          if (off[l] >= 0)
            active |= 1u << l;
          addr[l] = off[l] * elem;
        }
      ws_model_count_warp (space, kind, elem, active, addr, &c, NULL);
      if (strcmp (metric, "wavefronts") == 0)
        got = c.wavefronts;
      else if (strcmp (metric, "ideal") == 0)
        got = c.ideal_wavefronts;
      else if (strcmp (metric, "sectors") == 0)
        got = c.sectors;
      else if (strcmp (metric, "requests") == 0)
        got = c.requests;
      else
        g_assert_not_reached ();
      if (got != expected)
        g_error ("%s: the model says %" G_GINT64_FORMAT ", the H100 counted %" G_GINT64_FORMAT, lines[i], got, expected);
      checked++;
    }
  g_test_message ("%u hardware counts reproduced", checked);
  g_assert_cmpuint (checked, >, 1000);
}

/* ------------------------------------------------------------------ */
/* Schedules, aggregates and errors                                   */
/* ------------------------------------------------------------------ */

static void
test_schedules_cover_lanes (void)
{
  guint n;
  const WsPreset *presets = ws_presets_get_all (&n);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr (WsPattern) p = ws_preset_build (&presets[i]);

      for (guint a = 0; a < ws_pattern_get_n_accesses (p); a++)
        {
          g_autoptr (GError) error = NULL;
          g_autoptr (WsWarpResult) r = ws_model_analyze_warp (p, a, WS_DIM3 (0, 0, 0), 0, &error);
          guint32 covered = 0;
          guint sector_steps = 0, wavefront_steps = 0, address_steps = 0;

          g_assert_no_error (error);
          for (guint s = 0; s < r->steps->len; s++)
            {
              const WsStep *step = &g_array_index (r->steps, WsStep, s);
              covered |= step->lanes;
              sector_steps += step->kind == WS_STEP_SECTOR;
              wavefront_steps += step->kind == WS_STEP_WAVEFRONT;
              address_steps += step->kind == WS_STEP_ADDRESS;
              g_assert_cmpuint (step->lanes & ~r->active, ==, 0);
            }
          /* every active lane is served by some step */
          g_assert_cmpuint (covered, ==, r->active);
          if (r->space == WS_SPACE_GLOBAL && r->kind != WS_ACCESS_ATOMIC)
            g_assert_cmpuint (sector_steps, ==, r->counts.sectors);
          if (r->space == WS_SPACE_LOCAL)
            g_assert_cmpuint (sector_steps, ==, r->counts.sectors);
          if (r->space == WS_SPACE_SHARED)
            g_assert_cmpuint (wavefront_steps, ==, r->counts.wavefronts);
          if (r->space == WS_SPACE_CONSTANT)
            g_assert_cmpuint (address_steps, ==, r->counts.distinct_addresses);
        }
    }
}

static void
test_block_sums_to_launch (void)
{
  g_autoptr (WsPattern) p = ws_preset_build (ws_preset_lookup ("transpose/shared"));
  g_autoptr (WsLaunchStats) launch = NULL;
  WsStats sum;

  ws_pattern_set_param (p, "N", 96, NULL);
  ws_pattern_set_grid (p, WS_DIM3 (3, 3, 1), NULL);
  launch = analyze (p);
  memset (&sum, 0, sizeof sum);
  sum.min_address = G_MAXINT64;
  sum.end_address = G_MININT64;
  for (guint y = 0; y < 3; y++)
    for (guint x = 0; x < 3; x++)
      {
        g_autoptr (GError) error = NULL;
        g_autoptr (WsLaunchStats) b = ws_model_analyze_block (p, WS_DIM3 (x, y, 0), &error);

        g_assert_no_error (error);
        g_assert_cmpuint (b->blocks, ==, 1);
        ws_stats_add (&sum, &b->total);
      }
  g_assert_cmpuint (sum.instructions, ==, launch->total.instructions);
  g_assert_cmpuint (sum.sectors, ==, launch->total.sectors);
  g_assert_cmpuint (sum.wavefronts, ==, launch->total.wavefronts);
  g_assert_cmpuint (sum.bytes_moved, ==, launch->total.bytes_moved);
}

static void
test_threads_agree (void)
{
  /* big enough to run on several threads; the result must not depend on it */
  g_autoptr (WsPattern) p = ws_preset_build (ws_preset_lookup ("transpose/read-coalesced"));
  g_autoptr (WsLaunchStats) s = NULL;
  guint64 n = 1000;

  ws_pattern_set_param (p, "N", (gint64) n, NULL);
  ws_pattern_set_grid (p, WS_DIM3 (32, 32, 1), NULL);
  s = analyze (p);
  /* guard x < N && y < N: exactly N × N threads, N × N / 32 warps… except the
   * ragged edge: 1000 = 31 × 32 + 8 */
  g_assert_cmpuint (s->accesses[0].active_lanes, ==, n * n);
  g_assert_cmpuint (s->accesses[0].instructions, ==, (31 + 1) * n);
  g_assert_cmpuint (s->accesses[1].sectors, ==, n * n);
  g_assert_cmpint (s->accesses[0].min_address, ==, 0);
  g_assert_cmpint (s->accesses[0].end_address, ==, (gint64) (n * n * 4));
}

typedef struct
{
  const char *index;
  const char *guard;
  WsSpace space;
  guint elem;
  const char *fragments[3];
} ErrorCase;

static const ErrorCase errors[] = {
  { "N / (37 - threadIdx.x)", NULL, WS_SPACE_GLOBAL, 4,
    { "block (0, 0, 0), thread (37, 0, 0) — warp 1, lane 5", "division by zero", "column 3" } },
  { "threadIdx.x - 5", NULL, WS_SPACE_GLOBAL, 4,
    { "thread (0, 0, 0) — warp 0, lane 0", "byte -20", "before the start" } },
  { "threadIdx.x * 9223372036854775807", NULL, WS_SPACE_GLOBAL, 4,
    { "thread (1, 0, 0) — warp 0, lane 1", "overflows 64 bits", NULL } },
  { "threadIdx.x * 100000", NULL, WS_SPACE_SHARED, 4,
    { "thread (1, 0, 0)", "beyond the 232448 bytes shared memory can hold per block", NULL } },
  { "threadIdx.x * 5000", NULL, WS_SPACE_CONSTANT, 4,
    { "thread (4, 0, 0)", "65536 bytes constant memory", NULL } },
  { "threadIdx.x", "N / (threadIdx.x - 3) > 0", WS_SPACE_GLOBAL, 4,
    { "thread (3, 0, 0)", "the guard", "division by zero" } },
  /* the guard keeps the failing lane from evaluating the index */
  { "N / (threadIdx.x - 3)", "threadIdx.x != 3 && blockIdx.x > 0", WS_SPACE_GLOBAL, 1,
    { "block (1, 0, 0), thread (2, 0, 0)", "64-bit overflow", NULL } },
};

static void
test_errors (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (errors); i++)
    {
      const ErrorCase *c = &errors[i];
      g_autoptr (WsPattern) p = one_access (c->index, c->space, c->elem, WS_DIM3 (64, 1, 1), WS_DIM3 (2, 1, 1));
      g_autoptr (GError) error = NULL;
      WsLaunchStats *s;

      /* N is such that the last case overflows in block 1 only */
      ws_pattern_set_param (p, "N", i == G_N_ELEMENTS (errors) - 1 ? G_MININT64 : 1000, NULL);
      if (c->guard)
        g_assert_true (ws_pattern_set_guard (p, c->guard, NULL));
      s = ws_model_analyze_launch (p, NULL, &error);
      g_test_message ("%s → %s", c->index, error ? error->message : "(no error)");
      g_assert_null (s);
      g_assert_error (error, WS_PATTERN_ERROR, error->code);
      for (guint k = 0; k < G_N_ELEMENTS (c->fragments) && c->fragments[k]; k++)
        g_assert_nonnull (strstr (error->message, c->fragments[k]));
    }
}

static void
test_misaligned (void)
{
  g_autoptr (WsPattern) p = ws_pattern_new ();
  g_autoptr (GError) error = NULL;

  /* a base offset that is not a multiple of the element is refused at once */
  g_assert_false (ws_pattern_add_access (p, "x", WS_SPACE_GLOBAL, WS_ACCESS_LOAD, 8, "threadIdx.x", 4, &error));
  g_assert_error (error, WS_PATTERN_ERROR, WS_PATTERN_ERROR_INVALID);
}

static void
test_cancel (void)
{
  g_autoptr (WsPattern) p = ws_preset_build (ws_preset_lookup ("coalescing/sequential"));
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autoptr (GError) error = NULL;
  WsLaunchStats *s;

  g_cancellable_cancel (cancellable);
  s = ws_model_analyze_launch (p, cancellable, &error);
  g_assert_null (s);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

/* A private array kept in registers is checked like memory: an index that
 * fails, is negative or lands past what registers can hold is an error, not a
 * kernel that indexes out of its array. */
static void
test_register_checks (void)
{
  static const struct { const char *index; const char *fragment; } bad[] = {
    { "1 / 0", "division by zero" },
    { "-5", "before the start" },
    { "threadIdx.x - 1", "before the start" },
    { "9223372036854775807", "overflows" },
    { "threadIdx.x * 1000", "registers" },
    { "255", "registers" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr (WsPattern) p = one_access (bad[i].index, WS_SPACE_REGISTER, 4, WS_DIM3 (64, 1, 1), WS_DIM3 (2, 1, 1));
      g_autoptr (GError) error = NULL;
      g_autoptr (WsLaunchStats) s = ws_model_analyze_launch (p, NULL, &error);
      g_autoptr (WsWarpResult) r = NULL;

      g_assert_null (s);
      g_assert_true (g_error_matches (error, WS_PATTERN_ERROR, WS_PATTERN_ERROR_ADDRESS) ||
                     g_error_matches (error, WS_PATTERN_ERROR, WS_PATTERN_ERROR_EVALUATION));
      g_assert_nonnull (strstr (error->message, bad[i].fragment));
      g_clear_error (&error);
      r = ws_model_analyze_warp (p, 0, WS_DIM3 (0, 0, 0), 0, &error);
      g_assert_null (r);
      g_assert_nonnull (error);
    }
  {
    g_autoptr (WsPattern) p = one_access ("254", WS_SPACE_REGISTER, 4, WS_DIM3 (64, 1, 1), WS_DIM3 (2, 1, 1));
    g_autoptr (WsLaunchStats) s = analyze (p);

    g_assert_cmpint (s->accesses[0].end_address, ==, WS_MAX_REGISTER_BYTES);
  }
}

/* Lanes a guard turns off may compute any value, and the addresses of two
 * warps may be further apart than a signed difference holds: neither is
 * undefined behaviour (the sanitized build of the tests says so). */
static void
test_extreme_addresses (void)
{
  static const struct { WsSpace space; guint elem; const char *guard; const char *index; } cases[] = {
    { WS_SPACE_LOCAL, 4, "threadIdx.x < 1", "threadIdx.x * 1000000000000000000" },
    { WS_SPACE_LOCAL, 16, "threadIdx.x == 3", "threadIdx.x * 576460752303423487 - 1729382256910270461" },
    { WS_SPACE_GLOBAL, 1, NULL, "warp % 2 * 9223372036854775806" },
    { WS_SPACE_GLOBAL, 1, "lane == 0", "lane * 297528130221121790 * (1 - warp % 2 * 2)" },
    { WS_SPACE_SHARED, 4, "lane < 1", "lane * 4611686018427387903" },
    { WS_SPACE_GLOBAL, 16, "lane == 0", "warp % 2 * 576460752303423486" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (WsPattern) p = one_access (cases[i].index, cases[i].space, cases[i].elem,
                                            WS_DIM3 (256, 1, 1), WS_DIM3 (4, 1, 1));
      g_autoptr (GError) error = NULL;
      g_autoptr (WsLaunchStats) s = NULL;
      g_autoptr (WsWarpResult) r = NULL;

      g_assert_true (ws_pattern_set_guard (p, cases[i].guard, &error));
      s = analyze (p);
      g_assert_cmpuint (s->accesses[0].instructions, >, 0);
      for (guint w = 0; w < 8; w++)
        {
          g_clear_pointer (&r, ws_warp_result_free);
          r = ws_model_analyze_warp (p, 0, WS_DIM3 (3, 0, 0), w, &error);
          g_assert_no_error (error);
        }
    }
}

static gboolean
visit_nothing (const WsWarpVisit *visit,
               gpointer           user_data,
               GError           **error)
{
  return TRUE;
}

/* Blocks of one thread are a warp each, and the model's work is per warp:
 * 2^31 of them took 200 s. More warps than the largest launch in full
 * warps has (2^27) are refused at once, with the time they would take,
 * for the launch's numbers and for the hierarchy's walk alike; as many are
 * analysed. */
static void
test_tiny_blocks (void)
{
  static const struct { const char *grid; const char *block; } refused[] = {
    { "2147483647", "1" },
    { "2147483647,2", "1" },
    { "1048576,256", "1,1,1" },
    { "134217729", "2" },
    { "67108865", "33" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (refused); i++)
    {
      g_autoptr (WsPattern) p = ws_pattern_new ();
      g_autoptr (WsLaunchStats) stats = NULL;
      g_autoptr (WsLaunchStats) walked = NULL;
      g_autoptr (GError) error = NULL;
      WsDim3 grid, block;

      g_assert_true (ws_dim3_parse (refused[i].grid, &grid, &error));
      g_assert_true (ws_dim3_parse (refused[i].block, &block, &error));
      g_assert_true (ws_pattern_set_grid (p, grid, &error));
      g_assert_true (ws_pattern_set_block (p, block, &error));
      g_assert_true (ws_pattern_add_access (p, "in", WS_SPACE_GLOBAL, WS_ACCESS_LOAD, 4, "blockIdx.x", 0, &error));
      g_assert_no_error (error);
      if (ws_dim3_count (grid) * ws_dim3_count (block) > WS_MODEL_MAX_THREADS)
        continue;
      stats = ws_model_analyze_launch (p, NULL, &error);
      g_assert_null (stats);
      g_test_message ("%s", error->message);
      g_assert_error (error, WS_PATTERN_ERROR, WS_PATTERN_ERROR_INVALID);
      g_assert_nonnull (strstr (error->message, "the model analyses at most 134217728 (2^27) warps"));
      g_assert_nonnull (strstr (error->message, "would take about "));
      g_clear_error (&error);
      walked = ws_model_walk_launch (p, visit_nothing, NULL, NULL, &error);
      g_assert_null (walked);
      g_assert_nonnull (strstr (error->message, "(2^27) warps"));
    }

  /* as many as that are analysed: here a smaller share of them, in as
   * many blocks of one thread as warps */
  {
    g_autoptr (WsPattern) p = ws_pattern_new ();
    g_autoptr (WsLaunchStats) stats = NULL;
    g_autoptr (GError) error = NULL;

    g_assert_true (ws_pattern_set_grid (p, WS_DIM3 (65536, 1, 1), &error));
    g_assert_true (ws_pattern_set_block (p, WS_DIM3 (1, 1, 1), &error));
    g_assert_true (ws_pattern_add_access (p, "in", WS_SPACE_GLOBAL, WS_ACCESS_LOAD, 4, "blockIdx.x", 0, &error));
    stats = ws_model_analyze_launch (p, NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (stats->warps, ==, 65536);
  }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (coalescing); i++)
    {
      g_autofree char *path = g_strdup_printf ("/analysis/coalescing/%s", coalescing[i].name);
      g_test_add_data_func (path, &coalescing[i], test_coalescing);
    }
  g_test_add_func ("/analysis/coalescing/presets", test_presets_match_literature);
  g_test_add_func ("/analysis/transpose", test_transpose);
  g_test_add_func ("/analysis/tile", test_tile);
  g_test_add_func ("/analysis/local-interleaving", test_local_interleaving);
  g_test_add_func ("/analysis/constant-and-atomics", test_constant_and_atomics);
  g_test_add_func ("/analysis/hardware-probe", test_hardware_probe);
  g_test_add_func ("/analysis/schedules", test_schedules_cover_lanes);
  g_test_add_func ("/analysis/block-sums", test_block_sums_to_launch);
  g_test_add_func ("/analysis/threads-agree", test_threads_agree);
  g_test_add_func ("/analysis/errors", test_errors);
  g_test_add_func ("/analysis/misaligned", test_misaligned);
  g_test_add_func ("/analysis/cancel", test_cancel);
  g_test_add_func ("/analysis/register-checks", test_register_checks);
  g_test_add_func ("/analysis/extreme-addresses", test_extreme_addresses);
  g_test_add_func ("/analysis/tiny-blocks", test_tiny_blocks);
  return g_test_run ();
}
