/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Kernels that stream global memory: coalescing, alignment and layout,
 * transpose, the read-only path, L2 persistence, and cudaMemcpy as the
 * bound. bytes counts what the kernel must read and write, each distinct
 * byte once. */
#include "ws-config.h"
#include "ws-gpu-private.h"

#include <glib/gi18n-lib.h>

enum { SEED_IN = 1, SEED_HOT = 2 };

static guint32
input (gsize k)
{
  return ws_value (k, SEED_IN);
}

/* ------------------------------------------------------------------ */
/* Coalescing                                                         */
/* ------------------------------------------------------------------ */

static void
coalescing_launch (WsRun *run)
{
  gint64 param = 0;

  if (run->ops->variant == WS_COALESCING_OFFSET)
    param = run->p[1];
  else if (run->ops->variant == WS_COALESCING_STRIDED_SWEEP)
    param = run->p[1];
  ws_launch_coalescing (run->ops->variant, run->d[0], run->d[1], run->n, param, 0, &run->shape);
}

static gboolean
coalescing_prepare (WsRun   *run,
                    GError **error)
{
  gint64 n = ws_run_param (run, "N");
  gint64 in_words = n, out_words = n;

  switch (run->ops->variant)
    {
    case WS_COALESCING_OFFSET:
      in_words = n + ws_run_param (run, "offset");
      run->bytes = 8 * n;
      break;
    case WS_COALESCING_STRIDE:
      if (n % WS_BLOCK != 0)
        /* Translators: N is the kernel's parameter */
        return ws_run_set_error (run, error, _("N = %lld is not a multiple of %d"), (long long) n, WS_BLOCK);
      run->bytes = 8 * n;
      break;
    case WS_COALESCING_BROADCAST:
      run->bytes = 4 + 4 * n;
      break;
    case WS_COALESCING_STRIDED_SWEEP:
      {
        gint64 stride = ws_run_param (run, "stride");
        out_words = (n + stride - 1) / stride;
        run->bytes = 8 * out_words;
        run->note = g_strdup_printf ("%" G_GINT64_FORMAT " threads of %" G_GINT64_FORMAT " read", out_words, n);
      }
      break;
    default:
      run->bytes = 8 * n;
      break;
    }
  run->n = n;
  run->launch = coalescing_launch;
  return ws_run_alloc_in_out (run, in_words, out_words, SEED_IN, error);
}

static guint32
coalescing_expect (gsize    k,
                   gpointer data)
{
  WsRun *run = data;
  gsize n = run->n;

  switch (run->ops->variant)
    {
    case WS_COALESCING_PERMUTED:
      return (k ^ 1) < n ? input (k ^ 1) : WS_POISON;
    case WS_COALESCING_OFFSET:
      return input (k + run->p[1]);
    case WS_COALESCING_STRIDE:
      return input (k / WS_BLOCK + (k % WS_BLOCK) * (n / WS_BLOCK));
    case WS_COALESCING_BROADCAST:
      return input (0);
    case WS_COALESCING_STRIDED_SWEEP:
      return input (k * run->p[1]);
    default:
      return input (k);
    }
}

static gboolean
coalescing_verify (WsRun   *run,
                   GError **error)
{
  gsize out_words = run->ops->variant == WS_COALESCING_STRIDED_SWEEP ? (gsize) run->bytes / 8 : (gsize) run->n;

  return ws_run_verify_words (run, "out", run->d[1], out_words, coalescing_expect, run, error);
}

/* ------------------------------------------------------------------ */
/* Alignment and layout                                               */
/* ------------------------------------------------------------------ */

static void
elem_size_launch (WsRun *run)
{
  ws_launch_elem_size ((int) run->p[1], run->d[0], run->d[1], run->n, 0, &run->shape);
}

