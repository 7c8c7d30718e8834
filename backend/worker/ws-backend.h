/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "ws-gpu.h"
#include "ws-worker-codec.h"
#include "ws-worker-target.h"
#include "ws-pattern.h"
#include "ws-worker-hello.h"
#include "ws-worker-transport.h"

G_BEGIN_DECLS

/* WsBackend owns one thread, the backend thread, which runs one job at a
 * time and talks to the GPU worker process (ws-worker-server.h) that holds the
 * CUDA context. Results come back through GTask on the main context of the
 * caller; progress is merged into one idle callback there. The main thread
 * never calls CUDA. */

#define WS_TYPE_BACKEND (ws_backend_get_type ())
G_DECLARE_FINAL_TYPE (WsBackend, ws_backend, WS, BACKEND, GObject)


/* done / total, and the last finished measurement of a sweep (or NULL) */
typedef void (*WsBackendProgress) (WsBackend           *backend,
                                   guint                done,
                                   guint                total,
                                   const WsMeasurement *latest,
                                   gpointer             user_data);

/* A backend whose GPU worker runs on this computer. */
WsBackend        *ws_backend_new               (void);
/* A backend whose GPU worker runs where target says (ws-worker-target.h).
 * While the worker starts, "worker-state" (WsWorkerState, detail) is
 * emitted on the main context the backend was made on: Slurm's queue. */
WsBackend        *ws_backend_new_for_target    (const WsGpuTarget   *target);
const WsGpuTarget *ws_backend_get_target       (WsBackend           *self);

/* Starts the GPU worker unless it runs (logs in, waits for Slurm) and
 * returns its handshake: the host, its GPUs, the one chosen. Cancelling
 * stops the waiting (and withdraws a Slurm job). */
void              ws_backend_connect_async     (WsBackend           *self,
                                                GCancellable        *cancellable,
                                                GAsyncReadyCallback  callback,
                                                gpointer             user_data);
WsWorkerHello    *ws_backend_connect_finish    (WsBackend           *self,
                                                GAsyncResult        *result,
                                                GError             **error);

/* Starts (once) the backend thread's look at the GPU, through the worker. */
void              ws_backend_probe_async       (WsBackend           *self,
                                                GCancellable        *cancellable,
                                                GAsyncReadyCallback  callback,
                                                gpointer             user_data);
WsDeviceInfo     *ws_backend_probe_finish      (WsBackend           *self,
                                                GAsyncResult        *result,
                                                GError             **error);

void              ws_backend_measure_async     (WsBackend              *self,
                                                const WsMeasureRequest *request,
                                                GCancellable           *cancellable,
                                                WsBackendProgress       progress,
                                                gpointer                progress_data,
                                                GDestroyNotify          progress_destroy,
                                                GAsyncReadyCallback     callback,
                                                gpointer                user_data);
WsMeasurement    *ws_backend_measure_finish    (WsBackend              *self,
                                                GAsyncResult           *result,
                                                GError                **error);

/* Measures request once per value of param; progress reports each point. */
void              ws_backend_sweep_async       (WsBackend              *self,
                                                const WsMeasureRequest *request,
                                                const char             *param,
                                                GArray                 *values,
                                                GCancellable           *cancellable,
                                                WsBackendProgress       progress,
                                                gpointer                progress_data,
                                                GDestroyNotify          progress_destroy,
                                                GAsyncReadyCallback     callback,
                                                gpointer                user_data);
GPtrArray        *ws_backend_sweep_finish      (WsBackend              *self,
                                                GAsyncResult           *result,
                                                GError                **error);

/* The hardware counters of one launch of the pattern's generated kernel
 * (ws_gpu_count_pattern): L2 flushed before each pass when cold; hold keeps
 * the profiler enabled for the next collection of a run. */
void              ws_backend_count_async       (WsBackend              *self,
                                                const WsPattern        *pattern,
                                                gboolean                cold,
                                                gboolean                hold,
                                                GCancellable           *cancellable,
                                                GAsyncReadyCallback     callback,
                                                gpointer                user_data);
WsMeasurement    *ws_backend_count_finish      (WsBackend              *self,
                                                GAsyncResult           *result,
                                                GError                **error);

/* A calibration of the device (the worker's "calibrate", ws-device-calibrate.h):
 * its JSON, for ws_calibration_from_json (). progress counts its steps. */
void              ws_backend_calibrate_async   (WsBackend              *self,
                                                WsBackendProgress       progress,
                                                gpointer                progress_data,
                                                GDestroyNotify          progress_destroy,
                                                GCancellable           *cancellable,
                                                GAsyncReadyCallback     callback,
                                                gpointer                user_data);
JsonNode         *ws_backend_calibrate_finish  (WsBackend              *self,
                                                GAsyncResult           *result,
                                                GError                **error);


G_END_DECLS
