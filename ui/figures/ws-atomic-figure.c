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
  WsFigureLayout frame;
  WsIndexRow lanes;
  double label_w;
  double label_size;
  double x;                    /* the left of the first panel */
  double panel_w;              /* a panel: an address column and its cells */
  guint n_panels;              /* many addresses of few lanes stand side by side */
  guint per_panel;             /* slots in a panel */
  double grid_y;
  double cell_w;
  double row_h;
  double lane_size;            /* the lanes' numbers in the cells; 0 when they do not fit */
  guint every;                 /* the columns numbered: every this many */
  const char *order;           /* what the columns are */
  WsFold fold;                 /* the addresses shown */
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

static double
label_column (WsFigureContext   *ctx,
              const AtomicTable *t,
              double             size)
{
  WsTextOptions o = { .size = size, .flags = WS_TEXT_MONO };
  double widest, w;
  char label[32];

  ws_figure_text_size (ctx, FG_("address (byte)"), &(WsTextOptions) { .size = size }, &widest, NULL);
  for (guint i = 0; i < t->n_rows; i++)
    {
      g_snprintf (label, sizeof label, "%" G_GINT64_FORMAT, t->address[i]);
      ws_figure_text_size (ctx, label, &o, &w, NULL);
      widest = MAX (widest, w);
    }
  return ceil (widest + ctx->style->font_size * 0.8);
}

static double
header_height (const AtomicLayout *lay)
{
  return 2 * ceil (lay->label_size * 1.4) + 6;
}

static char *atomic_stats (const WsWarpResult *r, const AtomicTable *t);

#define PANEL_GAP 24.0
#define MIN_CELL 56.0

/* Many addresses of few lanes each (an update per thread) stand in panels
 * side by side, read like a newspaper's columns, rather than one tall
 * column beside an empty slide: as many panels as make the rows and cells
 * largest, none folded away that a panel more would show. */
static void
choose_panels (const AtomicTable *t,
               AtomicLayout      *lay,
               double             width,
               double             avail,
               double             min_row)
{
  guint depth = MAX (1, t->depth), rows = MAX (1, t->n_rows);
  guint fit = MAX (1, (guint) (avail / min_row));
  guint most = (guint) ((width + PANEL_GAP) / (lay->label_w + depth * MIN_CELL + PANEL_GAP));
  double best = -1;

  most = CLAMP (most, 1, rows);
  lay->n_panels = 1;
  for (guint k = 1; k <= most; k++)
    {
      guint per = (rows + k - 1) / k;
      double row_h = CLAMP (avail / MIN (per, fit), min_row, MAX (min_row, 72));
      double cell_w = MIN (MAX (MIN_CELL, row_h * 4), ((width + PANEL_GAP) / k - PANEL_GAP - lay->label_w) / depth);
      /* rows folded away count against a layout before any size */
      double score = (per > fit ? -1e9 * (per - fit) : 0) + row_h * cell_w;

      if (score > best + 1e-9)
        {
          best = score;
          lay->n_panels = k;
        }
    }
  lay->panel_w = (width + PANEL_GAP) / lay->n_panels;
  lay->per_panel = MIN ((rows + lay->n_panels - 1) / lay->n_panels, fit);
}

static double
panel_x (const AtomicLayout *lay,
         guint               slot)
{
  return lay->x + (slot / lay->per_panel) * lay->panel_w;
}

static double
slot_y (const AtomicLayout *lay,
        guint               slot)
{
  return lay->grid_y + (slot % lay->per_panel) * lay->row_h;
}
static guint atomic_legend (const WsFigureStyle *s, WsLegendItem legend[3]);

