/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

/* Plain data shared by the GPU layer, the backend thread, recordings and
 * the UI. None of it needs CUDA to exist. */

#define WS_TYPE_DEVICE_INFO (ws_device_info_get_type ())
#define WS_TYPE_MEASUREMENT (ws_measurement_get_type ())

typedef struct
{
  char *name;                 /* "NVIDIA H100 80GB HBM3" */
  int cc_major;
  int cc_minor;
  int sm_count;
  gint64 global_mem_bytes;
  gint64 l2_bytes;
  gint64 l2_persisting_max_bytes; /* what a program may set aside for persisting lines; 0: unknown */
  gint64 shared_per_sm;
  gint64 shared_per_block_optin;
  int registers_per_sm;
  int max_threads_per_sm;
  int max_blocks_per_sm;
  int sm_clock_mhz;           /* maximum SM clock */
  int mem_clock_mhz;
  int mem_bus_bits;
  double peak_bandwidth_gbs;  /* 2 × memory clock × bus width / 8 */
  char *driver_version;       /* "13.0" */
  char *runtime_version;
  /* where it was measured on: NULL and 0 when not known (older recordings) */
  char *host;                 /* the host the GPU worker ran on */
  int gpu_index;              /* the GPU's index among those it saw */
  char *address;              /* how the program reached it ("local", "ssh://gpu01"; ws-worker-target.h) */
} WsDeviceInfo;

typedef struct
{
  char *name;                 /* an Nsight Compute metric name */
  double value;
} WsCounter;

/* A counter of the instructions of one source line of a kernel text
 * (CUPTI's SASS metrics, mapped through the kernel's line table). */
typedef struct
{
  guint line;                 /* 1-based, in the kernel text */
  char *name;                 /* a SASS metric: "smsp__sass_sectors_mem_global" */
  double value;
} WsLineCounter;

typedef struct
{
  char *name;
  gint64 value;
} WsParamValue;

/* What a kernel that may go wrong (a missing fence, a spin without
 * volatile) did over many trials: "wrong sum", "stale data", "timed out". */
typedef struct
{
  char *name;
  gint64 count;
} WsOutcome;

typedef enum
{
  WS_SPAN_KERNEL,
  WS_SPAN_HOST_TO_DEVICE,
  WS_SPAN_DEVICE_TO_HOST,
  WS_SPAN_PREFETCH,           /* unified memory moved ahead of a kernel */
  WS_N_SPAN_KINDS
} WsSpanKind;

/* One copy or kernel of a launch, on its stream, timed with events from the
 * launch's start. */
typedef struct
{
  guint stream;
  WsSpanKind kind;
  double start_ms;
  double end_ms;
} WsSpan;

typedef struct
{
  char *id;                   /* kernel id (a preset id), or "expr" for a generated kernel */
  char *description;          /* the pattern or variant, for people */
  GArray *params;             /* WsParamValue */
  GArray *samples_ms;         /* double, every timed sample */
  double median_ms;
  double min_ms;
  double max_ms;
  gint64 bytes;               /* bytes the kernel must move per launch, 0 when unknown */
  double bandwidth_gbs;       /* bytes / median, 0 when unknown */
  gboolean cold;              /* L2 flushed before each sample */
  int sm_clock_mhz;           /* SM clock while sampling, 0 when unknown */
  int registers;              /* per thread */
  int local_bytes;            /* per thread (spills and local arrays) */
  int shared_bytes;           /* static, per block */
  int blocks_per_sm;          /* resident, from the occupancy API */
  int warps_per_sm;
  gboolean verified;          /* output matched the CPU reference */
  GArray *counters;           /* WsCounter; empty when not collected */
  char *warning;              /* what went wrong beside (counters unavailable…), or NULL */
  gint64 trials;              /* runs counted in outcomes; 0 when the kernel cannot go wrong */
  GArray *outcomes;           /* WsOutcome: how many of the trials went wrong, and how */
  GArray *timeline;           /* WsSpan: one launch's copies and kernels; empty when not taken */
  GArray *line_counters;      /* WsLineCounter, per source line of a kernel text; empty when not taken */
} WsMeasurement;

GType          ws_device_info_get_type   (void) G_GNUC_CONST;
WsDeviceInfo  *ws_device_info_new        (void);
WsDeviceInfo  *ws_device_info_copy       (const WsDeviceInfo *info);
void           ws_device_info_free       (WsDeviceInfo       *info);

GType          ws_measurement_get_type   (void) G_GNUC_CONST;
WsMeasurement *ws_measurement_new        (const char         *id);
WsMeasurement *ws_measurement_copy       (const WsMeasurement *m);
void           ws_measurement_free       (WsMeasurement      *m);
void           ws_measurement_set_param  (WsMeasurement      *m,
                                          const char         *name,
                                          gint64              value);
gboolean       ws_measurement_get_param  (const WsMeasurement *m,
                                          const char         *name,
                                          gint64             *value);
void           ws_measurement_add_sample (WsMeasurement      *m,
                                          double              ms);
/* Sorts a copy of the samples and sets median, min and max. */
void           ws_measurement_summarize  (WsMeasurement      *m);
void           ws_measurement_add_counter (WsMeasurement     *m,
                                           const char        *name,
                                           double             value);
gboolean       ws_measurement_get_counter (const WsMeasurement *m,
                                           const char        *name,
                                           double            *value);
/* The SASS metrics per source line whose names more than one reader
 * needs, as CUPTI calls them (the worker collects them: ws-counters.cpp). */
#define WS_LINE_SHARED_WAVEFRONTS       "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared"
#define WS_LINE_SHARED_IDEAL_WAVEFRONTS "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared_ideal"

/* Adds value to the counter called name of line (made at 0 if new): a line
 * of several instructions sums theirs. */
void           ws_measurement_add_line_counter (WsMeasurement *m,
                                                guint          line,
                                                const char    *name,
                                                double         value);
gboolean       ws_measurement_get_line_counter (const WsMeasurement *m,
                                                guint          line,
                                                const char    *name,
                                                double        *value);
/* The counter called name of line, or fallback if the measurement has
 * none (a line that ran no such instruction has none). */
double         ws_measurement_get_line_counter_or (const WsMeasurement *m,
                                                   guint          line,
                                                   const char    *name,
                                                   double         fallback);
/* The global memory instructions of line as SASS counts them: loads,
 * stores, reductions and atomics together (0 for a kind not counted). */
double         ws_measurement_get_line_global_instructions (const WsMeasurement *m,
                                                            guint                line);
/* Adds count to the outcome called name (made at 0 if new). */
void           ws_measurement_add_outcome (WsMeasurement     *m,
                                           const char        *name,
                                           gint64             count);
gboolean       ws_measurement_get_outcome (const WsMeasurement *m,
                                           const char        *name,
                                           gint64            *count);
void           ws_measurement_add_span   (WsMeasurement      *m,
                                          guint               stream,
                                          WsSpanKind          kind,
                                          double              start_ms,
                                          double              end_ms);
const char    *ws_span_kind_to_string    (WsSpanKind          kind);
gboolean       ws_span_kind_from_string  (const char         *name,
                                          WsSpanKind         *kind);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsDeviceInfo, ws_device_info_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsMeasurement, ws_measurement_free)

G_END_DECLS
