/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "ws-export.h"

G_BEGIN_DECLS

/* The export dialog of the window (ws_export_dialog_new, in
 * ws-window-private.h; the window opens it with Ctrl+E): a size, a style, a title, a format and a file
 * name, and a preview of what the file will hold. The choices are the
 * combo rows' positions: sizes 1920 × 1080, 1280 × 720, 2560 × 1440, as in
 * the window; styles print, light, dark; formats PNG, SVG, PDF (CSV, JSON
 * for a plot). */

#define WS_TYPE_EXPORT_DIALOG (ws_export_dialog_get_type ())
G_DECLARE_FINAL_TYPE (WsExportDialog, ws_export_dialog, WS, EXPORT_DIALOG, AdwWindow)

void                 ws_export_dialog_set_choice    (WsExportDialog *self,
                                                     guint           size,
                                                     guint           style,
                                                     guint           format);
void                 ws_export_dialog_set_title     (WsExportDialog *self,
                                                     const char     *title);
const char          *ws_export_dialog_get_title     (WsExportDialog *self);
WsExportFormat       ws_export_dialog_get_format    (WsExportDialog *self);
const WsFigureStyle *ws_export_dialog_get_style     (WsExportDialog *self);
/* What the file will be called, as the file chooser proposes it. */
char                *ws_export_dialog_get_file_name (WsExportDialog *self);
/* The size the figure is written at (points; pixels at PNG scale 1). */
void                 ws_export_dialog_get_size      (WsExportDialog *self,
                                                     double         *width,
                                                     double         *height);
guint                ws_export_dialog_n_sizes       (WsExportDialog *self);
char                *ws_export_dialog_size_name     (WsExportDialog *self,
                                                     guint           i);
/* The preview as it is shown, drawn now if it was to be. */
GdkPaintable        *ws_export_dialog_get_preview   (WsExportDialog *self);
/* Writes the file as the dialog's Export… does, once a file is chosen. */
gboolean             ws_export_dialog_write         (WsExportDialog *self,
                                                     const char     *path,
                                                     GError        **error);

G_END_DECLS
