/* SPDX-License-Identifier: GPL-3.0-or-later */
/* warpscope-cli device: the GPU, or why there is none. */
#include "ws-config.h"
#include "ws-cli-measuring.h"

#include <stdio.h>

/* The device as a recording describes it, without the recording around it. */
static JsonNode *
device_json (const WsDeviceInfo *d)
{
  g_autoptr (JsonNode) wrapped = ws_device_info_to_json (d);

  return json_node_copy (json_object_get_member (json_node_get_object (wrapped), "device"));
}

int
ws_cli_device (int    argc,
               char **argv)
{
  gboolean json = FALSE;
  GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "Print one JSON object", NULL },
    { NULL }
  };
  g_autoptr (WsSession) session = NULL;
  g_autoptr (GError) error = NULL;
  const WsDeviceInfo *info;

  if (!ws_cli_parse ("device", NULL, "Describe the GPU, or say why there is none.",
                     "Exit status 3 when there is no usable GPU; the reason is on stderr.", entries, &argc, &argv))
    return WS_CLI_USAGE;
  if (argc > 1)
    return ws_cli_fail ("device", WS_CLI_USAGE, "unexpected argument “%s”", argv[1]);
  session = ws_cli_session_new (NULL);
  info = ws_cli_probe (session, &error);
  if (info == NULL)
    return ws_cli_no_gpu ("device", error);
  if (json)
    {
      g_autoptr (JsonNode) node = device_json (info);
      ws_cli_print_json_node (node);
    }
  else
    {
      ws_cli_print_device (info);
      printf ("  this build           %s\n", ws_gpu_build_description ());
    }
  return WS_CLI_OK;
}
