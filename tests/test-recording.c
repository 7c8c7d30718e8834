/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Recordings: a round trip through JSON and through a file, atomic saving,
 * and bad files of every kind, each refused with the field's path. */
#include "ws-config.h"
#include "ws-presets.h"
#include "ws-recording-private.h"
#include "ws-file-writer.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

static WsDeviceInfo *
make_device (void)
{
  WsDeviceInfo *d = ws_device_info_new ();

  d->name = g_strdup ("Test GPU “Ωmega”");
  d->cc_major = 9;
  d->cc_minor = 0;
  d->sm_count = 132;
  d->global_mem_bytes = G_GINT64_CONSTANT (85031714816);
  d->l2_bytes = 52428800;
  d->l2_persisting_max_bytes = 39321600;
  d->shared_per_sm = 233472;
  d->shared_per_block_optin = 232448;
  d->registers_per_sm = 65536;
  d->max_threads_per_sm = 2048;
  d->max_blocks_per_sm = 32;
  d->sm_clock_mhz = 1980;
  d->mem_clock_mhz = 2619;
  d->mem_bus_bits = 5120;
  d->peak_bandwidth_gbs = 3352.32;
  d->driver_version = g_strdup ("13.0");
  d->runtime_version = g_strdup ("13.0");
  return d;
}

static WsMeasurement *
make_measurement (const char *id,
                  guint       seed)
{
  WsMeasurement *m = ws_measurement_new (id);

  m->description = g_strdup_printf ("out[i] = in[i + offset]; seed %u", seed);
  ws_measurement_set_param (m, "N", 33554432);
  ws_measurement_set_param (m, "offset", seed);
  ws_measurement_set_param (m, "negative", -7);
  for (guint i = 0; i < 10 + seed; i++)
    ws_measurement_add_sample (m, 0.1 + 0.001 * ((i * 7 + seed) % 13) + 1e-9 / 3);
  m->bytes = 268435456;
  ws_measurement_summarize (m);
  m->cold = seed % 2;
  m->sm_clock_mhz = 1755;
  m->registers = 16;
  m->local_bytes = 128;
  m->shared_bytes = 32768;
  m->blocks_per_sm = 8;
  m->warps_per_sm = 64;
  m->verified = TRUE;
  ws_measurement_add_counter (m, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 4194304 + seed);
  ws_measurement_add_counter (m, "lts__t_sector_hit_rate.pct", 12.5);
  if (seed == 2)
    m->warning = g_strdup ("no hardware counters: not permitted");
  if (seed == 1)
    {
      /* what a kernel that may go wrong reports, and a timeline */
      m->trials = 4096;
      ws_measurement_add_outcome (m, "stale data", 12);
      ws_measurement_add_outcome (m, "timed out", 0);
      ws_measurement_add_span (m, 0, WS_SPAN_HOST_TO_DEVICE, 0, 0.25);
      ws_measurement_add_span (m, 1, WS_SPAN_KERNEL, 0.25, 0.5 + 1e-9 / 3);
      ws_measurement_add_span (m, 1, WS_SPAN_DEVICE_TO_HOST, 0.5 + 1e-9 / 3, 0.75);
      /* a kernel text's counters per source line */
      ws_measurement_add_line_counter (m, 12, "smsp__sass_sectors_mem_global", 4096);
      ws_measurement_add_line_counter (m, 12, "smsp__sass_inst_executed_op_global_ld", 1024);
      ws_measurement_add_line_counter (m, 14, WS_LINE_SHARED_WAVEFRONTS, 32768);
    }
  return m;
}

static WsRecording *
make_recording (void)
{
  g_autoptr (WsDeviceInfo) d = make_device ();
  WsRecording *r = ws_recording_new (d);

  for (guint i = 0; i < 3; i++)
    {
      g_autoptr (WsMeasurement) m = make_measurement (i == 1 ? "banks/stride" : "coalescing/offset", i);
      ws_recording_add (r, m);
    }
  return r;
}

static void
assert_devices_equal (const WsDeviceInfo *a,
                      const WsDeviceInfo *b)
{
  g_assert_cmpstr (a->name, ==, b->name);
  g_assert_cmpint (a->cc_major, ==, b->cc_major);
  g_assert_cmpint (a->cc_minor, ==, b->cc_minor);
  g_assert_cmpint (a->sm_count, ==, b->sm_count);
  g_assert_cmpint (a->global_mem_bytes, ==, b->global_mem_bytes);
  g_assert_cmpint (a->l2_bytes, ==, b->l2_bytes);
  g_assert_cmpint (a->l2_persisting_max_bytes, ==, b->l2_persisting_max_bytes);
  g_assert_cmpint (a->shared_per_sm, ==, b->shared_per_sm);
  g_assert_cmpint (a->shared_per_block_optin, ==, b->shared_per_block_optin);
  g_assert_cmpint (a->registers_per_sm, ==, b->registers_per_sm);
  g_assert_cmpint (a->max_threads_per_sm, ==, b->max_threads_per_sm);
  g_assert_cmpint (a->max_blocks_per_sm, ==, b->max_blocks_per_sm);
  g_assert_cmpint (a->sm_clock_mhz, ==, b->sm_clock_mhz);
  g_assert_cmpint (a->mem_clock_mhz, ==, b->mem_clock_mhz);
  g_assert_cmpint (a->mem_bus_bits, ==, b->mem_bus_bits);
  g_assert_cmpfloat (a->peak_bandwidth_gbs, ==, b->peak_bandwidth_gbs);
  g_assert_cmpstr (a->driver_version, ==, b->driver_version);
  g_assert_cmpstr (a->runtime_version, ==, b->runtime_version);
}

