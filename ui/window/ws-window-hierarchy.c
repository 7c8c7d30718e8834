/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Below L1, for the window: the hierarchy of the pattern's launch on the
 * device the session chose (ws-session-profile.c), on the session's model
 * thread after the launch's L1 figures; the view and the numbers that show it;
 * and Recalibrate. */
#include <glib/gi18n.h>
#include "ws-window-private.h"

#include <math.h>

#include "ws-device-json.h"
#include "ws-plot-hierarchy.h"

/* ------------------------------------------------------------------ */
/* The profile, which the session chooses                            */
/* ------------------------------------------------------------------ */

static void
on_profile_changed (WsWindow *self)
{
  /* a prediction made on another device is no prediction */
  ws_plot_panel_forget_prediction (self->plot_panel);
  ws_window_analyze_hierarchy (self);
  ws_window_rebuild_chart (self);
}

static void
on_calibrating (WsWindow *self)
{
  ws_window_show_hierarchy (self);
  ws_window_update_actions (self);
}

static void
on_calibration_done (WsWindow     *self,
                     const GError *error)
{
  g_autofree char *text = NULL;

  if (error == NULL)
    {
      ws_window_toast (self, _("The GPU is calibrated: the model follows launches below L1 with what it measured"));
      return;
    }
  text = g_strdup_printf (_("Could not calibrate the GPU: %s"), error->message);
  ws_window_toast (self, text);
}

/* Measures the GPU in use for the model with the worker's microkernels;
 * the session keeps what it finds, and uses it. Without a GPU, FALSE. */
gboolean
ws_window_calibrate (WsWindow *self,
                     gboolean  again)
{
  if (!ws_window_can_calibrate (self))
    return FALSE;
  if (!ws_session_get_calibrating (self->session))
    ws_session_calibrate_async (self->session, NULL, NULL, NULL, NULL, NULL, self->cancellable, NULL, NULL);
  return TRUE;
}

gboolean
ws_window_can_calibrate (WsWindow *self)
{
  return ws_session_get_device (self->session) != NULL;
}

/* ------------------------------------------------------------------ */
/* The hierarchy, on a thread of its own                              */
/* ------------------------------------------------------------------ */

typedef struct
{
  const WsPreset *preset;    /* whose kernel runs the pattern, or NULL */
  WsPattern *pattern;
  WsDeviceProfile *profile;  /* a copy: the session may let go of its own meanwhile */
} HierarchyJob;

static void
hierarchy_job_free (HierarchyJob *job)
{
  ws_pattern_unref (job->pattern);
  ws_device_profile_free (job->profile);
  g_free (job);
}

static gpointer
hierarchy_job (gpointer      data,
               GCancellable *cancellable,
               GError      **error)
{
  HierarchyJob *job = data;

  return ws_plot_model_compute (job->preset, job->pattern, job->profile, cancellable, error);
}

static void
hierarchy_done (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr (WsWindow) self = user_data;
  g_autoptr (GError) error = NULL;
  WsPlotModel *h = ws_session_model_finish (WS_SESSION (source), result, &error);

  g_assert (WS_IS_WINDOW (self));

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  self->hierarchy_running = FALSE;
  g_clear_pointer (&self->hierarchy, ws_plot_model_free);
  g_clear_pointer (&self->hierarchy_error, g_free);
  self->hierarchy = h;
  if (h == NULL)
    self->hierarchy_error = g_strdup_printf (_("The model could not follow this launch below L1: %s"), error->message);
  ws_window_show_hierarchy (self);
}

void
ws_window_analyze_hierarchy (WsWindow *self)
{
  const WsDeviceProfile *profile = ws_session_get_device_profile (self->session);
  HierarchyJob *job;

  g_cancellable_cancel (self->hierarchy_cancellable);
  g_clear_object (&self->hierarchy_cancellable);
  g_clear_pointer (&self->hierarchy, ws_plot_model_free);
  g_clear_pointer (&self->hierarchy_error, g_free);
  self->hierarchy_running = FALSE;
  /* the launch's own figures come first: they are what the other views show */
  if (profile == NULL || self->launch == NULL || self->launch->pattern != self->pattern)
    {
      ws_window_show_hierarchy (self);
      return;
    }
  self->hierarchy_cancellable = g_cancellable_new ();
  job = g_new0 (HierarchyJob, 1);
  job->preset = self->edited ? NULL : self->preset;
  job->pattern = ws_pattern_ref (self->pattern);
  job->profile = ws_device_profile_copy (profile);
  self->hierarchy_running = TRUE;
  ws_session_model_async (self->session, NULL, hierarchy_job, job, (GDestroyNotify) hierarchy_job_free, NULL,
                          (GDestroyNotify) ws_plot_model_free, self->hierarchy_cancellable, hierarchy_done,
                          g_object_ref (self));
  ws_window_show_hierarchy (self);
}

