/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The cairo renderers, without GTK: every preset draws something in every
 * view that applies to it, in every style; hit tests and descriptions agree
 * with the model; the chart maps, ticks and formats values as it says.
 * PNGs land in figures/ of the build directory, to be looked at. */
#include "ws-chart.h"
#include "ws-compare-figure.h"
#include "ws-export.h"
#include "ws-figure.h"
#include "ws-figure-context.h"
#include "ws-l2-figure.h"
#include "ws-occupancy-figure.h"
#include "ws-presets.h"
#include "ws-timeline-figure.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#define WIDTH 1200
#define HEIGHT 640

static char *
output_dir (void)
{
  char *dir = g_build_filename (g_getenv ("G_TEST_BUILDDIR") ? g_getenv ("G_TEST_BUILDDIR") : ".", "figures", NULL);
  g_mkdir_with_parents (dir, 0755);
  return dir;
}

/* The share of pixels that differ from the background. */
static double
ink (cairo_surface_t     *surface,
     const WsFigureStyle *style)
{
  int w = cairo_image_surface_get_width (surface), h = cairo_image_surface_get_height (surface);
  int stride = cairo_image_surface_get_stride (surface);
  const guint8 *data;
  guint32 bg = 0xff000000u | ((guint32) lround (style->background.r * 255) << 16) |
               ((guint32) lround (style->background.g * 255) << 8) | (guint32) lround (style->background.b * 255);
  guint64 n = 0;

  cairo_surface_flush (surface);
  data = cairo_image_surface_get_data (surface);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      n += ((const guint32 *) (data + y * stride))[x] != bg;
  return (double) n / (w * h);
}

static cairo_surface_t *
render (WsFigureKind         kind,
        const WsFigureFrame *frame,
        const WsFigureStyle *style)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH, HEIGHT);
  cairo_t *cr = cairo_create (surface);

  cairo_set_source_rgb (cr, style->background.r, style->background.g, style->background.b);
  cairo_paint (cr);
  ws_figure_draw (kind, cr, frame, style, WIDTH, HEIGHT);
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  cairo_destroy (cr);
  return surface;
}

static void
test_every_preset (void)
{
  g_autofree char *dir = output_dir ();
  guint n_presets, drawn = 0;
  const WsPreset *presets = ws_presets_get_all (&n_presets);

  for (guint p = 0; p < n_presets; p++)
    {
      g_autoptr (WsPattern) pattern = ws_preset_build (&presets[p]);

      for (guint a = 0; a < ws_pattern_get_n_accesses (pattern); a++)
        {
          g_autoptr (GError) error = NULL;
          g_autoptr (WsWarpResult) r = ws_model_analyze_warp (pattern, a, WS_DIM3 (0, 0, 0), 0, &error);
          g_autofree char *title = ws_pattern_describe_access (pattern, a);
          WsFigureKind kinds[WS_N_FIGURES];
          guint n_kinds;

          g_assert_no_error (error);
          n_kinds = ws_figure_kinds_for (r, kinds);
          g_assert_cmpuint (n_kinds, >, 0);
          for (guint k = 0; k < n_kinds; k++)
            for (WsFigureStyleKind s = 0; s < WS_N_FIGURE_STYLES; s++)
              {
                const WsFigureStyle *style = ws_figure_style_get (s);
                WsFigureFrame frame = { r, title, ws_pattern_get_block (pattern), r->steps->len,
                                        WS_FIGURE_HIT_NONE };
                cairo_surface_t *surface = render (kinds[k], &frame, style);
                double share = ink (surface, style);

                if (share < 0.02)
                  g_error ("%s access %u, %s view, %s: only %.2f %% of the figure is drawn", presets[p].id, a,
                           ws_figure_kind_to_string (kinds[k]), style->name, 100 * share);
                if (a == 0 && s != WS_FIGURE_STYLE_PRINT)
                  {
                    g_autofree char *id = g_strdelimit (g_strdup (presets[p].id), "/", '-');
                    g_autofree char *name = g_strdup_printf ("%s-%s-%s.png", id, ws_figure_kind_to_string (kinds[k]),
                                                             style->name);
                    g_autofree char *path = g_build_filename (dir, name, NULL);
                    g_assert_cmpint (cairo_surface_write_to_png (surface, path), ==, CAIRO_STATUS_SUCCESS);
                  }
                cairo_surface_destroy (surface);
                drawn++;
              }
        }
    }
  g_test_message ("%u figures drawn", drawn);
}

