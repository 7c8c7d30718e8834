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
  int line;                /* the line it shows (an index into lines), -1 for the fold */
  WsBox box;
} LineSlot;

typedef struct
{
  WsFigureLayout frame;
  WsIndexRow lanes;
  guint n_lines;
  gint64 lines[MAX_LINES];  /* every line the warp touches, ascending */
  WsFold fold;              /* the lines shown, when not all fit */
  guint n_slots;
  LineSlot slots[MAX_LINES];
  double label_size;        /* the addresses under the lines; 0: none */
  double label_h;
  const char *plate;        /* what the lines are, above them */
  double plate_size;
  WsBox message;            /* registers: where the explanation goes */
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

#define MIN_LINE_W 80.0
#define MAX_LINE_W 280.0

/* Lines no lower than a step number at the smallest size needs. */
static double
min_line_height (const WsFigureStyle *s)
{
  return ceil (s->min_font_size * 1.5) + 2;
}

static double
line_gap (const WsFigureStyle *s)
{
  return ceil (s->font_size * 1.5);
}

/* Whether slot i continues the line in slot i - 1, with no gap between them. */
static gboolean
contiguous (const WarpLayout *lay,
            guint             i)
{
  int a = lay->slots[i - 1].line, b = lay->slots[i].line;

  return a >= 0 && b >= 0 && lay->lines[b] == lay->lines[a] + WS_LINE_BYTES;
}

/* One row of slots, centred, with a gap where lines are not contiguous
 * (or where the fold stands). */
static void
place_row (WarpLayout *lay,
           guint       first,
           guint       last,
           double      x0,
           double      width,
           double      y,
           double      line_w,
           double      line_h,
           double      gap)
{
  double row_w = 0, x;

  for (guint i = first; i < last; i++)
    row_w += line_w + (i > first && !contiguous (lay, i) ? gap : 0);
  x = x0 + (width - row_w) / 2;
  for (guint i = first; i < last; i++)
    {
      if (i > first && !contiguous (lay, i))
        x += gap;
      lay->slots[i].box = (WsBox) { x, y, line_w, line_h };
      x += line_w;
    }
}

static guint
lines_per_row (double width,
               double gap)
{
  return MAX (1, (guint) ((width + gap) / (MIN_LINE_W + gap)));
}

static double
row_pitch_min (const WarpLayout    *lay,
               const WsFigureStyle *s)
{
  return min_line_height (s) + lay->label_h + ceil (s->font_size * 0.6);
}

static void
place_lines (WarpLayout          *lay,
             WsBox                area,
             const WsFigureStyle *s)
{
  double gap = line_gap (s), gap_h = ceil (s->font_size * 0.6);
  guint per_row = lines_per_row (area.w, gap);
  guint rows_fit = MAX (1, (guint) ((area.h + gap_h) / row_pitch_min (lay, s)));
  guint rows;
  double line_w, line_h, pitch;

  ws_fold_init (&lay->fold, lay->n_lines, per_row * rows_fit);
  lay->n_slots = ws_fold_n_slots (&lay->fold);
  for (guint i = 0; i < lay->n_slots; i++)
    lay->slots[i].line = ws_fold_row_of (&lay->fold, i);
  per_row = MIN (per_row, MAX (1, lay->n_slots));
  rows = (lay->n_slots + per_row - 1) / per_row;
  line_w = MIN (MAX_LINE_W, (area.w - (per_row - 1) * gap) / per_row);
  pitch = rows > 0 ? area.h / rows : area.h;
  line_h = CLAMP (pitch - lay->label_h - gap_h, min_line_height (s), MAX (min_line_height (s), MIN (96, line_w * 0.45)));
  for (guint row = 0, first = 0; row < rows; row++, first += per_row)
    place_row (lay, first, MIN (first + per_row, lay->n_slots), area.x, area.w, area.y + row * pitch, line_w, line_h,
               gap);
}

/* above the lines, followed by their byte addresses; the longest that fits */
static const char *plates[2][3] = {
  { N_("128-byte lines, 4 sectors of 32 bytes each, at byte"), N_("128-byte lines of 4 sectors, at byte"),
    N_("lines, at byte") },
  { N_("128-byte lines of the warp's local slice, 4 sectors each, at byte"), N_("lines of the local slice, at byte"),
    N_("lines, at byte") },
};

static void
choose_plate (WsFigureContext    *ctx,
              const WsWarpResult *r,
              WarpLayout         *lay)
{
  const char *const *texts = plates[r->space == WS_SPACE_LOCAL];
  double wanted = ctx->style->font_size * 0.9;

  for (guint i = 0; i < 3; i++)
    {
      lay->plate = FG_(texts[i]);
      lay->plate_size = ws_figure_fit_text (ctx, lay->plate, 0, wanted, ctx->width - 2 * WS_FIGURE_MARGIN);
      if (lay->plate_size > 0)
        return;
    }
  lay->plate_size = ctx->style->min_font_size;
}

static char *warp_stats (const WsWarpResult *r);
static guint warp_legend (const WsFigureStyle *s, WsLegendItem legend[4]);

static double
lane_height (const WsFigureLayout *f)
{
  return CLAMP (f->content.h * 0.08, 20, 40);
}

static double
band_height (const WsFigureLayout *f)
{
  return CLAMP (f->content.h * 0.22, 32, 180);
}

static double
plate_height (const WarpLayout *lay)
{
  return ceil (lay->plate_size * 1.5);
}

static void
warp_layout (WsFigureContext     *ctx,
             const WsFigureFrame *frame,
             WarpLayout          *lay)
{
  const WsFigureStyle *s = ctx->style;
  g_autofree char *stats = warp_stats (frame->result);
  WsLegendItem legend[4];
  guint n_legend = warp_legend (s, legend);
  double above;
  WsBox c, mem;
  double lane_h, band;

  memset (lay, 0, sizeof *lay);
  ws_figure_layout_frame (ctx, frame, stats, legend, n_legend, &lay->frame);
  c = lay->frame.content;
  above = ws_figure_index_row_above_at (ctx, c.w);
  lane_h = lane_height (&lay->frame);
  ws_figure_index_row (ctx, (WsBox) { c.x, c.y + above, c.w, lane_h }, &lay->lanes);
  if (frame->result->space == WS_SPACE_REGISTER)
    {
      double y = c.y + above + lane_h;
      lay->message = (WsBox) { c.x, y, c.w, c.y + c.h - y };
      return;
    }
  choose_plate (ctx, frame->result, lay);
  lay->label_size = MAX (s->font_size * 0.85, s->min_font_size);
  lay->label_h = ceil (lay->label_size * 1.4);
  lay->n_lines = touched_lines (frame->result, lay->lines);
  mem.x = c.x;
  mem.w = c.w;
  /* the curves give way to the lines before they fold */
  band = band_height (&lay->frame);
  {
    guint per_row = lines_per_row (mem.w, line_gap (s));
    double need = ((lay->n_lines + per_row - 1) / per_row) * row_pitch_min (lay, s);
    double avail = c.y + c.h - (c.y + above + lane_h + band + plate_height (lay));
    if (avail < need)
      band = MAX (32, band - (need - avail));
  }
  mem.y = c.y + above + lane_h + band + plate_height (lay);
  mem.h = MAX (1, c.y + c.h - mem.y);
  place_lines (lay, mem, s);
}

#define REGISTERS_MESSAGE                                                                                        \
  FG_("Every index is known when the kernel is compiled, so the array lives in registers: no memory instruction, " \
  "no sectors, nothing to wait for.")

WsFigureNeeds
ws_warp_figure_needs (WsFigureContext     *ctx,
                      const WsFigureFrame *frame)
{
  const WsFigureStyle *s = ctx->style;
  /* room for three lines side by side: one, the fold, and the last */
  double width = MAX (WS_FIGURE_MIN_ROW_WIDTH, 3 * MIN_LINE_W + 2 * line_gap (s)) + 2 * WS_FIGURE_MARGIN;
  WarpLayout lay;
  double content;

  guint per_row;

  warp_layout (ctx, frame, &lay);
  content = lay.frame.content.y + ws_figure_index_row_above_at (ctx, lay.frame.content.w) + 20 + lay.frame.bottom;
  if (frame->result->space == WS_SPACE_REGISTER)
    {
      content += ws_figure_message_height (ctx, lay.frame.content.w, REGISTERS_MESSAGE) + s->font_size;
      return (WsFigureNeeds) { width, content, content };
    }
  content += plate_height (&lay);
  per_row = lines_per_row (lay.frame.content.w, line_gap (s));
  return (WsFigureNeeds) { width, content + 32 + row_pitch_min (&lay, s),
                           content + WS_FIGURE_NATURAL_BAND +
                             (lay.n_lines + per_row - 1) / per_row * row_pitch_min (&lay, s) };
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
draw_step_number (WsFigureContext *ctx,
                  WsBox            b,
                  int              step,
                  WsStepState      state)
{
  const WsFigureStyle *s = ctx->style;
  WsTextOptions o = { .flags = WS_TEXT_BOLD, .ax = 0.5, .ay = 0.5 };
  char label[16];

  g_snprintf (label, sizeof label, "%d", step + 1);
  o.size = ws_figure_fit_text (ctx, label, o.flags, MIN (s->font_size * 0.85, (b.h - 2) / 1.5), b.w - 6);
  /* no room: the tooltip says it */
  if (o.size <= 0 || b.h < o.size * 1.4)
    return;
  /* a step number on a plate, so that it reads over any fill */
  ws_figure_rounded_rect (ctx, b.x + 2, b.y + b.h / 2 - o.size * 0.7, b.w - 4, o.size * 1.4, 3);
  ws_figure_set_color (ctx, ws_rgba_alpha (s->background, 0.85));
  cairo_fill (ctx->cr);
  ws_figure_set_color (ctx, state == WS_STEP_PENDING ? s->muted : s->foreground);
  ws_figure_text (ctx, b.x + b.w / 2, b.y + b.h / 2, label, &o, NULL, NULL);
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
  draw_step_number (ctx, b, info.first_step, state);
}

static WsBox
sector_box (const LineSlot *slot,
            guint           k)
{
  double sw = slot->box.w / SECTORS_PER_LINE;
  return (WsBox) { slot->box.x + k * sw, slot->box.y, sw, slot->box.h };
}

static void
draw_fold (WsFigureContext  *ctx,
           const WarpLayout *lay,
           const LineSlot   *slot)
{
  /* Translators: rows a figure leaves out, as in "⋮ 26 more lines (4–29)" */
  g_autofree char *text = ws_fold_describe_numbered (&lay->fold, FG_("lines"), 1);
  WsTextOptions o = { .size = lay->label_size, .ax = 0.5, .ay = 0.5, .max_width = slot->box.w, .wrap = TRUE };

  double w, h, cx = slot->box.x + slot->box.w / 2, cy = slot->box.y + (slot->box.h + lay->label_h) / 2;

  pango_layout_set_alignment (ctx->layout, PANGO_ALIGN_CENTER);
  /* on a plate: the curves to the folded lines end behind it */
  ws_figure_text_size (ctx, text, &o, &w, &h);
  ws_figure_rounded_rect (ctx, cx - w / 2 - 4, cy - h / 2 - 2, w + 8, h + 4, 4);
  ws_figure_set_color (ctx, ctx->style->background);
  cairo_fill_preserve (ctx->cr);
  ws_figure_set_color (ctx, ctx->style->grid);
  cairo_set_dash (ctx->cr, (double[]) { 3, 3 }, 2, 0);
  cairo_stroke (ctx->cr);
  cairo_set_dash (ctx->cr, NULL, 0, 0);
  ws_figure_set_color (ctx, ctx->style->muted);
  ws_figure_text (ctx, cx, cy, text, &o, NULL, NULL);
  pango_layout_set_alignment (ctx->layout, PANGO_ALIGN_LEFT);
}

static void
draw_lines (WsFigureContext     *ctx,
            const WsFigureFrame *frame,
            const WsSchedule    *schedule,
            const WarpLayout    *lay)
{
  const WsFigureStyle *s = ctx->style;
  WsTextOptions o = { .size = lay->label_size, .flags = WS_TEXT_MONO, .ay = 0 };

  for (guint i = 0; i < lay->n_slots; i++)
    {
      const LineSlot *slot = &lay->slots[i];
      gint64 address;
      gboolean hover;
      char label[32];

      if (slot->line < 0)
        {
          draw_fold (ctx, lay, slot);
          continue;
        }
      address = lay->lines[slot->line];
      hover = frame->hover.kind == WS_HIT_LINE && frame->hover.address == address;
      for (guint k = 0; k < SECTORS_PER_LINE; k++)
        draw_sector (ctx, frame, schedule, sector_box (slot, k), address + k * WS_SECTOR_BYTES);
      ws_figure_rounded_rect (ctx, slot->box.x - 1, slot->box.y - 1, slot->box.w + 2, slot->box.h + 2, 3);
      ws_figure_set_color (ctx, hover ? s->accent : s->foreground);
      cairo_set_line_width (ctx->cr, 1.5 * s->line_width);
      cairo_stroke (ctx->cr);
      cairo_set_line_width (ctx->cr, s->line_width);
      g_snprintf (label, sizeof label, "%" G_GINT64_FORMAT, address);
      o.size = ws_figure_fit_text (ctx, label, WS_TEXT_MONO, lay->label_size, slot->box.w);
      ws_figure_set_color (ctx, s->muted);
      if (o.size > 0)
        ws_figure_text (ctx, slot->box.x, slot->box.y + slot->box.h + 3, label, &o, NULL, NULL);
      if (i > 0 && lay->slots[i - 1].line >= 0 && !contiguous (lay, i) && slot->box.y == lay->slots[i - 1].box.y)
        {
          WsTextOptions g = { .size = s->font_size, .ax = 0.5, .ay = 0.5, .flags = WS_TEXT_BOLD };
          const WsBox *prev = &lay->slots[i - 1].box;
          ws_figure_text (ctx, (prev->x + prev->w + slot->box.x) / 2, slot->box.y + slot->box.h / 2, "⋯", &g, NULL,
                          NULL);
        }
    }
}

/* The slot that shows the line of an address: its own, or the fold. */
static const LineSlot *
find_slot (const WarpLayout *lay,
           gint64            address)
{
  gint64 line = address & ~(gint64) (WS_LINE_BYTES - 1);

  for (guint i = 0; i < lay->n_lines; i++)
    if (lay->lines[i] == line)
      return &lay->slots[ws_fold_slot_of (&lay->fold, i)];
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
      const WsBox *lb = &lay->lanes.boxes[l];

      if (!(r->active & (1u << l)))
        continue;
      k = lane_spans (r, l, start, &len);
      for (guint i = 0; i < k; i++)
        {
          const LineSlot *slot = find_slot (lay, start[i]);
          int step = step_of_span (r, l, start[i]);
          WsStepState state = step >= 0 ? ws_schedule_step_state (schedule, step) : WS_STEP_PENDING;
          gboolean hover = frame->hover.kind == WS_HIT_LANE && frame->hover.index == (int) l;
          double x0 = lb->x + lb->w / 2, y0 = lb->y + lb->h;
          double x1, y1;

          if (slot == NULL)
            continue;
          if (slot->line >= 0)
            x1 = slot->box.x + slot->box.w * ((start[i] - lay->lines[slot->line]) + len / 2.0) / WS_LINE_BYTES;
          else
            x1 = slot->box.x + slot->box.w / 2;
          y1 = slot->box.y;
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

  GString *s;

  if (r->space == WS_SPACE_REGISTER)
    return g_strdup (FG_("No memory instruction: the value is in registers"));
  if (r->active == 0)
    return g_strdup (FG_("No active lane: this warp makes no access"));
  if (r->kind == WS_ACCESS_ATOMIC)
    {
      /* one count, one plural: "1 sector visit · 8 distinct addresses · up to 4 lanes on one address" */
      s = g_string_new (NULL);
      g_string_append_printf (s, NG_("%u sector visit", "%u sector visits", c->sectors), c->sectors);
      g_string_append (s, " · ");
      g_string_append_printf (s, NG_("%u distinct address", "%u distinct addresses", c->distinct_addresses),
                              c->distinct_addresses);
      g_string_append (s, " · ");
      /* Translators: the most lanes that update one address */
      g_string_append_printf (s, NG_("up to %u lane on one address", "up to %u lanes on one address", c->atomic_depth),
                              c->atomic_depth);
      return g_string_free (s, FALSE);
    }
  s = g_string_new (NULL);
  if (r->space == WS_SPACE_LOCAL)
    {
      g_string_append_printf (s, NG_("%u request", "%u requests", c->requests), c->requests);
      g_string_append (s, " · ");
      /* Translators: the sectors moved, and the 128-byte lines they are in */
      g_string_append_printf (s, FG_("%u sectors in %u lines"), c->sectors, c->lines);
      g_string_append (s, " · ");
      g_string_append_printf (s, NG_("%u replay", "%u replays", c->replays), c->replays);
    }
  else
    {
      /* Translators: the sectors moved; "in %u line(s)" follows */
      g_string_append_printf (s, NG_("%u sector", "%u sectors", c->sectors), c->sectors);
      g_string_append_c (s, ' ');
      /* Translators: follows "%u sector(s)": the 128-byte lines they are in */
      g_string_append_printf (s, NG_("in %u line", "in %u lines", c->lines), c->lines);
    }
  g_string_append (s, " · ");
  /* Translators: bytes moved from memory, then bytes the lanes asked for */
  g_string_append_printf (s, FG_("%u B moved for %u B asked"), c->bytes_moved, c->bytes_requested);
  if (r->space != WS_SPACE_LOCAL)
    {
      g_string_append (s, " · ");
      /* Translators: the share of the bytes moved that a lane asked for; "%%" is a percent sign */
      g_string_append_printf (s, FG_("%.1f %% coalesced"),
                              c->bytes_moved ? 100.0 * c->bytes_requested / c->bytes_moved : 0.0);
    }
  return g_string_free (s, FALSE);
}

/* Sectors wear the colour of the step that moves them: the legend says so
 * with the first hues, not one of them. */
static guint
warp_legend (const WsFigureStyle *s,
             WsLegendItem         legend[4])
{
  guint n = 0;

  legend[n++] = (WsLegendItem) { ws_figure_style_hue (s, 0), FG_("asked for (colour: the step that moves it)"),
                                 .hues = TRUE };
  legend[n++] = (WsLegendItem) { ws_rgba_alpha (ws_figure_style_hue (s, 0), 0.28), FG_("moved, not asked for"),
                                 .hues = TRUE };
  /* print shows every step served: nothing is being served */
  if (s->kind != WS_FIGURE_STYLE_PRINT)
    legend[n++] = (WsLegendItem) { s->accent, FG_("being served") };
  legend[n++] = (WsLegendItem) { s->grid, FG_("not moved"), TRUE };
  return n;
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
  g_autofree WarpLayout *lay = g_new (WarpLayout, 1);
  WsSchedule schedule;
  WsRgba served[WS_WARP_SIZE];
  WsLegendItem legend[4];
  guint n_legend = warp_legend (s, legend);

  warp_layout (ctx, frame, lay);
  ws_schedule_init (&schedule, r, frame->position);
  if (frame->layers == WS_FIGURE_LAYERS_PACKETS)
    {
      draw_connections (ctx, frame, &schedule, lay, TRUE);
      return;
    }
  lane_hues (s, &schedule, served);
  ws_figure_draw_frame (ctx, frame, &lay->frame, stats, legend, n_legend);
  if (r->space == WS_SPACE_REGISTER)
    {
      for (guint l = 0; l < WS_WARP_SIZE; l++)
        served[l] = s->surface;
      ws_figure_draw_lanes (ctx, frame, &schedule, &lay->lanes, served, -1);
      ws_figure_draw_message (ctx, lay->message, REGISTERS_MESSAGE);
      return;
    }
  draw_connections (ctx, frame, &schedule, lay, FALSE);
  ws_figure_draw_lanes (ctx, frame, &schedule, &lay->lanes, served, -1);
  if (lay->n_slots > 0)
    {
      WsTextOptions o = { .size = lay->plate_size, .ay = 1 };
      ws_figure_plate_text (ctx, WS_FIGURE_MARGIN, lay->slots[0].box.y - 4, lay->plate, &o);
    }
  draw_lines (ctx, frame, &schedule, lay);
  if (frame->layers == WS_FIGURE_LAYERS_ALL)
    draw_connections (ctx, frame, &schedule, lay, TRUE);
}

gboolean
ws_warp_figure_hit (WsFigureContext     *ctx,
                    const WsFigureFrame *frame,
                    double               x,
                    double               y,
                    WsFigureHit         *hit)
{
  g_autofree WarpLayout *lay = g_new (WarpLayout, 1);

  warp_layout (ctx, frame, lay);
  if (ws_figure_hit_lane (&lay->lanes, frame, x, y, hit))
    return TRUE;
  for (guint i = 0; i < lay->n_slots; i++)
    {
      const LineSlot *slot = &lay->slots[i];
      WsBox label = { slot->box.x, slot->box.y + slot->box.h, slot->box.w, lay->label_h };
      gint64 address;

      if (slot->line < 0)
        continue;
      address = lay->lines[slot->line];
      for (guint k = 0; k < SECTORS_PER_LINE; k++)
        {
          WsBox b = sector_box (slot, k);
          if (ws_box_contains (&b, x, y))
            {
              SectorInfo info;
              gint64 sector = address + k * WS_SECTOR_BYTES;
              sector_info (frame->result, sector, &info);
              *hit = (WsFigureHit) { WS_HIT_SECTOR, k, sector, info.first_step };
              return TRUE;
            }
        }
      if (ws_box_contains (&label, x, y))
        {
          *hit = (WsFigureHit) { WS_HIT_LINE, slot->line, address, -1 };
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
    /* Translators: the line's first and last bytes */
    return g_strdup_printf (FG_("128-byte line at bytes %lld–%lld\nfour 32-byte sectors; only the sectors a lane needs "
                              "are moved"),
                            (long long) hit->address, (long long) hit->address + WS_LINE_BYTES - 1);
  if (hit->kind != WS_HIT_SECTOR)
    return NULL;
  sector_info (r, hit->address, &info);
  if (info.first_step < 0)
    /* Translators: the sector's first and last bytes */
    return g_strdup_printf (FG_("Sector at bytes %lld–%lld\nno lane asks for it, so it is not moved"),
                            (long long) hit->address, (long long) hit->address + WS_SECTOR_BYTES - 1);
  for (int i = info.first_step; i <= info.last_step; i++)
    if (ws_warp_result_step (r, i)->address == hit->address)
      lanes |= ws_warp_result_step (r, i)->lanes;
  who = ws_figure_lanes_to_string (lanes);
  when = ws_figure_step_to_string (info.first_step);
  /* Translators: the sector's first and last bytes; the bytes asked for and
   * the lanes that ask ("lanes 0–7"); when it is served ("served in step 2")
   * and the number of steps */
  return g_strdup_printf (FG_("Sector at bytes %lld–%lld\n%d of its 32 bytes asked for, by %s\n%s of %u"),
                          (long long) hit->address, (long long) hit->address + WS_SECTOR_BYTES - 1,
                          __builtin_popcount (info.asked), who, when, r->steps->len);
}
