/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The truth run through a session: a chain of the session's own
 * measurements, case after case, each answer held against the model where
 * it arrives (on the session's main context). */
#include "ws-config.h"
#include "ws-truth-run.h"
#include "ws-kernel-predict.h"
#include "ws-presets.h"

#include <glib/gi18n-lib.h>
#include <math.h>

/* Shared wavefronts of a line: within 10 % (arbitration under contention
 * differs from run to run, docs/hardware-model.md). */
#define SHARED_TOLERANCE 0.10

typedef struct
{
  WsSession *session;
  GPtrArray *cases;            /* WsTruthCase */
  GPtrArray *kernels;          /* WsKernelSpec, or NULL */
  WsDeviceProfile *profile;    /* a copy, or NULL */
  WsTruthProgress progress;
  gpointer progress_data;
  GPtrArray *rows;
  JsonBuilder *raw;
  guint next;                  /* the case whose turn it is: cases, then kernels */
  WsMeasurement *counted;      /* the case's counters, while its real kernel is measured */
  WsKernelInstance *instance;  /* the kernel case's, while it is measured */
} Run;

static void
run_free (Run *run)
{
  g_clear_object (&run->session);
  g_clear_pointer (&run->cases, g_ptr_array_unref);
  g_clear_pointer (&run->kernels, g_ptr_array_unref);
  g_clear_pointer (&run->profile, ws_device_profile_free);
  g_clear_pointer (&run->rows, g_ptr_array_unref);
  g_clear_object (&run->raw);
  g_clear_pointer (&run->counted, ws_measurement_free);
  g_clear_pointer (&run->instance, ws_kernel_instance_unref);
  g_free (run);
}

static void step (GTask *task);

static guint
n_total (const Run *run)
{
  return run->cases->len + (run->kernels ? run->kernels->len : 0);
}

static void
add_raw (Run                 *run,
         const char          *name,
         const WsMeasurement *m)
{
  if (run->raw == NULL)
    return;
  json_builder_set_member_name (run->raw, name);
  json_builder_begin_object (run->raw);
  for (guint i = 0; i < m->counters->len; i++)
    {
      const WsCounter *c = &g_array_index (m->counters, WsCounter, i);
      json_builder_set_member_name (run->raw, c->name);
      json_builder_add_double_value (run->raw, c->value);
    }
  json_builder_end_object (run->raw);
}

static gboolean
fail (GTask      *task,
      const char *name,
      GError     *error)
{
  g_prefix_error (&error, "%s: ", name);
  g_task_return_error (task, error);
  g_object_unref (task);
  return FALSE;
}

/* ------------------------------------------------------------------ */
/* A pattern's case                                                   */
/* ------------------------------------------------------------------ */

static void
below_l1 (GTask               *task,
          const WsTruthCase   *c,
          const WsMeasurement *real)
{
  Run *run = g_task_get_task_data (task);
  g_autoptr (WsKernelLaunch) launch = NULL;
  g_autoptr (WsLaunchPrediction) prediction = NULL;
  GError *error = NULL;

  launch = real ? ws_kernel_launch_new (c->name, c->pattern, &error) : ws_kernel_launch_of_pattern (c->pattern);
  if (launch == NULL || (prediction = ws_launch_predict (launch, run->profile, NULL, &error)) == NULL)
    {
      fail (task, c->name, error);
      return;
    }
  ws_truth_compare_hierarchy (c, prediction, run->profile, real ? real : run->counted, run->rows);
  g_clear_pointer (&run->counted, ws_measurement_free);
  run->next++;
  step (task);
}

static void
real_measured (GObject      *source,
               GAsyncResult *result,
               gpointer      user_data)
{
  GTask *task = user_data;
  Run *run = g_task_get_task_data (task);
  const WsTruthCase *c = g_ptr_array_index (run->cases, run->next);
  GError *error = NULL;
  g_autoptr (WsMeasurement) real = ws_session_measure_finish (WS_SESSION (source), result, &error);

  if (real == NULL)
    {
      fail (task, c->name, error);
      return;
    }
  below_l1 (task, c, real);
}

static void
counted (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  GTask *task = user_data;
  Run *run = g_task_get_task_data (task);
  const WsTruthCase *c = g_ptr_array_index (run->cases, run->next);
  const WsKernelInfo *info;
  g_autoptr (WsLaunchStats) stats = NULL;
  GError *error = NULL;

  run->counted = ws_session_count_finish (WS_SESSION (source), result, &error);
  if (run->counted == NULL || (stats = ws_model_analyze_launch (c->pattern, NULL, &error)) == NULL)
    {
      fail (task, c->name, error);
      return;
    }
  ws_truth_compare (c, stats, run->counted, run->rows);
  add_raw (run, c->name, run->counted);
  if (run->profile == NULL)
    {
      g_clear_pointer (&run->counted, ws_measurement_free);
      run->next++;
      step (task);
      return;
    }
  info = ws_preset_lookup (c->name) ? ws_gpu_kernel_lookup (c->name) : NULL;
  if (info == NULL)
    {
      below_l1 (task, c, NULL);
      return;
    }
  {
    /* its real kernel, every parameter at its default, as `measure ID` runs it */
    g_autoptr (WsMeasureRequest) request = ws_measure_request_new ();

    request->kernel_id = g_strdup (info->id);
    for (guint i = 0; i < info->n_params; i++)
      ws_measure_request_set_param (request, info->params[i].name, info->params[i].def);
    request->options.cold = TRUE;
    request->options.counters = TRUE;
    ws_session_measure_async (run->session, request, g_task_get_cancellable (task), real_measured, task);
  }
}

/* ------------------------------------------------------------------ */
/* A kernel of one's own                                              */
/* ------------------------------------------------------------------ */

static char *
kernel_case_name (const WsKernelInstance *inst)
{
  return g_strdup_printf ("kernel/%s/%s", ws_kernel_file_get_display_name (ws_kernel_instance_get_file (inst)),
                          ws_kernel_instance_get_kernel_name (inst));
}

static void
kernel_measured (GObject      *source,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  GTask *task = user_data;
  Run *run = g_task_get_task_data (task);
  g_autofree char *name = kernel_case_name (run->instance);
  g_autoptr (WsMeasurement) m = NULL;
  g_autoptr (WsKernelPrediction) prediction = NULL;
  GError *error = NULL;

  m = ws_session_measure_finish (WS_SESSION (source), result, &error);
  if (m == NULL ||
      (prediction = ws_kernel_predict (run->instance, run->profile, (guint) m->registers,
                                       g_task_get_cancellable (task), NULL, &error)) == NULL)
    {
      fail (task, name, error);
      return;
    }
  ws_truth_compare_kernel (name, run->instance, prediction, m, run->rows);
  add_raw (run, name, m);
  g_clear_pointer (&run->instance, ws_kernel_instance_unref);
  run->next++;
  step (task);
}

static void
kernel_case (GTask              *task,
             const WsKernelSpec *spec)
{
  Run *run = g_task_get_task_data (task);
  g_autoptr (WsMeasureRequest) request = ws_measure_request_new ();
  GError *error = NULL;

  /* read here first: what the model refuses is said before the GPU runs it */
  if ((run->instance = ws_kernel_spec_instantiate (spec, g_task_get_cancellable (task), &error)) == NULL)
    {
      fail (task, spec->display_name, error);
      return;
    }
  request->kernel_text = ws_kernel_spec_copy (spec);
  request->options.cold = TRUE;
  request->options.counters = TRUE;
  ws_session_measure_async (run->session, request, g_task_get_cancellable (task), kernel_measured, task);
}

/* ------------------------------------------------------------------ */

static void
step (GTask *task)
{
  Run *run = g_task_get_task_data (task);
  guint i = run->next;
  GError *error = NULL;

  if (g_task_return_error_if_cancelled (task))
    {
      g_object_unref (task);
      return;
    }
  if (run->progress && i > 0)
    {
      const char *name = i <= run->cases->len ? ((WsTruthCase *) g_ptr_array_index (run->cases, i - 1))->name
                                              : ((WsKernelSpec *) g_ptr_array_index (run->kernels,
                                                                                    i - 1 - run->cases->len))->display_name;
      run->progress (i, n_total (run), name, run->progress_data);
    }
  if (i < run->cases->len)
    {
      const WsTruthCase *c = g_ptr_array_index (run->cases, i);

      /* one collection after another: the worker keeps the profiler between them */
      ws_session_count_async (run->session, c->pattern, i + 1 < run->cases->len, g_task_get_cancellable (task),
                              counted, task);
      return;
    }
  if (i < n_total (run))
    {
      kernel_case (task, g_ptr_array_index (run->kernels, i - run->cases->len));
      return;
    }
  (void) error;
  g_task_return_pointer (task, g_ptr_array_ref (run->rows), (GDestroyNotify) g_ptr_array_unref);
  g_object_unref (task);
}

void
ws_truth_run_async (WsSession             *session,
                    GPtrArray             *cases,
                    GPtrArray             *kernels,
                    const WsDeviceProfile *profile,
                    gboolean               raw,
                    WsTruthProgress        progress,
                    gpointer               progress_data,
                    GCancellable          *cancellable,
                    GAsyncReadyCallback    callback,
                    gpointer               user_data)
{
  GTask *task;
  Run *run;

  g_return_if_fail (WS_IS_SESSION (session));
  g_return_if_fail (cases != NULL);

  task = g_task_new (session, cancellable, callback, user_data);
  g_task_set_source_tag (task, ws_truth_run_async);
  run = g_new0 (Run, 1);
  run->session = g_object_ref (session);
  run->cases = g_ptr_array_ref (cases);
  run->kernels = kernels ? g_ptr_array_ref (kernels) : NULL;
  run->profile = profile ? ws_device_profile_copy (profile) : NULL;
  run->progress = progress;
  run->progress_data = progress_data;
  run->rows = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_truth_row_free);
  if (raw)
    {
      run->raw = json_builder_new ();
      json_builder_begin_object (run->raw);
    }
  g_task_set_task_data (task, run, (GDestroyNotify) run_free);
  step (task);
}

