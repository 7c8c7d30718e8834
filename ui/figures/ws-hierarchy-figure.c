/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The hierarchy view: four pillars (the SMs, L1, L2, DRAM) joined by
 * bands whose thickness is the bytes that flow between them, the model's
 * filled and the counters' outlined; below them, the time each level
 * would take alone, the prediction and the measured median.
 *
 * Everything is laid out in one place (hier_layout) at the figure's size;
 * drawing, hit testing and the least sizes all read that layout, so what
 * is drawn is what is hit and what is measured. */
#include "ws-hierarchy-figure.h"
#include "ws-chart.h"
#include "ws-figure-private.h"

#include <math.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* The data                                                           */
/* ------------------------------------------------------------------ */

WsHierarchyFigure *
ws_hierarchy_figure_new (void)
{
  WsHierarchyFigure *f = g_new0 (WsHierarchyFigure, 1);

  for (guint l = 0; l < WS_HIER_N_LEVELS; l++)
    f->levels[l].hit_rate = WS_HIER_PAIR_NONE;
  for (guint k = 0; k < WS_HIER_N_LINKS; k++)
    for (guint d = 0; d < WS_HIER_N_DIRECTIONS; d++)
      {
        f->flows[k][d].bytes = WS_HIER_PAIR_NONE;
        f->flows[k][d].unit = k + 1 < WS_HIER_N_LINKS ? 32 : 1;
      }
  f->bound = -1;
  f->predicted_s = f->measured_s = f->measured_lo = f->measured_hi = NAN;
  f->hover = WS_HIER_HIT_INIT;
  return f;
}

void
ws_hierarchy_figure_free (WsHierarchyFigure *f)
{
  if (f == NULL)
    return;
  g_free (f->title);
  g_free (f->subtitle);
  g_free (f->message);
  g_free (f->model_name);
  g_free (f->counted_name);
  g_free (f->measured_name);
  for (guint l = 0; l < WS_HIER_N_LEVELS; l++)
    {
      g_free (f->levels[l].name);
      g_free (f->levels[l].detail);
      g_free (f->levels[l].hit_what);
      g_free (f->levels[l].note);
    }
  for (guint k = 0; k < WS_HIER_N_LINKS; k++)
    for (guint d = 0; d < WS_HIER_N_DIRECTIONS; d++)
      {
        g_free (f->flows[k][d].counter);
        g_free (f->flows[k][d].note);
      }
  for (guint t = 0; t < f->n_terms; t++)
    {
      g_free (f->terms[t].name);
      g_free (f->terms[t].note);
    }
  g_free (f);
}

WsHierarchyFigure *
ws_hierarchy_figure_copy (const WsHierarchyFigure *f)
{
  WsHierarchyFigure *c;

  g_return_val_if_fail (f != NULL, NULL);
  c = g_memdup2 (f, sizeof *f);
  c->title = g_strdup (f->title);
  c->subtitle = g_strdup (f->subtitle);
  c->message = g_strdup (f->message);
  c->model_name = g_strdup (f->model_name);
  c->counted_name = g_strdup (f->counted_name);
  c->measured_name = g_strdup (f->measured_name);
  for (guint l = 0; l < WS_HIER_N_LEVELS; l++)
    {
      c->levels[l].name = g_strdup (f->levels[l].name);
      c->levels[l].detail = g_strdup (f->levels[l].detail);
      c->levels[l].hit_what = g_strdup (f->levels[l].hit_what);
      c->levels[l].note = g_strdup (f->levels[l].note);
    }
  for (guint k = 0; k < WS_HIER_N_LINKS; k++)
    for (guint d = 0; d < WS_HIER_N_DIRECTIONS; d++)
      {
        c->flows[k][d].counter = g_strdup (f->flows[k][d].counter);
        c->flows[k][d].note = g_strdup (f->flows[k][d].note);
      }
  for (guint t = 0; t < f->n_terms; t++)
    {
      c->terms[t].name = g_strdup (f->terms[t].name);
      c->terms[t].note = g_strdup (f->terms[t].note);
    }
  return c;
}

WsHierTerm *
ws_hierarchy_figure_add_term (WsHierarchyFigure *f,
                              const char        *name,
                              double             seconds,
                              const char        *note)
{
  WsHierTerm *t;

  g_return_val_if_fail (f != NULL && name != NULL, NULL);
  if (f->n_terms >= WS_HIER_MAX_TERMS)
    return NULL;
  t = &f->terms[f->n_terms++];
  t->name = g_strdup (name);
  t->seconds = seconds;
  t->note = g_strdup (note);
  return t;
}

gboolean
ws_hier_hit_equal (const WsHierHit *a,
                   const WsHierHit *b)
{
  return a->kind == b->kind && a->index == b->index && (a->kind != WS_HIER_HIT_FLOW || a->direction == b->direction);
}

/* ------------------------------------------------------------------ */
/* Numbers                                                            */
/* ------------------------------------------------------------------ */

static char *
format_si (double      v,
           const char *unit)
{
  WsChartAxis axis = { .unit = (char *) unit, .si = TRUE, .min = 0, .max = fabs (v) };

  return ws_chart_axis_format (&axis, v, TRUE);
}

char *
ws_hier_format_bytes (double bytes)
{
  return bytes == 0 ? g_strdup ("0 B") : format_si (bytes, "B");
}

char *
ws_hier_format_count (double count)
{
  static const char *prefixes[] = { "", " k", " M", " G", " T", " P" };
  guint p = 0;

  while (fabs (count) >= 999.5 && p + 1 < G_N_ELEMENTS (prefixes))
    {
      count /= 1000;
      p++;
    }
  if (p == 0 && count == floor (count))
    return g_strdup_printf ("%.0f", count);
  return g_strdup_printf ("%.3g%s", count, prefixes[p]);
}

static char *
format_time (double seconds)
{
  return format_si (seconds, "s");
}

static char *
format_rate (double r)
{
  return g_strdup_printf ("%.*f %%", r >= 0.995 || r < 0.0995 ? 0 : 1, 100 * r);
}

/* "+12 %", "−8 %", "±0 %": how far the model is from the counters. */
static char *
format_off (double model,
            double counted)
{
  double off;

  if (isnan (model) || isnan (counted))
    return NULL;
  if (counted == 0)
    return g_strdup (model == 0 ? "±0 %" : FG_("model only"));
  off = 100 * (model - counted) / counted;
  if (fabs (off) < 0.5)
    return g_strdup ("±0 %");
  return g_strdup_printf ("%s%.0f %%", off > 0 ? "+" : "−", fabs (off));
}

static gboolean
has (double v)
{
  return !isnan (v);
}

static double
flow_max (const WsHierarchyFigure *f)
{
  double top = 0;

  for (guint k = 0; k < WS_HIER_N_LINKS; k++)
    for (guint d = 0; d < WS_HIER_N_DIRECTIONS; d++)
      {
        const WsHierPair *p = &f->flows[k][d].bytes;
        if (has (p->model))
          top = MAX (top, p->model);
        if (has (p->counted))
          top = MAX (top, p->counted);
      }
  return top;
}

static gboolean
has_counters (const WsHierarchyFigure *f)
{
  return f->counted_name != NULL;
}

/* ------------------------------------------------------------------ */
/* Text                                                               */
/* ------------------------------------------------------------------ */

static double
small_size (const WsFigureStyle *s)
{
  return MAX (s->font_size * 0.85, s->min_font_size);
}

