/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ws-chart-view.h"
#include "ws-figure-view.h"
#include "ws-listing-figure.h"
#include "ws-schedule-player.h"

G_BEGIN_DECLS

/* Two to four presets (or kernels of one's own) side by side: a chooser
 * (a kernel's name) and a view for each, a kernel's listing, their
 * animations stepping together on one player, and a chart under them.
 * What the views and the chart show is given to it (the window analyses
 * and measures); it says when the presets chosen change. */

#define WS_COMPARE_VIEW_MIN 2
#define WS_COMPARE_VIEW_MAX 4

#define WS_TYPE_COMPARE_VIEW (ws_compare_view_get_type ())
G_DECLARE_FINAL_TYPE (WsCompareView, ws_compare_view, WS, COMPARE_VIEW, GtkWidget)

GtkWidget        *ws_compare_view_new            (void);
/* Two to four members: preset ids, or kernels of one's own as
 * "FILE.cu[:KERNEL][@LINE]" (ws-comparison.h); emits "items-changed". */
void              ws_compare_view_set_ids        (WsCompareView       *self,
                                                  const char * const  *ids);
/* Adds a member after the others (Add Kernel File… adds the file chosen);
 * FALSE when there are four. */
gboolean          ws_compare_view_add_id         (WsCompareView       *self,
                                                  const char          *id);
/* The members chosen, in order; free with g_strfreev. */
char            **ws_compare_view_get_ids        (WsCompareView       *self);
guint             ws_compare_view_get_n_items    (WsCompareView       *self);
/* What view i shows (its kind follows the result); NULL shows nothing. */
void              ws_compare_view_set_cell       (WsCompareView       *self,
                                                  guint                i,
                                                  const WsWarpResult  *result,
                                                  const char          *title,
                                                  WsDim3               block_dim);
/* A kernel's annotated listing for slot i (its Listing button shows it in
 * place of the view); owner, freed with owner_free, keeps the figure. */
void              ws_compare_view_set_listing    (WsCompareView         *self,
                                                  guint                  i,
                                                  const WsListingFigure *figure,
                                                  gpointer               owner,
                                                  GDestroyNotify         owner_free);
void              ws_compare_view_show_listing   (WsCompareView       *self,
                                                  guint                i,
                                                  gboolean             show);
gboolean          ws_compare_view_get_listing_shown (WsCompareView    *self,
                                                     guint             i);
WsFigureView     *ws_compare_view_get_figure     (WsCompareView       *self,
                                                  guint                i);
WsChartView      *ws_compare_view_get_chart      (WsCompareView       *self);
WsSchedulePlayer *ws_compare_view_get_player     (WsCompareView       *self);
/* The menu of sets worth comparing, for the toolbar's Sets button. */
void              ws_compare_view_set_sets_menu  (WsCompareView       *self,
                                                  GMenuModel          *menu);

G_END_DECLS
