/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

#include "ws-gpu.h"
#include "ws-recording.h"
#include "ws-worker-codec.h"

G_BEGIN_DECLS

/* A GPU worker that plays a recording back (warpscope-gpu-worker --replay):
 * for demonstrations, and for testing what surrounds a GPU (transports,
 * lost connections, resumed sweeps) on machines that have none. Its
 * handshake names the recording, and what it answers is the recording's
 * measurements, samples and all, after delay_ms each. */

/* The measurement of the request's kernel at its parameters, or an error. */
WsMeasurement *ws_worker_replay_measure (WsRecording            *recording,
                                         const WsMeasureRequest *request,
                                         guint                   delay_ms,
                                         GCancellable           *cancellable,
                                         WsSampleProgress        progress,
                                         gpointer                progress_data,
                                         GError                **error);

G_END_DECLS