static double
label_size (const WsFigureStyle *s)
{
  return MAX (s->font_size * 0.92, s->min_font_size);
}

static double
name_size (const WsFigureStyle *s)
{
  return MAX (s->font_size * 1.3, s->min_font_size);
}

static double
text_width (WsFigureContext *ctx,
            const char      *text,
            double           size,
            WsTextFlags      flags)
{
  WsTextOptions o = { .size = size, .flags = flags };
  double w;

  ws_figure_text_size (ctx, text, &o, &w, NULL);
  return ceil (w);
}

static double
line_height (WsFigureContext *ctx,
             double           size)
{
  WsTextOptions o = { .size = size };
  double h;

  ws_figure_text_size (ctx, "Hg", &o, NULL, &h);
  return ceil (h);
}

/* The first of the texts that fits in width at size, or NULL. */
static const char *
first_fitting (WsFigureContext    *ctx,
               const char * const *texts,
               guint               n,
               double              size,
               WsTextFlags         flags,
               double              width)
{
  for (guint i = 0; i < n; i++)
    if (texts[i] && text_width (ctx, texts[i], size, flags) <= width)
      return texts[i];
  return NULL;
}

/* The words a flow's label may take, longest first: the model's line and
 * the counters' line. */
typedef struct
{
  char *model[3];
  char *counted[3];
  gboolean none;             /* nothing flows, in the model or the counters */
} FlowWords;

static void
flow_words (const WsHierarchyFigure *f,
            guint                    k,
            WsHierDirection          d,
            FlowWords               *w)
{
  const WsHierPair *p = &f->flows[k][d].bytes;
  g_autofree char *mv = has (p->model) ? ws_hier_format_bytes (p->model) : NULL;
  g_autofree char *cv = has (p->counted) ? ws_hier_format_bytes (p->counted) : NULL;
  g_autofree char *off = format_off (p->model, p->counted);

  memset (w, 0, sizeof *w);
  w->none = (!has (p->model) || p->model == 0) && (!has (p->counted) || p->counted == 0);
  if (w->none)
    {
      w->model[0] = g_strdup (d == WS_HIER_READ ? FG_("nothing read") : FG_("nothing written"));
      /* Translators: no bytes flow between two levels */
      w->model[1] = g_strdup (FG_("none"));
      return;
    }
  if (mv)
    {
      /* Translators: the bytes the model moves between two levels, "read 134 MB" or "written 134 MB" */
      w->model[0] = g_strdup_printf (d == WS_HIER_READ ? FG_("read %s") : FG_("written %s"), mv);
      w->model[1] = g_strdup (mv);
    }
  if (cv)
    {
      /* Translators: the bytes the counters saw, and how far the model is from them ("+12 %") */
      w->counted[0] = off ? g_strdup_printf (FG_("counted %s, model %s"), cv, off)
                          /* Translators: the bytes the counters saw */
                          : g_strdup_printf (FG_("counted %s"), cv);
      w->counted[1] = g_strdup_printf (FG_("counted %s"), cv);
      w->counted[2] = g_strdup (cv);
    }
}

static void
flow_words_clear (FlowWords *w)
{
  for (guint i = 0; i < 3; i++)
    {
      g_free (w->model[i]);
      g_free (w->counted[i]);
    }
}

/* A level's hit rates: the model's line and the counters' line. */
typedef struct
{
  char *model[3];
  char *counted[3];
} HitWords;

static void
hit_words (const WsHierarchyFigure *f,
           guint                    l,
           HitWords                *w)
{
  const WsHierPair *p = &f->levels[l].hit_rate;

  memset (w, 0, sizeof *w);
  if (has (p->model))
    {
      g_autofree char *r = format_rate (p->model);
      /* Translators: a hit rate, "85 % hits" */
      w->model[0] = g_strdup_printf (FG_("%s hits"), r);
      w->model[1] = g_strdup_printf ("%s", r);
    }
  if (has (p->counted))
    {
      g_autofree char *r = format_rate (p->counted);
      w->counted[0] = g_strdup_printf (FG_("counted %s"), r);
      w->counted[1] = g_strdup_printf ("%s", r);
    }
}

static void
hit_words_clear (HitWords *w)
{
  for (guint i = 0; i < 3; i++)
    {
      g_free (w->model[i]);
      g_free (w->counted[i]);
    }
}

/* ------------------------------------------------------------------ */
/* Layout                                                             */
/* ------------------------------------------------------------------ */

#define BOX_PAD 6.0
#define BAND_GAP 8.0
#define MIN_BAND 9.0            /* the least room for the thickest band */
#define NICE_BAND 34.0          /* the room for it the figure asks for */
#define MOST_BAND 120.0
/* how far a band reaches from its middle, arrowhead included, per unit of thickness */
#define EXTENT 0.72
#define LINK_MIN_SHAFT 24.0

typedef struct
{
  guint term;                /* index into figure->terms */
} TermRow;

typedef struct
{
  double caption_h;
  double legend_h;
  double legend_y;
  WsBox content;
  gboolean message;          /* the figure shows its message instead */

  /* the flows */
  WsBox flows;
  WsBox boxes[WS_HIER_N_LEVELS];
  double link_x0[WS_HIER_N_LINKS];
  double link_x1[WS_HIER_N_LINKS];
  double top_h;              /* box names and read labels */
  gboolean details;          /* the levels' details under their names */
  double bottom_h;           /* hit rates and write labels */
  double zone_y;             /* the bands' zone */
  double zone_h;
  double band;               /* the thickest band */
  double max_bytes;

  /* the time */
  WsBox time;
  double header_h;
  double row_h;
  guint n_sorted;            /* terms with a time, slowest first */
  guint sorted[WS_HIER_MAX_TERMS];
  guint n_rows;              /* of them, shown */
  gboolean predicted_row;
  gboolean measured_row;
  double name_w;             /* the column of names */
  double value_w;            /* the room after a bar for its value */
} HierLayout;

static guint
legend_items (const WsHierarchyFigure *f,
              const WsFigureStyle     *s,
              WsLegendItem             items[4])
{
  guint n = 0;

  if (f->message)
    return 0;
  items[n++] = (WsLegendItem) { ws_rgba_alpha (s->model, 0.75), f->model_name ? f->model_name : FG_("model") };
  if (has_counters (f))
    items[n++] = (WsLegendItem) { ws_figure_style_hue (s, f->counted_hue), f->counted_name, .outline = TRUE };
  if (has (f->measured_s) && f->measured_name)
    items[n++] = (WsLegendItem) { ws_figure_style_hue (s, f->counted_hue), f->measured_name };
  return n;
}

/* The least width of a pillar: its name, and its hit rates' shortest words. */
static double
box_min_width (WsFigureContext         *ctx,
               const WsHierarchyFigure *f)
{
  const WsFigureStyle *s = ctx->style;
  double w = 0;

  for (guint l = 0; l < WS_HIER_N_LEVELS; l++)
    {
      HitWords h;

      hit_words (f, l, &h);
      if (f->levels[l].name)
        w = MAX (w, text_width (ctx, f->levels[l].name, name_size (s), WS_TEXT_BOLD));
      if (h.model[1])
        w = MAX (w, text_width (ctx, h.model[1], label_size (s), WS_TEXT_BOLD));
      if (h.counted[1])
        w = MAX (w, text_width (ctx, h.counted[1], label_size (s), 0));
      hit_words_clear (&h);
    }
  /* room for a detail to wrap in, a word or two to a line */
  return ceil (MAX (w, 7 * s->font_size) + 2 * BOX_PAD);
}

