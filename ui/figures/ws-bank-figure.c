/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The bank view: 32 lanes above the 32 banks of shared memory. Each row is
 * one wavefront of the model's schedule and holds the word each bank
 * delivers in it, so a bank conflict reads as a column with several rows,
 * and a broadcast as one word shared by several lanes. */
#include "ws-figure-private.h"

#include <math.h>
#include <string.h>

#define MAX_ROWS 128

typedef struct
{
  gint64 word;             /* word index (byte address / 4), -1 for none */
  guint32 lanes;
} Cell;

typedef struct
{
  guint n_rows;
  guint n_phases;
  guint16 phase[MAX_ROWS];
  guint16 rank[MAX_ROWS];  /* the wavefront within its phase */
  Cell cells[MAX_ROWS][WS_N_BANKS];
  guint depth[WS_N_BANKS]; /* the most distinct words the bank delivers in one phase */
} BankTable;

typedef struct
{
  WsBox lanes[WS_WARP_SIZE];
  double label_w;
  WsBox header[WS_N_BANKS];
  double grid_y;
  double row_h;
  double legend_y;
} BankLayout;

static guint
words_per_lane (const WsWarpResult *r)
{
  return r->elem_size <= 4 ? 1 : r->elem_size / 4;
}

/* Which word each bank delivers in each wavefront: wavefront k of a phase
 * delivers the k-th distinct word of every bank (ws-warp-counts.c). */
static void
bank_table (const WsWarpResult *r,
            BankTable          *t)
{
  guint wpl = words_per_lane (r);

  memset (t, 0, sizeof *t);
  t->n_rows = MIN (r->steps->len, MAX_ROWS);
  for (guint i = 0; i < t->n_rows; i++)
    for (guint b = 0; b < WS_N_BANKS; b++)
      t->cells[i][b].word = -1;
  for (guint first = 0; first < t->n_rows;)
    {
      guint phase = ws_warp_result_step (r, first)->phase;
      guint end = first;
      guint32 lanes = 0;
      guint count[WS_N_BANKS] = { 0 };

      while (end < t->n_rows && ws_warp_result_step (r, end)->phase == phase)
        lanes |= ws_warp_result_step (r, end++)->lanes;
      for (guint i = first; i < end; i++)
        {
          t->phase[i] = t->n_phases;
          t->rank[i] = i - first;
        }
      /* walk the phase's distinct words in address order */
      for (gint64 prev = -1;;)
        {
          gint64 word = G_MAXINT64;
          guint b, row;

          for (guint l = 0; l < WS_WARP_SIZE; l++)
            if (lanes & (1u << l))
              for (guint w = 0; w < wpl; w++)
                {
                  gint64 v = (r->address[l] >> 2) + w;
                  if (v > prev && v < word)
                    word = v;
                }
          if (word == G_MAXINT64)
            break;
          b = word & (WS_N_BANKS - 1);
          row = first + count[b]++;
          if (row < end)
            {
              t->cells[row][b].word = word;
              for (guint l = 0; l < WS_WARP_SIZE; l++)
                if ((lanes & (1u << l)) && word >= (r->address[l] >> 2) && word < (r->address[l] >> 2) + wpl)
                  t->cells[row][b].lanes |= 1u << l;
            }
          prev = word;
        }
      for (guint b = 0; b < WS_N_BANKS; b++)
        t->depth[b] = MAX (t->depth[b], count[b]);
      t->n_phases++;
      first = end;
    }
}

