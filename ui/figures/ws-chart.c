/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Charts: data, layout, drawing and picking. Axes live in ws-chart-axis.c. */
#include "ws-chart.h"
#include "ws-figure-context.h"

#include <math.h>

#define MARGIN 14.0
#define PICK_REACH 14.0

static void
series_free (gpointer data)
{
  WsChartSeries *s = data;

  g_free (s->name);
  g_array_unref (s->points);
  g_free (s);
}

static void
note_free (gpointer data)
{
  WsChartNote *n = data;

  g_free (n->text);
  g_free (n);
}

WsChart *
ws_chart_new (void)
{
  WsChart *chart = g_new0 (WsChart, 1);

  chart->series = g_ptr_array_new_with_free_func (series_free);
  chart->notes = g_ptr_array_new_with_free_func (note_free);
  chart->highlight = NAN;
  for (guint i = 0; i < WS_CHART_N_AXES; i++)
    chart->axes[i].max = 1;
  return chart;
}

void
ws_chart_free (WsChart *chart)
{
  if (chart == NULL)
    return;
  for (guint i = 0; i < WS_CHART_N_AXES; i++)
    {
      g_free (chart->axes[i].title);
      g_free (chart->axes[i].unit);
      g_clear_pointer (&chart->axes[i].categories, g_ptr_array_unref);
    }
  g_ptr_array_unref (chart->series);
  g_ptr_array_unref (chart->notes);
  g_free (chart->title);
  g_free (chart->subtitle);
  g_free (chart->message);
  g_free (chart);
}

WsChart *
ws_chart_copy (const WsChart *chart)
{
  WsChart *c;

  g_return_val_if_fail (chart != NULL, NULL);

  c = ws_chart_new ();
  c->title = g_strdup (chart->title);
  c->subtitle = g_strdup (chart->subtitle);
  c->message = g_strdup (chart->message);
  c->highlight = chart->highlight;
  for (guint i = 0; i < WS_CHART_N_AXES; i++)
    {
      c->axes[i] = chart->axes[i];
      c->axes[i].title = g_strdup (chart->axes[i].title);
      c->axes[i].unit = g_strdup (chart->axes[i].unit);
      c->axes[i].categories = NULL;
      for (guint k = 0; chart->axes[i].categories && k < chart->axes[i].categories->len; k++)
        {
          if (c->axes[i].categories == NULL)
            c->axes[i].categories = g_ptr_array_new_with_free_func (g_free);
          g_ptr_array_add (c->axes[i].categories, g_strdup (g_ptr_array_index (chart->axes[i].categories, k)));
        }
    }
  for (guint i = 0; i < chart->series->len; i++)
    {
      const WsChartSeries *s = g_ptr_array_index (chart->series, i);
      WsChartSeries *t = ws_chart_add_series (c, s->name, s->kind, s->axis, s->hue);

      t->dashed = s->dashed;
      g_array_append_vals (t->points, s->points->data, s->points->len);
    }
  for (guint i = 0; i < chart->notes->len; i++)
    {
      const WsChartNote *n = g_ptr_array_index (chart->notes, i);
      ws_chart_add_note (c, n->x, n->text, n->hue, n->bold);
    }
  return c;
}

void
ws_chart_set_title (WsChart    *chart,
                    const char *title,
                    const char *subtitle)
{
  g_return_if_fail (chart != NULL);
  g_free (chart->title);
  g_free (chart->subtitle);
  chart->title = g_strdup (title);
  chart->subtitle = g_strdup (subtitle);
}

void
ws_chart_set_message (WsChart    *chart,
                      const char *message)
{
  g_return_if_fail (chart != NULL);
  g_free (chart->message);
  chart->message = g_strdup (message);
}

void
ws_chart_set_axis (WsChart      *chart,
                   WsChartAxisId id,
                   const char   *title,
                   const char   *unit,
                   gboolean      si,
                   WsAxisScale   scale)
{
  WsChartAxis *axis;

  g_return_if_fail (chart != NULL && id < WS_CHART_N_AXES);
  axis = &chart->axes[id];
  g_free (axis->title);
  g_free (axis->unit);
  axis->title = g_strdup (title);
  axis->unit = g_strdup (unit);
  axis->si = si;
  axis->scale = scale;
}

