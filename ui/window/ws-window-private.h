/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/* What the parts of WsWindow share (ws-window*.c), and what the tests look at. */

#include "ws-window.h"

#include "ws-chart-view.h"
#include "ws-compare.h"
#include "ws-compare-page.h"
#include "ws-plot-panel.h"
#include "ws-player-controls.h"
#include "ws-compare-view.h"
#include "ws-compare-figure.h"
#include "ws-explore-page.h"
#include "ws-export.h"
#include "ws-figure-view.h"
#include "ws-gpu-button.h"
#include "ws-hierarchy-page.h"
#include "ws-kernel-page.h"
#include "ws-launch-view.h"
#include "ws-plot-model.h"
#include "ws-numbers-view.h"
#include "ws-pattern-editor.h"
#include "ws-plot.h"
#include "ws-preset-intro.h"
#include "ws-preset-sidebar.h"
#include "ws-presets.h"
#include "ws-recording.h"
#include "ws-schedule-player.h"

G_BEGIN_DECLS

struct _WsWindow
{
  AdwApplicationWindow parent_instance;

  /* template */
  AdwToastOverlay *toast_overlay;
  GtkStack *page_stack;
  WsComparePage *compare_page;  /* the session's comparison (ws-compare-page.c) */
  WsKernelPage *kernel_page;     /* a kernel of one's own (ws-window-kernel.c) */
  GMenu *recent_menu;
  GMenu *primary_menu;
  GMenu *bundled_open_menu;
  GMenu *bundled_add_menu;
  AdwWindowTitle *window_title;
  WsBanner *banner;             /* a banner of our own: AdwBanner is libadwaita 1.3 */
  GtkWidget *header_bar;
  WsGpuButton *gpu_button;       /* where measurements run, and the chooser */
  AdwFlap *flap;
  WsPresetSidebar *sidebar;
  WsExplorePage *explore_page;     /* the inspector, the views and the plot (ws-explore-page.c) */
  gboolean flap_before_presenting;
  gboolean flap_was_revealed;      /* the presets, hidden while comparing */

  GSettings *settings;

  char *last_toast;                /* what the window last said in a toast */
  gint64 last_toast_us;            /* when */
  gboolean keep_toasts;            /* until dismissed: a screenshot is on its way */
  AdwToast *toast;                 /* the last toast, while the overlay has it (weak) */

  /* what it shows: the GPU, recordings, live measurements, the comparison */
  WsSession *session;
  GCancellable *cancellable;       /* what the window started; cancelled when it goes */

  guint opening;                   /* recordings being read */

  /* for the benchmark: the longest time a backend callback held the main loop */
  gint64 longest_callback_us;
};

/* The Explore page's parts, as the window's files fill them */
static inline WsPatternEditor *
explore_editor (WsWindow *self)
{
  return ws_explore_page_get_editor (self->explore_page);
}

static inline WsNumbersView *
explore_numbers (WsWindow *self)
{
  return ws_explore_page_get_numbers (self->explore_page);
}

static inline WsPlotPanel *
explore_plot (WsWindow *self)
{
  return ws_explore_page_get_plot_panel (self->explore_page);
}

static inline WsHierarchyPage *
explore_hierarchy (WsWindow *self)
{
  return ws_explore_page_get_hierarchy_page (self->explore_page);
}

static inline GtkStack *
explore_views (WsWindow *self)
{
  return ws_explore_page_get_view_stack (self->explore_page);
}

static inline WsSchedulePlayer *
explore_player (WsWindow *self)
{
  return ws_explore_page_get_player (self->explore_page);
}

static inline WsPresetIntro *
explore_intro (WsWindow *self)
{
  return ws_explore_page_get_intro (self->explore_page);
}

/* What it shows: the preset (NULL for a pattern of one's own), the
 * pattern, whether it is the preset's edited, the launch's model */
static inline const WsPreset *
explore_preset (WsWindow *self)
{
  return ws_explore_page_get_preset (self->explore_page);
}

static inline WsPattern *
explore_pattern (WsWindow *self)
{
  return ws_explore_page_get_pattern (self->explore_page);
}

static inline gboolean
explore_edited (WsWindow *self)
{
  return ws_explore_page_get_edited (self->explore_page);
}

static inline const WsLaunchStats *
explore_launch (WsWindow *self)
{
  return ws_explore_page_get_launch (self->explore_page);
}


/* ws-window.c */
/* Shows the banner (ws_banner_show), its line and its tooltip bounded. */
void     ws_window_show_banner          (WsWindow       *self,
                                         const char     *icon_name,
                                         const char     *text,
                                         const char     *tooltip,
                                         const char     *button_label,
                                         const char     *help_topic);
/* A file's name as a message quotes it: its base name, printable, cut short. */
char    *ws_window_file_name            (const char     *path);
/* Whether the editor says the pattern has an error; say: tell the user
 * (a toast), for what cannot run until it is fixed. */
gboolean ws_window_pattern_is_wrong     (WsWindow       *self,
                                         gboolean        say);

