/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Measuring: parameters, the verification launch, warm-up, timed samples
 * (batched when short, L2 flushed when cold), what the runtime says about
 * the kernel, and hardware counters when asked for. */
#include "ws-config.h"
#include "ws-gpu-private.h"

#include <glib/gi18n-lib.h>
#include <stdarg.h>
#include <string.h>

/* a sample lasts at least this long, so that launch gaps and the events'
 * resolution (about half a microsecond) stay small beside it */
#define MIN_SAMPLE_MS 0.2
#define BATCH_BELOW_MS 0.05
#define MAX_BATCH 2000

/* ------------------------------------------------------------------ */
/* Timing                                                             */
/* ------------------------------------------------------------------ */

static gboolean
time_batch (const char  *id,
            WsLaunchFunc launch,
            WsLaunchFunc before,
            gpointer     data,
            guint        batch,
            gboolean     cold,
            double      *ms,
            GError     **error)
{
  cudaEvent_t start, stop;
  float elapsed = 0;
  cudaError_t err;

  ws_gpu_events (&start, &stop);
  if (before)
    before (data);
  if (cold && !ws_gpu_flush_l2 (error))
    return FALSE;
  if (!ws_gpu_check (cudaEventRecord (start, 0), _("recording an event"), error))
    return FALSE;
  for (guint b = 0; b < batch; b++)
    launch (data);
  if (!ws_gpu_check (cudaEventRecord (stop, 0), _("recording an event"), error))
    return FALSE;
  err = cudaEventSynchronize (stop);
  if (err == cudaSuccess)
    err = cudaGetLastError ();
  if (err != cudaSuccess)
    {
      /* Translators: %s is a kernel's id */
      g_autofree char *what = g_strdup_printf (_("running %s"), id);
      return ws_gpu_fail (err, what, error);
    }
  if (!ws_gpu_check (cudaEventElapsedTime (&elapsed, start, stop), _("reading the events"), error))
    return FALSE;
  *ms = elapsed / batch;
  return TRUE;
}

static gboolean
check_options (const WsMeasureOptions *options,
               GError                **error)
{
  if (options->samples < 10)
    {
      g_set_error (error, WS_GPU_ERROR, WS_GPU_ERROR_INVALID_PARAM,
                   _("%u samples are too few: a measurement takes at least 10"), options->samples);
      return FALSE;
    }
  if (options->samples > 100000)
    {
      g_set_error (error, WS_GPU_ERROR, WS_GPU_ERROR_INVALID_PARAM,
                   _("%u samples are too many (at most 100000)"), options->samples);
      return FALSE;
    }
  return TRUE;
}

static WsMeasurement *
time_launches (const char             *id,
               WsLaunchFunc            launch,
               WsLaunchFunc            before,
               gpointer                data,
               gint64                  bytes,
               const WsMeasureOptions *options,
               GCancellable           *cancellable,
               WsSampleProgress        progress,
               gpointer                progress_data,
               guint                  *batch_out,
               GError                **error)
{
  g_autoptr (WsMeasurement) m = ws_measurement_new (id);
  double first = 0;
  guint batch = 1;

  if (!check_options (options, error))
    return NULL;
  /* a truth run holds the profiler between its collections: an enabled
   * profiler is not what a launch is timed with */
  ws_counters_release ();
  for (guint i = 0; i < options->warmup; i++)
    launch (data);
  /* the calibration launch is one more warm-up */
  if (!time_batch (id, launch, before, data, 1, FALSE, &first, error))
    return NULL;
  /* a launch that needs its state put back before it is timed alone */
  if (first < BATCH_BELOW_MS && before == NULL)
    batch = (guint) CLAMP (MIN_SAMPLE_MS / MAX (first, 1e-4) + 1, 2, MAX_BATCH);

  for (guint s = 0; s < options->samples; s++)
    {
      double ms;

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return NULL;
      if (!time_batch (id, launch, before, data, batch, options->cold, &ms, error))
        return NULL;
      ws_measurement_add_sample (m, ms);
      if (progress)
        progress (s + 1, options->samples, progress_data);
    }
  m->bytes = bytes;
  m->cold = options->cold;
  ws_measurement_summarize (m);
  m->sm_clock_mhz = ws_gpu_measure_clock ();
  if (batch_out)
    *batch_out = batch;
  return g_steal_pointer (&m);
}

