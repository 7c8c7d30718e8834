/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Measurements in the window: the session measures (debounced here, stale
 * results dropped), and without a GPU the session's recording stands in,
 * labelled with the device it was made on. */
#include <glib/gi18n.h>
#include "ws-window-private.h"
#include "ws-plot-topic.h"

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

  WsSession *session = self->session;
  const GError *probe_error = ws_session_get_probe_error (session);
  const GError *recording_error = ws_session_get_recording_error (session);
  WsRecording *recording = ws_session_get_recording (session);

  /* where the GPU is, and how reaching it goes, come first */
  if (ws_window_gpu_banner (self))
    return;
  if (!ws_session_get_probed (session) || ws_session_get_device (session))
    {
      ws_banner_dismiss (self->banner);
      return;
    }
  reason = short_reason (probe_error);
  if (recording)
    {
      /* "recorded on DEVICE", with the date and "not measured here" for copied numbers */
      g_autofree char *source = ws_plot_recording_name (recording);
      text = g_strdup_printf (_("No GPU: %s. The plots show measurements %s."), reason, source);
    }
  else if (ws_session_get_recording_loaded (session))
    text = g_strdup_printf (_("No GPU: %s, and no recorded measurements either."), reason);
  else
    text = g_strdup_printf (_("No GPU: %s. Loading the recorded measurements…"), reason);
  full = g_strdup_printf (_("%s\n\nWhy there is no GPU: %s%s%s"), text, probe_error->message,
                          recording_error ? _("\nWhy there is no recording: ") : "",
                          recording_error ? recording_error->message : "");
  ws_window_show_banner (self, "dialog-information-symbolic", text, full, NULL, "recordings");
}

static const WsLiveEntry *
live_for_current (WsWindow *self)
{
  g_autofree char *key = ws_window_pattern_key (self);
  const char *param = ws_window_sweep_param (self);
  gint64 x = 0;

  if (param)
    ws_pattern_get_param (explore_pattern (self), param, &x);
  return ws_session_find_live (self->session, key, param ? (double) x : NAN);
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
  WsSpace space = ws_explore_page_shown_space (self->explore_page);
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
  if (explore_launch (self))
    model = ws_plot_model_metric (explore_launch (self), space, &name);
  else
    ws_plot_model_metric (NULL, space, &name);
  ws_numbers_view_set_counted (explore_numbers (self), name, counter_sum (m, num) / d, model);
}

/* "NVIDIA H100, recorded with N = 33554432, stride = 2": what a measurement ran at. */
static char *
describe_source (const char          *device,
                 const char          *when,
                 const WsMeasurement *m)
{
  GString *s = g_string_new (NULL);
  g_autofree char *name = ws_text_for_message (device ? device : "?");

  g_string_append_printf (s, "%s, %s", name, when);
  for (guint j = 0; m->params && j < m->params->len; j++)
    {
      const WsParamValue *p = &g_array_index (m->params, WsParamValue, j);
      g_string_append_printf (s, "%s %s = %" G_GINT64_FORMAT, j ? "," : " with", p->name, p->value);
    }
  return g_string_free (s, FALSE);
}

const WsMeasurement *
ws_window_shown_measurement (WsWindow *self,
                             char    **source,
                             int      *hue)
{
  const WsLiveEntry *e = live_for_current (self);
  const WsDeviceInfo *device = ws_session_get_device (self->session);
  WsRecording *recording = ws_session_get_recording (self->session);
  const WsMeasurement *m;

  if (e)
    {
      g_autoptr (GPtrArray) recordings = ws_session_dup_recordings (self->session);
      WsPlotSources sources;

      ws_window_plot_sources (self, &sources, recordings);
      *hue = ws_plot_live_hue (&sources);
      *source = ws_plot_live_name (device ? device->name : NULL);
      return e->m;
    }
  if (recording && explore_preset (self) && !explore_edited (self) &&
      (m = ws_plot_recorded_one (recording, explore_preset (self), explore_pattern (self))))
    {
      *hue = 0;
      *source = ws_plot_recording_name (recording);
      return m;
    }
  *source = NULL;
  return NULL;
}