void
ws_chart_set_range (WsChart      *chart,
                    WsChartAxisId id,
                    double        min,
                    double        max)
{
  g_return_if_fail (chart != NULL && id < WS_CHART_N_AXES);
  chart->axes[id].min = min;
  chart->axes[id].max = max;
  chart->axes[id].fixed = TRUE;
}

void
ws_chart_add_category (WsChart    *chart,
                       const char *name)
{
  WsChartAxis *x;

  g_return_if_fail (chart != NULL);
  x = &chart->axes[WS_CHART_X];
  if (x->categories == NULL)
    x->categories = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (x->categories, g_strdup (name));
}

WsChartSeries *
ws_chart_add_series (WsChart      *chart,
                     const char   *name,
                     WsSeriesKind  kind,
                     WsChartAxisId axis,
                     int           hue)
{
  WsChartSeries *s;

  g_return_val_if_fail (chart != NULL, NULL);
  g_return_val_if_fail (axis == WS_CHART_Y || axis == WS_CHART_Y2, NULL);

  s = g_new0 (WsChartSeries, 1);
  s->name = g_strdup (name);
  s->kind = kind;
  s->axis = axis;
  s->hue = hue;
  s->points = g_array_new (FALSE, FALSE, sizeof (WsChartPoint));
  g_ptr_array_add (chart->series, s);
  return s;
}

void
ws_chart_series_add (WsChartSeries *series,
                     double         x,
                     double         y,
                     double         lo,
                     double         hi)
{
  WsChartPoint p = { x, y, lo, hi };

  g_return_if_fail (series != NULL);
  g_array_append_val (series->points, p);
}

void
ws_chart_add_note (WsChart    *chart,
                   double      x,
                   const char *text,
                   int         hue,
                   gboolean    bold)
{
  WsChartNote *n;

  g_return_if_fail (chart != NULL && text != NULL);
  n = g_new0 (WsChartNote, 1);
  n->x = x;
  n->text = g_strdup (text);
  n->hue = hue;
  n->bold = bold;
  g_ptr_array_add (chart->notes, n);
}

guint
ws_chart_n_points (const WsChart *chart)
{
  guint n = 0;

  for (guint s = 0; s < chart->series->len; s++)
    n += ((WsChartSeries *) g_ptr_array_index (chart->series, s))->points->len;
  return n;
}

static gboolean
uses_axis (const WsChart *chart,
           WsChartAxisId  id)
{
  for (guint s = 0; s < chart->series->len; s++)
    if (((WsChartSeries *) g_ptr_array_index (chart->series, s))->axis == id)
      return TRUE;
  return FALSE;
}

static WsRgba
series_color (const WsChartSeries *s,
              const WsFigureStyle *style)
{
  return s->hue < 0 ? style->model : ws_figure_style_hue (style, s->hue);
}

/* ------------------------------------------------------------------ */
/* Layout                                                             */
/* ------------------------------------------------------------------ */

typedef struct
{
  double title_h;
  double legend_y;
  double legend_line;
  double legend_h;
  double px, py, pw, ph;     /* the plot area */
  double tick_size;
  double category_h;
  double note_line;          /* the height of one line of notes */
  double notes_h;            /* the band of notes over the plot area */
  gboolean has_y2;
} ChartLayout;

/* ------------------------------------------------------------------ */
/* The legend: items left to right, on as many lines as they need     */
/* ------------------------------------------------------------------ */

static char *
legend_name (const WsChartSeries *series,
             gboolean             has_y2)
{
  if (!has_y2)
    return g_strdup (series->name);
  return g_strdup_printf ("%s (%s axis)", series->name, series->axis == WS_CHART_Y2 ? "right" : "left");
}

/* Marker, name and the gap after them. */
static double
legend_item_width (WsFigureContext *ctx,
                   const char      *name)
{
  const WsFigureStyle *s = ctx->style;
  WsTextOptions o = { .size = s->font_size * 0.92 };
  double w;

  ws_figure_text_size (ctx, name, &o, &w, NULL);
  return s->font_size * 2 + w + s->font_size * 1.5;
}

