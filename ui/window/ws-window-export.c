/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Exporting from the window: the view in sight, the plot, or the whole
 * comparison, drawn by the renderers that draw them on screen into a PNG,
 * SVG or PDF surface (ws-export.c), in the style the preferences ask for;
 * and the data behind a plot as CSV or JSON. */
#include "ws-config.h"
#include "ws-window-private.h"
#include "ws-figure-i18n.h"

#include <glib/gi18n.h>
#include <math.h>

/* The print style, or the screen's own (light or dark). */
const WsFigureStyle *
ws_window_export_style (WsWindow *self)
{
  g_autofree char *name = g_settings_get_string (self->settings, "export-style");
  gboolean dark = adw_style_manager_get_dark (adw_style_manager_get_default ());

  if (g_str_equal (name, "print"))
    return ws_figure_style_get (WS_FIGURE_STYLE_PRINT);
  return ws_figure_style_get (dark ? WS_FIGURE_STYLE_DARK : WS_FIGURE_STYLE_LIGHT);
}

static WsFigureView *
visible_view (WsWindow *self)
{
  GtkWidget *child = gtk_stack_get_visible_child (self->view_stack);

  return WS_IS_FIGURE_VIEW (child) ? WS_FIGURE_VIEW (child) : NULL;
}

/* A widget's size, but no smaller than a legible figure. */
static void
export_size (GtkWidget *widget,
             double     min_w,
             double     min_h,
             double    *w,
             double    *h)
{
  *w = MAX (min_w, gtk_widget_get_width (widget));
  *h = MAX (min_h, gtk_widget_get_height (widget));
}

/* What a figure view shows, as it shows it. */
static WsExportFigure
figure_of (WsFigureView *view,
           const char   *title,
           WsDim3        block_dim)
{
  WsExportFigure f = { ws_figure_view_get_kind (view) };

  f.frame = (WsFigureFrame) { ws_figure_view_get_result (view), title, block_dim, ws_figure_view_get_position (view),
                              WS_FIGURE_HIT_NONE, WS_FIGURE_LAYERS_ALL };
  return f;
}

static gboolean
export_view (WsWindow       *self,
             const char     *path,
             WsExportFormat  format,
             double          scale,
             GError        **error)
{
  WsFigureView *view = visible_view (self);
  g_autofree char *title = ws_window_describe_pattern (self);
  WsExportFigure figure;
  double w, h;

  if (view == NULL || ws_figure_view_get_result (view) == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("there is no view to export"));
      return FALSE;
    }
  figure = figure_of (view, title, ws_pattern_get_block (self->pattern));
  export_size (GTK_WIDGET (view), 800, 480, &w, &h);
  /* a view too small to be legible leaves it room in the file */
  {
    WsExportFigure prepared = figure;
    ws_export_prepare_frame (&prepared.frame, ws_window_export_style (self));
    w = MAX (w, ws_figure_min_width (figure.kind, &prepared.frame, ws_window_export_style (self)));
    h = MAX (h, ws_figure_min_height (figure.kind, &prepared.frame, ws_window_export_style (self), w));
  }
  return ws_export_drawing (path, format, w, h, scale, ws_window_export_style (self), ws_export_draw_figure, &figure,
                            error);
}

static gboolean
export_hierarchy (WsWindow       *self,
                  const char     *path,
                  WsExportFormat  format,
                  double          scale,
                  GError        **error)
{
  const WsHierarchyFigure *shown = ws_hierarchy_view_get_figure (self->hierarchy_view);
  const WsFigureStyle *style = ws_window_export_style (self);
  g_autoptr (WsHierarchyFigure) figure = NULL;
  double w, h;

  if (shown == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("there is no view to export"));
      return FALSE;
    }
  /* as it is, but for what the pointer is on */
  figure = ws_hierarchy_figure_copy (shown);
  figure->hover = WS_HIER_HIT_INIT;
  export_size (GTK_WIDGET (self->hierarchy_view), 800, 480, &w, &h);
  w = MAX (w, ws_hierarchy_figure_min_width (figure, style));
  h = MAX (h, ws_hierarchy_figure_min_height (figure, style, w));
  return ws_export_drawing (path, format, w, h, scale, style, ws_hierarchy_figure_export_draw, figure, error);
}

static gboolean
export_launch (WsWindow       *self,
               WsLaunchView   *view,
               const char     *path,
               WsExportFormat  format,
               double          scale,
               GError        **error)
{
  const WsFigureStyle *style = ws_window_export_style (self);
  g_autoptr (WsTopicFigure) figure = NULL;
  double w, h;

  if (ws_launch_view_get_figure (view) == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("there is no view to export"));
      return FALSE;
    }
  figure = ws_topic_figure_copy (ws_launch_view_get_figure (view));
  export_size (GTK_WIDGET (view), 800, 480, &w, &h);
  w = MAX (w, ws_topic_figure_min_width (figure, style));
  h = MAX (h, ws_topic_figure_min_height (figure, style, w));
  return ws_export_drawing (path, format, w, h, scale, style, ws_topic_figure_draw, figure, error);
}

