/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Generated kernels on the device: NVRTC, the driver API through the
 * runtime's entry points, buffers sized by the model, and
 * ws_gpu_measure_pattern (). */
#include "ws-config.h"
#include "ws-jit.h"
#include "ws-counters.h"
#include "ws-gpu-private.h"
#include "ws-jit-private.h"

#include <cuda.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <cudaTypedefs.h>
#include <cuda_runtime_api.h>
#include <nvrtc.h>
#include <string.h>

/* The driver API version whose function signatures this file uses. */
#define DRIVER_ABI 12000

/* A magic sum no launch's loads can reach: the kernel's only store happens
 * when they do. */
#define KERNEL_MAGIC G_GUINT64_CONSTANT (0x5753d3c1a7f00d5e)


typedef struct
{
  guint generation;          /* ws_gpu_generation () when it was loaded */
  CUmodule module;
  CUfunction function;
} LoadedModule;

struct _WsJitLaunch
{
  WsLaunchStats *stats;
  WsKernelSource *source;
  char *target;
  CUfunction function;
  GPtrArray *buffers;        /* void *, one per global array */
  void *sink;
  long long zero;
  unsigned long long magic;
  void **params;
  gint64 bytes;
  guint generation;          /* the buffers belong to this context */
};

WsJitDriver ws_jit_driver;
#define driver ws_jit_driver
static GMutex cache_lock;
static GHashTable *images;    /* hash:target → GBytes */
static GHashTable *modules;   /* hash:target → LoadedModule */

/* ------------------------------------------------------------------ */
/* Errors                                                             */
/* ------------------------------------------------------------------ */

gboolean
ws_jit_cuda_check (cudaError_t  status,
            const char  *what,
            GError     **error)
{
  if (status == cudaSuccess)
    return TRUE;
  cudaGetLastError ();   /* a sticky error stays; any other is cleared */
  g_set_error (error, WS_GPU_ERROR,
               status == cudaErrorMemoryAllocation ? WS_GPU_ERROR_OUT_OF_MEMORY : WS_GPU_ERROR_CUDA,
               /* Translators: what the program was doing, then CUDA's description of
                * the error and its name (both in English) */
               _("%s: %s (%s)"), what, cudaGetErrorString (status), cudaGetErrorName (status));
  return FALSE;
}

gboolean
ws_jit_cu_check (CUresult     status,
          const char  *what,
          GError     **error)
{
  const char *name = NULL;

  if (status == CUDA_SUCCESS)
    return TRUE;
  if (driver.GetErrorName == NULL || driver.GetErrorName (status, &name) != CUDA_SUCCESS)
    name = _("unknown error");
  g_set_error (error, WS_GPU_ERROR,
               status == CUDA_ERROR_OUT_OF_MEMORY ? WS_GPU_ERROR_OUT_OF_MEMORY :
               status == CUDA_ERROR_ILLEGAL_ADDRESS || status == CUDA_ERROR_MISALIGNED_ADDRESS ||
               status == CUDA_ERROR_LAUNCH_FAILED ? WS_GPU_ERROR_KERNEL_FAULT : WS_GPU_ERROR_CUDA,
               /* Translators: what the program was doing, then the CUDA driver's
                * name for the error (in English) and its number */
               _("%s: %s (%d)"), what, name, (int) status);
  return FALSE;
}

/* ------------------------------------------------------------------ */
/* The driver API, through the runtime                                */
/* ------------------------------------------------------------------ */

static gboolean
entry_point (const char *symbol,
             void      **fn,
             GError    **error)
{
  enum cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
  cudaError_t status = cudaGetDriverEntryPointByVersion (symbol, fn, DRIVER_ABI, cudaEnableDefault, &found);

  if (status != cudaSuccess)
    return ws_jit_cuda_check (status, _("looking up the CUDA driver API"), error);
  if (found != cudaDriverEntryPointSuccess || *fn == NULL)
    {
      g_set_error (error, WS_GPU_ERROR, WS_GPU_ERROR_DRIVER_TOO_OLD,
                   /* Translators: a function of the CUDA driver API (cuModuleLoadDataEx), then the
                    * version of the API asked for (12000) */
                   _("the NVIDIA driver has no %s (version %d of the driver API): update the driver"),
                   symbol, DRIVER_ABI);
      return FALSE;
    }
  return TRUE;
}

/* Makes the GPU layer's context current on this thread (its probe says
 * whether there is no driver, an old one, or no GPU) and fills the driver
 * table. */
