/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* The presets, grouped under the topics of docs/DESIGN.md. Emits
 * "preset-activated" with the preset's id when one is chosen. */

#define WS_TYPE_PRESET_SIDEBAR (ws_preset_sidebar_get_type ())
G_DECLARE_FINAL_TYPE (WsPresetSidebar, ws_preset_sidebar, WS, PRESET_SIDEBAR, GtkWidget)

GtkWidget  *ws_preset_sidebar_new      (void);
/* Selects the row of a preset without emitting the signal; FALSE if unknown. */
gboolean    ws_preset_sidebar_select   (WsPresetSidebar *self,
                                        const char      *id);
const char *ws_preset_sidebar_get_selected (WsPresetSidebar *self);
GtkListBox *ws_preset_sidebar_get_list (WsPresetSidebar *self);

G_END_DECLS
