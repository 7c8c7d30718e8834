/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The GPU layer: the registry (no GPU needed), and on a GPU every kernel
 * verified against its CPU reference at its defaults and at every point of
 * its standard sweep, faults, cancellation, progress, and the orderings the
 * hardware demands. Without a GPU those skip with the reason.
 *
 * WS_TEST_SMALL=1 runs every kernel on small inputs (for compute-sanitizer);
 * it leaves out the timing tests. */
#include "ws-config.h"
#include "ws-gpu.h"
#include "ws-presets.h"

#include <math.h>
#include <string.h>

static gboolean
small (void)
{
  return g_strcmp0 (g_getenv ("WS_TEST_SMALL"), "1") == 0;
}

static gboolean
have_gpu (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WsDeviceInfo) info = ws_gpu_probe (&error);

  if (info == NULL)
    {
      g_test_skip (error->message);
      return FALSE;
    }
  return TRUE;
}

static gint64
small_value (const WsKernelInfo  *info,
             const WsGpuKernelParam *p)
{
  if (strcmp (p->name, "N") == 0)
    return g_str_has_prefix (info->id, "transpose/") ? 256 : MIN (p->def, 1 << 16);
  if (strcmp (p->name, "H") == 0)
    return 64;
  if (strcmp (p->name, "hot") == 0)
    return 4096;
  if (strcmp (p->name, "loads") == 0)
    return 64;
  return p->def;
}

/* Every parameter of the kernel, at its default or (small) a small size. */
static GArray *
params_for (const WsKernelInfo *info,
            gboolean            shrink)
{
  GArray *params = g_array_new (FALSE, TRUE, sizeof (WsParamValue));

  for (guint i = 0; i < info->n_params; i++)
    {
      WsParamValue p = { (char *) info->params[i].name,
                         shrink ? small_value (info, &info->params[i]) : info->params[i].def };
      g_array_append_val (params, p);
    }
  return params;
}

static void
set (GArray     *params,
     const char *name,
     gint64      value)
{
  for (guint i = 0; i < params->len; i++)
    if (strcmp (g_array_index (params, WsParamValue, i).name, name) == 0)
      {
        g_array_index (params, WsParamValue, i).value = value;
        return;
      }
  g_assert_not_reached ();
}

static WsMeasurement *
measure (const char *id,
         GArray     *params,
         GError    **error)
{
  WsMeasureOptions options = WS_MEASURE_OPTIONS_DEFAULT;

  return ws_gpu_measure (id, (const WsParamValue *) params->data, params->len, &options, NULL, NULL, NULL, error);
}

static void
assert_sound (const WsMeasurement *m,
              GArray              *params)
{
  g_assert_true (m->verified);
  g_assert_cmpuint (m->samples_ms->len, ==, 10);
  g_assert_cmpfloat (m->min_ms, >, 0);
  g_assert_cmpfloat (m->min_ms, <=, m->median_ms);
  g_assert_cmpfloat (m->median_ms, <=, m->max_ms);
  for (guint i = 0; i < m->samples_ms->len; i++)
    {
      double s = g_array_index (m->samples_ms, double, i);
      g_assert_cmpfloat (s, >=, m->min_ms);
      g_assert_cmpfloat (s, <=, m->max_ms);
    }
  if (m->bytes > 0)
    g_assert_cmpfloat_with_epsilon (m->bandwidth_gbs, m->bytes / (m->median_ms * 1e6), 1e-6 * m->bandwidth_gbs);
  g_assert_true (m->cold);
  g_assert_cmpint (m->sm_clock_mhz, >, 100);
  g_assert_nonnull (m->description);
  for (guint i = 0; i < params->len; i++)
    {
      const WsParamValue *p = &g_array_index (params, WsParamValue, i);
      gint64 v;
      g_assert_true (ws_measurement_get_param (m, p->name, &v));
      g_assert_cmpint (v, ==, p->value);
    }
  if (strcmp (m->id, "reference/memcpy") != 0)
    {
      g_assert_cmpint (m->registers, >, 0);
      g_assert_cmpint (m->blocks_per_sm, >, 0);
      g_assert_cmpint (m->warps_per_sm, >=, m->blocks_per_sm);
    }
}

/* ------------------------------------------------------------------ */
/* Without a GPU                                                      */
/* ------------------------------------------------------------------ */

