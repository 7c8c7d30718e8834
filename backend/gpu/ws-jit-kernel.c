/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Kernel texts on the device: the CUDA printed from the checked tree,
 * compiled by NVRTC with line information, its arrays filled as the launch
 * says, one launch checked against the model's VM (the CPU reference),
 * then timed as every kernel is, with counters for the whole kernel and
 * per source line. */
#include "ws-config.h"
#include "ws-counters.h"
#include "ws-gpu-private.h"
#include "ws-jit-private.h"
#include "ws-kernel.h"

#include <glib/gi18n-lib.h>
#include <string.h>

/* When the wait for the GPU began, for the worker's watchdog (0: none). */
static gint64 busy_since;

gint64
ws_gpu_kernel_busy_since (void)
{
  return g_atomic_pointer_get (&busy_since);
}

static void
busy (gboolean waiting)
{
  g_atomic_pointer_set (&busy_since, waiting ? g_get_monotonic_time () : 0);
}

/* Host memory a fill goes through, at most, at a time. */
#define STAGING_BYTES (16 * 1024 * 1024)

typedef struct
{
  CUdeviceptr base;          /* the array's memory: cudaMalloc'ed or the module's symbol */
  gboolean owned;            /* cudaMalloc'ed here */
  guint64 bytes;
} DeviceArray;

typedef struct
{
  WsKernelInstance *instance;
  char *source;
  char *target;
  char *key;
  CUmodule module;
  CUfunction function;
  GBytes *image;
  DeviceArray *arrays;       /* per array of the instance; base 0 where the space is not global or constant */
  CUdeviceptr *pointers;     /* per parameter: what a pointer parameter receives */
  guint64 *scalars;          /* per parameter: what a scalar parameter receives (8 bytes, little-endian) */
  void **params;
  gint64 bytes;              /* what the kernel reads and writes, per launch: bytes of the arrays it touches */
  guint generation;
} WsJitKernel;

static void
ws_jit_kernel_free (WsJitKernel *jk)
{
  if (jk == NULL)
    return;
  if (jk->arrays && jk->generation == ws_gpu_generation ())
    for (guint i = 0; i < ws_kernel_instance_get_n_arrays (jk->instance); i++)
      if (jk->arrays[i].owned && jk->arrays[i].base)
        cudaFree ((void *) jk->arrays[i].base);
  g_clear_pointer (&jk->image, g_bytes_unref);
  g_clear_pointer (&jk->instance, ws_kernel_instance_unref);
  g_free (jk->arrays);
  g_free (jk->pointers);
  g_free (jk->scalars);
  g_free (jk->params);
  g_free (jk->source);
  g_free (jk->target);
  g_free (jk->key);
  g_free (jk);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsJitKernel, ws_jit_kernel_free)

/* ------------------------------------------------------------------ */
/* Compiling                                                          */
/* ------------------------------------------------------------------ */

static GBytes *
compile_text (gpointer data,
              GError **error)
{
  WsJitKernel *jk = data;
  g_autofree char *log = NULL;
  g_autoptr (GError) failed = NULL;
  GBytes *image;

  image = ws_jit_compile_text (jk->source, "kernel.cu", jk->target, TRUE, &log, &failed);
  if (image != NULL)
    return image;
  if (failed->code == WS_GPU_ERROR_COMPILE_FAILED)
    g_set_error (error, WS_GPU_ERROR, WS_GPU_ERROR_COMPILE_FAILED,
                 /* Translators: the kernel's name, the architecture (sm_90), then NVRTC's log
                  * (in English), whose lines are the kernel text's lines */
                 _("NVRTC could not compile the kernel %s for %s, although the model reads it: %s"),
                 ws_kernel_instance_get_kernel_name (jk->instance), jk->target, g_strstrip (log));
  else
    g_propagate_error (error, g_steal_pointer (&failed));
  return NULL;
}

static gboolean
compile_and_load (WsJitKernel *jk,
                  GError     **error)
{
  g_autofree char *hash = NULL;

  jk->source = ws_kernel_instance_print_cuda (jk->instance, error);
  if (jk->source == NULL)
    return FALSE;
  hash = g_compute_checksum_for_string (G_CHECKSUM_SHA256, jk->source, -1);
  jk->key = g_strconcat ("text:", hash, ":", jk->target, NULL);
  return ws_jit_load (jk->key, compile_text, jk, ws_kernel_instance_get_cuda_name (jk->instance),
                      &jk->module, &jk->function, &jk->image, error);
}

