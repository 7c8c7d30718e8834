/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-worker-client.h"

G_BEGIN_DECLS

/* What the client makes of one line from the worker (for the tests and the
 * fuzzer): an answer to request id, or anything else, which it ignores. */
typedef enum
{
  WS_WORKER_ANSWER_OTHER,       /* not text, not JSON, not an object, another id, or malformed */
  WS_WORKER_ANSWER_PROGRESS,
  WS_WORKER_ANSWER_REPLY,
  WS_WORKER_ANSWER_ERROR,
  WS_WORKER_ANSWER_FATAL,       /* an error after which the worker ends */
} WsWorkerAnswer;

WsWorkerAnswer ws_worker_answer_parse (const char  *line,
                                       gsize        length,
                                       gint64       id,
                                       guint       *done,
                                       guint       *total,
                                       JsonNode   **reply,
                                       GError     **error);

G_END_DECLS
