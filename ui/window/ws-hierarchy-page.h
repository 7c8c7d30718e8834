/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ws-hierarchy-view.h"
#include "ws-plot-model.h"
#include "ws-presets.h"
#include "ws-session.h"

G_BEGIN_DECLS

/* The explorer's Hierarchy view: the whole launch of the pattern in view
 * below L1 (L1, L2, DRAM and the predicted time) on the device the session
 * chose, followed on the session's model thread, beside what a measurement
 * counted. It follows the session's device profile by itself.
 *
 * Property "session". Signal "changed": the figure was built again (the
 * model came, failed, or started over); the window's numbers follow. */

#define WS_TYPE_HIERARCHY_PAGE (ws_hierarchy_page_get_type ())
G_DECLARE_FINAL_TYPE (WsHierarchyPage, ws_hierarchy_page, WS, HIERARCHY_PAGE, GtkWidget)

GtkWidget         *ws_hierarchy_page_new             (void);
WsSession         *ws_hierarchy_page_get_session     (WsHierarchyPage     *self);
void               ws_hierarchy_page_set_session     (WsHierarchyPage     *self,
                                                      WsSession           *session);

/* What it is of: the preset whose kernel runs the pattern (NULL for a
 * pattern of one's own), the pattern, and whether it was edited; `ready`
 * once the launch's L1 figures are in (they come first: they are what the
 * other views show), when the model of the launch below L1 starts. A
 * pattern that is not ready shows that the launch is being followed. */
void               ws_hierarchy_page_follow          (WsHierarchyPage     *self,
                                                      const WsPreset      *preset,
                                                      WsPattern           *pattern,
                                                      gboolean             edited,
                                                      gboolean             ready);
/* The measurement whose counters are shown beside the model's (NULL for
 * none), what it is ("recorded on NVIDIA H200") and its colour. */
void               ws_hierarchy_page_set_measurement (WsHierarchyPage     *self,
                                                      const WsMeasurement *measured,
                                                      const char          *source,
                                                      int                  hue);
/* Nothing shown: the editor marks the pattern wrong. */
void               ws_hierarchy_page_clear           (WsHierarchyPage     *self);

/* The model of the launch (NULL while it runs, without a device, or when
 * it failed: then the error says why). */
const WsPlotModel *ws_hierarchy_page_get_model       (WsHierarchyPage     *self);
const char        *ws_hierarchy_page_get_error       (WsHierarchyPage     *self);
gboolean           ws_hierarchy_page_is_running      (WsHierarchyPage     *self);
WsHierarchyView   *ws_hierarchy_page_get_view        (WsHierarchyPage     *self);

G_END_DECLS
