/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The contention view: one row per distinct address, the lanes that update
 * it in the order they are applied, left to right. Global atomics on one
 * address are serialised (rounds); shared atomics on one word are merged
 * into the wavefront that serves it, as measured (docs/hardware-model.md). */
#include "ws-figure-private.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct
{
  guint n_rows;
  gint64 address[WS_WARP_SIZE];
  guint8 n_lanes[WS_WARP_SIZE];
  gint8 lanes[WS_WARP_SIZE][WS_WARP_SIZE];    /* lanes of each address, in lane order */
  guint depth;
} AtomicTable;

typedef struct
{
  WsBox lanes[WS_WARP_SIZE];
  double label_w;
  double grid_x;
  double grid_y;
  double cell_w;
  double row_h;
  double legend_y;
} AtomicLayout;

static void
atomic_table (const WsWarpResult *r,
              AtomicTable        *t)
{
  memset (t, 0, sizeof *t);
  for (guint l = 0; l < WS_WARP_SIZE; l++)
    {
      guint row;

      if (!(r->active & (1u << l)))
        continue;
      for (row = 0; row < t->n_rows && t->address[row] != r->address[l]; row++)
        ;
      if (row == t->n_rows)
        {
          /* keep rows in address order */
          while (row > 0 && t->address[row - 1] > r->address[l])
            {
              t->address[row] = t->address[row - 1];
              t->n_lanes[row] = t->n_lanes[row - 1];
              memcpy (t->lanes[row], t->lanes[row - 1], sizeof t->lanes[row]);
              row--;
            }
          t->address[row] = r->address[l];
          t->n_lanes[row] = 0;
          t->n_rows++;
        }
      t->lanes[row][t->n_lanes[row]++] = l;
      t->depth = MAX (t->depth, t->n_lanes[row]);
    }
}

static void
atomic_layout (const WsFigureFrame *frame,
               const WsFigureStyle *s,
               double               width,
               double               height,
               const AtomicTable   *t,
               AtomicLayout        *lay)
{
  WsBox c = ws_figure_content_box (frame, s, width, height);
  double top_label = s->font_size * 1.4;
  double lane_h = CLAMP (c.h * 0.07, 20, 36);
  double top = top_label + lane_h + s->font_size * 4;

  ws_figure_lane_boxes ((WsBox) { c.x, c.y + top_label, c.w, lane_h }, lane_h, lay->lanes);
  lay->label_w = ceil (s->font_size * 9);
  lay->grid_x = c.x + lay->label_w;
  lay->grid_y = c.y + top;
  lay->legend_y = c.y + c.h - ws_figure_legend_height (s);
  lay->cell_w = MIN (56, (c.w - lay->label_w) / MAX (1, t->depth));
  lay->row_h = CLAMP ((lay->legend_y - s->font_size * 0.5 - lay->grid_y) / MAX (1, t->n_rows), 6, 44);
}

static WsBox
cell_box (const AtomicLayout *lay,
          guint               row,
          guint               col)
{
  double gap = MIN (3, lay->cell_w * 0.1);
  return (WsBox) { lay->grid_x + col * lay->cell_w, lay->grid_y + row * lay->row_h, lay->cell_w - gap,
                   lay->row_h - (lay->row_h > 12 ? 3 : 1) };
}

