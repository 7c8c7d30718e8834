/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/* What the Explore page's files share (ws-explore-page*.c). */

#include "ws-explore-page.h"

G_BEGIN_DECLS

struct _WsExplorePage
{
  GtkWidget parent_instance;

  /* template */
  GtkPaned *main_paned;            /* the inspector beside the views */
  WsPresetIntro *preset_intro;
  WsPatternEditor *editor;
  WsNumbersView *numbers;
  GtkPaned *view_paned;            /* the views above the plot */
  GtkStack *view_stack;
  GtkLabel *step_label;
  WsPlayerControls *player_controls;
  WsPlotPanel *plot_panel;

  WsSchedulePlayer *player;
  WsFigureView *views[WS_N_FIGURES];
  WsLaunchView *launch_views[WS_N_TOPIC_VIEWS];   /* the whole launch, for the topics that have one */
  WsHierarchyPage *hierarchy_page;

  guint place_idle;                /* the divider placed again once laid out */
  int paned_set;                   /* the divider's position we set, -1 before */
  gboolean paned_by_hand;          /* moved by hand: it stays */
  gboolean paned_pressed;          /* a button is down on it */
  gboolean presenting;

  /* what it shows (ws-explore-page-pattern.c) */
  WsSession *session;
  const WsPreset *preset;          /* NULL for a pattern of one's own */
  WsPattern *pattern;
  gboolean edited;                 /* the pattern differs from the preset's */
  gboolean opening_preset;         /* a preset just shown: its first view is its topic's */
  gboolean pattern_wrong;          /* the editor says the pattern has an error: nothing stale is shown */
  guint wrong_idle;
  WsWarpResult *result;            /* the warp instruction in the views */
  GCancellable *model_cancellable; /* the model of the whole launch, on the session's model thread */
  WsLaunchStats *launch;

  /* what is measured for it (ws-explore-page-measure.c) */
  gboolean auto_measure;           /* once the pattern stops changing */
  guint measure_timeout;
  GCancellable *measure_cancellable;
  gint64 longest_callback_us;      /* for the benchmark */
};

enum
{
  WS_EXPLORE_PAGE_SIGNAL_PATTERN_CHANGED,
  WS_EXPLORE_PAGE_SIGNAL_SHOWN_CHANGED,
  WS_EXPLORE_PAGE_SIGNAL_LAUNCH_CHANGED,
  WS_EXPLORE_PAGE_N_SIGNALS
};

extern guint ws_explore_page_signals[WS_EXPLORE_PAGE_N_SIGNALS];

/* ws-explore-page.c */
/* Shows a warp instruction's result in the figures that apply to it (title:
 * what it is; block: the launch's block), and the view of the whole launch
 * of topic (NULL: none). The view in sight stays where it still applies;
 * else the topic's, else the first figure that applies. topic_first: the
 * topic's view in any case (a preset just opened). The player gets its
 * steps. */
void ws_explore_page_show_result      (WsExplorePage      *self,
                                       const WsWarpResult *result,
                                       const char         *title,
                                       WsDim3              block,
                                       const WsTopicView  *topic,
                                       gboolean            topic_first);

/* ws-explore-page-pattern.c */
void ws_explore_page_pattern_init     (WsExplorePage *self);
void ws_explore_page_pattern_dispose  (WsExplorePage *self);
void ws_explore_page_pattern_finalize (WsExplorePage *self);

/* ws-explore-page-measure.c */
/* Follows the session's GPU, recordings and measurements (old: the one
 * before, whose signals it leaves). */
void ws_explore_page_measure_follow   (WsExplorePage *self,
                                       WsSession     *old);
void ws_explore_page_measure_dispose  (WsExplorePage *self);

G_END_DECLS
