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
  WsFigureLayout frame;
  WsIndexRow lanes;
  WsIndexRow header;
  double label_w;            /* the column of row labels */
  double label_size;
  double grid_y;
  double row_h;
  WsFold fold;               /* the wavefronts shown */
  double word_size;          /* the words in the cells; 0 when they do not fit */
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
row_label (const BankTable *t,
           guint            i,
           char            *label,
           gsize            size)
{
  if (t->n_phases > 1)
    /* Translators: a row of the bank table: the phase of the access, then the row within it */
    g_snprintf (label, size, FG_("phase %u · %u"), t->phase[i] + 1, t->rank[i] + 1);
  else
    g_snprintf (label, size, FG_("wavefront %u"), i + 1);
}

static void
cell_label (const Cell *cell,
            char       *label,
            gsize       size)
{
  guint shared = __builtin_popcount (cell->lanes);

  if (shared > 1)
    g_snprintf (label, size, "×%u", shared);
  else
    g_snprintf (label, size, "%" G_GINT64_FORMAT, cell->word);
}

/* The column of row labels: as wide as the widest. */
static double
label_column (WsFigureContext *ctx,
              const BankTable *t,
              double          *size)
{
  WsTextOptions o = { .size = MAX (ctx->style->font_size * 0.9, ctx->style->min_font_size) };
  double widest = 0, w;
  char label[48];

  *size = o.size;
  for (guint i = 0; i < t->n_rows; i++)
    {
      row_label (t, i, label, sizeof label);
      ws_figure_text_size (ctx, label, &o, &w, NULL);
      widest = MAX (widest, w);
    }
  for (guint i = 0; i < 2; i++)
    {
      ws_figure_text_size (ctx, i ? FG_("bank") : FG_("lane"), &o, &w, NULL);
      widest = MAX (widest, w);
    }
  return ceil (widest + ctx->style->font_size * 0.8);
}

/* The words' size: one for every cell, or none when the widest does not fit. */
static double
word_size (WsFigureContext *ctx,
           const BankTable *t,
           double           cell_w)
{
  double size = MAX (ctx->style->font_size * 0.8, ctx->style->min_font_size);
  char label[24];

  for (guint i = 0; i < t->n_rows && size > 0; i++)
    for (guint b = 0; b < WS_N_BANKS && size > 0; b++)
      if (t->cells[i][b].word >= 0)
        {
          cell_label (&t->cells[i][b], label, sizeof label);
          size = MIN (size, ws_figure_fit_text (ctx, label, WS_TEXT_MONO, size, cell_w - 2));
        }
  return size;
}

static char *bank_stats (const WsWarpResult *r, const BankTable *t);
static guint bank_legend (const WsFigureStyle *s, WsLegendItem legend[4]);

static double
lane_height (const WsFigureLayout *f)
{
  return CLAMP (f->content.h * 0.07, 20, 36);
}

static double
band_height (const WsFigureLayout *f)
{
  return CLAMP (f->content.h * 0.16, 28, 120);
}

/* The rows top to bottom, from top: lanes, the curves (band), the banks,
 * the wavefronts (folded to what fits). */
static void
place_rows (WsFigureContext *ctx,
            const BankTable *t,
            BankLayout      *lay,
            double           top,
            double           lane_h,
            double           band,
            double           header_h,
            double           pitch)
{
  const WsFigureStyle *s = ctx->style;
  WsBox c = lay->frame.content, row;
  double avail, min_row = ws_figure_min_row_height (s);

  row = (WsBox) { c.x + lay->label_w, top + ws_figure_index_row_above_at (ctx, c.w - lay->label_w), c.w - lay->label_w,
                  lane_h };
  ws_figure_index_row (ctx, row, &lay->lanes);
  row.y += lane_h + band;
  row.h = header_h;
  ws_figure_index_row (ctx, row, &lay->header);
  lay->grid_y = row.y + header_h + 4;
  avail = c.y + c.h - lay->grid_y;
  ws_fold_init (&lay->fold, t->n_rows, MAX (1, (guint) (avail / min_row)));
  lay->row_h = CLAMP (avail / MAX (1, ws_fold_n_slots (&lay->fold)), min_row, MAX (min_row, MAX (pitch * 1.2, 34)));
}

