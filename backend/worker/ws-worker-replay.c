/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "ws-config.h"
#include "ws-worker-replay.h"

#include <glib/gi18n-lib.h>
#include <string.h>

WsMeasurement *
ws_worker_replay_measure (WsRecording            *recording,
                          const WsMeasureRequest *request,
                          guint                   delay_ms,
                          GCancellable           *cancellable,
                          WsSampleProgress        progress,
                          gpointer                progress_data,
                          GError                **error)
{
  const char *kernel = request->kernel_id;
  g_autoptr (GPtrArray) found = NULL;
  const WsMeasurement *m;
  guint steps;

  if (kernel == NULL)
    {
      g_set_error (error, WS_GPU_ERROR, WS_GPU_ERROR_INVALID_PARAM,
                   _("this GPU worker plays a recording back, which holds real kernels only, not generated ones"));
      return NULL;
    }
  found = ws_recording_lookup (recording, kernel, (const WsParamValue *) request->params->data, request->params->len,
                               NULL);
  if (found->len == 0)
    {
      g_set_error (error, WS_GPU_ERROR, WS_GPU_ERROR_INVALID_PARAM,
                   /* Translators: %s is a kernel's id */
                   _("the recording this GPU worker plays back holds no measurement of %s at these parameters"),
                   kernel);
      return NULL;
    }
  m = g_ptr_array_index (found, 0);
  /* in steps, as samples come, so that cancelling and progress behave */
  steps = MAX (m->samples_ms->len, 1);
  for (guint i = 0; i < steps; i++)
    {
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return NULL;
      if (delay_ms)
        g_usleep ((gulong) delay_ms * 1000 / steps);
      if (progress)
        progress (i + 1, steps, progress_data);
    }
  return ws_measurement_copy (m);
}