/* The least width of a link: the shortest words of its labels, and a shaft. */
static double
link_min_width (WsFigureContext         *ctx,
                const WsHierarchyFigure *f)
{
  const WsFigureStyle *s = ctx->style;
  double w = LINK_MIN_SHAFT;

  for (guint k = 0; k < WS_HIER_N_LINKS; k++)
    for (guint d = 0; d < WS_HIER_N_DIRECTIONS; d++)
      {
        FlowWords fw;

        flow_words (f, k, d, &fw);
        if (fw.model[1])
          w = MAX (w, text_width (ctx, fw.model[1], label_size (s), WS_TEXT_BOLD));
        if (fw.counted[2])
          w = MAX (w, text_width (ctx, fw.counted[2], label_size (s), 0));
        flow_words_clear (&fw);
      }
  return ceil (w + 8);
}

static double
term_name_width (WsFigureContext         *ctx,
                 const WsHierarchyFigure *f)
{
  double w = MAX (text_width (ctx, FG_("predicted"), label_size (ctx->style), WS_TEXT_BOLD),
                  text_width (ctx, FG_("measured"), label_size (ctx->style), WS_TEXT_BOLD));

  for (guint t = 0; t < f->n_terms; t++)
    w = MAX (w, text_width (ctx, f->terms[t].name, label_size (ctx->style), WS_TEXT_BOLD));
  return ceil (w + 8);
}

static double
time_min_width (WsFigureContext         *ctx,
                const WsHierarchyFigure *f)
{
  /* a name, a bar, and the shortest value text: "1.23 ms" */
  g_autofree char *value = g_strdup_printf (FG_("%s, bound"), "999 ms");

  return term_name_width (ctx, f) + 40 + text_width (ctx, value, label_size (ctx->style), 0) + 8;
}

/* The words over a box: its name, its detail wrapped to the box. */
/* A level's name alone. */
static double
bare_top_height (WsFigureContext *ctx)
{
  return ceil (BOX_PAD + line_height (ctx, name_size (ctx->style)) + BOX_PAD);
}

static double
box_top_height (WsFigureContext         *ctx,
                const WsHierarchyFigure *f,
                guint                    l,
                double                   box_w)
{
  const WsFigureStyle *s = ctx->style;
  double h = BOX_PAD + line_height (ctx, name_size (s));

  if (f->levels[l].detail)
    {
      WsTextOptions o = { .size = small_size (s), .max_width = box_w - 2 * BOX_PAD, .wrap = TRUE };
      double dh;

      pango_layout_set_alignment (ctx->layout, PANGO_ALIGN_CENTER);
      ws_figure_text_size (ctx, f->levels[l].detail, &o, NULL, &dh);
      pango_layout_set_alignment (ctx->layout, PANGO_ALIGN_LEFT);
      h += 2 + dh;
    }
  return ceil (h + BOX_PAD);
}

/* The hit rates, in the middle of the pillar. */
static double
box_middle_height (WsFigureContext         *ctx,
                   const WsHierarchyFigure *f,
                   guint                    l)
{
  const WsHierPair *p = &f->levels[l].hit_rate;
  double lh = line_height (ctx, label_size (ctx->style));

  return (has (p->model) ? lh : 0) + (has (p->counted) ? lh : 0);
}

/* The least room for the bands, and for the hit rates between them. */
static double
zone_min_height (WsFigureContext         *ctx,
                 const WsHierarchyFigure *f)
{
  double h = 4 * EXTENT * MIN_BAND + BAND_GAP;

  for (guint l = 0; l < WS_HIER_N_LEVELS; l++)
    h = MAX (h, box_middle_height (ctx, f, l) + 8);
  return ceil (h);
}

static double
flow_label_height (WsFigureContext         *ctx,
                   const WsHierarchyFigure *f)
{
  return line_height (ctx, label_size (ctx->style)) * (has_counters (f) ? 2 : 1) + 4;
}

static int
compare_terms (gconstpointer a,
               gconstpointer b,
               gpointer      data)
{
  const WsHierarchyFigure *f = data;
  double ta = f->terms[*(const guint *) a].seconds, tb = f->terms[*(const guint *) b].seconds;

  return ta < tb ? 1 : ta > tb ? -1 : 0;
}

static void
sort_terms (const WsHierarchyFigure *f,
            HierLayout              *lay)
{
  lay->n_sorted = 0;
  for (guint t = 0; t < f->n_terms; t++)
    if (has (f->terms[t].seconds) && f->terms[t].seconds > 0)
      lay->sorted[lay->n_sorted++] = t;
  g_qsort_with_data (lay->sorted, lay->n_sorted, sizeof (guint), compare_terms, (gpointer) f);
}

static double
time_fixed_height (const HierLayout *lay)
{
  guint rows = (lay->predicted_row ? 1 : 0) + (lay->measured_row ? 1 : 0);

  if (rows == 0 && lay->n_sorted == 0)
    return 0;
  return lay->header_h + rows * lay->row_h;
}

/* The least rows of the time: the prediction (which names the bound when
 * the levels have no rows) and the measurement. */
static guint
time_min_rows (const HierLayout *lay)
{
  return (lay->predicted_row ? 1 : 0) + (lay->measured_row ? 1 : 0) + (!lay->predicted_row && lay->n_sorted > 0);
}

