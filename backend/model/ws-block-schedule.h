/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Where the hardware runs each block of a launch: blocks are dealt in order,
 * each to the SM that can start it first. An SM starts at most one block
 * every block_ns and holds at most slots blocks; a block keeps its slot for
 * its duration, which varies a little from block to block (a fixed pseudo-
 * random jitter, so that the result never changes between runs).
 *
 * While slots are free, the dealing is limited by the SMs' start rate and
 * goes round the SMs in turn (block b and b + SMs share one); once blocks
 * outlast slots × block_ns, each goes to whichever SM frees a slot first and
 * the order mixes — what tests/data/h200/blockmap.txt.xz shows. */

typedef struct _WsBlockSchedule WsBlockSchedule;

typedef struct
{
  guint sm;
  guint slot;          /* the block's slot on its SM: 0 … slots - 1 */
  double start_ns;
} WsBlockPlace;

WsBlockSchedule *ws_block_schedule_new    (guint            sms,
                                           guint            slots,
                                           double           block_ns,
                                           double           duration_ns,
                                           double           jitter);
void             ws_block_schedule_free   (WsBlockSchedule *schedule);
/* The next block's place; call once per block, in order. */
void             ws_block_schedule_next   (WsBlockSchedule *schedule,
                                           WsBlockPlace    *place);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsBlockSchedule, ws_block_schedule_free)

G_END_DECLS
