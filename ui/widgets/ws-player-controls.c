/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <glib/gi18n.h>
#include "ws-player-controls.h"

#include <math.h>

struct _WsPlayerControls
{
  GtkWidget parent_instance;

  GtkWidget *box;
  GtkWidget *play_button;
  GtkDropDown *speed;
  WsSchedulePlayer *player;
};

G_DEFINE_FINAL_TYPE (WsPlayerControls, ws_player_controls, GTK_TYPE_WIDGET)

enum
{
  PROP_0,
  PROP_PLAYER,
  PROP_SHOW_SPEED,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* the speeds ¼× … 8×, one item each: item i is 2^(i - 2) */
#define N_SPEEDS 6

static void
on_playing (WsPlayerControls *self)
{
  gboolean playing = self->player && ws_schedule_player_get_playing (self->player);

  gtk_button_set_icon_name (GTK_BUTTON (self->play_button),
                            playing ? "media-playback-pause-symbolic" : "media-playback-start-symbolic");
}

static void
on_speed (WsPlayerControls *self)
{
  int e;

  if (self->player == NULL)
    return;
  e = (int) lround (log2 (ws_schedule_player_get_speed (self->player)));
  gtk_drop_down_set_selected (self->speed, CLAMP (e + 2, 0, N_SPEEDS - 1));
}

static void
on_speed_selected (WsPlayerControls *self)
{
  guint i = gtk_drop_down_get_selected (self->speed);

  if (self->player && i != GTK_INVALID_LIST_POSITION)
    ws_schedule_player_set_speed (self->player, ldexp (1, (int) i - 2));
}

static GtkWidget *
action_button (GtkWidget  *box,
               GType       type,
               const char *icon_name,
               const char *tooltip,
               const char *action)
{
  GtkWidget *b = g_object_new (type, "icon-name", icon_name, "tooltip-text", tooltip, "action-name", action, NULL);

  gtk_box_append (GTK_BOX (box), b);
  return b;
}

static void
ws_player_controls_init (WsPlayerControls *self)
{
  static const char * const speeds[N_SPEEDS + 1] = { "¼ ×", "½ ×", "1 ×", "2 ×", "4 ×", "8 ×", NULL };
  GtkWidget *linked = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);

  self->box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));
  gtk_widget_add_css_class (linked, "linked");
  gtk_box_append (GTK_BOX (self->box), linked);
  action_button (linked, GTK_TYPE_BUTTON, "media-skip-backward-symbolic", _("Start Again (Ctrl+R)"), "win.restart");
  action_button (linked, GTK_TYPE_BUTTON, "media-seek-backward-symbolic", _("Step Back (Ctrl+[)"), "win.step-back");
  self->play_button = action_button (linked, GTK_TYPE_TOGGLE_BUTTON, "media-playback-start-symbolic",
                                     _("Play or Pause (Ctrl+Space)"), "win.playing");
  action_button (linked, GTK_TYPE_BUTTON, "media-seek-forward-symbolic", _("Step Forward (Ctrl+])"),
                 "win.step-forward");

  self->speed = GTK_DROP_DOWN (gtk_drop_down_new_from_strings (speeds));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->speed), _("Animation Speed"));
  gtk_drop_down_set_selected (self->speed, 2);
  gtk_widget_set_visible (GTK_WIDGET (self->speed), FALSE);
  g_signal_connect_object (self->speed, "notify::selected", G_CALLBACK (on_speed_selected), self, G_CONNECT_SWAPPED);
  gtk_box_append (GTK_BOX (self->box), GTK_WIDGET (self->speed));
}

static void
ws_player_controls_dispose (GObject *object)
{
  WsPlayerControls *self = WS_PLAYER_CONTROLS (object);

  ws_player_controls_set_player (self, NULL);
  g_clear_pointer (&self->box, gtk_widget_unparent);
  G_OBJECT_CLASS (ws_player_controls_parent_class)->dispose (object);
}

