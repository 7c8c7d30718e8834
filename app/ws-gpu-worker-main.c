/* SPDX-License-Identifier: GPL-3.0-or-later */
/* warpscope-gpu-worker: the process that owns the GPU for WsBackend, here
 * or on another machine (started by ssh, srun or any command). */
#include "ws-config.h"
#include "ws-textdomain.h"
#include "ws-worker-server.h"
#include "ws-worker-hello.h"

#include <glib/gi18n-lib.h>
#include <gio/gunixinputstream.h>
#include <gio/gunixoutputstream.h>
#include <locale.h>
#include <stdio.h>
#include <unistd.h>

int
main (int    argc,
      char **argv)
{
  g_autoptr (GInputStream) in = NULL;
  g_autoptr (GOutputStream) out = NULL;
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (WsRecording) replay = NULL;
  g_autofree char *replay_path = NULL;
  g_autofree char *replay_name = NULL;
  gboolean version = FALSE;
  int delay_ms = 0;
  GOptionEntry entries[] = {
    { "replay", 0, 0, G_OPTION_ARG_FILENAME, &replay_path,
      "Answer with this recording's measurements instead of a GPU's (for demonstrations and tests)", "FILE" },
    { "replay-delay", 0, 0, G_OPTION_ARG_INT, &delay_ms, "Milliseconds each played-back measurement takes", "MS" },
    { "version", 0, 0, G_OPTION_ARG_NONE, &version, "Print the version and the protocol's, and exit", NULL },
    { NULL }
  };
  WsGpuWorkerOptions options = { NULL };
  int protocol;

  /* its errors reach the user in the language of the worker's locale: the
   * user's own here, what the login gives elsewhere */
  ws_textdomain_init ();
  /* the answers' numbers are JSON's, whatever the locale */
  setlocale (LC_NUMERIC, "C");
  context = g_option_context_new (NULL);
  g_option_context_set_summary (context, "The process that owns the GPU for Warpscope. It speaks JSON lines on its "
                                "standard input and output;\nWarpscope starts it, here or on another machine.");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) || argc > 1 || delay_ms < 0)
    {
      fprintf (stderr, "%s: %s\n", WS_GPU_WORKER_NAME, error ? error->message : "unexpected arguments");
      return 2;
    }
  if (version)
    {
      printf ("%s %s (protocol %d)\n", WS_GPU_WORKER_NAME, WS_VERSION, WS_WORKER_PROTOCOL);
      return 0;
    }
  if (replay_path)
    {
      g_autoptr (GFile) file = g_file_new_for_commandline_arg (replay_path);

      replay = ws_recording_load_file (file, NULL, &error);
      if (replay == NULL)
        {
          fprintf (stderr, "%s: --replay: %s\n", WS_GPU_WORKER_NAME, error->message);
          return 2;
        }
      options.replay = replay;
      replay_name = g_path_get_basename (replay_path);
      options.replay_name = replay_name;
      options.replay_delay_ms = (guint) delay_ms;
    }

  /* the answers get a descriptor of their own; anything a library prints
   * goes to stderr and cannot break them */
  protocol = dup (STDOUT_FILENO);
  dup2 (STDERR_FILENO, STDOUT_FILENO);
  in = g_unix_input_stream_new (STDIN_FILENO, FALSE);
  out = g_unix_output_stream_new (protocol, TRUE);
  return ws_gpu_worker_run_with (in, out, &options);
}