static void
assert_measurements_equal (const WsMeasurement *a,
                           const WsMeasurement *b)
{
  g_assert_cmpstr (a->id, ==, b->id);
  g_assert_cmpstr (a->description, ==, b->description);
  g_assert_cmpuint (a->params->len, ==, b->params->len);
  for (guint i = 0; i < a->params->len; i++)
    {
      const WsParamValue *p = &g_array_index (a->params, WsParamValue, i);
      gint64 v;
      g_assert_true (ws_measurement_get_param (b, p->name, &v));
      g_assert_cmpint (v, ==, p->value);
    }
  g_assert_cmpuint (a->samples_ms->len, ==, b->samples_ms->len);
  for (guint i = 0; i < a->samples_ms->len; i++)
    g_assert_cmpfloat (g_array_index (a->samples_ms, double, i), ==, g_array_index (b->samples_ms, double, i));
  g_assert_cmpfloat (a->median_ms, ==, b->median_ms);
  g_assert_cmpfloat (a->min_ms, ==, b->min_ms);
  g_assert_cmpfloat (a->max_ms, ==, b->max_ms);
  g_assert_cmpint (a->bytes, ==, b->bytes);
  g_assert_cmpfloat (a->bandwidth_gbs, ==, b->bandwidth_gbs);
  g_assert_cmpint (a->cold, ==, b->cold);
  g_assert_cmpint (a->sm_clock_mhz, ==, b->sm_clock_mhz);
  g_assert_cmpint (a->registers, ==, b->registers);
  g_assert_cmpint (a->local_bytes, ==, b->local_bytes);
  g_assert_cmpint (a->shared_bytes, ==, b->shared_bytes);
  g_assert_cmpint (a->blocks_per_sm, ==, b->blocks_per_sm);
  g_assert_cmpint (a->warps_per_sm, ==, b->warps_per_sm);
  g_assert_cmpint (a->verified, ==, b->verified);
  g_assert_cmpuint (a->counters->len, ==, b->counters->len);
  for (guint i = 0; i < a->counters->len; i++)
    {
      const WsCounter *c = &g_array_index (a->counters, WsCounter, i);
      double v;
      g_assert_true (ws_measurement_get_counter (b, c->name, &v));
      g_assert_cmpfloat (v, ==, c->value);
    }
  g_assert_cmpstr (a->warning, ==, b->warning);
  g_assert_cmpint (a->trials, ==, b->trials);
  g_assert_cmpuint (a->outcomes->len, ==, b->outcomes->len);
  for (guint i = 0; i < a->outcomes->len; i++)
    {
      const WsOutcome *o = &g_array_index (a->outcomes, WsOutcome, i);
      gint64 v;
      g_assert_true (ws_measurement_get_outcome (b, o->name, &v));
      g_assert_cmpint (v, ==, o->count);
    }
  g_assert_cmpuint (a->timeline->len, ==, b->timeline->len);
  for (guint i = 0; i < a->timeline->len; i++)
    {
      const WsSpan *x = &g_array_index (a->timeline, WsSpan, i), *y = &g_array_index (b->timeline, WsSpan, i);
      g_assert_cmpuint (x->stream, ==, y->stream);
      g_assert_cmpint (x->kind, ==, y->kind);
      g_assert_cmpfloat (x->start_ms, ==, y->start_ms);
      g_assert_cmpfloat (x->end_ms, ==, y->end_ms);
    }
  g_assert_cmpuint (a->line_counters->len, ==, b->line_counters->len);
  for (guint i = 0; i < a->line_counters->len; i++)
    {
      const WsLineCounter *c = &g_array_index (a->line_counters, WsLineCounter, i);
      double v;
      g_assert_true (ws_measurement_get_line_counter (b, c->line, c->name, &v));
      g_assert_cmpfloat (v, ==, c->value);
    }
}

static void
assert_recordings_equal (WsRecording *a,
                         WsRecording *b)
{
  g_assert_cmpstr (ws_recording_get_program_version (a), ==, ws_recording_get_program_version (b));
  /* ISO 8601 keeps microseconds */
  g_assert_cmpint (g_date_time_compare (ws_recording_get_date (a), ws_recording_get_date (b)), ==, 0);
  assert_devices_equal (ws_recording_get_device (a), ws_recording_get_device (b));
  g_assert_cmpuint (ws_recording_get_n_measurements (a), ==, ws_recording_get_n_measurements (b));
  for (guint i = 0; i < ws_recording_get_n_measurements (a); i++)
    assert_measurements_equal (ws_recording_get_measurement (a, i), ws_recording_get_measurement (b, i));
}

static void
test_round_trip_data (void)
{
  g_autoptr (WsRecording) r = make_recording ();
  g_autoptr (WsRecording) back = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *data = NULL;
  gsize length = 0;

  data = ws_recording_to_data (r, &length);
  g_assert_cmpuint (length, ==, strlen (data));
  g_assert_nonnull (strstr (data, "\"format\" : \"warpscope-recording\""));
  /* numbers in their shortest exact form, not json-glib's 3352.3200000000002 */
  g_assert_nonnull (strstr (data, "\"peak_bandwidth_gbs\" : 3352.32,"));
  back = ws_recording_load_data (data, (gssize) length, &error);
  g_assert_no_error (error);
  assert_recordings_equal (r, back);
  g_assert_cmpstr (ws_recording_get_program_version (back), ==, WS_VERSION);
}

/* The counters of one launch, untimed (what the truth table asks the
 * worker for), cross the worker's pipe as a measurement without samples;
 * a timed one without samples is refused. */
