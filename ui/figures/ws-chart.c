/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Charts: data, layout, drawing and picking. Axes live in ws-chart-axis.c. */
#include "ws-chart.h"
#include "ws-figure-context.h"
#include "ws-figure-private.h"

#include <math.h>
#include <string.h>

#define MARGIN 14.0
#define PICK_REACH 14.0

static void
series_free (gpointer data)
{
  WsChartSeries *s = data;

  g_free (s->name);
  g_array_unref (s->points);
  g_clear_pointer (&s->notes, g_ptr_array_unref);
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
  g_free (chart->highlight_label);
  g_free (chart->footnote);
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
  c->highlight_label = g_strdup (chart->highlight_label);
  c->footnote = g_strdup (chart->footnote);
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
      t->overlay = s->overlay;
      t->loose = s->loose;
      g_array_append_vals (t->points, s->points->data, s->points->len);
      for (guint k = 0; s->notes && k < s->notes->len; k++)
        if (g_ptr_array_index (s->notes, k))
          ws_chart_series_set_note (t, k, g_ptr_array_index (s->notes, k));
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
ws_chart_set_footnote (WsChart    *chart,
                       const char *footnote)
{
  g_return_if_fail (chart != NULL);
  g_free (chart->footnote);
  chart->footnote = g_strdup (footnote);
}

void
ws_chart_set_highlight (WsChart    *chart,
                        double      x,
                        const char *label)
{
  g_return_if_fail (chart != NULL);
  chart->highlight = x;
  g_free (chart->highlight_label);
  chart->highlight_label = g_strdup (label);
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
ws_chart_series_set_note (WsChartSeries *series,
                          guint          point,
                          const char    *text)
{
  g_return_if_fail (series != NULL);

  if (series->notes == NULL)
    series->notes = g_ptr_array_new_with_free_func (g_free);
  if (series->notes->len <= point)
    g_ptr_array_set_size (series->notes, point + 1);
  g_free (g_ptr_array_index (series->notes, point));
  g_ptr_array_index (series->notes, point) = g_strdup (text);
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

gboolean
ws_chart_axis_extent (const WsChart *chart,
                      WsChartAxisId  id,
                      double        *lo,
                      double        *hi)
{
  *lo = INFINITY;
  *hi = -INFINITY;
  for (guint s = 0; s < chart->series->len; s++)
    {
      const WsChartSeries *series = g_ptr_array_index (chart->series, s);
      if (series->axis != id)
        continue;
      for (guint i = 0; i < series->points->len; i++)
        {
          const WsChartPoint *p = &g_array_index (series->points, WsChartPoint, i);
          double v[3] = { p->y, p->lo, p->hi };
          for (guint k = 0; k < 3; k++)
            if (isfinite (v[k]) && v[k] > 0)
              {
                *lo = MIN (*lo, v[k]);
                *hi = MAX (*hi, v[k]);
              }
        }
    }
  return isfinite (*lo);
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

/* Top to bottom: the caption (wrapped), the legend (on as many lines as
 * it needs), the notes over each x (wrapped, stacked), the plot, the x
 * axis' labels (wrapped) and title. The axes' titles read upwards and
 * wrap along the plot's height. Nothing is cut: a chart too small for
 * this says so (ws_chart_min_width, ws_chart_min_height). */
typedef struct
{
  double caption_h;
  double legend_y;
  double legend_h;
  double px, py, pw, ph;     /* the plot area */
  double tick_size;
  double category_h;         /* the tallest label under the x axis */
  gboolean numbered;         /* categories too narrow for their names: numbers, and a key below */
  double key_h;
  double notes_h;            /* the tallest stack of notes */
  double footnote_h;         /* under everything */
  double axis_title_w[WS_CHART_N_AXES];   /* Y and Y2: across, as they read upwards */
  double tick_w[WS_CHART_N_AXES];
  guint y_ticks;             /* how many ticks the plot's height has room for */
  gboolean has_y2;
} ChartLayout;

#define MIN_PLOT_ROWS 5.0    /* the least plot height, in lines of body text */

static double
caption_width (WsFigureContext *ctx)
{
  return MAX (1, ctx->width - 2 * MARGIN);
}

/* ------------------------------------------------------------------ */
/* The legend: items left to right, on as many lines as they need     */
/* ------------------------------------------------------------------ */

/* The band over the marked value has a legend item after the series,
 * where it is drawn (not in print: it is the window's state). */
static gboolean
shows_band (const WsChart       *chart,
            const WsFigureStyle *style)
{
  return isfinite (chart->highlight) && chart->highlight_label && style->kind != WS_FIGURE_STYLE_PRINT;
}

static guint
n_legend_items (const WsChart       *chart,
                const WsFigureStyle *style)
{
  return chart->series->len + (shows_band (chart, style) ? 1 : 0);
}

static char *
item_name (const WsChart *chart,
           guint          i,
           gboolean       has_y2);

static char *
legend_name (const WsChartSeries *series,
             gboolean             has_y2)
{
  if (!has_y2)
    return g_strdup (series->name);
  /* Translators: a series in a chart's legend, and the axis it is read on */
  return g_strdup_printf (series->axis == WS_CHART_Y2 ? FG_("%s (right axis)") : FG_("%s (left axis)"), series->name);
}

static WsTextOptions
legend_options (WsFigureContext *ctx,
                double           start)
{
  const WsFigureStyle *s = ctx->style;

  /* an item longer than the line wraps */
  return (WsTextOptions) { .size = MAX (s->font_size * 0.92, s->min_font_size), .ay = 0.5,
                           .max_width = MAX (1, ctx->width - MARGIN - start - s->font_size * 2), .wrap = TRUE };
}

/* Where each item goes: left to right from start, on a new line when the
 * next would pass the right margin; a line as tall as its tallest item
 * (a name longer than a line wraps). Returns the height of them all. */
static double
legend_flow (WsFigureContext *ctx,
             const WsChart   *chart,
             double           start,
             gboolean         has_y2,
             double          *xs,
             double          *ys)
{
  const WsFigureStyle *s = ctx->style;
  WsTextOptions o = legend_options (ctx, start);
  double x = start, line_y = 0, line_h = 0, min_line = s->font_size * 1.6;
  guint first = 0;

  for (guint i = 0; i < n_legend_items (chart, s); i++)
    {
      g_autofree char *name = item_name (chart, i, has_y2);
      double tw, th, w;

      ws_figure_text_size (ctx, name, &o, &tw, &th);
      w = s->font_size * 2 + tw;
      if (x > start && x + w > ctx->width - MARGIN)
        {
          /* centre the finished line's items on it */
          for (guint k = first; ys && k < i; k++)
            ys[k] = line_y + line_h / 2;
          line_y += line_h;
          line_h = 0;
          x = start;
          first = i;
        }
      if (xs)
        xs[i] = x;
      line_h = MAX (line_h, MAX (min_line, th + s->font_size * 0.5));
      x += w + s->font_size * 1.5;
    }
  for (guint k = first; ys && k < n_legend_items (chart, s); k++)
    ys[k] = line_y + line_h / 2;
  return ceil (line_y + line_h);
}

static char *
item_name (const WsChart *chart,
           guint          i,
           gboolean       has_y2)
{
  if (i >= chart->series->len)
    return g_strdup (chart->highlight_label);
  return legend_name (g_ptr_array_index (chart->series, i), has_y2);
}

/* ------------------------------------------------------------------ */

static double
to_x (const ChartLayout *lay,
      const WsChart     *chart,
      double             v)
{
  return lay->px + ws_chart_axis_map (&chart->axes[WS_CHART_X], v) * lay->pw;
}

static double
category_slot (const ChartLayout *lay,
               const WsChart     *chart)
{
  const WsChartAxis *x = &chart->axes[WS_CHART_X];

  return x->scale == WS_AXIS_CATEGORY && x->categories ? lay->pw / MAX (1, x->categories->len) : lay->pw / 4;
}

static WsTextOptions
note_options (WsFigureContext   *ctx,
              const ChartLayout *lay,
              const WsChart     *chart,
              const WsChartNote *n)
{
  const WsFigureStyle *s = ctx->style;
  double marker = n->hue == WS_CHART_NOTE_TEXT ? 0 : s->font_size * 1.1;

  return (WsTextOptions) { .size = MAX (s->font_size * 0.92, s->min_font_size), .ax = 0.5, .ay = 0,
                           .flags = n->bold ? WS_TEXT_BOLD : 0,
                           .max_width = MAX (10, category_slot (lay, chart) - 8 - marker), .wrap = TRUE };
}

/* The tallest stack of notes over one x. */
static double
notes_height (WsFigureContext   *ctx,
              const WsChart     *chart,
              const ChartLayout *lay)
{
  double most = 0;

  for (guint i = 0; i < chart->notes->len; i++)
    {
      const WsChartNote *a = g_ptr_array_index (chart->notes, i);
      double h = 0;

      for (guint j = 0; j < chart->notes->len; j++)
        {
          const WsChartNote *n = g_ptr_array_index (chart->notes, j);
          WsTextOptions o;
          double th;

          if (n->x != a->x)
            continue;
          o = note_options (ctx, lay, chart, n);
          pango_layout_set_alignment (ctx->layout, PANGO_ALIGN_CENTER);
          ws_figure_text_size (ctx, n->text, &o, NULL, &th);
          pango_layout_set_alignment (ctx->layout, PANGO_ALIGN_LEFT);
          h += th + 2;
        }
      most = MAX (most, h);
    }
  return ceil (most);
}

/* How many ticks an axis of this length has room for, labels apart. */
static guint
y_tick_room (const ChartLayout *lay)
{
  return CLAMP ((guint) (lay->ph / (lay->tick_size * 2.2)), 2, 6);
}

static double
widest_tick (WsFigureContext   *ctx,
             const WsChartAxis *axis,
             double             size,
             guint              most)
{
  double ticks[16], widest = 0;
  guint n = ws_chart_axis_ticks (axis, most, ticks);
  WsTextOptions o = { .size = size };

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *label = ws_chart_axis_format_tick (axis, ticks[i], n > 1 ? ticks[1] - ticks[0] : 1);
      double w;
      ws_figure_text_size (ctx, label, &o, &w, NULL);
      widest = MAX (widest, w);
    }
  return ceil (widest);
}

static WsTextOptions
axis_title_options (WsFigureContext   *ctx,
                    const ChartLayout *lay)
{
  return (WsTextOptions) { .size = ctx->style->font_size, .flags = WS_TEXT_VERTICAL, .ax = 0, .ay = 0.5,
                           .max_width = MAX (10, lay->ph), .wrap = TRUE };
}

static WsTextOptions
category_options (WsFigureContext   *ctx,
                  const ChartLayout *lay,
                  const WsChart     *chart)
{
  gboolean category = chart->axes[WS_CHART_X].scale == WS_AXIS_CATEGORY;

  return (WsTextOptions) { .size = MAX (lay->tick_size * (category ? 0.92 : 1), ctx->style->min_font_size),
                           .ax = 0.5, .ay = 0, .max_width = category ? MAX (8, category_slot (lay, chart) - 4) : 0,
                           .wrap = category };
}

/* Where the x axis' ticks go: as many as their labels leave room for (a
 * guess from the widest label, checked once or twice). */
static guint
x_ticks (WsFigureContext   *ctx,
         const WsChart     *chart,
         const ChartLayout *lay,
         double            *ticks)
{
  const WsChartAxis *axis = &chart->axes[WS_CHART_X];
  WsTextOptions o = category_options (ctx, lay, chart);
  guint most = MAX (2, (guint) (lay->pw / (ctx->style->font_size * 4))), n = 0;

  if (axis->scale == WS_AXIS_CATEGORY)
    return ws_chart_axis_ticks (axis, 64, ticks);
  for (guint round = 0; round < 3; round++)
    {
      double widest = 0, w, gap;

      n = ws_chart_axis_ticks (axis, MIN (most, 64), ticks);
      if (n < 2)
        return n;
      for (guint i = 0; i < n; i++)
        {
          g_autofree char *text = ws_chart_axis_format_tick (axis, ticks[i], ticks[1] - ticks[0]);
          ws_figure_text_size (ctx, text, &o, &w, NULL);
          widest = MAX (widest, w);
        }
      gap = fabs (ws_chart_axis_map (axis, ticks[1]) - ws_chart_axis_map (axis, ticks[0])) * lay->pw;
      if (gap >= widest + ctx->style->font_size || most <= 2)
        return n;
      most = MAX (2, MIN (most - 1, (guint) (most * gap / (widest + ctx->style->font_size))));
    }
  return ws_chart_axis_ticks (axis, 2, ticks);
}

/* A tick's label on the x axis: a category's number where names do not fit. */
static char *
x_tick_text (const ChartLayout *lay,
             const WsChart     *chart,
             double             v,
             double             step)
{
  if (lay->numbered)
    return g_strdup_printf ("%ld", lround (v) + 1);
  return ws_chart_axis_format_tick (&chart->axes[WS_CHART_X], v, step);
}

/* "1 Element size · 2 12-byte struct, unpadded · …": number and name never apart. */
static char *
category_key (const WsChart *chart)
{
  const WsChartAxis *x = &chart->axes[WS_CHART_X];
  GString *key = g_string_new (NULL);

  for (guint i = 0; x->categories && i < x->categories->len; i++)
    g_string_append_printf (key, "%s%u\u00a0%s", i ? "   " : "", i + 1, (char *) g_ptr_array_index (x->categories, i));
  return g_string_free (key, FALSE);
}

static WsTextOptions
key_options (WsFigureContext   *ctx,
             const ChartLayout *lay)
{
  return (WsTextOptions) { .size = lay->tick_size, .max_width = caption_width (ctx), .wrap = TRUE };
}

static double
key_height (WsFigureContext   *ctx,
            const WsChart     *chart,
            const ChartLayout *lay)
{
  g_autofree char *key = NULL;
  WsTextOptions o = key_options (ctx, lay);
  double h;

  if (!lay->numbered)
    return 0;
  key = category_key (chart);
  ws_figure_text_size (ctx, key, &o, NULL, &h);
  return ceil (h + ctx->style->font_size * 0.4);
}

/* The room a category's name needs: its widest word. */
static double category_words_width (WsFigureContext *ctx, const WsChart *chart, const ChartLayout *lay);

static double
categories_height (WsFigureContext   *ctx,
                   const WsChart     *chart,
                   const ChartLayout *lay)
{
  WsTextOptions o = category_options (ctx, lay, chart);
  double ticks[64], most = 0, h;
  guint n = x_ticks (ctx, chart, lay, ticks);

  pango_layout_set_alignment (ctx->layout, PANGO_ALIGN_CENTER);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *text = x_tick_text (lay, chart, ticks[i], n > 1 ? ticks[1] - ticks[0] : 1);
      ws_figure_text_size (ctx, text, &o, NULL, &h);
      most = MAX (most, h);
    }
  pango_layout_set_alignment (ctx->layout, PANGO_ALIGN_LEFT);
  return ceil (MAX (most, o.size * 1.2));
}

static double
axis_title_width (WsFigureContext   *ctx,
                  const WsChart     *chart,
                  const ChartLayout *lay,
                  WsChartAxisId      id)
{
  g_autofree char *label = ws_chart_axis_label (&chart->axes[id]);
  WsTextOptions o = axis_title_options (ctx, lay);
  double w;

  ws_figure_text_size (ctx, label, &o, &w, NULL);
  return ceil (w);
}

static WsTextOptions
footnote_options (WsFigureContext *ctx)
{
  return (WsTextOptions) { .size = MAX (ctx->style->font_size * 0.92, ctx->style->min_font_size),
                           .max_width = caption_width (ctx), .wrap = TRUE };
}

static double
footnote_height (WsFigureContext *ctx,
                 const WsChart   *chart)
{
  WsTextOptions o = footnote_options (ctx);
  double h;

  if (chart->footnote == NULL)
    return 0;
  ws_figure_text_size (ctx, chart->footnote, &o, NULL, &h);
  return ceil (h + ctx->style->font_size * 0.5);
}

static double
x_title_height (WsFigureContext *ctx,
                const WsChart   *chart)
{
  g_autofree char *label = ws_chart_axis_label (&chart->axes[WS_CHART_X]);
  WsTextOptions o = { .size = ctx->style->font_size, .max_width = caption_width (ctx), .wrap = TRUE };
  double h;

  if (*label == '\0')
    return 0;
  ws_figure_text_size (ctx, label, &o, NULL, &h);
  return ceil (h);
}

/* The plot's height comes from what surrounds it, and the axes' titles,
 * which wrap along that height, set its width: a few rounds settle it.
 * With fixed_ph > 0 the plot is that high (the least height a chart needs). */
static void
chart_layout (WsFigureContext *ctx,
              const WsChart   *chart,
              double           fixed_ph,
              ChartLayout     *lay)
{
  const WsFigureStyle *s = ctx->style;

  memset (lay, 0, sizeof *lay);
  lay->tick_size = MAX (s->font_size * 0.9, s->min_font_size);
  lay->has_y2 = uses_axis (chart, WS_CHART_Y2);
  lay->caption_h = ws_figure_caption_height (ctx, caption_width (ctx), chart->title, chart->subtitle);
  lay->legend_y = MARGIN + lay->caption_h + (lay->caption_h > 0 ? s->font_size * 0.4 : 0);
  /* a first guess: what the caption, one line of legend and the x axis leave */
  lay->ph = fixed_ph > 0 ? fixed_ph : MAX (10, ctx->height - lay->legend_y - s->font_size * 6 - MARGIN);
  for (guint round = 0; round < 4; round++)
    {
      double title_w[WS_CHART_N_AXES] = { 0 }, tick_w[WS_CHART_N_AXES] = { 0 };
      double left, right, bottom, ph;

      /* the margins depend on the plot's height only through these */
      lay->y_ticks = y_tick_room (lay);
      for (WsChartAxisId id = WS_CHART_Y; id <= (lay->has_y2 ? WS_CHART_Y2 : WS_CHART_Y); id++)
        {
          title_w[id] = axis_title_width (ctx, chart, lay, id);
          tick_w[id] = widest_tick (ctx, &chart->axes[id], lay->tick_size, lay->y_ticks);
        }
      if (round > 0 && memcmp (title_w, lay->axis_title_w, sizeof title_w) == 0 &&
          memcmp (tick_w, lay->tick_w, sizeof tick_w) == 0)
        break;
      memcpy (lay->axis_title_w, title_w, sizeof title_w);
      memcpy (lay->tick_w, tick_w, sizeof tick_w);
      left = MARGIN + title_w[WS_CHART_Y] + s->font_size * 0.5 + tick_w[WS_CHART_Y] + 6;
      right = lay->has_y2 ? MARGIN + title_w[WS_CHART_Y2] + s->font_size * 0.5 + tick_w[WS_CHART_Y2] + 8
                          : MARGIN + s->font_size;
      lay->px = left;
      lay->pw = MAX (10, ctx->width - left - right);
      lay->numbered = FALSE;
      if (chart->axes[WS_CHART_X].scale == WS_AXIS_CATEGORY)
        lay->numbered = category_slot (lay, chart) < category_words_width (ctx, chart, lay);
      lay->key_h = key_height (ctx, chart, lay);
      lay->legend_h = legend_flow (ctx, chart, left, lay->has_y2, NULL, NULL);
      lay->notes_h = notes_height (ctx, chart, lay);
      lay->category_h = categories_height (ctx, chart, lay);
      lay->py = ceil (lay->legend_y + lay->legend_h + s->font_size * 0.6 +
                      (lay->notes_h > 0 ? lay->notes_h + s->font_size * 0.4 : 0));
      lay->footnote_h = footnote_height (ctx, chart);
      bottom = MARGIN + 8 + lay->category_h + s->font_size * 0.3 + x_title_height (ctx, chart) + lay->key_h +
               lay->footnote_h;
      ph = fixed_ph > 0 ? fixed_ph : MAX (10, ctx->height - lay->py - bottom);
      if (fabs (ph - lay->ph) < 0.5)
        break;
      lay->ph = ph;
    }
  lay->y_ticks = y_tick_room (lay);
}

static double
min_plot_height (const WsFigureStyle *style)
{
  return ceil (style->font_size * 1.6 * MIN_PLOT_ROWS);
}

/* The widest word of a text (a hyphen ends one): where a wrapped text can
 * break no further. */
static double
widest_word (WsFigureContext     *ctx,
             const char          *text,
             const WsTextOptions *options)
{
  WsTextOptions o = *options;
  double widest = 0, w;

  o.max_width = 0;
  o.wrap = FALSE;
  for (const char *p = text; *p;)
    {
      const char *end = p + strcspn (p, " -");
      g_autofree char *word = g_strndup (p, end - p + (*end == '-'));

      ws_figure_text_size (ctx, word, &o, &w, NULL);
      widest = MAX (widest, w);
      p = *end ? end + 1 : end;
    }
  return widest;
}

static double
category_words_width (WsFigureContext   *ctx,
                      const WsChart     *chart,
                      const ChartLayout *lay)
{
  const WsChartAxis *x = &chart->axes[WS_CHART_X];
  WsTextOptions o = category_options (ctx, lay, chart);
  double widest = 0;

  for (guint i = 0; x->categories && i < x->categories->len; i++)
    widest = MAX (widest, widest_word (ctx, g_ptr_array_index (x->categories, i), &o));
  return widest + 8;
}

/* The least width: the axes' labels, and for every category room for a
 * number and the widest word of its notes. */
static double
min_width_with (WsFigureContext *ctx,
                const WsChart   *chart)
{
  const WsFigureStyle *s = ctx->style;
  const WsChartAxis *x = &chart->axes[WS_CHART_X];
  ChartLayout lay;
  guint n = x->scale == WS_AXIS_CATEGORY && x->categories ? x->categories->len : 0;
  double slot = s->font_size * 3;

  /* too narrow for the categories' names, the axis numbers them */
  chart_layout (ctx, chart, min_plot_height (s), &lay);
  for (guint i = 0; i < chart->notes->len; i++)
    {
      const WsChartNote *note = g_ptr_array_index (chart->notes, i);
      WsTextOptions o = note_options (ctx, &lay, chart, note);
      slot = MAX (slot, widest_word (ctx, note->text, &o) + 8 + (note->hue == WS_CHART_NOTE_TEXT ? 0 : s->font_size * 1.1));
    }
  return ceil (ctx->width - lay.pw + MAX (MAX (n, 1) * slot, s->font_size * 16));
}

static double
min_height_with (WsFigureContext *ctx,
                 const WsChart   *chart)
{
  ChartLayout lay;

  chart_layout (ctx, chart, min_plot_height (ctx->style), &lay);
  return ceil (lay.py + lay.ph + MARGIN + 8 + lay.category_h + ctx->style->font_size * 0.3 +
               x_title_height (ctx, chart) + lay.key_h + lay.footnote_h);
}

double
ws_chart_min_width (const WsChart       *chart,
                    const WsFigureStyle *style)
{
  WsFigureContext ctx;
  double w;

  g_return_val_if_fail (chart != NULL && style != NULL, 0);
  /* the margins do not depend on the width: measure at any */
  ws_figure_context_init_measure (&ctx, style, 1000, 1000);
  w = min_width_with (&ctx, chart);
  ws_figure_context_clear (&ctx);
  return w;
}

double
ws_chart_min_height (const WsChart       *chart,
                     const WsFigureStyle *style,
                     double               width)
{
  WsFigureContext ctx;
  double h;

  g_return_val_if_fail (chart != NULL && style != NULL, 0);
  ws_figure_context_init_measure (&ctx, style, MAX (width, ws_chart_min_width (chart, style)), 0);
  h = min_height_with (&ctx, chart);
  ws_figure_context_clear (&ctx);
  return h;
}

/* On a category axis, the series of measured points stand side by side
 * (one recording beside another), and the model's beside them. */
static double
category_dodge (const WsChart       *chart,
                const WsChartSeries *series)
{
  guint n_points = 0, index = 0;
  gboolean has_line = FALSE;

  /* an overlay stands on the points, wherever they are */
  if (series->overlay)
    return 0;
  for (guint i = 0; i < chart->series->len; i++)
    {
      const WsChartSeries *s = g_ptr_array_index (chart->series, i);
      if (s == series)
        index = n_points;
      if (s->overlay)
        continue;
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

/* Which of the measured series this is (its marker's shape), and how many
 * there are; -1 for a line or an overlay. */
static int
point_series_index (const WsChart       *chart,
                    const WsChartSeries *series,
                    guint               *n)
{
  int index = -1;

  *n = 0;
  for (guint i = 0; i < chart->series->len; i++)
    {
      const WsChartSeries *s = g_ptr_array_index (chart->series, i);
      if (s->overlay || s->kind != WS_SERIES_POINTS)
        continue;
      if (s == series)
        index = (int) *n;
      (*n)++;
    }
  return index;
}

static double
point_x (const ChartLayout   *lay,
         const WsChart       *chart,
         const WsChartSeries *series,
         double               v)
{
  double dodge = 0;
  guint n;
  int index;

  if (chart->axes[WS_CHART_X].scale == WS_AXIS_CATEGORY)
    return to_x (lay, chart, v + category_dodge (chart, series));
  /* two recordings' points at one x stand side by side, not one on the
   * other: a few pixels apart, each recording its own shape */
  index = point_series_index (chart, series, &n);
  if (index >= 0 && n > 1)
    dodge = (index - (n - 1) / 2.0) * MIN (10, lay->tick_size * 0.7);
  return to_x (lay, chart, v) + dodge;
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

/* A hollow diamond, larger than a point: a measured point inside it is
 * where the model said it would be. */
static void
draw_hollow_marker (WsFigureContext *ctx,
                    double           x,
                    double           y,
                    WsRgba           color,
                    double           r)
{
  cairo_t *cr = ctx->cr;

  cairo_new_path (cr);
  cairo_move_to (cr, x, y - r);
  cairo_line_to (cr, x + r, y);
  cairo_line_to (cr, x, y + r);
  cairo_line_to (cr, x - r, y);
  cairo_close_path (cr);
  ws_figure_set_color (ctx, color);
  cairo_set_line_width (cr, 2 * ctx->style->line_width);
  cairo_stroke (cr);
}

/* A measured series' marker: a disc, a square, a triangle up or down,
 * by the series' place among them, so that they tell apart in print and
 * for every vision. */
static void
shape_path (cairo_t *cr,
            int      shape,
            double   x,
            double   y,
            double   r)
{
  switch (shape % 4)
    {
    case 1:
      cairo_rectangle (cr, x - r * 0.9, y - r * 0.9, r * 1.8, r * 1.8);
      break;
    case 2:
      cairo_move_to (cr, x, y - r * 1.2);
      cairo_line_to (cr, x + r * 1.1, y + r * 0.8);
      cairo_line_to (cr, x - r * 1.1, y + r * 0.8);
      cairo_close_path (cr);
      break;
    case 3:
      cairo_move_to (cr, x, y + r * 1.2);
      cairo_line_to (cr, x + r * 1.1, y - r * 0.8);
      cairo_line_to (cr, x - r * 1.1, y - r * 0.8);
      cairo_close_path (cr);
      break;
    default:
      cairo_arc (cr, x, y, r, 0, 2 * G_PI);
      break;
    }
}

static void
draw_shaped_marker (WsFigureContext *ctx,
                    WsSeriesKind     kind,
                    int              shape,
                    double           x,
                    double           y,
                    WsRgba           color)
{
  cairo_t *cr = ctx->cr;
  double r = ctx->style->font_size * (kind == WS_SERIES_POINTS ? 0.38 : 0.32);

  /* a marker of its own, not joined to whatever was drawn last */
  cairo_new_path (cr);
  if (kind == WS_SERIES_POINTS)
    shape_path (cr, MAX (0, shape), x, y, r);
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
draw_marker (WsFigureContext *ctx,
             WsSeriesKind     kind,
             double           x,
             double           y,
             WsRgba           color)
{
  draw_shaped_marker (ctx, kind, 0, x, y, color);
}

static int
series_shape (const WsChart       *chart,
              const WsChartSeries *series)
{
  guint n;

  return point_series_index (chart, series, &n);
}

static void
draw_grid (WsFigureContext   *ctx,
           const WsChart     *chart,
           const ChartLayout *lay)
{
  const WsFigureStyle *s = ctx->style;
  cairo_t *cr = ctx->cr;
  double ticks[16];
  guint n = ws_chart_axis_ticks (&chart->axes[WS_CHART_Y], lay->y_ticks, ticks);

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
      ws_figure_set_color (ctx, ws_rgba_alpha (s->accent, 0.3));
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
  guint n = ws_chart_axis_ticks (axis, lay->y_ticks, ticks);
  WsTextOptions o = { .size = lay->tick_size, .ax = right ? 0 : 1, .ay = 0.5 };
  WsTextOptions t = axis_title_options (ctx, lay);
  g_autofree char *label = ws_chart_axis_label (axis);
  double edge = right ? lay->px + lay->pw : lay->px;

  ws_figure_set_color (ctx, right ? s->model : s->foreground);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *text = ws_chart_axis_format_tick (axis, ticks[i], n > 1 ? ticks[1] - ticks[0] : 1);
      double y = to_y (lay, chart, id, ticks[i]);
      cairo_move_to (ctx->cr, edge, round (y) + 0.5);
      cairo_line_to (ctx->cr, edge + (right ? 4 : -4), round (y) + 0.5);
      cairo_stroke (ctx->cr);
      ws_figure_text (ctx, edge + (right ? 6 : -6), y, text, &o, NULL, NULL);
    }
  pango_layout_set_alignment (ctx->layout, PANGO_ALIGN_CENTER);
  if (right)
    ws_figure_text (ctx, edge + 8 + lay->tick_w[WS_CHART_Y2] + s->font_size * 0.5, lay->py + lay->ph / 2, label, &t,
                    NULL, NULL);
  else
    ws_figure_text (ctx, MARGIN, lay->py + lay->ph / 2, label, &t, NULL, NULL);
  pango_layout_set_alignment (ctx->layout, PANGO_ALIGN_LEFT);
}

static void
draw_x_axis (WsFigureContext   *ctx,
             const WsChart     *chart,
             const ChartLayout *lay)
{
  const WsFigureStyle *s = ctx->style;
  const WsChartAxis *axis = &chart->axes[WS_CHART_X];
  double ticks[64];
  guint n = x_ticks (ctx, chart, lay, ticks);
  WsTextOptions o = category_options (ctx, lay, chart);
  g_autofree char *label = ws_chart_axis_label (axis);
  double y0 = lay->py + lay->ph;

  ws_figure_set_color (ctx, s->foreground);
  pango_layout_set_alignment (ctx->layout, PANGO_ALIGN_CENTER);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *text = x_tick_text (lay, chart, ticks[i], n > 1 ? ticks[1] - ticks[0] : 1);
      double x = to_x (lay, chart, ticks[i]);
      cairo_move_to (ctx->cr, round (x) + 0.5, y0);
      cairo_line_to (ctx->cr, round (x) + 0.5, y0 + 4);
      cairo_stroke (ctx->cr);
      ws_figure_text (ctx, x, y0 + 6, text, &o, NULL, NULL);
    }
  if (*label)
    ws_figure_text (ctx, lay->px + lay->pw / 2, y0 + 8 + lay->category_h + s->font_size * 0.3, label,
                    &(WsTextOptions) { .size = s->font_size, .ax = 0.5, .ay = 0, .max_width = caption_width (ctx),
                                       .wrap = TRUE },
                    NULL, NULL);
  pango_layout_set_alignment (ctx->layout, PANGO_ALIGN_LEFT);
  if (lay->numbered)
    {
      g_autofree char *key = category_key (chart);
      WsTextOptions k = key_options (ctx, lay);
      ws_figure_set_color (ctx, s->muted);
      ws_figure_text (ctx, MARGIN, y0 + 8 + lay->category_h + s->font_size * 0.7 + x_title_height (ctx, chart), key,
                      &k, NULL, NULL);
    }
}

static void
draw_series (WsFigureContext     *ctx,
             const WsChart       *chart,
             const ChartLayout   *lay,
             const WsChartSeries *series)
{
  cairo_t *cr = ctx->cr;
  /* a line known not to follow is faint and dotted, whatever it is */
  WsRgba color = series->loose ? ws_rgba_alpha (series_color (series, ctx->style), 0.6)
                               : series_color (series, ctx->style);
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
      if (series->loose)
        cairo_set_dash (cr, (double[]) { 1.5, 5 }, 2, 0);
      else if (series->dashed)
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
      double x = point_x (lay, chart, series, p->x), y = to_y (lay, chart, series->axis, p->y);

      if (series->overlay)
        draw_hollow_marker (ctx, x, y, color,
                            ctx->style->font_size * (series->kind == WS_SERIES_LINE ? 0.45 : 0.62));
      else
        draw_shaped_marker (ctx, series->kind, series_shape (chart, series), x, y, color);
    }
  cairo_restore (cr);
}

static void
draw_legend (WsFigureContext   *ctx,
             const WsChart     *chart,
             const ChartLayout *lay)
{
  const WsFigureStyle *s = ctx->style;
  WsTextOptions o = legend_options (ctx, lay->px);
  g_autofree double *xs = g_new (double, chart->series->len + 2);
  g_autofree double *ys = g_new (double, chart->series->len + 2);

  legend_flow (ctx, chart, lay->px, lay->has_y2, xs, ys);
  if (shows_band (chart, s))
    {
      /* the band over the value in the editor, as the plot draws it */
      double x = xs[chart->series->len], y = lay->legend_y + ys[chart->series->len];

      cairo_rectangle (ctx->cr, x + s->font_size * 0.5, y - s->font_size * 0.55, s->font_size * 0.6,
                       s->font_size * 1.1);
      ws_figure_set_color (ctx, ws_rgba_alpha (s->accent, 0.3));
      cairo_fill (ctx->cr);
      ws_figure_set_color (ctx, s->foreground);
      ws_figure_text (ctx, x + s->font_size * 2, y, chart->highlight_label, &o, NULL, NULL);
    }
  for (guint i = 0; i < chart->series->len; i++)
    {
      const WsChartSeries *series = g_ptr_array_index (chart->series, i);
      g_autofree char *name = legend_name (series, lay->has_y2);
      double x = xs[i], y = lay->legend_y + ys[i];

      if (series->kind == WS_SERIES_LINE)
        {
          ws_figure_set_color (ctx, series->loose ? ws_rgba_alpha (series_color (series, s), 0.6)
                                                  : series_color (series, s));
          cairo_set_line_width (ctx->cr, 2 * s->line_width);
          if (series->loose)
            cairo_set_dash (ctx->cr, (double[]) { 1.5, 4 }, 2, 0);
          else if (series->dashed)
            cairo_set_dash (ctx->cr, (double[]) { 4, 3 }, 2, 0);
          cairo_move_to (ctx->cr, x, y);
          cairo_line_to (ctx->cr, x + s->font_size * 1.6, y);
          cairo_stroke (ctx->cr);
          cairo_set_dash (ctx->cr, NULL, 0, 0);
        }
      if (series->overlay)
        draw_hollow_marker (ctx, x + s->font_size * 0.8, y,
                            series->loose ? ws_rgba_alpha (series_color (series, s), 0.6) : series_color (series, s),
                            s->font_size * 0.5);
      else
        draw_shaped_marker (ctx, series->kind, series_shape (chart, series), x + s->font_size * 0.8, y,
                            series_color (series, s));
      ws_figure_set_color (ctx, s->foreground);
      ws_figure_text (ctx, x + s->font_size * 2, y, name, &o, NULL, NULL);
    }
}

static void
draw_footnote (WsFigureContext   *ctx,
               const WsChart     *chart,
               const ChartLayout *lay)
{
  WsTextOptions o = footnote_options (ctx);

  if (chart->footnote == NULL)
    return;
  ws_figure_set_color (ctx, ctx->style->muted);
  ws_figure_text (ctx, MARGIN, ctx->height - MARGIN - lay->footnote_h + ctx->style->font_size * 0.5, chart->footnote,
                  &o, NULL, NULL);
}

/* The model's series stands over the measured points (its marks hollow). */
static gboolean
model_overlays (const WsChart *chart)
{
  for (guint i = 0; i < chart->series->len; i++)
    {
      const WsChartSeries *se = g_ptr_array_index (chart->series, i);
      if (se->hue < 0 && se->overlay)
        return TRUE;
    }
  return FALSE;
}

/* Notes stand over their x, in the band between the legend and the plot,
 * each in its series' colour after its marker, wrapped to their slot. */
static void
draw_notes (WsFigureContext   *ctx,
            const WsChart     *chart,
            const ChartLayout *lay)
{
  const WsFigureStyle *s = ctx->style;
  double top = lay->py - lay->notes_h - s->font_size * 0.4;

  pango_layout_set_alignment (ctx->layout, PANGO_ALIGN_CENTER);
  for (guint i = 0; i < chart->notes->len; i++)
    {
      const WsChartNote *n = g_ptr_array_index (chart->notes, i);
      WsTextOptions o = note_options (ctx, lay, chart, n);
      double cx = to_x (lay, chart, n->x), y = top, w, h;
      double marker = n->hue == WS_CHART_NOTE_TEXT ? 0 : s->font_size * 1.1;

      /* below the notes over the same x before it */
      for (guint j = 0; j < i; j++)
        {
          const WsChartNote *m = g_ptr_array_index (chart->notes, j);
          WsTextOptions mo = note_options (ctx, lay, chart, m);
          if (m->x == n->x)
            {
              ws_figure_text_size (ctx, m->text, &mo, NULL, &h);
              y += h + 2;
            }
        }
      ws_figure_text_size (ctx, n->text, &o, &w, &h);
      if (marker > 0 && n->hue == WS_CHART_NOTE_MODEL && model_overlays (chart))
        draw_hollow_marker (ctx, cx - w / 2 - marker / 2, y + MIN (h, o.size * 1.3) / 2, s->model, s->font_size * 0.4);
      else if (marker > 0)
        draw_marker (ctx, n->hue == WS_CHART_NOTE_MODEL ? WS_SERIES_LINE : WS_SERIES_POINTS, cx - w / 2 - marker / 2,
                     y + MIN (h, o.size * 1.3) / 2, n->hue == WS_CHART_NOTE_MODEL ? s->model : ws_figure_style_hue (s, n->hue));
      ws_figure_set_color (ctx, s->foreground);
      ws_figure_text (ctx, cx + marker / 2, y, n->text, &o, NULL, NULL);
    }
  pango_layout_set_alignment (ctx->layout, PANGO_ALIGN_LEFT);
}

static void
draw_message (WsFigureContext   *ctx,
              const ChartLayout *lay,
              const char        *message)
{
  const WsFigureStyle *s = ctx->style;
  WsTextOptions o = { .size = s->font_size, .ax = 0.5, .ay = 0.5, .max_width = MAX (10, lay->pw - 20), .wrap = TRUE };
  double h;

  pango_layout_set_alignment (ctx->layout, PANGO_ALIGN_CENTER);
  ws_figure_text_size (ctx, message, &o, NULL, &h);
  if (h > lay->ph - 4)
    o.size = s->min_font_size;
  ws_figure_set_color (ctx, s->muted);
  ws_figure_text (ctx, lay->px + lay->pw / 2, lay->py + lay->ph / 2, message, &o, NULL, NULL);
  pango_layout_set_alignment (ctx->layout, PANGO_ALIGN_LEFT);
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
  double min_w, min_h;

  g_return_if_fail (cr != NULL && chart != NULL && style != NULL);

  cairo_save (cr);
  ws_figure_context_init (&ctx, cr, style, width, height);
  min_w = min_width_with (&ctx, chart);
  min_h = min_height_with (&ctx, chart);
  if (width < floor (min_w) || height < floor (min_h))
    {
      ws_figure_context_clear (&ctx);
      ws_figure_draw_too_small (cr, style, width, height, FG_("chart"), min_w, min_h);
      cairo_restore (cr);
      return;
    }
  chart_layout (&ctx, chart, 0, &lay);
  if (chart->title)
    ws_figure_caption (&ctx, MARGIN, MARGIN, caption_width (&ctx), chart->title, chart->subtitle);
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
    draw_message (&ctx, &lay, chart->message);
  draw_footnote (&ctx, chart, &lay);
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
  chart_layout (&ctx, chart, 0, &lay);
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

void
ws_chart_point_position (const WsChart       *chart,
                         const WsFigureStyle *style,
                         double               width,
                         double               height,
                         guint                series,
                         guint                point,
                         double              *x,
                         double              *y)
{
  WsFigureContext ctx;
  ChartLayout lay;
  const WsChartSeries *se;
  const WsChartPoint *p;

  g_return_if_fail (chart != NULL && series < chart->series->len);
  se = g_ptr_array_index (chart->series, series);
  g_return_if_fail (point < se->points->len);
  p = &g_array_index (se->points, WsChartPoint, point);
  ws_figure_context_init_measure (&ctx, style, width, height);
  chart_layout (&ctx, chart, 0, &lay);
  ws_figure_context_clear (&ctx);
  *x = point_x (&lay, chart, se, p->x);
  *y = to_y (&lay, chart, se->axis, p->y);
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
      g_string_append_c (s, '\n');
      /* Translators: a point's range in a chart's tooltip: its smallest and largest values */
      g_string_append_printf (s, FG_("min %s, max %s"), lo, hi);
    }
  if (se->notes && point < se->notes->len && g_ptr_array_index (se->notes, point))
    g_string_append_printf (s, "\n%s", (const char *) g_ptr_array_index (se->notes, point));
  return g_string_free (s, FALSE);
}