static void
hier_layout (WsFigureContext         *ctx,
             const WsHierarchyFigure *f,
             HierLayout              *lay)
{
  const WsFigureStyle *s = ctx->style;
  double m = WS_FIGURE_MARGIN, top, bottom, box_w, link_w, avail, fixed, flows_h;
  WsLegendItem legend[4];
  guint n_legend = legend_items (f, s, legend);
  guint rows_fit;

  memset (lay, 0, sizeof *lay);
  lay->caption_h = ws_figure_caption_height (ctx, MAX (1, ctx->width - 2 * m), f->title, f->subtitle);
  lay->legend_h = n_legend ? ws_figure_legend_height (ctx, MAX (1, ctx->width - 2 * m), legend, n_legend) : 0;
  top = m + lay->caption_h + (lay->caption_h > 0 ? ceil (s->font_size * 0.8) : 0);
  bottom = m + lay->legend_h + (lay->legend_h > 0 ? ceil (s->font_size * 0.6) : 0);
  lay->legend_y = ctx->height - m - lay->legend_h;
  lay->content = (WsBox) { m, top, MAX (1, ctx->width - 2 * m), MAX (1, ctx->height - top - bottom) };
  lay->message = f->message != NULL;
  if (lay->message)
    return;

  /* columns: pillars as wide as their words want, links share the rest */
  box_w = MAX (box_min_width (ctx, f), MIN (170, floor (lay->content.w * 0.12)));
  link_w = floor ((lay->content.w - WS_HIER_N_LEVELS * box_w) / WS_HIER_N_LINKS);
  for (guint l = 0; l < WS_HIER_N_LEVELS; l++)
    {
      lay->boxes[l].x = lay->content.x + l * (box_w + link_w);
      lay->boxes[l].w = box_w;
    }
  for (guint k = 0; k < WS_HIER_N_LINKS; k++)
    {
      lay->link_x0[k] = lay->boxes[k].x + box_w;
      lay->link_x1[k] = lay->boxes[k + 1].x;
    }
  lay->max_bytes = flow_max (f);
  lay->bottom_h = flow_label_height (ctx, f) + 4;
  lay->row_h = ceil (line_height (ctx, label_size (s)) * 1.35);
  lay->predicted_row = has (f->predicted_s);
  lay->measured_row = has (f->measured_s);
  lay->name_w = term_name_width (ctx, f);
  lay->value_w = MIN (text_width (ctx, "999 ms, bounds the launch", label_size (s), 0) + 10,
                      lay->content.w - lay->name_w - 40);
  sort_terms (f, lay);
  /* where room is short, the time's header goes first, then the details
   * under the levels' names (their tooltips still say them) */
  {
    double top_bare = MAX (bare_top_height (ctx), flow_label_height (ctx, f) + 4), top_full = top_bare;
    double header = ceil (line_height (ctx, small_size (s)) * 1.5);
    double base = zone_min_height (ctx, f) + lay->bottom_h + time_min_rows (lay) * lay->row_h +
                  (time_min_rows (lay) > 0 ? ceil (s->font_size * 0.8) : 0);

    for (guint l = 0; l < WS_HIER_N_LEVELS; l++)
      top_full = MAX (top_full, box_top_height (ctx, f, l, box_w));
    lay->details = lay->content.h >= base + top_full;
    lay->top_h = lay->details ? top_full : top_bare;
    lay->header_h = time_min_rows (lay) > 0 && lay->content.h >= base + lay->top_h + header ? header : 0;
  }

  /* the time: a header, a row per level (the slowest first), the
   * prediction and the measurement */
  fixed = time_fixed_height (lay);
  avail = lay->content.h - fixed - (fixed > 0 || lay->n_sorted > 0 ? ceil (s->font_size * 0.8) : 0) - lay->top_h -
          lay->bottom_h;
  /* the bands keep a good thickness, the levels' rows take what is left */
  rows_fit = avail > 4 * EXTENT * NICE_BAND + BAND_GAP
               ? (guint) ((avail - 4 * EXTENT * NICE_BAND - BAND_GAP) / lay->row_h) : 0;
  lay->n_rows = MIN (lay->n_sorted, MAX (rows_fit, lay->n_sorted > 0 && !lay->predicted_row ? 1 : 0));
  lay->time.h = lay->n_sorted + lay->predicted_row + lay->measured_row > 0 ? fixed + lay->n_rows * lay->row_h : 0;
  lay->time.x = lay->content.x;
  lay->time.w = lay->content.w;
  lay->time.y = lay->content.y + lay->content.h - lay->time.h;

  flows_h = lay->content.h - lay->time.h - (lay->time.h > 0 ? ceil (s->font_size * 0.8) : 0);
  lay->flows = (WsBox) { lay->content.x, lay->content.y, lay->content.w, MAX (1, flows_h) };
  /* the pillars fill the room above the time; the bands are as thick as
   * it allows, arrowheads included */
  lay->zone_y = lay->flows.y + lay->top_h;
  lay->zone_h = MAX (1, flows_h - lay->top_h - lay->bottom_h);
  lay->band = MIN (MOST_BAND, (lay->zone_h - BAND_GAP) / (4 * EXTENT));
  for (guint l = 0; l < WS_HIER_N_LEVELS; l++)
    {
      lay->boxes[l].y = lay->flows.y;
      lay->boxes[l].h = flows_h;
    }
}

typedef struct
{
  double width;
  double height;
  double natural;
} HierNeeds;

static HierNeeds
hier_needs (WsFigureContext         *ctx,
            const WsHierarchyFigure *f)
{
  const WsFigureStyle *s = ctx->style;
  HierLayout lay;
  HierNeeds n;
  double width = WS_HIER_N_LEVELS * box_min_width (ctx, f) + WS_HIER_N_LINKS * link_min_width (ctx, f);
  double chrome, flows_min, time_min, time_all, gap = ceil (s->font_size * 0.8);

  width = MAX (width, time_min_width (ctx, f));
  n.width = ceil (width + 2 * WS_FIGURE_MARGIN);
  hier_layout (ctx, f, &lay);
  chrome = lay.content.y + WS_FIGURE_MARGIN + lay.legend_h + (lay.legend_h > 0 ? ceil (s->font_size * 0.6) : 0);
  if (lay.message)
    {
      n.height = chrome + ws_figure_message_height (ctx, lay.content.w, f->message) + 8;
      n.natural = MAX (n.height, chrome + 200);
      return n;
    }
  {
    double top_bare = MAX (bare_top_height (ctx), flow_label_height (ctx, f) + 4), top_full = top_bare;
    double header = ceil (line_height (ctx, small_size (s)) * 1.5);
    double box_w = lay.boxes[0].w;
    guint rows = time_min_rows (&lay);

    for (guint l = 0; l < WS_HIER_N_LEVELS; l++)
      top_full = MAX (top_full, box_top_height (ctx, f, l, box_w));
    flows_min = top_bare + zone_min_height (ctx, f) + lay.bottom_h;
    time_min = rows * lay.row_h;
    time_all = time_min + (lay.n_sorted > 1 ? (lay.n_sorted - 1) * lay.row_h : 0) + (rows > 0 ? header : 0);
    n.height = ceil (chrome + flows_min + (time_min > 0 ? gap + time_min : 0));
    n.natural = ceil (chrome + top_full + 4 * EXTENT * NICE_BAND + BAND_GAP + lay.bottom_h +
                      (time_all > 0 ? gap + time_all : 0));
  }
  n.natural = MAX (n.natural, n.height);
  return n;
}

static HierNeeds
needs_at (const WsHierarchyFigure *f,
          const WsFigureStyle     *style,
          double                   width)
{
  WsFigureContext ctx;
  HierNeeds n;

  ws_figure_context_init_measure (&ctx, style, width, 0);
  n = hier_needs (&ctx, f);
  ws_figure_context_clear (&ctx);
  return n;
}

double
ws_hierarchy_figure_min_width (const WsHierarchyFigure *figure,
                               const WsFigureStyle     *style)
{
  g_return_val_if_fail (figure != NULL && style != NULL, 0);
  return needs_at (figure, style, 2000).width;
}

double
ws_hierarchy_figure_min_height (const WsHierarchyFigure *figure,
                                const WsFigureStyle     *style,
                                double                   width)
{
  g_return_val_if_fail (figure != NULL && style != NULL, 0);
  return needs_at (figure, style, MAX (width, ws_hierarchy_figure_min_width (figure, style))).height;
}

double
ws_hierarchy_figure_natural_height (const WsHierarchyFigure *figure,
                                    const WsFigureStyle     *style,
                                    double                   width)
{
  g_return_val_if_fail (figure != NULL && style != NULL, 0);
  return needs_at (figure, style, MAX (width, ws_hierarchy_figure_min_width (figure, style))).natural;
}

/* ------------------------------------------------------------------ */
/* Where things are                                                   */
/* ------------------------------------------------------------------ */

static double
band_y (const HierLayout *lay,
        WsHierDirection   d)
{
  double mid = lay->zone_y + lay->zone_h / 2;

  return d == WS_HIER_READ ? mid - BAND_GAP / 2 - EXTENT * lay->band : mid + BAND_GAP / 2 + EXTENT * lay->band;
}

static double
thickness (const HierLayout *lay,
           double            bytes)
{
  if (!has (bytes) || bytes <= 0 || lay->max_bytes <= 0)
    return 0;
  return MAX (3.0, lay->band * bytes / lay->max_bytes);
}