/* ws-window-measure.c */
void     ws_window_measure_init         (WsWindow       *self);
/* Notes how long a callback from the backend held the main loop. */
void     ws_window_note_callback        (WsWindow       *self,
                                         gint64          start);

/* Without a GPU, the banner says why, and where the plots' numbers come from. */
void     ws_window_update_banner        (WsWindow       *self);
/* Measures now, or says why the pattern cannot be (a toast). */
void     ws_window_measure_now          (WsWindow       *self);

/* ws-window-hierarchy.c */
/* Follows the session's device profile and its calibrations. */
void     ws_window_hierarchy_follow     (WsWindow       *self);

/* ws-window-sweep.c */
void     ws_window_sweep_init           (WsWindow       *self);

/* ws-window-gpu.c: where measurements run */
void     ws_window_gpu_init             (WsWindow       *self);
void     ws_window_gpu_dispose          (WsWindow       *self);
void     ws_window_gpu_class_init       (GtkWidgetClass *widget_class);
/* The subtitle: what is shown, and where it is measured. */
void     ws_window_update_subtitle      (WsWindow       *self);
/* The banner about the GPU's machine, if there is one to show: TRUE. */
gboolean ws_window_gpu_banner           (WsWindow       *self);

/* ws-window-chart.c */
WsChart *ws_window_build_chart         (WsWindow       *self);
void     ws_window_rebuild_chart        (WsWindow       *self);

/* ws-window-recordings.c: opening, adding, saving, dropping, recent files */
/* Remembers a recording opened or saved among the desktop's recent files. */
void     ws_window_note_recent          (WsWindow       *self,
                                         const char     *path);
void     ws_window_recordings_init      (WsWindow       *self);

/* ws-window-compare.c */
void     ws_window_compare_class_init   (GtkWidgetClass *widget_class);
void     ws_window_compare_init         (WsWindow       *self);

/* ws-window-export.c */

/* What an export draws, taken from the window as it is (a copy): how to
 * draw it, the least size it is legible at, its title (which may be set),
 * the name of its file, and its size on screen. */
typedef struct
{
  WsExportDrawFunc draw;
  gpointer data;
  GDestroyNotify free_data;
  double (*min_width) (gpointer data, const WsFigureStyle *style);
  double (*min_height) (gpointer data, const WsFigureStyle *style, double width);
  void (*set_title) (gpointer data, const char *title);
  char *title;
  char *name;                      /* a file's name, less its format: "banks-padding-banks" */
  double width;                    /* as on screen */
  double height;
} WsWindowFigure;

WsWindowFigure *ws_window_figure_new    (WsWindow       *self,
                                         WsWindowExport  what,
                                         GError        **error);
void     ws_window_figure_free          (WsWindowFigure *figure);
void     ws_window_figure_set_title     (WsWindowFigure *figure,
                                         const char     *title);
/* The size it is drawn at for a size asked: no smaller than it is legible at. */
void     ws_window_figure_size          (WsWindowFigure *figure,
                                         const WsFigureStyle *style,
                                         double          width,
                                         double          height,
                                         double         *out_width,
                                         double         *out_height);
gboolean ws_window_figure_write         (WsWindowFigure *figure,
                                         const char     *path,
                                         WsExportFormat  format,
                                         const WsFigureStyle *style,
                                         double          width,
                                         double          height,
                                         double          scale,
                                         GError        **error);
/* What the file will hold, at most most_width pixels across. */
cairo_surface_t *ws_window_figure_preview (WsWindowFigure *figure,
                                         const WsFigureStyle *style,
                                         double          width,
                                         double          height,
                                         double          most_width);
/* A drawing as the figure writes it, or the page's data for CSV and JSON. */
gboolean ws_window_export_as            (WsWindow       *self,
                                         WsWindowExport  what,
                                         const char     *path,
                                         WsExportFormat  format,
                                         WsWindowFigure *figure,
                                         const WsFigureStyle *style,
                                         double          width,
                                         double          height,
                                         double          scale,
                                         GError        **error);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsWindowFigure, ws_window_figure_free)

/* ws-export-dialog.c: Ctrl+E, Ctrl+Shift+E */
GtkWidget *ws_export_dialog_new         (WsWindow       *window,
                                         WsWindowExport  what,
                                         GError        **error);

/* ws-window-kernel.c */
void     ws_window_kernel_class_init    (GtkWidgetClass *widget_class);
void     ws_window_kernel_init          (WsWindow       *self);
gboolean ws_window_kernel_shown         (WsWindow       *self);
void     ws_window_kernel_update_actions (WsWindow      *self);
/* New Kernel from Preset…: the presets by topic, those with a kernel text
 * to choose (ws-window-preset-kernels.c) */
void     ws_window_choose_preset_kernel (WsWindow       *self);
/* Stops the window closing while unsaved changes are asked about: TRUE. */
gboolean ws_window_kernel_close_request (WsWindow       *self);

/* ws-window-actions.c */
void     ws_window_class_init_actions   (GtkWidgetClass *widget_class);
void     ws_window_update_actions       (WsWindow       *self);

G_END_DECLS
