/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The hierarchy view: its figure (ui/figures/ws-hierarchy-figure.c) drawn,
 * hit and described, and built from the model and a measurement's counters
 * (ui/plots/ws-plot-hierarchy.c). */
#include "ws-device-json.h"
#include "ws-export.h"
#include "ws-hierarchy-figure.h"
#include "ws-kernel-launch.h"
#include "ws-plot-hierarchy.h"
#include "ws-presets.h"

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

/* The strided load of the issue that asked for this view, as the H200
 * counted it: 8 × the sectors at L1, 88 % L2 hits, the same DRAM bytes. */
static WsHierarchyFigure *
strided_figure (gboolean counters)
{
  WsHierarchyFigure *f = ws_hierarchy_figure_new ();

  f->title = g_strdup ("Strided: what the whole launch moves below the SMs");
  f->subtitle = g_strdup ("Model: NVIDIA H200 · counters: measured now");
  f->model_name = g_strdup ("model, NVIDIA H200 profile");
  if (counters)
    f->counted_name = g_strdup ("hardware counters, measured now");
  f->counted_hue = 2;
  f->levels[WS_HIER_SMS].name = g_strdup ("SMs");
  f->levels[WS_HIER_SMS].detail = g_strdup ("1.05 M warp instructions, 8 blocks per SM");
  f->levels[WS_HIER_L1].name = g_strdup ("L1");
  f->levels[WS_HIER_L1].hit_rate = (WsHierPair) { 0, counters ? 0.04 : NAN };
  f->levels[WS_HIER_L2].name = g_strdup ("L2");
  f->levels[WS_HIER_L2].hit_rate = (WsHierPair) { 0.875, counters ? 0.88 : NAN };
  f->levels[WS_HIER_DRAM].name = g_strdup ("DRAM");
  f->flows[0][WS_HIER_READ].bytes = (WsHierPair) { 33.6e6 * 32, counters ? 33.6e6 * 32 : NAN };
  f->flows[1][WS_HIER_READ].bytes = (WsHierPair) { 33.6e6 * 32, counters ? 30.8e6 * 32 : NAN };
  f->flows[1][WS_HIER_READ].counter = g_strdup ("lts__t_sectors_srcunit_tex_op_read.sum");
  f->flows[2][WS_HIER_READ].bytes = (WsHierPair) { 134e6, counters ? 134e6 : NAN };
  for (guint k = 0; k < WS_HIER_N_LINKS; k++)
    f->flows[k][WS_HIER_WRITE].bytes = (WsHierPair) { 134e6, counters ? 134e6 : NAN };
  ws_hierarchy_figure_add_term (f, "DRAM", 58e-6, "268 MB at 4.6 TB/s");
  ws_hierarchy_figure_add_term (f, "L2", 190e-6, NULL);
  ws_hierarchy_figure_add_term (f, "launch", 2.5e-6, NULL);
  f->bound = 1;
  f->predicted_s = 192e-6;
  if (counters)
    {
      f->measured_s = 279e-6;
      f->measured_lo = 275e-6;
      f->measured_hi = 290e-6;
      f->measured_name = g_strdup ("median time, measured now");
    }
  return f;
}

static WsTextLog *
draw_logged (const WsHierarchyFigure *f,
             const WsFigureStyle     *style,
             double                   w,
             double                   h)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) ceil (w), (int) ceil (h));
  cairo_t *cr = cairo_create (surface);
  WsTextLog *log = ws_text_log_new ();

  ws_text_log_attach (log, cr);
  ws_hierarchy_figure_draw (cr, f, style, w, h);
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
  return log;
}

/* Every style, at its least size and at the export's default: nothing cut,
 * nothing too small, nothing over anything, and the numbers on it. */
