/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Kernels whose cost is on the chip: shared-memory banks, constant memory,
 * private arrays in registers, local or shared memory, spills, and the
 * shared-memory merge. */
#include "ws-config.h"
#include "ws-gpu-private.h"

#include <glib/gi18n-lib.h>

enum { SEED_IN = 1, SEED_BANKS = 3, SEED_CONSTANT = 4 };

/* the variant of the private-array kernels with an array size of its own */
#define PRIVATE_SIZE 100

static guint32
input (gsize k)
{
  return ws_value (k, SEED_IN);
}

/* ------------------------------------------------------------------ */
/* Shared-memory banks                                                */
/* ------------------------------------------------------------------ */

static int
banks_threads (int variant)
{
  return variant == WS_BANKS_SWIZZLE ? 1024 : WS_BLOCK;
}

static int
banks_words (int variant)
{
  return variant == WS_BANKS_ELEM8 ? 2 : variant == WS_BANKS_ELEM16 ? 4 : 1;
}

/* the stride or padding of the preset's index */
static gint64
banks_param (WsRun *run)
{
  switch (run->ops->variant)
    {
    case WS_BANKS_PADDING:
      return ws_run_param (run, "pad");
    case WS_BANKS_STRIDE:
    case WS_BANKS_ELEM8:
    case WS_BANKS_ELEM16:
      return ws_run_param (run, "stride");
    default:
      return 0;
    }
}

static gboolean
check_loads (WsRun   *run,
             GError **error)
{
  gint64 loads = ws_run_param (run, "loads");

  if (loads % 32 != 0)
    /* Translators: loads is the kernel's parameter */
    return ws_run_set_error (run, error, _("loads = %lld is not a multiple of 32"), (long long) loads);
  return TRUE;
}

static void
banks_launch (WsRun *run)
{
  ws_launch_banks (run->ops->variant, run->d[1], banks_param (run), ws_run_param (run, "loads"), SEED_BANKS, 0,
                   &run->shape);
}

static gboolean
banks_prepare (WsRun   *run,
               GError **error)
{
  int variant = run->ops->variant;

  if (!check_loads (run, error))
    return FALSE;
  run->n = (gint64) WS_BANKS_BLOCKS * banks_threads (variant);
  /* shared-memory bytes the lanes ask for: the bandwidth is shared memory's */
  run->bytes = run->n * ws_run_param (run, "loads") * 4 * banks_words (variant);
  run->note = g_strdup ("bytes are those the lanes ask of shared memory");
  run->launch = banks_launch;
  run->d[1] = ws_gpu_buffer (1, run->n * 4, error);
  return run->d[1] && ws_gpu_set_bytes (run->d[1], WS_POISON_BYTE, run->n * 4, error);
}

static guint32
banks_expect (gsize    k,
              gpointer data)
{
  WsRun *run = data;
  int variant = run->ops->variant;
  int per = banks_words (variant), wrap = WS_BANKS_WORDS / per, shift = 32 / per;
  int tid = k % banks_threads (variant);
  int tx = variant == WS_BANKS_SWIZZLE ? tid % 32 : tid, ty = tid / 32;
  gint64 param = banks_param (run);
  guint32 sum = 0;
  int idx;

  switch (variant)
    {
    case WS_BANKS_BROADCAST:
      idx = tx / 32;
      break;
    case WS_BANKS_PADDING:
      idx = tx % 32 * (32 + param);
      break;
    case WS_BANKS_SWIZZLE:
      idx = tx * 32 + (ty ^ tx);
      break;
    default:
      idx = (tx * param) & (wrap - 1);
      break;
    }
  for (int u = 0; u < WS_BANKS_UNROLL; u++)
    for (int c = 0; c < per; c++)
      sum += ws_value ((idx + u * shift) * per + c, SEED_BANKS);
  return sum * (guint32) (ws_run_param (run, "loads") / WS_BANKS_UNROLL);
}

static gboolean
banks_verify (WsRun   *run,
              GError **error)
{
  return ws_run_verify_words (run, "out", run->d[1], run->n, banks_expect, run, error);
}

/* ------------------------------------------------------------------ */
/* Constant memory                                                    */
/* ------------------------------------------------------------------ */