gboolean
ws_jit_ensure_driver (GError **error)
{
  static const struct { const char *name; gsize offset; } symbols[] = {
    { "cuGetErrorName", G_STRUCT_OFFSET (WsJitDriver, GetErrorName) },
    { "cuCtxGetCurrent", G_STRUCT_OFFSET (WsJitDriver, CtxGetCurrent) },
    { "cuCtxGetDevice", G_STRUCT_OFFSET (WsJitDriver, CtxGetDevice) },
    { "cuModuleLoadDataEx", G_STRUCT_OFFSET (WsJitDriver, ModuleLoadDataEx) },
    { "cuModuleUnload", G_STRUCT_OFFSET (WsJitDriver, ModuleUnload) },
    { "cuModuleGetFunction", G_STRUCT_OFFSET (WsJitDriver, ModuleGetFunction) },
    { "cuFuncGetAttribute", G_STRUCT_OFFSET (WsJitDriver, FuncGetAttribute) },
    { "cuFuncSetAttribute", G_STRUCT_OFFSET (WsJitDriver, FuncSetAttribute) },
    { "cuLaunchKernel", G_STRUCT_OFFSET (WsJitDriver, LaunchKernel) },
    { "cuModuleGetGlobal", G_STRUCT_OFFSET (WsJitDriver, ModuleGetGlobal) },
    { "cuOccupancyMaxActiveBlocksPerMultiprocessor", G_STRUCT_OFFSET (WsJitDriver, OccupancyMaxActiveBlocksPerMultiprocessor) },
  };
  gboolean ok;

  ws_gpu_lock ();
  ok = ws_gpu_ensure (error);
  ws_gpu_unlock ();
  if (!ok)
    return FALSE;
  if (driver.LaunchKernel != NULL)
    return TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (symbols); i++)
    {
      void *fn = NULL;
      if (!entry_point (symbols[i].name, &fn, error))
        return FALSE;
      G_STRUCT_MEMBER (void *, &driver, symbols[i].offset) = fn;
    }
  return TRUE;
}

gboolean
ws_jit_current_context (gpointer *context,
                        int      *device,
                        GError  **error)
{
  CUcontext ctx = NULL;
  CUdevice dev = 0;

  if (!ws_jit_ensure_driver (error) ||
      !ws_jit_cu_check (driver.CtxGetCurrent (&ctx), "cuCtxGetCurrent", error) ||
      !ws_jit_cu_check (driver.CtxGetDevice (&dev), "cuCtxGetDevice", error))
    return FALSE;
  *context = ctx;
  *device = (int) dev;
  return TRUE;
}

char *
ws_jit_device_name (GError **error)
{
  struct cudaDeviceProp prop;
  int device = 0;

  if (!ws_jit_ensure_driver (error) ||
      !ws_jit_cuda_check (cudaGetDevice (&device), "cudaGetDevice", error) ||
      !ws_jit_cuda_check (cudaGetDeviceProperties (&prop, device), "cudaGetDeviceProperties", error))
    return NULL;
  return g_strdup (prop.name);
}

/* ------------------------------------------------------------------ */
/* NVRTC                                                              */
/* ------------------------------------------------------------------ */

static int
compare_int (gconstpointer a,
             gconstpointer b)
{
  return *(const int *) a - *(const int *) b;
}

GArray *
ws_jit_supported_archs (void)
{
  GArray *archs = g_array_new (FALSE, TRUE, sizeof (int));
  int n = 0;

  if (nvrtcGetNumSupportedArchs (&n) == NVRTC_SUCCESS && n > 0)
    {
      g_array_set_size (archs, n);
      if (nvrtcGetSupportedArchs ((int *) archs->data) != NVRTC_SUCCESS)
        g_array_set_size (archs, 0);
    }
  g_array_sort (archs, compare_int);
  return archs;
}

char *
ws_jit_target_for (int      cc_major,
                   int      cc_minor,
                   GError **error)
{
  g_autoptr (GArray) archs = ws_jit_supported_archs ();
  int want = cc_major * 10 + cc_minor;
  int newest = 0;

  for (guint i = 0; i < archs->len; i++)
    {
      int a = g_array_index (archs, int, i);
      if (a == want)
        return g_strdup_printf ("sm_%d", a);
      if (a < want)
        newest = a;
    }
  if (newest == 0)
    {
      g_set_error (error, WS_GPU_ERROR, WS_GPU_ERROR_UNSUPPORTED,
                   /* Translators: the GPU's compute capability (8.6), then the oldest NVRTC knows (7.5) */
                   _("this build's NVRTC cannot compile for compute capability %d.%d: "
                     "the oldest architecture it knows is %d.%d"), cc_major, cc_minor,
                   archs->len ? g_array_index (archs, int, 0) / 10 : 0,
                   archs->len ? g_array_index (archs, int, 0) % 10 : 0);
      return NULL;
    }
  /* PTX of an older architecture runs on a newer GPU: the driver compiles it */
  return g_strdup_printf ("compute_%d", newest);
}