static void
bank_layout (WsFigureContext     *ctx,
             const WsFigureFrame *frame,
             const BankTable     *t,
             BankLayout          *lay)
{
  const WsFigureStyle *s = ctx->style;
  WsLegendItem legend[4];
  guint n_legend = bank_legend (s, legend);
  g_autofree char *stats = NULL;
  double above;
  double lane_h, header_h, pitch, avail, band, spare, grow, min_row = ws_figure_min_row_height (s);
  WsBox c;

  memset (lay, 0, sizeof *lay);
  lay->label_w = label_column (ctx, t, &lay->label_size);
  /* the words fit or not whatever the height: the caption says which */
  pitch = (ctx->width - 2 * WS_FIGURE_MARGIN - lay->label_w) / WS_N_BANKS;
  lay->word_size = word_size (ctx, t, pitch - MIN (6, MAX (1, pitch * 0.12)));
  stats = bank_stats (frame->result, t);
  ws_figure_layout_frame (ctx, frame, stats, legend, n_legend, &lay->frame);
  c = lay->frame.content;
  above = ws_figure_index_row_above_at (ctx, c.w - lay->label_w);
  lane_h = lane_height (&lay->frame);
  header_h = CLAMP (lane_h * 0.9, 18, 30);
  /* the curves give way to the wavefronts before they fold */
  band = band_height (&lay->frame);
  avail = c.y + c.h - (c.y + above + lane_h + band + header_h + 4);
  if (avail < t->n_rows * min_row)
    band = MAX (28, band - (t->n_rows * min_row - avail));
  place_rows (ctx, t, lay, c.y, lane_h, band, header_h, pitch);
  /* a few wavefronts leave room below them: the curves take some (they
   * read better long), the rest is shared above and below, so that a
   * figure on a slide fills it rather than its top half */
  spare = c.y + c.h - (lay->grid_y + ws_fold_n_slots (&lay->fold) * lay->row_h);
  if (ws_fold_folded (&lay->fold) || spare < 1)
    return;
  grow = MIN (spare, MAX (0, c.h * 0.42 - band));
  place_rows (ctx, t, lay, c.y + floor ((spare - grow) / 2), lane_h, band + grow, header_h, pitch);
}

WsFigureNeeds
ws_bank_figure_needs (WsFigureContext     *ctx,
                      const WsFigureFrame *frame)
{
  const WsFigureStyle *s = ctx->style;
  g_autofree BankTable *t = g_new (BankTable, 1);
  g_autofree BankLayout *lay = g_new (BankLayout, 1);
  double content;

  bank_table (frame->result, t);
  bank_layout (ctx, frame, t, lay);
  content = ws_figure_index_row_above_at (ctx, lay->frame.content.w - lay->label_w) + 20 + 18 + 4;
  return (WsFigureNeeds) { lay->label_w + WS_FIGURE_MIN_ROW_WIDTH + 2 * WS_FIGURE_MARGIN,
                           lay->frame.content.y + content + 28 + MIN (t->n_rows, 3) * ws_figure_min_row_height (s) +
                             lay->frame.bottom,
                           lay->frame.content.y + content + WS_FIGURE_NATURAL_BAND +
                             t->n_rows * ws_figure_min_row_height (s) + lay->frame.bottom };
}

static WsBox
cell_box (const BankLayout *lay,
          guint             slot,
          guint             bank)
{
  const WsBox *h = &lay->header.boxes[bank];
  return (WsBox) { h->x, lay->grid_y + slot * lay->row_h, h->w, lay->row_h - 2 };
}

