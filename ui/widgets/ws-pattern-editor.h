/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ws-pattern.h"

G_BEGIN_DECLS

/* Edits a pattern: memory space, access, element size and index of each
 * instruction, the named parameters, the launch geometry, and which block
 * and warp to look at. Input is checked as it is typed; an error is shown
 * with its column, and the last valid pattern stays.
 *
 * "pattern-changed": a new valid pattern (ws_pattern_editor_get_pattern)
 * "selection-changed": another instruction, block or warp to look at */

#define WS_TYPE_PATTERN_EDITOR (ws_pattern_editor_get_type ())
G_DECLARE_FINAL_TYPE (WsPatternEditor, ws_pattern_editor, WS, PATTERN_EDITOR, GtkWidget)

GtkWidget  *ws_pattern_editor_new            (void);
/* Shows a copy of pattern, its first instruction, block 0 and warp 0. */
/* The pattern, showing one of its instructions (0 for the first). */
void        ws_pattern_editor_set_pattern_at (WsPatternEditor *self,
                                              const WsPattern *pattern,
                                              guint            access);
void        ws_pattern_editor_set_pattern    (WsPatternEditor *self,
                                              const WsPattern *pattern);
WsPattern  *ws_pattern_editor_get_pattern    (WsPatternEditor *self);
guint       ws_pattern_editor_get_access     (WsPatternEditor *self);
void        ws_pattern_editor_set_access     (WsPatternEditor *self,
                                              guint            access);
WsDim3      ws_pattern_editor_get_block_idx  (WsPatternEditor *self);
guint       ws_pattern_editor_get_warp       (WsPatternEditor *self);
void        ws_pattern_editor_set_warp       (WsPatternEditor *self,
                                              guint            warp);
/* What is wrong with the input, or NULL. */
const char *ws_pattern_editor_get_error      (WsPatternEditor *self);
/* The index expression's entry, for tests and keyboard focus. */
GtkEditable *ws_pattern_editor_get_index_entry (WsPatternEditor *self);
/* Shows an error found later (by the model) without discarding the input. */
void        ws_pattern_editor_show_error     (WsPatternEditor *self,
                                              const char      *message);
/* Sets a parameter as if its slider moved; FALSE if there is none. */
gboolean    ws_pattern_editor_set_param      (WsPatternEditor *self,
                                              const char      *name,
                                              gint64           value);

G_END_DECLS
