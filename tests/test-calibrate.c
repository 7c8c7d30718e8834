/* SPDX-License-Identifier: GPL-3.0-or-later */
/* warpscope-cli calibrate and what it is made of: without a GPU, one line
 * that names what is missing and exit status 3; a calibration over the
 * shipped profile or over defaults makes a profile the loader takes, that
 * says where each field came from; on a GPU, the microkernels' numbers are
 * plausible, quickly (the GPU cases skip without one). */
#include "ws-config.h"
#include "ws-device-calibrate.h"
#include "ws-device-json.h"

#include <glib/gstdio.h>
#include <string.h>

static int
run_cli (char **out,
         char **err,
         ...)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GSubprocess) proc = NULL;
  g_autoptr (GError) error = NULL;
  const char *arg;
  va_list args;

  g_ptr_array_add (argv, (char *) g_getenv ("WS_CLI"));
  va_start (args, err);
  for (arg = va_arg (args, const char *); arg; arg = va_arg (args, const char *))
    g_ptr_array_add (argv, (char *) arg);
  va_end (args);
  g_ptr_array_add (argv, NULL);
  proc = g_subprocess_newv ((const char *const *) argv->pdata,
                            G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_communicate_utf8 (proc, NULL, NULL, out, err, &error));
  g_assert_no_error (error);
  g_test_message ("stdout: %s\nstderr: %s", *out, *err);
  return g_subprocess_get_exit_status (proc);
}

static gboolean
have_gpu (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WsDeviceInfo) info = ws_gpu_probe (&error);

  return info != NULL;
}

static gboolean
have_cli (void)
{
  if (g_getenv ("WS_CLI") == NULL)
    {
      g_test_skip ("WS_CLI does not name warpscope-cli");
      return FALSE;
    }
  return TRUE;
}

static void
test_no_gpu (void)
{
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *saved = NULL;
  g_autoptr (GError) error = NULL;

  if (!have_cli ())
    return;
  if (have_gpu ())
    {
      g_test_skip ("a GPU is here");
      return;
    }
  dir = g_dir_make_tmp ("ws-calibrate-XXXXXX", &error);
  g_assert_no_error (error);
  saved = g_strconcat (dir, "/", NULL);
  g_assert_cmpint (run_cli (&out, &err, "calibrate", "-o", saved, NULL), ==, 3);
  /* one line, naming what is missing */
  g_assert_true (g_str_has_prefix (err, "warpscope-cli calibrate: no usable GPU: "));
  g_assert_cmpstr (strchr (err, '\n'), ==, "\n");
  g_assert_true (strstr (err, "driver") || strstr (err, "CUDA") || strstr (err, "device") || strstr (err, "GPU"));
  g_assert_cmpstr (out, ==, "");
  /* and nothing saved */
  {
    g_autoptr (GDir) d = g_dir_open (dir, 0, &error);
    g_assert_no_error (error);
    g_assert_null (g_dir_read_name (d));
  }
  g_rmdir (dir);
}

static void
test_usage (void)
{
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *out2 = NULL;
  g_autofree char *err2 = NULL;

  if (!have_cli ())
    return;
  g_assert_cmpint (run_cli (&out, &err, "calibrate", "extra", NULL), ==, 2);
  g_assert_nonnull (strstr (err, "unexpected argument"));
  g_assert_cmpint (run_cli (&out2, &err2, "calibrate", "--base", "no-such-device", NULL), ==, 2);
  g_assert_true (g_str_has_prefix (err2, "warpscope-cli calibrate: --base: "));
}

/* The profile shipped for id: installed or in the source tree, or, where
 * the test runs from a copy of the repository (a GPU machine), there. */
static WsDeviceProfile *
shipped_profile (const char *id)
{
  g_autofree char *file = g_strconcat (id, ".json", NULL);
  g_autofree char *here = g_build_filename ("data", "devices", file, NULL);
  WsDeviceProfile *p = ws_device_profile_find (id, NULL);

  if (p == NULL && g_file_test (here, G_FILE_TEST_IS_REGULAR))
    p = ws_device_profile_load (here, NULL);
  return p;
}

