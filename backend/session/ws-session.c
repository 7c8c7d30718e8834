/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The session: the GPU it found, how it measures, and its recordings. Its
 * measurements are in ws-session-measure.c, its comparison in
 * ws-session-compare.c. */
#include "ws-config.h"
#include "ws-session-private.h"

#include <glib/gi18n-lib.h>

#define MAX_COMPARED 3

GParamSpec *ws_session_properties[WS_SESSION_N_PROPS];
guint ws_session_signals[WS_SESSION_N_SIGNALS];

G_DEFINE_FINAL_TYPE (WsSession, ws_session, G_TYPE_OBJECT)

void
ws_live_entry_free (WsLiveEntry *entry)
{
  if (entry == NULL)
    return;
  g_free (entry->key);
  g_free (entry->preset_id);
  ws_measurement_free (entry->m);
  g_free (entry);
}

/* ------------------------------------------------------------------ */
/* The GPU                                                            */
/* ------------------------------------------------------------------ */

static void
probe_done (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr (WsSession) self = user_data;
  g_autoptr (GError) error = NULL;
  WsDeviceInfo *device = ws_backend_probe_finish (WS_BACKEND (source), result, &error);

  g_assert (WS_IS_SESSION (self));

  /* asked of a backend the session has left since */
  if (WS_BACKEND (source) != self->backend)
    {
      g_clear_pointer (&device, ws_device_info_free);
      return;
    }
  self->probing = FALSE;
  ws_session_note_failure (self, error);
  /* the session going cancels; a wait the user cancelled is an answer */
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) && g_cancellable_is_cancelled (self->cancellable))
    return;
  self->device = device;
  self->probe_error = g_steal_pointer (&error);
  self->probed = TRUE;
  /* the profile first: whoever hears of the GPU finds the model's device ready */
  ws_session_update_profile (self);
  g_object_notify_by_pspec (G_OBJECT (self), ws_session_properties[WS_SESSION_PROP_DEVICE]);
  g_object_notify_by_pspec (G_OBJECT (self), ws_session_properties[WS_SESSION_PROP_PROBED]);
  ws_session_compare_measure (self);
}

void
ws_session_probe (WsSession *self)
{
  g_return_if_fail (WS_IS_SESSION (self));

  if (self->probed || self->probing)
    return;
  self->probing = TRUE;
  ws_session_connect_and_probe (self, probe_done);
}

gboolean
ws_session_get_probed (WsSession *self)
{
  g_return_val_if_fail (WS_IS_SESSION (self), FALSE);
  return self->probed;
}

const WsDeviceInfo *
ws_session_get_device (WsSession *self)
{
  g_return_val_if_fail (WS_IS_SESSION (self), NULL);
  return self->device;
}

const GError *
ws_session_get_probe_error (WsSession *self)
{
  g_return_val_if_fail (WS_IS_SESSION (self), NULL);
  return self->probe_error;
}

/* ------------------------------------------------------------------ */
/* How it measures                                                    */
/* ------------------------------------------------------------------ */

guint
ws_session_get_samples (WsSession *self)
{
  g_return_val_if_fail (WS_IS_SESSION (self), 10);
  return self->samples;
}

void
ws_session_set_samples (WsSession *self,
                        guint      samples)
{
  g_return_if_fail (WS_IS_SESSION (self));

  samples = MAX (samples, 10);
  if (samples == self->samples)
    return;
  self->samples = samples;
  g_object_notify_by_pspec (G_OBJECT (self), ws_session_properties[WS_SESSION_PROP_SAMPLES]);
}

gboolean
ws_session_get_cold (WsSession *self)
{
  g_return_val_if_fail (WS_IS_SESSION (self), TRUE);
  return self->cold;
}

void
ws_session_set_cold (WsSession *self,
                     gboolean   cold)
{
  g_return_if_fail (WS_IS_SESSION (self));

  cold = !!cold;
  if (cold == self->cold)
    return;
  self->cold = cold;
  g_object_notify_by_pspec (G_OBJECT (self), ws_session_properties[WS_SESSION_PROP_COLD]);
}