static gboolean
nvrtc_check (nvrtcResult  status,
             const char  *what,
             GError     **error)
{
  if (status == NVRTC_SUCCESS)
    return TRUE;
  /* Translators: what the program was doing, then NVRTC's message (in English) */
  g_set_error (error, WS_GPU_ERROR, WS_GPU_ERROR_COMPILE_FAILED, _("%s: %s"), what, nvrtcGetErrorString (status));
  return FALSE;
}

static char *
program_log (nvrtcProgram program)
{
  size_t size = 0;
  char *log;

  if (nvrtcGetProgramLogSize (program, &size) != NVRTC_SUCCESS || size == 0)
    return g_strdup ("");
  log = g_malloc0 (size + 1);
  if (nvrtcGetProgramLog (program, log) != NVRTC_SUCCESS)
    log[0] = '\0';
  return log;
}

static GBytes *
program_output (nvrtcProgram program,
                gboolean     ptx,
                GError     **error)
{
  size_t size = 0;
  char *data;

  if (!nvrtc_check (ptx ? nvrtcGetPTXSize (program, &size) : nvrtcGetCUBINSize (program, &size),
                    _("reading NVRTC's output"), error))
    return NULL;
  data = g_malloc0 (size + 1);
  if (!nvrtc_check (ptx ? nvrtcGetPTX (program, data) : nvrtcGetCUBIN (program, data),
                    _("reading NVRTC's output"), error))
    {
      g_free (data);
      return NULL;
    }
  return g_bytes_new_take (data, ptx ? size + 1 : size);
}

/* WS_JIT_NVCC=PATH compiles with that nvcc instead, into a cubin: what
 * a program's own build would run, to hold NVRTC's code against (a
 * diagnostic, not the default; an sm_ target only). */
static GBytes *
compile_with_nvcc (const char *nvcc,
                   const char *text,
                   const char *target,
                   gboolean    lineinfo,
                   char      **log,
                   GError    **error)
{
  g_autoptr (GError) local = NULL;
  g_autofree char *dir = g_dir_make_tmp ("ws-jit-XXXXXX", &local);
  g_autofree char *in = NULL;
  g_autofree char *out = NULL;
  g_autofree char *arch = g_strdup_printf ("-arch=%s", target);
  g_autofree char *err = NULL;
  char *data = NULL;
  gsize size = 0;
  int status = 0;
  GBytes *image = NULL;

  if (dir == NULL)
    {
      g_set_error (error, WS_GPU_ERROR, WS_GPU_ERROR_COMPILE_FAILED, "%s", local->message);
      return NULL;
    }
  in = g_build_filename (dir, "kernel.cu", NULL);
  out = g_build_filename (dir, "kernel.cubin", NULL);
  if (g_file_set_contents (in, text, -1, &local))
    {
      const char *argv[] = { nvcc, "-cubin", arch, "-std=c++17", "-o", out, in, lineinfo ? "-lineinfo" : NULL, NULL };

      if (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, &err, &status,
                        &local) &&
          g_spawn_check_wait_status (status, NULL) && g_file_get_contents (out, &data, &size, &local))
        image = g_bytes_new_take (data, size);
    }
  if (image == NULL)
    g_set_error (error, WS_GPU_ERROR, WS_GPU_ERROR_COMPILE_FAILED, "%s",
                 local != NULL ? local->message : err != NULL ? err : "nvcc failed");
  if (log)
    *log = g_strdup (err != NULL ? err : "");
  g_unlink (in);
  g_unlink (out);
  g_rmdir (dir);
  return image;
}

GBytes *
ws_jit_compile_text (const char *text,
                     const char *file_name,
                     const char *target,
                     gboolean    lineinfo,
                     char      **log,
                     GError    **error)
{
  g_autofree char *arch = g_strdup_printf ("--gpu-architecture=%s", target);
  const char *options[] = { arch, "--std=c++17", "--device-as-default-execution-space", "-lineinfo" };
  nvrtcProgram program = NULL;
  nvrtcResult status;
  GBytes *out = NULL;

  g_return_val_if_fail (text != NULL && target != NULL, NULL);

  if (g_getenv ("WS_JIT_NVCC") != NULL && *g_getenv ("WS_JIT_NVCC") != '\0' && g_str_has_prefix (target, "sm_"))
    return compile_with_nvcc (g_getenv ("WS_JIT_NVCC"), text, target, lineinfo, log, error);
  if (!nvrtc_check (nvrtcCreateProgram (&program, text, file_name, 0, NULL, NULL), "nvrtcCreateProgram", error))
    return NULL;
  status = nvrtcCompileProgram (program, G_N_ELEMENTS (options) - (lineinfo ? 0 : 1), options);
  if (log)
    *log = program_log (program);
  if (status == NVRTC_SUCCESS)
    out = program_output (program, g_str_has_prefix (target, "compute_"), error);
  else
    g_set_error (error, WS_GPU_ERROR, WS_GPU_ERROR_COMPILE_FAILED, "%s", nvrtcGetErrorString (status));
  nvrtcDestroyProgram (&program);
  return out;
}

