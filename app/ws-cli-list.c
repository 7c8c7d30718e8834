/* SPDX-License-Identifier: GPL-3.0-or-later */
/* warpscope-cli list: the real kernels, their parameters and sweeps. */
#include "ws-config.h"
#include "ws-cli-measuring.h"
#include "ws-json.h"
#include "ws-preset-kernels.h"

#include <stdio.h>

/* {"format": "warpscope-kernels", "version": 1, "cuda": …, "kernels": […]},
 * each kernel with its kernel text ("source") where the preset has one.
 * FALSE, printing nothing, when one of those could not be read. */
static gboolean
print_json (const WsKernelInfo *kernels,
            guint               n,
            GError            **error)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  g_autoptr (JsonNode) root = NULL;

  json_builder_begin_object (b);
  ws_json_add_string (b, "format", "warpscope-kernels");
  ws_json_add_int (b, "version", 1);
  ws_json_add_bool (b, "cuda", ws_gpu_is_built ());
  json_builder_set_member_name (b, "kernels");
  json_builder_begin_array (b);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *source = NULL;
      g_autoptr (GError) failed = NULL;

      if ((source = ws_preset_dup_kernel_text (kernels[i].id, &failed)) == NULL && failed)
        {
          g_propagate_prefixed_error (error, g_steal_pointer (&failed), "%s: ", kernels[i].id);
          return FALSE;
        }
      json_builder_begin_object (b);
      ws_json_add_string (b, "id", kernels[i].id);
      ws_json_add_string (b, "title", kernels[i].title);
      if (source)
        ws_json_add_string (b, "source", source);
      json_builder_set_member_name (b, "params");
      json_builder_begin_array (b);
      for (guint j = 0; j < kernels[i].n_params; j++)
        {
          const WsGpuKernelParam *p = &kernels[i].params[j];

          json_builder_begin_object (b);
          ws_json_add_string (b, "name", p->name);
          ws_json_add_int (b, "default", p->def);
          ws_json_add_int (b, "min", p->min);
          ws_json_add_int (b, "max", p->max);
          ws_json_add_string (b, "description", p->description);
          json_builder_end_object (b);
        }
      json_builder_end_array (b);
      if (kernels[i].sweep_param)
        {
          json_builder_set_member_name (b, "sweep");
          json_builder_begin_object (b);
          ws_json_add_string (b, "param", kernels[i].sweep_param);
          ws_json_add_string (b, "values", kernels[i].sweep_values);
          json_builder_end_object (b);
        }
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  ws_cli_print_json_node (root);
  return TRUE;
}

int
ws_cli_list (int    argc,
             char **argv)
{
  guint n;
  const WsKernelInfo *kernels = ws_gpu_kernels (&n);
  gboolean json = FALSE;
  g_autoptr (GError) error = NULL;
  GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print one JSON object"), NULL },
    { NULL }
  };

  if (!ws_cli_parse ("list", NULL, N_("List the real kernels, with their parameters and standard sweeps."),
                     NULL, entries, &argc, &argv))
    return WS_CLI_USAGE;
  if (argc > 1)
    return ws_cli_fail ("list", WS_CLI_USAGE, _("unexpected argument “%s”"), argv[1]);
  if (json)
    {
      if (!print_json (kernels, n, &error))
        return ws_cli_fail ("list", WS_CLI_FAILED, "%s", error->message);
      return WS_CLI_OK;
    }
  if (!ws_gpu_is_built ())
    printf ("(this build has no CUDA backend: these kernels can be read from recordings only)\n\n");
  for (guint i = 0; i < n; i++)
    {
      printf ("%-34s %s\n", kernels[i].id, kernels[i].title);
      for (guint j = 0; j < kernels[i].n_params; j++)
        {
          const WsGpuKernelParam *p = &kernels[i].params[j];
          printf ("    %-10s = %-10" G_GINT64_FORMAT " %" G_GINT64_FORMAT " to %" G_GINT64_FORMAT ": %s\n",
                  p->name, p->def, p->min, p->max, p->description);
        }
      if (kernels[i].sweep_param)
        printf ("    sweep: %s over %s\n", kernels[i].sweep_param, kernels[i].sweep_values);
    }
  return WS_CLI_OK;
}