/* ------------------------------------------------------------------ */
/* Recordings                                                         */
/* ------------------------------------------------------------------ */

static void
recordings_changed (WsSession *self)
{
  g_signal_emit (self, ws_session_signals[WS_SESSION_SIGNAL_RECORDINGS_CHANGED], 0);
}

/* A thread: path NULL is the bundled recording. */
static void
read_recording_thread (GTask        *task,
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
  WsSession *self = WS_SESSION (source);
  GError *error = NULL;
  WsRecording *recording = g_task_propagate_pointer (G_TASK (result), &error);

  g_assert (WS_IS_SESSION (self));

  /* cancelled, or overtaken: a file opened in place of the bundled
   * recording while it was still being read */
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ||
      GPOINTER_TO_UINT (user_data) != self->recording_serial)
    {
      g_clear_error (&error);
      g_clear_object (&recording);
      return;
    }
  g_clear_object (&self->recording);
  g_clear_error (&self->recording_error);
  self->recording = recording;
  self->recording_error = error;
  self->recording_loaded = TRUE;
  self->recording_loading = FALSE;
  ws_session_update_profile (self);
  g_object_notify_by_pspec (G_OBJECT (self), ws_session_properties[WS_SESSION_PROP_RECORDING]);
  g_object_notify_by_pspec (G_OBJECT (self), ws_session_properties[WS_SESSION_PROP_RECORDING_LOADED]);
  recordings_changed (self);
}

void
ws_session_load_recording (WsSession  *self,
                           const char *path)
{
  g_autoptr (GTask) task = NULL;

  g_return_if_fail (WS_IS_SESSION (self));

  g_free (self->recording_path);
  self->recording_path = g_strdup (path);
  if (self->recording_loaded)
    {
      self->recording_loaded = FALSE;
      g_object_notify_by_pspec (G_OBJECT (self), ws_session_properties[WS_SESSION_PROP_RECORDING_LOADED]);
    }
  self->recording_loading = TRUE;
  task = g_task_new (self, self->cancellable, load_recording_done, GUINT_TO_POINTER (++self->recording_serial));
  g_task_set_source_tag (task, ws_session_load_recording);
  g_task_set_task_data (task, g_strdup (path), g_free);
  g_task_run_in_thread (task, read_recording_thread);
}

void
ws_session_set_recording (WsSession   *self,
                          WsRecording *recording,
                          const char  *path)
{
  g_return_if_fail (WS_IS_SESSION (self));
  g_return_if_fail (recording == NULL || WS_IS_RECORDING (recording));

  self->recording_serial++;
  g_set_object (&self->recording, recording);
  g_clear_error (&self->recording_error);
  g_free (self->recording_path);
  self->recording_path = g_strdup (path);
  self->recording_loaded = TRUE;
  self->recording_loading = FALSE;
  ws_session_update_profile (self);
  g_object_notify_by_pspec (G_OBJECT (self), ws_session_properties[WS_SESSION_PROP_RECORDING]);
  g_object_notify_by_pspec (G_OBJECT (self), ws_session_properties[WS_SESSION_PROP_RECORDING_LOADED]);
  recordings_changed (self);
}

gboolean
ws_session_get_recording_loaded (WsSession *self)
{
  g_return_val_if_fail (WS_IS_SESSION (self), FALSE);
  return self->recording_loaded;
}

WsRecording *
ws_session_get_recording (WsSession *self)
{
  g_return_val_if_fail (WS_IS_SESSION (self), NULL);
  return self->recording;
}

const char *
ws_session_get_recording_path (WsSession *self)
{
  g_return_val_if_fail (WS_IS_SESSION (self), NULL);
  return self->recording_path;
}

const GError *
ws_session_get_recording_error (WsSession *self)
{
  g_return_val_if_fail (WS_IS_SESSION (self), NULL);
  return self->recording_error;
}

typedef struct
{
  char *path;
  gboolean beside;
} OpenData;

static void
open_data_free (OpenData *d)
{
  g_free (d->path);
  g_free (d);
}

