/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

/* Where the GPU worker (ws-worker-server.h) runs: this computer, a host
 * reached with ssh, a node Slurm allocates, or whatever a command starts.
 * Written as an address, which GSettings keeps and warpscope-cli --gpu
 * takes:
 *
 *   local[?gpu=N]
 *   ssh://[USER@]HOST[:PORT][?worker=PATH&gpu=N&wait=SECONDS]
 *   slurm://[PARTITION][?gres=GRES&time=TIME&account=ACCOUNT&jobid=JOB&worker=PATH&gpu=N&wait=SECONDS]
 *   command:CMD   or   command:?run=CMD[&gpu=N&wait=SECONDS]
 *
 * gpu is the index of the GPU among those the worker sees; worker is the
 * worker program's path there (found by itself otherwise); wait bounds how
 * long it may take to answer: the login, or Slurm's queue. */

#define WS_TYPE_GPU_TARGET (ws_gpu_target_get_type ())
#define WS_GPU_TARGET_ERROR (ws_gpu_target_error_quark ())

typedef enum
{
  WS_GPU_TARGET_ERROR_INVALID,   /* not an address, or a part that cannot be passed on safely */
} WsGpuTargetError;

typedef enum
{
  WS_GPU_TARGET_LOCAL,
  WS_GPU_TARGET_SSH,
  WS_GPU_TARGET_SLURM,
  WS_GPU_TARGET_COMMAND,
} WsGpuTargetKind;

typedef struct
{
  WsGpuTargetKind kind;
  char *user;                  /* ssh: NULL for ssh's own choice */
  char *host;                  /* ssh */
  int port;                    /* ssh: 0 for ssh's own choice */
  char *partition;             /* slurm: NULL for the cluster's default */
  char *gres;                  /* slurm: NULL for gpu:1 */
  char *time;                  /* slurm: --time, NULL for the partition's default */
  char *account;               /* slurm */
  char *jobid;                 /* slurm: an allocation to run in (salloc), or NULL */
  char *command;               /* command: run by /bin/sh -c */
  char *worker;                /* the worker program there, or NULL to look for it */
  int gpu;                     /* which of the GPUs the worker sees */
  guint wait_s;                /* 0: the kind's default (ws_gpu_target_get_wait) */
} WsGpuTarget;

GQuark       ws_gpu_target_error_quark   (void);
GType        ws_gpu_target_get_type      (void) G_GNUC_CONST;

WsGpuTarget *ws_gpu_target_new_local     (void);
/* An address as above; NULL with an error that says which part is wrong. */
WsGpuTarget *ws_gpu_target_parse         (const char        *address,
                                          GError           **error);
/* A command that starts the worker and speaks its protocol on its standard
 * input and output ("docker exec -i box warpscope-gpu-worker"). */
WsGpuTarget *ws_gpu_target_new_command   (const char        *command,
                                          GError           **error);
WsGpuTarget *ws_gpu_target_copy          (const WsGpuTarget *target);
void         ws_gpu_target_free          (WsGpuTarget       *target);
gboolean     ws_gpu_target_equal         (const WsGpuTarget *a,
                                          const WsGpuTarget *b);

/* Checks worker, gpu and wait as parse() would, for values set by hand. */
gboolean     ws_gpu_target_set_worker    (WsGpuTarget       *target,
                                          const char        *path,
                                          GError           **error);
gboolean     ws_gpu_target_set_gpu       (WsGpuTarget       *target,
                                          int                gpu,
                                          GError           **error);

/* The address, as parse() reads it back. */
char        *ws_gpu_target_to_string     (const WsGpuTarget *target);
/* For people: "this computer", "gpu01 over ssh", "Slurm partition gpu",
 * "the command “docker exec…”". */
char        *ws_gpu_target_describe      (const WsGpuTarget *target);
/* The place alone, short: "this computer", "gpu01", "Slurm (gpu)". */
char        *ws_gpu_target_place         (const WsGpuTarget *target);
gboolean     ws_gpu_target_is_local      (const WsGpuTarget *target);
/* Seconds the worker may take to answer its first message. */
guint        ws_gpu_target_get_wait      (const WsGpuTarget *target);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsGpuTarget, ws_gpu_target_free)

G_END_DECLS
