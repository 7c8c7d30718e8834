/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <glib/gi18n.h>
#include "ws-hierarchy-view.h"
#include "ws-view-style.h"

#include <adwaita.h>

struct _WsHierarchyView
{
  GtkWidget parent_instance;

  WsHierarchyFigure *figure;     /* its hover is what the pointer is on */

  /* the drawing, made again when something in it changes */
  cairo_surface_t *image;
  gboolean image_valid;
  int image_width;
  int image_height;
  int image_scale;
  const WsFigureStyle *image_style;
};

G_DEFINE_FINAL_TYPE (WsHierarchyView, ws_hierarchy_view, GTK_TYPE_WIDGET)

static const WsFigureStyle *
current_style (void)
{
  return ws_view_style_get ();
}

static void
invalidate (WsHierarchyView *self)
{
  self->image_valid = FALSE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
ws_hierarchy_view_snapshot (GtkWidget   *widget,
                            GtkSnapshot *snapshot)
{
  WsHierarchyView *self = WS_HIERARCHY_VIEW (widget);
  int w = gtk_widget_get_width (widget), h = gtk_widget_get_height (widget);
  int scale = gtk_widget_get_scale_factor (widget);
  const WsFigureStyle *style = current_style ();
  cairo_t *cr;

  if (self->figure == NULL || w <= 0 || h <= 0)
    return;
  if (!self->image_valid || self->image_width != w || self->image_height != h || self->image_scale != scale ||
      self->image_style != style)
    {
      g_clear_pointer (&self->image, cairo_surface_destroy);
      self->image = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w * scale, h * scale);
      cairo_surface_set_device_scale (self->image, scale, scale);
      cr = cairo_create (self->image);
      cairo_set_source_rgb (cr, style->background.r, style->background.g, style->background.b);
      cairo_paint (cr);
      ws_hierarchy_figure_draw (cr, self->figure, style, w, h);
      cairo_destroy (cr);
      self->image_valid = TRUE;
      self->image_width = w;
      self->image_height = h;
      self->image_scale = scale;
      self->image_style = style;
    }
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, w, h));
  cairo_set_operator (cr, CAIRO_OPERATOR_SOURCE);
  cairo_set_source_surface (cr, self->image, 0, 0);
  cairo_paint (cr);
  cairo_destroy (cr);
}

static gboolean
hit_at (WsHierarchyView *self,
        double           x,
        double           y,
        WsHierHit       *hit)
{
  *hit = WS_HIER_HIT_INIT;
  if (self->figure == NULL)
    return FALSE;
  return ws_hierarchy_figure_hit_test (self->figure, current_style (), gtk_widget_get_width (GTK_WIDGET (self)),
                                       gtk_widget_get_height (GTK_WIDGET (self)), x, y, hit);
}

char *
ws_hierarchy_view_describe_at (WsHierarchyView *self,
                               double           x,
                               double           y)
{
  WsHierHit hit;

  g_return_val_if_fail (WS_IS_HIERARCHY_VIEW (self), NULL);
  if (!hit_at (self, x, y, &hit))
    return NULL;
  return ws_hierarchy_figure_describe (self->figure, &hit);
}

static void
set_hover (WsHierarchyView *self,
           const WsHierHit *hit)
{
  if (self->figure == NULL || ws_hier_hit_equal (&self->figure->hover, hit))
    return;
  self->figure->hover = *hit;
  invalidate (self);
}

static void
on_motion (GtkEventControllerMotion *controller,
           double                    x,
           double                    y,
           WsHierarchyView          *self)
{
  WsHierHit hit;

  g_assert (WS_IS_HIERARCHY_VIEW (self));

  hit_at (self, x, y, &hit);
  set_hover (self, &hit);
}

static void
on_leave (GtkEventControllerMotion *controller,
          WsHierarchyView          *self)
{
  g_assert (WS_IS_HIERARCHY_VIEW (self));

  set_hover (self, &WS_HIER_HIT_INIT);
}

