/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What every view shares: the frame (caption and legend), the row of 32
 * lanes, rows that fold, curves from a lane to what serves it, and the
 * words that describe a lane. */
#include "ws-figure-private.h"

#include <math.h>

/* ------------------------------------------------------------------ */
/* The frame                                                          */
/* ------------------------------------------------------------------ */

double
ws_figure_counter_width (WsFigureContext     *ctx,
                         const WsFigureFrame *frame)
{
  guint n = frame->result->steps->len;
  WsTextOptions o = { .size = ctx->style->font_size, .flags = WS_TEXT_BOLD };
  char text[64];
  double w, served_w;

  if (n == 0 || frame->result->space == WS_SPACE_REGISTER)
    return 0;
  /* the widest it gets: "step 10 of 32", or "9 of 32 steps served" */
  /* Translators: the step shown and the number of steps, as ws-figure.c's counter has it */
  g_snprintf (text, sizeof text, FG_("step %u of %u"), n, n);
  ws_figure_text_size (ctx, text, &o, &w, NULL);
  /* Translators: the steps served so far, then how many there are, as ws-figure.c's counter has it */
  g_snprintf (text, sizeof text, NG_("%u of %u step served", "%u of %u steps served", n), n, n);
  ws_figure_text_size (ctx, text, &o, &served_w, NULL);
  return ceil (MAX (w, served_w));
}

void
ws_figure_layout_frame (WsFigureContext     *ctx,
                        const WsFigureFrame *frame,
                        const char          *stats,
                        const WsLegendItem  *legend,
                        guint                n_legend,
                        WsFigureLayout      *lay)
{
  const WsFigureStyle *s = ctx->style;
  double m = WS_FIGURE_MARGIN, counter = ws_figure_counter_width (ctx, frame);
  double top, bottom;

  lay->caption_w = MAX (1, ctx->width - 2 * m - (counter > 0 ? counter + s->font_size : 0));
  lay->caption_h = 0;
  if (frame->title)
    lay->caption_h = MAX (ws_figure_caption_height (ctx, lay->caption_w, frame->title, stats),
                          counter > 0 ? ceil (s->font_size * 1.3) : 0);
  lay->legend_h = n_legend > 0 ? ws_figure_legend_height (ctx, ctx->width - 2 * m, legend, n_legend) : 0;
  top = m + lay->caption_h + (lay->caption_h > 0 ? ceil (s->font_size * 0.6) : 0);
  bottom = m + lay->legend_h + (lay->legend_h > 0 ? ceil (s->font_size * 0.5) : 0);
  lay->legend_y = ctx->height - m - lay->legend_h;
  lay->bottom = bottom;
  lay->content = (WsBox) { m, top, MAX (1, ctx->width - 2 * m), MAX (1, ctx->height - top - bottom) };
}

void
ws_figure_draw_frame (WsFigureContext      *ctx,
                      const WsFigureFrame  *frame,
                      const WsFigureLayout *lay,
                      const char           *stats,
                      const WsLegendItem   *legend,
                      guint                 n_legend)
{
  if (frame->title)
    ws_figure_caption (ctx, WS_FIGURE_MARGIN, WS_FIGURE_MARGIN, lay->caption_w, frame->title, stats);
  if (n_legend > 0)
    ws_figure_draw_legend (ctx, WS_FIGURE_MARGIN, lay->legend_y, ctx->width - 2 * WS_FIGURE_MARGIN, legend,
                           n_legend);
}

/* Legend items flow left to right, onto as many lines as they need. */
typedef struct
{
  double line_h;
  double swatch;
  double gap;
  WsTextOptions text;
} LegendMetrics;

static LegendMetrics
legend_metrics (const WsFigureStyle *s,
                double               width)
{
  double size = MAX (s->font_size * 0.9, s->min_font_size);
  double swatch = ceil (size);

  return (LegendMetrics) { ceil (s->font_size * 1.6), swatch, ceil (s->font_size * 1.4),
                           { .size = size, .ay = 0.5, .max_width = MAX (1, width - swatch - 5), .wrap = TRUE } };
}

