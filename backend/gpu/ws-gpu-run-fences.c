/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Fences, barriers and volatile: kernels whose result may go wrong without
 * them, run many times, with the count of trials that went wrong added to
 * the measurement; and the cost of each fence. A kernel that may go wrong
 * is still checked against the CPU reference: what it says went wrong must
 * be what did. */
#include "ws-config.h"
#include "ws-gpu-private.h"

#include <glib/gi18n-lib.h>
#include <string.h>

enum { SEED_IN = 1 };

/* ------------------------------------------------------------------ */
/* The last-block reduction                                           */
/* ------------------------------------------------------------------ */

/* buffer 2, word by word */
typedef struct
{
  gint64 problems;
  guint32 *expected;           /* host: the CPU reference */
  guint32 *tickets, *result, *expected_d, *wrong;
} LastBlockRun;

static void
last_block_free (gpointer data)
{
  LastBlockRun *l = data;

  g_free (l->expected);
  g_free (l);
}

static void
last_block_launch (WsRun *run)
{
  LastBlockRun *l = run->data;

  run->launches++;
  ws_launch_last_block (run->ops->variant, run->d[0], run->d[1], l->tickets, l->result, l->expected_d, l->wrong,
                        l->problems, 0, &run->shape);
}

static gboolean
last_block_prepare (WsRun   *run,
                    GError **error)
{
  LastBlockRun *l = g_new0 (LastBlockRun, 1);
  gint64 n = ws_run_param (run, "N");
  gsize words;

  run->data = l;
  run->data_free = last_block_free;
  l->problems = n / WS_LAST_BLOCK_ELEMENTS;
  if (l->problems == 0 || n % WS_LAST_BLOCK_ELEMENTS != 0)
    /* Translators: N is the kernel's parameter; its value, then how many elements a problem has */
    return ws_run_set_error (run, error, _("N = %lld is not a multiple of %d (a problem's elements)"), (long long) n, WS_LAST_BLOCK_ELEMENTS);
  run->n = n;
  run->bytes = 4 * n + 8 * (n / WS_LAST_BLOCK_ITEMS);
  run->note = g_strdup_printf ("%" G_GINT64_FORMAT " sums of %d blocks each per launch", l->problems,
                               WS_LAST_BLOCK_BLOCKS);
  run->launch = last_block_launch;
  l->expected = g_new0 (guint32, l->problems);
  for (gint64 k = 0; k < n; k++)
    l->expected[k / WS_LAST_BLOCK_ELEMENTS] += ws_value (k, SEED_IN);
  /* tickets, results, the expected sums, and the count of wrong ones */
  words = 3 * l->problems + 1;
  if (!ws_run_alloc_in_out (run, n, n / WS_LAST_BLOCK_ITEMS, SEED_IN, error) ||
      (run->d[2] = ws_gpu_buffer (2, words * 4, error)) == NULL)
    return FALSE;
  l->tickets = run->d[2];
  l->result = l->tickets + l->problems;
  l->expected_d = l->result + l->problems;
  l->wrong = l->expected_d + l->problems;
  return ws_gpu_set_bytes (l->tickets, 0, l->problems * 4, error) &&
         ws_gpu_set_bytes (l->result, WS_POISON_BYTE, l->problems * 4, error) &&
         ws_gpu_set_bytes (l->wrong, 0, 4, error) &&
         ws_gpu_check (cudaMemcpy (l->expected_d, l->expected, l->problems * 4, cudaMemcpyHostToDevice),
                       _("copying the expected sums"), error);
}

static guint32
last_block_expect (gsize    p,
                   gpointer data)
{
  WsRun *run = data;

  return ((LastBlockRun *) run->data)->expected[p];
}

static gboolean
last_block_verify (WsRun   *run,
                   GError **error)
{
  LastBlockRun *l = run->data;
  const guint32 *got;
  guint32 wrong = 0, counted;

  if (run->ops->variant)
    return ws_run_verify_words (run, "result", l->result, l->problems, last_block_expect, run, error);
  /* without the fence a sum may be wrong, but the kernel must have counted
   * exactly the wrong ones */
  got = ws_run_fetch (run, l->result, l->problems * 4, error);
  if (got == NULL)
    return FALSE;
  for (gint64 p = 0; p < l->problems; p++)
    wrong += got[p] != l->expected[p];
  if (!ws_gpu_check (cudaMemcpy (&counted, l->wrong, 4, cudaMemcpyDeviceToHost), _("reading a count"), error))
    return FALSE;
  if (counted != wrong)
    {
      g_set_error (error, WS_GPU_ERROR, WS_GPU_ERROR_VERIFY_FAILED,
                   /* Translators: the kernel's id, the wrong sums it counted, the wrong sums
                    * found, then how many sums it made */
                   _("%s: the kernel counted %u wrong sums, but %u of its %lld sums differ from the CPU reference"),
                   run->info->id, counted, wrong, (long long) l->problems);
      return FALSE;
    }
  return TRUE;
}

