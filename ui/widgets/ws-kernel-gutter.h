/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtksourceview/gtksource.h>

G_BEGIN_DECLS

/* A column of the kernel editor's gutter: each line's figures, the
 * model's or the hardware's (with a mark where they differ), from the
 * editor (ws_kernel_editor_figure_at); a tooltip says them in full, and a
 * click on them activates the line. Made by the editor; nothing else
 * needs it. */

#define WS_TYPE_KERNEL_GUTTER (ws_kernel_gutter_get_type ())
G_DECLARE_FINAL_TYPE (WsKernelGutter, ws_kernel_gutter, WS, KERNEL_GUTTER, GtkSourceGutterRenderer)

typedef struct _WsKernelEditor WsKernelEditor;

GtkSourceGutterRenderer *ws_kernel_gutter_new    (WsKernelEditor *editor,
                                                  gboolean        measured);
gboolean                 ws_kernel_gutter_get_measured (WsKernelGutter *self);
/* The figures changed: the column's width and what it shows. */
void                     ws_kernel_gutter_update (WsKernelGutter *self);
/* What the column shows at line (from 1), as plain text, or NULL. */
char                    *ws_kernel_gutter_text_at (WsKernelGutter *self,
                                                  guint           line);

G_END_DECLS