GBytes *
ws_jit_compile (const WsKernelSource *source,
                const char           *target,
                char                **log,
                GError              **error)
{
  g_autofree char *text = NULL;
  g_autoptr (GError) failed = NULL;
  GBytes *out;

  g_return_val_if_fail (source != NULL, NULL);
  g_return_val_if_fail (target != NULL, NULL);

  out = ws_jit_compile_text (source->source, WS_CODEGEN_FILE_NAME, target, FALSE, &text, &failed);
  if (out == NULL && failed->code == WS_GPU_ERROR_COMPILE_FAILED)
    {
      g_autofree char *explained = ws_codegen_explain_log (source, text);
      g_set_error (error, WS_GPU_ERROR, WS_GPU_ERROR_COMPILE_FAILED,
                   /* Translators: the architecture (sm_86 or compute_86), then where in
                    * the pattern each error is and the compiler's message */
                   _("NVRTC could not compile the kernel for %s: %s"), target, explained);
    }
  else if (out == NULL)
    g_propagate_error (error, g_steal_pointer (&failed));
  if (log)
    *log = g_steal_pointer (&text);
  return out;
}

/* ------------------------------------------------------------------ */
/* The cache                                                          */
/* ------------------------------------------------------------------ */

static void
loaded_module_free (gpointer data)
{
  LoadedModule *m = data;

  /* a reset took the module with its context */
  if (m->generation == ws_gpu_generation ())
    driver.ModuleUnload (m->module);
  g_free (m);
}

static void
ensure_cache (void)
{
  if (images == NULL)
    {
      images = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_bytes_unref);
      modules = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, loaded_module_free);
    }
}

void
ws_jit_forget_modules (void)
{
  g_mutex_lock (&cache_lock);
  if (modules)
    g_hash_table_remove_all (modules);
  g_mutex_unlock (&cache_lock);
}

/* The image compiled for key, or compile () 's. */
static GBytes *
cached_image (const char    *key,
              WsJitCompile   compile,
              gpointer       data,
              GError       **error)
{
  GBytes *image;

  g_mutex_lock (&cache_lock);
  ensure_cache ();
  image = g_hash_table_lookup (images, key);
  if (image)
    g_bytes_ref (image);
  g_mutex_unlock (&cache_lock);
  if (image)
    return image;

  image = compile (data, error);
  if (image == NULL)
    return NULL;
  g_mutex_lock (&cache_lock);
  g_hash_table_replace (images, g_strdup (key), g_bytes_ref (image));
  g_mutex_unlock (&cache_lock);
  return image;
}

gboolean
ws_jit_load (const char    *key,
             WsJitCompile   compile,
             gpointer       data,
             const char    *function_name,
             CUmodule      *module,
             CUfunction    *function,
             GBytes       **image_out,
             GError       **error)
{
  g_autoptr (GBytes) image = NULL;
  guint generation = ws_gpu_generation ();
  LoadedModule *m;
  gboolean ok;

  image = cached_image (key, compile, data, error);
  if (image == NULL)
    return FALSE;
  if (image_out)
    *image_out = g_bytes_ref (image);
  g_mutex_lock (&cache_lock);
  m = g_hash_table_lookup (modules, key);
  if (m && m->generation == generation)
    {
      *function = m->function;
      if (module)
        *module = m->module;
    }
  g_mutex_unlock (&cache_lock);
  if (m && m->generation == generation)
    return TRUE;

  m = g_new0 (LoadedModule, 1);
  m->generation = generation;
  ok = ws_jit_cu_check (driver.ModuleLoadDataEx (&m->module, g_bytes_get_data (image, NULL), 0, NULL, NULL),
                        _("loading the generated kernel (cuModuleLoadDataEx)"), error) &&
       ws_jit_cu_check (driver.ModuleGetFunction (&m->function, m->module, function_name),
                        "cuModuleGetFunction", error);
  if (!ok)
    {
      if (m->module)
        driver.ModuleUnload (m->module);
      g_free (m);
      if (image_out)
        g_clear_pointer (image_out, g_bytes_unref);
      return FALSE;
    }
  *function = m->function;
  if (module)
    *module = m->module;
  g_mutex_lock (&cache_lock);
  g_hash_table_replace (modules, g_strdup (key), m);
  g_mutex_unlock (&cache_lock);
  return TRUE;
}