WsMeasurement *
ws_gpu_time_launches (const char             *id,
                      WsLaunchFunc            launch,
                      gpointer                launch_data,
                      gint64                  bytes,
                      const WsMeasureOptions *options,
                      GCancellable           *cancellable,
                      WsSampleProgress        progress,
                      gpointer                progress_data,
                      GError                **error)
{
  WsMeasurement *m = NULL;

  g_return_val_if_fail (id != NULL && launch != NULL && options != NULL, NULL);

  ws_gpu_lock ();
  if (ws_gpu_ensure (error))
    m = time_launches (id, launch, NULL, launch_data, bytes, options, cancellable, progress, progress_data, NULL,
                       error);
  ws_gpu_unlock ();
  return m;
}

/* ------------------------------------------------------------------ */
/* Runs of registered kernels                                         */
/* ------------------------------------------------------------------ */

static const WsKernelOps *
find_ops (const char *id)
{
  const WsKernelOps *ops;

  if ((ops = ws_gpu_memory_ops (id)) || (ops = ws_gpu_onchip_ops (id)) ||
      (ops = ws_gpu_atomics_ops (id)) || (ops = ws_gpu_transfer_ops (id)) ||
      (ops = ws_gpu_unified_ops (id)) || (ops = ws_gpu_latency_ops (id)) ||
      (ops = ws_gpu_fences_ops (id)) || (ops = ws_gpu_stencil_ops (id)) ||
      (ops = ws_gpu_sort_ops (id)) || (ops = ws_gpu_alignment_ops (id)))
    return ops;
  return NULL;
}

static char *
param_names (const WsKernelInfo *info)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < info->n_params; i++)
    g_string_append_printf (s, "%s%s", i ? ", " : "", info->params[i].name);
  return g_string_free (s, FALSE);
}

static gboolean
resolve_params (WsRun              *run,
                const WsParamValue *params,
                guint               n_params,
                GError            **error)
{
  const WsKernelInfo *info = run->info;

  g_assert (info->n_params <= WS_KERNEL_MAX_PARAMS);
  for (guint i = 0; i < info->n_params; i++)
    run->p[i] = info->params[i].def;
  for (guint j = 0; j < n_params; j++)
    {
      guint i;

      for (i = 0; i < info->n_params; i++)
        if (g_strcmp0 (info->params[i].name, params[j].name) == 0)
          break;
      if (i == info->n_params)
        {
          g_autofree char *names = param_names (info);
          if (info->n_params)
            g_set_error (error, WS_GPU_ERROR, WS_GPU_ERROR_INVALID_PARAM,
                         /* Translators: the kernel's id, the parameter asked for, then the kernel's parameters */
                         _("the kernel %s has no parameter “%s” (its parameters: %s)"), info->id, params[j].name,
                         names);
          else
            g_set_error (error, WS_GPU_ERROR, WS_GPU_ERROR_INVALID_PARAM,
                         /* Translators: the kernel's id, then the parameter asked for */
                         _("the kernel %s has no parameter “%s” (it has none)"), info->id, params[j].name);
          return FALSE;
        }
      if (params[j].value < info->params[i].min || params[j].value > info->params[i].max)
        {
          g_set_error (error, WS_GPU_ERROR, WS_GPU_ERROR_INVALID_PARAM,
                       /* Translators: the kernel's id, a parameter and its value, then the range it must be in */
                       _("%s: %s = %lld is out of range (%lld to %lld)"),
                       info->id, params[j].name, (long long) params[j].value, (long long) info->params[i].min,
                       (long long) info->params[i].max);
          return FALSE;
        }
      run->p[i] = params[j].value;
    }
  return TRUE;
}

static void
run_free (WsRun *run)
{
  if (run->data && run->data_free)
    run->data_free (run->data);
  g_free (run->note);
  g_free (run);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsRun, run_free)

static void
run_launch (gpointer data)
{
  WsRun *run = data;

  run->launch (run);
}

static void
run_before (gpointer data)
{
  WsRun *run = data;

  run->before (run);
}

static void
describe (WsMeasurement *m,
          WsRun         *run,
          guint          batch)
{
  GString *s = g_string_new (run->info->title);

  for (guint i = 0; i < run->info->n_params; i++)
    {
      g_string_append_printf (s, "%s%s = %" G_GINT64_FORMAT, i ? ", " : "; ", run->info->params[i].name, run->p[i]);
      ws_measurement_set_param (m, run->info->params[i].name, run->p[i]);
    }
  if (run->note)
    g_string_append_printf (s, "; %s", run->note);
  if (batch > 1)
    g_string_append_printf (s, "; %u launches timed together per sample", batch);
  m->description = g_string_free (s, FALSE);
}

