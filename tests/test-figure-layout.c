/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Figures that go on a slide: every view of every preset, every comparison
 * set and every measured plot, in every style, at the smallest size the
 * export accepts and at its default size, lays out with no text cut (by
 * Pango or by a clip), none below the style's smallest size and none over
 * another — checked on the boxes the renderers lay their text in, not on
 * pixels; the hierarchy view of every preset likewise. And the palette: state colours and identity colours never look
 * alike, for people with normal vision, protanopia, deuteranopia or
 * tritanopia. Under WS_TEST_SAMPLE (the sanitized run), a share of the
 * plots and comparisons, one of each topic and kind at least (sample.h). */
#include "ws-chart.h"
#include "ws-compare.h"
#include "ws-compare-figure.h"
#include "ws-device-json.h"
#include "ws-export.h"
#include "ws-figure.h"
#include "ws-hierarchy-figure.h"
#include "ws-plot.h"
#include "ws-plot-hierarchy.h"
#include "ws-presets.h"
#include "ws-recording.h"
#include "sample.h"

#include <math.h>
#include <string.h>

#define DEFAULT_WIDTH 1200
#define DEFAULT_HEIGHT 720

/* ------------------------------------------------------------------ */
/* Colour vision                                                      */
/* ------------------------------------------------------------------ */

typedef enum
{
  VISION_NORMAL,
  VISION_PROTANOPIA,
  VISION_DEUTERANOPIA,
  VISION_TRITANOPIA,
  N_VISIONS
} Vision;

static const char *vision_names[N_VISIONS] = { "normal vision", "protanopia", "deuteranopia", "tritanopia" };

/* Machado, Oliveira and Fernandes (2009), severity 1, on linear RGB. */
static const double machado[N_VISIONS][3][3] = {
  [VISION_NORMAL] = { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } },
  [VISION_PROTANOPIA] = { { 0.152286, 1.052583, -0.204868 },
                          { 0.114503, 0.786281, 0.099216 },
                          { -0.003882, -0.048116, 1.051998 } },
  [VISION_DEUTERANOPIA] = { { 0.367322, 0.860646, -0.227968 },
                            { 0.280085, 0.672501, 0.047413 },
                            { -0.011820, 0.042940, 0.968881 } },
  [VISION_TRITANOPIA] = { { 1.255528, -0.076749, -0.178779 },
                          { -0.078411, 0.930809, 0.147602 },
                          { 0.004733, 0.691367, 0.303900 } },
};

typedef struct
{
  double l, a, b;
} Lab;

static double
to_linear (double c)
{
  return c <= 0.04045 ? c / 12.92 : pow ((c + 0.055) / 1.055, 2.4);
}

static double
lab_f (double t)
{
  return t > 216.0 / 24389 ? cbrt (t) : (24389.0 / 27 * t + 16) / 116;
}

/* The colour as someone with this vision sees it, in CIELAB (D65). */
static Lab
seen (WsRgba c,
      Vision v)
{
  double lin[3] = { to_linear (c.r), to_linear (c.g), to_linear (c.b) }, rgb[3];
  double x, y, z, fx, fy, fz;

  for (guint i = 0; i < 3; i++)
    rgb[i] = CLAMP (machado[v][i][0] * lin[0] + machado[v][i][1] * lin[1] + machado[v][i][2] * lin[2], 0, 1);
  x = 0.4124564 * rgb[0] + 0.3575761 * rgb[1] + 0.1804375 * rgb[2];
  y = 0.2126729 * rgb[0] + 0.7151522 * rgb[1] + 0.0721750 * rgb[2];
  z = 0.0193339 * rgb[0] + 0.1191920 * rgb[1] + 0.9503041 * rgb[2];
  fx = lab_f (x / 0.95047);
  fy = lab_f (y);
  fz = lab_f (z / 1.08883);
  return (Lab) { 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz) };
}

static double
deg (double r)
{
  double d = r * 180 / G_PI;
  return d < 0 ? d + 360 : d;
}

static double
rad (double d)
{
  return d * G_PI / 180;
}

