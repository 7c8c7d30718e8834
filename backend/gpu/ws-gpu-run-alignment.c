/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Layout, continued from ws-gpu-run-memory.c: a 7-byte structure packed
 * or padded to 8, a 3-D array from cudaMalloc3D, and a 2-D array uploaded
 * with cudaMemcpy2D into memory from cudaMallocPitch. */
#include "ws-gpu-private.h"

enum { SEED_IN = 1 };

typedef enum
{
  ALIGN_STRUCT7,
  ALIGN_STRUCT7_PADDED,
  ALIGN_MALLOC3D,
  ALIGN_MEMCPY2D,
} AlignVariant;

static guint8
input_byte (gsize b)
{
  return (guint8) (ws_value (b / 4, SEED_IN) >> (8 * (b % 4)));
}

/* ------------------------------------------------------------------ */
/* 7-byte structures                                                  */
/* ------------------------------------------------------------------ */

static int
struct_size (WsRun *run)
{
  return run->ops->variant == ALIGN_STRUCT7_PADDED ? 8 : 7;
}

static void
struct7_launch (WsRun *run)
{
  ws_launch_struct7 (run->ops->variant == ALIGN_STRUCT7_PADDED, run->d[0], run->d[1], run->n, 0, &run->shape);
}

static gboolean
struct7_prepare (WsRun   *run,
                 GError **error)
{
  gsize size = struct_size (run);

  run->n = ws_run_param (run, "N");
  run->bytes = 7 * run->n + 4 * run->n;
  run->note = g_strdup_printf ("%" G_GSIZE_FORMAT "-byte structures; bytes count the 7 of each that are data", size);
  run->launch = struct7_launch;
  return ws_run_alloc_in_out (run, (run->n * size + 3) / 4, run->n, SEED_IN, error);
}

static guint32
struct7_expect (gsize    i,
                gpointer data)
{
  gsize b = i * struct_size (data);

  return ((guint32) input_byte (b) | (guint32) input_byte (b + 1) << 8 | (guint32) input_byte (b + 2) << 16 |
          (guint32) input_byte (b + 3) << 24) ^
         ((guint32) input_byte (b + 4) | (guint32) input_byte (b + 5) << 8 | (guint32) input_byte (b + 6) << 16);
}

static gboolean
struct7_verify (WsRun   *run,
                GError **error)
{
  return ws_run_verify_words (run, "out", run->d[1], run->n, struct7_expect, run, error);
}

/* ------------------------------------------------------------------ */
/* Pitched 2-D and 3-D arrays                                         */
/* ------------------------------------------------------------------ */

typedef struct
{
  gint64 width, height, depth;
  gint64 pitch;                /* in elements, as the allocator chose it */
  void *in, *out;              /* from cudaMalloc3D or cudaMallocPitch */
  guint32 *host;               /* memcpy2d: the packed rows, pinned */
  guint generation;
} PitchRun;

static void
pitch_run_free (gpointer data)
{
  PitchRun *p = data;

  /* after a fault the context that held them is gone */
  if (p->generation == ws_gpu_generation ())
    {
      cudaFree (p->in);
      cudaFree (p->out);
      cudaGetLastError ();
    }
  g_free (p);
}

static void
pitched_launch (WsRun *run)
{
  PitchRun *p = run->data;
  int span;

  if (run->ops->variant == ALIGN_MALLOC3D)
    {
      ws_launch_pitch3d (p->in, p->out, p->width, p->height, p->depth, p->pitch, 0, &run->shape);
      return;
    }
  span = ws_run_span_begin (run, 0);
  cudaMemcpy2DAsync (p->in, p->pitch * 4, p->host, p->width * 4, p->width * 4, p->height, cudaMemcpyHostToDevice, 0);
  ws_run_span_end (run, span, 0, WS_SPAN_HOST_TO_DEVICE, 0);
  span = ws_run_span_begin (run, 0);
  ws_launch_pitch (p->in, p->out, p->width, p->height, p->pitch, 0, &run->shape);
  ws_run_span_end (run, span, 0, WS_SPAN_KERNEL, 0);
}

