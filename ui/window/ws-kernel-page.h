/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ws-export.h"
#include "ws-figure-view.h"
#include "ws-kernel-editor.h"
#include "ws-kernel-modeller.h"
#include "ws-schedule-player.h"
#include "ws-session.h"

G_BEGIN_DECLS

/* The window's Kernel page: a kernel of one's own in the editor (left),
 * and the instruction of the line the cursor is on, for one warp, in the
 * lane views (right), with a sentence on what it costs and why. The text
 * is modelled again as it is typed (WsKernelModeller); the whole launch's
 * figures fill the editor's gutter, and a measurement on the session's
 * GPU fills it beside them.
 *
 * Property "session": where measurements run and the device profile the
 * model follows. */

#define WS_TYPE_KERNEL_PAGE (ws_kernel_page_get_type ())
G_DECLARE_FINAL_TYPE (WsKernelPage, ws_kernel_page, WS, KERNEL_PAGE, GtkWidget)

WsSession        *ws_kernel_page_get_session   (WsKernelPage *self);
void              ws_kernel_page_set_session   (WsKernelPage *self,
                                                WsSession    *session);
WsKernelEditor   *ws_kernel_page_get_editor    (WsKernelPage *self);
WsKernelModeller *ws_kernel_page_get_modeller  (WsKernelPage *self);

/* A new text, unsaved and with no file: a blank kernel with its launch
 * comment (text NULL), or a copy of an example's. */
void              ws_kernel_page_new_kernel    (WsKernelPage *self,
                                                const char   *text);
/* The same, the unsaved text called name ("coalescing-sequential.cu", a
 * preset's copy) until it is saved; NULL: "Untitled kernel". */
void              ws_kernel_page_new_kernel_named (WsKernelPage *self,
                                                   const char   *text,
                                                   const char   *name);
/* The examples that ship with the program (share/warpscope/examples, or
 * the source tree's when run from the build): their paths, sorted. */
GStrv             ws_kernel_page_list_examples (void);

/* Reads file into the editor, asking first about unsaved changes; a file
 * that cannot be read is said in a toast by the window (the error). */
void              ws_kernel_page_open_async    (WsKernelPage        *self,
                                                GFile               *file,
                                                GtkWindow           *parent,
                                                GAsyncReadyCallback  callback,
                                                gpointer             user_data);
gboolean          ws_kernel_page_open_finish   (WsKernelPage        *self,
                                                GAsyncResult        *result,
                                                GError             **error);

/* The lane view in sight, and the sentence under it. */
WsFigureView     *ws_kernel_page_get_figure    (WsKernelPage *self);
/* What the views' position follows: the window's player keys drive it
 * while the page is in sight. */
WsSchedulePlayer *ws_kernel_page_get_player    (WsKernelPage *self);
const char       *ws_kernel_page_get_caption   (WsKernelPage *self);
/* What stands in for the views when they have nothing to show (the line
 * makes no access, the text does not read): a label, whose link, where it
 * has one, puts the cursor on the kernel's first access. */
GtkLabel         *ws_kernel_page_get_message   (WsKernelPage *self);
/* Which kernel of a file of several the page shows (hidden for one). */
GtkDropDown      *ws_kernel_page_get_kernel_dropdown (WsKernelPage *self);
/* Which of the line's memory instructions is shown, from 0. */
guint             ws_kernel_page_get_site      (WsKernelPage *self);
void              ws_kernel_page_set_site      (WsKernelPage *self,
                                                guint         i);
/* Whether the model of the text as it is has come (nothing in flight). */
gboolean          ws_kernel_page_is_settled    (WsKernelPage *self);

/* Measures the text on the session's GPU, counters by line included. */
void              ws_kernel_page_measure       (WsKernelPage *self);

/* The annotated listing of the text as modelled (and measured), for the
 * window's export; NULL with an error while there is none. */
gboolean          ws_kernel_page_can_export    (WsKernelPage *self,
                                                GError      **error);
gboolean          ws_kernel_page_export        (WsKernelPage        *self,
                                                const char          *path,
                                                WsExportFormat       format,
                                                double               width,
                                                double               height,
                                                double               scale,
                                                const WsFigureStyle *style,
                                                GError             **error);
/* A WsExportDrawFunc's data for the listing as it is now (a copy), and how
 * to free it; NULL while there is none. */
gpointer          ws_kernel_page_listing_new   (WsKernelPage *self);
void              ws_kernel_page_listing_free  (gpointer      listing);
void              ws_kernel_page_listing_draw  (cairo_t             *cr,
                                                const WsFigureStyle *style,
                                                double               width,
                                                double               height,
                                                gpointer             listing);
double            ws_kernel_page_listing_height (gpointer            listing,
                                                 const WsFigureStyle *style,
                                                 double              width);

G_END_DECLS
