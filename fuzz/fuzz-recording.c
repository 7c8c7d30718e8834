/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A recording from a file: either refused with a message that is text, or
 * loaded; what was loaded saves to data that loads again and saves the same. */
#include "fuzz-common.h"

#include <string.h>

#include "ws-recording.h"

int
LLVMFuzzerInitialize (int    *argc,
                      char ***argv)
{
  fuzz_init_glib ();
  return 0;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WsRecording) r = NULL;
  g_autoptr (WsRecording) again = NULL;
  g_autofree char *saved = NULL;
  g_autofree char *resaved = NULL;
  gsize length = 0;

  /* json-glib reads up to a NUL, as a file with one would be read */
  r = ws_recording_load_data (size > 0 ? (const char *) data : "", (gssize) size, &error);
  if (r == NULL)
    {
      fuzz_check_error (error);
      return 0;
    }
  for (guint i = 0; i < ws_recording_get_n_measurements (r); i++)
    {
      g_autoptr (GPtrArray) same = ws_recording_find (r, ws_recording_get_measurement (r, i)->id);
      FUZZ_CHECK (same->len >= 1);
    }
  saved = ws_recording_to_data (r, &length);
  again = ws_recording_load_data (saved, (gssize) length, &error);
  if (again == NULL)
    fprintf (stderr, "saved data does not load: %s\n", error->message);
  FUZZ_CHECK (again != NULL);
  resaved = ws_recording_to_data (again, NULL);
  FUZZ_CHECK (g_str_equal (saved, resaved));
  return 0;
}
