/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ws-kernel.h"
#include "ws-measurement.h"
#include "ws-pattern.h"
#include "ws-presets.h"

G_BEGIN_DECLS

/* The host side of CUDA. Every function here that touches the GPU runs in
 * the process that holds the CUDA context — the GPU worker
 * (ws-worker-server.h), or a test — one call at a time, never on a program's
 * main thread.
 * Without a CUDA build they exist too, and fail with WS_GPU_ERROR_NOT_BUILT. */

#define WS_GPU_ERROR (ws_gpu_error_quark ())

typedef enum
{
  WS_GPU_ERROR_NOT_BUILT,        /* this build has no CUDA backend */
  WS_GPU_ERROR_NO_DRIVER,        /* libcuda.so.1 cannot be loaded */
  WS_GPU_ERROR_DRIVER_TOO_OLD,   /* the driver is older than the runtime */
  WS_GPU_ERROR_NO_DEVICE,        /* a driver but no usable GPU */
  WS_GPU_ERROR_UNSUPPORTED,      /* a GPU too old for this build's architectures */
  WS_GPU_ERROR_UNKNOWN_KERNEL,
  WS_GPU_ERROR_INVALID_PARAM,
  WS_GPU_ERROR_OUT_OF_MEMORY,
  WS_GPU_ERROR_KERNEL_FAULT,     /* the kernel faulted: CUDA refuses the process further work */
  WS_GPU_ERROR_VERIFY_FAILED,    /* output differs from the CPU reference */
  WS_GPU_ERROR_COMPILE_FAILED,   /* NVRTC rejected generated source */
  WS_GPU_ERROR_COUNTERS_UNAVAILABLE,
  WS_GPU_ERROR_CUDA,             /* any other CUDA error, with its name */
  WS_GPU_ERROR_WORKER,           /* the worker process hung, or broke the protocol: it was killed */
  WS_GPU_ERROR_KERNEL_TIMEOUT,   /* a kernel of one's own ran past its deadline: its worker ended */
} WsGpuError;

typedef struct
{
  const char *name;
  gint64 def;
  gint64 min;
  gint64 max;
  const char *description;
} WsGpuKernelParam;

/* A real kernel, as the catalogue (ws-presets.h) declares it: its
 * parameters are the preset's less those only the model reads. */
typedef struct
{
  const char *id;                /* the preset id it runs */
  const char *title;
  const WsGpuKernelParam *params;
  guint n_params;
  const char *sweep_param;       /* its standard sweep, or NULL */
  const char *sweep_values;      /* "1:32", "1,2,4" */
  const WsPreset *preset;        /* NULL for a reference with no pattern (cudaMemcpy) */
} WsKernelInfo;

typedef struct
{
  guint samples;                 /* at least 10 */
  guint warmup;                  /* launches before timing */
  gboolean cold;                 /* flush L2 before each sample */
  gboolean counters;             /* also collect hardware counters */
  guint deadline_ms;             /* a kernel text's launch that runs longer is stopped (the worker
                                  * ends); 0: none */
} WsMeasureOptions;

/* A kernel of one's own may loop far longer than meant, or spin on a flag
 * no block sets: one launch that takes longer than this is stopped. */
#define WS_KERNEL_DEADLINE_MS_DEFAULT 5000

#define WS_MEASURE_OPTIONS_DEFAULT ((WsMeasureOptions) { 10, 3, TRUE, FALSE, 0 })

/* done of total samples; called on the thread that measures */
typedef void (*WsSampleProgress) (guint    done,
                                  guint    total,
                                  gpointer user_data);

/* Launches a kernel once, asynchronously on the current stream. */
typedef void (*WsLaunchFunc) (gpointer user_data);

GQuark               ws_gpu_error_quark      (void);
gboolean             ws_gpu_is_built         (void);
const char          *ws_gpu_build_description (void);

/* The device, or why there is none. Cheap after the first call. */
WsDeviceInfo        *ws_gpu_probe            (GError                **error);

/* One GPU of those the driver sees, as a chooser lists them. */
typedef struct
{
  int index;                     /* the CUDA device ordinal */
  char *name;
  int cc_major;
  int cc_minor;
  gint64 memory_bytes;
} WsGpuSummary;

void                 ws_gpu_summary_free     (WsGpuSummary           *summary);
/* Every GPU the driver sees (WsGpuSummary), without making a context; NULL
 * with the reason there is none. */
GPtrArray           *ws_gpu_list             (GError                **error);
/* Which GPU this process measures on (0 unless chosen): before the first
 * probe only; FALSE with an error that lists those there are. */
gboolean             ws_gpu_select           (int                     index,
                                              GError                **error);
int                  ws_gpu_selected         (void);

/* The registry of real kernels, read from the catalogue. Available without a GPU. */
const WsKernelInfo  *ws_gpu_kernels          (guint                  *n_kernels);
const WsKernelInfo  *ws_gpu_kernel_lookup    (const char             *id);
const WsGpuKernelParam *ws_kernel_info_get_param (const WsKernelInfo    *info,
                                              const char             *name);

