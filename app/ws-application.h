/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "ws-backend.h"

G_BEGIN_DECLS

#define WS_TYPE_APPLICATION (ws_application_get_type ())
G_DECLARE_FINAL_TYPE (WsApplication, ws_application, WS, APPLICATION, AdwApplication)

WsApplication *ws_application_new         (void);
/* The one worker thread that owns the GPU, shared by every window. */
WsBackend     *ws_application_get_backend (WsApplication *self);

G_END_DECLS
