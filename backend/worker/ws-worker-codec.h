/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

#include "ws-gpu.h"
#include "ws-kernel-spec.h"
#include "ws-pattern.h"

G_BEGIN_DECLS

/* The GPU worker's requests, written by the backend thread and read by the
 * worker (and by the replay that stands in for a GPU), in one place; the
 * protocol is described in ws-worker-server.h. What is read comes from
 * another process, maybe another machine: every member is checked, and an
 * error names it. */

/* What to measure: a registered kernel at its parameters, a pattern's
 * generated kernel, or a kernel text at its launch. */
typedef struct
{
  char *kernel_id;            /* a registered kernel, or NULL */
  WsPattern *pattern;         /* for generated kernels (and the model's prediction) */
  WsKernelSpec *kernel_text;  /* a kernel of one's own, or NULL */
  GArray *params;             /* WsParamValue, for registered kernels */
  WsMeasureOptions options;
  char *sweep_param;          /* the parameter a sweep of it varies (the key of its points), or NULL;
                               * not sent: the backend's own */
} WsMeasureRequest;

WsMeasureRequest *ws_measure_request_new         (void);
WsMeasureRequest *ws_measure_request_copy        (const WsMeasureRequest *request);
void              ws_measure_request_free        (WsMeasureRequest       *request);
void              ws_measure_request_set_param   (WsMeasureRequest       *request,
                                                  const char             *name,
                                                  gint64                  value);

/* Writing: each a request object without its id, which the client adds. */
JsonObject       *ws_worker_codec_measure        (const WsMeasureRequest *request);
JsonObject       *ws_worker_codec_count          (const WsPattern        *pattern,
                                                  gboolean                cold,
                                                  gboolean                hold);
/* "probe", "calibrate", "fault", "ping": a request with nothing but its op. */
JsonObject       *ws_worker_codec_simple         (const char             *op);

/* Reading. The op, or NULL if it is not a string; the id, or 0 (which no
 * client uses) if it has none. */
const char       *ws_worker_codec_read_op        (JsonObject             *request);
gint64            ws_worker_codec_read_id        (JsonObject             *request);
WsMeasureRequest *ws_worker_codec_read_measure   (JsonObject             *request,
                                                  GError                **error);
WsPattern        *ws_worker_codec_read_count     (JsonObject             *request,
                                                  gboolean               *cold,
                                                  gboolean               *hold,
                                                  GError                **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsMeasureRequest, ws_measure_request_free)

G_END_DECLS
