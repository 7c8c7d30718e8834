/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The device: why there is none, what it is, its context and the buffers
 * cached between jobs, and recovery after a fault. */
#include "ws-config.h"
#include "ws-gpu-private.h"

#include <dlfcn.h>
#include <glib/gi18n-lib.h>
#include <string.h>

G_DEFINE_QUARK (ws-gpu-error-quark, ws_gpu_error)

#define N_DEVICE_SLOTS 8
#define N_PINNED_SLOTS 2
#define MAX_STREAMS 16

typedef struct
{
  void *ptr;
  gsize bytes;
} Buffer;

typedef struct
{
  gboolean probed;
  int ordinal;               /* the GPU chosen (ws_gpu_select), 0 by default */
  gboolean busy;             /* the last probe found the GPU held by another process */
  WsDeviceInfo *info;
  GError *probe_error;
  gboolean ready;            /* context made, streams and events exist */
  guint generation;
  cudaEvent_t start, stop;
  cudaStream_t streams[MAX_STREAMS];
  guint n_streams;
  Buffer device[N_DEVICE_SLOTS];
  Buffer pinned[N_PINNED_SLOTS];
  Buffer mapped;
  void *mapped_device;
  Buffer pageable;
  Buffer flush;
  long long *clock_out;
} State;

static State state;
static GRecMutex lock;

void
ws_gpu_lock (void)
{
  g_rec_mutex_lock (&lock);
}

void
ws_gpu_unlock (void)
{
  g_rec_mutex_unlock (&lock);
}

gboolean
ws_gpu_is_built (void)
{
  return TRUE;
}

const char *
ws_gpu_build_description (void)
{
  return "CUDA " WS_CUDA_VERSION ", kernels for sm_" WS_GPU_ARCHS;
}

guint
ws_gpu_generation (void)
{
  return state.generation;
}

/* ------------------------------------------------------------------ */
/* Errors                                                             */
/* ------------------------------------------------------------------ */

static gboolean
is_fault (cudaError_t err)
{
  switch (err)
    {
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchFailure:
    case cudaErrorMisalignedAddress:
    case cudaErrorHardwareStackError:
    case cudaErrorIllegalInstruction:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorInvalidPc:
    case cudaErrorAssert:
    case cudaErrorLaunchTimeout:
    case cudaErrorECCUncorrectable:
    case cudaErrorLaunchIncompatibleTexturing:
      return TRUE;
    default:
      return FALSE;
    }
}

static WsGpuError
error_code (cudaError_t err)
{
  switch (err)
    {
    case cudaErrorInsufficientDriver:
    case cudaErrorUnsupportedPtxVersion:
      return WS_GPU_ERROR_DRIVER_TOO_OLD;
    case cudaErrorNoDevice:
    case cudaErrorDevicesUnavailable:     /* exclusive compute mode, held by another process */
      return WS_GPU_ERROR_NO_DEVICE;
    case cudaErrorNoKernelImageForDevice:
    case cudaErrorInvalidDeviceFunction:
      return WS_GPU_ERROR_UNSUPPORTED;
    case cudaErrorMemoryAllocation:
      return WS_GPU_ERROR_OUT_OF_MEMORY;
    default:
      return is_fault (err) ? WS_GPU_ERROR_KERNEL_FAULT : WS_GPU_ERROR_CUDA;
    }
}

static void forget_context (void);

