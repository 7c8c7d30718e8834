/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The timeline: one row per stream, a bar per copy or kernel, a time axis
 * below, and the sum of what ran against how long it took. */
#include "ws-timeline-figure.h"
#include "ws-chart.h"
#include "ws-figure-private.h"

#include <math.h>

#define MAX_ROWS 64

typedef struct
{
  double top;                    /* below the caption */
  double label_w;                /* the stream names */
  WsBox plot;                    /* the rows */
  double row_h;
  guint n_rows;
  double t_max;                  /* ms */
  double axis_y;
  double legend_y;
} TimelineLayout;

static const char *kind_names[] = { N_("kernel"), N_("copy to the device"), N_("copy to the host"), N_("prefetch") };
G_STATIC_ASSERT (G_N_ELEMENTS (kind_names) == WS_N_TIMELINE_KINDS);

static WsRgba
kind_color (const WsFigureStyle *s,
            WsTimelineKind       kind)
{
  switch (kind)
    {
    case WS_TIMELINE_KERNEL: return s->accent;
    case WS_TIMELINE_HOST_TO_DEVICE: return ws_figure_style_hue (s, 1);
    case WS_TIMELINE_DEVICE_TO_HOST: return ws_figure_style_hue (s, 3);
    default: return ws_figure_style_hue (s, 5);
    }
}

void
ws_timeline_figure_totals (const WsTimelineFigure *t,
                           double                 *busy_ms,
                           double                 *elapsed_ms)
{
  double first = G_MAXDOUBLE, last = 0, busy = 0;

  for (guint i = 0; i < t->n_bars; i++)
    {
      busy += t->bars[i].end_ms - t->bars[i].start_ms;
      first = MIN (first, t->bars[i].start_ms);
      last = MAX (last, t->bars[i].end_ms);
    }
  *busy_ms = busy;
  *elapsed_ms = t->n_bars ? last - first : 0;
}

static double
caption_height (const WsTimelineFigure *t,
                const WsFigureStyle    *s)
{
  return (t->title ? s->font_size * 1.7 : 0) + s->font_size * 1.5 + (t->subtitle ? s->font_size * 1.4 : 0);
}

static void
timeline_layout (const WsTimelineFigure *t,
                 const WsFigureStyle    *s,
                 double                  width,
                 double                  height,
                 TimelineLayout         *lay)
{
  double m = WS_FIGURE_MARGIN;
  double bottom;

  lay->n_rows = 1;
  lay->t_max = 0;
  for (guint i = 0; i < t->n_bars; i++)
    {
      lay->n_rows = MAX (lay->n_rows, MIN (t->bars[i].stream, MAX_ROWS - 1) + 1);
      lay->t_max = MAX (lay->t_max, t->bars[i].end_ms);
    }
  if (lay->t_max <= 0)
    lay->t_max = 1;
  lay->top = m + caption_height (t, s) + s->font_size * 0.6;
  lay->label_w = s->font_size * 6;
  /* below the rows: the axis' labels and title, then the legend */
  bottom = height - m - ws_figure_legend_line_height (s) - s->font_size * 3.6;
  /* rows as tall as the room allows, within reason: a slide with few streams is filled */
  lay->row_h = CLAMP ((bottom - lay->top) / lay->n_rows, 6, s->font_size * 8);
  lay->plot = (WsBox) { m + lay->label_w, lay->top, MAX (1, width - 2 * m - lay->label_w), lay->row_h * lay->n_rows };
  lay->axis_y = lay->plot.y + lay->plot.h;
  lay->legend_y = lay->axis_y + s->font_size * 3.6;
}

static WsBox
bar_box (const TimelineLayout *lay,
         const WsTimelineBar  *b)
{
  double x0 = lay->plot.x + lay->plot.w * MAX (0, b->start_ms) / lay->t_max;
  double x1 = lay->plot.x + lay->plot.w * MIN (lay->t_max, b->end_ms) / lay->t_max;
  double pad = MIN (4, lay->row_h * 0.15);
  guint row = MIN (b->stream, MAX_ROWS - 1);

  return (WsBox) { x0, lay->plot.y + row * lay->row_h + pad, MAX (1.5, x1 - x0), lay->row_h - 2 * pad };
}

static WsChartAxis
time_axis (const TimelineLayout *lay)
{
  return (WsChartAxis) { .title = (char *) FG_("time"), .unit = (char *) "s", .si = TRUE, .scale = WS_AXIS_LINEAR,
                         .min = 0, .max = lay->t_max / 1e3, .fixed = TRUE };
}

static void
draw_axis (WsFigureContext      *ctx,
           const TimelineLayout *lay)
{
  const WsFigureStyle *s = ctx->style;
  WsChartAxis axis = time_axis (lay);
  double ticks[16];
  guint n = ws_chart_axis_ticks (&axis, 8, ticks);
  WsTextOptions o = { .size = s->font_size * 0.9, .ax = 0.5 };

  for (guint i = 0; i < n; i++)
    {
      double x = lay->plot.x + lay->plot.w * ws_chart_axis_map (&axis, ticks[i]);
      g_autofree char *label = ws_chart_axis_format_tick (&axis, ticks[i], n > 1 ? ticks[1] - ticks[0] : ticks[i]);

      ws_figure_set_color (ctx, s->grid);
      cairo_move_to (ctx->cr, round (x) + 0.5, lay->plot.y);
      cairo_line_to (ctx->cr, round (x) + 0.5, lay->axis_y + 4);
      cairo_stroke (ctx->cr);
      ws_figure_set_color (ctx, s->muted);
      ws_figure_text (ctx, x, lay->axis_y + 6, label, &o, NULL, NULL);
    }
  {
    g_autofree char *title = ws_chart_axis_label (&axis);
    o.ax = 1;
    ws_figure_text (ctx, lay->plot.x + lay->plot.w, lay->axis_y + 6 + s->font_size * 1.4, title, &o, NULL, NULL);
  }
}

