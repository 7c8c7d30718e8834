/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "ws-occupancy.h"
#include "ws-pattern.h"

typedef struct
{
  int major, minor;
  guint threads, registers, shared;
  guint blocks;
  WsOccupancyLimit limiter;
} Case;

/* Worked by hand from the allocation rules (see ws-occupancy.h). */
static const Case cases[] = {
  /* H100: 256 threads, 32 registers: 8 blocks of 8 warps fill all 64 warp slots */
  { 9, 0, 256, 32, 0, 8, WS_OCCUPANCY_LIMIT_WARPS },
  /* 255 registers → 8192 per warp → 2 warps per sub-partition → 8 warps: one block */
  { 9, 0, 256, 255, 0, 1, WS_OCCUPANCY_LIMIT_REGISTERS },
  /* 40 registers → 1280 per warp → 12 warps per sub-partition → 48 warps: 6 blocks */
  { 9, 0, 256, 40, 0, 6, WS_OCCUPANCY_LIMIT_REGISTERS },
  /* 64 KiB of shared memory + 1 KiB reserved: 3 blocks in 228 KiB */
  { 9, 0, 128, 16, 65536, 3, WS_OCCUPANCY_LIMIT_SHARED },
  /* tiny blocks run into the 32-block limit */
  { 9, 0, 32, 16, 0, 32, WS_OCCUPANCY_LIMIT_BLOCKS },
  /* RTX 30 (sm_86): 1536 threads per SM, so 6 blocks of 256 */
  { 8, 6, 256, 32, 0, 6, WS_OCCUPANCY_LIMIT_WARPS },
  /* Turing: 1024 threads, 16 blocks */
  { 7, 5, 32, 32, 0, 16, WS_OCCUPANCY_LIMIT_BLOCKS },
};

static void
test_cases (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const Case *c = &cases[i];
      const WsSmLimits *l = ws_sm_limits_lookup (c->major, c->minor);
      g_autoptr (GError) error = NULL;
      WsOccupancy o;

      g_assert_nonnull (l);
      g_assert_true (ws_occupancy_compute (l, c->threads, c->registers, c->shared, &o, &error));
      g_assert_no_error (error);
      g_test_message ("sm_%d%d %u threads %u regs %u B → %u blocks (%s)", c->major, c->minor, c->threads,
                      c->registers, c->shared, o.blocks_per_sm, ws_occupancy_limit_to_string (o.limiter));
      g_assert_cmpuint (o.blocks_per_sm, ==, c->blocks);
      g_assert_cmpuint (o.limiter, ==, c->limiter);
      g_assert_cmpuint (o.warps_per_sm, ==, c->blocks * ((c->threads + 31) / 32));
    }
}

static void
test_does_not_fit (void)
{
  const WsSmLimits *h100 = ws_sm_limits_lookup (9, 0);
  g_autoptr (GError) error = NULL;
  WsOccupancy o;

  /* 1024 threads × 65 registers round to 2304 per warp × 32 warps > 65536 */
  g_assert_false (ws_occupancy_compute (h100, 1024, 65, 0, &o, &error));
  g_assert_error (error, WS_PATTERN_ERROR, WS_PATTERN_ERROR_INVALID);
  g_clear_error (&error);
  g_assert_true (ws_occupancy_compute (h100, 1024, 64, 0, &o, &error));
  g_assert_cmpuint (o.blocks_per_sm, ==, 1);
  g_assert_false (ws_occupancy_compute (h100, 256, 32, 240 * 1024, &o, &error));
  g_clear_error (&error);
  g_assert_null (ws_sm_limits_lookup (5, 0));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/occupancy/cases", test_cases);
  g_test_add_func ("/occupancy/does-not-fit", test_does_not_fit);
  return g_test_run ();
}
