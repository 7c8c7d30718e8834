/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "ws-config.h"
#include "ws-textdomain.h"
#include "ws-cli.h"
#include "ws-file-writer.h"
#if WS_HAVE_FIGURES
#include "ws-figure-i18n.h"
#endif

#include <errno.h>
#include <glib/gi18n.h>
#include <locale.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const WsCliCommand commands[] = {
  { "model", N_("Analyse an access pattern with the memory model (no GPU needed)"), ws_cli_model },
  { "device", N_("Describe the GPU, or say why there is none"), ws_cli_device },
  { "list", N_("List the real kernels, with their parameters"), ws_cli_list },
  { "measure", N_("Run and time one kernel (or a pattern) on the GPU"), ws_cli_measure },
  { "sweep", N_("Measure a kernel over a range of one parameter"), ws_cli_sweep },
  { "record", N_("Measure the whole suite and save a recording"), ws_cli_record },
  { "truth", N_("Compare the model with the GPU's hardware counters"), ws_cli_truth },
  { "calibrate", N_("Measure a device profile for the model with microkernels"), ws_cli_calibrate },
  { "export", N_("Draw a figure to PNG, SVG or PDF, with no display"), ws_cli_export },
};

int
ws_cli_fail (const char *command,
             int         status,
             const char *format,
             ...)
{
  g_autofree char *message = NULL;
  g_autofree char *shown = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  /* one line of text, whatever the message quotes: control characters an
   * argument or a file held are shown as escapes, never sent to the terminal */
  g_strdelimit (message, "\n", ' ');
  shown = ws_text_printable (message, 0);
  if (command)
    fprintf (stderr, "warpscope-cli %s: %s\n", command, shown);
  else
    fprintf (stderr, "warpscope-cli: %s\n", shown);
  return status;
}

/* The command, for the message: standard output is checked on the way out,
 * whichever way that is (GOption's --help exits from within the parsing). */
static const char *exit_command;

/* Standard output flushed and closed before the process ends: a write that
 * failed (a full disk, /dev/full, a pipe closed early) is an error that
 * says so, never a success. */
static void
check_stdout (void)
{
  gboolean pending = __fpending (stdout) != 0;
  gboolean failed_before = ferror (stdout) != 0;
  int failed = 0;

  /* a standard output closed by the caller is no error, if nothing was
   * written to it (as coreutils have it) */
  if (fclose (stdout) != 0 && (pending || errno != EBADF))
    failed = errno;
  if (failed_before && failed == 0)
    failed = -1;
  if (failed == 0)
    return;
  if (failed > 0)
    ws_cli_fail (exit_command, 0, _("could not write to standard output: %s"), g_strerror (failed));
  else
    ws_cli_fail (exit_command, 0, _("could not write all of the output to standard output"));
  fflush (stderr);
  /* whatever else happened: what a script reads is not all there */
  _exit (WS_CLI_FAILED);
}

gboolean
ws_cli_stdout_is_terminal (void)
{
  return isatty (STDOUT_FILENO);
}

gboolean
ws_cli_parse (const char    *command,
              const char    *parameter_string,
              const char    *summary,
              const char    *description,
              GOptionEntry  *entries,
              int           *argc,
              char        ***argv)
{
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *prgname = g_strdup_printf ("warpscope-cli %s", command);

  /* usage reads "warpscope-cli COMMAND [OPTION…] ARGS", not the command's argv[0] */
  g_set_prgname (prgname);
  /* the parameter string, summary, description and entries are marked N_():
   * the context translates them */
  context = g_option_context_new (parameter_string);
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_set_summary (context, summary);
  if (description)
    g_option_context_set_description (context, description);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (context, argc, argv, &error))
    {
      ws_cli_fail (command, WS_CLI_USAGE, _("%s (see warpscope-cli %s --help)"), error->message, command);
      return FALSE;
    }
  return TRUE;
}