static void
draw_headers (WsFigureContext     *ctx,
              const WsFigureFrame *frame,
              const BankLayout    *lay,
              const BankTable     *t)
{
  const WsFigureStyle *s = ctx->style;
  WsTextOptions side = { .size = lay->label_size, .ay = 0.5 };
  WsRgba text[WS_N_BANKS];

  for (guint b = 0; b < WS_N_BANKS; b++)
    {
      const WsBox *h = &lay->header.boxes[b];
      gboolean conflict = t->depth[b] > 1;
      gboolean hover = frame->hover.kind == WS_HIT_BANK && frame->hover.index == (int) b;
      WsRgba fill = conflict ? s->conflict : s->surface;

      ws_figure_rounded_rect (ctx, h->x, h->y, h->w, h->h, MIN (3, h->w / 3));
      ws_figure_set_color (ctx, fill);
      cairo_fill_preserve (ctx->cr);
      ws_figure_set_color (ctx, hover ? s->foreground : conflict ? s->conflict : s->grid);
      cairo_set_line_width (ctx->cr, (hover ? 2.5 : 1) * s->line_width);
      cairo_stroke (ctx->cr);
      cairo_set_line_width (ctx->cr, s->line_width);
      text[b] = ws_figure_style_ink_on (s, fill);
    }
  ws_figure_set_color (ctx, s->muted);
  ws_figure_text (ctx, WS_FIGURE_MARGIN, lay->header.boxes[0].y + lay->header.boxes[0].h / 2, FG_("bank"), &side, NULL,
                  NULL);
  ws_figure_draw_index_labels (ctx, &lay->header, text, NULL);
}

static void
draw_row_labels (WsFigureContext  *ctx,
                 const BankLayout *lay,
                 const BankTable  *t,
                 const WsSchedule *schedule)
{
  const WsFigureStyle *s = ctx->style;
  WsTextOptions o = { .size = lay->label_size, .ay = 0.5 };

  for (guint slot = 0; slot < ws_fold_n_slots (&lay->fold); slot++)
    {
      int i = ws_fold_row_of (&lay->fold, slot);
      double y = lay->grid_y + (slot + 0.5) * lay->row_h - 1;
      WsStepState state;
      char label[48];

      if (i < 0)
        continue;
      state = ws_schedule_step_state (schedule, i);
      row_label (t, i, label, sizeof label);
      if (state == WS_STEP_SERVING)
        {
          double w, h;
          o.flags = WS_TEXT_BOLD;
          ws_figure_text_size (ctx, label, &o, &w, &h);
          ws_figure_rounded_rect (ctx, WS_FIGURE_MARGIN - 3, y - h / 2, w + 6, h, 3);
          ws_figure_set_color (ctx, s->accent);
          cairo_fill (ctx->cr);
        }
      else
        o.flags = 0;
      ws_figure_set_color (ctx, state == WS_STEP_SERVING ? ws_figure_style_ink_on (s, s->accent)
                                : state == WS_STEP_DONE ? s->foreground : s->muted);
      ws_figure_text (ctx, WS_FIGURE_MARGIN, y, label, &o, NULL, NULL);
    }
}

static void
draw_cell (WsFigureContext     *ctx,
           const WsFigureFrame *frame,
           const BankLayout    *lay,
           WsBox                b,
           const Cell          *cell,
           WsStepState          state,
           guint                row)
{
  const WsFigureStyle *s = ctx->style;
  cairo_t *cr = ctx->cr;
  guint shared = __builtin_popcount (cell->lanes);
  WsRgba hue = state == WS_STEP_SERVING ? s->accent : ws_figure_style_hue (s, row);
  double alpha = state == WS_STEP_PENDING ? 0.18 : 0.9;
  gboolean hover = frame->hover.kind == WS_HIT_WORD && frame->hover.address == cell->word * WS_BANK_BYTES;
  WsTextOptions o = { .size = lay->word_size, .ax = 0.5, .ay = 0.5, .flags = WS_TEXT_MONO };
  char label[24];

  ws_figure_rounded_rect (ctx, b.x, b.y, b.w, b.h, MIN (3, b.h / 3));
  ws_figure_set_color (ctx, ws_rgba_alpha (hue, alpha));
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
  if (lay->word_size <= 0)
    return;
  cell_label (cell, label, sizeof label);
  ws_figure_set_color (ctx, ws_figure_style_ink_on (s, ws_rgba_mix (s->background, hue, alpha)));
  ws_figure_text (ctx, b.x + b.w / 2, b.y + b.h / 2, label, &o, NULL, NULL);
}

