/* SPDX-License-Identifier: GPL-3.0-or-later */
/* warpscope-cli export, run as a script would run it, with no display: a
 * PNG decodes at the size asked for (times the scale), an SVG parses as
 * XML with an svg root and drawn content, a PDF starts with %PDF-, a
 * plot's data comes out as CSV and JSON; two recordings are compared in
 * one chart, each labelled with its device; bad input gets one line and
 * exit status 2. Files land in export/ of the build directory. Under
 * WS_TEST_SAMPLE (the sanitized run), the cases' files in a share of the
 * formats, each case and each format once at least (sample.h). */
#include "ws-config.h"
#include "sample.h"
#include "svg-summary.h"

#include <cairo.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "ws-recording.h"

#define LAPTOP "NVIDIA GeForce RTX 4060 Laptop GPU (test fixture)"

static char *
output_path (const char *name)
{
  g_autofree char *dir = g_build_filename (g_getenv ("G_TEST_BUILDDIR") ? g_getenv ("G_TEST_BUILDDIR") : ".",
                                           "export", NULL);

  g_mkdir_with_parents (dir, 0755);
  return g_build_filename (dir, name, NULL);
}

/* Runs warpscope-cli export with the arguments; returns its exit status. */
static int
run_export (char      **err,
            const char *first,
            ...)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GError) error = NULL;
  g_autofree char *out = NULL;
  const char *arg;
  va_list args;
  int status;

  g_ptr_array_add (argv, (char *) g_getenv ("WS_CLI"));
  g_ptr_array_add (argv, (char *) "export");
  va_start (args, first);
  for (arg = first; arg; arg = va_arg (args, const char *))
    g_ptr_array_add (argv, (char *) arg);
  va_end (args);
  g_ptr_array_add (argv, NULL);
  if (err)
    g_clear_pointer (err, g_free);
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, err, &status,
                               &error));
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (status));
  return WEXITSTATUS (status);
}

static void
assert_png (const char *path,
            int         width,
            int         height)
{
  cairo_surface_t *png = cairo_image_surface_create_from_png (path);

  g_assert_cmpint (cairo_surface_status (png), ==, CAIRO_STATUS_SUCCESS);
  g_assert_cmpint (cairo_image_surface_get_width (png), ==, width);
  g_assert_cmpint (cairo_image_surface_get_height (png), ==, height);
  cairo_surface_destroy (png);
}

/* ------------------------------------------------------------------ */
/* SVG: XML, an svg root, and things drawn                            */
/* ------------------------------------------------------------------ */

static void
assert_svg (const char *path,
            const char *width)
{
  SvgSummary svg;

  svg_summary_read (&svg, path);
  g_assert_cmpstr (svg.root, ==, "svg");
  g_assert_true (g_str_has_prefix (svg.width, width));
  /* lanes, sectors, axes and the glyphs of every label */
  g_assert_cmpuint (svg.paths + svg.texts, >, 100);
  svg_summary_clear (&svg);
}

static void
assert_pdf (const char *path)
{
  g_autofree char *contents = NULL;
  g_autofree char *tail = NULL;
  gsize length;

  g_assert_true (g_file_get_contents (path, &contents, &length, NULL));
  g_assert_cmpuint (length, >, 2000);
  g_assert_true (g_str_has_prefix (contents, "%PDF-"));
  /* complete: the trailer is there (the body holds binary streams) */
  tail = g_strndup (contents + length - 32, 32);
  g_assert_nonnull (strstr (tail, "%%EOF"));
}

/* ------------------------------------------------------------------ */

typedef struct
{
  const char *preset;
  const char *view;
  const char *extra;
  int height;                /* points; 600 when 0 */
} Case;

static const Case cases[] = {
  { "coalescing/stride", "warp", NULL },
  { "transpose/shared", "banks", NULL },
  { "constant/distinct", "constant", NULL },
  { "private-array/nonuniform-local", "local", NULL },
  { "atomics/histogram", "atomics", NULL },
  { "coalescing/strided-sweep", "plot", NULL },
  { "transpose/copy", "plot", NULL },
  /* four views in two rows over a chart: more than 600 high to be legible */
  { "transpose/copy", "compare", "--compare=transpose/read-coalesced,transpose/shared,transpose/shared-padded@3",
    1100 },
};

/* The cases' files, one case after another: under WS_TEST_SAMPLE, each
 * case in one format at least, and each format once at least. */
static Sample formats_sample;