static void
bank_layout (const WsFigureFrame *frame,
             const WsFigureStyle *s,
             double               width,
             double               height,
             guint                n_rows,
             BankLayout          *lay)
{
  WsBox c = ws_figure_content_box (frame, s, width, height);
  double top_label = s->font_size * 1.4;
  double lane_h = CLAMP (c.h * 0.07, 20, 36);
  double band = CLAMP (c.h * 0.16, 36, 120);
  double header_h = CLAMP (lane_h * 0.9, 18, 30);
  double pitch;
  WsBox row;

  lay->label_w = ceil (s->font_size * 7.5);
  row = (WsBox) { c.x + lay->label_w, c.y + top_label, c.w - lay->label_w, lane_h };
  ws_figure_lane_boxes (row, lane_h, lay->lanes);
  pitch = row.w / WS_N_BANKS;
  for (guint b = 0; b < WS_N_BANKS; b++)
    lay->header[b] = (WsBox) { lay->lanes[b].x, row.y + lane_h + band, lay->lanes[b].w, header_h };
  lay->legend_y = c.y + c.h - ws_figure_legend_height (s);
  lay->grid_y = row.y + lane_h + band + header_h + 4;
  /* in a short figure many wavefronts make thin rows, but stay above the legend */
  lay->row_h = CLAMP ((lay->legend_y - s->font_size * 0.5 - lay->grid_y) / MAX (1, n_rows), 1, MAX (pitch * 1.2, 34));
}

static WsBox
cell_box (const BankLayout *lay,
          guint             row,
          guint             bank)
{
  double gap = lay->row_h > 12 ? 2 : 1;
  return (WsBox) { lay->header[bank].x, lay->grid_y + row * lay->row_h, lay->header[bank].w, lay->row_h - gap };
}

static void
draw_headers (WsFigureContext     *ctx,
              const WsFigureFrame *frame,
              const BankLayout    *lay,
              const BankTable     *t)
{
  const WsFigureStyle *s = ctx->style;
  WsTextOptions o = { .ax = 0.5, .ay = 0.5, .flags = WS_TEXT_BOLD };
  WsTextOptions side = { .size = s->font_size * 0.9, .ay = 0.5 };

  o.size = ws_figure_fit_text (ctx, "31", WS_TEXT_BOLD, s->font_size * 0.9, 6, lay->header[0].w - 2);
  ws_figure_set_color (ctx, s->muted);
  ws_figure_text (ctx, WS_FIGURE_MARGIN, lay->header[0].y + lay->header[0].h / 2, "bank", &side, NULL, NULL);
  for (guint b = 0; b < WS_N_BANKS; b++)
    {
      const WsBox *h = &lay->header[b];
      gboolean conflict = t->depth[b] > 1;
      gboolean hover = frame->hover.kind == WS_HIT_BANK && frame->hover.index == (int) b;
      char label[8];

      ws_figure_rounded_rect (ctx, h->x, h->y, h->w, h->h, 3);
      ws_figure_set_color (ctx, conflict ? ws_rgba_alpha (s->conflict, 0.9) : s->surface);
      cairo_fill_preserve (ctx->cr);
      ws_figure_set_color (ctx, hover ? s->foreground : conflict ? s->conflict : s->grid);
      cairo_set_line_width (ctx->cr, (hover ? 2.5 : 1) * s->line_width);
      cairo_stroke (ctx->cr);
      cairo_set_line_width (ctx->cr, s->line_width);
      g_snprintf (label, sizeof label, "%u", b);
      ws_figure_set_color (ctx, conflict ? (WsRgba) { 1, 1, 1, 1 } : s->foreground);
      ws_figure_text (ctx, h->x + h->w / 2, h->y + h->h / 2, label, &o, NULL, NULL);
    }
}

