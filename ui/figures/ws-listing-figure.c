/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The annotated listing: the source in a monospaced column, each line with
 * memory instructions banded across the figure and given bars on the right,
 * one column per figure, each column scaled to its longest bar. The code
 * takes the largest size at which its longest line fits and all its lines
 * fit the height, never below the style's smallest; below that, a line too
 * long wraps, and runs of lines without memory instructions fold. */
#include "ws-listing-figure.h"
#include "ws-figure-private.h"

#include <math.h>
#include <string.h>

/* a row: a source line, or a fold that stands for several */
typedef struct
{
  guint line;                   /* the first line it shows */
  guint folded;                 /* lines a fold stands for; 0 for a line */
  const char *text;             /* the line, tabs expanded (a fold: its words) */
  const WsListingLine *data;    /* its figures, or NULL */
  double y;
  double h;
} Row;

typedef struct
{
  double font;                  /* the code's size */
  double label_size;            /* the bars' labels and the headers */
  double line_h;                /* one line of code */
  double caption_h;
  WsBox numbers;
  WsBox code;
  gboolean has[WS_N_LISTING_BARS];
  WsBox column[WS_N_LISTING_BARS];  /* x, width of the bar part; y, h: the rows */
  double label_w;
  double header_y;
  double header_h;
  double scale[WS_N_LISTING_BARS];
  GArray *rows;                 /* Row */
  GPtrArray *texts;             /* what the rows' text points into */
  double legend_y;
  double legend_h;
  WsLegendItem legend[6];
  guint n_legend;
  gboolean too_small;
} Layout;

#define GAP 12.0
/* the least room for a bar, before its label */
#define MIN_BAR 40.0

static const char *const headers[WS_N_LISTING_BARS] = {
  N_("bytes moved ÷ asked"),
  N_("wavefronts ÷ fewest possible"),
  N_("share of the predicted time"),
};

static void
layout_clear (Layout *lay)
{
  g_clear_pointer (&lay->rows, g_array_unref);
  g_clear_pointer (&lay->texts, g_ptr_array_unref);
}

/* ------------------------------------------------------------------ */
/* The numbers                                                        */
/* ------------------------------------------------------------------ */

static const WsListingLine *
data_of (const WsListingFigure *f,
         guint                  line)
{
  for (guint i = 0; i < f->n_lines; i++)
    if (f->lines[i].line == line)
      return &f->lines[i];
  return NULL;
}

static gboolean
has_bar (const WsListingLine *d,
         WsListingBar         bar)
{
  switch (bar)
    {
    case WS_LISTING_BAR_BYTES: return d->bytes_moved > 0 || d->bytes_asked > 0;
    case WS_LISTING_BAR_WAVEFRONTS: return d->wavefronts > 0;
    case WS_LISTING_BAR_TIME: return !isnan (d->time_share);
    case WS_N_LISTING_BARS:
    default: return FALSE;
    }
}

/* The bar's length in the column's units, and the measured one (NAN). */
static double
bar_value (const WsListingLine *d,
           WsListingBar         bar,
           double              *measured)
{
  double hw = NAN, v = 0;

  switch (bar)
    {
    case WS_LISTING_BAR_BYTES:
      v = d->bytes_moved;
      hw = d->hw_bytes_moved;
      break;
    case WS_LISTING_BAR_WAVEFRONTS:
      v = d->wavefronts;
      hw = d->hw_wavefronts;
      break;
    case WS_LISTING_BAR_TIME:
    case WS_N_LISTING_BARS:
    default:
      v = d->time_share;
      break;
    }
  if (measured)
    *measured = hw;
  return v;
}

/* "4×" (moved over asked, wavefronts over the fewest), "43 %" */
static char *
bar_label (const WsListingLine *d,
           WsListingBar         bar)
{
  switch (bar)
    {
    case WS_LISTING_BAR_BYTES:
      return d->bytes_asked > 0 ? g_strdup_printf ("%.3g×", d->bytes_moved / d->bytes_asked) : g_strdup ("—");
    case WS_LISTING_BAR_WAVEFRONTS:
      return d->ideal_wavefronts > 0 ? g_strdup_printf ("%.3g×", d->wavefronts / d->ideal_wavefronts)
                                     : g_strdup ("—");
    case WS_LISTING_BAR_TIME:
    case WS_N_LISTING_BARS:
    default:
      return g_strdup_printf (d->time_share >= 0.0995 || d->time_share == 0 ? "%.0f %%" : "%.1f %%",
                              100 * d->time_share);
    }
}

