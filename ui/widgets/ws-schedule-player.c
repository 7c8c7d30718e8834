/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "ws-schedule-player.h"

#include <math.h>

/* how long the whole picture stays up before the schedule plays again */
#define HOLD_SECONDS 1.5

struct _WsSchedulePlayer
{
  GObject parent_instance;

  guint n_steps;
  double position;
  gboolean playing;
  double speed;

  GtkWidget *widget;       /* weak: whose frame clock drives us */
  guint tick_id;
  gint64 last_frame;       /* µs, 0 before the first tick */
  double hold;             /* seconds left at the end */
};

enum
{
  PROP_0,
  PROP_N_STEPS,
  PROP_POSITION,
  PROP_PLAYING,
  PROP_SPEED,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (WsSchedulePlayer, ws_schedule_player, G_TYPE_OBJECT)

static gboolean
on_tick (GtkWidget     *widget,
         GdkFrameClock *clock,
         gpointer       user_data)
{
  WsSchedulePlayer *self = user_data;
  gint64 now = gdk_frame_clock_get_frame_time (clock);
  double dt;

  g_assert (WS_IS_SCHEDULE_PLAYER (self));

  dt = self->last_frame ? (now - self->last_frame) / 1e6 : 0;
  self->last_frame = now;
  dt = MIN (dt, 0.1);   /* a stalled clock does not jump the animation */
  if (self->position >= self->n_steps)
    {
      self->hold -= dt;
      if (self->hold <= 0)
        ws_schedule_player_set_position (self, 0);
      return G_SOURCE_CONTINUE;
    }
  ws_schedule_player_set_position (self, MIN (self->n_steps, self->position + dt * self->speed *
                                                                 WS_SCHEDULE_PLAYER_RATE));
  if (self->position >= self->n_steps)
    self->hold = HOLD_SECONDS;
  return G_SOURCE_CONTINUE;
}

static void
update_ticking (WsSchedulePlayer *self)
{
  gboolean want = self->playing && self->widget != NULL && self->n_steps > 0;

  if (want && self->tick_id == 0)
    {
      self->last_frame = 0;
      self->tick_id = gtk_widget_add_tick_callback (self->widget, on_tick, self, NULL);
    }
  else if (!want && self->tick_id != 0)
    {
      if (self->widget)
        gtk_widget_remove_tick_callback (self->widget, self->tick_id);
      self->tick_id = 0;
    }
}

static void
widget_gone (gpointer  data,
             GObject  *where)
{
  WsSchedulePlayer *self = data;

  self->widget = NULL;
  self->tick_id = 0;
}

void
ws_schedule_player_attach (WsSchedulePlayer *self,
                           GtkWidget        *widget)
{
  g_return_if_fail (WS_IS_SCHEDULE_PLAYER (self));
  g_return_if_fail (GTK_IS_WIDGET (widget));
  g_return_if_fail (self->widget == NULL);

  self->widget = widget;
  g_object_weak_ref (G_OBJECT (widget), widget_gone, self);
  update_ticking (self);
}

static void
ws_schedule_player_dispose (GObject *object)
{
  WsSchedulePlayer *self = WS_SCHEDULE_PLAYER (object);

  if (self->widget)
    {
      if (self->tick_id)
        gtk_widget_remove_tick_callback (self->widget, self->tick_id);
      g_object_weak_unref (G_OBJECT (self->widget), widget_gone, self);
      self->widget = NULL;
      self->tick_id = 0;
    }
  G_OBJECT_CLASS (ws_schedule_player_parent_class)->dispose (object);
}

static void
ws_schedule_player_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  WsSchedulePlayer *self = WS_SCHEDULE_PLAYER (object);

