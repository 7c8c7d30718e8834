/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* How many blocks and warps of a kernel an SM can hold, from its block size,
 * registers per thread and shared memory per block — the rules the CUDA
 * occupancy API applies (registers are allocated per warp in units of 256,
 * in each of the SM's four sub-partitions; shared memory per block in units
 * of 128 bytes, plus 1 KiB the system reserves on sm_80 and later). */

typedef struct
{
  int cc_major;
  int cc_minor;
  guint max_threads_per_sm;
  guint max_blocks_per_sm;
  guint registers_per_sm;
  guint registers_per_block;
  guint max_registers_per_thread;
  guint register_unit;            /* per warp */
  guint sub_partitions;
  guint shared_per_sm;            /* the largest carve-out */
  guint shared_per_block;         /* with the opt-in */
  guint shared_unit;
  guint shared_reserved_per_block;
} WsSmLimits;

typedef enum
{
  WS_OCCUPANCY_LIMIT_WARPS,
  WS_OCCUPANCY_LIMIT_BLOCKS,
  WS_OCCUPANCY_LIMIT_REGISTERS,
  WS_OCCUPANCY_LIMIT_SHARED,
} WsOccupancyLimit;

typedef struct
{
  guint blocks_per_sm;
  guint warps_per_sm;
  double occupancy;               /* resident warps / the SM's maximum */
  WsOccupancyLimit limiter;       /* what allows the fewest blocks */
  guint blocks_by[4];             /* per WsOccupancyLimit */
  guint registers_per_block;      /* as allocated */
  guint shared_per_block;         /* as allocated */
} WsOccupancy;

/* NULL for an architecture the model does not know. */
const WsSmLimits *ws_sm_limits_lookup   (int                cc_major,
                                         int                cc_minor);
gboolean          ws_occupancy_compute  (const WsSmLimits  *limits,
                                         guint              threads_per_block,
                                         guint              registers_per_thread,
                                         guint              shared_per_block,
                                         WsOccupancy       *out,
                                         GError           **error);
const char       *ws_occupancy_limit_to_string (WsOccupancyLimit limit);

G_END_DECLS
