/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "ws-compare-figure.h"
#include "ws-figure-private.h"

#include <math.h>

/* The widest least width of its views. */
static double
cell_min_width (const WsCompareFigure *c,
                const WsFigureStyle   *style)
{
  double w = 0;

  for (guint i = 0; i < c->n_cells; i++)
    w = MAX (w, ws_figure_min_width (c->cells[i].kind, &c->cells[i].frame, style));
  return w;
}

/* A view side by side with three others on a slide: room for its title
 * on a line or two, more than the least it is legible at. */
#define COMFORTABLE_WIDTH 440

/* Side by side while each view has room enough; else in two rows, else
 * one above the other. */
static guint
columns (const WsCompareFigure *c,
         const WsFigureStyle   *style,
         double                 width)
{
  double need = cell_min_width (c, style);

  if (c->n_cells <= 1 || (c->n_cells <= 2 && width / c->n_cells >= need) ||
      width / c->n_cells >= MAX (need, COMFORTABLE_WIDTH))
    return MAX (1, c->n_cells);
  if (width / ((c->n_cells + 1) / 2) >= need)
    return (c->n_cells + 1) / 2;
  return 1;
}

static guint
rows (const WsCompareFigure *c,
      guint                  cols)
{
  return (c->n_cells + cols - 1) / MAX (1, cols);
}

/* The tallest least height of its views at a cell's width. */
static double
cell_min_height (const WsCompareFigure *c,
                 const WsFigureStyle   *style,
                 double                 cell_w)
{
  double h = 0;

  for (guint i = 0; i < c->n_cells; i++)
    h = MAX (h, ws_figure_min_height (c->cells[i].kind, &c->cells[i].frame, style, cell_w));
  return h;
}

static double
chart_min_height (const WsCompareFigure *c,
                  const WsFigureStyle   *style,
                  double                 width)
{
  return c->chart ? ws_chart_min_height (c->chart, style, width) : 0;
}

double
ws_compare_figure_min_width (const WsCompareFigure *c,
                             const WsFigureStyle   *style)
{
  g_return_val_if_fail (c != NULL && style != NULL, 0);
  return MAX (cell_min_width (c, style), c->chart ? ws_chart_min_width (c->chart, style) : 0);
}

double
ws_compare_figure_min_height (const WsCompareFigure *c,
                              const WsFigureStyle   *style,
                              double                 width)
{
  guint cols;

  g_return_val_if_fail (c != NULL && style != NULL, 0);
  width = MAX (width, ws_compare_figure_min_width (c, style));
  cols = columns (c, style, width);
  return ceil (rows (c, cols) * cell_min_height (c, style, floor (width / cols)) + chart_min_height (c, style, width));
}

static double
cell_natural_height (const WsCompareFigure *c,
                     const WsFigureStyle   *style,
                     double                 cell_w)
{
  double h = 0;

  for (guint i = 0; i < c->n_cells; i++)
    h = MAX (h, ws_figure_natural_height (c->cells[i].kind, &c->cells[i].frame, style, cell_w));
  return h;
}

double
ws_compare_figure_natural_height (const WsCompareFigure *c,
                                  const WsFigureStyle   *style,
                                  double                 width)
{
  guint cols;

  g_return_val_if_fail (c != NULL && style != NULL, 0);
  width = MAX (width, ws_compare_figure_min_width (c, style));
  cols = columns (c, style, width);
  return ceil (MAX (ws_compare_figure_min_height (c, style, width),
                    rows (c, cols) * cell_natural_height (c, style, floor (width / cols)) +
                      (c->chart ? MAX (chart_min_height (c, style, width), 440) : 0)));
}

/* The views take what they need not to fold, the chart the rest, but the
 * chart keeps what it needs, and a good part of the height if there is room. */
