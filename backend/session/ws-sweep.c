/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A sweep, as the session runs it for the window and warpscope-cli alike:
 * its points kept in the order of the parameter as they come (from the
 * GPU, through the session's one sweep path, or from a recording one at a
 * time), its progress, its cancel, and a resume after a lost connection. */
#include "ws-config.h"
#include "ws-session-private.h"

#include <glib/gi18n-lib.h>

struct _WsSweep
{
  GObject parent_instance;

  WsSession *session;              /* weak: the session holds its latest sweep */
  WsMeasureRequest *request;       /* NULL for a replay */
  char *param;
  GArray *values;                  /* NULL: the standard sweep */
  char *key;

  GPtrArray *points;               /* WsMeasurement, by the parameter's value */
  guint done;
  guint total;
  gboolean running;
  gboolean replayed;
  GError *error;
  GCancellable *cancellable;       /* the run under way */
  guint run_base;                  /* points before it */

  /* a replay */
  GPtrArray *recorded;             /* WsMeasurement, to show one by one */
  guint interval_ms;
  guint next;
  guint replay_id;
};

enum
{
  PROP_0,
  PROP_RUNNING,
  PROP_DONE,
  PROP_TOTAL,
  PROP_REPLAYED,
  N_PROPS
};

enum
{
  SIGNAL_POINT,
  SIGNAL_FINISHED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (WsSweep, ws_sweep, G_TYPE_OBJECT)

/* ------------------------------------------------------------------ */
/* Points                                                             */
/* ------------------------------------------------------------------ */

static gint64
value_of (WsSweep             *self,
          const WsMeasurement *m)
{
  gint64 v = 0;

  ws_measurement_get_param (m, self->param, &v);
  return v;
}

/* In the order of the parameter: a point after those of smaller or equal
 * values, so that points of one value stay in the order they came. */
static WsMeasurement *
insert_point (WsSweep             *self,
              const WsMeasurement *m)
{
  WsMeasurement *copy = ws_measurement_copy (m);
  gint64 v = value_of (self, m);
  guint i = self->points->len;

  while (i > 0 && value_of (self, g_ptr_array_index (self->points, i - 1)) > v)
    i--;
  g_ptr_array_insert (self->points, i, copy);
  return copy;
}

static gboolean
has_value (WsSweep *self,
           gint64   v)
{
  for (guint i = 0; i < self->points->len; i++)
    if (value_of (self, g_ptr_array_index (self->points, i)) == v)
      return TRUE;
  return FALSE;
}

static void
set_progress (WsSweep *self,
              guint    done,
              guint    total)
{
  if (done != self->done)
    {
      self->done = done;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DONE]);
    }
  if (total != self->total)
    {
      self->total = total;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TOTAL]);
    }
}

static void
add_point (WsSweep             *self,
           const WsMeasurement *m)
{
  WsMeasurement *kept = insert_point (self, m);

  set_progress (self, self->done + 1, MAX (self->total, self->done + 1));
  g_signal_emit (self, signals[SIGNAL_POINT], 0, kept);
}

static void
finish (WsSweep *self,
        GError  *error)
{
  g_clear_error (&self->error);
  self->error = error;
  g_clear_object (&self->cancellable);
  self->running = FALSE;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RUNNING]);
  g_signal_emit (self, signals[SIGNAL_FINISHED], 0);
}

/* ------------------------------------------------------------------ */
/* On the GPU                                                         */
/* ------------------------------------------------------------------ */

static void
on_point (WsBackend           *backend,
          guint                done,
          guint                total,
          const WsMeasurement *latest,
          gpointer             user_data)
{
  WsSweep *self = user_data;

  /* a point of a run cancelled since says nothing */
  if (self->cancellable == NULL || g_cancellable_is_cancelled (self->cancellable))
    return;
  if (latest)
    add_point (self, latest);
  /* the standard sweep's count is known once the session has its values */
  set_progress (self, self->done, MAX (self->total, self->run_base + total));
}