/* A flow's part of the figure: its band and its label. */
static WsBox
flow_box (const HierLayout *lay,
          guint             k,
          WsHierDirection   d)
{
  double x0 = lay->link_x0[k], w = lay->link_x1[k] - x0;

  double mid = lay->zone_y + lay->zone_h / 2;

  if (d == WS_HIER_READ)
    return (WsBox) { x0, lay->flows.y, w, mid - lay->flows.y };
  return (WsBox) { x0, mid, w, lay->flows.y + lay->flows.h - mid };
}

static WsBox
row_box (const HierLayout *lay,
         guint             row)
{
  double y = lay->time.y + lay->header_h + row * lay->row_h;

  return (WsBox) { lay->time.x, y, lay->time.w, lay->row_h };
}

static double
time_scale (const WsHierarchyFigure *f,
            const HierLayout        *lay)
{
  double top = 0;

  for (guint i = 0; i < lay->n_sorted; i++)
    top = MAX (top, f->terms[lay->sorted[i]].seconds);
  if (has (f->predicted_s))
    top = MAX (top, f->predicted_s);
  if (has (f->measured_hi))
    top = MAX (top, f->measured_hi);
  else if (has (f->measured_s))
    top = MAX (top, f->measured_s);
  return top;
}

/* ------------------------------------------------------------------ */
/* Drawing                                                            */
/* ------------------------------------------------------------------ */

static gboolean
hovered (const WsHierarchyFigure *f,
         WsHierHitKind            kind,
         int                      index,
         WsHierDirection          d)
{
  WsHierHit h = { kind, index, d };

  return ws_hier_hit_equal (&f->hover, &h);
}

/* A band from x0 to x1 around y, t thick, with its head at the left
 * (reads come up) or the right (writes go down). */
static void
band_path (WsFigureContext *ctx,
           double           x0,
           double           x1,
           double           y,
           double           t,
           WsHierDirection  d)
{
  cairo_t *cr = ctx->cr;
  double flare = MAX (3, t * (EXTENT - 0.5)), head = MIN ((x1 - x0) * 0.3, MAX (8, (t / 2 + flare) * 0.9));

  if (d == WS_HIER_READ)
    {
      cairo_move_to (cr, x0, y);
      cairo_line_to (cr, x0 + head, y - t / 2 - flare);
      cairo_line_to (cr, x0 + head, y - t / 2);
      cairo_line_to (cr, x1, y - t / 2);
      cairo_line_to (cr, x1, y + t / 2);
      cairo_line_to (cr, x0 + head, y + t / 2);
      cairo_line_to (cr, x0 + head, y + t / 2 + flare);
    }
  else
    {
      cairo_move_to (cr, x1, y);
      cairo_line_to (cr, x1 - head, y + t / 2 + flare);
      cairo_line_to (cr, x1 - head, y + t / 2);
      cairo_line_to (cr, x0, y + t / 2);
      cairo_line_to (cr, x0, y - t / 2);
      cairo_line_to (cr, x1 - head, y - t / 2);
      cairo_line_to (cr, x1 - head, y - t / 2 - flare);
    }
  cairo_close_path (cr);
}

static void
draw_flow (WsFigureContext         *ctx,
           const WsHierarchyFigure *f,
           const HierLayout        *lay,
           guint                    k,
           WsHierDirection          d)
{
  const WsFigureStyle *s = ctx->style;
  const WsHierPair *p = &f->flows[k][d].bytes;
  double x0 = lay->link_x0[k] + 3, x1 = lay->link_x1[k] - 3, y = band_y (lay, d);
  double tm = thickness (lay, p->model), tc = thickness (lay, p->counted);
  gboolean hover = hovered (f, WS_HIER_HIT_FLOW, k, d);
  WsRgba hue = ws_figure_style_hue (s, f->counted_hue);

  if (tm <= 0 && tc <= 0)
    {
      /* nothing flows: a dotted trace of where it would */
      double dash[] = { 2, 4 };
      cairo_set_dash (ctx->cr, dash, 2, 0);
      cairo_move_to (ctx->cr, x0, y);
      cairo_line_to (ctx->cr, x1, y);
      ws_figure_set_color (ctx, s->grid);
      cairo_stroke (ctx->cr);
      cairo_set_dash (ctx->cr, NULL, 0, 0);
      return;
    }
  if (tm > 0)
    {
      band_path (ctx, x0, x1, y, tm, d);
      ws_figure_set_color (ctx, ws_rgba_alpha (s->model, hover ? 0.95 : 0.75));
      cairo_fill (ctx->cr);
    }
  if (tc > 0)
    {
      /* the outline's inner edge is the counters' thickness */
      band_path (ctx, x0, x1, y, tc + 2 * s->line_width, d);
      ws_figure_set_color (ctx, hue);
      cairo_set_line_width (ctx->cr, 2 * s->line_width);
      cairo_set_line_join (ctx->cr, CAIRO_LINE_JOIN_MITER);
      cairo_stroke (ctx->cr);
      cairo_set_line_width (ctx->cr, s->line_width);
    }
  if (hover)
    {
      WsBox b = flow_box (lay, k, d);
      ws_figure_rounded_rect (ctx, b.x + 1, b.y + 1, b.w - 2, b.h - 2, 4);
      ws_figure_set_color (ctx, ws_rgba_alpha (s->foreground, 0.5));
      cairo_stroke (ctx->cr);
    }
}

/* The flow's words, over a read band or under a write band. */
static void
draw_flow_label (WsFigureContext         *ctx,
                 const WsHierarchyFigure *f,
                 const HierLayout        *lay,
                 guint                    k,
                 WsHierDirection          d)
{
  const WsFigureStyle *s = ctx->style;
  double size = label_size (s), lh = line_height (ctx, size), width = lay->link_x1[k] - lay->link_x0[k] - 8;
  double cx = (lay->link_x0[k] + lay->link_x1[k]) / 2;
  WsTextOptions o = { .size = size, .ax = 0.5, .ay = 0 };
  const WsHierPair *p = &f->flows[k][d].bytes;
  /* just clear of this band's own arrow */
  double reach = MAX (EXTENT * MAX (thickness (lay, p->model), thickness (lay, p->counted) + 2), 4);
  const char *model, *counted;
  double y;
  FlowWords w;

  flow_words (f, k, d, &w);
  model = first_fitting (ctx, (const char * const *) w.model, 2, size, w.none ? 0 : WS_TEXT_BOLD, width);
  counted = w.none ? NULL : first_fitting (ctx, (const char * const *) w.counted, 3, size, 0, width);
  /* reads: the model's words, then the counters', just over the zone;
   * writes: the same, just under it */
  if (d == WS_HIER_READ)
    y = band_y (lay, d) - reach - 4 - lh * ((model ? 1 : 0) + (counted ? 1 : 0));
  else
    y = band_y (lay, d) + reach + 4;
  if (model)
    {
      o.flags = w.none ? 0 : WS_TEXT_BOLD;
      ws_figure_set_color (ctx, w.none ? s->muted : s->model);
      ws_figure_text (ctx, cx, y, model, &o, NULL, NULL);
      y += lh;
    }
  if (counted)
    {
      o.flags = 0;
      ws_figure_set_color (ctx, s->foreground);
      ws_figure_text (ctx, cx, y, counted, &o, NULL, NULL);
    }
  flow_words_clear (&w);
}

