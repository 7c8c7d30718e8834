/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The occupancy view: the SM's warp slots in its four sub-partitions, the
 * resident blocks' warps in them, a bar per resource, and the table of how
 * many blocks each resource allows. Everything it shows is the model's
 * (ws_occupancy_compute): the figure computes nothing itself. */
#include "ws-occupancy-figure.h"
#include "ws-figure-private.h"

#include <math.h>

typedef struct
{
  WsBox slots;                   /* the warp slots */
  guint cols, rows;
  WsBox bars;                    /* the resources */
  double bar_h;
  WsBox table;
} OccupancyLayout;

gboolean
ws_occupancy_figure_compute (const WsOccupancyFigure *f,
                             WsOccupancy             *out)
{
  g_return_val_if_fail (f->limits != NULL, FALSE);
  return ws_occupancy_compute (f->limits, f->threads_per_block, f->registers_per_thread, f->shared_per_block, out,
                               NULL);
}

/* The caption's second line: the block, and what fits of it. */
static char *
occupancy_subtitle (const WsOccupancyFigure *f,
                    const WsOccupancy       *o)
{
  const WsSmLimits *l = f->limits;
  /* Translators: the blocks resident on an SM, and the compute capability's two digits ("sm_90") */
  g_autofree char *fit = g_strdup_printf (NG_("%u block fits on an sm_%d%d SM", "%u blocks fit on an sm_%d%d SM",
                                              o->blocks_per_sm),
                                          o->blocks_per_sm, l->cc_major, l->cc_minor);

  /* Translators: threads per block, registers per thread, bytes of shared
   * memory per block; then "4 blocks fit on an sm_90 SM"; then the resource
   * that limits them, such as "registers" */
  return g_strdup_printf (FG_("blocks of %u threads, %u registers each, %u bytes of shared memory: %s, limited by %s"),
                          f->threads_per_block, f->registers_per_thread, f->shared_per_block, fit,
                          FG_(ws_occupancy_limit_to_string (o->limiter)));
}

/* The least height of a resource's bar: a line of text and a bar under it. */
#define LEAST_BAR_H 1.15
#define BAR_PITCH 2.1

/* Below the caption: the slots on the left, the resources' bars on the
 * right and the table under them, all in the room left. */
static void
occupancy_layout (const WsFigureStyle *s,
                  const WsSmLimits    *l,
                  double               caption_h,
                  double               width,
                  double               height,
                  OccupancyLayout     *lay)
{
  double m = WS_FIGURE_MARGIN, top = m + caption_h + s->font_size * 0.5;
  double body_h = MAX (1, height - top - m - s->font_size * 1.6);
  double left_w = MIN (width * 0.42, body_h * 0.9);
  double right_x = m + left_w + s->font_size * 2;

  lay->cols = l->sub_partitions;
  lay->rows = (l->max_threads_per_sm / 32 + lay->cols - 1) / lay->cols;
  lay->slots = (WsBox) { m, top + s->font_size * 1.6, left_w, body_h };
  lay->bar_h = CLAMP ((height - top - m) / 14, s->font_size * LEAST_BAR_H, s->font_size * 2.2);
  /* the bars need no row of names above them */
  lay->bars = (WsBox) { right_x, top, MAX (1, width - right_x - m), 4 * lay->bar_h * BAR_PITCH };
  lay->table = (WsBox) { right_x, lay->bars.y + lay->bars.h + s->font_size * 0.6, lay->bars.w,
                         MAX (1, height - m - (lay->bars.y + lay->bars.h + s->font_size * 0.6)) };
}

static WsRgba
block_color (const WsFigureStyle *s,
             guint                block)
{
  return ws_figure_style_hue (s, block);
}

/* Warp w of block b sits in sub-partition (b × warps + w) mod 4: blocks
 * are spread over the four schedulers warp by warp. */
