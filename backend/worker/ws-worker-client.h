/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "ws-gpu.h"
#include "ws-worker-target.h"
#include "ws-worker-hello.h"
#include "ws-worker-transport.h"

G_BEGIN_DECLS

/* The backend's end of the GPU worker (see ws-worker-server.h): starts the
 * process when first needed, where its target says (ws-worker-transport.h),
 * shakes hands with it (ws-worker-hello.h), and starts it again after it
 * ends. Used by one thread at a time, the backend thread.
 *
 * Nothing the worker does can hold the caller for good: every wait has a
 * deadline (the target's wait for the handshake; then WS_WORKER_TIMEOUT
 * seconds of silence, 120 by default: a request must see an answer or
 * progress that often), every line a length (WS_WORKER_MAX_LINE, both ways),
 * every answer is checked (UTF-8, JSON, types) before it is believed. A
 * worker that stays silent, sends a line too long, closes its answers but
 * stays, or does not stop when cancelled is killed; the call fails with an
 * error that says so (WS_GPU_ERROR_WORKER for a worker on this computer,
 * WS_WORKER_ERROR_CONNECTION_LOST for one elsewhere), and the next call
 * starts a new worker. */

#define WS_WORKER_MAX_LINE (64 * 1024 * 1024)
#define WS_WORKER_DEFAULT_TIMEOUT 120

typedef struct _WsWorkerClient WsWorkerClient;

/* A worker on this computer. */
WsWorkerClient *ws_worker_client_new    (void);
WsWorkerClient *ws_worker_client_new_for_target (const WsGpuTarget *target);
void            ws_worker_client_free   (WsWorkerClient   *client);
const WsGpuTarget *ws_worker_client_get_target (WsWorkerClient *client);
/* How starting goes (logging in, Slurm's queue); from any thread. */
void            ws_worker_client_set_state_func (WsWorkerClient   *client,
                                                 WsWorkerStateFunc state,
                                                 gpointer          state_data);
/* Starts the worker unless it runs, and returns its handshake (the
 * client's); waits as long as the target allows, or until cancelled. */
const WsWorkerHello *ws_worker_client_connect (WsWorkerClient *client,
                                               GCancellable   *cancellable,
                                               GError        **error);
/* Sends request (an object; its "id" is set here), passes progress on, and
 * returns the reply; an error the worker sent, the way it ended if it ended
 * without answering (WS_GPU_ERROR_KERNEL_FAULT here, a WS_WORKER_ERROR
 * elsewhere), or why it had to be killed (above). Cancelling sends a
 * cancellation and waits a few seconds for the worker to stop at its next
 * sample, then kills it. */
JsonNode       *ws_worker_client_call   (WsWorkerClient   *client,
                                         JsonObject       *request,
                                         GCancellable     *cancellable,
                                         WsSampleProgress  progress,
                                         gpointer          progress_data,
                                         GError          **error);
/* The longest silence allowed during a request (WS_WORKER_TIMEOUT, or the
 * default). */
void            ws_worker_client_set_timeout (WsWorkerClient *client,
                                              guint           seconds);
/* Where the worker program is here: $WS_GPU_WORKER, the build tree, or libexecdir. */
char           *ws_worker_client_find_program (GError    **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsWorkerClient, ws_worker_client_free)

G_END_DECLS