static void
test_draw (void)
{
  for (guint counters = 0; counters < 2; counters++)
    for (WsFigureStyleKind k = 0; k < WS_N_FIGURE_STYLES; k++)
      {
        g_autoptr (WsHierarchyFigure) f = strided_figure (counters);
        const WsFigureStyle *style = ws_figure_style_get (k);
        double w = ws_hierarchy_figure_min_width (f, style);
        const double sizes[][2] = { { w, ws_hierarchy_figure_min_height (f, style, w) },
                                    { 1200, MAX (720, ws_hierarchy_figure_min_height (f, style, 1200)) } };

        g_assert_cmpfloat (w, >, 300);
        g_assert_cmpfloat (w, <, 1000);
        g_assert_cmpfloat (ws_hierarchy_figure_natural_height (f, style, 1200), >=,
                           ws_hierarchy_figure_min_height (f, style, 1200));
        for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
          {
            g_autoptr (WsTextLog) log = draw_logged (f, style, sizes[i][0], sizes[i][1]);
            g_autoptr (GError) error = NULL;

            if (!ws_text_log_check (log, style->min_font_size, &error))
              g_error ("%s, %.0f × %.0f: %s", style->name, sizes[i][0], sizes[i][1], error->message);
            g_assert_false (ws_text_log_contains (log, "Too small"));
            g_assert_true (ws_text_log_contains (log, "L2"));
            g_assert_true (ws_text_log_contains (log, "1.08 GB"));
            g_assert_true (ws_text_log_contains (log, "87.5 % hits"));
            g_assert_true (ws_text_log_contains (log, "predicted"));
            /* the bound: its row, or where there is no room for it, in the prediction's */
            g_assert_true (ws_text_log_contains (log, "190 µs, bound") ||
                           ws_text_log_contains (log, "192 µs, bound by L2"));
            if (counters)
              {
                /* the counters beside the model, and how far apart */
                g_assert_true (ws_text_log_contains (log, "986 MB"));
                g_assert_true (ws_text_log_contains (log, "88.0 %"));
                g_assert_true (ws_text_log_contains (log, "279 µs"));
              }
          }
      }
}

/* Smaller than it may be, it says so, legibly, and draws nothing else. */
static void
test_too_small (void)
{
  g_autoptr (WsHierarchyFigure) f = strided_figure (TRUE);
  const WsFigureStyle *style = ws_figure_style_get (WS_FIGURE_STYLE_LIGHT);
  double w = ws_hierarchy_figure_min_width (f, style);
  g_autoptr (WsTextLog) log = draw_logged (f, style, w - 20, 600);
  WsHierHit hit;

  g_assert_cmpuint (ws_text_log_len (log), ==, 1);
  g_assert_true (ws_text_log_contains (log, "Too small to draw legibly"));
  g_assert_true (ws_text_log_check (log, style->min_font_size, NULL));
  g_assert_false (ws_hierarchy_figure_hit_test (f, style, w - 20, 600, w / 2, 300, &hit));
  g_assert_cmpint (hit.kind, ==, WS_HIER_HIT_NONE);
}

/* What is under the pointer: each pillar, each band, each row of the
 * time; and what its tooltip says. */
static void
test_hit (void)
{
  g_autoptr (WsHierarchyFigure) f = strided_figure (TRUE);
  const WsFigureStyle *style = ws_figure_style_get (WS_FIGURE_STYLE_LIGHT);
  const double w = 1200, h = 720;
  guint levels = 0, flows = 0, rows = 0;
  gboolean predicted = FALSE, measured = FALSE;
  WsHierHit hit;

  /* a grid of points over the figure finds every part of it */
  for (double y = 0; y < h; y += 4)
    for (double x = 0; x < w; x += 8)
      if (ws_hierarchy_figure_hit_test (f, style, w, h, x, y, &hit))
        {
          g_autofree char *text = ws_hierarchy_figure_describe (f, &hit);

          g_assert_nonnull (text);
          switch (hit.kind)
            {
            case WS_HIER_HIT_LEVEL:
              levels |= 1u << hit.index;
              break;
            case WS_HIER_HIT_FLOW:
              flows |= 1u << (hit.index * 2 + hit.direction);
              break;
            case WS_HIER_HIT_TERM:
              rows |= 1u << hit.index;
              break;
            case WS_HIER_HIT_PREDICTED:
              predicted = TRUE;
              break;
            case WS_HIER_HIT_MEASURED:
              measured = TRUE;
              break;
            case WS_HIER_HIT_NONE:
            default:
              g_assert_not_reached ();
            }
        }
  g_assert_cmpuint (levels, ==, 0xf);
  g_assert_cmpuint (flows, ==, 0x3f);
  g_assert_cmpuint (rows, ==, 0x7);
  g_assert_true (predicted && measured);
}

