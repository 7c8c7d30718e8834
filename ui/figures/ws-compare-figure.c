/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "ws-compare-figure.h"

#include <math.h>

/* Side by side while each view keeps room for its 32 lanes; two rows else. */
static guint
columns (guint  n,
         double width)
{
  return n <= 2 || width / n >= 520 ? MAX (1, n) : (n + 1) / 2;
}

#define MIN_VIEW_HEIGHT 300
#define MIN_CHART_HEIGHT 440

double
ws_compare_figure_min_height (const WsCompareFigure *c,
                              double                 width)
{
  guint cols = columns (c->n_cells, width);
  guint rows = (c->n_cells + cols - 1) / MAX (1, cols);

  return rows * MIN_VIEW_HEIGHT + (c->chart ? MIN_CHART_HEIGHT : 0);
}

/* The views take a little more than half the height, but leave the chart
 * room for its notes and axes. */
static double
views_height (const WsCompareFigure *c,
              double                 height)
{
  return c->chart ? floor (MAX (height * 0.4, MIN (height * 0.56, height - MIN_CHART_HEIGHT))) : height;
}

WsBox
ws_compare_figure_cell_box (const WsCompareFigure *c,
                            guint                  i,
                            double                 width,
                            double                 height)
{
  guint cols = columns (c->n_cells, width);
  guint rows = (c->n_cells + cols - 1) / cols;
  double vh = views_height (c, height);
  double cw = width / cols, ch = vh / MAX (1, rows);

  g_assert (i < c->n_cells);
  return (WsBox) { floor ((i % cols) * cw), floor ((i / cols) * ch), floor (cw), floor (ch) };
}

WsBox
ws_compare_figure_chart_box (const WsCompareFigure *c,
                             double                 width,
                             double                 height)
{
  double vh = views_height (c, height);

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
      WsBox b = ws_compare_figure_cell_box (c, i, width, height);
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
      WsBox b = ws_compare_figure_chart_box (c, width, height);
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
  for (guint i = 0; i < c->n_cells; i++)
    {
      WsBox b = ws_compare_figure_cell_box (c, i, width, height);

      cairo_save (cr);
      cairo_translate (cr, b.x, b.y);
      cairo_rectangle (cr, 0, 0, b.w, b.h);
      cairo_clip (cr);
      ws_export_draw_figure (cr, style, b.w, b.h, (gpointer) &c->cells[i]);
      cairo_restore (cr);
    }
  if (c->chart)
    {
      WsBox b = ws_compare_figure_chart_box (c, width, height);

      cairo_save (cr);
      cairo_translate (cr, b.x, b.y);
      cairo_rectangle (cr, 0, 0, b.w, b.h);
      cairo_clip (cr);
      ws_chart_draw (cr, c->chart, style, b.w, b.h);
      cairo_restore (cr);
    }
  draw_separators (cr, c, style, width, height);
}
