/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The device profile the model follows launches on, chosen one way for the
 * window and warpscope-cli alike:
 *   1. the profile the user chose (an id of data/devices/ or a file);
 *   2. the GPU in use's own calibration, kept in the user's cache, where
 *      every calibration through a session goes;
 *   3. the profile Warpscope ships for the GPU in use, else for the GPU the
 *      main recording was made on;
 *   4. cautious defaults, sized by what is known of the device.
 * It is chosen again whenever what it depends on changes (the choice, the
 * GPU, the main recording, a calibration), but not while the GPU or the
 * main recording is still being looked for: a profile chosen then would be
 * replaced a moment later, and the model run twice. */
#include "ws-config.h"
#include "ws-session-private.h"

#include "ws-device-json.h"

#include <errno.h>
#include <glib/gi18n-lib.h>

/* ------------------------------------------------------------------ */
/* Where calibrations are kept                                        */
/* ------------------------------------------------------------------ */

char *
ws_session_calibration_path (const char *id)
{
  g_autofree char *name = NULL;

  g_return_val_if_fail (id != NULL, NULL);

  name = g_strconcat (id, ".json", NULL);
  return g_build_filename (g_get_user_cache_dir (), "warpscope", "devices", name, NULL);
}

/* A day as the user's locale writes it: what the window shows. */
static char *
format_day (GDateTime *t)
{
  g_autoptr (GDateTime) local = g_date_time_to_local (t);

  return g_date_time_format (local, "%x");
}

/* The calibration kept for the GPU id, if one was; says when it was made. */
static WsDeviceProfile *
load_kept (const char  *id,
           char       **when)
{
  g_autofree char *path = ws_session_calibration_path (id);
  g_autoptr (GFile) file = NULL;
  g_autoptr (GFileInfo) info = NULL;
  g_autoptr (GError) error = NULL;
  WsDeviceProfile *profile;

  if (!g_file_test (path, G_FILE_TEST_IS_REGULAR))
    return NULL;
  if ((profile = ws_device_profile_load (path, &error)) == NULL)
    {
      /* a profile that no longer reads is measured again */
      g_warning ("the calibration kept in %s does not read: %s", path, error->message);
      return NULL;
    }
  file = g_file_new_for_path (path);
  info = g_file_query_info (file, G_FILE_ATTRIBUTE_TIME_MODIFIED, G_FILE_QUERY_INFO_NONE, NULL, NULL);
  if (info)
    {
      g_autoptr (GDateTime) t = g_file_info_get_modification_date_time (info);
      *when = t ? format_day (t) : NULL;
    }
  return profile;
}

/* ------------------------------------------------------------------ */
/* The policy                                                         */
/* ------------------------------------------------------------------ */

/* Defaults sized by what the driver said of the device, if anything. */
static WsDeviceProfile *
defaults_for (const WsDeviceInfo *d)
{
  g_autoptr (GArray) values = g_array_new (FALSE, FALSE, sizeof (WsCalibrated));
  g_autoptr (WsCalibration) c = NULL;

  if (d)
    {
      const struct { const char *field; double value; } queried[] = {
        { "cc_major", d->cc_major },
        { "cc_minor", d->cc_minor },
        { "sms", d->sm_count },
        { "sm_clock_mhz", d->sm_clock_mhz },
        { "memory_clock_mhz", d->mem_clock_mhz },
        { "l2_bytes", (double) d->l2_bytes },
      };

      for (guint i = 0; i < G_N_ELEMENTS (queried); i++)
        if (queried[i].value > 0)
          {
            WsCalibrated v = { 0 };

            v.field = queried[i].field;
            v.value = queried[i].value;
            g_array_append_val (values, v);
          }
    }
  c = ws_calibration_new (d && d->name ? d->name : NULL, values);
  return ws_device_profile_defaults (c);
}

static char *
slug_of (const WsDeviceInfo *d)
{
  g_autofree char *slug = d && d->name ? ws_device_slug (d->name) : NULL;

  return slug && *slug ? g_steal_pointer (&slug) : NULL;
}

static WsDeviceProfile *
pick (WsSession        *self,
      WsProfileOrigin  *origin,
      char            **source)
{
  const WsDeviceInfo *recorded = self->recording ? ws_recording_get_device (self->recording) : NULL;
  g_autofree char *live = slug_of (self->device);
  g_autofree char *their = slug_of (recorded);
  g_autofree char *when = NULL;
  WsDeviceProfile *profile;

  if (self->chosen)
    {
      *origin = WS_PROFILE_ORIGIN_CHOSEN;
      *source = g_strdup (_("the profile asked for"));
      return ws_device_profile_copy (self->chosen);
    }
  if (live && (profile = load_kept (live, &when)))
    {
      *origin = WS_PROFILE_ORIGIN_CALIBRATED;
      /* Translators: where the model's device profile comes from; a date */
      *source = when ? g_strdup_printf (_("calibrated on this GPU on %s"), when) : g_strdup (_("calibrated on this GPU"));
      return profile;
    }
  if (live && (profile = ws_device_profile_find (live, NULL)))
    {
      *origin = WS_PROFILE_ORIGIN_SHIPPED;
      *source = g_strdup (_("the profile shipped for this GPU"));
      return profile;
    }
  if (self->device == NULL && their && (profile = ws_device_profile_find (their, NULL)))
    {
      *origin = WS_PROFILE_ORIGIN_RECORDING;
      *source = g_strdup (_("the profile shipped for the recording's GPU"));
      return profile;
    }
  *origin = WS_PROFILE_ORIGIN_DEFAULT;
  *source = g_strdup (_("cautious defaults: Warpscope knows nothing of this device"));
  return defaults_for (self->device ? self->device : recorded);
}