/* ------------------------------------------------------------------ */
/* Rows                                                               */
/* ------------------------------------------------------------------ */

/* The text's lines, tabs as four spaces. */
static GPtrArray *
split_text (const char *text)
{
  g_auto (GStrv) lines = g_strsplit (text ? text : "", "\n", -1);
  GPtrArray *out = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; lines[i]; i++)
    {
      GString *s = g_string_new (NULL);

      for (const char *p = lines[i]; *p; p++)
        {
          if (*p == '\t')
            g_string_append (s, "    ");
          else if (*p != '\r')
            g_string_append_c (s, *p);
        }
      g_ptr_array_add (out, g_string_free (s, FALSE));
    }
  return out;
}

static void
add_fold (GArray     *rows,
          GPtrArray  *texts,
          guint       first,
          guint       n)
{
  /* Translators: lines of a kernel's source folded away in the listing */
  char *words = g_strdup_printf (NG_("⋮ %u line", "⋮ %u lines", n), n);
  Row r = { .line = first, .folded = n, .text = words };

  g_ptr_array_add (texts, words);
  g_array_append_val (rows, r);
}

/* Which lines the figure shows: its ranges (all where it has none), and
 * every line with figures. */
static gboolean *
visible_lines (const WsListingFigure *f,
               guint                  n)
{
  gboolean *visible = g_new0 (gboolean, MAX (n, 1));

  for (guint i = 0; i < n; i++)
    visible[i] = f->n_ranges == 0 || data_of (f, i + 1) != NULL;
  for (guint r = 0; r < f->n_ranges; r++)
    for (guint l = MAX (f->ranges[r].first, 1); l <= MIN (f->ranges[r].last, n); l++)
      visible[l - 1] = TRUE;
  return visible;
}

/* The rows of the lines kept (texts: every line of the text, then the
 * folds' words), a fold for each run of lines between them. */
static GArray *
make_rows (const WsListingFigure *f,
           GPtrArray             *texts,
           guint                  n,
           const gboolean        *keep)
{
  GArray *rows = g_array_new (FALSE, TRUE, sizeof (Row));
  guint run = 0;
  gboolean started = FALSE;

  for (guint l = 1; l <= n; l++)
    {
      Row r = { .line = l, .text = texts->pdata[l - 1], .data = data_of (f, l) };

      if (!keep[l - 1])
        {
          run += started;
          continue;
        }
      if (run > 0)
        add_fold (rows, texts, l - run, run);
      run = 0;
      started = TRUE;
      g_array_append_val (rows, r);
    }
  return rows;
}

/* The height of the lines kept at heights h, and a fold's for each run of
 * lines between them. */
static double
kept_height (const gboolean *keep,
             const double   *h,
             guint           n,
             double          fold_h)
{
  double total = 0;
  gboolean started = FALSE, in_run = FALSE;

  for (guint i = 0; i < n; i++)
    {
      if (keep[i])
        {
          total += h[i] + (in_run ? fold_h : 0);
          started = TRUE;
          in_run = FALSE;
        }
      else
        in_run = started;
    }
  return total;
}

/* Which visible lines to show in at most avail (h: each line's height,
 * fold_h a fold's): the lines with figures, then around them, the first
 * and the last, then as many more from the top as fit. */
static gboolean *
choose_lines (const WsListingFigure *f,
              const gboolean        *visible,
              guint                  n,
              const double          *h,
              double                 fold_h,
              double                 avail)
{
  gboolean *keep = g_new0 (gboolean, MAX (n, 1));
  int first = -1, last = -1;

  for (guint i = 0; i < n; i++)
    if (visible[i])
      {
        first = first < 0 ? (int) i : first;
        last = (int) i;
      }
  if (first < 0)
    return keep;
  for (int context = 1; context >= 0; context--)
    {
      memset (keep, 0, n * sizeof *keep);
      keep[first] = keep[last] = TRUE;
      for (guint i = 0; i < n; i++)
        for (int d = -context; d <= context && visible[i] && !keep[i]; d++)
          keep[i] = (int) i + d >= 0 && (int) i + d < (int) n && data_of (f, (guint) ((int) i + d) + 1) != NULL;
      if (kept_height (keep, h, n, fold_h) <= avail)
        break;
    }
  for (guint i = 0; i < n; i++)
    {
      if (keep[i] || !visible[i])
        continue;
      keep[i] = TRUE;
      if (kept_height (keep, h, n, fold_h) > avail)
        {
          keep[i] = FALSE;
          break;
        }
    }
  return keep;
}