static gboolean
pitched_alloc (WsRun    *run,
               PitchRun *p,
               GError  **error)
{
  if (run->ops->variant == ALIGN_MALLOC3D)
    {
      struct cudaExtent extent = { p->width * 4, p->height, p->depth };
      struct cudaPitchedPtr in, out;

      if (!ws_gpu_check (cudaMalloc3D (&in, extent), "cudaMalloc3D", error))
        return FALSE;
      p->in = in.ptr;
      if (!ws_gpu_check (cudaMalloc3D (&out, extent), "cudaMalloc3D", error))
        return FALSE;
      p->out = out.ptr;
      g_assert (in.pitch == out.pitch && in.pitch % 4 == 0);
      p->pitch = in.pitch / 4;
    }
  else
    {
      gsize pitch_in = 0, pitch_out = 0;

      if (!ws_gpu_check (cudaMallocPitch (&p->in, &pitch_in, p->width * 4, p->height), "cudaMallocPitch", error) ||
          !ws_gpu_check (cudaMallocPitch (&p->out, &pitch_out, p->width * 4, p->height), "cudaMallocPitch", error))
        return FALSE;
      g_assert (pitch_in == pitch_out && pitch_in % 4 == 0);
      p->pitch = pitch_in / 4;
    }
  return TRUE;
}

static gboolean
pitched_prepare (WsRun   *run,
                 GError **error)
{
  PitchRun *p = g_new0 (PitchRun, 1);
  gsize words;

  run->data = p;
  run->data_free = pitch_run_free;
  p->generation = ws_gpu_generation ();
  p->width = ws_run_param (run, "W");
  p->height = ws_run_param (run, "H");
  p->depth = run->ops->variant == ALIGN_MALLOC3D ? ws_run_param (run, "D") : 1;
  if (!pitched_alloc (run, p, error))
    return FALSE;
  run->launch = pitched_launch;
  run->n = p->width * p->height * p->depth;
  words = p->pitch * p->height * p->depth;
  run->note = g_strdup_printf ("%s chose a pitch of %" G_GINT64_FORMAT " bytes for rows of %" G_GINT64_FORMAT,
                               run->ops->variant == ALIGN_MALLOC3D ? "cudaMalloc3D" : "cudaMallocPitch",
                               p->pitch * 4, p->width * 4);
  if (run->ops->variant == ALIGN_MALLOC3D)
    {
      run->bytes = 8 * run->n;
      return ws_gpu_fill (p->in, words, SEED_IN, error) &&
             ws_gpu_set_bytes (p->out, WS_POISON_BYTE, words * 4, error);
    }
  /* memcpy2d: bytes are those that cross the bus */
  run->bytes = 4 * run->n;
  p->host = ws_gpu_pinned (1, run->n * 4, error);
  if (p->host == NULL)
    return FALSE;
  ws_run_fill_host (p->host, run->n, SEED_IN);
  return ws_gpu_set_bytes (p->out, WS_POISON_BYTE, words * 4, error);
}

/* element k of the pitched output: the input where there is a row's
 * element, the poison in the padding */
static guint32
pitched_expect (gsize    k,
                gpointer data)
{
  PitchRun *p = ((WsRun *) data)->data;
  gint64 x = k % p->pitch, row = k / p->pitch;

  if (x >= p->width)
    return WS_POISON;
  /* malloc3d: the input is pitched too; memcpy2d: packed on the host */
  return ws_value (((WsRun *) data)->ops->variant == ALIGN_MALLOC3D ? (gint64) k : row * p->width + x, SEED_IN);
}

static gboolean
pitched_verify (WsRun   *run,
                GError **error)
{
  PitchRun *p = run->data;

  return ws_run_verify_words (run, "out", p->out, p->pitch * p->height * p->depth, pitched_expect, run, error);
}

static const WsKernelOps ops[] = {
  { "alignment/struct7", ALIGN_STRUCT7, struct7_prepare, struct7_verify },
  { "alignment/struct7-padded", ALIGN_STRUCT7_PADDED, struct7_prepare, struct7_verify },
  { "alignment/malloc3d", ALIGN_MALLOC3D, pitched_prepare, pitched_verify },
  { "alignment/memcpy2d", ALIGN_MEMCPY2D, pitched_prepare, pitched_verify, NULL, ws_run_report_timeline },
};

const WsKernelOps *
ws_gpu_alignment_ops (const char *id)
{
  for (guint i = 0; i < G_N_ELEMENTS (ops); i++)
    if (g_str_equal (ops[i].id, id))
      return &ops[i];
  return NULL;
}
