/* SPDX-License-Identifier: GPL-3.0-or-later */
/* warpscope-cli list: the real kernels, their parameters and sweeps. */
#include "ws-config.h"
#include "ws-cli-measuring.h"

#include <stdio.h>

int
ws_cli_list (int    argc,
             char **argv)
{
  guint n;
  const WsKernelInfo *kernels = ws_gpu_kernels (&n);

  if (!ws_cli_parse ("list", NULL, "List the real kernels, with their parameters and standard sweeps.",
                     NULL, (GOptionEntry[]) { { NULL } }, &argc, &argv))
    return WS_CLI_USAGE;
  if (argc > 1)
    return ws_cli_fail ("list", WS_CLI_USAGE, "unexpected argument “%s”", argv[1]);
  if (!ws_gpu_is_built ())
    printf ("(this build has no CUDA backend: these kernels can be read from recordings only)\n\n");
  for (guint i = 0; i < n; i++)
    {
      printf ("%-34s %s\n", kernels[i].id, kernels[i].title);
      for (guint j = 0; j < kernels[i].n_params; j++)
        {
          const WsKernelParam *p = &kernels[i].params[j];
          printf ("    %-10s = %-10" G_GINT64_FORMAT " %" G_GINT64_FORMAT " to %" G_GINT64_FORMAT ": %s\n",
                  p->name, p->def, p->min, p->max, p->description);
        }
      if (kernels[i].sweep_param)
        printf ("    sweep: %s over %s\n", kernels[i].sweep_param, kernels[i].sweep_values);
    }
  return WS_CLI_OK;
}