static void
draw_cell (WsFigureContext     *ctx,
           const WsFigureFrame *frame,
           const WsSchedule    *schedule,
           WsBox                b,
           guint                lane,
           guint                col)
{
  const WsFigureStyle *s = ctx->style;
  WsLaneState state = ws_schedule_lane_state (schedule, frame->result, lane);
  gboolean hover = frame->hover.kind == WS_HIT_LANE && frame->hover.index == (int) lane;
  WsRgba hue = state == WS_LANE_SERVING ? s->accent : col > 0 ? s->conflict : ws_figure_style_hue (s, 0);
  char label[8];

  ws_figure_rounded_rect (ctx, b.x, b.y, b.w, b.h, MIN (4, b.h / 3));
  ws_figure_set_color (ctx, ws_rgba_alpha (hue, state == WS_LANE_WAITING ? 0.18 : 0.9));
  cairo_fill_preserve (ctx->cr);
  ws_figure_set_color (ctx, hover ? s->foreground : ws_rgba_alpha (hue, 0));
  cairo_set_line_width (ctx->cr, 2.5 * s->line_width);
  cairo_stroke (ctx->cr);
  cairo_set_line_width (ctx->cr, s->line_width);
  if (b.h < 9)
    return;
  g_snprintf (label, sizeof label, "%u", lane);
  {
    WsTextOptions o = { .ax = 0.5, .ay = 0.5, .flags = WS_TEXT_BOLD };
    o.size = ws_figure_fit_text (ctx, label, o.flags, MIN (s->font_size * 0.9, b.h * 0.7), 5, b.w - 2);
    ws_figure_set_color (ctx, state == WS_LANE_WAITING ? s->foreground
                              : s->kind == WS_FIGURE_STYLE_DARK ? s->background : (WsRgba) { 1, 1, 1, 1 });
    ws_figure_text (ctx, b.x + b.w / 2, b.y + b.h / 2, label, &o, NULL, NULL);
  }
}

static void
draw_header (WsFigureContext    *ctx,
             const AtomicLayout *lay,
             const AtomicTable  *t)
{
  const WsFigureStyle *s = ctx->style;
  WsTextOptions o = { .size = s->font_size * 0.9, .ay = 1 };
  WsTextOptions num = { .size = MIN (s->font_size * 0.8, lay->cell_w * 0.6), .ax = 0.5, .ay = 1 };
  guint every = lay->cell_w >= num.size * 2 ? 1 : (guint) ceil (num.size * 2.2 / lay->cell_w);

  ws_figure_set_color (ctx, s->muted);
  ws_figure_text (ctx, WS_FIGURE_MARGIN, lay->grid_y - 4, "address (byte)", &o, NULL, NULL);
  ws_figure_text (ctx, lay->grid_x, lay->grid_y - s->font_size * 1.4,
                  "lanes on the address, in the order their updates are applied →", &o, NULL, NULL);
  for (guint c = 0; c < t->depth; c += every)
    {
      char label[8];
      g_snprintf (label, sizeof label, "%u", c + 1);
      ws_figure_text (ctx, lay->grid_x + (c + 0.45) * lay->cell_w, lay->grid_y - 3, label, &num, NULL, NULL);
    }
}