static void
draw_row_labels (WsFigureContext  *ctx,
                 const BankLayout *lay,
                 const BankTable  *t,
                 const WsSchedule *schedule)
{
  const WsFigureStyle *s = ctx->style;
  /* legible labels: on every row while they fit, on every few rows when rows are thin */
  WsTextOptions o = { .size = MIN (s->font_size * 0.9, MAX (lay->row_h * 0.8, s->font_size * 0.75)), .ay = 0.5,
                      .max_width = lay->label_w - 4 };
  guint every = lay->row_h >= o.size * 1.1 ? 1 : (guint) ceil (o.size * 1.2 / lay->row_h);

  for (guint i = 0; i < t->n_rows; i++)
    {
      char label[48];
      WsStepState state = ws_schedule_step_state (schedule, i);

      /* the last row is labelled too, unless the label before it is too close */
      if (i % every != 0 && (i + 1 != t->n_rows || i % every < (every + 1) / 2))
        continue;
      if (t->n_phases > 1)
        g_snprintf (label, sizeof label, "phase %u · %u", t->phase[i] + 1, t->rank[i] + 1);
      else
        g_snprintf (label, sizeof label, "wavefront %u", i + 1);
      ws_figure_set_color (ctx, state == WS_STEP_SERVING ? s->accent : state == WS_STEP_DONE ? s->foreground : s->muted);
      o.flags = state == WS_STEP_SERVING ? WS_TEXT_BOLD : 0;
      ws_figure_text (ctx, WS_FIGURE_MARGIN, lay->grid_y + (i + 0.5) * lay->row_h, label, &o, NULL, NULL);
    }
}

static void
draw_cell (WsFigureContext     *ctx,
           const WsFigureFrame *frame,
           WsBox                b,
           const Cell          *cell,
           WsStepState          state,
           guint                row)
{
  const WsFigureStyle *s = ctx->style;
  cairo_t *cr = ctx->cr;
  guint shared = __builtin_popcount (cell->lanes);
  WsRgba hue = state == WS_STEP_SERVING ? s->accent : ws_figure_style_hue (s, row);
  gboolean hover = frame->hover.kind == WS_HIT_WORD && frame->hover.address == cell->word * WS_BANK_BYTES;
  char label[24];

  ws_figure_rounded_rect (ctx, b.x, b.y, b.w, b.h, MIN (3, b.h / 3));
  ws_figure_set_color (ctx, ws_rgba_alpha (hue, state == WS_STEP_PENDING ? 0.18 : 0.9));
  cairo_fill_preserve (cr);
  if (shared > 1 || hover)
    {
      ws_figure_set_color (ctx, hover ? s->foreground : s->broadcast);
      cairo_set_line_width (cr, 2.5 * s->line_width);
      cairo_stroke (cr);
      cairo_set_line_width (cr, s->line_width);
    }
  else
    cairo_new_path (cr);
  if (b.h < 9)
    return;
  if (shared > 1)
    g_snprintf (label, sizeof label, "×%u", shared);
  else
    g_snprintf (label, sizeof label, "%" G_GINT64_FORMAT, cell->word);
  {
    WsTextOptions o = { .ax = 0.5, .ay = 0.5, .flags = WS_TEXT_MONO };
    o.size = ws_figure_fit_text (ctx, label, WS_TEXT_MONO, MIN (s->font_size * 0.8, b.h * 0.75), 5, b.w - 2);
    ws_figure_set_color (ctx, state == WS_STEP_PENDING ? s->foreground
                              : s->kind == WS_FIGURE_STYLE_DARK ? s->background : (WsRgba) { 1, 1, 1, 1 });
    ws_figure_text (ctx, b.x + b.w / 2, b.y + b.h / 2, label, &o, NULL, NULL);
  }
}

static void
draw_connections (WsFigureContext     *ctx,
                  const WsFigureFrame *frame,
                  const WsSchedule    *schedule,
                  const BankLayout    *lay)
{
  const WsWarpResult *r = frame->result;
  const WsFigureStyle *s = ctx->style;
  guint wpl = words_per_lane (r);

  for (guint l = 0; l < WS_WARP_SIZE; l++)
    {
      WsLaneState state = ws_schedule_lane_state (schedule, r, l);
      gboolean hover = frame->hover.kind == WS_HIT_LANE && frame->hover.index == (int) l;

      if (state == WS_LANE_INACTIVE)
        continue;
      for (guint w = 0; w < wpl; w++)
        {
          guint b = ((r->address[l] >> 2) + w) & (WS_N_BANKS - 1);
          const WsBox *lb = &lay->lanes[l], *hb = &lay->header[b];

          ws_figure_connect (ctx, lb->x + lb->w / 2, lb->y + lb->h, hb->x + hb->w / 2, hb->y);
          if (hover || state == WS_LANE_SERVING)
            {
              ws_figure_set_color (ctx, hover ? s->foreground : s->accent);
              cairo_set_line_width (ctx->cr, 2.2 * s->line_width);
            }
          else
            ws_figure_set_color (ctx, ws_rgba_alpha (ws_figure_style_hue (s, MAX (0, schedule->last_step[l])),
                                                     state == WS_LANE_SERVED ? 0.6 : 0.3));
          cairo_stroke (ctx->cr);
          cairo_set_line_width (ctx->cr, s->line_width);
        }
    }
}