/* Where the next item goes: after the last, or at the start of a new line. */
static void
legend_place (WsFigureContext *ctx,
              double           start,
              double           w,
              double          *x,
              guint           *row)
{
  if (*x > start && *x + w - ctx->style->font_size * 1.5 > ctx->width - MARGIN)
    {
      *x = start;
      (*row)++;
    }
}

static guint
legend_rows (WsFigureContext *ctx,
             const WsChart   *chart,
             double           start,
             gboolean         has_y2)
{
  double x = start;
  guint row = 0;

  if (chart->series->len == 0)
    return 0;
  for (guint i = 0; i < chart->series->len; i++)
    {
      g_autofree char *name = legend_name (g_ptr_array_index (chart->series, i), has_y2);
      double w = legend_item_width (ctx, name);
      legend_place (ctx, start, w, &x, &row);
      x += w;
    }
  return row + 1;
}

/* The most notes over any one x. */
static guint
most_notes (const WsChart *chart)
{
  guint most = 0;

  for (guint i = 0; i < chart->notes->len; i++)
    {
      const WsChartNote *a = g_ptr_array_index (chart->notes, i);
      guint n = 0;
      for (guint j = 0; j < chart->notes->len; j++)
        n += ((const WsChartNote *) g_ptr_array_index (chart->notes, j))->x == a->x;
      most = MAX (most, n);
    }
  return most;
}

static double
widest_tick (WsFigureContext   *ctx,
             const WsChartAxis *axis,
             double             size)
{
  double ticks[16], widest = 0;
  guint n = ws_chart_axis_ticks (axis, 6, ticks);
  WsTextOptions o = { .size = size };

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *label = ws_chart_axis_format_tick (axis, ticks[i], n > 1 ? ticks[1] - ticks[0] : 1);
      double w;
      ws_figure_text_size (ctx, label, &o, &w, NULL);
      widest = MAX (widest, w);
    }
  return widest;
}

/* The subtitle says where the numbers come from: it wraps rather than lose
 * a device, up to three lines. */
static WsTextOptions
subtitle_options (WsFigureContext *ctx)
{
  return (WsTextOptions) { .size = ctx->style->font_size, .max_width = ctx->width - 2 * MARGIN, .wrap = TRUE };
}

static double
subtitle_height (WsFigureContext *ctx,
                 const WsChart   *chart)
{
  WsTextOptions o = subtitle_options (ctx);
  double h;

  if (chart->subtitle == NULL)
    return 0;
  pango_layout_set_height (ctx->layout, -3);
  ws_figure_text_size (ctx, chart->subtitle, &o, NULL, &h);
  pango_layout_set_height (ctx->layout, -1);
  return h + ctx->style->font_size * 0.1;
}

static void
draw_caption (WsFigureContext *ctx,
              const WsChart   *chart)
{
  const WsFigureStyle *s = ctx->style;
  WsTextOptions title = { .size = s->font_size * 1.25, .flags = WS_TEXT_BOLD, .max_width = ctx->width - 2 * MARGIN };
  WsTextOptions sub = subtitle_options (ctx);
  double y = MARGIN, h = 0;

  if (chart->title)
    {
      ws_figure_set_color (ctx, s->foreground);
      ws_figure_text (ctx, MARGIN, y, chart->title, &title, NULL, &h);
      y += h + s->font_size * 0.2;
    }
  if (chart->subtitle)
    {
      ws_figure_set_color (ctx, s->muted);
      pango_layout_set_height (ctx->layout, -3);
      ws_figure_text (ctx, MARGIN, y, chart->subtitle, &sub, NULL, NULL);
      pango_layout_set_height (ctx->layout, -1);
    }
}

