/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "ws-chart-view.h"
#include "ws-view-style.h"
#include "ws-drawing.h"

#include <adwaita.h>

/* A chart is drawn (rasterised) on a thread of its own whenever it, the
 * view's size or the style changes, and the main thread only paints the
 * finished image: a sweep's points arrive many times a second, and drawing
 * a chart's text and lines can take tens of milliseconds on a slow CPU.
 * Until the new image is ready the view shows the last one. */
typedef struct
{
  guint generation;
  int width;
  int height;
  int scale;
  const WsFigureStyle *style;
} Frame;

struct _WsChartView
{
  GtkWidget parent_instance;

  WsChart *chart;
  guint generation;            /* bumped whenever the chart changes */

  cairo_surface_t *image;      /* the chart drawn for image_frame */
  Frame image_frame;
  GCancellable *drawing;       /* the drawing in flight, for drawing_frame */
  Frame drawing_frame;
};

G_DEFINE_FINAL_TYPE (WsChartView, ws_chart_view, GTK_TYPE_WIDGET)

static const WsFigureStyle *
current_style (void)
{
  return ws_view_style_get ();
}

static gboolean
frame_equal (const Frame *a,
             const Frame *b)
{
  return a->generation == b->generation && a->width == b->width && a->height == b->height &&
         a->scale == b->scale && a->style == b->style;
}

static Frame
wanted_frame (WsChartView *self)
{
  GtkWidget *widget = GTK_WIDGET (self);

  return (Frame) { self->generation, gtk_widget_get_width (widget), gtk_widget_get_height (widget),
                   gtk_widget_get_scale_factor (widget), current_style () };
}

typedef struct
{
  WsChart *chart;
  Frame frame;
} Drawing;

static void
drawing_free (Drawing *d)
{
  ws_chart_free (d->chart);
  g_free (d);
}

static cairo_surface_t *
draw_image (const WsChart *chart,
            const Frame   *f)
{
  cairo_t *cr;
  cairo_surface_t *image = ws_drawing_new_image (f->width, f->height, f->scale, f->style, &cr);

  ws_chart_draw (cr, chart, f->style, f->width, f->height);
  cairo_destroy (cr);
  return image;
}

static cairo_surface_t *
draw_drawing (gpointer data)
{
  Drawing *d = data;

  return draw_image (d->chart, &d->frame);
}

static void
drawing_done (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  WsChartView *self = WS_CHART_VIEW (source);
  Drawing *d;
  cairo_surface_t *image = ws_drawing_finish (result, &self->drawing, (gpointer *) &d);

  g_assert (WS_IS_CHART_VIEW (self));

  if (image == NULL)
    return;   /* cancelled: the view is going away */
  g_clear_pointer (&self->image, cairo_surface_destroy);
  self->image = image;
  self->image_frame = d->frame;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
start_drawing (WsChartView *self)
{
  Frame want = wanted_frame (self);
  Drawing *d;

  if (self->drawing && frame_equal (&self->drawing_frame, &want))
    return;
  d = g_new0 (Drawing, 1);
  d->chart = ws_chart_copy (self->chart);
  d->frame = want;
  self->drawing_frame = want;
  ws_drawing_start (self, &self->drawing, draw_drawing, d, (GDestroyNotify) drawing_free, drawing_done);
}

static void
ws_chart_view_snapshot (GtkWidget   *widget,
                        GtkSnapshot *snapshot)
{
  WsChartView *self = WS_CHART_VIEW (widget);
  Frame want = wanted_frame (self);
  cairo_t *cr;

  if (want.width <= 0 || want.height <= 0)
    return;
  if (self->image == NULL)
    {
      /* the first time there is nothing to show meanwhile: draw it here */
      self->image = draw_image (self->chart, &want);
      self->image_frame = want;
    }
  else if (!frame_equal (&self->image_frame, &want))
    start_drawing (self);

  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, want.width, want.height));
  /* the image is opaque: copied, not blended */
  cairo_set_operator (cr, CAIRO_OPERATOR_SOURCE);
  if (self->image_frame.width != want.width || self->image_frame.height != want.height)
    cairo_scale (cr, (double) want.width / self->image_frame.width, (double) want.height / self->image_frame.height);
  cairo_set_source_surface (cr, self->image, 0, 0);
  cairo_paint (cr);
  cairo_destroy (cr);
}