static void
calibrate_by_itself (WsSession *self);

void
ws_session_update_profile (WsSession *self)
{
  g_autofree char *source = NULL;
  WsDeviceProfile *profile;
  WsProfileOrigin origin;

  if (self->probing || self->recording_loading)
    return;
  profile = pick (self, &origin, &source);
  /* the same profile from the same place: nothing to run again */
  if (self->profile && origin == self->profile_origin && g_strcmp0 (profile->id, self->profile->id) == 0 &&
      g_strcmp0 (source, self->profile_source) == 0)
    ws_device_profile_free (profile);
  else
    {
      g_clear_pointer (&self->profile, ws_device_profile_free);
      g_free (self->profile_source);
      self->profile = profile;
      self->profile_origin = origin;
      self->profile_source = g_steal_pointer (&source);
      g_object_notify_by_pspec (G_OBJECT (self), ws_session_properties[WS_SESSION_PROP_DEVICE_PROFILE]);
    }
  calibrate_by_itself (self);
}

/* The first caller to ask chooses, if nothing asked for it before. */
static void
ensure_profile (WsSession *self)
{
  if (self->profile == NULL)
    ws_session_update_profile (self);
}

const WsDeviceProfile *
ws_session_get_device_profile (WsSession *self)
{
  g_return_val_if_fail (WS_IS_SESSION (self), NULL);

  ensure_profile (self);
  return self->profile;
}

WsProfileOrigin
ws_session_get_profile_origin (WsSession *self)
{
  g_return_val_if_fail (WS_IS_SESSION (self), WS_PROFILE_ORIGIN_NONE);

  ensure_profile (self);
  return self->profile ? self->profile_origin : WS_PROFILE_ORIGIN_NONE;
}

const char *
ws_session_get_profile_source (WsSession *self)
{
  g_return_val_if_fail (WS_IS_SESSION (self), NULL);

  ensure_profile (self);
  return self->profile ? self->profile_source : NULL;
}

gboolean
ws_session_choose_profile (WsSession  *self,
                           const char *id_or_path,
                           GError    **error)
{
  WsDeviceProfile *chosen = NULL;

  g_return_val_if_fail (WS_IS_SESSION (self), FALSE);

  if (id_or_path && (chosen = ws_device_profile_find (id_or_path, error)) == NULL)
    return FALSE;
  g_clear_pointer (&self->chosen, ws_device_profile_free);
  self->chosen = chosen;
  ws_session_update_profile (self);
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Calibration                                                        */
/* ------------------------------------------------------------------ */

void
ws_session_calibration_free (WsSessionCalibration *c)
{
  if (c == NULL)
    return;
  g_clear_pointer (&c->calibration, ws_calibration_free);
  g_clear_pointer (&c->calibrated, ws_calibrated_profile_free);
  g_clear_pointer (&c->base, ws_device_profile_free);
  g_free (c->base_name);
  g_free (c->kept);
  g_free (c);
}

static gboolean
write_kept (const WsCalibratedProfile *cp,
            const char                *path,
            GError                   **error)
{
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *text = ws_calibrated_profile_to_data (cp);

  if (g_mkdir_with_parents (dir, 0755) != 0)
    {
      int saved = errno;

      /* Translators: a folder, then why it could not be made */
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved), _("cannot make %s: %s"), dir,
                   g_strerror (saved));
      return FALSE;
    }
  return g_file_set_contents (path, text, -1, error);
}

WsSessionCalibration *
ws_session_keep_calibration (WsSession             *self,
                             WsCalibration         *calibration,
                             const WsDeviceProfile *base,
                             const char            *base_name,
                             GError               **error)
{
  g_autoptr (WsSessionCalibration) c = g_new0 (WsSessionCalibration, 1);
  g_autoptr (GDateTime) now = g_date_time_new_now_utc ();
  g_autofree char *date = g_date_time_format (now, "%Y-%m-%d %H:%M UTC");
  g_autofree char *slug = NULL;

  g_return_val_if_fail (WS_IS_SESSION (self), NULL);
  g_return_val_if_fail (calibration != NULL, NULL);

  c->calibration = calibration;
  slug = ws_device_slug (calibration->name ? calibration->name : "");
  if (base)
    {
      c->base = ws_device_profile_copy (base);
      c->base_name = g_strdup (base_name ? base_name : base->id);
    }
  else if (*slug && (c->base = ws_device_profile_find (slug, NULL)))
    c->base_name = g_strdup_printf ("data/devices/%s.json", slug);
  if ((c->calibrated = ws_calibrated_profile_new (calibration, c->base, c->base_name, date, error)) == NULL)
    return NULL;
  c->kept = ws_session_calibration_path (c->calibrated->profile->id);
  if (!write_kept (c->calibrated, c->kept, error))
    return NULL;
  /* a GPU calibrated now may be calibrated by itself again if it fails later */
  g_clear_pointer (&self->calibration_failed, g_free);
  ws_session_update_profile (self);
  return g_steal_pointer (&c);
}

