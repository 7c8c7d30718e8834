/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Measurements: the backend's worker thread measures (debounced, stale
 * results dropped), sweeps stream in point by point, and without a GPU the
 * bundled recording stands in, labelled with the device it was made on. */
#include "ws-window-private.h"

#include <math.h>
#include <string.h>

#define DEBOUNCE_MS 400

/* Times how long a callback from the backend holds the main loop. */
void
ws_window_note_callback (WsWindow *self,
                         gint64    start)
{
  self->longest_callback_us = MAX (self->longest_callback_us, g_get_monotonic_time () - start);
}

/* ------------------------------------------------------------------ */
/* Where measurements come from                                       */
/* ------------------------------------------------------------------ */

/* The reason, up to its first aside: the banner has one line. */
static char *
short_reason (const GError *error)
{
  const char *m = error->message;
  gsize n = strcspn (m, "(;:");

  while (n > 0 && m[n - 1] == ' ')
    n--;
  return g_strndup (m, n);
}

void
ws_window_update_banner (WsWindow *self)
{
  g_autofree char *text = NULL;
  g_autofree char *reason = NULL;
  g_autofree char *full = NULL;

  if (!self->probed || self->device)
    {
      gtk_widget_set_visible (self->banner, FALSE);
      return;
    }
  reason = short_reason (self->probe_error);
  if (self->recording)
    {
      const WsDeviceInfo *d = ws_recording_get_device (self->recording);
      text = g_strdup_printf ("No GPU: %s. The plots show measurements recorded on %s.", reason,
                              d && d->name ? d->name : "another machine");
    }
  else if (self->recording_loaded)
    text = g_strdup_printf ("No GPU: %s, and no recorded measurements either.", reason);
  else
    text = g_strdup_printf ("No GPU: %s. Loading the recorded measurements…", reason);
  full = g_strdup_printf ("%s\n\nWhy there is no GPU: %s%s%s", text, self->probe_error->message,
                          self->recording_error ? "\nWhy there is no recording: " : "",
                          self->recording_error ? self->recording_error->message : "");
  gtk_label_set_text (self->banner_label, text);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->banner_label), full);
  gtk_widget_set_visible (self->banner, TRUE);
}

static const WsLiveEntry *
live_for_current (WsWindow *self)
{
  g_autofree char *key = ws_window_pattern_key (self);
  const char *param = ws_window_sweep_param (self);
  gint64 x = 0;

  if (param)
    ws_pattern_get_param (self->pattern, param, &x);
  for (guint i = self->live->len; i > 0; i--)
    {
      const WsLiveEntry *e = g_ptr_array_index (self->live, i - 1);
      if (g_strcmp0 (e->key, key) == 0 && (param == NULL || e->x == x))
        return e;
    }
  return NULL;
}

static double
counter_sum (const WsMeasurement *m,
             const char * const  *names)
{
  double sum = 0, v;

  for (guint i = 0; names[i]; i++)
    if (ws_measurement_get_counter (m, names[i], &v))
      sum += v;
  return sum;
}

/* The model's figure for the space in view, as the hardware counters count
 * it (Nsight Compute's names), beside the model's own. */