static void
draw_rows (WsFigureContext        *ctx,
           const WsTimelineFigure *t,
           const TimelineLayout   *lay)
{
  const WsFigureStyle *s = ctx->style;
  WsTextOptions o = { .size = MIN (s->font_size, lay->row_h * 0.6), .ay = 0.5 };

  for (guint r = 0; r < lay->n_rows; r++)
    {
      char label[64];
      double y = lay->plot.y + r * lay->row_h;

      if (r % 2 == 1)
        {
          ws_figure_set_color (ctx, ws_rgba_alpha (s->surface, 0.5));
          cairo_rectangle (ctx->cr, lay->plot.x, y, lay->plot.w, lay->row_h);
          cairo_fill (ctx->cr);
        }
      if (lay->row_h >= 9)
        {
          /* Translators: a CUDA stream, numbered from 0 */
          g_snprintf (label, sizeof label, FG_("stream %u"), r);
          ws_figure_set_color (ctx, s->muted);
          ws_figure_text (ctx, WS_FIGURE_MARGIN, y + lay->row_h / 2, label, &o, NULL, NULL);
        }
    }
  for (guint i = 0; i < t->n_bars; i++)
    {
      WsBox b = bar_box (lay, &t->bars[i]);

      ws_figure_rounded_rect (ctx, b.x, b.y, b.w, b.h, MIN (3, b.w / 2));
      ws_figure_set_color (ctx, kind_color (s, t->bars[i].kind));
      cairo_fill (ctx->cr);
    }
}

void
ws_timeline_figure_draw (cairo_t             *cr,
                         const WsFigureStyle *style,
                         double               width,
                         double               height,
                         gpointer             data)
{
  const WsTimelineFigure *t = data;
  WsFigureContext ctx;
  TimelineLayout lay;
  double busy, elapsed;
  g_autofree char *stats = NULL;
  WsLegendItem legend[WS_N_TIMELINE_KINDS];
  guint n_legend = 0;
  gboolean used[WS_N_TIMELINE_KINDS] = { FALSE };

  ws_figure_context_init (&ctx, cr, style, width, height);
  timeline_layout (t, style, width, height, &lay);
  ws_timeline_figure_totals (t, &busy, &elapsed);
  if (t->n_bars == 0)
    stats = g_strdup (FG_("no timeline: this measurement has none"));
  else if (busy > elapsed * 1.02)
    /* Translators: the copies' and kernels' times added up, the time they
     * took together (both in milliseconds), and how much of it overlapped;
     * "%%" is a percent sign */
    stats = g_strdup_printf (FG_("the copies and kernels add up to %.3g ms and took %.3g ms: %.0f %% of their time "
                               "overlapped"), busy, elapsed, 100 * (busy - elapsed) / busy);
  else
    /* Translators: the copies' and kernels' times added up, and the time they
     * took together, in milliseconds */
    stats = g_strdup_printf (FG_("the copies and kernels add up to %.3g ms and took %.3g ms: one after another"),
                             busy, elapsed);
  ws_figure_caption (&ctx, WS_FIGURE_MARGIN, WS_FIGURE_MARGIN, width - 2 * WS_FIGURE_MARGIN, t->title,
                     t->subtitle ? t->subtitle : stats);
  if (t->subtitle)
    {
      WsTextOptions o = { .size = style->font_size * 0.95, .max_width = width - 2 * WS_FIGURE_MARGIN };
      ws_figure_set_color (&ctx, style->muted);
      ws_figure_text (&ctx, WS_FIGURE_MARGIN, lay.top - style->font_size * 2, stats, &o, NULL, NULL);
    }
  draw_axis (&ctx, &lay);
  draw_rows (&ctx, t, &lay);
  for (guint i = 0; i < t->n_bars; i++)
    used[t->bars[i].kind] = TRUE;
  for (guint k = 0; k < WS_N_TIMELINE_KINDS; k++)
    if (used[k])
      legend[n_legend++] = (WsLegendItem) { kind_color (style, k), FG_(kind_names[k]), FALSE };
  ws_figure_draw_legend (&ctx, WS_FIGURE_MARGIN, lay.legend_y, width - 2 * WS_FIGURE_MARGIN, legend, n_legend);
  ws_figure_context_clear (&ctx);
}

int
ws_timeline_figure_hit (const WsTimelineFigure *t,
                        const WsFigureStyle    *style,
                        double                  width,
                        double                  height,
                        double                  x,
                        double                  y)
{
  TimelineLayout lay;

  timeline_layout (t, style, width, height, &lay);
  for (guint i = 0; i < t->n_bars; i++)
    {
      WsBox b = bar_box (&lay, &t->bars[i]);
      /* thin bars are hard to hit: a few pixels either side count */
      b.x -= 3;
      b.w += 6;
      if (ws_box_contains (&b, x, y))
        return (int) i;
    }
  return -1;
}

char *
ws_timeline_figure_describe (const WsTimelineFigure *t,
                             int                     bar)
{
  const WsTimelineBar *b;

  if (bar < 0 || (guint) bar >= t->n_bars)
    return NULL;
  b = &t->bars[bar];
  /* Translators: what ran ("kernel", "copy to the device"), its stream, when
   * it started and ended and how long it took, in milliseconds */
  return g_strdup_printf (FG_("%s on stream %u\nfrom %.3f ms to %.3f ms: %.3f ms"), FG_(kind_names[b->kind]), b->stream,
                          b->start_ms, b->end_ms, b->end_ms - b->start_ms);
}
