/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* A line across the top of a page that says something about all of it (no
 * GPU, where measurements run, a sweep that stopped), with an icon, a
 * button that acts on it, a "Learn More" button that opens a page of the
 * guide, and a button that dismisses it: libadwaita 1.2 has no AdwBanner.
 * It starts hidden; ws_banner_show () shows it, dismissing hides it. */
#define WS_TYPE_BANNER (ws_banner_get_type ())
G_DECLARE_FINAL_TYPE (WsBanner, ws_banner, WS, BANNER, GtkWidget)

GtkWidget  *ws_banner_new              (void);
/* Shows the banner: its icon, its line (and the tooltip over it: NULL, the
 * line), its button's label (NULL: no button) and the guide's page that
 * "Learn More" opens (win.show-help with this topic; NULL: none). */
void        ws_banner_show             (WsBanner   *self,
                                        const char *icon_name,
                                        const char *title,
                                        const char *tooltip,
                                        const char *button_label,
                                        const char *help_topic);
void        ws_banner_dismiss          (WsBanner   *self);
gboolean    ws_banner_get_revealed     (WsBanner   *self);
const char *ws_banner_get_title        (WsBanner   *self);
const char *ws_banner_get_tooltip      (WsBanner   *self);
/* NULL when the banner has no button */
const char *ws_banner_get_button_label (WsBanner   *self);
const char *ws_banner_get_help_topic   (WsBanner   *self);

G_END_DECLS