gboolean
ws_chart_view_is_drawn (WsChartView *self)
{
  Frame want;

  g_return_val_if_fail (WS_IS_CHART_VIEW (self), FALSE);
  if (!gtk_widget_get_mapped (GTK_WIDGET (self)))
    return TRUE;
  want = wanted_frame (self);
  return self->image != NULL && frame_equal (&self->image_frame, &want);
}

char *
ws_chart_view_describe_at (WsChartView *self,
                           double       x,
                           double       y)
{
  guint series, point;

  g_return_val_if_fail (WS_IS_CHART_VIEW (self), NULL);
  if (!ws_chart_pick (self->chart, current_style (), gtk_widget_get_width (GTK_WIDGET (self)),
                      gtk_widget_get_height (GTK_WIDGET (self)), x, y, &series, &point))
    return NULL;
  return ws_chart_describe_point (self->chart, series, point);
}

static gboolean
on_query_tooltip (GtkWidget  *widget,
                  int         x,
                  int         y,
                  gboolean    keyboard,
                  GtkTooltip *tooltip,
                  gpointer    data)
{
  g_autofree char *text = ws_chart_view_describe_at (WS_CHART_VIEW (widget), x, y);

  if (text == NULL)
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

static void
ws_chart_view_finalize (GObject *object)
{
  WsChartView *self = WS_CHART_VIEW (object);

  g_clear_pointer (&self->chart, ws_chart_free);
  g_clear_pointer (&self->image, cairo_surface_destroy);
  G_OBJECT_CLASS (ws_chart_view_parent_class)->finalize (object);
}

static void
ws_chart_view_dispose (GObject *object)
{
  WsChartView *self = WS_CHART_VIEW (object);

  if (self->drawing)
    g_cancellable_cancel (self->drawing);
  g_clear_object (&self->drawing);
  G_OBJECT_CLASS (ws_chart_view_parent_class)->dispose (object);
}

static void
ws_chart_view_class_init (WsChartViewClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = ws_chart_view_dispose;
  G_OBJECT_CLASS (klass)->finalize = ws_chart_view_finalize;
  GTK_WIDGET_CLASS (klass)->snapshot = ws_chart_view_snapshot;
  gtk_widget_class_set_css_name (GTK_WIDGET_CLASS (klass), "chartview");
}

static void
ws_chart_view_init (WsChartView *self)
{
  self->chart = ws_chart_new ();
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  g_signal_connect (self, "query-tooltip", G_CALLBACK (on_query_tooltip), NULL);
  g_signal_connect_object (ws_view_style_get_default (), "changed", G_CALLBACK (gtk_widget_queue_draw),
                           self, G_CONNECT_SWAPPED);
  gtk_widget_set_hexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self), TRUE);
  /* small enough that the window lays out at a projector's 1280 × 720;
   * a chart smaller than it can draw says what it needs */
  gtk_widget_set_size_request (GTK_WIDGET (self), 320, 150);
}

GtkWidget *
ws_chart_view_new (void)
{
  return g_object_new (WS_TYPE_CHART_VIEW, NULL);
}

WsChart *
ws_chart_view_get_chart (WsChartView *self)
{
  g_return_val_if_fail (WS_IS_CHART_VIEW (self), NULL);
  return self->chart;
}

void
ws_chart_view_set_chart (WsChartView *self,
                         WsChart     *chart)
{
  g_return_if_fail (WS_IS_CHART_VIEW (self));
  g_return_if_fail (chart != NULL);

  g_clear_pointer (&self->chart, ws_chart_free);
  self->chart = chart;
  ws_chart_view_update (self);
}

void
ws_chart_view_update (WsChartView *self)
{
  g_return_if_fail (WS_IS_CHART_VIEW (self));

  ws_chart_autoscale (self->chart);
  self->generation++;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}