static void
chart_layout (WsFigureContext *ctx,
              const WsChart   *chart,
              ChartLayout     *lay)
{
  const WsFigureStyle *s = ctx->style;
  double axis_title = s->font_size * 1.5;
  double left, right, bottom;

  lay->tick_size = s->font_size * 0.9;
  lay->has_y2 = uses_axis (chart, WS_CHART_Y2);
  lay->title_h = (chart->title ? s->font_size * 1.6 : 0) + subtitle_height (ctx, chart);
  lay->legend_y = MARGIN + lay->title_h + (lay->title_h > 0 ? s->font_size * 0.4 : 0);
  lay->legend_line = s->font_size * 1.6;
  lay->category_h = chart->axes[WS_CHART_X].scale == WS_AXIS_CATEGORY ? lay->tick_size * 2.6 : lay->tick_size * 1.4;
  left = MARGIN + axis_title + widest_tick (ctx, &chart->axes[WS_CHART_Y], lay->tick_size) + 6;
  right = lay->has_y2 ? MARGIN + axis_title + widest_tick (ctx, &chart->axes[WS_CHART_Y2], lay->tick_size) + 6
                      : MARGIN + s->font_size;
  bottom = MARGIN + axis_title + lay->category_h;
  lay->note_line = s->font_size * 1.3;
  lay->notes_h = most_notes (chart) * lay->note_line;
  lay->px = left;
  lay->legend_h = legend_rows (ctx, chart, left, lay->has_y2) * lay->legend_line;
  lay->py = lay->legend_y + lay->legend_h + s->font_size * 0.6 + (lay->notes_h > 0 ? lay->notes_h + s->font_size * 0.4 : 0);
  lay->pw = MAX (10, ctx->width - left - right);
  lay->ph = MAX (10, ctx->height - lay->py - bottom);
}

static double
to_x (const ChartLayout *lay,
      const WsChart     *chart,
      double             v)
{
  return lay->px + ws_chart_axis_map (&chart->axes[WS_CHART_X], v) * lay->pw;
}

/* On a category axis, the series of measured points stand side by side
 * (one recording beside another), and the model's beside them. */
static double
category_dodge (const WsChart       *chart,
                const WsChartSeries *series)
{
  guint n_points = 0, index = 0;
  gboolean has_line = FALSE;

  for (guint i = 0; i < chart->series->len; i++)
    {
      const WsChartSeries *s = g_ptr_array_index (chart->series, i);
      if (s == series)
        index = n_points;
      if (s->kind == WS_SERIES_LINE)
        has_line = TRUE;
      else
        n_points++;
    }
  if (chart->series->len < 2)
    return 0;
  if (series->kind == WS_SERIES_LINE)
    return -0.08 + (n_points - 1) * 0.07 + 0.22;
  return (has_line ? -0.08 : 0) + (index - (n_points - 1) / 2.0) * 0.14;
}

static double
point_x (const ChartLayout   *lay,
         const WsChart       *chart,
         const WsChartSeries *series,
         double               v)
{
  double dodge = 0;

  if (chart->axes[WS_CHART_X].scale == WS_AXIS_CATEGORY)
    dodge = category_dodge (chart, series);
  return to_x (lay, chart, v + dodge);
}

static double
to_y (const ChartLayout *lay,
      const WsChart     *chart,
      WsChartAxisId      id,
      double             v)
{
  return lay->py + lay->ph - ws_chart_axis_map (&chart->axes[id], v) * lay->ph;
}

/* ------------------------------------------------------------------ */
/* Drawing                                                            */
/* ------------------------------------------------------------------ */

static void
draw_marker (WsFigureContext *ctx,
             WsSeriesKind     kind,
             double           x,
             double           y,
             WsRgba           color)
{
  cairo_t *cr = ctx->cr;
  double r = ctx->style->font_size * (kind == WS_SERIES_POINTS ? 0.38 : 0.32);

  /* a marker of its own, not joined to whatever was drawn last */
  cairo_new_path (cr);
  if (kind == WS_SERIES_POINTS)
    cairo_arc (cr, x, y, r, 0, 2 * G_PI);
  else
    {
      cairo_move_to (cr, x, y - r * 1.2);
      cairo_line_to (cr, x + r * 1.2, y);
      cairo_line_to (cr, x, y + r * 1.2);
      cairo_line_to (cr, x - r * 1.2, y);
      cairo_close_path (cr);
    }
  ws_figure_set_color (ctx, color);
  cairo_fill_preserve (cr);
  ws_figure_set_color (ctx, ctx->style->background);
  cairo_set_line_width (cr, 1);
  cairo_stroke (cr);
}