static void
draw_fold (WsFigureContext  *ctx,
           const BankLayout *lay,
           const WsSchedule *schedule)
{
  /* Translators: rows a figure leaves out, as in "⋮ 26 more lines (4–29)" */
  g_autofree char *text = ws_fold_describe_numbered (&lay->fold, FG_("wavefronts"), 1);
  guint slot = lay->fold.head;
  const WsBox *first = &lay->header.boxes[0], *last = &lay->header.boxes[WS_N_BANKS - 1];
  gboolean serving = schedule->current >= (int) lay->fold.head &&
                     schedule->current < (int) (lay->fold.n - lay->fold.tail);
  WsTextOptions o = { .size = lay->label_size, .ax = 0.5, .ay = 0.5, .flags = serving ? WS_TEXT_BOLD : 0 };

  ws_figure_set_color (ctx, serving ? ctx->style->foreground : ctx->style->muted);
  ws_figure_text (ctx, (first->x + last->x + last->w) / 2, lay->grid_y + (slot + 0.5) * lay->row_h - 1, text, &o,
                  NULL, NULL);
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
          const WsBox *lb = &lay->lanes.boxes[l], *hb = &lay->header.boxes[b];

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
      WsBox cb = cell_box (lay, ws_fold_slot_of (&lay->fold, row), b);

      if (cell->word < 0)
        continue;
      for (guint l = 0; l < WS_WARP_SIZE; l++)
        if (cell->lanes & (1u << l))
          {
            const WsBox *lb = &lay->lanes.boxes[l];
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
  GString *s;

  if (r->active == 0)
    return g_strdup (FG_("No active lane: this warp makes no access"));
  s = g_string_new (NULL);
  /* Translators: the wavefronts the access takes, then the fewest it could take */
  g_string_append_printf (s, NG_("%u wavefront (%u at best)", "%u wavefronts (%u at best)", c->wavefronts),
                          c->wavefronts, c->ideal_wavefronts);
  g_string_append (s, " · ");
  g_string_append_printf (s, NG_("%u bank conflict", "%u bank conflicts", extra), extra);
  g_string_append (s, " · ");
  /* Translators: the size of each lane's access in bytes, "4-byte accesses" */
  g_string_append_printf (s, FG_("%u-byte accesses"), r->elem_size);
  if (broadcast)
    g_string_append_printf (s, " · %s", FG_("shared words are broadcast"));
  /* the words' numbers a narrow figure leaves out are in its tooltips: a
   * note on the layout is not for the slide */
  return g_string_free (s, FALSE);
}

/* Cells wear the colour of their wavefront: the legend says so. */
static guint
bank_legend (const WsFigureStyle *s,
             WsLegendItem         legend[4])
{
  guint n = 0;

  legend[n++] = (WsLegendItem) { ws_rgba_alpha (ws_figure_style_hue (s, 0), 0.9),
                                 FG_("word delivered (colour: its wavefront)"), .hues = TRUE };
  if (s->kind != WS_FIGURE_STYLE_PRINT)
    legend[n++] = (WsLegendItem) { s->accent, FG_("being served") };
  legend[n++] = (WsLegendItem) { s->broadcast, FG_("broadcast to several lanes"), TRUE };
  legend[n++] = (WsLegendItem) { s->conflict, FG_("bank conflict") };
  return n;
}

void
ws_bank_figure_draw (WsFigureContext     *ctx,
                     const WsFigureFrame *frame)
{
  const WsFigureStyle *s = ctx->style;
  const WsWarpResult *r = frame->result;
  g_autofree BankTable *t = g_new (BankTable, 1);
  g_autofree BankLayout *lay = g_new (BankLayout, 1);
  g_autofree char *stats = NULL;
  WsSchedule schedule;
  WsRgba served[WS_WARP_SIZE];
  WsLegendItem legend[4];
  guint n_legend = bank_legend (s, legend);

  bank_table (r, t);
  bank_layout (ctx, frame, t, lay);
  ws_schedule_init (&schedule, r, frame->position);
  if (frame->layers == WS_FIGURE_LAYERS_PACKETS)
    {
      draw_packets (ctx, frame, &schedule, lay, t);
      return;
    }
  stats = bank_stats (r, t);
  for (guint l = 0; l < WS_WARP_SIZE; l++)
    served[l] = ws_figure_style_hue (s, MAX (0, schedule.last_step[l]));
  ws_figure_draw_frame (ctx, frame, &lay->frame, stats, legend, n_legend);
  draw_connections (ctx, frame, &schedule, lay);
  ws_figure_draw_lanes (ctx, frame, &schedule, &lay->lanes, served, WS_FIGURE_MARGIN);
  draw_headers (ctx, frame, lay, t);
  draw_row_labels (ctx, lay, t, &schedule);
  for (guint slot = 0; slot < ws_fold_n_slots (&lay->fold); slot++)
    {
      int i = ws_fold_row_of (&lay->fold, slot);

      if (i < 0)
        {
          draw_fold (ctx, lay, &schedule);
          continue;
        }
      for (guint b = 0; b < WS_N_BANKS; b++)
        if (t->cells[i][b].word >= 0)
          draw_cell (ctx, frame, lay, cell_box (lay, slot, b), &t->cells[i][b], ws_schedule_step_state (&schedule, i),
                     i);
    }
  if (frame->layers == WS_FIGURE_LAYERS_ALL)
    draw_packets (ctx, frame, &schedule, lay, t);
}

gboolean
ws_bank_figure_hit (WsFigureContext     *ctx,
                    const WsFigureFrame *frame,
                    double               x,
                    double               y,
                    WsFigureHit         *hit)
{
  g_autofree BankTable *t = g_new (BankTable, 1);
  g_autofree BankLayout *lay = g_new (BankLayout, 1);

  bank_table (frame->result, t);
  bank_layout (ctx, frame, t, lay);
  if (ws_figure_hit_lane (&lay->lanes, frame, x, y, hit))
    return TRUE;
  for (guint b = 0; b < WS_N_BANKS; b++)
    {
      if (ws_box_contains (&lay->header.boxes[b], x, y))
        {
          *hit = (WsFigureHit) { WS_HIT_BANK, b, 0, -1 };
          return TRUE;
        }
      for (guint slot = 0; slot < ws_fold_n_slots (&lay->fold); slot++)
        {
          int i = ws_fold_row_of (&lay->fold, slot);
          WsBox cb = cell_box (lay, slot, b);
          if (i >= 0 && t->cells[i][b].word >= 0 && ws_box_contains (&cb, x, y))
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
      GString *s;

      if (n == 0)
        return g_strdup_printf (FG_("Bank %u: no lane needs it"), b);
      s = g_string_new (NULL);
      /* Translators: a bank, the first three words it holds, and the bank again */
      g_string_append_printf (s, FG_("Bank %u: holds words %u, %u, %u, … (word mod 32 = %u)"), b, b, b + 32, b + 64,
                              b);
      g_string_append_c (s, '\n');
      g_string_append_printf (s, NG_("delivers %u word here", "delivers %u words here", n), n);
      if (t->depth[b] > 1)
        g_string_append (s, FG_(", one per wavefront: a bank conflict"));
      return g_string_free (s, FALSE);
    }
  if (hit->kind == WS_HIT_WORD && hit->step >= 0 && (guint) hit->step < t->n_rows)
    {
      const Cell *cell = &t->cells[hit->step][hit->index];
      g_autofree char *who = ws_figure_lanes_to_string (cell->lanes);
      GString *s = g_string_new (NULL);

      /* Translators: a 4-byte word, its first and last bytes, and its bank */
      g_string_append_printf (s, FG_("Word %lld (bytes %lld–%lld) in bank %d"), (long long) cell->word,
                              (long long) cell->word * 4, (long long) cell->word * 4 + 3, hit->index);
      g_string_append_c (s, '\n');
      /* Translators: the lanes, "lanes 0–3" */
      g_string_append_printf (s, FG_("read by %s"), who);
      if (__builtin_popcount (cell->lanes) > 1)
        g_string_append (s, FG_(" (one read, broadcast)"));
      g_string_append_c (s, '\n');
      /* Translators: the wavefront that serves the word, and the number of wavefronts */
      g_string_append_printf (s, FG_("served in wavefront %d of %u"), hit->step + 1, t->n_rows);
      return g_string_free (s, FALSE);
    }
  return NULL;
}