static void
keep_opened (WsSession   *self,
             WsRecording *recording,
             OpenData    *d)
{
  if (!d->beside)
    {
      ws_session_set_recording (self, recording, d->path);
      return;
    }
  if (self->compared->len >= MAX_COMPARED)
    g_ptr_array_remove_index (self->compared, 0);
  g_ptr_array_add (self->compared, g_object_ref (recording));
  recordings_changed (self);
}

static void
open_done (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  WsSession *self = WS_SESSION (source);
  g_autoptr (GTask) task = user_data;
  GError *error = NULL;
  WsRecording *recording = g_task_propagate_pointer (G_TASK (result), &error);

  g_assert (WS_IS_SESSION (self));

  if (recording == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  keep_opened (self, recording, g_task_get_task_data (task));
  g_task_return_pointer (task, recording, g_object_unref);
}

void
ws_session_open_recording_async (WsSession          *self,
                                 const char         *path,
                                 gboolean            beside,
                                 GCancellable       *cancellable,
                                 GAsyncReadyCallback callback,
                                 gpointer            user_data)
{
  g_autoptr (GTask) read = NULL;
  GTask *task;
  OpenData *d;

  g_return_if_fail (WS_IS_SESSION (self));
  g_return_if_fail (path != NULL);

  d = g_new0 (OpenData, 1);
  d->path = g_strdup (path);
  d->beside = beside;
  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, ws_session_open_recording_async);
  g_task_set_task_data (task, d, (GDestroyNotify) open_data_free);
  /* the file is read apart; the session keeps it, once read, in open_done */
  read = g_task_new (self, cancellable, open_done, task);
  g_task_set_task_data (read, g_strdup (path), g_free);
  g_task_run_in_thread (read, read_recording_thread);
}

WsRecording *
ws_session_open_recording_finish (WsSession    *self,
                                  GAsyncResult *result,
                                  GError      **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

GPtrArray *
ws_session_get_compared (WsSession *self)
{
  g_return_val_if_fail (WS_IS_SESSION (self), NULL);
  return self->compared;
}

void
ws_session_forget_compared (WsSession *self)
{
  g_return_if_fail (WS_IS_SESSION (self));

  if (self->compared->len == 0)
    return;
  g_ptr_array_set_size (self->compared, 0);
  recordings_changed (self);
}

GPtrArray *
ws_session_dup_recordings (WsSession *self)
{
  GPtrArray *all = g_ptr_array_new ();

  g_return_val_if_fail (WS_IS_SESSION (self), all);

  if (self->recording)
    g_ptr_array_add (all, self->recording);
  for (guint i = 0; i < self->compared->len; i++)
    g_ptr_array_add (all, g_ptr_array_index (self->compared, i));
  return all;
}

WsRecording *
ws_session_to_recording (WsSession *self,
                         GError   **error)
{
  WsRecording *recording;

  g_return_val_if_fail (WS_IS_SESSION (self), NULL);

  if (self->device && self->live->len > 0)
    {
      recording = ws_recording_new (self->device);
      for (guint i = 0; i < self->live->len; i++)
        ws_recording_add (recording, ((WsLiveEntry *) g_ptr_array_index (self->live, i))->m);
      return recording;
    }
  if (self->recording)
    return g_object_ref (self->recording);
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("nothing was measured, and no recording is open"));
  return NULL;
}

/* ------------------------------------------------------------------ */
/* GObject                                                            */
/* ------------------------------------------------------------------ */

static void
ws_session_constructed (GObject *object)
{
  WsSession *self = WS_SESSION (object);

  G_OBJECT_CLASS (ws_session_parent_class)->constructed (object);
  if (self->backend == NULL)
    self->backend = ws_backend_new ();
  ws_session_gpu_watch (self);
}

static void
ws_session_dispose (GObject *object)
{
  WsSession *self = WS_SESSION (object);

  g_cancellable_cancel (self->cancellable);
  g_cancellable_cancel (self->connect_cancellable);
  g_clear_signal_handler (&self->state_handler, self->backend);
  if (self->sweep)
    ws_sweep_cancel (self->sweep);
  g_clear_object (&self->sweep);
  ws_session_compare_dispose (self);
  G_OBJECT_CLASS (ws_session_parent_class)->dispose (object);
}

