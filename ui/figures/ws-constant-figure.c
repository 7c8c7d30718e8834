/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The constant view: the constant cache serves one address per request, so
 * the warp's distinct addresses are served one after another, left to right. */
#include "ws-figure-private.h"

#include <math.h>
#include <string.h>

typedef struct
{
  WsFigureLayout frame;
  WsIndexRow lanes;
  WsFold fold;                 /* the requests shown */
  guint n_boxes;
  WsBox boxes[WS_WARP_SIZE];   /* one per slot: a distinct address, or the fold */
  const char *plate;
  double plate_size;
} ConstantLayout;

#define MAX_PER_ROW 16

static double
arrow_width (const WsFigureStyle *s)
{
  return ceil (s->font_size * 1.6);
}

static double
box_height (const WsFigureLayout *f)
{
  return CLAMP (f->content.h * 0.14, 34, 64);
}

static double
row_pitch (const WsFigureStyle  *s,
           const WsFigureLayout *f)
{
  return box_height (f) + ceil (MAX (s->font_size * 0.85, s->min_font_size) * 1.3) + 6;
}

/* The least width of a box: its widest label. */
static double
box_min_width (WsFigureContext    *ctx,
               const WsWarpResult *r)
{
  WsTextOptions o = { .size = ctx->style->min_font_size, .flags = WS_TEXT_MONO | WS_TEXT_BOLD };
  double widest, w;
  char label[48];

  char lanes[64];

  /* the widest of the lanes' labels below */
  g_snprintf (lanes, sizeof lanes, NG_("%u lane", "%u lanes", WS_WARP_SIZE), WS_WARP_SIZE);
  ws_figure_text_size (ctx, lanes, &(WsTextOptions) { .size = ctx->style->min_font_size }, &widest, NULL);
  for (guint i = 0; i < r->steps->len; i++)
    {
      g_snprintf (label, sizeof label, "c[%" G_GINT64_FORMAT "]",
                  ws_warp_result_step (r, i)->address / MAX (1, r->elem_size));
      ws_figure_text_size (ctx, label, &o, &w, NULL);
      widest = MAX (widest, w);
    }
  return ceil (widest + 6);
}

static char *constant_stats (const WsWarpResult *r);
static guint constant_legend (const WsFigureStyle *s, WsLegendItem legend[3]);

static void
constant_layout (WsFigureContext     *ctx,
                 const WsFigureFrame *frame,
                 ConstantLayout      *lay)
{
  const WsFigureStyle *s = ctx->style;
  const WsWarpResult *r = frame->result;
  g_autofree char *stats = constant_stats (r);
  WsLegendItem legend[3];
  guint n_legend = constant_legend (s, legend);
  double above, arrow = arrow_width (s);
  double lane_h, box_w, box_h, min_w = box_min_width (ctx, r), y0, pitch;
  guint n = MIN (r->steps->len, WS_WARP_SIZE), per_row, rows_fit;
  WsBox c;

  memset (lay, 0, sizeof *lay);
  ws_figure_layout_frame (ctx, frame, stats, legend, n_legend, &lay->frame);
  c = lay->frame.content;
  above = ws_figure_index_row_above_at (ctx, c.w);
  lane_h = CLAMP (c.h * 0.08, 22, 40);
  ws_figure_index_row (ctx, (WsBox) { c.x, c.y + above, c.w, lane_h }, &lay->lanes);
  lay->plate = FG_("requests to the constant cache, in order");
  lay->plate_size = ws_figure_fit_text (ctx, lay->plate, 0, s->font_size * 0.9, c.w);
  if (lay->plate_size <= 0)
    {
      lay->plate = FG_("requests, in order");
      lay->plate_size = s->min_font_size;
    }
  /* as many in a row as keep every label whole */
  per_row = MAX (1, MIN (MAX_PER_ROW, (guint) ((c.w + arrow) / (min_w + arrow))));
  box_h = box_height (&lay->frame);
  pitch = row_pitch (s, &lay->frame);
  y0 = c.y + above + lane_h + CLAMP (c.h * 0.3, 40, 220) + ceil (lay->plate_size * 1.5);
  rows_fit = MAX (1, (guint) ((c.y + c.h - y0) / pitch));
  ws_fold_init (&lay->fold, n, per_row * rows_fit);
  lay->n_boxes = ws_fold_n_slots (&lay->fold);
  per_row = MIN (per_row, MAX (lay->n_boxes, 1));
  box_w = MIN (140, (c.w - (per_row - 1) * arrow) / per_row);
  for (guint i = 0; i < lay->n_boxes; i++)
    {
      guint row = i / per_row, col = i % per_row;
      guint in_row = MIN (per_row, lay->n_boxes - row * per_row);
      double row_w = in_row * box_w + (in_row - 1) * arrow;
      double x = c.x + (c.w - row_w) / 2 + col * (box_w + arrow);
      lay->boxes[i] = (WsBox) { x, y0 + row * pitch, box_w, box_h };
    }
}

