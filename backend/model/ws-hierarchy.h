/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ws-analysis.h"
#include "ws-device-profile.h"

G_BEGIN_DECLS

/* What a whole launch moves below L1, per access and in total: L1 hits,
 * L2 sectors read and written, L2 hits, DRAM bytes read and written.
 *
 * Blocks run in the order and on the SMs the hardware gives them
 * (ws-block-schedule.h); each SM has an L1 of the size the shared-memory
 * carve-out leaves, whose tags are taken when a request is made (a second
 * request for a sector in flight waits for it, and does not go to L2);
 * stores go through to L2, merged per line in a small buffer; L2 is one
 * set-associative cache of the profile's effective capacity, fetches pairs of
 * sectors (64 bytes) on a read miss, merges partial stores with byte masks,
 * and writes dirty data back when evicted or when more than
 * l2_dirty_bytes are dirty. Local memory is addressed per resident warp, as
 * the hardware lays it out. docs/hardware-model.md gives the evidence. */

typedef struct
{
  guint64 l1_sectors;          /* load sectors looked up in L1 (global and local) */
  guint64 l1_hits;             /* served by L1, or by a miss already in flight */
  guint64 l2_read_sectors;     /* lts__t_sectors_srcunit_tex_op_read */
  guint64 l2_read_requests;    /* lts__t_requests_srcunit_tex_op_read */
  guint64 l2_read_hits;        /* found in L2 */
  guint64 l2_write_sectors;    /* lts__t_sectors_srcunit_tex_op_write */
  guint64 l2_write_requests;
  guint64 l2_partial_sectors;  /* written sectors that arrived with some bytes only */
  guint64 l2_atomic_sectors;   /* lts__t_sectors_srcunit_tex_op_{atom,red} */
  guint64 dram_read_bytes;     /* dram__bytes_read */
  guint64 dram_write_bytes;    /* dram__bytes_write */
  guint64 dram_transfers;      /* reads and writes of 32 or 64 bytes */
  guint64 dram_row_misses;     /* of them, away from any DRAM row in use */
  guint64 dram_small_writes;   /* 32-byte writes whose sector pair is not all written */
} WsHierStats;

/* What the caches and the time need to know of an access: a pattern's
 * access, or a memory instruction of a kernel text. */
typedef struct
{
  WsSpace space;
  WsAccessKind kind;
  guint elem_size;
} WsAccessShape;

typedef struct
{
  WsLaunchStats *launch;       /* what L1 sees, as ws_model_analyze_launch () */
  guint n_accesses;
  WsHierStats *accesses;       /* per access of the pattern */
  WsAccessShape *shapes;       /* per access */
  WsHierStats total;
  guint blocks_per_sm;         /* resident at once */
  guint warps_per_sm;
  guint64 atomic_max_address; /* the most atomic updates one address gets (global) */
  guint64 atomic_max_slice;   /* the most atomic sector passes one L2 slice serves */
  guint64 shared_per_block;    /* bytes, the pattern's shared arrays */
  guint64 local_per_thread;    /* bytes, the pattern's private arrays */
  guint64 l1_bytes;            /* what the carve-out leaves */
  double seconds;              /* the model's own time */
} WsHierarchy;

typedef struct
{
  guint registers_per_thread;  /* 0: 32, which never limits occupancy */
  const guint64 *repeat;       /* per access: times each thread makes it (NULL: once) */
  guint64 shared_bytes;        /* per block, when more than the pattern's shared arrays */
} WsHierarchyOptions;

WsHierarchy *ws_hierarchy_analyze       (const WsPattern          *pattern,
                                         const WsDeviceProfile    *profile,
                                         const WsHierarchyOptions *options,
                                         GCancellable             *cancellable,
                                         GError                  **error);
void         ws_hierarchy_free          (WsHierarchy              *hierarchy);

/* A launch given as a stream of warp instructions, as a kernel text's VM
 * runs them, through the same caches: blocks in increasing order, each
 * warp's instructions in the order they issue. */
typedef struct _WsHierWalk WsHierWalk;

typedef struct
{
  guint n_accesses;            /* at most WS_HIER_WALK_MAX_ACCESSES */
  const WsAccessShape *shapes; /* per access */
  const guint8 *arrays;        /* per global access: its array, 0 … 126 (lines of two arrays never meet) */
  WsDim3 block;
  guint64 blocks;
  guint registers_per_thread;  /* 0: 32, which never limits occupancy */
  guint64 shared_per_block;    /* bytes */
  guint64 local_per_thread;    /* bytes of private arrays in local memory */
} WsHierWalkLaunch;

#define WS_HIER_WALK_MAX_ACCESSES 255

WsHierWalk  *ws_hier_walk_new           (const WsDeviceProfile    *profile,
                                         const WsHierWalkLaunch   *launch,
                                         GError                  **error);
/* One warp instruction: the active lanes' byte addresses from the start of
 * the access's array (global), or their byte offsets in their own private
 * array (local); other spaces only count L1's view elsewhere. */
void         ws_hier_walk_access        (WsHierWalk               *walk,
                                         guint64                   block,
                                         guint                     warp,
                                         guint                     access,
                                         guint32                   active,
                                         const gint64             *addresses);
/* The hierarchy of what was walked; takes launch, what L1 saw. */
WsHierarchy *ws_hier_walk_finish        (WsHierWalk               *walk,
                                         WsLaunchStats            *launch);
void         ws_hier_walk_free          (WsHierWalk               *walk);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsHierWalk, ws_hier_walk_free)

void         ws_hier_stats_add          (WsHierStats              *into,
                                         const WsHierStats        *from);
/* Sectors served by L1 over those looked up; 0 with none. */
double       ws_hier_stats_l1_hit_rate  (const WsHierStats        *stats);
/* L2 read sectors found in L2 over L2 read sectors; 0 with none. */
double       ws_hier_stats_l2_hit_rate  (const WsHierStats        *stats);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsHierarchy, ws_hierarchy_free)

G_END_DECLS
