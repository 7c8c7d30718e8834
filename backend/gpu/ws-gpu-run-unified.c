/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Unified memory and UVA: one kernel (out[i] = in[i] * 3 + 1) whose input
 * the host wrote, reached seven ways — copied explicitly from pageable
 * memory; in managed memory (cudaMallocManaged or a __managed__ variable)
 * that migrates on the kernel's page faults, that is prefetched first, that
 * is advised read-mostly, or that prefers to stay on the host; and in pinned
 * host memory that the kernel reads through its own host pointer (UVA).
 *
 * Before every timed sample the managed input goes back to the host
 * (cudaMemPrefetchAsync to the CPU, outside the timing), as if the host had
 * just written it: each sample starts where the program would. bytes counts
 * the input once: what must reach the GPU.
 *
 * Managed memory beyond what the device has free can hang the GPU, not only
 * the program: a run that would take more than a quarter of the free
 * memory is refused before anything is allocated. */
#include "ws-config.h"
#include "ws-gpu-private.h"

#include <glib/gi18n-lib.h>

enum { SEED_IN = 1 };

typedef enum
{
  UNIFIED_EXPLICIT,
  UNIFIED_MANAGED,
  UNIFIED_PREFETCH,
  UNIFIED_READ_MOSTLY,
  UNIFIED_PREFERRED_HOST,
  UNIFIED_VARIABLE,
  UNIFIED_MAPPED,
} UnifiedVariant;

typedef struct
{
  guint32 *in;                 /* what the kernel reads (host, managed or mapped) */
  guint32 *managed;            /* cudaMallocManaged here, freed with the run */
  guint generation;
  int device;
} UnifiedRun;

static void
unified_free (gpointer data)
{
  UnifiedRun *u = data;

  if (u->managed && u->generation == ws_gpu_generation ())
    {
      cudaFree (u->managed);
      cudaGetLastError ();
    }
  g_free (u);
}

static gboolean
is_managed (int variant)
{
  return variant != UNIFIED_EXPLICIT && variant != UNIFIED_MAPPED;
}

static struct cudaMemLocation
on_device (UnifiedRun *u)
{
  return (struct cudaMemLocation) { cudaMemLocationTypeDevice, u->device };
}

static struct cudaMemLocation
on_host (void)
{
  return (struct cudaMemLocation) { cudaMemLocationTypeHost, 0 };
}

static void
unified_launch (WsRun *run)
{
  UnifiedRun *u = run->data;
  gsize bytes = run->n * 4;
  int span;

  switch (run->ops->variant)
    {
    case UNIFIED_EXPLICIT:
      span = ws_run_span_begin (run, 0);
      cudaMemcpyAsync (run->d[0], u->in, bytes, cudaMemcpyHostToDevice, 0);
      ws_run_span_end (run, span, 0, WS_SPAN_HOST_TO_DEVICE, 0);
      span = ws_run_span_begin (run, 0);
      ws_launch_scale (run->d[0], run->d[1], run->n, 0, &run->shape);
      ws_run_span_end (run, span, 0, WS_SPAN_KERNEL, 0);
      return;
    case UNIFIED_PREFETCH:
      span = ws_run_span_begin (run, 0);
      cudaMemPrefetchAsync (u->in, bytes, on_device (u), 0, 0);
      ws_run_span_end (run, span, 0, WS_SPAN_PREFETCH, 0);
      break;
    default:
      break;
    }
  span = ws_run_span_begin (run, 0);
  ws_launch_scale (u->in, run->d[1], run->n, 0, &run->shape);
  ws_run_span_end (run, span, 0, WS_SPAN_KERNEL, 0);
}

/* the input goes back to the host, as if the host had just written it */
static void
unified_before (WsRun *run)
{
  UnifiedRun *u = run->data;

  cudaMemPrefetchAsync (u->in, run->n * 4, on_host (), 0, 0);
}

static gboolean
check_managed (WsRun      *run,
               UnifiedRun *u,
               GError    **error)
{
  const WsDeviceInfo *dev = ws_gpu_device ();
  int managed = 0, concurrent = 0;
  gsize bytes = run->n * 4, free_bytes;

  cudaDeviceGetAttribute (&managed, cudaDevAttrManagedMemory, u->device);
  cudaDeviceGetAttribute (&concurrent, cudaDevAttrConcurrentManagedAccess, u->device);
  if (!managed || !concurrent)
    {
      g_set_error (error, WS_GPU_ERROR, WS_GPU_ERROR_UNSUPPORTED,
                   /* Translators: the kernel's id, then the GPU's name */
                   _("%s: %s on this system does not migrate managed memory on demand "
                     "(cudaDevAttrConcurrentManagedAccess is 0: Windows, WSL or an old GPU)"),
                   run->info->id, dev->name);
      return FALSE;
    }
  free_bytes = ws_gpu_free_memory ();
  if (free_bytes == 0 || bytes > free_bytes / 4)
    {
      g_autofree char *want = g_format_size_full (bytes, G_FORMAT_SIZE_IEC_UNITS);
      g_autofree char *have = g_format_size_full (free_bytes, G_FORMAT_SIZE_IEC_UNITS);
      g_set_error (error, WS_GPU_ERROR, WS_GPU_ERROR_OUT_OF_MEMORY,
                   /* Translators: the kernel's id, then two sizes (“1.5 GiB”) */
                   _("%s: %s of managed memory is more than a quarter of the %s the device has free; "
                     "asking for more managed memory than is free can hang the GPU"), run->info->id, want, have);
      return FALSE;
    }
  return TRUE;
}

