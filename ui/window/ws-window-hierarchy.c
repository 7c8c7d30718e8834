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
  ws_explore_page_show_measured (self->explore_page);
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
