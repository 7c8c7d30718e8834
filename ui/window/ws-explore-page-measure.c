/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What is measured for what the Explore page shows: the session measures
 * the pattern once it stops changing (debounced here, stale results
 * dropped), or when asked; the numbers, the Hierarchy view and the topic's
 * view of the launch show it beside the model's. Without a GPU the
 * session's recording stands in, labelled with the device it was made on. */
#include "ws-config.h"

#include <glib/gi18n.h>
#include "ws-explore-page-private.h"
#include "ws-plot.h"
#include "ws-plot-topic.h"

#include <math.h>

#define DEBOUNCE_MS 400

/* Times how long a callback from the session holds the main loop. */
static void
note_callback (WsExplorePage *self,
               gint64         start)
{
  self->longest_callback_us = MAX (self->longest_callback_us, g_get_monotonic_time () - start);
}

gint64
ws_explore_page_take_longest_callback (WsExplorePage *self)
{
  gint64 longest;

  g_return_val_if_fail (WS_IS_EXPLORE_PAGE (self), 0);

  longest = self->longest_callback_us;
  self->longest_callback_us = 0;
  return longest;
}

/* ------------------------------------------------------------------ */
/* Which measurement is the pattern's                                 */
/* ------------------------------------------------------------------ */

const char *
ws_explore_page_sweep_param (WsExplorePage *self)
{
  g_return_val_if_fail (WS_IS_EXPLORE_PAGE (self), NULL);

  return self->pattern ? ws_preset_sweep_param (self->preset, self->pattern) : NULL;
}

char *
ws_explore_page_pattern_key (WsExplorePage *self)
{
  g_return_val_if_fail (WS_IS_EXPLORE_PAGE (self), NULL);
  g_return_val_if_fail (self->pattern != NULL, NULL);

  return ws_pattern_sweep_key (self->pattern, ws_explore_page_sweep_param (self));
}

WsMeasureRequest *
ws_explore_page_make_request (WsExplorePage *self,
                              gboolean       counters)
{
  g_return_val_if_fail (WS_IS_EXPLORE_PAGE (self), NULL);
  g_return_val_if_fail (self->session != NULL, NULL);

  return ws_session_request_for (self->session, self->preset, self->pattern, counters);
}

static gboolean
is_sweeping (WsExplorePage *self)
{
  WsSweep *sweep = self->session ? ws_session_get_sweep (self->session) : NULL;

  return sweep && ws_sweep_get_running (sweep);
}

static const WsLiveEntry *
live_for_current (WsExplorePage *self)
{
  g_autofree char *key = NULL;
  const char *param = ws_explore_page_sweep_param (self);
  gint64 x = 0;

  if (self->session == NULL || self->pattern == NULL)
    return NULL;
  key = ws_explore_page_pattern_key (self);
  if (param)
    ws_pattern_get_param (self->pattern, param, &x);
  return ws_session_find_live (self->session, key, param ? (double) x : NAN);
}

/* The measurement shown and whether it is live (else recorded): one
 * lookup, for the numbers, the Hierarchy view and the topic's view. */
static const WsMeasurement *
find_measurement (WsExplorePage *self,
                  gboolean      *live,
                  char         **source,
                  int           *hue)
{
  const WsLiveEntry *e;
  const WsDeviceInfo *device;
  WsRecording *recording;
  const WsMeasurement *m;

  *live = FALSE;
  *source = NULL;
  *hue = 0;
  if (self->session == NULL || self->pattern == NULL)
    return NULL;
  e = live_for_current (self);
  device = ws_session_get_device (self->session);
  recording = ws_session_get_recording (self->session);
  if (e)
    {
      g_autoptr (GPtrArray) recordings = ws_session_dup_recordings (self->session);
      WsPlotSources sources;

      ws_plot_sources_from_session (&sources, self->session, recordings);
      *live = TRUE;
      *hue = ws_plot_live_hue (&sources);
      *source = ws_plot_live_name (device ? device->name : NULL);
      return e->m;
    }
  if (recording && self->preset && !self->edited &&
      (m = ws_plot_recorded_one (recording, self->preset, self->pattern)))
    {
      *source = ws_plot_recording_name (recording);
      return m;
    }
  return NULL;
}

const WsMeasurement *
ws_explore_page_shown_measurement (WsExplorePage *self,
                                   char         **source,
                                   int           *hue)
{
  gboolean live;

  g_return_val_if_fail (WS_IS_EXPLORE_PAGE (self), NULL);

  return find_measurement (self, &live, source, hue);
}

