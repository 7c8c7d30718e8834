/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Benchmark: warp instructions per second of the model, on launches big
 * enough to matter. Run with `meson test --benchmark`; prints figures. */
#include "ws-analysis.h"
#include "ws-presets.h"

#include <stdio.h>

static void
run (const char *id,
     gint64      n)
{
  g_autoptr (WsPattern) p = ws_preset_build (ws_preset_lookup (id));
  double best = G_MAXDOUBLE;
  guint64 instructions = 0;

  ws_pattern_set_param (p, "N", n, NULL);
  ws_pattern_set_grid (p, WS_DIM3 ((guint) ((n + 31) / 32), (guint) ((n + 31) / 32), 1), NULL);
  for (guint i = 0; i < 3; i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (WsLaunchStats) s = ws_model_analyze_launch (p, NULL, &error);

      g_assert_no_error (error);
      best = MIN (best, s->seconds);
      instructions = s->total.instructions;
    }
  printf ("%-28s %5" G_GINT64_FORMAT " × %-5" G_GINT64_FORMAT " %10" G_GUINT64_FORMAT " warp instructions in %.3f s: %6.1f M/s (best of 3, %u threads)\n",
          id, n, n, instructions, best, instructions / best / 1e6, g_get_num_processors ());
}

int
main (int    argc,
      char **argv)
{
  printf ("# model throughput\n");
  run ("transpose/read-coalesced", 10000);
  run ("transpose/write-coalesced", 10000);
  run ("transpose/shared-padded", 10000);
  run ("transpose/copy", 10000);
  return 0;
}