void
ws_window_show_launch_view (WsWindow *self)
{
  WsTopicView view;
  g_autofree char *source = NULL;
  g_autoptr (WsTopicFigure) figure = NULL;
  WsRecording *recording = ws_session_get_recording (self->session);
  const WsDeviceInfo *device = ws_session_get_device (self->session);
  WsTopicInput in = { 0 };
  int hue;

  if (!ws_topic_view_for (explore_preset (self), &view))
    return;
  in.preset = explore_preset (self);
  in.pattern = explore_pattern (self);
  in.measured = ws_window_shown_measurement (self, &source, &hue);
  in.measured_source = source;
  /* the GPU here, else the one the recording was made on */
  in.device = device ? device : recording ? ws_recording_get_device (recording) : NULL;
  figure = ws_plot_topic_build (view, &in);
  ws_launch_view_set_figure (ws_explore_page_get_launch_view (self->explore_page, view), figure);
}

/* The measured numbers beside the model's: live, else recorded, else why not. */
void
ws_window_show_measured (WsWindow *self)
{
  const WsLiveEntry *e = live_for_current (self);
  const WsDeviceInfo *device = ws_session_get_device (self->session);
  WsRecording *recording = ws_session_get_recording (self->session);
  const WsMeasurement *m;

  /* the counters below L1 beside the model's, in the hierarchy view */
  ws_window_show_hierarchy (self);
  ws_window_show_launch_view (self);
  if (e)
    {
      g_autofree char *source = describe_source (device ? device->name : "this GPU", "now", e->m);
      ws_numbers_view_set_measurement (explore_numbers (self), e->m, source);
      show_counted (self, e->m);
      return;
    }
  if (recording && explore_preset (self) && !explore_edited (self) &&
      (m = ws_plot_recorded_one (recording, explore_preset (self), explore_pattern (self))))
    {
      const WsDeviceInfo *d = ws_recording_get_device (recording);
      g_autofree char *source = describe_source (d ? d->name : NULL, "recorded", m);

      /* the sizes it ran at, which may not be the editor's */
      ws_numbers_view_set_measurement (explore_numbers (self), m, source);
      show_counted (self, m);
      return;
    }
  if (self->measure_cancellable || self->measure_timeout)
    ws_numbers_view_set_measured_message (explore_numbers (self), _("Measuring…"));
  else if (device)
    ws_numbers_view_set_measured_message (explore_numbers (self), _("Not measured yet: press Measure"));
  else if (ws_session_get_probed (self->session))
    ws_numbers_view_set_measured_message (explore_numbers (self), explore_edited (self) ? _("No GPU, and no recording of this edited pattern")
                                                                      : _("No GPU, and no recording of this pattern"));
  else
    ws_numbers_view_set_measured_message (explore_numbers (self), _("Looking for a GPU…"));
}

/* ------------------------------------------------------------------ */
/* What the session says                                              */
/* ------------------------------------------------------------------ */

static void
on_probed (WsWindow *self)
{
  gint64 start = g_get_monotonic_time ();

  g_assert (WS_IS_WINDOW (self));

  ws_window_update_banner (self);
  ws_window_rebuild_chart (self);
  ws_window_show_measured (self);
  ws_window_update_actions (self);
  ws_window_schedule_measurement (self);
  ws_window_note_callback (self, start);
}

static void
on_recordings_changed (WsWindow *self)
{
  gint64 start = g_get_monotonic_time ();

  g_assert (WS_IS_WINDOW (self));

  ws_window_update_banner (self);
  ws_window_rebuild_chart (self);
  ws_window_show_measured (self);
  ws_window_update_actions (self);
  ws_window_note_callback (self, start);
}

/* Any measurement the session kept: the explorer's, the comparison's, a sweep's. */
static void
on_measured (WsWindow          *self,
             const WsLiveEntry *entry)
{
  gint64 start = g_get_monotonic_time ();

  g_assert (WS_IS_WINDOW (self));

  ws_window_rebuild_chart (self);
  ws_window_show_measured (self);
  ws_window_update_actions (self);
  ws_window_note_callback (self, start);
}