/* ------------------------------------------------------------------ */
/* Layout                                                             */
/* ------------------------------------------------------------------ */

static WsTextOptions
code_options (const Layout *lay,
              WsTextFlags   extra)
{
  return (WsTextOptions) { .size = lay->font, .flags = WS_TEXT_MONO | extra, .max_width = lay->code.w, .wrap = TRUE };
}

/* The rows' heights at the layout's size; their sum. */
static double
measure_rows (WsFigureContext *ctx,
              Layout          *lay)
{
  double total = 0;

  for (guint i = 0; i < lay->rows->len; i++)
    {
      Row *r = &g_array_index (lay->rows, Row, i);
      WsTextOptions o = code_options (lay, r->folded ? WS_TEXT_ITALIC : 0);
      double h = lay->line_h;

      if (*r->text)
        {
          ws_figure_text_size (ctx, r->text, &o, NULL, &h);
          h = MAX (h, lay->line_h);
        }
      r->h = ceil (h + lay->font * 0.3);
      total += r->h;
    }
  return total;
}

static void
set_font (Layout *lay,
          double  font)
{
  lay->font = font;
  lay->line_h = ceil (font * 1.25);
}

static void
legend_items (const WsFigureStyle *s,
              Layout              *lay,
              gboolean             measured)
{
  guint n = 0;

  if (lay->has[WS_LISTING_BAR_BYTES])
    {
      lay->legend[n++] = (WsLegendItem) { ws_figure_style_hue (s, 0), FG_("bytes the lanes asked for") };
      lay->legend[n++] = (WsLegendItem) { ws_figure_style_hue (s, 1), FG_("more bytes the sectors moved") };
    }
  if (lay->has[WS_LISTING_BAR_WAVEFRONTS])
    {
      lay->legend[n++] = (WsLegendItem) { ws_figure_style_hue (s, 4), FG_("wavefronts the words need") };
      lay->legend[n++] = (WsLegendItem) { s->conflict, FG_("more: bank conflicts") };
    }
  if (lay->has[WS_LISTING_BAR_TIME])
    lay->legend[n++] = (WsLegendItem) { s->model, FG_("share of the time") };
  if (measured)
    lay->legend[n++] = (WsLegendItem) { s->foreground, FG_("measured"), TRUE };
  lay->n_legend = n;
}

/* The columns across: numbers, code, bars with their labels. */
static gboolean
lay_columns (WsFigureContext       *ctx,
             const WsListingFigure *f,
             Layout                *lay,
             guint                  last,
             double                 width)
{
  const WsFigureStyle *s = ctx->style;
  double m = WS_FIGURE_MARGIN, x, numbers_w, label_w = 0, bars_w, column_w;
  WsTextOptions mono = { .size = s->min_font_size, .flags = WS_TEXT_MONO };
  g_autofree char *widest_number = g_strdup_printf ("%u", last);
  guint n_columns = 0;

  for (guint b = 0; b < WS_N_LISTING_BARS; b++)
    n_columns += lay->has[b];
  lay->label_size = MAX (s->font_size * 0.85, s->min_font_size);
  ws_figure_text_size (ctx, "100 %", &(WsTextOptions) { .size = lay->label_size }, &label_w, NULL);
  {
    double w;

    ws_figure_text_size (ctx, "88.8×", &(WsTextOptions) { .size = lay->label_size }, &w, NULL);
    label_w = MAX (label_w, w);
  }
  lay->label_w = ceil (label_w) + 4;
  ws_figure_text_size (ctx, widest_number, &mono, &numbers_w, NULL);
  numbers_w = ceil (numbers_w * s->font_size / s->min_font_size);
  /* the bars take at most two fifths of the width, at least what their
   * labels and a short bar need */
  column_w = n_columns ? MAX (MIN_BAR + lay->label_w, (width - 2 * m) * 0.4 / n_columns - GAP) : 0;
  bars_w = n_columns * (column_w + GAP);
  lay->numbers = (WsBox) { m, 0, numbers_w, 0 };
  x = m + numbers_w + GAP;
  lay->code = (WsBox) { x, 0, width - m - bars_w - x, 0 };
  x = lay->code.x + lay->code.w + GAP;
  for (guint b = 0; b < WS_N_LISTING_BARS; b++)
    if (lay->has[b])
      {
        lay->column[b] = (WsBox) { x, 0, column_w - lay->label_w, 0 };
        x += column_w + GAP;
      }
  /* the code needs room for some thirty characters at the smallest size */
  ws_figure_text_size (ctx, "012345678901234567890123456789", &mono, &label_w, NULL);
  return lay->code.w >= label_w;
}

