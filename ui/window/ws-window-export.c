/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Exporting from the window: the view in sight, the plot, or the whole
 * comparison, drawn by the renderers that draw them on screen into a PNG,
 * SVG or PDF surface (ws-export.c); and the data behind a plot as CSV or
 * JSON. What is exported is first taken from the window as a
 * WsWindowFigure (a copy, which the export dialog previews and writes at
 * the size, style and title chosen there, ws-export-dialog.c). */
#include "ws-config.h"
#include "ws-window-private.h"
#include "ws-figure-i18n.h"
#include "ws-topic-figure.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

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

/* ------------------------------------------------------------------ */
/* What each kind of figure is, as a copy                             */
/* ------------------------------------------------------------------ */

static WsWarpResult *
warp_result_copy (const WsWarpResult *r)
{
  WsWarpResult *copy = g_memdup2 (r, sizeof *r);

  copy->steps = g_array_copy (r->steps);
  return copy;
}

/* A view of one warp instruction, as it is in the window. */
typedef struct
{
  WsExportFigure figure;
  WsWarpResult *result;
  char *title;
} ViewFigure;

static void
view_free (gpointer data)
{
  ViewFigure *v = data;

  ws_warp_result_free (v->result);
  g_free (v->title);
  g_free (v);
}

static ViewFigure *
view_figure_new (WsFigureView *view,
                 const char   *title,
                 WsDim3        block_dim)
{
  ViewFigure *v = g_new0 (ViewFigure, 1);

  v->result = warp_result_copy (ws_figure_view_get_result (view));
  v->title = g_strdup (title);
  v->figure.kind = ws_figure_view_get_kind (view);
  v->figure.frame = (WsFigureFrame) { v->result, v->title, block_dim, ws_figure_view_get_position (view),
                                      WS_FIGURE_HIT_NONE, WS_FIGURE_LAYERS_ALL };
  return v;
}

static double
view_min_width (gpointer             data,
                const WsFigureStyle *style)
{
  ViewFigure *v = data;
  WsFigureFrame frame = v->figure.frame;

  ws_export_prepare_frame (&frame, style);
  return ws_figure_min_width (v->figure.kind, &frame, style);
}

static double
view_min_height (gpointer             data,
                 const WsFigureStyle *style,
                 double               width)
{
  ViewFigure *v = data;
  WsFigureFrame frame = v->figure.frame;

  ws_export_prepare_frame (&frame, style);
  return ws_figure_min_height (v->figure.kind, &frame, style, width);
}

static void
view_set_title (gpointer    data,
                const char *title)
{
  ViewFigure *v = data;

  g_free (v->title);
  v->title = g_strdup (title);
  v->figure.frame.title = v->title;
}

static void
view_draw (cairo_t             *cr,
           const WsFigureStyle *style,
           double               width,
           double               height,
           gpointer             data)
{
  ws_export_draw_figure (cr, style, width, height, &((ViewFigure *) data)->figure);
}

/* The hierarchy, as the view has it but for what the pointer is on. */
static double
hierarchy_min_width (gpointer             data,
                     const WsFigureStyle *style)
{
  return ws_hierarchy_figure_min_width (data, style);
}

static double
hierarchy_min_height (gpointer             data,
                      const WsFigureStyle *style,
                      double               width)
{
  return ws_hierarchy_figure_min_height (data, style, width);
}

static void
hierarchy_set_title (gpointer    data,
                     const char *title)
{
  WsHierarchyFigure *f = data;

  g_free (f->title);
  f->title = g_strdup (title);
}

/* The whole launch a topic is about. */
static double
topic_min_width (gpointer             data,
                 const WsFigureStyle *style)
{
  return ws_topic_figure_min_width (data, style);
}

static double
topic_min_height (gpointer             data,
                  const WsFigureStyle *style,
                  double               width)
{
  return ws_topic_figure_min_height (data, style, width);
}

static void
topic_set_title (gpointer    data,
                 const char *title)
{
  WsTopicFigure *f = data;

  g_free (f->title);
  f->title = g_strdup (title);
}

/* A chart: the plot, on its own. */
static double
chart_min_width (gpointer             data,
                 const WsFigureStyle *style)
{
  return ws_chart_min_width (data, style);
}

static double
chart_min_height (gpointer             data,
                  const WsFigureStyle *style,
                  double               width)
{
  return ws_chart_min_height (data, style, width);
}

static void
chart_set_title (gpointer    data,
                 const char *title)
{
  WsChart *chart = data;
  g_autofree char *subtitle = g_strdup (chart->subtitle);

  ws_chart_set_title (chart, title, subtitle);
}

/* The comparison: its views over its chart. */
typedef struct
{
  WsCompareFigure figure;
  GPtrArray *results;
  GPtrArray *captions;
  WsChart *chart;
} CompareFigure;