static void
test_formats (gconstpointer data)
{
  const Case *c = data;
  static const char *formats[] = { "png", "svg", "pdf" };
  g_autofree char *stem = g_strdelimit (g_strdup_printf ("%s-%s", c->preset, c->view), "/", '-');
  guint first = (guint) (c - cases) % G_N_ELEMENTS (formats);

  /* each case starts with a format of its own: sampled, the plots and the
   * comparison (a minute each here under the sanitizers) are not all PNGs */
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    {
      guint f = (first + i) % G_N_ELEMENTS (formats);
      g_autofree char *file = g_strdup_printf ("%s file", formats[f]);
      g_autofree char *name = g_strdup_printf ("%s.%s", stem, formats[f]);
      g_autofree char *path = output_path (name);
      g_autofree char *err = NULL;
      g_autofree char *view = g_strdup_printf ("--view=%s", c->view);
      g_autofree char *preset = g_strdup_printf ("--preset=%s", c->preset);
      g_autofree char *height = g_strdup_printf ("--height=%d", c->height ? c->height : 600);

      if (!sample_keep (&formats_sample, stem, file, NULL))
        continue;
      g_unlink (path);
      /* PNGs at a scale of 1.5: 900 × 600 points make 1350 × 900 pixels */
      g_assert_cmpint (run_export (&err, preset, view, "--width=900", height, "--scale=1.5", "-o", path, c->extra,
                                   NULL), ==, 0);
      g_assert_cmpstr (err, ==, "");
      if (f == 0)
        assert_png (path, 1350, (c->height ? c->height : 600) * 3 / 2);
      else if (f == 1)
        assert_svg (path, "900");
      else
        assert_pdf (path);
    }
  if (c == &cases[G_N_ELEMENTS (cases) - 1])
    sample_finish (&formats_sample);
}

static void
test_screen_styles (void)
{
  static const char *styles[] = { "screen", "light", "dark", "print" };

  for (guint i = 0; i < G_N_ELEMENTS (styles); i++)
    {
      g_autofree char *name = g_strdup_printf ("banks-stride-%s.png", styles[i]);
      g_autofree char *path = output_path (name);
      g_autofree char *style = g_strdup_printf ("--style=%s", styles[i]);
      g_autofree char *err = NULL;

      g_assert_cmpint (run_export (&err, "--preset=banks/stride", "--set=stride=2", "--view=banks", style,
                                   "--step=1", "--width=1000", "--height=560", "-o", path, NULL), ==, 0);
      assert_png (path, 1000, 560);
    }
}

/* ------------------------------------------------------------------ */
/* Data, and two recordings in one chart                              */
/* ------------------------------------------------------------------ */

/* A second recording, for the tests only: the bundled one's measurements,
 * 3.1 times as slow, said to come from a laptop's GPU. */
static char *
laptop_recording (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WsRecording) bundled = ws_recording_load_bundled (&error);
  g_autoptr (WsDeviceInfo) device = NULL;
  g_autoptr (WsRecording) laptop = NULL;
  g_autofree char *path = output_path ("laptop-fixture.json");
  g_autoptr (GFile) file = g_file_new_for_path (path);

  g_assert_no_error (error);
  device = ws_device_info_copy (ws_recording_get_device (bundled));
  g_free (device->name);
  device->name = g_strdup (LAPTOP);
  device->sm_count = 24;
  laptop = ws_recording_new (device);
  for (guint i = 0; i < ws_recording_get_n_measurements (bundled); i++)
    {
      g_autoptr (WsMeasurement) m = ws_measurement_copy (ws_recording_get_measurement (bundled, i));
      for (guint s = 0; m->samples_ms && s < m->samples_ms->len; s++)
        g_array_index (m->samples_ms, double, s) *= 3.1;
      ws_measurement_summarize (m);
      m->bandwidth_gbs /= 3.1;
      ws_recording_add (laptop, m);
    }
  g_assert_true (ws_recording_save_file (laptop, file, NULL, &error));
  g_assert_no_error (error);
  return g_steal_pointer (&path);
}

/* The recording export reads when given none: the default bundled one. */
static char *
bundled_path (void)
{
  char *path = ws_recording_bundled_default ();

  g_assert_nonnull (path);
  return path;
}

/* "recorded on NVIDIA H200": the series of a recording's measurements, by
 * the device its file names. */
static char *
recorded_on (const char *path,
             const char *prefix)
{
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GError) error = NULL;
  g_autoptr (WsRecording) r = ws_recording_load_file (file, NULL, &error);

  g_assert_no_error (error);
  return g_strdup_printf ("%s%s", prefix, ws_recording_get_device (r)->name);
}

static JsonObject *
load_json (JsonParser *parser,
           const char *path)
{
  g_autoptr (GError) error = NULL;

  json_parser_load_from_file (parser, path, &error);
  g_assert_no_error (error);
  return json_node_get_object (json_parser_get_root (parser));
}

/* The series of a chart's JSON whose name starts with prefix. */
static GPtrArray *
series_named (JsonObject *chart,
              const char *prefix)
{
  JsonArray *series = json_object_get_array_member (chart, "series");
  GPtrArray *found = g_ptr_array_new ();

  for (guint i = 0; i < json_array_get_length (series); i++)
    {
      JsonObject *s = json_array_get_object_element (series, i);
      if (g_str_has_prefix (json_object_get_string_member (s, "name"), prefix))
        g_ptr_array_add (found, s);
    }
  return found;
}

static double
value_at (JsonObject *series,
          guint       i)
{
  JsonArray *points = json_object_get_array_member (series, "points");

  return json_object_get_double_member (json_array_get_object_element (points, i), "value");
}

