/* SPDX-License-Identifier: GPL-3.0-or-later */
/* warpscope-cli device: the GPU, or why there is none. */
#include "ws-config.h"
#include "ws-cli-measuring.h"

#include <stdio.h>

static JsonNode *
device_json (const WsDeviceInfo *d)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();

#define S(NAME) json_builder_set_member_name (b, #NAME); json_builder_add_string_value (b, d->NAME);
#define I(NAME) json_builder_set_member_name (b, #NAME); json_builder_add_int_value (b, d->NAME);
  json_builder_begin_object (b);
  S (name) I (cc_major) I (cc_minor) I (sm_count) I (global_mem_bytes) I (l2_bytes) I (shared_per_sm)
  I (shared_per_block_optin) I (registers_per_sm) I (max_threads_per_sm) I (max_blocks_per_sm)
  I (sm_clock_mhz) I (mem_clock_mhz) I (mem_bus_bits)
  json_builder_set_member_name (b, "peak_bandwidth_gbs");
  json_builder_add_double_value (b, d->peak_bandwidth_gbs);
  S (driver_version) S (runtime_version)
  json_builder_end_object (b);
#undef S
#undef I
  return json_builder_get_root (b);
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
