/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ws-kernel-predict.h"
#include "ws-kernel-spec.h"

G_BEGIN_DECLS

/* A kernel text modelled again as it is typed, on threads, the newest text
 * winning: first the launch and one warp's instruction of each memory site
 * of the line the user is on (what the lane views show, within a few tens
 * of milliseconds of a keystroke), then the whole launch through the
 * caches and its time (seconds, in the background). A new text cancels
 * both; a result for an older one is dropped, never shown. The main thread
 * never waits. Results arrive on the thread-default main context of the
 * caller of the setters.
 *
 * Signals:
 *   "warp-ready"        the launch and the current line's warps are new
 *                       (ws_kernel_modeller_get_instance, _get_n_warps)
 *   "prediction-ready"  the whole launch is new (_get_prediction)
 *   "failed"            the text or its launch does not model
 *                       (_get_error); nothing else is current
 * Property "busy": a model is in flight. */

#define WS_TYPE_KERNEL_MODELLER (ws_kernel_modeller_get_type ())
G_DECLARE_FINAL_TYPE (WsKernelModeller, ws_kernel_modeller, WS, KERNEL_MODELLER, GObject)

WsKernelModeller *ws_kernel_modeller_new             (void);

/* The device the launch is predicted for (copied; NULL: L1 only, no time)
 * and the registers per thread its occupancy assumes (0: unknown). A change
 * models the text again. */
void        ws_kernel_modeller_set_profile   (WsKernelModeller      *self,
                                              const WsDeviceProfile *profile,
                                              guint                  registers);
/* The text and its launch's overrides (copied); models them. */
void        ws_kernel_modeller_set_spec      (WsKernelModeller      *self,
                                              const WsKernelSpec    *spec);
/* A new text, the overrides as they were: what each keystroke calls. */
void        ws_kernel_modeller_set_text      (WsKernelModeller      *self,
                                              const char            *text);
const WsKernelSpec *ws_kernel_modeller_get_spec (WsKernelModeller   *self);
/* The line (from 1) whose memory instructions one warp makes, and which
 * warp: block_idx, the warp in it, and which of its executions of the
 * instruction (from 0: loop iterations count). Block 0, warp 0, the first
 * execution unless set. Models only the warps again. */
void        ws_kernel_modeller_set_line      (WsKernelModeller      *self,
                                              guint                  line);
guint       ws_kernel_modeller_get_line      (WsKernelModeller      *self);
void        ws_kernel_modeller_set_warp      (WsKernelModeller      *self,
                                              WsDim3                 block_idx,
                                              guint                  warp,
                                              guint                  execution);

/* What is current (transfer none, valid until the next signal). */
gboolean                  ws_kernel_modeller_get_busy       (WsKernelModeller *self);
WsKernelInstance         *ws_kernel_modeller_get_instance   (WsKernelModeller *self);
/* The sites of the current line, in order, each with the chosen warp's
 * instruction, or NULL and why (the warp never ran it so often). */
guint                     ws_kernel_modeller_get_n_warps    (WsKernelModeller *self);
const WsWarpResult       *ws_kernel_modeller_get_warp       (WsKernelModeller *self,
                                                             guint             i,
                                                             guint            *site,
                                                             const char      **why_not);
const WsKernelPrediction *ws_kernel_modeller_get_prediction (WsKernelModeller *self);
/* How many predictions were made: a new one counts, one kept for a text
 * that models the same (a comment, a blank line) does not. (A freed
 * prediction's address may come back: compare these, not pointers.) */
guint64     ws_kernel_modeller_get_prediction_serial (WsKernelModeller *self);
const GError             *ws_kernel_modeller_get_error      (WsKernelModeller *self);

G_END_DECLS