static void
show_counted (WsWindow            *self,
              const WsMeasurement *m)
{
  static const char * const global_sectors[] = {
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum", NULL };
  static const char * const global_requests[] = {
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum", "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum", NULL };
  static const char * const local_sectors[] = {
    "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum", "l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum", NULL };
  static const char * const local_requests[] = {
    "l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum", "l1tex__t_requests_pipe_lsu_mem_local_op_st.sum", NULL };
  static const char * const shared_wavefronts[] = {
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum", NULL };
  static const char * const shared_instructions[] = {
    "smsp__inst_executed_op_shared_ld.sum", "smsp__inst_executed_op_shared_st.sum",
    "smsp__inst_executed_op_shared_atom.sum", NULL };
  static const char * const constant_requests[] = { "idc__requests.sum", NULL };
  static const char * const constant_instructions[] = { "smsp__inst_executed_op_ldc.sum", NULL };
  const char * const *num = NULL, * const *den = NULL;
  WsSpace space = ws_window_shown_space (self);
  const char *name = NULL;
  double model = NAN, d;

  if (m->counters == NULL || m->counters->len == 0)
    return;
  switch (space)
    {
    case WS_SPACE_GLOBAL:
      num = global_sectors, den = global_requests;
      break;
    case WS_SPACE_LOCAL:
      num = local_sectors, den = local_requests;
      break;
    case WS_SPACE_SHARED:
      num = shared_wavefronts, den = shared_instructions;
      break;
    case WS_SPACE_CONSTANT:
      num = constant_requests, den = constant_instructions;
      break;
    case WS_SPACE_REGISTER:
    case WS_N_SPACES:
    default:
      return;
    }
  if ((d = counter_sum (m, den)) <= 0)
    return;
  if (self->launch)
    model = ws_plot_model_metric (self->launch, space, &name);
  else
    ws_plot_model_metric (NULL, space, &name);
  ws_numbers_view_set_counted (self->numbers, name, counter_sum (m, num) / d, model);
}

/* "NVIDIA H100, recorded with N = 33554432, stride = 2": what a measurement ran at. */
static char *
describe_source (const char          *device,
                 const char          *when,
                 const WsMeasurement *m)
{
  GString *s = g_string_new (NULL);

  g_string_append_printf (s, "%s, %s", device ? device : "?", when);
  for (guint j = 0; m->params && j < m->params->len; j++)
    {
      const WsParamValue *p = &g_array_index (m->params, WsParamValue, j);
      g_string_append_printf (s, "%s %s = %" G_GINT64_FORMAT, j ? "," : " with", p->name, p->value);
    }
  return g_string_free (s, FALSE);
}

/* The measured numbers beside the model's: live, else recorded, else why not. */
void
ws_window_show_measured (WsWindow *self)
{
  const WsLiveEntry *e = live_for_current (self);
  const WsMeasurement *m;

  if (e)
    {
      g_autofree char *source = describe_source (self->device ? self->device->name : "this GPU", "now", e->m);
      ws_numbers_view_set_measurement (self->numbers, e->m, source);
      show_counted (self, e->m);
      return;
    }
  if (self->recording && self->preset && !self->edited &&
      (m = ws_plot_recorded_one (self->recording, self->preset, self->pattern)))
    {
      const WsDeviceInfo *d = ws_recording_get_device (self->recording);
      g_autofree char *source = describe_source (d ? d->name : NULL, "recorded", m);

      /* the sizes it ran at, which may not be the editor's */
      ws_numbers_view_set_measurement (self->numbers, m, source);
      show_counted (self, m);
      return;
    }
  if (self->measure_cancellable || self->measure_timeout)
    ws_numbers_view_set_measured_message (self->numbers, "Measuring…");
  else if (self->device)
    ws_numbers_view_set_measured_message (self->numbers, "Not measured yet: press Measure");
  else if (self->probed)
    ws_numbers_view_set_measured_message (self->numbers, self->edited ? "No GPU, and no recording of this edited pattern"
                                                                      : "No GPU, and no recording of this pattern");
  else
    ws_numbers_view_set_measured_message (self->numbers, "Looking for a GPU…");
}

static void
probe_done (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  WsWindow *self = user_data;
  g_autoptr (GError) error = NULL;
  WsDeviceInfo *device = ws_backend_probe_finish (WS_BACKEND (source), result, &error);
  gint64 start = g_get_monotonic_time ();

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  self->probed = TRUE;
  self->device = device;
  self->probe_error = g_steal_pointer (&error);
  ws_window_update_banner (self);
  ws_window_rebuild_chart (self);
  ws_window_rebuild_compare (self);
  ws_window_show_measured (self);
  ws_window_update_actions (self);
  ws_window_schedule_measurement (self);
  ws_window_compare_measure (self);
  ws_window_note_callback (self, start);
}

static void
load_recording_thread (GTask        *task,
                       gpointer      source,
                       gpointer      task_data,
                       GCancellable *cancellable)
{
  const char *path = task_data;
  GError *error = NULL;
  WsRecording *recording;

  if (path)
    {
      g_autoptr (GFile) file = g_file_new_for_commandline_arg (path);
      recording = ws_recording_load_file (file, cancellable, &error);
    }
  else
    recording = ws_recording_load_bundled (&error);
  if (recording)
    g_task_return_pointer (task, recording, g_object_unref);
  else
    g_task_return_error (task, error);
}

static void
load_recording_done (GObject      *source,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  WsWindow *self = WS_WINDOW (source);
  GError *error = NULL;
  WsRecording *recording = g_task_propagate_pointer (G_TASK (result), &error);
  gint64 start = g_get_monotonic_time ();

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_error_free (error);
      return;
    }
  g_clear_object (&self->recording);
  g_clear_error (&self->recording_error);
  self->recording = recording;
  self->recording_error = error;
  self->recording_loaded = TRUE;
  ws_window_update_banner (self);
  ws_window_rebuild_chart (self);
  ws_window_rebuild_compare (self);
  ws_window_show_measured (self);
  ws_window_update_actions (self);
  ws_window_note_callback (self, start);
}

void
ws_window_load_recording (WsWindow   *self,
                          const char *path)
{
  g_autoptr (GTask) task = g_task_new (self, self->probe_cancellable, load_recording_done, NULL);
  char *copy = g_strdup (path);

  g_free (self->recording_path);
  self->recording_path = copy;
  self->recording_loaded = FALSE;
  g_task_set_source_tag (task, ws_window_load_recording);
  g_task_set_task_data (task, g_strdup (copy), g_free);
  g_task_run_in_thread (task, load_recording_thread);
}

void
ws_window_measure_init (WsWindow *self)
{
  self->live = g_ptr_array_new_with_free_func (ws_live_entry_free);
  self->probe_cancellable = g_cancellable_new ();
  /* the window shows at once; the GPU and the recording are looked at on worker threads */
  ws_backend_probe_async (self->backend, self->probe_cancellable, probe_done, self);
  ws_window_load_recording (self, self->recording_path);
}

void
ws_window_measure_dispose (WsWindow *self)
{
  g_clear_handle_id (&self->measure_timeout, g_source_remove);
  g_clear_handle_id (&self->replay_timeout, g_source_remove);
  g_clear_handle_id (&self->chart_timeout, g_source_remove);
  g_clear_handle_id (&self->progress_timeout, g_source_remove);
  if (self->probe_cancellable)
    g_cancellable_cancel (self->probe_cancellable);
  if (self->measure_cancellable)
    g_cancellable_cancel (self->measure_cancellable);
  if (self->sweep_cancellable)
    g_cancellable_cancel (self->sweep_cancellable);
  g_clear_object (&self->probe_cancellable);
  g_clear_object (&self->measure_cancellable);
  g_clear_object (&self->sweep_cancellable);
  g_clear_object (&self->backend);
  g_clear_object (&self->recording);
  g_clear_pointer (&self->compared, g_ptr_array_unref);
  g_clear_error (&self->recording_error);
  g_clear_error (&self->probe_error);
  g_clear_pointer (&self->device, ws_device_info_free);
  g_clear_pointer (&self->recording_path, g_free);
  g_clear_pointer (&self->live, g_ptr_array_unref);
  g_clear_pointer (&self->sweep_points, g_ptr_array_unref);
  g_clear_pointer (&self->sweep_key, g_free);
  g_clear_pointer (&self->replay_points, g_ptr_array_unref);
  g_clear_pointer (&self->prediction, g_array_unref);
  g_clear_pointer (&self->prediction_key, g_free);
  g_clear_pointer (&self->prediction_name, g_free);
}

/* ------------------------------------------------------------------ */
/* One measurement                                                    */
/* ------------------------------------------------------------------ */

WsMeasureRequest *
ws_window_request_for (WsWindow        *self,
                       const char      *kernel_id,
                       const WsPattern *pattern,
                       const char      *sweep_param,
                       gboolean         counters)
{
  WsMeasureRequest *request = ws_measure_request_new ();
  const WsKernelInfo *info = kernel_id ? ws_gpu_kernel_lookup (kernel_id) : NULL;

  request->options.samples = MAX (10, g_settings_get_uint (self->settings, "samples"));
  request->options.cold = g_settings_get_boolean (self->settings, "cold-cache");
  request->options.counters = counters;
  if (info)
    {
      /* the kernel's own sizes (DRAM-bound, as recorded), but the value of
       * the parameter its sweep varies */
      request->kernel_id = g_strdup (info->id);
      for (guint i = 0; i < info->n_params; i++)
        {
          gint64 v = info->params[i].def;
          if (g_strcmp0 (info->params[i].name, sweep_param) == 0)
            ws_pattern_get_param (pattern, sweep_param, &v);
          ws_measure_request_set_param (request, info->params[i].name, v);
        }
    }
  else
    request->pattern = ws_pattern_ref ((WsPattern *) pattern);
  return request;
}

/* A registered kernel for an unedited preset; a generated one otherwise. */
WsMeasureRequest *
ws_window_make_request (WsWindow *self,
                        gboolean  counters)
{
  return ws_window_request_for (self, self->preset && !self->edited ? self->preset->id : NULL, self->pattern,
                                ws_window_sweep_param (self), counters);
}

void
ws_window_add_live_entry (WsWindow            *self,
                          const char          *key,
                          const char          *preset_id,
                          double               x,
                          const WsMeasurement *m)
{
  WsLiveEntry *e = g_new0 (WsLiveEntry, 1);

  e->key = g_strdup (key);
  e->preset_id = g_strdup (preset_id);
  e->x = x;
  e->m = ws_measurement_copy (m);
  g_ptr_array_add (self->live, e);
}

void
ws_window_add_live (WsWindow            *self,
                    const char          *key,
                    const WsMeasurement *m)
{
  const char *param = ws_window_sweep_param (self);
  gint64 x;

  ws_window_add_live_entry (self, key, self->preset && !self->edited ? self->preset->id : NULL,
                            param && (ws_measurement_get_param (m, param, &x) ||
                                      ws_pattern_get_param (self->pattern, param, &x)) ? x : NAN,
                            m);
}

static void
measure_progress (WsBackend           *backend,
                  guint                done,
                  guint                total,
                  const WsMeasurement *latest,
                  gpointer             user_data)
{
  WsWindow *self = user_data;
  g_autofree char *text = g_strdup_printf ("Measuring on %s: sample %u of %u…", self->device->name, done, total);
  gint64 start = g_get_monotonic_time ();

  ws_window_set_status (self, text);
  ws_window_note_callback (self, start);
}

void
ws_window_measure_data_free (WsMeasureData *d)
{
  g_object_unref (d->self);
  g_free (d->key);
  g_object_unref (d->cancellable);
  g_free (d);
}

static void
measure_done (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  WsMeasureData *d = user_data;
  WsWindow *self = d->self;
  g_autoptr (GError) error = NULL;
  g_autoptr (WsMeasurement) m = ws_backend_measure_finish (WS_BACKEND (source), result, &error);
  gint64 start = g_get_monotonic_time ();

  /* a result for a pattern the window has moved away from is dropped */
  if (g_cancellable_is_cancelled (d->cancellable) || self->live == NULL)
    {
      ws_window_measure_data_free (d);
      return;
    }
  g_clear_object (&self->measure_cancellable);
  if (m)
    {
      g_autofree char *text = g_strdup_printf ("Measured on %s: median of %u samples", self->device->name,
                                               m->samples_ms ? m->samples_ms->len : 0);
      ws_window_add_live (self, d->key, m);
      ws_window_set_status (self, text);
    }
  else
    {
      g_autofree char *text = g_strdup_printf ("Could not measure: %s", error->message);
      ws_window_set_status (self, text);
    }
  ws_window_rebuild_chart (self);
  ws_window_rebuild_compare (self);
  ws_window_show_measured (self);
  ws_window_update_actions (self);
  ws_window_note_callback (self, start);
  ws_window_measure_data_free (d);
}

static void
measure (WsWindow *self,
         gboolean  counters)
{
  g_autoptr (WsMeasureRequest) request = NULL;
  WsMeasureData *d;

  if (self->device == NULL || ws_window_is_sweeping (self))
    return;
  if (self->measure_cancellable)
    g_cancellable_cancel (self->measure_cancellable);
  g_clear_object (&self->measure_cancellable);
  self->measure_cancellable = g_cancellable_new ();
  request = ws_window_make_request (self, counters);
  d = g_new0 (WsMeasureData, 1);
  d->self = g_object_ref (self);
  d->key = ws_window_pattern_key (self);
  d->cancellable = g_object_ref (self->measure_cancellable);
  ws_window_set_status (self, "Measuring…");
  ws_backend_measure_async (self->backend, request, self->measure_cancellable, measure_progress, self, NULL,
                            measure_done, d);
}

void
ws_window_measure_now (WsWindow *self)
{
  g_clear_handle_id (&self->measure_timeout, g_source_remove);
  measure (self, TRUE);
  ws_window_show_measured (self);
}

static gboolean
on_measure_timeout (gpointer data)
{
  WsWindow *self = data;

  self->measure_timeout = 0;
  if (live_for_current (self) == NULL)
    measure (self, FALSE);
  ws_window_show_measured (self);
  return G_SOURCE_REMOVE;
}

void
ws_window_schedule_measurement (WsWindow *self)
{
  g_clear_handle_id (&self->measure_timeout, g_source_remove);
  if (self->measure_cancellable)
    g_cancellable_cancel (self->measure_cancellable);
  g_clear_object (&self->measure_cancellable);
  if (self->device && g_settings_get_boolean (self->settings, "auto-measure") && !ws_window_is_sweeping (self))
    self->measure_timeout = g_timeout_add (DEBOUNCE_MS, on_measure_timeout, self);
  ws_window_show_measured (self);
}