/* Calls place (x, y) for each item, returns the lines used. */
static guint
legend_flow (WsFigureContext    *ctx,
             double              x0,
             double              width,
             const WsLegendItem *items,
             guint               n_items,
             double             *xs,
             guint              *lines)
{
  LegendMetrics m = legend_metrics (ctx->style, width);
  double x = x0;
  guint line = 0;

  for (guint i = 0; i < n_items; i++)
    {
      double tw, w;

      ws_figure_text_size (ctx, items[i].label, &m.text, &tw, NULL);
      w = m.swatch + 5 + tw;
      if (x > x0 && x + w > x0 + width)
        {
          x = x0;
          line++;
        }
      xs[i] = x;
      lines[i] = line;
      x += w + m.gap;
    }
  return n_items > 0 ? line + 1 : 0;
}

double
ws_figure_legend_line_height (const WsFigureStyle *style)
{
  return legend_metrics (style, 1).line_h;
}

double
ws_figure_legend_height (WsFigureContext    *ctx,
                         double              width,
                         const WsLegendItem *items,
                         guint               n_items)
{
  double xs[16];
  guint lines[16];

  g_assert (n_items <= G_N_ELEMENTS (xs));
  return legend_flow (ctx, 0, width, items, n_items, xs, lines) * legend_metrics (ctx->style, width).line_h;
}

void
ws_figure_draw_legend (WsFigureContext    *ctx,
                       double              x,
                       double              y,
                       double              width,
                       const WsLegendItem *items,
                       guint               n_items)
{
  const WsFigureStyle *s = ctx->style;
  LegendMetrics m = legend_metrics (s, width);
  double xs[16];
  guint lines[16];

  g_assert (n_items <= G_N_ELEMENTS (xs));
  legend_flow (ctx, x, width, items, n_items, xs, lines);
  for (guint i = 0; i < n_items; i++)
    {
      double cy = y + (lines[i] + 0.5) * m.line_h;

      ws_figure_rounded_rect (ctx, xs[i], cy - m.swatch / 2, m.swatch, m.swatch, 2);
      ws_figure_set_color (ctx, items[i].color);
      if (items[i].hues)
        {
          /* three stripes of the first hues */
          cairo_save (ctx->cr);
          cairo_clip (ctx->cr);
          for (guint k = 0; k < 3; k++)
            {
              cairo_rectangle (ctx->cr, xs[i] + k * m.swatch / 3, cy - m.swatch / 2, m.swatch / 3 + 0.5, m.swatch);
              ws_figure_set_color (ctx, ws_rgba_alpha (ws_figure_style_hue (s, k), items[i].color.a));
              cairo_fill (ctx->cr);
            }
          cairo_restore (ctx->cr);
        }
      else if (items[i].outline)
        {
          cairo_set_line_width (ctx->cr, 2 * s->line_width);
          cairo_stroke (ctx->cr);
          cairo_set_line_width (ctx->cr, s->line_width);
        }
      else
        cairo_fill (ctx->cr);
      ws_figure_set_color (ctx, s->muted);
      ws_figure_text (ctx, xs[i] + m.swatch + 5, cy, items[i].label, &m.text, NULL, NULL);
    }
}

/* ------------------------------------------------------------------ */
/* Rows of 32                                                         */
/* ------------------------------------------------------------------ */

static double
ruler_size (const WsFigureStyle *s)
{
  return MAX (s->font_size * 0.8, s->min_font_size);
}

static double
ruler_line (const WsFigureStyle *s)
{
  return ceil (ruler_size (s) * 1.3);
}

/* A word over the row ("lane") and, for a ruler, the numbers under it: the
 * word on a line of its own, so that it never moves a number off its box. */
double
ws_figure_index_row_above (const WsFigureStyle *style)
{
  return ceil (style->font_size * 1.4) + ruler_line (style);
}