static void
measured (GObject      *source,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr (WsSweep) self = user_data;
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) points = ws_session_sweep_finish (WS_SESSION (source), result, &error);

  /* cancelled: ws_sweep_cancel finished it already */
  if (g_task_get_cancellable (G_TASK (result)) != self->cancellable)
    return;
  finish (self, g_steal_pointer (&error));
}

static void
run (WsSweep *self,
     GArray  *values)
{
  self->cancellable = g_cancellable_new ();
  self->run_base = self->points->len;
  self->running = TRUE;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RUNNING]);
  ws_session_sweep_run (self->session, self->request, self->param, values, on_point, self, self->cancellable,
                        measured, g_object_ref (self));
}

/* The values no point has yet (the standard sweep's, or those asked). */
static GArray *
values_left (WsSweep *self)
{
  g_autoptr (GArray) left = NULL;

  if (self->values == NULL)
    return NULL;
  left = g_array_new (FALSE, FALSE, sizeof (gint64));
  for (guint i = 0; i < self->values->len; i++)
    {
      gint64 v = g_array_index (self->values, gint64, i);

      if (!has_value (self, v))
        g_array_append_val (left, v);
    }
  return g_steal_pointer (&left);
}

/* ------------------------------------------------------------------ */
/* From a recording                                                   */
/* ------------------------------------------------------------------ */

static gboolean
replay_next (gpointer data)
{
  WsSweep *self = data;

  if (self->next >= self->recorded->len)
    {
      self->replay_id = 0;
      finish (self, NULL);
      return G_SOURCE_REMOVE;
    }
  add_point (self, g_ptr_array_index (self->recorded, self->next++));
  return G_SOURCE_CONTINUE;
}

/* ------------------------------------------------------------------ */
/* Public                                                             */
/* ------------------------------------------------------------------ */

void
ws_sweep_add_known (WsSweep             *self,
                    const WsMeasurement *m)
{
  g_return_if_fail (WS_IS_SWEEP (self));
  g_return_if_fail (m != NULL);
  g_return_if_fail (!self->running);

  insert_point (self, m);
  set_progress (self, self->done + 1, MAX (self->total, self->done + 1));
}

void
ws_sweep_start (WsSweep *self)
{
  g_autoptr (GArray) left = NULL;

  g_return_if_fail (WS_IS_SWEEP (self));
  g_return_if_fail (!self->running);

  g_clear_error (&self->error);
  if (self->replayed)
    {
      self->running = TRUE;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RUNNING]);
      self->replay_id = g_timeout_add (self->interval_ms, replay_next, self);
      return;
    }
  if (self->session == NULL)
    {
      finish (self, g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CLOSED, _("the session of the sweep is gone")));
      return;
    }
  left = values_left (self);
  if (left && left->len == 0)
    {
      /* every point is known already */
      self->running = TRUE;
      finish (self, NULL);
      return;
    }
  run (self, left);
}

void
ws_sweep_cancel (WsSweep *self)
{
  g_return_if_fail (WS_IS_SWEEP (self));

  if (!self->running)
    return;
  g_clear_handle_id (&self->replay_id, g_source_remove);
  if (self->cancellable)
    g_cancellable_cancel (self->cancellable);
  finish (self, g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED, _("the sweep was cancelled")));
}

gboolean
ws_sweep_resume (WsSweep *self)
{
  g_autoptr (GArray) left = NULL;

  g_return_val_if_fail (WS_IS_SWEEP (self), FALSE);

  if (self->running || !ws_sweep_get_can_resume (self) || self->session == NULL)
    return FALSE;
  /* the session kept what was measured before the failure: those values
   * are not measured again */
  left = ws_session_sweep_values_left (self->session, self->request, self->param, self->values);
  if (left == NULL || left->len == 0)
    return FALSE;
  g_clear_error (&self->error);
  run (self, left);
  return TRUE;
}

