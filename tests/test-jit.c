/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Generated kernels on the GPU: loaded, launched, sized by the model, and
 * refused when they cannot fit. Skips, saying why, without a GPU. */
#include "ws-config.h"
#include "ws-presets.h"

#include <string.h>

#if WS_HAVE_CUDA
#include "ws-jit.h"
#include "ws-jit-private.h"
#include "ws-gpu.h"

static gboolean
have_gpu (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *name = ws_jit_device_name (&error);

  if (name == NULL)
    {
      g_autofree char *reason = g_strdup_printf ("no usable GPU: %s", error->message);
      g_test_skip (reason);
      return FALSE;
    }
  return TRUE;
}

/* Without a GPU the reason is one of the GPU layer's, never a crash. */
static void
test_no_gpu_reason (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *name = ws_jit_device_name (&error);

  if (name != NULL)
    {
      g_test_skip ("a GPU is present: this test is about machines without one");
      return;
    }
  g_assert_true (error->domain == WS_GPU_ERROR);
  g_assert_true (error->code == WS_GPU_ERROR_NO_DRIVER || error->code == WS_GPU_ERROR_DRIVER_TOO_OLD ||
                 error->code == WS_GPU_ERROR_NO_DEVICE);
}

static void
test_every_preset_runs (void)
{
  guint n;
  const WsPreset *presets = ws_presets_get_all (&n);

  if (!have_gpu ())
    return;
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (WsPattern) p = ws_preset_build (&presets[i]);
      g_autoptr (GError) error = NULL;
      g_autoptr (WsJitLaunch) jl = ws_jit_prepare (p, NULL, &error);
      g_autoptr (WsMeasurement) m = ws_measurement_new ("expr");

      if (jl == NULL || !ws_jit_launch_sync (jl, &error))
        g_error ("%s: %s", presets[i].id, error->message);
      ws_jit_launch_describe (jl, m);
      g_assert_cmpint (m->registers, >, 0);
      g_assert_cmpint (m->blocks_per_sm, >, 0);
      /* the local arrays of the private-array presets stay in local memory */
      if (g_str_has_suffix (presets[i].id, "-local") || g_str_has_suffix (presets[i].id, "local-wide"))
        g_assert_cmpint (m->local_bytes, >=, 128);
    }
}

/* The second prepare of the same pattern reuses the module. */
static void
test_cache (void)
{
  g_autoptr (WsPattern) p = ws_preset_build (ws_preset_lookup ("banks/elem8"));
  g_autoptr (WsJitLaunch) first = NULL;
  g_autoptr (WsJitLaunch) second = NULL;
  gint64 t0, t1, t2;

  if (!have_gpu ())
    return;
  t0 = g_get_monotonic_time ();
  first = ws_jit_prepare (p, NULL, NULL);
  t1 = g_get_monotonic_time ();
  second = ws_jit_prepare (p, NULL, NULL);
  t2 = g_get_monotonic_time ();
  g_assert_nonnull (first);
  g_assert_nonnull (second);
  g_assert_cmpstr (ws_jit_launch_get_source (first)->hash, ==, ws_jit_launch_get_source (second)->hash);
  /* NVRTC takes tens of milliseconds; a cached module none */
  g_assert_cmpint (t2 - t1, <, t1 - t0);
  g_assert_true (ws_jit_launch_sync (second, NULL));
}

/* More global memory than any GPU has: refused before anything is
 * allocated, naming the lane that reaches furthest. */
static void
test_too_large (void)
{
  g_autoptr (WsPattern) p = ws_pattern_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (WsJitLaunch) jl = NULL;

  if (!have_gpu ())
    return;
  g_assert_true (ws_pattern_set_grid (p, WS_DIM3 (64, 1, 1), NULL));
  g_assert_true (ws_pattern_add_definition (p, "i", "blockIdx.x * blockDim.x + threadIdx.x", NULL));
  g_assert_true (ws_pattern_add_access (p, "big", WS_SPACE_GLOBAL, WS_ACCESS_LOAD, 4, "i * 100000000", 0, NULL));
  jl = ws_jit_prepare (p, NULL, &error);
  g_assert_null (jl);
  g_assert_error (error, WS_GPU_ERROR, WS_GPU_ERROR_OUT_OF_MEMORY);
  g_assert_nonnull (strstr (error->message, "block (63, 0, 0), thread (255, 0, 0) — warp 7, lane 31"));
}

