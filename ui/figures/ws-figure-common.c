/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What every view shares: the caption, the row of 32 lanes, legends,
 * curves from a lane to what serves it, and the words that describe a lane. */
#include "ws-figure-private.h"

#include <math.h>

static double
caption_height (const WsFigureFrame *frame,
                const WsFigureStyle *style)
{
  return frame->title ? ceil (style->font_size * 3.6) : 0;
}

WsBox
ws_figure_content_box (const WsFigureFrame *frame,
                       const WsFigureStyle *style,
                       double               width,
                       double               height)
{
  double m = WS_FIGURE_MARGIN;
  double top = m + caption_height (frame, style);

  return (WsBox) { m, top, MAX (1, width - 2 * m), MAX (1, height - top - m) };
}

void
ws_figure_draw_caption (WsFigureContext     *ctx,
                        const WsFigureFrame *frame,
                        const char          *stats)
{
  if (frame->title == NULL)
    return;
  /* room on the right for the step counter */
  ws_figure_caption (ctx, WS_FIGURE_MARGIN, WS_FIGURE_MARGIN,
                     ctx->width - 2 * WS_FIGURE_MARGIN - 9 * ctx->style->font_size, frame->title, stats);
}

void
ws_figure_lane_boxes (WsBox  area,
                      double box_height,
                      WsBox  boxes[WS_WARP_SIZE])
{
  double pitch = area.w / WS_WARP_SIZE;
  double gap = MIN (6, MAX (1, pitch * 0.12));

  for (guint l = 0; l < WS_WARP_SIZE; l++)
    boxes[l] = (WsBox) { area.x + l * pitch + gap / 2, area.y, pitch - gap, box_height };
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
      *text = s->background;
      break;
    case WS_LANE_SERVED:
    default:
      *fill = served;
      *text = s->kind == WS_FIGURE_STYLE_DARK ? s->background : (WsRgba) { 1, 1, 1, 1 };
      break;
    }
}

void
ws_figure_draw_lanes (WsFigureContext     *ctx,
                      const WsFigureFrame *frame,
                      const WsSchedule    *schedule,
                      const WsBox          boxes[WS_WARP_SIZE],
                      const WsRgba         served[WS_WARP_SIZE])
{
  const WsFigureStyle *s = ctx->style;
  cairo_t *cr = ctx->cr;
  WsTextOptions o = { .ax = 0.5, .ay = 0.5, .flags = WS_TEXT_BOLD };
  double label_size = ws_figure_fit_text (ctx, "31", WS_TEXT_BOLD, s->font_size, 7, boxes[0].w - 2);

  o.size = label_size;
  o.flags = 0;
  ws_figure_set_color (ctx, s->muted);
  ws_figure_text (ctx, boxes[0].x, boxes[0].y - 3, "lane", &(WsTextOptions) { .size = s->font_size * 0.9, .ay = 1 },
                  NULL, NULL);
  o.flags = WS_TEXT_BOLD;
  for (guint l = 0; l < WS_WARP_SIZE; l++)
    {
      const WsBox *b = &boxes[l];
      WsLaneState state = ws_schedule_lane_state (schedule, frame->result, l);
      gboolean hover = frame->hover.kind == WS_HIT_LANE && frame->hover.index == (int) l;
      WsRgba fill, text;
      char label[8];

      lane_colors (s, state, served[l], &fill, &text);
      ws_figure_rounded_rect (ctx, b->x, b->y, b->w, b->h, 4);
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
      g_snprintf (label, sizeof label, "%u", l);
      ws_figure_set_color (ctx, text);
      ws_figure_text (ctx, b->x + b->w / 2, b->y + b->h / 2, label, &o, NULL, NULL);
    }
}

/* A lane's box under (x, y) becomes a lane hit; every figure draws its lanes
 * at the top with ws_figure_draw_lanes. */
gboolean
ws_figure_hit_lane (const WsBox          boxes[WS_WARP_SIZE],
                    const WsFigureFrame *frame,
                    double               x,
                    double               y,
                    WsFigureHit         *hit)
{
  for (guint l = 0; l < WS_WARP_SIZE; l++)
    if (ws_box_contains (&boxes[l], x, y))
      {
        *hit = (WsFigureHit) { WS_HIT_LANE, l, frame->result->address[l], -1 };
        return TRUE;
      }
  return FALSE;
}