/* As ws_figure_index_row decides: the numbers go inside boxes of this
 * width when "31" fits there, else on a ruler over them. */
static gboolean
numbers_inside (WsFigureContext *ctx,
                double           row_width)
{
  double pitch = row_width / WS_WARP_SIZE;
  double gap = MIN (6, MAX (1, pitch * 0.12));

  return ws_figure_fit_text (ctx, "31", WS_TEXT_BOLD, ctx->style->font_size, pitch - gap - 2) > 0;
}

double
ws_figure_index_row_above_at (WsFigureContext *ctx,
                              double           row_width)
{
  if (numbers_inside (ctx, row_width))
    return ceil (ctx->style->font_size * 1.4);
  return ws_figure_index_row_above (ctx->style);
}

/* Where ruler label i goes, for numbers every `every` boxes: its left edge
 * and width; FALSE for a box without a label. */
/* Where a number of the ruler goes: centred on its box, as far as the row's
 * ends allow. */
static double
ruler_x (const WsIndexRow *row,
         guint             i,
         double            w)
{
  double left = row->boxes[0].x, right = row->boxes[WS_WARP_SIZE - 1].x + row->boxes[WS_WARP_SIZE - 1].w;

  return CLAMP (row->boxes[i].x + row->boxes[i].w / 2 - w / 2, left, MAX (left, right - w));
}

static gboolean
ruler_label (WsFigureContext  *ctx,
             const WsIndexRow *row,
             guint             every,
             guint             i,
             double           *x,
             double           *w)
{
  WsTextOptions o = { .size = ruler_size (ctx->style) };
  char text[32];
  double right_w;

  if (i % every != 0 && i != WS_WARP_SIZE - 1)
    return FALSE;
  g_snprintf (text, sizeof text, "%u", i);
  ws_figure_text_size (ctx, text, &o, w, NULL);
  *x = ruler_x (row, i, *w);
  /* the last multiple gives way to the last box when they would touch */
  if (i != WS_WARP_SIZE - 1 && i + every > WS_WARP_SIZE - 1)
    {
      ws_figure_text_size (ctx, "31", &o, &right_w, NULL);
      if (*x + *w + 4 > ruler_x (row, WS_WARP_SIZE - 1, right_w))
        return FALSE;
    }
  return TRUE;
}

static gboolean
ruler_fits (WsFigureContext  *ctx,
            const WsIndexRow *row,
            guint             every)
{
  double end = -INFINITY;

  for (guint i = 0; i < WS_WARP_SIZE; i++)
    {
      double x, w;
      if (!ruler_label (ctx, row, every, i, &x, &w))
        continue;
      if (x < end + 4)
        return FALSE;
      end = x + w;
    }
  return TRUE;
}

void
ws_figure_index_row (WsFigureContext *ctx,
                     WsBox            area,
                     WsIndexRow      *row)
{
  const WsFigureStyle *s = ctx->style;
  double pitch = area.w / WS_WARP_SIZE;
  double gap = MIN (6, MAX (1, pitch * 0.12));
  double size;

  for (guint l = 0; l < WS_WARP_SIZE; l++)
    row->boxes[l] = (WsBox) { area.x + l * pitch + gap / 2, area.y, pitch - gap, area.h };
  size = ws_figure_fit_text (ctx, "31", WS_TEXT_BOLD, MIN (s->font_size, area.h * 0.7), pitch - gap - 2);
  row->ruler_h = ruler_line (s);
  if (size > 0 && area.h >= size * 1.2)
    {
      row->every = 1;
      row->label_size = size;
      return;
    }
  row->label_size = 0;
  for (row->every = 2; row->every < 16 && !ruler_fits (ctx, row, row->every); row->every *= 2)
    ;
}

