/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The L2 residency estimate, worked by hand for an H100-like L2 (50 MiB,
 * 37.5 MiB set aside) and the l2/ kernel, whose stream moves twice the hot
 * set between two reads of a hot line. */
#include "ws-l2-window.h"

#define MIB (G_GINT64_CONSTANT (1) << 20)

static WsL2Window
window (gint64 hot,
        gboolean with_window,
        double   hit_ratio)
{
  return (WsL2Window) { 50 * MIB, with_window ? 75 * MIB / 2 : 0, with_window ? hot : 0, hit_ratio, hot, 2 * hot };
}

static void
test_small_hot_set_stays_either_way (void)
{
  WsL2Window w = window (8 * MIB, FALSE, 0);
  WsL2Residency r;

  /* 8 MiB hot, 16 MiB streamed between reuses: 24 MiB fit in 50 */
  ws_l2_residency (&w, &r);
  g_assert_cmpfloat (r.resident_fraction, ==, 1);
  w = window (8 * MIB, TRUE, 1);
  ws_l2_residency (&w, &r);
  g_assert_cmpint (r.persisting_resident, ==, 8 * MIB);
  g_assert_false (r.thrashing);
  g_assert_cmpfloat (r.resident_fraction, ==, 1);
}

static void
test_window_keeps_what_the_stream_evicts (void)
{
  WsL2Window w = window (24 * MIB, FALSE, 0);
  WsL2Residency r;

  /* without a window: 24 + 48 MiB do not fit in 50 */
  ws_l2_residency (&w, &r);
  g_assert_cmpfloat (r.resident_fraction, ==, 0);
  /* with one, all 24 MiB persist in the 37.5 MiB set aside */
  w = window (24 * MIB, TRUE, 1);
  ws_l2_residency (&w, &r);
  g_assert_cmpint (r.persisting_resident, ==, 24 * MIB);
  g_assert_cmpint (r.normal_bytes, ==, 0);
  g_assert_cmpfloat (r.resident_fraction, ==, 1);
}

static void
test_too_much_persisting_thrashes (void)
{
  WsL2Window w = window (48 * MIB, TRUE, 1);
  WsL2Residency r;

  ws_l2_residency (&w, &r);
  g_assert_true (r.thrashing);
  g_assert_cmpint (r.persisting_resident, ==, 0);
  /* a hit ratio that fits the set-aside keeps that part */
  w = window (48 * MIB, TRUE, 0.75);
  ws_l2_residency (&w, &r);
  g_assert_false (r.thrashing);
  g_assert_cmpint (r.persisting_resident, ==, 36 * MIB);
  g_assert_cmpint (r.normal_bytes, ==, 12 * MIB);
  /* the other 12 MiB and the 96 MiB streamed do not fit in the 14 MiB left */
  g_assert_cmpint (r.normal_capacity, ==, 14 * MIB);
  g_assert_cmpint (r.normal_resident, ==, 0);
  g_assert_cmpfloat_with_epsilon (r.resident_fraction, 0.75, 1e-12);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/l2-window/small-hot-set", test_small_hot_set_stays_either_way);
  g_test_add_func ("/l2-window/window-keeps", test_window_keeps_what_the_stream_evicts);
  g_test_add_func ("/l2-window/thrashing", test_too_much_persisting_thrashes);
  return g_test_run ();
}