/* Half-way through the schedule, served and waiting lanes differ. */
static void
test_animation_frames_differ (void)
{
  g_autoptr (WsPattern) pattern = ws_preset_build (ws_preset_lookup ("coalescing/offset"));
  g_autoptr (WsWarpResult) r = ws_model_analyze_warp (pattern, 0, WS_DIM3 (0, 0, 0), 0, NULL);
  const WsFigureStyle *style = ws_figure_style_get (WS_FIGURE_STYLE_LIGHT);
  WsFigureFrame start = { r, NULL, WS_DIM3 (256, 1, 1), 0, WS_FIGURE_HIT_NONE };
  WsFigureFrame middle = start;
  cairo_surface_t *a, *b;
  WsSchedule s;

  middle.position = 2.5;
  a = render (WS_FIGURE_WARP, &start, style);
  b = render (WS_FIGURE_WARP, &middle, style);
  g_assert_cmpint (memcmp (cairo_image_surface_get_data (a), cairo_image_surface_get_data (b),
                           cairo_image_surface_get_stride (a) * HEIGHT), !=, 0);
  cairo_surface_destroy (a);
  cairo_surface_destroy (b);

  ws_schedule_init (&s, r, 2.5);
  g_assert_cmpint (s.current, ==, 2);
  g_assert_cmpuint (ws_schedule_step_state (&s, 1), ==, WS_STEP_DONE);
  g_assert_cmpuint (ws_schedule_step_state (&s, 2), ==, WS_STEP_SERVING);
  g_assert_cmpuint (ws_schedule_step_state (&s, 3), ==, WS_STEP_PENDING);
  g_assert_cmpuint (ws_schedule_lane_state (&s, r, 0), ==, WS_LANE_SERVED);      /* sector 0, step 1 */
  g_assert_cmpuint (ws_schedule_lane_state (&s, r, 15), ==, WS_LANE_SERVING);    /* sector 2, step 3 */
  g_assert_cmpuint (ws_schedule_lane_state (&s, r, 31), ==, WS_LANE_WAITING);    /* sector 4, step 5 */
}

/* Every lane of the warp view can be pointed at, and says what it is. */
static void
test_hit_and_describe (void)
{
  g_autoptr (WsPattern) pattern = ws_preset_build (ws_preset_lookup ("coalescing/offset"));
  g_autoptr (WsWarpResult) r = ws_model_analyze_warp (pattern, 0, WS_DIM3 (0, 0, 0), 0, NULL);
  const WsFigureStyle *style = ws_figure_style_get (WS_FIGURE_STYLE_LIGHT);
  WsFigureFrame frame = { r, NULL, WS_DIM3 (256, 1, 1), r->steps->len, WS_FIGURE_HIT_NONE };
  guint lanes_seen = 0, sectors_seen = 0;
  gint64 last_sector = -1;

  /* every few pixels: a hit test lays the figure out, text and all */
  for (double y = 0; y < HEIGHT; y += 4)
    for (double x = 0; x < WIDTH; x += 5)
      {
        WsFigureHit hit;
        g_autofree char *text = NULL;

        if (!ws_figure_hit_test (WS_FIGURE_WARP, &frame, style, WIDTH, HEIGHT, x, y, &hit))
          continue;
        text = ws_figure_describe (WS_FIGURE_WARP, &frame, &hit);
        g_assert_nonnull (text);
        if (hit.kind == WS_HIT_LANE)
          {
            g_autofree char *want = g_strdup_printf ("Lane %d — threadIdx (%d, 0, 0)", hit.index, hit.index);
            g_assert_true (g_str_has_prefix (text, want));
            lanes_seen |= 1u << hit.index;
          }
        if (hit.kind == WS_HIT_SECTOR && hit.step >= 0 && hit.address != last_sector)
          {
            g_assert_nonnull (strstr (text, "Sector at bytes"));
            last_sector = hit.address;
            sectors_seen++;
          }
      }
  g_assert_cmpuint (lanes_seen, ==, 0xffffffffu);
  g_assert_cmpuint (sectors_seen, >=, r->counts.sectors);
}

static void
test_bank_conflicts_described (void)
{
  g_autoptr (WsPattern) pattern = ws_preset_build (ws_preset_lookup ("banks/stride"));
  g_autoptr (WsWarpResult) r = NULL;
  WsFigureHit hit = { WS_HIT_BANK, 0, 0, -1 };
  WsFigureFrame frame = { NULL, NULL, WS_DIM3 (256, 1, 1), 0, WS_FIGURE_HIT_NONE };
  g_autofree char *text = NULL;

  g_assert_true (ws_pattern_set_param (pattern, "stride", 2, NULL));
  r = ws_model_analyze_warp (pattern, 0, WS_DIM3 (0, 0, 0), 0, NULL);
  frame.result = r;
  g_assert_cmpuint (r->counts.wavefronts, ==, 2);
  text = ws_figure_describe (WS_FIGURE_BANKS, &frame, &hit);
  g_assert_nonnull (strstr (text, "bank conflict"));
  g_clear_pointer (&text, g_free);
  hit.kind = WS_HIT_BANK;
  hit.index = 1;   /* stride 2: odd banks are idle */
  text = ws_figure_describe (WS_FIGURE_BANKS, &frame, &hit);
  g_assert_nonnull (strstr (text, "no lane"));
}

/* The contention view fills a slide: a histogram's few addresses get wide
 * cells reaching its right side, and an update per thread stands in panels
 * side by side, all 32 addresses shown (one tall column folded two away and
 * left two thirds of the slide empty). */
