/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ws-worker-target.h"

G_BEGIN_DECLS

/* How the GPU worker is started where a WsGpuTarget says: the program next
 * to ours; `ssh -T -o BatchMode=yes` with a shared connection (no password
 * prompt ever, a second start needs no new login); `srun` on a node Slurm
 * allocates; or the user's command under /bin/sh -c. Its standard input
 * and output carry the protocol; what ssh, srun or the command say on
 * standard error is kept, to explain in one sentence why it ended. */

#define WS_WORKER_ERROR (ws_worker_error_quark ())

typedef enum
{
  WS_WORKER_ERROR_UNREACHABLE,       /* no such host, nothing listening, no route, no Slurm controller */
  WS_WORKER_ERROR_AUTH_REFUSED,      /* the login was refused, or the host key is unknown */
  WS_WORKER_ERROR_NOT_INSTALLED,     /* no worker program there, or it cannot start */
  WS_WORKER_ERROR_VERSION_MISMATCH,  /* it speaks another version of the protocol */
  WS_WORKER_ERROR_NO_SUCH_GPU,       /* no GPU of the index asked for */
  WS_WORKER_ERROR_SLURM_REFUSED,     /* srun was refused an allocation */
  WS_WORKER_ERROR_TIMED_OUT,         /* no answer within the target's wait (login, queue) */
  WS_WORKER_ERROR_CONNECTION_LOST,   /* it ended after it had answered */
  WS_WORKER_ERROR_FAILED,            /* the command failed some other way */
  WS_WORKER_ERROR_PROTOCOL,          /* it answered something that is not the protocol */
} WsWorkerError;

typedef enum
{
  WS_WORKER_STATE_STARTING,          /* logging in, asking Slurm */
  WS_WORKER_STATE_QUEUED,            /* Slurm queued the job: detail is its id */
  WS_WORKER_STATE_ALLOCATED,         /* Slurm allocated a node: detail is the job's id */
} WsWorkerState;

/* Called on the transport's own thread, or the caller's. */
typedef void (*WsWorkerStateFunc) (WsWorkerState state,
                                   const char   *detail,
                                   gpointer      user_data);

typedef struct _WsWorkerTransport WsWorkerTransport;

GQuark             ws_worker_error_quark            (void);

/* The command line that starts the worker for target (tests read it). */
GStrv              ws_worker_transport_argv         (const WsGpuTarget  *target,
                                                     GError            **error);
WsWorkerTransport *ws_worker_transport_start        (const WsGpuTarget  *target,
                                                     WsWorkerStateFunc   state,
                                                     gpointer            state_data,
                                                     GError            **error);
GSubprocess       *ws_worker_transport_get_process  (WsWorkerTransport  *self);
const WsGpuTarget *ws_worker_transport_get_target   (WsWorkerTransport  *self);
/* The Slurm job it runs in, once known, or NULL. */
char              *ws_worker_transport_dup_job      (WsWorkerTransport  *self);
void               ws_worker_transport_set_job      (WsWorkerTransport  *self,
                                                     const char         *job);
/* Ends the process: SIGTERM (srun then withdraws its job), SIGKILL after
 * a few seconds. */
void               ws_worker_transport_kill         (WsWorkerTransport  *self);
/* Once the process has ended (waits for it, a few seconds at most, then
 * kills it): why, in the terms of its transport. answered says whether it
 * had answered the handshake (then a lost connection, not a refusal). */
GError            *ws_worker_transport_explain_end  (WsWorkerTransport  *self,
                                                     gboolean            answered);
/* What it said on standard error last, one line each (or NULL when that
 * is not kept: a local worker's goes to ours). */
char              *ws_worker_transport_dup_stderr   (WsWorkerTransport  *self);
void               ws_worker_transport_free         (WsWorkerTransport  *self);

/* A line of in, waiting until deadline (monotonic µs) at most, or until
 * cancellable fires; NULL at the end of the stream with no error. Lines
 * longer than max_bytes are an error. */
char              *ws_worker_read_line              (GDataInputStream   *in,
                                                     gsize               max_bytes,
                                                     gint64              deadline,
                                                     GCancellable       *cancellable,
                                                     GError            **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsWorkerTransport, ws_worker_transport_free)

G_END_DECLS