gboolean
ws_gpu_fail (cudaError_t err,
             const char *what,
             GError    **error)
{
  WsGpuError code = error_code (err);

  /* clear a non-sticky error so that it does not surface again later */
  cudaGetLastError ();
  if (code == WS_GPU_ERROR_KERNEL_FAULT)
    {
      cudaError_t reset;

      /* a fault poisons the context: throw it away, the next job makes a new one */
      forget_context ();
      reset = cudaDeviceReset ();
      cudaGetLastError ();
      /* whether the reset worked or not, CUDA may refuse this process
       * further work: the backend runs the GPU in a process of its own */
      (void) reset;
      /* Translators: what the program was doing, then CUDA's description of
       * the error and its name (both in English) */
      g_set_error (error, WS_GPU_ERROR, code, _("%s: the kernel faulted: %s (%s)"),
                   what, cudaGetErrorString (err), cudaGetErrorName (err));
    }
  else
    /* Translators: what the program was doing, then CUDA's description of
     * the error and its name (both in English) */
    g_set_error (error, WS_GPU_ERROR, code, _("%s: %s (%s)"), what, cudaGetErrorString (err), cudaGetErrorName (err));
  return FALSE;
}

gboolean
ws_gpu_check (cudaError_t err,
              const char *what,
              GError    **error)
{
  return err == cudaSuccess || ws_gpu_fail (err, what, error);
}

gboolean
ws_gpu_sync (const char *what,
             GError    **error)
{
  cudaError_t err = cudaDeviceSynchronize ();

  if (err == cudaSuccess)
    err = cudaGetLastError ();
  return ws_gpu_check (err, what, error);
}

/* ------------------------------------------------------------------ */
/* Probing                                                            */
/* ------------------------------------------------------------------ */

static char *
version_string (int v)
{
  return g_strdup_printf ("%d.%d", v / 1000, (v % 1000) / 10);
}

static int
attribute (enum cudaDeviceAttr attr)
{
  int value = 0;

  if (cudaDeviceGetAttribute (&value, attr, ws_gpu_selected ()) != cudaSuccess)
    {
      cudaGetLastError ();
      return 0;
    }
  return value;
}

