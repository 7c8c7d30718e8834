/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime_api.h>

#include "ws-jit.h"

G_BEGIN_DECLS

/* What the generated kernels of patterns (ws-jit.c) and kernel texts
 * (ws-jit-kernel.c) share: the driver API reached through the runtime, the
 * errors of both APIs, NVRTC, and the cache of compiled images and loaded
 * modules. On the thread that holds the GPU. */

typedef struct
{
  PFN_cuGetErrorName_v6000 GetErrorName;
  PFN_cuCtxGetCurrent_v4000 CtxGetCurrent;
  PFN_cuCtxGetDevice_v2000 CtxGetDevice;
  PFN_cuModuleLoadDataEx_v2010 ModuleLoadDataEx;
  PFN_cuModuleUnload_v2000 ModuleUnload;
  PFN_cuModuleGetFunction_v2000 ModuleGetFunction;
  PFN_cuFuncGetAttribute_v2020 FuncGetAttribute;
  PFN_cuFuncSetAttribute_v9000 FuncSetAttribute;
  PFN_cuLaunchKernel_v4000 LaunchKernel;
  PFN_cuModuleGetGlobal_v3020 ModuleGetGlobal;
  PFN_cuOccupancyMaxActiveBlocksPerMultiprocessor_v6050 OccupancyMaxActiveBlocksPerMultiprocessor;
} WsJitDriver;

extern WsJitDriver ws_jit_driver;

gboolean  ws_jit_cuda_check     (cudaError_t   status,
                                 const char   *what,
                                 GError      **error);
gboolean  ws_jit_cu_check       (CUresult      status,
                                 const char   *what,
                                 GError      **error);
/* Makes the GPU layer's context current and fills ws_jit_driver. */
gboolean  ws_jit_ensure_driver  (GError      **error);
/* What to compile for the current device ("sm_90"). */
char     *ws_jit_device_target  (GError      **error);

/* NVRTC: any CUDA text for target, with line information (-lineinfo) if
 * asked; on a failure the error is NVRTC's and log (if not NULL) its full
 * log, unexplained. */
GBytes   *ws_jit_compile_text   (const char   *text,
                                 const char   *file_name,
                                 const char   *target,
                                 gboolean      lineinfo,
                                 char        **log,
                                 GError      **error);

typedef GBytes *(*WsJitCompile) (gpointer  data,
                                 GError  **error);

/* The function of the module cached under key (a hash of the source and
 * the target), compiling with compile (data) and loading it the first
 * time in this context; image_out (may be NULL) gets the compiled image. */
gboolean  ws_jit_load           (const char   *key,
                                 WsJitCompile  compile,
                                 gpointer      data,
                                 const char   *function_name,
                                 CUmodule     *module,
                                 CUfunction   *function,
                                 GBytes      **image_out,
                                 GError      **error);

G_END_DECLS
