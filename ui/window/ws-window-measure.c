/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Measurements in the window: where they come from, in the banner (without
 * a GPU, the session's recording, labelled with the device it was made
 * on), and the plot and the actions, which follow what the session
 * measures. The Explore page measures its pattern (ws-explore-page-measure.c). */
#include <glib/gi18n.h>
#include "ws-window-private.h"
#include "ws-plot.h"

#include <math.h>
#include <string.h>

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
  ws_window_update_actions (self);
  ws_window_note_callback (self, start);
}

static void
on_recordings_changed (WsWindow *self)
{
  gint64 start = g_get_monotonic_time ();

  g_assert (WS_IS_WINDOW (self));

  ws_window_update_banner (self);
  ws_window_rebuild_chart (self);
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
  ws_window_update_actions (self);
  ws_window_note_callback (self, start);
}

void
ws_window_measure_init (WsWindow *self)
{
  g_signal_connect_object (self->session, "notify::probed", G_CALLBACK (on_probed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "recordings-changed", G_CALLBACK (on_recordings_changed), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "measured", G_CALLBACK (on_measured), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->explore_page, "notify::measuring", G_CALLBACK (ws_window_update_actions), self,
                           G_CONNECT_SWAPPED);
  /* the window shows at once; the session looks at the GPU on the backend thread */
  ws_session_probe (self->session);
}

/* Measure: the pattern on the GPU now, counters included; a pattern the
 * editor marks wrong says why not. */
void
ws_window_measure_now (WsWindow *self)
{
  if (ws_window_pattern_is_wrong (self, TRUE))
    return;
  ws_explore_page_measure_now (self->explore_page);
}