typedef struct
{
  const WsKernelSource *source;
  const char *target;
} PatternCompile;

static GBytes *
compile_pattern (gpointer data,
                 GError **error)
{
  PatternCompile *c = data;

  return ws_jit_compile (c->source, c->target, NULL, error);
}

static gboolean
load_function (const WsKernelSource *source,
               const char           *target,
               CUfunction           *function,
               GError              **error)
{
  g_autofree char *key = g_strconcat (source->hash, ":", target, NULL);
  PatternCompile c = { source, target };

  return ws_jit_load (key, compile_pattern, &c, WS_CODEGEN_KERNEL_NAME, NULL, function, NULL, error);
}

/* ------------------------------------------------------------------ */
/* Buffers sized by the model                                         */
/* ------------------------------------------------------------------ */

static char *
describe_lane (const WsPattern *pattern,
               WsDim3           b,
               guint            warp,
               guint            lane)
{
  WsDim3 block = ws_pattern_get_block (pattern);
  guint64 t = (guint64) warp * WS_WARP_SIZE + lane;

  return g_strdup_printf ("block (%u, %u, %u), thread (%u, %u, %u) — warp %u, lane %u",
                          b.x, b.y, b.z, (guint) (t % block.x), (guint) (t / block.x % block.y),
                          (guint) (t / ((guint64) block.x * block.y)), warp, lane);
}

static char *
lane_reaching (const WsPattern *pattern,
               guint            access,
               WsDim3           b,
               gint64           end)
{
  const WsAccess *a = ws_pattern_get_access (pattern, access);

  for (guint w = 0; w < ws_pattern_get_warps_per_block (pattern); w++)
    {
      g_autoptr (WsWarpResult) r = ws_model_analyze_warp (pattern, access, b, w, NULL);

      for (guint l = 0; r && l < WS_WARP_SIZE; l++)
        if ((r->active & (1u << l)) && r->address[l] + (gint64) a->elem_size == end)
          return describe_lane (pattern, b, w, l);
    }
  return NULL;
}

/* Which lane reaches the end of an access's extent. The model keeps only the
 * extent, so look for it: from the last block backwards and the first
 * forwards (indices mostly grow with the block), for at most two seconds. */
static char *
furthest_lane (const WsPattern *pattern,
               guint            access,
               gint64           end)
{
  WsDim3 grid = ws_pattern_get_grid (pattern);
  guint64 n = ws_dim3_count (grid);
  gint64 deadline = g_get_monotonic_time () + 2 * G_USEC_PER_SEC;

  for (guint64 k = 0; k < n && g_get_monotonic_time () < deadline; k++)
    {
      guint64 linear = k % 2 == 0 ? n - 1 - k / 2 : k / 2;
      char *found = lane_reaching (pattern, access, ws_dim3_block_of (grid, linear), end);

      if (found)
        return found;
    }
  return NULL;
}

static gboolean
check_global_memory (const WsPattern      *pattern,
                     const WsLaunchStats  *stats,
                     const WsKernelSource *ks,
                     GError              **error)
{
  size_t free_bytes = 0, total_bytes = 0;
  gint64 need = 0;
  guint widest = 0;
  g_autofree char *need_text = NULL;
  g_autofree char *free_text = NULL;
  g_autofree char *where = NULL;
  g_autofree char *desc = NULL;

  if (!ws_jit_cuda_check (cudaMemGetInfo (&free_bytes, &total_bytes), "cudaMemGetInfo", error))
    return FALSE;
  for (guint i = 0; i < ks->n_global; i++)
    need += g_array_index (ks->arrays, WsKernelArray, i).bytes;
  /* leave room for the context's own allocations */
  if (need <= (gint64) (free_bytes / 100 * 95))
    return TRUE;

  for (guint i = 1; i < stats->n_accesses; i++)
    if (stats->accesses[i].end_address > stats->accesses[widest].end_address)
      widest = i;
  need_text = g_format_size_full ((guint64) need, G_FORMAT_SIZE_IEC_UNITS);
  free_text = g_format_size_full ((guint64) free_bytes, G_FORMAT_SIZE_IEC_UNITS);
  where = furthest_lane (pattern, widest, stats->accesses[widest].end_address);
  desc = ws_pattern_describe_access (pattern, widest);
  if (where)
    g_set_error (error, WS_GPU_ERROR, WS_GPU_ERROR_OUT_OF_MEMORY,
                 /* Translators: two sizes (“1.5 GiB”), the access as the pattern
                  * writes it (“global load in[i], 4 B”), the byte it reaches, then
                  * the block and thread that reach it */
                 _("the pattern needs %s of global memory, but the GPU has %s free: %s reaches byte %lld at %s"),
                 need_text, free_text, desc, (long long) (stats->accesses[widest].end_address - 1), where);
  else
    g_set_error (error, WS_GPU_ERROR, WS_GPU_ERROR_OUT_OF_MEMORY,
                 /* Translators: two sizes (“1.5 GiB”), the access as the pattern
                  * writes it (“global load in[i], 4 B”), then the byte it reaches */
                 _("the pattern needs %s of global memory, but the GPU has %s free: %s reaches byte %lld"),
                 need_text, free_text, desc, (long long) (stats->accesses[widest].end_address - 1));
  return FALSE;
}