/* ------------------------------------------------------------------ */
/* Showing it                                                         */
/* ------------------------------------------------------------------ */

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
show_counted (WsExplorePage       *self,
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
  WsSpace space = ws_explore_page_shown_space (self);
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
  g_autofree char *name = ws_text_for_message (device ? device : "?");

  g_string_append_printf (s, "%s, %s", name, when);
  for (guint j = 0; m->params && j < m->params->len; j++)
    {
      const WsParamValue *p = &g_array_index (m->params, WsParamValue, j);
      g_string_append_printf (s, "%s %s = %" G_GINT64_FORMAT, j ? "," : " with", p->name, p->value);
    }
  return g_string_free (s, FALSE);
}

/* The view of the whole launch the preset's topic is about, with what is
 * measured now. */
static void
show_launch_view (WsExplorePage       *self,
                  const WsMeasurement *measured,
                  const char          *source)
{
  WsTopicView view;
  g_autoptr (WsTopicFigure) figure = NULL;
  WsRecording *recording;
  const WsDeviceInfo *device;
  WsTopicInput in = { 0 };

  if (self->session == NULL || !ws_topic_view_for (self->preset, &view))
    return;
  recording = ws_session_get_recording (self->session);
  device = ws_session_get_device (self->session);
  in.preset = self->preset;
  in.pattern = self->pattern;
  in.measured = measured;
  in.measured_source = source;
  /* the GPU here, else the one the recording was made on */
  in.device = device ? device : recording ? ws_recording_get_device (recording) : NULL;
  figure = ws_plot_topic_build (view, &in);
  ws_launch_view_set_figure (self->launch_views[view], figure);
}

/* The measured numbers beside the model's: live, else recorded, else why not. */
void
ws_explore_page_show_measured (WsExplorePage *self)
{
  const WsDeviceInfo *device;
  const WsMeasurement *m;
  g_autofree char *source = NULL;
  gboolean live;
  int hue;

  g_return_if_fail (WS_IS_EXPLORE_PAGE (self));

  if (self->session == NULL || self->pattern == NULL)
    return;
  m = find_measurement (self, &live, &source, &hue);
  device = ws_session_get_device (self->session);
  /* the counters below L1 beside the model's, in the Hierarchy view */
  ws_hierarchy_page_set_measurement (self->hierarchy_page, m, source, hue);
  show_launch_view (self, m, source);
  if (m)
    {
      const WsDeviceInfo *d = live ? device : ws_recording_get_device (ws_session_get_recording (self->session));
      /* a recording's: the sizes it ran at, which may not be the editor's */
      g_autofree char *what = live ? describe_source (device ? device->name : "this GPU", "now", m)
                                   : describe_source (d ? d->name : NULL, "recorded", m);

      ws_numbers_view_set_measurement (self->numbers, m, what);
      show_counted (self, m);
      return;
    }
  if (ws_explore_page_get_measuring (self))
    ws_numbers_view_set_measured_message (self->numbers, _("Measuring…"));
  else if (device)
    ws_numbers_view_set_measured_message (self->numbers, _("Not measured yet: press Measure"));
  else if (ws_session_get_probed (self->session))
    ws_numbers_view_set_measured_message (self->numbers, self->edited ? _("No GPU, and no recording of this edited pattern")
                                                                      : _("No GPU, and no recording of this pattern"));
  else
    ws_numbers_view_set_measured_message (self->numbers, _("Looking for a GPU…"));
}

/* ------------------------------------------------------------------ */
/* One measurement                                                    */
/* ------------------------------------------------------------------ */

gboolean
ws_explore_page_get_measuring (WsExplorePage *self)
{
  g_return_val_if_fail (WS_IS_EXPLORE_PAGE (self), FALSE);

  return self->measure_cancellable != NULL || self->measure_timeout != 0;
}

static void
set_measuring (WsExplorePage *self,
               gboolean       was)
{
  if (was != ws_explore_page_get_measuring (self))
    g_object_notify (G_OBJECT (self), "measuring");
}

static void
stop (WsExplorePage *self)
{
  g_clear_handle_id (&self->measure_timeout, g_source_remove);
  if (self->measure_cancellable)
    g_cancellable_cancel (self->measure_cancellable);
  g_clear_object (&self->measure_cancellable);
}

static void
measure_done (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr (WsExplorePage) self = user_data;
  g_autoptr (GError) error = NULL;
  g_autoptr (WsMeasurement) m = ws_session_measure_finish (WS_SESSION (source), result, &error);
  const WsDeviceInfo *device = ws_session_get_device (WS_SESSION (source));
  g_autofree char *text = NULL;
  gboolean was = ws_explore_page_get_measuring (self);

  /* a measurement of a pattern the page has moved away from says nothing */
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
  ws_plot_panel_set_status (self->plot_panel, text);
  ws_explore_page_show_measured (self);
  set_measuring (self, was);
}

