/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A truth table from a file (data/truth/, or one `warpscope-cli truth
 * --json` wrote, given to `export --view truth --device FILE`): either
 * refused with a message that is text, or loaded; a table that loads makes
 * the truth view, whose charts are drawn and whose numbers are written as
 * CSV and as JSON that reads back. Its device, date, presets and topics go
 * the ways the figures show names (fuzz-text.h). */
#include "fuzz-text.h"

#include <string.h>

#include "ws-truth-table.h"
#if WS_HAVE_FIGURES
#include "ws-plot-truth.h"
#include <cairo.h>
#endif

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
  g_autoptr (WsTruthTable) t = ws_truth_table_load_data ((const char *) data, size, "fuzz.json", &error);

  if (t == NULL)
    {
      fuzz_check_error (error);
      fuzz_toast_path (error->message);
      return 0;
    }
  FUZZ_CHECK (t->device && t->date && t->entries);
  fuzz_name_paths (t->device);
  for (guint i = 0; i < t->entries->len; i++)
    {
      const WsTruthEntry *e = g_ptr_array_index (t->entries, i);

      FUZZ_CHECK (e->model >= 0 && e->hardware >= 0);
      FUZZ_CHECK (g_utf8_validate (e->pattern, -1, NULL) && g_utf8_validate (e->metric, -1, NULL));
    }
#if WS_HAVE_FIGURES
  {
    g_autoptr (WsTruthView) view = ws_truth_view_new (t);
    g_autofree char *csv = ws_truth_view_to_csv (view);
    g_autofree char *json = ws_truth_view_to_json (view);
    g_autoptr (JsonParser) parser = json_parser_new ();
    cairo_surface_t *surface = cairo_recording_surface_create (CAIRO_CONTENT_COLOR_ALPHA, NULL);
    cairo_t *cr = cairo_create (surface);
    const char *texts[] = { view->device, view->date };

    FUZZ_CHECK (g_utf8_validate (csv, -1, NULL));
    FUZZ_CHECK (json_parser_load_from_data (parser, json, -1, NULL));
    for (guint q = 0; q < WS_TRUTH_N_QUANTITIES; q++)
      FUZZ_CHECK (view->within[q] <= view->counted[q] && view->counted[q] <= view->points->len);
    fuzz_draw_texts (texts, G_N_ELEMENTS (texts));
    ws_truth_view_draw (cr, ws_figure_style_get (WS_FIGURE_STYLE_PRINT), 1200, 720, view);
    FUZZ_CHECK (cairo_status (cr) == CAIRO_STATUS_SUCCESS);
    cairo_destroy (cr);
    cairo_surface_destroy (surface);
  }
#endif
  return 0;
}
