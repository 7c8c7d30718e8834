/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-cli.h"
#include "ws-presets.h"
#include "ws-session.h"

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* What the subcommands that run real kernels share (ws-cli-measuring.c).
 * They measure through a session, as the window does: the backend thread
 * hands each job to the GPU worker process. */

typedef struct
{
  gboolean tty;
  const char *what;          /* the kernel being measured */
  guint point, points;       /* measurements done of all */
  guint sweep_start;         /* the point a sweep under way started at; G_MAXUINT: none */
  gint64 last_us;
} WsCliProgress;

typedef struct
{
  int samples;
  gboolean cold;
  gboolean hot;
  gboolean json;
  gboolean counters;
} WsCliMeasureOptions;

void                ws_cli_progress_init        (WsCliProgress          *p,
                                                 guint                   points);
void                ws_cli_progress_draw        (WsCliProgress          *p,
                                                 guint                   done,
                                                 guint                   total);
void                ws_cli_progress_clear       (WsCliProgress          *p);

/* A session whose progress (if not NULL) draws the bar. */
WsSession          *ws_cli_session_new          (WsCliProgress          *progress);
/* The GPU, once the session has looked; NULL with the reason there is none. */
const WsDeviceInfo *ws_cli_probe                (WsSession              *session,
                                                 GError                **error);
/* The session's asynchronous calls, waited for. */
WsMeasurement      *ws_cli_run_measure          (WsSession              *session,
                                                 const WsMeasureRequest *request,
                                                 GError                **error);
GPtrArray          *ws_cli_run_sweep            (WsSession              *session,
                                                 const WsMeasureRequest *request,
                                                 const char             *param,
                                                 GArray                 *values,
                                                 WsCliProgress          *progress,
                                                 GError                **error);
WsMeasurement      *ws_cli_run_count            (WsSession              *session,
                                                 const WsPattern        *pattern,
                                                 gboolean                hold,
                                                 GError                **error);
/* A registered kernel at params (WsParamValue), measured with options. */
WsMeasureRequest   *ws_cli_kernel_request       (const char             *id,
                                                 GArray                 *params,
                                                 const WsMeasureOptions *options);

char               *ws_cli_format_bytes         (gint64                  bytes);
void                ws_cli_print_device         (const WsDeviceInfo     *d);
void                ws_cli_print_measurement    (const WsMeasurement    *m,
                                                 const WsDeviceInfo     *d);
void                ws_cli_print_recording_json (WsRecording            *r);
void                ws_cli_print_json_node      (JsonNode               *node);

/* The recorded measurement of id whose parameters are params (all of a
 * kernel's, defaults included), or NULL. */
const WsMeasurement *ws_cli_recorded            (WsRecording            *r,
                                                 const char             *id,
                                                 GArray                 *params);
void                ws_cli_print_recorded_header (WsRecording           *r);
int                 ws_cli_no_gpu               (const char             *command,
                                                 GError                 *error);

gboolean            ws_cli_measure_options      (const char             *command,
                                                 const WsCliMeasureOptions *c,
                                                 WsMeasureOptions       *options);
/* Every parameter of the kernel: its default, or what --set says. */
GArray             *ws_cli_kernel_params        (const char             *command,
                                                 const WsKernelInfo     *info,
                                                 char                  **sets);
void                ws_cli_set_param            (GArray                 *params,
                                                 const char             *name,
                                                 gint64                  value);
const WsKernelInfo *ws_cli_lookup_kernel        (const char             *command,
                                                 const char             *id);
/* The exit status an error deserves. */
int                 ws_cli_failure_status       (const GError           *error);

G_END_DECLS