/* CIEDE2000 (Sharma, Wu and Dalal, 2005). */
static double
delta_e (Lab x,
         Lab y)
{
  double c1 = hypot (x.a, x.b), c2 = hypot (y.a, y.b), cb = (c1 + c2) / 2;
  double g = 0.5 * (1 - sqrt (pow (cb, 7) / (pow (cb, 7) + pow (25, 7))));
  double a1 = (1 + g) * x.a, a2 = (1 + g) * y.a;
  double c1p = hypot (a1, x.b), c2p = hypot (a2, y.b);
  double h1 = c1p == 0 ? 0 : deg (atan2 (x.b, a1)), h2 = c2p == 0 ? 0 : deg (atan2 (y.b, a2));
  double dl = y.l - x.l, dc = c2p - c1p, dh = 0, hb, lb, cbp, t, dth, rc, sl, sc, sh, rt;

  if (c1p * c2p != 0)
    {
      dh = h2 - h1;
      if (dh > 180)
        dh -= 360;
      else if (dh < -180)
        dh += 360;
    }
  dh = 2 * sqrt (c1p * c2p) * sin (rad (dh / 2));
  lb = (x.l + y.l) / 2;
  cbp = (c1p + c2p) / 2;
  if (c1p * c2p == 0)
    hb = h1 + h2;
  else if (fabs (h1 - h2) <= 180)
    hb = (h1 + h2) / 2;
  else
    hb = h1 + h2 < 360 ? (h1 + h2 + 360) / 2 : (h1 + h2 - 360) / 2;
  t = 1 - 0.17 * cos (rad (hb - 30)) + 0.24 * cos (rad (2 * hb)) + 0.32 * cos (rad (3 * hb + 6)) -
      0.20 * cos (rad (4 * hb - 63));
  dth = 30 * exp (-pow ((hb - 275) / 25, 2));
  rc = 2 * sqrt (pow (cbp, 7) / (pow (cbp, 7) + pow (25, 7)));
  sl = 1 + 0.015 * pow (lb - 50, 2) / sqrt (20 + pow (lb - 50, 2));
  sc = 1 + 0.045 * cbp;
  sh = 1 + 0.015 * cbp * t;
  rt = -sin (rad (2 * dth)) * rc;
  return sqrt (pow (dl / sl, 2) + pow (dc / sc, 2) + pow (dh / sh, 2) + rt * (dc / sc) * (dh / sh));
}

static double
distance (WsRgba a,
          WsRgba b,
          Vision v)
{
  return delta_e (seen (a, v), seen (b, v));
}

/* How far apart, at least, colours must look (CIEDE2000). */
#define STATE_APART 15.0       /* a state from another state, or from any identity */
#define IDENTITY_APART 15.0    /* two identities, with normal vision */
#define NEIGHBOURS_APART 8.0   /* consecutive identities (steps 1 and 2), for every vision */

/* Every reason a palette fails, one per line; empty when it passes. */
static char *
palette_problems (const WsFigureStyle *s)
{
  const struct
  {
    const char *name;
    WsRgba color;
  } states[] = { { "accent", s->accent }, { "conflict", s->conflict }, { "broadcast", s->broadcast },
                 { "model", s->model } };
  GString *out = g_string_new (NULL);

  for (Vision v = 0; v < N_VISIONS; v++)
    {
      /* the model is never drawn beside a conflict or a broadcast: only
       * the accent (the highlighted value in a chart) must differ from it */
      for (guint i = 0; i < 3; i++)
        for (guint j = i + 1; j < G_N_ELEMENTS (states); j++)
          if ((j < 3 || i == 0) && distance (states[i].color, states[j].color, v) < STATE_APART)
            g_string_append_printf (out, "%s: %s and %s are %.1f apart\n", vision_names[v], states[i].name,
                                    states[j].name, distance (states[i].color, states[j].color, v));
      for (guint i = 0; i < G_N_ELEMENTS (states); i++)
        for (guint h = 0; h < WS_FIGURE_N_HUES; h++)
          if (distance (states[i].color, s->hues[h], v) < STATE_APART)
            g_string_append_printf (out, "%s: %s and hue %u are %.1f apart\n", vision_names[v], states[i].name, h,
                                    distance (states[i].color, s->hues[h], v));
      for (guint h = 0; h < WS_FIGURE_N_HUES; h++)
        {
          guint next = (h + 1) % WS_FIGURE_N_HUES;
          if (distance (s->hues[h], s->hues[next], v) < NEIGHBOURS_APART)
            g_string_append_printf (out, "%s: hues %u and %u are %.1f apart\n", vision_names[v], h, next,
                                    distance (s->hues[h], s->hues[next], v));
        }
    }
  for (guint h = 0; h < WS_FIGURE_N_HUES; h++)
    for (guint k = h + 1; k < WS_FIGURE_N_HUES; k++)
      if (distance (s->hues[h], s->hues[k], VISION_NORMAL) < IDENTITY_APART)
        g_string_append_printf (out, "hues %u and %u are %.1f apart\n", h, k,
                                distance (s->hues[h], s->hues[k], VISION_NORMAL));
  /* every fill carries a label in the ink chosen for it */
  for (guint h = 0; h <= WS_FIGURE_N_HUES; h++)
    {
      WsRgba fill = h < WS_FIGURE_N_HUES ? s->hues[h] : s->accent;
      double contrast = ws_rgba_contrast (fill, ws_figure_style_ink_on (s, fill));
      if (contrast < 4.5)
        g_string_append_printf (out, "text on %s %u has a contrast of %.1f\n", h < WS_FIGURE_N_HUES ? "hue" : "accent",
                                h, contrast);
    }
  return g_string_free (out, FALSE);
}

