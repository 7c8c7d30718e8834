/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The warp view: 32 lanes above the 128-byte lines and 32-byte sectors their
 * addresses fall in, each sector filled where a lane asked for its bytes,
 * served one step of the model's schedule at a time. */
#include "ws-figure-private.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LINES (WS_WARP_SIZE * 4)
#define SECTORS_PER_LINE (WS_LINE_BYTES / WS_SECTOR_BYTES)

typedef struct
{
  gint64 address;          /* the line's first byte */
  WsBox box;
} LineSlot;

typedef struct
{
  WsBox lanes[WS_WARP_SIZE];
  guint n_lines;
  LineSlot lines[MAX_LINES];
  double label_h;
  double legend_y;
  WsBox message;           /* registers: where the explanation goes */
} WarpLayout;

/* The byte ranges one lane touches: one element, or for local memory one
 * 4-byte word per 128-byte line of the interleaved slice. */
static guint
lane_spans (const WsWarpResult *r,
            guint               lane,
            gint64              start[4],
            guint              *length)
{
  guint n = 1;

  if (r->space == WS_SPACE_LOCAL)
    {
      n = r->elem_size <= 4 ? 1 : r->elem_size / 4;
      *length = MIN (r->elem_size, 4);
      for (guint k = 0; k < n; k++)
        start[k] = r->address[lane] + (gint64) k * WS_LINE_BYTES;
    }
  else
    {
      start[0] = r->address[lane];
      *length = r->elem_size;
    }
  return n;
}

static int
compare_gint64 (const void *a,
                const void *b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;
  return (x > y) - (x < y);
}

static guint
touched_lines (const WsWarpResult *r,
               gint64              out[MAX_LINES])
{
  guint n = 0, distinct = 0;

  for (guint l = 0; l < WS_WARP_SIZE; l++)
    {
      gint64 start[4];
      guint len, k;

      if (!(r->active & (1u << l)))
        continue;
      k = lane_spans (r, l, start, &len);
      for (guint i = 0; i < k; i++)
        out[n++] = start[i] & ~(gint64) (WS_LINE_BYTES - 1);
    }
  qsort (out, n, sizeof (gint64), compare_gint64);
  for (guint i = 0; i < n; i++)
    if (i == 0 || out[i] != out[i - 1])
      out[distinct++] = out[i];
  return distinct;
}

static void
place_lines (WarpLayout        *lay,
             const gint64      *lines,
             WsBox              area,
             const WsFigureStyle *s)
{
  double gap_w = s->font_size * 1.5;
  double min_line_w = 96, max_line_w = 280;
  double gap_h = s->font_size * 0.6;
  guint per_row, rows, first = 0;
  double line_w, line_h, pitch;

  /* narrower lines before rows too short for a line and its label */
  for (;;)
    {
      per_row = MAX (1, (guint) ((area.w + gap_w) / (min_line_w + gap_w)));
      per_row = MIN (per_row, MAX (1, lay->n_lines));
      rows = (lay->n_lines + per_row - 1) / per_row;
      if (min_line_w <= 48 || rows * (14 + lay->label_h + gap_h) <= area.h)
        break;
      min_line_w -= 8;
    }
  line_w = MIN (max_line_w, (area.w - (per_row - 1) * gap_w) / per_row);
  pitch = rows > 0 ? area.h / rows : area.h;
  /* no room for the addresses: the tooltips still say them */
  if (pitch < 14 + lay->label_h + gap_h)
    lay->label_h = 0;
  line_h = CLAMP (pitch - lay->label_h - gap_h, 6, MIN (96, line_w * 0.45));
  for (guint row = 0; row < rows; row++, first += per_row)
    {
      guint last = MIN (first + per_row, lay->n_lines);
      double row_w = 0, x;

      for (guint i = first; i < last; i++)
        row_w += line_w + (i > first && lines[i] != lines[i - 1] + WS_LINE_BYTES ? gap_w : 0);
      x = area.x + (area.w - row_w) / 2;
      for (guint i = first; i < last; i++)
        {
          if (i > first && lines[i] != lines[i - 1] + WS_LINE_BYTES)
            x += gap_w;
          lay->lines[i].address = lines[i];
          lay->lines[i].box = (WsBox) { x, area.y + row * pitch, line_w, line_h };
          x += line_w;
        }
    }
}

