/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define WS_TYPE_PREFERENCES_WINDOW (ws_preferences_window_get_type ())

G_DECLARE_FINAL_TYPE (WsPreferencesWindow, ws_preferences_window, WS, PREFERENCES_WINDOW, AdwPreferencesWindow)

/* A preferences window bound to the application's GSettings. */
WsPreferencesWindow *ws_preferences_window_new (void);

G_END_DECLS