static void
test_palette (void)
{
  for (WsFigureStyleKind k = 0; k < WS_N_FIGURE_STYLES; k++)
    {
      const WsFigureStyle *s = ws_figure_style_get (k);
      g_autofree char *problems = palette_problems (s);

      if (*problems)
        g_test_message ("%s style:\n%s", s->name, problems);
      g_assert_cmpstr (problems, ==, "");
    }
}

/* The check has teeth: the palette Warpscope had before, whose third step
 * was the orange of "being served", fails it. */
static void
test_palette_check_fails (void)
{
#define HEX(V) { (((V) >> 16) & 0xff) / 255.0, (((V) >> 8) & 0xff) / 255.0, ((V) &0xff) / 255.0, 1.0 }
  WsFigureStyle old = *ws_figure_style_get (WS_FIGURE_STYLE_LIGHT);
  const WsRgba hues[] = { HEX (0x1c71d8), HEX (0x26a269), HEX (0xc64600), HEX (0x813d9c), HEX (0x986a44),
                          HEX (0x0e7c86) };
  g_autofree char *problems = NULL;

  old.accent = (WsRgba) HEX (0xe66100);
  old.conflict = (WsRgba) HEX (0xc01c28);
  old.broadcast = (WsRgba) HEX (0x26a269);
  old.model = (WsRgba) HEX (0x813d9c);
  memcpy (old.hues, hues, sizeof hues);
#undef HEX
  problems = palette_problems (&old);
  g_assert_nonnull (strstr (problems, "normal vision: accent and hue 2"));
  g_assert_nonnull (strstr (problems, "normal vision: model and hue 3 are 0.0 apart"));
  g_assert_nonnull (strstr (problems, "normal vision: broadcast and hue 1 are 0.0 apart"));
}

/* ------------------------------------------------------------------ */
/* The text checker                                                   */
/* ------------------------------------------------------------------ */

typedef void (*DrawFunc) (cairo_t *cr, const WsFigureStyle *style, double width, double height, gpointer data);

/* Draws into an image surface with a text log; FALSE with the first
 * problem the log shows. */
static gboolean
check_drawing (DrawFunc             draw,
               gpointer             data,
               const WsFigureStyle *style,
               double               width,
               double               height,
               WsTextLog          **log_out,
               GError             **error)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) ceil (width), (int) ceil (height));
  cairo_t *cr = cairo_create (surface);
  WsTextLog *log = ws_text_log_new ();
  gboolean ok;

  ws_text_log_attach (log, cr);
  draw (cr, style, width, height, data);
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
  ok = ws_text_log_check (log, style->min_font_size, error);
  if (log_out)
    *log_out = log;
  else
    ws_text_log_free (log);
  return ok;
}

typedef struct
{
  double x, y, size, max_width;
  const char *text;
  gboolean clip;
} Label;

static void
draw_labels (cairo_t             *cr,
             const WsFigureStyle *style,
             double               width,
             double               height,
             gpointer             data)
{
  WsFigureContext ctx;

  ws_figure_context_init (&ctx, cr, style, width, height);
  for (const Label *l = data; l->text; l++)
    {
      cairo_save (cr);
      if (l->clip)
        {
          cairo_rectangle (cr, 0, 0, 60, 60);
          cairo_clip (cr);
        }
      ws_figure_text (&ctx, l->x, l->y, l->text, &(WsTextOptions) { .size = l->size, .max_width = l->max_width },
                      NULL, NULL);
      cairo_restore (cr);
    }
  ws_figure_context_clear (&ctx);
}