static double
headers_height (WsFigureContext *ctx,
                const Layout    *lay)
{
  double h = 0;

  for (guint b = 0; b < WS_N_LISTING_BARS; b++)
    if (lay->has[b])
      {
        WsTextOptions o = { .size = lay->label_size, .flags = WS_TEXT_BOLD, .wrap = TRUE,
                            .max_width = lay->column[b].w + lay->label_w };
        double hh;

        ws_figure_text_size (ctx, FG_(headers[b]), &o, NULL, &hh);
        h = MAX (h, hh);
      }
  return ceil (h);
}

/* The code's size: the largest ≤ wanted at which the longest line fits the
 * column (wrapping below the smallest) and the rows fit avail (0: any). */
static double
fit_rows (WsFigureContext *ctx,
          Layout          *lay,
          double           wanted,
          double           avail)
{
  const WsFigureStyle *s = ctx->style;
  double longest = 0, font, total;

  for (guint i = 0; i < lay->rows->len; i++)
    {
      const Row *r = &g_array_index (lay->rows, Row, i);
      double w;

      ws_figure_text_size (ctx, r->text, &(WsTextOptions) { .size = wanted, .flags = WS_TEXT_MONO }, &w, NULL);
      longest = MAX (longest, w);
    }
  font = longest > lay->code.w ? MAX (wanted * lay->code.w / longest * 0.98, s->min_font_size) : wanted;
  for (int pass = 0; pass < 4; pass++)
    {
      set_font (lay, font);
      total = measure_rows (ctx, lay);
      if (avail <= 0 || total <= avail || font <= s->min_font_size)
        break;
      font = MAX (floor (font * avail / total * 10) / 10, s->min_font_size);
    }
  return total;
}

static void
place_rows (Layout *lay,
            double  y)
{
  for (guint i = 0; i < lay->rows->len; i++)
    {
      Row *r = &g_array_index (lay->rows, Row, i);

      r->y = y;
      y += r->h;
    }
}

/* At most avail high: the rows that fit, and a fold for the rest (up to
 * line last). */
static void
cut_rows (WsFigureContext *ctx,
          Layout          *lay,
          guint            last,
          double           avail)
{
  double y = lay->line_h + lay->font * 0.3;   /* the closing fold */
  guint keep = 0;

  while (keep < lay->rows->len && y + g_array_index (lay->rows, Row, keep).h <= avail)
    y += g_array_index (lay->rows, Row, keep++).h;
  if (keep < lay->rows->len)
    {
      guint from = g_array_index (lay->rows, Row, keep).line;

      g_array_set_size (lay->rows, keep);
      add_fold (lay->rows, lay->texts, from, last - from + 1);
      measure_rows (ctx, lay);
    }
}

/* Each visible line's height at the smallest size, wrapped in the code's
 * column. */
static double *
line_heights (WsFigureContext *ctx,
              Layout          *lay,
              const gboolean  *visible,
              guint            n)
{
  double *h = g_new0 (double, MAX (n, 1));

  for (guint i = 0; i < n; i++)
    {
      WsTextOptions o = code_options (lay, 0);
      double th = lay->line_h;

      if (!visible[i])
        continue;
      if (*(const char *) lay->texts->pdata[i])
        ws_figure_text_size (ctx, lay->texts->pdata[i], &o, NULL, &th);
      h[i] = ceil (MAX (th, lay->line_h) + lay->font * 0.3);
    }
  return h;
}