double
ws_figure_legend_height (const WsFigureStyle *style)
{
  return ceil (style->font_size * 1.6);
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
  WsTextOptions o = { .size = s->font_size * 0.9, .ay = 0.5 };
  double sw = s->font_size * 0.9;
  double cx = x;
  double cy = y + ws_figure_legend_height (s) / 2;

  for (guint i = 0; i < n_items; i++)
    {
      double tw;

      ws_figure_rounded_rect (ctx, cx, cy - sw / 2, sw, sw, 2);
      ws_figure_set_color (ctx, items[i].color);
      if (items[i].outline)
        {
          cairo_set_line_width (ctx->cr, 1.5 * s->line_width);
          cairo_stroke (ctx->cr);
          cairo_set_line_width (ctx->cr, s->line_width);
        }
      else
        cairo_fill (ctx->cr);
      ws_figure_set_color (ctx, s->muted);
      ws_figure_text (ctx, cx + sw + 5, cy, items[i].label, &o, &tw, NULL);
      cx += sw + 5 + tw + s->font_size * 1.4;
      if (cx > x + width)
        break;
    }
}

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

  bezier_point (x0, y0, x1, y1, CLAMP (t, 0, 1), &x, &y);
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

void
ws_figure_draw_message (WsFigureContext *ctx,
                        WsBox            area,
                        const char      *message)
{
  WsTextOptions o = { .size = ctx->style->font_size * 1.1, .ax = 0.5, .ay = 0.5,
                      .max_width = MIN (area.w, 40 * ctx->style->font_size), .wrap = TRUE };

  ws_figure_set_color (ctx, ctx->style->muted);
  pango_layout_set_alignment (ctx->layout, PANGO_ALIGN_CENTER);
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

  if (lanes == 0xffffffffu)
    return g_string_free (g_string_append (s, "all 32 lanes"), FALSE);
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
    g_string_append (s, "none");
  g_string_prepend (s, __builtin_popcount (lanes) == 1 ? "lane " : "lanes ");
  return g_string_free (s, FALSE);
}

char *
ws_figure_step_to_string (int step)
{
  if (step < 0)
    return g_strdup ("not served");
  return g_strdup_printf ("served in step %d", step + 1);
}

char *
ws_figure_describe_lane (const WsFigureFrame *frame,
                         guint                lane)
{
  const WsWarpResult *r = frame->result;
  GString *s = g_string_new (NULL);
  WsSchedule schedule;

  g_string_append_printf (s, "Lane %u", lane);
  if (frame->block_dim.x > 0)
    {
      WsDim3 b = frame->block_dim;
      guint t = r->warp * WS_WARP_SIZE + lane;
      g_string_append_printf (s, " — threadIdx (%u, %u, %u)", t % b.x, (t / b.x) % MAX (1, b.y),
                              t / (b.x * MAX (1, b.y)));
    }
  if (!(r->valid & (1u << lane)))
    return g_string_free (g_string_append (s, "\nno such thread: the block ends before this lane"), FALSE);
  if (!(r->active & (1u << lane)))
    return g_string_free (g_string_append (s, "\ninactive: its guard is false, so it makes no access"), FALSE);
  g_string_append_printf (s, "\nindex %" G_GINT64_FORMAT, r->index[lane]);
  if (r->space == WS_SPACE_LOCAL)
    g_string_append_printf (s, ", byte %" G_GINT64_FORMAT " of its private array, byte %" G_GINT64_FORMAT
                            " of the warp's interleaved slice", r->private_offset[lane], r->address[lane]);
  else if (r->space == WS_SPACE_SHARED)
    g_string_append_printf (s, ", byte %" G_GINT64_FORMAT ", bank %u", r->address[lane], r->bank[lane]);
  else if (r->space != WS_SPACE_REGISTER)
    g_string_append_printf (s, ", byte %" G_GINT64_FORMAT " (sector at %" G_GINT64_FORMAT ")", r->address[lane],
                            r->address[lane] & ~(gint64) (WS_SECTOR_BYTES - 1));
  ws_schedule_init (&schedule, r, 0);
  if (schedule.first_step[lane] == schedule.last_step[lane])
    g_string_append_printf (s, "\nserved in step %d of %u", schedule.last_step[lane] + 1, schedule.n_steps);
  else
    g_string_append_printf (s, "\nserved in steps %d to %d of %u", schedule.first_step[lane] + 1,
                            schedule.last_step[lane] + 1, schedule.n_steps);
  return g_string_free (s, FALSE);
}
