/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A recording from a file: either refused with a message that is text, or
 * loaded; what was loaded saves to data that loads again and saves the same.
 * The message, and what was loaded (the GPU's name, the measurements' ids,
 * descriptions, warnings, parameters' and counters' names), go the ways the
 * window and the figures show them: a toast, labels, a plot's legend and
 * caption, the hierarchy view (fuzz-text.h). */
#include "fuzz-text.h"

#include <string.h>

#include "ws-recording.h"

/* Every text of the recording, as the window shows and the figures draw it. */
static void
text_paths (WsRecording *r)
{
  const WsDeviceInfo *d = ws_recording_get_device (r);
  guint n = MIN (ws_recording_get_n_measurements (r), 4);

  fuzz_name_paths (d->name);
  fuzz_name_paths (d->driver_version);
  fuzz_name_paths (d->host);
  fuzz_name_paths (d->address);
  for (guint i = 0; i < n; i++)
    {
      const WsMeasurement *m = ws_recording_get_measurement (r, i);

      fuzz_name_paths (m->id);
      fuzz_name_paths (m->description);
      fuzz_name_paths (m->warning);
      for (guint c = 0; m->counters && c < m->counters->len; c++)
        fuzz_name_paths (g_array_index (m->counters, WsCounter, c).name);
      for (guint p = 0; m->params && p < m->params->len; p++)
        fuzz_name_paths (g_array_index (m->params, WsParamValue, p).name);
    }
#if WS_HAVE_FIGURES
  {
    g_autofree char *source = ws_plot_recording_name (r);
    const WsMeasurement *first = n ? ws_recording_get_measurement (r, 0) : NULL;
    const char *texts[] = { d->name, source, first ? first->id : NULL, first ? first->description : NULL,
                            first ? first->warning : NULL };

    fuzz_check_line (source, 200);
    fuzz_draw_texts (texts, G_N_ELEMENTS (texts));
    fuzz_plot_paths (r, d->name, d->name);
    fuzz_hierarchy_paths (NULL, NULL, first, source);
  }
#endif
}

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
      fuzz_toast_path (error->message);
      return 0;
    }
  text_paths (r);
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
