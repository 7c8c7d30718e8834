/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-cli.h"
#include "ws-presets.h"
#include "ws-session.h"

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* What the subcommands that run real kernels share: the session and the
 * progress bar (ws-cli-session.c), printing (ws-cli-print.c), and the
 * options, parameters, recorded numbers and exit statuses
 * (ws-cli-measuring.c). They measure through a session, as the window
 * does: the backend thread hands each job to the GPU worker process. */

typedef struct
{
  gboolean tty;
  const char *what;          /* the kernel being measured */
  guint point, points;       /* measurements done of all */
  guint sweep_start;         /* the point a sweep under way started at; G_MAXUINT: none */
  gint64 last_us;
} WsCliProgress;

/* Where the GPU is (ws-cli-gpu.c). */
typedef struct
{
  char *address;             /* --gpu */
  char *command;             /* --gpu-command */
  int index;                 /* --gpu-index, -1: not given */
  char *worker;              /* --gpu-worker */
} WsCliGpuOptions;

/* ws_cli_parse () with the options of WsCliGpuOptions added to entries. */
gboolean            ws_cli_parse_gpu            (const char             *command,
                                                 const char             *parameter_string,
                                                 const char             *summary,
                                                 const char             *description,
                                                 GOptionEntry           *entries,
                                                 WsCliGpuOptions        *gpu,
                                                 int                    *argc,
                                                 char                 ***argv);
/* The target the options name; NULL after saying what is wrong with them
 * (exit with WS_CLI_USAGE). */
WsGpuTarget        *ws_cli_gpu_target           (const char             *command,
                                                 WsCliGpuOptions        *gpu);
void                ws_cli_gpu_options_clear    (WsCliGpuOptions        *gpu);
/* The error says the GPU's machine was out of reach (or the wait for it
 * was given up), not that it has no GPU: no recorded numbers stand in. */
gboolean            ws_cli_gpu_unreachable      (const GError           *error);
/* "NVIDIA H100 80GB HBM3", and where when not here: " on gpu01 (GPU 1)". */
char               *ws_cli_device_where         (const WsDeviceInfo     *device);

typedef struct
{
  int samples;
  gboolean cold;
  gboolean hot;
  gboolean json;
  gboolean counters;
  double deadline;           /* --deadline SECONDS: a kernel of one's own's launch at most; 0: the default */
} WsCliMeasureOptions;

/* The progress bar and the session (ws-cli-session.c). */
void                ws_cli_progress_init        (WsCliProgress          *p,
                                                 guint                   points);
void                ws_cli_progress_draw        (WsCliProgress          *p,
                                                 guint                   done,
                                                 guint                   total);
void                ws_cli_progress_clear       (WsCliProgress          *p);

/* A session measuring on target (NULL: this computer) whose progress (if
 * not NULL) draws the bar. */
WsSession          *ws_cli_session_new          (WsCliProgress          *progress,
                                                 const WsGpuTarget      *target);
/* The GPU, once the session has looked; NULL with the reason there is none. */
const WsDeviceInfo *ws_cli_probe                (WsSession              *session,
                                                 GError                **error);
/* The session's asynchronous calls, waited for. */
WsMeasurement      *ws_cli_run_measure          (WsSession              *session,
                                                 const WsMeasureRequest *request,
                                                 GError                **error);
WsMeasurement      *ws_cli_run_count            (WsSession              *session,
                                                 const WsPattern        *pattern,
                                                 gboolean                hold,
                                                 GError                **error);
/* The GPU calibrated over base (NULL: the profile shipped for it, else
 * defaults), kept where the session reads calibrations. */
WsSessionCalibration *ws_cli_run_calibrate      (WsSession              *session,
                                                 const WsDeviceProfile  *base,
                                                 const char             *base_name,
                                                 WsCliProgress          *progress,
                                                 GError                **error);
/* A registered kernel at params (WsParamValue), measured with options
 * (ws-cli-measuring.c). */
WsMeasureRequest   *ws_cli_kernel_request       (const char             *id,
                                                 GArray                 *params,
                                                 const WsMeasureOptions *options);

/* Printing (ws-cli-print.c). */
char               *ws_cli_format_bytes         (gint64                  bytes);
void                ws_cli_print_device         (const WsDeviceInfo     *d);
void                ws_cli_print_measurement    (const WsMeasurement    *m,
                                                 const WsDeviceInfo     *d);
void                ws_cli_print_recording_json (WsRecording            *r);
void                ws_cli_print_json_node      (JsonNode               *node);

/* The bundled recording's numbers when there is no GPU, the options,
 * parameters and exit statuses (ws-cli-measuring.c). */

/* The recorded measurement of id whose parameters are params (all of a
 * kernel's, defaults included), or NULL. */
const WsMeasurement *ws_cli_recorded            (WsRecording            *r,
                                                 const char             *id,
                                                 GArray                 *params);
/* What is shown instead of a measurement: the recording's header, and what
 * it cannot give of what was asked (--hot: warm samples; --samples N: more
 * or fewer samples than it holds, recorded of one of its measurements). */
void                ws_cli_print_recorded_header (WsRecording         *r,
                                                  gboolean             hot,
                                                  guint                samples,
                                                  const WsMeasurement *recorded);
/* A sweep's points as a table, one row a value of `param`, with the
 * model's time where the session knows the device (ws-cli-sweep-print.c). */
void                ws_cli_print_sweep_table    (const char             *param,
                                                 GPtrArray              *results,
                                                 WsSession              *session);
/* The same, for a script reading the JSON: on standard error. */
void                ws_cli_warn_recorded_cold   (const char             *command,
                                                 gboolean                hot,
                                                 guint                   samples,
                                                 const WsMeasurement    *recorded);
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

/* What sweep and record measured, kept as they go (ws-cli-keep.c). A
 * measurement that cannot be kept stops the run: stop is cancelled at the
 * first save that fails. */
typedef struct
{
  const char *command;
  WsRecording *recording;    /* every measurement, those resumed from first */
  GFile *file;               /* saved to after each one, or NULL */
  guint resumed;             /* how many came from the file */
  guint kept;                /* how many of recording's first the file holds */
  gboolean save_failed;
  GCancellable *stop;
} WsCliKeeper;

/* FALSE after saying what is wrong (exit with WS_CLI_USAGE): --resume
 * without -o, a file that is no recording, or one of another GPU. */
gboolean            ws_cli_keeper_init          (WsCliKeeper            *k,
                                                 const char             *command,
                                                 const char             *output,
                                                 gboolean                resume,
                                                 const WsDeviceInfo     *device);
gboolean            ws_cli_keeper_has           (WsCliKeeper            *k,
                                                 const char             *id,
                                                 GArray                 *params);
/* Whether the file holds it. */
gboolean            ws_cli_keeper_kept          (WsCliKeeper            *k,
                                                 const char             *id,
                                                 GArray                 *params);
/* Adds it and saves the file; FALSE, having said why, if it could not be
 * saved (and from then on: stop is cancelled). */
gboolean            ws_cli_keeper_add           (WsCliKeeper            *k,
                                                 const WsMeasurement    *m);
/* After a failure: of the run's total points, done were measured (this
 * run's, or resumed) and kept are in the file; what is kept, and how to go
 * on. */
void                ws_cli_keeper_tell          (WsCliKeeper            *k,
                                                 guint                   done,
                                                 guint                   kept,
                                                 guint                   total);
void                ws_cli_keeper_clear         (WsCliKeeper            *k);

G_END_DECLS