/* What a calibration of an H200 could say. */
static WsCalibration *
fake_calibration (double dram_read)
{
  WsCalibration *c = ws_calibration_new ("NVIDIA H200", NULL);
  const struct
  {
    const char *field;
    double value;
    const char *how;
  } values[] = {
    { "sms", 132, "queried: multiProcessorCount" },
    { "l2_bytes", 62914560, "queried: l2CacheSize" },
    { "sm_clock_mhz", 1900, "measured: clock64 ()" },
    { "dram_read_bytes_per_s", dram_read, "measured: streaming loads" },
    { "launch_us", 3.2, "measured: an empty kernel" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    {
      WsCalibrated v = { values[i].field, values[i].value, g_strdup (values[i].how) };
      g_array_append_val (c->values, v);
    }
  return c;
}

static WsDeviceProfile *
through_the_loader (const WsCalibratedProfile *cp,
                    JsonNode                 **calibration)
{
  g_autofree char *text = ws_calibrated_profile_to_data (cp);
  g_autoptr (GError) error = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  WsDeviceProfile *p = ws_device_profile_from_data (text, -1, "calibrated", &error);

  g_assert_no_error (error);
  g_assert_true (json_parser_load_from_data (parser, text, -1, &error));
  /* it says what it is first */
  g_assert_true (g_str_has_prefix (text, "{\n  \"format\" : \"warpscope-device-profile\",\n  \"version\" : 1,"));
  *calibration = json_node_copy (json_object_get_member (json_node_get_object (json_parser_get_root (parser)),
                                                         "calibration"));
  g_assert_nonnull (*calibration);
  return p;
}

static void
test_over_shipped (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WsDeviceProfile) shipped = shipped_profile ("nvidia-h200");
  g_autoptr (WsCalibration) c = fake_calibration (4.5e12);
  g_autoptr (WsCalibration) back = NULL;
  g_autoptr (WsCalibratedProfile) cp = NULL;
  g_autoptr (WsDeviceProfile) p = NULL;
  g_autoptr (JsonNode) calibration = NULL;
  g_autoptr (JsonNode) wire = NULL;
  JsonObject *fields;
  JsonArray *measured;

  if (shipped == NULL)
    {
      g_test_skip ("data/devices/nvidia-h200.json is not here");
      return;
    }
  /* as the worker sends it */
  wire = ws_calibration_to_json (c);
  back = ws_calibration_from_json (wire, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (back->values->len, ==, c->values->len);

  cp = ws_calibrated_profile_new (back, shipped, "data/devices/nvidia-h200.json", "2026-11-24 02:00 UTC", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (cp->notes->len, ==, 0);
  p = through_the_loader (cp, &calibration);
  g_assert_cmpstr (p->id, ==, "nvidia-h200");
  g_assert_cmpfloat (p->dram_read_bytes_per_s, ==, 4.5e12);
  g_assert_cmpfloat (p->launch_us, ==, 3.2);
  g_assert_cmpfloat (p->sm_clock_mhz, ==, 1900);
  /* what was not measured is the shipped profile's */
  g_assert_cmpfloat (p->dram_write_bytes_per_s, ==, shipped->dram_write_bytes_per_s);
  g_assert_cmpuint (p->l2_reuse_bytes, ==, shipped->l2_reuse_bytes);
  g_assert_cmpuint (p->n_carveouts, ==, shipped->n_carveouts);
  g_assert_true (g_str_has_prefix (p->source, "calibrated on 2026-11-24"));
  g_assert_nonnull (strstr (p->source, "data/devices/nvidia-h200.json"));

  /* and the file says which is which */
  measured = json_object_get_array_member (json_node_get_object (calibration), "measured");
  g_assert_cmpuint (json_array_get_length (measured), ==, 5);
  fields = json_object_get_object_member (json_node_get_object (calibration), "fields");
  g_assert_cmpstr (json_object_get_string_member (fields, "dram_read_bytes_per_s"), ==, "measured: streaming loads");
  g_assert_cmpstr (json_object_get_string_member (fields, "sms"), ==, "queried: multiProcessorCount");
  g_assert_cmpstr (json_object_get_string_member (fields, "dram_write_bytes_per_s"), ==,
                   "from data/devices/nvidia-h200.json");
}

static void
test_over_defaults (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WsCalibration) c = fake_calibration (2e12);
  g_autoptr (WsCalibratedProfile) cp = NULL;
  g_autoptr (WsDeviceProfile) p = NULL;
  g_autoptr (JsonNode) calibration = NULL;
  JsonObject *fields;

  g_free (c->name);
  c->name = g_strdup ("NVIDIA Future GPU 9000");
  cp = ws_calibrated_profile_new (c, NULL, NULL, "2026-11-24 02:00 UTC", &error);
  g_assert_no_error (error);
  p = through_the_loader (cp, &calibration);
  g_assert_cmpstr (p->id, ==, "nvidia-future-gpu-9000");
  g_assert_cmpfloat (p->dram_read_bytes_per_s, ==, 2e12);
  g_assert_cmpuint (p->sms, ==, 132);
  g_assert_cmpuint (p->l2_reuse_bytes, <=, p->l2_bytes);
  fields = json_object_get_object_member (json_node_get_object (calibration), "fields");
  g_assert_true (g_str_has_prefix (json_object_get_string_member (fields, "dram_write_bytes_per_s"), "default"));
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (calibration), "base"), ==, "defaults");
}