static gboolean
allocate_buffers (WsJitLaunch *jl,
                  GError     **error)
{
  const WsKernelSource *ks = jl->source;
  guint n = ks->n_global;

  jl->params = g_new0 (void *, n + 3);
  for (guint i = 0; i < n; i++)
    {
      const WsKernelArray *a = &g_array_index (ks->arrays, WsKernelArray, i);
      g_autofree char *what = g_strdup_printf ("allocating %" G_GINT64_FORMAT " bytes for the global array %s",
                                               a->bytes, a->name);
      void *p = NULL;

      if (!ws_jit_cuda_check (cudaMalloc (&p, (size_t) a->bytes), what, error))
        return FALSE;
      g_ptr_array_add (jl->buffers, p);
      if (!ws_jit_cuda_check (cudaMemset (p, 0, (size_t) a->bytes), what, error))
        return FALSE;
    }
  if (!ws_jit_cuda_check (cudaMalloc (&jl->sink, 16), _("allocating the kernel's sink"), error))
    return FALSE;
  for (guint i = 0; i < n; i++)
    jl->params[i] = &jl->buffers->pdata[i];
  jl->params[n] = &jl->sink;
  jl->params[n + 1] = &jl->zero;
  jl->params[n + 2] = &jl->magic;
  return ws_jit_cuda_check (cudaDeviceSynchronize (), _("clearing the buffers"), error);
}

static gboolean
set_shared_memory (WsJitLaunch *jl,
                   GError     **error)
{
  int device = 0, optin = 0;

  if (jl->source->shared_bytes <= 48 * 1024)
    return TRUE;
  if (!ws_jit_cuda_check (cudaGetDevice (&device), "cudaGetDevice", error) ||
      !ws_jit_cuda_check (cudaDeviceGetAttribute (&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device),
                   "cudaDeviceGetAttribute", error))
    return FALSE;
  if (jl->source->shared_bytes > optin)
    {
      g_set_error (error, WS_GPU_ERROR, WS_GPU_ERROR_INVALID_PARAM,
                   /* Translators: bytes the shared arrays need, then the most this GPU allows a block */
                   _("the shared arrays need %lld bytes per block; this GPU allows %d"),
                   (long long) jl->source->shared_bytes, optin);
      return FALSE;
    }
  return ws_jit_cu_check (driver.FuncSetAttribute (jl->function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                            (int) jl->source->shared_bytes),
                   _("allowing the kernel its shared memory"), error);
}

char *
ws_jit_device_target (GError **error)
{
  int device = 0, major = 0, minor = 0;

  if (!ws_jit_cuda_check (cudaGetDevice (&device), "cudaGetDevice", error) ||
      !ws_jit_cuda_check (cudaDeviceGetAttribute (&major, cudaDevAttrComputeCapabilityMajor, device),
                   "cudaDeviceGetAttribute", error) ||
      !ws_jit_cuda_check (cudaDeviceGetAttribute (&minor, cudaDevAttrComputeCapabilityMinor, device),
                   "cudaDeviceGetAttribute", error))
    return NULL;
  return ws_jit_target_for (major, minor, error);
}

void
ws_jit_launch_free (WsJitLaunch *jl)
{
  if (jl == NULL)
    return;
  /* after a reset the buffers went with the context */
  if (jl->generation == ws_gpu_generation ())
    {
      for (guint i = 0; jl->buffers && i < jl->buffers->len; i++)
        cudaFree (jl->buffers->pdata[i]);
      if (jl->sink)
        cudaFree (jl->sink);
    }
  g_clear_pointer (&jl->buffers, g_ptr_array_unref);
  g_clear_pointer (&jl->stats, ws_launch_stats_free);
  g_clear_pointer (&jl->source, ws_kernel_source_free);
  g_free (jl->target);
  g_free (jl->params);
  g_free (jl);
}