static void
test_two_recordings (void)
{
  g_autofree char *laptop = laptop_recording ();
  g_autofree char *bundled = bundled_path ();
  g_autofree char *recorded_name = recorded_on (bundled, "recorded on ");
  g_autofree char *model_name = recorded_on (bundled, "model: predicted on ");
  g_autofree char *json = output_path ("compare-two-gpus.json");
  g_autofree char *png = output_path ("compare-two-gpus.png");
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GPtrArray) recorded = NULL;
  g_autoptr (GPtrArray) model = NULL;
  g_autofree char *err = NULL;
  JsonObject *chart;
  const char *compare = "--compare=coalescing/sequential,coalescing/stride";
  guint64 least;

  g_assert_cmpint (run_export (&err, "--view=compare", compare, "-r", bundled, "-r", laptop, "-o", json, NULL), ==, 0);
  g_assert_cmpint (run_export (&err, "--view=compare", compare, "-r", bundled, "-r", laptop, "--width=1400",
                               "--height=900", "--scale=2", "-o", png, NULL), ==, 0);
  assert_png (png, 2800, 1800);

  /* no --height: 720, or the least height at which the views and the chart
   * are legible, which the command says when asked for less */
  g_assert_cmpint (run_export (&err, "--view=compare", compare, "--height=16", "-o", png, NULL), ==, 2);
  g_assert_nonnull (strstr (err, "at 1200 wide, this figure needs at least "));
  least = g_ascii_strtoull (strstr (err, "at least ") + strlen ("at least "), NULL, 10);
  g_assert_cmpuint (least, >, 300);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run_export (&err, "--view=compare", compare, "-o", png, NULL), ==, 0);
  {
    /* room to draw the views without folding them, within reason */
    cairo_surface_t *image = cairo_image_surface_create_from_png (png);
    g_assert_cmpint (cairo_image_surface_get_width (image), ==, 1200);
    g_assert_cmpint (cairo_image_surface_get_height (image), >=, MAX (720, least));
    g_assert_cmpint (cairo_image_surface_get_height (image), <=, 1600);
    cairo_surface_destroy (image);
  }
  g_clear_pointer (&err, g_free);
  {
    g_autofree char *below = g_strdup_printf ("--height=%" G_GUINT64_FORMAT, least - 1);
    g_autofree char *at = g_strdup_printf ("--height=%" G_GUINT64_FORMAT, least);
    g_assert_cmpint (run_export (&err, "--view=compare", compare, below, "-o", png, NULL), ==, 2);
    g_clear_pointer (&err, g_free);
    g_assert_cmpint (run_export (&err, "--view=compare", compare, at, "-o", png, NULL), ==, 0);
    g_clear_pointer (&err, g_free);
  }

  chart = load_json (parser, json);
  recorded = series_named (chart, "recorded on ");
  g_assert_cmpuint (recorded->len, ==, 2);
  g_assert_cmpstr (json_object_get_string_member (g_ptr_array_index (recorded, 0), "name"), ==, recorded_name);
  g_assert_cmpstr (json_object_get_string_member (g_ptr_array_index (recorded, 1), "name"), ==,
                   "recorded on " LAPTOP);
  /* the laptop's medians are the fixture's 3.1 times the bundled recording's */
  for (guint i = 0; i < 2; i++)
    g_assert_cmpfloat_with_epsilon (value_at (g_ptr_array_index (recorded, 1), i),
                                    3.1 * value_at (g_ptr_array_index (recorded, 0), i), 1e-9);
  /* the model's time on the first recording's GPU (its profile ships), on
   * the measured axis: each mark near that recording's median, in its order */
  model = series_named (chart, model_name);
  g_assert_cmpuint (model->len, ==, 1);
  for (guint i = 0; i < 2; i++)
    g_assert_cmpfloat (fabs (value_at (g_ptr_array_index (model, 0), i) /
                             value_at (g_ptr_array_index (recorded, 0), i) - 1), <, 0.25);
  g_assert_cmpfloat (value_at (g_ptr_array_index (model, 0), 1), >, value_at (g_ptr_array_index (model, 0), 0));
  /* the speed-up, written on the chart */
  g_assert_true (strstr (json_object_get_string_member (chart, "title"), "faster than"));
  g_assert_true (strstr (json_object_get_string_member (chart, "subtitle"), LAPTOP));
}