static gboolean
elem_size_prepare (WsRun   *run,
                   GError **error)
{
  gint64 elem = ws_run_param (run, "elem_size");
  gint64 n = ws_run_param (run, "N");

  if (elem != 1 && elem != 2 && elem != 4 && elem != 8 && elem != 16)
    /* Translators: elem_size is the kernel's parameter */
    return ws_run_set_error (run, error, _("elem_size = %lld is not 1, 2, 4, 8 or 16"), (long long) elem);
  run->n = n;
  run->bytes = 2 * n * elem;
  run->launch = elem_size_launch;
  return ws_run_alloc_in_out (run, (n * elem + 3) / 4, (n * elem + 3) / 4, SEED_IN, error);
}

static guint32
copy_expect (gsize    k,
             gpointer data)
{
  return input (k);
}

static gboolean
elem_size_verify (WsRun   *run,
                  GError **error)
{
  gsize bytes = run->bytes / 2;
  const guint8 *got = ws_run_fetch (run, run->d[1], bytes, error);

  if (got == NULL || !ws_run_check_words (run, "out", (const guint32 *) got, bytes / 4, copy_expect, run, error))
    return FALSE;
  /* the bytes after the last whole word */
  for (gsize b = bytes / 4 * 4; b < bytes; b++)
    {
      guint8 e = (guint8) (input (b / 4) >> (8 * (b % 4)));
      if (got[b] != e)
        {
          g_set_error (error, WS_GPU_ERROR, WS_GPU_ERROR_VERIFY_FAILED,
                       /* Translators: the kernel's id, a byte's offset in the array out, then
                        * the byte read and the byte expected */
                       _("%s: byte %llu of out is 0x%02x, but the CPU reference says 0x%02x"),
                       run->info->id, (unsigned long long) b, got[b], e);
          return FALSE;
        }
    }
  return TRUE;
}

static void
layout_launch (WsRun *run)
{
  ws_launch_layout (run->ops->variant, run->d[0], run->d[1], run->n, 0, &run->shape);
}

static gboolean
layout_prepare (WsRun   *run,
                GError **error)
{
  gint64 n = ws_run_param (run, "N");
  gint64 in_words;

  switch (run->ops->variant)
    {
    case WS_ALIGNMENT_STRUCT_UNPADDED:
      in_words = 3 * n;
      run->bytes = 12 * n + 4 * n;
      break;
    case WS_ALIGNMENT_STRUCT_PADDED:
      in_words = 4 * n;
      run->bytes = 16 * n + 4 * n;
      break;
    case WS_ALIGNMENT_AOS:
      in_words = 3 * n;
      run->bytes = 8 * n;
      break;
    case WS_ALIGNMENT_ASTA:
      in_words = (n + 31) / 32 * 96;
      run->bytes = 8 * n;
      break;
    default:
      in_words = n;
      run->bytes = 8 * n;
      break;
    }
  run->n = n;
  run->launch = layout_launch;
  return ws_run_alloc_in_out (run, in_words, n, SEED_IN, error);
}

static guint32
layout_expect (gsize    k,
               gpointer data)
{
  WsRun *run = data;

  switch (run->ops->variant)
    {
    case WS_ALIGNMENT_STRUCT_UNPADDED:
      return input (3 * k) + input (3 * k + 1) + input (3 * k + 2);
    case WS_ALIGNMENT_STRUCT_PADDED:
      return input (4 * k) + input (4 * k + 1) + input (4 * k + 2);
    case WS_ALIGNMENT_AOS:
      return input (3 * k);
    case WS_ALIGNMENT_ASTA:
      return input (k / 32 * 96 + k % 32);
    default:
      return input (k);
    }
}

static gboolean
layout_verify (WsRun   *run,
               GError **error)
{
  return ws_run_verify_words (run, "out", run->d[1], run->n, layout_expect, run, error);
}

/* 2-D: d[0], d[1] are cudaMallocPitch'ed for alignment/pitch with pitch 0 */
typedef struct
{
  void *in, *out;
  guint generation;
} Pitched;

static void
pitched_free (gpointer data)
{
  Pitched *p = data;

  /* after a fault the context that held them is gone */
  if (p->generation == ws_gpu_generation ())
    {
      cudaFree (p->in);
      cudaFree (p->out);
    }
  g_free (p);
}

static void
pitch_launch (WsRun *run)
{
  ws_launch_pitch (run->d[0], run->d[1], run->p[0], run->p[1], run->n, 0, &run->shape);
}

