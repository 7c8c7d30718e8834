/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Plays the model's schedule: a position in steps that advances with the
 * frame clock of the widget it is attached to. Views bind their position
 * to it; it knows nothing of what a step is. */

#define WS_TYPE_SCHEDULE_PLAYER (ws_schedule_player_get_type ())
G_DECLARE_FINAL_TYPE (WsSchedulePlayer, ws_schedule_player, WS, SCHEDULE_PLAYER, GObject)

/* steps per second at speed 1 */
#define WS_SCHEDULE_PLAYER_RATE 2.0

WsSchedulePlayer *ws_schedule_player_new          (void);
void              ws_schedule_player_attach       (WsSchedulePlayer *self,
                                                   GtkWidget        *widget);
guint             ws_schedule_player_get_n_steps  (WsSchedulePlayer *self);
void              ws_schedule_player_set_n_steps  (WsSchedulePlayer *self,
                                                   guint             n_steps);
double            ws_schedule_player_get_position (WsSchedulePlayer *self);
void              ws_schedule_player_set_position (WsSchedulePlayer *self,
                                                   double            position);
gboolean          ws_schedule_player_get_playing  (WsSchedulePlayer *self);
void              ws_schedule_player_set_playing  (WsSchedulePlayer *self,
                                                   gboolean          playing);
double            ws_schedule_player_get_speed    (WsSchedulePlayer *self);
void              ws_schedule_player_set_speed    (WsSchedulePlayer *self,
                                                   double            speed);
/* Moves to the next (+1) or previous (-1) whole step, and pauses. */
void              ws_schedule_player_step         (WsSchedulePlayer *self,
                                                   int               direction);
void              ws_schedule_player_restart      (WsSchedulePlayer *self);

G_END_DECLS
