/* SPDX-License-Identifier: GPL-3.0-or-later */
/* warpscope-cli export: what every exporter sizes its figure by: the
 * height to draw it at, the heights each kind of figure needs, and the
 * step a warp's figure shows. */
#include "ws-config.h"

#if WS_HAVE_FIGURES

#include "ws-cli-export.h"

#include <math.h>

/* The figure's least size, and the height to draw it at: --height, else
 * 720 or what the figure needs, if more. A size the figure cannot be
 * legible at is refused, with the size it needs. */

#define MOST_DEFAULT_HEIGHT 1600

gboolean
ws_cli_export_size_for (const Options *o,
                        const Job     *job,
                        const Needs   *needs,
                        double        *height,
                        GError       **error)
{
  double min_h;

  if (!ws_export_format_is_drawing (job->format))
    return TRUE;
  if (o->width < floor (needs->min_width))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("--width %d: this figure needs at least %.0f to be legible"), o->width, ceil (needs->min_width));
      return FALSE;
    }
  min_h = ceil (needs->min_height (needs->figure, job->style, o->width));
  /* by default, room for everything without folding rows, within reason */
  *height = o->height != NO_HEIGHT ? o->height : MAX (DEFAULT_HEIGHT, min_h);
  if (o->height == NO_HEIGHT && needs->natural_height)
    *height = MAX (*height, MIN (MOST_DEFAULT_HEIGHT, ceil (needs->natural_height (needs->figure, job->style,
                                                                                   o->width))));
  if (*height < floor (min_h))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("--height %d: at %d wide, this figure needs at least %.0f to be legible"), o->height, o->width,
                   min_h);
      return FALSE;
    }
  return TRUE;
}

double
ws_cli_export_view_min_height (gconstpointer        data,
                               const WsFigureStyle *style,
                               double               width)
{
  const WsExportFigure *figure = data;
  return ws_figure_min_height (figure->kind, &figure->frame, style, width);
}

double
ws_cli_export_view_natural_height (gconstpointer        data,
                                   const WsFigureStyle *style,
                                   double               width)
{
  const WsExportFigure *figure = data;
  return ws_figure_natural_height (figure->kind, &figure->frame, style, width);
}

double
ws_cli_export_compare_natural_height (gconstpointer        data,
                                      const WsFigureStyle *style,
                                      double               width)
{
  return ws_compare_figure_natural_height (data, style, width);
}

double
ws_cli_export_chart_min_height (gconstpointer        data,
                                const WsFigureStyle *style,
                                double               width)
{
  return ws_chart_min_height (data, style, width);
}

double
ws_cli_export_compare_min_height (gconstpointer        data,
                                  const WsFigureStyle *style,
                                  double               width)
{
  return ws_compare_figure_min_height (data, style, width);
}

double
ws_cli_export_frame_position (const Options      *o,
                              const WsWarpResult *result)
{
  /* --step N: as it is after N steps; else every step served */
  if (o->step != NO_STEP)
    return MIN ((guint) o->step, result->steps->len);
  return result->steps->len;
}

#endif /* WS_HAVE_FIGURES */