/* ------------------------------------------------------------------ */
/* Memory                                                             */
/* ------------------------------------------------------------------ */

static gboolean
check_free_memory (WsJitKernel *jk,
                   GError     **error)
{
  const WsKernelInstance *inst = jk->instance;
  size_t free_bytes = 0, total = 0;
  guint64 need = 0, widest = 0;
  int widest_array = -1;

  for (guint i = 0; i < ws_kernel_instance_get_n_arrays (inst); i++)
    {
      const WsKernelArrayInfo *a = ws_kernel_instance_get_array (inst, i);

      if (a->space != WS_SPACE_GLOBAL || a->param < 0)
        continue;
      need += a->bytes;
      if (a->bytes >= widest)
        widest = a->bytes, widest_array = (int) i;
    }
  if (!ws_jit_cuda_check (cudaMemGetInfo (&free_bytes, &total), "cudaMemGetInfo", error))
    return FALSE;
  if (need <= free_bytes)
    return TRUE;
  {
    g_autofree char *need_text = g_format_size (need);
    g_autofree char *free_text = g_format_size (free_bytes);
    const WsKernelArrayInfo *a = ws_kernel_instance_get_array (inst, (guint) widest_array);

    g_set_error (error, WS_GPU_ERROR, WS_GPU_ERROR_OUT_OF_MEMORY,
                 /* Translators: two sizes (“1.5 GiB”), an array's name and its elements */
                 _("the kernel's arrays need %s of global memory, but the GPU has %s free (%s has %llu elements)"),
                 need_text, free_text, a->name, (unsigned long long) a->n_elements);
    return FALSE;
  }
}

/* The launch's fill of an array, into its device memory, through a host
 * buffer of at most STAGING_BYTES. */
static gboolean
upload_array (WsJitKernel *jk,
              guint        i,
              GError     **error)
{
  const DeviceArray *d = &jk->arrays[i];
  g_autofree guint8 *staging = NULL;
  gsize chunk = (gsize) MIN (d->bytes, STAGING_BYTES);

  if (d->base == 0 || d->bytes == 0)
    return TRUE;
  staging = g_malloc (chunk);
  for (guint64 at = 0; at < d->bytes; at += chunk)
    {
      gsize n = (gsize) MIN (chunk, d->bytes - at);

      ws_kernel_fill_bytes (jk->instance, i, at, staging, n);
      if (!ws_jit_cuda_check (cudaMemcpy ((void *) (d->base + at), staging, n, cudaMemcpyHostToDevice),
                              _("filling the kernel's arrays"), error))
        return FALSE;
    }
  return TRUE;
}

static gboolean
upload_all (WsJitKernel *jk,
            GError     **error)
{
  for (guint i = 0; i < ws_kernel_instance_get_n_arrays (jk->instance); i++)
    if (!upload_array (jk, i, error))
      return FALSE;
  return ws_jit_cuda_check (cudaDeviceSynchronize (), _("filling the kernel's arrays"), error);
}

/* Global arrays that parameters point into get memory of their own;
 * __constant__ and __device__ arrays are the module's symbols. */
