/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Where the GPU commands measure: --gpu, --gpu-command, --gpu-index and
 * --gpu-worker, shared by every command that runs kernels. */
#include "ws-config.h"
#include "ws-cli-measuring.h"

#include <string.h>

gboolean
ws_cli_parse_gpu (const char       *command,
                  const char       *parameter_string,
                  const char       *summary,
                  const char       *description,
                  GOptionEntry     *entries,
                  WsCliGpuOptions  *gpu,
                  int              *argc,
                  char           ***argv)
{
  g_autoptr (GArray) all = g_array_new (TRUE, TRUE, sizeof (GOptionEntry));
  GOptionEntry own[] = {
    { "gpu", 0, 0, G_OPTION_ARG_STRING, &gpu->address,
      N_("Where the GPU is: local (the default), ssh://[USER@]HOST[:PORT], slurm://[PARTITION][?gres=…&time=…&account=…]"),
      N_("WHERE") },
    { "gpu-command", 0, 0, G_OPTION_ARG_STRING, &gpu->command,
      N_("A command that starts the GPU worker and speaks to it on its standard input and output"), N_("CMD") },
    { "gpu-index", 0, 0, G_OPTION_ARG_INT, &gpu->index,
      N_("Which of that machine's GPUs, from 0 (device lists them)"), N_("N") },
    { "gpu-worker", 0, 0, G_OPTION_ARG_FILENAME, &gpu->worker,
      N_("The GPU worker's path there (a build's app/warpscope-gpu-worker)"), N_("PATH") },
  };

  gpu->index = -1;
  for (guint i = 0; entries[i].long_name; i++)
    g_array_append_val (all, entries[i]);
  g_array_append_vals (all, own, G_N_ELEMENTS (own));
  return ws_cli_parse (command, parameter_string, summary, description, (GOptionEntry *) all->data, argc, argv);
}

void
ws_cli_gpu_options_clear (WsCliGpuOptions *gpu)
{
  g_clear_pointer (&gpu->address, g_free);
  g_clear_pointer (&gpu->command, g_free);
  g_clear_pointer (&gpu->worker, g_free);
}

WsGpuTarget *
ws_cli_gpu_target (const char      *command,
                   WsCliGpuOptions *gpu)
{
  g_autoptr (WsGpuTarget) target = NULL;
  g_autoptr (GError) error = NULL;

  if (gpu->address && gpu->command)
    {
      ws_cli_fail (command, WS_CLI_USAGE, _("give --gpu or --gpu-command, not both"));
      return NULL;
    }
  if (gpu->command)
    target = ws_gpu_target_new_command (gpu->command, &error);
  else
    target = ws_gpu_target_parse (gpu->address ? gpu->address : "local", &error);
  if (target == NULL ||
      (gpu->worker && !ws_gpu_target_set_worker (target, gpu->worker, &error)) ||
      (gpu->index >= 0 && !ws_gpu_target_set_gpu (target, gpu->index, &error)))
    {
      ws_cli_fail (command, WS_CLI_USAGE, "%s%s", gpu->command ? "--gpu-command: " : "--gpu: ", error->message);
      return NULL;
    }
  if (gpu->index < -1)
    {
      ws_cli_fail (command, WS_CLI_USAGE, _("--gpu-index %d: an index counts from 0"), gpu->index);
      return NULL;
    }
  return g_steal_pointer (&target);
}

gboolean
ws_cli_gpu_unreachable (const GError *error)
{
  return error->domain == WS_WORKER_ERROR || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

char *
ws_cli_device_where (const WsDeviceInfo *d)
{
  if (d->address == NULL || g_str_has_prefix (d->address, "local") || d->host == NULL)
    return g_strdup (d->name);
  return g_strdup_printf ("%s on %s (GPU %d)", d->name, d->host, d->gpu_index);
}
