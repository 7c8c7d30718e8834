/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The L2 residency view: three bars on one scale of bytes — the hot set,
 * L2 and its set-aside, the data streamed between two reads of a hot line —
 * and the model's estimate of what stays. */
#include "ws-l2-figure.h"
#include "ws-figure-private.h"

#include <math.h>

static char *
mib (gint64 bytes)
{
  return g_strdup_printf ("%.3g MiB", bytes / 1048576.0);
}

typedef struct
{
  double x, w, scale;            /* pixels per byte */
  double bar_h, gap;
  double y[3];
  double after;                  /* from the last bar to the verdict, and from it to the legend */
} L2Layout;

/* Each bar's name above it, at the least a line of text and a bar under it
 * (a projector's 720 rows), at the most a roomy gap and a thick bar. */
#define LEAST_GAP 1.4
#define LEAST_BAR 0.7
#define CAPTION_GAP 0.4
#define ROOMY_GAP 2.4
/* from the last bar to the verdict, and from it to the legend, where short */
#define TIGHT_AFTER 0.55

static void
l2_layout (const WsL2Window    *w,
           const WsFigureStyle *s,
           double               caption_h,
           double               verdict_h,
           double               width,
           double               height,
           L2Layout            *lay)
{
  double m = WS_FIGURE_MARGIN, top = m + caption_h + CAPTION_GAP * s->font_size;
  double biggest = MAX (MAX (w->l2_bytes, w->hot_bytes), w->streamed_bytes);
  double fs = s->font_size, per;
  double room = height - top - m - verdict_h - ws_figure_legend_line_height (s);

  /* short of room, the space around the verdict shrinks first */
  lay->after = room >= 3 * (ROOMY_GAP + 1.2) * fs + 2 * fs ? fs : TIGHT_AFTER * fs;
  per = (room - 2 * lay->after) / 3;
  lay->x = m;
  lay->w = width - 2 * m;
  lay->scale = biggest > 0 ? lay->w / biggest : 0;
  lay->gap = CLAMP (per - 1.2 * fs, LEAST_GAP * fs, ROOMY_GAP * fs);
  lay->bar_h = CLAMP (per - lay->gap, LEAST_BAR * fs, 7 * fs);
  for (guint i = 0; i < 3; i++)
    lay->y[i] = top + lay->gap + i * (lay->bar_h + lay->gap);
}

/* The legend: what the bars show, each colour once, in the order drawn. */
typedef struct
{
  WsLegendItem items[8];
  guint n;
} Legend;

static void
legend_add (Legend     *lg,
            WsRgba      color,
            const char *text)
{
  for (guint i = 0; i < lg->n; i++)
    if (g_str_equal (lg->items[i].label, text))
      return;
  if (lg->n < G_N_ELEMENTS (lg->items))
    lg->items[lg->n++] = (WsLegendItem) { color, text };
}

/* a segment, solid when it stays, faded and dashed when it is evicted; what
 * it is goes into the legend when it is drawn (stays and is evicted are
 * the texts for either) */
static void
segment (WsFigureContext *ctx,
         Legend          *lg,
         double           x,
         double           y,
         double           w,
         double           h,
         WsRgba           color,
         gboolean         stays,
         const char      *what)
{
  if (w <= 0)
    return;
  legend_add (lg, stays ? color : ws_rgba_alpha (color, 0.25), what);
  cairo_rectangle (ctx->cr, x, y, w, h);
  ws_figure_set_color (ctx, stays ? color : ws_rgba_alpha (color, 0.25));
  cairo_fill_preserve (ctx->cr);
  if (!stays)
    cairo_set_dash (ctx->cr, (double[]) { 4, 3 }, 2, 0);
  ws_figure_set_color (ctx, color);
  cairo_stroke (ctx->cr);
  cairo_set_dash (ctx->cr, NULL, 0, 0);
}

static void
label (WsFigureContext *ctx,
       double           x,
       double           y,
       const char      *text)
{
  WsTextOptions o = { .size = ctx->style->font_size * 0.95, .ay = 1 };

  ws_figure_set_color (ctx, ctx->style->foreground);
  ws_figure_text (ctx, x, y - 3, text, &o, NULL, NULL);
}

/* The caption's second line: the hot set, the window and L2. */
static char *
l2_subtitle (const WsL2Window    *w,
             const WsL2Residency *r)
{
  g_autofree char *hot = mib (w->hot_bytes), *l2 = mib (w->l2_bytes), *aside = mib (w->set_aside_bytes);
  g_autofree char *pers = mib (r->persisting_bytes);

  if (w->set_aside_bytes > 0)
    /* Translators: sizes in MiB ("1.5 MiB"): the hot set, the part of it
     * marked persisting; the hit ratio in percent ("%%" is a percent sign);
     * the L2 set aside, and the whole L2 */
    return g_strdup_printf (FG_("a %s hot set, %s of it persisting (hit ratio %.0f %%), %s of the %s L2 set aside"),
                            hot, pers, 100 * w->hit_ratio, aside, l2);
  /* Translators: sizes in MiB ("1.5 MiB"): the hot set, and the whole L2 */
  return g_strdup_printf (FG_("a %s hot set, no access-policy window: it competes with the stream for the %s L2"),
                          hot, l2);
}

