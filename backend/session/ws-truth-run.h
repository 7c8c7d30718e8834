/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-kernel-predict.h"
#include "ws-kernel-spec.h"
#include "ws-session.h"
#include "ws-truth.h"

G_BEGIN_DECLS

/* The truth on the session's GPU, case after case: each case's hardware
 * counters (one collection after another, the profiler held between them)
 * beside the model's figures for the same launch; with a device profile,
 * below L1 too (a preset's real kernel measured cold, with counters,
 * against the prediction of its launch); then each kernel of one's own,
 * measured with its counters per source line, line by line against the
 * model's run of it. The rows come back in the order of the cases. */

typedef void (*WsTruthProgress) (guint       done,
                                 guint       total,
                                 const char *name,
                                 gpointer    user_data);

/* cases: WsTruthCase (the array is kept until the run ends); kernels:
 * WsKernelSpec (may be NULL); profile may be NULL. raw: also every counter
 * of every case, as JSON (ws_truth_to_json's counters). */
void         ws_truth_run_async   (WsSession             *session,
                                   GPtrArray             *cases,
                                   GPtrArray             *kernels,
                                   const WsDeviceProfile *profile,
                                   gboolean               raw,
                                   WsTruthProgress        progress,
                                   gpointer               progress_data,
                                   GCancellable          *cancellable,
                                   GAsyncReadyCallback    callback,
                                   gpointer               user_data);
/* The rows (WsTruthRow); *raw (may be NULL) the counters, or NULL. An
 * error names the case it stopped at. */
GPtrArray   *ws_truth_run_finish  (WsSession             *session,
                                   GAsyncResult          *result,
                                   JsonNode             **raw,
                                   GError               **error);

/* The rows of a kernel of one's own: for each source line with memory
 * instructions, its global sectors and instructions (within
 * WS_TRUTH_TOLERANCE) and its shared wavefronts (WS_TRUTH_SHARED_TOLERANCE)
 * against the counters of that line in m; then L2 sectors read, DRAM bytes
 * and the time below L1 where prediction has them. name is the case's:
 * "kernel/transpose.cu/transposeNaive". */
void         ws_truth_compare_kernel (const char               *name,
                                      const WsKernelInstance   *instance,
                                      const WsKernelPrediction *prediction,
                                      const WsMeasurement      *m,
                                      GPtrArray                *rows);

G_END_DECLS