static void
on_measure_progress (WsWindow *self,
                     guint     done,
                     guint     total)
{
  const WsDeviceInfo *device = ws_session_get_device (self->session);
  g_autofree char *text = NULL;
  g_autofree char *name = NULL;
  gint64 start = g_get_monotonic_time ();

  g_assert (WS_IS_WINDOW (self));

  /* the explorer's measurement: the comparison's have the chart to show them */
  if (self->measure_cancellable == NULL || device == NULL)
    return;
  name = ws_text_for_message (device->name);
  text = g_strdup_printf (_("Measuring on %s: sample %u of %u…"), name, done, total);
  ws_window_set_status (self, text);
  ws_window_note_callback (self, start);
}

void
ws_window_measure_init (WsWindow *self)
{
  g_signal_connect_object (self->session, "notify::probed", G_CALLBACK (on_probed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "recordings-changed", G_CALLBACK (on_recordings_changed), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "measured", G_CALLBACK (on_measured), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "measure-progress", G_CALLBACK (on_measure_progress), self,
                           G_CONNECT_SWAPPED);
  /* the window shows at once; the session looks at the GPU on the backend thread */
  ws_session_probe (self->session);
}

void
ws_window_measure_dispose (WsWindow *self)
{
  g_clear_handle_id (&self->measure_timeout, g_source_remove);
  if (self->measure_cancellable)
    g_cancellable_cancel (self->measure_cancellable);
  g_clear_object (&self->measure_cancellable);
}

/* ------------------------------------------------------------------ */
/* One measurement                                                    */
/* ------------------------------------------------------------------ */

/* A registered kernel for an unedited preset; a generated one otherwise. */
WsMeasureRequest *
ws_window_make_request (WsWindow *self,
                        gboolean  counters)
{
  return ws_session_request_for (self->session, explore_preset (self), explore_pattern (self), counters);
}

static void
measure_done (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr (WsWindow) self = user_data;
  g_autoptr (GError) error = NULL;
  g_autoptr (WsMeasurement) m = ws_session_measure_finish (WS_SESSION (source), result, &error);
  const WsDeviceInfo *device = ws_session_get_device (WS_SESSION (source));
  g_autofree char *text = NULL;

  g_assert (WS_IS_WINDOW (self));

  /* a measurement of a pattern the window has moved away from says nothing */
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) || self->session == NULL)
    return;
  g_clear_object (&self->measure_cancellable);
  if (m)
    {
      g_autofree char *name = ws_text_for_message (device->name);

      text = g_strdup_printf (_("Measured on %s: median of %u samples"), name, m->samples_ms ? m->samples_ms->len : 0);
    }
  else
    text = g_strdup_printf (_("Could not measure: %s"), error->message);
  ws_window_set_status (self, text);
  ws_window_show_measured (self);
  ws_window_update_actions (self);
}

static void
measure (WsWindow *self,
         gboolean  counters)
{
  g_autoptr (WsMeasureRequest) request = NULL;

  if (ws_session_get_device (self->session) == NULL || ws_window_is_sweeping (self))
    return;
  if (self->measure_cancellable)
    g_cancellable_cancel (self->measure_cancellable);
  g_clear_object (&self->measure_cancellable);
  self->measure_cancellable = g_cancellable_new ();
  request = ws_window_make_request (self, counters);
  ws_window_set_status (self, _("Measuring…"));
  ws_session_measure_async (self->session, request, self->measure_cancellable, measure_done, g_object_ref (self));
}

void
ws_window_measure_now (WsWindow *self)
{
  if (ws_window_pattern_is_wrong (self, TRUE))
    return;
  g_clear_handle_id (&self->measure_timeout, g_source_remove);
  measure (self, TRUE);
  ws_window_show_measured (self);
}

static gboolean
on_measure_timeout (gpointer data)
{
  WsWindow *self = data;

  g_assert (WS_IS_WINDOW (self));

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
  if (ws_session_get_device (self->session) && g_settings_get_boolean (self->settings, "auto-measure") &&
      !ws_window_is_sweeping (self))
    self->measure_timeout = g_timeout_add (DEBOUNCE_MS, on_measure_timeout, self);
  ws_window_show_measured (self);
}