gboolean
ws_sweep_get_running (WsSweep *self)
{
  g_return_val_if_fail (WS_IS_SWEEP (self), FALSE);
  return self->running;
}

guint
ws_sweep_get_done (WsSweep *self)
{
  g_return_val_if_fail (WS_IS_SWEEP (self), 0);
  return self->done;
}

guint
ws_sweep_get_total (WsSweep *self)
{
  g_return_val_if_fail (WS_IS_SWEEP (self), 0);
  return self->total;
}

gboolean
ws_sweep_get_replayed (WsSweep *self)
{
  g_return_val_if_fail (WS_IS_SWEEP (self), FALSE);
  return self->replayed;
}

GPtrArray *
ws_sweep_get_points (WsSweep *self)
{
  g_return_val_if_fail (WS_IS_SWEEP (self), NULL);
  return self->points;
}

const char *
ws_sweep_get_param (WsSweep *self)
{
  g_return_val_if_fail (WS_IS_SWEEP (self), NULL);
  return self->param;
}

const char *
ws_sweep_get_key (WsSweep *self)
{
  g_return_val_if_fail (WS_IS_SWEEP (self), NULL);
  return self->key;
}

const WsMeasureRequest *
ws_sweep_get_request (WsSweep *self)
{
  g_return_val_if_fail (WS_IS_SWEEP (self), NULL);
  return self->request;
}

const GError *
ws_sweep_get_error (WsSweep *self)
{
  g_return_val_if_fail (WS_IS_SWEEP (self), NULL);
  return self->error;
}

gboolean
ws_sweep_get_can_resume (WsSweep *self)
{
  g_return_val_if_fail (WS_IS_SWEEP (self), FALSE);

  /* only a machine out of reach stopped it: anything else would again */
  return !self->running && !self->replayed && self->error && self->error->domain == WS_WORKER_ERROR;
}

/* ------------------------------------------------------------------ */
/* The session's                                                      */
/* ------------------------------------------------------------------ */

static void
become_sessions (WsSweep   *self,
                 WsSession *session)
{
  self->session = session;
  g_object_add_weak_pointer (G_OBJECT (session), (gpointer *) &self->session);
  if (session->sweep && session->sweep != self)
    ws_sweep_cancel (session->sweep);
  g_set_object (&session->sweep, self);
  g_object_notify_by_pspec (G_OBJECT (session), ws_session_properties[WS_SESSION_PROP_SWEEP]);
}

WsSweep *
ws_session_new_sweep (WsSession              *session,
                      const WsMeasureRequest *request,
                      const char             *param,
                      GArray                 *values)
{
  WsSweep *self;

  g_return_val_if_fail (WS_IS_SESSION (session), NULL);
  g_return_val_if_fail (request != NULL, NULL);
  g_return_val_if_fail (param != NULL, NULL);

  self = g_object_new (WS_TYPE_SWEEP, NULL);
  self->request = ws_measure_request_copy (request);
  self->param = g_strdup (param);
  self->values = values ? g_array_ref (values) : NULL;
  self->total = values ? values->len : 0;
  self->key = ws_session_sweep_key (request, param);
  become_sessions (self, session);
  return self;
}

