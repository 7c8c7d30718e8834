/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-kernel-editor.h"
#include "ws-kernel-gutter.h"
#include "ws-kernel-lines.h"

G_BEGIN_DECLS

/* WsKernelEditor spans files that share this header:
 *   ws-kernel-editor.c              the template, the text, search, schemes
 *   ws-kernel-editor-diagnostics.c  the check on a thread, underlines,
 *                                   tooltips and the list of problems
 *   ws-kernel-editor-files.c        loading, saving, recent files
 *   ws-kernel-editor-dialogs.c      the file choosers, unsaved changes on
 *                                   close, an unsaved text offered back
 *   ws-kernel-editor-autosave.c     unsaved text kept in the cache
 *   ws-kernel-editor-figures.c      the figures of each line in the gutter
 *                                   (ws-kernel-gutter.c draws them) */

struct _WsKernelEditor
{
  GtkWidget parent_instance;

  /* the template */
  GtkWidget *box;
  GtkSearchBar *search_bar;
  GtkSearchEntry *search_entry;
  GtkLabel *search_label;
  GtkScrolledWindow *scroller;
  GtkSourceView *view;
  GtkRevealer *problems_revealer;
  GtkLabel *problems_label;
  GtkListBox *problems_list;

  GtkSourceBuffer *buffer;
  GtkSourceSearchSettings *search_settings;
  GtkSourceSearchContext *search;
  guint search_label_source;      /* the match's place asked again, once scanned */
  GFile *file;
  char *title;
  char *untitled_name;             /* the title of a text with no file, if not "Untitled kernel" */
  guint cursor_line;
  gboolean pressed_in_text;       /* a primary click began in the text */
  guint scroll_tick;              /* the cursor scrolled to again once the view's size settles */
  guint scroll_frames;            /* frames since the cursor was placed */
  int scroll_height;              /* the view's height on the frame before */
  double scroll_yalign;           /* where the cursor goes in the view: 0.3, or where it was */
  gboolean cursor_seen;           /* the cursor was in sight as the notes began to show or hide */
  guint64 changes;                /* of the text, ever: whether it changed while it was saved */

  /* the check of the text (ws-kernel-editor-diagnostics.c) */
  guint check_idle;
  guint64 check_generation;       /* of the newest check asked for */
  GCancellable *check_cancellable;
  GPtrArray *diagnostics;         /* WsKernelDiagnostic */
  GPtrArray *marks;               /* two GtkTextMarks per diagnostic: start, end */
  gboolean reads;
  GStrv kernels;                  /* of the text as last checked where it read */
  char *named_kernel;             /* the one its launch comment names, or its only one */
  GtkTextTag *error_tag;
  GtkTextTag *warning_tag;

  /* the figures (ws-kernel-editor-figures.c) */
  WsKernelInstance *figures_instance;
  WsKernelLines *lines;
  WsMeasurement *measurement;
  GPtrArray *figure_marks;        /* a GtkTextMark at the start of each line of lines, in its order */
  GPtrArray *model_texts;         /* each line's figures, as the columns show them */
  GPtrArray *measured_texts;
  GHashTable *figure_map;         /* a line as it is now (from 1) → its index in lines, plus one */
  guint64 figure_map_changes;     /* the text's changes when the map was made */
  gboolean figures_stale;         /* the text changed since the figures were set */
  GtkSourceGutterRenderer *model_gutter;
  GtkSourceGutterRenderer *measured_gutter;

  /* the autosave (ws-kernel-editor-autosave.c) */
  gboolean autosave;
  guint autosave_source;
  gint64 autosave_due_since;      /* when the first change not kept yet was made */
  gboolean autosave_writing;      /* a write is in flight */
  gboolean autosave_again;        /* and the text changed since it began */
  char *autosave_path;            /* the text kept while unsaved */
  int autosave_lock;              /* an fd holding a lock on its info file, or -1 */
};

