/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ws-chart.h"
#include "ws-compare-view.h"
#include "ws-session.h"

G_BEGIN_DECLS

/* The window's Compare page: the session's comparison (two to four presets
 * or kernels of one's own) side by side. Each cell shows the instruction
 * that says most of its kernel, a kernel's cell its annotated listing; the
 * chart under them the model's time of each beside what the recordings and
 * the session's GPU measured. The choosers above set the session's
 * comparison, and a comparison set elsewhere (the command line, a script)
 * shows in them.
 *
 * Property "session": the comparison, the measurements, the device
 * profile the model follows.
 * Signal "toast" (const char *text): something to tell the user (a kernel
 * file that does not read, a measurement that failed), for the window to
 * show. */

#define WS_TYPE_COMPARE_PAGE (ws_compare_page_get_type ())
G_DECLARE_FINAL_TYPE (WsComparePage, ws_compare_page, WS, COMPARE_PAGE, GtkWidget)

WsSession     *ws_compare_page_get_session (WsComparePage      *self);
void           ws_compare_page_set_session (WsComparePage      *self,
                                            WsSession          *session);
/* The cells, their choosers, the player and the chart. */
WsCompareView *ws_compare_page_get_view    (WsComparePage      *self);

/* Compares these (WS_COMPARE_MIN to WS_COMPARE_MAX preset ids or kernel
 * specs); FALSE, changing nothing, for a count out of range or an id that
 * is neither. */
gboolean       ws_compare_page_compare     (WsComparePage      *self,
                                            const char * const *ids);
/* Adds a kernel's spec beside what is compared, in the last one's place
 * when there are WS_COMPARE_MAX already. */
gboolean       ws_compare_page_add_kernel  (WsComparePage      *self,
                                            const char         *spec);

/* The chart of the comparison as it stands (the model's times once they
 * have come), for an export; NULL with too few items. */
WsChart       *ws_compare_page_build_chart (WsComparePage      *self);

/* Whether the model's times have come, the chart is drawn and the
 * session measures nothing for the comparison. */
gboolean       ws_compare_page_is_settled  (WsComparePage      *self);

/* The longest the page has held the main loop in a callback since the
 * last call, in µs (the window's benchmark). */
gint64         ws_compare_page_take_longest_callback (WsComparePage *self);

G_END_DECLS