static gboolean
check_driver (GError **error)
{
  void *handle = dlopen ("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);

  if (handle == NULL)
    {
      const char *why = dlerror ();

      if (why != NULL)
        g_set_error (error, WS_GPU_ERROR, WS_GPU_ERROR_NO_DRIVER,
                     /* Translators: %s is the dynamic loader's reason, in English */
                     _("no NVIDIA driver: libcuda.so.1 cannot be loaded (%s)"), why);
      else
        g_set_error_literal (error, WS_GPU_ERROR, WS_GPU_ERROR_NO_DRIVER,
                             _("no NVIDIA driver: libcuda.so.1 cannot be loaded (not found)"));
      return FALSE;
    }
  /* keep it loaded: the runtime loads it again and must find the same one */
  return TRUE;
}

static gboolean
check_versions (WsDeviceInfo *info,
                GError      **error)
{
  int driver = 0, runtime = 0, count = 0;
  cudaError_t err;

  cudaDriverGetVersion (&driver);
  cudaRuntimeGetVersion (&runtime);
  info->driver_version = version_string (driver);
  info->runtime_version = version_string (runtime);
  err = cudaGetDeviceCount (&count);
  if (err == cudaErrorInsufficientDriver)
    {
      g_set_error (error, WS_GPU_ERROR, WS_GPU_ERROR_DRIVER_TOO_OLD,
                   /* Translators: two CUDA versions, such as 12.4 */
                   _("the NVIDIA driver supports CUDA %s, but this build needs CUDA %s or newer: update the driver"),
                   info->driver_version, info->runtime_version);
      return FALSE;
    }
  if (err == cudaErrorNoDevice || (err == cudaSuccess && count == 0))
    {
      if (err == cudaSuccess)
        g_set_error (error, WS_GPU_ERROR, WS_GPU_ERROR_NO_DEVICE,
                     /* Translators: %s is a CUDA version, such as 12.4 */
                     _("the NVIDIA driver (CUDA %s) sees no GPU (none reported)"), info->driver_version);
      else
        g_set_error (error, WS_GPU_ERROR, WS_GPU_ERROR_NO_DEVICE,
                     /* Translators: a CUDA version, such as 12.4, then CUDA's description
                      * of the error (in English) */
                     _("the NVIDIA driver (CUDA %s) sees no GPU (%s)"), info->driver_version,
                     cudaGetErrorString (err));
      return FALSE;
    }
  if (err != cudaSuccess)
    return ws_gpu_fail (err, _("looking for GPUs"), error);
  return TRUE;
}

static void
describe_device (WsDeviceInfo *info)
{
  struct cudaDeviceProp prop;

  memset (&prop, 0, sizeof prop);
  if (cudaGetDeviceProperties (&prop, ws_gpu_selected ()) == cudaSuccess)
    {
      info->name = g_strdup (prop.name);
      info->global_mem_bytes = (gint64) prop.totalGlobalMem;
    }
  else
    info->name = g_strdup ("unknown GPU");
  info->cc_major = attribute (cudaDevAttrComputeCapabilityMajor);
  info->cc_minor = attribute (cudaDevAttrComputeCapabilityMinor);
  info->sm_count = attribute (cudaDevAttrMultiProcessorCount);
  info->l2_bytes = attribute (cudaDevAttrL2CacheSize);
  info->l2_persisting_max_bytes = attribute (cudaDevAttrMaxPersistingL2CacheSize);
  info->shared_per_sm = attribute (cudaDevAttrMaxSharedMemoryPerMultiprocessor);
  info->shared_per_block_optin = attribute (cudaDevAttrMaxSharedMemoryPerBlockOptin);
  info->registers_per_sm = attribute (cudaDevAttrMaxRegistersPerMultiprocessor);
  info->max_threads_per_sm = attribute (cudaDevAttrMaxThreadsPerMultiProcessor);
  info->max_blocks_per_sm = attribute (cudaDevAttrMaxBlocksPerMultiprocessor);
  info->sm_clock_mhz = attribute (cudaDevAttrClockRate) / 1000;
  info->mem_clock_mhz = attribute (cudaDevAttrMemoryClockRate) / 1000;
  info->mem_bus_bits = attribute (cudaDevAttrGlobalMemoryBusWidth);
  /* double data rate: two transfers per memory clock */
  info->peak_bandwidth_gbs = 2.0 * attribute (cudaDevAttrMemoryClockRate) * 1e3 * (info->mem_bus_bits / 8) / 1e9;
}

static gboolean
check_kernels (const WsDeviceInfo *info,
               GError            **error)
{
  struct cudaFuncAttributes attr;
  cudaError_t err = cudaFuncGetAttributes (&attr, ws_fill_words_func ());

  if (err == cudaErrorNoKernelImageForDevice || err == cudaErrorInvalidDeviceFunction)
    {
      cudaGetLastError ();
      g_set_error (error, WS_GPU_ERROR, WS_GPU_ERROR_UNSUPPORTED,
                   /* Translators: the GPU's name and its architecture (sm_86: the two
                    * digits of its compute capability), then the architectures the build
                    * has (“86,sm_90”); -Dgpu_archs is a build option */
                   _("%s (sm_%d%d) is not among the architectures this build's kernels were compiled for "
                     "(sm_%s); rebuild with -Dgpu_archs=%d%d"),
                   info->name, info->cc_major, info->cc_minor, WS_GPU_ARCHS, info->cc_major, info->cc_minor);
      return FALSE;
    }
  if (err == cudaErrorUnsupportedPtxVersion)
    {
      cudaGetLastError ();
      g_set_error (error, WS_GPU_ERROR, WS_GPU_ERROR_DRIVER_TOO_OLD,
                   /* Translators: a CUDA version, such as 12.4, then the GPU's name */
                   _("the NVIDIA driver (CUDA %s) is too old to compile this build's kernels for %s: update the driver"),
                   info->driver_version, info->name);
      return FALSE;
    }
  return ws_gpu_check (err, _("loading the kernels"), error);
}

static WsDeviceInfo *
probe (GError **error)
{
  g_autoptr (WsDeviceInfo) info = ws_device_info_new ();
  cudaError_t err;

  if (!check_driver (error) || !check_versions (info, error))
    return NULL;
  err = cudaSetDevice (ws_gpu_selected ());
  if (err == cudaErrorDevicesUnavailable)
    {
      cudaGetLastError ();
      state.busy = TRUE;
      g_set_error (error, WS_GPU_ERROR, WS_GPU_ERROR_NO_DEVICE,
                   _("the GPU is busy: another process holds it (exclusive compute mode); try again when it is done"));
      return NULL;
    }
  if (!ws_gpu_check (err, _("selecting the GPU"), error))
    return NULL;
  describe_device (info);
  if (!check_kernels (info, error))
    return NULL;
  return g_steal_pointer (&info);
}

WsDeviceInfo *
ws_gpu_probe (GError **error)
{
  WsDeviceInfo *copy = NULL;

  ws_gpu_lock ();
  /* a busy GPU may be free next time: only that answer is not kept */
  if (!state.probed || state.busy)
    {
      g_clear_error (&state.probe_error);
      state.busy = FALSE;
      state.info = probe (&state.probe_error);
      state.probed = TRUE;
    }
  if (state.info)
    copy = ws_device_info_copy (state.info);
  else
    g_propagate_error (error, g_error_copy (state.probe_error));
  ws_gpu_unlock ();
  return copy;
}

void
ws_gpu_summary_free (WsGpuSummary *summary)
{
  if (summary == NULL)
    return;
  g_free (summary->name);
  g_free (summary);
}

/* cudaGetDeviceProperties makes no context: listing leaves every GPU free */
GPtrArray *
ws_gpu_list (GError **error)
{
  g_autoptr (WsDeviceInfo) versions = ws_device_info_new ();
  g_autoptr (GPtrArray) gpus = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_gpu_summary_free);
  int count = 0;

  ws_gpu_lock ();
  if (!check_driver (error) || !check_versions (versions, error))
    {
      ws_gpu_unlock ();
      return NULL;
    }
  cudaGetDeviceCount (&count);
  for (int i = 0; i < count; i++)
    {
      struct cudaDeviceProp prop;
      WsGpuSummary *s = g_new0 (WsGpuSummary, 1);

      memset (&prop, 0, sizeof prop);
      s->index = i;
      if (cudaGetDeviceProperties (&prop, i) == cudaSuccess)
        {
          s->name = g_strdup (prop.name);
          s->cc_major = prop.major;
          s->cc_minor = prop.minor;
          s->memory_bytes = (gint64) prop.totalGlobalMem;
        }
      else
        {
          cudaGetLastError ();
          s->name = g_strdup ("a GPU the driver cannot describe");
        }
      g_ptr_array_add (gpus, s);
    }
  ws_gpu_unlock ();
  return g_steal_pointer (&gpus);
}