void
ws_figure_draw_index_labels (WsFigureContext  *ctx,
                             const WsIndexRow *row,
                             const WsRgba      text[WS_WARP_SIZE],
                             const char       *first_word)
{
  const WsFigureStyle *s = ctx->style;
  char label[32];

  if (row->every == 1)
    {
      WsTextOptions o = { .size = row->label_size, .flags = WS_TEXT_BOLD, .ax = 0.5, .ay = 0.5 };
      for (guint l = 0; l < WS_WARP_SIZE; l++)
        {
          const WsBox *b = &row->boxes[l];
          g_snprintf (label, sizeof label, "%u", l);
          ws_figure_set_color (ctx, text[l]);
          ws_figure_text (ctx, b->x + b->w / 2, b->y + b->h / 2, label, &o, NULL, NULL);
        }
      return;
    }
  for (guint l = 0; l < WS_WARP_SIZE; l++)
    {
      WsTextOptions o = { .size = ruler_size (s), .ay = 1 };
      double x, w;

      if (!ruler_label (ctx, row, row->every, l, &x, &w))
        continue;
      g_snprintf (label, sizeof label, "%u", l);
      ws_figure_plate_text (ctx, x, row->boxes[l].y - 2, label, &o);
    }
  if (first_word)
    ws_figure_plate_text (ctx, row->boxes[0].x, row->boxes[0].y - 2 - ruler_line (s), first_word,
                          &(WsTextOptions) { .size = ruler_size (s), .ay = 1 });
}

static void
lane_colors (const WsFigureStyle *s,
             WsLaneState          state,
             WsRgba               served,
             WsRgba              *fill,
             WsRgba              *text)
{
  switch (state)
    {
    case WS_LANE_INACTIVE:
      *fill = ws_rgba_alpha (s->background, 0);
      *text = s->muted;
      break;
    case WS_LANE_WAITING:
      *fill = s->surface;
      *text = s->foreground;
      break;
    case WS_LANE_SERVING:
      *fill = s->accent;
      *text = ws_figure_style_ink_on (s, s->accent);
      break;
    case WS_LANE_SERVED:
    default:
      *fill = served;
      *text = ws_figure_style_ink_on (s, served);
      break;
    }
}

void
ws_figure_draw_lanes (WsFigureContext     *ctx,
                      const WsFigureFrame *frame,
                      const WsSchedule    *schedule,
                      const WsIndexRow    *row,
                      const WsRgba         served[WS_WARP_SIZE],
                      double               word_x)
{
  const WsFigureStyle *s = ctx->style;
  cairo_t *cr = ctx->cr;
  WsRgba text[WS_WARP_SIZE];
  WsTextOptions word = { .size = MAX (s->font_size * 0.9, s->min_font_size), .ay = 1 };

  for (guint l = 0; l < WS_WARP_SIZE; l++)
    {
      const WsBox *b = &row->boxes[l];
      WsLaneState state = ws_schedule_lane_state (schedule, frame->result, l);
      gboolean hover = frame->hover.kind == WS_HIT_LANE && frame->hover.index == (int) l;
      WsRgba fill;

      lane_colors (s, state, served[l], &fill, &text[l]);
      ws_figure_rounded_rect (ctx, b->x, b->y, b->w, b->h, MIN (4, b->w / 3));
      ws_figure_set_color (ctx, fill);
      cairo_fill_preserve (cr);
      if (state == WS_LANE_INACTIVE)
        cairo_set_dash (cr, (double[]) { 3, 2 }, 2, 0);
      ws_figure_set_color (ctx, hover ? s->foreground : state == WS_LANE_WAITING ? s->grid : ws_rgba_alpha (fill, 0));
      cairo_set_line_width (cr, hover ? 2.5 * s->line_width : s->line_width);
      if (state == WS_LANE_INACTIVE && !hover)
        ws_figure_set_color (ctx, s->grid);
      cairo_stroke (cr);
      cairo_set_dash (cr, NULL, 0, 0);
      cairo_set_line_width (cr, s->line_width);
    }
  ws_figure_set_color (ctx, s->muted);
  if (word_x >= 0)
    {
      word.ay = 0.5;
      ws_figure_text (ctx, word_x, row->boxes[0].y + row->boxes[0].h / 2, FG_("lane"), &word, NULL, NULL);
    }
  else if (row->every == 1)
    ws_figure_text (ctx, row->boxes[0].x, row->boxes[0].y - 3, FG_("lane"), &word, NULL, NULL);
  ws_figure_draw_index_labels (ctx, row, text, word_x < 0 ? FG_("lane") : NULL);
}