static void
test_count_without_samples (void)
{
  g_autoptr (WsDeviceInfo) d = make_device ();
  g_autoptr (WsRecording) r = ws_recording_new (d);
  g_autoptr (WsRecording) timed = ws_recording_new (d);
  g_autoptr (WsMeasurement) count = ws_measurement_new ("expr");
  g_autoptr (WsMeasurement) untimed = ws_measurement_new ("expr");
  g_autoptr (WsRecording) back = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *data = NULL;
  g_autofree char *bad = NULL;
  double v = 0;

  ws_measurement_add_counter (count, "lts__t_sectors_srcunit_tex_op_read.sum", 4194304);
  ws_recording_add (r, count);
  data = ws_recording_to_data (r, NULL);
  back = ws_recording_load_data (data, -1, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ws_recording_get_measurement (back, 0)->samples_ms->len, ==, 0);
  g_assert_true (ws_measurement_get_counter (ws_recording_get_measurement (back, 0),
                                             "lts__t_sectors_srcunit_tex_op_read.sum", &v));
  g_assert_cmpfloat (v, ==, 4194304);
  g_clear_object (&back);

  /* no samples and no counters: nothing measured at all */
  ws_recording_add (timed, untimed);
  bad = ws_recording_to_data (timed, NULL);
  back = ws_recording_load_data (bad, -1, &error);
  g_assert_null (back);
  g_assert_error (error, WS_RECORDING_ERROR, WS_RECORDING_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "samples_ms: empty"));
}

/* json-glib alone would write 1e-05 as “1e-05.0”, which no parser reads */
static void
test_awkward_numbers (void)
{
  g_autoptr (WsDeviceInfo) d = make_device ();
  g_autoptr (WsRecording) r = ws_recording_new (d);
  g_autoptr (WsMeasurement) m = ws_measurement_new ("coalescing/broadcast");
  g_autoptr (WsRecording) back = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *data = NULL;
  const WsMeasurement *b;
  double v;

  for (guint i = 0; i < 10; i++)
    ws_measurement_add_sample (m, i % 2 ? 1e-05 : 2e-06);
  ws_measurement_summarize (m);
  ws_measurement_add_counter (m, "dram__bytes_read.sum", 1e20);
  ws_measurement_add_counter (m, "tiny", 1e-300);
  ws_recording_add (r, m);
  data = ws_recording_to_data (r, NULL);
  back = ws_recording_load_data (data, -1, &error);
  g_assert_no_error (error);
  b = ws_recording_get_measurement (back, 0);
  g_assert_cmpfloat_with_epsilon (g_array_index (b->samples_ms, double, 1), 1e-05, 1e-18);
  g_assert_cmpfloat_with_epsilon (b->median_ms, m->median_ms, 1e-18);
  g_assert_true (ws_measurement_get_counter (b, "dram__bytes_read.sum", &v));
  g_assert_cmpfloat_with_epsilon (v, 1e20, 1e20 * 1e-15);
  g_assert_true (ws_measurement_get_counter (b, "tiny", &v));
  g_assert_cmpfloat_with_epsilon (v, 1e-300, 1e-310);
}

static void
test_find (void)
{
  g_autoptr (WsRecording) r = make_recording ();
  g_autoptr (GPtrArray) offsets = ws_recording_find (r, "coalescing/offset");
  g_autoptr (GPtrArray) none = ws_recording_find (r, "transpose/copy");
  gint64 v;

  g_assert_cmpuint (offsets->len, ==, 2);
  g_assert_true (ws_measurement_get_param (g_ptr_array_index (offsets, 0), "offset", &v));
  g_assert_cmpint (v, ==, 0);
  g_assert_true (ws_measurement_get_param (g_ptr_array_index (offsets, 1), "offset", &v));
  g_assert_cmpint (v, ==, 2);
  g_assert_cmpuint (none->len, ==, 0);
}

static char *
temp_dir (void)
{
  g_autoptr (GError) error = NULL;
  char *dir = g_dir_make_tmp ("ws-recording-XXXXXX", &error);

  g_assert_no_error (error);
  return dir;
}

static void
remove_dir (const char *dir)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  while (d && (name = g_dir_read_name (d)))
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_unlink (path);
    }
  g_rmdir (dir);
}

static guint
count_files (const char *dir)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  guint n = 0;

  while (d && g_dir_read_name (d))
    n++;
  return n;
}

static void
test_round_trip_file (void)
{
  g_autofree char *dir = temp_dir ();
  g_autofree char *path = g_build_filename (dir, "h100.json", NULL);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (WsRecording) r = make_recording ();
  g_autoptr (WsRecording) back = NULL;
  g_autoptr (GError) error = NULL;

  g_assert_true (ws_recording_save_file (r, file, NULL, &error));
  g_assert_no_error (error);
  back = ws_recording_load_file (file, NULL, &error);
  g_assert_no_error (error);
  assert_recordings_equal (r, back);
  /* no temporary file left beside it */
  g_assert_cmpuint (count_files (dir), ==, 1);
  remove_dir (dir);
}

static void
test_save_keeps_old_file (void)
{
  g_autofree char *dir = temp_dir ();
  g_autofree char *path = g_build_filename (dir, "kept.json", NULL);
  g_autofree char *missing = g_build_filename (dir, "no-such-dir", "x.json", NULL);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GFile) bad = g_file_new_for_path (missing);
  g_autoptr (GCancellable) cancelled = g_cancellable_new ();
  g_autoptr (WsRecording) r = make_recording ();
  g_autoptr (WsRecording) other = NULL;
  g_autoptr (WsRecording) back = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;

  g_assert_true (ws_recording_save_file (r, file, NULL, &error));
  g_assert_true (g_file_get_contents (path, &before, NULL, NULL));

  /* a save that fails half-way leaves the old file as it was */
  other = make_recording ();
  ws_recording_add (other, ws_recording_get_measurement (r, 0));
  g_cancellable_cancel (cancelled);
  g_assert_false (ws_recording_save_file (other, file, cancelled, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);
  g_assert_true (g_file_get_contents (path, &after, NULL, NULL));
  g_assert_cmpstr (before, ==, after);
  g_assert_cmpuint (count_files (dir), ==, 1);

  /* an unwritable place says where */
  g_assert_false (ws_recording_save_file (r, bad, NULL, &error));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "no-such-dir"));
  g_clear_error (&error);

  /* a successful save replaces it whole */
  g_assert_true (ws_recording_save_file (other, file, NULL, &error));
  back = ws_recording_load_file (file, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ws_recording_get_n_measurements (back), ==, 4);
  remove_dir (dir);
}