static void
assert_labels (const Label *labels,
               const char  *expected)
{
  g_autoptr (GError) error = NULL;
  gboolean ok = check_drawing (draw_labels, (gpointer) labels, ws_figure_style_get (WS_FIGURE_STYLE_LIGHT), 300, 200,
                               NULL, &error);

  if (expected == NULL)
    g_assert_no_error (error);
  else
    {
      g_assert_false (ok);
      g_assert_nonnull (strstr (error->message, expected));
    }
}

/* The checker finds each thing it looks for, and only those. */
static void
test_checker (void)
{
  assert_labels ((Label[]) { { 10, 10, 12, 0, "apart" }, { 10, 40, 12, 0, "fine" }, { 0 } }, NULL);
  assert_labels ((Label[]) { { 10, 10, 12, 0, "one" }, { 14, 12, 12, 0, "two" }, { 0 } }, "overlaps");
  assert_labels ((Label[]) { { 10, 10, 12, 40, "a long label, cut short" }, { 0 } }, "ellipsized");
  assert_labels ((Label[]) { { 10, 10, 6, 0, "tiny" }, { 0 } }, "below the smallest");
  assert_labels ((Label[]) { { 250, 10, 12, 0, "off the edge" }, { 0 } }, "clipped");
  assert_labels ((Label[]) { { 30, 10, 12, 0, "past a clip", .clip = TRUE }, { 0 } }, "clipped");
}

/* ------------------------------------------------------------------ */
/* The views                                                          */
/* ------------------------------------------------------------------ */

static void
draw_view (cairo_t             *cr,
           const WsFigureStyle *style,
           double               width,
           double               height,
           gpointer             data)
{
  ws_export_draw_figure (cr, style, width, height, data);
}

static void
check_view (WsExportFigure      *figure,
            const WsFigureStyle *style,
            double               width,
            double               height,
            const char          *what,
            guint               *failures)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WsTextLog) log = NULL;

  if (!check_drawing (draw_view, figure, style, width, height, &log, &error))
    {
      g_test_message ("%s, %s, %.0f × %.0f: %s", what, style->name, width, height, error->message);
      (*failures)++;
    }
  else if (ws_text_log_contains (log, "Too small"))
    {
      g_test_message ("%s, %s, %.0f × %.0f: too small, though the export accepts it", what, style->name, width,
                      height);
      (*failures)++;
    }
}

static void
test_views (void)
{
  guint n_presets, failures = 0, checked = 0;
  const WsPreset *presets = ws_presets_get_all (&n_presets);

  for (guint p = 0; p < n_presets; p++)
    {
      g_autoptr (WsPattern) pattern = ws_preset_build (&presets[p]);

      for (guint a = 0; a < ws_pattern_get_n_accesses (pattern); a++)
        {
          g_autoptr (WsWarpResult) r = ws_model_analyze_warp (pattern, a, WS_DIM3 (0, 0, 0), 0, NULL);
          g_autofree char *title = ws_pattern_describe_access (pattern, a);
          WsFigureKind kinds[WS_N_FIGURES];
          guint n_kinds;

          g_assert_nonnull (r);
          n_kinds = ws_figure_kinds_for (r, kinds);
          for (guint k = 0; k < n_kinds; k++)
            for (WsFigureStyleKind s = 0; s < WS_N_FIGURE_STYLES; s++)
              {
                const WsFigureStyle *style = ws_figure_style_get (s);
                /* on screen mid-way through the first step; in print, all served */
                WsExportFigure figure = { kinds[k], { r, title, ws_pattern_get_block (pattern), 0.5,
                                                      WS_FIGURE_HIT_NONE, WS_FIGURE_LAYERS_ALL } };
                g_autofree char *what = g_strdup_printf ("%s instruction %u, %s view", presets[p].id, a + 1,
                                                         ws_figure_kind_to_string (kinds[k]));
                double w, h;

                ws_export_prepare_frame (&figure.frame, style);
                w = ws_figure_min_width (kinds[k], &figure.frame, style);
                h = ws_figure_min_height (kinds[k], &figure.frame, style, w);
                g_assert_cmpfloat (w, >=, 16);
                g_assert_cmpfloat (w, <=, DEFAULT_WIDTH);
                check_view (&figure, style, w, h, what, &failures);
                check_view (&figure, style, DEFAULT_WIDTH, MAX (DEFAULT_HEIGHT, ws_figure_min_height (kinds[k],
                            &figure.frame, style, DEFAULT_WIDTH)), what, &failures);
                checked += 2;
              }
        }
    }
  g_test_message ("%u drawings checked, %u with a problem", checked, failures);
  g_assert_cmpuint (failures, ==, 0);
}