static void
test_registry (void)
{
  guint n, n_presets;
  const WsKernelInfo *kernels = ws_gpu_kernels (&n);
  const WsPreset *presets = ws_presets_get_all (&n_presets);

  /* a real kernel for every preset */
  for (guint i = 0; i < n_presets; i++)
    if (ws_gpu_kernel_lookup (presets[i].id) == NULL)
      g_error ("the preset %s has no kernel", presets[i].id);
  for (guint i = 0; i < n; i++)
    {
      const WsKernelInfo *k = &kernels[i];

      if (!g_str_has_prefix (k->id, "reference/") && ws_preset_lookup (k->id) == NULL)
        g_error ("the kernel %s is no preset's", k->id);
      g_assert_true (ws_gpu_kernel_lookup (k->id) == k);
      for (guint j = 0; j < k->n_params; j++)
        {
          g_assert_cmpint (k->params[j].min, <=, k->params[j].def);
          g_assert_cmpint (k->params[j].def, <=, k->params[j].max);
          g_assert_true (ws_kernel_info_get_param (k, k->params[j].name) == &k->params[j]);
        }
      if (k->sweep_param)
        {
          const WsGpuKernelParam *p = ws_kernel_info_get_param (k, k->sweep_param);
          g_autoptr (GError) error = NULL;
          g_autoptr (GArray) values = ws_sweep_values_parse (k->sweep_values, &error);

          g_assert_no_error (error);
          g_assert_nonnull (p);
          for (guint v = 0; v < values->len; v++)
            {
              g_assert_cmpint (g_array_index (values, gint64, v), >=, p->min);
              g_assert_cmpint (g_array_index (values, gint64, v), <=, p->max);
            }
        }
    }
  g_assert_null (ws_gpu_kernel_lookup ("coalescing/nonsense"));
}

/* One declaration per kernel: the model's pattern of a preset runs at the
 * kernel's defaults, so `model --preset X` analyses what `measure X` runs. */
static void
test_registry_is_the_catalogue (void)
{
  guint n_presets;
  const WsPreset *presets = ws_presets_get_all (&n_presets);

  for (guint i = 0; i < n_presets; i++)
    {
      const WsKernelInfo *k = ws_gpu_kernel_lookup (presets[i].id);
      g_autoptr (WsPattern) pattern = ws_preset_build (&presets[i]);

      g_assert_true (k->preset == &presets[i]);
      g_assert_cmpstr (k->title, ==, presets[i].kernel);
      for (guint j = 0; j < k->n_params; j++)
        {
          const WsPresetParam *pp = ws_preset_get_param (&presets[i], k->params[j].name);
          gint64 v;

          g_assert_nonnull (pp);
          g_assert_cmpint (pp->use, !=, WS_PARAM_MODEL_ONLY);
          g_assert_cmpint (k->params[j].def, ==, pp->value);
          if (pp->use == WS_PARAM_SHARED)
            {
              g_assert_true (ws_pattern_get_param (pattern, pp->name, &v));
              g_assert_cmpint (v, ==, k->params[j].def);
            }
        }
      if (k->sweep_param)
        g_assert_cmpstr (k->sweep_values, ==, presets[i].sweep_values);
    }
}

static void
test_invalid_requests (void)
{
  WsMeasureOptions options = WS_MEASURE_OPTIONS_DEFAULT;
  WsParamValue unknown = { (char *) "nonsense", 1 };
  WsParamValue too_big = { (char *) "offset", 65 };
  g_autoptr (GError) error = NULL;
  WsMeasurement *m;

  if (!ws_gpu_is_built ())
    {
      g_test_skip ("this build has no CUDA backend: every request is refused as such");
      return;
    }
  m = ws_gpu_measure ("coalescing/nonsense", NULL, 0, &options, NULL, NULL, NULL, &error);
  g_assert_null (m);
  g_assert_error (error, WS_GPU_ERROR, WS_GPU_ERROR_UNKNOWN_KERNEL);
  g_clear_error (&error);
  m = ws_gpu_measure ("coalescing/offset", &unknown, 1, &options, NULL, NULL, NULL, &error);
  g_assert_null (m);
  g_assert_error (error, WS_GPU_ERROR, WS_GPU_ERROR_INVALID_PARAM);
  g_assert_nonnull (strstr (error->message, "“nonsense”"));
  g_assert_nonnull (strstr (error->message, "N, offset"));
  g_clear_error (&error);
  m = ws_gpu_measure ("coalescing/offset", &too_big, 1, &options, NULL, NULL, NULL, &error);
  g_assert_null (m);
  g_assert_error (error, WS_GPU_ERROR, WS_GPU_ERROR_INVALID_PARAM);
  g_assert_nonnull (strstr (error->message, "offset = 65 is out of range (0 to 64)"));
}

