/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The 2-D stencil read five ways (ws-kernels-stencil.cu): plain loads,
 * const __restrict__, __ldg, a texture object over a CUDA array, and a
 * shared-memory tile with its halo. bytes counts what the kernel must read
 * and write, each distinct byte once: the reuse is what the caches serve. */
#include "ws-config.h"
#include "ws-gpu-private.h"

#include <glib/gi18n-lib.h>

enum { SEED_IN = 1, SEED_COEFF = 5 };

#define SIDE (2 * WS_STENCIL_MAX_RADIUS + 1)

typedef struct
{
  gint64 w, h, pw, ph;         /* the output, and the padded input */
  int radius;
  guint32 coeff[SIDE * SIDE];
  cudaArray_t array;           /* texture only */
  cudaTextureObject_t tex;
  guint generation;
} StencilRun;

static void
stencil_free (gpointer data)
{
  StencilRun *s = data;

  /* after a fault the context that held them is gone */
  if (s->generation == ws_gpu_generation ())
    {
      if (s->tex)
        cudaDestroyTextureObject (s->tex);
      if (s->array)
        cudaFreeArray (s->array);
      cudaGetLastError ();
    }
  g_free (s);
}

static void
stencil_launch (WsRun *run)
{
  StencilRun *s = run->data;

  ws_launch_stencil (run->ops->variant, s->radius, run->d[0], run->d[1], s->w, s->h, s->tex, 0, &run->shape);
}

/* a CUDA array holding the padded input, read through a texture object
 * with point sampling and element reads: the values themselves */
static gboolean
make_texture (WsRun      *run,
              StencilRun *s,
              GError    **error)
{
  struct cudaChannelFormatDesc desc = cudaCreateChannelDesc (32, 0, 0, 0, cudaChannelFormatKindUnsigned);
  struct cudaResourceDesc res = { 0 };
  struct cudaTextureDesc tex = { 0 };

  if (!ws_gpu_check (cudaMallocArray (&s->array, &desc, s->pw, s->ph, 0), "cudaMallocArray", error) ||
      !ws_gpu_check (cudaMemcpy2DToArray (s->array, 0, 0, run->d[0], s->pw * 4, s->pw * 4, s->ph,
                                          cudaMemcpyDeviceToDevice),
                     "cudaMemcpy2DToArray", error))
    return FALSE;
  res.resType = cudaResourceTypeArray;
  res.res.array.array = s->array;
  tex.addressMode[0] = tex.addressMode[1] = cudaAddressModeClamp;
  tex.filterMode = cudaFilterModePoint;
  tex.readMode = cudaReadModeElementType;
  tex.normalizedCoords = 0;
  return ws_gpu_check (cudaCreateTextureObject (&s->tex, &res, &tex, NULL), "cudaCreateTextureObject", error);
}

static gboolean
stencil_prepare (WsRun   *run,
                 GError **error)
{
  StencilRun *s = g_new0 (StencilRun, 1);
  gint64 r = ws_run_param (run, "radius");

  run->data = s;
  run->data_free = stencil_free;
  s->generation = ws_gpu_generation ();
  if (r < 1 || r > WS_STENCIL_MAX_RADIUS)
    /* Translators: radius is the kernel's parameter */
    return ws_run_set_error (run, error, _("radius = %lld is not 1 to %d"), (long long) r, WS_STENCIL_MAX_RADIUS);
  s->radius = (int) r;
  s->w = ws_run_param (run, "W");
  s->h = ws_run_param (run, "H");
  s->pw = s->w + 2 * r;
  s->ph = s->h + 2 * r;
  for (guint k = 0; k < SIDE * SIDE; k++)
    s->coeff[k] = ws_value (k, SEED_COEFF);
  run->n = s->w * s->h;
  run->bytes = 4 * s->pw * s->ph + 4 * run->n;
  run->note = g_strdup_printf ("%d × %d points, each input read by %d threads", (int) (2 * r + 1),
                               (int) (2 * r + 1), (int) ((2 * r + 1) * (2 * r + 1)));
  run->launch = stencil_launch;
  if (!ws_run_alloc_in_out (run, s->pw * s->ph, run->n, SEED_IN, error) ||
      !ws_gpu_check (ws_stencil_upload (s->coeff, 0), _("filling constant memory"), error))
    return FALSE;
  return run->ops->variant != WS_STENCIL_TEXTURE || make_texture (run, s, error);
}

static guint32
stencil_expect (gsize    k,
                gpointer data)
{
  WsRun *run = data;
  StencilRun *s = run->data;
  gint64 x = k % s->w, y = k / s->w, r = s->radius;
  guint32 acc = 0;

  for (gint64 dy = -r; dy <= r; dy++)
    for (gint64 dx = -r; dx <= r; dx++)
      acc += s->coeff[(dy + r) * (2 * r + 1) + dx + r] * ws_value ((y + r + dy) * s->pw + x + r + dx, SEED_IN);
  return acc;
}

static gboolean
stencil_verify (WsRun   *run,
                GError **error)
{
  return ws_run_verify_words (run, "out", run->d[1], run->n, stencil_expect, run, error);
}

static const WsKernelOps ops[] = {
  { "readonly/stencil-plain", WS_STENCIL_PLAIN, stencil_prepare, stencil_verify },
  { "readonly/stencil-restrict", WS_STENCIL_RESTRICT, stencil_prepare, stencil_verify },
  { "readonly/stencil-ldg", WS_STENCIL_LDG, stencil_prepare, stencil_verify },
  { "readonly/stencil-texture", WS_STENCIL_TEXTURE, stencil_prepare, stencil_verify },
  { "readonly/stencil-shared", WS_STENCIL_SHARED, stencil_prepare, stencil_verify },
};

const WsKernelOps *
ws_gpu_stencil_ops (const char *id)
{
  for (guint i = 0; i < G_N_ELEMENTS (ops); i++)
    if (g_str_equal (ops[i].id, id))
      return &ops[i];
  return NULL;
}
