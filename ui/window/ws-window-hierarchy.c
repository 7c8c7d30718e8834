/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Below L1, for the window: which device the model follows launches on
 * (the GPU in use, calibrated once and kept in the user's cache; else the
 * profile Warpscope ships for it; else the recording's GPU), the hierarchy
 * of the pattern's launch on it (on a thread of its own, after the launch's
 * L1 figures), and the view and the numbers that show it. */
#include <glib/gi18n.h>
#include "ws-window-private.h"

#include <errno.h>
#include <math.h>

#include "ws-device-calibrate.h"
#include "ws-device-json.h"
#include "ws-plot-hierarchy.h"

/* ------------------------------------------------------------------ */
/* Which profile                                                      */
/* ------------------------------------------------------------------ */

char *
ws_window_profile_cache_path (const char *id)
{
  g_autofree char *name = g_strconcat (id, ".json", NULL);

  return g_build_filename (g_get_user_cache_dir (), "warpscope", "devices", name, NULL);
}

/* The calibrated profile of this GPU, if one was kept; says when it was made. */
static WsDeviceProfile *
load_cached (const char  *id,
             char       **when)
{
  g_autofree char *path = ws_window_profile_cache_path (id);
  g_autoptr (GFile) file = g_file_new_for_path (path);
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
  info = g_file_query_info (file, G_FILE_ATTRIBUTE_TIME_MODIFIED, G_FILE_QUERY_INFO_NONE, NULL, NULL);
  if (info)
    {
      g_autoptr (GDateTime) t = g_file_info_get_modification_date_time (info);
      *when = t ? ws_window_format_day (t) : NULL;
    }
  return profile;
}

static void
set_profile (WsWindow        *self,
             WsDeviceProfile *profile,
             char            *source)
{
  WsDeviceProfile *old = ws_session_get_device_profile (self->session);
  gboolean same = profile && old && g_strcmp0 (profile->id, old->id) == 0 &&
                  g_strcmp0 (source, self->profile_source) == 0;

  g_free (self->profile_source);
  self->profile_source = source;
  if (same)
    {
      ws_device_profile_free (profile);
      return;
    }
  ws_session_set_device_profile (self->session, profile, (GDestroyNotify) ws_device_profile_free);
  /* a prediction made on another device is no prediction */
  g_clear_pointer (&self->prediction_key, g_free);
  ws_window_analyze_hierarchy (self);
  ws_window_rebuild_chart (self);
  ws_window_rebuild_compare (self);
}

/* The GPU in use: its calibration, kept; else the profile shipped for it;
 * else it is calibrated now. */
static gboolean
profile_of_live (WsWindow           *self,
                 const WsDeviceInfo *device)
{
  g_autofree char *id = ws_device_slug (device->name);
  g_autofree char *when = NULL;
  WsDeviceProfile *profile;

  if ((profile = load_cached (id, &when)))
    {
      /* Translators: where the model's device profile comes from; a date */
      set_profile (self, profile, when ? g_strdup_printf (_("calibrated on this GPU on %s"), when)
                                       : g_strdup (_("calibrated on this GPU")));
      return TRUE;
    }
  if ((profile = ws_device_profile_find (id, NULL)))
    {
      set_profile (self, profile, g_strdup (_("the profile shipped for this GPU")));
      return TRUE;
    }
  /* none ships for it: measured once, then kept (not again by itself
   * after it failed: Recalibrate tries again) */
  if (g_strcmp0 (self->calibration_failed, device->name) == 0)
    return FALSE;
  return ws_window_calibrate (self, FALSE);
}

/* The main recording's GPU, from the profiles Warpscope ships. */
static gboolean
profile_of_recording (WsWindow *self)
{
  WsRecording *recording = ws_session_get_recording (self->session);
  const WsDeviceInfo *d = recording ? ws_recording_get_device (recording) : NULL;
  g_autofree char *id = d && d->name ? ws_device_slug (d->name) : NULL;
  WsDeviceProfile *profile;

  if (id == NULL || (profile = ws_device_profile_find (id, NULL)) == NULL)
    return FALSE;
  set_profile (self, profile, g_strdup (_("the profile shipped for the recording's GPU")));
  return TRUE;
}