static void
test_no_gpu_reason (void)
{
  WsMeasureOptions options = WS_MEASURE_OPTIONS_DEFAULT;
  g_autoptr (GError) probe_error = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (WsDeviceInfo) info = ws_gpu_probe (&probe_error);
  WsMeasurement *m;

  if (info != NULL)
    {
      g_test_skip ("a GPU is here");
      return;
    }
  g_assert_true (probe_error->domain == WS_GPU_ERROR);
  g_assert_true (probe_error->code == WS_GPU_ERROR_NOT_BUILT || probe_error->code == WS_GPU_ERROR_NO_DRIVER ||
                 probe_error->code == WS_GPU_ERROR_DRIVER_TOO_OLD || probe_error->code == WS_GPU_ERROR_NO_DEVICE ||
                 probe_error->code == WS_GPU_ERROR_UNSUPPORTED);
  if (probe_error->code == WS_GPU_ERROR_NO_DRIVER)
    g_assert_nonnull (strstr (probe_error->message, "libcuda.so.1"));
  /* every GPU call says the same, and never crashes */
  m = ws_gpu_measure ("coalescing/sequential", NULL, 0, &options, NULL, NULL, NULL, &error);
  g_assert_null (m);
  g_assert_error (error, WS_GPU_ERROR, probe_error->code);
  g_assert_cmpstr (error->message, ==, probe_error->message);
  g_clear_error (&error);
  g_assert_false (ws_gpu_debug_fault (&error));
  g_assert_error (error, WS_GPU_ERROR, probe_error->code);
}

/* ------------------------------------------------------------------ */
/* On a GPU                                                           */
/* ------------------------------------------------------------------ */

static void
test_probe (void)
{
  g_autoptr (WsDeviceInfo) d = NULL;

  if (!have_gpu ())
    return;
  d = ws_gpu_probe (NULL);
  g_assert_cmpstr (d->name, !=, "");
  g_assert_cmpint (d->cc_major, >=, 7);
  g_assert_cmpint (d->sm_count, >, 0);
  g_assert_cmpint (d->l2_bytes, >, 0);
  g_assert_cmpint (d->global_mem_bytes, >, d->l2_bytes);
  g_assert_cmpint (d->shared_per_sm, >=, d->shared_per_block_optin);
  g_assert_cmpint (d->registers_per_sm, >=, 65536);
  g_assert_cmpint (d->sm_clock_mhz, >, 100);
  g_assert_cmpint (d->mem_bus_bits, >, 0);
  g_assert_cmpfloat (d->peak_bandwidth_gbs, >, 50);
  g_test_message ("%s: %d SMs, %d MHz, %.0f GB/s peak, driver CUDA %s", d->name, d->sm_count, d->sm_clock_mhz,
                  d->peak_bandwidth_gbs, d->driver_version);
}

static void
test_kernel (gconstpointer data)
{
  const WsKernelInfo *info = data;
  g_autoptr (GArray) params = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (WsMeasurement) m = NULL;

  if (!have_gpu ())
    return;
  params = params_for (info, small ());
  m = measure (info->id, params, &error);
  g_assert_no_error (error);
  assert_sound (m, params);
  g_test_message ("%s: %.4f ms, %.1f GB/s, %d registers, %d warps/SM; %s", info->id, m->median_ms,
                  m->bandwidth_gbs, m->registers, m->warps_per_sm, m->description);
}

/* every point of the standard sweep, on small inputs: each verified */
static void
test_sweep (gconstpointer data)
{
  const WsKernelInfo *info = data;
  g_autoptr (GArray) params = NULL;
  g_autoptr (GArray) values = NULL;

  if (!have_gpu ())
    return;
  params = params_for (info, TRUE);
  values = ws_sweep_values_parse (info->sweep_values, NULL);
  for (guint i = 0; i < values->len; i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (WsMeasurement) m = NULL;

      set (params, info->sweep_param, g_array_index (values, gint64, i));
      m = measure (info->id, params, &error);
      g_assert_no_error (error);
      assert_sound (m, params);
    }
}

static WsMeasurement *
measure_default (const char *id)
{
  g_autoptr (GArray) params = params_for (ws_gpu_kernel_lookup (id), small ());
  g_autoptr (GError) error = NULL;
  WsMeasurement *m = measure (id, params, &error);

  g_assert_no_error (error);
  return m;
}

/* After an illegal address CUDA refuses the faulting process any further
 * work (the H100's driver answers cudaErrorDevicesUnavailable even after
 * cudaDeviceReset): the fault must be reported as such, and what follows in
 * the same process must fail with a reason, not crash. That is why the
 * program's backend keeps the GPU in a worker process of its own and starts
 * a new one (test-backend's /backend/gpu/fault-recovery). The fault runs in
 * a subprocess here, so that the tests after it keep their GPU. */
