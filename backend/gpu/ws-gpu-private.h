/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <cuda_runtime_api.h>

#include "ws-counters.h"
#include "ws-gpu.h"
#include "ws-kernels.h"

G_BEGIN_DECLS

/* The CUDA build's insides, shared by ws-gpu-*.c. Everything here runs on
 * the thread that holds the GPU lock (ws_gpu_lock ()). */

#define WS_KERNEL_MAX_PARAMS 4
#define WS_RUN_BUFFERS 4

typedef struct _WsRun WsRun;

typedef struct
{
  const char *id;
  int variant;
  /* allocates and fills the inputs, sets run->bytes and run->launch */
  gboolean (*prepare) (WsRun   *run,
                       GError **error);
  /* checks the output of the launches so far against a CPU reference */
  gboolean (*verify)  (WsRun   *run,
                       GError **error);
  /* undoes what prepare changed outside the run's buffers (optional) */
  void     (*finish)  (WsRun   *run);
  /* adds to the measurement what the kernel alone knows (optional): the
   * outcomes of its trials, a timeline of its copies and kernels */
  gboolean (*report)  (WsRun         *run,
                       WsMeasurement *m,
                       GError       **error);
} WsKernelOps;

struct _WsRun
{
  const WsKernelInfo *info;
  const WsKernelOps *ops;
  gint64 p[WS_KERNEL_MAX_PARAMS];      /* in the order of info->params */
  void *d[WS_RUN_BUFFERS];             /* device buffers, from the cache */
  gint64 n;                            /* elements, where the kernel has one size */
  gint64 bytes;                        /* what the launch's instructions ask for */
  void (*launch) (WsRun *run);
  /* puts back, before each timed sample and outside its timing, the state
   * every launch must start from (optional; samples are then one launch) */
  void (*before) (WsRun *run);
  guint launches;                      /* counted by launchers that need it */
  struct _WsTimeline *timeline;        /* being taken (ws_run_report_timeline), or NULL */
  WsKernelShape shape;                 /* filled by the first launch */
  char *note;                          /* appended to the description */
  gpointer data;                       /* the family's own, freed with data_free */
  GDestroyNotify data_free;
};

/* ws-gpu-device.c */
void             ws_gpu_lock               (void);
void             ws_gpu_unlock             (void);
/* Probes (once), then makes sure the context and the caches exist. */
gboolean         ws_gpu_ensure             (GError      **error);
const WsDeviceInfo *ws_gpu_device          (void);
/* Turns err into a GError (what: "cudaMalloc of 512 MiB"); a fault resets
 * the device first, so that the next job starts afresh. Returns FALSE. */
gboolean         ws_gpu_fail               (cudaError_t   err,
                                            const char   *what,
                                            GError      **error);
/* Checks err; FALSE with the error set (see ws_gpu_fail) unless cudaSuccess. */
gboolean         ws_gpu_check              (cudaError_t   err,
                                            const char   *what,
                                            GError      **error);
/* Waits for the device and checks for asynchronous errors. */
gboolean         ws_gpu_sync               (const char   *what,
                                            GError      **error);
/* Cached device buffer number slot, at least bytes long (contents undefined). */
void            *ws_gpu_buffer             (guint         slot,
                                            gsize         bytes,
                                            GError      **error);
/* Cached pinned host buffer, for reading results back. */
void            *ws_gpu_pinned             (guint         slot,
                                            gsize         bytes,
                                            GError      **error);
/* Cached mapped (zero-copy) host buffer and its device address. */
void            *ws_gpu_mapped             (gsize         bytes,
                                            void        **device_ptr,
                                            GError      **error);
/* Cached pageable host buffer. */
void            *ws_gpu_pageable           (gsize         bytes,
                                            GError      **error);
/* Device memory the driver says is free now, or 0 when it will not say. */
gsize            ws_gpu_free_memory        (void);
/* Cached streams (blocking, so the legacy default stream orders them). */
cudaStream_t    *ws_gpu_streams            (guint         n,
                                            GError      **error);