static gboolean
add_attributes (WsMeasurement *m,
                WsRun         *run,
                GError       **error)
{
  struct cudaFuncAttributes attr;
  int blocks = 0;

  if (run->shape.func == NULL)
    return TRUE;       /* a copy engine, not a kernel */
  if (!ws_gpu_check (cudaFuncGetAttributes (&attr, run->shape.func), "cudaFuncGetAttributes", error) ||
      !ws_gpu_check (cudaOccupancyMaxActiveBlocksPerMultiprocessor (&blocks, run->shape.func, run->shape.block_threads,
                                                                   run->shape.dynamic_shared),
                     "cudaOccupancyMaxActiveBlocksPerMultiprocessor", error))
    return FALSE;
  m->registers = attr.numRegs;
  m->local_bytes = (int) attr.localSizeBytes;
  m->shared_bytes = (int) attr.sharedSizeBytes;
  m->blocks_per_sm = blocks;
  m->warps_per_sm = blocks * ((run->shape.block_threads + 31) / 32);
  return TRUE;
}

static void
add_counters (WsMeasurement *m,
              WsRun         *run,
              gboolean       cold)
{
  g_autoptr (GError) error = NULL;

  if (!ws_counters_available (&error) ||
      !ws_counters_collect_after (cold ? ws_gpu_flush_before : NULL, run_launch, run, NULL, m, &error))
    {
      m->warning = g_strdup_printf ("no hardware counters: %s", error->message);
      g_array_set_size (m->counters, 0);
    }
}

static WsMeasurement *
measure_run (WsRun                  *run,
             const WsMeasureOptions *options,
             GCancellable           *cancellable,
             WsSampleProgress        progress,
             gpointer                progress_data,
             GError                **error)
{
  g_autoptr (WsMeasurement) m = NULL;
  g_autofree char *what = g_strdup_printf ("running %s", run->info->id);
  guint batch = 1;

  if (!check_options (options, error) || !run->ops->prepare (run, error))
    return NULL;
  /* the first launch is checked against the CPU reference */
  run->launch (run);
  if (!ws_gpu_sync (what, error) || !run->ops->verify (run, error))
    return NULL;
  m = time_launches (run->info->id, run_launch, run->before ? run_before : NULL, run, run->bytes, options,
                     cancellable, progress, progress_data, &batch, error);
  if (m == NULL || !add_attributes (m, run, error))
    return NULL;
  if (run->ops->report && !run->ops->report (run, m, error))
    return NULL;
  m->verified = TRUE;
  describe (m, run, batch);
  if (options->counters)
    add_counters (m, run, options->cold);
  return g_steal_pointer (&m);
}

WsMeasurement *
ws_gpu_measure (const char             *id,
                const WsParamValue     *params,
                guint                   n_params,
                const WsMeasureOptions *options,
                GCancellable           *cancellable,
                WsSampleProgress        progress,
                gpointer                progress_data,
                GError                **error)
{
  g_autoptr (WsRun) run = NULL;
  WsMeasurement *m = NULL;
  guint generation;

  g_return_val_if_fail (id != NULL, NULL);
  g_return_val_if_fail (options != NULL, NULL);
  g_return_val_if_fail (params != NULL || n_params == 0, NULL);

  run = g_new0 (WsRun, 1);
  run->info = ws_gpu_kernel_lookup (id);
  run->ops = find_ops (id);
  if (run->info == NULL || run->ops == NULL)
    {
      g_set_error (error, WS_GPU_ERROR, WS_GPU_ERROR_UNKNOWN_KERNEL,
                   /* Translators: %s is a kernel's id; “warpscope-cli list” is a command */
                   _("no kernel “%s” (warpscope-cli list shows them)"), id);
      return NULL;
    }
  if (!resolve_params (run, params, n_params, error))
    return NULL;

  ws_gpu_lock ();
  if (ws_gpu_ensure (error))
    {
      generation = ws_gpu_generation ();
      m = measure_run (run, options, cancellable, progress, progress_data, error);
      /* after a fault the context is gone: nothing of the run is left to undo */
      if (run->ops->finish && generation == ws_gpu_generation ())
        run->ops->finish (run);
    }
  ws_gpu_unlock ();
  return m;
}
