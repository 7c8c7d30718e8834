/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define WS_TYPE_HELP_WINDOW (ws_help_window_get_type ())

G_DECLARE_FINAL_TYPE (WsHelpWindow, ws_help_window, WS, HELP_WINDOW, AdwWindow)

/* The user guide: a sidebar of pages and the page being read.  Pages are
 * GResources under /io/github/warpscope/Warpscope/help/, one per id. */
WsHelpWindow *ws_help_window_new        (void);

/* Shows the page @id: a page id ("welcome", "measuring"…), a topic id
 * ("banks") or a preset id ("banks/stride", which shows its topic's page).
 * Returns FALSE, leaving the page as it was, if there is no such page. */
gboolean      ws_help_window_show_page  (WsHelpWindow *self,
                                         const char   *id);
const char   *ws_help_window_get_page   (WsHelpWindow *self);

/* The ids of every page, in the sidebar's order (NULL-terminated; owned
 * by the window's class, never free it). */
const char *const *ws_help_window_list_pages (void);

G_END_DECLS