static void
warp_layout (const WsFigureFrame *frame,
             const WsFigureStyle *s,
             double               width,
             double               height,
             WarpLayout          *lay)
{
  WsBox c = ws_figure_content_box (frame, s, width, height);
  double legend_h = ws_figure_legend_height (s);
  double top_label = s->font_size * 1.4;
  double lane_h = CLAMP (c.h * 0.08, 22, 40);
  gint64 lines[MAX_LINES];
  WsBox mem;
  double band;

  memset (lay, 0, sizeof *lay);
  ws_figure_lane_boxes ((WsBox) { c.x, c.y + top_label, c.w, lane_h }, lane_h, lay->lanes);
  lay->legend_y = c.y + c.h - legend_h;
  lay->label_h = s->font_size * 1.3;
  if (frame->result->space == WS_SPACE_REGISTER)
    {
      double y = c.y + top_label + lane_h;
      lay->message = (WsBox) { c.x, y, c.w, lay->legend_y - y };
      return;
    }
  lay->n_lines = touched_lines (frame->result, lines);
  band = CLAMP (c.h * 0.22, 48, 180);
  mem.x = c.x;
  mem.y = c.y + top_label + lane_h + band + top_label;
  mem.w = c.w;
  mem.h = MAX (20, lay->legend_y - s->font_size * 0.5 - mem.y);
  place_lines (lay, lines, mem, s);
}

/* ------------------------------------------------------------------ */

typedef struct
{
  int first_step;
  int last_step;
  guint32 asked;           /* bytes of the sector some lane asked for */
} SectorInfo;

static void
sector_info (const WsWarpResult *r,
             gint64              sector,
             SectorInfo         *info)
{
  info->first_step = info->last_step = -1;
  info->asked = 0;
  for (guint i = 0; i < r->steps->len; i++)
    if (ws_warp_result_step (r, i)->address == sector)
      {
        if (info->first_step < 0)
          info->first_step = i;
        info->last_step = i;
      }
  for (guint l = 0; l < WS_WARP_SIZE; l++)
    {
      gint64 start[4];
      guint len, k;

      if (!(r->active & (1u << l)))
        continue;
      k = lane_spans (r, l, start, &len);
      for (guint i = 0; i < k; i++)
        for (guint b = 0; b < len; b++)
          if (start[i] + b >= sector && start[i] + b < sector + WS_SECTOR_BYTES)
            info->asked |= 1u << (start[i] + b - sector);
    }
}

static WsStepState
sector_state (const WsSchedule *schedule,
              const SectorInfo *info)
{
  WsStepState first, last;

  if (info->first_step < 0)
    return WS_STEP_PENDING;
  first = ws_schedule_step_state (schedule, info->first_step);
  last = ws_schedule_step_state (schedule, info->last_step);
  if (first == WS_STEP_DONE && last == WS_STEP_DONE)
    return WS_STEP_DONE;
  if (first == WS_STEP_PENDING && last == WS_STEP_PENDING)
    return WS_STEP_PENDING;
  return WS_STEP_SERVING;
}

static void
draw_byte_runs (WsFigureContext *ctx,
                WsBox            b,
                guint32          asked)
{
  for (guint i = 0; i < WS_SECTOR_BYTES;)
    {
      guint j = i;

      if (!(asked & (1u << i)))
        {
          i++;
          continue;
        }
      while (j < WS_SECTOR_BYTES && (asked & (1u << j)))
        j++;
      cairo_rectangle (ctx->cr, b.x + b.w * i / WS_SECTOR_BYTES, b.y, b.w * (j - i) / WS_SECTOR_BYTES, b.h);
      i = j;
    }
  cairo_fill (ctx->cr);
}