static void
compare_free (gpointer data)
{
  CompareFigure *c = data;

  g_ptr_array_unref (c->results);
  g_ptr_array_unref (c->captions);
  ws_chart_free (c->chart);
  g_free (c);
}

static double
compare_min_width (gpointer             data,
                   const WsFigureStyle *style)
{
  return ws_compare_figure_min_width (&((CompareFigure *) data)->figure, style);
}

static double
compare_min_height (gpointer             data,
                    const WsFigureStyle *style,
                    double               width)
{
  return ws_compare_figure_min_height (&((CompareFigure *) data)->figure, style, width);
}

static void
compare_set_title (gpointer    data,
                   const char *title)
{
  chart_set_title (((CompareFigure *) data)->chart, title);
}

static void
compare_draw (cairo_t             *cr,
              const WsFigureStyle *style,
              double               width,
              double               height,
              gpointer             data)
{
  ws_compare_figure_draw (cr, style, width, height, &((CompareFigure *) data)->figure);
}

/* ------------------------------------------------------------------ */
/* Taking the figure from the window                                  */
/* ------------------------------------------------------------------ */

/* "banks/padding" → "banks-padding"; a pattern of one's own, "my-pattern". */
static char *
stem_of (WsWindow   *self,
         const char *what)
{
  g_autofree char *id = g_strdup (explore_preset (self) && !explore_edited (self) ? explore_preset (self)->id : "my-pattern");

  g_strdelimit (id, "/", '-');
  return g_strdup_printf ("%s-%s", id, what);
}

static WsWindowFigure *
figure_new (WsExportDrawFunc draw,
            gpointer         data,
            GDestroyNotify   free_data,
            double (*min_width) (gpointer, const WsFigureStyle *),
            double (*min_height) (gpointer, const WsFigureStyle *, double),
            void (*set_title) (gpointer, const char *),
            const char      *title,
            GtkWidget       *widget,
            double           least_w,
            double           least_h,
            char            *name)
{
  WsWindowFigure *f = g_new0 (WsWindowFigure, 1);

  f->draw = draw;
  f->data = data;
  f->free_data = free_data;
  f->min_width = min_width;
  f->min_height = min_height;
  f->set_title = set_title;
  f->title = g_strdup (title ? title : "");
  f->name = name;
  /* as on screen, but never a postage stamp */
  f->width = MAX (least_w, gtk_widget_get_width (widget));
  f->height = MAX (least_h, gtk_widget_get_height (widget));
  return f;
}

void
ws_window_figure_free (WsWindowFigure *figure)
{
  if (figure == NULL)
    return;
  if (figure->free_data)
    figure->free_data (figure->data);
  g_free (figure->title);
  g_free (figure->name);
  g_free (figure);
}

static WsChartView *
page_chart (WsWindow *self)
{
  return ws_window_comparing (self) ? ws_compare_view_get_chart (ws_compare_page_get_view (self->compare_page)) : ws_plot_panel_get_chart_view (explore_plot (self));
}

static WsWindowFigure *
compare_figure (WsWindow  *self,
                GError   **error)
{
  GPtrArray *items = ws_session_get_comparison (self->session);
  CompareFigure *c = g_new0 (CompareFigure, 1);
  const WsChart *chart = ws_chart_view_get_chart (ws_compare_view_get_chart (ws_compare_page_get_view (self->compare_page)));
  g_autofree char *topic = NULL;

  c->results = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_warp_result_free);
  c->captions = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; items && i < items->len && c->figure.n_cells < WS_COMPARE_MAX; i++)
    {
      WsCompareItem *item = g_ptr_array_index (items, i);
      WsFigureView *view = ws_compare_view_get_figure (ws_compare_page_get_view (self->compare_page), i);
      WsExportFigure *cell = &c->figure.cells[c->figure.n_cells];

      if (view == NULL || ws_figure_view_get_result (view) == NULL)
        continue;
      g_ptr_array_add (c->results, warp_result_copy (ws_figure_view_get_result (view)));
      g_ptr_array_add (c->captions, ws_compare_item_dup_caption (item, ws_figure_gettext));
      cell->kind = ws_figure_view_get_kind (view);
      cell->frame = (WsFigureFrame) { g_ptr_array_index (c->results, c->results->len - 1),
                                      g_ptr_array_index (c->captions, c->captions->len - 1),
                                      ws_compare_item_get_block (item), ws_figure_view_get_position (view),
                                      WS_FIGURE_HIT_NONE, WS_FIGURE_LAYERS_ALL };
      c->figure.n_cells++;
      /* "compare-transpose" when all are of one topic */
      if (i == 0 && item->kernel == NULL)
        topic = g_strndup (item->id, strcspn (item->id, "/"));
      else if (item->kernel || (topic && strncmp (item->id, topic, strlen (topic)) != 0))
        g_clear_pointer (&topic, g_free);
    }
  if (c->figure.n_cells == 0)
    {
      compare_free (c);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("there is no view to export"));
      return NULL;
    }
  c->chart = chart ? ws_chart_copy (chart) : ws_chart_new ();
  c->figure.chart = c->chart;
  return figure_new (compare_draw, c, compare_free, compare_min_width, compare_min_height, compare_set_title,
                     c->chart->title, GTK_WIDGET (ws_compare_page_get_view (self->compare_page)), 1200, 800,
                     topic ? g_strdup_printf ("compare-%s", topic) : g_strdup ("compare"));
}