static void
test_plot_data (void)
{
  g_autofree char *csv = output_path ("strided-sweep.csv");
  g_autofree char *json = output_path ("strided-sweep.json");
  g_autofree char *contents = NULL;
  g_autofree char *err = NULL;
  g_auto (GStrv) lines = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GPtrArray) recorded = NULL;
  g_autofree char *bundled = bundled_path ();
  g_autofree char *model_name = recorded_on (bundled, "model: predicted on ");
  g_autofree char *model_prefix = g_strconcat (model_name, ",1,", NULL);
  g_autofree char *recorded_name = recorded_on (bundled, "recorded on ");
  g_autofree char *recorded_prefix = g_strconcat (recorded_name, ",1,", NULL);
  JsonObject *chart;

  g_assert_cmpint (run_export (&err, "--preset=coalescing/strided-sweep", "--view=plot", "--metric=time", "-o", csv,
                               NULL), ==, 0);
  g_assert_cmpint (run_export (&err, "--preset=coalescing/strided-sweep", "--view=plot", "--metric=time",
                               "--format=json", "-o", json, NULL), ==, 0);
  g_assert_true (g_file_get_contents (csv, &contents, NULL, NULL));
  g_assert_null (strchr (contents, '\r'));
  lines = g_strsplit (contents, "\n", -1);
  g_assert_cmpstr (lines[0], ==, "series,stride (elements),value,min,max,quantity,unit");
  /* 32 strides recorded, 32 predicted */
  g_assert_cmpuint (g_strv_length (lines), ==, 1 + 32 + 32 + 1);
  /* the model's series is its predicted time on the bundled recording's
   * GPU (its profile ships), on the measured axis, near the measured point */
  {
    g_auto (GStrv) predicted = NULL;
    double measured = 0;

    for (guint i = 1; lines[i] && predicted == NULL; i++)
      if (g_str_has_prefix (lines[i], model_prefix))
        predicted = g_strsplit (lines[i], ",", -1);
    g_assert_nonnull (predicted);

    for (guint i = 2; lines[i] && !measured; i++)
      if (g_str_has_prefix (lines[i], recorded_prefix))
        {
          g_auto (GStrv) f = g_strsplit (lines[i], ",", -1);
          measured = g_ascii_strtod (f[2], NULL);
        }
    g_assert_cmpfloat (measured, >, 0);
    g_assert_cmpfloat (fabs (g_ascii_strtod (predicted[2], NULL) / measured - 1), <, 0.25);
  }

  chart = load_json (parser, json);
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (chart, "y"), "unit"), ==, "s");
  recorded = series_named (chart, recorded_name);
  g_assert_cmpuint (recorded->len, ==, 1);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (g_ptr_array_index (recorded, 0), "points")),
                    ==, 32);

  /* by default what the lesson is about: its bandwidth, on a log axis as
   * it falls by more than a decade, the title naming the kernel */
  {
    g_autofree char *lesson = output_path ("strided-sweep-lesson.json");
    g_autoptr (JsonParser) p2 = json_parser_new ();
    JsonObject *y;

    g_assert_cmpint (run_export (&err, "--preset=coalescing/strided-sweep", "--view=plot", "-o", lesson, NULL), ==, 0);
    chart = load_json (p2, lesson);
    y = json_object_get_object_member (chart, "y");
    g_assert_cmpstr (json_object_get_string_member (y, "unit"), ==, "B/s");
    g_assert_cmpstr (json_object_get_string_member (y, "scale"), ==, "log10");
    g_assert_cmpstr (json_object_get_string_member (chart, "title"), ==,
                     "Stride sweep: effective bandwidth as stride varies");
  }
}

/* ------------------------------------------------------------------ */
/* Bad input                                                          */
/* ------------------------------------------------------------------ */

static void
assert_refused (const char *why,
                ...)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GError) error = NULL;
  g_autofree char *err = NULL;
  const char *arg;
  va_list args;
  int status;

  g_ptr_array_add (argv, (char *) g_getenv ("WS_CLI"));
  g_ptr_array_add (argv, (char *) "export");
  va_start (args, why);
  while ((arg = va_arg (args, const char *)))
    g_ptr_array_add (argv, (char *) arg);
  va_end (args);
  g_ptr_array_add (argv, NULL);
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, &err, &status,
                               &error));
  g_test_message ("%s: %s", why, err);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 2);
  /* one line, that names the command */
  g_assert_true (g_str_has_prefix (err, "warpscope-cli export: "));
  g_assert_nonnull (strchr (err, '\n'));
  g_assert_cmpstr (strchr (err, '\n'), ==, "\n");
  g_assert_nonnull (strstr (err, why));
}

static void
test_bad_input (void)
{
  assert_refused ("--metric: “speed” is not time, bandwidth", "--preset", "coalescing/offset", "--view", "plot",
                  "--metric", "speed", "-o", "x.png", NULL);
  assert_refused ("--metric coalescing: the instruction plotted is shared; time, bandwidth or wavefronts apply",
                  "--preset", "banks/stride", "--view", "plot", "--metric", "coalescing", "-o", "x.png", NULL);
  assert_refused ("--metric goes with --view plot", "--preset", "banks/stride", "--view", "banks", "--metric",
                  "time", "-o", "x.png", NULL);
  g_autofree char *out = output_path ("refused.png");
  g_autofree char *bad = output_path ("not-a-recording.json");

  g_assert_true (g_file_set_contents (bad, "{ \"format\": \"something else\" }", -1, NULL));
  assert_refused ("which view", "--preset=coalescing/stride", "-o", out, NULL);
  assert_refused ("--view", "--preset=coalescing/stride", "--view=heatmap", "-o", out, NULL);
  assert_refused ("-o FILE", "--preset=coalescing/stride", "--view=warp", NULL);
  assert_refused ("--format", "--preset=coalescing/stride", "--view=warp", "--format=gif", "-o", out, NULL);
  assert_refused ("--width", "--preset=coalescing/stride", "--view=warp", "--width=0", "-o", out, NULL);
  assert_refused ("--height", "--preset=coalescing/stride", "--view=warp", "--height=0", "-o", out, NULL);
  assert_refused ("--scale", "--preset=coalescing/stride", "--view=warp", "--scale=-1", "-o", out, NULL);
  assert_refused ("--style", "--preset=coalescing/stride", "--view=warp", "--style=sepia", "-o", out, NULL);
  assert_refused ("--preset", "--preset=no/such", "--view=warp", "-o", out, NULL);
  assert_refused ("--set", "--preset=coalescing/offset", "--set=offset", "--view=warp", "-o", out, NULL);
  assert_refused ("--view banks", "--preset=coalescing/stride", "--view=banks", "-o", out, NULL);
  assert_refused ("--compare", "--view=compare", "--compare=transpose/copy,no/such", "-o", out, NULL);
  assert_refused ("2 to 4", "--view=compare", "--compare=transpose/copy", "-o", out, NULL);
  assert_refused ("2 to 4", "--view=compare",
                  "--compare=transpose/copy,transpose/ldg,transpose/shared,transpose/shared-padded,coalescing/stride",
                  "-o", out, NULL);
  assert_refused ("--recording", "--preset=coalescing/stride", "--view=plot", "-r", bad, "-o", out, NULL);
  assert_refused ("unexpected", "--preset=coalescing/stride", "--view=warp", "-o", out, "extra", NULL);
  assert_refused ("csv and json", "--preset=coalescing/stride", "--view=warp", "--format=csv", "-o", out, NULL);
  g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
}