static void
draw_slots (WsFigureContext      *ctx,
            const OccupancyLayout *lay,
            const WsOccupancy    *o,
            guint                 warps_per_block,
            guint                 max_warps)
{
  const WsFigureStyle *s = ctx->style;
  double cw = lay->slots.w / lay->cols, rh = MIN (lay->slots.h / lay->rows, cw * 0.5);
  double gap = MAX (1, MIN (4, rh * 0.15));
  WsTextOptions t = { .size = MIN (s->font_size * 0.9, rh * 0.6), .ax = 0.5, .ay = 0.5 };

  ws_figure_set_color (ctx, s->muted);
  for (guint c = 0; c < lay->cols; c++)
    {
      char label[64];
      double size;

      /* Translators: one of the SM's warp schedulers, numbered from 0 */
      g_snprintf (label, sizeof label, FG_("scheduler %u"), c);
      /* narrow, the number alone */
      if ((size = ws_figure_fit_text (ctx, label, 0, s->font_size * 0.85, cw - 4)) <= 0)
        {
          g_snprintf (label, sizeof label, "%u", c);
          size = MAX (s->min_font_size, s->font_size * 0.85);
        }
      ws_figure_text (ctx, lay->slots.x + (c + 0.5) * cw, lay->slots.y - s->font_size * 0.8, label,
                      &(WsTextOptions) { .size = size, .ax = 0.5, .ay = 0.5 }, NULL, NULL);
    }
  for (guint i = 0; i < lay->cols * lay->rows && i < max_warps; i++)
    {
      guint c = i % lay->cols, r = i / lay->cols;
      double x = lay->slots.x + c * cw + gap, y = lay->slots.y + r * rh + gap;
      gboolean used = i < o->warps_per_sm;
      guint block = warps_per_block ? i / warps_per_block : 0;

      ws_figure_rounded_rect (ctx, x, y, cw - 2 * gap, rh - 2 * gap, MIN (4, rh / 4));
      if (used)
        {
          ws_figure_set_color (ctx, block_color (s, block));
          cairo_fill (ctx->cr);
          {
            char label[64];
            /* Translators: the block resident on the SM and the warp in it, numbered from 0 */
            g_snprintf (label, sizeof label, FG_("block %u · warp %u"), block, i % MAX (1, warps_per_block));
            /* whole or not at all: the colours say which block a slot holds */
            t.size = ws_figure_fit_text (ctx, label, 0, MIN (s->font_size * 0.9, rh * 0.6), cw - 2 * gap - 4);
            if (t.size > 0)
              {
                ws_figure_set_color (ctx, ws_figure_style_ink_on (s, block_color (s, block)));
                ws_figure_text (ctx, x + (cw - 2 * gap) / 2, y + (rh - 2 * gap) / 2, label, &t, NULL, NULL);
              }
          }
        }
      else
        {
          cairo_set_dash (ctx->cr, (double[]) { 3, 2 }, 2, 0);
          ws_figure_set_color (ctx, s->grid);
          cairo_stroke (ctx->cr);
          cairo_set_dash (ctx->cr, NULL, 0, 0);
        }
    }
}

typedef struct
{
  const char *name;
  double capacity;
  double per_block;              /* what one block takes of it */
  WsOccupancyLimit limit;
  const char *unit;
} Resource;

static void
draw_bar (WsFigureContext       *ctx,
          const OccupancyLayout *lay,
          guint                  i,
          const Resource        *r,
          const WsOccupancy     *o)
{
  const WsFigureStyle *s = ctx->style;
  double y = lay->bars.y + i * lay->bar_h * BAR_PITCH, x = lay->bars.x, w = lay->bars.w;
  double label_h = s->font_size * 1.25, bh = lay->bar_h * BAR_PITCH - label_h - s->font_size * 0.45;
  gboolean limits = o->limiter == r->limit;
  WsTextOptions t = { .size = s->font_size * 0.95, .flags = limits ? WS_TEXT_BOLD : 0 };
  g_autofree char *label = NULL;
  double used = o->blocks_per_sm * r->per_block;

  if (o->blocks_by[r->limit] == G_MAXUINT)
    /* Translators: a resource of the SM, such as "registers" */
    label = g_strdup_printf (FG_("%s: none used, no limit"), FG_(r->name));
  else
    {
      guint n = o->blocks_by[r->limit];
      g_autofree char *room = g_strdup_printf (NG_("room for %u block", "room for %u blocks", n), n);

      /* Translators: a resource of the SM ("registers"), how much of it the
       * resident blocks use, how much the SM has, and its unit (" KiB" or
       * nothing); then "room for 4 blocks" */
      label = g_strdup_printf (FG_("%s: %g of %g%s used, %s"), FG_(r->name), used, r->capacity, r->unit, room);
      if (limits)
        {
          char *longer = g_strconcat (label, FG_(" — the limit"), NULL);

          g_free (label);
          label = longer;
        }
    }
  ws_figure_set_color (ctx, limits ? s->conflict : s->foreground);
  t.max_width = w;
  ws_figure_text (ctx, x, y, label, &t, NULL, NULL);
  y += label_h;
  ws_figure_rounded_rect (ctx, x, y, w, bh, 3);
  ws_figure_set_color (ctx, s->surface);
  cairo_fill (ctx->cr);
  for (guint b = 0; b < o->blocks_per_sm && r->capacity > 0; b++)
    {
      double x0 = x + w * MIN (1, b * r->per_block / r->capacity);
      double x1 = x + w * MIN (1, (b + 1) * r->per_block / r->capacity);
      cairo_rectangle (ctx->cr, x0, y, MAX (0.5, x1 - x0 - (x1 - x0 > 3 ? 1 : 0)), bh);
      ws_figure_set_color (ctx, block_color (s, b));
      cairo_fill (ctx->cr);
    }
  ws_figure_rounded_rect (ctx, x, y, w, bh, 3);
  ws_figure_set_color (ctx, limits ? s->conflict : s->grid);
  cairo_set_line_width (ctx->cr, (limits ? 2.5 : 1) * s->line_width);
  cairo_stroke (ctx->cr);
  cairo_set_line_width (ctx->cr, s->line_width);
}