gboolean
ws_gpu_select (int      index,
               GError **error)
{
  g_autoptr (GPtrArray) gpus = NULL;
  g_autoptr (GString) there = g_string_new (NULL);
  gboolean ok;
  int current;

  g_return_val_if_fail (index >= 0, FALSE);

  ws_gpu_lock ();
  ok = !state.probed || state.ordinal == index;
  current = state.ordinal;
  ws_gpu_unlock ();
  if (!ok)
    {
      g_set_error (error, WS_GPU_ERROR, WS_GPU_ERROR_INVALID_PARAM,
                   /* Translators: %d is the GPU's number, as the driver counts them from 0 */
                   _("this process already measures on GPU %d; a GPU is chosen before the first measurement"),
                   current);
      return FALSE;
    }
  gpus = ws_gpu_list (error);
  if (gpus == NULL)
    return FALSE;
  if ((guint) index < gpus->len)
    {
      ws_gpu_lock ();
      state.ordinal = index;
      ws_gpu_unlock ();
      return TRUE;
    }
  for (guint i = 0; i < gpus->len; i++)
    {
      const WsGpuSummary *s = g_ptr_array_index (gpus, i);
      g_string_append_printf (there, "%s%d: %s", i ? ", " : "", s->index, s->name);
    }
  g_set_error (error, WS_GPU_ERROR, WS_GPU_ERROR_NO_DEVICE,
               /* Translators: the GPU asked for, then how many the driver sees and
                * their list (“0: NVIDIA H100, 1: NVIDIA H100”) */
               g_dngettext (GETTEXT_PACKAGE, "there is no GPU %d: the driver sees %u (%s)",
                            "there is no GPU %d: the driver sees %u (%s)", gpus->len),
               index, gpus->len, there->str);
  return FALSE;
}