static gboolean
pitch_alloc (WsRun   *run,
             gint64   width,
             gint64   height,
             GError **error)
{
  Pitched *p = g_new0 (Pitched, 1);
  gsize pitch_in = 0, pitch_out = 0;

  run->data = p;
  run->data_free = pitched_free;
  p->generation = ws_gpu_generation ();
  if (!ws_gpu_check (cudaMallocPitch (&p->in, &pitch_in, width * 4, height), "cudaMallocPitch", error) ||
      !ws_gpu_check (cudaMallocPitch (&p->out, &pitch_out, width * 4, height), "cudaMallocPitch", error))
    return FALSE;
  g_assert (pitch_in == pitch_out && pitch_in % 4 == 0);
  run->d[0] = p->in;
  run->d[1] = p->out;
  run->n = pitch_in / 4;
  run->note = g_strdup_printf ("cudaMallocPitch chose a pitch of %" G_GSIZE_FORMAT " bytes", pitch_in);
  return TRUE;
}

static gboolean
pitch_prepare (WsRun   *run,
               GError **error)
{
  gint64 width = ws_run_param (run, "W"), height = ws_run_param (run, "H");
  gint64 pitch = run->info->n_params > 2 ? ws_run_param (run, "pitch") : width;
  gsize words;

  run->bytes = 8 * width * height;
  run->launch = pitch_launch;
  if (pitch == 0)
    {
      if (!pitch_alloc (run, width, height, error))
        return FALSE;
      words = run->n * height;
      return ws_gpu_fill (run->d[0], words, SEED_IN, error) &&
             ws_gpu_set_bytes (run->d[1], WS_POISON_BYTE, words * 4, error);
    }
  if (pitch < width)
    /* Translators: pitch and W are the kernel's parameters */
    return ws_run_set_error (run, error, _("pitch = %lld is narrower than a row (W = %lld)"), (long long) pitch, (long long) width);
  run->n = pitch;
  return ws_run_alloc_in_out (run, pitch * height, pitch * height, SEED_IN, error);
}

static guint32
pitch_expect (gsize    k,
              gpointer data)
{
  WsRun *run = data;

  return (gint64) (k % run->n) < run->p[0] ? input (k) : WS_POISON;
}

static gboolean
pitch_verify (WsRun   *run,
              GError **error)
{
  return ws_run_verify_words (run, "out", run->d[1], run->n * run->p[1], pitch_expect, run, error);
}

/* ------------------------------------------------------------------ */
/* Transpose and the read-only path                                   */
/* ------------------------------------------------------------------ */

static void
transpose_launch (WsRun *run)
{
  ws_launch_transpose (run->ops->variant, run->d[0], run->d[1], run->n, 0, &run->shape);
}

static gboolean
transpose_prepare (WsRun   *run,
                   GError **error)
{
  gint64 n = ws_run_param (run, "N");

  run->n = n;
  run->bytes = 8 * n * n;
  run->launch = transpose_launch;
  return ws_run_alloc_in_out (run, n * n, n * n, SEED_IN, error);
}

static guint32
transpose_expect (gsize    k,
                  gpointer data)
{
  WsRun *run = data;
  gsize n = run->n;

  if (run->ops->variant == WS_TRANSPOSE_COPY)
    return input (k);
  return input (k % n * n + k / n);
}

static gboolean
transpose_verify (WsRun   *run,
                  GError **error)
{
  return ws_run_verify_words (run, "out", run->d[1], run->n * run->n, transpose_expect, run, error);
}

static void
readonly_launch (WsRun *run)
{
  ws_launch_readonly (run->ops->variant, run->d[0], run->d[1], run->n, 0, &run->shape);
}

static gboolean
readonly_prepare (WsRun   *run,
                  GError **error)
{
  run->n = ws_run_param (run, "N");
  run->bytes = 8 * run->n;
  run->launch = readonly_launch;
  return ws_run_alloc_in_out (run, run->n, run->n, SEED_IN, error);
}