static gboolean
managed_input (WsRun      *run,
               UnifiedRun *u,
               GError    **error)
{
  gsize bytes = run->n * 4;
  int variant = run->ops->variant;

  if (variant == UNIFIED_VARIABLE)
    {
      if (run->n > WS_MANAGED_WORDS)
        /* Translators: N is the kernel's parameter */
        return ws_run_set_error (run, error, _("N = %lld is more than the %d words of the variable"), (long long) run->n, WS_MANAGED_WORDS);
      if (!ws_gpu_check (ws_managed_variable (&u->in), _("cudaGetSymbolAddress (a __managed__ variable)"), error))
        return FALSE;
    }
  else
    {
      if (!ws_gpu_check (cudaMallocManaged ((void **) &u->managed, bytes, cudaMemAttachGlobal),
                         "cudaMallocManaged", error))
        return FALSE;
      u->in = u->managed;
    }
  if (variant == UNIFIED_READ_MOSTLY &&
      !ws_gpu_check (cudaMemAdvise (u->in, bytes, cudaMemAdviseSetReadMostly, on_device (u)),
                     _("cudaMemAdvise (read mostly)"), error))
    return FALSE;
  if (variant == UNIFIED_PREFERRED_HOST &&
      (!ws_gpu_check (cudaMemAdvise (u->in, bytes, cudaMemAdviseSetPreferredLocation, on_host ()),
                      _("cudaMemAdvise (preferred location: the host)"), error) ||
       !ws_gpu_check (cudaMemAdvise (u->in, bytes, cudaMemAdviseSetAccessedBy, on_device (u)),
                      _("cudaMemAdvise (accessed by the device)"), error)))
    return FALSE;
  /* the host touches it first: its pages start in host memory */
  ws_run_fill_host (u->in, run->n, SEED_IN);
  run->before = unified_before;
  return TRUE;
}

/* pinned memory is mapped at the same address on the device (UVA): the
 * kernel takes the host's pointer as it is */
static gboolean
mapped_input (WsRun      *run,
              UnifiedRun *u,
              GError    **error)
{
  struct cudaPointerAttributes attr;

  u->in = ws_gpu_pinned (1, run->n * 4, error);
  if (u->in == NULL ||
      !ws_gpu_check (cudaPointerGetAttributes (&attr, u->in), "cudaPointerGetAttributes", error))
    return FALSE;
  if (attr.devicePointer != (void *) u->in)
    {
      g_set_error (error, WS_GPU_ERROR, WS_GPU_ERROR_UNSUPPORTED,
                   /* Translators: %s is the kernel's id */
                   _("%s: pinned memory is mapped at another address on the device: no unified addressing here"),
                   run->info->id);
      return FALSE;
    }
  ws_run_fill_host (u->in, run->n, SEED_IN);
  return TRUE;
}

static gboolean
unified_prepare (WsRun   *run,
                 GError **error)
{
  UnifiedRun *u = g_new0 (UnifiedRun, 1);
  int variant = run->ops->variant;

  run->data = u;
  run->data_free = unified_free;
  u->generation = ws_gpu_generation ();
  cudaGetDevice (&u->device);
  run->n = ws_run_param (run, "N");
  run->bytes = 4 * run->n;
  run->note = g_strdup ("bytes are the input's: what must reach the GPU");
  run->launch = unified_launch;
  if (is_managed (variant) && !check_managed (run, u, error))
    return FALSE;
  run->d[1] = ws_gpu_buffer (1, run->n * 4, error);
  if (run->d[1] == NULL || !ws_gpu_set_bytes (run->d[1], WS_POISON_BYTE, run->n * 4, error))
    return FALSE;
  switch (variant)
    {
    case UNIFIED_EXPLICIT:
      run->d[0] = ws_gpu_buffer (0, run->n * 4, error);
      u->in = run->d[0] ? ws_gpu_pageable (run->n * 4, error) : NULL;
      if (u->in == NULL)
        return FALSE;
      ws_run_fill_host (u->in, run->n, SEED_IN);
      return TRUE;
    case UNIFIED_MAPPED:
      return mapped_input (run, u, error);
    default:
      return managed_input (run, u, error);
    }
}

static guint32
scale_expect (gsize    k,
              gpointer data)
{
  return ws_value (k, SEED_IN) * 3u + 1u;
}

static gboolean
unified_verify (WsRun   *run,
                GError **error)
{
  return ws_run_verify_words (run, "out", run->d[1], run->n, scale_expect, run, error);
}

static const WsKernelOps ops[] = {
  { "unified/explicit", UNIFIED_EXPLICIT, unified_prepare, unified_verify, NULL, ws_run_report_timeline },
  { "unified/managed", UNIFIED_MANAGED, unified_prepare, unified_verify, NULL, ws_run_report_timeline },
  { "unified/prefetch", UNIFIED_PREFETCH, unified_prepare, unified_verify, NULL, ws_run_report_timeline },
  { "unified/read-mostly", UNIFIED_READ_MOSTLY, unified_prepare, unified_verify, NULL, ws_run_report_timeline },
  { "unified/preferred-host", UNIFIED_PREFERRED_HOST, unified_prepare, unified_verify, NULL,
    ws_run_report_timeline },
  { "unified/managed-variable", UNIFIED_VARIABLE, unified_prepare, unified_verify, NULL, ws_run_report_timeline },
  { "unified/mapped-uva", UNIFIED_MAPPED, unified_prepare, unified_verify, NULL, ws_run_report_timeline },
};

const WsKernelOps *
ws_gpu_unified_ops (const char *id)
{
  for (guint i = 0; i < G_N_ELEMENTS (ops); i++)
    if (g_str_equal (ops[i].id, id))
      return &ops[i];
  return NULL;
}