static void
draw_box (WsFigureContext         *ctx,
          const WsHierarchyFigure *f,
          const HierLayout        *lay,
          guint                    l)
{
  const WsFigureStyle *s = ctx->style;
  const WsBox *b = &lay->boxes[l];
  const WsHierBox *box = &f->levels[l];
  gboolean hover = hovered (f, WS_HIER_HIT_LEVEL, l, 0);
  double cx = b->x + b->w / 2, y = b->y + BOX_PAD, size = label_size (s), lh = line_height (ctx, size);
  double width = b->w - 2 * BOX_PAD;
  WsTextOptions o = { .size = name_size (s), .flags = WS_TEXT_BOLD, .ax = 0.5 };
  double h;
  HitWords w;

  ws_figure_rounded_rect (ctx, b->x, b->y, b->w, b->h, 6);
  ws_figure_set_color (ctx, s->surface);
  cairo_fill_preserve (ctx->cr);
  ws_figure_set_color (ctx, hover ? s->foreground : s->grid);
  cairo_set_line_width (ctx->cr, (hover ? 2 : 1) * s->line_width);
  cairo_stroke (ctx->cr);
  cairo_set_line_width (ctx->cr, s->line_width);

  ws_figure_set_color (ctx, s->foreground);
  if (box->name)
    {
      ws_figure_text (ctx, cx, y, box->name, &o, NULL, &h);
      y += h + 2;
    }
  if (box->detail && lay->details)
    {
      o = (WsTextOptions) { .size = small_size (s), .ax = 0.5, .max_width = width, .wrap = TRUE };
      ws_figure_set_color (ctx, s->muted);
      pango_layout_set_alignment (ctx->layout, PANGO_ALIGN_CENTER);
      ws_figure_text (ctx, cx, y, box->detail, &o, NULL, NULL);
      pango_layout_set_alignment (ctx->layout, PANGO_ALIGN_LEFT);
    }
  hit_words (f, l, &w);
  /* the hit rates in the middle, between what comes in and what goes on */
  y = lay->zone_y + lay->zone_h / 2 - lh * ((w.model[0] ? 1 : 0) + (w.counted[0] ? 1 : 0)) / 2;
  if (w.model[0])
    {
      const char *t = first_fitting (ctx, (const char * const *) w.model, 2, size, WS_TEXT_BOLD, width);
      o = (WsTextOptions) { .size = size, .flags = WS_TEXT_BOLD, .ax = 0.5 };
      ws_figure_set_color (ctx, s->model);
      if (t)
        ws_figure_text (ctx, cx, y, t, &o, NULL, NULL);
      y += lh;
    }
  if (w.counted[0])
    {
      const char *t = first_fitting (ctx, (const char * const *) w.counted, 2, size, 0, width);
      o = (WsTextOptions) { .size = size, .ax = 0.5 };
      ws_figure_set_color (ctx, s->foreground);
      if (t)
        ws_figure_text (ctx, cx, y, t, &o, NULL, NULL);
    }
  hit_words_clear (&w);
}

/* One row of the time: a name, a bar, its value. */
static void
draw_row (WsFigureContext *ctx,
          const HierLayout *lay,
          const WsBox      *row,
          const char       *name,
          gboolean          bold,
          double            seconds,
          double            lo,
          double            hi,
          double            top,
          WsRgba            color,
          const char       *value,
          gboolean          hover)
{
  const WsFigureStyle *s = ctx->style;
  double x0 = row->x + lay->name_w, span = row->w - lay->name_w - lay->value_w;
  double cy = row->y + row->h / 2, bh = MAX (4, row->h * 0.55);
  double x1 = x0 + span * seconds / top;
  WsTextOptions o = { .size = label_size (s), .flags = bold ? WS_TEXT_BOLD : 0, .ax = 0, .ay = 0.5 };
  const char *shown;

  if (hover)
    {
      cairo_rectangle (ctx->cr, row->x, row->y, row->w, row->h);
      ws_figure_set_color (ctx, ws_rgba_alpha (s->foreground, 0.08));
      cairo_fill (ctx->cr);
    }
  ws_figure_set_color (ctx, s->foreground);
  ws_figure_text (ctx, row->x, cy, name, &o, NULL, NULL);
  cairo_rectangle (ctx->cr, x0, cy - bh / 2, MAX (1, x1 - x0), bh);
  ws_figure_set_color (ctx, color);
  cairo_fill (ctx->cr);
  if (has (lo) && has (hi) && hi > lo)
    {
      /* fastest to slowest sample */
      double a = x0 + span * lo / top, b = x0 + span * hi / top;
      ws_figure_set_color (ctx, s->foreground);
      cairo_move_to (ctx->cr, a, cy);
      cairo_line_to (ctx->cr, b, cy);
      cairo_move_to (ctx->cr, a, cy - bh / 2);
      cairo_line_to (ctx->cr, a, cy + bh / 2);
      cairo_move_to (ctx->cr, b, cy - bh / 2);
      cairo_line_to (ctx->cr, b, cy + bh / 2);
      cairo_stroke (ctx->cr);
      x1 = MAX (x1, b);
    }
  o.flags = 0;
  shown = value;
  if (text_width (ctx, value, o.size, 0) > row->x + row->w - x1 - 6)
    shown = NULL;
  if (shown)
    {
      ws_figure_set_color (ctx, s->foreground);
      ws_figure_text (ctx, x1 + 6, cy, shown, &o, NULL, NULL);
    }
}

static char *
time_header (const WsHierarchyFigure *f,
             const HierLayout        *lay)
{
  if (lay->n_sorted == 0)
    return g_strdup (FG_("Time per launch"));
  if (lay->n_rows == 0)
    return g_strdup (FG_("Time per launch"));
  if (lay->n_rows == 1 && lay->n_sorted > 1)
    /* Translators: the number of levels (SMs, L1, L2, DRAM), always more than one */
    return g_strdup_printf (FG_("Time the slowest of %u levels would take alone: it bounds the launch"), lay->n_sorted);
  if (lay->n_rows < lay->n_sorted)
    /* Translators: the levels shown, and all the levels */
    return g_strdup_printf (FG_("Time each level would take alone (the %u slowest of %u); the slowest bounds the "
                              "launch"),
                            lay->n_rows, lay->n_sorted);
  return g_strdup (FG_("Time each level would take alone; the slowest bounds the launch"));
}