static void
print_help (FILE *out)
{
  /* Translators: warpscope-cli's help; commands, options and examples stay
   * as they are */
  fputs (_("Usage:\n"
           "  warpscope-cli COMMAND [OPTION…]\n"
           "\n"
           "Warpscope shows how GPUs serve memory accesses: where a warp's 32 addresses land in\n"
           "sectors, cache lines and shared-memory banks, and what real kernels measure.\n"
           "\n"
           "Commands:\n"), out);
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    fprintf (out, "  %-9s %s\n", commands[i].name, _(commands[i].summary));
  fputs ("\n", out);
  fputs (_("Run “warpscope-cli COMMAND --help” (or “warpscope-cli help COMMAND”) for a command's options.\n"
           "\n"
           "Exit status: 0 success, 1 a check failed, 2 bad input, 3 no usable GPU,\n"
           "4 the GPU's machine cannot be reached (or the connection to it was lost),\n"
           "130 stopped by Ctrl+C.\n"
           "\n"
           "The commands that measure take --gpu WHERE: local (the default), ssh://[USER@]HOST[:PORT]\n"
           "or slurm://PARTITION, or --gpu-command CMD; with --gpu-index N and --gpu-worker PATH.\n"
           "\n"
           "Examples:\n"
           "  warpscope-cli model --preset coalescing/offset\n"
           "  warpscope-cli model --index 'blockIdx.x + threadIdx.x * gridDim.x' --grid 128 --block 256\n"
           "  warpscope-cli model --space shared --index 'threadIdx.x * 32' --block 32 --json\n"
           "  warpscope-cli device\n"
           "  warpscope-cli device --gpu ssh://gpu01\n"
           "  warpscope-cli measure coalescing/stride --samples 20\n"), out);
}

int
main (int    argc,
      char **argv)
{
  const char *name;

  ws_textdomain_init ();
  /* the command line's help and messages are in the user's language, but
   * its figures and files are English, and it writes numbers with a point:
   * a script makes the same files in any locale */
  setlocale (LC_NUMERIC, "C");
#if WS_HAVE_FIGURES
  ws_figure_set_translated (FALSE);
#endif
  ws_file_writer_init_process ();
  atexit (check_stdout);

  /* "help COMMAND" is "COMMAND --help" */
  if (argc == 3 && strcmp (argv[1], "help") == 0)
    for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
      if (strcmp (commands[i].name, argv[2]) == 0)
        {
          char *args[] = { argv[2], (char *) "--help", NULL };

          exit_command = commands[i].name;
          return commands[i].run (2, args);
        }
  if (argc == 3 && strcmp (argv[1], "help") == 0)
    return ws_cli_fail (NULL, WS_CLI_USAGE, _("help: unknown command “%s” (see warpscope-cli --help)"), argv[2]);
  if (argc < 2 || strcmp (argv[1], "--help") == 0 || strcmp (argv[1], "-h") == 0 ||
      strcmp (argv[1], "help") == 0)
    {
      print_help (argc < 2 ? stderr : stdout);
      return argc < 2 ? WS_CLI_USAGE : WS_CLI_OK;
    }
  if (strcmp (argv[1], "--version") == 0)
    {
      printf ("warpscope-cli %s\n", WS_VERSION);
      return WS_CLI_OK;
    }

  name = argv[1];
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    if (strcmp (commands[i].name, name) == 0)
      {
        /* named before it runs: GOption's --help exits from within */
        exit_command = commands[i].name;
        /* the command sees itself as argv[0] */
        return commands[i].run (argc - 1, argv + 1);
      }
  if (name[0] == '-')
    return ws_cli_fail (NULL, WS_CLI_USAGE, _("unknown option %s before the command (see warpscope-cli --help)"), name);
  return ws_cli_fail (NULL, WS_CLI_USAGE, _("unknown command “%s” (see warpscope-cli --help)"), name);
}
