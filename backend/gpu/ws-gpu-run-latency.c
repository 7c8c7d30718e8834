/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Occupancy and ILP: the latency kernels of ws-kernels-ilp.cu, one wave of
 * as many blocks as fit on every SM. What fits is set by the preset: the
 * registers each thread holds, dynamic shared memory per block (a dial that
 * nothing reads), or a number of resident warps that the dial is turned to.
 * The work — N 16-byte elements summed — is the same whatever the setting. */
#include "ws-config.h"
#include "ws-gpu-private.h"

#include <glib/gi18n-lib.h>

enum { SEED_IN = 1 };

/* blocks of this many threads when the preset asks for a number of warps */
#define WARPS_BLOCK 128

typedef enum
{
  LATENCY_REGISTERS,
  LATENCY_SHARED,
  LATENCY_SATURATION,
  LATENCY_ILP,
  LATENCY_UNROLL,
} LatencyPreset;

typedef struct
{
  int kernel;                  /* WS_LATENCY_* */
  int param;                   /* its ilp, unroll or register budget */
  int block;
  gsize dial;
  int blocks;                  /* the whole grid: blocks per SM × SMs */
  int held;                    /* values the hold kernel keeps */
} LatencyRun;

static int
budget_for (gint64 registers)
{
  for (int i = 0; i < ws_latency_n_budgets; i++)
    if (ws_latency_budgets[i] >= registers)
      return ws_latency_budgets[i];
  return ws_latency_budgets[ws_latency_n_budgets - 1];
}

static void
latency_launch (WsRun *run)
{
  LatencyRun *l = run->data;

  ws_launch_latency (l->kernel, l->param, run->d[0], run->d[1], run->n, l->blocks, l->block, l->dial, 0,
                     &run->shape);
}

static gboolean
blocks_per_sm (const void *func,
               int         block,
               gsize       dial,
               int        *blocks,
               GError    **error)
{
  return ws_gpu_check (cudaOccupancyMaxActiveBlocksPerMultiprocessor (blocks, func, block, dial),
                       "cudaOccupancyMaxActiveBlocksPerMultiprocessor", error);
}

static gboolean set_dial_attributes (const void *func,
                                     gsize       dial,
                                     GError    **error);

/* Dynamic shared memory for exactly `want` blocks of the kernel per SM:
 * the SM's shared memory shared out, less what the system reserves per
 * block, then nudged until the occupancy API agrees. */
static gboolean
dial_for (WsRun      *run,
          const void *func,
          int         block,
          int         want,
          gsize      *dial,
          GError    **error)
{
  int per_sm = 0, reserved = 0, optin = 0, got = 0;

  cudaDeviceGetAttribute (&per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, 0);
  cudaDeviceGetAttribute (&reserved, cudaDevAttrReservedSharedMemoryPerBlock, 0);
  cudaDeviceGetAttribute (&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0);
  *dial = (gsize) MAX (0, (per_sm / want) / 128 * 128 - reserved);
  /* beyond 48 KB a block may have dynamic shared memory only once allowed:
   * until then the occupancy API says that none fits */
  if (!set_dial_attributes (func, (gsize) MAX (0, optin), error))
    return FALSE;
  for (int tries = 0; tries < 64; tries++)
    {
      if (!blocks_per_sm (func, block, *dial, &got, error))
        return FALSE;
      if (got == want)
        return TRUE;
      if (got > want)
        *dial += 128;
      else if (*dial >= 128)
        *dial -= 128;
      else
        break;
    }
  /* Translators: blocks wanted per SM, threads per block, then the most blocks an SM can run */
  return ws_run_set_error (run, error, _("no amount of shared memory gives %d blocks of %d threads per SM (%d at most)"), want, block, got);
}

static gboolean
set_dial_attributes (const void *func,
                     gsize       dial,
                     GError    **error)
{
  /* all of the unified L1 that may be shared memory is: a fixed split, so
   * that the dial alone decides how many blocks fit */
  return ws_gpu_check (cudaFuncSetAttribute (func, cudaFuncAttributePreferredSharedMemoryCarveout,
                                             cudaSharedmemCarveoutMaxShared),
                       _("setting the shared-memory carveout"), error) &&
         ws_gpu_check (cudaFuncSetAttribute (func, cudaFuncAttributeMaxDynamicSharedMemorySize, (int) dial),
                       _("allowing dynamic shared memory"), error);
}

static gboolean
choose_kernel (WsRun      *run,
               LatencyRun *l,
               GError    **error)
{
  gint64 v;

  l->kernel = WS_LATENCY_ILP;
  l->param = 1;
  l->block = WS_BLOCK;
  switch (run->ops->variant)
    {
    case LATENCY_REGISTERS:
      l->kernel = WS_LATENCY_HOLD;
      l->param = budget_for (ws_run_param (run, "registers"));
      l->held = ws_latency_hold_values (l->param);
      break;
    case LATENCY_SHARED:
      l->dial = (gsize) ws_run_param (run, "shared");
      break;
    case LATENCY_ILP:
    case LATENCY_UNROLL:
      l->kernel = run->ops->variant == LATENCY_ILP ? WS_LATENCY_ILP : WS_LATENCY_UNROLL;
      v = ws_run_param (run, run->ops->variant == LATENCY_ILP ? "ilp" : "unroll");
      if (v != 1 && v != 2 && v != 4 && v != 8)
        /* Translators: ilp or unroll, the kernel's parameter, then its value */
        return ws_run_set_error (run, error, _("%s = %lld is not 1, 2, 4 or 8"),
                                 run->ops->variant == LATENCY_ILP ? "ilp" : "unroll", (long long) v);
      l->param = (int) v;
      G_GNUC_FALLTHROUGH;
    default:
      l->block = WARPS_BLOCK;
      break;
    }
  return TRUE;
}

