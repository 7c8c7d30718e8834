/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <glib/gi18n.h>
#include "ws-figure-view.h"
#include "ws-drawing.h"
#include "ws-view-style.h"

#include <adwaita.h>
#include <math.h>

/* What a still shows: a still drawn for one key fits every frame with it. */
typedef struct
{
  guint generation;
  double step;
  WsFigureHit hover;
  int width;
  int height;
  int scale;
  const WsFigureStyle *style;
} StillKey;

struct _WsFigureView
{
  GtkWidget parent_instance;

  WsFigureKind kind;
  WsWarpResult *result;
  char *title;
  WsDim3 block_dim;
  double position;
  WsFigureHit hover;

  /* what changes once per step, drawn once per step (packets move every frame) */
  cairo_surface_t *still;
  StillKey still_key;
  /* while a step plays, the next step's still is drawn in a thread, so
   * that the frame where the step changes only swaps a picture */
  cairo_surface_t *next;
  StillKey next_key;
  GCancellable *drawing;
  StillKey drawing_key;
  double drawn_position;   /* the position the last frame showed */
  guint generation;        /* counts results */
};

enum
{
  PROP_0,
  PROP_KIND,
  PROP_POSITION,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (WsFigureView, ws_figure_view, GTK_TYPE_WIDGET)

static WsWarpResult *
warp_result_copy (const WsWarpResult *r)
{
  WsWarpResult *copy = g_memdup2 (r, sizeof *r);

  copy->steps = g_array_copy (r->steps);
  return copy;
}

const WsFigureStyle *
ws_figure_view_get_style (WsFigureView *self)
{
  return ws_view_style_get ();
}

static WsFigureFrame
current_frame (WsFigureView *self)
{
  return (WsFigureFrame) { self->result, self->title, self->block_dim, self->position, self->hover };
}

static double
step_of (WsFigureView *self)
{
  guint n = self->result->steps->len;

  /* every position within one step looks the same but for the packets */
  return self->position >= n ? n : floor (self->position);
}

static StillKey
wanted_still (WsFigureView        *self,
              int                  w,
              int                  h,
              int                  scale,
              const WsFigureStyle *style)
{
  return (StillKey) { self->generation, step_of (self), self->hover, w, h, scale, style };
}

static gboolean
still_key_equal (const StillKey *a,
                 const StillKey *b)
{
  return a->generation == b->generation && a->step == b->step && ws_figure_hit_equal (&a->hover, &b->hover) &&
         a->width == b->width && a->height == b->height && a->scale == b->scale && a->style == b->style;
}

/* The still of one step: the same for every position within it. */
static cairo_surface_t *
render_still (WsFigureKind         kind,
              const WsWarpResult  *result,
              const char          *title,
              WsDim3               block_dim,
              const StillKey      *key)
{
  WsFigureFrame frame = { result, title, block_dim, key->step, key->hover };
  cairo_t *cr;
  cairo_surface_t *still = ws_drawing_new_image (key->width, key->height, key->scale, key->style, &cr);

  frame.layers = WS_FIGURE_LAYERS_STILL;
  ws_figure_draw (kind, cr, &frame, key->style, key->width, key->height);
  cairo_destroy (cr);
  return still;
}

typedef struct
{
  WsFigureKind kind;
  WsWarpResult *result;
  char *title;
  WsDim3 block_dim;
  StillKey key;
} NextStill;

static void
next_still_free (NextStill *n)
{
  ws_warp_result_free (n->result);
  g_free (n->title);
  g_free (n);
}

static cairo_surface_t *
draw_next (gpointer data)
{
  NextStill *n = data;

  return render_still (n->kind, n->result, n->title, n->block_dim, &n->key);
}

static void
next_still_done (GObject      *source,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  WsFigureView *self = WS_FIGURE_VIEW (source);
  NextStill *n;
  cairo_surface_t *still = ws_drawing_finish (result, &self->drawing, (gpointer *) &n);

  g_assert (WS_IS_FIGURE_VIEW (self));

  if (still == NULL)
    return;   /* cancelled: another step is wanted, or the view is going away */
  g_clear_pointer (&self->next, cairo_surface_destroy);
  if (n->key.generation != self->generation)
    {
      cairo_surface_destroy (still);
      return;
    }
  self->next = still;
  self->next_key = n->key;
}

/* While the position moves, the step after the one shown is drawn ahead
 * (the first one after the last: playing loops). */
static void
draw_next_still (WsFigureView   *self,
                 const StillKey *shown)
{
  guint n = self->result->steps->len;
  StillKey next = *shown;
  NextStill *d;

  next.step = shown->step >= n ? 0 : shown->step + 1;
  if (n == 0 || (self->next && still_key_equal (&self->next_key, &next)) ||
      (self->drawing && still_key_equal (&self->drawing_key, &next)))
    return;
  d = g_new0 (NextStill, 1);
  d->kind = self->kind;
  d->result = warp_result_copy (self->result);
  d->title = g_strdup (self->title);
  d->block_dim = self->block_dim;
  d->key = next;
  self->drawing_key = next;
  ws_drawing_start (self, &self->drawing, draw_next, d, (GDestroyNotify) next_still_free, next_still_done);
}

static void
ws_figure_view_snapshot (GtkWidget   *widget,
                         GtkSnapshot *snapshot)
{
  WsFigureView *self = WS_FIGURE_VIEW (widget);
  int w = gtk_widget_get_width (widget), h = gtk_widget_get_height (widget);
  int scale = gtk_widget_get_scale_factor (widget);
  const WsFigureStyle *style = ws_figure_view_get_style (self);
  WsFigureFrame frame = current_frame (self);
  cairo_t *cr;
  StillKey want;

  if (self->result == NULL || w <= 0 || h <= 0)
    return;
  want = wanted_still (self, w, h, scale, style);
  if (self->still == NULL || !still_key_equal (&self->still_key, &want))
    {
      g_clear_pointer (&self->still, cairo_surface_destroy);
      if (self->next && still_key_equal (&self->next_key, &want))
        self->still = g_steal_pointer (&self->next);
      else
        self->still = render_still (self->kind, self->result, self->title, self->block_dim, &want);
      self->still_key = want;
    }
  if (self->position != self->drawn_position)
    draw_next_still (self, &want);
  self->drawn_position = self->position;
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, w, h));
  /* the still is opaque: copied, not blended, every frame */
  cairo_set_operator (cr, CAIRO_OPERATOR_SOURCE);
  cairo_set_source_surface (cr, self->still, 0, 0);
  cairo_paint (cr);
  cairo_set_operator (cr, CAIRO_OPERATOR_OVER);
  frame.layers = WS_FIGURE_LAYERS_PACKETS;
  ws_figure_draw (self->kind, cr, &frame, style, w, h);
  cairo_destroy (cr);
}

