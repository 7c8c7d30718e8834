/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The constant view: the constant cache serves one address per request, so
 * the warp's distinct addresses are served one after another, left to right. */
#include "ws-figure-private.h"

#include <math.h>

typedef struct
{
  WsBox lanes[WS_WARP_SIZE];
  guint n_boxes;
  WsBox boxes[WS_WARP_SIZE];   /* one per step: a distinct address */
  double legend_y;
} ConstantLayout;

static void
constant_layout (const WsFigureFrame *frame,
                 const WsFigureStyle *s,
                 double               width,
                 double               height,
                 ConstantLayout      *lay)
{
  WsBox c = ws_figure_content_box (frame, s, width, height);
  double top_label = s->font_size * 1.4;
  double lane_h = CLAMP (c.h * 0.08, 22, 40);
  double arrow = s->font_size * 1.6;
  guint n = MIN (frame->result->steps->len, WS_WARP_SIZE);
  guint per_row = MIN (MAX (n, 1), 16);
  guint rows = (n + per_row - 1) / MAX (per_row, 1);
  double box_w = MIN (140, (c.w - (per_row - 1) * arrow) / per_row);
  double box_h = CLAMP (c.h * 0.14, 34, 64);
  double y0;

  ws_figure_lane_boxes ((WsBox) { c.x, c.y + top_label, c.w, lane_h }, lane_h, lay->lanes);
  lay->legend_y = c.y + c.h - ws_figure_legend_height (s);
  y0 = c.y + top_label + lane_h + CLAMP (c.h * 0.3, 60, 220);
  lay->n_boxes = n;
  for (guint i = 0; i < n; i++)
    {
      guint row = i / per_row, col = i % per_row;
      guint in_row = MIN (per_row, n - row * per_row);
      double row_w = in_row * box_w + (in_row - 1) * arrow;
      double x = c.x + (c.w - row_w) / 2 + col * (box_w + arrow);
      lay->boxes[i] = (WsBox) { x, y0 + row * (box_h + s->font_size * 2), box_w, box_h };
    }
  (void) rows;
}

static void
draw_request (WsFigureContext     *ctx,
              const WsFigureFrame *frame,
              const WsSchedule    *schedule,
              const WsBox         *b,
              guint                i)
{
  const WsFigureStyle *s = ctx->style;
  const WsStep *st = ws_warp_result_step (frame->result, i);
  WsStepState state = ws_schedule_step_state (schedule, i);
  WsRgba hue = state == WS_STEP_SERVING ? s->accent : ws_figure_style_hue (s, i);
  gboolean hover = frame->hover.kind == WS_HIT_ADDRESS && frame->hover.step == (int) i;
  WsTextOptions o = { .ax = 0.5, .ay = 0.5, .flags = WS_TEXT_MONO | WS_TEXT_BOLD };
  char label[48], lanes[32];
  guint n = __builtin_popcount (st->lanes);

  ws_figure_rounded_rect (ctx, b->x, b->y, b->w, b->h, 5);
  ws_figure_set_color (ctx, ws_rgba_alpha (hue, state == WS_STEP_PENDING ? 0.15 : 0.9));
  cairo_fill_preserve (ctx->cr);
  ws_figure_set_color (ctx, hover ? s->foreground : hue);
  cairo_set_line_width (ctx->cr, (hover ? 2.5 : 1.2) * s->line_width);
  cairo_stroke (ctx->cr);
  cairo_set_line_width (ctx->cr, s->line_width);
  g_snprintf (label, sizeof label, "c[%" G_GINT64_FORMAT "]", st->address / MAX (1, frame->result->elem_size));
  g_snprintf (lanes, sizeof lanes, "%u lane%s", n, n == 1 ? "" : "s");
  ws_figure_set_color (ctx, state == WS_STEP_PENDING ? s->foreground
                            : s->kind == WS_FIGURE_STYLE_DARK ? s->background : (WsRgba) { 1, 1, 1, 1 });
  o.size = ws_figure_fit_text (ctx, label, o.flags, MIN (s->font_size, b->h * 0.32), 6, b->w - 4);
  ws_figure_text (ctx, b->x + b->w / 2, b->y + b->h * 0.33, label, &o, NULL, NULL);
  o.flags = 0;
  o.size = ws_figure_fit_text (ctx, lanes, 0, MIN (s->font_size * 0.85, b->h * 0.28), 6, b->w - 4);
  ws_figure_text (ctx, b->x + b->w / 2, b->y + b->h * 0.72, lanes, &o, NULL, NULL);
  /* the order they are served in */
  {
    char num[16];
    WsTextOptions k = { .size = s->font_size * 0.85, .ax = 0.5, .ay = 0 };
    g_snprintf (num, sizeof num, "%u", i + 1);
    ws_figure_set_color (ctx, state == WS_STEP_PENDING ? s->muted : s->foreground);
    ws_figure_text (ctx, b->x + b->w / 2, b->y + b->h + 3, num, &k, NULL, NULL);
  }
}

static void
draw_arrows (WsFigureContext      *ctx,
             const ConstantLayout *lay)
{
  cairo_t *cr = ctx->cr;

  ws_figure_set_color (ctx, ctx->style->muted);
  for (guint i = 1; i < lay->n_boxes; i++)
    {
      const WsBox *a = &lay->boxes[i - 1], *b = &lay->boxes[i];
      double y = a->y + a->h / 2, x0 = a->x + a->w + 3, x1 = b->x - 3;

      if (b->y != a->y)
        continue;
      cairo_move_to (cr, x0, y);
      cairo_line_to (cr, x1, y);
      cairo_move_to (cr, x1 - 5, y - 4);
      cairo_line_to (cr, x1, y);
      cairo_line_to (cr, x1 - 5, y + 4);
      cairo_stroke (cr);
    }
}