static gboolean
export_compare (WsWindow       *self,
                const char     *path,
                WsExportFormat  format,
                double          scale,
                GError        **error)
{
  g_autoptr (GPtrArray) captions = g_ptr_array_new_with_free_func (g_free);
  GPtrArray *items = ws_session_get_comparison (self->session);
  WsCompareFigure figure = { .n_cells = 0 };
  double w, h;

  for (guint i = 0; items && i < items->len; i++)
    {
      WsCompareItem *item = g_ptr_array_index (items, i);
      WsFigureView *view = ws_compare_view_get_figure (self->compare, i);

      if (view == NULL || ws_figure_view_get_result (view) == NULL)
        continue;
      g_ptr_array_add (captions, ws_compare_item_dup_caption (item, ws_figure_gettext));
      figure.cells[figure.n_cells++] = figure_of (view, g_ptr_array_index (captions, captions->len - 1),
                                                  ws_pattern_get_block (item->pattern));
    }
  figure.chart = ws_chart_view_get_chart (ws_compare_view_get_chart (self->compare));
  export_size (GTK_WIDGET (self->compare), 1200, 800, &w, &h);
  /* a window too small for the views leaves them room in the file */
  w = MAX (w, ws_compare_figure_min_width (&figure, ws_window_export_style (self)));
  h = MAX (h, ws_compare_figure_min_height (&figure, ws_window_export_style (self), w));
  return ws_export_drawing (path, format, w, h, scale, ws_window_export_style (self), ws_compare_figure_draw, &figure,
                            error);
}

static WsChartView *
page_chart (WsWindow *self)
{
  return ws_window_comparing (self) ? ws_compare_view_get_chart (self->compare) : self->chart;
}

static gboolean
export_plot (WsWindow       *self,
             const char     *path,
             WsExportFormat  format,
             double          scale,
             GError        **error)
{
  WsChartView *view = page_chart (self);
  double w, h;

  export_size (GTK_WIDGET (view), 800, 450, &w, &h);
  w = MAX (w, ws_chart_min_width (ws_chart_view_get_chart (view), ws_window_export_style (self)));
  h = MAX (h, ws_chart_min_height (ws_chart_view_get_chart (view), ws_window_export_style (self), w));
  return ws_export_drawing (path, format, w, h, scale, ws_window_export_style (self), ws_export_draw_chart,
                            ws_chart_view_get_chart (view), error);
}

/* The plot's data, built again in English: a file of data says the same
 * whatever the locale of who saved it (ws-figure-i18n.h). */
static gboolean
export_data (WsWindow        *self,
             const char      *path,
             WsExportFormat   format,
             GError         **error)
{
  g_autoptr (WsChart) chart = NULL;

  ws_figure_push_untranslated ();
  chart = ws_window_comparing (self) ? ws_window_build_compare_chart (self) : ws_window_build_chart (self);
  ws_figure_pop_untranslated ();
  if (chart == NULL)
    return ws_export_chart_data (path, format, ws_chart_view_get_chart (page_chart (self)), error);
  return ws_export_chart_data (path, format, chart, error);
}

gboolean
ws_window_export (WsWindow       *self,
                  WsWindowExport  what,
                  const char     *path,
                  double          scale,
                  GError        **error)
{
  WsExportFormat format;

  g_return_val_if_fail (WS_IS_WINDOW (self), FALSE);
  if (!ws_export_format_from_path (path, &format))
    {
      g_autofree char *name = g_path_get_basename (path);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("“%s” does not end in .png, .svg, .pdf, .csv or .json, which say the format"), name);
      return FALSE;
    }
  /* a view of a warp has no table behind it: the data is the plot's */
  if (!ws_export_format_is_drawing (format))
    return export_data (self, path, format, error);
  if (what == WS_WINDOW_EXPORT_PLOT)
    return export_plot (self, path, format, scale, error);
  if (ws_window_comparing (self))
    return export_compare (self, path, format, scale, error);
  if (gtk_stack_get_visible_child (self->view_stack) == GTK_WIDGET (self->hierarchy_view))
    return export_hierarchy (self, path, format, scale, error);
  if (WS_IS_LAUNCH_VIEW (gtk_stack_get_visible_child (self->view_stack)))
    return export_launch (self, WS_LAUNCH_VIEW (gtk_stack_get_visible_child (self->view_stack)), path, format, scale,
                          error);
  return export_view (self, path, format, scale, error);
}

gboolean
ws_window_export_figure (WsWindow   *self,
                         const char *path,
                         GError    **error)
{
  return ws_window_export (self, WS_WINDOW_EXPORT_FIGURE, path, 2, error);
}