static char *
no_profile_message (WsWindow *self)
{
  const WsDeviceInfo *live = ws_session_get_device (self->session);
  WsRecording *recording = ws_session_get_recording (self->session);
  const WsDeviceInfo *d = recording ? ws_recording_get_device (recording) : NULL;
  g_autofree char *name = NULL;

  if (live)
    name = ws_text_for_message (live->name);
  else if (d && d->name)
    name = ws_text_for_message (d->name);
  if (live && self->calibrating)
    return g_strdup_printf (_("Calibrating the %s for the model: its caches, DRAM and rates, measured with small "
                              "kernels of Warpscope's own…"), name);
  if (live)
    return g_strdup_printf (_("Warpscope knows nothing of the %s below L1 yet, and could not calibrate it: "
                              "Recalibrate in the numbers pane measures it."), name);
  if (d && d->name)
    return g_strdup_printf (_("There is no device profile for the recording's GPU, %s: the model cannot follow "
                              "the launch below L1 on it."), name);
  return g_strdup (_("No GPU and no recording: the model has no device to follow the launch below L1 on."));
}

void
ws_window_update_profile (WsWindow *self)
{
  const WsDeviceInfo *live = ws_session_get_device (self->session);

  if (!ws_session_get_probed (self->session))
    return;
  if (live && profile_of_live (self, live))
    return;
  if (self->calibrating)
    return;
  if (profile_of_recording (self))
    return;
  if (ws_session_get_device_profile (self->session) == NULL && self->profile_source == NULL)
    return;
  g_clear_pointer (&self->profile_source, g_free);
  ws_session_set_device_profile (self->session, NULL, NULL);
  ws_window_analyze_hierarchy (self);
  ws_window_rebuild_chart (self);
  ws_window_rebuild_compare (self);
}

/* ------------------------------------------------------------------ */
/* Calibration                                                        */
/* ------------------------------------------------------------------ */

/* The calibration as a profile over the one shipped for the GPU (or the
 * defaults), kept in the user's cache, where profile_of_live finds it. */
static WsDeviceProfile *
keep_calibration (JsonNode  *reply,
                  char     **date_out,
                  GError   **error)
{
  g_autoptr (WsCalibration) calibration = ws_calibration_from_json (reply, error);
  g_autoptr (WsDeviceProfile) shipped = NULL;
  g_autoptr (WsCalibratedProfile) cp = NULL;
  g_autoptr (GDateTime) now = g_date_time_new_now_utc ();
  g_autofree char *date = g_date_time_format (now, "%Y-%m-%d %H:%M UTC");
  g_autofree char *id = NULL;
  g_autofree char *path = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *text = NULL;

  if (calibration == NULL)
    return NULL;
  id = ws_device_slug (calibration->name ? calibration->name : "");
  shipped = *id ? ws_device_profile_find (id, NULL) : NULL;
  if ((cp = ws_calibrated_profile_new (calibration, shipped, shipped ? "the profile Warpscope ships for it" : NULL,
                                       date, error)) == NULL)
    return NULL;
  path = ws_window_profile_cache_path (cp->profile->id);
  dir = g_path_get_dirname (path);
  text = ws_calibrated_profile_to_data (cp);
  if (g_mkdir_with_parents (dir, 0755) != 0)
    {
      /* Translators: a folder, then why it could not be made */
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno), _("cannot make %s: %s"), dir, g_strerror (errno));
      return NULL;
    }
  if (!g_file_set_contents (path, text, -1, error))
    return NULL;
  *date_out = ws_window_format_day (now);
  return ws_device_profile_copy (cp->profile);
}

static void
calibrated (GObject      *source,
            GAsyncResult *result,
            gpointer      data)
{
  g_autoptr (WsWindow) self = data;
  g_autoptr (GError) error = NULL;
  g_autoptr (JsonNode) reply = ws_backend_calibrate_finish (WS_BACKEND (source), result, &error);
  g_autofree char *date = NULL;
  WsDeviceProfile *profile = NULL;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;                     /* the window is going */
  self->calibrating = FALSE;
  if (reply)
    profile = keep_calibration (reply, &date, &error);
  if (profile)
    {
      set_profile (self, profile, g_strdup_printf (_("calibrated on this GPU on %s"), date));
      ws_window_toast (self, _("The GPU is calibrated: the model follows launches below L1 with what it measured"));
    }
  else
    {
      g_autofree char *text = g_strdup_printf (_("Could not calibrate the GPU: %s"), error->message);
      const WsDeviceInfo *live = ws_session_get_device (self->session);

      g_free (self->calibration_failed);
      self->calibration_failed = g_strdup (live ? live->name : "");
      ws_window_toast (self, text);
      /* what stood in before, if anything */
      ws_window_update_profile (self);
    }
  ws_window_show_hierarchy (self);
  ws_window_update_actions (self);
}

