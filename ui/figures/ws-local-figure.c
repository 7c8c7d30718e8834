/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The private-array view: local memory is interleaved per 4-byte word, word
 * w of lane l at (w × 32 + l) × 4 in the warp's slice. Each row is one word
 * of every lane's array — one 128-byte line of 4 sectors — so a warp-uniform
 * index lights one row, and a lane-distinct index one cell in many rows. */
#include "ws-figure-private.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ROWS (WS_WARP_SIZE * 4)

typedef struct
{
  WsBox lanes[WS_WARP_SIZE];
  double label_w;
  double grid_y;
  double row_h;
  guint n_rows;
  gint64 words[MAX_ROWS];      /* the private word each row shows, ascending */
  double legend_y;
} LocalLayout;

static guint
words_per_lane (const WsWarpResult *r)
{
  return r->elem_size <= 4 ? 1 : r->elem_size / 4;
}

static int
compare_gint64 (const void *a,
                const void *b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;
  return (x > y) - (x < y);
}

static guint
touched_words (const WsWarpResult *r,
               gint64              out[MAX_ROWS])
{
  guint n = 0, distinct = 0;

  for (guint l = 0; l < WS_WARP_SIZE; l++)
    if (r->active & (1u << l))
      for (guint w = 0; w < words_per_lane (r); w++)
        out[n++] = (r->private_offset[l] >> 2) + w;
  qsort (out, n, sizeof (gint64), compare_gint64);
  for (guint i = 0; i < n; i++)
    if (i == 0 || out[i] != out[i - 1])
      out[distinct++] = out[i];
  return distinct;
}

static void
local_layout (const WsFigureFrame *frame,
              const WsFigureStyle *s,
              double               width,
              double               height,
              LocalLayout         *lay)
{
  WsBox c = ws_figure_content_box (frame, s, width, height);
  double top_label = s->font_size * 1.4;
  double lane_h = CLAMP (c.h * 0.07, 20, 36);
  WsBox row;

  memset (lay, 0, sizeof *lay);
  lay->label_w = ceil (s->font_size * 10);
  row = (WsBox) { c.x + lay->label_w, c.y + top_label, c.w - lay->label_w, lane_h };
  ws_figure_lane_boxes (row, lane_h, lay->lanes);
  lay->legend_y = c.y + c.h - ws_figure_legend_height (s);
  lay->grid_y = row.y + lane_h + s->font_size * 2.8;
  lay->n_rows = touched_words (frame->result, lay->words);
  lay->row_h = CLAMP ((lay->legend_y - s->font_size * 0.5 - lay->grid_y) / MAX (1, lay->n_rows), 5, 40);
}

static WsBox
slot_box (const LocalLayout *lay,
          guint              row,
          guint              lane)
{
  double pitch = lay->lanes[1].x - lay->lanes[0].x;
  double gap = lay->row_h > 12 ? 2 : 1;
  /* lanes of one sector sit together: no gap inside a sector's 8 slots */
  return (WsBox) { lay->lanes[0].x - (pitch - lay->lanes[0].w) / 2 + lane * pitch, lay->grid_y + row * lay->row_h,
                   pitch, lay->row_h - gap };
}

static int
step_of (const WsWarpResult *r,
         gint64              slice_byte,
         guint               lane)
{
  gint64 sector = slice_byte & ~(gint64) (WS_SECTOR_BYTES - 1);

  for (guint i = 0; i < r->steps->len; i++)
    {
      const WsStep *st = ws_warp_result_step (r, i);
      if (st->address == sector && (st->lanes & (1u << lane)))
        return i;
    }
  return -1;
}

static gboolean
lane_uses_word (const WsWarpResult *r,
                guint               lane,
                gint64              word)
{
  gint64 first = r->private_offset[lane] >> 2;

  return (r->active & (1u << lane)) && word >= first && word < first + words_per_lane (r);
}

