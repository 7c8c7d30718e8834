/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ws-figure-view.h"
#include "ws-hierarchy-page.h"
#include "ws-launch-view.h"
#include "ws-numbers-view.h"
#include "ws-pattern-editor.h"
#include "ws-player-controls.h"
#include "ws-plot-panel.h"
#include "ws-preset-intro.h"
#include "ws-schedule-player.h"
#include "ws-topic-figure.h"

G_BEGIN_DECLS

/* The Explore page: the inspector (what the preset teaches, the pattern's
 * editor, the model's numbers) beside the views of one warp instruction
 * with their player, and the measured plot under the views.
 *
 * It lays itself out: the views get the larger share of the height, as
 * much as the view in sight needs to be legible, and the plot as much as
 * it needs where both fit, until the divider between them is moved by
 * hand. The window fills it: which pattern, its result, what is measured.
 *
 * Property "presenting": the views' text larger, as the window's height
 * allows (1.25 at a projector's 720 rows, 1.5 at 1080). */

#define WS_TYPE_EXPLORE_PAGE (ws_explore_page_get_type ())
G_DECLARE_FINAL_TYPE (WsExplorePage, ws_explore_page, WS, EXPLORE_PAGE, GtkWidget)

GtkWidget        *ws_explore_page_new                (void);

WsPresetIntro    *ws_explore_page_get_intro          (WsExplorePage       *self);
WsPatternEditor  *ws_explore_page_get_editor         (WsExplorePage       *self);
WsNumbersView    *ws_explore_page_get_numbers        (WsExplorePage       *self);
WsPlotPanel      *ws_explore_page_get_plot_panel     (WsExplorePage       *self);
WsHierarchyPage  *ws_explore_page_get_hierarchy_page (WsExplorePage       *self);
/* The player of the views' steps, and its buttons. */
WsSchedulePlayer *ws_explore_page_get_player         (WsExplorePage       *self);
WsPlayerControls *ws_explore_page_get_player_controls (WsExplorePage      *self);
/* The views, one a tab: the topic's view of the whole launch, the figures
 * of the warp instruction, the hierarchy. */
GtkStack         *ws_explore_page_get_view_stack     (WsExplorePage       *self);
WsFigureView     *ws_explore_page_get_figure_view    (WsExplorePage       *self,
                                                      WsFigureKind         kind);
WsLaunchView     *ws_explore_page_get_launch_view    (WsExplorePage       *self,
                                                      WsTopicView          view);

/* Shows a warp instruction's result in the figures that apply to it (title:
 * what it is; block: the launch's block), and the view of the whole launch
 * of topic (NULL: none). The view in sight stays where it still applies;
 * else the topic's, else the first figure that applies. topic_first: the
 * topic's view in any case (a preset just opened). The player gets its
 * steps. */
void              ws_explore_page_show_result        (WsExplorePage       *self,
                                                      const WsWarpResult  *result,
                                                      const char          *title,
                                                      WsDim3               block,
                                                      const WsTopicView   *topic,
                                                      gboolean             topic_first);
/* The names of the views that apply now, comma separated. */
char             *ws_explore_page_list_views         (WsExplorePage       *self);
/* FALSE for a name that is no view, or a view that does not apply. */
gboolean          ws_explore_page_show_view          (WsExplorePage       *self,
                                                      const char          *name);

/* Places the divider between the views and the plot now, or once laid out
 * (the plot's least height depends on its width: the window's size, the
 * presets shown or hidden). */
void              ws_explore_page_place_divider      (WsExplorePage       *self);
void              ws_explore_page_queue_place_divider (WsExplorePage      *self);

gboolean          ws_explore_page_get_presenting     (WsExplorePage       *self);
void              ws_explore_page_set_presenting     (WsExplorePage       *self,
                                                      gboolean             presenting);

G_END_DECLS