int
ws_gpu_selected (void)
{
  return state.ordinal;
}

const WsDeviceInfo *
ws_gpu_device (void)
{
  return state.info;
}

/* ------------------------------------------------------------------ */
/* The context and its caches                                         */
/* ------------------------------------------------------------------ */

/* Forgets every handle of the context without freeing: for after a fault,
 * when the context is about to be destroyed anyway. */
static void
forget_context (void)
{
  Buffer zero = { NULL, 0 };

  ws_counters_shutdown ();
  ws_managed_variable_release ();
  for (guint i = 0; i < N_DEVICE_SLOTS; i++)
    state.device[i] = zero;
  for (guint i = 0; i < N_PINNED_SLOTS; i++)
    state.pinned[i] = zero;
  state.mapped = zero;
  state.mapped_device = NULL;
  state.flush = zero;
  state.clock_out = NULL;
  state.n_streams = 0;
  state.ready = FALSE;
  state.generation++;
}

/* After a fault and a reset the driver may still be tearing the old context
 * down: a new one is refused as “busy” for a moment. Wait for it, a while. */
static gboolean
make_context (GError **error)
{
  cudaError_t err = cudaSetDevice (ws_gpu_selected ());

  if (err == cudaSuccess)
    err = cudaFree (NULL);
  for (guint tries = 0; err == cudaErrorDevicesUnavailable && state.generation > 0 && tries < 50; tries++)
    {
      cudaGetLastError ();
      g_usleep (100000);
      err = cudaSetDevice (ws_gpu_selected ());
      if (err == cudaSuccess)
        err = cudaFree (NULL);
    }
  if (err == cudaErrorDevicesUnavailable && state.generation > 0)
    {
      cudaGetLastError ();
      g_set_error (error, WS_GPU_ERROR, WS_GPU_ERROR_CUDA,
                   /* Translators: %s is CUDA's name for the error */
                   _("after a kernel fault the driver refuses this process a new context on the GPU (%s): "
                     "start the program again"), cudaGetErrorName (err));
      return FALSE;
    }
  return ws_gpu_check (err, _("selecting the GPU"), error);
}

gboolean
ws_gpu_ensure (GError **error)
{
  g_autoptr (WsDeviceInfo) info = ws_gpu_probe (error);

  if (info == NULL)
    return FALSE;
  if (state.ready)
    return TRUE;
  if (!make_context (error) ||
      !ws_gpu_check (cudaEventCreate (&state.start), _("creating an event"), error) ||
      !ws_gpu_check (cudaEventCreate (&state.stop), _("creating an event"), error) ||
      !ws_gpu_check (cudaMalloc ((void **) &state.clock_out, sizeof (long long)), "cudaMalloc", error))
    return FALSE;
  state.ready = TRUE;
  return TRUE;
}

static char *
format_size (gsize bytes)
{
  return g_format_size_full (bytes, G_FORMAT_SIZE_IEC_UNITS);
}