static void
draw_sector (WsFigureContext     *ctx,
             const WsFigureFrame *frame,
             const WsSchedule    *schedule,
             WsBox                b,
             gint64               address)
{
  const WsFigureStyle *s = ctx->style;
  cairo_t *cr = ctx->cr;
  SectorInfo info;
  WsStepState state;
  WsRgba hue;
  gboolean hover = (frame->hover.kind == WS_HIT_SECTOR && frame->hover.address == address);

  sector_info (frame->result, address, &info);
  if (info.first_step < 0)
    {
      cairo_rectangle (cr, b.x + 0.5, b.y + 0.5, b.w - 1, b.h - 1);
      cairo_set_dash (cr, (double[]) { 3, 3 }, 2, 0);
      ws_figure_set_color (ctx, hover ? s->foreground : s->grid);
      cairo_stroke (cr);
      cairo_set_dash (cr, NULL, 0, 0);
      return;
    }
  state = sector_state (schedule, &info);
  hue = state == WS_STEP_SERVING ? s->accent : ws_figure_style_hue (s, info.first_step);
  cairo_rectangle (cr, b.x, b.y, b.w, b.h);
  ws_figure_set_color (ctx, ws_rgba_alpha (hue, state == WS_STEP_PENDING ? 0.10 : 0.28));
  cairo_fill (cr);
  ws_figure_set_color (ctx, ws_rgba_alpha (hue, state == WS_STEP_PENDING ? 0.35 : 1.0));
  draw_byte_runs (ctx, b, info.asked);
  cairo_rectangle (cr, b.x + 0.5, b.y + 0.5, b.w - 1, b.h - 1);
  ws_figure_set_color (ctx, hover ? s->foreground : ws_rgba_alpha (hue, state == WS_STEP_PENDING ? 0.6 : 1.0));
  cairo_set_line_width (cr, (hover || state == WS_STEP_SERVING ? 2.5 : 1) * s->line_width);
  cairo_stroke (cr);
  cairo_set_line_width (cr, s->line_width);
  if (b.w >= 14 && b.h >= 14)
    {
      char label[16];
      WsTextOptions o = { .size = MIN (s->font_size * 0.85, b.h * 0.45), .flags = WS_TEXT_BOLD, .ax = 0.5,
                          .ay = 0.5 };
      g_snprintf (label, sizeof label, "%d", info.first_step + 1);
      ws_figure_set_color (ctx, state == WS_STEP_PENDING ? s->muted : s->foreground);
      /* a step number on a plate, so that it reads over any fill */
      ws_figure_rounded_rect (ctx, b.x + b.w / 2 - o.size * 0.9, b.y + b.h / 2 - o.size * 0.75, o.size * 1.8,
                              o.size * 1.5, 3);
      ws_figure_set_color (ctx, ws_rgba_alpha (s->background, 0.85));
      cairo_fill (cr);
      ws_figure_set_color (ctx, state == WS_STEP_PENDING ? s->muted : s->foreground);
      ws_figure_text (ctx, b.x + b.w / 2, b.y + b.h / 2, label, &o, NULL, NULL);
    }
}

static WsBox
sector_box (const LineSlot *line,
            guint           k)
{
  double sw = line->box.w / SECTORS_PER_LINE;
  return (WsBox) { line->box.x + k * sw, line->box.y, sw, line->box.h };
}

