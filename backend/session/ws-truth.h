/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

#include "ws-analysis.h"
#include "ws-kernel-launch.h"
#include "ws-measurement.h"
#include "ws-presets.h"
#include "ws-truth-table.h"

G_BEGIN_DECLS

/* The model must tell the truth (docs/DESIGN.md): its sectors, requests,
 * wavefronts and instructions for a launch must equal what the hardware
 * counters report for the same kernel. These are the cases that check it,
 * the rules that pair a counter with the model's figure, and the
 * explanations of the differences the hardware has a reason for. The
 * counters themselves come from the GPU worker (ws_session_count_async). */


typedef struct
{
  char *name;                /* a preset id, or "expr/SPACE-KIND-SIZE/INDEX" */
  WsPattern *pattern;
} WsTruthCase;

typedef struct
{
  char *pattern;             /* the case's name */
  char *metric;              /* an Nsight Compute metric */
  double model;
  double hardware;
  char *note;                /* why they differ, or how hardware was read; NULL for none */
  double tolerance;          /* the row's: WS_TRUTH_TOLERANCE, or one of the hierarchy's */
  gboolean mismatch;         /* further apart than tolerance */
  gboolean explained;        /* a mismatch with a known reason, in note */
} WsTruthRow;

/* Every preset, then expressions chosen to test each rule of the model;
 * with only, those whose name contains it. WsTruthCase, in order. */
GPtrArray   *ws_truth_cases             (const char          *only);
/* The pattern of the case called name, or NULL. */
WsPattern   *ws_truth_case_find         (const char          *name);
void         ws_truth_case_free         (WsTruthCase         *c);

/* Appends to rows (WsTruthRow) one row per counter the model predicts for
 * the case's accesses: the model's figure for the launch (stats, from
 * ws_model_analyze_launch) beside the counter in m (from the GPU), with an
 * explanation where they differ for a known reason. */
void         ws_truth_compare           (const WsTruthCase   *c,
                                         const WsLaunchStats *stats,
                                         const WsMeasurement *m,
                                         GPtrArray           *rows);
/* Appends the rows below L1 for the launch the case's kernel ran: L2
 * sectors read and written, DRAM bytes read and written (the counters of
 * m), and, where m was timed, the predicted time against its median; each
 * with its tolerance, and a note where they differ for a known reason. */
void         ws_truth_compare_hierarchy (const WsTruthCase          *c,
                                         const WsLaunchPrediction   *prediction,
                                         const WsDeviceProfile      *profile,
                                         const WsMeasurement        *m,
                                         GPtrArray                  *rows);
gboolean     ws_truth_row_unexplained   (const WsTruthRow    *r);

/* The model's time for what a measurement ran (its preset's real kernel
 * with its parameters, the kernel's own included), in ms; NAN for a kernel
 * with no preset, no description or no profile. */
double       ws_truth_predict_measurement (const WsMeasurement   *measurement,
                                           const WsDeviceProfile *profile);
/* The pattern a measurement ran: its preset's, with the measurement's
 * parameters (the kernel's own included) and the grid they give; NULL for a
 * kernel with no preset or parameters the pattern refuses. preset_out (may
 * be NULL) gets the preset. */
WsPattern   *ws_truth_measurement_pattern (const WsMeasurement *measurement,
                                           const WsPreset     **preset_out);
void         ws_truth_row_free          (WsTruthRow          *r);

/* The table, as data/truth/ keeps it: the device, the date, the tolerance,
 * the rows and a summary; counters (may be NULL) adds every raw counter of
 * every case. */
JsonNode    *ws_truth_to_json           (GPtrArray           *rows,
                                         const char          *device,
                                         JsonNode            *counters);
/* The table for people: a line a row, the notes of mismatches, a summary. */
char        *ws_truth_to_text           (GPtrArray           *rows,
                                         const char          *device);
/* "nvidia-h100-80gb-hbm3": the name of a device's table file. */
char        *ws_truth_device_slug       (const char          *device);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsTruthCase, ws_truth_case_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsTruthRow, ws_truth_row_free)

G_END_DECLS