static gboolean
grow (Buffer      *b,
      gsize        bytes,
      cudaError_t (*alloc) (void **, gsize),
      cudaError_t (*release) (void *),
      const char  *what,
      GError     **error)
{
  cudaError_t err;

  if (b->ptr && b->bytes >= bytes)
    return TRUE;
  if (b->ptr)
    release (b->ptr);
  b->ptr = NULL;
  b->bytes = 0;
  /* round up, so that a sweep that grows step by step reallocates seldom */
  bytes = MAX (bytes, 1) + (bytes / 8);
  err = alloc (&b->ptr, bytes);
  if (err != cudaSuccess)
    {
      g_autofree char *size = format_size (bytes);
      /* Translators: what failed (a CUDA call such as cudaMalloc), then a size (“1.5 GiB”) */
      g_autofree char *message = g_strdup_printf (_("%s of %s"), what, size);
      b->ptr = NULL;
      return ws_gpu_fail (err, message, error);
    }
  b->bytes = bytes;
  return TRUE;
}

static cudaError_t
device_alloc (void **p,
              gsize  bytes)
{
  return cudaMalloc (p, bytes);
}

static cudaError_t
pinned_alloc (void **p,
              gsize  bytes)
{
  return cudaMallocHost (p, bytes);
}

static cudaError_t
mapped_alloc (void **p,
              gsize  bytes)
{
  return cudaHostAlloc (p, bytes, cudaHostAllocMapped);
}

static cudaError_t
pageable_alloc (void **p,
                gsize  bytes)
{
  *p = g_try_malloc (bytes);
  return *p ? cudaSuccess : cudaErrorMemoryAllocation;
}

static cudaError_t
pageable_free (void *p)
{
  g_free (p);
  return cudaSuccess;
}

void *
ws_gpu_buffer (guint   slot,
               gsize   bytes,
               GError **error)
{
  g_assert (slot < N_DEVICE_SLOTS);
  if (!grow (&state.device[slot], bytes, device_alloc, cudaFree, "cudaMalloc", error))
    return NULL;
  return state.device[slot].ptr;
}

void *
ws_gpu_pinned (guint   slot,
               gsize   bytes,
               GError **error)
{
  g_assert (slot < N_PINNED_SLOTS);
  if (!grow (&state.pinned[slot], bytes, pinned_alloc, cudaFreeHost, "cudaMallocHost", error))
    return NULL;
  return state.pinned[slot].ptr;
}

void *
ws_gpu_mapped (gsize   bytes,
               void  **device_ptr,
               GError **error)
{
  void *old = state.mapped.ptr;

  if (!grow (&state.mapped, bytes, mapped_alloc, cudaFreeHost, _("cudaHostAlloc (mapped)"), error))
    return NULL;
  if (state.mapped.ptr != old || state.mapped_device == NULL)
    {
      if (!ws_gpu_check (cudaHostGetDevicePointer (&state.mapped_device, state.mapped.ptr, 0),
                         "cudaHostGetDevicePointer", error))
        return NULL;
    }
  *device_ptr = state.mapped_device;
  return state.mapped.ptr;
}

void *
ws_gpu_pageable (gsize   bytes,
                 GError **error)
{
  if (!grow (&state.pageable, bytes, pageable_alloc, pageable_free, "malloc", error))
    return NULL;
  return state.pageable.ptr;
}

gsize
ws_gpu_free_memory (void)
{
  size_t free_bytes = 0, total = 0;

  if (cudaMemGetInfo (&free_bytes, &total) != cudaSuccess)
    {
      cudaGetLastError ();
      return 0;
    }
  return free_bytes;
}

cudaStream_t *
ws_gpu_streams (guint    n,
                GError **error)
{
  g_assert (n <= MAX_STREAMS);
  while (state.n_streams < n)
    {
      if (!ws_gpu_check (cudaStreamCreate (&state.streams[state.n_streams]), "cudaStreamCreate", error))
        return NULL;
      state.n_streams++;
    }
  return state.streams;
}