/* Smaller than its least size, a view says so, legibly, and draws nothing else. */
static void
test_view_too_small (void)
{
  g_autoptr (WsPattern) pattern = ws_preset_build (ws_preset_lookup ("banks/stride"));
  g_autoptr (WsWarpResult) r = ws_model_analyze_warp (pattern, 0, WS_DIM3 (0, 0, 0), 0, NULL);
  const WsFigureStyle *style = ws_figure_style_get (WS_FIGURE_STYLE_LIGHT);
  WsExportFigure figure = { WS_FIGURE_BANKS, { r, "banks", ws_pattern_get_block (pattern), 0, WS_FIGURE_HIT_NONE,
                                               WS_FIGURE_LAYERS_ALL } };
  double w = ws_figure_min_width (WS_FIGURE_BANKS, &figure.frame, style);
  double h = ws_figure_min_height (WS_FIGURE_BANKS, &figure.frame, style, w);
  g_autoptr (WsTextLog) log = NULL;
  g_autoptr (GError) error = NULL;

  g_assert_true (check_drawing (draw_view, &figure, style, w - 10, h, &log, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (ws_text_log_len (log), ==, 1);
  g_assert_true (ws_text_log_contains (log, "Too small to draw legibly"));
  g_clear_pointer (&log, ws_text_log_free);
  g_assert_true (check_drawing (draw_view, &figure, style, w, h, &log, &error));
  g_assert_false (ws_text_log_contains (log, "Too small"));
}

/* ------------------------------------------------------------------ */
/* Plots and comparisons, with the bundled recording's numbers        */
/* ------------------------------------------------------------------ */

static GPtrArray *
bundled (void)
{
  g_autoptr (GError) error = NULL;
  GPtrArray *recordings = g_ptr_array_new_with_free_func (g_object_unref);
  WsRecording *r = ws_recording_load_bundled (&error);

  g_assert_no_error (error);
  g_ptr_array_add (recordings, r);
  return recordings;
}

static void
draw_chart (cairo_t             *cr,
            const WsFigureStyle *style,
            double               width,
            double               height,
            gpointer             data)
{
  ws_chart_draw (cr, data, style, width, height);
}

static void
check_both_sizes (DrawFunc             draw,
                  gpointer             data,
                  const WsFigureStyle *style,
                  double               min_w,
                  double               min_h_at_min,
                  double               min_h_at_default,
                  const char          *what,
                  guint               *failures)
{
  const double sizes[2][2] = { { min_w, min_h_at_min }, { DEFAULT_WIDTH, MAX (DEFAULT_HEIGHT, min_h_at_default) } };

  g_assert_cmpfloat (min_w, <=, DEFAULT_WIDTH);
  for (guint i = 0; i < 2; i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (WsTextLog) log = NULL;

      if (!check_drawing (draw, data, style, sizes[i][0], sizes[i][1], &log, &error))
        {
          g_test_message ("%s, %s, %.0f × %.0f: %s", what, style->name, sizes[i][0], sizes[i][1], error->message);
          (*failures)++;
        }
      else if (ws_text_log_contains (log, "Too small"))
        {
          g_test_message ("%s, %s, %.0f × %.0f: too small, though the export accepts it", what, style->name,
                          sizes[i][0], sizes[i][1]);
          (*failures)++;
        }
    }
}

static void
test_plots (void)
{
  g_autoptr (GPtrArray) recordings = bundled ();
  WsPlotSources sources = { .recordings = recordings };
  guint n_presets, failures = 0;
  const WsPreset *presets = ws_presets_get_all (&n_presets);
  Sample sample;

  /* the model of each point is what takes long under the sanitizers: a
   * preset's plot is checked whole, or not at all; a topic's chart holds
   * all of its presets, so one of each topic is enough */
  sample_init (&sample, "plots", 1);
  for (guint p = 0; p < n_presets; p++)
    {
      g_autoptr (WsPattern) pattern = NULL;
      g_autoptr (WsChart) chart = NULL;
      g_autofree char *topic = g_strdup_printf ("topic %s", presets[p].topic);

      if (!sample_keep (&sample, topic, presets[p].sweep_param ? "a sweep" : "a topic's presets", NULL))
        continue;
      pattern = ws_preset_build (&presets[p]);
      chart = ws_plot_build_for (&presets[p], pattern, 0, NULL, &sources);
      ws_chart_autoscale (chart);
      for (WsFigureStyleKind k = 0; k < WS_N_FIGURE_STYLES; k++)
        {
          const WsFigureStyle *style = ws_figure_style_get (k);
          double w = ws_chart_min_width (chart, style);
          g_autofree char *what = g_strdup_printf ("%s plot", presets[p].id);

          check_both_sizes (draw_chart, chart, style, w, ws_chart_min_height (chart, style, w),
                            ws_chart_min_height (chart, style, DEFAULT_WIDTH), what, &failures);
        }
    }
  sample_finish (&sample);
  g_assert_cmpuint (failures, ==, 0);
}

static void
draw_compare (cairo_t             *cr,
              const WsFigureStyle *style,
              double               width,
              double               height,
              gpointer             data)
{
  ws_compare_figure_draw (cr, style, width, height, data);
}

static void
test_compare_sets (void)
{
  g_autoptr (GPtrArray) recordings = bundled ();
  WsPlotSources sources = { .recordings = recordings };
  guint n_sets, failures = 0;
  const WsCompareSet *sets = ws_compare_sets_get_all (&n_sets);
  Sample sample;

  sample_init (&sample, "comparisons", 1);
  for (guint i = 0; i < n_sets; i++)
    {
      g_autoptr (GPtrArray) items = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_compare_item_free);
      g_autoptr (GPtrArray) results = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_warp_result_free);
      g_autoptr (GPtrArray) captions = g_ptr_array_new_with_free_func (g_free);
      WsCompareCost costs[WS_COMPARE_MAX];
      g_autoptr (WsChart) chart = NULL;
      WsCompareFigure figure = { .n_cells = 0 };
      guint n_ids = 0;
      g_autofree char *size = NULL;

      while (n_ids < WS_COMPARE_MAX && sets[i].ids[n_ids])
        n_ids++;
      size = g_strdup_printf ("%u presets", n_ids);
      if (!sample_keep (&sample, size, NULL))
        continue;
      for (guint k = 0; k < WS_COMPARE_MAX && sets[i].ids[k]; k++)
        g_ptr_array_add (items, ws_compare_item_new (sets[i].ids[k], NULL));
      for (guint k = 0; k < items->len; k++)
        {
          WsCompareItem *item = g_ptr_array_index (items, k);
          WsWarpResult *r = ws_compare_item_analyze (item, NULL);
          WsFigureKind kinds[WS_N_FIGURES];

          g_assert_true (ws_compare_cost_compute (item->pattern, &costs[k], NULL, NULL));
          g_ptr_array_add (results, r);
          g_ptr_array_add (captions, ws_compare_item_caption (item));
          g_assert_cmpuint (ws_figure_kinds_for (r, kinds), >, 0);
          figure.cells[k] = (WsExportFigure) { kinds[0], { r, g_ptr_array_index (captions, k),
                                                           ws_pattern_get_block (item->pattern), r->steps->len,
                                                           WS_FIGURE_HIT_NONE, WS_FIGURE_LAYERS_ALL } };
        }
      figure.n_cells = items->len;
      chart = ws_compare_build_chart (items, costs, NULL, NULL, &sources);
      ws_chart_autoscale (chart);
      figure.chart = chart;
      for (WsFigureStyleKind k = 0; k < WS_N_FIGURE_STYLES; k++)
        {
          const WsFigureStyle *style = ws_figure_style_get (k);
          double w = ws_compare_figure_min_width (&figure, style);
          g_autofree char *what = g_strdup_printf ("comparison “%s”", sets[i].title);

          check_both_sizes (draw_compare, &figure, style, w, ws_compare_figure_min_height (&figure, style, w),
                            ws_compare_figure_min_height (&figure, style, DEFAULT_WIDTH), what, &failures);
        }
    }
  sample_finish (&sample);
  g_assert_cmpuint (failures, ==, 0);
}