static void
test_out_of_range_kept (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WsDeviceProfile) shipped = shipped_profile ("nvidia-h200");
  g_autoptr (WsCalibration) c = fake_calibration (1e20);
  g_autoptr (WsCalibratedProfile) cp = NULL;

  if (shipped == NULL)
    {
      g_test_skip ("data/devices/nvidia-h200.json is not here");
      return;
    }
  cp = ws_calibrated_profile_new (c, shipped, "data/devices/nvidia-h200.json", "today", &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (cp->profile->dram_read_bytes_per_s, ==, shipped->dram_read_bytes_per_s);
  g_assert_cmpuint (cp->notes->len, ==, 1);
  g_assert_nonnull (strstr (g_ptr_array_index (cp->notes, 0), "dram_read_bytes_per_s"));
}

/* A worker that answers an absurd SM count (a fuzzer found 4.6e12, which
 * overflowed the default profile's unsigned count) gets the defaults' value
 * and a note, not undefined behaviour. */
static void
test_out_of_range_over_defaults (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WsCalibration) c = fake_calibration (2e12);
  g_autoptr (WsCalibratedProfile) cp = NULL;
  WsCalibrated *sms = NULL;

  for (guint i = 0; i < c->values->len; i++)
    if (g_strcmp0 (g_array_index (c->values, WsCalibrated, i).field, "sms") == 0)
      sms = &g_array_index (c->values, WsCalibrated, i);
  g_assert_nonnull (sms);
  sms->value = 4.6e12;
  g_free (c->name);
  c->name = g_strdup ("NVIDIA Future GPU 9000");
  cp = ws_calibrated_profile_new (c, NULL, NULL, "today", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (cp->profile->sms, ==, 80);
  g_assert_cmpuint (cp->notes->len, ==, 1);
  g_assert_nonnull (strstr (g_ptr_array_index (cp->notes, 0), "sms"));
}

static void
test_unknown_field_refused (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (JsonNode) node = json_from_string ("{\"name\": \"x\", \"values\": [{\"field\": \"rm -rf\", \"value\": 1}]}",
                                                &error);
  g_autoptr (WsCalibration) c = NULL;

  g_assert_no_error (error);
  c = ws_calibration_from_json (node, &error);
  g_assert_null (c);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
}

/* found by fuzz-worker-answer: a lone surrogate decodes to text that is not
 * UTF-8, which the profile written from it would carry */
static void
test_text_refused (void)
{
  /* as the fuzzer had it: json-glib takes the quote after the surrogate
   * for its other half, and the string goes on */
  const char *replies[] = {
    "{\"name\": \"NVIDIA H200\", \"values\": [{\"field\": \"sms\", \"value\": 132, \"how\": \"\\ud800\":loads\"}]}",
    "{\"name\": \"\\ud800\":x\", \"values\": []}",
    /* members of the wrong kind: refused, with no critical from json-glib
     * (fuzz/corpus/worker-answer/calibration-field-object) */
    "{\"name\": \"NVIDIA H200\", \"values\": [{\"field\": {\"x\": 1}, \"value\": 1}]}",
    "{\"name\": \"NVIDIA H200\", \"values\": [{\"field\": \"sms\", \"value\": 1, \"how\": [\"a\"]}]}",
    "{\"name\": [1], \"values\": []}",
  };

  for (guint i = 0; i < G_N_ELEMENTS (replies); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (JsonNode) node = json_from_string (replies[i], &error);
      g_autoptr (WsCalibration) c = NULL;

      g_assert_no_error (error);
      c = ws_calibration_from_json (node, &error);
      g_assert_null (c);
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
    }
}