void
ws_atomic_figure_draw (WsFigureContext     *ctx,
                       const WsFigureFrame *frame)
{
  const WsFigureStyle *s = ctx->style;
  const WsWarpResult *r = frame->result;
  AtomicTable t;
  AtomicLayout lay;
  WsSchedule schedule;
  g_autofree char *stats = NULL;
  const WsLegendItem legend[] = {
    { ws_figure_style_hue (s, 0), "first update of an address" },
    { s->conflict, "waits for the lanes before it" },
    { s->accent, "being applied" },
  };

  /* nothing moves between steps here */
  if (frame->layers == WS_FIGURE_LAYERS_PACKETS)
    return;

  atomic_table (r, &t);
  atomic_layout (frame, s, ctx->width, ctx->height, &t, &lay);
  ws_schedule_init (&schedule, r, frame->position);
  if (r->space == WS_SPACE_SHARED)
    stats = g_strdup_printf ("%u distinct word%s · up to %u lanes on one word · %u wavefront%s: "
                             "lanes on one word are merged",
                             t.n_rows, t.n_rows == 1 ? "" : "s", t.depth, r->counts.wavefronts,
                             r->counts.wavefronts == 1 ? "" : "s");
  else
    stats = g_strdup_printf ("%u distinct address%s · up to %u lanes on one address, applied one after another "
                             "· %u sector visits",
                             t.n_rows, t.n_rows == 1 ? "" : "es", t.depth, r->counts.sectors);
  ws_figure_draw_caption (ctx, frame, stats);
  if (t.n_rows == 0)
    {
      ws_figure_draw_message (ctx, ws_figure_content_box (frame, s, ctx->width, ctx->height),
                              "No active lane: this warp makes no update.");
      return;
    }
  {
    WsRgba served[WS_WARP_SIZE];
    /* lanes that had to wait for another on their address show it */
    for (guint l = 0; l < WS_WARP_SIZE; l++)
      served[l] = ws_figure_style_hue (s, 0);
    for (guint i = 0; i < t.n_rows; i++)
      for (guint c = 1; c < t.n_lanes[i]; c++)
        served[t.lanes[i][c]] = s->conflict;
    ws_figure_draw_lanes (ctx, frame, &schedule, lay.lanes, served);
  }
  draw_header (ctx, &lay, &t);
  for (guint i = 0; i < t.n_rows; i++)
    {
      char label[32];
      WsTextOptions o = { .size = MIN (s->font_size * 0.85, lay.row_h * 0.8), .ay = 0.5, .flags = WS_TEXT_MONO,
                          .max_width = lay.label_w - 6 };
      if (lay.row_h >= 8)
        {
          g_snprintf (label, sizeof label, "%" G_GINT64_FORMAT, t.address[i]);
          ws_figure_set_color (ctx, s->muted);
          ws_figure_text (ctx, WS_FIGURE_MARGIN, lay.grid_y + (i + 0.5) * lay.row_h - 1, label, &o, NULL, NULL);
        }
      for (guint c = 0; c < t.n_lanes[i]; c++)
        draw_cell (ctx, frame, &schedule, cell_box (&lay, i, c), t.lanes[i][c], c);
    }
  ws_figure_draw_legend (ctx, WS_FIGURE_MARGIN, lay.legend_y, ctx->width - 2 * WS_FIGURE_MARGIN, legend,
                         G_N_ELEMENTS (legend));
}

gboolean
ws_atomic_figure_hit (const WsFigureFrame *frame,
                      const WsFigureStyle *style,
                      double               width,
                      double               height,
                      double               x,
                      double               y,
                      WsFigureHit         *hit)
{
  AtomicTable t;
  AtomicLayout lay;

  atomic_table (frame->result, &t);
  atomic_layout (frame, style, width, height, &t, &lay);
  if (ws_figure_hit_lane (lay.lanes, frame, x, y, hit))
    return TRUE;
  for (guint i = 0; i < t.n_rows; i++)
    {
      WsBox label = { WS_FIGURE_MARGIN, lay.grid_y + i * lay.row_h, lay.label_w, lay.row_h };
      if (ws_box_contains (&label, x, y))
        {
          *hit = (WsFigureHit) { WS_HIT_ADDRESS, i, t.address[i], -1 };
          return TRUE;
        }
      for (guint c = 0; c < t.n_lanes[i]; c++)
        {
          WsBox b = cell_box (&lay, i, c);
          if (ws_box_contains (&b, x, y))
            {
              guint lane = t.lanes[i][c];
              *hit = (WsFigureHit) { WS_HIT_LANE, lane, t.address[i], -1 };
              return TRUE;
            }
        }
    }
  return FALSE;
}

char *
ws_atomic_figure_describe (const WsFigureFrame *frame,
                           const WsFigureHit   *hit)
{
  AtomicTable t;
  guint32 lanes = 0;
  g_autofree char *who = NULL;

  if (hit->kind != WS_HIT_ADDRESS)
    return NULL;
  atomic_table (frame->result, &t);
  for (guint c = 0; hit->index >= 0 && (guint) hit->index < t.n_rows && c < t.n_lanes[hit->index]; c++)
    lanes |= 1u << t.lanes[hit->index][c];
  who = ws_figure_lanes_to_string (lanes);
  return g_strdup_printf ("Address %" G_GINT64_FORMAT "\nupdated by %s (%d update%s%s)", hit->address, who,
                          __builtin_popcount (lanes), __builtin_popcount (lanes) == 1 ? "" : "s",
                          __builtin_popcount (lanes) > 1 && frame->result->space == WS_SPACE_GLOBAL
                            ? ", applied one after another" : "");
}