static void
draw_packets (WsFigureContext     *ctx,
              const WsFigureFrame *frame,
              const WsSchedule    *schedule,
              const BankLayout    *lay,
              const BankTable     *t)
{
  int row = schedule->current;

  if (row < 0 || row >= (int) t->n_rows)
    return;
  for (guint b = 0; b < WS_N_BANKS; b++)
    {
      const Cell *cell = &t->cells[row][b];
      WsBox cb = cell_box (lay, row, b);

      if (cell->word < 0)
        continue;
      for (guint l = 0; l < WS_WARP_SIZE; l++)
        if (cell->lanes & (1u << l))
          {
            const WsBox *lb = &lay->lanes[l];
            double x0 = cb.x + cb.w / 2, y0 = cb.y, x1 = lb->x + lb->w / 2, y1 = lb->y + lb->h;
            if (ws_figure_flows_up (frame->result))
              ws_figure_packet (ctx, x0, y0, x1, y1, schedule->t, ctx->style->accent);
            else
              ws_figure_packet (ctx, x1, y1, x0, y0, schedule->t, ctx->style->accent);
          }
    }
}

static char *
bank_stats (const WsWarpResult *r,
            const BankTable    *t)
{
  const WsWarpCounts *c = &r->counts;
  guint extra = c->wavefronts - c->ideal_wavefronts;
  gboolean broadcast = FALSE;

  for (guint i = 0; i < t->n_rows; i++)
    for (guint b = 0; b < WS_N_BANKS; b++)
      broadcast |= __builtin_popcount (t->cells[i][b].lanes) > 1;
  if (r->active == 0)
    return g_strdup ("No active lane: this warp makes no access");
  return g_strdup_printf ("%u wavefront%s (%u at best) · %u bank conflict%s · %u-byte accesses%s", c->wavefronts,
                          c->wavefronts == 1 ? "" : "s", c->ideal_wavefronts, extra, extra == 1 ? "" : "s",
                          r->elem_size, broadcast ? " · shared words are broadcast" : "");
}

void
ws_bank_figure_draw (WsFigureContext     *ctx,
                     const WsFigureFrame *frame)
{
  const WsFigureStyle *s = ctx->style;
  const WsWarpResult *r = frame->result;
  g_autofree BankTable *t = g_new (BankTable, 1);
  g_autofree char *stats = NULL;
  BankLayout lay;
  WsSchedule schedule;
  WsRgba served[WS_WARP_SIZE];
  const WsLegendItem legend[] = {
    { ws_figure_style_hue (s, 0), "word delivered" },
    { s->accent, "being served" },
    { s->broadcast, "broadcast to several lanes", TRUE },
    { s->conflict, "bank conflict" },
  };

  bank_table (r, t);
  bank_layout (frame, s, ctx->width, ctx->height, t->n_rows, &lay);
  ws_schedule_init (&schedule, r, frame->position);
  if (frame->layers == WS_FIGURE_LAYERS_PACKETS)
    {
      draw_packets (ctx, frame, &schedule, &lay, t);
      return;
    }
  stats = bank_stats (r, t);
  for (guint l = 0; l < WS_WARP_SIZE; l++)
    served[l] = ws_figure_style_hue (s, MAX (0, schedule.last_step[l]));
  ws_figure_draw_caption (ctx, frame, stats);
  draw_connections (ctx, frame, &schedule, &lay);
  ws_figure_draw_lanes (ctx, frame, &schedule, lay.lanes, served);
  draw_headers (ctx, frame, &lay, t);
  draw_row_labels (ctx, &lay, t, &schedule);
  for (guint i = 0; i < t->n_rows; i++)
    for (guint b = 0; b < WS_N_BANKS; b++)
      if (t->cells[i][b].word >= 0)
        draw_cell (ctx, frame, cell_box (&lay, i, b), &t->cells[i][b], ws_schedule_step_state (&schedule, i), i);
  if (frame->layers == WS_FIGURE_LAYERS_ALL)
    draw_packets (ctx, frame, &schedule, &lay, t);
  ws_figure_draw_legend (ctx, WS_FIGURE_MARGIN, lay.legend_y, ctx->width - 2 * WS_FIGURE_MARGIN, legend,
                         G_N_ELEMENTS (legend));
}