/* A lane's box under (x, y) becomes a lane hit; every figure draws its lanes
 * at the top with ws_figure_draw_lanes. */
gboolean
ws_figure_hit_lane (const WsIndexRow    *row,
                    const WsFigureFrame *frame,
                    double               x,
                    double               y,
                    WsFigureHit         *hit)
{
  for (guint l = 0; l < WS_WARP_SIZE; l++)
    if (ws_box_contains (&row->boxes[l], x, y))
      {
        *hit = (WsFigureHit) { WS_HIT_LANE, l, frame->result->address[l], -1 };
        return TRUE;
      }
  return FALSE;
}

/* ------------------------------------------------------------------ */
/* Rows that fold                                                     */
/* ------------------------------------------------------------------ */

void
ws_fold_init (WsFold *fold,
              guint   n,
              guint   slots)
{
  fold->n = n;
  if (n <= MAX (slots, 3))
    {
      fold->head = n;
      fold->tail = 0;
      return;
    }
  slots = MAX (slots, 3);
  fold->head = slots / 2;
  fold->tail = slots - 1 - fold->head;
}

gboolean
ws_fold_folded (const WsFold *fold)
{
  return fold->head + fold->tail < fold->n;
}

guint
ws_fold_n_slots (const WsFold *fold)
{
  return ws_fold_folded (fold) ? fold->head + 1 + fold->tail : fold->n;
}

guint
ws_fold_slot_of (const WsFold *fold,
                 guint         row)
{
  if (row < fold->head || !ws_fold_folded (fold))
    return row;
  if (row >= fold->n - fold->tail)
    return fold->head + 1 + (row - (fold->n - fold->tail));
  return fold->head;
}

int
ws_fold_row_of (const WsFold *fold,
                guint         slot)
{
  if (slot < fold->head || !ws_fold_folded (fold))
    return slot;
  if (slot == fold->head)
    return -1;
  return fold->n - fold->tail + (slot - fold->head - 1);
}

char *
ws_fold_describe (const WsFold *fold,
                  const char   *what,
                  const char   *first,
                  const char   *last)
{
  /* Translators: rows left out of a figure: how many, what they are (a
   * plural noun such as "lines" or "wavefronts"), and the first and last of
   * them as the figure labels its rows: "⋮ 26 more lines (4–29)" */
  return g_strdup_printf (FG_("⋮ %u more %s (%s–%s)"), fold->n - fold->head - fold->tail, what, first, last);
}

char *
ws_fold_describe_numbered (const WsFold *fold,
                           const char   *what,
                           guint         base)
{
  char first[24], last[24];

  g_snprintf (first, sizeof first, "%u", fold->head + base);
  g_snprintf (last, sizeof last, "%u", fold->n - fold->tail - 1 + base);
  return ws_fold_describe (fold, what, first, last);
}

double
ws_figure_min_row_height (const WsFigureStyle *style)
{
  return ceil (style->min_font_size * 1.5);
}

/* ------------------------------------------------------------------ */
/* Curves and packets                                                 */
/* ------------------------------------------------------------------ */

static void
bezier_point (double  x0,
              double  y0,
              double  x1,
              double  y1,
              double  t,
              double *x,
              double *y)
{
  double ym = (y0 + y1) / 2;
  double u = 1 - t;

  /* control points (x0, ym) and (x1, ym), as ws_figure_connect draws */
  *x = u * u * u * x0 + 3 * u * u * t * x0 + 3 * u * t * t * x1 + t * t * t * x1;
  *y = u * u * u * y0 + 3 * u * u * t * ym + 3 * u * t * t * ym + t * t * t * y1;
}

