/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "ws-analysis.h"
#include "ws-presets.h"

#include <string.h>

/* ids other parts of the program (kernels, recordings, docs) rely on */
static const char *required[] = {
  "coalescing/sequential", "coalescing/permuted", "coalescing/offset", "coalescing/stride",
  "coalescing/broadcast", "transpose/copy", "transpose/read-coalesced", "transpose/write-coalesced",
  "transpose/ldg", "transpose/shared", "transpose/shared-padded", "banks/stride", "constant/distinct",
  "private-array/static", "private-array/uniform-local", "private-array/nonuniform-local",
  "private-array/nonuniform-shared", "unified/managed", "unified/prefetch", "occupancy/saturation",
  "merge/sort-hybrid", "fences/last-block", "fences/spin-plain", "readonly/stencil-texture", "ilp/loads",
  "l2/hot-size",
};

static void
test_ids (void)
{
  guint n;
  const WsPreset *presets = ws_presets_get_all (&n);
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; i < n; i++)
    {
      g_assert_false (g_hash_table_contains (seen, presets[i].id));
      g_hash_table_add (seen, (gpointer) presets[i].id);
      g_assert_nonnull (ws_topic_lookup (presets[i].topic));
      g_assert_true (g_str_has_prefix (presets[i].id, presets[i].topic));
      g_assert_cmpuint (strlen (presets[i].title), >, 3);
      g_assert_cmpuint (strlen (presets[i].summary), >, 60);
    }
  for (guint i = 0; i < G_N_ELEMENTS (required); i++)
    g_assert_nonnull (ws_preset_lookup (required[i]));
}

static void
test_topics_covered (void)
{
  guint n_topics, n;
  const WsTopic *topics = ws_topics_get_all (&n_topics);
  const WsPreset *presets = ws_presets_get_all (&n);

  g_assert_cmpuint (n_topics, ==, 15);
  for (guint t = 0; t < n_topics; t++)
    {
      guint count = 0;
      for (guint i = 0; i < n; i++)
        count += strcmp (presets[i].topic, topics[t].id) == 0;
      g_test_message ("%s: %u presets", topics[t].id, count);
      g_assert_cmpuint (count, >=, 2);
    }
}

static void
test_every_preset_analyses (gconstpointer data)
{
  const WsPreset *preset = data;
  g_autoptr (WsPattern) p = ws_preset_build (preset);
  g_autoptr (GError) error = NULL;
  g_autoptr (WsLaunchStats) s = NULL;

  g_assert_true (ws_pattern_validate (p, &error));
  s = ws_model_analyze_launch (p, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (s->n_accesses, ==, ws_pattern_get_n_accesses (p));
  g_assert_cmpuint (s->total.active_lanes, >, 0);

  /* its standard sweep parses, names a parameter, and every point analyses */
  if (preset->sweep_param)
    {
      g_autoptr (GArray) values = ws_sweep_values_parse (preset->sweep_values, &error);

      g_assert_no_error (error);
      g_assert_true (ws_pattern_get_param (p, preset->sweep_param, NULL));
      for (guint i = 0; i < values->len; i++)
        {
          g_autoptr (WsPattern) q = ws_pattern_copy (p);
          g_autoptr (WsLaunchStats) qs = NULL;

          g_assert_true (ws_pattern_set_param (q, preset->sweep_param, g_array_index (values, gint64, i), &error));
          qs = ws_model_analyze_launch (q, NULL, &error);
          g_assert_no_error (error);
        }
    }
}

static void
test_sweep_values (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) a = ws_sweep_values_parse ("1:9:4", &error);
  g_autoptr (GArray) b = ws_sweep_values_parse ("1, 2,8", &error);
  GArray *c;

  g_assert_no_error (error);
  g_assert_cmpuint (a->len, ==, 3);
  g_assert_cmpint (g_array_index (a, gint64, 2), ==, 9);
  g_assert_cmpuint (b->len, ==, 3);
  g_assert_cmpint (g_array_index (b, gint64, 2), ==, 8);
  c = ws_sweep_values_parse ("5:1", &error);
  g_assert_null (c);
  g_clear_error (&error);
  c = ws_sweep_values_parse ("1:x", &error);
  g_assert_null (c);
  g_clear_error (&error);
  c = ws_sweep_values_parse ("1:1000000000", &error);
  g_assert_null (c);
}

/* Ranges at the ends of 64 bits: no overflow computing how many values there
 * are, nor stepping past the last one; a list is bounded like a range. */
static void
test_sweep_values_extremes (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) top = ws_sweep_values_parse ("9223372036854775800:9223372036854775807:3", &error);
  g_autoptr (GString) many = g_string_new ("1");
  GArray *refused;

  g_assert_no_error (error);
  g_assert_cmpuint (top->len, ==, 3);
  g_assert_cmpint (g_array_index (top, gint64, 2), ==, G_GINT64_CONSTANT (9223372036854775806));
  refused = ws_sweep_values_parse ("-9223372036854775808:9223372036854775807", &error);
  g_assert_null (refused);
  g_assert_nonnull (strstr (error->message, "at most 100000 values"));
  g_clear_error (&error);
  for (guint i = 0; i < 100000; i++)
    g_string_append (many, ",1");
  refused = ws_sweep_values_parse (many->str, &error);
  g_assert_null (refused);
  g_assert_nonnull (strstr (error->message, "at most 100000 values"));
  g_clear_error (&error);
  /* what was typed is quoted as text */
  refused = ws_sweep_values_parse ("1,\x1b[2J\xff", &error);
  g_assert_null (refused);
  g_assert_true (g_utf8_validate (error->message, -1, NULL));
  g_assert_nonnull (strstr (error->message, "“\\x1b[2J\xef\xbf\xbd” is not an integer"));
}

/* What a measurement shows against a preset's text is said in the text:
 * a title that says "padded" opens padded; the broadcast, least coalesced
 * yet fastest, says why; the copy, beaten by the padded transpose, says it
 * bounds the traffic, not the time. */
static void
test_lessons_say_why (void)
{
  guint n;
  const WsPreset *presets = ws_presets_get_all (&n);
  const WsPreset *broadcast = ws_preset_lookup ("coalescing/broadcast");
  const WsPreset *copy = ws_preset_lookup ("transpose/copy");

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *title = g_utf8_strdown (presets[i].title, -1);

      if (strstr (title, "padded") == NULL)
        continue;
      for (guint k = 0; k < G_N_ELEMENTS (presets[i].params) && presets[i].params[k].name; k++)
        if (g_str_equal (presets[i].params[k].name, "pad"))
          g_assert_cmpint (presets[i].params[k].value, >, 0);
    }
  g_assert_nonnull (strstr (broadcast->summary, "12.5 %"));
  g_assert_nonnull (strstr (broadcast->summary, "fastest"));
  g_assert_nonnull (strstr (copy->summary, "not a bound of the time"));
  g_assert_nonnull (strstr (copy->summary, "padded tile beats this copy"));
}

int
main (int    argc,
      char **argv)
{
  guint n;
  const WsPreset *presets;

  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/presets/ids", test_ids);
  g_test_add_func ("/presets/topics", test_topics_covered);
  g_test_add_func ("/presets/sweep-values", test_sweep_values);
  g_test_add_func ("/presets/sweep-values-extremes", test_sweep_values_extremes);
  g_test_add_func ("/presets/lessons-say-why", test_lessons_say_why);
  presets = ws_presets_get_all (&n);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *path = g_strdup_printf ("/presets/analyse/%s", presets[i].id);
      g_test_add_data_func (path, &presets[i], test_every_preset_analyses);
    }
  return g_test_run ();
}