gboolean
ws_bank_figure_hit (const WsFigureFrame *frame,
                    const WsFigureStyle *style,
                    double               width,
                    double               height,
                    double               x,
                    double               y,
                    WsFigureHit         *hit)
{
  g_autofree BankTable *t = g_new (BankTable, 1);
  BankLayout lay;

  bank_table (frame->result, t);
  bank_layout (frame, style, width, height, t->n_rows, &lay);
  if (ws_figure_hit_lane (lay.lanes, frame, x, y, hit))
    return TRUE;
  for (guint b = 0; b < WS_N_BANKS; b++)
    {
      if (ws_box_contains (&lay.header[b], x, y))
        {
          *hit = (WsFigureHit) { WS_HIT_BANK, b, 0, -1 };
          return TRUE;
        }
      for (guint i = 0; i < t->n_rows; i++)
        {
          WsBox cb = cell_box (&lay, i, b);
          if (t->cells[i][b].word >= 0 && ws_box_contains (&cb, x, y))
            {
              *hit = (WsFigureHit) { WS_HIT_WORD, b, t->cells[i][b].word * WS_BANK_BYTES, i };
              return TRUE;
            }
        }
    }
  return FALSE;
}

char *
ws_bank_figure_describe (const WsFigureFrame *frame,
                         const WsFigureHit   *hit)
{
  g_autofree BankTable *t = g_new (BankTable, 1);

  bank_table (frame->result, t);
  if (hit->kind == WS_HIT_BANK)
    {
      guint b = hit->index, n = 0;
      for (guint i = 0; i < t->n_rows; i++)
        n += t->cells[i][b].word >= 0;
      if (n == 0)
        return g_strdup_printf ("Bank %u: no lane needs it", b);
      return g_strdup_printf ("Bank %u: holds words %u, %u, %u, … (word mod 32 = %u)\ndelivers %u word%s here%s", b,
                              b, b + 32, b + 64, b, n, n == 1 ? "" : "s",
                              t->depth[b] > 1 ? ", one per wavefront: a bank conflict" : "");
    }
  if (hit->kind == WS_HIT_WORD && hit->step >= 0 && (guint) hit->step < t->n_rows)
    {
      const Cell *cell = &t->cells[hit->step][hit->index];
      g_autofree char *who = ws_figure_lanes_to_string (cell->lanes);
      return g_strdup_printf ("Word %" G_GINT64_FORMAT " (bytes %" G_GINT64_FORMAT "–%" G_GINT64_FORMAT
                              ") in bank %d\nread by %s%s\nserved in wavefront %d of %u",
                              cell->word, cell->word * 4, cell->word * 4 + 3, hit->index, who,
                              __builtin_popcount (cell->lanes) > 1 ? " (one read, broadcast)" : "",
                              hit->step + 1, t->n_rows);
    }
  return NULL;
}
