/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "ws-config.h"
#include "ws-worker-replay.h"

#include <glib/gi18n-lib.h>
#include <string.h>

static gboolean
holds_type (JsonNode *node,
            GType     type)
{
  return node != NULL && JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == type;
}

/* The request's integer params (others are not a kernel's, and are left
 * out: no measurement matches them). */
static GArray *
request_params (JsonObject *request)
{
  JsonNode *node = json_object_get_member (request, "params");
  JsonObject *params = node && JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
  g_autoptr (GList) names = params ? json_object_get_members (params) : NULL;
  GArray *values = g_array_new (FALSE, TRUE, sizeof (WsParamValue));

  for (GList *l = names; l; l = l->next)
    {
      JsonNode *value = json_object_get_member (params, l->data);
      WsParamValue v = { l->data, holds_type (value, G_TYPE_INT64) ? json_node_get_int (value) : 0 };

      g_array_append_val (values, v);
    }
  return values;
}

WsMeasurement *
ws_worker_replay_measure (WsRecording      *recording,
                          JsonObject       *request,
                          guint             delay_ms,
                          GCancellable     *cancellable,
                          WsSampleProgress  progress,
                          gpointer          progress_data,
                          GError          **error)
{
  JsonNode *kernel_node = json_object_get_member (request, "kernel");
  const char *kernel = holds_type (kernel_node, G_TYPE_STRING) ? json_node_get_string (kernel_node) : NULL;
  g_autoptr (GArray) params = NULL;
  g_autoptr (GPtrArray) found = NULL;
  const WsMeasurement *m;
  guint steps;

  if (kernel == NULL)
    {
      g_set_error (error, WS_GPU_ERROR, WS_GPU_ERROR_INVALID_PARAM,
                   _("this GPU worker plays a recording back, which holds real kernels only, not generated ones"));
      return NULL;
    }
  params = request_params (request);
  found = ws_recording_lookup (recording, kernel, (const WsParamValue *) params->data, params->len, NULL);
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