static void
atomic_layout (WsFigureContext     *ctx,
               const WsFigureFrame *frame,
               const AtomicTable   *t,
               AtomicLayout        *lay)
{
  const WsFigureStyle *s = ctx->style;
  /* above the columns; the longest that fits */
  static const char *orders[] = { N_("lanes on the address, in the order their updates are applied →"),
                                  N_("lanes, in the order applied →"), N_("order →") };
  WsLegendItem legend[3];
  guint n_legend = atomic_legend (s, legend);
  g_autofree char *stats = NULL;
  double above, min_row = ws_figure_min_row_height (s);
  double lane_h, avail, spare, width = ctx->width - 2 * WS_FIGURE_MARGIN, num_w;
  WsTextOptions num = { .size = s->min_font_size };
  WsBox c;

  memset (lay, 0, sizeof *lay);
  lay->label_size = MAX (s->font_size * 0.85, s->min_font_size);
  lay->label_w = label_column (ctx, t, lay->label_size);
  stats = atomic_stats (frame->result, t);
  ws_figure_layout_frame (ctx, frame, stats, legend, n_legend, &lay->frame);
  c = lay->frame.content;
  above = ws_figure_index_row_above_at (ctx, c.w);
  lane_h = CLAMP (c.h * 0.07, 20, 36);
  lay->grid_y = c.y + above + lane_h + s->font_size + header_height (lay);
  avail = c.y + c.h - lay->grid_y;
  choose_panels (t, lay, width, avail, min_row);
  ws_fold_init (&lay->fold, t->n_rows, lay->n_panels * lay->per_panel);
  lay->per_panel = (ws_fold_n_slots (&lay->fold) + lay->n_panels - 1) / lay->n_panels;
  /* few addresses get tall rows and wide cells, up to a point: on a slide
   * the table fills the room it has, and what is left is shared above and
   * below, and either side */
  lay->row_h = CLAMP (avail / MAX (1, lay->per_panel), min_row, MAX (min_row, 72));
  lay->cell_w = MIN (MAX (56, lay->row_h * 4), (lay->panel_w - PANEL_GAP - lay->label_w) / MAX (1, t->depth));
  lay->x = c.x;
  if (lay->n_panels == 1)
    lay->x += floor (MAX (0, width - lay->label_w - t->depth * lay->cell_w) / 2);
  /* what the columns are, in the room right of the first addresses */
  for (guint i = 0; i < G_N_ELEMENTS (orders); i++)
    {
      double room = c.x + width - lay->x - lay->label_w;

      lay->order = FG_(orders[i]);
      if (ws_figure_fit_text (ctx, lay->order, 0, lay->label_size, room) >= lay->label_size)
        break;
    }
  lay->lane_size = ws_figure_fit_text (ctx, "31", WS_TEXT_BOLD, MAX (s->font_size * 0.9, MIN (s->font_size * 1.4,
                                                                                      lay->row_h * 0.4)),
                                       lay->cell_w - 4);
  /* the columns' numbers, every few when the cells are narrow */
  ws_figure_text_size (ctx, "32", &num, &num_w, NULL);
  for (lay->every = 1; lay->every < 32 && lay->every * lay->cell_w < num_w + 4; lay->every *= 2)
    ;
  spare = ws_fold_folded (&lay->fold) ? 0 : MAX (0, avail - lay->per_panel * lay->row_h);
  lay->grid_y += floor (spare / 2);
  ws_figure_index_row (ctx, (WsBox) { c.x, c.y + above + floor (spare / 2), c.w, lane_h }, &lay->lanes);
}

WsFigureNeeds
ws_atomic_figure_needs (WsFigureContext     *ctx,
                        const WsFigureFrame *frame)
{
  const WsFigureStyle *s = ctx->style;
  AtomicTable t;
  AtomicLayout lay;
  double content;

  atomic_table (frame->result, &t);
  atomic_layout (ctx, frame, &t, &lay);
  content = ws_figure_index_row_above_at (ctx, lay.frame.content.w) + 20 + s->font_size + header_height (&lay);
  return (WsFigureNeeds) { MAX (WS_FIGURE_MIN_ROW_WIDTH, lay.label_w + 4 * 8) + 2 * WS_FIGURE_MARGIN,
                           lay.frame.content.y + content + MIN (MAX (t.n_rows, 1), 3) * ws_figure_min_row_height (s) +
                             lay.frame.bottom,
                           lay.frame.content.y + content + MAX (t.n_rows, 1) * ws_figure_min_row_height (s) +
                             lay.frame.bottom };
}

static WsBox
cell_box (const AtomicLayout *lay,
          guint               slot,
          guint               col)
{
  double gap = MIN (3, lay->cell_w * 0.1);
  return (WsBox) { panel_x (lay, slot) + lay->label_w + col * lay->cell_w, slot_y (lay, slot), lay->cell_w - gap,
                   lay->row_h - 3 };
}

static void
draw_cell (WsFigureContext     *ctx,
           const WsFigureFrame *frame,
           const AtomicLayout  *lay,
           const WsSchedule    *schedule,
           WsBox                b,
           guint                lane,
           guint                col)
{
  const WsFigureStyle *s = ctx->style;
  WsLaneState state = ws_schedule_lane_state (schedule, frame->result, lane);
  gboolean hover = frame->hover.kind == WS_HIT_LANE && frame->hover.index == (int) lane;
  WsRgba hue = state == WS_LANE_SERVING ? s->accent : col > 0 ? s->conflict : ws_figure_style_hue (s, 0);
  double alpha = state == WS_LANE_WAITING ? 0.18 : 0.9;
  WsTextOptions o = { .size = lay->lane_size, .ax = 0.5, .ay = 0.5, .flags = WS_TEXT_BOLD };
  char label[8];

  ws_figure_rounded_rect (ctx, b.x, b.y, b.w, b.h, MIN (4, b.h / 3));
  ws_figure_set_color (ctx, ws_rgba_alpha (hue, alpha));
  cairo_fill_preserve (ctx->cr);
  ws_figure_set_color (ctx, hover ? s->foreground : ws_rgba_alpha (hue, 0));
  cairo_set_line_width (ctx->cr, 2.5 * s->line_width);
  cairo_stroke (ctx->cr);
  cairo_set_line_width (ctx->cr, s->line_width);
  if (lay->lane_size <= 0)
    return;
  g_snprintf (label, sizeof label, "%u", lane);
  ws_figure_set_color (ctx, ws_figure_style_ink_on (s, ws_rgba_mix (s->background, hue, alpha)));
  ws_figure_text (ctx, b.x + b.w / 2, b.y + b.h / 2, label, &o, NULL, NULL);
}

