/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ws-recording.h"

G_BEGIN_DECLS

/* The GPU worker: a process of its own that owns the CUDA context, so that a
 * kernel fault — after which CUDA refuses the faulting process any further
 * work — ends that process and not the program. The backend thread
 * (ws-backend.h) starts it, talks to it in JSON lines and starts a new one
 * after a fault. The window and warpscope-cli reach the GPU through it alike.
 *
 * Requests, one JSON object a line:
 *   {"id": N, "op": "hello", …}        the handshake, first (ws-worker-hello.h)
 *   {"id": N, "op": "ping"}            answers {} at once
 *   {"id": N, "op": "probe"}
 *   {"id": N, "op": "measure", "kernel": ID, "params": {NAME: VALUE…}, "options": {…}}
 *   {"id": N, "op": "measure", "pattern": PATTERN, "options": {…}}
 *   {"id": N, "op": "measure", "kernel_text": {"text": …, "name": …, "kernel": …,
 *                                             "launch": [[NAME, VALUE]…]}, "options": {…}}
 *   {"id": N, "op": "count", "pattern": PATTERN, "cold": BOOL, "hold": BOOL}
 *                                      hardware counters of one launch
 *   {"id": N, "op": "calibrate"}       a device profile's numbers, measured (ws-device-calibrate.h)
 *   {"id": N, "op": "cancel"}          cancels request N between samples
 *   {"id": N, "op": "fault"}           makes a kernel fault, for tests
 *   {"id": N, "op": "spin", "ms": M, "deadline_ms": D}
 *                                      a launch of M ms watched against D, for tests
 * A measure of a kernel text takes options.deadline_ms (default 5000): a
 * launch that runs longer ends the worker, with a fatal error that says so.
 * Answers:
 *   {"id": N, "progress": [DONE, TOTAL]}
 *   {"id": N, "reply": DEVICE or MEASUREMENT}
 *   {"id": N, "error": {"domain": …, "code": …, "message": …}, "fatal": BOOL}
 * After a fatal error the worker exits: the GPU is unusable in it. */

#define WS_GPU_WORKER_NAME "warpscope-gpu-worker"

typedef struct
{
  WsRecording *replay;         /* answer from this recording instead of the GPU (ws-worker-replay.h) */
  const char *replay_name;
  guint replay_delay_ms;       /* per measurement */
} WsGpuWorkerOptions;

int ws_gpu_worker_run      (GInputStream             *in,
                            GOutputStream            *out);
int ws_gpu_worker_run_with (GInputStream             *in,
                            GOutputStream            *out,
                            const WsGpuWorkerOptions *options);

G_END_DECLS