static void
draw_row (WsFigureContext     *ctx,
          const WsFigureFrame *frame,
          const WsSchedule    *schedule,
          const LocalLayout   *lay,
          guint                row)
{
  const WsFigureStyle *s = ctx->style;
  const WsWarpResult *r = frame->result;
  gint64 word = lay->words[row];
  WsBox first = slot_box (lay, row, 0);

  for (guint l = 0; l < WS_WARP_SIZE; l++)
    {
      WsBox b = slot_box (lay, row, l);
      int step = lane_uses_word (r, l, word) ? step_of (r, (word * WS_WARP_SIZE + l) * 4, l) : -1;
      WsStepState state = step >= 0 ? ws_schedule_step_state (schedule, step) : WS_STEP_PENDING;
      gboolean hover = frame->hover.kind == WS_HIT_SLOT && frame->hover.index == (int) l &&
                       frame->hover.address == word;

      cairo_rectangle (ctx->cr, b.x + 0.5, b.y, b.w - 1, b.h);
      if (step < 0)
        ws_figure_set_color (ctx, s->surface);
      else
        ws_figure_set_color (ctx, ws_rgba_alpha (state == WS_STEP_SERVING ? s->accent : ws_figure_style_hue (s, step),
                                                 state == WS_STEP_PENDING ? 0.25 : 0.95));
      cairo_fill (ctx->cr);
      if (hover)
        {
          cairo_rectangle (ctx->cr, b.x + 0.5, b.y, b.w - 1, b.h);
          ws_figure_set_color (ctx, s->foreground);
          cairo_set_line_width (ctx->cr, 2.5 * s->line_width);
          cairo_stroke (ctx->cr);
          cairo_set_line_width (ctx->cr, s->line_width);
        }
    }
  /* sector boundaries: every 8 lanes */
  ws_figure_set_color (ctx, s->grid);
  for (guint k = 0; k <= 4; k++)
    {
      double x = first.x + k * 8 * first.w;
      cairo_move_to (ctx->cr, round (x) + 0.5, first.y);
      cairo_line_to (ctx->cr, round (x) + 0.5, first.y + first.h);
    }
  cairo_stroke (ctx->cr);
  if (lay->row_h >= 9)
    {
      char label[64];
      WsTextOptions o = { .size = MIN (s->font_size * 0.85, lay->row_h * 0.8), .ay = 0.5, .flags = WS_TEXT_MONO,
                          .max_width = lay->label_w - 4 };
      g_snprintf (label, sizeof label, "word %" G_GINT64_FORMAT " · line @%" G_GINT64_FORMAT, word, word * WS_LINE_BYTES);
      ws_figure_set_color (ctx, s->muted);
      ws_figure_text (ctx, WS_FIGURE_MARGIN, first.y + first.h / 2, label, &o, NULL, NULL);
    }
}

static void
draw_sector_header (WsFigureContext   *ctx,
                    const LocalLayout *lay)
{
  const WsFigureStyle *s = ctx->style;
  WsTextOptions o = { .size = s->font_size * 0.85, .ax = 0.5, .ay = 1 };
  WsTextOptions left = { .size = s->font_size * 0.85, .ay = 1, .max_width = lay->label_w - 4 };
  WsBox first = slot_box (lay, 0, 0);
  double y = lay->grid_y - 4;

  ws_figure_set_color (ctx, s->muted);
  ws_figure_text (ctx, WS_FIGURE_MARGIN, y, "private word", &left, NULL, NULL);
  for (guint k = 0; k < 4; k++)
    {
      char label[32];
      double x0 = first.x + k * 8 * first.w, x1 = x0 + 8 * first.w;
      double w;

      /* the long label where it fits, else the short one */
      g_snprintf (label, sizeof label, "sector %u of the line", k);
      ws_figure_text_size (ctx, label, &o, &w, NULL);
      if (w > x1 - x0 - 6)
        g_snprintf (label, sizeof label, "sector %u", k);
      o.max_width = x1 - x0 - 4;
      ws_figure_text (ctx, (x0 + x1) / 2, y, label, &o, NULL, NULL);
      cairo_move_to (ctx->cr, x0 + 3, y + 1.5);
      cairo_line_to (ctx->cr, x1 - 3, y + 1.5);
      cairo_stroke (ctx->cr);
    }
}