void
ws_figure_connect (WsFigureContext *ctx,
                   double           x0,
                   double           y0,
                   double           x1,
                   double           y1)
{
  double ym = (y0 + y1) / 2;

  cairo_move_to (ctx->cr, x0, y0);
  cairo_curve_to (ctx->cr, x0, ym, x1, ym, x1, y1);
}

void
ws_figure_packet (WsFigureContext *ctx,
                  double           x0,
                  double           y0,
                  double           x1,
                  double           y1,
                  double           t,
                  WsRgba           color)
{
  double x, y;
  double r = MAX (3, ctx->style->font_size * 0.35);

  /* at a step's very start or end nothing is on its way: a dot there would
   * sit on the label at either end (a figure drawn after N steps) */
  if (t <= 0 || t >= 1)
    return;
  bezier_point (x0, y0, x1, y1, t, &x, &y);
  /* a packet of its own, not joined to the path before it */
  cairo_new_path (ctx->cr);
  cairo_arc (ctx->cr, x, y, r, 0, 2 * G_PI);
  ws_figure_set_color (ctx, color);
  cairo_fill_preserve (ctx->cr);
  ws_figure_set_color (ctx, ctx->style->background);
  cairo_stroke (ctx->cr);
}

gboolean
ws_figure_flows_up (const WsWarpResult *result)
{
  return result->kind == WS_ACCESS_LOAD;
}

void
ws_figure_plate_text (WsFigureContext     *ctx,
                      double               x,
                      double               y,
                      const char          *text,
                      const WsTextOptions *o)
{
  double w, h;

  ws_figure_text_size (ctx, text, o, &w, &h);
  cairo_rectangle (ctx->cr, x - o->ax * w - 3, y - o->ay * h - 1, w + 6, h + 2);
  ws_figure_set_color (ctx, ws_rgba_alpha (ctx->style->background, 0.9));
  cairo_fill (ctx->cr);
  ws_figure_set_color (ctx, ctx->style->muted);
  ws_figure_text (ctx, x, y, text, o, NULL, NULL);
}

static WsTextOptions
message_options (WsFigureContext *ctx,
                 double           width,
                 double           size)
{
  return (WsTextOptions) { .size = size, .ax = 0.5, .ay = 0.5, .max_width = MIN (width, 40 * ctx->style->font_size),
                           .wrap = TRUE };
}

double
ws_figure_message_height (WsFigureContext *ctx,
                          double           width,
                          const char      *message)
{
  WsTextOptions o = message_options (ctx, width, ctx->style->min_font_size);
  double h;

  pango_layout_set_alignment (ctx->layout, PANGO_ALIGN_CENTER);
  ws_figure_text_size (ctx, message, &o, NULL, &h);
  pango_layout_set_alignment (ctx->layout, PANGO_ALIGN_LEFT);
  return h;
}

void
ws_figure_draw_message (WsFigureContext *ctx,
                        WsBox            area,
                        const char      *message)
{
  WsTextOptions o = message_options (ctx, area.w, MAX (ctx->style->font_size * 1.1, ctx->style->min_font_size));
  double h;

  pango_layout_set_alignment (ctx->layout, PANGO_ALIGN_CENTER);
  ws_figure_text_size (ctx, message, &o, NULL, &h);
  if (h > area.h)
    o.size = ctx->style->min_font_size;
  ws_figure_set_color (ctx, ctx->style->muted);
  ws_figure_text (ctx, area.x + area.w / 2, area.y + area.h / 2, message, &o, NULL, NULL);
  pango_layout_set_alignment (ctx->layout, PANGO_ALIGN_LEFT);
}

/* ------------------------------------------------------------------ */
/* Words                                                              */
/* ------------------------------------------------------------------ */