static void
test_describe (void)
{
  g_autoptr (WsHierarchyFigure) f = strided_figure (TRUE);
  g_autofree char *flow = ws_hierarchy_figure_describe (f, &(WsHierHit) { WS_HIER_HIT_FLOW, 1, WS_HIER_READ });
  g_autofree char *level = ws_hierarchy_figure_describe (f, &(WsHierHit) { WS_HIER_HIT_LEVEL, WS_HIER_L2 });
  g_autofree char *term = ws_hierarchy_figure_describe (f, &(WsHierHit) { WS_HIER_HIT_TERM, 1 });
  g_autofree char *pred = ws_hierarchy_figure_describe (f, &(WsHierHit) { WS_HIER_HIT_PREDICTED, -1 });
  g_autofree char *meas = ws_hierarchy_figure_describe (f, &(WsHierHit) { WS_HIER_HIT_MEASURED, -1 });

  g_assert_nonnull (strstr (flow, "L1 reads from L2"));
  g_assert_nonnull (strstr (flow, "model: 33.6 M sectors (1.08 GB)"));
  g_assert_nonnull (strstr (flow, "counted: 30.8 M sectors (986 MB) — the model is +9 %"));
  g_assert_nonnull (strstr (flow, "lts__t_sectors_srcunit_tex_op_read.sum"));
  g_assert_nonnull (strstr (level, "model: 87.5 % hits"));
  g_assert_nonnull (strstr (level, "counted: 88.0 % hits"));
  g_assert_nonnull (strstr (term, "L2 alone: 190 µs"));
  g_assert_nonnull (strstr (term, "bounds the launch"));
  g_assert_nonnull (strstr (pred, "bound by L2"));
  g_assert_nonnull (strstr (meas, "the prediction is −31 %"));
  g_assert_null (ws_hierarchy_figure_describe (f, &WS_HIER_HIT_INIT));
}

/* A copy is a copy: freeing one leaves the other whole. */
static void
test_copy (void)
{
  g_autoptr (WsHierarchyFigure) f = strided_figure (TRUE);
  g_autoptr (WsHierarchyFigure) c = ws_hierarchy_figure_copy (f);

  g_clear_pointer (&f, ws_hierarchy_figure_free);
  g_assert_cmpstr (c->levels[WS_HIER_L2].name, ==, "L2");
  g_assert_cmpstr (c->terms[1].name, ==, "L2");
  g_assert_cmpstr (c->flows[1][WS_HIER_READ].counter, ==, "lts__t_sectors_srcunit_tex_op_read.sum");
  g_assert_cmpuint (c->n_terms, ==, 3);
}

