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
  WsFigureLayout frame;
  WsIndexRow lanes;
  double label_w;              /* the column of row labels */
  double label_size;
  gboolean long_labels;        /* "word 3 · line @384", else "word 3" */
  double grid_y;
  double row_h;
  guint n_rows;
  gint64 words[MAX_ROWS];      /* the private word each row shows, ascending */
  WsFold fold;
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
row_label (const LocalLayout *lay,
           gint64             word,
           gboolean           long_form,
           char              *label,
           gsize              size)
{
  if (long_form)
    /* Translators: a word of the lane's private array, and the byte its line starts at */
    g_snprintf (label, size, FG_("word %lld · line @%lld"), (long long) word, (long long) word * WS_LINE_BYTES);
  else
    /* Translators: a word of the lane's private array */
    g_snprintf (label, size, FG_("word %lld"), (long long) word);
}

/* The column of row labels: the long form while it takes at most a
 * quarter of the width. */
static void
label_column (WsFigureContext *ctx,
              LocalLayout     *lay,
              double           width)
{
  WsTextOptions o = { .size = lay->label_size, .flags = WS_TEXT_MONO };
  WsTextOptions head = { .size = lay->label_size };
  char label[64];

  for (int long_form = 1; long_form >= 0; long_form--)
    {
      double widest, w;

      ws_figure_text_size (ctx, FG_("private word"), &head, &widest, NULL);
      for (guint i = 0; i < lay->n_rows; i++)
        {
          row_label (lay, lay->words[i], long_form, label, sizeof label);
          ws_figure_text_size (ctx, label, &o, &w, NULL);
          widest = MAX (widest, w);
        }
      lay->long_labels = long_form;
      lay->label_w = ceil (widest + ctx->style->font_size * 0.8);
      if (lay->label_w <= width / 4)
        return;
    }
}

static char *local_stats (const WsWarpResult *r);
static guint local_legend (const WsFigureStyle *s, WsLegendItem legend[3]);

static double
header_height (const LocalLayout *lay)
{
  return ceil (lay->label_size * 1.4) + 6;
}

static void
local_layout (WsFigureContext     *ctx,
              const WsFigureFrame *frame,
              LocalLayout         *lay)
{
  const WsFigureStyle *s = ctx->style;
  g_autofree char *stats = local_stats (frame->result);
  WsLegendItem legend[3];
  guint n_legend = local_legend (s, legend);
  double above, min_row = ws_figure_min_row_height (s);
  double lane_h, avail;
  WsBox c, row;

  memset (lay, 0, sizeof *lay);
  lay->n_rows = touched_words (frame->result, lay->words);
  lay->label_size = MAX (s->font_size * 0.85, s->min_font_size);
  label_column (ctx, lay, ctx->width - 2 * WS_FIGURE_MARGIN);
  ws_figure_layout_frame (ctx, frame, stats, legend, n_legend, &lay->frame);
  c = lay->frame.content;
  above = ws_figure_index_row_above_at (ctx, c.w - lay->label_w);
  lane_h = CLAMP (c.h * 0.07, 20, 36);
  row = (WsBox) { c.x + lay->label_w, c.y + above, c.w - lay->label_w, lane_h };
  ws_figure_index_row (ctx, row, &lay->lanes);
  lay->grid_y = row.y + lane_h + s->font_size * 1.2 + header_height (lay);
  avail = c.y + c.h - lay->grid_y;
  ws_fold_init (&lay->fold, lay->n_rows, MAX (1, (guint) (avail / min_row)));
  lay->row_h = CLAMP (avail / MAX (1, ws_fold_n_slots (&lay->fold)), min_row, MAX (min_row, 40));
}

WsFigureNeeds
ws_local_figure_needs (WsFigureContext     *ctx,
                       const WsFigureFrame *frame)
{
  const WsFigureStyle *s = ctx->style;
  g_autofree LocalLayout *lay = g_new (LocalLayout, 1);
  double content;

  local_layout (ctx, frame, lay);
  content = lay->frame.content.y + ws_figure_index_row_above_at (ctx, lay->frame.content.w - lay->label_w) + 20 + s->font_size * 1.2 + header_height (lay) +
            lay->frame.bottom;
  /* the short labels take at most a quarter */
  return (WsFigureNeeds) { MAX (WS_FIGURE_MIN_ROW_WIDTH / 0.75, WS_FIGURE_MIN_ROW_WIDTH + lay->label_w) +
                             2 * WS_FIGURE_MARGIN,
                           content + MIN (lay->n_rows, 3) * ws_figure_min_row_height (s),
                           content + lay->n_rows * ws_figure_min_row_height (s) };
}