static void
draw_grid (WsFigureContext   *ctx,
           const WsChart     *chart,
           const ChartLayout *lay)
{
  const WsFigureStyle *s = ctx->style;
  cairo_t *cr = ctx->cr;
  double ticks[16];
  guint n = ws_chart_axis_ticks (&chart->axes[WS_CHART_Y], 6, ticks);

  cairo_set_line_width (cr, 1);
  ws_figure_set_color (ctx, ws_rgba_alpha (s->grid, 0.5));
  for (guint i = 0; i < n; i++)
    {
      double y = round (to_y (lay, chart, WS_CHART_Y, ticks[i])) + 0.5;
      cairo_move_to (cr, lay->px, y);
      cairo_line_to (cr, lay->px + lay->pw, y);
    }
  cairo_stroke (cr);
  /* the value in the editor is the window's state, not the figure's: not in print */
  if (isfinite (chart->highlight) && s->kind != WS_FIGURE_STYLE_PRINT)
    {
      double x = to_x (lay, chart, chart->highlight);
      double w = MAX (6, s->font_size);
      cairo_rectangle (cr, x - w / 2, lay->py, w, lay->ph);
      ws_figure_set_color (ctx, ws_rgba_alpha (s->accent, 0.18));
      cairo_fill (cr);
    }
  ws_figure_set_color (ctx, s->foreground);
  cairo_set_line_width (cr, s->line_width);
  cairo_move_to (cr, lay->px, lay->py);
  cairo_line_to (cr, lay->px, lay->py + lay->ph);
  cairo_line_to (cr, lay->px + lay->pw, lay->py + lay->ph);
  if (lay->has_y2)
    cairo_line_to (cr, lay->px + lay->pw, lay->py);
  cairo_stroke (cr);
}

static void
draw_y_axis (WsFigureContext   *ctx,
             const WsChart     *chart,
             const ChartLayout *lay,
             WsChartAxisId      id)
{
  const WsFigureStyle *s = ctx->style;
  const WsChartAxis *axis = &chart->axes[id];
  gboolean right = id == WS_CHART_Y2;
  double ticks[16];
  guint n = ws_chart_axis_ticks (axis, 6, ticks);
  WsTextOptions o = { .size = lay->tick_size, .ax = right ? 0 : 1, .ay = 0.5 };
  WsTextOptions t = { .size = s->font_size, .flags = WS_TEXT_VERTICAL, .ax = 0, .ay = 0.5,
                      .max_width = lay->ph };
  g_autofree char *label = ws_chart_axis_label (axis);
  double edge = right ? lay->px + lay->pw : lay->px;
  double text_w = 0;
  WsRgba color = right ? s->model : s->foreground;

  ws_figure_set_color (ctx, color);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *text = ws_chart_axis_format_tick (axis, ticks[i], n > 1 ? ticks[1] - ticks[0] : 1);
      double y = to_y (lay, chart, id, ticks[i]), w;
      cairo_move_to (ctx->cr, edge, round (y) + 0.5);
      cairo_line_to (ctx->cr, edge + (right ? 4 : -4), round (y) + 0.5);
      cairo_stroke (ctx->cr);
      ws_figure_text (ctx, edge + (right ? 6 : -6), y, text, &o, &w, NULL);
      text_w = MAX (text_w, w);
    }
  if (right)
    ws_figure_text (ctx, edge + 8 + text_w + s->font_size * 0.2, lay->py + lay->ph / 2, label,
                    &(WsTextOptions) { .size = s->font_size, .flags = WS_TEXT_VERTICAL, .ax = 0, .ay = 0.5,
                                       .max_width = lay->ph },
                    NULL, NULL);
  else
    ws_figure_text (ctx, MARGIN, lay->py + lay->ph / 2, label, &t, NULL, NULL);
}

