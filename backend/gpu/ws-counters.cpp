/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Hardware counters with CUPTI's range profiler. The only C++ file of the
 * project: cupti_profiler_host.h includes <string>. Everything here sits
 * behind the C API of ws-counters.h. */
#include "ws-config.h"
#include "ws-counters.h"
#include "ws-jit.h"

#include <cuda.h>
#include <glib/gi18n-lib.h>
#include <cuda_runtime_api.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_pcsampling.h>
#include <cupti_sass_metrics.h>
#include <cupti_result.h>
#include <cupti_target.h>

#include <map>
#include <string>
#include <vector>

/* CUPTI's parameter structs are set up as { STRUCT_SIZE } with the rest zero,
 * as its samples do; the project says the same for C in meson.build. */
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

/* At most this many passes: a metric set that needs more is a bug. */
#define MAX_PASSES 64

namespace {

/* A metric set compiled for the chip: the host object that evaluates its
 * counters, and the configuration image the GPU is programmed with. */
struct Config
{
  CUpti_Profiler_Host_Object *host = nullptr;
  std::vector<uint8_t> image;
  std::vector<const char *> names;    /* point into `storage` */
  std::vector<std::string> storage;
  size_t passes = 0;
};

struct State
{
  GMutex lock;
  gboolean probed = FALSE;
  GError *unavailable = nullptr;      /* why counters cannot be read, once known */
  std::string chip;
  std::vector<uint8_t> availability;
  std::map<std::string, Config *> configs;
  /* the range profiler, enabled on this context (see ws_counters_hold ()) */
  CUcontext context = nullptr;
  CUpti_RangeProfiler_Object *object = nullptr;
  int sass_device = -1;               /* the device SASS metrics are configured for, once */
  Config *configured = nullptr;       /* the metric set the profiler last ran */
  gboolean hold = FALSE;              /* keep the profiler between collections */
};

State state;

const char *const default_metrics[] = {
  "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
  "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
  "smsp__inst_executed_op_global_ld.sum",
  "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
  "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
  "smsp__inst_executed_op_global_st.sum",
  "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum",
  "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum",
  "smsp__inst_executed_op_global_red.sum",
  "l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum",
  "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum",
  "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
  "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
  "smsp__inst_executed_op_shared_ld.sum",
  "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
  "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
  "smsp__inst_executed_op_shared_st.sum",
  "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum",
  "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum",
  "smsp__inst_executed_op_shared_atom.sum",
  "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum",
  "l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum",
  "smsp__inst_executed_op_local_ld.sum",
  "l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum",
  "l1tex__t_requests_pipe_lsu_mem_local_op_st.sum",
  "smsp__inst_executed_op_local_st.sum",
  "idc__requests.sum",
  "smsp__inst_executed_op_ldc.sum",
  "l1tex__t_sector_hit_rate.pct",
  "lts__t_sector_hit_rate.pct",
  "dram__bytes_read.sum",
  "dram__bytes_write.sum",
  /* the hierarchy below L1: what L1 asks of L2, and what L2 finds */
  "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum",
  "l1tex__t_sectors_pipe_lsu_mem_local_op_ld_lookup_hit.sum",
  "l1tex__t_sectors_pipe_lsu_mem_local_op_st_lookup_hit.sum",
  "lts__t_sectors_srcunit_tex_op_read.sum",
  "lts__t_sectors_srcunit_tex_op_write.sum",
  "lts__t_sectors_srcunit_tex_op_atom.sum",
  "lts__t_sectors_srcunit_tex_op_red.sum",
  "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum",
  "lts__t_sectors_srcunit_tex_op_write_lookup_hit.sum",
  "lts__t_requests_srcunit_tex_op_read.sum",
  "lts__t_requests_srcunit_tex_op_write.sum",
  "lts__t_sectors_srcunit_ltcfabric.sum",
  "lts__t_sectors.sum",
  "gpu__time_duration.sum",
  nullptr,
};

const char *const global_ld[] = {
  "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
  "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
  "smsp__inst_executed_op_global_ld.sum", nullptr,
};
const char *const global_st[] = {
  "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
  "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
  "smsp__inst_executed_op_global_st.sum", nullptr,
};
const char *const global_red[] = {
  "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum",
  "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum",
  "smsp__inst_executed_op_global_red.sum", nullptr,
};
const char *const shared_ld[] = {
  "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
  "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
  "smsp__inst_executed_op_shared_ld.sum", nullptr,
};
const char *const shared_st[] = {
  "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
  "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
  "smsp__inst_executed_op_shared_st.sum", nullptr,
};
const char *const shared_atom[] = {
  "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum",
  "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum",
  "smsp__inst_executed_op_shared_atom.sum", nullptr,
};
const char *const local_ld[] = {
  "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum",
  "l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum",
  "smsp__inst_executed_op_local_ld.sum", nullptr,
};
const char *const local_st[] = {
  "l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum",
  "l1tex__t_requests_pipe_lsu_mem_local_op_st.sum",
  "smsp__inst_executed_op_local_st.sum", nullptr,
};
const char *const constant_ld[] = {
  "idc__requests.sum",
  "smsp__inst_executed_op_ldc.sum", nullptr,
};
const char *const registers[] = {
  "smsp__inst_executed_op_local_ld.sum",
  "smsp__inst_executed_op_local_st.sum", nullptr,
};

const char *
result_name (CUptiResult status)
{
  const char *text = nullptr;

  if (cuptiGetResultString (status, &text) != CUPTI_SUCCESS || text == nullptr)
    return _("unknown CUPTI error");
  return text;
}

/* What a CUPTI failure means for the user, and what fixes it. */
void
set_cupti_error (GError    **error,
                 CUptiResult status,
                 const char *what)
{
  switch (status)
    {
    case CUPTI_ERROR_INSUFFICIENT_PRIVILEGES:
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES:
      g_set_error (error, WS_GPU_ERROR, WS_GPU_ERROR_COUNTERS_UNAVAILABLE,
                   /* Translators: what the program was doing, then CUPTI's message (in English) */
                   _("the NVIDIA driver lets only administrators read the GPU's performance counters "
                     "(%s: %s). Run Warpscope as root or with CAP_SYS_ADMIN, or allow every user with the "
                     "nvidia module option NVreg_RestrictProfilingToAdminUsers=0 "
                     "(“options nvidia NVreg_RestrictProfilingToAdminUsers=0” in /etc/modprobe.d/, "
                     "then rebuild the initramfs and reboot). Timings still work."),
                   what, result_name (status));
      break;
    case CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED:
    case CUPTI_ERROR_OLD_PROFILER_API_INITIALIZED:
    case CUPTI_ERROR_HARDWARE_BUSY:
      g_set_error (error, WS_GPU_ERROR, WS_GPU_ERROR_COUNTERS_UNAVAILABLE,
                   /* Translators: what the program was doing, then CUPTI's message (in English) */
                   _("another profiler (Nsight Compute, Nsight Systems or a CUPTI tool) already holds the GPU's "
                     "counters (%s: %s). Run Warpscope outside the profiler to read them; timings still work."),
                   what, result_name (status));
      break;
    case CUPTI_ERROR_NOT_SUPPORTED:
    case CUPTI_ERROR_NOT_COMPATIBLE:
    case CUPTI_ERROR_LEGACY_PROFILER_NOT_SUPPORTED:
    case CUPTI_ERROR_INVALID_CHIP_NAME:
      g_set_error (error, WS_GPU_ERROR, WS_GPU_ERROR_COUNTERS_UNAVAILABLE,
                   /* Translators: what the program was doing, then CUPTI's message (in English) */
                   _("CUPTI's range profiler does not support this GPU (%s: %s); it needs a Turing (sm_75) "
                     "or newer GPU known to this CUPTI. Timings still work."), what, result_name (status));
      break;
    case CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_SLI_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_WSL_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_CONFIDENTIAL_COMPUTING_NOT_SUPPORTED:
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED:
      g_set_error (error, WS_GPU_ERROR, WS_GPU_ERROR_COUNTERS_UNAVAILABLE,
                   /* Translators: what the program was doing, then CUPTI's message (in English) */
                   _("this GPU's configuration does not allow profiling (%s: %s). Timings still work."),
                   what, result_name (status));
      break;
    default:
      /* Translators: what the program was doing, CUPTI's message (in English), then its number */
      g_set_error (error, WS_GPU_ERROR, WS_GPU_ERROR_CUDA, _("%s: %s (CUPTI error %d)"),
                   what, result_name (status), (int) status);
      break;
    }
}

gboolean
cupti_check (CUptiResult status,
             const char *what,
             GError    **error)
{
  if (status == CUPTI_SUCCESS)
    return TRUE;
  set_cupti_error (error, status, what);
  return FALSE;
}

/* Why profiling is off, a sentence for each part of the configuration and
 * each of disabled and not supported. */
enum Unsupported { ON_VGPU, CONFIDENTIAL, ON_CMP, WITH_SLI, UNDER_WSL, CONFIGURATION };

const char *
unsupported_message (Unsupported                  where,
                     CUpti_Profiler_Support_Level level)
{
  static const char *const disabled[] = {
    N_("profiling is disabled on this virtual GPU (vGPU) — the host's administrator can enable profiling for it. "
       "Timings still work."),
    N_("profiling is disabled with confidential computing on. Timings still work."),
    N_("profiling is disabled on a crypto-mining processor (CMP). Timings still work."),
    N_("profiling is disabled with SLI on. Timings still work."),
    N_("profiling is disabled under WSL with this driver. Timings still work."),
    N_("profiling is disabled in this configuration. Timings still work."),
  };
  static const char *const unsupported[] = {
    N_("profiling is not supported on this virtual GPU (vGPU) — the host's administrator can enable profiling "
       "for it. Timings still work."),
    N_("profiling is not supported with confidential computing on. Timings still work."),
    N_("profiling is not supported on a crypto-mining processor (CMP). Timings still work."),
    N_("profiling is not supported with SLI on. Timings still work."),
    N_("profiling is not supported under WSL with this driver. Timings still work."),
    N_("profiling is not supported in this configuration. Timings still work."),
  };

  return _(level == CUPTI_PROFILER_CONFIGURATION_DISABLED ? disabled[where] : unsupported[where]);
}

/* cuptiProfilerDeviceSupported says which part of the configuration stops
 * profiling; name it. */
gboolean
check_device_supported (int      device,
                        GError **error)
{
  CUpti_Profiler_DeviceSupported_Params p = { CUpti_Profiler_DeviceSupported_Params_STRUCT_SIZE };
  int major = 0, minor = 0;
  Unsupported where;
  CUpti_Profiler_Support_Level level = CUPTI_PROFILER_CONFIGURATION_SUPPORTED;

  p.cuDevice = device;
  p.api = CUPTI_PROFILER_RANGE_PROFILING;
  if (!cupti_check (cuptiProfilerDeviceSupported (&p), "cuptiProfilerDeviceSupported", error))
    return FALSE;
  if (p.isSupported == CUPTI_PROFILER_CONFIGURATION_SUPPORTED)
    return TRUE;
  if (p.architecture != CUPTI_PROFILER_CONFIGURATION_SUPPORTED)
    {
      cudaDeviceGetAttribute (&major, cudaDevAttrComputeCapabilityMajor, device);
      cudaDeviceGetAttribute (&minor, cudaDevAttrComputeCapabilityMinor, device);
      g_set_error (error, WS_GPU_ERROR, WS_GPU_ERROR_COUNTERS_UNAVAILABLE,
                   /* Translators: the GPU's compute capability, such as 7.0 */
                   _("this GPU (compute capability %d.%d) is too old for CUPTI's range profiler, which needs "
                     "Turing (7.5) or newer. Timings still work."), major, minor);
      return FALSE;
    }
  if (p.vGpu != CUPTI_PROFILER_CONFIGURATION_SUPPORTED)
    where = ON_VGPU, level = p.vGpu;
  else if (p.confidentialCompute != CUPTI_PROFILER_CONFIGURATION_SUPPORTED)
    where = CONFIDENTIAL, level = p.confidentialCompute;
  else if (p.cmp != CUPTI_PROFILER_CONFIGURATION_SUPPORTED)
    where = ON_CMP, level = p.cmp;
  else if (p.sli != CUPTI_PROFILER_CONFIGURATION_SUPPORTED)
    where = WITH_SLI, level = p.sli;
  else if (p.wsl != CUPTI_PROFILER_CONFIGURATION_SUPPORTED)
    where = UNDER_WSL, level = p.wsl;
  else
    where = CONFIGURATION, level = p.isSupported;
  g_set_error_literal (error, WS_GPU_ERROR, WS_GPU_ERROR_COUNTERS_UNAVAILABLE, unsupported_message (where, level));
  return FALSE;
}

gboolean
read_availability (CUcontext ctx,
                   GError  **error)
{
  CUpti_Profiler_GetCounterAvailability_Params p = { CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE };

  p.ctx = ctx;
  if (!cupti_check (cuptiProfilerGetCounterAvailability (&p), _("reading which counters are available"), error))
    return FALSE;
  state.availability.assign (p.counterAvailabilityImageSize, 0);
  p.pCounterAvailabilityImage = state.availability.data ();
  return cupti_check (cuptiProfilerGetCounterAvailability (&p), _("reading which counters are available"), error);
}

gboolean
read_chip_name (int      device,
                GError **error)
{
  CUpti_Device_GetChipName_Params p = { CUpti_Device_GetChipName_Params_STRUCT_SIZE };

  p.deviceIndex = (size_t) device;
  if (!cupti_check (cuptiDeviceGetChipName (&p), "cuptiDeviceGetChipName", error))
    return FALSE;
  state.chip = p.pChipName;
  return TRUE;
}

gboolean
enable_profiler (CUcontext                    ctx,
                 CUpti_RangeProfiler_Object **object,
                 GError                     **error)
{
  CUpti_RangeProfiler_Enable_Params p = { CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE };

  p.ctx = ctx;
  if (!cupti_check (cuptiRangeProfilerEnable (&p), _("enabling CUPTI's range profiler"), error))
    return FALSE;
  *object = p.pRangeProfilerObject;
  return TRUE;
}

void
disable_profiler (CUpti_RangeProfiler_Object *object)
{
  CUpti_RangeProfiler_Disable_Params p = { CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE };

  p.pRangeProfilerObject = object;
  cuptiRangeProfilerDisable (&p);
}

void
release_profiler (void)
{
  if (state.object)
    disable_profiler (state.object);
  state.object = nullptr;
  state.context = nullptr;
  state.configured = nullptr;
}

/* The profiler of the current context, enabled once. A context that went
 * away (a device reset) takes its profiler with it. */
gboolean
current_profiler (CUpti_RangeProfiler_Object **object,
                  GError                     **error)
{
  gpointer ctx = nullptr;
  int device = 0;

  if (!ws_jit_current_context (&ctx, &device, error))
    return FALSE;
  if (state.object == nullptr || state.context != (CUcontext) ctx)
    {
      state.object = nullptr;
      state.configured = nullptr;
      if (!enable_profiler ((CUcontext) ctx, &state.object, error))
        return FALSE;
      state.context = (CUcontext) ctx;
    }
  *object = state.object;
  return TRUE;
}

/* When CUPTI fails, the device's support says more about why, if it is
 * the cause. */
gboolean
explain_failure (int      device,
                 GError **error)
{
  GError *why = nullptr;

  if (!check_device_supported (device, &why) && why->code == WS_GPU_ERROR_COUNTERS_UNAVAILABLE)
    {
      g_clear_error (error);
      g_propagate_error (error, why);
    }
  else
    g_clear_error (&why);
  return FALSE;
}

/* Once: a profiler already attached (Nsight's injection), CUPTI's start,
 * the chip, and the permission to read its counters (reading which are
 * available fails without it, or with another profiler on the GPU). The
 * range profiler itself is enabled only to collect. */
gboolean
probe (GError **error)
{
  CUpti_Profiler_Initialize_Params init = { CUpti_Profiler_Initialize_Params_STRUCT_SIZE };
  gpointer ctx = nullptr;
  int device = 0;
  const char *injection = g_getenv ("CUDA_INJECTION64_PATH");
  gint64 t0, t1, t2;

  if (injection != nullptr && *injection != '\0')
    {
      g_set_error (error, WS_GPU_ERROR, WS_GPU_ERROR_COUNTERS_UNAVAILABLE,
                   /* Translators: %s is what the environment variable CUDA_INJECTION64_PATH holds */
                   _("this program runs under another profiler (CUDA_INJECTION64_PATH=%s), which holds the GPU's "
                     "counters: run Warpscope outside Nsight Compute or Nsight Systems to read them; timings "
                     "still work"), injection);
      return FALSE;
    }
  if (!ws_jit_current_context (&ctx, &device, error))
    return FALSE;
  t0 = g_get_monotonic_time ();
  if (!cupti_check (cuptiProfilerInitialize (&init), _("starting CUPTI's profiler"), error))
    return explain_failure (device, error);
  t1 = g_get_monotonic_time ();
  if (!read_chip_name (device, error) || !read_availability ((CUcontext) ctx, error))
    return explain_failure (device, error);
  t2 = g_get_monotonic_time ();
  g_debug ("counters: CUPTI initialised in %.1f ms, %s's counters read in %.1f ms",
           (t1 - t0) / 1e3, state.chip.c_str (), (t2 - t1) / 1e3);
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Metric sets                                                        */
/* ------------------------------------------------------------------ */

void
config_free (Config *c)
{
  if (c->host)
    {
      CUpti_Profiler_Host_Deinitialize_Params p = { CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE };
      p.pHostObject = c->host;
      cuptiProfilerHostDeinitialize (&p);
    }
  delete c;
}

gboolean
host_initialize (Config  *c,
                 GError **error)
{
  CUpti_Profiler_Host_Initialize_Params p = { CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE };

  p.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
  p.pChipName = state.chip.c_str ();
  p.pCounterAvailabilityImage = state.availability.data ();
  if (!cupti_check (cuptiProfilerHostInitialize (&p), _("preparing CUPTI's metric tables"), error))
    return FALSE;
  c->host = p.pHostObject;
  return TRUE;
}

gboolean
metric_known (CUpti_Profiler_Host_Object *host,
              const char                 *name)
{
  CUpti_Profiler_Host_GetMetricProperties_Params p = { CUpti_Profiler_Host_GetMetricProperties_Params_STRUCT_SIZE };

  p.pHostObject = host;
  p.pMetricName = name;
  return cuptiProfilerHostGetMetricProperties (&p) == CUPTI_SUCCESS;
}

/* Metrics this chip does not know fail the request, unless they come from
 * the default set, which simply shows what the chip has. */
gboolean
add_metrics (Config             *c,
             const char *const  *metrics,
             gboolean            lenient,
             GError            **error)
{
  for (guint i = 0; metrics[i]; i++)
    {
      if (metric_known (c->host, metrics[i]))
        c->storage.emplace_back (metrics[i]);
      else if (!lenient)
        {
          g_set_error (error, WS_GPU_ERROR, WS_GPU_ERROR_INVALID_PARAM,
                       /* Translators: the GPU's chip (GA102), then the metric asked for */
                       _("the GPU (%s) has no metric “%s”: use a name that Nsight Compute lists with "
                         "“ncu --query-metrics”"), state.chip.c_str (), metrics[i]);
          return FALSE;
        }
    }
  if (c->storage.empty ())
    {
      g_set_error (error, WS_GPU_ERROR, WS_GPU_ERROR_INVALID_PARAM, _("no metric to collect"));
      return FALSE;
    }
  for (const std::string &s : c->storage)
    c->names.push_back (s.c_str ());
  return TRUE;
}

gboolean
build_image (Config  *c,
             GError **error)
{
  CUpti_Profiler_Host_ConfigAddMetrics_Params add = { CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE };
  CUpti_Profiler_Host_GetConfigImageSize_Params size = { CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE };
  CUpti_Profiler_Host_GetConfigImage_Params image = { CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE };
  CUpti_Profiler_Host_GetNumOfPasses_Params passes = { CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE };

  add.pHostObject = c->host;
  add.ppMetricNames = c->names.data ();
  add.numMetrics = c->names.size ();
  size.pHostObject = c->host;
  if (!cupti_check (cuptiProfilerHostConfigAddMetrics (&add), _("scheduling the metrics"), error) ||
      !cupti_check (cuptiProfilerHostGetConfigImageSize (&size), _("scheduling the metrics"), error))
    return FALSE;
  c->image.assign (size.configImageSize, 0);
  image.pHostObject = c->host;
  image.configImageSize = c->image.size ();
  image.pConfigImage = c->image.data ();
  if (!cupti_check (cuptiProfilerHostGetConfigImage (&image), _("scheduling the metrics"), error))
    return FALSE;
  passes.configImageSize = c->image.size ();
  passes.pConfigImage = c->image.data ();
  if (!cupti_check (cuptiProfilerHostGetNumOfPasses (&passes), _("scheduling the metrics"), error))
    return FALSE;
  c->passes = passes.numOfPasses;
  return TRUE;
}

std::string
metrics_key (const char *const *metrics)
{
  std::string key;

  for (guint i = 0; metrics[i]; i++)
    key.append (metrics[i]).append (",");
  return key;
}

/* Compiling a metric set is the slow part of CUPTI (tens of milliseconds);
 * each set is compiled once. Called with the lock held. */
Config *
config_for (const char *const *metrics,
            GError           **error)
{
  std::string key = metrics_key (metrics);
  auto found = state.configs.find (key);
  gint64 t0 = g_get_monotonic_time ();
  Config *c;

  if (found != state.configs.end ())
    return found->second;
  c = new Config ();
  if (!host_initialize (c, error) ||
      !add_metrics (c, metrics, metrics == default_metrics, error) ||
      !build_image (c, error))
    {
      config_free (c);
      return nullptr;
    }
  state.configs[key] = c;
  g_debug ("counters: %zu metrics scheduled in %zu passes for %s in %.1f ms", c->names.size (), c->passes,
           state.chip.c_str (), (g_get_monotonic_time () - t0) / 1e3);
  return c;
}

/* ------------------------------------------------------------------ */
/* One collection                                                     */
/* ------------------------------------------------------------------ */

gboolean
counter_data (CUpti_RangeProfiler_Object *object,
              Config                     *c,
              std::vector<uint8_t>       &data,
              GError                    **error)
{
  CUpti_RangeProfiler_GetCounterDataSize_Params size = { CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE };
  CUpti_RangeProfiler_CounterDataImage_Initialize_Params init = { CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE };

  size.pRangeProfilerObject = object;
  size.pMetricNames = c->names.data ();
  size.numMetrics = c->names.size ();
  size.maxNumOfRanges = 1;
  size.maxNumRangeTreeNodes = 1;
  if (!cupti_check (cuptiRangeProfilerGetCounterDataSize (&size), _("sizing the counter data"), error))
    return FALSE;
  data.assign (size.counterDataSize, 0);
  init.pRangeProfilerObject = object;
  init.counterDataSize = data.size ();
  init.pCounterData = data.data ();
  return cupti_check (cuptiRangeProfilerCounterDataImageInitialize (&init), _("preparing the counter data"), error);
}

gboolean
set_config (CUpti_RangeProfiler_Object *object,
            Config                     *c,
            std::vector<uint8_t>       &data,
            GError                    **error)
{
  CUpti_RangeProfiler_SetConfig_Params p = { CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE };

  p.pRangeProfilerObject = object;
  p.configSize = c->image.size ();
  p.pConfig = c->image.data ();
  p.counterDataImageSize = data.size ();
  p.pCounterDataImage = data.data ();
  /* one range around the launcher, whatever it launches; we replay it */
  p.range = CUPTI_UserRange;
  p.replayMode = CUPTI_UserReplay;
  p.maxRangesPerPass = 1;
  p.numNestingLevels = 1;
  p.minNestingLevel = 1;
  p.passIndex = 0;
  p.targetNestingLevel = 1;
  return cupti_check (cuptiRangeProfilerSetConfig (&p), _("configuring the range profiler"), error);
}

gboolean
one_pass (CUpti_RangeProfiler_Object *object,
          WsLaunchFunc                before,
          WsLaunchFunc                launch,
          gpointer                    data,
          gboolean                   *done,
          GError                    **error)
{
  CUpti_RangeProfiler_Start_Params start = { CUpti_RangeProfiler_Start_Params_STRUCT_SIZE };
  CUpti_RangeProfiler_PushRange_Params push = { CUpti_RangeProfiler_PushRange_Params_STRUCT_SIZE };
  CUpti_RangeProfiler_PopRange_Params pop = { CUpti_RangeProfiler_PopRange_Params_STRUCT_SIZE };
  CUpti_RangeProfiler_Stop_Params stop = { CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE };
  cudaError_t status;

  start.pRangeProfilerObject = push.pRangeProfilerObject = object;
  pop.pRangeProfilerObject = stop.pRangeProfilerObject = object;
  push.pRangeName = "warpscope";
  /* outside the range: what it does is not counted */
  if (before)
    {
      before (data);
      status = cudaDeviceSynchronize ();
      if (status != cudaSuccess)
        {
          g_set_error (error, WS_GPU_ERROR, WS_GPU_ERROR_CUDA,
                       /* Translators: %s is CUDA's message (in English) */
                       _("preparing a profiler pass: %s"), cudaGetErrorString (status));
          return FALSE;
        }
    }
  if (!cupti_check (cuptiRangeProfilerStart (&start), _("starting the range profiler"), error) ||
      !cupti_check (cuptiRangeProfilerPushRange (&push), _("opening the profiled range"), error))
    return FALSE;
  launch (data);
  status = cudaDeviceSynchronize ();
  if (!cupti_check (cuptiRangeProfilerPopRange (&pop), _("closing the profiled range"), error) ||
      !cupti_check (cuptiRangeProfilerStop (&stop), _("stopping the range profiler"), error))
    return FALSE;
  if (status != cudaSuccess)
    {
      g_set_error (error, WS_GPU_ERROR, WS_GPU_ERROR_KERNEL_FAULT,
                   /* Translators: %s is CUDA's message (in English) */
                   _("the profiled kernel failed: %s"), cudaGetErrorString (status));
      return FALSE;
    }
  *done = stop.isAllPassSubmitted != 0;
  return TRUE;
}

gboolean
evaluate (CUpti_RangeProfiler_Object *object,
          Config                     *c,
          std::vector<uint8_t>       &data,
          WsMeasurement              *into,
          GError                    **error)
{
  CUpti_RangeProfiler_DecodeData_Params decode = { CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE };
  CUpti_Profiler_Host_EvaluateToGpuValues_Params eval = { CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE };
  std::vector<double> values (c->names.size (), 0.0);

  decode.pRangeProfilerObject = object;
  if (!cupti_check (cuptiRangeProfilerDecodeData (&decode), _("decoding the counters"), error))
    return FALSE;
  if (decode.numOfRangeDropped > 0)
    {
      g_set_error (error, WS_GPU_ERROR, WS_GPU_ERROR_CUDA, _("CUPTI dropped the profiled range"));
      return FALSE;
    }
  eval.pHostObject = c->host;
  eval.pCounterDataImage = data.data ();
  eval.counterDataImageSize = data.size ();
  eval.rangeIndex = 0;
  eval.ppMetricNames = c->names.data ();
  eval.numMetrics = c->names.size ();
  eval.pMetricValues = values.data ();
  if (!cupti_check (cuptiProfilerHostEvaluateToGpuValues (&eval), _("evaluating the metrics"), error))
    return FALSE;
  for (size_t i = 0; i < values.size (); i++)
    ws_measurement_add_counter (into, c->names[i], values[i]);
  return TRUE;
}

gboolean
collect_locked (WsLaunchFunc        before,
                WsLaunchFunc        launch,
                gpointer            data,
                const char *const  *metrics,
                WsMeasurement      *into,
                GError            **error)
{
  CUpti_RangeProfiler_Object *object = nullptr;
  std::vector<uint8_t> counters;
  gboolean done = FALSE, ok;
  gint64 t0 = g_get_monotonic_time (), t1, t2;
  Config *c;
  guint pass;

  c = config_for (metrics, error);
  if (c == nullptr)
    return FALSE;
  /* a profiler that ran another metric set reads NaN for this one: start a
   * fresh one */
  if (state.object && state.configured && state.configured != c)
    release_profiler ();
  if (!current_profiler (&object, error))
    return FALSE;
  state.configured = c;
  t1 = g_get_monotonic_time ();
  ok = counter_data (object, c, counters, error) && set_config (object, c, counters, error);
  for (pass = 0; ok && !done && pass < MAX_PASSES; pass++)
    ok = one_pass (object, before, launch, data, &done, error);
  if (ok && !done)
    {
      g_set_error (error, WS_GPU_ERROR, WS_GPU_ERROR_CUDA,
                   _("the metrics still needed passes after %d launches"), MAX_PASSES);
      ok = FALSE;
    }
  t2 = g_get_monotonic_time ();
  ok = ok && evaluate (object, c, counters, into, error);
  if (!state.hold)
    release_profiler ();
  g_debug ("counters: %zu metrics, %u passes; setup %.1f ms, passes %.1f ms, decoding %.1f ms",
           c->names.size (), pass, (t1 - t0) / 1e3, (t2 - t1) / 1e3, (g_get_monotonic_time () - t2) / 1e3);
  return ok;
}

} /* namespace */

/* ------------------------------------------------------------------ */
/* The C API                                                          */
/* ------------------------------------------------------------------ */

extern "C" gboolean
ws_counters_available (GError **error)
{
  gboolean ok;

  g_mutex_lock (&state.lock);
  if (!state.probed)
    {
      gint64 t0 = g_get_monotonic_time ();

      state.probed = TRUE;
      if (!probe (&state.unavailable) && state.unavailable == nullptr)
        g_set_error (&state.unavailable, WS_GPU_ERROR, WS_GPU_ERROR_COUNTERS_UNAVAILABLE, _("counters unavailable"));
      g_debug ("counters: CUPTI started in %.1f ms", (g_get_monotonic_time () - t0) / 1e3);
    }
  ok = state.unavailable == nullptr;
  if (!ok)
    g_propagate_error (error, g_error_copy (state.unavailable));
  g_mutex_unlock (&state.lock);
  return ok;
}

extern "C" gboolean
ws_counters_collect (WsLaunchFunc       launch,
                     gpointer           data,
                     const char *const *metrics,
                     WsMeasurement     *into,
                     GError           **error)
{
  return ws_counters_collect_after (NULL, launch, data, metrics, into, error);
}

extern "C" gboolean
ws_counters_collect_after (WsLaunchFunc       before,
                           WsLaunchFunc       launch,
                           gpointer           data,
                           const char *const *metrics,
                           WsMeasurement     *into,
                           GError           **error)
{
  gboolean ok;

  g_return_val_if_fail (launch != NULL, FALSE);
  g_return_val_if_fail (into != NULL, FALSE);

  if (!ws_counters_available (error))
    return FALSE;
  if (metrics == nullptr)
    metrics = default_metrics;
  g_mutex_lock (&state.lock);
  ok = collect_locked (before, launch, data, metrics, into, error);
  g_mutex_unlock (&state.lock);
  return ok;
}

extern "C" const char *const *
ws_counters_default_metrics (void)
{
  return default_metrics;
}

extern "C" const char *const *
ws_counters_metrics_for (WsSpace      space,
                         WsAccessKind kind)
{
  switch (space)
    {
    case WS_SPACE_GLOBAL:
      return kind == WS_ACCESS_LOAD ? global_ld : kind == WS_ACCESS_STORE ? global_st : global_red;
    case WS_SPACE_SHARED:
      return kind == WS_ACCESS_LOAD ? shared_ld : kind == WS_ACCESS_STORE ? shared_st : shared_atom;
    case WS_SPACE_LOCAL:
      return kind == WS_ACCESS_STORE ? local_st : local_ld;
    case WS_SPACE_CONSTANT:
      return constant_ld;
    case WS_SPACE_REGISTER:
    case WS_N_SPACES:
    default:
      return registers;
    }
}

extern "C" void
ws_counters_hold (gboolean hold)
{
  g_mutex_lock (&state.lock);
  state.hold = hold;
  if (!hold)
    release_profiler ();
  g_mutex_unlock (&state.lock);
}

extern "C" void
ws_counters_release (void)
{
  g_mutex_lock (&state.lock);
  release_profiler ();
  g_mutex_unlock (&state.lock);
}

extern "C" void
ws_counters_shutdown (void)
{
  g_mutex_lock (&state.lock);
  for (auto &entry : state.configs)
    config_free (entry.second);
  state.configs.clear ();
  release_profiler ();
  if (state.sass_device >= 0)
    {
      CUpti_SassMetricsUnsetConfig_Params unset = { CUpti_SassMetricsUnsetConfig_Params_STRUCT_SIZE };
      unset.deviceIndex = (uint32_t) state.sass_device;
      cuptiSassMetricsUnsetConfig (&unset);
      state.sass_device = -1;
    }
  state.probed = FALSE;
  g_clear_error (&state.unavailable);
  g_mutex_unlock (&state.lock);
}

/* ------------------------------------------------------------------ */
/* Counters per source line: CUPTI's SASS metrics                     */
/* ------------------------------------------------------------------ */

namespace {

gboolean
cuda_ok (cudaError_t  status,
         const char  *what,
         GError     **error)
{
  if (status == cudaSuccess)
    return TRUE;
  g_set_error (error, WS_GPU_ERROR, WS_GPU_ERROR_KERNEL_FAULT,
               /* Translators: what the program was doing, then CUDA's message (in English) */
               _("%s: %s"), what, cudaGetErrorString (status));
  return FALSE;
}

/* What Nsight Compute's source page shows per instruction, those this chip
 * knows: instructions executed, and the memory work of each (sectors a
 * global or local instruction asks of L1, shared-memory wavefronts), with
 * the least each could need. */
const char *const line_metrics[] = {
  "smsp__sass_inst_executed",
  "smsp__sass_thread_inst_executed",
  "smsp__sass_inst_executed_op_global_ld",
  "smsp__sass_inst_executed_op_global_st",
  "smsp__sass_inst_executed_op_global_red",
  "smsp__sass_inst_executed_op_global_atom",
  "smsp__sass_thread_inst_executed_op_global_pred_on",
  "smsp__sass_inst_executed_op_shared_ld",
  "smsp__sass_inst_executed_op_shared_st",
  "smsp__sass_inst_executed_op_shared_atom",
  "smsp__sass_inst_executed_op_local_ld",
  "smsp__sass_inst_executed_op_local_st",
  "smsp__sass_sectors_mem_global",
  "smsp__sass_sectors_mem_global_ideal",
  "smsp__sass_sectors_mem_local",
  WS_LINE_SHARED_WAVEFRONTS,
  WS_LINE_SHARED_IDEAL_WAVEFRONTS,
  "smsp__sass_branch_targets_threads_divergent",
  nullptr,
};

struct LineMetric
{
  uint64_t id;
  const char *name;
};

/* Every SASS metric of the chip, in the debug log, once: what a newer
 * chip calls the figures of line_metrics. */
void
log_sass_metrics (void)
{
  static gboolean logged = FALSE;
  CUpti_SassMetrics_GetNumOfMetrics_Params n = { CUpti_SassMetrics_GetNumOfMetrics_Params_STRUCT_SIZE };
  CUpti_SassMetrics_GetMetrics_Params p = { CUpti_SassMetrics_GetMetrics_Params_STRUCT_SIZE };
  std::vector<CUpti_SassMetrics_MetricDetails> details;

  if (logged)
    return;
  logged = TRUE;
  n.pChipName = state.chip.c_str ();
  if (cuptiSassMetricsGetNumOfMetrics (&n) != CUPTI_SUCCESS || n.numOfMetrics == 0)
    return;
  details.resize (n.numOfMetrics);
  p.pChipName = state.chip.c_str ();
  p.numOfMetrics = n.numOfMetrics;
  p.pMetricsList = details.data ();
  if (cuptiSassMetricsGetMetrics (&p) != CUPTI_SUCCESS)
    return;
  for (const CUpti_SassMetrics_MetricDetails &d : details)
    g_debug ("counters: SASS metric %s: %s", d.pMetricName, d.pMetricDescription ? d.pMetricDescription : "");
}

/* The metrics of line_metrics this chip has, with their ids. */
gboolean
known_line_metrics (std::vector<LineMetric> &known,
                    GError                 **error)
{
  log_sass_metrics ();
  for (guint i = 0; line_metrics[i]; i++)
    {
      CUpti_SassMetrics_GetProperties_Params p = { CUpti_SassMetrics_GetProperties_Params_STRUCT_SIZE };

      p.pChipName = state.chip.c_str ();
      p.pMetricName = line_metrics[i];
      if (cuptiSassMetricsGetProperties (&p) == CUPTI_SUCCESS)
        known.push_back ({ p.metric.metricId, line_metrics[i] });
    }
  if (known.empty ())
    {
      g_set_error (error, WS_GPU_ERROR, WS_GPU_ERROR_COUNTERS_UNAVAILABLE,
                   /* Translators: %s is the GPU's chip name (GH100) */
                   _("CUPTI knows none of the SASS metrics Warpscope reads per source line on this GPU (%s)"),
                   state.chip.c_str ());
      return FALSE;
    }
  return TRUE;
}

/* The line of a kernel text an instruction comes from, through the cubin's
 * line table (the kernel was compiled with -lineinfo and #line directives);
 * 0 where the table says none. */
guint
line_of (GBytes     *cubin,
         const char *function,
         uint64_t    pc)
{
  CUpti_GetSassToSourceCorrelationParams p = { CUpti_GetSassToSourceCorrelationParamsSize };
  gsize size = 0;
  guint line = 0;

  p.cubin = g_bytes_get_data (cubin, &size);
  p.cubinSize = size;
  p.functionName = function;
  p.pcOffset = pc;
  if (cuptiGetSassToSourceCorrelation (&p) == CUPTI_SUCCESS)
    line = p.lineNumber;
  free (p.fileName);
  free (p.dirName);
  return line;
}

gboolean
collect_lines_locked (WsLaunchFunc   before,
                      WsLaunchFunc   launch,
                      gpointer       data,
                      GBytes        *cubin,
                      const char    *function,
                      WsMeasurement *into,
                      GError       **error)
{
  std::vector<LineMetric> known;
  std::vector<CUpti_SassMetrics_Config> configs;
  std::vector<CUpti_SassMetrics_Data> records;
  std::vector<CUpti_SassMetrics_InstanceValue> values;
  std::map<uint64_t, guint> lines;
  CUpti_SassMetricsSetConfig_Params set = { CUpti_SassMetricsSetConfig_Params_STRUCT_SIZE };
  CUpti_SassMetricsUnsetConfig_Params unset = { CUpti_SassMetricsUnsetConfig_Params_STRUCT_SIZE };
  CUpti_SassMetricsEnable_Params enable = { CUpti_SassMetricsEnable_Params_STRUCT_SIZE };
  CUpti_SassMetricsDisable_Params disable = { CUpti_SassMetricsDisable_Params_STRUCT_SIZE };
  CUpti_SassMetricsGetDataProperties_Params props = { CUpti_SassMetricsGetDataProperties_Params_STRUCT_SIZE };
  CUpti_SassMetricsFlushData_Params flush = { CUpti_SassMetricsFlushData_Params_STRUCT_SIZE };
  gpointer ctx = nullptr;
  int device = 0;
  gboolean ok;

  if (!ws_jit_current_context (&ctx, &device, error) || !known_line_metrics (known, error))
    return FALSE;
  /* the range profiler and SASS patching do not share a context */
  release_profiler ();
  /* configured once for the process (configuring again, even after
   * unsetting, runs CUPTI out of memory) */
  if (state.sass_device != device)
    {
      if (state.sass_device >= 0)
        {
          unset.deviceIndex = (uint32_t) state.sass_device;
          cuptiSassMetricsUnsetConfig (&unset);
          state.sass_device = -1;
        }
      for (const LineMetric &m : known)
        configs.push_back ({ m.id, CUPTI_SASS_METRICS_OUTPUT_GRANULARITY_GPU });
      set.numOfMetricConfig = configs.size ();
      set.pConfigs = configs.data ();
      set.deviceIndex = (uint32_t) device;
      if (!cupti_check (cuptiSassMetricsSetConfig (&set), _("configuring CUPTI's SASS metrics"), error))
        return FALSE;
      state.sass_device = device;
    }
  if (before)
    {
      before (data);
      if (!cuda_ok (cudaDeviceSynchronize (), _("preparing a profiler pass"), error))
        return FALSE;
    }
  enable.ctx = (CUcontext) ctx;
  enable.enableLazyPatching = 1;
  ok = cupti_check (cuptiSassMetricsEnable (&enable), _("enabling CUPTI's SASS metrics"), error);
  if (ok)
    {
      launch (data);
      ok = cuda_ok (cudaDeviceSynchronize (), _("running the kernel under CUPTI's SASS metrics"), error);
      props.ctx = (CUcontext) ctx;
      ok = ok && cupti_check (cuptiSassMetricsGetDataProperties (&props), _("reading CUPTI's SASS metrics"), error);
      if (ok && props.numOfPatchedInstructionRecords > 0)
        {
          records.resize (props.numOfPatchedInstructionRecords);
          values.resize (props.numOfPatchedInstructionRecords * MAX (props.numOfInstances, 1));
          for (size_t i = 0; i < records.size (); i++)
            {
              records[i] = {};
              records[i].structSize = sizeof (CUpti_SassMetrics_Data);
              records[i].pInstanceValues = &values[i * MAX (props.numOfInstances, 1)];
            }
          flush.ctx = (CUcontext) ctx;
          flush.numOfPatchedInstructionRecords = props.numOfPatchedInstructionRecords;
          flush.numOfInstances = props.numOfInstances;
          flush.pMetricsData = records.data ();
          ok = cupti_check (cuptiSassMetricsFlushData (&flush), _("reading CUPTI's SASS metrics"), error);
        }
      disable.ctx = (CUcontext) ctx;
      cuptiSassMetricsDisable (&disable);
    }
  if (!ok)
    return FALSE;

  for (const CUpti_SassMetrics_Data &r : records)
    {
      guint line;

      if (r.functionName == nullptr || strcmp (r.functionName, function) != 0)
        continue;
      if (lines.find (r.pcOffset) == lines.end ())
        lines[r.pcOffset] = line_of (cubin, function, r.pcOffset);
      line = lines[r.pcOffset];
      if (line == 0)
        continue;
      for (size_t k = 0; k < MAX (props.numOfInstances, 1); k++)
        for (const LineMetric &m : known)
          if (m.id == r.pInstanceValues[k].metricId)
            ws_measurement_add_line_counter (into, line, m.name, (double) r.pInstanceValues[k].value);
    }
  return TRUE;
}

} /* namespace */

extern "C" gboolean
ws_counters_collect_lines (WsLaunchFunc   before,
                           WsLaunchFunc   launch,
                           gpointer       data,
                           GBytes        *cubin,
                           const char    *function,
                           WsMeasurement *into,
                           GError       **error)
{
  gboolean ok;

  g_return_val_if_fail (launch != NULL && cubin != NULL && function != NULL && into != NULL, FALSE);

  if (!ws_counters_available (error))
    return FALSE;
  g_mutex_lock (&state.lock);
  ok = collect_lines_locked (before, launch, data, cubin, function, into, error);
  g_mutex_unlock (&state.lock);
  return ok;
}

extern "C" char **
ws_counters_line_metrics (GError **error)
{
  std::vector<LineMetric> known;
  GPtrArray *names;

  if (!ws_counters_available (error))
    return NULL;
  g_mutex_lock (&state.lock);
  if (!known_line_metrics (known, error))
    {
      g_mutex_unlock (&state.lock);
      return NULL;
    }
  g_mutex_unlock (&state.lock);
  names = g_ptr_array_new ();
  for (const LineMetric &m : known)
    g_ptr_array_add (names, g_strdup (m.name));
  g_ptr_array_add (names, NULL);
  return (char **) g_ptr_array_free (names, FALSE);
}