static void
layout (WsFigureContext       *ctx,
        const WsListingFigure *f,
        double                 width,
        double                 height,
        gboolean               fold,
        Layout                *lay)
{
  const WsFigureStyle *s = ctx->style;
  double m = WS_FIGURE_MARGIN, top, avail, total;
  g_autoptr (GPtrArray) lines = split_text (f->text);
  g_autofree gboolean *visible = NULL;
  guint n = lines->len, last = 0;

  memset (lay, 0, sizeof *lay);
  lay->texts = g_ptr_array_new_with_free_func (g_free);
  /* the rows point into the lines: the layout keeps them */
  for (guint i = 0; i < n; i++)
    g_ptr_array_add (lay->texts, g_strdup (lines->pdata[i]));
  visible = visible_lines (f, n);
  for (guint i = 0; i < n; i++)
    last = visible[i] ? i + 1 : last;
  for (guint i = 0; i < f->n_lines; i++)
    for (guint b = 0; b < WS_N_LISTING_BARS; b++)
      if (has_bar (&f->lines[i], b))
        {
          double hw, v = bar_value (&f->lines[i], b, &hw);

          lay->has[b] = TRUE;
          lay->scale[b] = MAX (lay->scale[b], MAX (v, isnan (hw) ? 0 : hw));
        }
  legend_items (s, lay, f->measured);
  lay->too_small = !lay_columns (ctx, f, lay, MAX (last, 1), width);
  lay->caption_h = f->title || f->subtitle ? ws_figure_caption_height (ctx, width - 2 * m, f->title, f->subtitle) : 0;
  lay->header_h = headers_height (ctx, lay);
  lay->legend_h = lay->n_legend ? ws_figure_legend_height (ctx, width - 2 * m, lay->legend, lay->n_legend) : 0;
  top = m + (lay->caption_h ? lay->caption_h + s->font_size * 0.8 : 0);
  lay->header_y = top;
  top += lay->header_h + s->font_size * 0.4;
  lay->legend_y = height - m - lay->legend_h;
  avail = fold ? lay->legend_y - s->font_size * 0.6 - top : 0;

  lay->rows = make_rows (f, lay->texts, n, visible);
  total = fit_rows (ctx, lay, s->font_size, avail);
  if (fold && total > avail)
    {
      /* as many lines as fit at the smallest size, the rest folded */
      g_autofree gboolean *keep = NULL;
      g_autofree double *h = NULL;

      set_font (lay, s->min_font_size);
      h = line_heights (ctx, lay, visible, n);
      keep = choose_lines (f, visible, n, h, ceil (lay->line_h + lay->font * 0.3), avail);
      g_array_unref (lay->rows);
      lay->rows = make_rows (f, lay->texts, n, keep);
      total = fit_rows (ctx, lay, s->font_size, avail);
    }
  if (fold && total > avail)
    cut_rows (ctx, lay, last, avail);
  place_rows (lay, top);
  lay->numbers.y = lay->code.y = top;
  for (guint b = 0; b < WS_N_LISTING_BARS; b++)
    lay->column[b].y = top;
  if (avail > 0 && top + measure_rows (ctx, lay) > lay->legend_y)
    lay->too_small = TRUE;
}

/* ------------------------------------------------------------------ */
/* Drawing                                                            */
/* ------------------------------------------------------------------ */

static double
bar_height (const Layout *lay)
{
  return MAX (4, MIN (lay->line_h * 0.7, 14));
}

static WsBox
bar_box (const Layout *lay,
         const Row    *r,
         WsListingBar  bar)
{
  double bh = bar_height (lay);

  return (WsBox) { lay->column[bar].x, r->y + (lay->line_h - bh) / 2 + lay->font * 0.15, lay->column[bar].w, bh };
}

/* a part of a bar: from a to b of the column's scale */
static void
bar_part (WsFigureContext *ctx,
          WsBox            box,
          double           scale,
          double           a,
          double           b,
          WsRgba           color)
{
  double x0 = box.x + box.w * MIN (a / scale, 1), x1 = box.x + box.w * MIN (b / scale, 1);

  if (x1 - x0 <= 0)
    return;
  /* the least bar still seen: two pixels */
  if (a == 0)
    x1 = MAX (x1, x0 + 2);
  cairo_rectangle (ctx->cr, x0, box.y, x1 - x0, box.h);
  ws_figure_set_color (ctx, color);
  cairo_fill (ctx->cr);
}