gboolean
ws_gpu_flush_l2 (GError **error)
{
  gsize bytes = MAX ((gsize) state.info->l2_bytes * 2, (gsize) 8 << 20);
  gboolean fresh = state.flush.ptr == NULL || state.flush.bytes < bytes;

  if (!grow (&state.flush, bytes, device_alloc, cudaFree, _("cudaMalloc (L2 flush)"), error))
    return FALSE;
  /* written once, so that reading it reads defined data */
  if (fresh && !ws_gpu_check (cudaMemsetAsync (state.flush.ptr, 0, state.flush.bytes, 0), _("flushing L2"), error))
    return FALSE;
  /* a read, not a memset: it writes back what the last kernel left dirty and
   * leaves L2 full of clean lines, as Nsight Compute's cache control does;
   * a memset would leave dirty lines for the measured kernel to write back */
  return ws_gpu_check (ws_flush_read (state.flush.ptr, bytes, (uint32_t *) state.clock_out, 0),
                       _("flushing L2"), error);
}

void
ws_gpu_flush_before (gpointer data)
{
  g_autoptr (GError) error = NULL;

  if (!ws_gpu_flush_l2 (&error))
    g_warning ("%s", error->message);
}

gboolean
ws_gpu_fill (void    *p,
             gsize    n_words,
             guint32  seed,
             GError **error)
{
  return ws_gpu_check (ws_fill_words ((uint32_t *) p, n_words, seed, 0), _("filling an input"), error);
}

int
ws_gpu_measure_clock (void)
{
  /* long enough (about a millisecond) for the events' half-microsecond resolution */
  const long long cycles = 1500000;
  long long counted = 0;
  float ms = 0;

  if (cudaEventRecord (state.start, 0) != cudaSuccess ||
      ws_spin_clock (cycles, state.clock_out, 0) != cudaSuccess ||
      cudaEventRecord (state.stop, 0) != cudaSuccess ||
      cudaEventSynchronize (state.stop) != cudaSuccess ||
      cudaEventElapsedTime (&ms, state.start, state.stop) != cudaSuccess ||
      cudaMemcpy (&counted, state.clock_out, sizeof counted, cudaMemcpyDeviceToHost) != cudaSuccess ||
      ms <= 0)
    {
      cudaGetLastError ();
      return 0;
    }
  return (int) (counted / (ms * 1e3) + 0.5);
}

void
ws_gpu_events (cudaEvent_t *start,
               cudaEvent_t *stop)
{
  *start = state.start;
  *stop = state.stop;
}

gboolean
ws_gpu_debug_fault (GError **error)
{
  gboolean ok;

  ws_gpu_lock ();
  ok = ws_gpu_ensure (error) &&
       ws_gpu_check (ws_fault (0), _("launching the faulting kernel"), error) &&
       ws_gpu_sync (_("running the faulting kernel"), error);
  ws_gpu_unlock ();
  return ok;
}

gboolean
ws_gpu_set_bytes (void    *p,
                  int      value,
                  gsize    bytes,
                  GError **error)
{
  return ws_gpu_check (cudaMemsetAsync (p, value, bytes, 0), "cudaMemset", error);
}

static void
release (Buffer      *b,
         cudaError_t (*free_func) (void *))
{
  if (b->ptr)
    free_func (b->ptr);
  b->ptr = NULL;
  b->bytes = 0;
}

void
ws_gpu_shutdown (void)
{
  ws_gpu_lock ();
  if (state.ready)
    {
      for (guint i = 0; i < N_DEVICE_SLOTS; i++)
        release (&state.device[i], cudaFree);
      for (guint i = 0; i < N_PINNED_SLOTS; i++)
        release (&state.pinned[i], cudaFreeHost);
      release (&state.mapped, cudaFreeHost);
      release (&state.flush, cudaFree);
      for (guint i = 0; i < state.n_streams; i++)
        cudaStreamDestroy (state.streams[i]);
      cudaEventDestroy (state.start);
      cudaEventDestroy (state.stop);
      cudaFree (state.clock_out);
      /* the unified kernels' __managed__ array goes with its module */
      ws_managed_variable_release ();
      cudaDeviceReset ();
      cudaGetLastError ();
      forget_context ();
    }
  release (&state.pageable, pageable_free);
  ws_gpu_unlock ();
}
