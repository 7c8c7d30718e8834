/* SPDX-License-Identifier: GPL-3.0-or-later */
/* warpscope-cli device: the GPU, or why there is none. */
#include "ws-config.h"
#include "ws-cli-measuring.h"
#include "ws-json.h"
#include "ws-worker-transport.h"

#include <stdio.h>

/* The device as a recording describes it, without the recording around it. */
static JsonNode *
device_json (const WsDeviceInfo *d)
{
  g_autoptr (JsonNode) wrapped = ws_device_info_to_json (d);

  return json_node_copy (json_object_get_member (json_node_get_object (wrapped), "device"));
}

static void
add_gpus (JsonBuilder         *b,
          const WsWorkerHello *hello)
{
  json_builder_set_member_name (b, "host");
  json_builder_add_string_value (b, hello->host);
  json_builder_set_member_name (b, "gpus");
  json_builder_begin_array (b);
  for (guint i = 0; i < hello->gpus->len; i++)
    {
      const WsGpuSummary *s = g_ptr_array_index (hello->gpus, i);

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "index");
      json_builder_add_int_value (b, s->index);
      json_builder_set_member_name (b, "name");
      json_builder_add_string_value (b, s->name);
      json_builder_set_member_name (b, "cc_major");
      json_builder_add_int_value (b, s->cc_major);
      json_builder_set_member_name (b, "cc_minor");
      json_builder_add_int_value (b, s->cc_minor);
      json_builder_set_member_name (b, "memory_bytes");
      json_builder_add_int_value (b, s->memory_bytes);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_set_member_name (b, "gpu_index");
  json_builder_add_int_value (b, hello->gpu);
}

static void
print_gpus (const WsGpuTarget   *target,
            const WsWorkerHello *hello)
{
  g_autofree char *where = ws_gpu_target_describe (target);

  printf ("  measured on          %s%s%s%s\n", hello->host, ws_gpu_target_is_local (target) ? "" : " (",
          ws_gpu_target_is_local (target) ? "" : where, ws_gpu_target_is_local (target) ? "" : ")");
  if (hello->replay)
    printf ("  played back from     %s (a recording, not a GPU)\n", hello->replay);
  for (guint i = 0; i < hello->gpus->len; i++)
    {
      const WsGpuSummary *s = g_ptr_array_index (hello->gpus, i);
      g_autofree char *memory = g_format_size_full (s->memory_bytes, G_FORMAT_SIZE_IEC_UNITS);

      printf ("  %-20s %s%d: %s (sm_%d%d, %s)%s\n", i == 0 ? "GPUs there" : "", "", s->index, s->name, s->cc_major,
              s->cc_minor, memory, s->index == hello->gpu ? ", chosen" : "");
    }
}

/* Why there is no device, as a word that stays the same in every language
 * and release, for scripts; "error" says it in a sentence, in the user's
 * language. */
static const char *
reason_of (const GError *why)
{
  static const char *gpu[] = {
    [WS_GPU_ERROR_NOT_BUILT] = "not-built",
    [WS_GPU_ERROR_NO_DRIVER] = "no-driver",
    [WS_GPU_ERROR_DRIVER_TOO_OLD] = "driver-too-old",
    [WS_GPU_ERROR_NO_DEVICE] = "no-device",
    [WS_GPU_ERROR_UNSUPPORTED] = "unsupported",
  };
  static const char *worker[] = {
    [WS_WORKER_ERROR_UNREACHABLE] = "unreachable",
    [WS_WORKER_ERROR_AUTH_REFUSED] = "auth-refused",
    [WS_WORKER_ERROR_NOT_INSTALLED] = "worker-not-installed",
    [WS_WORKER_ERROR_VERSION_MISMATCH] = "version-mismatch",
    [WS_WORKER_ERROR_NO_SUCH_GPU] = "no-such-gpu",
    [WS_WORKER_ERROR_SLURM_REFUSED] = "slurm-refused",
    [WS_WORKER_ERROR_TIMED_OUT] = "timed-out",
  };

  if (why == NULL)
    return "no-device";
  if (why->domain == WS_GPU_ERROR && why->code >= 0 && why->code < (int) G_N_ELEMENTS (gpu) && gpu[why->code])
    return gpu[why->code];
  if (why->domain == WS_WORKER_ERROR && why->code >= 0 && why->code < (int) G_N_ELEMENTS (worker) &&
      worker[why->code])
    return worker[why->code];
  return "failed";
}