static void
draw_bar (WsFigureContext     *ctx,
          const Layout        *lay,
          const Row           *r,
          WsListingBar         bar)
{
  const WsFigureStyle *s = ctx->style;
  const WsListingLine *d = r->data;
  WsBox box = bar_box (lay, r, bar);
  double hw, v = bar_value (d, bar, &hw), scale = lay->scale[bar] > 0 ? lay->scale[bar] : 1;
  g_autofree char *label = bar_label (d, bar);

  /* the track, then what was asked or needed, then the rest */
  cairo_rectangle (ctx->cr, box.x, box.y, box.w, box.h);
  ws_figure_set_color (ctx, s->surface);
  cairo_fill (ctx->cr);
  if (bar == WS_LISTING_BAR_BYTES)
    {
      /* the whole, then what was asked over it: a sliver asked still shows */
      bar_part (ctx, box, scale, MIN (d->bytes_asked, v), v, ws_figure_style_hue (s, 1));
      bar_part (ctx, box, scale, 0, MIN (d->bytes_asked, v), ws_figure_style_hue (s, 0));
    }
  else if (bar == WS_LISTING_BAR_WAVEFRONTS)
    {
      bar_part (ctx, box, scale, MIN (d->ideal_wavefronts, v), v, s->conflict);
      bar_part (ctx, box, scale, 0, MIN (d->ideal_wavefronts, v), ws_figure_style_hue (s, 4));
    }
  else
    bar_part (ctx, box, scale, 0, v, s->model);
  if (!isnan (hw))
    {
      /* the measurement: a tick across the bar */
      double x = box.x + box.w * MIN (hw / scale, 1);

      cairo_rectangle (ctx->cr, MIN (x - 1, box.x + box.w - 2), box.y - 2, 2, box.h + 4);
      gboolean differs = bar == WS_LISTING_BAR_BYTES ? d->bytes_differ : d->wavefronts_differ;

      ws_figure_set_color (ctx, differs ? s->conflict : s->foreground);
      cairo_fill (ctx->cr);
    }
  ws_figure_set_color (ctx, s->foreground);
  ws_figure_text (ctx, box.x + box.w + 4, box.y + box.h / 2, label,
                  &(WsTextOptions) { .size = lay->label_size, .ay = 0.5, .max_width = lay->label_w - 4 }, NULL, NULL);
}

static void
draw_row (WsFigureContext *ctx,
          const Layout    *lay,
          const Row       *r,
          double           width)
{
  const WsFigureStyle *s = ctx->style;
  WsTextOptions code = code_options (lay, r->folded ? WS_TEXT_ITALIC : 0);
  char number[16];

  if (r->data)
    {
      /* the line banded across, from its number to its bars */
      cairo_rectangle (ctx->cr, WS_FIGURE_MARGIN / 2, r->y, width - WS_FIGURE_MARGIN, r->h);
      ws_figure_set_color (ctx, ws_rgba_alpha (ws_figure_style_hue (s, 0), s->kind == WS_FIGURE_STYLE_DARK ? 0.16 : 0.07));
      cairo_fill (ctx->cr);
    }
  if (!r->folded)
    {
      g_snprintf (number, sizeof number, "%u", r->line);
      ws_figure_set_color (ctx, s->muted);
      ws_figure_text (ctx, lay->numbers.x + lay->numbers.w, r->y + lay->font * 0.15, number,
                      &(WsTextOptions) { .size = MIN (lay->font, s->font_size), .flags = WS_TEXT_MONO, .ax = 1 },
                      NULL, NULL);
    }
  if (*r->text)
    {
      ws_figure_set_color (ctx, r->data ? s->foreground : s->muted);
      ws_figure_text (ctx, lay->code.x, r->y + lay->font * 0.15, r->text, &code, NULL, NULL);
    }
  if (r->data == NULL)
    return;
  if (r->data->mismatch)
    {
      double x = lay->code.x + lay->code.w + GAP / 2;

      ws_figure_set_color (ctx, s->conflict);
      ws_figure_text (ctx, x, r->y + lay->line_h / 2 + lay->font * 0.15, "≠",
                      &(WsTextOptions) { .size = s->min_font_size, .flags = WS_TEXT_BOLD, .ax = 0.5, .ay = 0.5 },
                      NULL, NULL);
    }
  for (guint b = 0; b < WS_N_LISTING_BARS; b++)
    if (lay->has[b] && has_bar (r->data, b))
      draw_bar (ctx, lay, r, b);
}