/* ------------------------------------------------------------------ */
/* Kernels of one's own beside presets                                */
/* ------------------------------------------------------------------ */

static char *
kernel_member (const char *tail)
{
  g_autofree char *path = g_build_filename (g_getenv ("WS_SOURCE_DIR"), "tests", "data", "kernels", "transpose.cu",
                                            NULL);

  return g_strconcat (path, tail, NULL);
}

/* The note written over category x, or NULL. */
static const char *
note_at (JsonObject *chart,
         const char *x)
{
  JsonArray *notes = json_object_get_array_member (chart, "notes");

  for (guint i = 0; i < json_array_get_length (notes); i++)
    {
      JsonObject *n = json_array_get_object_element (notes, i);
      if (g_str_equal (json_object_get_string_member (n, "x"), x))
        return json_object_get_string_member (n, "text");
    }
  return NULL;
}

static void
test_compare_kernels (void)
{
  g_autofree char *naive = kernel_member (":transposeNaive");
  g_autofree char *tiled = kernel_member (":transposeCoalesced");
  g_autofree char *list = g_strdup_printf ("--compare=%s,transpose/shared", naive);
  g_autofree char *json = output_path ("compare-kernel.json");
  g_autofree char *png = output_path ("compare-kernel.png");
  g_autofree char *svg = output_path ("compare-kernel.svg");
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GPtrArray) model = NULL;
  g_autoptr (GPtrArray) recorded = NULL;
  g_autofree char *err = NULL;
  JsonObject *chart;
  JsonArray *categories;

  g_assert_cmpint (run_export (&err, "--view=compare", list, "-o", json, NULL), ==, 0);
  chart = load_json (parser, json);
  categories = json_object_get_array_member (json_object_get_object_member (chart, "x"), "categories");
  g_assert_cmpuint (json_array_get_length (categories), ==, 2);
  /* the kernel by its name and the line it shows (the naive transpose's one line) */
  g_assert_cmpstr (json_array_get_string_element (categories, 0), ==, "transposeNaive, line 57");
  g_assert_cmpstr (json_array_get_string_element (categories, 1), ==, "Shared-memory tile");
  /* measured: the preset alone; the kernel says it was not */
  recorded = series_named (chart, "recorded on ");
  g_assert_cmpuint (recorded->len, ==, 1);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (g_ptr_array_index (recorded, 0), "points")),
                    ==, 1);
  g_assert_cmpstr (note_at (chart, "transposeNaive, line 57"), ==, "not measured");
  /* the model's time for both */
  model = series_named (chart, "model: predicted on ");
  g_assert_cmpuint (model->len, ==, 1);
  g_assert_cmpfloat (value_at (g_ptr_array_index (model, 0), 0), >, 1e-6);
  g_assert_cmpfloat (value_at (g_ptr_array_index (model, 0), 1), >, 1e-6);

  /* --kernel first, at a line of its tile; drawn */
  g_assert_cmpint (run_export (&err, "--view=compare", "--kernel", tiled, "--line=80", "--compare=transpose/copy",
                               "-o", png, NULL), ==, 0);
  {
    cairo_surface_t *image = cairo_image_surface_create_from_png (png);
    g_assert_cmpint (cairo_surface_status (image), ==, CAIRO_STATUS_SUCCESS);
    g_assert_cmpint (cairo_image_surface_get_width (image), ==, 1200);
    g_assert_cmpint (cairo_image_surface_get_height (image), >=, 720);
    cairo_surface_destroy (image);
  }
  g_clear_pointer (&list, g_free);
  list = g_strdup_printf ("--compare=%s@72,%s,transpose/copy", tiled, naive);
  g_assert_cmpint (run_export (&err, "--view=compare", list, "--style=dark", "-o", svg, NULL), ==, 0);
  assert_svg (svg, "1200");
  g_assert_cmpint (run_export (&err, "--view=compare", list, "-o", json, NULL), ==, 0);
  chart = load_json (parser, json);
  categories = json_object_get_array_member (json_object_get_object_member (chart, "x"), "categories");
  g_assert_cmpstr (json_array_get_string_element (categories, 0), ==, "transposeCoalesced, line 72");
  g_assert_cmpstr (json_array_get_string_element (categories, 1), ==, "transposeNaive, line 57");
  g_assert_cmpstr (json_array_get_string_element (categories, 2), ==, "Copy (the bound)");
}