typedef enum
{
  PROP_0,
  PROP_READS,
  PROP_DIAGNOSTICS,
  PROP_CHECKING,
  PROP_FILE,
  PROP_MODIFIED,
  PROP_CURSOR_LINE,
  PROP_TITLE,
  PROP_AUTOSAVE,
  N_PROPS
} WsKernelEditorProp;

typedef enum
{
  SIGNAL_CHANGED,
  SIGNAL_CHECKED,
  SIGNAL_LINE_ACTIVATED,
  N_SIGNALS
} WsKernelEditorSignal;

extern GParamSpec *ws_kernel_editor_props[N_PROPS];
extern guint ws_kernel_editor_signals[N_SIGNALS];

/* ws-kernel-editor-diagnostics.c */
void     ws_kernel_editor_diagnostics_init    (WsKernelEditor *self);
void     ws_kernel_editor_diagnostics_dispose (WsKernelEditor *self);
void     ws_kernel_editor_fill_problems       (WsKernelEditor *self);
/* The text changed: a check soon (changes of one main loop turn are one). */
void     ws_kernel_editor_queue_check         (WsKernelEditor *self);
/* The messages of the errors and warnings whose text holds iter, one a
 * line, or NULL: the tooltip there. */
char    *ws_kernel_editor_messages_at         (WsKernelEditor    *self,
                                               const GtkTextIter *iter);
gboolean ws_kernel_editor_query_tooltip       (WsKernelEditor *self,
                                               int             x,
                                               int             y,
                                               GtkTooltip     *tooltip);
void     ws_kernel_editor_problem_activated_cb (WsKernelEditor *self,
                                               GtkListBoxRow  *row);

/* ws-kernel-editor-figures.c */
typedef struct
{
  const WsKernelLine *line;       /* the figures */
  const char *text;               /* as the column shows them ("" where it has none) */
  gboolean stale;                 /* of an older text */
} WsKernelFigure;

void     ws_kernel_editor_figures_init        (WsKernelEditor *self);
void     ws_kernel_editor_figures_dispose     (WsKernelEditor *self);
/* Whether the cursor's line is whole in sight, and where (0 top, 1 bottom). */
gboolean ws_kernel_editor_cursor_in_sight     (WsKernelEditor *self,
                                               double         *yalign);
/* The columns of figures are about to change width, and the text to wrap
 * again: the cursor, if in sight, stays where it is on the screen. */
void     ws_kernel_editor_keep_cursor_in_place (WsKernelEditor *self);
/* The text changed: the figures follow their lines, faint until new ones. */
void     ws_kernel_editor_figures_changed     (WsKernelEditor *self);
/* Where each line's figures are now (before drawing them). */
void     ws_kernel_editor_figures_refresh     (WsKernelEditor *self);
/* The figures at line (from 1) for the model's column or the hardware's;
 * FALSE where there are none. */
gboolean ws_kernel_editor_figure_at           (WsKernelEditor *self,
                                               guint           line,
                                               gboolean        measured,
                                               WsKernelFigure *figure);
/* The figures of line in full, or NULL. */
char    *ws_kernel_editor_describe_line       (WsKernelEditor *self,
                                               guint           line);
void     ws_kernel_editor_activate_line       (WsKernelEditor *self,
                                               guint           line);

/* ws-kernel-editor-files.c */
void     ws_kernel_editor_update_title        (WsKernelEditor *self);
/* "“transpose.cu”", for messages */
char    *ws_kernel_editor_file_display_name   (GFile          *file);

/* ws-kernel-editor-autosave.c */
void     ws_kernel_editor_autosave_dispose    (WsKernelEditor *self);
/* The text changed: an autosave after a few seconds without typing. */
void     ws_kernel_editor_queue_autosave      (WsKernelEditor *self);
/* The text is saved or given up: its autosave goes. */
void     ws_kernel_editor_drop_autosave       (WsKernelEditor *self);
/* An unsaved text left at path, and the file it belongs to (or NULL). */
gboolean ws_kernel_editor_read_unsaved        (const char     *path,
                                               char          **text,
                                               GFile         **file,
                                               GError        **error);

G_END_DECLS
