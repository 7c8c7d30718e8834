/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A session with no window: the GPU it finds (or why not), recordings,
 * requests, measurements that join the live ones, sweeps, counters and the
 * comparison. What needs a GPU skips, saying why, where there is none. */
#include "ws-config.h"
#include "ws-session.h"

#include "ws-device-json.h"

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

typedef struct
{
  WsSession *session;
  guint notified;
  guint recordings_changed;
  guint comparison_changed;
  guint measured;
  GAsyncResult *result;
} Fixture;

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  f->session = ws_session_new (NULL);
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  g_clear_object (&f->result);
  g_clear_object (&f->session);
}

static void
wait_probed (Fixture *f)
{
  ws_session_probe (f->session);
  while (!ws_session_get_probed (f->session))
    g_main_context_iteration (NULL, TRUE);
}

static void
wait_loaded (Fixture *f)
{
  while (!ws_session_get_recording_loaded (f->session))
    g_main_context_iteration (NULL, TRUE);
}

static void
got_result (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  Fixture *f = user_data;

  g_assert_null (f->result);
  f->result = g_object_ref (result);
}

static GAsyncResult *
wait_result (Fixture *f)
{
  while (f->result == NULL)
    g_main_context_iteration (NULL, TRUE);
  return f->result;
}

/* Connected swapped: the counter comes first, whatever the signal carries. */
static void
count (guint *counter)
{
  (*counter)++;
}

static gboolean
have_gpu (Fixture *f)
{
  wait_probed (f);
  if (ws_session_get_device (f->session) == NULL)
    {
      g_autofree char *reason = g_strdup_printf ("no GPU: %s", ws_session_get_probe_error (f->session)->message);
      g_test_skip (reason);
      return FALSE;
    }
  return TRUE;
}

/* ------------------------------------------------------------------ */

static void
test_probe (Fixture       *f,
            gconstpointer  data)
{
  g_signal_connect_swapped (f->session, "notify::probed", G_CALLBACK (count), &f->notified);
  wait_probed (f);
  g_assert_true (ws_session_get_probed (f->session));
  g_assert_cmpuint (f->notified, ==, 1);
  /* a device, or the reason there is none: never neither */
  g_assert_true ((ws_session_get_device (f->session) == NULL) != (ws_session_get_probe_error (f->session) == NULL));
  /* once is enough */
  ws_session_probe (f->session);
  g_assert_true (ws_session_get_probed (f->session));
}

static void
test_options (Fixture       *f,
              gconstpointer  data)
{
  g_signal_connect_swapped (f->session, "notify::samples", G_CALLBACK (count), &f->notified);
  g_assert_cmpuint (ws_session_get_samples (f->session), ==, 10);
  g_assert_true (ws_session_get_cold (f->session));
  ws_session_set_samples (f->session, 10);
  g_assert_cmpuint (f->notified, ==, 0);
  ws_session_set_samples (f->session, 25);
  g_assert_cmpuint (f->notified, ==, 1);
  /* fewer than 10 samples is no measurement */
  ws_session_set_samples (f->session, 3);
  g_assert_cmpuint (ws_session_get_samples (f->session), ==, 10);
  g_object_set (f->session, "cold", FALSE, NULL);
  g_assert_false (ws_session_get_cold (f->session));
}

/* ------------------------------------------------------------------ */
/* The device profile                                                 */
/* ------------------------------------------------------------------ */

#define H100 "NVIDIA H100 80GB HBM3"
#define H100_ID "nvidia-h100-80gb-hbm3"

/* A worker that plays recording back: its GPU is the one the recording was
 * made on, and it has none to calibrate. */
/* The worker of this build, or the one WS_GPU_WORKER names (a GPU machine's
 * copy of the binaries, away from the tree they were built in). */
static char *
worker_path (void)
{
  const char *env = g_getenv ("WS_GPU_WORKER");

  return env && *env ? g_strdup (env) : g_build_filename (WS_BUILD_APPDIR, "warpscope-gpu-worker", NULL);
}

static WsGpuTarget *
replaying (const char *recording)
{
  g_autofree char *worker = worker_path ();
  g_autofree char *quoted = g_shell_quote (worker);
  g_autofree char *command = g_strdup_printf ("exec %s --replay %s", quoted, recording);
  g_autoptr (GError) error = NULL;
  WsGpuTarget *target = ws_gpu_target_new_command (command, &error);

  g_assert_no_error (error);
  return target;
}

