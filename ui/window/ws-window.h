/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "ws-banner.h"
#include "ws-compare-page.h"
#include "ws-gpu-button.h"
#include "ws-explore-page.h"
#include "ws-export.h"
#include "ws-kernel-page.h"
#include "ws-preset-sidebar.h"
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
/* The Kernel page (ws-kernel-page.h). */
WsKernelPage *ws_window_get_kernel_page (WsWindow       *self);
/* The page in view: "explore", "compare" or "kernel" (the "page" property). */
const char *ws_window_get_page          (WsWindow       *self);
void        ws_window_set_page          (WsWindow       *self,
                                         const char     *name);
/* The presets beside the pages, and whether they are shown (F9). */
WsPresetSidebar *ws_window_get_sidebar  (WsWindow       *self);
gboolean    ws_window_get_presets_shown (WsWindow       *self);
void        ws_window_set_presets_shown (WsWindow       *self,
                                         gboolean        shown);
/* The header bar (hidden while presenting) and its subtitle: what is shown,
 * and where it is measured. */
GtkWidget  *ws_window_get_header_bar    (WsWindow       *self);
const char *ws_window_get_subtitle      (WsWindow       *self);
/* The main menu ("primary"), and its sections of recordings: "recent",
 * "bundled-open", "bundled-add". NULL for another name. */
GMenuModel *ws_window_get_menu          (WsWindow       *self,
                                         const char     *name);
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
/* Text from outside (a file's, a worker's, an error that quotes either) as
 * the window shows it: a line (a toast, the banner, the status) and a
 * tooltip are at most this many characters; a name in them, 80
 * (ws_text_for_message). A line of ten thousand characters would make the
 * window as wide, and a surface that wide is more than X allows. */
#define WS_WINDOW_LINE_CHARS 300
#define WS_WINDOW_TIP_CHARS 2000

/* The player of the page in view: the explorer's or the comparison's. */
WsSchedulePlayer *ws_window_active_player (WsWindow     *self);
gboolean ws_window_comparing            (WsWindow       *self);
void     ws_window_toast                (WsWindow       *self,
                                         const char     *text);

/* Sweeps: the session's, of the parameter the preset's lesson varies */
void     ws_window_start_sweep          (WsWindow       *self);
void     ws_window_cancel_sweep         (WsWindow       *self);
gboolean ws_window_is_sweeping          (WsWindow       *self);
/* A sweep a lost connection stopped goes on (the banner's button). */
void     ws_window_resume_sweep         (WsWindow       *self);

/* Recordings */
typedef enum
{
  WS_OPEN_REPLACE,                 /* the main recording */
  WS_OPEN_ADD,                     /* another, plotted beside it */
} WsOpenMode;

/* Loads on a thread of its own; a bad file gets a toast and changes nothing. */
void     ws_window_open_recording       (WsWindow       *self,
                                         const char     *path,
                                         WsOpenMode      mode);
void     ws_window_forget_recordings    (WsWindow       *self);
/* GtkRecentInfo of the recordings opened or saved that are still there,
 * newest first. */
GPtrArray *ws_window_recent_recordings  (void);
gboolean ws_window_is_opening           (WsWindow       *self);
gboolean ws_window_save_recording       (WsWindow       *self,
                                         const char     *path,
                                         GError        **error);

/* The GPU in use, calibrated for the model below L1 */
/* again: measures anew what was kept. FALSE when the GPU cannot be calibrated. */
gboolean ws_window_calibrate            (WsWindow       *self,
                                         gboolean        again);
gboolean ws_window_can_calibrate        (WsWindow       *self);

/* Exports */
typedef enum
{
  WS_WINDOW_EXPORT_FIGURE,         /* the view in sight, or the whole comparison */
  WS_WINDOW_EXPORT_PLOT,           /* the chart of the page in sight */
} WsWindowExport;

/* PNG (at scale), SVG or PDF by the name's ending, in the export style;
 * CSV or JSON write the data of the page's chart. */
gboolean ws_window_export               (WsWindow       *self,
                                         WsWindowExport  what,
                                         const char     *path,
                                         double          scale,
                                         GError        **error);
/* The figure in view, at scale 2. */
gboolean ws_window_export_figure        (WsWindow       *self,
                                         const char     *path,
                                         GError        **error);
const WsFigureStyle *ws_window_export_style (WsWindow   *self);

/* Renders the window as it is on screen to a PNG. */
gboolean    ws_window_save_screenshot   (WsWindow       *self,
                                         const char     *path,
                                         GError        **error);

G_END_DECLS