static guint32
readonly_expect (gsize    k,
                 gpointer data)
{
  WsRun *run = data;

  return input ((guint64) k * 7919u % (guint64) run->n);
}

static gboolean
readonly_verify (WsRun   *run,
                 GError **error)
{
  return ws_run_verify_words (run, "out", run->d[1], run->n, readonly_expect, run, error);
}

/* ------------------------------------------------------------------ */
/* L2 persistence                                                     */
/* ------------------------------------------------------------------ */

typedef struct
{
  gint64 hot;
  gsize window;
  float hit_ratio;
} L2Run;

static void
l2_launch (WsRun *run)
{
  L2Run *l2 = run->data;

  ws_launch_l2 (run->d[0], run->d[1], run->d[2], run->n, l2->hot, l2->window, l2->hit_ratio, 0, &run->shape);
}

static gboolean
l2_window (WsRun   *run,
           L2Run   *l2,
           GError **error)
{
  const WsDeviceInfo *dev = ws_gpu_device ();
  int max_persisting = 0, max_window = 0;
  gsize carve_out;

  if (dev->cc_major < 8)
    {
      g_set_error (error, WS_GPU_ERROR, WS_GPU_ERROR_UNSUPPORTED,
                   /* Translators: the kernel's id, the GPU's name, then its compute capability */
                   _("%s: L2 access-policy windows need compute capability 8.0 or newer; %s is %d.%d"),
                   run->info->id, dev->name, dev->cc_major, dev->cc_minor);
      return FALSE;
    }
  cudaDeviceGetAttribute (&max_persisting, cudaDevAttrMaxPersistingL2CacheSize, ws_gpu_selected ());
  cudaDeviceGetAttribute (&max_window, cudaDevAttrMaxAccessPolicyWindowSize, ws_gpu_selected ());
  l2->window = MIN ((gsize) l2->hot * 4, (gsize) max_window);
  l2->hit_ratio = ws_run_param (run, "hit_ratio") / 100.0f;
  carve_out = MIN (l2->window, (gsize) max_persisting);
  run->note = g_strdup_printf ("window of %.1f MiB, %.1f MiB of L2 set aside for persisting lines",
                               l2->window / 1048576.0, carve_out / 1048576.0);
  return ws_gpu_check (cudaDeviceSetLimit (cudaLimitPersistingL2CacheSize, carve_out), _("setting aside L2"), error);
}

static gboolean
l2_prepare (WsRun   *run,
            GError **error)
{
  L2Run *l2 = g_new0 (L2Run, 1);
  gint64 n = ws_run_param (run, "N");

  run->data = l2;
  run->data_free = g_free;
  l2->hot = ws_run_param (run, "hot");
  run->n = n;
  run->bytes = 8 * n + 4 * MIN (l2->hot, n);
  run->launch = l2_launch;
  /* start without persisting lines left by an earlier run */
  if (ws_gpu_device ()->cc_major >= 8 &&
      !ws_gpu_check (cudaCtxResetPersistingL2Cache (), "cudaCtxResetPersistingL2Cache", error))
    return FALSE;
  if (run->ops->variant && !l2_window (run, l2, error))
    return FALSE;
  run->d[0] = ws_gpu_buffer (0, l2->hot * 4, error);
  run->d[1] = run->d[0] ? ws_gpu_buffer (1, n * 4, error) : NULL;
  run->d[2] = run->d[1] ? ws_gpu_buffer (2, n * 4, error) : NULL;
  return run->d[2] != NULL &&
         ws_gpu_fill (run->d[0], l2->hot, SEED_HOT, error) &&
         ws_gpu_fill (run->d[1], n, SEED_IN, error) &&
         ws_gpu_set_bytes (run->d[2], WS_POISON_BYTE, n * 4, error);
}

static guint32
l2_expect (gsize    k,
           gpointer data)
{
  WsRun *run = data;
  L2Run *l2 = run->data;

  return ws_value (k % l2->hot, SEED_HOT) + input (k);
}

static gboolean
l2_verify (WsRun   *run,
           GError **error)
{
  return ws_run_verify_words (run, "out", run->d[2], run->n, l2_expect, run, error);
}

