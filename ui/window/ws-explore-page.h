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
#include "ws-session.h"
#include "ws-topic-figure.h"

G_BEGIN_DECLS

/* The Explore page: the inspector (what the preset teaches, the pattern's
 * editor, the model's numbers) beside the views of one warp instruction
 * with their player, and the measured plot under the views.
 *
 * It shows a preset or a pattern of one's own, as the editor changes it:
 * the warp instruction in view modelled at once, the whole launch on the
 * session's model thread. An edited preset becomes a pattern of one's
 * own; while the editor says the pattern is wrong nothing stale is shown.
 * It measures the pattern on the session's GPU once it stops changing
 * ("auto-measure") or when asked, and shows what was measured (live, else
 * the session's recording) beside the model: in the numbers, the
 * Hierarchy view and the topic's view of the launch. The plot's chart is
 * the window's to build.
 *
 * It lays itself out: the views get the larger share of the height, as
 * much as the view in sight needs to be legible, and the plot as much as
 * it needs where both fit, until the divider between them is moved by
 * hand.
 *
 * Properties: "session" (where the launch is modelled; what the Hierarchy
 * view and the plot follow), "presenting" (the views' text larger, as the
 * window's height allows: 1.25 at a projector's 720 rows, 1.5 at 1080).
 * Signals: "pattern-changed" (a preset or pattern shown, an edit, an
 * edited preset now one's own), "shown-changed" (another instruction,
 * block or warp in view; the pattern wrong, or right again),
 * "launch-changed" (the whole launch's model started over, or came in).
 * Property "measuring" (read-only): a measurement is on its way, or due. */

#define WS_TYPE_EXPLORE_PAGE (ws_explore_page_get_type ())
G_DECLARE_FINAL_TYPE (WsExplorePage, ws_explore_page, WS, EXPLORE_PAGE, GtkWidget)

GtkWidget        *ws_explore_page_new                (void);
WsSession        *ws_explore_page_get_session        (WsExplorePage       *self);
void              ws_explore_page_set_session        (WsExplorePage       *self,
                                                      WsSession           *session);

/* A preset, opened on the instruction that says most and on its topic's
 * view; or a pattern of one's own. */
void              ws_explore_page_show_preset        (WsExplorePage       *self,
                                                      const WsPreset      *preset);
void              ws_explore_page_show_pattern       (WsExplorePage       *self,
                                                      WsPattern           *pattern);
/* NULL for a pattern of one's own (an edited preset too). */
const WsPreset   *ws_explore_page_get_preset         (WsExplorePage       *self);
WsPattern        *ws_explore_page_get_pattern        (WsExplorePage       *self);
/* Whether the pattern differs from its preset's but for the value of the
 * parameter the preset's sweep varies. */
gboolean          ws_explore_page_get_edited         (WsExplorePage       *self);
/* What the editor says is wrong with the pattern, NULL when nothing is;
 * get_pattern_wrong: nothing of it is shown until it is right again. */
const char       *ws_explore_page_get_pattern_error  (WsExplorePage       *self);
gboolean          ws_explore_page_get_pattern_wrong  (WsExplorePage       *self);
/* The warp instruction in the views, and the whole launch's model (NULL
 * while it is modelled, or when it failed: the editor says why). */
const WsWarpResult *ws_explore_page_get_result       (WsExplorePage       *self);
const WsLaunchStats *ws_explore_page_get_launch      (WsExplorePage       *self);
/* "global load in[i] — warp 0 of block (0, 0, 0)" */
char             *ws_explore_page_describe_pattern   (WsExplorePage       *self);
/* The space of the instruction in view. */
WsSpace           ws_explore_page_shown_space        (WsExplorePage       *self);

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

/* The names of the views that apply now, comma separated. */
char             *ws_explore_page_list_views         (WsExplorePage       *self);
/* FALSE for a name that is no view, or a view that does not apply. */
gboolean          ws_explore_page_show_view          (WsExplorePage       *self,
                                                      const char          *name);

/* What is measured for it */
gboolean          ws_explore_page_get_auto_measure   (WsExplorePage       *self);
void              ws_explore_page_set_auto_measure   (WsExplorePage       *self,
                                                      gboolean             auto_measure);
gboolean          ws_explore_page_get_measuring      (WsExplorePage       *self);
/* Measures now, hardware counters included (the Measure button). */
void              ws_explore_page_measure_now        (WsExplorePage       *self);
/* Measures once the pattern stops changing, with a GPU and auto-measure,
 * and not while a sweep runs; cancels what was on its way. */
void              ws_explore_page_schedule_measurement (WsExplorePage     *self);
/* Cancels what is on its way or due (a sweep measures now). */
void              ws_explore_page_stop_measuring     (WsExplorePage       *self);
/* Shows what is measured now, or why nothing is. */
void              ws_explore_page_show_measured      (WsExplorePage       *self);
/* The measurement the page shows: live, else recorded for an unedited
 * preset; where it comes from (*source, to free), and its hue in the
 * charts. NULL when there is none. */
const WsMeasurement *ws_explore_page_shown_measurement (WsExplorePage     *self,
                                                      char               **source,
                                                      int                 *hue);
/* The parameter the preset's sweep varies, if the pattern has it; the
 * pattern less its value (what the points of one sweep share). */
const char       *ws_explore_page_sweep_param        (WsExplorePage       *self);
char             *ws_explore_page_pattern_key        (WsExplorePage       *self);
/* A registered kernel for an unedited preset; a generated one otherwise. */
WsMeasureRequest *ws_explore_page_make_request       (WsExplorePage       *self,
                                                      gboolean             counters);
/* The longest a callback from the session held the main loop since the
 * last call (the benchmark's). */
gint64            ws_explore_page_take_longest_callback (WsExplorePage    *self);

/* Places the divider between the views and the plot now, or once laid out
 * (the plot's least height depends on its width: the window's size, the
 * presets shown or hidden). */
void              ws_explore_page_place_divider      (WsExplorePage       *self);
void              ws_explore_page_queue_place_divider (WsExplorePage      *self);

gboolean          ws_explore_page_get_presenting     (WsExplorePage       *self);
void              ws_explore_page_set_presenting     (WsExplorePage       *self,
                                                      gboolean             presenting);

G_END_DECLS