static void
test_compare_bad_kernels (void)
{
  g_autofree char *out = output_path ("refused-kernel.png");
  g_autofree char *missing = g_strdup_printf ("--compare=%s,transpose/copy", "no-such-dir/missing.cu");
  g_autofree char *no_kernel = kernel_member (":transposeSideways");
  g_autofree char *no_kernel_list = g_strdup_printf ("--compare=%s,transpose/copy", no_kernel);
  g_autofree char *no_access = kernel_member (":transposeNaive@50");
  g_autofree char *no_access_list = g_strdup_printf ("--compare=transpose/copy,%s", no_access);
  g_autofree char *bad_line = kernel_member ("@fifty");
  g_autofree char *bad_line_list = g_strdup_printf ("--compare=transpose/copy,%s", bad_line);
  g_autofree char *junk = output_path ("junk.cu");
  g_autofree char *junk_list = g_strdup_printf ("--compare=transpose/copy,%s", junk);
  g_autofree char *naive = kernel_member (":transposeNaive");

  g_assert_true (g_file_set_contents (junk, "__global__ void k(float *x) { x[threadIdx.x] = ; }\n", -1, NULL));
  g_remove (out);
  assert_refused ("--compare: no-such-dir/missing.cu: ", "--view=compare", missing, "-o", out, NULL);
  assert_refused ("transposeSideways", "--view=compare", no_kernel_list, "-o", out, NULL);
  assert_refused ("line 50 of transposeNaive has no memory instruction", "--view=compare", no_access_list, "-o",
                  out, NULL);
  assert_refused ("“@fifty” is not a line", "--view=compare", bad_line_list, "-o", out, NULL);
  assert_refused ("junk.cu", "--view=compare", junk_list, "-o", out, NULL);
  assert_refused ("--line goes with --kernel", "--view=compare", "--compare=transpose/copy,transpose/ldg",
                  "--line=3", "-o", out, NULL);
  assert_refused ("2 to 4", "--view=compare", "--kernel", naive, "-o", out, NULL);
  g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
}

/* ------------------------------------------------------------------ */
/* Where the file goes                                                */
/* ------------------------------------------------------------------ */

static void
limit_file_size (gpointer data)
{
  struct rlimit limit = { 16384, 16384 };

  setrlimit (RLIMIT_FSIZE, &limit);
}

/* Runs an export with its standard output kept; returns the exit status. */
static int
run_export_full (GSpawnChildSetupFunc setup,
                 char               **out,
                 gsize               *out_length,
                 char               **err,
                 const char * const  *args)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (GSubprocessLauncher) launcher = NULL;
  g_autoptr (GSubprocess) proc = NULL;
  g_autoptr (GBytes) stdout_bytes = NULL;
  g_autoptr (GBytes) stderr_bytes = NULL;

  g_ptr_array_add (argv, (char *) g_getenv ("WS_CLI"));
  g_ptr_array_add (argv, (char *) "export");
  for (guint i = 0; args[i]; i++)
    g_ptr_array_add (argv, (char *) args[i]);
  g_ptr_array_add (argv, NULL);
  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE);
  if (setup)
    g_subprocess_launcher_set_child_setup (launcher, setup, NULL, NULL);
  proc = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv->pdata, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_communicate (proc, NULL, NULL, &stdout_bytes, &stderr_bytes, &error));
  g_assert_no_error (error);
  if (out)
    *out = g_bytes_unref_to_data (g_steal_pointer (&stdout_bytes), out_length);
  if (err)
    *err = g_strndup (g_bytes_get_data (stderr_bytes, NULL), g_bytes_get_size (stderr_bytes));
  g_assert_true (g_subprocess_get_if_exited (proc));
  return g_subprocess_get_exit_status (proc);
}

static guint
count_entries (const char *dir)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  guint n = 0;

  while (g_dir_read_name (d))
    n++;
  return n;
}

/* -o LINK replaces the file the link points to and keeps the link; a folder
 * or a device is refused before anything is drawn; “-” and /dev/stdout are
 * standard output. */