static void
draw_lines (WsFigureContext     *ctx,
            const WsFigureFrame *frame,
            const WsSchedule    *schedule,
            const WarpLayout    *lay)
{
  const WsFigureStyle *s = ctx->style;
  WsTextOptions o = { .size = s->font_size * 0.85, .flags = WS_TEXT_MONO, .ay = 0 };

  for (guint i = 0; i < lay->n_lines; i++)
    {
      const LineSlot *line = &lay->lines[i];
      gboolean hover = frame->hover.kind == WS_HIT_LINE && frame->hover.address == line->address;
      char label[32];

      for (guint k = 0; k < SECTORS_PER_LINE; k++)
        draw_sector (ctx, frame, schedule, sector_box (line, k), line->address + k * WS_SECTOR_BYTES);
      ws_figure_rounded_rect (ctx, line->box.x - 1, line->box.y - 1, line->box.w + 2, line->box.h + 2, 3);
      ws_figure_set_color (ctx, hover ? s->accent : s->foreground);
      cairo_set_line_width (ctx->cr, 1.5 * s->line_width);
      cairo_stroke (ctx->cr);
      cairo_set_line_width (ctx->cr, s->line_width);
      g_snprintf (label, sizeof label, "%" G_GINT64_FORMAT, line->address);
      o.max_width = line->box.w;
      ws_figure_set_color (ctx, s->muted);
      if (lay->label_h > 0)
        ws_figure_text (ctx, line->box.x, line->box.y + line->box.h + 3, label, &o, NULL, NULL);
      if (i > 0 && line->address != lay->lines[i - 1].address + WS_LINE_BYTES &&
          line->box.y == lay->lines[i - 1].box.y)
        {
          WsTextOptions g = { .size = s->font_size, .ax = 0.5, .ay = 0.5, .flags = WS_TEXT_BOLD };
          double gx = (lay->lines[i - 1].box.x + lay->lines[i - 1].box.w + line->box.x) / 2;
          ws_figure_text (ctx, gx, line->box.y + line->box.h / 2, "⋯", &g, NULL, NULL);
        }
    }
}

static const LineSlot *
find_line (const WarpLayout *lay,
           gint64            address)
{
  gint64 line = address & ~(gint64) (WS_LINE_BYTES - 1);

  for (guint i = 0; i < lay->n_lines; i++)
    if (lay->lines[i].address == line)
      return &lay->lines[i];
  return NULL;
}

static int
step_of_span (const WsWarpResult *r,
              guint               lane,
              gint64              start)
{
  gint64 sector = start & ~(gint64) (WS_SECTOR_BYTES - 1);
  int found = -1;

  for (guint i = 0; i < r->steps->len; i++)
    {
      const WsStep *st = ws_warp_result_step (r, i);
      if (st->address == sector && (st->lanes & (1u << lane)))
        found = i;
    }
  return found;
}

/* Curves from every lane to the bytes it asked for; packets for the step in flight. */
static void
draw_connections (WsFigureContext     *ctx,
                  const WsFigureFrame *frame,
                  const WsSchedule    *schedule,
                  const WarpLayout    *lay,
                  gboolean             packets)
{
  const WsWarpResult *r = frame->result;
  const WsFigureStyle *s = ctx->style;
  cairo_t *cr = ctx->cr;

  for (guint l = 0; l < WS_WARP_SIZE; l++)
    {
      gint64 start[4];
      guint len, k;
      const WsBox *lb = &lay->lanes[l];

      if (!(r->active & (1u << l)))
        continue;
      k = lane_spans (r, l, start, &len);
      for (guint i = 0; i < k; i++)
        {
          const LineSlot *line = find_line (lay, start[i]);
          int step = step_of_span (r, l, start[i]);
          WsStepState state = step >= 0 ? ws_schedule_step_state (schedule, step) : WS_STEP_PENDING;
          gboolean hover = frame->hover.kind == WS_HIT_LANE && frame->hover.index == (int) l;
          double x0 = lb->x + lb->w / 2, y0 = lb->y + lb->h;
          double x1, y1;

          if (line == NULL)
            continue;
          x1 = line->box.x + line->box.w * ((start[i] - line->address) + len / 2.0) / WS_LINE_BYTES;
          y1 = line->box.y;
          if (packets)
            {
              if (state == WS_STEP_SERVING)
                {
                  if (ws_figure_flows_up (r))
                    ws_figure_packet (ctx, x1, y1, x0, y0, schedule->t, s->accent);
                  else
                    ws_figure_packet (ctx, x0, y0, x1, y1, schedule->t, s->accent);
                }
              continue;
            }
          ws_figure_connect (ctx, x0, y0, x1, y1);
          if (state == WS_STEP_SERVING || hover)
            {
              ws_figure_set_color (ctx, hover ? s->foreground : s->accent);
              cairo_set_line_width (cr, 2.2 * s->line_width);
            }
          else
            ws_figure_set_color (ctx, ws_rgba_alpha (step >= 0 ? ws_figure_style_hue (s, step) : s->grid,
                                                     state == WS_STEP_DONE ? 0.55 : 0.25));
          cairo_stroke (cr);
          cairo_set_line_width (cr, s->line_width);
        }
    }
}