typedef struct
{
  WsDeviceProfile *base;
  char *base_name;
  char *gpu;                       /* the GPU being calibrated */
} CalibrateData;

static void
calibrate_data_free (CalibrateData *d)
{
  g_clear_pointer (&d->base, ws_device_profile_free);
  g_free (d->base_name);
  g_free (d->gpu);
  g_free (d);
}

static void
calibrating_changed (WsSession *self,
                     int        delta)
{
  gboolean before = self->calibrating > 0;

  self->calibrating += delta;
  if (before != (self->calibrating > 0))
    g_object_notify_by_pspec (G_OBJECT (self), ws_session_properties[WS_SESSION_PROP_CALIBRATING]);
}

static void
calibrated (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr (GTask) task = user_data;
  WsSession *self = g_task_get_source_object (task);
  CalibrateData *d = g_task_get_task_data (task);
  g_autoptr (GError) error = NULL;
  g_autoptr (JsonNode) reply = ws_backend_calibrate_finish (WS_BACKEND (source), result, &error);
  WsCalibration *calibration = NULL;
  WsSessionCalibration *c = NULL;

  g_assert (WS_IS_SESSION (self));

  calibrating_changed (self, -1);
  if (reply && (calibration = ws_calibration_from_json (reply, &error)))
    c = ws_session_keep_calibration (self, calibration, d->base, d->base_name, &error);
  if (c == NULL)
    {
      /* the session going, or the caller giving up, is no failure of the GPU */
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_free (self->calibration_failed);
          self->calibration_failed = g_strdup (d->gpu);
          ws_session_note_failure (self, error);
          g_signal_emit (self, ws_session_signals[WS_SESSION_SIGNAL_CALIBRATION_DONE], 0, error);
        }
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  g_signal_emit (self, ws_session_signals[WS_SESSION_SIGNAL_CALIBRATION_DONE], 0, NULL);
  g_task_return_pointer (task, c, (GDestroyNotify) ws_session_calibration_free);
}

void
ws_session_calibrate_async (WsSession             *self,
                            const WsDeviceProfile *base,
                            const char            *base_name,
                            WsBackendProgress      progress,
                            gpointer               progress_data,
                            GDestroyNotify         progress_destroy,
                            GCancellable          *cancellable,
                            GAsyncReadyCallback    callback,
                            gpointer               user_data)
{
  CalibrateData *d = g_new0 (CalibrateData, 1);
  GTask *task;

  g_return_if_fail (WS_IS_SESSION (self));

  d->base = base ? ws_device_profile_copy (base) : NULL;
  d->base_name = g_strdup (base_name);
  d->gpu = g_strdup (self->device ? self->device->name : "");
  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, ws_session_calibrate_async);
  g_task_set_task_data (task, d, (GDestroyNotify) calibrate_data_free);
  calibrating_changed (self, +1);
  ws_backend_calibrate_async (self->backend, progress, progress_data, progress_destroy,
                              cancellable ? cancellable : self->cancellable, calibrated, task);
}

WsSessionCalibration *
ws_session_calibrate_finish (WsSession    *self,
                             GAsyncResult *result,
                             GError      **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

gboolean
ws_session_get_calibrating (WsSession *self)
{
  g_return_val_if_fail (WS_IS_SESSION (self), FALSE);
  return self->calibrating > 0;
}

/* A GPU nothing is known of is measured once, then kept; not again by
 * itself after it failed (a calibration asked for tries again). */
static void
calibrate_by_itself (WsSession *self)
{
  if (!self->auto_calibrate || self->profile_origin != WS_PROFILE_ORIGIN_DEFAULT || self->device == NULL ||
      self->calibrating > 0 || g_strcmp0 (self->calibration_failed, self->device->name) == 0)
    return;
  ws_session_calibrate_async (self, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
}

void
ws_session_set_auto_calibrate (WsSession *self,
                               gboolean   auto_calibrate)
{
  g_return_if_fail (WS_IS_SESSION (self));

  self->auto_calibrate = !!auto_calibrate;
  if (self->profile)
    calibrate_by_itself (self);
}

void
ws_session_profile_finalize (WsSession *self)
{
  g_clear_pointer (&self->profile, ws_device_profile_free);
  g_clear_pointer (&self->profile_source, g_free);
  g_clear_pointer (&self->chosen, ws_device_profile_free);
  g_clear_pointer (&self->calibration_failed, g_free);
}