/* Runs a registered kernel: warm-up, samples timed with events, verified
 * against a CPU reference. */
WsMeasurement       *ws_gpu_measure          (const char             *id,
                                              const WsParamValue     *params,
                                              guint                   n_params,
                                              const WsMeasureOptions *options,
                                              GCancellable           *cancellable,
                                              WsSampleProgress        progress,
                                              gpointer                progress_data,
                                              GError                **error);

/* Times any launcher the same way (used by generated kernels): warm-up,
 * launches batched to at least ~0.2 ms per sample, L2 flushed before each
 * sample when cold, the SM clock measured afterwards. The launcher must
 * launch on the legacy default stream (0). Fills the timings, bytes,
 * bandwidth, cold and sm_clock_mhz; the caller adds what it knows of the
 * kernel (registers, occupancy, verification). */
WsMeasurement       *ws_gpu_time_launches    (const char             *id,
                                              WsLaunchFunc            launch,
                                              gpointer                launch_data,
                                              gint64                  bytes,
                                              const WsMeasureOptions *options,
                                              GCancellable           *cancellable,
                                              WsSampleProgress        progress,
                                              gpointer                progress_data,
                                              GError                **error);

/* Evicts L2 (reads a buffer twice its size, leaving clean lines), as a
 * WsLaunchFunc whose data is unused: what ws_counters_collect_after () runs
 * before each pass of a cold measurement. Where the GPU is held only. */
void                 ws_gpu_flush_before     (gpointer                data);

/* Counts the device resets after faults: whoever caches modules, functions
 * or memory of the context (ws-jit.c) drops them when it changes. */
guint                ws_gpu_generation       (void);

/* One number of a device profile that calibration found: the profile
 * field's name (ws-device-profile.h), its value in the field's units, and
 * how it was found ("measured: …" or "queried: …"). */
typedef struct
{
  const char *field;
  double value;
  char *how;
} WsCalibrated;

/* Measures what it can of a device profile with microkernels of its own
 * (kernels/ws-kernels-calibrate.cu), in a few seconds, and asks the
 * driver the rest of the device's shape: an array of WsCalibrated, in the
 * order they were found. progress counts its steps. */
GArray              *ws_gpu_calibrate        (GCancellable           *cancellable,
                                              WsSampleProgress        progress,
                                              gpointer                progress_data,
                                              GError                **error);

/* Frees the buffers, streams and events kept between jobs (at exit, or to
 * give the memory back); the next measurement makes them again. */
void                 ws_gpu_shutdown         (void);

/* Launches a kernel that stores to an unmapped address, to test recovery:
 * fails with WS_GPU_ERROR_KERNEL_FAULT after resetting the device. */
gboolean             ws_gpu_debug_fault      (GError                **error);

/* Generates CUDA source from the pattern's AST, compiles it with NVRTC,
 * and measures it like any other kernel (ws-jit.c). */
WsMeasurement       *ws_gpu_measure_pattern  (const WsPattern        *pattern,
                                              const WsMeasureOptions *options,
                                              GCancellable           *cancellable,
                                              WsSampleProgress        progress,
                                              gpointer                progress_data,
                                              GError                **error);

/* A kernel text at its launch: the CUDA printed from its checked tree,
 * compiled by NVRTC with line information, its arrays filled as the launch
 * says; one launch checked against the CPU reference (the model's VM runs
 * the same launch; a difference names the array, the element and both
 * values), then timed like any other kernel. With counters, the whole
 * kernel's and each source line's (ws_counters_collect_lines ()). */
WsMeasurement       *ws_gpu_measure_kernel   (WsKernelInstance       *instance,
                                              const WsMeasureOptions *options,
                                              GCancellable           *cancellable,
                                              WsSampleProgress        progress,
                                              gpointer                progress_data,
                                              GError                **error);

/* Since when (monotonic µs) this process has waited for the GPU to run a
 * kernel text's launch, or 0 when it does not: what the worker's watchdog
 * holds against the request's deadline. */
gint64               ws_gpu_kernel_busy_since (void);
/* A launch of one thread that spins ms milliseconds, watched as a kernel
 * text's are: for the tests of the deadline. */
gboolean             ws_gpu_debug_spin       (guint                   ms,
                                              GError                **error);

/* The hardware counters of one launch of the pattern's generated kernel:
 * one launch first (a fault shows there), then the profiler's passes, with
 * L2 flushed before each when cold (as Nsight Compute's cache control).
 * metrics NULL: ws_counters_default_metrics (). hold keeps the profiler
 * enabled afterwards, for a run of collections (warpscope-cli truth). The
 * measurement has the counters and the kernel's description, no timings.
 * WS_GPU_ERROR_COUNTERS_UNAVAILABLE says why counters cannot be read here. */
WsMeasurement       *ws_gpu_count_pattern    (const WsPattern        *pattern,
                                              const char *const      *metrics,
                                              gboolean                cold,
                                              gboolean                hold,
                                              GCancellable           *cancellable,
                                              GError                **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsGpuSummary, ws_gpu_summary_free)

G_END_DECLS
