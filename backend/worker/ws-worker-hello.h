/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

#include "ws-gpu.h"

G_BEGIN_DECLS

/* The GPU worker's handshake, its first exchange with whoever started it:
 *   {"id": N, "op": "hello", "protocol": P, "version": V, "gpu": INDEX}
 *   {"id": N, "reply": {"program": "warpscope-gpu-worker", "version": V,
 *     "protocol": P, "host": H, "gpus": [{"index", "name", "cc_major",
 *     "cc_minor", "memory_bytes"}…], "gpu": INDEX, "no_gpu": ERROR or absent,
 *     "job": SLURM_JOB_ID or absent, "replay": FILE or absent}}
 * The worker chooses the GPU asked for before it touches any; an index it
 * does not have is an error answer. Protocol 1 had no handshake: such a
 * worker answers that it knows no request "hello". Both sides must speak
 * the same protocol; the message says which side to update. */

#define WS_WORKER_PROTOCOL 2

#define WS_TYPE_WORKER_HELLO (ws_worker_hello_get_type ())

typedef struct
{
  char *version;               /* the worker's Warpscope */
  int protocol;
  char *host;                  /* where it runs */
  GPtrArray *gpus;             /* WsGpuSummary: every GPU it sees */
  int gpu;                     /* the one it measures on */
  GError *no_gpu;              /* why it has no usable GPU, or NULL */
  char *job;                   /* the Slurm job it runs in, or NULL */
  char *replay;                /* the recording it plays back instead of measuring, or NULL */
} WsWorkerHello;

GType          ws_worker_hello_get_type      (void) G_GNUC_CONST;
WsWorkerHello *ws_worker_hello_copy          (const WsWorkerHello *hello);
void           ws_worker_hello_free          (WsWorkerHello       *hello);
/* The GPU it measures on, or NULL. */
const WsGpuSummary *ws_worker_hello_get_gpu  (const WsWorkerHello *hello);
/* "NVIDIA H100 (sm_90, 80 GiB), GPU 0 of 4", or why there is none. */
char          *ws_worker_hello_describe_gpu  (const WsWorkerHello *hello);

/* The worker's side: chooses the GPU (ws_gpu_select) and describes them;
 * with replay (a recording's device, and its file's name) it describes
 * that one instead. NULL with an error to answer. */
JsonNode      *ws_worker_hello_answer        (JsonObject          *request,
                                              const WsDeviceInfo  *replay_device,
                                              const char          *replay_name,
                                              GError             **error);

/* The client's side. */
JsonObject    *ws_worker_hello_request       (int                  gpu);
/* The worker's answer, read strictly: it may come from anywhere. place
 * names the other side in messages ("gpu01"). */
WsWorkerHello *ws_worker_hello_from_json     (JsonNode            *reply,
                                              const char          *place,
                                              GError             **error);
/* The error to give when the worker answered the handshake with error. */
GError        *ws_worker_hello_refused       (const GError        *error,
                                              const char          *place);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsWorkerHello, ws_worker_hello_free)

G_END_DECLS