static void
test_format (void)
{
  const struct
  {
    double v;
    const char *count;
    const char *bytes;
  } cases[] = {
    { 0, "0", "0 B" }, { 12, "12", "12 B" }, { 986e3, "986 k", "986 kB" },
    { 4194304, "4.19 M", "4.19 MB" }, { 1.07e9, "1.07 G", "1.07 GB" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *c = ws_hier_format_count (cases[i].v);
      g_autofree char *b = ws_hier_format_bytes (cases[i].v);
      g_assert_cmpstr (c, ==, cases[i].count);
      g_assert_cmpstr (b, ==, cases[i].bytes);
    }
}

/* ------------------------------------------------------------------ */
/* From the model and the counters                                    */
/* ------------------------------------------------------------------ */

static WsMeasurement *
counted_measurement (void)
{
  WsMeasurement *m = ws_measurement_new ("coalescing/sequential");

  ws_measurement_add_sample (m, 0.100);
  ws_measurement_add_sample (m, 0.101);
  ws_measurement_add_sample (m, 0.103);
  ws_measurement_summarize (m);
  ws_measurement_add_counter (m, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 4194304);
  ws_measurement_add_counter (m, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum", 0);
  ws_measurement_add_counter (m, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", 4194304);
  ws_measurement_add_counter (m, "lts__t_sectors_srcunit_tex_op_read.sum", 4194304);
  ws_measurement_add_counter (m, "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum", 524288);
  ws_measurement_add_counter (m, "lts__t_sectors_srcunit_tex_op_write.sum", 4194304);
  ws_measurement_add_counter (m, "dram__bytes_read.sum", 134217728);
  ws_measurement_add_counter (m, "dram__bytes_write.sum", 125829120);
  return m;
}

static void
test_counted (void)
{
  g_autoptr (WsMeasurement) m = counted_measurement ();
  g_autoptr (WsMeasurement) none = ws_measurement_new ("x");
  WsCountedHierarchy c;

  g_assert_true (ws_plot_hierarchy_counted (m, &c));
  g_assert_cmpfloat (c.l1_read_sectors, ==, 4194304);
  g_assert_cmpfloat (c.l1_write_sectors, ==, 4194304);
  g_assert_cmpfloat (c.l1_hit_rate, ==, 0);
  g_assert_cmpfloat_with_epsilon (c.l2_hit_rate, 0.125, 1e-12);
  g_assert_cmpfloat (c.l2_write_sectors, ==, 4194304);
  g_assert_cmpfloat (c.dram_write_bytes, ==, 125829120);
  g_assert_false (ws_plot_hierarchy_counted (none, &c));
  g_assert_true (isnan (c.dram_read_bytes));
  g_assert_false (ws_plot_hierarchy_counted (NULL, &c));
}

static WsDeviceProfile *
h200 (void)
{
  g_autoptr (GError) error = NULL;
  WsDeviceProfile *p = ws_device_profile_find ("nvidia-h200", &error);

  g_assert_no_error (error);
  return p;
}

static void
test_build (void)
{
  g_autoptr (WsDeviceProfile) profile = h200 ();
  g_autoptr (WsPattern) pattern = ws_preset_build (ws_preset_lookup ("coalescing/sequential"));
  g_autoptr (WsKernelLaunch) launch = ws_kernel_launch_new ("coalescing/sequential", pattern, NULL);
  g_autoptr (WsLaunchPrediction) h = ws_launch_predict (launch, profile, NULL, NULL);
  g_autoptr (WsPlotModel) model = ws_plot_model_compute (ws_preset_lookup ("coalescing/sequential"), pattern, profile,
                                                         NULL, NULL);
  g_autoptr (WsMeasurement) m = counted_measurement ();
  WsPlotHierarchyInput in = { "Sequential", model, profile, "calibrated on this GPU", m, "measured now on NVIDIA H200", 2,
                              NULL };
  g_autoptr (WsHierarchyFigure) f = NULL;
  g_autofree char *flow = NULL;

  g_assert_nonnull (h);
  g_assert_nonnull (model);
  f = ws_plot_hierarchy_build (&in);
  g_assert_null (f->message);
  g_assert_nonnull (strstr (f->title, "Sequential"));
  g_assert_nonnull (strstr (f->subtitle, "calibrated on this GPU"));
  g_assert_nonnull (strstr (f->subtitle, "measured now on NVIDIA H200"));
  g_assert_cmpstr (f->counted_name, ==, "hardware counters");
  g_assert_cmpint (f->counted_hue, ==, 2);
  /* the model's figures are the hierarchy's, in bytes */
  g_assert_cmpfloat (f->flows[0][WS_HIER_READ].bytes.model, ==, h->total.l1_sectors * 32.0);
  g_assert_cmpfloat (f->flows[1][WS_HIER_READ].bytes.model, ==, h->total.l2_read_sectors * 32.0);
  g_assert_cmpfloat (f->flows[2][WS_HIER_READ].bytes.model, ==, (double) h->total.dram_read_bytes);
  g_assert_cmpfloat (f->flows[2][WS_HIER_WRITE].bytes.model, ==, (double) h->total.dram_write_bytes);
  g_assert_cmpfloat_with_epsilon (f->levels[WS_HIER_L2].hit_rate.model, ws_hier_stats_l2_hit_rate (&h->total), 1e-12);
  /* the kernel stores what it loads: the model follows both */
  g_assert_cmpfloat (f->flows[0][WS_HIER_WRITE].bytes.model, >, 0);
  /* its time, level by level, and the bound */
  g_assert_cmpfloat_with_epsilon (f->predicted_s, h->timing.predicted_ms / 1e3, 1e-15);
  g_assert_cmpint (f->bound, ==, h->timing.bound);
  g_assert_cmpfloat_with_epsilon (f->terms[WS_BOUND_DRAM].seconds, h->timing.level_ms[WS_BOUND_DRAM] / 1e3, 1e-15);
  g_assert_cmpstr (f->terms[WS_BOUND_DRAM].name, ==, "DRAM");
  /* the counters', beside them */
  g_assert_cmpfloat (f->flows[1][WS_HIER_READ].bytes.counted, ==, 4194304 * 32.0);
  g_assert_cmpfloat (f->flows[2][WS_HIER_WRITE].bytes.counted, ==, 125829120);
  g_assert_cmpfloat_with_epsilon (f->levels[WS_HIER_L2].hit_rate.counted, 0.125, 1e-12);
  g_assert_cmpfloat_with_epsilon (f->measured_s, 101e-6, 1e-12);
  flow = ws_hierarchy_figure_describe (f, &(WsHierHit) { WS_HIER_HIT_FLOW, 2, WS_HIER_WRITE });
  g_assert_nonnull (strstr (flow, "dram__bytes_write.sum"));
  g_assert_nonnull (strstr (flow, "L2 writes to DRAM"));
}

/* Without a hierarchy, the figure says why, in the place of the flows. */
static void
test_build_message (void)
{
  WsPlotHierarchyInput in = { "Sequential", .message = "No device profile for NVIDIA T4" };
  g_autoptr (WsHierarchyFigure) f = ws_plot_hierarchy_build (&in);
  const WsFigureStyle *style = ws_figure_style_get (WS_FIGURE_STYLE_DARK);
  g_autoptr (WsTextLog) log = NULL;

  g_assert_cmpstr (f->message, ==, "No device profile for NVIDIA T4");
  g_assert_null (f->counted_name);
  log = draw_logged (f, style, 800, 500);
  g_assert_true (ws_text_log_contains (log, "No device profile for NVIDIA T4"));
  g_assert_true (ws_text_log_check (log, style->min_font_size, NULL));
}

/* PNG, SVG and PDF through the export, as warpscope-cli writes them. */
static void
test_export (void)
{
  g_autoptr (WsHierarchyFigure) f = strided_figure (TRUE);
  g_autofree char *dir = g_dir_make_tmp ("ws-hierarchy-XXXXXX", NULL);
  const char *names[] = { "h.png", "h.svg", "h.pdf" };
  const WsExportFormat formats[] = { WS_EXPORT_PNG, WS_EXPORT_SVG, WS_EXPORT_PDF };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *path = g_build_filename (dir, names[i], NULL);
      g_autoptr (GError) error = NULL;
      GStatBuf st;

      g_assert_true (ws_export_drawing (path, formats[i], 1200, 720, 1, ws_figure_style_get (WS_FIGURE_STYLE_PRINT),
                                        ws_hierarchy_figure_export_draw, f, &error));
      g_assert_no_error (error);
      g_assert_cmpint (g_stat (path, &st), ==, 0);
      g_assert_cmpint (st.st_size, >, 1000);
      g_remove (path);
    }
  g_rmdir (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/hierarchy-figure/draw", test_draw);
  g_test_add_func ("/hierarchy-figure/too-small", test_too_small);
  g_test_add_func ("/hierarchy-figure/hit", test_hit);
  g_test_add_func ("/hierarchy-figure/describe", test_describe);
  g_test_add_func ("/hierarchy-figure/copy", test_copy);
  g_test_add_func ("/hierarchy-figure/format", test_format);
  g_test_add_func ("/hierarchy-plot/counted", test_counted);
  g_test_add_func ("/hierarchy-plot/build", test_build);
  g_test_add_func ("/hierarchy-plot/message", test_build_message);
  g_test_add_func ("/hierarchy-plot/export", test_export);
  return g_test_run ();
}