static void
measure (WsExplorePage *self,
         gboolean       counters)
{
  g_autoptr (WsMeasureRequest) request = NULL;

  if (self->session == NULL || ws_session_get_device (self->session) == NULL || is_sweeping (self))
    return;
  if (self->measure_cancellable)
    g_cancellable_cancel (self->measure_cancellable);
  g_clear_object (&self->measure_cancellable);
  self->measure_cancellable = g_cancellable_new ();
  request = ws_explore_page_make_request (self, counters);
  ws_plot_panel_set_status (self->plot_panel, _("Measuring…"));
  ws_session_measure_async (self->session, request, self->measure_cancellable, measure_done, g_object_ref (self));
}

void
ws_explore_page_measure_now (WsExplorePage *self)
{
  gboolean was;

  g_return_if_fail (WS_IS_EXPLORE_PAGE (self));

  was = ws_explore_page_get_measuring (self);
  g_clear_handle_id (&self->measure_timeout, g_source_remove);
  measure (self, TRUE);
  ws_explore_page_show_measured (self);
  set_measuring (self, was);
}

static gboolean
on_measure_timeout (gpointer data)
{
  WsExplorePage *self = data;

  self->measure_timeout = 0;
  if (live_for_current (self) == NULL)
    measure (self, FALSE);
  ws_explore_page_show_measured (self);
  set_measuring (self, TRUE);
  return G_SOURCE_REMOVE;
}

void
ws_explore_page_schedule_measurement (WsExplorePage *self)
{
  gboolean was;

  g_return_if_fail (WS_IS_EXPLORE_PAGE (self));

  was = ws_explore_page_get_measuring (self);
  stop (self);
  if (self->session && ws_session_get_device (self->session) && self->auto_measure && !is_sweeping (self))
    self->measure_timeout = g_timeout_add (DEBOUNCE_MS, on_measure_timeout, self);
  ws_explore_page_show_measured (self);
  set_measuring (self, was);
}

void
ws_explore_page_stop_measuring (WsExplorePage *self)
{
  gboolean was;

  g_return_if_fail (WS_IS_EXPLORE_PAGE (self));

  was = ws_explore_page_get_measuring (self);
  stop (self);
  ws_explore_page_show_measured (self);
  set_measuring (self, was);
}

/* ------------------------------------------------------------------ */
/* What the session says                                              */
/* ------------------------------------------------------------------ */

/* A GPU found, or none: measured once the pattern stops changing. */
static void
on_probed (WsExplorePage *self)
{
  gint64 start = g_get_monotonic_time ();

  ws_explore_page_schedule_measurement (self);
  note_callback (self, start);
}

/* A recording opened, a measurement kept: the explorer's, the
 * comparison's, a sweep's. */
static void
on_session_changed (WsExplorePage *self)
{
  gint64 start = g_get_monotonic_time ();

  ws_explore_page_show_measured (self);
  note_callback (self, start);
}

static void
on_measure_progress (WsExplorePage *self,
                     guint          done,
                     guint          total)
{
  const WsDeviceInfo *device = ws_session_get_device (self->session);
  g_autofree char *text = NULL;
  g_autofree char *name = NULL;
  gint64 start = g_get_monotonic_time ();

  /* the explorer's measurement: the comparison's have the chart to show them */
  if (self->measure_cancellable == NULL || device == NULL)
    return;
  name = ws_text_for_message (device->name);
  text = g_strdup_printf (_("Measuring on %s: sample %u of %u…"), name, done, total);
  ws_plot_panel_set_status (self->plot_panel, text);
  note_callback (self, start);
}

void
ws_explore_page_measure_follow (WsExplorePage *self,
                                WsSession     *old)
{
  if (old)
    g_signal_handlers_disconnect_by_data (old, self);
  stop (self);
  if (self->session == NULL)
    return;
  g_signal_connect_object (self->session, "notify::probed", G_CALLBACK (on_probed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "recordings-changed", G_CALLBACK (on_session_changed), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "measured", G_CALLBACK (on_session_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "measure-progress", G_CALLBACK (on_measure_progress), self,
                           G_CONNECT_SWAPPED);
}

gboolean
ws_explore_page_get_auto_measure (WsExplorePage *self)
{
  g_return_val_if_fail (WS_IS_EXPLORE_PAGE (self), FALSE);
  return self->auto_measure;
}

void
ws_explore_page_set_auto_measure (WsExplorePage *self,
                                  gboolean       auto_measure)
{
  g_return_if_fail (WS_IS_EXPLORE_PAGE (self));

  auto_measure = !!auto_measure;
  if (auto_measure == self->auto_measure)
    return;
  self->auto_measure = auto_measure;
  g_object_notify (G_OBJECT (self), "auto-measure");
}

void
ws_explore_page_measure_dispose (WsExplorePage *self)
{
  stop (self);
}