static WsWindowFigure *
view_figure (WsWindow  *self,
             GError   **error)
{
  GtkWidget *visible = gtk_stack_get_visible_child (explore_views (self));

  if (visible == GTK_WIDGET (explore_hierarchy (self)) &&
      ws_hierarchy_view_get_figure (ws_hierarchy_page_get_view (explore_hierarchy (self))))
    {
      WsHierarchyView *view = ws_hierarchy_page_get_view (explore_hierarchy (self));
      WsHierarchyFigure *h = ws_hierarchy_figure_copy (ws_hierarchy_view_get_figure (view));

      /* as it is, but for what the pointer is on */
      h->hover = WS_HIER_HIT_INIT;
      return figure_new (ws_hierarchy_figure_export_draw, h, (GDestroyNotify) ws_hierarchy_figure_free,
                         hierarchy_min_width, hierarchy_min_height, hierarchy_set_title, h->title, visible, 800, 480,
                         stem_of (self, "hierarchy"));
    }
  if (WS_IS_LAUNCH_VIEW (visible) && ws_launch_view_get_figure (WS_LAUNCH_VIEW (visible)))
    {
      WsTopicFigure *t = ws_topic_figure_copy (ws_launch_view_get_figure (WS_LAUNCH_VIEW (visible)));

      return figure_new (ws_topic_figure_draw, t, (GDestroyNotify) ws_topic_figure_free, topic_min_width,
                         topic_min_height, topic_set_title, t->title, visible, 800, 480,
                         stem_of (self, ws_topic_view_to_string (t->view)));
    }
  if (WS_IS_FIGURE_VIEW (visible) && ws_figure_view_get_result (WS_FIGURE_VIEW (visible)))
    {
      g_autofree char *title = ws_explore_page_describe_pattern (self->explore_page);
      WsFigureView *view = WS_FIGURE_VIEW (visible);

      return figure_new (view_draw, view_figure_new (view, title, ws_pattern_get_block (explore_pattern (self))), view_free,
                         view_min_width, view_min_height, view_set_title, title, visible, 800, 480,
                         stem_of (self, ws_figure_kind_to_string (ws_figure_view_get_kind (view))));
    }
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("there is no view to export"));
  return NULL;
}

static double
listing_min_width (gpointer             data,
                   const WsFigureStyle *style)
{
  return 480;
}

static double
listing_min_height (gpointer             data,
                    const WsFigureStyle *style,
                    double               width)
{
  return ws_kernel_page_listing_height (data, style, width);
}

/* The Kernel page's annotated listing: the source with a bar per line. */
static WsWindowFigure *
listing_figure (WsWindow  *self,
                GError   **error)
{
  gpointer listing;
  WsKernelEditor *editor = ws_kernel_page_get_editor (self->kernel_page);
  g_autofree char *stem = NULL;
  const char *title = ws_kernel_editor_get_title (editor);

  if (!ws_kernel_page_can_export (self->kernel_page, error))
    return NULL;
  listing = ws_kernel_page_listing_new (self->kernel_page);
  stem = g_strdup (title);
  if (g_str_has_suffix (stem, ".cu"))
    stem[strlen (stem) - strlen (".cu")] = '\0';
  stem = g_strdelimit (stem, " /", '-');
  return figure_new (ws_kernel_page_listing_draw, listing, ws_kernel_page_listing_free, listing_min_width,
                     listing_min_height, NULL, NULL, GTK_WIDGET (self->kernel_page), 1280, 720,
                     g_strdup_printf ("%s-listing", stem));
}