static double
views_height (const WsCompareFigure *c,
              const WsFigureStyle   *style,
              double                 width,
              double                 height)
{
  guint cols = columns (c, style, width);
  double cell_w = floor (width / cols);
  double need = rows (c, cols) * cell_min_height (c, style, cell_w);
  double natural = rows (c, cols) * cell_natural_height (c, style, cell_w);
  double chart;

  if (c->chart == NULL)
    return height;
  chart = MAX (chart_min_height (c, style, width), MIN (440, height * 0.44));
  return floor (MAX (need, MIN (MAX (natural, height * 0.4), height - chart)));
}

WsBox
ws_compare_figure_cell_box (const WsCompareFigure *c,
                            const WsFigureStyle   *style,
                            guint                  i,
                            double                 width,
                            double                 height)
{
  guint cols = columns (c, style, width);
  double vh = views_height (c, style, width, height);
  double cw = width / cols, ch = vh / MAX (1, rows (c, cols));

  g_assert (i < c->n_cells);
  return (WsBox) { floor ((i % cols) * cw), floor ((i / cols) * ch), floor (cw), floor (ch) };
}

WsBox
ws_compare_figure_chart_box (const WsCompareFigure *c,
                             const WsFigureStyle   *style,
                             double                 width,
                             double                 height)
{
  double vh = views_height (c, style, width, height);

  return (WsBox) { 0, vh, width, height - vh };
}

static void
draw_separators (cairo_t               *cr,
                 const WsCompareFigure *c,
                 const WsFigureStyle   *style,
                 double                 width,
                 double                 height)
{
  cairo_set_source_rgba (cr, style->grid.r, style->grid.g, style->grid.b, style->grid.a);
  cairo_set_line_width (cr, 1);
  for (guint i = 0; i < c->n_cells; i++)
    {
      WsBox b = ws_compare_figure_cell_box (c, style, i, width, height);
      if (b.x > 0)
        {
          cairo_move_to (cr, b.x + 0.5, b.y + 8);
          cairo_line_to (cr, b.x + 0.5, b.y + b.h - 8);
        }
      if (b.y > 0)
        {
          cairo_move_to (cr, b.x + 8, b.y + 0.5);
          cairo_line_to (cr, b.x + b.w - 8, b.y + 0.5);
        }
    }
  if (c->chart)
    {
      WsBox b = ws_compare_figure_chart_box (c, style, width, height);
      cairo_move_to (cr, 8, b.y + 0.5);
      cairo_line_to (cr, width - 8, b.y + 0.5);
    }
  cairo_stroke (cr);
}

void
ws_compare_figure_draw (cairo_t             *cr,
                        const WsFigureStyle *style,
                        double               width,
                        double               height,
                        gpointer             compare)
{
  const WsCompareFigure *c = compare;

  g_return_if_fail (c->n_cells <= WS_COMPARE_MAX);
  if (width < floor (ws_compare_figure_min_width (c, style)) ||
      height < floor (ws_compare_figure_min_height (c, style, width)))
    {
      ws_figure_draw_too_small (cr, style, width, height, FG_("comparison"), ws_compare_figure_min_width (c, style),
                                ws_compare_figure_min_height (c, style, width));
      return;
    }
  for (guint i = 0; i < c->n_cells; i++)
    {
      WsBox b = ws_compare_figure_cell_box (c, style, i, width, height);

      cairo_save (cr);
      cairo_translate (cr, b.x, b.y);
      cairo_rectangle (cr, 0, 0, b.w, b.h);
      cairo_clip (cr);
      ws_export_draw_figure (cr, style, b.w, b.h, (gpointer) &c->cells[i]);
      cairo_restore (cr);
    }
  if (c->chart)
    {
      WsBox b = ws_compare_figure_chart_box (c, style, width, height);

      cairo_save (cr);
      cairo_translate (cr, b.x, b.y);
      cairo_rectangle (cr, 0, 0, b.w, b.h);
      cairo_clip (cr);
      ws_chart_draw (cr, c->chart, style, b.w, b.h);
      cairo_restore (cr);
    }
  draw_separators (cr, c, style, width, height);
}