static void
test_output_paths (void)
{
  g_autofree char *dir = output_path ("paths");
  g_autofree char *target = NULL;
  g_autofree char *link = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  gsize length = 0;

  g_mkdir_with_parents (dir, 0755);
  target = g_build_filename (dir, "target.png", NULL);
  link = g_build_filename (dir, "link.png", NULL);
  g_unlink (link);
  g_unlink (target);
  g_assert_true (g_file_set_contents (target, "old", -1, NULL));
  g_assert_cmpint (symlink ("target.png", link), ==, 0);
  {
    const char *args[] = { "--preset=coalescing/stride", "--view=warp", "--width=400", "--height=720", "-o", link,
                           NULL };
    g_assert_cmpint (run_export_full (NULL, NULL, NULL, NULL, args), ==, 0);
  }
  g_assert_true (g_file_test (link, G_FILE_TEST_IS_SYMLINK));
  assert_png (target, 400, 720);

  for (guint i = 0; i < 2; i++)
    {
      const char *args[] = { "--preset=coalescing/stride", "--view=warp", "--width=400", "--format=png", "-o",
                             i == 0 ? "-" : "/dev/stdout", NULL };
      g_clear_pointer (&out, g_free);
      g_assert_cmpint (run_export_full (NULL, &out, &length, NULL, args), ==, 0);
      g_assert_cmpuint (length, >, 1000);
      g_assert_cmpmem (out, 8, "\x89PNG\r\n\x1a\n", 8);
    }

  assert_refused ("is a folder", "--preset=coalescing/stride", "--view=warp", "--format=png", "-o", dir, NULL);
  assert_refused ("is a device", "--preset=coalescing/stride", "--view=warp", "--format=png", "-o", "/dev/null",
                  NULL);
  assert_refused ("there is no folder", "--preset=coalescing/stride", "--view=warp", "-o", "/no/such/dir/x.png",
                  NULL);
  /* 20000 × 20000 would be 1.6 GB in memory before a byte is written */
  assert_refused ("megapixels", "--preset=coalescing/stride", "--view=warp", "--width=20000", "--height=20000",
                  "-o", target, NULL);
  g_assert_cmpuint (count_entries (dir), ==, 2);
}

/* A write that fails (past the file-size limit) leaves the old file as it
 * was and no partial file under a new name. */
static void
test_failed_write (void)
{
  g_autofree char *dir = output_path ("failed");
  g_autofree char *old = NULL;
  g_autofree char *fresh = NULL;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autofree char *err = NULL;

  g_mkdir_with_parents (dir, 0755);
  old = g_build_filename (dir, "old.png", NULL);
  fresh = g_build_filename (dir, "fresh.png", NULL);
  g_unlink (fresh);
  {
    const char *args[] = { "--preset=coalescing/stride", "--view=warp", "--width=600", "--height=480", "-o", old,
                           NULL };
    g_assert_cmpint (run_export_full (NULL, NULL, NULL, NULL, args), ==, 0);
  }
  g_assert_true (g_file_get_contents (old, &before, NULL, NULL));
  for (guint i = 0; i < 2; i++)
    {
      const char *args[] = { "--preset=coalescing/stride", "--view=warp", "--width=1600", "-o", i ? fresh : old,
                             NULL };
      g_clear_pointer (&err, g_free);
      g_assert_cmpint (run_export_full (limit_file_size, NULL, NULL, &err, args), ==, 1);
      g_assert_nonnull (strstr (err, "could not write"));
    }
  g_assert_true (g_file_get_contents (old, &after, NULL, NULL));
  g_assert_cmpstr (before, ==, after);
  g_assert_false (g_file_test (fresh, G_FILE_TEST_EXISTS));
  g_assert_cmpuint (count_entries (dir), ==, 1);
}

/* A recording said to come from an H200, whose profile Warpscope ships:
 * the bundled one's measurements (the H200's, which has no counters), the
 * sequential copy's with the counters of the hierarchy below L1 as the
 * H200 counted them. */
static char *
h200_recording (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WsRecording) bundled = ws_recording_load_bundled (&error);
  g_autoptr (WsDeviceInfo) device = NULL;
  g_autoptr (WsRecording) h200 = NULL;
  g_autofree char *path = output_path ("h200-fixture.json");
  g_autoptr (GFile) file = g_file_new_for_path (path);

  g_assert_no_error (error);
  device = ws_device_info_copy (ws_recording_get_device (bundled));
  g_free (device->name);
  device->name = g_strdup ("NVIDIA H200");
  h200 = ws_recording_new (device);
  for (guint i = 0; i < ws_recording_get_n_measurements (bundled); i++)
    {
      g_autoptr (WsMeasurement) m = ws_measurement_copy (ws_recording_get_measurement (bundled, i));
      if (g_str_equal (m->id, "coalescing/sequential"))
        {
          ws_measurement_add_counter (m, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 4194304);
          ws_measurement_add_counter (m, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", 4194304);
          ws_measurement_add_counter (m, "lts__t_sectors_srcunit_tex_op_read.sum", 4194304);
          ws_measurement_add_counter (m, "lts__t_sectors_srcunit_tex_op_write.sum", 4194304);
          ws_measurement_add_counter (m, "dram__bytes_read.sum", 134217728);
          ws_measurement_add_counter (m, "dram__bytes_write.sum", 125829120);
        }
      ws_recording_add (h200, m);
    }
  g_assert_true (ws_recording_save_file (h200, file, NULL, &error));
  g_assert_no_error (error);
  return g_steal_pointer (&path);
}

/* --view hierarchy: the model on the recording's GPU, with what the
 * recording counted; a GPU with no profile is refused, with its name. */