static void
draw_x_axis (WsFigureContext   *ctx,
             const WsChart     *chart,
             const ChartLayout *lay)
{
  const WsFigureStyle *s = ctx->style;
  const WsChartAxis *axis = &chart->axes[WS_CHART_X];
  gboolean category = axis->scale == WS_AXIS_CATEGORY;
  guint most = category ? 64 : MAX (2, (guint) (lay->pw / (s->font_size * 5)));
  double ticks[64];
  guint n = ws_chart_axis_ticks (axis, MIN (most, 64), ticks);
  double slot = category && axis->categories ? lay->pw / MAX (1, axis->categories->len) : 0;
  WsTextOptions o = { .size = lay->tick_size * (category ? 0.92 : 1), .ax = 0.5, .ay = 0,
                      .max_width = category ? slot - 4 : 0, .wrap = category };
  g_autofree char *label = ws_chart_axis_label (axis);
  double y0 = lay->py + lay->ph;

  ws_figure_set_color (ctx, s->foreground);
  if (category)
    pango_layout_set_alignment (ctx->layout, PANGO_ALIGN_CENTER);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *text = ws_chart_axis_format_tick (axis, ticks[i], n > 1 ? ticks[1] - ticks[0] : 1);
      double x = to_x (lay, chart, ticks[i]);
      cairo_move_to (ctx->cr, round (x) + 0.5, y0);
      cairo_line_to (ctx->cr, round (x) + 0.5, y0 + 4);
      cairo_stroke (ctx->cr);
      if (category)
        {
          /* at most two lines under each category */
          pango_layout_set_height (ctx->layout, -2);
          o.max_width = MAX (8, slot - 4);
        }
      ws_figure_text (ctx, x, y0 + 6, text, &o, NULL, NULL);
      pango_layout_set_height (ctx->layout, -1);
    }
  pango_layout_set_alignment (ctx->layout, PANGO_ALIGN_LEFT);
  ws_figure_text (ctx, lay->px + lay->pw / 2, y0 + 8 + lay->category_h, label,
                  &(WsTextOptions) { .size = s->font_size, .ax = 0.5, .ay = 0 }, NULL, NULL);
}

static void
draw_series (WsFigureContext     *ctx,
             const WsChart       *chart,
             const ChartLayout   *lay,
             const WsChartSeries *series)
{
  cairo_t *cr = ctx->cr;
  WsRgba color = series_color (series, ctx->style);
  gboolean connect = series->kind == WS_SERIES_LINE && chart->axes[WS_CHART_X].scale != WS_AXIS_CATEGORY;
  double cap = ctx->style->font_size * 0.3;

  cairo_save (cr);
  cairo_rectangle (cr, lay->px - cap * 2, lay->py - cap * 2, lay->pw + cap * 4, lay->ph + cap * 4);
  cairo_clip (cr);
  ws_figure_set_color (ctx, color);
  cairo_set_line_width (cr, 1.5 * ctx->style->line_width);
  for (guint i = 0; i < series->points->len; i++)
    {
      const WsChartPoint *p = &g_array_index (series->points, WsChartPoint, i);
      double x = point_x (lay, chart, series, p->x);
      if (isnan (p->lo) || isnan (p->hi) || p->hi <= p->lo)
        continue;
      /* the min–max bar */
      cairo_move_to (cr, x, to_y (lay, chart, series->axis, p->lo));
      cairo_line_to (cr, x, to_y (lay, chart, series->axis, p->hi));
      cairo_move_to (cr, x - cap, to_y (lay, chart, series->axis, p->lo));
      cairo_line_to (cr, x + cap, to_y (lay, chart, series->axis, p->lo));
      cairo_move_to (cr, x - cap, to_y (lay, chart, series->axis, p->hi));
      cairo_line_to (cr, x + cap, to_y (lay, chart, series->axis, p->hi));
    }
  cairo_stroke (cr);
  if (connect && series->points->len > 1)
    {
      if (series->dashed)
        cairo_set_dash (cr, (double[]) { 6, 4 }, 2, 0);
      cairo_set_line_width (cr, 2 * ctx->style->line_width);
      for (guint i = 0; i < series->points->len; i++)
        {
          const WsChartPoint *p = &g_array_index (series->points, WsChartPoint, i);
          if (i == 0)
            cairo_move_to (cr, point_x (lay, chart, series, p->x), to_y (lay, chart, series->axis, p->y));
          else
            cairo_line_to (cr, point_x (lay, chart, series, p->x), to_y (lay, chart, series->axis, p->y));
        }
      cairo_stroke (cr);
      cairo_set_dash (cr, NULL, 0, 0);
    }
  for (guint i = 0; i < series->points->len; i++)
    {
      const WsChartPoint *p = &g_array_index (series->points, WsChartPoint, i);
      draw_marker (ctx, series->kind, point_x (lay, chart, series, p->x), to_y (lay, chart, series->axis, p->y), color);
    }
  cairo_restore (cr);
}