static gboolean
shape_grid (WsRun      *run,
            LatencyRun *l,
            GError    **error)
{
  const void *func = ws_latency_func (l->kernel, l->param);
  int per_sm = 0;

  g_assert (func != NULL);
  if (l->block == WARPS_BLOCK)
    {
      gint64 warps = ws_run_param (run, "warps");
      if (warps % (WARPS_BLOCK / 32) != 0)
        /* Translators: warps is the kernel's parameter */
        return ws_run_set_error (run, error, _("warps = %lld is not a multiple of %d (blocks of %d threads)"), (long long) warps, WARPS_BLOCK / 32, WARPS_BLOCK);
      if (!dial_for (run, func, l->block, (int) warps / (WARPS_BLOCK / 32), &l->dial, error))
        return FALSE;
    }
  if (!set_dial_attributes (func, l->dial, error) || !blocks_per_sm (func, l->block, l->dial, &per_sm, error))
    return FALSE;
  if (per_sm == 0)
    return ws_run_set_error (run, error, _("a block of %d threads with %llu bytes of shared memory does not fit on an SM"), l->block, (unsigned long long) l->dial);
  l->blocks = per_sm * ws_gpu_device ()->sm_count;
  run->note = g_strdup_printf ("%d blocks of %d threads per SM (%d warps)%s%s, one wave of %d blocks",
                               per_sm, l->block, per_sm * l->block / 32, l->dial ? ", " : "",
                               l->dial ? "dynamic shared memory per block as set" : "", l->blocks);
  if (l->kernel == WS_LATENCY_HOLD)
    {
      g_autofree char *old = run->note;
      run->note = g_strdup_printf ("%s; compiled for a budget of %d registers, %d values held", old, l->param, l->held);
    }
  return TRUE;
}

static gboolean
latency_prepare (WsRun   *run,
                 GError **error)
{
  LatencyRun *l = g_new0 (LatencyRun, 1);
  gsize threads;

  run->data = l;
  run->data_free = g_free;
  run->n = ws_run_param (run, "N");
  if (!choose_kernel (run, l, error) || !shape_grid (run, l, error))
    return FALSE;
  threads = (gsize) l->blocks * l->block;
  run->bytes = 16 * run->n + 4 * threads;
  run->launch = latency_launch;
  return ws_run_alloc_in_out (run, 4 * run->n, threads, SEED_IN, error);
}

static guint32
element (gsize j)
{
  return ws_value (4 * j, SEED_IN) + ws_value (4 * j + 1, SEED_IN) + ws_value (4 * j + 2, SEED_IN) +
         ws_value (4 * j + 3, SEED_IN);
}

/* what thread t holds as value k: word k * block + its lane in the block,
 * of the input's words (the kernel reads a line per warp and value) */
static guint32
held_value (const WsRun *run,
            const LatencyRun *l,
            gsize        t,
            int          k)
{
  gsize word = ((gsize) k * l->block + t % l->block) % (4 * (gsize) run->n);

  return ws_value (word, SEED_IN) ^ (guint32) t;
}

static guint32
latency_expect (gsize    t,
                gpointer data)
{
  WsRun *run = data;
  LatencyRun *l = run->data;
  gsize threads = (gsize) l->blocks * l->block;
  guint32 acc = 0, held_sum = 0;

  for (int k = 0; k < l->held; k++)
    held_sum += held_value (run, l, t, k);
  for (gsize j = t; j < (gsize) run->n; j += threads)
    {
      acc += element (j);
      if (l->kernel == WS_LATENCY_HOLD && ws_value (4 * j, SEED_IN) == WS_LATENCY_MAGIC)
        acc += held_sum;
    }
  for (int k = 0; k < l->held; k++)
    acc = (acc ^ held_value (run, l, t, k)) * WS_LATENCY_FOLD;
  return acc;
}

static gboolean
latency_verify (WsRun   *run,
                GError **error)
{
  LatencyRun *l = run->data;

  return ws_run_verify_words (run, "out", run->d[1], (gsize) l->blocks * l->block, latency_expect, run, error);
}

static const WsKernelOps ops[] = {
  { "occupancy/registers", LATENCY_REGISTERS, latency_prepare, latency_verify },
  { "occupancy/shared", LATENCY_SHARED, latency_prepare, latency_verify },
  { "occupancy/saturation", LATENCY_SATURATION, latency_prepare, latency_verify },
  { "ilp/loads", LATENCY_ILP, latency_prepare, latency_verify },
  { "ilp/unroll", LATENCY_UNROLL, latency_prepare, latency_verify },
};

const WsKernelOps *
ws_gpu_latency_ops (const char *id)
{
  for (guint i = 0; i < G_N_ELEMENTS (ops); i++)
    if (g_str_equal (ops[i].id, id))
      return &ops[i];
  return NULL;
}