WsWindowFigure *
ws_window_figure_new (WsWindow       *self,
                      WsWindowExport  what,
                      GError        **error)
{
  g_return_val_if_fail (WS_IS_WINDOW (self), NULL);

  if (what == WS_WINDOW_EXPORT_PLOT && ws_window_kernel_shown (self))
    {
      /* the chart of another page, out of sight, is not what one asked for */
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                           _("The Kernel page has no chart: Export Figure (Ctrl+E) writes its annotated listing"));
      return NULL;
    }
  if (what == WS_WINDOW_EXPORT_PLOT)
    {
      WsChartView *view = page_chart (self);
      WsChart *chart = ws_chart_copy (ws_chart_view_get_chart (view));

      return figure_new (ws_export_draw_chart, chart, (GDestroyNotify) ws_chart_free, chart_min_width,
                         chart_min_height, chart_set_title, chart->title, GTK_WIDGET (view), 800, 450,
                         ws_window_comparing (self) ? g_strdup ("compare-plot") : stem_of (self, "plot"));
    }
  if (ws_window_kernel_shown (self))
    return listing_figure (self, error);
  if (ws_window_comparing (self))
    return compare_figure (self, error);
  return view_figure (self, error);
}

void
ws_window_figure_set_title (WsWindowFigure *figure,
                            const char     *title)
{
  g_return_if_fail (figure != NULL);

  g_free (figure->title);
  figure->title = g_strdup (title);
  if (figure->set_title)
    figure->set_title (figure->data, title);
}

void
ws_window_figure_size (WsWindowFigure      *figure,
                       const WsFigureStyle *style,
                       double               width,
                       double               height,
                       double              *out_width,
                       double              *out_height)
{
  g_return_if_fail (figure != NULL && style != NULL);

  /* no smaller than it is legible at: a figure that needs more grows */
  *out_width = MAX (width, ceil (figure->min_width (figure->data, style)));
  *out_height = MAX (height, ceil (figure->min_height (figure->data, style, *out_width)));
}

gboolean
ws_window_figure_write (WsWindowFigure      *figure,
                        const char          *path,
                        WsExportFormat       format,
                        const WsFigureStyle *style,
                        double               width,
                        double               height,
                        double               scale,
                        GError             **error)
{
  double w, h;

  g_return_val_if_fail (figure != NULL && path != NULL && style != NULL, FALSE);

  ws_window_figure_size (figure, style, width, height, &w, &h);
  return ws_export_drawing (path, format, w, h, scale, style, figure->draw, figure->data, error);
}

cairo_surface_t *
ws_window_figure_preview (WsWindowFigure      *figure,
                          const WsFigureStyle *style,
                          double               width,
                          double               height,
                          double               most_width)
{
  double w, h;

  g_return_val_if_fail (figure != NULL && style != NULL, NULL);

  ws_window_figure_size (figure, style, width, height, &w, &h);
  /* what the file holds, smaller */
  return ws_export_to_image (w, h, MIN (1, most_width / w), style, figure->draw, figure->data);
}

/* ------------------------------------------------------------------ */
/* Exporting as the window shows it                                   */
/* ------------------------------------------------------------------ */

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
  chart = ws_window_comparing (self) ? ws_compare_page_build_chart (self->compare_page) : ws_window_build_chart (self);
  ws_figure_pop_untranslated ();
  if (chart == NULL)
    return ws_export_chart_data (path, format, ws_chart_view_get_chart (page_chart (self)), error);
  return ws_export_chart_data (path, format, chart, error);
}

gboolean
ws_window_export_as (WsWindow        *self,
                     WsWindowExport   what,
                     const char      *path,
                     WsExportFormat   format,
                     WsWindowFigure  *figure,
                     const WsFigureStyle *style,
                     double           width,
                     double           height,
                     double           scale,
                     GError         **error)
{
  g_return_val_if_fail (WS_IS_WINDOW (self), FALSE);

  /* a view of a warp has no table behind it: the data is the plot's */
  if (!ws_export_format_is_drawing (format))
    return export_data (self, path, format, error);
  return ws_window_figure_write (figure, path, format, style, width, height, scale, error);
}

gboolean
ws_window_export (WsWindow       *self,
                  WsWindowExport  what,
                  const char     *path,
                  double          scale,
                  GError        **error)
{
  g_autoptr (WsWindowFigure) figure = NULL;
  WsExportFormat format;

  g_return_val_if_fail (WS_IS_WINDOW (self), FALSE);
  if (!ws_export_format_from_path (path, &format))
    {
      g_autofree char *name = g_path_get_basename (path);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("“%s” does not end in .png, .svg, .pdf, .csv or .json, which say the format"), name);
      return FALSE;
    }
  if (!ws_export_format_is_drawing (format))
    return export_data (self, path, format, error);
  if ((figure = ws_window_figure_new (self, what, error)) == NULL)
    return FALSE;
  return ws_window_figure_write (figure, path, format, ws_window_export_style (self), figure->width, figure->height,
                                 scale, error);
}

gboolean
ws_window_export_figure (WsWindow   *self,
                         const char *path,
                         GError    **error)
{
  return ws_window_export (self, WS_WINDOW_EXPORT_FIGURE, path, 2, error);
}