static void
draw_legend (WsFigureContext   *ctx,
             const WsChart     *chart,
             const ChartLayout *lay)
{
  const WsFigureStyle *s = ctx->style;
  WsTextOptions o = { .size = s->font_size * 0.92, .ay = 0.5 };
  double x = lay->px, y;
  guint row = 0;

  for (guint i = 0; i < chart->series->len; i++)
    {
      const WsChartSeries *series = g_ptr_array_index (chart->series, i);
      g_autofree char *name = legend_name (series, lay->has_y2);
      double w = legend_item_width (ctx, name);

      legend_place (ctx, lay->px, w, &x, &row);
      y = lay->legend_y + (row + 0.5) * lay->legend_line;
      if (series->kind == WS_SERIES_LINE)
        {
          ws_figure_set_color (ctx, series_color (series, s));
          cairo_set_line_width (ctx->cr, 2 * s->line_width);
          if (series->dashed)
            cairo_set_dash (ctx->cr, (double[]) { 4, 3 }, 2, 0);
          cairo_move_to (ctx->cr, x, y);
          cairo_line_to (ctx->cr, x + s->font_size * 1.6, y);
          cairo_stroke (ctx->cr);
          cairo_set_dash (ctx->cr, NULL, 0, 0);
        }
      draw_marker (ctx, series->kind, x + s->font_size * 0.8, y, series_color (series, s));
      ws_figure_set_color (ctx, s->foreground);
      ws_figure_text (ctx, x + s->font_size * 2, y, name, &o, NULL, NULL);
      x += w;
    }
}

/* Notes stand over their x, in the band between the legend and the plot,
 * each in its series' colour after its marker. */
static void
draw_notes (WsFigureContext   *ctx,
            const WsChart     *chart,
            const ChartLayout *lay)
{
  const WsFigureStyle *s = ctx->style;
  const WsChartAxis *x = &chart->axes[WS_CHART_X];
  double slot = x->scale == WS_AXIS_CATEGORY && x->categories ? lay->pw / MAX (1, x->categories->len) : lay->pw / 4;
  double top = lay->py - lay->notes_h - s->font_size * 0.4;

  for (guint i = 0; i < chart->notes->len; i++)
    {
      const WsChartNote *n = g_ptr_array_index (chart->notes, i);
      WsTextOptions o = { .size = s->font_size * 0.92, .ax = 0.5, .ay = 0.5, .flags = n->bold ? WS_TEXT_BOLD : 0 };
      double cx = to_x (lay, chart, n->x), y, w;
      double marker = n->hue == WS_CHART_NOTE_TEXT ? 0 : s->font_size * 1.1;
      guint line = 0;

      for (guint j = 0; j < i; j++)
        line += ((const WsChartNote *) g_ptr_array_index (chart->notes, j))->x == n->x;
      y = top + (line + 0.5) * lay->note_line;
      o.max_width = MAX (10, slot - 8 - marker);
      ws_figure_text_size (ctx, n->text, &o, &w, NULL);
      if (marker > 0)
        draw_marker (ctx, n->hue == WS_CHART_NOTE_MODEL ? WS_SERIES_LINE : WS_SERIES_POINTS, cx - w / 2 - marker / 2,
                     y, n->hue == WS_CHART_NOTE_MODEL ? s->model : ws_figure_style_hue (s, n->hue));
      ws_figure_set_color (ctx, s->foreground);
      ws_figure_text (ctx, cx + marker / 2, y, n->text, &o, NULL, NULL);
    }
}

