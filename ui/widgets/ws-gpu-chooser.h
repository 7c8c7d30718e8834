/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "ws-session.h"

G_BEGIN_DECLS

/* Where measurements run, chosen: "This computer" and the GPUs saved on
 * other machines (the GSettings keys gpu and gpus), one to add; with a
 * session, how reaching it goes (connecting, a Slurm job in the queue,
 * why it failed) with a button to cancel or try again, and, once the
 * worker answered, every GPU of that host to pick one. It writes the
 * settings only: the window applies them to its session. */

#define WS_TYPE_GPU_CHOOSER (ws_gpu_chooser_get_type ())
G_DECLARE_FINAL_TYPE (WsGpuChooser, ws_gpu_chooser, WS, GPU_CHOOSER, GtkBox)

GtkWidget   *ws_gpu_chooser_new          (GSettings   *settings);
void         ws_gpu_chooser_set_session  (WsGpuChooser *self,
                                          WsSession    *session);
/* The heading above the places ("Measure On"); NULL: none (where the
 * chooser sits in a group with a title of its own). */
void         ws_gpu_chooser_set_heading  (WsGpuChooser *self,
                                          const char   *heading);

/* Asks for a GPU elsewhere (ssh, Slurm, a command), saves it and chooses
 * it. */
void         ws_gpu_chooser_add          (GtkWindow   *parent,
                                          GSettings   *settings);

/* The target the setting gpu names; this computer if it names none that
 * can be reached. */
WsGpuTarget *ws_gpu_chooser_read_target  (GSettings   *settings);

G_END_DECLS