static gboolean
on_query_tooltip (GtkWidget  *widget,
                  int         x,
                  int         y,
                  gboolean    keyboard,
                  GtkTooltip *tooltip,
                  gpointer    data)
{
  WsHierarchyView *self = WS_HIERARCHY_VIEW (widget);
  g_autofree char *text = NULL;

  g_assert (WS_IS_HIERARCHY_VIEW (self));

  if (self->figure == NULL)
    return FALSE;
  if (keyboard && self->figure->hover.kind != WS_HIER_HIT_NONE)
    text = ws_hierarchy_figure_describe (self->figure, &self->figure->hover);
  else
    text = ws_hierarchy_view_describe_at (self, x, y);
  if (text == NULL)
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

/* The parts in the order the keyboard walks them: left to right along the
 * flows, then down the time. */
static guint
parts (const WsHierarchyFigure *f,
       WsHierHit               *out)
{
  guint n = 0;

  for (guint l = 0; l < WS_HIER_N_LEVELS; l++)
    {
      out[n++] = (WsHierHit) { WS_HIER_HIT_LEVEL, l, WS_HIER_READ };
      for (guint d = 0; l < WS_HIER_N_LINKS && d < WS_HIER_N_DIRECTIONS; d++)
        out[n++] = (WsHierHit) { WS_HIER_HIT_FLOW, l, d };
    }
  for (guint t = 0; t < f->n_terms; t++)
    out[n++] = (WsHierHit) { WS_HIER_HIT_TERM, t, WS_HIER_READ };
  out[n++] = (WsHierHit) { WS_HIER_HIT_PREDICTED, -1, WS_HIER_READ };
  out[n++] = (WsHierHit) { WS_HIER_HIT_MEASURED, -1, WS_HIER_READ };
  return n;
}

static gboolean
on_key_pressed (GtkEventControllerKey *controller,
                guint                  keyval,
                guint                  keycode,
                GdkModifierType        state,
                WsHierarchyView       *self)
{
  WsHierHit all[WS_HIER_N_LEVELS * 3 + WS_HIER_MAX_TERMS + 2];
  int current = -1, next;
  guint n;

  g_assert (WS_IS_HIERARCHY_VIEW (self));

  if (self->figure == NULL || self->figure->message || (state & (GDK_CONTROL_MASK | GDK_ALT_MASK)))
    return FALSE;
  n = parts (self->figure, all);
  for (guint i = 0; i < n; i++)
    if (ws_hier_hit_equal (&all[i], &self->figure->hover))
      current = i;
  switch (keyval)
    {
    case GDK_KEY_Right:
    case GDK_KEY_KP_Right:
      next = current + 1;
      break;
    case GDK_KEY_Left:
    case GDK_KEY_KP_Left:
      next = current < 0 ? 0 : current - 1;
      break;
    case GDK_KEY_Home:
      next = 0;
      break;
    case GDK_KEY_End:
      next = n - 1;
      break;
    default:
      return FALSE;
    }
  /* parts with nothing to say (no prediction yet) are stepped over */
  while (next >= 0 && next < (int) n)
    {
      g_autofree char *text = ws_hierarchy_figure_describe (self->figure, &all[next]);
      if (text)
        break;
      next += keyval == GDK_KEY_Left || keyval == GDK_KEY_KP_Left || keyval == GDK_KEY_End ? -1 : 1;
    }
  if (next < 0 || next >= (int) n)
    return TRUE;
  set_hover (self, &all[next]);
  gtk_widget_trigger_tooltip_query (GTK_WIDGET (self));
  return TRUE;
}

static void
on_dark_changed (WsHierarchyView *self)
{
  g_assert (WS_IS_HIERARCHY_VIEW (self));

  invalidate (self);
}

static void
ws_hierarchy_view_finalize (GObject *object)
{
  WsHierarchyView *self = WS_HIERARCHY_VIEW (object);

  g_clear_pointer (&self->figure, ws_hierarchy_figure_free);
  g_clear_pointer (&self->image, cairo_surface_destroy);
  G_OBJECT_CLASS (ws_hierarchy_view_parent_class)->finalize (object);
}

static void
ws_hierarchy_view_class_init (WsHierarchyViewClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = ws_hierarchy_view_finalize;
  widget_class->snapshot = ws_hierarchy_view_snapshot;
  gtk_widget_class_set_css_name (widget_class, "hierarchyview");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
ws_hierarchy_view_init (WsHierarchyView *self)
{
  GtkEventController *motion = gtk_event_controller_motion_new ();
  GtkEventController *key = gtk_event_controller_key_new ();

  g_signal_connect (motion, "motion", G_CALLBACK (on_motion), self);
  g_signal_connect (motion, "leave", G_CALLBACK (on_leave), self);
  gtk_widget_add_controller (GTK_WIDGET (self), motion);
  g_signal_connect (key, "key-pressed", G_CALLBACK (on_key_pressed), self);
  gtk_widget_add_controller (GTK_WIDGET (self), key);
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  g_signal_connect (self, "query-tooltip", G_CALLBACK (on_query_tooltip), NULL);
  g_signal_connect_object (ws_view_style_get_default (), "changed", G_CALLBACK (on_dark_changed), self,
                           G_CONNECT_SWAPPED);
  gtk_widget_set_hexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_size_request (GTK_WIDGET (self), 320, 200);
}

GtkWidget *
ws_hierarchy_view_new (void)
{
  return g_object_new (WS_TYPE_HIERARCHY_VIEW, NULL);
}

void
ws_hierarchy_view_set_figure (WsHierarchyView         *self,
                              const WsHierarchyFigure *figure)
{
  WsHierHit hover = WS_HIER_HIT_INIT;

  g_return_if_fail (WS_IS_HIERARCHY_VIEW (self));

  /* what the pointer is on stays under it while the numbers change */
  if (self->figure)
    hover = self->figure->hover;
  g_clear_pointer (&self->figure, ws_hierarchy_figure_free);
  if (figure)
    {
      self->figure = ws_hierarchy_figure_copy (figure);
      self->figure->hover = hover;
    }
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  figure && figure->title ? figure->title : _("Memory hierarchy"),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                  _("Left and Right walk the levels, the flows between them and the time; each "
                                    "one's tooltip says what the model and the counters have"), -1);
  invalidate (self);
}

const WsHierarchyFigure *
ws_hierarchy_view_get_figure (WsHierarchyView *self)
{
  g_return_val_if_fail (WS_IS_HIERARCHY_VIEW (self), NULL);
  return self->figure;
}