typedef struct
{
  guint32 table[WS_CONSTANT_WORDS];
  guint32 sums[32];            /* what a thread with each base adds up */
} ConstantRun;

static gint64
constant_distinct (WsRun *run)
{
  return ws_kernel_info_get_param (run->info, "distinct") ? ws_run_param (run, "distinct") : 0;
}

static void
constant_launch (WsRun *run)
{
  ws_launch_constant (constant_distinct (run), ws_run_param (run, "loads"), run->d[1], 0, &run->shape);
}

static gboolean
constant_prepare (WsRun   *run,
                  GError **error)
{
  ConstantRun *c;
  gint64 loads = ws_run_param (run, "loads");

  if (!check_loads (run, error))
    return FALSE;
  c = g_new0 (ConstantRun, 1);
  run->data = c;
  run->data_free = g_free;
  for (guint k = 0; k < WS_CONSTANT_WORDS; k++)
    c->table[k] = ws_value (k, SEED_CONSTANT);
  for (guint base = 0; base < 32; base++)
    for (guint q = 0; q < loads / 32; q++)
      for (guint u = 0; u < 32; u++)
        c->sums[base] += c->table[base + 32 * ((q + u) & 63)];
  run->n = (gint64) WS_CONSTANT_BLOCKS * WS_BLOCK;
  run->bytes = run->n * loads * 4;
  run->note = g_strdup ("bytes are those the lanes ask of constant memory");
  run->launch = constant_launch;
  run->d[1] = ws_gpu_buffer (1, run->n * 4, error);
  return run->d[1] &&
         ws_gpu_check (ws_constant_upload (c->table, 0), _("filling constant memory"), error) &&
         ws_gpu_set_bytes (run->d[1], WS_POISON_BYTE, run->n * 4, error);
}

static guint32
constant_expect (gsize    k,
                 gpointer data)
{
  WsRun *run = data;
  ConstantRun *c = run->data;
  gint64 distinct = constant_distinct (run);
  int base = distinct > 0 ? (int) (k % 32 % distinct) : (int) (k % WS_BLOCK / 32);

  return c->sums[base];
}

static gboolean
constant_verify (WsRun   *run,
                 GError **error)
{
  return ws_run_verify_words (run, "out", run->d[1], run->n, constant_expect, run, error);
}

/* ------------------------------------------------------------------ */
/* Private arrays                                                     */
/* ------------------------------------------------------------------ */

/* the kernel's own parameter: the static index, the distinct indices, or
 * the array size */
static gint64
private_k (WsRun *run)
{
  return run->info->n_params > 1 ? run->p[1] : 0;
}

static void
private_launch (WsRun *run)
{
  if (run->ops->variant == PRIVATE_SIZE)
    ws_launch_private_size ((int) private_k (run), run->d[0], run->d[1], run->n, 0, &run->shape);
  else
    ws_launch_private (run->ops->variant, run->d[0], run->d[1], run->n, private_k (run), 0, &run->shape);
}

static gboolean
private_check (WsRun   *run,
               GError **error)
{
  gint64 k = private_k (run);
  int i;

  switch (run->ops->variant)
    {
    case WS_PRIVATE_DISTINCT:
      if (k < 1 || k > 32)
        /* Translators: distinct is the kernel's parameter */
        return ws_run_set_error (run, error, _("distinct = %lld is not 1 to 32"), (long long) k);
      return TRUE;
    case PRIVATE_SIZE:
      for (i = 0; i < ws_private_n_sizes && ws_private_sizes[i] != k; i++)
        ;
      if (i == ws_private_n_sizes)
        /* Translators: size is the kernel's parameter */
        return ws_run_set_error (run, error, _("size = %lld is not one of the sizes compiled (4, 8, 16, 32, 64, 96, 128, 160, 192, 256)"), (long long) k);
      run->note = g_strdup_printf ("%" G_GINT64_FORMAT " words per thread, each read %d times", k,
                                   WS_PRIVATE_SIZE_ROUNDS);
      return TRUE;
    case WS_PRIVATE_CARVEOUT:
      if (k < 0 || k > 100)
        /* Translators: carveout is the kernel's parameter */
        return ws_run_set_error (run, error, _("carveout = %lld is not a percentage"), (long long) k);
      run->note = g_strdup_printf ("%" G_GINT64_FORMAT " %% of the unified L1 preferred as shared memory", k);
      return ws_gpu_check (cudaFuncSetAttribute (ws_private_carveout_func (),
                                                 cudaFuncAttributePreferredSharedMemoryCarveout, (int) k),
                           _("setting the shared-memory carveout"), error);
    default:
      return TRUE;
    }
}

