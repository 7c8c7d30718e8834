/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "ws-banner.h"
#include "ws-compare-page.h"
#include "ws-gpu-button.h"
#include "ws-explore-page.h"
#include "ws-session.h"

G_BEGIN_DECLS

/* The explorer: presets and the pattern editor, the animated views of one
 * warp instruction, the model's numbers and the measured plots. */

#define WS_TYPE_WINDOW (ws_window_get_type ())
G_DECLARE_FINAL_TYPE (WsWindow, ws_window, WS, WINDOW, AdwApplicationWindow)

/* The window shows a session (NULL: one of its own, on the bundled
 * recording): its GPU, recordings, measurements and comparison. */
WsWindow   *ws_window_new               (GtkApplication *application,
                                         WsSession      *session);
WsSession  *ws_window_get_session       (WsWindow       *self);
/* The Explore page: the inspector, the views and the measured plot
 * (ws-explore-page.h). */
WsExplorePage *ws_window_get_explore_page (WsWindow     *self);
/* The banner over the pages: no GPU, where measurements run (ws-banner.h). */
WsBanner   *ws_window_get_banner        (WsWindow       *self);
/* The header bar's button of where measurements run (ws-gpu-button.h). */
WsGpuButton *ws_window_get_gpu_button   (WsWindow       *self);
/* The Compare page (ws-compare-page.h). */
WsComparePage *ws_window_get_compare_page (WsWindow      *self);
gboolean    ws_window_load_preset       (WsWindow       *self,
                                         const char     *id);
const char *ws_window_get_preset_id     (WsWindow       *self);
/* Two to four presets side by side, on the compare page; FALSE if the
 * count is wrong or an id unknown. */
/* Shows a view of the pattern by name ("banks", "hierarchy"); FALSE when
 * the pattern has no such view. */
/* Presentation mode: full screen, the presets hidden, larger text; Page
 * Down and Page Up step the player, space plays and pauses (a clicker),
 * Escape leaves. */
gboolean    ws_window_get_presenting    (WsWindow       *self);
void        ws_window_set_presenting    (WsWindow       *self,
                                         gboolean        presenting);
/* What a key does while presenting: TRUE when it did something. */
gboolean    ws_window_presenting_key    (WsWindow       *self,
                                         guint           keyval);
/* The views the pattern shows, as --view names them: "banks, hierarchy". */
char       *ws_window_list_views        (WsWindow       *self);
gboolean    ws_window_show_view         (WsWindow       *self,
                                         const char     *name);
/* The Kernel page's kernel (saved), at its cursor's line if that line has
 * a memory instruction, beside the compare page's members (in the last
 * one's place when there are four); FALSE, said in a toast, if it cannot. */
gboolean    ws_window_compare_kernel    (WsWindow       *self);
/* Shows the compare page with two to four members: preset ids, or kernels
 * of one's own as "FILE.cu[:KERNEL][@LINE]"; FALSE for a wrong count or
 * what is neither. */
gboolean    ws_window_compare_presets   (WsWindow       *self,
                                         const char * const *ids);
/* The MIME type of recordings (data/io.github.warpscope.Warpscope.mime.xml). */
#define WS_RECORDING_MIME_TYPE "application/x-warpscope-recording"
/* Recordings: the first in place of the main one, the others beside it;
 * FALSE when none is a local file. */
gboolean    ws_window_open_files        (WsWindow       *self,
                                         GFile         **files,
                                         guint           n_files);
/* A kernel of one's own on the Kernel page: file (NULL: a file chooser
 * asks), after asking about the unsaved changes of the one there. */
void        ws_window_open_kernel       (WsWindow       *self,
                                         GFile          *file);
/* An unsaved kernel that a program that ended left, offered back. */
void        ws_window_recover_kernel    (WsWindow       *self);
/* A pattern of one's own, from the default element size. */
void        ws_window_new_pattern       (WsWindow       *self);
/* Whether what the window waits for has come: the GPU's answer, the
 * recording, the model of the launch and its prediction, a measurement. */
gboolean    ws_window_is_settled        (WsWindow       *self);
/* What the window last said in a toast (as shown: printable, cut short),
 * or NULL. */
const char *ws_window_get_last_toast    (WsWindow       *self);
/* Toasts stay until dismissed, so that a screenshot taken later shows
 * them (--screenshot). */
void        ws_window_keep_toasts       (WsWindow       *self);
/* Whether a toast shown lately may still be sliding in. */
gboolean    ws_window_toast_settling    (WsWindow       *self);
/* Renders the window as it is on screen to a PNG. */
gboolean    ws_window_save_screenshot   (WsWindow       *self,
                                         const char     *path,
                                         GError        **error);

G_END_DECLS