static void
draw_packets (WsFigureContext      *ctx,
              const WsFigureFrame  *frame,
              const WsSchedule     *schedule,
              const ConstantLayout *lay)
{
  const WsBox *bb;
  guint32 lanes;

  if (schedule->current < 0 || (guint) schedule->current >= lay->n_boxes)
    return;
  bb = &lay->boxes[schedule->current];
  lanes = ws_warp_result_step (frame->result, schedule->current)->lanes;
  for (guint l = 0; l < WS_WARP_SIZE; l++)
    if (lanes & (1u << l))
      ws_figure_packet (ctx, bb->x + bb->w / 2, bb->y, lay->lanes[l].x + lay->lanes[l].w / 2,
                        lay->lanes[l].y + lay->lanes[l].h, schedule->t, ctx->style->accent);
}

void
ws_constant_figure_draw (WsFigureContext     *ctx,
                         const WsFigureFrame *frame)
{
  const WsFigureStyle *s = ctx->style;
  const WsWarpResult *r = frame->result;
  ConstantLayout lay;
  WsSchedule schedule;
  WsRgba served[WS_WARP_SIZE];
  g_autofree char *stats = NULL;
  const WsLegendItem legend[] = {
    { ws_figure_style_hue (s, 0), "address served" },
    { s->accent, "being served" },
    { ws_rgba_alpha (ws_figure_style_hue (s, 0), 0.15), "waiting its turn" },
  };

  constant_layout (frame, s, ctx->width, ctx->height, &lay);
  ws_schedule_init (&schedule, r, frame->position);
  if (frame->layers == WS_FIGURE_LAYERS_PACKETS)
    {
      draw_packets (ctx, frame, &schedule, &lay);
      return;
    }
  for (guint l = 0; l < WS_WARP_SIZE; l++)
    served[l] = ws_figure_style_hue (s, MAX (0, schedule.last_step[l]));
  stats = g_strdup_printf ("%u distinct address%s → %u request%s, one after another (%u replay%s)",
                           r->counts.distinct_addresses, r->counts.distinct_addresses == 1 ? "" : "es",
                           r->counts.requests, r->counts.requests == 1 ? "" : "s", r->counts.replays,
                           r->counts.replays == 1 ? "" : "s");
  ws_figure_draw_caption (ctx, frame, stats);
  for (guint l = 0; l < WS_WARP_SIZE; l++)
    {
      int step = schedule.last_step[l];
      WsLaneState state = ws_schedule_lane_state (&schedule, r, l);
      const WsBox *lb = &lay.lanes[l];
      const WsBox *bb;

      if (step < 0 || (guint) step >= lay.n_boxes)
        continue;
      bb = &lay.boxes[step];
      ws_figure_connect (ctx, lb->x + lb->w / 2, lb->y + lb->h, bb->x + bb->w / 2, bb->y);
      ws_figure_set_color (ctx, state == WS_LANE_SERVING ? s->accent
                                : ws_rgba_alpha (ws_figure_style_hue (s, step), state == WS_LANE_SERVED ? 0.6 : 0.25));
      cairo_stroke (ctx->cr);
    }
  ws_figure_draw_lanes (ctx, frame, &schedule, lay.lanes, served);
  draw_arrows (ctx, &lay);
  for (guint i = 0; i < lay.n_boxes; i++)
    draw_request (ctx, frame, &schedule, &lay.boxes[i], i);
  if (lay.n_boxes > 0)
    {
      WsTextOptions o = { .size = s->font_size * 0.9, .ay = 1 };
      ws_figure_plate_text (ctx, WS_FIGURE_MARGIN, lay.boxes[0].y - 6, "requests to the constant cache, in order", &o);
    }
  if (frame->layers == WS_FIGURE_LAYERS_ALL)
    draw_packets (ctx, frame, &schedule, &lay);
  ws_figure_draw_legend (ctx, WS_FIGURE_MARGIN, lay.legend_y, ctx->width - 2 * WS_FIGURE_MARGIN, legend,
                         G_N_ELEMENTS (legend));
}

gboolean
ws_constant_figure_hit (const WsFigureFrame *frame,
                        const WsFigureStyle *style,
                        double               width,
                        double               height,
                        double               x,
                        double               y,
                        WsFigureHit         *hit)
{
  ConstantLayout lay;

  constant_layout (frame, style, width, height, &lay);
  if (ws_figure_hit_lane (lay.lanes, frame, x, y, hit))
    return TRUE;
  for (guint i = 0; i < lay.n_boxes; i++)
    if (ws_box_contains (&lay.boxes[i], x, y))
      {
        *hit = (WsFigureHit) { WS_HIT_ADDRESS, i, ws_warp_result_step (frame->result, i)->address, i };
        return TRUE;
      }
  return FALSE;
}

char *
ws_constant_figure_describe (const WsFigureFrame *frame,
                             const WsFigureHit   *hit)
{
  const WsStep *st;
  g_autofree char *who = NULL;

  if (hit->kind != WS_HIT_ADDRESS || hit->step < 0 || (guint) hit->step >= frame->result->steps->len)
    return NULL;
  st = ws_warp_result_step (frame->result, hit->step);
  who = ws_figure_lanes_to_string (st->lanes);
  return g_strdup_printf ("Constant at byte %" G_GINT64_FORMAT "\nasked for by %s\nrequest %d of %u: "
                          "the cache serves one address at a time",
                          st->address, who, hit->step + 1, frame->result->steps->len);
}
