/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ws-pattern.h"

G_BEGIN_DECLS

/* What the hardware does for one warp-level memory instruction, and for a
 * whole block or launch.
 *
 * The rules are those measured on real GPUs with Nsight Compute's counters
 * (see docs/hardware-model.md):
 *   global   one request per instruction; sectors = distinct 32-byte sectors;
 *            atomics serialise lanes on the same address within a sector.
 *   shared   32 banks of 4 bytes; wavefronts = the most distinct words any
 *            bank must deliver, per phase. 1-4 byte accesses are one phase;
 *            8-byte accesses two phases of 16 lanes, 16-byte four of 8 — loads
 *            whose lane pairs (2k, 2k+1) share an address need half as many.
 *   local    word w of lane l lives at (w * 32 + l) * 4 in the warp's slice;
 *            one request per 4 bytes of the element.
 *   constant one serialised request per distinct address.
 */

typedef enum
{
  WS_STEP_SECTOR,      /* a 32-byte sector moved (global, local) */
  WS_STEP_WAVEFRONT,   /* a shared-memory wavefront */
  WS_STEP_ADDRESS,     /* one distinct address served (constant) */
  WS_STEP_ATOMIC,      /* one round of serialised atomic updates in a sector */
  WS_STEP_REGISTER,    /* no memory instruction: the value lives in registers */
} WsStepKind;

typedef struct
{
  WsStepKind kind;
  guint32 lanes;       /* lanes served in this step */
  gint64 address;      /* sector start, word address or atomic address */
  guint16 phase;       /* shared: phase (0 for accesses of 4 bytes or less) */
  guint16 round;       /* atomics: serialisation round within the sector */
  guint32 banks;       /* shared: banks this wavefront uses */
} WsStep;

typedef struct
{
  guint32 requests;
  guint32 sectors;
  guint32 lines;
  guint32 bytes_requested;   /* distinct bytes the lanes asked for */
  guint32 bytes_moved;       /* sectors × 32 */
  guint32 wavefronts;
  guint32 ideal_wavefronts;
  guint32 distinct_addresses;
  guint32 replays;
  guint32 atomic_conflicts;  /* active lanes beyond one per distinct address */
  guint32 atomic_depth;      /* the most lanes on one address */
} WsWarpCounts;

typedef struct
{
  guint access;
  WsDim3 block_idx;
  guint warp;
  WsSpace space;
  WsAccessKind kind;
  guint elem_size;
  guint32 valid;          /* lanes that exist (a partial last warp has fewer) */
  guint32 active;         /* valid lanes whose guard holds */
  gint64 index[WS_WARP_SIZE];
  /* byte address: from the start of the array (global, shared, constant), in
   * the warp's interleaved slice (local) */
  gint64 address[WS_WARP_SIZE];
  gint64 private_offset[WS_WARP_SIZE];   /* local: the byte offset in the thread's own array */
  guint8 bank[WS_WARP_SIZE];             /* shared: the bank of the lane's first word */
  WsWarpCounts counts;
  GArray *steps;          /* WsStep, in the order the hardware serves them */
} WsWarpResult;

typedef struct
{
  guint64 instructions;       /* warp instructions with at least one active lane */
  guint64 active_lanes;
  guint64 requests;
  guint64 sectors;
  guint64 lines;
  guint64 bytes_requested;
  guint64 bytes_moved;
  guint64 wavefronts;
  guint64 ideal_wavefronts;
  guint64 distinct_addresses;
  guint64 replays;
  guint64 atomic_conflicts;
  gint64 min_address;         /* extent touched: [min_address, end_address) */
  gint64 end_address;
} WsStats;

typedef struct
{
  WsPattern *pattern;
  guint n_accesses;
  WsStats *accesses;
  WsStats total;
  guint64 blocks;
  guint64 warps;
  guint64 threads;
  gdouble seconds;
} WsLaunchStats;

WsWarpResult  *ws_model_analyze_warp     (const WsPattern *pattern,
                                          guint            access,
                                          WsDim3           block_idx,
                                          guint            warp,
                                          GError         **error);
WsLaunchStats *ws_model_analyze_block    (const WsPattern *pattern,
                                          WsDim3           block_idx,
                                          GError         **error);
/* The most threads the model analyses in one launch: 2^32, a few
 * minutes of work at most. A larger launch is refused with an error that
 * says so (CUDA allows grids of 2^31 × 65535 × 65535 blocks). */
#define WS_MODEL_MAX_THREADS (G_GUINT64_CONSTANT (1) << 32)
/* And the most warps: the model's work is per warp, and a block of one
 * thread is a warp of its own (2^31 of them took 200 s). 2^27 is the
 * warps of the largest launch in full warps, so that no launch takes
 * longer than that one; a larger launch is refused at once with the time
 * it would take. */
#define WS_MODEL_MAX_WARPS (WS_MODEL_MAX_THREADS / 32)

WsLaunchStats *ws_model_analyze_launch   (const WsPattern *pattern,
                                          GCancellable    *cancellable,
                                          GError         **error);

/* How far an analysis has got, for progress on another thread: blocks
 * done of blocks_total, both read with g_atomic_pointer_get (). */
typedef struct
{
  gint64 blocks_done;
  gint64 blocks_total;
} WsAnalysisProgress;

WsLaunchStats *ws_model_analyze_launch_full (const WsPattern    *pattern,
                                             GCancellable       *cancellable,
                                             WsAnalysisProgress *progress,
                                             GError            **error);

void           ws_warp_result_free       (WsWarpResult    *result);
/* Step i of the schedule: which lanes are served together, and where. */
const WsStep  *ws_warp_result_step       (const WsWarpResult *result,
                                          guint               i);
void           ws_launch_stats_free      (WsLaunchStats   *stats);

/* Counts for one set of addresses, without a pattern (used by tests and by
 * the views that show a single warp). addresses are byte addresses, or
 * private byte offsets for local memory. steps may be NULL. */
void           ws_model_count_warp       (WsSpace          space,
                                          WsAccessKind     kind,
                                          guint            elem_size,
                                          guint32          active,
                                          const gint64    *addresses,
                                          WsWarpCounts    *counts,
                                          GArray          *steps);

gdouble        ws_stats_sectors_per_request      (const WsStats *stats);
gdouble        ws_stats_efficiency               (const WsStats *stats);
gdouble        ws_stats_wavefronts_per_instruction (const WsStats *stats);
gdouble        ws_stats_distinct_per_instruction (const WsStats *stats);
gdouble        ws_stats_replays_per_instruction  (const WsStats *stats);
guint64        ws_stats_bank_conflicts           (const WsStats *stats);
void           ws_stats_add                      (WsStats       *into,
                                                  const WsStats *from);

const char    *ws_step_kind_to_string            (WsStepKind     kind);

/* How many machine instructions the compiler makes of one access: a 16-byte
 * constant load becomes four 4-byte LDCs (seen in the SASS of sm_90 with
 * CUDA 13.0); everything else is one. */
guint          ws_access_machine_instructions    (WsSpace        space,
                                                  WsAccessKind   kind,
                                                  guint          elem_size);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsWarpResult, ws_warp_result_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsLaunchStats, ws_launch_stats_free)

G_END_DECLS