char *
ws_figure_lanes_to_string (guint32 lanes)
{
  GString *s = g_string_new (NULL);
  char *text;

  if (lanes == 0xffffffffu)
    return g_string_free (g_string_append (s, FG_("all 32 lanes")), FALSE);
  for (guint l = 0; l < WS_WARP_SIZE;)
    {
      guint e = l;

      if (!(lanes & (1u << l)))
        {
          l++;
          continue;
        }
      while (e + 1 < WS_WARP_SIZE && (lanes & (1u << (e + 1))))
        e++;
      if (s->len)
        g_string_append (s, ", ");
      if (e == l)
        g_string_append_printf (s, "%u", l);
      else
        g_string_append_printf (s, "%u–%u", l, e);
      l = e + 1;
    }
  if (s->len == 0)
    /* Translators: no lane, as in "lanes none" */
    g_string_append (s, FG_("none"));
  /* Translators: lane numbers and ranges, "lane 3" or "lanes 0–3, 8" */
  text = g_strdup_printf (NG_("lane %s", "lanes %s", __builtin_popcount (lanes)), s->str);
  g_string_free (s, TRUE);
  return text;
}

char *
ws_figure_step_to_string (int step)
{
  if (step < 0)
    return g_strdup (FG_("not served"));
  return g_strdup_printf (FG_("served in step %d"), step + 1);
}

char *
ws_figure_describe_lane (const WsFigureFrame *frame,
                         guint                lane)
{
  const WsWarpResult *r = frame->result;
  GString *s = g_string_new (NULL);
  WsSchedule schedule;

  g_string_append_printf (s, FG_("Lane %u"), lane);
  if (frame->block_dim.x > 0)
    {
      WsDim3 b = frame->block_dim;
      guint t = r->warp * WS_WARP_SIZE + lane;
      /* Translators: the lane's thread in its block: " — threadIdx (x, y, z)" */
      g_string_append_printf (s, FG_(" — threadIdx (%u, %u, %u)"), t % b.x, (t / b.x) % MAX (1, b.y),
                              t / (b.x * MAX (1, b.y)));
    }
  if (!(r->valid & (1u << lane)))
    {
      g_string_append_printf (s, "\n%s", FG_("no such thread: the block ends before this lane"));
      return g_string_free (s, FALSE);
    }
  if (!(r->active & (1u << lane)))
    {
      g_string_append_printf (s, "\n%s", FG_("inactive: its guard is false, so it makes no access"));
      return g_string_free (s, FALSE);
    }
  g_string_append_c (s, '\n');
  /* Translators: the lane's index into its array */
  g_string_append_printf (s, FG_("index %lld"), (long long) r->index[lane]);
  if (r->space == WS_SPACE_LOCAL)
    /* Translators: after "index 7": the byte in the lane's own array, then in the warp's memory */
    g_string_append_printf (s, FG_(", byte %lld of its private array, byte %lld of the warp's interleaved slice"),
                            (long long) r->private_offset[lane], (long long) r->address[lane]);
  else if (r->space == WS_SPACE_SHARED)
    /* Translators: after "index 7": the byte address in shared memory and its bank */
    g_string_append_printf (s, FG_(", byte %lld, bank %u"), (long long) r->address[lane], r->bank[lane]);
  else if (r->space != WS_SPACE_REGISTER)
    /* Translators: after "index 7": the byte address and where its 32-byte sector starts */
    g_string_append_printf (s, FG_(", byte %lld (sector at %lld)"), (long long) r->address[lane],
                            (long long) (r->address[lane] & ~(gint64) (WS_SECTOR_BYTES - 1)));
  ws_schedule_init (&schedule, r, 0);
  g_string_append_c (s, '\n');
  if (schedule.first_step[lane] == schedule.last_step[lane])
    /* Translators: the step that serves the lane, and the number of steps */
    g_string_append_printf (s, FG_("served in step %d of %u"), schedule.last_step[lane] + 1, schedule.n_steps);
  else
    /* Translators: the first and last steps that serve the lane, and the number of steps */
    g_string_append_printf (s, FG_("served in steps %d to %d of %u"), schedule.first_step[lane] + 1,
                            schedule.last_step[lane] + 1, schedule.n_steps);
  return g_string_free (s, FALSE);
}