static gboolean
place_arrays (WsJitKernel *jk,
              GError     **error)
{
  const WsKernelInstance *inst = jk->instance;
  guint n = ws_kernel_instance_get_n_arrays (inst);

  jk->arrays = g_new0 (DeviceArray, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    {
      const WsKernelArrayInfo *a = ws_kernel_instance_get_array (inst, i);
      DeviceArray *d = &jk->arrays[i];

      d->bytes = a->bytes;
      if (a->space == WS_SPACE_GLOBAL && a->param >= 0)
        {
          g_autofree char *what = g_strdup_printf (_("allocating %s (%llu bytes)"), a->name,
                                                   (unsigned long long) a->bytes);
          void *p = NULL;

          if (!ws_jit_cuda_check (cudaMalloc (&p, MAX (a->bytes, 16)), what, error))
            return FALSE;
          d->base = (CUdeviceptr) p;
          d->owned = TRUE;
        }
      else if (a->space == WS_SPACE_CONSTANT || a->space == WS_SPACE_GLOBAL)
        {
          size_t size = 0;

          if (!ws_jit_cu_check (ws_jit_driver.ModuleGetGlobal (&d->base, &size, jk->module, a->name),
                                _("finding a __constant__ or __device__ array in the kernel's module"), error))
            return FALSE;
          d->bytes = MIN (d->bytes, size);
        }
      if (a->read || a->written)
        jk->bytes += (gint64) a->bytes;
    }
  return TRUE;
}

static void
set_params (WsJitKernel *jk)
{
  const WsKernelInstance *inst = jk->instance;
  guint n = ws_kernel_instance_get_n_params (inst);

  jk->pointers = g_new0 (CUdeviceptr, MAX (n, 1));
  jk->scalars = g_new0 (guint64, MAX (n, 1));
  jk->params = g_new0 (void *, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    {
      const WsKernelParam *p = ws_kernel_instance_get_param (inst, i);

      if (p->is_pointer)
        {
          const WsKernelArrayInfo *a = ws_kernel_instance_get_array (inst, p->array);

          jk->pointers[i] = jk->arrays[p->array].base + a->offset_elements * a->elem_size;
          jk->params[i] = &jk->pointers[i];
        }
      else
        {
          memcpy (&jk->scalars[i], p->value, sizeof jk->scalars[i]);
          jk->params[i] = &jk->scalars[i];
        }
    }
}

static gboolean
set_shared_memory (WsJitKernel *jk,
                   GError     **error)
{
  guint64 dynamic = ws_kernel_instance_get_dynamic_shared (jk->instance);
  int device = 0, optin = 0;

  if (dynamic <= 48 * 1024)
    return TRUE;
  if (!ws_jit_cuda_check (cudaGetDevice (&device), "cudaGetDevice", error) ||
      !ws_jit_cuda_check (cudaDeviceGetAttribute (&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device),
                          "cudaDeviceGetAttribute", error))
    return FALSE;
  if (ws_kernel_instance_get_shared_bytes (jk->instance) > (guint64) optin)
    {
      g_set_error (error, WS_GPU_ERROR, WS_GPU_ERROR_INVALID_PARAM,
                   /* Translators: bytes of shared memory a block needs, then the most this GPU allows */
                   _("the kernel needs %llu bytes of shared memory per block; this GPU allows %d"),
                   (unsigned long long) ws_kernel_instance_get_shared_bytes (jk->instance), optin);
      return FALSE;
    }
  return ws_jit_cu_check (ws_jit_driver.FuncSetAttribute (jk->function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                                          (int) dynamic),
                          _("allowing the kernel its shared memory"), error);
}

static WsJitKernel *
prepare (WsKernelInstance *instance,
         GError          **error)
{
  g_autoptr (WsJitKernel) jk = g_new0 (WsJitKernel, 1);

  jk->instance = ws_kernel_instance_ref (instance);
  if (!ws_jit_ensure_driver (error))
    return NULL;
  jk->generation = ws_gpu_generation ();
  if ((jk->target = ws_jit_device_target (error)) == NULL ||
      !compile_and_load (jk, error) ||
      !check_free_memory (jk, error) ||
      !place_arrays (jk, error) ||
      !set_shared_memory (jk, error))
    return NULL;
  set_params (jk);
  return g_steal_pointer (&jk);
}

/* ------------------------------------------------------------------ */
/* Launching and checking                                             */
/* ------------------------------------------------------------------ */

static CUresult
launch (WsJitKernel *jk)
{
  WsDim3 grid = ws_kernel_instance_get_grid (jk->instance);
  WsDim3 block = ws_kernel_instance_get_block (jk->instance);

  return ws_jit_driver.LaunchKernel (jk->function, grid.x, grid.y, grid.z, block.x, block.y, block.z,
                                     (unsigned int) ws_kernel_instance_get_dynamic_shared (jk->instance),
                                     NULL, jk->params, NULL);
}

static void
launch_async (gpointer data)
{
  /* an error here shows up in the runtime's next synchronisation */
  launch (data);
}

/* A launch for the profiler's passes: each starts the watchdog's wait again. */
static void
launch_watched (gpointer data)
{
  busy (TRUE);
  launch (data);
}

static gboolean
launch_sync (WsJitKernel *jk,
             GError     **error)
{
  gboolean ok;

  busy (TRUE);
  if (!ws_jit_cu_check (launch (jk), _("launching the kernel"), error))
    {
      busy (FALSE);
      return FALSE;
    }
  ws_gpu_lock ();
  ok = ws_gpu_sync (_("running the kernel"), error);
  ws_gpu_unlock ();
  busy (FALSE);
  return ok;
}

/* One launch from the launch's fills, every array it writes held against
 * the reference (the VM's run of the same launch). */
static gboolean
verify (WsJitKernel  *jk,
        GCancellable *cancellable,
        GError      **error)
{
  const WsKernelInstance *inst = jk->instance;
  g_autoptr (GError) run_error = NULL;
  WsKernelMemory *reference;
  gboolean ok = TRUE;

  /* the reference first: what the VM refuses (a loop past its bound, an
   * index out of its array) never reaches the GPU */
  reference = ws_kernel_memory_new (inst);
  if (!ws_kernel_run (inst, reference, cancellable, &run_error))
    {
      ws_kernel_memory_free (reference);
      g_propagate_prefixed_error (error, g_steal_pointer (&run_error), "%s",
                                  /* Translators: before the reason the CPU reference could not run */
                                  _("the CPU reference could not run the kernel: "));
      return FALSE;
    }
  if (!upload_all (jk, error) || !launch_sync (jk, error))
    {
      ws_kernel_memory_free (reference);
      return FALSE;
    }
  for (guint i = 0; ok && i < ws_kernel_instance_get_n_arrays (inst); i++)
    {
      const WsKernelArrayInfo *a = ws_kernel_instance_get_array (inst, i);
      const DeviceArray *d = &jk->arrays[i];
      g_autofree guint8 *gpu = NULL;
      g_autofree char *message = NULL;

      if (!a->written || d->base == 0 || d->bytes == 0)
        continue;
      gpu = g_malloc (d->bytes);
      if (!ws_jit_cuda_check (cudaMemcpy (gpu, (const void *) d->base, d->bytes, cudaMemcpyDeviceToHost),
                              _("reading the kernel's output"), error))
        ok = FALSE;
      else if (!ws_kernel_memory_compare (reference, i, gpu, d->bytes, &message))
        {
          g_set_error (error, WS_GPU_ERROR, WS_GPU_ERROR_VERIFY_FAILED,
                       /* Translators: %s says which element differs and both values */
                       _("the GPU's output differs from the CPU reference: %s"), message);
          ok = FALSE;
        }
    }
  ws_kernel_memory_free (reference);
  return ok;
}

static void
describe (WsJitKernel   *jk,
          WsMeasurement *m)
{
  const WsKernelInstance *inst = jk->instance;
  WsDim3 block = ws_kernel_instance_get_block (inst);
  guint64 threads = ws_dim3_count (block);
  guint64 dynamic = ws_kernel_instance_get_dynamic_shared (inst);
  int value = 0, blocks = 0;

  g_free (m->description);
  m->description = g_strdup_printf ("%s (%s)", ws_kernel_instance_get_kernel_name (inst),
                                    ws_kernel_file_get_display_name (ws_kernel_instance_get_file (inst)));
  for (guint i = 0; i < ws_kernel_instance_get_n_params (inst); i++)
    {
      const WsKernelParam *p = ws_kernel_instance_get_param (inst, i);
      gint64 v = 0;

      if (p->is_pointer || p->kind == WS_KERNEL_SCALAR_FLOAT)
        continue;
      memcpy (&v, p->value, MIN (p->size, sizeof v));
      if (p->kind == WS_KERNEL_SCALAR_INT && p->size < 8 && (v >> (p->size * 8 - 1)) & 1)
        v |= (gint64) (G_MAXUINT64 << (p->size * 8));
      ws_measurement_set_param (m, p->name, v);
    }
  if (ws_jit_driver.FuncGetAttribute (&value, CU_FUNC_ATTRIBUTE_NUM_REGS, jk->function) == CUDA_SUCCESS)
    m->registers = value;
  if (ws_jit_driver.FuncGetAttribute (&value, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, jk->function) == CUDA_SUCCESS)
    m->local_bytes = value;
  if (ws_jit_driver.FuncGetAttribute (&value, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, jk->function) == CUDA_SUCCESS)
    m->shared_bytes = value + (int) dynamic;
  if (ws_jit_driver.OccupancyMaxActiveBlocksPerMultiprocessor (&blocks, jk->function, (int) threads,
                                                               (size_t) dynamic) == CUDA_SUCCESS)
    {
      m->blocks_per_sm = blocks;
      m->warps_per_sm = blocks * (int) ((threads + WS_WARP_SIZE - 1) / WS_WARP_SIZE);
    }
}

/* Counters that fail leave the timings standing, with the reason beside. */
static void
add_counters (WsJitKernel   *jk,
              WsMeasurement *m,
              gboolean       cold)
{
  g_autoptr (GError) error = NULL;

  if (!ws_counters_available (&error) ||
      !ws_counters_collect_after (cold ? ws_gpu_flush_before : NULL, launch_watched, jk, NULL, m, &error))
    {
      g_free (m->warning);
      m->warning = g_strdup_printf ("no hardware counters: %s", error->message);
      g_array_set_size (m->counters, 0);
      return;
    }
  if (!ws_counters_collect_lines (cold ? ws_gpu_flush_before : NULL, launch_watched, jk, jk->image,
                                  ws_kernel_instance_get_cuda_name (jk->instance), m, &error))
    {
      g_free (m->warning);
      m->warning = g_strdup_printf ("no counters per source line: %s", error->message);
      g_array_set_size (m->line_counters, 0);
    }
}

/* Each sample done is the GPU answering: the watchdog's wait starts again. */
typedef struct
{
  WsSampleProgress progress;
  gpointer data;
} Watched;

static void
watched_progress (guint    done,
                  guint    total,
                  gpointer user_data)
{
  Watched *w = user_data;

  busy (TRUE);
  if (w->progress)
    w->progress (done, total, w->data);
}

static WsMeasurement *
measure_locked (WsKernelInstance       *instance,
                const WsMeasureOptions *options,
                GCancellable           *cancellable,
                WsSampleProgress        progress,
                gpointer                progress_data,
                GError                **error)
{
  g_autoptr (WsJitKernel) jk = prepare (instance, error);
  g_autoptr (WsMeasurement) m = NULL;

  if (jk == NULL || !verify (jk, cancellable, error))
    return NULL;
  {
    Watched w = { progress, progress_data };

    busy (TRUE);
    m = ws_gpu_time_launches ("kernel", launch_async, jk, jk->bytes, options, cancellable, watched_progress, &w,
                              error);
    busy (FALSE);
  }
  if (m == NULL)
    return NULL;
  m->verified = TRUE;
  describe (jk, m);
  if (options->counters)
    {
      busy (TRUE);
      add_counters (jk, m, options->cold);
      busy (FALSE);
    }
  return g_steal_pointer (&m);
}

WsMeasurement *
ws_gpu_measure_kernel (WsKernelInstance       *instance,
                       const WsMeasureOptions *options,
                       GCancellable           *cancellable,
                       WsSampleProgress        progress,
                       gpointer                progress_data,
                       GError                **error)
{
  WsMeasureOptions defaults = WS_MEASURE_OPTIONS_DEFAULT;
  WsMeasurement *m;

  g_return_val_if_fail (instance != NULL, NULL);

  ws_gpu_lock ();
  m = measure_locked (instance, options ? options : &defaults, cancellable, progress, progress_data, error);
  ws_gpu_unlock ();
  return m;
}

/* ------------------------------------------------------------------ */
/* A launch that takes as long as asked, for the deadline's tests     */
/* ------------------------------------------------------------------ */

static const char spin_source[] =
  "extern \"C\" __global__ void ws_spin (long long cycles)\n"
  "{\n"
  "  long long start = clock64 ();\n"
  "  while (clock64 () - start < cycles)\n"
  "    ;\n"
  "}\n";

static GBytes *
compile_spin (gpointer data,
              GError **error)
{
  return ws_jit_compile_text (spin_source, "spin.cu", data, FALSE, NULL, error);
}

gboolean
ws_gpu_debug_spin (guint    ms,
                   GError **error)
{
  g_autofree char *target = NULL;
  g_autofree char *key = NULL;
  CUfunction function;
  long long cycles;
  void *params[1] = { &cycles };
  int clock_khz = 0, device = 0;
  gboolean ok;

  ws_gpu_lock ();
  if (!ws_jit_ensure_driver (error) || (target = ws_jit_device_target (error)) == NULL ||
      !ws_jit_cuda_check (cudaGetDevice (&device), "cudaGetDevice", error) ||
      !ws_jit_cuda_check (cudaDeviceGetAttribute (&clock_khz, cudaDevAttrClockRate, device),
                          "cudaDeviceGetAttribute", error))
    {
      ws_gpu_unlock ();
      return FALSE;
    }
  key = g_strconcat ("spin:", target, NULL);
  if (!ws_jit_load (key, compile_spin, target, "ws_spin", NULL, &function, NULL, error))
    {
      ws_gpu_unlock ();
      return FALSE;
    }
  cycles = (long long) clock_khz * ms;
  busy (TRUE);
  ok = ws_jit_cu_check (ws_jit_driver.LaunchKernel (function, 1, 1, 1, 1, 1, 1, 0, NULL, params, NULL),
                        _("launching the kernel"), error) &&
       ws_gpu_sync (_("running the kernel"), error);
  busy (FALSE);
  ws_gpu_unlock ();
  return ok;
}