/* ------------------------------------------------------------------ */
/* Bad files                                                          */
/* ------------------------------------------------------------------ */

typedef void (*Mutate) (JsonObject *root);

static char *
mutated (Mutate mutate)
{
  g_autoptr (WsRecording) r = make_recording ();
  g_autofree char *data = ws_recording_to_data (r, NULL);
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (JsonGenerator) gen = json_generator_new ();

  g_assert_true (json_parser_load_from_data (parser, data, -1, NULL));
  mutate (json_node_get_object (json_parser_get_root (parser)));
  json_generator_set_root (gen, json_parser_get_root (parser));
  return json_generator_to_data (gen, NULL);
}

static JsonObject *
measurement (JsonObject *root,
             guint       i)
{
  return json_array_get_object_element (json_object_get_array_member (root, "measurements"), i);
}

static void
assert_refused (const char *data,
                gssize      length,
                int         code,
                const char *message)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WsRecording) r = ws_recording_load_data (data, length, &error);

  g_assert_null (r);
  if (code >= 0)
    g_assert_error (error, WS_RECORDING_ERROR, code);
  g_assert_nonnull (error);
  /* a message is shown: it is text, whatever the file held */
  g_assert_true (g_utf8_validate (error->message, -1, NULL));
  if (!strstr (error->message, message))
    g_error ("expected “%s” in “%s”", message, error->message);
}

static void
assert_mutation_refused (Mutate      mutate,
                         int         code,
                         const char *message)
{
  g_autofree char *data = mutated (mutate);

  assert_refused (data, -1, code, message);
}

static void
test_not_json (void)
{
  assert_refused ("{ \"format\": \"warpscope-recording\", ", -1, WS_RECORDING_ERROR_PARSE, "not JSON");
  assert_refused ("", -1, WS_RECORDING_ERROR_PARSE, "not JSON");
  assert_refused ("\x89PNG\r\n", -1, WS_RECORDING_ERROR_PARSE, "not JSON");
  assert_refused ("[1, 2, 3]", -1, WS_RECORDING_ERROR_INVALID, "the top level: expected an object, found an array");
  assert_refused ("{}", -1, WS_RECORDING_ERROR_INVALID, "format: missing");
}

static void
test_truncated (void)
{
  g_autoptr (WsRecording) r = make_recording ();
  gsize length = 0;
  g_autofree char *data = ws_recording_to_data (r, &length);

  /* cut anywhere, it is refused, never half read */
  for (gsize cut = 1; cut < length; cut += length / 37 + 1)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (WsRecording) back = ws_recording_load_data (data, (gssize) cut, &error);
      g_assert_null (back);
      g_assert_nonnull (error);
    }
  assert_refused (data, (gssize) (length / 2), WS_RECORDING_ERROR_PARSE, "not JSON");
}

static void
set_version_2 (JsonObject *root)
{
  json_object_set_int_member (root, "version", 2);
}

static void
set_version_string (JsonObject *root)
{
  json_object_set_string_member (root, "version", "1");
}

static void
set_format (JsonObject *root)
{
  json_object_set_string_member (root, "format", "something-else");
}

static void
test_version (void)
{
  assert_mutation_refused (set_version_2, WS_RECORDING_ERROR_VERSION, "version: 2 is not a version this program reads");
  assert_mutation_refused (set_version_string, WS_RECORDING_ERROR_INVALID, "version: expected an integer, found a string");
  assert_mutation_refused (set_format, WS_RECORDING_ERROR_INVALID, "format: expected “warpscope-recording”");
}

static void
drop_median (JsonObject *root)
{
  json_object_remove_member (measurement (root, 1), "median_ms");
}

static void
drop_device_name (JsonObject *root)
{
  json_object_remove_member (json_object_get_object_member (root, "device"), "name");
}

static void
drop_measurements (JsonObject *root)
{
  json_object_remove_member (root, "measurements");
}

static void
drop_counters (JsonObject *root)
{
  json_object_remove_member (measurement (root, 2), "counters");
}

static void
test_missing (void)
{
  assert_mutation_refused (drop_median, WS_RECORDING_ERROR_INVALID, "measurements[1].median_ms: missing");
  assert_mutation_refused (drop_device_name, WS_RECORDING_ERROR_INVALID, "device.name: missing");
  assert_mutation_refused (drop_measurements, WS_RECORDING_ERROR_INVALID, "measurements: missing");
  assert_mutation_refused (drop_counters, WS_RECORDING_ERROR_INVALID, "measurements[2].counters: missing");
}

static void
median_string (JsonObject *root)
{
  json_object_set_string_member (measurement (root, 0), "median_ms", "0.1");
}

static void
sm_count_fraction (JsonObject *root)
{
  json_object_set_double_member (json_object_get_object_member (root, "device"), "sm_count", 1.5);
}

static void
param_string (JsonObject *root)
{
  json_object_set_string_member (json_object_get_object_member (measurement (root, 2), "params"), "offset", "two");
}

static void
sample_null (JsonObject *root)
{
  json_array_remove_element (json_object_get_array_member (measurement (root, 1), "samples_ms"), 3);
  json_array_add_null_element (json_object_get_array_member (measurement (root, 1), "samples_ms"));
}

static void
verified_number (JsonObject *root)
{
  json_object_set_int_member (measurement (root, 0), "verified", 1);
}

static void
measurement_array (JsonObject *root)
{
  JsonArray *a = json_object_get_array_member (root, "measurements");
  json_array_remove_element (a, 1);
  json_array_add_array_element (a, json_array_new ());
}

static void
device_string (JsonObject *root)
{
  json_object_set_string_member (root, "device", "H100");
}