  switch (prop_id)
    {
    case PROP_N_STEPS:
      g_value_set_uint (value, self->n_steps);
      break;
    case PROP_POSITION:
      g_value_set_double (value, self->position);
      break;
    case PROP_PLAYING:
      g_value_set_boolean (value, self->playing);
      break;
    case PROP_SPEED:
      g_value_set_double (value, self->speed);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ws_schedule_player_set_property (GObject      *object,
                                 guint         prop_id,
                                 const GValue *value,
                                 GParamSpec   *pspec)
{
  WsSchedulePlayer *self = WS_SCHEDULE_PLAYER (object);

  switch (prop_id)
    {
    case PROP_N_STEPS:
      ws_schedule_player_set_n_steps (self, g_value_get_uint (value));
      break;
    case PROP_POSITION:
      ws_schedule_player_set_position (self, g_value_get_double (value));
      break;
    case PROP_PLAYING:
      ws_schedule_player_set_playing (self, g_value_get_boolean (value));
      break;
    case PROP_SPEED:
      ws_schedule_player_set_speed (self, g_value_get_double (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ws_schedule_player_class_init (WsSchedulePlayerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags flags = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->dispose = ws_schedule_player_dispose;
  object_class->get_property = ws_schedule_player_get_property;
  object_class->set_property = ws_schedule_player_set_property;

  properties[PROP_N_STEPS] = g_param_spec_uint ("n-steps", NULL, NULL, 0, G_MAXUINT, 0, flags);
  properties[PROP_POSITION] = g_param_spec_double ("position", NULL, NULL, 0, G_MAXDOUBLE, 0, flags);
  properties[PROP_PLAYING] = g_param_spec_boolean ("playing", NULL, NULL, TRUE, flags);
  properties[PROP_SPEED] = g_param_spec_double ("speed", NULL, NULL, 0.125, 8.0, 1.0, flags);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
ws_schedule_player_init (WsSchedulePlayer *self)
{
  self->playing = TRUE;
  self->speed = 1.0;
}

WsSchedulePlayer *
ws_schedule_player_new (void)
{
  return g_object_new (WS_TYPE_SCHEDULE_PLAYER, NULL);
}

guint
ws_schedule_player_get_n_steps (WsSchedulePlayer *self)
{
  g_return_val_if_fail (WS_IS_SCHEDULE_PLAYER (self), 0);
  return self->n_steps;
}

/* A new schedule starts from the beginning when playing, or shows the
 * whole picture when paused. */
void
ws_schedule_player_set_n_steps (WsSchedulePlayer *self,
                                guint             n_steps)
{
  g_return_if_fail (WS_IS_SCHEDULE_PLAYER (self));

  self->n_steps = n_steps;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_STEPS]);
  ws_schedule_player_set_position (self, self->playing ? 0 : n_steps);
  update_ticking (self);
}

double
ws_schedule_player_get_position (WsSchedulePlayer *self)
{
  g_return_val_if_fail (WS_IS_SCHEDULE_PLAYER (self), 0);
  return self->position;
}

void
ws_schedule_player_set_position (WsSchedulePlayer *self,
                                 double            position)
{
  g_return_if_fail (WS_IS_SCHEDULE_PLAYER (self));

  position = CLAMP (position, 0, self->n_steps);
  if (position == self->position)
    return;
  self->position = position;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_POSITION]);
}

gboolean
ws_schedule_player_get_playing (WsSchedulePlayer *self)
{
  g_return_val_if_fail (WS_IS_SCHEDULE_PLAYER (self), FALSE);
  return self->playing;
}

void
ws_schedule_player_set_playing (WsSchedulePlayer *self,
                                gboolean          playing)
{
  g_return_if_fail (WS_IS_SCHEDULE_PLAYER (self));

  playing = !!playing;
  if (playing == self->playing)
    return;
  self->playing = playing;
  if (playing && self->position >= self->n_steps)
    ws_schedule_player_set_position (self, 0);
  update_ticking (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PLAYING]);
}

double
ws_schedule_player_get_speed (WsSchedulePlayer *self)
{
  g_return_val_if_fail (WS_IS_SCHEDULE_PLAYER (self), 1);
  return self->speed;
}

void
ws_schedule_player_set_speed (WsSchedulePlayer *self,
                              double            speed)
{
  g_return_if_fail (WS_IS_SCHEDULE_PLAYER (self));

  speed = CLAMP (speed, 0.125, 8.0);
  if (speed == self->speed)
    return;
  self->speed = speed;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SPEED]);
}

void
ws_schedule_player_step (WsSchedulePlayer *self,
                         int               direction)
{
  double target;

  g_return_if_fail (WS_IS_SCHEDULE_PLAYER (self));

  ws_schedule_player_set_playing (self, FALSE);
  /* whole steps: position k means k steps served */
  if (direction > 0)
    target = floor (self->position + 1e-9) + 1;
  else
    target = ceil (self->position - 1e-9) - 1;
  ws_schedule_player_set_position (self, target);
}

void
ws_schedule_player_restart (WsSchedulePlayer *self)
{
  g_return_if_fail (WS_IS_SCHEDULE_PLAYER (self));

  ws_schedule_player_set_position (self, 0);
  self->hold = 0;
  ws_schedule_player_set_playing (self, TRUE);
}