/* A file that says it is something else is refused; one that does not say
 * (the first profiles) is read. */
static void
test_format (void)
{
  const char *other = "{\"format\": \"warpscope-recording\", \"version\": 1, \"profile\": {\"id\": \"x\"}}";
  const char *wrong_kind = "{\"format\": 7, \"version\": 1, \"profile\": {\"id\": \"x\"}}";
  g_autoptr (WsDeviceProfile) shipped = shipped_profile ("nvidia-h200");
  g_autoptr (JsonNode) node = NULL;
  g_autoptr (WsDeviceProfile) old = NULL;
  g_autofree char *text = NULL;
  g_autofree char *unsaid = NULL;
  g_autoptr (GError) error = NULL;

  for (guint i = 0; i < 2; i++)
    {
      g_autoptr (GError) refused = NULL;

      g_assert_null (ws_device_profile_from_data (i == 0 ? other : wrong_kind, -1, "f.json", &refused));
      g_assert_error (refused, WS_DEVICE_PROFILE_ERROR, 0);
      g_assert_cmpstr (refused->message, ==, "f.json: format: not “warpscope-device-profile”: not a Warpscope device profile");
    }

  g_assert_nonnull (shipped);
  node = ws_device_profile_to_json (shipped);
  text = json_to_string (node, FALSE);
  g_assert_true (g_str_has_prefix (text, "{\"format\":\"warpscope-device-profile\",\"version\":1,"));
  unsaid = g_strconcat ("{", text + strlen ("{\"format\":\"warpscope-device-profile\","), NULL);
  old = ws_device_profile_from_data (unsaid, -1, "old.json", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (old->sms, ==, shipped->sms);
}

/* ------------------------------------------------------------------ */
/* On a GPU                                                           */
/* ------------------------------------------------------------------ */

static void
test_gpu (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WsDeviceInfo) info = ws_gpu_probe (&error);
  g_autoptr (GArray) values = NULL;
  g_autoptr (WsCalibration) c = NULL;
  g_autoptr (WsDeviceProfile) shipped = NULL;
  g_autoptr (WsCalibratedProfile) cp = NULL;
  g_autoptr (WsDeviceProfile) p = NULL;
  g_autofree char *slug = NULL;
  g_autofree char *path = NULL;
  g_autofree char *text = NULL;
  gint64 start;
  double seconds, peak;

  if (info == NULL)
    {
      g_test_skip (error->message);
      return;
    }
  start = g_get_monotonic_time ();
  values = ws_gpu_calibrate (NULL, NULL, NULL, &error);
  seconds = (g_get_monotonic_time () - start) / 1e6;
  g_assert_no_error (error);
  g_test_message ("calibrated %s in %.1f s", info->name, seconds);
  g_assert_cmpfloat (seconds, <, 30);

  c = ws_calibration_new (info->name, values);
  slug = ws_device_slug (info->name);
  shipped = shipped_profile (slug);
  cp = ws_calibrated_profile_new (c, shipped, slug, "now", &error);
  g_assert_no_error (error);
  for (guint i = 0; i < cp->notes->len; i++)
    g_test_message ("note: %s", (char *) g_ptr_array_index (cp->notes, i));
  g_assert_cmpuint (cp->notes->len, ==, 0);

  /* saved and loaded again, by the loader the model uses */
  path = g_build_filename (g_get_tmp_dir (), "ws-test-calibrate.json", NULL);
  text = ws_calibrated_profile_to_data (cp);
  g_assert_true (g_file_set_contents (path, text, -1, &error));
  p = ws_device_profile_load (path, &error);
  g_assert_no_error (error);
  g_unlink (path);

  for (guint i = 0; i < values->len; i++)
    {
      const WsCalibrated *v = &g_array_index (values, WsCalibrated, i);
      g_test_message ("%-32s %14.4g  %s", v->field, v->value, v->how);
    }
  g_assert_cmpuint (p->sms, ==, info->sm_count);
  g_assert_cmpuint (p->l2_bytes, ==, info->l2_bytes);
  /* DRAM: most of what the bus can move, and no more */
  peak = info->peak_bandwidth_gbs * 1e9;
  g_assert_cmpfloat (p->dram_read_bytes_per_s, >, 0.4 * peak);
  g_assert_cmpfloat (p->dram_read_bytes_per_s, <, 1.1 * peak);
  g_assert_cmpfloat (p->dram_write_bytes_per_s, >, 0.3 * peak);
  g_assert_cmpfloat (p->dram_write_bytes_per_s, <, 1.1 * peak);
  /* L2 serves faster than DRAM */
  g_assert_cmpfloat (p->l2_sectors_per_s * 32, >, p->dram_read_bytes_per_s);
  /* about a cycle a line, a wavefront */
  g_assert_cmpfloat (p->l1_cycles_per_line, >, 0.25);
  g_assert_cmpfloat (p->l1_cycles_per_line, <, 8);
  g_assert_cmpfloat (p->shared_cycles_per_wavefront, >, 0.25);
  g_assert_cmpfloat (p->shared_cycles_per_wavefront, <, 8);
  /* distinct constant addresses cost something */
  g_assert_cmpfloat (p->constant_cycles_per_address, >, 0.1);
  g_assert_cmpfloat (p->launch_us, >, 0.5);
  g_assert_cmpfloat (p->launch_us, <, 50);
  g_assert_cmpfloat (p->pcie_pinned_bytes_per_s, >, 1e9);
  g_assert_cmpfloat (p->pcie_pageable_bytes_per_s, >, 1e8);
  g_assert_cmpfloat (p->block_ns, >, 1);
  /* a message between blocks goes through L2: longer than an L1 hit's
   * round trip, and well under the time a wait gives up after */
  g_assert_cmpfloat (p->message_ns, >, 50);
  g_assert_cmpfloat (p->message_ns, <, 20000);
}