static void
test_wrong_types (void)
{
  assert_mutation_refused (median_string, WS_RECORDING_ERROR_INVALID,
                           "measurements[0].median_ms: expected a number, found a string");
  assert_mutation_refused (sm_count_fraction, WS_RECORDING_ERROR_INVALID,
                           "device.sm_count: expected an integer, found a number");
  assert_mutation_refused (param_string, WS_RECORDING_ERROR_INVALID,
                           "measurements[2].params.offset: expected an integer, found a string");
  assert_mutation_refused (sample_null, WS_RECORDING_ERROR_INVALID,
                           "measurements[1].samples_ms[10]: expected a number, found null");
  assert_mutation_refused (verified_number, WS_RECORDING_ERROR_INVALID,
                           "measurements[0].verified: expected true or false, found an integer");
  assert_mutation_refused (measurement_array, WS_RECORDING_ERROR_INVALID,
                           "measurements[2]: expected an object, found an array");
  assert_mutation_refused (device_string, WS_RECORDING_ERROR_INVALID, "device: expected an object, found a string");
}

static void
huge_median (JsonObject *root)
{
  json_object_set_double_member (measurement (root, 0), "median_ms", 1.5e308);
}

static void
huge_registers (JsonObject *root)
{
  json_object_set_int_member (measurement (root, 1), "registers", G_GINT64_CONSTANT (99999999999));
}

static void
negative_bytes (JsonObject *root)
{
  json_object_set_int_member (measurement (root, 1), "bytes", -1);
}

static void
median_above_max (JsonObject *root)
{
  JsonObject *m = measurement (root, 2);
  json_object_set_double_member (m, "median_ms", json_object_get_double_member (m, "max_ms") * 2);
}

static void
no_samples (JsonObject *root)
{
  json_object_set_array_member (measurement (root, 0), "samples_ms", json_array_new ());
}

static void
bad_date (JsonObject *root)
{
  json_object_set_string_member (root, "date", "yesterday");
}

static void
outcome_above_trials (JsonObject *root)
{
  json_object_set_int_member (json_object_get_object_member (measurement (root, 1), "outcomes"), "stale data", 4097);
}

static void
span_backwards (JsonObject *root)
{
  JsonObject *span = json_array_get_object_element (json_object_get_array_member (measurement (root, 1), "timeline"), 1);
  json_object_set_double_member (span, "end_ms", 0.125);
}

static void
span_kind_unknown (JsonObject *root)
{
  JsonObject *span = json_array_get_object_element (json_object_get_array_member (measurement (root, 1), "timeline"), 2);
  json_object_set_string_member (span, "kind", "teleport");
}

static void
line_counter_line_zero (JsonObject *root)
{
  JsonObject *c = json_array_get_object_element (json_object_get_array_member (measurement (root, 1), "line_counters"), 0);
  json_object_set_int_member (c, "line", 0);
}

static void
line_counter_bad_name (JsonObject *root)
{
  JsonObject *c = json_array_get_object_element (json_object_get_array_member (measurement (root, 1), "line_counters"), 1);
  json_object_set_string_member (c, "name", "sectors; rm -rf");
}

static void
test_huge_and_inconsistent (void)
{
  assert_mutation_refused (line_counter_line_zero, WS_RECORDING_ERROR_INVALID,
                           "measurements[1].line_counters[0].line: 0 is out of range");
  assert_mutation_refused (line_counter_bad_name, WS_RECORDING_ERROR_INVALID,
                           "measurements[1].line_counters[1]: name: not a counter's name");
  assert_mutation_refused (outcome_above_trials, WS_RECORDING_ERROR_INVALID,
                           "measurements[1].outcomes.stale data: 4097 is out of range (0 to 4096)");
  assert_mutation_refused (span_backwards, WS_RECORDING_ERROR_INVALID,
                           "measurements[1].timeline[1].end_ms: 0.125 is out of range");
  assert_mutation_refused (span_kind_unknown, WS_RECORDING_ERROR_INVALID,
                           "measurements[1].timeline[2]: kind: “teleport” is not");
  assert_mutation_refused (huge_median, WS_RECORDING_ERROR_INVALID, "measurements[0].median_ms: 1.5e+308 is out of range");
  assert_mutation_refused (huge_registers, WS_RECORDING_ERROR_INVALID,
                           "measurements[1].registers: 99999999999 is out of range");
  assert_mutation_refused (negative_bytes, WS_RECORDING_ERROR_INVALID, "measurements[1].bytes: -1 is out of range");
  assert_mutation_refused (median_above_max, WS_RECORDING_ERROR_INVALID,
                           "measurements[2]: min_ms ≤ median_ms ≤ max_ms does not hold");
  assert_mutation_refused (no_samples, WS_RECORDING_ERROR_INVALID, "measurements[0]: samples_ms: empty");
  assert_mutation_refused (bad_date, WS_RECORDING_ERROR_INVALID, "date: “yesterday” is not an ISO 8601 date");
  /* numbers JSON can write but no double holds */
  assert_refused ("{\"format\": \"warpscope-recording\", \"version\": 1e999}", -1, WS_RECORDING_ERROR_INVALID,
                  "version: expected an integer");
  /* json-glib wraps an integer too long for 64 bits (to -1 here): refused all the same */
  assert_refused ("{\"format\": \"warpscope-recording\", \"version\": 123456789012345678901234567890}", -1,
                  -1, "version:");
}

static void
test_bad_file_names_itself (void)
{
  g_autofree char *dir = temp_dir ();
  g_autofree char *path = g_build_filename (dir, "broken.json", NULL);
  g_autofree char *missing = g_build_filename (dir, "absent.json", NULL);
  g_autofree char *data = mutated (median_string);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GFile) absent = g_file_new_for_path (missing);
  g_autoptr (GError) error = NULL;
  g_autoptr (WsRecording) r = NULL;

  g_assert_true (g_file_set_contents (path, data, -1, NULL));
  r = ws_recording_load_file (file, NULL, &error);
  g_assert_null (r);
  g_assert_error (error, WS_RECORDING_ERROR, WS_RECORDING_ERROR_INVALID);
  g_assert_true (g_str_has_prefix (error->message, path));
  g_assert_nonnull (strstr (error->message, "measurements[0].median_ms"));
  g_clear_error (&error);
  r = ws_recording_load_file (absent, NULL, &error);
  g_assert_null (r);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  remove_dir (dir);
}