static void
test_atomics_fill (void)
{
  const char *ids[] = { "atomics/histogram", "atomics/distinct" };

  for (guint k = 0; k < G_N_ELEMENTS (ids); k++)
    for (WsFigureStyleKind st = 0; st < WS_N_FIGURE_STYLES; st++)
      {
        g_autoptr (WsPattern) pattern = NULL;
        g_autoptr (WsWarpResult) r = NULL;
        const WsFigureStyle *style = ws_figure_style_get (st);
        WsFigureFrame frame;
        guint32 cells = 0, right = 0;
        double below = 0;
        WsFigureHit hit;

        /* the print style and one for the screen: a hit test lays the
         * whole figure out */
        if (st != WS_FIGURE_STYLE_PRINT && st != WS_FIGURE_STYLE_DARK)
          continue;
        pattern = ws_preset_build (ws_preset_lookup (ids[k]));
        r = ws_model_analyze_warp (pattern, 0, WS_DIM3 (0, 0, 0), 0, NULL);
        frame = (WsFigureFrame) { r, NULL, WS_DIM3 (256, 1, 1), r->steps->len, WS_FIGURE_HIT_NONE };
        /* below the row of lanes (lane 31 ends it at the right margin): the
         * table's cells, every one wider and taller than the steps */
        for (double y = 0; y < HEIGHT / 2; y += 2)
          if (ws_figure_hit_test (WS_FIGURE_ATOMICS, &frame, style, WIDTH, HEIGHT, WIDTH - 22, y, &hit) &&
              hit.kind == WS_HIT_LANE && hit.index == 31)
            below = y + 1;
        g_assert_cmpfloat (below, >, 0);
        for (double y = below; y < HEIGHT; y += 10)
          for (double x = 0; x < WIDTH; x += 20)
            {
              if (!ws_figure_hit_test (WS_FIGURE_ATOMICS, &frame, style, WIDTH, HEIGHT, x, y, &hit) ||
                  hit.kind != WS_HIT_LANE)
                continue;
              cells |= 1u << hit.index;
              if (x > WIDTH * 2 / 3)
                right |= 1u << hit.index;
            }
        g_test_message ("%s, %s style: cells of lanes %08x, in the right third %08x", ids[k], style->name, cells,
                        right);
        g_assert_cmpuint (cells, ==, 0xffffffffu);
        g_assert_cmpuint (right, !=, 0);
      }
}

static void
test_applicable_views (void)
{
  g_assert_true (ws_figure_applies (WS_FIGURE_WARP, WS_SPACE_GLOBAL, WS_ACCESS_LOAD));
  g_assert_false (ws_figure_applies (WS_FIGURE_BANKS, WS_SPACE_GLOBAL, WS_ACCESS_LOAD));
  g_assert_true (ws_figure_applies (WS_FIGURE_BANKS, WS_SPACE_SHARED, WS_ACCESS_STORE));
  g_assert_true (ws_figure_applies (WS_FIGURE_ATOMICS, WS_SPACE_SHARED, WS_ACCESS_ATOMIC));
  g_assert_true (ws_figure_applies (WS_FIGURE_LOCAL, WS_SPACE_LOCAL, WS_ACCESS_LOAD));
  g_assert_true (ws_figure_applies (WS_FIGURE_CONSTANT, WS_SPACE_CONSTANT, WS_ACCESS_LOAD));
  g_assert_false (ws_figure_applies (WS_FIGURE_ATOMICS, WS_SPACE_GLOBAL, WS_ACCESS_LOAD));
}

/* ------------------------------------------------------------------ */
/* The chart library                                                  */
/* ------------------------------------------------------------------ */

static void
test_axis (void)
{
  g_autoptr (WsChart) chart = ws_chart_new ();
  WsChartAxis *y = &chart->axes[WS_CHART_Y];
  double ticks[16];
  guint n;
  g_autofree char *label = NULL;
  g_autofree char *value = NULL;

  ws_chart_set_axis (chart, WS_CHART_Y, "median time", "s", TRUE, WS_AXIS_LINEAR);
  ws_chart_set_range (chart, WS_CHART_Y, 0, 0.0008);
  g_assert_cmpfloat_with_epsilon (ws_chart_axis_map (y, 0.0004), 0.5, 1e-12);
  label = ws_chart_axis_label (y);
  g_assert_cmpstr (label, ==, "median time (µs)");
  value = ws_chart_axis_format (y, 0.000123, TRUE);
  g_assert_cmpstr (value, ==, "123 µs");
  n = ws_chart_axis_ticks (y, 6, ticks);
  g_assert_cmpuint (n, >=, 4);
  g_assert_cmpfloat (ticks[0], ==, 0);
  for (guint i = 1; i < n; i++)
    g_assert_cmpfloat_with_epsilon (ticks[i] - ticks[i - 1], ticks[1] - ticks[0], 1e-15);

  ws_chart_set_axis (chart, WS_CHART_X, "bins", NULL, FALSE, WS_AXIS_LOG2);
  ws_chart_set_range (chart, WS_CHART_X, 1, 64);
  g_assert_cmpfloat_with_epsilon (ws_chart_axis_map (&chart->axes[WS_CHART_X], 8), 0.5, 1e-12);
  n = ws_chart_axis_ticks (&chart->axes[WS_CHART_X], 10, ticks);
  g_assert_cmpuint (n, ==, 7);
  g_assert_cmpfloat (ticks[6], ==, 64);
}