static WsGpuTarget *
replaying_h100 (void)
{
  g_autofree char *recording = g_build_filename (WS_SOURCE_DATADIR, "recordings", "h100.json", NULL);

  return replaying (recording);
}

static gboolean
have_worker (void)
{
  g_autofree char *worker = worker_path ();

  if (!g_file_test (worker, G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("no warpscope-gpu-worker in the build (nor in WS_GPU_WORKER)");
      return FALSE;
    }
  return TRUE;
}

static void
clear_calibrated (gpointer data)
{
  g_free (((WsCalibrated *) data)->how);
}

/* What a calibration of the H100 could say. */
static WsCalibration *
fake_calibration (const char *name,
                  double      dram_read)
{
  g_autoptr (GArray) values = g_array_new (FALSE, TRUE, sizeof (WsCalibrated));
  WsCalibrated v = { "dram_read_bytes_per_s", dram_read, g_strdup ("measured: a test") };

  g_array_set_clear_func (values, clear_calibrated);
  g_array_append_val (values, v);
  return ws_calibration_new (name, values);
}

static void
wait_not_calibrating (WsSession *session)
{
  while (ws_session_get_calibrating (session))
    g_main_context_iteration (NULL, TRUE);
}

/* Nothing known, then the recording's GPU, a choice, the GPU in use, its
 * calibration kept (and seen by another session, as warpscope-cli sees the
 * window's), and a calibration that fails leaving the profile as it was. */
static void
test_device_profile (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr (WsRecording) bundled = ws_recording_load_bundled (NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (WsGpuTarget) h100 = NULL;
  g_autoptr (WsSession) other = NULL;
  g_autoptr (WsSessionCalibration) kept = NULL;
  g_autoptr (WsDeviceProfile) shipped = ws_device_profile_find (H100_ID, NULL);
  guint done = 0;
  const WsDeviceProfile *p;

  g_signal_connect_swapped (f->session, "notify::device-profile", G_CALLBACK (count), &f->notified);
  g_signal_connect_swapped (f->session, "calibration-done", G_CALLBACK (count), &done);

  /* nothing known: cautious defaults, said to be */
  p = ws_session_get_device_profile (f->session);
  g_assert_nonnull (p);
  g_assert_cmpint (ws_session_get_profile_origin (f->session), ==, WS_PROFILE_ORIGIN_DEFAULT);
  g_assert_cmpstr (p->name, ==, "unknown GPU");
  g_assert_true (g_str_has_prefix (ws_session_get_profile_source (f->session), "cautious defaults"));

  /* the recording's GPU, from the profiles Warpscope ships */
  g_assert_nonnull (bundled);
  ws_session_set_recording (f->session, bundled, NULL);
  g_assert_cmpint (ws_session_get_profile_origin (f->session), ==, WS_PROFILE_ORIGIN_RECORDING);
  g_assert_cmpstr (ws_session_get_device_profile (f->session)->id, ==, "nvidia-h200");
  g_assert_cmpstr (ws_session_get_profile_source (f->session), ==, "the profile shipped for the recording's GPU");
  g_assert_cmpuint (f->notified, ==, 2);
  /* the same again says nothing */
  ws_session_set_recording (f->session, bundled, NULL);
  g_assert_cmpuint (f->notified, ==, 2);

  /* what the user asks for comes first; a wrong name changes nothing */
  g_assert_false (ws_session_choose_profile (f->session, "no-such-gpu", &error));
  g_assert_nonnull (strstr (error->message, "no-such-gpu"));
  g_clear_error (&error);
  g_assert_cmpint (ws_session_get_profile_origin (f->session), ==, WS_PROFILE_ORIGIN_RECORDING);
  g_assert_true (ws_session_choose_profile (f->session, H100_ID, &error));
  g_assert_no_error (error);
  g_assert_cmpint (ws_session_get_profile_origin (f->session), ==, WS_PROFILE_ORIGIN_CHOSEN);
  g_assert_cmpstr (ws_session_get_device_profile (f->session)->id, ==, H100_ID);
  g_assert_true (ws_session_choose_profile (f->session, NULL, &error));
  g_assert_cmpint (ws_session_get_profile_origin (f->session), ==, WS_PROFILE_ORIGIN_RECORDING);

  if (!have_worker ())
    return;
  /* the GPU in use before the recording's; and none while it is looked for */
  h100 = replaying_h100 ();
  ws_session_set_target (f->session, h100);
  wait_probed (f);
  g_assert_nonnull (ws_session_get_device (f->session));
  g_assert_cmpstr (ws_session_get_device (f->session)->name, ==, H100);
  g_assert_cmpint (ws_session_get_profile_origin (f->session), ==, WS_PROFILE_ORIGIN_SHIPPED);
  g_assert_cmpstr (ws_session_get_profile_source (f->session), ==, "the profile shipped for this GPU");

  /* a calibration of it is kept, and used from then on */
  kept = ws_session_keep_calibration (f->session, fake_calibration (H100, 2.5e12), NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (kept);
  g_assert_true (g_file_test (kept->kept, G_FILE_TEST_IS_REGULAR));
  g_assert_true (g_str_has_prefix (kept->kept, g_get_user_cache_dir ()));
  g_assert_cmpstr (kept->base_name, ==, "data/devices/" H100_ID ".json");
  g_assert_cmpint (ws_session_get_profile_origin (f->session), ==, WS_PROFILE_ORIGIN_CALIBRATED);
  g_assert_true (g_str_has_prefix (ws_session_get_profile_source (f->session), "calibrated on this GPU on "));
  p = ws_session_get_device_profile (f->session);
  g_assert_cmpfloat (p->dram_read_bytes_per_s, ==, 2.5e12);
  /* the fields it did not measure are the shipped profile's */
  g_assert_nonnull (shipped);
  g_assert_cmpfloat (p->l2_sectors_per_s, ==, shipped->l2_sectors_per_s);

  /* another session on the same GPU (warpscope-cli beside the window) reads it */
  other = ws_session_new (NULL);
  ws_session_set_target (other, h100);
  ws_session_probe (other);
  while (!ws_session_get_probed (other))
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpint (ws_session_get_profile_origin (other), ==, WS_PROFILE_ORIGIN_CALIBRATED);
  g_assert_cmpfloat (ws_session_get_device_profile (other)->dram_read_bytes_per_s, ==, 2.5e12);

  /* a worker that plays a recording back cannot calibrate: it says so, and
   * what was in use stays */
  ws_session_calibrate_async (f->session, NULL, NULL, NULL, NULL, NULL, NULL, got_result, f);
  g_assert_true (ws_session_get_calibrating (f->session));
  g_assert_null (ws_session_calibrate_finish (f->session, wait_result (f), &error));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "no GPU to calibrate"));
  g_assert_false (ws_session_get_calibrating (f->session));
  g_assert_cmpuint (done, ==, 1);
  g_assert_cmpint (ws_session_get_profile_origin (f->session), ==, WS_PROFILE_ORIGIN_CALIBRATED);
  g_unlink (kept->kept);
}

/* A GPU nothing is known of gets cautious defaults and, where the front
 * end wants it, is calibrated once by itself; not again after that failed. */
static void
test_unknown_gpu (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr (WsRecording) bundled = ws_recording_load_bundled (NULL);
  g_autoptr (WsDeviceInfo) device = NULL;
  g_autoptr (WsRecording) made_up = NULL;
  g_autofree char *path = g_build_filename (g_get_user_cache_dir (), "made-up.json", NULL);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (WsGpuTarget) target = NULL;
  g_autoptr (GError) error = NULL;
  guint done = 0;

  if (!have_worker ())
    return;
  device = ws_device_info_copy (ws_recording_get_device (bundled));
  g_free (device->name);
  device->name = g_strdup ("Made-up GPU 9000");
  made_up = ws_recording_new (device);
  ws_recording_add (made_up, ws_recording_get_measurement (bundled, 0));
  g_assert_true (ws_recording_save_file (made_up, file, NULL, &error));
  g_assert_no_error (error);

  g_signal_connect_swapped (f->session, "calibration-done", G_CALLBACK (count), &done);
  ws_session_set_auto_calibrate (f->session, TRUE);
  target = replaying (path);
  ws_session_set_target (f->session, target);
  wait_probed (f);
  g_assert_cmpint (ws_session_get_profile_origin (f->session), ==, WS_PROFILE_ORIGIN_DEFAULT);
  g_assert_cmpstr (ws_session_get_device_profile (f->session)->name, ==, "Made-up GPU 9000");
  g_assert_cmpuint (ws_session_get_device_profile (f->session)->sms, ==, (guint) device->sm_count);
  g_assert_true (ws_session_get_calibrating (f->session));
  wait_not_calibrating (f->session);
  g_assert_cmpuint (done, ==, 1);
  /* chosen again, it is not tried again by itself */
  g_assert_true (ws_session_choose_profile (f->session, NULL, &error));
  g_assert_false (ws_session_get_calibrating (f->session));
  g_assert_cmpint (ws_session_get_profile_origin (f->session), ==, WS_PROFILE_ORIGIN_DEFAULT);
  g_unlink (path);
}

/* ------------------------------------------------------------------ */
/* Recordings                                                         */
/* ------------------------------------------------------------------ */

static char *
bundled_path (void)
{
  return g_build_filename (g_getenv ("WS_SOURCE_DIR"), "data", "recordings", "h100.json", NULL);
}

static void
test_recordings (Fixture       *f,
                 gconstpointer  data)
{
  g_autofree char *path = bundled_path ();
  g_autoptr (GPtrArray) all = NULL;
  g_autoptr (WsRecording) saved = NULL;
  g_autoptr (WsRecording) opened = NULL;
  g_autoptr (GError) error = NULL;

  g_signal_connect_swapped (f->session, "recordings-changed", G_CALLBACK (count), &f->recordings_changed);
  ws_session_load_recording (f->session, path);
  g_assert_false (ws_session_get_recording_loaded (f->session));
  wait_loaded (f);
  g_assert_nonnull (ws_session_get_recording (f->session));
  g_assert_null (ws_session_get_recording_error (f->session));
  g_assert_cmpstr (ws_session_get_recording_path (f->session), ==, path);
  g_assert_cmpuint (f->recordings_changed, ==, 1);

  /* beside it, then forgotten */
  ws_session_open_recording_async (f->session, path, TRUE, NULL, got_result, f);
  opened = ws_session_open_recording_finish (f->session, wait_result (f), &error);
  g_assert_no_error (error);
  g_assert_nonnull (opened);
  g_assert_cmpuint (ws_session_get_compared (f->session)->len, ==, 1);
  all = ws_session_dup_recordings (f->session);
  g_assert_cmpuint (all->len, ==, 2);
  g_assert_true (g_ptr_array_index (all, 0) == ws_session_get_recording (f->session));
  ws_session_forget_compared (f->session);
  g_assert_cmpuint (ws_session_get_compared (f->session)->len, ==, 0);
  g_assert_cmpuint (f->recordings_changed, ==, 3);

  /* nothing measured: the main recording is what there is to save */
  saved = ws_session_to_recording (f->session, &error);
  g_assert_no_error (error);
  g_assert_true (saved == ws_session_get_recording (f->session));
}

static void
finalized_elsewhere (gpointer  flag,
                     GObject  *was)
{
  g_atomic_int_set ((gint *) flag, 1);
  g_main_context_wakeup (NULL);
}

/* A recording put in place of the main one while that is still being read
 * (a file opened from Files as the program starts) stays: the read that
 * finishes after it is dropped. */
static void
test_recording_overtaken (Fixture       *f,
                          gconstpointer  data)
{
  g_autofree char *path = bundled_path ();
  g_autoptr (WsDeviceInfo) device = ws_device_info_new ();
  g_autoptr (WsRecording) mine = NULL;
  WsSession *session = f->session;
  guint changed = 0;
  gint finalized = 0;

  device->name = g_strdup ("Made-up GPU for tests");
  mine = ws_recording_new (device);
  ws_session_load_recording (session, path);
  /* nothing has run on the main context yet: the read cannot have been kept */
  ws_session_set_recording (session, mine, NULL);
  g_assert_true (ws_session_get_recording (session) == mine);
  g_signal_connect_swapped (session, "notify::recording", G_CALLBACK (count), &changed);
  /* the read holds the session until its callback has run; the last
   * reference may go on the read's thread */
  g_object_weak_ref (G_OBJECT (session), finalized_elsewhere, &finalized);
  g_clear_object (&f->session);
  while (!g_atomic_int_get (&finalized))
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (changed, ==, 0);
}

static void
test_recording_refused (Fixture       *f,
                        gconstpointer  data)
{
  g_autofree char *dir = g_dir_make_tmp ("ws-session-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "not-a-recording.json", NULL);
  g_autoptr (WsRecording) opened = NULL;
  g_autoptr (GError) error = NULL;

  g_assert_true (g_file_set_contents (path, "{ \"format\": 1", -1, NULL));
  g_signal_connect_swapped (f->session, "recordings-changed", G_CALLBACK (count), &f->recordings_changed);
  ws_session_open_recording_async (f->session, path, FALSE, NULL, got_result, f);
  opened = ws_session_open_recording_finish (f->session, wait_result (f), &error);
  g_assert_null (opened);
  g_assert_nonnull (error);
  /* a file that is no recording changes nothing */
  g_assert_null (ws_session_get_recording (f->session));
  g_assert_cmpuint (f->recordings_changed, ==, 0);
  g_assert_null (ws_session_to_recording (f->session, NULL));
  g_unlink (path);
  g_rmdir (dir);
}

/* ------------------------------------------------------------------ */
/* Requests and measurements                                          */
/* ------------------------------------------------------------------ */

static void
test_requests (Fixture       *f,
               gconstpointer  data)
{
  const WsPreset *preset = ws_preset_lookup ("coalescing/offset");
  g_autoptr (WsPattern) pattern = ws_preset_build (preset);
  g_autoptr (WsMeasureRequest) own = NULL;
  g_autoptr (WsMeasureRequest) edited = NULL;
  g_autoptr (WsMeasureRequest) counted = NULL;
  gint64 v;

  ws_session_set_samples (f->session, 20);
  /* the sweep parameter moves: still the preset's kernel, at its sizes */
  g_assert_true (ws_pattern_set_param (pattern, "offset", 5, NULL));
  own = ws_session_request_for (f->session, preset, pattern, FALSE);
  g_assert_cmpstr (own->kernel_id, ==, "coalescing/offset");
  g_assert_cmpuint (own->options.samples, ==, 20);
  g_assert_false (own->options.counters);
  g_assert_cmpuint (own->params->len, ==, 2);
  for (guint i = 0; i < own->params->len; i++)
    {
      const WsParamValue *p = &g_array_index (own->params, WsParamValue, i);
      g_assert_true (ws_pattern_get_param (pattern, p->name, &v));
      g_assert_cmpint (p->value, ==, v);
    }
  /* anything else moves: a kernel generated from the pattern */
  g_assert_true (ws_pattern_set_param (pattern, "N", 1024, NULL));
  edited = ws_session_request_for (f->session, preset, pattern, TRUE);
  g_assert_null (edited->kernel_id);
  g_assert_nonnull (edited->pattern);
  g_assert_true (edited->options.counters);
  /* no preset: generated */
  counted = ws_session_request_for (f->session, NULL, pattern, FALSE);
  g_assert_null (counted->kernel_id);
}

static void
test_measure_without_gpu (Fixture       *f,
                          gconstpointer  data)
{
  const WsPreset *preset = ws_preset_lookup ("coalescing/sequential");
  g_autoptr (WsPattern) pattern = ws_preset_build (preset);
  g_autoptr (WsMeasureRequest) request = ws_session_request_for (f->session, preset, pattern, FALSE);
  g_autoptr (WsMeasurement) m = NULL;
  g_autoptr (GError) error = NULL;

  wait_probed (f);
  if (ws_session_get_device (f->session))
    {
      g_test_skip ("there is a GPU");
      return;
    }
  g_signal_connect_swapped (f->session, "measured", G_CALLBACK (count), &f->measured);
  ws_session_measure_async (f->session, request, NULL, got_result, f);
  m = ws_session_measure_finish (f->session, wait_result (f), &error);
  g_assert_null (m);
  g_assert_error (error, WS_GPU_ERROR, ws_session_get_probe_error (f->session)->code);
  g_assert_cmpuint (f->measured, ==, 0);
  g_assert_cmpuint (ws_session_get_live (f->session)->len, ==, 0);
}

static void
on_measured (WsSession         *session,
             const WsLiveEntry *entry,
             Fixture           *f)
{
  g_assert_true (g_ptr_array_index (ws_session_get_live (session), ws_session_get_live (session)->len - 1) == entry);
  f->measured++;
}

static void
test_measure (Fixture       *f,
              gconstpointer  data)
{
  const WsPreset *preset = ws_preset_lookup ("coalescing/offset");
  g_autoptr (WsPattern) pattern = ws_preset_build (preset);
  g_autoptr (WsMeasureRequest) request = NULL;
  g_autoptr (WsMeasurement) m = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *key = NULL;
  const WsLiveEntry *e;

  if (!have_gpu (f))
    return;
  g_assert_true (ws_pattern_set_param (pattern, "offset", 3, NULL));
  request = ws_session_request_for (f->session, preset, pattern, FALSE);
  g_signal_connect (f->session, "measured", G_CALLBACK (on_measured), f);
  ws_session_measure_async (f->session, request, NULL, got_result, f);
  m = ws_session_measure_finish (f->session, wait_result (f), &error);
  g_assert_no_error (error);
  g_assert_true (m->verified);
  g_assert_cmpuint (f->measured, ==, 1);
  key = ws_pattern_sweep_key (pattern, "offset");
  e = ws_session_find_live (f->session, key, 3);
  g_assert_nonnull (e);
  g_assert_cmpstr (e->preset_id, ==, "coalescing/offset");
  g_assert_cmpfloat (e->x, ==, 3);
  g_assert_true (ws_session_find_live_preset (f->session, "coalescing/offset", 3) == e);
  g_assert_null (ws_session_find_live (f->session, key, 4));
}

static void
test_sweep (Fixture       *f,
            gconstpointer  data)
{
  const WsPreset *preset = ws_preset_lookup ("coalescing/offset");
  g_autoptr (WsPattern) pattern = ws_preset_build (preset);
  g_autoptr (WsMeasureRequest) request = NULL;
  g_autoptr (GPtrArray) points = NULL;
  g_autoptr (GArray) values = ws_sweep_values_parse ("0,8", NULL);
  g_autoptr (GError) error = NULL;
  g_autofree char *key = ws_pattern_sweep_key (pattern, "offset");

  if (!have_gpu (f))
    return;
  request = ws_session_request_for (f->session, preset, pattern, FALSE);
  g_signal_connect_swapped (f->session, "measured", G_CALLBACK (count), &f->measured);
  ws_session_sweep_async (f->session, request, "offset", values, NULL, got_result, f);
  g_assert_true (ws_session_get_sweeping (f->session));
  points = ws_session_sweep_finish (f->session, wait_result (f), &error);
  g_assert_no_error (error);
  g_assert_false (ws_session_get_sweeping (f->session));
  g_assert_cmpuint (points->len, ==, 2);
  /* the points join the live measurements at once, quietly */
  g_assert_cmpuint (f->measured, ==, 0);
  g_assert_nonnull (ws_session_find_live (f->session, key, 0));
  g_assert_nonnull (ws_session_find_live (f->session, key, 8));
}

/* ------------------------------------------------------------------ */
/* The sweep object                                                   */
/* ------------------------------------------------------------------ */

static WsMeasurement *
point_at (const char *id,
          gint64      stride,
          double      ms)
{
  WsMeasurement *m = ws_measurement_new (id);

  ws_measurement_set_param (m, "stride", stride);
  for (guint i = 0; i < 10; i++)
    ws_measurement_add_sample (m, ms);
  ws_measurement_summarize (m);
  return m;
}

static gint64
stride_of (GPtrArray *points,
           guint      i)
{
  gint64 v = -1;

  ws_measurement_get_param (g_ptr_array_index (points, i), "stride", &v);
  return v;
}

static void
wait_sweep (WsSweep *sweep)
{
  while (ws_sweep_get_running (sweep))
    g_main_context_iteration (NULL, TRUE);
}

/* Recorded points shown one by one, in the order of the parameter, then
 * finished; the session's sweep is the newest, and a new one cancels it. */
static void
test_sweep_replay (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr (GPtrArray) recorded = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_measurement_free);
  g_autoptr (WsSweep) sweep = NULL;
  g_autoptr (WsSweep) second = NULL;
  guint points = 0, finished = 0;
  const gint64 strides[] = { 8, 1, 4, 2 };

  for (guint i = 0; i < G_N_ELEMENTS (strides); i++)
    g_ptr_array_add (recorded, point_at ("coalescing/strided-sweep", strides[i], 0.1 * (i + 1)));
  g_signal_connect_swapped (f->session, "notify::sweep", G_CALLBACK (count), &f->notified);
  sweep = ws_session_new_replay (f->session, recorded, "stride", 1);
  g_assert_true (ws_session_get_sweep (f->session) == sweep);
  g_assert_cmpuint (f->notified, ==, 1);
  g_assert_true (ws_sweep_get_replayed (sweep));
  g_assert_cmpuint (ws_sweep_get_total (sweep), ==, 4);
  g_assert_cmpuint (ws_sweep_get_done (sweep), ==, 0);
  g_signal_connect_swapped (sweep, "point", G_CALLBACK (count), &points);
  g_signal_connect_swapped (sweep, "finished", G_CALLBACK (count), &finished);
  ws_sweep_start (sweep);
  g_assert_true (ws_sweep_get_running (sweep));
  wait_sweep (sweep);
  g_assert_cmpuint (points, ==, 4);
  g_assert_cmpuint (finished, ==, 1);
  g_assert_null (ws_sweep_get_error (sweep));
  g_assert_false (ws_sweep_get_can_resume (sweep));
  g_assert_cmpuint (ws_sweep_get_done (sweep), ==, 4);
  for (guint i = 0; i < 4; i++)
    g_assert_cmpint (stride_of (ws_sweep_get_points (sweep), i), ==, (gint64) 1 << i);
  /* a replay's points are the recording's: none is a live measurement */
  g_assert_cmpuint (ws_session_get_live (f->session)->len, ==, 0);

  /* a new sweep takes its place; cancelled, it says so */
  second = ws_session_new_replay (f->session, recorded, "stride", 1000);
  g_assert_true (ws_session_get_sweep (f->session) == second);
  ws_sweep_start (second);
  ws_sweep_cancel (second);
  g_assert_false (ws_sweep_get_running (second));
  g_assert_error (ws_sweep_get_error (second), G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpuint (ws_sweep_get_done (second), ==, 0);
}

/* A sweep on a GPU (a worker that plays the H100's recording back): the
 * points known before are not measured again, every point comes in the
 * order of the parameter, and they join the live measurements. */
static void
test_sweep_live (Fixture       *f,
                 gconstpointer  data)
{
  const WsPreset *preset = ws_preset_lookup ("coalescing/strided-sweep");
  g_autoptr (WsPattern) pattern = ws_preset_build (preset);
  g_autoptr (WsGpuTarget) h100 = NULL;
  g_autoptr (WsMeasureRequest) request = NULL;
  g_autoptr (GArray) values = ws_sweep_values_parse ("1,2,4,8", NULL);
  g_autoptr (WsMeasurement) known = point_at ("coalescing/strided-sweep", 4, 123);
  g_autoptr (WsSweep) sweep = NULL;
  g_autofree char *key = NULL;
  GPtrArray *points;
  guint measured = 0;

  if (!have_worker ())
    return;
  h100 = replaying_h100 ();
  ws_session_set_target (f->session, h100);
  wait_probed (f);
  g_assert_nonnull (ws_session_get_device (f->session));
  request = ws_session_request_for (f->session, preset, pattern, FALSE);
  sweep = ws_session_new_sweep (f->session, request, "stride", values);
  key = ws_pattern_sweep_key (pattern, "stride");
  g_assert_cmpstr (ws_sweep_get_key (sweep), ==, key);
  ws_sweep_add_known (sweep, known);
  g_assert_cmpuint (ws_sweep_get_done (sweep), ==, 1);
  g_signal_connect_swapped (sweep, "point", G_CALLBACK (count), &measured);
  ws_sweep_start (sweep);
  wait_sweep (sweep);
  g_assert_null (ws_sweep_get_error (sweep));
  g_assert_cmpuint (measured, ==, 3);
  g_assert_cmpuint (ws_sweep_get_done (sweep), ==, 4);
  g_assert_cmpuint (ws_sweep_get_total (sweep), ==, 4);
  points = ws_sweep_get_points (sweep);
  g_assert_cmpuint (points->len, ==, 4);
  for (guint i = 0; i < 4; i++)
    g_assert_cmpint (stride_of (points, i), ==, (gint64) 1 << i);
  /* the known point is the one given, not measured again */
  g_assert_cmpfloat (((WsMeasurement *) g_ptr_array_index (points, 2))->median_ms, ==, 123);
  g_assert_nonnull (ws_session_find_live (f->session, ws_sweep_get_key (sweep), 8));
  g_assert_null (ws_session_find_live (f->session, ws_sweep_get_key (sweep), 4));
}

static void
test_count (Fixture       *f,
            gconstpointer  data)
{
  g_autoptr (WsPattern) pattern = ws_preset_build (ws_preset_lookup ("banks/stride"));
  g_autoptr (WsMeasurement) m = NULL;
  g_autoptr (GError) error = NULL;

  if (!have_gpu (f))
    return;
  ws_session_count_async (f->session, pattern, FALSE, NULL, got_result, f);
  m = ws_session_count_finish (f->session, wait_result (f), &error);
  if (g_error_matches (error, WS_GPU_ERROR, WS_GPU_ERROR_COUNTERS_UNAVAILABLE))
    {
      g_test_skip (error->message);
      return;
    }
  g_assert_no_error (error);
  g_assert_cmpuint (m->counters->len, >, 0);
  g_assert_true (ws_measurement_get_counter (m, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", NULL));
}

/* ------------------------------------------------------------------ */
/* The comparison                                                     */
/* ------------------------------------------------------------------ */

static void
test_comparison (Fixture       *f,
                 gconstpointer  data)
{
  const char *bad[] = { "transpose/copy", NULL };
  const char *unknown[] = { "transpose/copy", "transpose/nonsense", NULL };
  const char *specs[] = { "coalescing/sequential", "coalescing/offset:offset=4", "banks/stride@1", NULL };
  g_autoptr (GError) error = NULL;
  GPtrArray *items;

  g_signal_connect_swapped (f->session, "comparison-changed", G_CALLBACK (count), &f->comparison_changed);
  g_assert_null (ws_session_get_comparison (f->session));
  g_assert_false (ws_session_set_comparison (f->session, bad, &error));
  g_assert_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE);
  g_clear_error (&error);
  g_assert_false (ws_session_set_comparison (f->session, unknown, &error));
  g_assert_nonnull (error);
  g_clear_error (&error);
  g_assert_cmpuint (f->comparison_changed, ==, 0);

  g_assert_true (ws_session_set_comparison (f->session, specs, &error));
  g_assert_no_error (error);
  items = ws_session_get_comparison (f->session);
  g_assert_cmpuint (items->len, ==, 3);
  g_assert_cmpstr (((WsCompareItem *) g_ptr_array_index (items, 1))->title, ==, "Misaligned, offset = 4");
  g_assert_null (ws_session_get_comparison_costs (f->session));
  while (!ws_session_comparison_is_settled (f->session))
    g_main_context_iteration (NULL, TRUE);
  /* the model's costs per warp: 4 sectors of a coalesced float load, 5 misaligned */
  g_assert_cmpfloat_with_epsilon (ws_session_get_comparison_costs (f->session)[0].bytes, 128, 1e-9);
  g_assert_cmpfloat_with_epsilon (ws_session_get_comparison_costs (f->session)[1].bytes, 160, 1);
  g_assert_cmpuint (f->comparison_changed, >=, 2);
}

static void
test_comparison_measured (Fixture       *f,
                          gconstpointer  data)
{
  const char *specs[] = { "coalescing/sequential", "coalescing/stride", NULL };

  if (!have_gpu (f))
    return;
  g_assert_true (ws_session_set_comparison (f->session, specs, NULL));
  /* measured only while wanted */
  while (!ws_session_comparison_is_settled (f->session))
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (ws_session_get_live (f->session)->len, ==, 0);
  ws_session_set_measure_comparison (f->session, TRUE);
  while (ws_session_get_live (f->session)->len < 2)
    g_main_context_iteration (NULL, TRUE);
  g_assert_nonnull (ws_session_find_live_preset (f->session, "coalescing/sequential", NAN));
  g_assert_nonnull (ws_session_find_live_preset (f->session, "coalescing/stride", NAN));
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *cache = g_dir_make_tmp ("ws-session-XXXXXX", NULL);
  int status;

  /* calibrations are kept in the tests' own cache, not the user's */
  g_setenv ("XDG_CACHE_HOME", cache, TRUE);
  g_test_init (&argc, &argv, NULL);
#define ADD(PATH, FUNC) g_test_add (PATH, Fixture, NULL, fixture_set_up, FUNC, fixture_tear_down)
  ADD ("/session/probe", test_probe);
  ADD ("/session/options", test_options);
  ADD ("/session/device-profile", test_device_profile);
  ADD ("/session/unknown-gpu", test_unknown_gpu);
  ADD ("/session/recordings", test_recordings);
  ADD ("/session/recording-overtaken", test_recording_overtaken);
  ADD ("/session/recording-refused", test_recording_refused);
  ADD ("/session/requests", test_requests);
  ADD ("/session/measure-without-gpu", test_measure_without_gpu);
  ADD ("/session/comparison", test_comparison);
  ADD ("/session/sweep-replay", test_sweep_replay);
  ADD ("/session/sweep-live", test_sweep_live);
  ADD ("/session/gpu/measure", test_measure);
  ADD ("/session/gpu/sweep", test_sweep);
  ADD ("/session/gpu/count", test_count);
  ADD ("/session/gpu/comparison", test_comparison_measured);
#undef ADD
  status = g_test_run ();
  {
    const char *rm[] = { "rm", "-rf", cache, NULL };
    g_autoptr (GSubprocess) p = g_subprocess_newv (rm, G_SUBPROCESS_FLAGS_NONE, NULL);

    g_subprocess_wait (p, NULL, NULL);
  }
  return status;
}
