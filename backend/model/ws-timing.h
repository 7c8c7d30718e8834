/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-hierarchy.h"

G_BEGIN_DECLS

/* The time of a launch, from what its hierarchy moves and the device's
 * throughputs: each level's time alone (its work over its rate), the
 * slowest of them bounding the launch, plus the launch's own overhead.
 * docs/hardware-model.md says how each term was measured. */

typedef enum
{
  WS_BOUND_DRAM,
  WS_BOUND_L2,          /* sectors or requests L2 serves */
  WS_BOUND_L1,          /* lines the SMs' L1 looks up (global and local) */
  WS_BOUND_SHARED,      /* shared-memory wavefronts */
  WS_BOUND_CONSTANT,    /* constant-cache requests, one per distinct address */
  WS_BOUND_ATOMICS,     /* updates of one address, or passes over sectors of one L2 slice */
  WS_BOUND_ALU,         /* arithmetic */
  WS_BOUND_BLOCKS,      /* SMs starting blocks and warps, and their latency */
  WS_BOUND_LAUNCH,      /* nothing else: the launch itself */
  WS_N_BOUNDS
} WsBound;

/* The fences a chain of a block's can hold (after a store each). */
typedef enum
{
  WS_FENCE_BLOCK_SCOPE,     /* __threadfence_block () */
  WS_FENCE_GPU_SCOPE,       /* __threadfence () */
  WS_FENCE_SYSTEM_SCOPE,    /* __threadfence_system () */
  WS_N_FENCES
} WsFenceScope;

typedef struct
{
  double level_ms[WS_N_BOUNDS];  /* each level's time alone (launch: the overhead and copies) */
  double predicted_ms;
  double warp_instructions;      /* issued: the accesses' and the arithmetic's, all warps */
  WsBound bound;
} WsTiming;

/* The work of a launch, gathered from its phases' hierarchies (a block runs
 * its phases one after another). */
typedef struct
{
  WsHierStats mem;
  double lines;                  /* global and local lines the requests touch */
  double local_lines;            /* of them, local */
  double load_requests;          /* global and local */
  double global_load_requests;
  double tex_requests;           /* texture fetches of a warp, all warps */
  double memory_instructions;    /* the accesses' warp instructions (machine instructions), all warps */
  double wavefronts;             /* shared */
  double shared_atomic_conflicts;
  double constant_instructions;
  double constant_requests;
  double atomic_max_address;
  double atomic_max_slice;
  double block_life_ns;          /* a block's phases' latencies, one after another */
  guint64 blocks;
  guint blocks_per_sm;
  guint warps_per_block;
  double alu;                    /* warp instructions of arithmetic, all threads */
  double syncs;                  /* per block */
  double chain;                  /* dependent arithmetic instructions on a block's path */
  double shared_waits;           /* phases (times their loops) whose shared loads the block waits for */
  double shared_queue_cycles;    /* their wavefronts beyond the first, a warp's */
  double fences[WS_N_FENCES];    /* a thread's, one after another */
  double messages;               /* other blocks' flags a block waits for, one after another */
  double host_ms;                /* copies before and after, or their part that does not overlap */
  double mapped_bytes;           /* read from host memory by the kernel */
  gboolean next_waits;           /* set by the caller: the next phase added is a loop's next
                                  * iteration, whose loads wait from the start */
  guint64 next_times;            /* set by the caller: the next phase runs this often in a row
                                  * (0: once) */
  double next_together;          /* set by the caller for a loop that only loads: the loads of
                                  * global and local memory a warp waits for together in each
                                  * of those runs, which wait as long as the slowest of them,
                                  * and what the phase stores is stored once, after them (0:
                                  * the phase's loads, their latencies averaged, each run) */
} WsTimingWork;

/* Adds a phase; repeat is per access of its pattern (NULL: once). */
void         ws_timing_work_add       (WsTimingWork             *work,
                                       const WsHierarchy        *hierarchy,
                                       const guint64            *repeat,
                                       const WsDeviceProfile    *profile);
void         ws_timing_predict_work   (const WsTimingWork       *work,
                                       const WsDeviceProfile    *profile,
                                       WsTiming                 *out);
/* One hierarchy as a whole launch. */
void         ws_timing_predict        (const WsHierarchy        *hierarchy,
                                       const WsDeviceProfile    *profile,
                                       const WsHierarchyOptions *options,
                                       WsTiming                 *out);
/* "dram", "l2", "l1", "shared", "constant", "atomics", "alu", "blocks", "launch" */
const char  *ws_bound_to_string       (WsBound                   bound);
/* What the level is, in a few words, for the text output; English, marked
 * with N_() for the window to translate where it shows it. */
const char  *ws_bound_describe        (WsBound                   bound);

G_END_DECLS