/* the resources, in WsOccupancyLimit's order, as ws_occupancy_limit_to_string names them */
static const char *limit_names[] = { N_("warps per SM"), N_("blocks per SM"), N_("registers"), N_("shared memory") };

/* A row's name in the monospaced table, padded to 14 characters. */
static void
table_name (GString    *rows,
            const char *name)
{
  glong pad = MAX (0, 14 - g_utf8_strlen (name, -1));

  g_string_append_printf (rows, "  %s%*s", name, (int) pad, "");
}

/* The last lines of the table: how many blocks and warps, the occupancy,
 * and the time measured. */
static char *
occupancy_summary (const WsOccupancyFigure *f,
                   const WsOccupancy       *o)
{
  GString *rows = g_string_new (NULL);

  /* Translators: the blocks resident on an SM, their warps, and the share of
   * the SM's warp slots they fill; "%%" is a percent sign */
  g_string_append_printf (rows, NG_("→ %u block, %u warps: %.0f %% occupancy",
                                    "→ %u blocks, %u warps: %.0f %% occupancy", o->blocks_per_sm),
                          o->blocks_per_sm, o->warps_per_sm, 100 * o->occupancy);
  if (f->measured_ms > 0)
    {
      g_string_append_c (rows, '\n');
      /* Translators: the time measured, in milliseconds */
      g_string_append_printf (rows, FG_("measured: %.4g ms"), f->measured_ms);
    }
  return g_string_free (rows, FALSE);
}

/* The table of blocks each resource allows, then the summary; where the
 * room is short (a projector's 720 rows), the summary alone: the bars
 * above say each resource's room already. */
static void
draw_table (WsFigureContext         *ctx,
            const OccupancyLayout   *lay,
            const WsOccupancyFigure *f,
            const WsOccupancy       *o)
{
  const WsFigureStyle *s = ctx->style;
  WsTextOptions t = { .size = s->font_size, .flags = WS_TEXT_MONO, .max_width = lay->table.w };
  g_autofree char *summary = occupancy_summary (f, o);
  g_autofree char *text = NULL;
  g_autofree char *widest = NULL;
  GString *rows = g_string_new (NULL);
  double h = 0;

  g_string_append (rows, FG_("blocks per SM each resource allows"));
  g_string_append_c (rows, '\n');
  for (guint i = 0; i < G_N_ELEMENTS (limit_names); i++)
    {
      table_name (rows, FG_(limit_names[i]));
      if (o->blocks_by[i] == G_MAXUINT)
        g_string_append (rows, "     —\n");
      else
        g_string_append_printf (rows, " %5u%s\n", o->blocks_by[i], o->limiter == i ? FG_("  ← the fewest") : "");
    }
  g_string_append (rows, summary);
  text = g_string_free (rows, FALSE);
  /* the widest row */
  rows = g_string_new (NULL);
  table_name (rows, FG_(limit_names[WS_OCCUPANCY_LIMIT_SHARED]));
  g_string_append_printf (rows, " %5u%s", 32, FG_("  ← the fewest"));
  widest = g_string_free (rows, FALSE);
  t.size = MAX (ws_figure_fit_text (ctx, widest, WS_TEXT_MONO, s->font_size, lay->table.w), s->min_font_size);
  ws_figure_text_size (ctx, text, &t, NULL, &h);
  ws_figure_set_color (ctx, s->foreground);
  if (h <= lay->table.h)
    ws_figure_text (ctx, lay->table.x, lay->table.y, text, &t, NULL, NULL);
  else
    {
      t.flags = 0;
      t.size = s->font_size;
      ws_figure_text (ctx, lay->table.x, lay->table.y, summary, &t, NULL, NULL);
    }
}