static WsBox
slot_box (const LocalLayout *lay,
          guint              row,
          guint              lane)
{
  const WsBox *b = lay->lanes.boxes;
  double pitch = b[1].x - b[0].x;
  /* lanes of one sector sit together: no gap inside a sector's 8 slots */
  return (WsBox) { b[0].x - (pitch - b[0].w) / 2 + lane * pitch, lay->grid_y + row * lay->row_h, pitch,
                   lay->row_h - 2 };
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
          guint                slot,
          guint                row)
{
  const WsFigureStyle *s = ctx->style;
  const WsWarpResult *r = frame->result;
  gint64 word = lay->words[row];
  WsBox first = slot_box (lay, slot, 0);
  WsTextOptions o = { .size = lay->label_size, .ay = 0.5, .flags = WS_TEXT_MONO };
  char label[64];

  for (guint l = 0; l < WS_WARP_SIZE; l++)
    {
      WsBox b = slot_box (lay, slot, l);
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
  row_label (lay, word, lay->long_labels, label, sizeof label);
  ws_figure_set_color (ctx, s->muted);
  ws_figure_text (ctx, WS_FIGURE_MARGIN, first.y + first.h / 2, label, &o, NULL, NULL);
}

static void
draw_fold (WsFigureContext   *ctx,
           const LocalLayout *lay)
{
  /* Translators: rows a figure leaves out, as in "⋮ 26 more lines (4–29)" */
  g_autofree char *text = ws_fold_describe_numbered (&lay->fold, FG_("words"), 0);
  WsBox first = slot_box (lay, lay->fold.head, 0), last = slot_box (lay, lay->fold.head, WS_WARP_SIZE - 1);
  WsTextOptions o = { .size = lay->label_size, .ax = 0.5, .ay = 0.5 };

  ws_figure_set_color (ctx, ctx->style->muted);
  ws_figure_text (ctx, (first.x + last.x + last.w) / 2, first.y + first.h / 2, text, &o, NULL, NULL);
}

static void
draw_sector_header (WsFigureContext   *ctx,
                    const LocalLayout *lay)
{
  const WsFigureStyle *s = ctx->style;
  WsTextOptions o = { .size = lay->label_size, .ax = 0.5, .ay = 1 };
  WsTextOptions left = { .size = lay->label_size, .ay = 1 };
  WsBox first = slot_box (lay, 0, 0);
  double y = lay->grid_y - 4;

  ws_figure_set_color (ctx, s->muted);
  ws_figure_text (ctx, WS_FIGURE_MARGIN, y, FG_("private word"), &left, NULL, NULL);
  for (guint k = 0; k < 4; k++)
    {
      /* Translators: a sector of the 128-byte line, 0 to 3 */
      static const char *forms[] = { N_("sector %u of the line"), N_("sector %u"), "%u" };
      char label[64];
      double x0 = first.x + k * 8 * first.w, x1 = x0 + 8 * first.w;
      double w;

      /* the longest form that fits */
      for (guint f = 0; f < G_N_ELEMENTS (forms); f++)
        {
          g_snprintf (label, sizeof label, f + 1 < G_N_ELEMENTS (forms) ? FG_(forms[f]) : forms[f], k);
          ws_figure_text_size (ctx, label, &o, &w, NULL);
          if (w <= x1 - x0 - 6)
            break;
        }
      ws_figure_text (ctx, (x0 + x1) / 2, y, label, &o, NULL, NULL);
      cairo_move_to (ctx->cr, x0 + 3, y + 1.5);
      cairo_line_to (ctx->cr, x1 - 3, y + 1.5);
      cairo_stroke (ctx->cr);
    }
}

static char *
local_stats (const WsWarpResult *r)
{
  const WsWarpCounts *c = &r->counts;

  GString *s = g_string_new (NULL);

  /* Translators: where local memory keeps a lane's word; w and l stand for the word and the lane */
  g_string_append (s, FG_("word w of lane l at (w × 32 + l) × 4"));
  g_string_append (s, " · ");
  g_string_append_printf (s, NG_("%u request", "%u requests", c->requests), c->requests);
  g_string_append (s, " · ");
  g_string_append_printf (s, NG_("%u line", "%u lines", c->lines), c->lines);
  g_string_append (s, " · ");
  g_string_append_printf (s, NG_("%u replay", "%u replays", c->replays), c->replays);
  return g_string_free (s, FALSE);
}

static guint
local_legend (const WsFigureStyle *s,
              WsLegendItem         legend[3])
{
  guint n = 0;

  legend[n++] = (WsLegendItem) { ws_rgba_alpha (ws_figure_style_hue (s, 0), 0.95),
                                 FG_("slot read (colour: the step that reads it)"), .hues = TRUE };
  if (s->kind != WS_FIGURE_STYLE_PRINT)
    legend[n++] = (WsLegendItem) { s->accent, FG_("being served") };
  legend[n++] = (WsLegendItem) { s->surface, FG_("other lanes' slots") };
  return n;
}

void
ws_local_figure_draw (WsFigureContext     *ctx,
                      const WsFigureFrame *frame)
{
  const WsFigureStyle *s = ctx->style;
  const WsWarpResult *r = frame->result;
  g_autofree LocalLayout *lay = g_new (LocalLayout, 1);
  g_autofree char *stats = local_stats (r);
  WsSchedule schedule;
  WsRgba served[WS_WARP_SIZE];
  WsLegendItem legend[3];
  guint n_legend = local_legend (s, legend);

  /* nothing moves between steps here */
  if (frame->layers == WS_FIGURE_LAYERS_PACKETS)
    return;

  local_layout (ctx, frame, lay);
  ws_schedule_init (&schedule, r, frame->position);
  for (guint l = 0; l < WS_WARP_SIZE; l++)
    served[l] = ws_figure_style_hue (s, MAX (0, schedule.last_step[l]));
  ws_figure_draw_frame (ctx, frame, &lay->frame, stats, legend, n_legend);
  ws_figure_draw_lanes (ctx, frame, &schedule, &lay->lanes, served, WS_FIGURE_MARGIN);
  if (lay->n_rows > 0)
    draw_sector_header (ctx, lay);
  for (guint slot = 0; slot < ws_fold_n_slots (&lay->fold); slot++)
    {
      int i = ws_fold_row_of (&lay->fold, slot);
      if (i < 0)
        draw_fold (ctx, lay);
      else
        draw_row (ctx, frame, &schedule, lay, slot, i);
    }
}

gboolean
ws_local_figure_hit (WsFigureContext     *ctx,
                     const WsFigureFrame *frame,
                     double               x,
                     double               y,
                     WsFigureHit         *hit)
{
  g_autofree LocalLayout *lay = g_new (LocalLayout, 1);

  local_layout (ctx, frame, lay);
  if (ws_figure_hit_lane (&lay->lanes, frame, x, y, hit))
    return TRUE;
  for (guint slot = 0; slot < ws_fold_n_slots (&lay->fold); slot++)
    {
      int i = ws_fold_row_of (&lay->fold, slot);
      for (guint l = 0; i >= 0 && l < WS_WARP_SIZE; l++)
        {
          WsBox b = slot_box (lay, slot, l);
          if (ws_box_contains (&b, x, y))
            {
              int step = lane_uses_word (frame->result, l, lay->words[i])
                           ? step_of (frame->result, (lay->words[i] * WS_WARP_SIZE + l) * 4, l) : -1;
              *hit = (WsFigureHit) { WS_HIT_SLOT, l, lay->words[i], step };
              return TRUE;
            }
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
  /* Translators: the word and the lane; the byte in the warp's slice, its
   * 128-byte line and its sector (0 to 3) in the line; whether it is read */
  return g_strdup_printf (FG_("Word %lld of lane %d's private array\nbyte %lld of the warp's slice: line %lld, "
                            "sector %lld\n%s"),
                          (long long) hit->address, hit->index, (long long) slice, (long long) hit->address,
                          (long long) ((slice % WS_LINE_BYTES) / WS_SECTOR_BYTES),
                          hit->step >= 0 ? FG_("read by this instruction") : FG_("not read by this instruction"));
}