static void
draw_header (WsFigureContext    *ctx,
             const AtomicLayout *lay,
             const AtomicTable  *t)
{
  const WsFigureStyle *s = ctx->style;
  WsTextOptions o = { .size = lay->label_size, .ay = 1 };
  WsTextOptions num = { .size = s->min_font_size, .ax = 0.5, .ay = 1 };
  double line = ceil (lay->label_size * 1.4);

  ws_figure_set_color (ctx, s->muted);
  ws_figure_text (ctx, lay->x + lay->label_w, lay->grid_y - 4 - line, lay->order, &o, NULL, NULL);
  for (guint p = 0; p < lay->n_panels; p++)
    {
      double x = lay->x + p * lay->panel_w, grid_x = x + lay->label_w;

      ws_figure_text (ctx, x, lay->grid_y - 4, FG_("address (byte)"), &o, NULL, NULL);
      for (guint c = 0; c < t->depth; c += lay->every)
        {
          char label[8];
          g_snprintf (label, sizeof label, "%u", c + 1);
          ws_figure_text (ctx, grid_x + (c + 0.5) * lay->cell_w - MIN (3, lay->cell_w * 0.1) / 2, lay->grid_y - 4,
                          label, &num, NULL, NULL);
        }
    }
}

static char *
atomic_stats (const WsWarpResult *r,
              const AtomicTable  *t)
{
  GString *s = g_string_new (NULL);

  if (r->space == WS_SPACE_SHARED)
    {
      g_string_append_printf (s, NG_("%u distinct word", "%u distinct words", t->n_rows), t->n_rows);
      g_string_append (s, " · ");
      /* Translators: the most lanes that update one word */
      g_string_append_printf (s, NG_("up to %u lane on one word", "up to %u lanes on one word", t->depth), t->depth);
      g_string_append (s, " · ");
      g_string_append_printf (s,
                              NG_("%u wavefront: lanes on one word are merged",
                                  "%u wavefronts: lanes on one word are merged", r->counts.wavefronts),
                              r->counts.wavefronts);
    }
  else
    {
      g_string_append_printf (s, NG_("%u distinct address", "%u distinct addresses", t->n_rows), t->n_rows);
      g_string_append (s, " · ");
      /* Translators: the most lanes that update one address */
      g_string_append_printf (s, NG_("up to %u lane on one address, applied one after another",
                                     "up to %u lanes on one address, applied one after another", t->depth),
                              t->depth);
      g_string_append (s, " · ");
      g_string_append_printf (s, NG_("%u sector visit", "%u sector visits", r->counts.sectors), r->counts.sectors);
    }
  /* what a narrow figure leaves out (the lanes' numbers) its tooltips
   * say: a note on the layout is not for the slide */
  return g_string_free (s, FALSE);
}

static guint
atomic_legend (const WsFigureStyle *s,
               WsLegendItem         legend[3])
{
  guint n = 0;

  legend[n++] = (WsLegendItem) { ws_figure_style_hue (s, 0), FG_("first update of an address") };
  legend[n++] = (WsLegendItem) { s->conflict, FG_("waits for the lanes before it") };
  if (s->kind != WS_FIGURE_STYLE_PRINT)
    legend[n++] = (WsLegendItem) { s->accent, FG_("being applied") };
  return n;
}

