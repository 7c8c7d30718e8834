/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What sweep and record measured, kept as they go: saved to -o FILE after
 * every measurement, so that a lost connection (or anything else that
 * stops them) loses nothing, and --resume measures only what FILE lacks. */
#include "ws-config.h"
#include "ws-cli-measuring.h"

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
      ws_cli_fail (command, WS_CLI_USAGE, _("--resume: %s was measured on %s, and this GPU is %s: resume on the "
                   "same kind of GPU, or start another file"), output, ws_recording_get_device (before)->name,
                   device->name);
      return FALSE;
    }
  for (guint i = 0; i < ws_recording_get_n_measurements (before); i++)
    ws_recording_add (k->recording, ws_recording_get_measurement (before, i));
  k->resumed = ws_recording_get_n_measurements (before);
  return TRUE;
}

gboolean
ws_cli_keeper_has (WsCliKeeper *k,
                   const char  *id,
                   GArray      *params)
{
  return ws_cli_recorded (k->recording, id, params) != NULL;
}

void
ws_cli_keeper_add (WsCliKeeper         *k,
                   const WsMeasurement *m)
{
  g_autoptr (GError) error = NULL;

  ws_recording_add (k->recording, m);
  if (k->file == NULL || k->save_failed)
    return;
  if (!ws_recording_save_file (k->recording, k->file, NULL, &error))
    {
      /* said once; the measuring goes on */
      ws_cli_fail (k->command, 0, "%s", error->message);
      k->save_failed = TRUE;
    }
}

/* After a failure: what is kept, and how to go on. */
void
ws_cli_keeper_tell (WsCliKeeper *k,
                    guint        done,
                    guint        total)
{
  if (k->file && !k->save_failed)
    {
      /* a path as typed: control characters shown as escapes */
      g_autofree char *path = ws_text_printable (g_file_peek_path (k->file), 0);

      /* Translators: "warpscope-cli sweep: 3 of 10 measured, kept in FILE: …" */
      fprintf (stderr, _("warpscope-cli %s: %u of %u measured, kept in %s: the same command with --resume "
                         "measures the rest\n"), k->command, done, total, path);
    }
  else if (done)
    fprintf (stderr, _("warpscope-cli %s: %u of %u measured, printed above; with -o FILE they are kept as they "
                       "come, and --resume goes on\n"), k->command, done, total);
}

void
ws_cli_keeper_clear (WsCliKeeper *k)
{
  g_clear_object (&k->file);
  g_clear_object (&k->recording);
}
