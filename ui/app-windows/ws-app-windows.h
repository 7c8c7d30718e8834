/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ws-app-windows.h: the application's secondary windows — About,
 * Preferences and the offline user guide.  Each call presents the window
 * transient for @parent (which may be NULL).
 *
 * Link with ws_app_windows_dep (ui/app-windows/meson.build).  Its GResource, under
 * /io/github/warpscope/Warpscope, also holds gtk/help-overlay.ui (the
 * shortcuts window GtkApplication adds as win.show-help-overlay) and the
 * application icons (icons/), which GtkApplication puts on the icon theme's
 * path, so the uninstalled program finds them too. */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* AdwAboutWindow, modal: version, licence, links, and the release notes of
 * this version from the AppStream metainfo. */
void ws_show_about_window       (GtkWindow  *parent);

/* AdwPreferencesWindow, modal, bound with g_settings_bind to the keys
 * samples, cold-cache, auto-measure, default-elem-size, color-scheme,
 * animation-speed and export-style.  It only writes the settings: the
 * program applies them (color-scheme to AdwStyleManager, for one). */
void ws_show_preferences_window (GtkWindow  *parent);

/* The user guide, one window at a time: a second call shows @page_or_null
 * in the window already open.  @page_or_null is NULL (the page last shown,
 * "welcome" at first; "" means the same), a page id ("welcome", "views", "editor",
 * "measuring", "compare", "recordings", "cli"), a topic id ("banks"), or a
 * preset id ("banks/stride", which shows its topic's page).
 *
 * The topic pages list their presets.  If @parent has an action
 * "win.load-preset" with a string parameter (a GAction of a
 * GtkApplicationWindow, or a widget-class action), the rows open the preset
 * there. */
void ws_show_help_window        (GtkWindow  *parent,
                                 const char *page_or_null);

G_END_DECLS
