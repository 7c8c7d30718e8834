/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Where the session's GPU is: the backend's target, the worker's start
 * (logging in, Slurm's queue), its handshake, and the worker lost. The
 * session's first probe connects first, so that a long wait can be shown
 * and cancelled, and the host and its GPUs named. */
#include "ws-config.h"
#include "ws-session-private.h"

#include <glib/gi18n-lib.h>

static void
set_connection (WsSession           *self,
                WsSessionConnection  connection,
                const char          *detail,
                const GError        *error)
{
  gboolean changed = connection != self->connection;
  gboolean detail_changed = g_strcmp0 (detail, self->connection_detail) != 0;

  g_clear_error (&self->connection_error);
  self->connection_error = error ? g_error_copy (error) : NULL;
  g_free (self->connection_detail);
  self->connection_detail = g_strdup (detail);
  self->connection = connection;
  if (detail_changed)
    g_object_notify_by_pspec (G_OBJECT (self), ws_session_properties[WS_SESSION_PROP_CONNECTION_DETAIL]);
  /* a new error is news even in the same state */
  if (changed || error)
    g_object_notify_by_pspec (G_OBJECT (self), ws_session_properties[WS_SESSION_PROP_CONNECTION]);
}

static void
on_worker_state (WsBackend  *backend,
                 guint       state,
                 const char *detail,
                 WsSession  *self)
{
  if (self->connection != WS_SESSION_CONNECTION_CONNECTING && self->connection != WS_SESSION_CONNECTION_QUEUED)
    return;
  if (state == WS_WORKER_STATE_QUEUED)
    set_connection (self, WS_SESSION_CONNECTION_QUEUED, detail, NULL);
  else if (state == WS_WORKER_STATE_ALLOCATED)
    set_connection (self, WS_SESSION_CONNECTION_CONNECTING, detail, NULL);
}

void
ws_session_gpu_watch (WsSession *self)
{
  self->state_handler = g_signal_connect (self->backend, "worker-state", G_CALLBACK (on_worker_state), self);
}

static void
unwatch (WsSession *self)
{
  g_clear_signal_handler (&self->state_handler, self->backend);
  g_cancellable_cancel (self->connect_cancellable);
  g_clear_object (&self->connect_cancellable);
}

void
ws_session_gpu_finalize (WsSession *self)
{
  g_clear_object (&self->connect_cancellable);
  g_free (self->connection_detail);
  g_clear_error (&self->connection_error);
  g_clear_pointer (&self->hello, ws_worker_hello_free);
}

typedef struct
{
  WsSession *self;
  GAsyncReadyCallback probe_done;
} Connecting;

static void
connected (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  Connecting *c = user_data;
  g_autoptr (WsSession) self = c->self;
  GAsyncReadyCallback probe_done = c->probe_done;
  GError *error = NULL;
  WsWorkerHello *hello = ws_backend_connect_finish (WS_BACKEND (source), result, &error);

  g_free (c);
  /* asked of a backend the session has left since */
  if (WS_BACKEND (source) != self->backend)
    {
      g_clear_error (&error);
      g_clear_pointer (&hello, ws_worker_hello_free);
      return;
    }
  g_clear_object (&self->connect_cancellable);
  if (hello == NULL)
    {
      /* the probe's answer is the reason, in a task of the backend's as
       * its own probe's would be */
      GTask *task = g_task_new (source, NULL, probe_done, g_object_ref (self));

      set_connection (self, WS_SESSION_CONNECTION_FAILED, NULL, error);
      g_task_return_error (task, error);
      g_object_unref (task);
      return;
    }
  g_clear_pointer (&self->hello, ws_worker_hello_free);
  self->hello = hello;
  g_object_notify_by_pspec (G_OBJECT (self), ws_session_properties[WS_SESSION_PROP_HELLO]);
  set_connection (self, WS_SESSION_CONNECTION_CONNECTED, hello->job, NULL);
  ws_backend_probe_async (self->backend, self->cancellable, probe_done, g_object_ref (self));
}

void
ws_session_connect_and_probe (WsSession          *self,
                              GAsyncReadyCallback probe_done)
{
  Connecting *c;

  /* a build without CUDA has nothing to start here: it says so at once */
  if (ws_gpu_target_is_local (ws_backend_get_target (self->backend)) && !ws_gpu_is_built ())
    {
      ws_backend_probe_async (self->backend, self->cancellable, probe_done, g_object_ref (self));
      return;
    }
  c = g_new0 (Connecting, 1);
  c->self = g_object_ref (self);
  c->probe_done = probe_done;
  g_clear_object (&self->connect_cancellable);
  self->connect_cancellable = g_cancellable_new ();
  set_connection (self, WS_SESSION_CONNECTION_CONNECTING, NULL, NULL);
  ws_backend_connect_async (self->backend, self->connect_cancellable, connected, c);
}

void
ws_session_note_failure (WsSession    *self,
                         const GError *error)
{
  if (error == NULL || error->domain != WS_WORKER_ERROR)
    return;
  set_connection (self, error->code == WS_WORKER_ERROR_CONNECTION_LOST ? WS_SESSION_CONNECTION_LOST
                                                                       : WS_SESSION_CONNECTION_FAILED, NULL, error);
}

/* ------------------------------------------------------------------ */
/* The target                                                         */
/* ------------------------------------------------------------------ */

static void
forget_device (WsSession *self)
{
  g_clear_pointer (&self->device, ws_device_info_free);
  g_clear_error (&self->probe_error);
  self->probing = FALSE;
  if (self->probed)
    {
      self->probed = FALSE;
      g_object_notify_by_pspec (G_OBJECT (self), ws_session_properties[WS_SESSION_PROP_PROBED]);
    }
  g_object_notify_by_pspec (G_OBJECT (self), ws_session_properties[WS_SESSION_PROP_DEVICE]);
  if (self->hello)
    {
      g_clear_pointer (&self->hello, ws_worker_hello_free);
      g_object_notify_by_pspec (G_OBJECT (self), ws_session_properties[WS_SESSION_PROP_HELLO]);
    }
  set_connection (self, WS_SESSION_CONNECTION_NONE, NULL, NULL);
}

void
ws_session_set_backend (WsSession *self,
                        WsBackend *backend)
{
  gboolean looked;

  g_return_if_fail (WS_IS_SESSION (self));
  g_return_if_fail (WS_IS_BACKEND (backend));

  if (backend == self->backend)
    return;
  looked = self->probed || self->probing;
  unwatch (self);
  g_set_object (&self->backend, backend);
  ws_session_gpu_watch (self);
  forget_device (self);
  g_object_notify_by_pspec (G_OBJECT (self), ws_session_properties[WS_SESSION_PROP_BACKEND]);
  g_object_notify_by_pspec (G_OBJECT (self), ws_session_properties[WS_SESSION_PROP_TARGET]);
  if (looked)
    ws_session_probe (self);
}

void
ws_session_set_target (WsSession         *self,
                       const WsGpuTarget *target)
{
  g_autoptr (WsBackend) backend = NULL;

  g_return_if_fail (WS_IS_SESSION (self));
  g_return_if_fail (target != NULL);

  if (ws_gpu_target_equal (target, ws_backend_get_target (self->backend)))
    return;
  backend = ws_backend_new_for_target (target);
  ws_session_set_backend (self, backend);
}

const WsGpuTarget *
ws_session_get_target (WsSession *self)
{
  g_return_val_if_fail (WS_IS_SESSION (self), NULL);
  return ws_backend_get_target (self->backend);
}

WsSessionConnection
ws_session_get_connection (WsSession *self)
{
  g_return_val_if_fail (WS_IS_SESSION (self), WS_SESSION_CONNECTION_NONE);
  return self->connection;
}

const char *
ws_session_get_connection_detail (WsSession *self)
{
  g_return_val_if_fail (WS_IS_SESSION (self), NULL);
  return self->connection_detail;
}

const GError *
ws_session_get_connection_error (WsSession *self)
{
  g_return_val_if_fail (WS_IS_SESSION (self), NULL);
  return self->connection_error;
}

const WsWorkerHello *
ws_session_get_hello (WsSession *self)
{
  g_return_val_if_fail (WS_IS_SESSION (self), NULL);
  return self->hello;
}

void
ws_session_cancel_connecting (WsSession *self)
{
  g_return_if_fail (WS_IS_SESSION (self));

  g_cancellable_cancel (self->connect_cancellable);
}

void
ws_session_reconnect (WsSession *self)
{
  g_return_if_fail (WS_IS_SESSION (self));

  if (self->connection == WS_SESSION_CONNECTION_CONNECTING || self->connection == WS_SESSION_CONNECTION_QUEUED)
    return;
  forget_device (self);
  ws_session_probe (self);
}

char *
ws_session_dup_place (WsSession *self)
{
  const WsGpuTarget *target;

  g_return_val_if_fail (WS_IS_SESSION (self), NULL);

  target = ws_session_get_target (self);
  /* a command or a Slurm node is known by its host once it answered */
  if (self->hello && (target->kind == WS_GPU_TARGET_COMMAND || target->kind == WS_GPU_TARGET_SLURM))
    return g_strdup (self->hello->host);
  return ws_gpu_target_place (target);
}

char *
ws_session_describe_gpu (WsSession *self)
{
  g_autofree char *where = NULL;
  g_autofree char *gpu = NULL;

  g_return_val_if_fail (WS_IS_SESSION (self), NULL);

  where = ws_gpu_target_describe (ws_session_get_target (self));
  switch (self->connection)
    {
    case WS_SESSION_CONNECTION_CONNECTING:
      /* Translators: where the GPU worker runs, as the program describes it:
       * “alice@gpu01 over ssh”, “Slurm partition gpu”, “the command “…”” */
      return g_strdup_printf (_("%s: connecting…"), where);
    case WS_SESSION_CONNECTION_QUEUED:
      /* Translators: where the GPU worker runs, as the program describes it
       * (“Slurm partition gpu”), then the Slurm job's number */
      return g_strdup_printf (_("%s: job %s waits in the queue"), where, self->connection_detail);
    case WS_SESSION_CONNECTION_FAILED:
    case WS_SESSION_CONNECTION_LOST:
      return g_strdup_printf ("%s: %s", where, self->connection_error->message);
    case WS_SESSION_CONNECTION_NONE:
    case WS_SESSION_CONNECTION_CONNECTED:
    default:
      break;
    }
  if (self->device)
    gpu = self->hello ? ws_worker_hello_describe_gpu (self->hello) : g_strdup (self->device->name);
  else if (self->probe_error)
    /* Translators: why there is none */
    gpu = g_strdup_printf (_("no usable GPU (%s)"), self->probe_error->message);
  else
    /* Translators: where the GPU worker runs, as the program describes it:
     * “this computer”, “alice@gpu01 over ssh”, “Slurm partition gpu” */
    return g_strdup_printf (_("%s: looking for its GPU…"), where);
  if (self->hello && !ws_gpu_target_is_local (ws_session_get_target (self)))
    return g_strdup_printf ("%s (%s): %s", where, self->hello->host, gpu);
  return g_strdup_printf ("%s: %s", where, gpu);
}

/* ------------------------------------------------------------------ */
/* Properties                                                         */
/* ------------------------------------------------------------------ */

void
ws_session_gpu_install (GParamSpec **p)
{
  GParamFlags ro = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  p[WS_SESSION_PROP_TARGET] = g_param_spec_boxed ("target", NULL, NULL, WS_TYPE_GPU_TARGET, ro);
  p[WS_SESSION_PROP_CONNECTION] = g_param_spec_uint ("connection", NULL, NULL, 0, WS_SESSION_CONNECTION_LOST, 0, ro);
  p[WS_SESSION_PROP_CONNECTION_DETAIL] = g_param_spec_string ("connection-detail", NULL, NULL, NULL, ro);
  p[WS_SESSION_PROP_HELLO] = g_param_spec_boxed ("hello", NULL, NULL, WS_TYPE_WORKER_HELLO, ro);
}

gboolean
ws_session_gpu_get_property (WsSession *self,
                             guint      prop_id,
                             GValue    *value)
{
  switch (prop_id)
    {
    case WS_SESSION_PROP_TARGET:
      g_value_set_boxed (value, ws_session_get_target (self));
      return TRUE;
    case WS_SESSION_PROP_CONNECTION:
      g_value_set_uint (value, self->connection);
      return TRUE;
    case WS_SESSION_PROP_CONNECTION_DETAIL:
      g_value_set_string (value, self->connection_detail);
      return TRUE;
    case WS_SESSION_PROP_HELLO:
      g_value_set_boxed (value, self->hello);
      return TRUE;
    default:
      return FALSE;
    }
}
