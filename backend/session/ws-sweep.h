/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ws-backend.h"

G_BEGIN_DECLS

/* A sweep: one kernel measured once per value of a parameter, point by
 * point, on the session's GPU; or, without one, points of a recording
 * shown one after another (a replay). It keeps its points in the order of
 * the parameter as they come, says how far it got, can be cancelled, and
 * after a lost connection resumes with the values it still lacks. The
 * window and `warpscope-cli sweep` both show one (ws_session_start_sweep);
 * when a live sweep ends, its points are among the session's live
 * measurements too.
 *
 * Properties: "running", "done" and "total" (points; total 0 while the
 * standard sweep's values are not known yet), "replayed".
 * Signals: "point" (a WsMeasurement, the sweep's) as each point comes,
 * "finished" once it stops: done, cancelled or failed (ws_sweep_get_error). */

#define WS_TYPE_SWEEP (ws_sweep_get_type ())
G_DECLARE_FINAL_TYPE (WsSweep, ws_sweep, WS, SWEEP, GObject)

/* A point measured before (a file the sweep is resumed from): kept among
 * the points, and its value not measured again. Before the sweep starts. */
void                    ws_sweep_add_known     (WsSweep        *self,
                                                const WsMeasurement *m);
void                    ws_sweep_start         (WsSweep        *self);
void                    ws_sweep_cancel        (WsSweep        *self);
/* After the GPU's machine went away (ws_sweep_get_can_resume): measures
 * the values no point has yet. FALSE when there is nothing to resume. */
gboolean                ws_sweep_resume        (WsSweep        *self);

gboolean                ws_sweep_get_running   (WsSweep        *self);
guint                   ws_sweep_get_done      (WsSweep        *self);
guint                   ws_sweep_get_total     (WsSweep        *self);
gboolean                ws_sweep_get_replayed  (WsSweep        *self);
/* WsMeasurement, by the swept parameter's value (transfer none). */
GPtrArray              *ws_sweep_get_points    (WsSweep        *self);
const char             *ws_sweep_get_param     (WsSweep        *self);
/* What its points are of: the pattern less the swept parameter
 * (ws_pattern_sweep_key), or the kernel's id. */
const char             *ws_sweep_get_key       (WsSweep        *self);
const WsMeasureRequest *ws_sweep_get_request   (WsSweep        *self);
/* Why it stopped (G_IO_ERROR_CANCELLED when cancelled), or NULL. */
const GError           *ws_sweep_get_error     (WsSweep        *self);
/* It stopped because the GPU's machine went: resuming can go on. */
gboolean                ws_sweep_get_can_resume (WsSweep       *self);

G_END_DECLS