/* What the model expects to stay, under the bars. */
static char *
l2_verdict (const WsL2Window    *w,
            const WsL2Residency *r)
{
  g_autofree char *pers = mib (r->persisting_bytes), *aside = mib (w->set_aside_bytes);

  if (r->thrashing)
    /* Translators: sizes in MiB ("1.5 MiB"): the data marked persisting, the
     * L2 set aside; then a hit ratio in percent ("%%" is a percent sign) */
    return g_strdup_printf (FG_("%s marked persisting is more than the %s set aside: read in a cycle, persisting "
                              "lines evict each other before they are read again. A hit ratio of %.0f %% would "
                              "fit."),
                            pers, aside, 100.0 * w->set_aside_bytes / MAX (1, r->persisting_bytes) * w->hit_ratio);
  /* Translators: a share in percent ("%%" is a percent sign) */
  return g_strdup_printf (FG_("Under LRU %.0f %% of the hot set stays in L2. The hardware's replacement is not "
                            "LRU: the measurement says what it keeps."), 100 * r->resident_fraction);
}

static double
verdict_height (WsFigureContext *ctx,
                const char      *verdict,
                double           width)
{
  WsTextOptions o = { .size = ctx->style->font_size, .max_width = width - 2 * WS_FIGURE_MARGIN, .wrap = TRUE };
  double h = 0;

  ws_figure_text_size (ctx, verdict, &o, NULL, &h);
  return h;
}

double
ws_l2_figure_min_height (const WsL2Figure    *f,
                         const WsFigureStyle *style,
                         double               width)
{
  WsFigureContext ctx;
  WsL2Residency r;
  g_autofree char *subtitle = NULL;
  g_autofree char *verdict = NULL;
  double fs = style->font_size, h;

  g_return_val_if_fail (f != NULL && style != NULL, 0);
  ws_l2_residency (&f->window, &r);
  subtitle = l2_subtitle (&f->window, &r);
  verdict = l2_verdict (&f->window, &r);
  ws_figure_context_init_measure (&ctx, style, width, 0);
  h = 2 * WS_FIGURE_MARGIN + ws_figure_caption_height (&ctx, width - 2 * WS_FIGURE_MARGIN, f->title, subtitle) +
      CAPTION_GAP * fs +
      3 * (LEAST_GAP + LEAST_BAR) * fs + 2 * TIGHT_AFTER * fs + verdict_height (&ctx, verdict, width) +
      ws_figure_legend_line_height (style);
  ws_figure_context_clear (&ctx);
  return ceil (h);
}

