/* SPDX-License-Identifier: GPL-3.0-or-later */
/* warpscope-gpu-worker: the process that owns the GPU for WsBackend. */
#include "ws-gpu-worker.h"

#include <gio/gunixinputstream.h>
#include <gio/gunixoutputstream.h>
#include <locale.h>
#include <unistd.h>

int
main (int    argc,
      char **argv)
{
  g_autoptr (GInputStream) in = NULL;
  g_autoptr (GOutputStream) out = NULL;
  int protocol;

  setlocale (LC_ALL, "");
  /* the answers get a descriptor of their own; anything a library prints
   * goes to stderr and cannot break them */
  protocol = dup (STDOUT_FILENO);
  dup2 (STDERR_FILENO, STDOUT_FILENO);
  in = g_unix_input_stream_new (STDIN_FILENO, FALSE);
  out = g_unix_output_stream_new (protocol, TRUE);
  return ws_gpu_worker_run (in, out);
}
