/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The GPU layer of a build without CUDA: everything says so. */
#include "ws-config.h"
#include "ws-gpu.h"

#include <glib/gi18n-lib.h>

G_DEFINE_QUARK (ws-gpu-error-quark, ws_gpu_error)

static void
not_built (GError **error)
{
  g_set_error (error, WS_GPU_ERROR, WS_GPU_ERROR_NOT_BUILT,
               _("this build of Warpscope has no CUDA backend (no CUDA toolkit was found when it was built); "
                 "measurements come from recordings"));
}

gboolean
ws_gpu_is_built (void)
{
  return FALSE;
}

const char *
ws_gpu_build_description (void)
{
  return "built without CUDA";
}

WsDeviceInfo *
ws_gpu_probe (GError **error)
{
  not_built (error);
  return NULL;
}

void
ws_gpu_summary_free (WsGpuSummary *summary)
{
  if (summary == NULL)
    return;
  g_free (summary->name);
  g_free (summary);
}

GPtrArray *
ws_gpu_list (GError **error)
{
  not_built (error);
  return NULL;
}

gboolean
ws_gpu_select (int      index,
               GError **error)
{
  not_built (error);
  return FALSE;
}

int
ws_gpu_selected (void)
{
  return 0;
}

guint
ws_gpu_generation (void)
{
  return 0;
}

void
ws_gpu_shutdown (void)
{
}

void
ws_gpu_flush_before (gpointer data)
{
}

gboolean
ws_gpu_debug_fault (GError **error)
{
  not_built (error);
  return FALSE;
}

WsMeasurement *
ws_gpu_measure (const char             *id,
                const WsParamValue     *params,
                guint                   n_params,
                const WsMeasureOptions *options,
                GCancellable           *cancellable,
                WsSampleProgress        progress,
                gpointer                progress_data,
                GError                **error)
{
  not_built (error);
  return NULL;
}

WsMeasurement *
ws_gpu_time_launches (const char             *id,
                      WsLaunchFunc            launch,
                      gpointer                launch_data,
                      gint64                  bytes,
                      const WsMeasureOptions *options,
                      GCancellable           *cancellable,
                      WsSampleProgress        progress,
                      gpointer                progress_data,
                      GError                **error)
{
  not_built (error);
  return NULL;
}

WsMeasurement *
ws_gpu_measure_pattern (const WsPattern        *pattern,
                        const WsMeasureOptions *options,
                        GCancellable           *cancellable,
                        WsSampleProgress        progress,
                        gpointer                progress_data,
                        GError                **error)
{
  not_built (error);
  return NULL;
}

WsMeasurement *
ws_gpu_count_pattern (const WsPattern    *pattern,
                      const char *const  *metrics,
                      gboolean            cold,
                      gboolean            hold,
                      GCancellable       *cancellable,
                      GError            **error)
{
  not_built (error);
  return NULL;
}

GArray *
ws_gpu_calibrate (GCancellable    *cancellable,
                  WsSampleProgress progress,
                  gpointer         progress_data,
                  GError         **error)
{
  not_built (error);
  return NULL;
}

WsMeasurement *
ws_gpu_measure_kernel (WsKernelInstance       *instance,
                       const WsMeasureOptions *options,
                       GCancellable           *cancellable,
                       WsSampleProgress        progress,
                       gpointer                progress_data,
                       GError                **error)
{
  not_built (error);
  return NULL;
}

gint64
ws_gpu_kernel_busy_since (void)
{
  return 0;
}

gboolean
ws_gpu_debug_spin (guint    ms,
                   GError **error)
{
  not_built (error);
  return FALSE;
}
