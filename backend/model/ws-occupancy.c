/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "ws-config.h"
#include "ws-occupancy.h"
#include "ws-pattern.h"

#include <glib/gi18n-lib.h>

static const WsSmLimits limits[] = {
  /* cc   threads blocks  regs/SM regs/block regs/thread unit sub  smem/SM  smem/block unit reserved */
  { 7, 5, 1024, 16, 65536, 65536, 255, 256, 4, 65536, 65536, 256, 0 },
  { 8, 0, 2048, 32, 65536, 65536, 255, 256, 4, 167936, 166912, 128, 1024 },
  { 8, 6, 1536, 16, 65536, 65536, 255, 256, 4, 102400, 101376, 128, 1024 },
  { 8, 9, 1536, 24, 65536, 65536, 255, 256, 4, 102400, 101376, 128, 1024 },
  { 9, 0, 2048, 32, 65536, 65536, 255, 256, 4, 233472, 232448, 128, 1024 },
};

const WsSmLimits *
ws_sm_limits_lookup (int cc_major,
                     int cc_minor)
{
  for (guint i = 0; i < G_N_ELEMENTS (limits); i++)
    if (limits[i].cc_major == cc_major && limits[i].cc_minor == cc_minor)
      return &limits[i];
  return NULL;
}

static guint
round_up (guint value,
          guint unit)
{
  return (value + unit - 1) / unit * unit;
}

gboolean
ws_occupancy_compute (const WsSmLimits *l,
                      guint             threads,
                      guint             registers,
                      guint             shared,
                      WsOccupancy      *out,
                      GError          **error)
{
  guint warps = (threads + 31) / 32;
  guint max_warps = l->max_threads_per_sm / 32;
  guint regs_per_warp = round_up (registers * 32, l->register_unit);
  guint shared_alloc = round_up (shared + l->shared_reserved_per_block, l->shared_unit);
  guint best = G_MAXUINT;

  g_return_val_if_fail (l != NULL && out != NULL, FALSE);

  if (threads == 0 || threads > 1024 || registers > l->max_registers_per_thread ||
      regs_per_warp * round_up (warps, l->sub_partitions) > l->registers_per_block ||
      shared_alloc > l->shared_per_block + l->shared_reserved_per_block)
    {
      g_set_error (error, WS_PATTERN_ERROR, WS_PATTERN_ERROR_INVALID,
                   /* Translators: sm_%d%d is a compute capability as CUDA names it: sm_90 */
                   _("a block of %u threads with %u registers each and %u bytes of shared memory "
                     "does not fit on an sm_%d%d multiprocessor"),
                   threads, registers, shared, l->cc_major, l->cc_minor);
      return FALSE;
    }

  out->blocks_by[WS_OCCUPANCY_LIMIT_WARPS] = max_warps / warps;
  out->blocks_by[WS_OCCUPANCY_LIMIT_BLOCKS] = l->max_blocks_per_sm;
  /* registers are allocated per warp within each of the sub-partitions */
  out->blocks_by[WS_OCCUPANCY_LIMIT_REGISTERS] =
    regs_per_warp == 0 ? G_MAXUINT
                       : (l->registers_per_sm / l->sub_partitions / regs_per_warp) * l->sub_partitions / warps;
  out->blocks_by[WS_OCCUPANCY_LIMIT_SHARED] = shared_alloc == 0 ? G_MAXUINT : l->shared_per_sm / shared_alloc;

  for (guint i = 0; i < G_N_ELEMENTS (out->blocks_by); i++)
    if (out->blocks_by[i] < best)
      {
        best = out->blocks_by[i];
        out->limiter = i;
      }
  out->blocks_per_sm = best;
  out->warps_per_sm = best * warps;
  out->occupancy = (double) out->warps_per_sm / max_warps;
  out->registers_per_block = regs_per_warp * warps;
  out->shared_per_block = shared_alloc;
  return TRUE;
}

const char *
ws_occupancy_limit_to_string (WsOccupancyLimit limit)
{
  static const char *names[] = { "warps per SM", "blocks per SM", "registers", "shared memory" };

  g_return_val_if_fail (limit < G_N_ELEMENTS (names), NULL);
  return names[limit];
}