static gint64
bytes_asked (const WsPattern     *pattern,
             const WsLaunchStats *stats)
{
  gint64 bytes = 0;

  for (guint i = 0; i < stats->n_accesses; i++)
    {
      WsSpace space = ws_pattern_get_access (pattern, i)->space;
      if (space == WS_SPACE_GLOBAL || space == WS_SPACE_LOCAL)
        bytes += (gint64) stats->accesses[i].bytes_requested;
    }
  return bytes;
}

WsJitLaunch *
ws_jit_prepare (const WsPattern *pattern,
                GCancellable    *cancellable,
                GError         **error)
{
  g_autoptr (WsJitLaunch) jl = g_new0 (WsJitLaunch, 1);

  g_return_val_if_fail (pattern != NULL, NULL);

  jl->buffers = g_ptr_array_new ();
  jl->magic = KERNEL_MAGIC;
  jl->stats = ws_model_analyze_launch (pattern, cancellable, error);
  if (jl->stats == NULL)
    return NULL;
  jl->source = ws_codegen_generate (pattern, jl->stats, error);
  if (jl->source == NULL || !ws_jit_ensure_driver (error))
    return NULL;
  jl->generation = ws_gpu_generation ();
  jl->target = ws_jit_device_target (error);
  jl->bytes = bytes_asked (pattern, jl->stats);
  if (jl->target == NULL ||
      !check_global_memory (pattern, jl->stats, jl->source, error) ||
      !load_function (jl->source, jl->target, &jl->function, error) ||
      !set_shared_memory (jl, error) ||
      !allocate_buffers (jl, error))
    return NULL;
  return g_steal_pointer (&jl);
}

static CUresult
launch (WsJitLaunch *jl)
{
  const WsKernelSource *ks = jl->source;

  return driver.LaunchKernel (jl->function, ks->grid.x, ks->grid.y, ks->grid.z,
                              ks->block.x, ks->block.y, ks->block.z,
                              (unsigned int) ks->shared_bytes, NULL, jl->params, NULL);
}

void
ws_jit_launch (gpointer data)
{
  WsJitLaunch *jl = data;

  /* an error here shows up in the runtime's next synchronisation */
  launch (jl);
}

gboolean
ws_jit_launch_sync (WsJitLaunch *jl,
                    GError     **error)
{
  CUresult status;
  gboolean ok;

  g_return_val_if_fail (jl != NULL, FALSE);

  status = launch (jl);
  if (status == CUDA_ERROR_OUT_OF_MEMORY)
    {
      g_set_error (error, WS_GPU_ERROR, WS_GPU_ERROR_OUT_OF_MEMORY,
                   /* Translators: %lld is the bytes of local memory each thread needs */
                   _("the GPU cannot reserve %lld bytes of local memory for every thread it can run at once"),
                   (long long) jl->source->local_bytes);
      return FALSE;
    }
  if (!ws_jit_cu_check (status, _("launching the generated kernel"), error))
    return FALSE;
  /* a fault poisons the context: the GPU layer resets the device */
  ws_gpu_lock ();
  ok = ws_gpu_sync (_("running the generated kernel"), error);
  ws_gpu_unlock ();
  return ok;
}

const WsLaunchStats *
ws_jit_launch_get_stats (const WsJitLaunch *jl)
{
  return jl->stats;
}

const WsKernelSource *
ws_jit_launch_get_source (const WsJitLaunch *jl)
{
  return jl->source;
}

const char *
ws_jit_launch_get_target (const WsJitLaunch *jl)
{
  return jl->target;
}

gint64
ws_jit_launch_get_bytes (const WsJitLaunch *jl)
{
  return jl->bytes;
}

void
ws_jit_launch_describe (const WsJitLaunch *jl,
                        WsMeasurement     *m)
{
  guint64 threads = ws_dim3_count (jl->source->block);
  int value = 0, blocks = 0;

  if (driver.FuncGetAttribute (&value, CU_FUNC_ATTRIBUTE_NUM_REGS, jl->function) == CUDA_SUCCESS)
    m->registers = value;
  if (driver.FuncGetAttribute (&value, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, jl->function) == CUDA_SUCCESS)
    m->local_bytes = value;
  if (driver.FuncGetAttribute (&value, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, jl->function) == CUDA_SUCCESS)
    m->shared_bytes = value + (int) jl->source->shared_bytes;
  if (driver.OccupancyMaxActiveBlocksPerMultiprocessor (&blocks, jl->function, (int) threads,
                                                        (size_t) jl->source->shared_bytes) == CUDA_SUCCESS)
    {
      m->blocks_per_sm = blocks;
      m->warps_per_sm = blocks * (int) ((threads + WS_WARP_SIZE - 1) / WS_WARP_SIZE);
    }
}

