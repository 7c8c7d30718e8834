/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The block-wide merge sort (ws-kernels-merge.cu): every block sorts
 * WS_SORT_ELEMENTS values by merging its threads' sorted lists, finding the
 * smallest head one thread at a time, with atomicMin, with a tree, or in
 * groups. The CPU reference sorts each block's values with qsort. */
#include "ws-config.h"
#include "ws-gpu-private.h"

#include <glib/gi18n-lib.h>
#include <stdlib.h>

enum { SEED_IN = 1 };

typedef struct
{
  int group;
  guint32 *sorted;             /* the CPU reference, made by verify */
} SortRun;

static void
sort_free (gpointer data)
{
  SortRun *s = data;

  g_free (s->sorted);
  g_free (s);
}

static void
sort_launch (WsRun *run)
{
  SortRun *s = run->data;

  ws_launch_sort (run->ops->variant, run->d[0], run->d[1], run->n, s->group, 0, &run->shape);
}

static gboolean
sort_prepare (WsRun   *run,
              GError **error)
{
  SortRun *s = g_new0 (SortRun, 1);

  run->data = s;
  run->data_free = sort_free;
  if (run->ops->variant == WS_SORT_HYBRID)
    {
      gint64 group = ws_run_param (run, "group");
      if (group < 1 || group > WS_BLOCK || WS_BLOCK % group != 0)
        /* Translators: group is the kernel's parameter */
        return ws_run_set_error (run, error, _("group = %lld does not divide a block of %d threads"), (long long) group, WS_BLOCK);
      s->group = (int) group;
    }
  run->n = ws_run_param (run, "N");
  run->bytes = 8 * run->n;
  run->note = g_strdup_printf ("blocks of %d threads sort %d values each", WS_BLOCK, WS_SORT_ELEMENTS);
  run->launch = sort_launch;
  return ws_run_alloc_in_out (run, run->n, run->n, SEED_IN, error);
}

static int
compare_words (gconstpointer a,
               gconstpointer b)
{
  guint32 x = *(const guint32 *) a, y = *(const guint32 *) b;

  return (x > y) - (x < y);
}

static guint32
sort_expect (gsize    k,
             gpointer data)
{
  SortRun *s = ((WsRun *) data)->data;

  return s->sorted[k];
}

static gboolean
sort_verify (WsRun   *run,
             GError **error)
{
  SortRun *s = run->data;

  if (s->sorted == NULL)
    {
      s->sorted = g_new (guint32, run->n);
      for (gint64 k = 0; k < run->n; k++)
        s->sorted[k] = ws_value (k, SEED_IN) >> 9;
      for (gint64 b = 0; b < run->n; b += WS_SORT_ELEMENTS)
        qsort (s->sorted + b, MIN (WS_SORT_ELEMENTS, run->n - b), sizeof (guint32), compare_words);
    }
  return ws_run_verify_words (run, "out", run->d[1], run->n, sort_expect, run, error);
}

static const WsKernelOps ops[] = {
  { "merge/sort-one-thread", WS_SORT_ONE_THREAD, sort_prepare, sort_verify },
  { "merge/sort-atomicmin", WS_SORT_ATOMICMIN, sort_prepare, sort_verify },
  { "merge/sort-tree", WS_SORT_TREE, sort_prepare, sort_verify },
  { "merge/sort-hybrid", WS_SORT_HYBRID, sort_prepare, sort_verify },
};

const WsKernelOps *
ws_gpu_sort_ops (const char *id)
{
  for (guint i = 0; i < G_N_ELEMENTS (ops); i++)
    if (g_str_equal (ops[i].id, id))
      return &ops[i];
  return NULL;
}