static gboolean
last_block_report (WsRun         *run,
                   WsMeasurement *m,
                   GError       **error)
{
  LastBlockRun *l = run->data;
  guint32 wrong = 0;

  if (!ws_gpu_check (cudaMemcpy (&wrong, l->wrong, 4, cudaMemcpyDeviceToHost), _("reading a count"), error))
    return FALSE;
  m->trials = (gint64) run->launches * l->problems;
  ws_measurement_add_outcome (m, "wrong sum", wrong);
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Message passing                                                    */
/* ------------------------------------------------------------------ */

typedef struct
{
  gint64 pairs;
  guint32 *flags, *status, *counts;
} FlagRun;

static void
flag_launch (WsRun *run)
{
  FlagRun *f = run->data;

  /* the sequence number tells this launch's flags and data from the last one's */
  run->launches++;
  ws_launch_flag (run->ops->variant, run->d[0], f->flags, run->d[1], f->status, f->counts, f->pairs,
                  run->launches, 0, &run->shape);
}

static gboolean
flag_prepare (WsRun   *run,
              GError **error)
{
  FlagRun *f = g_new0 (FlagRun, 1);
  const WsDeviceInfo *dev = ws_gpu_device ();
  /* a consumer spins until its producer runs: both must be resident at
   * once, so the pairs take at most half of what the SMs hold */
  gint64 fit = (gint64) dev->sm_count * dev->max_blocks_per_sm / 4;
  gsize words;

  run->data = f;
  run->data_free = g_free;
  f->pairs = MIN (ws_run_param (run, "pairs"), fit);
  run->n = f->pairs * WS_FLAG_WORDS;
  run->bytes = 3 * 4 * run->n;
  run->note = g_strdup_printf ("%" G_GINT64_FORMAT " pairs of blocks per launch, %d words each; a spin gives up "
                               "after %d reads", f->pairs, WS_FLAG_WORDS, WS_FENCES_SPIN_LIMIT);
  run->launch = flag_launch;
  words = 2 * f->pairs + 3;
  if ((run->d[0] = ws_gpu_buffer (0, run->n * 4, error)) == NULL ||
      (run->d[1] = ws_gpu_buffer (1, run->n * 4, error)) == NULL ||
      (run->d[2] = ws_gpu_buffer (2, words * 4, error)) == NULL)
    return FALSE;
  f->flags = run->d[2];
  f->status = f->flags + f->pairs;
  f->counts = f->status + f->pairs;
  return ws_gpu_set_bytes (run->d[0], 0, run->n * 4, error) &&
         ws_gpu_set_bytes (run->d[1], WS_POISON_BYTE, run->n * 4, error) &&
         ws_gpu_set_bytes (f->flags, 0, words * 4, error);
}

static const char *
flag_status_name (guint32 status)
{
  static const char *names[] = { "the data", "stale data", "timed out" };

  return status < G_N_ELEMENTS (names) ? names[status] : "nonsense";
}

/* after the first launch (sequence number 1): every pair's status must say
 * what its copy of the data shows; with fences, no data may be stale */
static gboolean
flag_verify (WsRun   *run,
             GError **error)
{
  FlagRun *f = run->data;
  g_autofree guint32 *status = g_new (guint32, f->pairs);
  const guint32 *out;

  if (!ws_gpu_check (cudaMemcpy (status, f->status, f->pairs * 4, cudaMemcpyDeviceToHost), _("reading the statuses"),
                     error) ||
      (out = ws_run_fetch (run, run->d[1], run->n * 4, error)) == NULL)
    return FALSE;
  for (gint64 p = 0; p < f->pairs; p++)
    {
      gboolean stale = FALSE;
      guint32 want;

      for (int k = 0; k < WS_FLAG_WORDS && !stale; k++)
        stale = out[p * WS_FLAG_WORDS + k] != ws_value ((guint64) p * WS_FLAG_WORDS + k, 1);
      want = stale ? 1 : 0;
      if (status[p] > 2 || (status[p] != 2 && status[p] != want) ||
          (run->ops->variant == WS_FLAG_FENCE && status[p] == 1))
        {
          if (stale)
            g_set_error (error, WS_GPU_ERROR, WS_GPU_ERROR_VERIFY_FAILED,
                         /* Translators: the kernel's id, a pair's number, then what its flag said
                          * (“the data”, “stale data” or “timed out”, in English) */
                         _("%s: pair %lld says it found %s, but its copy of the data differs from the CPU reference"),
                         run->info->id, (long long) p, flag_status_name (status[p]));
          else
            g_set_error (error, WS_GPU_ERROR, WS_GPU_ERROR_VERIFY_FAILED,
                         /* Translators: the kernel's id, a pair's number, then what its flag said
                          * (“the data”, “stale data” or “timed out”, in English) */
                         _("%s: pair %lld says it found %s, but its copy of the data is what the producer wrote"),
                         run->info->id, (long long) p, flag_status_name (status[p]));
          return FALSE;
        }
    }
  return TRUE;
}

static gboolean
flag_report (WsRun         *run,
             WsMeasurement *m,
             GError       **error)
{
  FlagRun *f = run->data;
  guint32 counts[3];

  if (!ws_gpu_check (cudaMemcpy (counts, f->counts, sizeof counts, cudaMemcpyDeviceToHost), _("reading the counts"),
                     error))
    return FALSE;
  m->trials = (gint64) run->launches * f->pairs;
  ws_measurement_add_outcome (m, "stale data", counts[1]);
  ws_measurement_add_outcome (m, "timed out", counts[2]);
  if (run->ops->variant == WS_FLAG_FENCE && counts[2] > 0)
    m->warning = g_strdup_printf ("%u consumers timed out: their producers were not running at the same time "
                                  "(another program on the GPU?)", counts[2]);
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* The cost of a fence                                                */
/* ------------------------------------------------------------------ */

static gsize
cost_threads (WsRun *run)
{
  return (run->n + WS_BLOCK - 1) / WS_BLOCK * WS_BLOCK;
}

static void
cost_launch (WsRun *run)
{
  ws_launch_fence_cost ((int) ws_run_param (run, "fence"), run->d[1], run->n, (int) ws_run_param (run, "rounds"), 0,
                        &run->shape);
}

static gboolean
cost_prepare (WsRun   *run,
              GError **error)
{
  gint64 fence = ws_run_param (run, "fence");
  static const char *names[] = { "no fence", "__threadfence_block ()", "__threadfence ()", "__syncthreads ()",
                                 "__threadfence_system ()" };

  if (fence < 0 || fence >= (gint64) G_N_ELEMENTS (names))
    /* Translators: fence is the kernel's parameter */
    return ws_run_set_error (run, error, _("fence = %lld is not 0 to 4"), (long long) fence);
  run->n = ws_run_param (run, "N");
  run->bytes = 4 * (gint64) cost_threads (run) * ws_run_param (run, "rounds");
  run->note = g_strdup_printf ("after every store: %s; bytes are the stores'", names[fence]);
  run->launch = cost_launch;
  run->d[1] = ws_gpu_buffer (1, cost_threads (run) * 4, error);
  return run->d[1] && ws_gpu_set_bytes (run->d[1], WS_POISON_BYTE, cost_threads (run) * 4, error);
}

static guint32
cost_expect (gsize    i,
             gpointer data)
{
  return (guint32) (ws_run_param (data, "rounds") - 1 + i);
}

static gboolean
cost_verify (WsRun   *run,
             GError **error)
{
  return ws_run_verify_words (run, "out", run->d[1], cost_threads (run), cost_expect, run, error);
}

static const WsKernelOps ops[] = {
  { "fences/last-block", 0, last_block_prepare, last_block_verify, NULL, last_block_report },
  { "fences/last-block-fence", 1, last_block_prepare, last_block_verify, NULL, last_block_report },
  { "fences/spin-plain", WS_FLAG_PLAIN, flag_prepare, flag_verify, NULL, flag_report },
  { "fences/spin-volatile", WS_FLAG_VOLATILE, flag_prepare, flag_verify, NULL, flag_report },
  { "fences/spin-fence", WS_FLAG_FENCE, flag_prepare, flag_verify, NULL, flag_report },
  { "fences/cost", 0, cost_prepare, cost_verify },
};

const WsKernelOps *
ws_gpu_fences_ops (const char *id)
{
  for (guint i = 0; i < G_N_ELEMENTS (ops); i++)
    if (g_str_equal (ops[i].id, id))
      return &ops[i];
  return NULL;
}