static void
test_hierarchy (void)
{
  g_autofree char *fixture = h200_recording ();
  g_autofree char *laptop = laptop_recording ();
  g_autofree char *png = output_path ("hierarchy.png");
  g_autofree char *svg = output_path ("hierarchy.svg");
  g_autofree char *pdf = output_path ("hierarchy.pdf");
  g_autofree char *err = NULL;
  SvgSummary summary;

  g_assert_cmpint (run_export (&err, "--preset=coalescing/sequential", "--view=hierarchy", "-r", fixture,
                               "--width=1000", "--scale=2", "-o", png, NULL), ==, 0);
  /* as tall as it needs to be to have a row for each term of the time, at least 720 */
  {
    cairo_surface_t *image = cairo_image_surface_create_from_png (png);
    g_assert_cmpint (cairo_surface_status (image), ==, CAIRO_STATUS_SUCCESS);
    g_assert_cmpint (cairo_image_surface_get_width (image), ==, 2000);
    g_assert_cmpint (cairo_image_surface_get_height (image), >=, 1440);
    cairo_surface_destroy (image);
  }
  g_assert_cmpint (run_export (NULL, "--preset=coalescing/sequential", "--view=hierarchy", "-r", fixture,
                               "--style=dark", "-o", svg, NULL), ==, 0);
  svg_summary_read (&summary, svg);
  g_assert_cmpstr (summary.root, ==, "svg");
  g_assert_cmpuint (summary.paths, >, 50);
  svg_summary_clear (&summary);
  g_assert_cmpint (run_export (NULL, "--preset=coalescing/sequential", "--view=hierarchy", "-r", fixture, "-o", pdf,
                               NULL), ==, 0);
  assert_pdf (pdf);
  assert_refused ("no device profile", "--preset=coalescing/sequential", "--view=hierarchy", "-r", laptop, "-o", png,
                  NULL);
  assert_refused ("a drawing", "--preset=coalescing/sequential", "--view=hierarchy", "-r", fixture, "-o",
                  "hierarchy.csv", NULL);
  assert_refused ("legible", "--preset=coalescing/sequential", "--view=hierarchy", "-r", fixture, "--width=300",
                  "-o", png, NULL);
}

/* With no GPU, measure --json and sweep --json write the bundled recording's
 * numbers: with its device and date and "not_measured_here", which export
 * shows in the series it draws from them. */
static void
test_not_measured_here (void)
{
  g_autofree char *measured = output_path ("not-measured-here.json");
  g_autofree char *chart = output_path ("not-measured-here-chart.json");
  g_autofree char *bundled = bundled_path ();
  g_autoptr (GFile) bundled_file = g_file_new_for_path (bundled);
  g_autoptr (WsRecording) original = NULL;
  g_autoptr (WsRecording) r = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *data = NULL;
  g_autofree char *date = NULL;
  g_autofree char *name = NULL;
  gsize length;
  static const char *commands[][4] = {
    { "measure", "coalescing/sequential", "--json", NULL },
    { "sweep", "coalescing/strided-sweep", "--json", NULL },
  };

  original = ws_recording_load_file (bundled_file, NULL, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    {
      const char *argv[] = { g_getenv ("WS_CLI"), commands[i][0], commands[i][1], commands[i][2], NULL };
      int status;

      g_clear_pointer (&out, g_free);
      g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &out, NULL,
                                   &status, &error));
      g_assert_no_error (error);
      if (WEXITSTATUS (status) == 0)
        {
          g_test_skip ("a GPU is here: the numbers are measured");
          return;
        }
      g_assert_cmpint (WEXITSTATUS (status), ==, 3);
      g_clear_object (&r);
      r = ws_recording_load_data (out, -1, &error);
      g_assert_no_error (error);
      g_assert_false (ws_recording_get_measured_here (r));
      g_assert_true (g_date_time_equal (ws_recording_get_date (r), ws_recording_get_date (original)));
      g_assert_cmpstr (ws_recording_get_device (r)->name, ==, ws_recording_get_device (original)->name);
      g_assert_cmpuint (ws_recording_get_n_measurements (r), >, 0);
    }

  g_assert_true (g_file_set_contents (measured, out, -1, NULL));
  g_assert_cmpint (run_export (&err, "--preset=coalescing/strided-sweep", "--view=plot", "-r", measured,
                               "--format=json", "-o", chart, NULL), ==, 0);
  g_assert_true (g_file_get_contents (chart, &data, &length, NULL));
  date = g_date_time_format (ws_recording_get_date (original), "%Y-%m-%d");
  name = g_strdup_printf ("recorded on %s on %s (not measured here)", ws_recording_get_device (original)->name, date);
  g_assert_nonnull (strstr (data, name));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  sample_init (&formats_sample, "files of the cases", 1);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/export/%s/%s", cases[i].view, cases[i].preset);
      g_test_add_data_func (path, &cases[i], test_formats);
    }
  g_test_add_func ("/export/styles", test_screen_styles);
  g_test_add_func ("/export/plot-data", test_plot_data);
  g_test_add_func ("/export/two-recordings", test_two_recordings);
  g_test_add_func ("/export/bad-input", test_bad_input);
  g_test_add_func ("/export/compare-kernels", test_compare_kernels);
  g_test_add_func ("/export/compare-bad-kernels", test_compare_bad_kernels);
  g_test_add_func ("/export/output-paths", test_output_paths);
  g_test_add_func ("/export/failed-write", test_failed_write);
  g_test_add_func ("/export/hierarchy", test_hierarchy);
  g_test_add_func ("/export/not-measured-here", test_not_measured_here);
  return g_test_run ();
}
