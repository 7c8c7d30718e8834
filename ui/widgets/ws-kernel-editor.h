/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>
#include <gtksourceview/gtksource.h>

#include "ws-kernel-lines.h"

G_BEGIN_DECLS

/* A kernel's source, edited: CUDA highlighting, line numbers, the current
 * line, undo and search (Ctrl+F), in a light or dark scheme as the
 * program's style is. As the text changes it is checked on a thread (the
 * newest check cancels the one in flight; the main thread never waits):
 * errors are underlined at their line and column, their message is a
 * tooltip there and a row in the list under the text, whose click moves
 * the cursor there.
 *
 * Properties:
 *   "reads"        the text reads as a kernel file (no error), as of the
 *                  last check
 *   "diagnostics"  the last check's diagnostics (a GPtrArray of
 *                  WsKernelDiagnostic, in the order of the text)
 *   "checking"     a check is due or in flight
 *   "file"         the file the text comes from and is saved to, or NULL
 *   "modified"     the text differs from the file (or, with no file, is not
 *                  empty)
 *   "cursor-line"  the line of the cursor, from 1
 *   "title"        what the window calls the text: the file's name, or
 *                  "Untitled kernel"
 *   "autosave"     unsaved text is kept in the cache (off by default)
 *
 * Signals:
 *   "changed"        the text changed (typed, pasted, undone, set)
 *   "checked"        a check finished: "reads" and "diagnostics" are new
 *   "line-activated" (guint line, from 1): the user clicked a line of the
 *                    text, or its figures in the gutter */

#define WS_TYPE_KERNEL_EDITOR (ws_kernel_editor_get_type ())
G_DECLARE_FINAL_TYPE (WsKernelEditor, ws_kernel_editor, WS, KERNEL_EDITOR, GtkWidget)

GtkWidget       *ws_kernel_editor_new             (void);

/* The text; setting it starts a new undo history and leaves the buffer
 * unmodified. */
void             ws_kernel_editor_set_text        (WsKernelEditor *self,
                                                   const char     *text);
char            *ws_kernel_editor_get_text        (WsKernelEditor *self);
GtkSourceBuffer *ws_kernel_editor_get_buffer      (WsKernelEditor *self);
GtkSourceView   *ws_kernel_editor_get_view        (WsKernelEditor *self);

/* The file the text is saved to; does not read it (see
 * ws_kernel_editor_load_async). */
void             ws_kernel_editor_set_file        (WsKernelEditor *self,
                                                   GFile          *file);
GFile           *ws_kernel_editor_get_file        (WsKernelEditor *self);
/* The title and the name Save offers while the text has no file (a
 * preset's copy); NULL: "Untitled kernel". */
void             ws_kernel_editor_set_untitled_name (WsKernelEditor *self,
                                                     const char     *name);
gboolean         ws_kernel_editor_get_modified    (WsKernelEditor *self);
void             ws_kernel_editor_set_modified    (WsKernelEditor *self,
                                                   gboolean        modified);
/* "transpose.cu", or "Untitled kernel"; a "•" before it when modified is
 * the window's to add. */
const char      *ws_kernel_editor_get_title       (WsKernelEditor *self);

gboolean         ws_kernel_editor_get_reads       (WsKernelEditor *self);
/* WsKernelDiagnostic, transfer none; empty before the first check ends. */
GPtrArray       *ws_kernel_editor_get_diagnostics (WsKernelEditor *self);
/* The kernels of the text as last checked where it read (none before the
 * first), and the one its launch comment names (or its only one), else
 * NULL. */
const char * const *ws_kernel_editor_get_kernels      (WsKernelEditor *self);
const char      *ws_kernel_editor_get_named_kernel    (WsKernelEditor *self);
/* Whether a check is in flight (the properties above are not yet for the
 * text as it is). */
gboolean         ws_kernel_editor_get_checking    (WsKernelEditor *self);

guint            ws_kernel_editor_get_cursor_line (WsKernelEditor *self);
/* Moves the cursor to line and column (from 1) and scrolls it into view. */
void             ws_kernel_editor_place_cursor    (WsKernelEditor *self,
                                                   guint           line,
                                                   guint           column);

/* The search bar. */
void             ws_kernel_editor_find            (WsKernelEditor *self,
                                                   const char     *text);
/* Matches of the search, or -1 while they are being counted. */
int              ws_kernel_editor_get_n_matches   (WsKernelEditor *self);

/* The style scheme in use ("Adwaita", "Adwaita-dark"): it follows
 * AdwStyleManager's "dark". */
const char      *ws_kernel_editor_get_scheme_id   (WsKernelEditor *self);

/* ------------------------------------------------------------------ */
/* Each line's figures (ws-kernel-editor-figures.c)                   */
/* ------------------------------------------------------------------ */

/* The model's figures of each line with memory instructions, in a column
 * of the gutter (sectors per request, wavefronts per instruction, bank
 * conflicts; in full in its tooltip): from the prediction of the launch
 * of the text as it is (WsKernelModeller's "prediction-ready"; NULL, NULL:
 * none). The figures follow their lines as the text is edited, faint until
 * the next ones are set. */
void        ws_kernel_editor_set_prediction    (WsKernelEditor           *self,
                                                WsKernelInstance         *instance,
                                                const WsKernelPrediction *prediction);
/* The hardware's figures beside them, from a measurement's counters per
 * line (copied; NULL: none), with a mark on each line where model and
 * counters differ beyond the truth table's tolerance and why in the
 * tooltip. Kept for the predictions set after it, until set again: the
 * caller knows which text it measured. */
void        ws_kernel_editor_set_measurement   (WsKernelEditor           *self,
                                                const WsMeasurement      *measurement);