/* The recording in data/recordings, when the source tree has one, loads and
 * holds real, verified measurements. */
static void
test_bundled (void)
{
  g_autofree char *dir = g_build_filename (WS_SOURCE_DATADIR, "recordings", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (WsRecording) r = ws_recording_load_bundled (&error);

  if (r == NULL)
    {
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
      g_assert_nonnull (strstr (error->message, dir));
      g_test_skip ("no recording is bundled yet");
      return;
    }
  g_assert_no_error (error);
  g_assert_cmpstr (ws_recording_get_device (r)->name, !=, "");
  g_assert_cmpuint (ws_recording_get_n_measurements (r), >, 0);
  for (guint i = 0; i < ws_recording_get_n_measurements (r); i++)
    {
      const WsMeasurement *m = ws_recording_get_measurement (r, i);
      g_assert_true (m->verified);
      g_assert_cmpuint (m->samples_ms->len, >=, 10);
      g_assert_cmpfloat (m->min_ms, <=, m->median_ms);
      g_assert_cmpfloat (m->median_ms, <=, m->max_ms);
      g_assert_cmpfloat (m->median_ms, >, 0);
    }
}

/* Every bundled recording (the window offers each) is listed by name,
 * loads, and says which GPU made it; the one named WS_DEFAULT_RECORDING is
 * among them, and is the one loaded by default. */
static void
test_bundled_paths (void)
{
  g_auto (GStrv) paths = ws_recording_bundled_paths ();
  g_autofree char *elsewhere = g_build_filename (g_get_tmp_dir (), "h100.json", NULL);
  g_autofree char *default_path = ws_recording_bundled_default ();
  gboolean default_listed = FALSE;

  if (paths[0] == NULL)
    {
      g_assert_null (default_path);
      g_test_skip ("no recording is bundled yet");
      return;
    }
  for (guint i = 0; paths[i]; i++)
    {
      g_autoptr (GFile) file = g_file_new_for_path (paths[i]);
      g_autoptr (GError) error = NULL;
      g_autoptr (WsRecording) r = ws_recording_load_file (file, NULL, &error);

      g_test_message ("bundled: %s", paths[i]);
      g_assert_no_error (error);
      g_assert_true (g_str_has_suffix (paths[i], ".json"));
      g_assert_true (ws_recording_is_bundled (paths[i]));
      g_assert_cmpstr (ws_recording_get_device (r)->name, !=, "");
      if (i > 0)
        g_assert_cmpint (strcmp (paths[i - 1], paths[i]), <, 0);
      if (g_strcmp0 (paths[i], default_path) == 0)
        {
          g_autoptr (WsRecording) loaded = ws_recording_load_bundled (&error);
          g_autofree char *name = g_path_get_basename (paths[i]);

          g_assert_no_error (error);
          g_assert_cmpstr (name, ==, WS_DEFAULT_RECORDING);
          g_assert_cmpstr (ws_recording_get_device (loaded)->name, ==, ws_recording_get_device (r)->name);
          g_assert_cmpuint (ws_recording_get_n_measurements (loaded), ==, ws_recording_get_n_measurements (r));
          default_listed = TRUE;
        }
    }
  g_assert_true (default_listed);
  g_assert_false (ws_recording_is_bundled (elsewhere));
}

/* The default is found by its file's name wherever the recordings are;
 * where no file has that name (a package that left it out), the first. */
static void
test_default_among (void)
{
  const char *both[] = { "/usr/share/warpscope/recordings/h100.json",
                         "/usr/share/warpscope/recordings/h200.json", NULL };
  const char *without[] = { "/src/data/recordings/a100.json", "/src/data/recordings/h100.json", NULL };
  const char *near_miss[] = { "/src/h200.json.d/a.json", "/src/data/recordings/xh200.json", NULL };
  const char *none[] = { NULL };

  g_assert_true (ws_recording_default_among (both, "h200.json") == both[1]);
  g_assert_true (ws_recording_default_among (both, "h100.json") == both[0]);
  g_assert_true (ws_recording_default_among (without, "h200.json") == without[0]);
  g_assert_true (ws_recording_default_among (near_miss, "h200.json") == near_miss[0]);
  g_assert_null (ws_recording_default_among (none, "h200.json"));
}

/* Why the default is the default: it measured every kernel that any other
 * bundled recording did, so that nothing shows measured on one and not on
 * the one the program starts with. */
static void
test_bundled_default_covers (void)
{
  g_auto (GStrv) paths = ws_recording_bundled_paths ();
  g_autoptr (WsRecording) fallback = ws_recording_load_bundled (NULL);

  if (fallback == NULL)
    {
      g_test_skip ("no recording is bundled");
      return;
    }
  for (guint i = 0; paths[i]; i++)
    {
      g_autoptr (GFile) file = g_file_new_for_path (paths[i]);
      g_autoptr (GError) error = NULL;
      g_autoptr (WsRecording) r = ws_recording_load_file (file, NULL, &error);

      g_assert_no_error (error);
      for (guint m = 0; m < ws_recording_get_n_measurements (r); m++)
        {
          const char *id = ws_recording_get_measurement (r, m)->id;
          g_autoptr (GPtrArray) found = ws_recording_find (fallback, id);

          if (found->len == 0)
            g_error ("%s measured %s, the default bundled recording (%s) did not", paths[i], id,
                     WS_DEFAULT_RECORDING);
        }
    }
}

/* json-glib's parser recurses once per level: nesting is checked before it
 * sees the data, and only outside strings. */
static void
test_deep_nesting (void)
{
  g_autoptr (GString) s = g_string_new (NULL);
  g_autoptr (WsRecording) r = make_recording ();
  g_autofree char *data = ws_recording_to_data (r, NULL);
  g_autoptr (GString) quoted = g_string_new (NULL);
  g_autoptr (WsRecording) back = NULL;
  g_autoptr (GError) error = NULL;
  char *at;

  for (guint i = 0; i < 100000; i++)
    g_string_append_c (s, '[');
  assert_refused (s->str, -1, WS_RECORDING_ERROR_PARSE, "nest more than");
  g_string_truncate (s, 0);
  for (guint i = 0; i < 100000; i++)
    g_string_append (s, "{\"a\":");
  assert_refused (s->str, (gssize) s->len, WS_RECORDING_ERROR_PARSE, "nest more than");

  /* brackets in a string, escaped quotes included, are text */
  at = strstr (data, "seed 1");
  g_assert_nonnull (at);
  g_string_append_len (quoted, data, at - data);
  for (guint i = 0; i < 1000; i++)
    g_string_append (quoted, "[{\\\"");
  g_string_append (quoted, at);
  back = ws_recording_load_data (quoted->str, -1, &error);
  g_assert_no_error (error);
  g_assert_nonnull (back);
}

static void
add_many_params (JsonObject *root)
{
  JsonObject *params = json_object_get_object_member (measurement (root, 0), "params");

  for (guint i = 0; i < 200000; i++)
    {
      g_autofree char *name = g_strdup_printf ("p%u", i);
      json_object_set_int_member (params, name, i);
    }
}

static void
add_allowed_params (JsonObject *root)
{
  JsonObject *params = json_object_get_object_member (measurement (root, 0), "params");

  for (guint i = json_object_get_size (params); i < WS_RECORDING_MAX_PARAMS; i++)
    {
      g_autofree char *name = g_strdup_printf ("p%u", i);
      json_object_set_int_member (params, name, i);
    }
}

/* A measurement holds a bounded number of parameters: 200 000 of them are
 * refused with a message that says how many are allowed. */
static void
test_many_params (void)
{
  g_autofree char *allowed = mutated (add_allowed_params);
  g_autoptr (GError) error = NULL;
  g_autoptr (WsRecording) r = NULL;

  assert_mutation_refused (add_many_params, WS_RECORDING_ERROR_INVALID, "at most 64");
  r = ws_recording_load_data (allowed, -1, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ws_recording_get_measurement (r, 0)->params->len, ==, WS_RECORDING_MAX_PARAMS);
}

/* What is read can be written and read again: a lone UTF-16 surrogate
 * decodes to bytes that are not UTF-8, and a control character would reach
 * a terminal. Both are refused wherever a name or a string is read. */
static void
test_bad_text (void)
{
  static const struct { const char *from; const char *to; int code; const char *fragment; } cases[] = {
    { "\"N\" : 33554432", "\"\\ud800x\" : 33554432", WS_RECORDING_ERROR_INVALID,
      "params: the name number 1 is not a valid name" },
    { "\"N\" : 33554432", "\"a\\udfffb\" : 33554432", WS_RECORDING_ERROR_INVALID, "is not a valid name" },
    { "\"N\" : 33554432", "\"a b\" : 33554432", WS_RECORDING_ERROR_INVALID, "the name “a b” is not a valid name" },
    { "\"N\" : 33554432", "\"\\u001b[2J\" : 33554432", WS_RECORDING_ERROR_INVALID,
      "the name number 1 is not a valid name" },
    { "\"lts__t_sector_hit_rate.pct\"", "\"\\ud83dx\"", WS_RECORDING_ERROR_INVALID,
      "counters: the name number 2 is not a valid name" },
    { "\"out[i] = in[i + offset]; seed 1", "\"\\ud800 seed 1", WS_RECORDING_ERROR_INVALID, "description: not valid UTF-8" },
    { "\"out[i] = in[i + offset]; seed 1", "\"\\u001b]0;title\\u0007 seed 1", WS_RECORDING_ERROR_INVALID,
      "description: holds a control character" },
    /* json-glib's own message quotes the bytes it decoded */
    { "\"N\" : 33554432", "\"\\ud800\" : 33554432", WS_RECORDING_ERROR_PARSE, "not JSON" },
  };
  g_autoptr (WsRecording) r = make_recording ();
  g_autofree char *data = ws_recording_to_data (r, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const char *at = strstr (data, cases[i].from);
      g_autoptr (GString) bad = g_string_new (NULL);

      g_assert_nonnull (at);
      g_string_append_len (bad, data, at - data);
      g_string_append (bad, cases[i].to);
      g_string_append (bad, at + strlen (cases[i].from));
      assert_refused (bad->str, -1, cases[i].code, cases[i].fragment);
    }
}

/* Saving writes through a link to the recording, and a save that fails
 * (past the file-size limit: the disk is full) leaves the old file whole. */
static void
test_save_through_link_and_failure (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  g_autofree char *link = NULL;
  g_autoptr (GFile) through = NULL;
  g_autoptr (WsRecording) r = make_recording ();
  g_autoptr (WsRecording) big = make_recording ();
  g_autoptr (WsRecording) back = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  struct rlimit limit;
  gsize length = 0;

  if (!g_test_subprocess ())
    {
      g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
      g_test_trap_assert_passed ();
      return;
    }
  dir = temp_dir ();
  path = g_build_filename (dir, "kept.json", NULL);
  link = g_build_filename (dir, "link.json", NULL);
  through = g_file_new_for_path (link);
  g_assert_cmpint (symlink ("kept.json", link), ==, 0);
  g_assert_true (ws_recording_save_file (r, through, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_test (link, G_FILE_TEST_IS_SYMLINK));
  back = ws_recording_load_file (through, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &before, &length, NULL));

  for (guint i = 0; i < 200; i++)
    ws_recording_add (big, ws_recording_get_measurement (r, 0));
  ws_file_writer_init_process ();
  limit.rlim_cur = limit.rlim_max = length + 4096;
  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &limit), ==, 0);
  g_assert_false (ws_recording_save_file (big, through, NULL, &error));
  g_assert_nonnull (error);
  g_assert_true (g_file_get_contents (path, &after, NULL, NULL));
  g_assert_cmpstr (before, ==, after);
  g_assert_cmpuint (count_files (dir), ==, 2);
  remove_dir (dir);
}