void
ws_chart_draw (cairo_t             *cr,
               const WsChart       *chart,
               const WsFigureStyle *style,
               double               width,
               double               height)
{
  WsFigureContext ctx;
  ChartLayout lay;

  g_return_if_fail (cr != NULL && chart != NULL && style != NULL);

  cairo_save (cr);
  ws_figure_context_init (&ctx, cr, style, width, height);
  chart_layout (&ctx, chart, &lay);
  draw_caption (&ctx, chart);
  draw_legend (&ctx, chart, &lay);
  draw_grid (&ctx, chart, &lay);
  draw_y_axis (&ctx, chart, &lay, WS_CHART_Y);
  if (lay.has_y2)
    draw_y_axis (&ctx, chart, &lay, WS_CHART_Y2);
  draw_x_axis (&ctx, chart, &lay);
  draw_notes (&ctx, chart, &lay);
  /* lines under points, so that no measurement is hidden */
  for (guint i = 0; i < chart->series->len; i++)
    if (((WsChartSeries *) g_ptr_array_index (chart->series, i))->kind == WS_SERIES_LINE)
      draw_series (&ctx, chart, &lay, g_ptr_array_index (chart->series, i));
  for (guint i = 0; i < chart->series->len; i++)
    if (((WsChartSeries *) g_ptr_array_index (chart->series, i))->kind != WS_SERIES_LINE)
      draw_series (&ctx, chart, &lay, g_ptr_array_index (chart->series, i));
  if (ws_chart_n_points (chart) == 0 && chart->message)
    {
      WsTextOptions o = { .size = style->font_size, .ax = 0.5, .ay = 0.5, .max_width = lay.pw - 20, .wrap = TRUE };
      ws_figure_set_color (&ctx, style->muted);
      pango_layout_set_alignment (ctx.layout, PANGO_ALIGN_CENTER);
      ws_figure_text (&ctx, lay.px + lay.pw / 2, lay.py + lay.ph / 2, chart->message, &o, NULL, NULL);
    }
  ws_figure_context_clear (&ctx);
  cairo_restore (cr);
}

/* ------------------------------------------------------------------ */
/* Picking                                                            */
/* ------------------------------------------------------------------ */

gboolean
ws_chart_pick (const WsChart       *chart,
               const WsFigureStyle *style,
               double               width,
               double               height,
               double               x,
               double               y,
               guint               *series,
               guint               *point)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1, 1);
  cairo_t *cr = cairo_create (surface);
  WsFigureContext ctx;
  ChartLayout lay;
  double best = PICK_REACH * PICK_REACH;
  gboolean found = FALSE;

  ws_figure_context_init (&ctx, cr, style, width, height);
  chart_layout (&ctx, chart, &lay);
  ws_figure_context_clear (&ctx);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);

  for (guint s = 0; s < chart->series->len; s++)
    {
      const WsChartSeries *se = g_ptr_array_index (chart->series, s);
      for (guint i = 0; i < se->points->len; i++)
        {
          const WsChartPoint *p = &g_array_index (se->points, WsChartPoint, i);
          double dx = point_x (&lay, chart, se, p->x) - x, dy = to_y (&lay, chart, se->axis, p->y) - y;
          if (dx * dx + dy * dy < best)
            {
              best = dx * dx + dy * dy;
              *series = s;
              *point = i;
              found = TRUE;
            }
        }
    }
  return found;
}

char *
ws_chart_describe_point (const WsChart *chart,
                         guint          series,
                         guint          point)
{
  const WsChartSeries *se;
  const WsChartPoint *p;
  const WsChartAxis *x = &chart->axes[WS_CHART_X];
  g_autofree char *xs = NULL;
  g_autofree char *ys = NULL;
  GString *s;

  g_return_val_if_fail (series < chart->series->len, NULL);
  se = g_ptr_array_index (chart->series, series);
  g_return_val_if_fail (point < se->points->len, NULL);
  p = &g_array_index (se->points, WsChartPoint, point);

  xs = x->scale == WS_AXIS_CATEGORY ? ws_chart_axis_format (x, p->x, FALSE) : ws_chart_axis_format (x, p->x, TRUE);
  ys = ws_chart_axis_format (&chart->axes[se->axis], p->y, TRUE);
  s = g_string_new (NULL);
  g_string_append_printf (s, "%s\n%s%s%s: %s", se->name, x->scale == WS_AXIS_CATEGORY ? "" : x->title ? x->title : "",
                          x->scale == WS_AXIS_CATEGORY ? "" : " = ", xs, ys);
  if (!isnan (p->lo) && !isnan (p->hi) && p->hi > p->lo)
    {
      g_autofree char *lo = ws_chart_axis_format (&chart->axes[se->axis], p->lo, TRUE);
      g_autofree char *hi = ws_chart_axis_format (&chart->axes[se->axis], p->hi, TRUE);
      g_string_append_printf (s, "\nmin %s, max %s", lo, hi);
    }
  return g_string_free (s, FALSE);
}