static void
draw_headers (WsFigureContext *ctx,
              const Layout    *lay)
{
  for (guint b = 0; b < WS_N_LISTING_BARS; b++)
    if (lay->has[b])
      {
        ws_figure_set_color (ctx, ctx->style->foreground);
        ws_figure_text (ctx, lay->column[b].x, lay->header_y, FG_(headers[b]),
                        &(WsTextOptions) { .size = lay->label_size, .flags = WS_TEXT_BOLD, .wrap = TRUE,
                                           .max_width = lay->column[b].w + lay->label_w }, NULL, NULL);
      }
}

void
ws_listing_figure_draw (cairo_t             *cr,
                        const WsFigureStyle *style,
                        double               width,
                        double               height,
                        gpointer             data)
{
  const WsListingFigure *f = data;
  WsFigureContext ctx;
  Layout lay;

  ws_figure_context_init (&ctx, cr, style, width, height);
  layout (&ctx, f, width, height, TRUE, &lay);
  if (lay.too_small)
    {
      layout_clear (&lay);
      ws_figure_context_clear (&ctx);
      /* Translators: what is too small to draw, in "Too small to draw legibly: …" */
      ws_figure_draw_too_small (cr, style, width, height, FG_("annotated listing"), 480, 320);
      return;
    }
  if (f->title || f->subtitle)
    ws_figure_caption (&ctx, WS_FIGURE_MARGIN, WS_FIGURE_MARGIN, width - 2 * WS_FIGURE_MARGIN, f->title, f->subtitle);
  draw_headers (&ctx, &lay);
  for (guint i = 0; i < lay.rows->len; i++)
    draw_row (&ctx, &lay, &g_array_index (lay.rows, Row, i), width);
  if (lay.n_legend)
    ws_figure_draw_legend (&ctx, WS_FIGURE_MARGIN, lay.legend_y, width - 2 * WS_FIGURE_MARGIN, lay.legend,
                           lay.n_legend);
  layout_clear (&lay);
  ws_figure_context_clear (&ctx);
}

gboolean
ws_listing_figure_bar_box (const WsListingFigure *f,
                           const WsFigureStyle   *style,
                           double                 width,
                           double                 height,
                           guint                  line,
                           WsListingBar           bar,
                           WsBox                 *box)
{
  WsFigureContext ctx;
  Layout lay;
  gboolean found = FALSE;

  g_return_val_if_fail (f != NULL && bar < WS_N_LISTING_BARS, FALSE);

  ws_figure_context_init_measure (&ctx, style, width, height);
  layout (&ctx, f, width, height, TRUE, &lay);
  for (guint i = 0; !lay.too_small && i < lay.rows->len && !found; i++)
    {
      const Row *r = &g_array_index (lay.rows, Row, i);

      if (r->folded || r->line != line || r->data == NULL || !has_bar (r->data, bar))
        continue;
      *box = bar_box (&lay, r, bar);
      found = TRUE;
    }
  layout_clear (&lay);
  ws_figure_context_clear (&ctx);
  return found;
}

double
ws_listing_figure_natural_height (const WsListingFigure *f,
                                  const WsFigureStyle   *style,
                                  double                 width)
{
  WsFigureContext ctx;
  Layout lay;
  double rows = 0, h;

  g_return_val_if_fail (f != NULL, 0);

  ws_figure_context_init_measure (&ctx, style, width, 1000);
  layout (&ctx, f, width, 1000, FALSE, &lay);
  for (guint i = 0; i < lay.rows->len; i++)
    rows += g_array_index (lay.rows, Row, i).h;
  h = g_array_index (lay.rows, Row, 0).y + rows + style->font_size * 0.6 + lay.legend_h + WS_FIGURE_MARGIN;
  layout_clear (&lay);
  ws_figure_context_clear (&ctx);
  return ceil (h);
}