static gboolean
private_prepare (WsRun   *run,
                 GError **error)
{
  run->n = ws_run_param (run, "N");
  run->bytes = 8 * run->n;
  run->launch = private_launch;
  return private_check (run, error) && ws_run_alloc_in_out (run, run->n, run->n, SEED_IN, error);
}

static guint32
size_expect (guint32 x,
             int     size)
{
  guint32 a = ws_hash32 (x), acc = 0;

  for (int j = 0; j < size; j++)
    {
      if (j > 0)
        a = ws_hash32 (a + j);
      for (guint32 q = 0; q < WS_PRIVATE_SIZE_ROUNDS; q++)
        acc += a ^ q;
    }
  return acc;
}

static guint32
private_expect (gsize    i,
                gpointer data)
{
  WsRun *run = data;
  guint32 x = input (i), sum = 0;

  if (run->ops->variant == PRIVATE_SIZE)
    return size_expect (x, (int) private_k (run));
  if (run->ops->variant == WS_PRIVATE_CARVEOUT)
    {
      for (guint j = 0; j < WS_CARVEOUT_WORDS; j++)
        sum += ws_hash32 (x + j);
      return sum * (WS_PRIVATE_READS / WS_CARVEOUT_WORDS);
    }
  /* 64 reads at (base + r) % 32 read every element twice, whatever the base */
  if (run->ops->variant == WS_PRIVATE_LOCAL_WIDE)
    {
      guint64 sum64 = 0;
      for (guint j = 0; j < WS_PRIVATE_WORDS / 2; j++)
        sum64 += ((guint64) ws_hash32 (x + 2 * j) << 32) | ws_hash32 (x + 2 * j + 1);
      sum64 *= WS_PRIVATE_READS / (WS_PRIVATE_WORDS / 2);
      return (guint32) sum64 ^ (guint32) (sum64 >> 32);
    }
  for (guint j = 0; j < WS_PRIVATE_WORDS; j++)
    sum += ws_hash32 (x + j);
  sum *= WS_PRIVATE_READS / WS_PRIVATE_WORDS;
  if (run->ops->variant == WS_PRIVATE_STATIC)
    sum += ws_hash32 (x + (guint32) run->p[1]);
  return sum;
}

static gboolean
private_verify (WsRun   *run,
                GError **error)
{
  return ws_run_verify_words (run, "out", run->d[1], run->n, private_expect, run, error);
}

/* the carveout stays with the function: the next run starts from the default */
static void
private_finish (WsRun *run)
{
  cudaFuncSetAttribute (ws_private_carveout_func (), cudaFuncAttributePreferredSharedMemoryCarveout, -1);
  cudaGetLastError ();
}

/* ------------------------------------------------------------------ */
/* Spills                                                             */
/* ------------------------------------------------------------------ */

/* (the other occupancy kernels are ws-gpu-run-latency.c's) */
static void
spill_launch (WsRun *run)
{
  ws_launch_spill (run->d[0], run->d[1], run->n, 0, &run->shape);
}

static gboolean
spill_prepare (WsRun   *run,
               GError **error)
{
  run->note = g_strdup_printf ("%d values per thread in 32 registers", WS_SPILL_VALUES);
  run->n = ws_run_param (run, "N");
  run->bytes = 8 * run->n;
  run->launch = spill_launch;
  return ws_run_alloc_in_out (run, run->n, run->n, SEED_IN, error);
}

static guint32
spill_expect (gsize    i,
              gpointer data)
{
  guint32 v[WS_SPILL_VALUES];
  guint32 acc = 0;
  int n = WS_SPILL_VALUES;

  v[0] = input (i);
  for (int k = 1; k < n; k++)
    {
      guint32 t = v[k - 1];
      t ^= t >> 13;
      v[k] = t * 0x5bd1e995u + (guint32) k;
    }
  for (int k = 0; k < n; k++)
    acc += v[k] ^ (v[n - 1 - k] >> 7);
  return acc;
}

