/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ws-schedule-player.h"

G_BEGIN_DECLS

/* The buttons that play an instruction's schedule step by step — start
 * again, step back, play or pause, step forward, through the window's
 * actions (win.restart, win.step-back, win.playing, win.step-forward) and
 * so its keys — and, where show-speed is set, the animation's speed, ¼× to
 * 8×. The play button's icon follows the player's playing, the speed its
 * speed (both ways). */
#define WS_TYPE_PLAYER_CONTROLS (ws_player_controls_get_type ())
G_DECLARE_FINAL_TYPE (WsPlayerControls, ws_player_controls, WS, PLAYER_CONTROLS, GtkWidget)

GtkWidget        *ws_player_controls_new            (void);
WsSchedulePlayer *ws_player_controls_get_player     (WsPlayerControls *self);
void              ws_player_controls_set_player     (WsPlayerControls *self,
                                                     WsSchedulePlayer *player);
gboolean          ws_player_controls_get_show_speed (WsPlayerControls *self);
void              ws_player_controls_set_show_speed (WsPlayerControls *self,
                                                     gboolean          show_speed);
/* The speed the chooser shows (0.25 to 8), 0 before a player */
double            ws_player_controls_get_shown_speed (WsPlayerControls *self);
/* The play button's icon: "media-playback-pause-symbolic" while playing */
const char       *ws_player_controls_get_play_icon  (WsPlayerControls *self);

G_END_DECLS