void
ws_l2_figure_draw (cairo_t             *cr,
                   const WsFigureStyle *style,
                   double               width,
                   double               height,
                   gpointer             data)
{
  const WsL2Figure *f = data;
  const WsL2Window *w = &f->window;
  const WsFigureStyle *s = style;
  WsFigureContext ctx;
  L2Layout lay;
  WsL2Residency r;
  WsRgba persist = s->accent, rest = ws_figure_style_hue (s, 1), stream = s->muted;
  g_autofree char *hot = mib (w->hot_bytes), *l2 = mib (w->l2_bytes), *aside = mib (w->set_aside_bytes);
  g_autofree char *streamed = mib (w->streamed_bytes), *subtitle = NULL, *verdict = NULL;
  g_autofree char *text = NULL;
  double caption_h;
  Legend lg = { 0 };
  gboolean persist_stays, rest_stays;
  const char *persist_text, *rest_text;

  ws_l2_residency (w, &r);
  persist_stays = r.persisting_resident > 0 || r.persisting_bytes == 0;
  rest_stays = r.normal_resident > 0;
  persist_text = r.thrashing ? FG_("persisting lines that evict each other")
                 : persist_stays ? FG_("persisting (in the window)")
                                 : FG_("persisting, expected to be evicted");
  /* with nothing persisting, the rest is the whole hot set */
  if (r.persisting_bytes > 0)
    rest_text = rest_stays ? FG_("the rest of the hot set") : FG_("the rest of the hot set, expected to be evicted");
  else
    rest_text = rest_stays ? FG_("the hot set, kept by LRU") : FG_("the hot set, expected to be evicted");
  ws_figure_context_init (&ctx, cr, style, width, height);
  subtitle = l2_subtitle (w, &r);
  verdict = l2_verdict (w, &r);
  caption_h = ws_figure_caption (&ctx, WS_FIGURE_MARGIN, WS_FIGURE_MARGIN, width - 2 * WS_FIGURE_MARGIN, f->title,
                                 subtitle);
  l2_layout (w, s, caption_h, verdict_height (&ctx, verdict, width), width, height, &lay);

  /* the hot set */
  /* Translators: a size in MiB ("1.5 MiB") */
  text = g_strdup_printf (FG_("the hot set, read again and again: %s"), hot);
  label (&ctx, lay.x, lay.y[0], text);
  segment (&ctx, &lg, lay.x, lay.y[0], r.persisting_bytes * lay.scale, lay.bar_h, r.thrashing ? s->conflict : persist,
           persist_stays, persist_text);
  segment (&ctx, &lg, lay.x + r.persisting_bytes * lay.scale, lay.y[0], r.normal_bytes * lay.scale, lay.bar_h, rest,
           rest_stays, rest_text);

  /* L2: the set-aside first, then the rest */
  g_free (text);
  /* Translators: sizes in MiB ("1.5 MiB"): the L2, and the part set aside */
  text = w->set_aside_bytes > 0 ? g_strdup_printf (FG_("L2: %s, %s set aside for persisting lines"), l2, aside)
                                /* Translators: the L2's size in MiB ("50 MiB") */
                                : g_strdup_printf (FG_("L2: %s"), l2);
  label (&ctx, lay.x, lay.y[1], text);
  ws_figure_rounded_rect (&ctx, lay.x, lay.y[1], w->l2_bytes * lay.scale, lay.bar_h, 3);
  ws_figure_set_color (&ctx, s->surface);
  cairo_fill (ctx.cr);
  {
    double x = lay.x;
    double used = MIN (r.persisting_resident, w->set_aside_bytes) * lay.scale;
    double normal = (r.normal_resident + MIN (w->streamed_bytes, r.normal_capacity)) * lay.scale;

    if (r.thrashing)
      {
        /* the set-aside is full of persisting lines that evict each other */
        used = w->set_aside_bytes * lay.scale;
        segment (&ctx, &lg, x, lay.y[1], used, lay.bar_h, s->conflict, FALSE, persist_text);
      }
    else
      segment (&ctx, &lg, x, lay.y[1], used, lay.bar_h, persist, TRUE, FG_("persisting (in the window)"));
    x += used;
    segment (&ctx, &lg, x, lay.y[1], r.normal_resident * lay.scale, lay.bar_h, rest, TRUE,
             r.persisting_bytes > 0 ? FG_("the rest of the hot set") : FG_("the hot set, kept by LRU"));
    x += r.normal_resident * lay.scale;
    segment (&ctx, &lg, x, lay.y[1], MAX (0, MIN (normal - r.normal_resident * lay.scale,
                                                  lay.x + w->l2_bytes * lay.scale - x)), lay.bar_h, stream, TRUE,
             FG_("streamed through"));
    x += MAX (0, MIN (normal - r.normal_resident * lay.scale, lay.x + w->l2_bytes * lay.scale - x));
    /* what is left of the bar: L2 that neither fills */
    if (lay.x + w->l2_bytes * lay.scale - x >= 1)
      legend_add (&lg, s->surface, FG_("L2 this kernel leaves empty"));
  }
  if (w->set_aside_bytes > 0)
    {
      /* around the bar, closer where the names above and below are close */
      double pad = lay.gap >= 2 * s->font_size ? 3 : 1;
      cairo_rectangle (ctx.cr, lay.x, lay.y[1] - pad, w->set_aside_bytes * lay.scale, lay.bar_h + 2 * pad);
      cairo_set_dash (ctx.cr, (double[]) { 6, 3 }, 2, 0);
      cairo_set_line_width (ctx.cr, 2 * s->line_width);
      ws_figure_set_color (&ctx, persist);
      cairo_stroke (ctx.cr);
      cairo_set_dash (ctx.cr, NULL, 0, 0);
      cairo_set_line_width (ctx.cr, s->line_width);
    }

  /* the stream */
  g_free (text);
  /* Translators: a size in MiB ("1.5 MiB") */
  text = g_strdup_printf (FG_("streamed between two reads of a hot line: %s"), streamed);
  label (&ctx, lay.x, lay.y[2], text);
  segment (&ctx, &lg, lay.x, lay.y[2], w->streamed_bytes * lay.scale, lay.bar_h, stream, TRUE,
           FG_("streamed through"));

  {
    WsTextOptions o = { .size = s->font_size, .max_width = lay.w, .wrap = TRUE };
    double th = 0, y = lay.y[2] + lay.bar_h + lay.after;

    ws_figure_set_color (&ctx, s->foreground);
    ws_figure_text (&ctx, lay.x, y, verdict, &o, NULL, &th);
    ws_figure_draw_legend (&ctx, WS_FIGURE_MARGIN, MIN (y + th + lay.after, height - WS_FIGURE_MARGIN -
                                                        ws_figure_legend_line_height (s)),
                           width - 2 * WS_FIGURE_MARGIN, lg.items, lg.n);
  }
  ws_figure_context_clear (&ctx);
}