GPtrArray *
ws_truth_run_finish (WsSession     *session,
                     GAsyncResult  *result,
                     JsonNode     **raw,
                     GError       **error)
{
  Run *run;

  g_return_val_if_fail (g_task_is_valid (result, session), NULL);

  run = g_task_get_task_data (G_TASK (result));
  if (raw)
    {
      *raw = NULL;
      if (run->raw && !g_task_had_error (G_TASK (result)))
        {
          json_builder_end_object (run->raw);
          *raw = json_builder_get_root (run->raw);
        }
    }
  return g_task_propagate_pointer (G_TASK (result), error);
}

/* ------------------------------------------------------------------ */
/* A kernel's rows                                                    */
/* ------------------------------------------------------------------ */

static void
add_row (GPtrArray  *rows,
         const char *name,
         const char *metric,
         double      model,
         double      hardware,
         double      tolerance,
         const char *note)
{
  WsTruthRow *r = g_new0 (WsTruthRow, 1);
  double larger = MAX (fabs (model), fabs (hardware));

  r->pattern = g_strdup (name);
  r->metric = g_strdup (metric);
  r->model = model;
  r->hardware = hardware;
  r->tolerance = tolerance;
  r->mismatch = larger > 0 && fabs (model - hardware) > tolerance * larger;
  r->note = g_strdup (note);
  g_ptr_array_add (rows, r);
}