/* Measures the GPU in use for the model with the worker's microkernels,
 * through the session's backend, and keeps what it finds in the cache.
 * Without a GPU, FALSE. */
gboolean
ws_window_calibrate (WsWindow *self,
                     gboolean  again)
{
  if (!ws_window_can_calibrate (self))
    return FALSE;
  if (self->calibrating)
    return TRUE;
  self->calibrating = TRUE;
  if (self->calibrate_cancellable == NULL)
    self->calibrate_cancellable = g_cancellable_new ();
  ws_backend_calibrate_async (ws_session_get_backend (self->session), NULL, NULL, NULL, self->calibrate_cancellable,
                              calibrated, g_object_ref (self));
  if (self->hierarchy_view)
    ws_window_show_hierarchy (self);
  ws_window_update_actions (self);
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

static void
hierarchy_thread (GTask        *task,
                  gpointer      source,
                  gpointer      task_data,
                  GCancellable *cancellable)
{
  HierarchyJob *job = task_data;
  GError *error = NULL;
  WsPlotModel *m = ws_plot_model_compute (job->preset, job->pattern, job->profile, cancellable, &error);

  if (m)
    g_task_return_pointer (task, m, (GDestroyNotify) ws_plot_model_free);
  else
    g_task_return_error (task, error);
}

static void
hierarchy_done (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  WsWindow *self = WS_WINDOW (source);
  g_autoptr (GError) error = NULL;
  WsPlotModel *h = g_task_propagate_pointer (G_TASK (result), &error);

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
  WsDeviceProfile *profile = ws_session_get_device_profile (self->session);
  g_autoptr (GTask) task = NULL;
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
  task = g_task_new (self, self->hierarchy_cancellable, hierarchy_done, NULL);
  g_task_set_source_tag (task, ws_window_analyze_hierarchy);
  g_task_set_check_cancellable (task, TRUE);
  g_task_set_task_data (task, job, (GDestroyNotify) hierarchy_job_free);
  self->hierarchy_running = TRUE;
  ws_window_run_in_background (task, hierarchy_thread);
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
  source = ws_text_for_message (self->profile_source ? self->profile_source : _("profile"));
  return g_strdup_printf (_("The whole launch on the %s: %s"), name, source);
}

static void
show_numbers (WsWindow *self)
{
  WsDeviceProfile *profile = ws_session_get_device_profile (self->session);
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
  WsDeviceProfile *profile = ws_session_get_device_profile (self->session);
  g_autofree char *title = hierarchy_title (self);
  g_autofree char *message = NULL;
  g_autofree char *source = NULL;
  g_autoptr (WsHierarchyFigure) figure = NULL;
  int hue = 0;
  const WsMeasurement *m = ws_window_shown_measurement (self, &source, &hue);
  WsPlotHierarchyInput in = { title, self->hierarchy, profile, self->profile_source, m, source, hue, NULL };

  if (profile == NULL)
    message = ws_session_get_probed (self->session) ? no_profile_message (self)
                                                    : g_strdup (_("Looking for a GPU and the recorded measurements…"));
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
ws_window_hierarchy_dispose (WsWindow *self)
{
  g_cancellable_cancel (self->hierarchy_cancellable);
  g_clear_object (&self->hierarchy_cancellable);
  g_cancellable_cancel (self->calibrate_cancellable);
  g_clear_object (&self->calibrate_cancellable);
  g_clear_pointer (&self->calibration_failed, g_free);
  g_clear_pointer (&self->hierarchy, ws_plot_model_free);
  g_clear_pointer (&self->hierarchy_error, g_free);
  g_clear_pointer (&self->profile_source, g_free);
}
