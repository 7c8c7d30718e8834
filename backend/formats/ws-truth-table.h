/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* A truth table as data/truth/ keeps it (`warpscope-cli truth --json`):
 * for every preset, the model's figure beside what the GPU's hardware
 * counters (and its timer) said, one row per counter. Read here for the
 * truth view: how far the model is from the hardware, preset by preset. */

typedef struct
{
  char *pattern;             /* the preset: "coalescing/sequential" */
  char *metric;              /* a counter ("dram__bytes_read.sum") or "median time (ms)" */
  double model;
  double hardware;
} WsTruthEntry;

typedef struct
{
  char *device;              /* "NVIDIA H200" */
  char *date;                /* when it was made, ISO 8601 */
  GPtrArray *entries;        /* WsTruthEntry, in the file's order */
} WsTruthTable;

#define WS_TRUTH_TABLE_ERROR (ws_truth_table_error_quark ())
GQuark        ws_truth_table_error_quark (void);

/* Model and hardware differ when they are further apart than this fraction
 * of the larger. */
#define WS_TRUTH_TOLERANCE 0.02
/* Below L1 the model follows a whole launch through caches whose
 * replacement it approximates: L2 sectors within 10 %, DRAM bytes within
 * 15 %, the predicted time within 25 % of the measured median. */
#define WS_TRUTH_L2_TOLERANCE 0.10
#define WS_TRUTH_DRAM_TOLERANCE 0.15
#define WS_TRUTH_TIME_TOLERANCE 0.25
/* The metric name of the time rows: the model's predicted time against the
 * measured median, in ms. */
#define WS_TRUTH_TIME_METRIC "median time (ms)"

/* Refused with a message that says where (the file's name, the row and
 * member) for anything that is not such a table: not JSON, another format,
 * a row without its pattern or numbers, text that is not clean, more than
 * WS_TRUTH_TABLE_MAX_ROWS rows or bytes beyond WS_TRUTH_TABLE_MAX_BYTES. */
#define WS_TRUTH_TABLE_MAX_ROWS 100000
#define WS_TRUTH_TABLE_MAX_BYTES (64 * 1024 * 1024)
WsTruthTable *ws_truth_table_load_data   (const char  *data,
                                          gsize        length,
                                          const char  *name,
                                          GError     **error);
WsTruthTable *ws_truth_table_load        (const char  *path,
                                          GError     **error);
/* A device's table by id ("nvidia-h200", as data/truth/ names them), or a
 * file when id_or_path names one (a '/' or ".json"). */
WsTruthTable *ws_truth_table_find        (const char  *id_or_path,
                                          GError     **error);
/* The ids of the tables shipped, sorted; never NULL. */
GStrv         ws_truth_table_list_ids    (void);
void          ws_truth_table_free        (WsTruthTable *table);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsTruthTable, ws_truth_table_free)

G_END_DECLS