void
ws_truth_compare_kernel (const char               *name,
                         const WsKernelInstance   *inst,
                         const WsKernelPrediction *pred,
                         const WsMeasurement      *m,
                         GPtrArray                *rows)
{
  g_autoptr (GHashTable) done = g_hash_table_new (NULL, NULL);

  g_return_if_fail (name != NULL && inst != NULL && pred != NULL && m != NULL && rows != NULL);

  for (guint i = 0; i < pred->stats->n_sites; i++)
    {
      guint line = ws_kernel_instance_get_site (inst, i)->line;
      g_autofree char *where = NULL;
      double sectors = 0, instructions = 0, wavefronts = 0;
      gboolean global = FALSE, shared = FALSE;

      if (!g_hash_table_add (done, GUINT_TO_POINTER (line)))
        continue;
      for (guint k = i; k < pred->stats->n_sites; k++)
        {
          const WsKernelSite *s = ws_kernel_instance_get_site (inst, k);
          const WsStats *st = &pred->stats->sites[k];

          if (s->line != line)
            continue;
          if (s->space == WS_SPACE_GLOBAL)
            sectors += st->sectors, instructions += st->instructions, global = TRUE;
          else if (s->space == WS_SPACE_SHARED)
            wavefronts += st->wavefronts, shared = TRUE;
        }
      where = g_strdup_printf ("%s:%u", name, line);
      if (global)
        {
          add_row (rows, where, "smsp__sass_sectors_mem_global", sectors,
                   ws_measurement_get_line_counter_or (m, line, "smsp__sass_sectors_mem_global", 0),
                   WS_TRUTH_TOLERANCE, NULL);
          add_row (rows, where, "smsp__sass_inst_executed_op_global", instructions,
                   ws_measurement_get_line_global_instructions (m, line),
                   WS_TRUTH_TOLERANCE, NULL);
        }
      if (shared)
        add_row (rows, where, WS_LINE_SHARED_WAVEFRONTS, wavefronts,
                 ws_measurement_get_line_counter_or (m, line, WS_LINE_SHARED_WAVEFRONTS, 0),
                 SHARED_TOLERANCE, NULL);
    }
  if (pred->has_timing)
    {
      const WsHierStats *t = &pred->hierarchy->total;
      double hw;
      g_autofree char *bound = g_strdup_printf ("model: bound by %s (%s), %.4f ms",
                                                ws_bound_to_string (pred->timing.bound),
                                                ws_bound_describe (pred->timing.bound), pred->timing.predicted_ms);

      if (ws_measurement_get_counter (m, "lts__t_sectors_srcunit_tex_op_read.sum", &hw))
        add_row (rows, name, "lts__t_sectors_srcunit_tex_op_read.sum", (double) t->l2_read_sectors, hw,
                 WS_TRUTH_L2_TOLERANCE, NULL);
      if (ws_measurement_get_counter (m, "dram__bytes_read.sum", &hw))
        add_row (rows, name, "dram__bytes_read.sum", (double) t->dram_read_bytes, hw, WS_TRUTH_DRAM_TOLERANCE, NULL);
      if (m->median_ms > 0)
        add_row (rows, name, WS_TRUTH_TIME_METRIC, pred->timing.predicted_ms, m->median_ms, WS_TRUTH_TIME_TOLERANCE,
                 bound);
    }
}
