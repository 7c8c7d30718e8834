/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-codegen.h"
#include "ws-gpu.h"

G_BEGIN_DECLS

/* Generated kernels: NVRTC compiles a WsKernelSource for the device, the
 * driver API (reached through the runtime's cudaGetDriverEntryPointByVersion,
 * so that nothing links libcuda) loads and launches it. Compiled images and
 * loaded modules are cached by the source's hash.
 *
 * Compiling needs no GPU; everything else runs where the rest of ws-gpu.h
 * does, in the GPU worker process. */

/* The architectures this NVRTC compiles for, as 75, 80, … (sorted). */
GArray         *ws_jit_supported_archs   (void);

/* What to compile for a device of compute capability major.minor: its own
 * machine code ("sm_90") when NVRTC knows it, else PTX for the newest
 * architecture NVRTC knows ("compute_120"), which the driver compiles for the
 * newer GPU. NULL (with an error) for a GPU older than every one NVRTC knows. */
char           *ws_jit_target_for        (int                    cc_major,
                                          int                    cc_minor,
                                          GError               **error);

/* NVRTC: SASS (target "sm_XY") or PTX ("compute_XY"). On a compile failure
 * the error (WS_GPU_ERROR_COMPILE_FAILED) names the part of the pattern each
 * message comes from; log (if not NULL) receives NVRTC's full log either way. */
GBytes         *ws_jit_compile           (const WsKernelSource  *source,
                                          const char            *target,
                                          char                 **log,
                                          GError               **error);

typedef struct _WsJitLaunch WsJitLaunch;

/* Everything one launch of the pattern needs, on the device: the model's
 * analysis of the whole launch (which gives every array's extent), the
 * kernel, compiled and loaded, and zeroed buffers sized to fit. Refuses a
 * pattern whose addresses the model rejects, and one that needs more memory
 * than the device has free, naming the block and lane that reach furthest. */
WsJitLaunch    *ws_jit_prepare           (const WsPattern       *pattern,
                                          GCancellable          *cancellable,
                                          GError               **error);
void            ws_jit_launch_free       (WsJitLaunch           *launch);

/* A WsLaunchFunc: one launch, asynchronous, on the default stream. */
void            ws_jit_launch            (gpointer               launch);
/* One launch, then waits and reports a fault. */
gboolean        ws_jit_launch_sync       (WsJitLaunch           *launch,
                                          GError               **error);

const WsLaunchStats  *ws_jit_launch_get_stats  (const WsJitLaunch *launch);
const WsKernelSource *ws_jit_launch_get_source (const WsJitLaunch *launch);
const char           *ws_jit_launch_get_target (const WsJitLaunch *launch);
/* Bytes the kernel's global and local accesses ask for, per launch. */
gint64                ws_jit_launch_get_bytes  (const WsJitLaunch *launch);
/* Registers, local and shared bytes, resident blocks and warps per SM. */
void                  ws_jit_launch_describe   (const WsJitLaunch *launch,
                                                WsMeasurement     *into);

/* The context the runtime made current on this thread (a CUcontext) and its
 * device ordinal, for CUPTI. */
gboolean        ws_jit_current_context   (gpointer              *context,
                                          int                   *device,
                                          GError               **error);

/* The name of the device the runtime uses ("NVIDIA H100 80GB HBM3"). */
char           *ws_jit_device_name       (GError               **error);

/* Forgets loaded modules (after a device reset their handles are stale);
 * compiled images stay cached. */
void            ws_jit_forget_modules    (void);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsJitLaunch, ws_jit_launch_free)

G_END_DECLS