/* ------------------------------------------------------------------ */
/* The hierarchy view of every preset                                 */
/* ------------------------------------------------------------------ */

/* Counters a tenth off the model, so that every label has its longest
 * words ("counted 1.18 GB, model −9 %"), and a measured time. */
static WsMeasurement *
counters_near (const WsPlotModel *h)
{
  WsMeasurement *m = ws_measurement_new ("layout");
  const WsHierStats *t = &h->total;

  ws_measurement_add_sample (m, 0.2);
  ws_measurement_add_sample (m, 0.25);
  ws_measurement_add_sample (m, 0.31);
  ws_measurement_summarize (m);
  ws_measurement_add_counter (m, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", t->l1_sectors * 1.1);
  ws_measurement_add_counter (m, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum", t->l1_hits * 0.9);
  ws_measurement_add_counter (m, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", t->l2_write_sectors * 1.1);
  ws_measurement_add_counter (m, "lts__t_sectors_srcunit_tex_op_read.sum", t->l2_read_sectors * 1.1);
  ws_measurement_add_counter (m, "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum", t->l2_read_hits * 0.9);
  ws_measurement_add_counter (m, "lts__t_sectors_srcunit_tex_op_write.sum", t->l2_write_sectors * 1.1);
  ws_measurement_add_counter (m, "dram__bytes_read.sum", t->dram_read_bytes * 1.1);
  ws_measurement_add_counter (m, "dram__bytes_write.sum", t->dram_write_bytes * 1.1);
  return m;
}

static WsDim3
shrunk (WsDim3 grid)
{
  return WS_DIM3 (MIN (grid.x, 264), MAX (1, MIN (grid.y, 264 / MIN (grid.x, 264))), 1);
}

static void
draw_hierarchy (cairo_t             *cr,
                const WsFigureStyle *style,
                double               width,
                double               height,
                gpointer             data)
{
  ws_hierarchy_figure_draw (cr, data, style, width, height);
}

static void
test_hierarchy (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WsDeviceProfile) profile = ws_device_profile_find ("nvidia-h200", &error);
  guint n_presets, failures = 0;
  const WsPreset *presets = ws_presets_get_all (&n_presets);

  g_assert_no_error (error);
  for (guint p = 0; p < n_presets; p++)
    {
      g_autoptr (WsPattern) pattern = ws_preset_build (&presets[p]);
      g_autoptr (WsPlotModel) h = NULL;
      g_autoptr (WsMeasurement) m = NULL;
      g_autoptr (WsHierarchyFigure) figure = NULL;
      g_autofree char *title = ws_preset_short_title (presets[p].title);
      g_autofree char *what = g_strdup_printf ("%s hierarchy", presets[p].id);
      WsPlotHierarchyInput in;

      /* two waves of blocks at most: the words are as long as at the
       * kernels' sizes (1.08 GB or 4.19 MB), and the model takes a second
       * for all the presets rather than minutes */
      g_assert_true (ws_pattern_set_grid (pattern, shrunk (ws_pattern_get_grid (pattern)), NULL));
      h = ws_plot_model_compute (NULL, pattern, profile, NULL, &error);
      g_assert_no_error (error);
      m = counters_near (h);
      in = (WsPlotHierarchyInput) { title, h, profile, "the profile shipped for the recording's GPU", m,
                                    "recorded on NVIDIA H200", 0, NULL };
      figure = ws_plot_hierarchy_build (&in);
      for (WsFigureStyleKind k = 0; k < WS_N_FIGURE_STYLES; k++)
        {
          const WsFigureStyle *style = ws_figure_style_get (k);
          double w = ws_hierarchy_figure_min_width (figure, style);

          check_both_sizes (draw_hierarchy, figure, style, w, ws_hierarchy_figure_min_height (figure, style, w),
                            ws_hierarchy_figure_min_height (figure, style, DEFAULT_WIDTH), what, &failures);
        }
    }
  g_assert_cmpuint (failures, ==, 0);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/palette/states-and-identities", test_palette);
  g_test_add_func ("/palette/check-fails", test_palette_check_fails);
  g_test_add_func ("/layout/checker", test_checker);
  g_test_add_func ("/layout/views", test_views);
  g_test_add_func ("/layout/view-too-small", test_view_too_small);
  g_test_add_func ("/layout/plots", test_plots);
  g_test_add_func ("/layout/compare-sets", test_compare_sets);
  g_test_add_func ("/layout/hierarchy", test_hierarchy);
  return g_test_run ();
}
