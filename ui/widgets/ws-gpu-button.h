/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ws-session.h"

G_BEGIN_DECLS

/* The header bar's button that says where measurements run ("This
 * Computer", "gpu01 · GPU 1", with the kind of place as its icon and the
 * session's whole description as its tooltip), following its session, and
 * opens the chooser of where they run (WsGpuChooser, which writes the
 * setting gpu). */
#define WS_TYPE_GPU_BUTTON (ws_gpu_button_get_type ())
G_DECLARE_FINAL_TYPE (WsGpuButton, ws_gpu_button, WS, GPU_BUTTON, GtkWidget)

GtkWidget  *ws_gpu_button_new          (void);
/* The settings the chooser writes (the setting gpu); set once, before the
 * session. */
void        ws_gpu_button_set_settings (WsGpuButton *self,
                                        GSettings   *settings);
WsSession  *ws_gpu_button_get_session  (WsGpuButton *self);
void        ws_gpu_button_set_session  (WsGpuButton *self,
                                        WsSession   *session);
const char *ws_gpu_button_get_label    (WsGpuButton *self);
const char *ws_gpu_button_get_icon_name (WsGpuButton *self);
/* The chooser's popover, opened and closed as a click does. */
GtkWidget  *ws_gpu_button_get_popover  (WsGpuButton *self);
void        ws_gpu_button_popup        (WsGpuButton *self);
void        ws_gpu_button_popdown      (WsGpuButton *self);

G_END_DECLS
