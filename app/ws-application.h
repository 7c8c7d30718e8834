/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "ws-session.h"

G_BEGIN_DECLS

#define WS_TYPE_APPLICATION (ws_application_get_type ())
G_DECLARE_FINAL_TYPE (WsApplication, ws_application, WS, APPLICATION, AdwApplication)

WsApplication *ws_application_new         (void);
/* The one backend (its thread, and the GPU worker process it talks to), shared by every window. */
WsBackend     *ws_application_get_backend (WsApplication *self);
/* A session on that backend, reading its recording (NULL: the bundled
 * one): what a new window shows. */
WsSession     *ws_application_new_session (WsApplication *self,
                                           const char    *recording_path);

G_END_DECLS