/* The device (or nothing, when there is none) and where it is: the host
 * and its GPUs, once the worker answered. JSON: format and version, the
 * device's members, then where; without a device, "reason" says why in a
 * word (reason_of) and "error" in a sentence. */
static void
print (WsSession          *session,
       const WsDeviceInfo *info,
       const GError       *why,
       gboolean            json)
{
  const WsWorkerHello *hello = ws_session_get_hello (session);
  gboolean here = ws_gpu_target_is_local (ws_session_get_target (session));

  if (json)
    {
      g_autoptr (JsonNode) node = info ? device_json (info) : json_node_init_object (json_node_alloc (),
                                                                                   json_object_new ());
      g_autoptr (JsonBuilder) b = json_builder_new ();
      g_autoptr (JsonNode) where = NULL;
      g_autofree char *address = ws_gpu_target_to_string (ws_session_get_target (session));
      g_autoptr (GList) names = NULL;

      json_builder_begin_object (b);
      ws_json_add_string (b, "format", "warpscope-device");
      ws_json_add_int (b, "version", 1);
      ws_json_add_string (b, "address", address);
      if (hello)
        add_gpus (b, hello);
      if (info == NULL)
        {
          ws_json_add_string (b, "reason", reason_of (why));
          ws_json_add_string (b, "error", why ? why->message : _("no usable GPU"));
        }
      json_builder_end_object (b);
      where = json_builder_get_root (b);
      names = json_object_get_members (json_node_get_object (where));
      for (GList *l = names; l; l = l->next)
        json_object_set_member (json_node_get_object (node), l->data,
                                json_node_copy (json_object_get_member (json_node_get_object (where), l->data)));
      ws_cli_print_json_node (node);
      return;
    }
  if (info)
    {
      ws_cli_print_device (info);
      /* a worker elsewhere is its own build */
      if (here)
        printf ("  this build           %s\n", ws_gpu_build_description ());
    }
  /* here, the GPUs are news only when there is a choice */
  if (hello && !json && (!here || hello->gpus->len > 1))
    print_gpus (ws_session_get_target (session), hello);
}

int
ws_cli_device (int    argc,
               char **argv)
{
  gboolean json = FALSE;
  WsCliGpuOptions gpu = { 0 };
  g_autoptr (WsGpuTarget) target = NULL;
  GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print one JSON object"), NULL },
    { NULL }
  };
  g_autoptr (WsSession) session = NULL;
  g_autoptr (GError) error = NULL;
  const WsDeviceInfo *info;

  int status;

  if (!ws_cli_parse_gpu ("device", NULL, N_("Describe the GPU, or say why there is none."),
                         N_("Exit status 3 when there is no usable GPU, 4 when its machine cannot be reached; the "
                         "reason is on stderr.\n\n"
                         "With --gpu, the host and every GPU it has are listed; --gpu-index chooses one."),
                         entries, &gpu, &argc, &argv))
    status = WS_CLI_USAGE;
  else if (argc > 1)
    status = ws_cli_fail ("device", WS_CLI_USAGE, _("unexpected argument “%s”"), argv[1]);
  else if ((target = ws_cli_gpu_target ("device", &gpu)) == NULL)
    status = WS_CLI_USAGE;
  else
    {
      session = ws_cli_session_new (NULL, target);
      info = ws_cli_probe (session, &error);
      status = info ? WS_CLI_OK : ws_cli_no_gpu ("device", error);
      print (session, info, error, json);
    }
  ws_cli_gpu_options_clear (&gpu);
  return status;
}