WsFigureNeeds
ws_constant_figure_needs (WsFigureContext     *ctx,
                          const WsFigureFrame *frame)
{
  const WsFigureStyle *s = ctx->style;
  ConstantLayout lay;
  /* three boxes in a row: the first, the fold and the last */
  double width = MAX (WS_FIGURE_MIN_ROW_WIDTH, 3 * box_min_width (ctx, frame->result) + 2 * arrow_width (s));

  double top;
  guint per_row;

  constant_layout (ctx, frame, &lay);
  top = lay.frame.content.y + ws_figure_index_row_above_at (ctx, lay.frame.content.w) + 22 + ceil (lay.plate_size * 1.5) + lay.frame.bottom;
  per_row = MAX (1, MIN (MAX_PER_ROW, (guint) ((lay.frame.content.w + arrow_width (s)) /
                                               (box_min_width (ctx, frame->result) + arrow_width (s)))));
  return (WsFigureNeeds) { width + 2 * WS_FIGURE_MARGIN, top + 40 + row_pitch (s, &lay.frame),
                           top + WS_FIGURE_NATURAL_BAND +
                             (lay.fold.n + per_row - 1) / per_row * row_pitch (s, &lay.frame) };
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
  double alpha = state == WS_STEP_PENDING ? 0.15 : 0.9;
  gboolean hover = frame->hover.kind == WS_HIT_ADDRESS && frame->hover.step == (int) i;
  WsTextOptions o = { .ax = 0.5, .ay = 0.5, .flags = WS_TEXT_MONO | WS_TEXT_BOLD };
  WsTextOptions k = { .size = MAX (s->font_size * 0.85, s->min_font_size), .ax = 0.5, .ay = 0 };
  char label[48], lanes[64], num[16];
  guint n = __builtin_popcount (st->lanes);

  ws_figure_rounded_rect (ctx, b->x, b->y, b->w, b->h, 5);
  ws_figure_set_color (ctx, ws_rgba_alpha (hue, alpha));
  cairo_fill_preserve (ctx->cr);
  ws_figure_set_color (ctx, hover ? s->foreground : hue);
  cairo_set_line_width (ctx->cr, (hover ? 2.5 : 1.2) * s->line_width);
  cairo_stroke (ctx->cr);
  cairo_set_line_width (ctx->cr, s->line_width);
  g_snprintf (label, sizeof label, "c[%" G_GINT64_FORMAT "]", st->address / MAX (1, frame->result->elem_size));
  g_snprintf (lanes, sizeof lanes, NG_("%u lane", "%u lanes", n), n);
  ws_figure_set_color (ctx, ws_figure_style_ink_on (s, ws_rgba_mix (s->background, hue, alpha)));
  o.size = ws_figure_fit_text (ctx, label, o.flags, MIN (s->font_size, b->h * 0.32), b->w - 4);
  if (o.size > 0)
    ws_figure_text (ctx, b->x + b->w / 2, b->y + b->h * 0.31, label, &o, NULL, NULL);
  o.flags = 0;
  o.size = ws_figure_fit_text (ctx, lanes, 0, MIN (s->font_size * 0.85, b->h * 0.28), b->w - 4);
  if (o.size > 0)
    ws_figure_text (ctx, b->x + b->w / 2, b->y + b->h * 0.72, lanes, &o, NULL, NULL);
  /* the order they are served in */
  g_snprintf (num, sizeof num, "%u", i + 1);
  ws_figure_set_color (ctx, state == WS_STEP_PENDING ? s->muted : s->foreground);
  ws_figure_text (ctx, b->x + b->w / 2, b->y + b->h + 3, num, &k, NULL, NULL);
}

static void
draw_fold (WsFigureContext      *ctx,
           const ConstantLayout *lay)
{
  const WsBox *b = &lay->boxes[lay->fold.head];
  /* Translators: rows a figure leaves out, as in "⋮ 26 more lines (4–29)" */
  g_autofree char *text = ws_fold_describe_numbered (&lay->fold, FG_("requests"), 1);
  WsTextOptions o = { .size = ctx->style->min_font_size, .ax = 0.5, .ay = 0.5, .max_width = b->w, .wrap = TRUE };

  ws_figure_set_color (ctx, ctx->style->muted);
  pango_layout_set_alignment (ctx->layout, PANGO_ALIGN_CENTER);
  ws_figure_text (ctx, b->x + b->w / 2, b->y + b->h / 2, text, &o, NULL, NULL);
  pango_layout_set_alignment (ctx->layout, PANGO_ALIGN_LEFT);
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

  if (schedule->current < 0 || (guint) schedule->current >= lay->fold.n)
    return;
  bb = &lay->boxes[ws_fold_slot_of (&lay->fold, schedule->current)];
  lanes = ws_warp_result_step (frame->result, schedule->current)->lanes;
  for (guint l = 0; l < WS_WARP_SIZE; l++)
    if (lanes & (1u << l))
      ws_figure_packet (ctx, bb->x + bb->w / 2, bb->y, lay->lanes.boxes[l].x + lay->lanes.boxes[l].w / 2,
                        lay->lanes.boxes[l].y + lay->lanes.boxes[l].h, schedule->t, ctx->style->accent);
}

