/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Atomics: one address, one per thread, histograms in global and shared
 * memory, warp aggregation and a compare-and-swap loop. Outputs are zeroed
 * before the verified launch; the timed launches keep adding to them. */
#include "ws-config.h"
#include "ws-gpu-private.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

enum { SEED_IN = 1 };

static guint32
input (gsize k)
{
  return ws_value (k, SEED_IN);
}

static gint64
bins_of (WsRun *run)
{
  return run->info->n_params > 1 ? run->p[1] : 1;
}

static gsize
out_words (WsRun *run)
{
  switch (run->ops->variant)
    {
    case WS_ATOMICS_DISTINCT:
      return run->n;
    case WS_ATOMICS_HISTOGRAM:
    case WS_ATOMICS_SHARED:
      return bins_of (run);
    default:
      return 1;
    }
}

static void
atomics_launch (WsRun *run)
{
  ws_launch_atomics (run->ops->variant, run->d[0], run->d[1], run->n, bins_of (run), 0, &run->shape);
}

static gboolean
atomics_prepare (WsRun   *run,
                 GError **error)
{
  gsize words;

  run->n = ws_run_param (run, "N");
  words = out_words (run);
  /* only the kernel that streams has a bandwidth worth the name */
  run->bytes = run->ops->variant == WS_ATOMICS_DISTINCT ? 8 * run->n : 0;
  run->launch = atomics_launch;
  if (run->ops->variant == WS_ATOMICS_SHARED && bins_of (run) > WS_ATOMICS_MAX_BINS)
    return ws_run_set_error (run, error, _("at most %d bins fit in shared memory"), WS_ATOMICS_MAX_BINS);
  run->d[0] = ws_gpu_buffer (0, run->n * 4, error);
  run->d[1] = run->d[0] ? ws_gpu_buffer (1, words * 4, error) : NULL;
  return run->d[1] != NULL &&
         ws_gpu_fill (run->d[0], run->n, SEED_IN, error) &&
         ws_gpu_set_bytes (run->d[1], 0, words * 4, error);
}

static guint32
distinct_expect (gsize    k,
                 gpointer data)
{
  return input (k);
}

static guint32
histogram_expect (gsize    b,
                  gpointer data)
{
  WsRun *run = data;
  gint64 bins = bins_of (run);

  return (guint32) (run->n / bins + ((gint64) b < run->n % bins));
}

static guint32
single_expect (gsize    k,
               gpointer data)
{
  WsRun *run = data;
  guint32 sum = 0;
  float max = 0;

  if (run->ops->variant != WS_ATOMICS_CAS_LOOP)
    {
      for (gint64 i = 0; i < run->n; i++)
        sum += input (i) & 0xff;
      return sum;
    }
  for (gint64 i = 0; i < run->n; i++)
    max = fmaxf (max, (float) (input (i) & 0xffffff) * (1.0f / 16777216.0f));
  memcpy (&sum, &max, sizeof sum);
  return sum;
}

static gboolean
atomics_verify (WsRun   *run,
                GError **error)
{
  WsExpectFunc expect;

  switch (run->ops->variant)
    {
    case WS_ATOMICS_DISTINCT:
      expect = distinct_expect;
      break;
    case WS_ATOMICS_HISTOGRAM:
    case WS_ATOMICS_SHARED:
      expect = histogram_expect;
      break;
    default:
      expect = single_expect;
      break;
    }
  return ws_run_verify_words (run, "out", run->d[1], out_words (run), expect, run, error);
}

static const WsKernelOps ops[] = {
  { "atomics/one-address", WS_ATOMICS_ONE_ADDRESS, atomics_prepare, atomics_verify },
  { "atomics/distinct", WS_ATOMICS_DISTINCT, atomics_prepare, atomics_verify },
  { "atomics/histogram", WS_ATOMICS_HISTOGRAM, atomics_prepare, atomics_verify },
  { "atomics/shared", WS_ATOMICS_SHARED, atomics_prepare, atomics_verify },
  { "atomics/warp-aggregated", WS_ATOMICS_WARP_AGGREGATED, atomics_prepare, atomics_verify },
  { "atomics/cas-loop", WS_ATOMICS_CAS_LOOP, atomics_prepare, atomics_verify },
};

const WsKernelOps *
ws_gpu_atomics_ops (const char *id)
{
  for (guint i = 0; i < G_N_ELEMENTS (ops); i++)
    if (g_str_equal (ops[i].id, id))
      return &ops[i];
  return NULL;
}
