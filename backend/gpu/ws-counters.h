/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-gpu.h"

G_BEGIN_DECLS

/* Hardware counters of a kernel, read with CUPTI's range profiler
 * (ws-counters.cpp; the only C++ file of the project, because CUPTI's host
 * header needs <string>). Metric names are Nsight Compute's:
 * "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum" and so on.
 *
 * Only in a CUDA build (have_cuda); call from the thread that holds the GPU
 * (in the GPU worker process, or a test's), with the CUDA runtime's context
 * current on it (any cudart call made on the thread before makes it so).
 *
 * How ws_gpu_measure () uses it, when WsMeasureOptions.counters is set:
 *
 *   1. time the kernel as usual (warm-up, samples, verification);
 *   2. then, only if ws_counters_available () says yes, profile it with
 *      ws_counters_collect (the same launcher, its data,
 *      ws_counters_default_metrics (), the measurement, &error): it launches
 *      the kernel once per profiler pass (a few launches; with an L2 flush
 *      before each when the measurement is cold) and adds one WsCounter per
 *      metric to the measurement;
 *   3. if either fails, keep the timings: put the error's message where the
 *      user sees it (the CLI prints it as a warning) and return the
 *      measurement without counters. The error is WS_GPU_ERROR_COUNTERS_UNAVAILABLE
 *      with a message that names the cause and its fix (profiling restricted
 *      to admin users: NVreg_RestrictProfilingToAdminUsers=0 or CAP_SYS_ADMIN;
 *      a GPU older than Turing; another profiler such as Nsight Compute
 *      already attached), or WS_GPU_ERROR_CUDA for anything else.
 *
 * The launcher must launch the same work every time it is called and leave
 * the device as it found it (or at least in a state where the next launch is
 * the same), because each pass of the profiler calls it again. It launches
 * on the current (default) stream; ws_counters_collect synchronises.
 */

/* Whether counters can be read here: a CUDA build, a driver, a GPU the range
 * profiler supports, permission to profile, no other profiler. Cheap after
 * the first call (the answer is remembered; FALSE with an error that says
 * why and how to fix it). */
gboolean            ws_counters_available        (GError           **error);

/* Runs launch (data) under the profiler as many times as the metrics need
 * passes, and appends one counter per metric to into->counters (the sum over
 * every kernel the launcher starts). metrics is NULL-terminated; NULL means
 * ws_counters_default_metrics (). A metric this GPU does not know fails the
 * whole call with an error that names it. */
gboolean            ws_counters_collect          (WsLaunchFunc        launch,
                                                  gpointer            data,
                                                  const char *const  *metrics,
                                                  WsMeasurement      *into,
                                                  GError            **error);

/* The same, calling before (data) ahead of every pass, outside the profiled
 * range (it is waited for, and not counted): ws_gpu_measure passes an L2
 * flush, so that the counters of a cold measurement describe a cold launch,
 * as Nsight Compute's cache control does. */
gboolean            ws_counters_collect_after    (WsLaunchFunc        before,
                                                  WsLaunchFunc        launch,
                                                  gpointer            data,
                                                  const char *const  *metrics,
                                                  WsMeasurement      *into,
                                                  GError            **error);

/* The metrics Warpscope shows beside the model: global, shared, local and
 * constant traffic, L1 and L2 hit rates, DRAM bytes. NULL-terminated,
 * static. */
const char *const  *ws_counters_default_metrics  (void);

/* The metric names of one memory space and access (what the model predicts
 * for it), NULL-terminated, static: e.g. global loads give the ld sectors,
 * requests and instructions. */
const char *const  *ws_counters_metrics_for      (WsSpace             space,
                                                  WsAccessKind        kind);

/* Counters per source line of a kernel compiled with line information
 * (cubin: its image, function: its name in it): one launch with CUPTI's
 * SASS metrics (the binary is patched to count), each instruction's
 * counts added to its line in into->line_counters (metric names are
 * Nsight Compute's source-page metrics: smsp__sass_inst_executed,
 * smsp__sass_sectors_mem_global, …, those this GPU knows). before (may be
 * NULL) runs first, outside the counted range. */
gboolean            ws_counters_collect_lines    (WsLaunchFunc        before,
                                                  WsLaunchFunc        launch,
                                                  gpointer            data,
                                                  GBytes             *cubin,
                                                  const char         *function,
                                                  WsMeasurement      *into,
                                                  GError            **error);
/* The SASS metrics of ws_counters_collect_lines () this GPU knows,
 * NULL-terminated; NULL and the reason where none can be read. */
char              **ws_counters_line_metrics     (GError            **error);

/* While held, the range profiler stays enabled between collections, which
 * saves enabling it each time (~0.15 s on an H100) when many follow one
 * another (warpscope-cli truth). Otherwise each collection releases it: an
 * enabled profiler keeps every other profiler, Nsight Compute included, off
 * the GPU's counters. */
void                ws_counters_hold             (gboolean            hold);

/* A profiler held between collections (ws_counters_hold) is disabled
 * until the next collection enables it again: launches are timed with no
 * profiler enabled on the context, as `measure` times them alone. */
void                ws_counters_release          (void);

/* Releases the profiler (and the host-side metric tables it caches); the
 * next collect starts it again. Call before the context goes away. */
void                ws_counters_shutdown         (void);

G_END_DECLS