static char *
constant_stats (const WsWarpResult *r)
{
  const WsWarpCounts *c = &r->counts;
  g_autofree char *addresses = g_strdup_printf (NG_("%u distinct address", "%u distinct addresses",
                                                    c->distinct_addresses),
                                                c->distinct_addresses);
  g_autofree char *requests = g_strdup_printf (NG_("%u request, one after another", "%u requests, one after another",
                                                   c->requests),
                                               c->requests);
  g_autofree char *replays = g_strdup_printf (NG_("%u replay", "%u replays", c->replays), c->replays);

  /* Translators: "4 distinct addresses → 4 requests, one after another (3 replays)" */
  return g_strdup_printf (FG_("%s → %s (%s)"), addresses, requests, replays);
}

static guint
constant_legend (const WsFigureStyle *s,
                 WsLegendItem         legend[3])
{
  guint n = 0;

  legend[n++] = (WsLegendItem) { ws_rgba_alpha (ws_figure_style_hue (s, 0), 0.9),
                                 FG_("address served (colour: its request)"), .hues = TRUE };
  if (s->kind != WS_FIGURE_STYLE_PRINT)
    {
      legend[n++] = (WsLegendItem) { s->accent, FG_("being served") };
      legend[n++] = (WsLegendItem) { ws_rgba_alpha (ws_figure_style_hue (s, 0), 0.15), FG_("waiting its turn"),
                                     .hues = TRUE };
    }
  return n;
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
  g_autofree char *stats = constant_stats (r);
  WsLegendItem legend[3];
  guint n_legend = constant_legend (s, legend);

  constant_layout (ctx, frame, &lay);
  ws_schedule_init (&schedule, r, frame->position);
  if (frame->layers == WS_FIGURE_LAYERS_PACKETS)
    {
      draw_packets (ctx, frame, &schedule, &lay);
      return;
    }
  for (guint l = 0; l < WS_WARP_SIZE; l++)
    served[l] = ws_figure_style_hue (s, MAX (0, schedule.last_step[l]));
  ws_figure_draw_frame (ctx, frame, &lay.frame, stats, legend, n_legend);
  for (guint l = 0; l < WS_WARP_SIZE; l++)
    {
      int step = schedule.last_step[l];
      WsLaneState state = ws_schedule_lane_state (&schedule, r, l);
      const WsBox *lb = &lay.lanes.boxes[l];
      const WsBox *bb;

      if (step < 0 || (guint) step >= lay.fold.n)
        continue;
      bb = &lay.boxes[ws_fold_slot_of (&lay.fold, step)];
      ws_figure_connect (ctx, lb->x + lb->w / 2, lb->y + lb->h, bb->x + bb->w / 2, bb->y);
      ws_figure_set_color (ctx, state == WS_LANE_SERVING ? s->accent
                                : ws_rgba_alpha (ws_figure_style_hue (s, step), state == WS_LANE_SERVED ? 0.6 : 0.25));
      cairo_stroke (ctx->cr);
    }
  ws_figure_draw_lanes (ctx, frame, &schedule, &lay.lanes, served, -1);
  draw_arrows (ctx, &lay);
  for (guint i = 0; i < lay.n_boxes; i++)
    {
      int step = ws_fold_row_of (&lay.fold, i);
      if (step < 0)
        draw_fold (ctx, &lay);
      else
        draw_request (ctx, frame, &schedule, &lay.boxes[i], step);
    }
  if (lay.n_boxes > 0)
    {
      WsTextOptions o = { .size = lay.plate_size, .ay = 1 };
      ws_figure_plate_text (ctx, WS_FIGURE_MARGIN, lay.boxes[0].y - 6, lay.plate, &o);
    }
  if (frame->layers == WS_FIGURE_LAYERS_ALL)
    draw_packets (ctx, frame, &schedule, &lay);
}

gboolean
ws_constant_figure_hit (WsFigureContext     *ctx,
                        const WsFigureFrame *frame,
                        double               x,
                        double               y,
                        WsFigureHit         *hit)
{
  ConstantLayout lay;

  constant_layout (ctx, frame, &lay);
  if (ws_figure_hit_lane (&lay.lanes, frame, x, y, hit))
    return TRUE;
  for (guint i = 0; i < lay.n_boxes; i++)
    {
      int step = ws_fold_row_of (&lay.fold, i);
      if (step >= 0 && ws_box_contains (&lay.boxes[i], x, y))
        {
          *hit = (WsFigureHit) { WS_HIT_ADDRESS, step, ws_warp_result_step (frame->result, step)->address, step };
          return TRUE;
        }
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
  /* Translators: the byte address; the lanes that ask ("lanes 0–7"); the
   * request and the number of requests */
  return g_strdup_printf (FG_("Constant at byte %lld\nasked for by %s\nrequest %d of %u: "
                            "the cache serves one address at a time"),
                          (long long) st->address, who, hit->step + 1, frame->result->steps->len);
}