static void
ws_session_finalize (GObject *object)
{
  WsSession *self = WS_SESSION (object);

  g_clear_object (&self->backend);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->device, ws_device_info_free);
  g_clear_error (&self->probe_error);
  ws_session_profile_finalize (self);
  g_free (self->recording_path);
  g_clear_object (&self->recording);
  g_clear_error (&self->recording_error);
  g_clear_pointer (&self->compared, g_ptr_array_unref);
  g_clear_pointer (&self->live, g_ptr_array_unref);
  ws_session_gpu_finalize (self);
  ws_session_model_finalize (self);
  G_OBJECT_CLASS (ws_session_parent_class)->finalize (object);
}

static void
ws_session_get_property (GObject    *object,
                         guint       prop_id,
                         GValue     *value,
                         GParamSpec *pspec)
{
  WsSession *self = WS_SESSION (object);

  switch (prop_id)
    {
    case WS_SESSION_PROP_BACKEND:
      g_value_set_object (value, self->backend);
      break;
    case WS_SESSION_PROP_PROBED:
      g_value_set_boolean (value, self->probed);
      break;
    case WS_SESSION_PROP_DEVICE:
      g_value_set_boxed (value, self->device);
      break;
    case WS_SESSION_PROP_DEVICE_PROFILE:
      g_value_set_pointer (value, (gpointer) ws_session_get_device_profile (self));
      break;
    case WS_SESSION_PROP_CALIBRATING:
      g_value_set_boolean (value, self->calibrating > 0);
      break;
    case WS_SESSION_PROP_SWEEP:
      g_value_set_object (value, self->sweep);
      break;
    case WS_SESSION_PROP_SAMPLES:
      g_value_set_uint (value, self->samples);
      break;
    case WS_SESSION_PROP_COLD:
      g_value_set_boolean (value, self->cold);
      break;
    case WS_SESSION_PROP_RECORDING:
      g_value_set_object (value, self->recording);
      break;
    case WS_SESSION_PROP_RECORDING_LOADED:
      g_value_set_boolean (value, self->recording_loaded);
      break;
    case WS_SESSION_PROP_SWEEPING:
      g_value_set_boolean (value, self->sweeps > 0);
      break;
    case WS_SESSION_PROP_MEASURE_COMPARISON:
      g_value_set_boolean (value, self->measure_comparison);
      break;
    default:
      if (!ws_session_gpu_get_property (self, prop_id, value))
        G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ws_session_set_property (GObject      *object,
                         guint         prop_id,
                         const GValue *value,
                         GParamSpec   *pspec)
{
  WsSession *self = WS_SESSION (object);

  switch (prop_id)
    {
    case WS_SESSION_PROP_BACKEND:
      self->backend = g_value_dup_object (value);
      break;
    case WS_SESSION_PROP_SAMPLES:
      ws_session_set_samples (self, g_value_get_uint (value));
      break;
    case WS_SESSION_PROP_COLD:
      ws_session_set_cold (self, g_value_get_boolean (value));
      break;
    case WS_SESSION_PROP_MEASURE_COMPARISON:
      ws_session_set_measure_comparison (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
install_properties (GObjectClass *object_class)
{
  GParamFlags ro = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;
  GParamFlags rw = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;
  GParamSpec **p = ws_session_properties;

  p[WS_SESSION_PROP_BACKEND] = g_param_spec_object ("backend", NULL, NULL, WS_TYPE_BACKEND,
                                                    G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                                                      G_PARAM_STATIC_STRINGS);
  p[WS_SESSION_PROP_PROBED] = g_param_spec_boolean ("probed", NULL, NULL, FALSE, ro);
  p[WS_SESSION_PROP_DEVICE] = g_param_spec_boxed ("device", NULL, NULL, WS_TYPE_DEVICE_INFO, ro);
  /* a WsDeviceProfile, the session's: ws_session_get_device_profile */
  p[WS_SESSION_PROP_DEVICE_PROFILE] = g_param_spec_pointer ("device-profile", NULL, NULL, ro);
  p[WS_SESSION_PROP_CALIBRATING] = g_param_spec_boolean ("calibrating", NULL, NULL, FALSE, ro);
  p[WS_SESSION_PROP_SWEEP] = g_param_spec_object ("sweep", NULL, NULL, WS_TYPE_SWEEP, ro);
  p[WS_SESSION_PROP_SAMPLES] = g_param_spec_uint ("samples", NULL, NULL, 10, 10000, 10, rw);
  p[WS_SESSION_PROP_COLD] = g_param_spec_boolean ("cold", NULL, NULL, TRUE, rw);
  p[WS_SESSION_PROP_RECORDING] = g_param_spec_object ("recording", NULL, NULL, WS_TYPE_RECORDING, ro);
  p[WS_SESSION_PROP_RECORDING_LOADED] = g_param_spec_boolean ("recording-loaded", NULL, NULL, FALSE, ro);
  p[WS_SESSION_PROP_SWEEPING] = g_param_spec_boolean ("sweeping", NULL, NULL, FALSE, ro);
  p[WS_SESSION_PROP_MEASURE_COMPARISON] = g_param_spec_boolean ("measure-comparison", NULL, NULL, FALSE, rw);
  ws_session_gpu_install (p);
  g_object_class_install_properties (object_class, WS_SESSION_N_PROPS, p);
}

static void
install_signals (GObjectClass *object_class)
{
  GType type = G_TYPE_FROM_CLASS (object_class);

  /* a live measurement (WsLiveEntry *), the session's */
  ws_session_signals[WS_SESSION_SIGNAL_MEASURED] =
    g_signal_new ("measured", type, G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_POINTER);
  /* samples done, of total */
  ws_session_signals[WS_SESSION_SIGNAL_MEASURE_PROGRESS] =
    g_signal_new ("measure-progress", type, G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_UINT,
                  G_TYPE_UINT);
  /* points done, of total, and the point just measured (a WsMeasurement, or NULL) */
  ws_session_signals[WS_SESSION_SIGNAL_SWEEP_PROGRESS] =
    g_signal_new ("sweep-progress", type, G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 3, G_TYPE_UINT,
                  G_TYPE_UINT, G_TYPE_POINTER);
  /* a measurement the session started itself (the comparison's) failed: a GError */
  ws_session_signals[WS_SESSION_SIGNAL_MEASURE_FAILED] =
    g_signal_new ("measure-failed", type, G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_ERROR);
  ws_session_signals[WS_SESSION_SIGNAL_RECORDINGS_CHANGED] =
    g_signal_new ("recordings-changed", type, G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  ws_session_signals[WS_SESSION_SIGNAL_COMPARISON_CHANGED] =
    g_signal_new ("comparison-changed", type, G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  /* a calibration ended: NULL, kept and in use; or the GError that stopped it */
  ws_session_signals[WS_SESSION_SIGNAL_CALIBRATION_DONE] =
    g_signal_new ("calibration-done", type, G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_ERROR);
}

static void
ws_session_class_init (WsSessionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = ws_session_constructed;
  object_class->dispose = ws_session_dispose;
  object_class->finalize = ws_session_finalize;
  object_class->get_property = ws_session_get_property;
  object_class->set_property = ws_session_set_property;
  install_properties (object_class);
  install_signals (object_class);
}

static void
ws_session_init (WsSession *self)
{
  self->cancellable = g_cancellable_new ();
  self->samples = 10;
  self->cold = TRUE;
  self->compared = g_ptr_array_new_with_free_func (g_object_unref);
  self->live = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_live_entry_free);
}

WsSession *
ws_session_new (WsBackend *backend)
{
  g_return_val_if_fail (backend == NULL || WS_IS_BACKEND (backend), NULL);

  return g_object_new (WS_TYPE_SESSION, "backend", backend, NULL);
}

WsBackend *
ws_session_get_backend (WsSession *self)
{
  g_return_val_if_fail (WS_IS_SESSION (self), NULL);
  return self->backend;
}