void
ws_local_figure_draw (WsFigureContext     *ctx,
                      const WsFigureFrame *frame)
{
  const WsFigureStyle *s = ctx->style;
  const WsWarpResult *r = frame->result;
  const WsWarpCounts *c = &r->counts;
  LocalLayout lay;
  WsSchedule schedule;
  WsRgba served[WS_WARP_SIZE];
  g_autofree char *stats = NULL;
  const WsLegendItem legend[] = {
    { ws_figure_style_hue (s, 0), "slot read" },
    { s->accent, "being served" },
    { s->surface, "other lanes' slots" },
  };

  /* nothing moves between steps here */
  if (frame->layers == WS_FIGURE_LAYERS_PACKETS)
    return;

  local_layout (frame, s, ctx->width, ctx->height, &lay);
  ws_schedule_init (&schedule, r, frame->position);
  for (guint l = 0; l < WS_WARP_SIZE; l++)
    served[l] = ws_figure_style_hue (s, MAX (0, schedule.last_step[l]));
  stats = g_strdup_printf ("word w of lane l at (w × 32 + l) × 4 · %u request%s · %u line%s · %u replay%s",
                           c->requests, c->requests == 1 ? "" : "s", c->lines, c->lines == 1 ? "" : "s",
                           c->replays, c->replays == 1 ? "" : "s");
  ws_figure_draw_caption (ctx, frame, stats);
  ws_figure_draw_lanes (ctx, frame, &schedule, lay.lanes, served);
  if (lay.n_rows > 0)
    draw_sector_header (ctx, &lay);
  for (guint i = 0; i < lay.n_rows; i++)
    draw_row (ctx, frame, &schedule, &lay, i);
  ws_figure_draw_legend (ctx, WS_FIGURE_MARGIN, lay.legend_y, ctx->width - 2 * WS_FIGURE_MARGIN, legend,
                         G_N_ELEMENTS (legend));
}

gboolean
ws_local_figure_hit (const WsFigureFrame *frame,
                     const WsFigureStyle *style,
                     double               width,
                     double               height,
                     double               x,
                     double               y,
                     WsFigureHit         *hit)
{
  LocalLayout lay;

  local_layout (frame, style, width, height, &lay);
  if (ws_figure_hit_lane (lay.lanes, frame, x, y, hit))
    return TRUE;
  for (guint i = 0; i < lay.n_rows; i++)
    for (guint l = 0; l < WS_WARP_SIZE; l++)
      {
        WsBox b = slot_box (&lay, i, l);
        if (ws_box_contains (&b, x, y))
          {
            int step = lane_uses_word (frame->result, l, lay.words[i])
                         ? step_of (frame->result, (lay.words[i] * WS_WARP_SIZE + l) * 4, l) : -1;
            *hit = (WsFigureHit) { WS_HIT_SLOT, l, lay.words[i], step };
            return TRUE;
          }
      }
  return FALSE;
}

char *
ws_local_figure_describe (const WsFigureFrame *frame,
                          const WsFigureHit   *hit)
{
  gint64 slice = (hit->address * WS_WARP_SIZE + hit->index) * 4;

  if (hit->kind != WS_HIT_SLOT)
    return NULL;
  return g_strdup_printf ("Word %" G_GINT64_FORMAT " of lane %d's private array\nbyte %" G_GINT64_FORMAT
                          " of the warp's slice: line %" G_GINT64_FORMAT ", sector %" G_GINT64_FORMAT "\n%s",
                          hit->address, hit->index, slice, hit->address, (slice % WS_LINE_BYTES) / WS_SECTOR_BYTES,
                          hit->step >= 0 ? "read by this instruction" : "not read by this instruction");
}