static void
test_chart_draw_and_pick (void)
{
  g_autoptr (WsChart) chart = ws_chart_new ();
  const WsFigureStyle *style = ws_figure_style_get (WS_FIGURE_STYLE_LIGHT);
  WsChartSeries *measured, *model;
  cairo_surface_t *surface;
  cairo_t *cr;
  g_autofree char *dir = output_dir ();
  g_autofree char *path = g_build_filename (dir, "chart-light.png", NULL);
  guint s = 99, p = 99;
  gboolean found = FALSE;
  g_autofree char *text = NULL;

  ws_chart_set_title (chart, "Stride sweep", "NVIDIA H100 80GB HBM3 (recorded)");
  ws_chart_set_axis (chart, WS_CHART_X, "stride", "elements", FALSE, WS_AXIS_LINEAR);
  ws_chart_set_axis (chart, WS_CHART_Y, "median time", "s", TRUE, WS_AXIS_LINEAR);
  ws_chart_set_axis (chart, WS_CHART_Y2, "sectors per request", NULL, FALSE, WS_AXIS_LINEAR);
  measured = ws_chart_add_series (chart, "measured", WS_SERIES_POINTS, WS_CHART_Y, 0);
  model = ws_chart_add_series (chart, "model", WS_SERIES_LINE, WS_CHART_Y2, -1);
  for (int i = 1; i <= 32; i++)
    {
      double t = 40e-6 * MIN (i, 8);
      ws_chart_series_add (measured, i, t, t * 0.95, t * 1.1);
      ws_chart_series_add (model, i, MIN (4 * i, 32), NAN, NAN);
    }
  ws_chart_autoscale (chart);
  g_assert_cmpfloat (chart->axes[WS_CHART_Y].min, ==, 0);
  g_assert_cmpfloat (chart->axes[WS_CHART_Y].max, >=, 320e-6 * 1.1);
  g_assert_cmpfloat (chart->axes[WS_CHART_Y2].max, >=, 32);

  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 900, 420);
  cr = cairo_create (surface);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  ws_chart_draw (cr, chart, style, 900, 420);
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  g_assert_cmpfloat (ink (surface, style), >, 0.02);
  g_assert_cmpint (cairo_surface_write_to_png (surface, path), ==, CAIRO_STATUS_SUCCESS);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);

  /* somewhere in the plot there is the stride-8 point (within reach of
   * every third pixel: a pick lays the chart out, text and all) */
  for (double y = 0; y < 420 && !found; y += 3)
    for (double x = 0; x < 900 && !found; x += 3)
      if (ws_chart_pick (chart, style, 900, 420, x, y, &s, &p) && s == 0 && p == 7)
        found = TRUE;
  g_assert_true (found);
  text = ws_chart_describe_point (chart, 0, 7);
  g_assert_cmpstr (text, ==, "measured\nstride = 8 elements: 320 µs\nmin 304 µs, max 352 µs");
}

/* ------------------------------------------------------------------ */
/* Export                                                             */
/* ------------------------------------------------------------------ */

static gboolean
same_pixels (cairo_surface_t *a,
             cairo_surface_t *b)
{
  int h = cairo_image_surface_get_height (a), stride = cairo_image_surface_get_stride (a);

  cairo_surface_flush (a);
  cairo_surface_flush (b);
  return cairo_image_surface_get_width (a) == cairo_image_surface_get_width (b) &&
         h == cairo_image_surface_get_height (b) && stride == cairo_image_surface_get_stride (b) &&
         memcmp (cairo_image_surface_get_data (a), cairo_image_surface_get_data (b), (gsize) stride * h) == 0;
}

/* An export is the renderer's drawing, pixel for pixel: in the screen
 * styles as the view is, in print with every step served. */
static void
test_export_same_renderer (void)
{
  g_autoptr (WsPattern) pattern = ws_preset_build (ws_preset_lookup ("banks/padding"));
  g_autoptr (WsWarpResult) r = ws_model_analyze_warp (pattern, 0, WS_DIM3 (0, 0, 0), 0, NULL);

  for (WsFigureStyleKind k = 0; k < WS_N_FIGURE_STYLES; k++)
    {
      const WsFigureStyle *style = ws_figure_style_get (k);
      WsExportFigure figure = { WS_FIGURE_BANKS, { r, "banks/padding", WS_DIM3 (32, 32, 1), 3.5, WS_FIGURE_HIT_NONE } };
      WsFigureFrame direct = figure.frame;
      cairo_surface_t *exported = ws_export_to_image (WIDTH, HEIGHT, 1, style, ws_export_draw_figure, &figure);
      cairo_surface_t *drawn;

      if (k == WS_FIGURE_STYLE_PRINT)
        direct.position = r->steps->len;
      drawn = render (WS_FIGURE_BANKS, &direct, style);
      g_assert_true (same_pixels (exported, drawn));
      cairo_surface_destroy (exported);
      cairo_surface_destroy (drawn);
    }
}

