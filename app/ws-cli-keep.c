/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What sweep and record measured, kept as they go: saved to -o FILE after
 * every measurement, so that a lost connection (or anything else that
 * stops them) loses nothing, and --resume measures only what FILE lacks.
 * A save that fails (a full disk, a folder that is read-only or gone) stops
 * the run: what cannot be kept is not measured on, and the exit status says
 * it. */
#include "ws-config.h"
#include "ws-cli-measuring.h"
#include "ws-file-writer.h"

#include <stdio.h>

gboolean
ws_cli_keeper_init (WsCliKeeper        *k,
                    const char         *command,
                    const char         *output,
                    gboolean            resume,
                    const WsDeviceInfo *device)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WsRecording) before = NULL;

  k->command = command;
  k->file = output ? g_file_new_for_commandline_arg (output) : NULL;
  k->recording = ws_recording_new (device);
  k->stop = g_cancellable_new ();
  /* a file that cannot be written at all is said before anything is measured */
  if (output && !resume && !ws_file_writer_check (output, &error))
    {
      ws_cli_fail (command, WS_CLI_USAGE, "-o: %s", error->message);
      return FALSE;
    }
  if (!resume)
    return TRUE;
  if (k->file == NULL)
    {
      ws_cli_fail (command, WS_CLI_USAGE, _("--resume goes with -o FILE: the file to go on with"));
      return FALSE;
    }
  before = ws_recording_load_file (k->file, NULL, &error);
  if (before == NULL)
    {
      ws_cli_fail (command, WS_CLI_USAGE, "--resume: %s", error->message);
      return FALSE;
    }
  /* the rest measured on another GPU would not belong with it */
  if (g_strcmp0 (ws_recording_get_device (before)->name, device->name) != 0)
    {
      g_autofree char *before_name = ws_text_for_message (ws_recording_get_device (before)->name);
      g_autofree char *this_name = ws_text_for_message (device->name);

      ws_cli_fail (command, WS_CLI_USAGE, _("--resume: %s was measured on %s, and this GPU is %s: resume on the "
                   "same kind of GPU, or start another file"), output, before_name, this_name);
      return FALSE;
    }
  for (guint i = 0; i < ws_recording_get_n_measurements (before); i++)
    ws_recording_add (k->recording, ws_recording_get_measurement (before, i));
  k->resumed = ws_recording_get_n_measurements (before);
  k->kept = k->resumed;
  return TRUE;
}

gboolean
ws_cli_keeper_has (WsCliKeeper *k,
                   const char  *id,
                   GArray      *params)
{
  return ws_cli_recorded (k->recording, id, params) != NULL;
}

gboolean
ws_cli_keeper_kept (WsCliKeeper *k,
                    const char  *id,
                    GArray      *params)
{
  const WsMeasurement *m = ws_cli_recorded (k->recording, id, params);

  for (guint i = 0; m && i < k->kept; i++)
    if (ws_recording_get_measurement (k->recording, i) == m)
      return TRUE;
  return FALSE;
}

gboolean
ws_cli_keeper_add (WsCliKeeper         *k,
                   const WsMeasurement *m)
{
  g_autoptr (GError) error = NULL;

  ws_recording_add (k->recording, m);
  if (k->file == NULL)
    return TRUE;
  if (k->save_failed)
    return FALSE;
  if (!ws_recording_save_file (k->recording, k->file, NULL, &error))
    {
      /* said once; what cannot be kept is not measured on */
      ws_cli_fail (k->command, 0, "%s", error->message);
      k->save_failed = TRUE;
      g_cancellable_cancel (k->stop);
      return FALSE;
    }
  k->kept = ws_recording_get_n_measurements (k->recording);
  return TRUE;
}

/* After a failure: what is kept, and how to go on. */
void
ws_cli_keeper_tell (WsCliKeeper *k,
                    guint        done,
                    guint        kept,
                    guint        total)
{
  /* a path as typed: control characters shown as escapes */
  g_autofree char *path = k->file ? ws_text_printable (g_file_peek_path (k->file), 0) : NULL;

  if (k->file && k->save_failed && kept > 0)
    /* Translators: "warpscope-cli sweep: stopped after 5 of 10 points, of which 4 are kept in FILE: …" */
    fprintf (stderr, _("warpscope-cli %s: stopped after %u of %u points, of which %u are kept in %s: once it can "
                       "be written again (room on its disk, a folder that allows it), the same command with --resume "
                       "measures the rest\n"), k->command, done, total, kept, path);
  else if (k->file && k->save_failed)
    fprintf (stderr, _("warpscope-cli %s: stopped after %u of %u points, none of them kept: %s cannot be written; "
                       "run the command again with -o a file that can be\n"), k->command, done, total, path);
  else if (k->file && kept > 0)
    /* Translators: "warpscope-cli sweep: 3 of 10 measured, kept in FILE: …" */
    fprintf (stderr, _("warpscope-cli %s: %u of %u measured, kept in %s: the same command with --resume "
                       "measures the rest\n"), k->command, kept, total, path);
  else if (done)
    fprintf (stderr, _("warpscope-cli %s: %u of %u measured, printed above; with -o FILE they are kept as they "
                       "come, and --resume goes on\n"), k->command, done, total);
}

void
ws_cli_keeper_clear (WsCliKeeper *k)
{
  g_clear_object (&k->file);
  g_clear_object (&k->recording);
  g_clear_object (&k->stop);
}