/* The bundled recording's measurements are keyed by kernel id and
 * parameters: each preset it measured is found at the preset's defaults,
 * the sizes the model analyses. */
static void
test_bundled_matches_presets (void)
{
  g_autoptr (WsRecording) r = ws_recording_load_bundled (NULL);
  guint n;
  const WsPreset *presets = ws_presets_get_all (&n);

  if (r == NULL)
    {
      g_test_skip ("no recording is bundled");
      return;
    }
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (WsPattern) pattern = ws_preset_build (&presets[i]);
      g_autoptr (GPtrArray) all = ws_recording_find (r, presets[i].id);
      g_autoptr (GPtrArray) found = ws_recording_lookup_pattern (r, presets[i].id, pattern, presets[i].sweep_param);

      if (all->len > 0 && found->len == 0)
        g_error ("the bundled recording has %s, but not at the preset's sizes", presets[i].id);
      g_assert_cmpuint (found->len, ==, all->len);
    }
}

static void
set_flag_string (JsonObject *root)
{
  json_object_set_string_member (root, "not_measured_here", "yes");
}

/* A recording of numbers copied from another keeps the other's device and
 * date and says that they were not measured here; one without the flag
 * (every recording made before it) was measured where it was made. */
static void
test_copied (void)
{
  g_autoptr (WsRecording) r = make_recording ();
  g_autoptr (WsRecording) copy = ws_recording_new_copy_of (r);
  g_autoptr (WsRecording) back = NULL;
  g_autoptr (WsRecording) plain = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *data = NULL;
  g_autofree char *plain_data = ws_recording_to_data (r, NULL);

  ws_recording_add (copy, ws_recording_get_measurement (r, 0));
  g_assert_false (ws_recording_get_measured_here (copy));
  g_assert_true (g_date_time_equal (ws_recording_get_date (copy), ws_recording_get_date (r)));
  g_assert_cmpstr (ws_recording_get_device (copy)->name, ==, ws_recording_get_device (r)->name);
  data = ws_recording_to_data (copy, NULL);
  g_assert_nonnull (strstr (data, "\"not_measured_here\" : true"));
  back = ws_recording_load_data (data, -1, &error);
  g_assert_no_error (error);
  g_assert_false (ws_recording_get_measured_here (back));
  g_assert_true (g_date_time_equal (ws_recording_get_date (back), ws_recording_get_date (r)));

  g_assert_null (strstr (plain_data, "not_measured_here"));
  plain = ws_recording_load_data (plain_data, -1, &error);
  g_assert_true (ws_recording_get_measured_here (plain));
  assert_mutation_refused (set_flag_string, WS_RECORDING_ERROR_INVALID, "not_measured_here");
}

