/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Patterns, measurements and devices cross to the GPU worker as JSON: each
 * must come back the same, and a bad message must say what is wrong. */
#include "ws-model-json.h"
#include "ws-json.h"
#include "ws-presets.h"
#include "ws-recording.h"

#include <string.h>

static void
test_every_preset_round_trips (void)
{
  guint n;
  const WsPreset *presets = ws_presets_get_all (&n);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr (WsPattern) p = ws_preset_build (&presets[i]);
      g_autoptr (JsonNode) node = ws_pattern_to_json (p);
      g_autoptr (GError) error = NULL;
      g_autoptr (WsPattern) back = ws_pattern_from_json (node, &error);
      g_autofree char *a = ws_pattern_to_string (p);
      g_autofree char *b = NULL;
      g_autoptr (JsonNode) again = NULL;

      g_assert_no_error (error);
      b = ws_pattern_to_string (back);
      g_assert_cmpstr (a, ==, b);
      /* ranges come along: the same JSON again */
      again = ws_pattern_to_json (back);
      g_assert_true (json_node_equal (node, again));
    }
}

static void
test_elem_size_binding_survives (void)
{
  g_autoptr (WsPattern) p = ws_preset_build (ws_preset_lookup ("alignment/elem-size"));
  g_autoptr (JsonNode) node = ws_pattern_to_json (p);
  g_autoptr (WsPattern) back = ws_pattern_from_json (node, NULL);

  g_assert_true (ws_pattern_set_param (back, "elem_size", 16, NULL));
  g_assert_cmpuint (ws_pattern_get_access (back, 0)->elem_size, ==, 16);
}

static void
test_bad_patterns (void)
{
  struct { const char *json; const char *fragment; } cases[] = {
    { "[]", "expected an object" },
    { "{\"grid\": [1,1,1]}", "block: missing" },
    { "{\"block\": [0,1,1], \"grid\": [1,1,1]}", "three positive integers" },
    { "{\"block\": [32,1,1], \"grid\": [1,1,1], \"params\": [{\"name\": \"N\", \"value\": \"x\", \"min\": 0, \"max\": 9}]}",
      "params[0].value: expected an integer" },
    { "{\"block\": [32,1,1], \"grid\": [1,1,1], \"params\": [], \"definitions\": [{\"name\": \"i\", \"expr\": \"1 +\"}]}",
      "definition of i: column 4" },
    { "{\"block\": [32,1,1], \"grid\": [1,1,1], \"params\": [], \"definitions\": [], \"accesses\": "
      "[{\"array\": \"a\", \"space\": \"moon\", \"access\": \"load\", \"elem_size\": 4, \"index\": \"0\", \"base\": 0}]}",
      "accesses[0]: unknown memory space" },
    { "{\"block\": [32,1,1], \"grid\": [1,1,1], \"params\": [], \"definitions\": [], \"accesses\": []}",
      "no memory access" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (JsonNode) node = json_from_string (cases[i].json, NULL);
      g_autoptr (GError) error = NULL;
      WsPattern *p = ws_pattern_from_json (node, &error);

      g_test_message ("%s → %s", cases[i].json, error ? error->message : "(accepted)");
      g_assert_null (p);
      g_assert_nonnull (error);
      g_assert_nonnull (strstr (error->message, cases[i].fragment));
    }
}

static void
test_measurement_and_device (void)
{
  g_autoptr (WsMeasurement) m = ws_measurement_new ("banks/stride");
  g_autoptr (WsDeviceInfo) d = ws_device_info_new ();
  g_autoptr (JsonNode) mj = NULL;
  g_autoptr (JsonNode) dj = NULL;
  g_autoptr (WsMeasurement) m2 = NULL;
  g_autoptr (WsDeviceInfo) d2 = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (JsonNode) bad = json_from_string ("{\"id\": \"x\"}", NULL);

  m->description = g_strdup ("s[threadIdx.x * stride]");
  ws_measurement_set_param (m, "stride", 4);
  for (guint i = 0; i < 12; i++)
    ws_measurement_add_sample (m, 0.01 + i * 1e-5);
  m->bytes = 4096;
  ws_measurement_summarize (m);
  ws_measurement_add_counter (m, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", 4224);
  m->warning = g_strdup ("counters: not permitted");
  mj = ws_measurement_to_json (m);
  m2 = ws_measurement_from_json (mj, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (m2->id, ==, m->id);
  g_assert_cmpuint (m2->samples_ms->len, ==, 12);
  g_assert_cmpfloat (m2->median_ms, ==, m->median_ms);
  g_assert_cmpstr (m2->warning, ==, m->warning);
  g_assert_true (ws_measurement_get_counter (m2, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", NULL));

  d->name = g_strdup ("NVIDIA H100 80GB HBM3");
  d->cc_major = 9;
  d->sm_count = 132;
  d->driver_version = g_strdup ("13.0");
  d->runtime_version = g_strdup ("13.0");
  dj = ws_device_info_to_json (d);
  d2 = ws_device_info_from_json (dj, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (d2->name, ==, d->name);
  g_assert_cmpint (d2->sm_count, ==, 132);

  g_assert_null (ws_measurement_from_json (bad, &error));
  g_assert_nonnull (strstr (error->message, "measurement"));
}

/* JSON text for people and scripts: each fraction in the shortest form
 * that reads back as the same double; integers and strings as they are. */
static void
test_shortest_numbers (void)
{
  static const double values[] = { 3352.32, 0.1, 1e-7, 3.0, -2.5e300, 0.23390987586206896, 1.0 / 3 };
  g_autoptr (JsonBuilder) b = json_builder_new ();
  g_autoptr (JsonNode) root = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  g_autofree char *text = NULL;
  JsonArray *back;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "values");
  json_builder_begin_array (b);
  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    json_builder_add_double_value (b, values[i]);
  json_builder_add_int_value (b, 42);
  json_builder_add_string_value (b, "1.50000000000000001 \" 2.0");
  json_builder_end_array (b);
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  text = ws_json_to_text (root, FALSE);
  g_test_message ("%s", text);
  g_assert_cmpstr (text, ==, "{\"values\":[3352.32,0.1,1e-07,3.0,-2.5e+300,0.23390987586206896,"
                             "0.3333333333333333,42,\"1.50000000000000001 \\\" 2.0\"]}");
  g_assert_true (json_parser_load_from_data (parser, text, -1, &error));
  g_assert_no_error (error);
  back = json_node_get_array (json_object_get_member (json_node_get_object (json_parser_get_root (parser)), "values"));
  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    g_assert_cmpfloat (json_array_get_double_element (back, i), ==, values[i]);
  g_assert_cmpint (json_array_get_int_element (back, G_N_ELEMENTS (values)), ==, 42);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/model-json/presets-round-trip", test_every_preset_round_trips);
  g_test_add_func ("/model-json/shortest-numbers", test_shortest_numbers);
  g_test_add_func ("/model-json/elem-size-binding", test_elem_size_binding_survives);
  g_test_add_func ("/model-json/bad-patterns", test_bad_patterns);
  g_test_add_func ("/model-json/measurement-and-device", test_measurement_and_device);
  return g_test_run ();
}
