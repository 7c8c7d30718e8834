/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-timing.h"

G_BEGIN_DECLS

/* What a preset's real kernel does, all of it, for the hierarchy and the
 * time: a preset's pattern shows the accesses a lesson is about (the
 * strided load), while its kernel also stores its result, loops over its
 * loads, synchronises its block, computes, and copies to and from the host.
 *
 * A launch is one or more phases (each a pattern, with how often each of its
 * accesses repeats per thread; the phases of a block run one after another),
 * what the kernel computes and how often it synchronises, the resources that
 * set its occupancy, and its copies. ws-kernel-launch.c holds one
 * description per preset, written from its kernel in kernels/. A pattern
 * that is not a preset's at its defaults (bar the sweep's parameter) is its
 * own launch: one phase, each access once. */

typedef enum
{
  WS_HOST_NONE,
  WS_HOST_PAGEABLE,     /* cudaMemcpy from malloc'ed memory, then the kernel */
  WS_HOST_PINNED,       /* cudaMemcpy from cudaMallocHost memory, then the kernel */
  WS_HOST_MAPPED,       /* the kernel reads host memory over the bus */
  WS_HOST_STREAMS,      /* copy in, kernel, copy out, in chunks over streams (pinned) */
  WS_HOST_PREFETCH,     /* managed memory on the host, cudaMemPrefetchAsync'ed, then the kernel */
  WS_HOST_MANAGED,      /* managed memory on the host, migrated on the kernel's page faults */
} WsHostCopy;

typedef struct
{
  WsPattern *pattern;
  guint64 *repeat;            /* per access of the phase's pattern */
  gboolean waits;             /* a loop's next iteration: its loads wait for the ones before */
  guint64 times;              /* "loop EXPR:": the phase runs EXPR times in a row */
} WsLaunchPhase;

typedef struct
{
  char *preset;               /* the preset's id, or NULL for a pattern of one's own */
  GPtrArray *phases;          /* WsLaunchPhase *, at least one */
  guint registers;            /* per thread; 0: few enough never to limit occupancy */
  guint64 shared_bytes;       /* per block, beyond the pattern's arrays; 0: as they say */
  double alu;                 /* arithmetic instructions per thread */
  double syncs;               /* __syncthreads () per block */
  double chain;               /* arithmetic instructions on a block's path, each waiting for the one before */
  double tex;                 /* texture fetches per thread (the pattern's loads stand for their memory) */
  double messages;            /* flags of other blocks a block waits for, one after another */
  double fences[WS_N_FENCES]; /* fences a thread makes one after another, after a store each */
  WsHostCopy host;
  guint64 host_in;            /* bytes copied to the device (or read over the bus) */
  guint64 host_out;           /* bytes copied back */
  guint streams;
} WsKernelLaunch;

/* The launch the kernel of preset runs for pattern (a build of the preset,
 * maybe with other parameter values); NULL and an error if a description
 * does not build. */
WsKernelLaunch *ws_kernel_launch_new        (const char      *preset,
                                             const WsPattern *pattern,
                                             GError         **error);
/* The launch to predict for a pattern: its preset's kernel's when the
 * pattern is the preset's bar its parameters' values, else the pattern
 * itself. preset may be NULL. */
WsKernelLaunch *ws_kernel_launch_choose     (const char      *preset,
                                             const WsPattern *pattern,
                                             GError         **error);
/* A pattern as its own launch. */
WsKernelLaunch *ws_kernel_launch_of_pattern (const WsPattern *pattern);
void            ws_kernel_launch_free       (WsKernelLaunch  *launch);
/* The description of preset's kernel, or NULL if it has none. */
const char     *ws_kernel_launch_describe   (const char      *preset);

/* Everything a launch moves and takes: each phase's hierarchy, their sum,
 * and the time. */
typedef struct
{
  GPtrArray *phases;          /* WsHierarchy *, one per phase */
  WsHierStats total;          /* the sum */
  WsTiming timing;
} WsLaunchPrediction;

WsLaunchPrediction *ws_launch_predict       (const WsKernelLaunch  *launch,
                                             const WsDeviceProfile *profile,
                                             GCancellable          *cancellable,
                                             GError               **error);
void                ws_launch_prediction_free (WsLaunchPrediction  *prediction);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsKernelLaunch, ws_kernel_launch_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsLaunchPrediction, ws_launch_prediction_free)

G_END_DECLS
