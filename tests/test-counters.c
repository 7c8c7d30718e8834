/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Hardware counters through CUPTI: the numbers the model predicts for
 * simple patterns, errors that name their cause. Skips, saying why, where
 * counters cannot be read. */
#include "ws-config.h"
#include "ws-presets.h"

#include <string.h>

#if WS_HAVE_CUDA
#include "ws-counters.h"
#include "ws-gpu.h"
#include "ws-jit.h"

static gboolean
have_counters (void)
{
  g_autoptr (GError) error = NULL;

  if (!ws_counters_available (&error))
    {
      g_autofree char *reason = g_strdup_printf ("no hardware counters: %s", error->message);
      g_test_skip (reason);
      return FALSE;
    }
  return TRUE;
}

static void
test_metric_names (void)
{
  const char *const *all = ws_counters_default_metrics ();
  const char *const *shared = ws_counters_metrics_for (WS_SPACE_SHARED, WS_ACCESS_LOAD);
  const char *const *constant = ws_counters_metrics_for (WS_SPACE_CONSTANT, WS_ACCESS_LOAD);

  g_assert_true (g_strv_contains ((const char *const *) all, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"));
  g_assert_true (g_strv_contains ((const char *const *) all, "lts__t_sector_hit_rate.pct"));
  g_assert_true (g_strv_contains ((const char *const *) all, "dram__bytes_read.sum"));
  g_assert_cmpstr (shared[0], ==, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum");
  g_assert_cmpstr (constant[0], ==, "idc__requests.sum");
}

/* Without permission, a profiler attached, or a GPU, the answer says which. */
static void
test_unavailable_reason (void)
{
  g_autoptr (GError) error = NULL;

  if (ws_counters_available (&error))
    {
      g_test_skip ("counters are available here");
      return;
    }
  g_assert_true (error->domain == WS_GPU_ERROR);
  g_assert_cmpuint (strlen (error->message), >, 20);
}

typedef struct
{
  const char *preset;
  const char *metric;
  double per_instruction;     /* what docs/hardware-model.md says */
  const char *per;
} Expectation;

static const Expectation expectations[] = {
  { "coalescing/sequential", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 4, "smsp__inst_executed_op_global_ld.sum" },
  { "coalescing/offset", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 5, "smsp__inst_executed_op_global_ld.sum" },
  { "coalescing/stride", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 32, "smsp__inst_executed_op_global_ld.sum" },
  { "coalescing/broadcast", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 1, "smsp__inst_executed_op_global_ld.sum" },
  { "banks/padding", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", 32, "smsp__inst_executed_op_shared_ld.sum" },
  { "banks/elem16", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", 4, "smsp__inst_executed_op_shared_ld.sum" },
  { "private-array/nonuniform-local", "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum", 32, "smsp__inst_executed_op_local_ld.sum" },
  { "private-array/uniform-local", "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum", 4, "smsp__inst_executed_op_local_ld.sum" },
};

static void
test_counts (void)
{
  if (!have_counters ())
    return;
  for (guint i = 0; i < G_N_ELEMENTS (expectations); i++)
    {
      const Expectation *e = &expectations[i];
      g_autoptr (WsPattern) p = ws_preset_build (ws_preset_lookup (e->preset));
      g_autoptr (GError) error = NULL;
      g_autoptr (WsJitLaunch) jl = ws_jit_prepare (p, NULL, &error);
      g_autoptr (WsMeasurement) m = ws_measurement_new ("expr");
      const char *metrics[] = { e->metric, e->per, NULL };
      double value = 0, per = 0;

      g_assert_no_error (error);
      g_assert_true (ws_counters_collect (ws_jit_launch, jl, metrics, m, &error));
      g_assert_no_error (error);
      g_assert_true (ws_measurement_get_counter (m, e->metric, &value));
      g_assert_true (ws_measurement_get_counter (m, e->per, &per));
      g_assert_cmpfloat (per, >, 0);
      if (G_APPROX_VALUE (value / per, e->per_instruction, 0.01) == FALSE)
        g_error ("%s: %s per instruction is %.3f, not %.0f", e->preset, e->metric, value / per, e->per_instruction);
      /* and the model agrees with both */
      g_assert_cmpfloat (per, ==, (double) ws_jit_launch_get_stats (jl)->total.instructions);
    }
}

static void
test_unknown_metric (void)
{
  g_autoptr (WsPattern) p = ws_preset_build (ws_preset_lookup ("coalescing/sequential"));
  g_autoptr (GError) error = NULL;
  g_autoptr (WsJitLaunch) jl = NULL;
  g_autoptr (WsMeasurement) m = ws_measurement_new ("expr");
  const char *metrics[] = { "l1tex__no_such_counter.sum", NULL };

  if (!have_counters ())
    return;
  jl = ws_jit_prepare (p, NULL, &error);
  g_assert_no_error (error);
  g_assert_false (ws_counters_collect (ws_jit_launch, jl, metrics, m, &error));
  g_assert_error (error, WS_GPU_ERROR, WS_GPU_ERROR_INVALID_PARAM);
  g_assert_nonnull (strstr (error->message, "l1tex__no_such_counter.sum"));
  g_assert_cmpuint (m->counters->len, ==, 0);
}

/* The default set: every metric comes back, once. */
static void
test_default_set (void)
{
  g_autoptr (WsPattern) p = ws_preset_build (ws_preset_lookup ("transpose/shared"));
  g_autoptr (GError) error = NULL;
  g_autoptr (WsJitLaunch) jl = NULL;
  g_autoptr (WsMeasurement) m = ws_measurement_new ("expr");
  double hit = -1, dram = -1;

  if (!have_counters ())
    return;
  jl = ws_jit_prepare (p, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (ws_counters_collect (ws_jit_launch, jl, NULL, m, &error));
  /* what the chip has of the set, each once */
  for (guint i = 0; i < m->counters->len; i++)
    {
      const char *name = g_array_index (m->counters, WsCounter, i).name;
      g_assert_true (g_strv_contains (ws_counters_default_metrics (), name));
      for (guint k = i + 1; k < m->counters->len; k++)
        g_assert_cmpstr (name, !=, g_array_index (m->counters, WsCounter, k).name);
    }
  g_assert_cmpuint (m->counters->len, >=, g_strv_length ((char **) ws_counters_default_metrics ()) - 2);
  g_assert_true (ws_measurement_get_counter (m, "lts__t_sector_hit_rate.pct", &hit));
  g_assert_cmpfloat (hit, >=, 0);
  g_assert_cmpfloat (hit, <=, 100);
  g_assert_true (ws_measurement_get_counter (m, "dram__bytes_read.sum", &dram));
  g_assert_cmpfloat (dram, >, 0);
}

/* The SASS metrics a kernel text's lines are counted with: those the GPU
 * has, among them the ones the per-line comparison reads. */
static void
test_line_metrics (void)
{
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) names = NULL;

  if (!have_counters ())
    return;
  names = ws_counters_line_metrics (&error);
  g_assert_no_error (error);
  for (guint i = 0; names[i]; i++)
    g_test_message ("SASS metric: %s", names[i]);
  g_assert_true (g_strv_contains ((const char *const *) names, "smsp__sass_inst_executed"));
  g_assert_true (g_strv_contains ((const char *const *) names, "smsp__sass_sectors_mem_global"));
}

/* A launch is timed with no profiler enabled, even in a run of
 * collections that holds it between them (warpscope-cli truth): the truth
 * table's host copies took about twice the time `measure` gives them
 * (transfer/pageable: 10.04 ms in the H200's table, 4.70 ms recorded). The
 * copy is timed alone, then again after a collection that holds the
 * profiler. */
static double
pageable_median_ms (void)
{
  const WsKernelInfo *info = ws_gpu_kernel_lookup ("transfer/pageable");
  g_autoptr (GArray) params = g_array_new (FALSE, FALSE, sizeof (WsParamValue));
  WsMeasureOptions options = WS_MEASURE_OPTIONS_DEFAULT;
  g_autoptr (GError) error = NULL;
  g_autoptr (WsMeasurement) m = NULL;

  g_assert_nonnull (info);
  for (guint i = 0; i < info->n_params; i++)
    {
      WsParamValue v = { (char *) info->params[i].name, info->params[i].def };
      g_array_append_val (params, v);
    }
  m = ws_gpu_measure (info->id, (const WsParamValue *) params->data, params->len, &options, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  return m->median_ms;
}

static void
test_timed_without_profiler (void)
{
  g_autoptr (WsPattern) p = NULL;
  g_autoptr (WsMeasurement) counted = NULL;
  g_autoptr (GError) error = NULL;
  double alone, after;

  if (!have_counters ())
    return;
  alone = pageable_median_ms ();
  p = ws_preset_build (ws_preset_lookup ("coalescing/sequential"));
  counted = ws_gpu_count_pattern (p, NULL, FALSE, TRUE, NULL, &error);
  g_assert_no_error (error);
  after = pageable_median_ms ();
  ws_counters_hold (FALSE);
  g_test_message ("transfer/pageable: %.3f ms alone, %.3f ms after a held collection", alone, after);
  g_assert_cmpfloat (after, <, alone * 1.25);
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
  g_test_add_func ("/counters/metric-names", test_metric_names);
  g_test_add_func ("/counters/unavailable-reason", test_unavailable_reason);
  g_test_add_func ("/counters/counts", test_counts);
  g_test_add_func ("/counters/unknown-metric", test_unknown_metric);
  g_test_add_func ("/counters/default-set", test_default_set);
  g_test_add_func ("/counters/line-metrics", test_line_metrics);
  g_test_add_func ("/counters/timed-without-profiler", test_timed_without_profiler);
#else
  g_test_add_func ("/counters/not-built", test_not_built);
#endif
  return g_test_run ();
}