/* Evicts L2 by reading a buffer twice its size (leaving clean lines behind). */
gboolean         ws_gpu_flush_l2           (GError      **error);

/* Sets bytes of device memory to value (WS_POISON_BYTE for outputs, so that
 * an element the kernel forgot shows). */
#define WS_POISON_BYTE 0xa5
#define WS_POISON 0xa5a5a5a5u
gboolean         ws_gpu_set_bytes          (void         *p,
                                            int           value,
                                            gsize         bytes,
                                            GError      **error);
/* The two events every timing uses. */
void             ws_gpu_events             (cudaEvent_t  *start,
                                            cudaEvent_t  *stop);
/* The SM clock now, measured with clock64 () against events; 0 on failure. */
int              ws_gpu_measure_clock      (void);
/* Fills n words of p with ws_value (k, seed). */
gboolean         ws_gpu_fill               (void         *p,
                                            gsize         n_words,
                                            guint32       seed,
                                            GError      **error);

/* ws-gpu-measure.c */
gint64           ws_run_param              (WsRun        *run,
                                            const char   *name);
/* Copies bytes of device buffer src back into a pinned buffer. */
const void      *ws_run_fetch              (WsRun        *run,
                                            const void   *src,
                                            gsize         bytes,
                                            GError      **error);

typedef guint32 (*WsExpectFunc) (gsize    k,
                                 gpointer data);
/* Compares n words of got with expect (k) (on several threads when n is
 * large); the error names the first mismatch. */
gboolean         ws_run_check_words        (WsRun        *run,
                                            const char   *array,
                                            const guint32 *got,
                                            gsize         n,
                                            WsExpectFunc  expect,
                                            gpointer      data,
                                            GError      **error);
/* Fetches n words of device buffer src and checks them. */
gboolean         ws_run_verify_words       (WsRun        *run,
                                            const char   *array,
                                            const void   *src,
                                            gsize         n,
                                            WsExpectFunc  expect,
                                            gpointer      data,
                                            GError      **error);
/* Fills n host words with ws_value (k, seed), on several threads. */
void             ws_run_fill_host          (guint32      *p,
                                            gsize         n,
                                            guint32       seed);
gboolean         ws_run_alloc_in_out       (WsRun        *run,
                                            gsize         in_words,
                                            gsize         out_words,
                                            guint32       seed,
                                            GError      **error);
/* Around each copy or kernel of a launch: events when a timeline is being
 * taken (by ws_run_report_timeline), nothing otherwise. stream numbers the
 * stream for people (0, 1, …). */
int              ws_run_span_begin         (WsRun        *run,
                                            cudaStream_t  s);
void             ws_run_span_end           (WsRun        *run,
                                            int           span,
                                            guint         stream,
                                            WsSpanKind    kind,
                                            cudaStream_t  s);
/* A WsKernelOps report: runs one more launch (after run->before, if any)
 * and adds the spans it marked to m's timeline. */
gboolean         ws_run_report_timeline    (WsRun         *run,
                                            WsMeasurement *m,
                                            GError       **error);
gboolean         ws_run_set_error          (WsRun        *run,
                                            GError      **error,
                                            const char   *format,
                                            ...) G_GNUC_PRINTF (3, 4);

/* The families (ws-gpu-run-*.c): the ops of kernel id, or NULL. */
const WsKernelOps *ws_gpu_memory_ops       (const char   *id);
const WsKernelOps *ws_gpu_onchip_ops       (const char   *id);
const WsKernelOps *ws_gpu_atomics_ops      (const char   *id);
const WsKernelOps *ws_gpu_transfer_ops     (const char   *id);
const WsKernelOps *ws_gpu_unified_ops      (const char   *id);
const WsKernelOps *ws_gpu_latency_ops      (const char   *id);
const WsKernelOps *ws_gpu_fences_ops       (const char   *id);
const WsKernelOps *ws_gpu_stencil_ops      (const char   *id);
const WsKernelOps *ws_gpu_sort_ops         (const char   *id);
const WsKernelOps *ws_gpu_alignment_ops    (const char   *id);


G_END_DECLS