/* ------------------------------------------------------------------ */
/* Measuring a pattern                                                */
/* ------------------------------------------------------------------ */

static void
record_pattern (WsMeasurement   *m,
                const WsPattern *pattern)
{
  g_free (m->description);
  m->description = ws_pattern_to_string (pattern);
  for (guint i = 0; i < ws_pattern_get_n_params (pattern); i++)
    {
      const WsParam *p = ws_pattern_get_param_nth (pattern, i);
      ws_measurement_set_param (m, p->name, p->value);
    }
}

/* Counters that fail leave the timings standing, with the reason beside. */
static void
add_counters (WsJitLaunch   *jl,
              WsMeasurement *m,
              gboolean       cold)
{
  g_autoptr (GError) error = NULL;

  if (!ws_counters_available (&error) ||
      !ws_counters_collect_after (cold ? ws_gpu_flush_before : NULL, ws_jit_launch, jl, NULL, m, &error))
    {
      g_free (m->warning);
      m->warning = g_strdup_printf ("no hardware counters: %s", error->message);
      g_array_set_size (m->counters, 0);
    }
}

static WsMeasurement *
measure_locked (const WsPattern        *pattern,
                const WsMeasureOptions *options,
                GCancellable           *cancellable,
                WsSampleProgress        progress,
                gpointer                progress_data,
                GError                **error)
{
  g_autoptr (WsJitLaunch) jl = ws_jit_prepare (pattern, cancellable, error);
  g_autoptr (WsMeasurement) m = NULL;

  /* one launch first: a fault shows here, with its cause, not in the timing */
  if (jl == NULL || !ws_jit_launch_sync (jl, error))
    return NULL;
  m = ws_gpu_time_launches ("expr", ws_jit_launch, jl, jl->bytes, options, cancellable,
                            progress, progress_data, error);
  if (m == NULL)
    return NULL;
  record_pattern (m, pattern);
  ws_jit_launch_describe (jl, m);
  if (options->counters)
    add_counters (jl, m, options->cold);
  return g_steal_pointer (&m);
}

WsMeasurement *
ws_gpu_measure_pattern (const WsPattern        *pattern,
                        const WsMeasureOptions *options,
                        GCancellable           *cancellable,
                        WsSampleProgress        progress,
                        gpointer                progress_data,
                        GError                **error)
{
  WsMeasureOptions defaults = WS_MEASURE_OPTIONS_DEFAULT;
  WsMeasurement *m;

  g_return_val_if_fail (pattern != NULL, NULL);

  ws_gpu_lock ();
  m = measure_locked (pattern, options ? options : &defaults, cancellable, progress, progress_data, error);
  ws_gpu_unlock ();
  return m;
}

static WsMeasurement *
count_locked (const WsPattern    *pattern,
              const char *const  *metrics,
              gboolean            cold,
              GCancellable       *cancellable,
              GError            **error)
{
  g_autoptr (WsJitLaunch) jl = ws_jit_prepare (pattern, cancellable, error);
  g_autoptr (WsMeasurement) m = ws_measurement_new ("expr");

  if (jl == NULL || !ws_jit_launch_sync (jl, error) || !ws_counters_available (error) ||
      !ws_counters_collect_after (cold ? ws_gpu_flush_before : NULL, ws_jit_launch, jl, metrics, m, error))
    return NULL;
  m->cold = cold;
  record_pattern (m, pattern);
  ws_jit_launch_describe (jl, m);
  return g_steal_pointer (&m);
}

WsMeasurement *
ws_gpu_count_pattern (const WsPattern    *pattern,
                      const char *const  *metrics,
                      gboolean            cold,
                      gboolean            hold,
                      GCancellable       *cancellable,
                      GError            **error)
{
  WsMeasurement *m;

  g_return_val_if_fail (pattern != NULL, NULL);

  ws_gpu_lock ();
  /* a profiler held by the collection before is used again, and released
   * after the last of a run */
  if (hold)
    ws_counters_hold (TRUE);
  m = count_locked (pattern, metrics, cold, cancellable, error);
  if (!hold)
    ws_counters_hold (FALSE);
  ws_gpu_unlock ();
  return m;
}