static void
test_fault (void)
{
  if (!have_gpu ())
    return;
  if (g_test_subprocess ())
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (WsMeasurement) after = NULL;
      g_autoptr (GArray) params = params_for (ws_gpu_kernel_lookup ("coalescing/offset"), small ());

      g_assert_false (ws_gpu_debug_fault (&error));
      g_assert_error (error, WS_GPU_ERROR, WS_GPU_ERROR_KERNEL_FAULT);
      g_printerr ("fault: %s\n", error->message);
      g_clear_error (&error);
      after = measure ("coalescing/offset", params, &error);
      if (after)
        g_assert_true (after->verified);
      else
        g_printerr ("after the fault: %s\n", error->message);
      return;
    }
  g_test_trap_subprocess (NULL, 120 * G_USEC_PER_SEC, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
  g_test_trap_assert_stderr ("*fault: *");
}

typedef struct
{
  GCancellable *cancellable;
  guint calls;
  guint last_done;
  guint total;
  guint cancel_at;
} ProgressLog;

static void
log_progress (guint    done,
              guint    total,
              gpointer data)
{
  ProgressLog *log = data;

  g_assert_cmpuint (done, ==, log->last_done + 1);
  log->calls++;
  log->last_done = done;
  log->total = total;
  if (log->cancel_at && done == log->cancel_at)
    g_cancellable_cancel (log->cancellable);
}