static char *
warp_stats (const WsWarpResult *r)
{
  const WsWarpCounts *c = &r->counts;

  if (r->space == WS_SPACE_REGISTER)
    return g_strdup ("No memory instruction: the value is in registers");
  if (r->active == 0)
    return g_strdup ("No active lane: this warp makes no access");
  if (r->kind == WS_ACCESS_ATOMIC)
    return g_strdup_printf ("%u sector visits · %u distinct addresses · up to %u lanes on one address",
                            c->sectors, c->distinct_addresses, c->atomic_depth);
  if (r->space == WS_SPACE_LOCAL)
    return g_strdup_printf ("%u request%s · %u sectors in %u lines · %u replay%s · %u B moved for %u B asked",
                            c->requests, c->requests == 1 ? "" : "s", c->sectors, c->lines, c->replays,
                            c->replays == 1 ? "" : "s", c->bytes_moved, c->bytes_requested);
  return g_strdup_printf ("%u sector%s in %u line%s · %u B moved for %u B asked · %.1f %% coalesced",
                          c->sectors, c->sectors == 1 ? "" : "s", c->lines, c->lines == 1 ? "" : "s",
                          c->bytes_moved, c->bytes_requested,
                          c->bytes_moved ? 100.0 * c->bytes_requested / c->bytes_moved : 0.0);
}

static void
lane_hues (const WsFigureStyle *s,
           const WsSchedule    *schedule,
           WsRgba               served[WS_WARP_SIZE])
{
  for (guint l = 0; l < WS_WARP_SIZE; l++)
    served[l] = schedule->last_step[l] >= 0 ? ws_figure_style_hue (s, schedule->last_step[l]) : s->grid;
}

void
ws_warp_figure_draw (WsFigureContext     *ctx,
                     const WsFigureFrame *frame)
{
  const WsFigureStyle *s = ctx->style;
  const WsWarpResult *r = frame->result;
  g_autofree char *stats = warp_stats (r);
  WarpLayout lay;
  WsSchedule schedule;
  WsRgba served[WS_WARP_SIZE];
  const WsLegendItem legend[] = {
    { ws_figure_style_hue (s, 0), "asked for" },
    { ws_rgba_alpha (ws_figure_style_hue (s, 0), 0.28), "moved, not asked for" },
    { s->accent, "being served" },
    { s->grid, "not moved", TRUE },
  };

  warp_layout (frame, s, ctx->width, ctx->height, &lay);
  ws_schedule_init (&schedule, r, frame->position);
  if (frame->layers == WS_FIGURE_LAYERS_PACKETS)
    {
      draw_connections (ctx, frame, &schedule, &lay, TRUE);
      return;
    }
  lane_hues (s, &schedule, served);
  ws_figure_draw_caption (ctx, frame, stats);
  if (r->space == WS_SPACE_REGISTER)
    {
      for (guint l = 0; l < WS_WARP_SIZE; l++)
        served[l] = s->broadcast;
      ws_figure_draw_lanes (ctx, frame, &schedule, lay.lanes, served);
      ws_figure_draw_message (ctx, lay.message,
                              "Every index is known when the kernel is compiled, so the array lives in "
                              "registers: no memory instruction, no sectors, nothing to wait for.");
      return;
    }
  draw_connections (ctx, frame, &schedule, &lay, FALSE);
  ws_figure_draw_lanes (ctx, frame, &schedule, lay.lanes, served);
  if (lay.n_lines > 0)
    {
      WsTextOptions o = { .size = s->font_size * 0.9, .ay = 1 };
      const char *label = r->space == WS_SPACE_LOCAL ? "128-byte lines of the warp's local slice, 4 sectors each, at byte"
                                                     : "128-byte lines, 4 sectors of 32 bytes each, at byte";
      ws_figure_plate_text (ctx, WS_FIGURE_MARGIN, lay.lines[0].box.y - 4, label, &o);
    }
  draw_lines (ctx, frame, &schedule, &lay);
  if (frame->layers == WS_FIGURE_LAYERS_ALL)
    draw_connections (ctx, frame, &schedule, &lay, TRUE);
  ws_figure_draw_legend (ctx, WS_FIGURE_MARGIN, lay.legend_y, ctx->width - 2 * WS_FIGURE_MARGIN, legend,
                         G_N_ELEMENTS (legend));
}