static void
ws_player_controls_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  WsPlayerControls *self = WS_PLAYER_CONTROLS (object);

  switch (prop_id)
    {
    case PROP_PLAYER:
      g_value_set_object (value, self->player);
      break;
    case PROP_SHOW_SPEED:
      g_value_set_boolean (value, ws_player_controls_get_show_speed (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ws_player_controls_set_property (GObject      *object,
                                 guint         prop_id,
                                 const GValue *value,
                                 GParamSpec   *pspec)
{
  WsPlayerControls *self = WS_PLAYER_CONTROLS (object);

  switch (prop_id)
    {
    case PROP_PLAYER:
      ws_player_controls_set_player (self, g_value_get_object (value));
      break;
    case PROP_SHOW_SPEED:
      ws_player_controls_set_show_speed (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ws_player_controls_class_init (WsPlayerControlsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ws_player_controls_dispose;
  object_class->get_property = ws_player_controls_get_property;
  object_class->set_property = ws_player_controls_set_property;

  properties[PROP_PLAYER] = g_param_spec_object ("player", NULL, NULL, WS_TYPE_SCHEDULE_PLAYER,
                                                 G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SHOW_SPEED] = g_param_spec_boolean ("show-speed", NULL, NULL, FALSE,
                                                      G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY |
                                                      G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

GtkWidget *
ws_player_controls_new (void)
{
  return g_object_new (WS_TYPE_PLAYER_CONTROLS, NULL);
}

WsSchedulePlayer *
ws_player_controls_get_player (WsPlayerControls *self)
{
  g_return_val_if_fail (WS_IS_PLAYER_CONTROLS (self), NULL);

  return self->player;
}

void
ws_player_controls_set_player (WsPlayerControls *self,
                               WsSchedulePlayer *player)
{
  g_return_if_fail (WS_IS_PLAYER_CONTROLS (self));
  g_return_if_fail (player == NULL || WS_IS_SCHEDULE_PLAYER (player));

  if (self->player == player)
    return;
  if (self->player)
    {
      g_signal_handlers_disconnect_by_func (self->player, on_playing, self);
      g_signal_handlers_disconnect_by_func (self->player, on_speed, self);
    }
  g_set_object (&self->player, player);
  if (player)
    {
      g_signal_connect_object (player, "notify::playing", G_CALLBACK (on_playing), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (player, "notify::speed", G_CALLBACK (on_speed), self, G_CONNECT_SWAPPED);
      on_speed (self);
    }
  on_playing (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PLAYER]);
}

gboolean
ws_player_controls_get_show_speed (WsPlayerControls *self)
{
  g_return_val_if_fail (WS_IS_PLAYER_CONTROLS (self), FALSE);

  return gtk_widget_get_visible (GTK_WIDGET (self->speed));
}

void
ws_player_controls_set_show_speed (WsPlayerControls *self,
                                   gboolean          show_speed)
{
  g_return_if_fail (WS_IS_PLAYER_CONTROLS (self));

  if (ws_player_controls_get_show_speed (self) == !!show_speed)
    return;
  gtk_widget_set_visible (GTK_WIDGET (self->speed), show_speed);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SHOW_SPEED]);
}

double
ws_player_controls_get_shown_speed (WsPlayerControls *self)
{
  guint i;

  g_return_val_if_fail (WS_IS_PLAYER_CONTROLS (self), 0);

  i = gtk_drop_down_get_selected (self->speed);
  if (self->player == NULL || i == GTK_INVALID_LIST_POSITION)
    return 0;
  return ldexp (1, (int) i - 2);
}

const char *
ws_player_controls_get_play_icon (WsPlayerControls *self)
{
  g_return_val_if_fail (WS_IS_PLAYER_CONTROLS (self), NULL);

  return gtk_button_get_icon_name (GTK_BUTTON (self->play_button));
}