static gboolean
hit_at (WsFigureView *self,
        double        x,
        double        y,
        WsFigureHit  *hit)
{
  WsFigureFrame frame = current_frame (self);

  *hit = WS_FIGURE_HIT_NONE;
  if (self->result == NULL)
    return FALSE;
  return ws_figure_hit_test (self->kind, &frame, ws_figure_view_get_style (self),
                             gtk_widget_get_width (GTK_WIDGET (self)), gtk_widget_get_height (GTK_WIDGET (self)), x,
                             y, hit);
}

char *
ws_figure_view_describe_at (WsFigureView *self,
                            double        x,
                            double        y)
{
  WsFigureFrame frame = current_frame (self);
  WsFigureHit hit;

  g_return_val_if_fail (WS_IS_FIGURE_VIEW (self), NULL);
  if (!hit_at (self, x, y, &hit))
    return NULL;
  return ws_figure_describe (self->kind, &frame, &hit);
}

static void
set_hover (WsFigureView      *self,
           const WsFigureHit *hit)
{
  if (ws_figure_hit_equal (&self->hover, hit))
    return;
  self->hover = *hit;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
on_motion (GtkEventControllerMotion *controller,
           double                    x,
           double                    y,
           WsFigureView             *self)
{
  WsFigureHit hit;

  g_assert (WS_IS_FIGURE_VIEW (self));

  hit_at (self, x, y, &hit);
  set_hover (self, &hit);
}

static void
on_leave (GtkEventControllerMotion *controller,
          WsFigureView             *self)
{
  g_assert (WS_IS_FIGURE_VIEW (self));

  set_hover (self, &WS_FIGURE_HIT_NONE);
}

static gboolean
on_query_tooltip (GtkWidget  *widget,
                  int         x,
                  int         y,
                  gboolean    keyboard,
                  GtkTooltip *tooltip,
                  gpointer    data)
{
  WsFigureView *self = WS_FIGURE_VIEW (widget);
  g_autofree char *text = NULL;

  g_assert (WS_IS_FIGURE_VIEW (self));

  if (keyboard && self->result && self->hover.kind != WS_HIT_NONE)
    {
      WsFigureFrame frame = current_frame (self);
      text = ws_figure_describe (self->kind, &frame, &self->hover);
    }
  else
    text = ws_figure_view_describe_at (self, x, y);

  if (text == NULL)
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

/* The keyboard walks the lanes: each says what it is in the tooltip. */
static gboolean
on_key_pressed (GtkEventControllerKey *controller,
                guint                  keyval,
                guint                  keycode,
                GdkModifierType        state,
                WsFigureView          *self)
{
  WsFigureHit hit;
  int lane;

  g_assert (WS_IS_FIGURE_VIEW (self));

  lane = self->hover.kind == WS_HIT_LANE ? self->hover.index : -1;
  if (self->result == NULL || (state & (GDK_CONTROL_MASK | GDK_ALT_MASK)))
    return FALSE;
  switch (keyval)
    {
    case GDK_KEY_Right:
    case GDK_KEY_KP_Right:
      lane = MIN (lane + 1, WS_WARP_SIZE - 1);
      break;
    case GDK_KEY_Left:
    case GDK_KEY_KP_Left:
      lane = MAX (lane - 1, 0);
      break;
    case GDK_KEY_Home:
      lane = 0;
      break;
    case GDK_KEY_End:
      lane = WS_WARP_SIZE - 1;
      break;
    default:
      return FALSE;
    }
  hit = (WsFigureHit) { WS_HIT_LANE, lane, self->result->address[lane], -1 };
  set_hover (self, &hit);
  gtk_widget_trigger_tooltip_query (GTK_WIDGET (self));
  return TRUE;
}

static void
on_dark_changed (WsFigureView *self)
{
  g_assert (WS_IS_FIGURE_VIEW (self));

  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
ws_figure_view_finalize (GObject *object)
{
  WsFigureView *self = WS_FIGURE_VIEW (object);

  g_clear_pointer (&self->result, ws_warp_result_free);
  g_clear_pointer (&self->still, cairo_surface_destroy);
  g_clear_pointer (&self->next, cairo_surface_destroy);
  g_free (self->title);
  G_OBJECT_CLASS (ws_figure_view_parent_class)->finalize (object);
}

static void
ws_figure_view_dispose (GObject *object)
{
  WsFigureView *self = WS_FIGURE_VIEW (object);

  if (self->drawing)
    g_cancellable_cancel (self->drawing);
  g_clear_object (&self->drawing);
  G_OBJECT_CLASS (ws_figure_view_parent_class)->dispose (object);
}

static void
ws_figure_view_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  WsFigureView *self = WS_FIGURE_VIEW (object);

  switch (prop_id)
    {
    case PROP_KIND:
      g_value_set_uint (value, self->kind);
      break;
    case PROP_POSITION:
      g_value_set_double (value, self->position);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ws_figure_view_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  WsFigureView *self = WS_FIGURE_VIEW (object);

  switch (prop_id)
    {
    case PROP_KIND:
      self->kind = g_value_get_uint (value);
      break;
    case PROP_POSITION:
      ws_figure_view_set_position (self, g_value_get_double (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ws_figure_view_class_init (WsFigureViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ws_figure_view_dispose;
  object_class->finalize = ws_figure_view_finalize;
  object_class->get_property = ws_figure_view_get_property;
  object_class->set_property = ws_figure_view_set_property;
  widget_class->snapshot = ws_figure_view_snapshot;

  properties[PROP_KIND] = g_param_spec_uint ("kind", NULL, NULL, 0, WS_N_FIGURES - 1, 0,
                                             G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_POSITION] = g_param_spec_double ("position", NULL, NULL, 0, G_MAXDOUBLE, 0,
                                                   G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY |
                                                     G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  gtk_widget_class_set_css_name (widget_class, "figureview");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
ws_figure_view_init (WsFigureView *self)
{
  GtkEventController *motion = gtk_event_controller_motion_new ();
  GtkEventController *key;

  self->hover = WS_FIGURE_HIT_NONE;
  g_signal_connect (motion, "motion", G_CALLBACK (on_motion), self);
  g_signal_connect (motion, "leave", G_CALLBACK (on_leave), self);
  gtk_widget_add_controller (GTK_WIDGET (self), motion);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  g_signal_connect (self, "query-tooltip", G_CALLBACK (on_query_tooltip), NULL);
  key = gtk_event_controller_key_new ();
  g_signal_connect (key, "key-pressed", G_CALLBACK (on_key_pressed), self);
  gtk_widget_add_controller (GTK_WIDGET (self), key);
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  g_signal_connect_object (ws_view_style_get_default (), "changed", G_CALLBACK (on_dark_changed), self,
                           G_CONNECT_SWAPPED);
  gtk_widget_set_hexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self), TRUE);
  /* small enough that the window lays out at a projector's 1280 × 720 */
  gtk_widget_set_size_request (GTK_WIDGET (self), 320, 200);
}

GtkWidget *
ws_figure_view_new (WsFigureKind kind)
{
  return g_object_new (WS_TYPE_FIGURE_VIEW, "kind", (guint) kind, NULL);
}

WsFigureKind
ws_figure_view_get_kind (WsFigureView *self)
{
  g_return_val_if_fail (WS_IS_FIGURE_VIEW (self), 0);
  return self->kind;
}

void
ws_figure_view_set_result (WsFigureView       *self,
                           const WsWarpResult *result,
                           const char         *title,
                           WsDim3              block_dim)
{
  g_return_if_fail (WS_IS_FIGURE_VIEW (self));

  g_clear_pointer (&self->result, ws_warp_result_free);
  if (result)
    self->result = warp_result_copy (result);
  g_free (self->title);
  self->title = g_strdup (title);
  self->block_dim = block_dim;
  self->hover = WS_FIGURE_HIT_NONE;
  self->generation++;
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  title ? title : ws_figure_kind_title (self->kind),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                  _("Left and Right walk the lanes; each one's tooltip says where it goes"), -1);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

double
ws_figure_view_min_width (WsFigureView *self)
{
  WsFigureFrame frame;

  g_return_val_if_fail (WS_IS_FIGURE_VIEW (self), 0);
  if (self->result == NULL)
    return 0;
  frame = current_frame (self);
  return ws_figure_min_width (self->kind, &frame, ws_figure_view_get_style (self));
}

double
ws_figure_view_min_height (WsFigureView *self,
                           double        width)
{
  WsFigureFrame frame;

  g_return_val_if_fail (WS_IS_FIGURE_VIEW (self), 0);
  if (self->result == NULL)
    return 0;
  frame = current_frame (self);
  return ws_figure_min_height (self->kind, &frame, ws_figure_view_get_style (self), width);
}

const WsWarpResult *
ws_figure_view_get_result (WsFigureView *self)
{
  g_return_val_if_fail (WS_IS_FIGURE_VIEW (self), NULL);
  return self->result;
}

double
ws_figure_view_get_position (WsFigureView *self)
{
  g_return_val_if_fail (WS_IS_FIGURE_VIEW (self), 0);
  return self->position;
}

void
ws_figure_view_set_position (WsFigureView *self,
                             double        position)
{
  g_return_if_fail (WS_IS_FIGURE_VIEW (self));

  if (position == self->position)
    return;
  self->position = position;
  if (gtk_widget_get_mapped (GTK_WIDGET (self)))
    gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_POSITION]);
}
