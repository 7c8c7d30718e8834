/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A pattern written out as a kernel text (ws_pattern_to_kernel_text ()):
 * the text reads and checks, and the kernel model serves it, over the
 * whole launch, as the pattern model serves the pattern: for every access,
 * the same instructions, active lanes, requests, sectors, wavefronts,
 * conflicts, distinct addresses, replays and bytes. Every preset's pattern
 * (its grid cut to a few blocks), and patterns typed here where CUDA's
 * unsigned built-ins would wrap what the pattern computes in 64 bits. */
#include "ws-config.h"
#include "ws-analysis.h"
#include "ws-kernel.h"
#include "ws-kernel-spec.h"
#include "ws-pattern-kernel.h"
#include "ws-presets.h"

#include <string.h>

static void
hold (const WsPattern *pattern,
      const char      *what)
{
  g_autofree char *text = ws_pattern_to_kernel_text (pattern, what);
  g_autoptr (GError) error = NULL;
  g_autoptr (WsKernelSpec) spec = ws_kernel_spec_new (text, "pattern.cu");
  g_autoptr (WsKernelInstance) inst = NULL;
  g_autoptr (WsKernelStats) ks = NULL;
  g_autoptr (WsLaunchStats) ls = NULL;
  guint site = 0;

  inst = ws_kernel_spec_instantiate (spec, NULL, &error);
  if (inst == NULL)
    g_test_message ("%s:\n%s", what, text);
  g_assert_no_error (error);
  ks = ws_kernel_model_analyze (inst, NULL, NULL, &error);
  g_assert_no_error (error);
  ls = ws_model_analyze_launch (pattern, NULL, &error);
  g_assert_no_error (error);

  for (guint i = 0; i < ws_pattern_get_n_accesses (pattern); i++)
    {
      const WsStats *p = &ls->accesses[i], *k;

      /* the text's sites in order, past the store that keeps the loads */
      g_assert_cmpuint (site, <, ks->n_sites);
      k = &ks->sites[site++];
      /* in registers: no memory instruction in the pattern, an executed
       * site of the text's that moves nothing */
      if (ws_pattern_get_access (pattern, i)->space == WS_SPACE_REGISTER)
        {
          g_assert_cmpuint (p->requests + p->sectors + p->wavefronts, ==, 0);
          g_assert_cmpuint (k->requests + k->sectors + k->wavefronts, ==, 0);
          continue;
        }
      if (p->instructions != k->instructions || p->active_lanes != k->active_lanes || p->requests != k->requests ||
          p->sectors != k->sectors || p->wavefronts != k->wavefronts || p->ideal_wavefronts != k->ideal_wavefronts ||
          p->distinct_addresses != k->distinct_addresses ||
          p->replays != k->replays || p->bytes_requested != k->bytes_requested || p->bytes_moved != k->bytes_moved)
        {
          g_test_message ("%s:\n%s", what, text);
          g_test_fail_printf ("%s, access %u: the pattern's %" G_GUINT64_FORMAT " instructions, %" G_GUINT64_FORMAT
                              " sectors, %" G_GUINT64_FORMAT " wavefronts, %" G_GUINT64_FORMAT
                              " replays; the kernel's %" G_GUINT64_FORMAT ", %" G_GUINT64_FORMAT ", %" G_GUINT64_FORMAT
                              ", %" G_GUINT64_FORMAT, what, i, p->instructions, p->sectors, p->wavefronts, p->replays,
                              k->instructions, k->sectors, k->wavefronts, k->replays);
          return;
        }
    }
  /* and nothing else but the store no lane makes */
  g_assert_cmpuint (site + 1, ==, ks->n_sites);
  g_assert_cmpuint (ks->sites[site].instructions, ==, 0);
}

static void
test_presets (void)
{
  guint n;
  const WsPreset *presets = ws_presets_get_all (&n);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr (WsPattern) p = ws_preset_build (&presets[i]);
      WsDim3 grid = ws_pattern_get_grid (p);
      WsDim3 few = { MIN (grid.x, 12), MIN (grid.y, 3), MIN (grid.z, 2) };

      g_assert_nonnull (p);
      /* a few blocks, the first and some past it: the same pattern for both */
      if (!ws_pattern_set_grid (p, few, NULL))
        g_assert_true (ws_pattern_set_grid (p, grid, NULL));
      hold (p, presets[i].id);
    }
}

static WsPattern *
typed (const char *index,
       const char *guard,
       WsSpace     space,
       guint       elem_size)
{
  g_autoptr (GError) error = NULL;
  WsPattern *p = ws_pattern_new ();

  g_assert_true (ws_pattern_set_block (p, (WsDim3) { 64, 2, 1 }, &error));
  g_assert_true (ws_pattern_set_grid (p, (WsDim3) { 3, 1, 1 }, &error));
  ws_pattern_set_param (p, "shared", 5, &error);
  g_assert_no_error (error);
  g_assert_true (ws_pattern_add_definition (p, "t", "threadIdx.y * blockDim.x + threadIdx.x", &error));
  if (guard)
    g_assert_true (ws_pattern_set_guard (p, guard, &error));
  g_assert_true (ws_pattern_add_access (p, "in", space, WS_ACCESS_LOAD, elem_size, index, 0, &error));
  g_assert_true (ws_pattern_add_access (p, "out", WS_SPACE_GLOBAL, WS_ACCESS_STORE, 4, "blockIdx.x * 128 + t", 0, &error));
  g_assert_no_error (error);
  return p;
}

/* threadIdx & co. are unsigned in CUDA: threadIdx.x - blockIdx.x is
 * 4294967295 in lane 0 of block 1, -1 in the pattern. The text widens them
 * where it matters, and the guard then keeps the lane out as the pattern
 * does. A parameter called
 * as a key of the launch comment ("shared") is renamed; lane and warp are
 * locals of the text. */
static void
test_typed (void)
{
  struct { const char *index, *guard; WsSpace space; guint size; } cases[] = {
    { "threadIdx.x - 1", "threadIdx.x - 1 >= 0", WS_SPACE_GLOBAL, 4 },
    { "threadIdx.x - blockIdx.x", "threadIdx.x - blockIdx.x >= 0", WS_SPACE_GLOBAL, 4 },
    { "blockIdx.x * 128 + (63 - threadIdx.x) * shared", "-threadIdx.x + 40 > 0", WS_SPACE_GLOBAL, 8 },
    { "(threadIdx.x * 33 + lane) % 64", NULL, WS_SPACE_SHARED, 4 },
    { "warp * 32 + (lane ^ 1)", "~threadIdx.x & 1", WS_SPACE_GLOBAL, 16 },
    { "min(lane, 3) + abs(threadIdx.y - threadIdx.x) % 8", NULL, WS_SPACE_CONSTANT, 4 },
    { "max(t - 70, 0) % 16", NULL, WS_SPACE_LOCAL, 4 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (WsPattern) p = typed (cases[i].index, cases[i].guard, cases[i].space, cases[i].size);
      g_autofree char *text = ws_pattern_to_kernel_text (p, NULL);

      g_test_message ("in[%s] if (%s)", cases[i].index, cases[i].guard ? cases[i].guard : "");
      hold (p, cases[i].index);
      /* the parameter "shared" is a key of the launch comment */
      g_assert_nonnull (strstr (text, "shared_value = 5"));
      g_assert_null (strstr (text, " shared = "));
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/pattern-kernel/presets", test_presets);
  g_test_add_func ("/pattern-kernel/typed", test_typed);
  return g_test_run ();
}