/* The whole command, through the GPU worker, into a folder. */
static void
test_gpu_cli (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WsDeviceInfo) info = ws_gpu_probe (&error);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *saved = NULL;
  g_autofree char *slug = NULL;
  g_autofree char *file = NULL;
  g_autoptr (WsDeviceProfile) p = NULL;

  if (info == NULL)
    {
      g_test_skip (error->message);
      return;
    }
  if (!have_cli ())
    return;
  dir = g_dir_make_tmp ("ws-calibrate-XXXXXX", &error);
  g_assert_no_error (error);
  saved = g_strconcat (dir, "/", NULL);
  g_assert_cmpint (run_cli (&out, &err, "calibrate", "-o", saved, NULL), ==, 0);
  g_assert_nonnull (strstr (out, "dram_read_bytes_per_s"));
  slug = ws_device_slug (info->name);
  file = g_strdup_printf ("%s/%s.json", dir, slug);
  p = ws_device_profile_load (file, &error);
  g_assert_no_error (error);
  g_assert_true (g_str_has_prefix (p->source, "calibrated on "));
  g_unlink (file);
  g_rmdir (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/calibrate/no-gpu", test_no_gpu);
  g_test_add_func ("/calibrate/usage", test_usage);
  g_test_add_func ("/calibrate/over-shipped", test_over_shipped);
  g_test_add_func ("/calibrate/over-defaults", test_over_defaults);
  g_test_add_func ("/calibrate/out-of-range-kept", test_out_of_range_kept);
  g_test_add_func ("/calibrate/out-of-range-over-defaults", test_out_of_range_over_defaults);
  g_test_add_func ("/calibrate/unknown-field-refused", test_unknown_field_refused);
  g_test_add_func ("/calibrate/text-refused", test_text_refused);
  g_test_add_func ("/calibrate/format", test_format);
  g_test_add_func ("/calibrate/gpu", test_gpu);
  g_test_add_func ("/calibrate/gpu-cli", test_gpu_cli);
  return g_test_run ();
}