static void
l2_finish (WsRun *run)
{
  if (ws_gpu_device ()->cc_major < 8)
    return;
  cudaCtxResetPersistingL2Cache ();
  cudaDeviceSetLimit (cudaLimitPersistingL2CacheSize, 0);
  cudaGetLastError ();
}

/* ------------------------------------------------------------------ */
/* cudaMemcpy, the bound for copies                                   */
/* ------------------------------------------------------------------ */

static void
memcpy_launch (WsRun *run)
{
  cudaMemcpyAsync (run->d[1], run->d[0], run->n * 4, cudaMemcpyDeviceToDevice, 0);
}

static gboolean
memcpy_prepare (WsRun   *run,
                GError **error)
{
  run->n = ws_run_param (run, "N");
  run->bytes = 8 * run->n;
  run->launch = memcpy_launch;
  return ws_run_alloc_in_out (run, run->n, run->n, SEED_IN, error);
}

static gboolean
memcpy_verify (WsRun   *run,
               GError **error)
{
  return ws_run_verify_words (run, "out", run->d[1], run->n, copy_expect, run, error);
}

static const WsKernelOps ops[] = {
  { "coalescing/sequential", WS_COALESCING_SEQUENTIAL, coalescing_prepare, coalescing_verify },
  { "coalescing/permuted", WS_COALESCING_PERMUTED, coalescing_prepare, coalescing_verify },
  { "coalescing/offset", WS_COALESCING_OFFSET, coalescing_prepare, coalescing_verify },
  { "coalescing/stride", WS_COALESCING_STRIDE, coalescing_prepare, coalescing_verify },
  { "coalescing/broadcast", WS_COALESCING_BROADCAST, coalescing_prepare, coalescing_verify },
  { "coalescing/strided-sweep", WS_COALESCING_STRIDED_SWEEP, coalescing_prepare, coalescing_verify },
  { "alignment/elem-size", 0, elem_size_prepare, elem_size_verify },
  { "alignment/struct-unpadded", WS_ALIGNMENT_STRUCT_UNPADDED, layout_prepare, layout_verify },
  { "alignment/struct-padded", WS_ALIGNMENT_STRUCT_PADDED, layout_prepare, layout_verify },
  { "alignment/aos", WS_ALIGNMENT_AOS, layout_prepare, layout_verify },
  { "alignment/soa", WS_ALIGNMENT_SOA, layout_prepare, layout_verify },
  { "alignment/asta", WS_ALIGNMENT_ASTA, layout_prepare, layout_verify },
  { "alignment/pitch-none", 0, pitch_prepare, pitch_verify },
  { "alignment/pitch", 0, pitch_prepare, pitch_verify },
  { "transpose/copy", WS_TRANSPOSE_COPY, transpose_prepare, transpose_verify },
  { "transpose/read-coalesced", WS_TRANSPOSE_READ_COALESCED, transpose_prepare, transpose_verify },
  { "transpose/write-coalesced", WS_TRANSPOSE_WRITE_COALESCED, transpose_prepare, transpose_verify },
  { "transpose/ldg", WS_TRANSPOSE_LDG, transpose_prepare, transpose_verify },
  { "transpose/shared", WS_TRANSPOSE_SHARED, transpose_prepare, transpose_verify },
  { "transpose/shared-padded", WS_TRANSPOSE_SHARED_PADDED, transpose_prepare, transpose_verify },
  { "readonly/plain", 0, readonly_prepare, readonly_verify },
  { "readonly/ldg", 1, readonly_prepare, readonly_verify },
  { "l2/persisting", 1, l2_prepare, l2_verify, l2_finish },
  { "l2/hot-size", 1, l2_prepare, l2_verify, l2_finish },
  { "l2/streaming", 0, l2_prepare, l2_verify, l2_finish },
  { "reference/memcpy", 0, memcpy_prepare, memcpy_verify },
};

const WsKernelOps *
ws_gpu_memory_ops (const char *id)
{
  for (guint i = 0; i < G_N_ELEMENTS (ops); i++)
    if (g_str_equal (ops[i].id, id))
      return &ops[i];
  return NULL;
}
