/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-kernel-predict.h"
#include "ws-measurement.h"

G_BEGIN_DECLS

/* A kernel text line by line: for each source line with memory
 * instructions, what the model says they ask and move (summed over the
 * line's sites), their share of the predicted time, and, after a
 * measurement with counters per line, what the hardware counted beside it,
 * with the line marked where the two differ beyond the truth table's
 * tolerance (and why, where the reason is known). What the editor's gutter
 * and the annotated listing show. Plain data: any thread. */

typedef enum
{
  WS_KERNEL_LINE_GLOBAL = 1 << 0,   /* has global memory instructions */
  WS_KERNEL_LINE_LOCAL = 1 << 1,
  WS_KERNEL_LINE_SHARED = 1 << 2,
  WS_KERNEL_LINE_CONSTANT = 1 << 3,
  WS_KERNEL_LINE_ATOMIC = 1 << 4,   /* some of them atomic */
  WS_KERNEL_LINE_KEPT = 1 << 5,     /* an access nvcc never makes: kept in a register
                                     * through a loop (WsKernelSite's keep) */
} WsKernelLineFlags;

/* What the hardware counted for a line, from the SASS metrics per line;
 * NAN where the measurement has no such counter. */
typedef struct
{
  double global_instructions;      /* ld, st, red and atom */
  double global_sectors;           /* smsp__sass_sectors_mem_global */
  double global_ideal_sectors;
  double local_instructions;
  double local_sectors;
  double shared_instructions;
  double shared_wavefronts;        /* WS_LINE_SHARED_WAVEFRONTS */
  double shared_ideal_wavefronts;
  double shared_conflicts;         /* wavefronts past the ideal (NAN where either is unknown) */
} WsKernelLineCounters;

typedef struct
{
  guint line;                      /* 1-based */
  WsKernelLineFlags flags;
  guint n_sites;
  /* the model, summed over the line's sites of each kind of memory */
  WsStats global;                  /* global and local sites (bytes are comparable) */
  WsStats local;
  WsStats shared;
  WsStats constant;
  WsHierStats below;               /* below L1, with a profile */
  double time_share;               /* of the predicted time, 0 … 1; NAN where no line's memory sets it */
  /* the hardware's, after a measurement with counters per line */
  gboolean measured;
  WsKernelLineCounters hw;
  gboolean mismatch;               /* a figure differs beyond WS_TRUTH_TOLERANCE */
  char *reason;                    /* what differs, and why where known; NULL when nothing does */
} WsKernelLine;

typedef struct _WsKernelLines WsKernelLines;

/* From the model of a launch; measurement (may be NULL) adds the counters
 * per line it holds. */
WsKernelLines      *ws_kernel_lines_new             (const WsKernelInstance   *instance,
                                                     const WsKernelPrediction *prediction,
                                                     const WsMeasurement      *measurement);
/* Counters per line of another measurement (NULL: none) in place of the
 * last's; instance is the one the lines were made from. */
void                ws_kernel_lines_set_measurement (WsKernelLines            *lines,
                                                     const WsKernelInstance   *instance,
                                                     const WsMeasurement      *measurement);
void                ws_kernel_lines_free            (WsKernelLines            *lines);
guint               ws_kernel_lines_get_n_lines     (const WsKernelLines      *lines);
/* In the order of the text. */
const WsKernelLine *ws_kernel_lines_get_line        (const WsKernelLines      *lines,
                                                     guint                     i);
/* The line numbered line, or NULL where it has no memory instruction. */
const WsKernelLine *ws_kernel_lines_find            (const WsKernelLines      *lines,
                                                     guint                     line);
/* Whether counters per line were read, and how many lines they disagree on. */
gboolean            ws_kernel_lines_get_measured    (const WsKernelLines      *lines);
guint               ws_kernel_lines_get_n_mismatches (const WsKernelLines     *lines);
/* The level that bounds the predicted time and the time, when the
 * prediction had a profile. */
gboolean            ws_kernel_lines_get_timing      (const WsKernelLines      *lines,
                                                     WsBound                  *bound,
                                                     double                   *predicted_ms);

/* The model's figures of a line in a few words, for a gutter: "4 sect/req"
 * (global and local sectors per request), "2 wf/inst, +1 confl" (shared
 * wavefronts per instruction and bank conflicts per instruction); both
 * where the line has both. measured: the hardware's, from its counters,
 * as numbers alone for a column beside the model's ("4.4 · 2, +1"; "" where
 * it has none). */
char               *ws_kernel_line_format           (const WsKernelLine       *line,
                                                     gboolean                  measured);
/* The same in sentences, with the counts and the time, for a tooltip. */
char               *ws_kernel_line_describe         (const WsKernelLine       *line);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsKernelLines, ws_kernel_lines_free)

G_END_DECLS