static void
draw_fold (WsFigureContext    *ctx,
           const AtomicLayout *lay,
           const AtomicTable  *t)
{
  char first[24], last[24];
  g_autofree char *text = NULL;

  /* the rows are labelled with their byte addresses: so is what they leave out */
  g_snprintf (first, sizeof first, "%" G_GINT64_FORMAT, t->address[lay->fold.head]);
  g_snprintf (last, sizeof last, "%" G_GINT64_FORMAT, t->address[lay->fold.n - lay->fold.tail - 1]);
  /* Translators: rows a figure leaves out, as in "⋮ 26 more lines (4–29)" */
  text = ws_fold_describe (&lay->fold, FG_("addresses"), first, last);
  WsTextOptions o = { .size = lay->label_size, .ay = 0.5 };

  ws_figure_set_color (ctx, ctx->style->muted);
  /* across the empty label column too */
  ws_figure_text (ctx, panel_x (lay, lay->fold.head), slot_y (lay, lay->fold.head) + 0.5 * lay->row_h - 1, text, &o,
                  NULL, NULL);
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
  WsLegendItem legend[3];
  guint n_legend = atomic_legend (s, legend);
  WsRgba served[WS_WARP_SIZE];

  /* nothing moves between steps here */
  if (frame->layers == WS_FIGURE_LAYERS_PACKETS)
    return;

  atomic_table (r, &t);
  atomic_layout (ctx, frame, &t, &lay);
  ws_schedule_init (&schedule, r, frame->position);
  stats = atomic_stats (r, &t);
  ws_figure_draw_frame (ctx, frame, &lay.frame, stats, legend, n_legend);
  if (t.n_rows == 0)
    {
      ws_figure_draw_message (ctx, lay.frame.content, FG_("No active lane: this warp makes no update."));
      return;
    }
  /* lanes that had to wait for another on their address show it */
  for (guint l = 0; l < WS_WARP_SIZE; l++)
    served[l] = ws_figure_style_hue (s, 0);
  for (guint i = 0; i < t.n_rows; i++)
    for (guint c = 1; c < t.n_lanes[i]; c++)
      served[t.lanes[i][c]] = s->conflict;
  ws_figure_draw_lanes (ctx, frame, &schedule, &lay.lanes, served, -1);
  draw_header (ctx, &lay, &t);
  for (guint slot = 0; slot < ws_fold_n_slots (&lay.fold); slot++)
    {
      int i = ws_fold_row_of (&lay.fold, slot);
      WsTextOptions o = { .size = lay.label_size, .ay = 0.5, .flags = WS_TEXT_MONO };
      char label[32];

      if (i < 0)
        {
          draw_fold (ctx, &lay, &t);
          continue;
        }
      g_snprintf (label, sizeof label, "%" G_GINT64_FORMAT, t.address[i]);
      ws_figure_set_color (ctx, s->muted);
      ws_figure_text (ctx, panel_x (&lay, slot), slot_y (&lay, slot) + 0.5 * lay.row_h - 1, label, &o, NULL, NULL);
      for (guint c = 0; c < t.n_lanes[i]; c++)
        draw_cell (ctx, frame, &lay, &schedule, cell_box (&lay, slot, c), t.lanes[i][c], c);
    }
}

gboolean
ws_atomic_figure_hit (WsFigureContext     *ctx,
                      const WsFigureFrame *frame,
                      double               x,
                      double               y,
                      WsFigureHit         *hit)
{
  AtomicTable t;
  AtomicLayout lay;

  atomic_table (frame->result, &t);
  atomic_layout (ctx, frame, &t, &lay);
  if (ws_figure_hit_lane (&lay.lanes, frame, x, y, hit))
    return TRUE;
  for (guint slot = 0; slot < ws_fold_n_slots (&lay.fold); slot++)
    {
      int i = ws_fold_row_of (&lay.fold, slot);
      WsBox label = { panel_x (&lay, slot), slot_y (&lay, slot), lay.label_w, lay.row_h };

      if (i < 0)
        continue;
      if (ws_box_contains (&label, x, y))
        {
          *hit = (WsFigureHit) { WS_HIT_ADDRESS, i, t.address[i], -1 };
          return TRUE;
        }
      for (guint c = 0; c < t.n_lanes[i]; c++)
        {
          WsBox b = cell_box (&lay, slot, c);
          if (ws_box_contains (&b, x, y))
            {
              *hit = (WsFigureHit) { WS_HIT_LANE, t.lanes[i][c], t.address[i], -1 };
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
  g_autofree char *updates = NULL;
  int n;

  if (hit->kind != WS_HIT_ADDRESS)
    return NULL;
  atomic_table (frame->result, &t);
  for (guint c = 0; hit->index >= 0 && (guint) hit->index < t.n_rows && c < t.n_lanes[hit->index]; c++)
    lanes |= 1u << t.lanes[hit->index][c];
  who = ws_figure_lanes_to_string (lanes);
  n = __builtin_popcount (lanes);
  if (n > 1 && frame->result->space == WS_SPACE_GLOBAL)
    updates = g_strdup_printf (NG_("%d update, applied one after another", "%d updates, applied one after another", n),
                               n);
  else
    updates = g_strdup_printf (NG_("%d update", "%d updates", n), n);
  /* Translators: a byte address; the lanes that update it ("lanes 0–3"); how
   * many updates ("4 updates") */
  return g_strdup_printf (FG_("Address %lld\nupdated by %s (%s)"), (long long) hit->address, who, updates);
}