static gboolean
spill_verify (WsRun   *run,
              GError **error)
{
  return ws_run_verify_words (run, "out", run->d[1], run->n, spill_expect, run, error);
}

/* ------------------------------------------------------------------ */
/* Shared-memory merge                                                */
/* ------------------------------------------------------------------ */

static void
merge_launch (WsRun *run)
{
  ws_launch_merge (run->ops->variant, run->d[0], run->d[1], run->n, 0, &run->shape);
}

static gboolean
merge_prepare (WsRun   *run,
               GError **error)
{
  gint64 blocks;

  run->n = ws_run_param (run, "N");
  blocks = (run->n + WS_BLOCK - 1) / WS_BLOCK;
  run->bytes = 4 * run->n + 4 * blocks;
  run->launch = merge_launch;
  return ws_run_alloc_in_out (run, run->n, blocks, SEED_IN, error);
}

static guint32
merge_expect (gsize    b,
              gpointer data)
{
  WsRun *run = data;
  guint32 m = G_MAXUINT32;

  for (gsize k = b * WS_BLOCK; k < (b + 1) * WS_BLOCK && k < (gsize) run->n; k++)
    m = MIN (m, input (k));
  return m;
}

static gboolean
merge_verify (WsRun   *run,
              GError **error)
{
  return ws_run_verify_words (run, "out", run->d[1], (run->n + WS_BLOCK - 1) / WS_BLOCK, merge_expect, run, error);
}

static const WsKernelOps ops[] = {
  { "banks/stride", WS_BANKS_STRIDE, banks_prepare, banks_verify },
  { "banks/broadcast", WS_BANKS_BROADCAST, banks_prepare, banks_verify },
  { "banks/padding", WS_BANKS_PADDING, banks_prepare, banks_verify },
  { "banks/elem8", WS_BANKS_ELEM8, banks_prepare, banks_verify },
  { "banks/elem16", WS_BANKS_ELEM16, banks_prepare, banks_verify },
  { "banks/swizzle", WS_BANKS_SWIZZLE, banks_prepare, banks_verify },
  { "constant/broadcast", 0, constant_prepare, constant_verify },
  { "constant/distinct", 0, constant_prepare, constant_verify },
  { "private-array/static", WS_PRIVATE_STATIC, private_prepare, private_verify },
  { "private-array/uniform-local", WS_PRIVATE_UNIFORM_LOCAL, private_prepare, private_verify },
  { "private-array/nonuniform-local", WS_PRIVATE_NONUNIFORM_LOCAL, private_prepare, private_verify },
  { "private-array/nonuniform-shared", WS_PRIVATE_NONUNIFORM_SHARED, private_prepare, private_verify },
  { "private-array/local-wide", WS_PRIVATE_LOCAL_WIDE, private_prepare, private_verify },
  { "private-array/random", WS_PRIVATE_RANDOM, private_prepare, private_verify },
  { "private-array/distinct", WS_PRIVATE_DISTINCT, private_prepare, private_verify },
  { "private-array/size", PRIVATE_SIZE, private_prepare, private_verify },
  { "private-array/l1-carveout", WS_PRIVATE_CARVEOUT, private_prepare, private_verify, private_finish },
  { "occupancy/spill", 0, spill_prepare, spill_verify },
  { "merge/one-thread", WS_MERGE_ONE_THREAD, merge_prepare, merge_verify },
  { "merge/atomicmin", WS_MERGE_ATOMICMIN, merge_prepare, merge_verify },
  { "merge/tree", WS_MERGE_TREE, merge_prepare, merge_verify },
  { "merge/tree-interleaved", WS_MERGE_TREE_INTERLEAVED, merge_prepare, merge_verify },
  { "merge/hybrid", WS_MERGE_HYBRID, merge_prepare, merge_verify },
};

const WsKernelOps *
ws_gpu_onchip_ops (const char *id)
{
  for (guint i = 0; i < G_N_ELEMENTS (ops); i++)
    if (g_str_equal (ops[i].id, id))
      return &ops[i];
  return NULL;
}