/* ------------------------------------------------------------------ */
/* What the user sees                                                 */
/* ------------------------------------------------------------------ */

static char *
hierarchy_title (WsWindow *self)
{
  if (self->preset && !self->edited)
    return ws_preset_short_title (_(self->preset->title));
  if (self->preset)
    {
      g_autofree char *name = ws_preset_short_title (_(self->preset->title));
      /* Translators: a preset's name */
      return g_strdup_printf (_("%s, edited"), name);
    }
  return g_strdup (_("Your pattern"));
}

static char *
profile_description (WsWindow              *self,
                     const WsDeviceProfile *profile)
{
  g_autofree char *name = NULL;
  g_autofree char *source = NULL;

  if (profile == NULL)
    return g_strdup (_("No device to follow the launch on"));
  /* a profile's name, and where it came from (a path), are a file's */
  name = ws_text_for_message (profile->name ? profile->name : profile->id);
  source = ws_text_for_message (ws_session_get_profile_source (self->session));
  return g_strdup_printf (_("The whole launch on the %s: %s"), name, source);
}

static void
show_numbers (WsWindow *self)
{
  const WsDeviceProfile *profile = ws_session_get_device_profile (self->session);
  g_autofree char *what = profile_description (self, profile);
  const char *state = NULL;

  if (profile == NULL)
    state = NULL;
  else if (self->hierarchy == NULL)
    state = self->hierarchy_error ? self->hierarchy_error : _("Following the launch through L1, L2 and DRAM…");
  ws_numbers_view_set_hierarchy (self->numbers, self->hierarchy ? &self->hierarchy->total : NULL, what, state,
                                 ws_window_can_calibrate (self));
  if (self->hierarchy && !isnan (self->hierarchy->predicted_s))
    {
      g_autofree char *levels = ws_plot_model_describe_levels (self->hierarchy);
      const char *bound = ws_plot_model_bound_name (self->hierarchy);

      ws_numbers_view_set_prediction (self->numbers, self->hierarchy->predicted_s, bound ? _(bound) : NULL, levels);
    }
  else
    ws_numbers_view_set_prediction (self->numbers, NAN, NULL, NULL);
}

void
ws_window_show_hierarchy (WsWindow *self)
{
  const WsDeviceProfile *profile = ws_session_get_device_profile (self->session);
  g_autofree char *title = hierarchy_title (self);
  g_autofree char *message = NULL;
  g_autofree char *source = NULL;
  g_autoptr (WsHierarchyFigure) figure = NULL;
  int hue = 0;
  const WsMeasurement *m = ws_window_shown_measurement (self, &source, &hue);
  WsPlotHierarchyInput in = { title, self->hierarchy, profile, ws_session_get_profile_source (self->session), m, source,
                              hue, NULL };

  if (profile == NULL)
    message = g_strdup (_("Looking for a GPU and the recorded measurements…"));
  else if (self->hierarchy == NULL)
    message = g_strdup (self->hierarchy_error ? self->hierarchy_error
                                              : _("Following the launch through L1, L2 and DRAM…"));
  in.message = message;
  figure = ws_plot_hierarchy_build (&in);
  ws_hierarchy_view_set_figure (self->hierarchy_view, figure);
  show_numbers (self);
}

void
ws_window_hierarchy_init (WsWindow *self)
{
  GtkStackPage *page;

  self->hierarchy_cancellable = g_cancellable_new ();
  self->hierarchy_view = WS_HIERARCHY_VIEW (ws_hierarchy_view_new ());
  page = gtk_stack_add_titled (self->view_stack, GTK_WIDGET (self->hierarchy_view), "hierarchy", _("Hierarchy"));
  gtk_stack_page_set_visible (page, TRUE);
}

void
ws_window_hierarchy_follow (WsWindow *self)
{
  /* a GPU nothing is known of is calibrated once, by itself */
  ws_session_set_auto_calibrate (self->session, TRUE);
  g_signal_connect_object (self->session, "notify::device-profile", G_CALLBACK (on_profile_changed), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "notify::calibrating", G_CALLBACK (on_calibrating), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "calibration-done", G_CALLBACK (on_calibration_done), self,
                           G_CONNECT_SWAPPED);
}

void
ws_window_hierarchy_dispose (WsWindow *self)
{
  g_cancellable_cancel (self->hierarchy_cancellable);
  g_clear_object (&self->hierarchy_cancellable);
  g_clear_pointer (&self->hierarchy, ws_plot_model_free);
  g_clear_pointer (&self->hierarchy_error, g_free);
}