/* What the gutter shows, or NULL. */
const WsKernelLines *ws_kernel_editor_get_lines (WsKernelEditor          *self);

/* ------------------------------------------------------------------ */
/* Files (ws-kernel-editor-files.c)                                   */
/* ------------------------------------------------------------------ */

/* Reads file (UTF-8 text of at most WS_KERNEL_MAX_TEXT bytes, kept to the
 * byte) into the editor, which then saves to it; the file joins the
 * desktop's recent files. The errors name the file and what was wrong.
 * The text it replaces is gone: ask ws_kernel_editor_confirm_close_async
 * first where it has unsaved changes (Open… too). */
void        ws_kernel_editor_load_async        (WsKernelEditor       *self,
                                                GFile                *file,
                                                GCancellable         *cancellable,
                                                GAsyncReadyCallback   callback,
                                                gpointer              user_data);
gboolean    ws_kernel_editor_load_finish       (WsKernelEditor       *self,
                                                GAsyncResult         *result,
                                                GError              **error);
/* Writes the text to file (NULL: the editor's file, which must be set),
 * replacing it whole once the new one is written; the editor then saves to
 * it, and is unmodified unless the text changed meanwhile. */
void        ws_kernel_editor_save_async        (WsKernelEditor       *self,
                                                GFile                *file,
                                                GCancellable         *cancellable,
                                                GAsyncReadyCallback   callback,
                                                gpointer              user_data);
gboolean    ws_kernel_editor_save_finish       (WsKernelEditor       *self,
                                                GAsyncResult         *result,
                                                GError              **error);
/* The CUDA files the desktop has seen lately (opened or saved here or by
 * other programs), that still exist, newest first: GFile, at most max. */
GPtrArray  *ws_kernel_editor_recent_files      (guint                 max);

/* ------------------------------------------------------------------ */
/* Dialogs (ws-kernel-editor-dialogs.c)                               */
/* ------------------------------------------------------------------ */

/* Open…: a file chooser for CUDA sources, then ws_kernel_editor_load_async.
 * FALSE and G_IO_ERROR_CANCELLED when the user changes their mind. */
void        ws_kernel_editor_open_dialog_async (WsKernelEditor       *self,
                                                GtkWindow            *parent,
                                                GAsyncReadyCallback   callback,
                                                gpointer              user_data);
gboolean    ws_kernel_editor_open_dialog_finish (WsKernelEditor      *self,
                                                GAsyncResult         *result,
                                                GError              **error);
/* Save As…, or Save with no file yet: a file chooser, then
 * ws_kernel_editor_save_async. FALSE and G_IO_ERROR_CANCELLED as above. */
void        ws_kernel_editor_save_dialog_async (WsKernelEditor       *self,
                                                GtkWindow            *parent,
                                                GAsyncReadyCallback   callback,
                                                gpointer              user_data);
gboolean    ws_kernel_editor_save_dialog_finish (WsKernelEditor      *self,
                                                GAsyncResult         *result,
                                                GError              **error);
/* Before the window closes (or the editor is given another text): with
 * unsaved changes, asks whether to save them, discard them or go on
 * editing. TRUE when the caller may go ahead (nothing to save, saved,
 * or discarded); FALSE when the user chose to go on editing, or cancelled
 * the save (G_IO_ERROR_CANCELLED), or the save failed (its error). */
void        ws_kernel_editor_confirm_close_async (WsKernelEditor     *self,
                                                GtkWindow            *parent,
                                                GAsyncReadyCallback   callback,
                                                gpointer              user_data);
gboolean    ws_kernel_editor_confirm_close_finish (WsKernelEditor    *self,
                                                GAsyncResult         *result,
                                                GError              **error);

/* ------------------------------------------------------------------ */
/* Autosave and recovery (ws-kernel-editor-autosave.c)                */
/* ------------------------------------------------------------------ */

/* While on ("autosave", off by default), unsaved text is kept in the
 * user's cache (warpscope/unsaved/) a few seconds after the last change,
 * and removed once saved, discarded or set anew. What a program that ended
 * without saving left there is offered back by ws_kernel_editor_recover_async. */
void        ws_kernel_editor_set_autosave      (WsKernelEditor       *self,
                                                gboolean              autosave);
gboolean    ws_kernel_editor_get_autosave      (WsKernelEditor       *self);
/* Keeps the text now rather than after the delay (a window losing focus). */
void        ws_kernel_editor_autosave_now      (WsKernelEditor       *self);
/* Where the text is kept, or NULL while nothing is. */
const char *ws_kernel_editor_get_autosave_path (WsKernelEditor       *self);
/* The texts left by editors whose program ended without saving them (no
 * editor holds them), newest first: their paths. */
GPtrArray  *ws_kernel_editor_list_unsaved      (void);
/* At the start: if an unsaved text was left, asks whether to recover it
 * (into this editor, as unsaved changes to the file it came from) or
 * discard it; "later" keeps it for the next start. TRUE when a text was
 * recovered. */
void        ws_kernel_editor_recover_async     (WsKernelEditor       *self,
                                                GtkWindow            *parent,
                                                GAsyncReadyCallback   callback,
                                                gpointer              user_data);
gboolean    ws_kernel_editor_recover_finish    (WsKernelEditor       *self,
                                                GAsyncResult         *result,
                                                GError              **error);
/* The same without asking: the unsaved text at path into the editor; it
 * is then no longer left (the editor keeps it from now on). */
gboolean    ws_kernel_editor_recover_path      (WsKernelEditor       *self,
                                                const char           *path,
                                                GError              **error);
/* Removes an unsaved text left at path. */
void        ws_kernel_editor_discard_unsaved   (const char           *path);

G_END_DECLS
