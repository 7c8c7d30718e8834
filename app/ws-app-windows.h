/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ws-app-windows.h: the application's secondary windows — About,
 * Preferences and the offline user guide.  Each call presents the window
 * transient for @parent (which may be NULL). */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

void ws_show_about_window       (GtkWindow  *parent);
void ws_show_preferences_window (GtkWindow  *parent);
void ws_show_help_window        (GtkWindow  *parent,
                                 const char *page_or_null);

G_END_DECLS