gboolean
ws_warp_figure_hit (const WsFigureFrame *frame,
                    const WsFigureStyle *style,
                    double               width,
                    double               height,
                    double               x,
                    double               y,
                    WsFigureHit         *hit)
{
  WarpLayout lay;

  warp_layout (frame, style, width, height, &lay);
  if (ws_figure_hit_lane (lay.lanes, frame, x, y, hit))
    return TRUE;
  for (guint i = 0; i < lay.n_lines; i++)
    {
      const LineSlot *line = &lay.lines[i];
      WsBox label = { line->box.x, line->box.y + line->box.h, line->box.w, lay.label_h };

      for (guint k = 0; k < SECTORS_PER_LINE; k++)
        {
          WsBox b = sector_box (line, k);
          if (ws_box_contains (&b, x, y))
            {
              SectorInfo info;
              gint64 address = line->address + k * WS_SECTOR_BYTES;
              sector_info (frame->result, address, &info);
              *hit = (WsFigureHit) { WS_HIT_SECTOR, k, address, info.first_step };
              return TRUE;
            }
        }
      if (ws_box_contains (&label, x, y))
        {
          *hit = (WsFigureHit) { WS_HIT_LINE, i, line->address, -1 };
          return TRUE;
        }
    }
  return FALSE;
}

char *
ws_warp_figure_describe (const WsFigureFrame *frame,
                         const WsFigureHit   *hit)
{
  const WsWarpResult *r = frame->result;
  SectorInfo info;
  guint32 lanes = 0;
  g_autofree char *who = NULL;
  g_autofree char *when = NULL;

  if (hit->kind == WS_HIT_LINE)
    return g_strdup_printf ("128-byte line at bytes %" G_GINT64_FORMAT "–%" G_GINT64_FORMAT
                            "\nfour 32-byte sectors; only the sectors a lane needs are moved",
                            hit->address, hit->address + WS_LINE_BYTES - 1);
  if (hit->kind != WS_HIT_SECTOR)
    return NULL;
  sector_info (r, hit->address, &info);
  if (info.first_step < 0)
    return g_strdup_printf ("Sector at bytes %" G_GINT64_FORMAT "–%" G_GINT64_FORMAT
                            "\nno lane asks for it, so it is not moved",
                            hit->address, hit->address + WS_SECTOR_BYTES - 1);
  for (int i = info.first_step; i <= info.last_step; i++)
    if (ws_warp_result_step (r, i)->address == hit->address)
      lanes |= ws_warp_result_step (r, i)->lanes;
  who = ws_figure_lanes_to_string (lanes);
  when = ws_figure_step_to_string (info.first_step);
  return g_strdup_printf ("Sector at bytes %" G_GINT64_FORMAT "–%" G_GINT64_FORMAT
                          "\n%d of its 32 bytes asked for, by %s\n%s of %u",
                          hit->address, hit->address + WS_SECTOR_BYTES - 1, __builtin_popcount (info.asked), who,
                          when, r->steps->len);
}