static void
draw_time (WsFigureContext         *ctx,
           const WsHierarchyFigure *f,
           const HierLayout        *lay)
{
  const WsFigureStyle *s = ctx->style;
  double top = time_scale (f, lay);
  g_autofree char *header = time_header (f, lay);
  WsTextOptions o = { .size = small_size (s), .max_width = lay->time.w, .wrap = FALSE };
  const char *headers[] = { header, FG_("Time each level would take alone"), FG_("Time") };
  const char *shown = first_fitting (ctx, headers, G_N_ELEMENTS (headers), o.size, 0, lay->time.w);
  guint row = 0;

  if (lay->time.h <= 0 || top <= 0)
    return;
  if (shown && lay->header_h > 0)
    {
      o.max_width = 0;
      ws_figure_set_color (ctx, s->muted);
      ws_figure_text (ctx, lay->time.x, lay->time.y, shown, &o, NULL, NULL);
    }
  for (guint i = 0; i < lay->n_rows; i++, row++)
    {
      guint t = lay->sorted[i];
      gboolean bound = (int) t == f->bound;
      g_autofree char *v = format_time (f->terms[t].seconds);
      /* Translators: a time, "1.2 ms, bound": the level that bounds the launch */
      g_autofree char *value = bound ? g_strdup_printf (FG_("%s, bound"), v) : g_strdup (v);
      WsBox b = row_box (lay, row);

      draw_row (ctx, lay, &b, f->terms[t].name, bound, f->terms[t].seconds, NAN, NAN, top,
                ws_rgba_alpha (s->model, bound ? 0.8 : 0.3), value, hovered (f, WS_HIER_HIT_TERM, t, 0));
    }
  if (lay->predicted_row)
    {
      g_autofree char *v = format_time (f->predicted_s);
      /* the bound, where its row is not shown */
      gboolean named = lay->n_rows > 0 || f->bound < 0 || (guint) f->bound >= f->n_terms;
      /* Translators: a time, and the level that bounds it: "1.2 ms, bound by DRAM" */
      g_autofree char *value = named ? g_strdup (v) : g_strdup_printf (FG_("%s, bound by %s"), v,
                                                                         f->terms[f->bound].name);
      WsBox b = row_box (lay, row++);
      draw_row (ctx, lay, &b, FG_("predicted"), TRUE, f->predicted_s, NAN, NAN, top, s->model, value,
                hovered (f, WS_HIER_HIT_PREDICTED, -1, 0));
    }
  if (lay->measured_row)
    {
      g_autofree char *v = format_time (f->measured_s);
      g_autofree char *off = format_off (f->predicted_s, f->measured_s);
      /* Translators: a time measured, and how far the model is from it ("+12 %") */
      g_autofree char *value = off ? g_strdup_printf (FG_("%s, model %s"), v, off) : g_strdup (v);
      WsBox b = row_box (lay, row++);
      draw_row (ctx, lay, &b, FG_("measured"), TRUE, f->measured_s, f->measured_lo, f->measured_hi, top,
                ws_figure_style_hue (s, f->counted_hue), value, hovered (f, WS_HIER_HIT_MEASURED, -1, 0));
    }
}

static void
hier_draw (WsFigureContext         *ctx,
           const WsHierarchyFigure *f,
           const HierLayout        *lay)
{
  const WsFigureStyle *s = ctx->style;
  WsLegendItem legend[4];
  guint n_legend = legend_items (f, s, legend);

  ws_figure_caption (ctx, WS_FIGURE_MARGIN, WS_FIGURE_MARGIN, MAX (1, ctx->width - 2 * WS_FIGURE_MARGIN), f->title,
                     f->subtitle);
  if (n_legend > 0)
    ws_figure_draw_legend (ctx, WS_FIGURE_MARGIN, lay->legend_y, ctx->width - 2 * WS_FIGURE_MARGIN, legend,
                           n_legend);
  if (lay->message)
    {
      ws_figure_draw_message (ctx, lay->content, f->message);
      return;
    }
  for (guint l = 0; l < WS_HIER_N_LEVELS; l++)
    draw_box (ctx, f, lay, l);
  for (guint k = 0; k < WS_HIER_N_LINKS; k++)
    for (guint d = 0; d < WS_HIER_N_DIRECTIONS; d++)
      {
        draw_flow (ctx, f, lay, k, d);
        draw_flow_label (ctx, f, lay, k, d);
      }
  draw_time (ctx, f, lay);
}

void
ws_hierarchy_figure_draw (cairo_t                 *cr,
                          const WsHierarchyFigure *figure,
                          const WsFigureStyle     *style,
                          double                   width,
                          double                   height)
{
  WsFigureContext ctx;
  HierNeeds needs;
  HierLayout lay;

  g_return_if_fail (cr != NULL && figure != NULL && style != NULL);

  cairo_save (cr);
  ws_figure_context_init (&ctx, cr, style, width, height);
  cairo_set_line_width (cr, style->line_width);
  needs = hier_needs (&ctx, figure);
  if (width < floor (needs.width) || height < floor (needs.height))
    ws_figure_draw_too_small (cr, style, width, height, FG_("view"), needs.width, needs.height);
  else
    {
      hier_layout (&ctx, figure, &lay);
      hier_draw (&ctx, figure, &lay);
    }
  ws_figure_context_clear (&ctx);
  cairo_restore (cr);
}

void
ws_hierarchy_figure_export_draw (cairo_t             *cr,
                                 const WsFigureStyle *style,
                                 double               width,
                                 double               height,
                                 gpointer             figure)
{
  ws_hierarchy_figure_draw (cr, figure, style, width, height);
}

/* ------------------------------------------------------------------ */
/* Hit testing and tooltips                                           */
/* ------------------------------------------------------------------ */

gboolean
ws_hierarchy_figure_hit_test (const WsHierarchyFigure *f,
                              const WsFigureStyle     *style,
                              double                   width,
                              double                   height,
                              double                   x,
                              double                   y,
                              WsHierHit               *hit)
{
  WsFigureContext ctx;
  HierNeeds needs;
  HierLayout lay;
  gboolean found = FALSE;
  guint row = 0;

  g_return_val_if_fail (f != NULL && style != NULL && hit != NULL, FALSE);

  *hit = WS_HIER_HIT_INIT;
  ws_figure_context_init_measure (&ctx, style, width, height);
  needs = hier_needs (&ctx, f);
  if (width < floor (needs.width) || height < floor (needs.height))
    goto out;
  hier_layout (&ctx, f, &lay);
  if (lay.message)
    goto out;
  for (guint l = 0; l < WS_HIER_N_LEVELS && !found; l++)
    if (ws_box_contains (&lay.boxes[l], x, y))
      {
        *hit = (WsHierHit) { WS_HIER_HIT_LEVEL, l, WS_HIER_READ };
        found = TRUE;
      }
  for (guint k = 0; k < WS_HIER_N_LINKS && !found; k++)
    for (guint d = 0; d < WS_HIER_N_DIRECTIONS && !found; d++)
      {
        WsBox b = flow_box (&lay, k, d);
        if (ws_box_contains (&b, x, y))
          {
            *hit = (WsHierHit) { WS_HIER_HIT_FLOW, k, d };
            found = TRUE;
          }
      }
  for (guint i = 0; i < lay.n_rows && !found; i++, row++)
    {
      WsBox b = row_box (&lay, row);
      if (ws_box_contains (&b, x, y))
        {
          *hit = (WsHierHit) { WS_HIER_HIT_TERM, lay.sorted[i], WS_HIER_READ };
          found = TRUE;
        }
    }
  if (!found && lay.predicted_row)
    {
      WsBox b = row_box (&lay, row++);
      if ((found = ws_box_contains (&b, x, y)))
        *hit = (WsHierHit) { WS_HIER_HIT_PREDICTED, -1, WS_HIER_READ };
    }
  if (!found && lay.measured_row)
    {
      WsBox b = row_box (&lay, row++);
      if ((found = ws_box_contains (&b, x, y)))
        *hit = (WsHierHit) { WS_HIER_HIT_MEASURED, -1, WS_HIER_READ };
    }
out:
  ws_figure_context_clear (&ctx);
  return found;
}

static const char *
level_name (const WsHierarchyFigure *f,
            guint                    l)
{
  static const char *names[WS_HIER_N_LEVELS] = { N_("the SMs"), "L1", "L2", "DRAM" };

  return f->levels[l].name ? f->levels[l].name : l == WS_HIER_SMS ? FG_(names[l]) : names[l];
}