WsSweep *
ws_session_new_replay (WsSession  *session,
                       GPtrArray  *recorded,
                       const char *param,
                       guint       interval_ms)
{
  WsSweep *self;

  g_return_val_if_fail (WS_IS_SESSION (session), NULL);
  g_return_val_if_fail (recorded != NULL, NULL);
  g_return_val_if_fail (param != NULL, NULL);

  self = g_object_new (WS_TYPE_SWEEP, NULL);
  self->param = g_strdup (param);
  self->replayed = TRUE;
  self->interval_ms = interval_ms;
  self->recorded = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_measurement_free);
  for (guint i = 0; i < recorded->len; i++)
    g_ptr_array_add (self->recorded, ws_measurement_copy (g_ptr_array_index (recorded, i)));
  /* shown in the order of the parameter, as a sweep measures them */
  for (guint i = 1; i < self->recorded->len; i++)
    for (guint j = i; j > 0 && value_of (self, g_ptr_array_index (self->recorded, j - 1)) >
                                 value_of (self, g_ptr_array_index (self->recorded, j)); j--)
      {
        gpointer t = self->recorded->pdata[j];

        self->recorded->pdata[j] = self->recorded->pdata[j - 1];
        self->recorded->pdata[j - 1] = t;
      }
  self->total = self->recorded->len;
  self->key = g_strdup (recorded->len ? ((WsMeasurement *) g_ptr_array_index (recorded, 0))->id : "");
  become_sessions (self, session);
  return self;
}

WsSweep *
ws_session_get_sweep (WsSession *session)
{
  g_return_val_if_fail (WS_IS_SESSION (session), NULL);
  return session->sweep;
}

/* ------------------------------------------------------------------ */
/* GObject                                                            */
/* ------------------------------------------------------------------ */

static void
ws_sweep_dispose (GObject *object)
{
  WsSweep *self = WS_SWEEP (object);

  g_clear_handle_id (&self->replay_id, g_source_remove);
  if (self->cancellable)
    g_cancellable_cancel (self->cancellable);
  if (self->session)
    g_object_remove_weak_pointer (G_OBJECT (self->session), (gpointer *) &self->session);
  self->session = NULL;
  G_OBJECT_CLASS (ws_sweep_parent_class)->dispose (object);
}

static void
ws_sweep_finalize (GObject *object)
{
  WsSweep *self = WS_SWEEP (object);

  g_clear_pointer (&self->request, ws_measure_request_free);
  g_free (self->param);
  g_clear_pointer (&self->values, g_array_unref);
  g_free (self->key);
  g_clear_pointer (&self->points, g_ptr_array_unref);
  g_clear_pointer (&self->recorded, g_ptr_array_unref);
  g_clear_error (&self->error);
  g_clear_object (&self->cancellable);
  G_OBJECT_CLASS (ws_sweep_parent_class)->finalize (object);
}

static void
ws_sweep_get_property (GObject    *object,
                       guint       prop_id,
                       GValue     *value,
                       GParamSpec *pspec)
{
  WsSweep *self = WS_SWEEP (object);

  switch (prop_id)
    {
    case PROP_RUNNING:
      g_value_set_boolean (value, self->running);
      break;
    case PROP_DONE:
      g_value_set_uint (value, self->done);
      break;
    case PROP_TOTAL:
      g_value_set_uint (value, self->total);
      break;
    case PROP_REPLAYED:
      g_value_set_boolean (value, self->replayed);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ws_sweep_class_init (WsSweepClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags ro = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->dispose = ws_sweep_dispose;
  object_class->finalize = ws_sweep_finalize;
  object_class->get_property = ws_sweep_get_property;

  properties[PROP_RUNNING] = g_param_spec_boolean ("running", NULL, NULL, FALSE, ro);
  properties[PROP_DONE] = g_param_spec_uint ("done", NULL, NULL, 0, G_MAXUINT, 0, ro);
  properties[PROP_TOTAL] = g_param_spec_uint ("total", NULL, NULL, 0, G_MAXUINT, 0, ro);
  properties[PROP_REPLAYED] = g_param_spec_boolean ("replayed", NULL, NULL, FALSE, ro);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* a WsMeasurement, the sweep's */
  signals[SIGNAL_POINT] = g_signal_new ("point", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                        G_TYPE_NONE, 1, G_TYPE_POINTER);
  signals[SIGNAL_FINISHED] = g_signal_new ("finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                           NULL, G_TYPE_NONE, 0);
}

static void
ws_sweep_init (WsSweep *self)
{
  self->points = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_measurement_free);
}
