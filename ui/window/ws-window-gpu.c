/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Where measurements run: the chooser in the header bar writes the setting
 * gpu, which moves the session there; the button, the subtitle and the
 * banner say where it is and how reaching it goes, with a button to cancel
 * a wait, try again, or resume a sweep a lost connection stopped. */
#include <glib/gi18n.h>
#include "ws-window-private.h"

#include "ws-gpu-chooser.h"

#include <string.h>

static gboolean
remote (WsWindow *self)
{
  return !ws_gpu_target_is_local (ws_session_get_target (self->session));
}

/* Where measurements are, in a few words, for the subtitle. */
static char *
where_phrase (WsWindow *self)
{
  g_autofree char *at = ws_session_dup_place (self->session);
  const WsWorkerHello *hello = ws_session_get_hello (self->session);

  switch (ws_session_get_connection (self->session))
    {
    case WS_SESSION_CONNECTION_CONNECTING:
      return g_strdup_printf (_("connecting to %s…"), at);
    case WS_SESSION_CONNECTION_QUEUED:
      return g_strdup_printf (_("waiting in Slurm's queue (job %s)"), ws_session_get_connection_detail (self->session));
    case WS_SESSION_CONNECTION_FAILED:
      if (g_error_matches (ws_session_get_connection_error (self->session), G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return g_strdup_printf (_("not connected to %s"), at);
      return g_strdup_printf (_("%s out of reach"), at);
    case WS_SESSION_CONNECTION_LOST:
      return g_strdup_printf (_("connection to %s lost"), at);
    case WS_SESSION_CONNECTION_NONE:
    case WS_SESSION_CONNECTION_CONNECTED:
    default:
      break;
    }
  if (!ws_session_get_probed (self->session))
    return g_strdup (_("looking for a GPU…"));
  if (ws_session_get_device (self->session) == NULL)
    return remote (self) ? g_strdup_printf (_("no GPU on %s"), at) : g_strdup (_("no GPU here"));
  if (hello && hello->replay)
    return g_strdup_printf (_("played back on %s from %s"), at, hello->replay);
  return g_strdup_printf (_("measured on %s"), at);
}

/* What the page in view shows: the Explore page's preset or pattern, the
 * Kernel page's file, or the comparison. */
static char *
what_phrase (WsWindow *self)
{
  const char *page = self->page_stack ? gtk_stack_get_visible_child_name (self->page_stack) : NULL;

  if (g_strcmp0 (page, "kernel") == 0 && self->kernel_page)
    return g_strdup (ws_kernel_editor_get_title (ws_kernel_page_get_editor (self->kernel_page)));
  if (g_strcmp0 (page, "compare") == 0 && self->session)
    {
      GPtrArray *items = ws_session_get_comparison (self->session);
      guint n = items ? items->len : 0;

      if (n > 0)
        /* Translators: the window's subtitle on the Compare page */
        return g_strdup_printf (ngettext ("a comparison of %u kernel", "a comparison of %u kernels", n), n);
      return g_strdup (_("a comparison"));
    }
  return g_strdup (explore_preset (self) ? (explore_edited (self) ? _("edited pattern") : _(explore_preset (self)->title))
                                         : _("your pattern"));
}

void
ws_window_update_subtitle (WsWindow *self)
{
  g_autofree char *what = what_phrase (self);
  g_autofree char *where = NULL;
  g_autofree char *text = NULL;

  if (self->session == NULL)
    {
      adw_window_title_set_subtitle (self->window_title, what);
      return;
    }
  where = where_phrase (self);
  text = g_strdup_printf ("%s · %s", what, where);
  adw_window_title_set_subtitle (self->window_title, text);
}

/* ------------------------------------------------------------------ */
/* The banner                                                         */
/* ------------------------------------------------------------------ */

/* The message up to its first aside: the banner has one line. */
static char *
first_clause (const char *message)
{
  gsize n = strcspn (message, "(;");

  while (n > 0 && (message[n - 1] == ' ' || message[n - 1] == ':'))
    n--;
  return g_strndup (message, n);
}

/* " at stride = 4: the connection to gpu01 was lost", from the sweep's
 * error ("stride = 4: the connection to the GPU worker on gpu01 was lost: …"). */
static char *
stop_reason (WsWindow     *self,
             const GError *error)
{
  const char *colon = strstr (error->message, ": ");
  g_autofree char *at = NULL;
  g_autofree char *where = ws_session_dup_place (self->session);
  g_autofree char *why = NULL;
  const char *rest = error->message;

  if (colon && memchr (error->message, '=', colon - error->message))
    {
      at = g_strndup (error->message, colon - error->message);
      rest = colon + 2;
    }
  if (g_error_matches (error, WS_WORKER_ERROR, WS_WORKER_ERROR_CONNECTION_LOST))
    why = g_strdup_printf (_("the connection to %s was lost"), where);
  else
    why = first_clause (rest);
  return g_strdup_printf ("%s%s: %s", at ? _(" at ") : "", at ? at : "", why);
}

/* The session's sweep, if a lost connection stopped it. */
static WsSweep *
stopped_sweep (WsWindow *self)
{
  WsSweep *sweep = ws_session_get_sweep (self->session);

  return sweep && ws_sweep_get_can_resume (sweep) ? sweep : NULL;
}

static void
show_banner (WsWindow   *self,
             const char *icon,
             const char *text,
             const char *tooltip,
             const char *action)
{
  ws_window_show_banner (self, icon, text, tooltip, action, "measuring");
}

gboolean
ws_window_gpu_banner (WsWindow *self)
{
  g_autofree char *at = ws_session_dup_place (self->session);
  g_autofree char *text = NULL;
  g_autofree char *gpu = NULL;
  g_autofree char *described = ws_session_describe_gpu (self->session);
  g_autofree char *where = ws_gpu_target_describe (ws_session_get_target (self->session));
  const GError *error = ws_session_get_connection_error (self->session);
  const WsWorkerHello *hello = ws_session_get_hello (self->session);
  const WsDeviceInfo *device = ws_session_get_device (self->session);

  if (stopped_sweep (self))
    {
      const GError *stopped = ws_sweep_get_error (stopped_sweep (self));
      g_autofree char *why = stop_reason (self, stopped);
      text = g_strdup_printf (_("The sweep stopped%s. The points measured are kept."), why);
      show_banner (self, "dialog-warning-symbolic", text, stopped->message, _("_Resume Sweep"));
      return TRUE;
    }
  switch (ws_session_get_connection (self->session))
    {
    case WS_SESSION_CONNECTION_CONNECTING:
      text = g_strdup_printf (_("Connecting to %s…"), where);
      show_banner (self, "network-transmit-receive-symbolic", text, described, _("_Cancel"));
      return TRUE;
    case WS_SESSION_CONNECTION_QUEUED:
      text = g_strdup_printf (_("Slurm job %s waits in the queue for a GPU of %s…"),
                              ws_session_get_connection_detail (self->session), where);
      show_banner (self, "network-transmit-receive-symbolic", text, described, _("_Cancel"));
      return TRUE;
    case WS_SESSION_CONNECTION_FAILED:
      {
        g_autofree char *why = first_clause (error->message);

        if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
          text = g_strdup_printf (_("Not measuring on %s: %s."), where, why);
        else
          text = g_strdup_printf (_("No GPU: %s cannot be reached: %s."), where, why);
        show_banner (self, "dialog-warning-symbolic", text, error->message, _("_Try Again"));
        return TRUE;
      }
    case WS_SESSION_CONNECTION_LOST:
      {
        g_autofree char *why = first_clause (error->message);

        text = g_strdup_printf (_("The connection to %s was lost: %s. The next measurement connects again."), at, why);
        show_banner (self, "dialog-warning-symbolic", text, error->message, _("_Reconnect"));
        return TRUE;
      }
    case WS_SESSION_CONNECTION_NONE:
    case WS_SESSION_CONNECTION_CONNECTED:
    default:
      break;
    }
  /* here, the subtitle says enough; without a GPU the caller explains */
  if (!remote (self) || !ws_session_get_probed (self->session) || device == NULL)
    return FALSE;
  gpu = hello ? ws_worker_hello_describe_gpu (hello) : ws_text_for_message (device->name);
  if (hello && hello->replay)
    text = g_strdup_printf (_("Measurements are played back on %s from the recording %s, not measured: %s."), at,
                            hello->replay, gpu);
  else
    text = g_strdup_printf (_("Measurements run on %s (%s): %s."), at, where, gpu);
  show_banner (self, "network-server-symbolic", text, described, NULL);
  return TRUE;
}

static void
banner_action (GtkWidget  *widget,
               const char *name,
               GVariant   *param)
{
  WsWindow *self = WS_WINDOW (widget);
  WsSessionConnection c = ws_session_get_connection (self->session);

  if (stopped_sweep (self))
    ws_window_resume_sweep (self);
  else if (c == WS_SESSION_CONNECTION_CONNECTING || c == WS_SESSION_CONNECTION_QUEUED)
    ws_session_cancel_connecting (self->session);
  else
    ws_session_reconnect (self->session);
}

/* the banner's button: what it says (win.gpu-banner-action) */
static void
on_banner_button (WsWindow *self)
{
  gtk_widget_activate_action (GTK_WIDGET (self), "win.gpu-banner-action", NULL);
}

/* ------------------------------------------------------------------ */
/* The session and the setting                                        */
/* ------------------------------------------------------------------ */

static void
on_where_changed (WsWindow *self)
{
  ws_window_update_subtitle (self);
  ws_window_update_banner (self);
}

static void
on_gpu_setting (WsWindow *self)
{
  g_autoptr (WsGpuTarget) target = ws_gpu_chooser_read_target (self->settings);

  /* a sweep of the machine left is no sweep of this one */
  ws_window_cancel_sweep (self);
  ws_session_set_target (self->session, target);
  ws_session_probe (self->session);
  on_where_changed (self);
}

void
ws_window_gpu_init (WsWindow *self)
{
  static const char * const notified[] = { "notify::connection", "notify::connection-detail", "notify::hello",
                                           "notify::probed", "notify::target" };

  ws_gpu_button_set_settings (self->gpu_button, self->settings);
  ws_gpu_button_set_session (self->gpu_button, self->session);
  for (guint i = 0; i < G_N_ELEMENTS (notified); i++)
    g_signal_connect_object (self->session, notified[i], G_CALLBACK (on_where_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->settings, "changed::gpu", G_CALLBACK (on_gpu_setting), self, G_CONNECT_SWAPPED);
  /* what the subtitle names: the Kernel page's file, the comparison */
  g_signal_connect_object (ws_kernel_page_get_editor (self->kernel_page), "notify::title",
                           G_CALLBACK (ws_window_update_subtitle), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "comparison-changed", G_CALLBACK (ws_window_update_subtitle), self,
                           G_CONNECT_SWAPPED);
  on_where_changed (self);
}

void
ws_window_gpu_dispose (WsWindow *self)
{
  if (self->gpu_button)
    ws_gpu_button_set_session (self->gpu_button, NULL);
}

void
ws_window_gpu_class_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_bind_template_child (widget_class, WsWindow, gpu_button);
  gtk_widget_class_install_action (widget_class, "win.gpu-banner-action", NULL, banner_action);
  gtk_widget_class_bind_template_callback (widget_class, on_banner_button);
}