/* "4.19 M sectors (134 MB)", "134 MB" */
static char *
describe_amount (double bytes,
                 guint  unit)
{
  g_autofree char *b = ws_hier_format_bytes (bytes);
  g_autofree char *n = NULL;

  if (unit <= 1)
    return g_steal_pointer (&b);
  n = ws_hier_format_count (bytes / unit);
  /* Translators: a number of sectors ("4.19 M"), and their bytes ("134 MB") */
  return g_strdup_printf (FG_("%s sectors (%s)"), n, b);
}

static char *
describe_flow (const WsHierarchyFigure *f,
               guint                    k,
               WsHierDirection          d)
{
  const WsHierFlow *flow = &f->flows[k][d];
  GString *s = g_string_new (NULL);

  if (d == WS_HIER_READ)
    /* Translators: two levels of the memory hierarchy, "L1 reads from L2" */
    g_string_append_printf (s, FG_("%s reads from %s"), level_name (f, k), level_name (f, k + 1));
  else
    /* Translators: two levels of the memory hierarchy, "L1 writes to L2" */
    g_string_append_printf (s, FG_("%s writes to %s"), level_name (f, k), level_name (f, k + 1));
  g_string_append_c (s, '\n');
  if (has (flow->bytes.model))
    {
      g_autofree char *a = describe_amount (flow->bytes.model, flow->unit);
      /* Translators: the bytes the model moves, "4.19 M sectors (134 MB)" */
      g_string_append_printf (s, FG_("model: %s"), a);
    }
  else
    g_string_append (s, FG_("model: no figure"));
  if (has (flow->bytes.counted))
    {
      g_autofree char *a = describe_amount (flow->bytes.counted, flow->unit);
      g_autofree char *off = format_off (flow->bytes.model, flow->bytes.counted);
      g_string_append_c (s, '\n');
      /* Translators: the bytes the counters saw, "4.19 M sectors (134 MB)" */
      g_string_append_printf (s, FG_("counted: %s"), a);
      if (off)
        /* Translators: how far the model is from the counters ("+12 %"), or "right" */
        g_string_append_printf (s, FG_(" — the model is %s"), g_str_equal (off, "±0 %") ? FG_("right") : off);
    }
  else if (has_counters (f))
    {
      g_string_append_c (s, '\n');
      g_string_append (s, FG_("counted: not counted"));
    }
  if (flow->counter)
    g_string_append_printf (s, "\n%s", flow->counter);
  if (flow->note)
    g_string_append_printf (s, "\n%s", flow->note);
  return g_string_free (s, FALSE);
}

static char *
describe_level (const WsHierarchyFigure *f,
                guint                    l)
{
  const WsHierBox *b = &f->levels[l];
  GString *s = g_string_new (level_name (f, l));

  if (b->detail)
    g_string_append_printf (s, ": %s", b->detail);
  if (has (b->hit_rate.model))
    {
      g_autofree char *r = format_rate (b->hit_rate.model);
      g_string_append_c (s, '\n');
      if (b->hit_what)
        /* Translators: a hit rate ("85 %"), and what it is of ("of the sectors read") */
        g_string_append_printf (s, FG_("model: %s hits %s"), r, b->hit_what);
      else
        /* Translators: a hit rate, "85 %" */
        g_string_append_printf (s, FG_("model: %s hits"), r);
    }
  if (has (b->hit_rate.counted))
    {
      g_autofree char *r = format_rate (b->hit_rate.counted);
      g_string_append_c (s, '\n');
      /* Translators: a hit rate, "85 %" */
      g_string_append_printf (s, FG_("counted: %s hits"), r);
    }
  if (b->note)
    g_string_append_printf (s, "\n%s", b->note);
  return g_string_free (s, FALSE);
}

static char *
describe_time (const WsHierarchyFigure *f,
               const WsHierHit         *hit)
{
  GString *s = g_string_new (NULL);

  if (hit->kind == WS_HIER_HIT_TERM)
    {
      const WsHierTerm *t = &f->terms[hit->index];
      g_autofree char *v = format_time (t->seconds);
      /* Translators: a level ("DRAM"), and the time it would take alone */
      g_string_append_printf (s, FG_("%s alone: %s"), t->name, v);
      if (t->note)
        g_string_append_printf (s, "\n%s", t->note);
      if (hit->index == f->bound)
        g_string_append_printf (s, "\n%s", FG_("The slowest level: it bounds the launch"));
    }
  else if (hit->kind == WS_HIER_HIT_PREDICTED)
    {
      g_autofree char *v = format_time (f->predicted_s);
      /* Translators: a time, "1.2 ms" */
      g_string_append_printf (s, FG_("Predicted: %s per launch"), v);
      if (f->bound >= 0 && (guint) f->bound < f->n_terms)
        {
          g_string_append_c (s, '\n');
          /* Translators: "bound by DRAM" */
          g_string_append_printf (s, FG_("bound by %s"), f->terms[f->bound].name);
        }
      for (guint t = 0; t < f->n_terms; t++)
        if (has (f->terms[t].seconds))
          {
            g_autofree char *tv = format_time (f->terms[t].seconds);
            g_string_append_printf (s, "\n  %s: %s", f->terms[t].name, tv);
          }
    }
  else
    {
      g_autofree char *v = format_time (f->measured_s);
      g_autofree char *off = format_off (f->predicted_s, f->measured_s);
      /* Translators: a time, "1.2 ms" */
      g_string_append_printf (s, FG_("Measured: median %s per launch"), v);
      if (has (f->measured_lo) && has (f->measured_hi))
        {
          g_autofree char *lo = format_time (f->measured_lo);
          g_autofree char *hi = format_time (f->measured_hi);
          g_string_append_c (s, '\n');
          /* Translators: the fastest and slowest samples' times */
          g_string_append_printf (s, FG_("fastest %s, slowest %s"), lo, hi);
        }
      if (f->measured_name)
        g_string_append_printf (s, "\n%s", f->measured_name);
      if (off)
        {
          g_string_append_c (s, '\n');
          /* Translators: how far the prediction is from the measurement ("+12 %"), or "right" */
          g_string_append_printf (s, FG_("the prediction is %s"), g_str_equal (off, "±0 %") ? FG_("right") : off);
        }
    }
  return g_string_free (s, FALSE);
}

char *
ws_hierarchy_figure_describe (const WsHierarchyFigure *f,
                              const WsHierHit         *hit)
{
  g_return_val_if_fail (f != NULL && hit != NULL, NULL);

  switch (hit->kind)
    {
    case WS_HIER_HIT_LEVEL:
      return hit->index >= 0 && hit->index < WS_HIER_N_LEVELS ? describe_level (f, hit->index) : NULL;
    case WS_HIER_HIT_FLOW:
      return hit->index >= 0 && hit->index < WS_HIER_N_LINKS ? describe_flow (f, hit->index, hit->direction) : NULL;
    case WS_HIER_HIT_TERM:
      return hit->index >= 0 && (guint) hit->index < f->n_terms ? describe_time (f, hit) : NULL;
    case WS_HIER_HIT_PREDICTED:
      return has (f->predicted_s) ? describe_time (f, hit) : NULL;
    case WS_HIER_HIT_MEASURED:
      return has (f->measured_s) ? describe_time (f, hit) : NULL;
    case WS_HIER_HIT_NONE:
    default:
      return NULL;
    }
}
