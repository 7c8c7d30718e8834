/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Below L1, for the window: the Hierarchy view (ws-hierarchy-page.c)
 * told what the pattern is and what was measured, the numbers that show its
 * model, and Recalibrate. */
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
  /* a prediction made on another device is no prediction (the Hierarchy
   * view follows the profile by itself) */
  ws_plot_panel_forget_prediction (explore_plot (self));
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

void
ws_window_analyze_hierarchy (WsWindow *self)
{
  /* the launch's own figures come first: they are what the other views show */
  ws_hierarchy_page_follow (explore_hierarchy (self), explore_preset (self), explore_pattern (self), explore_edited (self),
                            explore_launch (self) != NULL && explore_launch (self)->pattern == explore_pattern (self));
}

/* ------------------------------------------------------------------ */
/* What the user sees                                                 */
/* ------------------------------------------------------------------ */

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
  const WsPlotModel *model = ws_hierarchy_page_get_model (explore_hierarchy (self));
  const char *error = ws_hierarchy_page_get_error (explore_hierarchy (self));
  g_autofree char *what = profile_description (self, profile);
  const char *state = NULL;

  if (profile == NULL)
    state = NULL;
  else if (model == NULL)
    state = error ? error : _("Following the launch through L1, L2 and DRAM…");
  ws_numbers_view_set_hierarchy (explore_numbers (self), model ? &model->total : NULL, what, state,
                                 ws_window_can_calibrate (self));
  if (model && !isnan (model->predicted_s))
    {
      g_autofree char *levels = ws_plot_model_describe_levels (model);
      const char *bound = ws_plot_model_bound_name (model);

      ws_numbers_view_set_prediction (explore_numbers (self), model->predicted_s, bound ? _(bound) : NULL, levels);
    }
  else
    ws_numbers_view_set_prediction (explore_numbers (self), NAN, NULL, NULL);
}

/* The measurement shown, whose counters the view sets beside the model's. */
void
ws_window_show_hierarchy (WsWindow *self)
{
  g_autofree char *source = NULL;
  int hue = 0;
  const WsMeasurement *m = ws_window_shown_measurement (self, &source, &hue);

  ws_hierarchy_page_set_measurement (explore_hierarchy (self), m, source, hue);
}

void
ws_window_hierarchy_init (WsWindow *self)
{
  /* the numbers beside the views follow its model */
  g_signal_connect_object (explore_hierarchy (self), "changed", G_CALLBACK (show_numbers), self, G_CONNECT_SWAPPED);
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