/* A line's counter, or the fallback where the measurement has none: for
 * another line, another name, or no line counters at all. */
static void
test_line_counter_or (void)
{
  g_autoptr (WsMeasurement) m = make_measurement ("coalescing/sequential", 1);
  g_autoptr (WsMeasurement) none = make_measurement ("coalescing/sequential", 0);

  ws_measurement_add_line_counter (m, 12, "smsp__sass_sectors_mem_global", 4);
  g_assert_cmpfloat (ws_measurement_get_line_counter_or (m, 12, "smsp__sass_sectors_mem_global", -1), ==, 4100);
  g_assert_cmpfloat (ws_measurement_get_line_counter_or (m, 14, WS_LINE_SHARED_WAVEFRONTS, 0),
                     ==, 32768);
  g_assert_cmpfloat (ws_measurement_get_line_counter_or (m, 13, "smsp__sass_sectors_mem_global", -1), ==, -1);
  g_assert_cmpfloat (ws_measurement_get_line_counter_or (m, 12, "smsp__sass_inst_executed_op_global_st", 0), ==, 0);
  g_assert_cmpfloat (ws_measurement_get_line_counter_or (none, 12, "smsp__sass_sectors_mem_global", 7.5), ==, 7.5);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/recording/round-trip/data", test_round_trip_data);
  g_test_add_func ("/recording/round-trip/file", test_round_trip_file);
  g_test_add_func ("/recording/round-trip/awkward-numbers", test_awkward_numbers);
  g_test_add_func ("/recording/round-trip/count", test_count_without_samples);
  g_test_add_func ("/recording/find", test_find);
  g_test_add_func ("/recording/save/keeps-old-file", test_save_keeps_old_file);
  g_test_add_func ("/recording/save/through-link-and-failure", test_save_through_link_and_failure);
  g_test_add_func ("/recording/bad/not-json", test_not_json);
  g_test_add_func ("/recording/bad/truncated", test_truncated);
  g_test_add_func ("/recording/bad/version", test_version);
  g_test_add_func ("/recording/bad/missing", test_missing);
  g_test_add_func ("/recording/bad/wrong-types", test_wrong_types);
  g_test_add_func ("/recording/bad/huge-and-inconsistent", test_huge_and_inconsistent);
  g_test_add_func ("/recording/bad/file-names-itself", test_bad_file_names_itself);
  g_test_add_func ("/recording/bundled", test_bundled);
  g_test_add_func ("/recording/bundled/paths", test_bundled_paths);
  g_test_add_func ("/recording/bundled/default-among", test_default_among);
  g_test_add_func ("/recording/bundled/default-covers", test_bundled_default_covers);
  g_test_add_func ("/recording/bad/deep-nesting", test_deep_nesting);
  g_test_add_func ("/recording/bad/many-params", test_many_params);
  g_test_add_func ("/recording/bad/text", test_bad_text);
  g_test_add_func ("/recording/copied", test_copied);
  g_test_add_func ("/recording/line-counter-or", test_line_counter_or);
  g_test_add_func ("/recording/bundled/matches-presets", test_bundled_matches_presets);
  return g_test_run ();
}