static void
test_measure_pattern (void)
{
  g_autoptr (WsPattern) p = ws_preset_build (ws_preset_lookup ("coalescing/sequential"));
  WsMeasureOptions options = WS_MEASURE_OPTIONS_DEFAULT;
  g_autoptr (GError) error = NULL;
  g_autoptr (WsMeasurement) m = NULL;
  gint64 n;

  if (!have_gpu ())
    return;
  m = ws_gpu_measure_pattern (p, &options, NULL, NULL, NULL, &error);
  if (m == NULL && g_error_matches (error, WS_GPU_ERROR, WS_GPU_ERROR_NOT_BUILT))
    {
      g_test_skip ("this build's GPU layer cannot time kernels yet");
      return;
    }
  g_assert_no_error (error);
  g_assert_cmpuint (m->samples_ms->len, >=, 10);
  g_assert_cmpfloat (m->median_ms, >, 0);
  /* the preset's N floats asked for, as its real kernel reads them */
  {
    gint64 preset_n = 0;

    g_assert_true (ws_pattern_get_param (p, "N", &preset_n));
    g_assert_cmpint (m->bytes, ==, preset_n * 4);
    g_assert_true (ws_measurement_get_param (m, "N", &n));
    g_assert_cmpint (n, ==, preset_n);
  }
  g_assert_cmpint (m->registers, >, 0);
}

/* WS_JIT_NVCC: the same printed kernel compiled by nvcc into a cubin (no
 * GPU needed to compile), and what nvcc says where it does not compile.
 * NVRTC and nvcc give different code for one text (NVRTC addresses shared
 * memory in 64 bits): this holds one against the other on a GPU. */
static void
test_nvcc_instead (void)
{
  g_autofree char *nvcc = g_find_program_in_path ("nvcc");
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) image = NULL;
  g_autofree char *log = NULL;
  const char *good = "extern \"C\" __global__ void k(int *a) { __shared__ int s[32]; s[threadIdx.x] = 1; "
                     "__syncthreads(); a[threadIdx.x] = s[31 - threadIdx.x]; }\n";
  const guint8 *bytes;
  gsize size;

  if (nvcc == NULL && g_file_test ("/usr/local/cuda/bin/nvcc", G_FILE_TEST_IS_EXECUTABLE))
    nvcc = g_strdup ("/usr/local/cuda/bin/nvcc");
  if (nvcc == NULL)
    {
      g_test_skip ("nvcc is not installed");
      return;
    }
  g_setenv ("WS_JIT_NVCC", nvcc, TRUE);
  image = ws_jit_compile_text (good, "k.cu", "sm_90", TRUE, &log, &error);
  g_assert_no_error (error);
  bytes = g_bytes_get_data (image, &size);
  g_assert_cmpuint (size, >, 64);
  g_assert_cmpmem (bytes, 4, "\177ELF", 4);
  g_clear_pointer (&image, g_bytes_unref);
  g_clear_pointer (&log, g_free);
  image = ws_jit_compile_text ("extern \"C\" __global__ void k(int *a) { a[0] = b; }\n", "k.cu", "sm_90", FALSE,
                               &log, &error);
  g_assert_null (image);
  g_assert_error (error, WS_GPU_ERROR, WS_GPU_ERROR_COMPILE_FAILED);
  g_assert_nonnull (strstr (error->message, "identifier \"b\" is undefined"));
  g_unsetenv ("WS_JIT_NVCC");
}

#else

static void
test_not_built (void)
{
  g_test_skip ("this build has no CUDA backend (no CUDA toolkit when it was built)");
}

#endif

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
#if WS_HAVE_CUDA
  g_test_add_func ("/jit/no-gpu-reason", test_no_gpu_reason);
  g_test_add_func ("/jit/every-preset-runs", test_every_preset_runs);
  g_test_add_func ("/jit/cache", test_cache);
  g_test_add_func ("/jit/too-large", test_too_large);
  g_test_add_func ("/jit/measure-pattern", test_measure_pattern);
  g_test_add_func ("/jit/nvcc-instead", test_nvcc_instead);
#else
  g_test_add_func ("/jit/not-built", test_not_built);
#endif
  return g_test_run ();
}