static void
test_progress_and_cancel (void)
{
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  WsMeasureOptions options = WS_MEASURE_OPTIONS_DEFAULT;
  ProgressLog log = { cancellable, 0, 0, 0, 0 };
  g_autoptr (GError) error = NULL;
  g_autoptr (WsMeasurement) m = NULL;
  g_autoptr (WsMeasurement) again = NULL;

  if (!have_gpu ())
    return;
  options.samples = 12;
  m = ws_gpu_measure ("constant/distinct", NULL, 0, &options, cancellable, log_progress, &log, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (log.calls, ==, 12);
  g_assert_cmpuint (log.total, ==, 12);
  g_assert_cmpuint (m->samples_ms->len, ==, 12);

  /* cancelled after the third sample: no fourth */
  log = (ProgressLog) { cancellable, 0, 0, 0, 3 };
  g_clear_pointer (&m, ws_measurement_free);
  m = ws_gpu_measure ("constant/distinct", NULL, 0, &options, cancellable, log_progress, &log, &error);
  g_assert_null (m);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpuint (log.calls, ==, 3);
  g_clear_error (&error);

  again = measure_default ("constant/distinct");
  g_assert_true (again->verified);

  options.samples = 9;
  m = ws_gpu_measure ("constant/distinct", NULL, 0, &options, NULL, NULL, NULL, &error);
  g_assert_null (m);
  g_assert_error (error, WS_GPU_ERROR, WS_GPU_ERROR_INVALID_PARAM);
}

static double
median_of (const char *id,
           const char *name,
           gint64      value)
{
  const WsKernelInfo *info = ws_gpu_kernel_lookup (id);
  g_autoptr (GArray) params = params_for (info, FALSE);
  g_autoptr (GError) error = NULL;
  g_autoptr (WsMeasurement) m = NULL;

  if (name)
    set (params, name, value);
  m = measure (id, params, &error);
  g_assert_no_error (error);
  return m->median_ms;
}

/* What the physics demands, with wide margins. */
static void
test_orderings (void)
{
  double sequential, strided, uniform, nonuniform, shared, padded, one, many, bank1, bank32;

  if (!have_gpu ())
    return;
  if (small ())
    {
      g_test_skip ("timings are meaningless on small inputs");
      return;
    }
  sequential = median_of ("coalescing/sequential", NULL, 0);
  strided = median_of ("coalescing/stride", NULL, 0);
  uniform = median_of ("private-array/uniform-local", NULL, 0);
  nonuniform = median_of ("private-array/nonuniform-local", NULL, 0);
  shared = median_of ("transpose/shared", NULL, 0);
  padded = median_of ("transpose/shared-padded", NULL, 0);
  one = median_of ("constant/distinct", "distinct", 1);
  many = median_of ("constant/distinct", "distinct", 32);
  bank1 = median_of ("banks/stride", "stride", 1);
  bank32 = median_of ("banks/stride", "stride", 32);
  g_test_message ("strided / sequential %.2f, non-uniform / uniform local %.2f, unpadded / padded tile %.2f, "
                  "32 / 1 constant addresses %.2f, bank stride 32 / 1 %.2f",
                  strided / sequential, nonuniform / uniform, shared / padded, many / one, bank32 / bank1);
  g_assert_cmpfloat (strided, >, 1.5 * sequential);
  g_assert_cmpfloat (nonuniform, >, 1.5 * uniform);
  g_assert_cmpfloat (shared, >, 1.1 * padded);
  g_assert_cmpfloat (many, >, 4 * one);
  g_assert_cmpfloat (bank32, >, 4 * bank1);
}

/* Back-to-back medians agree; a warm measurement is quick; a copy kernel
 * comes close to cudaMemcpy. The figures go to the log. */
static void
test_timing (void)
{
  g_autoptr (WsMeasurement) warm = NULL;
  g_autoptr (WsMeasurement) a = NULL;
  g_autoptr (WsMeasurement) b = NULL;
  g_autoptr (WsMeasurement) copy = NULL;
  g_autoptr (WsMeasurement) memcpy_ref = NULL;
  g_autoptr (GArray) params = NULL;
  g_autoptr (GError) error = NULL;
  gint64 start;
  double wall_ms, spread;

  if (!have_gpu ())
    return;
  if (small ())
    {
      g_test_skip ("timings are meaningless on small inputs");
      return;
    }
  warm = measure_default ("coalescing/sequential");
  start = g_get_monotonic_time ();
  a = measure_default ("coalescing/sequential");
  wall_ms = (g_get_monotonic_time () - start) / 1e3;
  b = measure_default ("coalescing/sequential");
  spread = fabs (a->median_ms - b->median_ms) / MIN (a->median_ms, b->median_ms);
  params = params_for (ws_gpu_kernel_lookup ("alignment/elem-size"), FALSE);
  set (params, "elem_size", 16);
  copy = measure ("alignment/elem-size", params, &error);
  g_assert_no_error (error);
  g_array_set_size (params, 1);
  g_array_index (params, WsParamValue, 0).value = copy->bytes / 8;
  memcpy_ref = measure ("reference/memcpy", params, &error);
  g_assert_no_error (error);
  g_test_message ("warm measurement of coalescing/sequential (10 samples): %.1f ms wall", wall_ms);
  g_test_message ("back-to-back medians %.4f and %.4f ms: %.2f %% apart", a->median_ms, b->median_ms, 100 * spread);
  g_test_message ("16-byte copy %.1f GB/s, cudaMemcpy %.1f GB/s: %.1f %%; sequential 4-byte copy %.1f GB/s (%.1f %%)",
                  copy->bandwidth_gbs, memcpy_ref->bandwidth_gbs, 100 * copy->bandwidth_gbs / memcpy_ref->bandwidth_gbs,
                  a->bandwidth_gbs, 100 * a->bandwidth_gbs / memcpy_ref->bandwidth_gbs);
  /* loose bounds: a shared machine may be busy */
  g_assert_cmpfloat (wall_ms, <, 1000);
  g_assert_cmpfloat (spread, <, 0.25);
  g_assert_cmpfloat (copy->bandwidth_gbs, >, 0.5 * memcpy_ref->bandwidth_gbs);
}

int
main (int    argc,
      char **argv)
{
  guint n;
  const WsKernelInfo *kernels = ws_gpu_kernels (&n);
  int status;

  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/gpu/registry", test_registry);
  g_test_add_func ("/gpu/registry-is-the-catalogue", test_registry_is_the_catalogue);
  g_test_add_func ("/gpu/invalid-requests", test_invalid_requests);
  g_test_add_func ("/gpu/no-gpu-reason", test_no_gpu_reason);
  g_test_add_func ("/gpu/probe", test_probe);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *path = g_strdup_printf ("/gpu/kernel/%s", kernels[i].id);
      g_test_add_data_func (path, &kernels[i], test_kernel);
    }
  for (guint i = 0; i < n; i++)
    if (kernels[i].sweep_param)
      {
        g_autofree char *path = g_strdup_printf ("/gpu/sweep/%s", kernels[i].id);
        g_test_add_data_func (path, &kernels[i], test_sweep);
      }
  /* suites run in the order they were made: timings last */
  g_test_add_func ("/gpu/recovery/fault", test_fault);
  g_test_add_func ("/gpu/recovery/progress-and-cancel", test_progress_and_cancel);
  g_test_add_func ("/gpu/timing/orderings", test_orderings);
  g_test_add_func ("/gpu/timing/figures", test_timing);
  status = g_test_run ();
  /* what is cached between jobs goes back, so that memcheck's leak check sees none */
  ws_gpu_shutdown ();
  return status;
}