static gboolean
png_size (const char *path,
          int         w,
          int         h)
{
  cairo_surface_t *png = cairo_image_surface_create_from_png (path);
  gboolean ok = cairo_surface_status (png) == CAIRO_STATUS_SUCCESS && cairo_image_surface_get_width (png) == w &&
                cairo_image_surface_get_height (png) == h;

  cairo_surface_destroy (png);
  return ok;
}

static void
test_export_files (void)
{
  g_autofree char *dir = output_dir ();
  g_autofree char *png = g_build_filename (dir, "export-scale.png", NULL);
  g_autofree char *svg = g_build_filename (dir, "export.svg", NULL);
  g_autofree char *pdf = g_build_filename (dir, "export.pdf", NULL);
  g_autofree char *missing = g_build_filename (dir, "no-such-dir", "x.png", NULL);
  g_autoptr (WsPattern) pattern = ws_preset_build (ws_preset_lookup ("coalescing/offset"));
  g_autoptr (WsWarpResult) r = ws_model_analyze_warp (pattern, 0, WS_DIM3 (0, 0, 0), 0, NULL);
  WsExportFigure figure = { WS_FIGURE_WARP, { r, "offset", WS_DIM3 (256, 1, 1), 0, WS_FIGURE_HIT_NONE } };
  const WsFigureStyle *print = ws_figure_style_get (WS_FIGURE_STYLE_PRINT);
  g_autoptr (GError) error = NULL;
  g_autofree char *contents = NULL;
  WsExportFormat format;

  g_assert_true (ws_export_format_from_path ("a/b/Figure.PDF", &format));
  g_assert_cmpint (format, ==, WS_EXPORT_PDF);
  g_assert_false (ws_export_format_from_path ("figure.gif", &format));
  g_assert_false (ws_export_format_from_path ("svg", &format));

  g_assert_true (ws_export_drawing (png, WS_EXPORT_PNG, 640, 400, 2.5, print, ws_export_draw_figure, &figure, &error));
  g_assert_no_error (error);
  g_assert_true (png_size (png, 1600, 1000));
  g_assert_true (ws_export_drawing (svg, WS_EXPORT_SVG, 640, 400, 1, print, ws_export_draw_figure, &figure, &error));
  g_assert_true (ws_export_drawing (pdf, WS_EXPORT_PDF, 640, 400, 1, print, ws_export_draw_figure, &figure, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (pdf, &contents, NULL, NULL));
  g_assert_true (g_str_has_prefix (contents, "%PDF-"));

  /* refused: nothing written, and an existing file is left as it was */
  g_assert_false (ws_export_drawing (png, WS_EXPORT_PNG, 640, 400, 100, print, ws_export_draw_figure, &figure, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_true (png_size (png, 1600, 1000));
  g_assert_false (ws_export_drawing (missing, WS_EXPORT_SVG, 640, 400, 1, print, ws_export_draw_figure, &figure,
                                     &error));
  g_assert_nonnull (error);
  g_assert_false (g_file_test (missing, G_FILE_TEST_EXISTS));
}

static WsChart *
small_chart (void)
{
  WsChart *chart = ws_chart_new ();
  WsChartSeries *s;

  ws_chart_set_title (chart, "Two, side by side", "recorded, \"somewhere\"");
  ws_chart_set_axis (chart, WS_CHART_X, NULL, NULL, FALSE, WS_AXIS_CATEGORY);
  ws_chart_set_axis (chart, WS_CHART_Y, "median time", "s", TRUE, WS_AXIS_LINEAR);
  ws_chart_add_category (chart, "Copy (the bound)");
  ws_chart_add_category (chart, "Tile, padded");
  s = ws_chart_add_series (chart, "recorded on GPU A", WS_SERIES_POINTS, WS_CHART_Y, 0);
  ws_chart_series_add (s, 0, 2e-4, 1.9e-4, 2.2e-4);
  ws_chart_series_add (s, 1, 1e-4, NAN, NAN);
  ws_chart_add_note (chart, 1, "2.00× faster", 0, TRUE);
  return chart;
}

static void
test_chart_data (void)
{
  g_autoptr (WsChart) chart = small_chart ();
  g_autofree char *csv = ws_chart_to_csv (chart);
  g_autofree char *json = ws_chart_to_json (chart);
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  JsonObject *root, *point;

  g_assert_cmpstr (csv, ==,
                   "series,x,value,min,max,quantity,unit\n"
                   "recorded on GPU A,Copy (the bound),0.0002,0.00019,0.00022,median time,s\n"
                   "recorded on GPU A,\"Tile, padded\",0.0001,,,median time,s\n");
  json_parser_load_from_data (parser, json, -1, &error);
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (parser));
  g_assert_true (g_str_has_prefix (json, "{\n  \"format\" : \"warpscope-chart\",\n  \"version\" : 1,"));
  /* the numbers as the CSV has them: shortest, not 0.00019000000000000001 */
  g_assert_nonnull (strstr (json, "\"min\" : 0.00019,"));
  g_assert_cmpstr (json_object_get_string_member (root, "subtitle"), ==, "recorded, \"somewhere\"");
  point = json_array_get_object_element (
    json_object_get_array_member (json_array_get_object_element (json_object_get_array_member (root, "series"), 0),
                                  "points"), 1);
  g_assert_cmpstr (json_object_get_string_member (point, "category"), ==, "Tile, padded");
  g_assert_true (json_object_get_null_member (point, "min"));
  g_assert_cmpstr (json_object_get_string_member (
                     json_array_get_object_element (json_object_get_array_member (root, "notes"), 0), "text"), ==,
                   "2.00× faster");
}

/* Each view of a comparison is the renderer's own drawing of it, in its box. */
static void
test_compare_figure (void)
{
  g_autoptr (WsChart) chart = small_chart ();
  g_autoptr (WsPattern) a = ws_preset_build (ws_preset_lookup ("transpose/shared"));
  g_autoptr (WsPattern) b = ws_preset_build (ws_preset_lookup ("transpose/shared-padded"));
  g_autoptr (WsWarpResult) ra = ws_model_analyze_warp (a, 2, WS_DIM3 (0, 0, 0), 0, NULL);
  g_autoptr (WsWarpResult) rb = ws_model_analyze_warp (b, 2, WS_DIM3 (0, 0, 0), 0, NULL);
  const WsFigureStyle *style = ws_figure_style_get (WS_FIGURE_STYLE_DARK);
  WsCompareFigure compare = { { { WS_FIGURE_BANKS, { ra, "tile", WS_DIM3 (32, 32, 1), 32, WS_FIGURE_HIT_NONE } },
                                { WS_FIGURE_BANKS, { rb, "padded", WS_DIM3 (32, 32, 1), 32, WS_FIGURE_HIT_NONE } } },
                              2, chart };
  cairo_surface_t *whole, *cell;
  WsBox box;
  g_autofree char *dir = output_dir ();
  g_autofree char *path = g_build_filename (dir, "compare-dark.png", NULL);

  double h;

  ws_chart_autoscale (chart);
  h = MAX (900, ceil (ws_compare_figure_min_height (&compare, style, 1400)));
  whole = ws_export_to_image (1400, h, 1, style, ws_compare_figure_draw, &compare);
  g_assert_cmpint (cairo_surface_write_to_png (whole, path), ==, CAIRO_STATUS_SUCCESS);
  g_assert_cmpfloat (ink (whole, style), >, 0.05);
  box = ws_compare_figure_cell_box (&compare, style, 1, 1400, h);
  g_assert_cmpfloat (box.x, ==, 700);
  g_assert_cmpfloat (box.y, ==, 0);
  g_assert_cmpfloat (ws_compare_figure_chart_box (&compare, style, 1400, h).y, >=, box.h);

  /* the second view, cut out of the whole, is the view drawn alone */
  cell = cairo_surface_create_for_rectangle (whole, box.x, box.y, box.w, box.h);
  {
    cairo_surface_t *copy = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, box.w, box.h);
    cairo_t *cr = cairo_create (copy);
    cairo_surface_t *alone = ws_export_to_image (box.w, box.h, 1, style, ws_export_draw_figure, &compare.cells[1]);
    int differ = 0;

    cairo_set_source_surface (cr, cell, 0, 0);
    cairo_set_operator (cr, CAIRO_OPERATOR_SOURCE);
    cairo_paint (cr);
    cairo_destroy (cr);
    cairo_surface_flush (copy);
    /* but for the separator line at its left edge */
    for (int y = 0; y < box.h; y++)
      for (int x = 2; x < box.w; x++)
        differ += ((guint32 *) (cairo_image_surface_get_data (copy) + y * cairo_image_surface_get_stride (copy)))[x] !=
                  ((guint32 *) (cairo_image_surface_get_data (alone) + y * cairo_image_surface_get_stride (alone)))[x];
    g_assert_cmpint (differ, ==, 0);
    cairo_surface_destroy (copy);
    cairo_surface_destroy (alone);
  }
  cairo_surface_destroy (cell);
  cairo_surface_destroy (whole);
}

/* Draws in every style into figures/NAME-STYLE.png; each has ink. */
static void
draw_every_style (const char       *name,
                  WsExportDrawFunc  draw,
                  gpointer          data,
                  double            min_ink)
{
  g_autofree char *dir = output_dir ();

  for (guint k = 0; k < WS_N_FIGURE_STYLES; k++)
    {
      const WsFigureStyle *style = ws_figure_style_get (k);
      cairo_surface_t *image = ws_export_to_image (WIDTH, HEIGHT, 1, style, draw, data);
      g_autofree char *file = g_strdup_printf ("%s-%s.png", name, style->name);
      g_autofree char *path = g_build_filename (dir, file, NULL);

      g_assert_cmpint (cairo_surface_status (image), ==, CAIRO_STATUS_SUCCESS);
      g_assert_cmpint (cairo_surface_write_to_png (image, path), ==, CAIRO_STATUS_SUCCESS);
      g_assert_cmpfloat (ink (image, style), >, min_ink);
      cairo_surface_destroy (image);
    }
}

/* Copies in and out on four streams, overlapping with the kernels. */
static const WsTimelineBar streams_bars[] = {
  { 0, WS_TIMELINE_HOST_TO_DEVICE, 0.00, 0.30 }, { 0, WS_TIMELINE_KERNEL, 0.30, 0.55 },
  { 0, WS_TIMELINE_DEVICE_TO_HOST, 0.55, 0.85 }, { 1, WS_TIMELINE_HOST_TO_DEVICE, 0.30, 0.60 },
  { 1, WS_TIMELINE_KERNEL, 0.60, 0.85 }, { 1, WS_TIMELINE_DEVICE_TO_HOST, 0.85, 1.15 },
  { 2, WS_TIMELINE_HOST_TO_DEVICE, 0.60, 0.90 }, { 2, WS_TIMELINE_KERNEL, 0.90, 1.15 },
  { 2, WS_TIMELINE_DEVICE_TO_HOST, 1.15, 1.45 }, { 3, WS_TIMELINE_HOST_TO_DEVICE, 0.90, 1.20 },
  { 3, WS_TIMELINE_KERNEL, 1.20, 1.45 }, { 3, WS_TIMELINE_DEVICE_TO_HOST, 1.45, 1.75 },
};

static void
test_timeline_figure (void)
{
  WsTimelineFigure t = { "Copies overlapped in streams", NULL, streams_bars, G_N_ELEMENTS (streams_bars) };
  WsTimelineFigure one = { NULL, NULL, streams_bars, 3 };
  WsTimelineFigure none = { "Nothing", NULL, NULL, 0 };
  const WsFigureStyle *style = ws_figure_style_get (WS_FIGURE_STYLE_LIGHT);
  double busy, elapsed;
  int hit;
  g_autofree char *what = NULL;

  draw_every_style ("timeline", ws_timeline_figure_draw, &t, 0.03);
  draw_every_style ("timeline-one-stream", ws_timeline_figure_draw, &one, 0.02);
  draw_every_style ("timeline-empty", ws_timeline_figure_draw, &none, 0.001);
  ws_timeline_figure_totals (&t, &busy, &elapsed);
  g_assert_cmpfloat_with_epsilon (busy, 3.4, 1e-9);
  g_assert_cmpfloat_with_epsilon (elapsed, 1.75, 1e-9);
  ws_timeline_figure_totals (&one, &busy, &elapsed);
  g_assert_cmpfloat_with_epsilon (busy, elapsed, 1e-9);

  /* the middle of stream 2's kernel, found where the figure drew it */
  for (int y = 0; y < HEIGHT; y += 2)
    for (int x = 0; x < WIDTH; x += 2)
      if ((hit = ws_timeline_figure_hit (&t, style, WIDTH, HEIGHT, x, y)) == 7)
        {
          what = ws_timeline_figure_describe (&t, hit);
          x = WIDTH;
          y = HEIGHT;
        }
  g_assert_nonnull (what);
  g_assert_nonnull (strstr (what, "kernel on stream 2"));
  g_assert_nonnull (strstr (what, "0.250 ms"));
  g_assert_cmpint (ws_timeline_figure_hit (&t, style, WIDTH, HEIGHT, 1, 1), ==, -1);
  g_assert_null (ws_timeline_figure_describe (&t, 99));
}

static void
test_occupancy_figure (void)
{
  const WsSmLimits *h100 = ws_sm_limits_lookup (9, 0);
  WsOccupancyFigure registers = { "Registers per thread", h100, 256, 80, 0, 0.415 };
  WsOccupancyFigure shared = { "Shared memory per block", h100, 128, 16, 65536, 0 };
  WsOccupancyFigure too_big = { "Too big", h100, 1024, 255, 0, 0 };
  WsOccupancy o;

  g_assert_true (ws_occupancy_figure_compute (&registers, &o));
  g_assert_cmpuint (o.blocks_per_sm, ==, 3);
  g_assert_cmpint (o.limiter, ==, WS_OCCUPANCY_LIMIT_REGISTERS);
  g_assert_true (ws_occupancy_figure_compute (&shared, &o));
  g_assert_cmpint (o.limiter, ==, WS_OCCUPANCY_LIMIT_SHARED);
  g_assert_false (ws_occupancy_figure_compute (&too_big, &o));
  draw_every_style ("occupancy-registers", ws_occupancy_figure_draw, &registers, 0.05);
  draw_every_style ("occupancy-shared", ws_occupancy_figure_draw, &shared, 0.05);
  draw_every_style ("occupancy-too-big", ws_occupancy_figure_draw, &too_big, 0.001);
}

static void
test_l2_figure (void)
{
  const gint64 mib = 1 << 20;
  WsL2Figure fits = { "Persisting window", { 50 * mib, 75 * mib / 2, 24 * mib, 1.0, 24 * mib, 48 * mib } };
  WsL2Figure thrash = { "Too much persisting", { 50 * mib, 75 * mib / 2, 48 * mib, 1.0, 48 * mib, 96 * mib } };
  WsL2Figure none = { "Streaming", { 50 * mib, 0, 0, 0, 24 * mib, 48 * mib } };

  draw_every_style ("l2-fits", ws_l2_figure_draw, &fits, 0.03);
  draw_every_style ("l2-thrashing", ws_l2_figure_draw, &thrash, 0.03);
  draw_every_style ("l2-streaming", ws_l2_figure_draw, &none, 0.03);
}

/* Text of any length (a name a file held), drawn: at most a thousand
 * characters reach Pango, one line stays one line, and wrapped text takes
 * at most twelve lines. */
static void
test_long_text (void)
{
  /* tabs and other control characters too: Pango does not wrap a run of
   * them (a fuzzed recording's GPU name, "NVIDIA H100" and 300 tabs, came
   * out 1640 px wide wrapped at 200; a profile's of form feeds, 215) */
  static const char *pieces[] = { "X", "GPU ", "漢", "a\n", "\xff\xfe", "H100\t\t\t\t\t\t\t\t\t\t", "\t",
                                  "\f\f\f\f###union###\x1b" };
  const WsFigureStyle *style = ws_figure_style_get (WS_FIGURE_STYLE_LIGHT);
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 400, 400);
  cairo_t *cr = cairo_create (surface);
  WsTextLog *log = ws_text_log_new ();
  WsFigureContext ctx;
  double one_line;

  ws_text_log_attach (log, cr);
  ws_figure_context_init (&ctx, cr, style, 400, 400);
  for (guint i = 0; i < G_N_ELEMENTS (pieces); i++)
    {
      GString *s = g_string_new (NULL);
      g_autofree char *text = NULL;
      WsTextOptions line = { .max_width = 300 };
      WsTextOptions wrapped = { .max_width = 300, .wrap = TRUE };
      gboolean lines = strchr (pieces[i], '\n') != NULL;
      double w, h;

      while (s->len < (1 << 20))
        g_string_append (s, pieces[i]);
      text = g_string_free (s, FALSE);
      ws_figure_text (&ctx, 0, 0, text, &line, &w, &h);
      g_assert_cmpfloat (w, <=, 301);
      /* a line of this script is as tall as it is */
      one_line = h;
      if (!lines)
        g_assert_cmpfloat (h, <, 20);
      ws_figure_text (&ctx, 0, 0, text, &wrapped, &w, &h);
      g_assert_cmpfloat (w, <=, 301);
      g_test_message ("piece %u: one line %.0f px, wrapped %.0f px", i, one_line, h);
      g_assert_cmpfloat (h, <=, (lines ? 15 : one_line) * 12.5);
      ws_figure_text_size (&ctx, text, NULL, &w, NULL);
      g_assert_cmpfloat (w, <, 1000 * style->font_size * 2);
    }
  g_assert_cmpuint (ws_text_log_len (log), ==, 2 * G_N_ELEMENTS (pieces));
  /* a device profile's name the fuzzer made, wrapped at 200 px (it came
   * out 215 wide: Pango breaks no run of control characters) */
  {
    static const char *fuzzed = "\f\f\f\f\f\f\f\f\f\f\f\f\f\f\f\f\f###union#######################!#####\f\f\f\f\n\n"
                                "60+3,\n  \f\f\f\f\f\f\f\f\f\f\f\f\f#############l1_shared_bytes###################\f\f\f\f"
                                "\n\n60+3,\nID\tA H100 8\tGB HBM3";
    WsTextOptions wrapped = { .max_width = 200, .wrap = TRUE };
    double w, h;

    ws_figure_text (&ctx, 0, 0, fuzzed, &wrapped, &w, &h);
    g_test_message ("the fuzzed name wrapped at 200 px: %.0f px wide", w);
    g_assert_cmpfloat (w, <=, 201);
  }
  for (guint i = 0; i < ws_text_log_len (log); i++)
    {
      const char *drawn = ws_text_log_get (log, i)->text;

      g_assert_true (g_utf8_validate (drawn, -1, NULL));
      g_assert_cmpuint (g_utf8_strlen (drawn, -1), <=, 1000);
      g_assert_true (g_str_has_suffix (drawn, "…"));
    }
  ws_figure_context_clear (&ctx);
  ws_text_log_free (log);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/figures/every-preset", test_every_preset);
  g_test_add_func ("/figures/animation-frames-differ", test_animation_frames_differ);
  g_test_add_func ("/figures/hit-and-describe", test_hit_and_describe);
  g_test_add_func ("/figures/bank-conflicts-described", test_bank_conflicts_described);
  g_test_add_func ("/figures/applicable-views", test_applicable_views);
  g_test_add_func ("/figures/atomics-fill", test_atomics_fill);
  g_test_add_func ("/chart/axis", test_axis);
  g_test_add_func ("/chart/draw-and-pick", test_chart_draw_and_pick);
  g_test_add_func ("/chart/data", test_chart_data);
  g_test_add_func ("/export/same-renderer", test_export_same_renderer);
  g_test_add_func ("/export/files", test_export_files);
  g_test_add_func ("/export/compare", test_compare_figure);
  g_test_add_func ("/figures/timeline", test_timeline_figure);
  g_test_add_func ("/figures/occupancy", test_occupancy_figure);
  g_test_add_func ("/figures/l2", test_l2_figure);
  g_test_add_func ("/figures/long-text", test_long_text);
  return g_test_run ();
}
