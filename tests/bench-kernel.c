/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Benchmark: the model of each course kernel of tests/data/kernels at the
 * launch its comment gives: the CPU seconds of ws_kernel_model_analyze
 * (L1's view, best of 3) with the VM's warp instructions a second, and of
 * ws_kernel_predict with the H200's profile (what `warpscope-cli model
 * --kernel` runs: L1, L2, DRAM and the time). Run with `meson test
 * --benchmark kernel-model`; the target is under 1 s each on a 2-core
 * machine. */
#include "ws-device-json.h"
#include "ws-kernel-predict.h"

#include <stdio.h>
#include <time.h>

static double
cpu_seconds (void)
{
  struct timespec t;

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &t);
  return t.tv_sec + t.tv_nsec / 1e9;
}

static WsDeviceProfile *h200;

static gboolean
run (const char *file,
     const char *kernel)
{
  g_autofree char *path = g_build_filename (g_getenv ("WS_SOURCE_DIR") ? g_getenv ("WS_SOURCE_DIR") : ".", "tests",
                                            "data", "kernels", file, NULL);
  g_autofree char *text = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (WsKernelFile) f = NULL;
  g_autoptr (WsKernelLaunchConfig) cfg = NULL;
  g_autoptr (WsKernelInstance) inst = NULL;
  double best = G_MAXDOUBLE, wall = 0, setup;
  guint64 instructions = 0, threads = 0;

  if (!g_file_get_contents (path, &text, NULL, &error) ||
      (f = ws_kernel_file_parse (text, -1, file, &error)) == NULL ||
      (cfg = ws_kernel_config_new (f, kernel, &error)) == NULL ||
      !ws_kernel_config_set (cfg, "blockSize", "256", &error))
    {
      printf ("%s: %s\n", file, error->message);
      return FALSE;
    }
  setup = cpu_seconds ();
  inst = ws_kernel_instance_new (f, cfg, NULL, &error);
  setup = cpu_seconds () - setup;
  if (inst == NULL)
    {
      printf ("%s: %s\n", file, error->message);
      return FALSE;
    }
  for (guint i = 0; i < 3; i++)
    {
      double c0 = cpu_seconds ();
      gint64 w0 = g_get_monotonic_time ();
      g_autoptr (WsKernelStats) s = ws_kernel_model_analyze (inst, NULL, NULL, &error);

      if (s == NULL)
        {
          printf ("%s: %s\n", file, error->message);
          return FALSE;
        }
      if (cpu_seconds () - c0 < best)
        {
          best = cpu_seconds () - c0;
          wall = (g_get_monotonic_time () - w0) / 1e6;
        }
      instructions = s->counts.instructions + s->counts.memory_instructions;
      threads = s->threads;
    }
  {
    double c0 = cpu_seconds ();
    g_autoptr (WsKernelPrediction) p = ws_kernel_predict (inst, h200, 0, NULL, NULL, &error);
    double whole = cpu_seconds () - c0 + setup;

    if (p == NULL)
      {
        printf ("%s: %s\n", file, error->message);
        return FALSE;
      }
    printf ("%-16s %-26s %9" G_GUINT64_FORMAT " threads %11" G_GUINT64_FORMAT " warp instructions: "
            "%.3f s CPU (%.3f s wall, %.3f s to size), %6.1f M/s; model --kernel with the hierarchy: "
            "%.3f s CPU%s\n",
            file, ws_kernel_instance_get_kernel_name (inst), threads, instructions, best, wall, setup,
            instructions / best / 1e6, whole, whole < 1.0 ? "" : "  OVER 1 s");
  }
  return TRUE;
}

int
main (int    argc,
      char **argv)
{
  static const struct
  {
    const char *file;
    const char *kernel;
  } kernels[] = {
    { "transpose.cu", "copy" },
    { "transpose.cu", "transposeNaive" },
    { "transpose.cu", "transposeCoalesced" },
    { "transpose.cu", "transposeNoBankConflicts" },
    { "reduction.cu", "reduce0" },
    { "reduction.cu", "reduce1" },
    { "reduction.cu", "reduce2" },
    { "reduction.cu", "reduce3" },
    { "reduction.cu", "reduce4" },
    { "reduction.cu", "reduce5" },
    { "stencil_1d.cu", NULL },
    { "matvec.cu", "matvec_rows" },
    { "matvec.cu", "matvec_cols" },
    { "grid_stride.cu", NULL },
    { "histogram.cu", NULL },
    { "matmul_tiled.cu", NULL },
    { "shuffle_reduce.cu", "deviceReduceWarpAtomicKernel" },
    { "shuffle_reduce.cu", "deviceReduceBlockAtomicKernel" },
    { "dot_product.cu", NULL },
  };
  gboolean ok = TRUE;
  g_autoptr (GError) error = NULL;

  if ((h200 = ws_device_profile_find ("nvidia-h200", &error)) == NULL)
    {
      printf ("%s\n", error->message);
      return 1;
    }
  printf ("# the model of each course kernel, at its file's launch\n");
  for (guint i = 0; i < G_N_ELEMENTS (kernels); i++)
    ok = run (kernels[i].file, kernels[i].kernel) && ok;
  return ok ? 0 : 1;
}