double
ws_occupancy_figure_min_height (const WsOccupancyFigure *f,
                                const WsFigureStyle     *style,
                                double                   width)
{
  WsFigureContext ctx;
  WsOccupancy o;
  g_autofree char *subtitle = NULL;
  g_autofree char *summary = NULL;
  WsTextOptions t = { .size = style->font_size, .max_width = MAX (1, width * 0.5) };
  double caption_h, summary_h = 0, s = style->font_size;

  g_return_val_if_fail (f != NULL && style != NULL, 0);
  if (!ws_occupancy_figure_compute (f, &o))
    return ceil (s * 14);
  ws_figure_context_init_measure (&ctx, style, width, 0);
  subtitle = occupancy_subtitle (f, &o);
  summary = occupancy_summary (f, &o);
  caption_h = ws_figure_caption_height (&ctx, width - 2 * WS_FIGURE_MARGIN, f->title, subtitle);
  ws_figure_text_size (&ctx, summary, &t, NULL, &summary_h);
  ws_figure_context_clear (&ctx);
  /* the caption, four bars at their least and the summary */
  return ceil (2 * WS_FIGURE_MARGIN + caption_h + s * 0.5 + 4 * LEAST_BAR_H * BAR_PITCH * s + s * 0.6 + summary_h);
}

void
ws_occupancy_figure_draw (cairo_t             *cr,
                          const WsFigureStyle *style,
                          double               width,
                          double               height,
                          gpointer             data)
{
  const WsOccupancyFigure *f = data;
  const WsSmLimits *l = f->limits;
  WsFigureContext ctx;
  OccupancyLayout lay;
  WsOccupancy o;
  g_autofree char *subtitle = NULL;
  guint warps = (f->threads_per_block + 31) / 32;
  double caption_h;

  ws_figure_context_init (&ctx, cr, style, width, height);
  if (!ws_occupancy_figure_compute (f, &o))
    {
      /* Translators: threads per block, registers per thread, bytes of shared
       * memory per block, and the compute capability's two digits ("sm_90") */
      g_autofree char *message = g_strdup_printf (FG_("a block of %u threads with %u registers each and %u bytes of "
                                                    "shared memory does not fit on an sm_%d%d multiprocessor"),
                                                  f->threads_per_block, f->registers_per_thread,
                                                  f->shared_per_block, l->cc_major, l->cc_minor);
      ws_figure_caption (&ctx, WS_FIGURE_MARGIN, WS_FIGURE_MARGIN, width - 2 * WS_FIGURE_MARGIN, f->title, NULL);
      ws_figure_draw_message (&ctx, (WsBox) { 0, 0, width, height }, message);
      ws_figure_context_clear (&ctx);
      return;
    }
  subtitle = occupancy_subtitle (f, &o);
  caption_h = ws_figure_caption (&ctx, WS_FIGURE_MARGIN, WS_FIGURE_MARGIN, width - 2 * WS_FIGURE_MARGIN, f->title,
                                 subtitle);
  occupancy_layout (style, l, caption_h, width, height, &lay);
  draw_slots (&ctx, &lay, &o, warps, l->max_threads_per_sm / 32);
  {
    Resource res[] = {
      { N_("warp slots"), l->max_threads_per_sm / 32, warps, WS_OCCUPANCY_LIMIT_WARPS, "" },
      { N_("block slots"), l->max_blocks_per_sm, 1, WS_OCCUPANCY_LIMIT_BLOCKS, "" },
      { N_("registers"), l->registers_per_sm, o.registers_per_block, WS_OCCUPANCY_LIMIT_REGISTERS, "" },
      { N_("shared memory"), l->shared_per_sm / 1024.0, o.shared_per_block / 1024.0, WS_OCCUPANCY_LIMIT_SHARED,
        " KiB" },
    };
    for (guint i = 0; i < G_N_ELEMENTS (res); i++)
      draw_bar (&ctx, &lay, i, &res[i], &o);
  }
  draw_table (&ctx, &lay, f, &o);
  ws_figure_context_clear (&ctx);
}
