/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/* What the window and the figures do with the text a file holds, for the
 * harnesses of recordings and device profiles: names, ids and messages go
 * the ways the window shows them (a toast, a label, a legend) and the
 * figures draw them, and each comes out text, bounded, and never markup. */

#include "fuzz-common.h"
#include "ws-config.h"
#include "ws-model-types.h"

#include <string.h>

#if WS_HAVE_FIGURES
#include "ws-figure-context.h"
#include "ws-hierarchy-figure.h"
#include "ws-plot.h"
#include "ws-plot-hierarchy.h"
#include "ws-presets.h"

#include <pango/pango.h>
#endif

/* As in ws-window.h (WS_WINDOW_LINE_CHARS, _TIP_CHARS): a line, and a tooltip. */
#define FUZZ_LINE_CHARS 300
#define FUZZ_TIP_CHARS 2000

static inline void
fuzz_check_text (const char *text,
                 glong       max_chars)
{
  FUZZ_CHECK (text != NULL);
  FUZZ_CHECK (g_utf8_validate (text, -1, NULL));
  FUZZ_CHECK (g_utf8_strlen (text, -1) <= max_chars);
}

/* One line of text, with no control character. */
static inline void
fuzz_check_line (const char *text,
                 glong       max_chars)
{
  fuzz_check_text (text, max_chars);
  for (const char *p = text; *p; p++)
    FUZZ_CHECK ((guchar) *p >= 0x20 && *p != 0x7f);
}

/* A name as a label, a legend or a message quotes it (80 characters and
 * the ellipsis); the text as a tooltip or the status shows it. */
static inline void
fuzz_name_paths (const char *name)
{
  g_autofree char *quoted = NULL;
  g_autofree char *bounded = NULL;

  if (name == NULL)
    return;
  quoted = ws_text_for_message (name);
  fuzz_check_line (quoted, 81);
  bounded = ws_text_bounded (name, FUZZ_TIP_CHARS);
  fuzz_check_text (bounded, FUZZ_TIP_CHARS);
}

/* A message as a toast shows it: printable, bounded, escaped for the
 * toast's markup, and read back from the markup unchanged. */
static inline void
fuzz_toast_path (const char *message)
{
  g_autofree char *shown = ws_text_printable (message, FUZZ_LINE_CHARS);

  fuzz_check_line (shown, FUZZ_LINE_CHARS + 1);
#if WS_HAVE_FIGURES
  {
    g_autofree char *escaped = g_markup_escape_text (shown, -1);
    g_autofree char *plain = NULL;

    FUZZ_CHECK (pango_parse_markup (escaped, -1, 0, NULL, &plain, NULL, NULL));
    FUZZ_CHECK (g_str_equal (plain, shown));
  }
#endif
}

#if WS_HAVE_FIGURES

/* What was drawn: text, at most a thousand characters each. */
static inline void
fuzz_check_log (WsTextLog *log)
{
  for (guint i = 0; i < ws_text_log_len (log); i++)
    fuzz_check_text (ws_text_log_get (log, i)->text, 1000);
}

/* Each text as the figures lay out a label: one line cut at a width,
 * wrapped at one, and free; never wider than asked, never more lines than
 * twelve. */
static inline void
fuzz_draw_texts (const char * const *texts,
                 guint               n)
{
  const WsFigureStyle *style = ws_figure_style_get (WS_FIGURE_STYLE_LIGHT);
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 64, 64);
  cairo_t *cr = cairo_create (surface);
  WsTextLog *log = ws_text_log_new ();
  WsFigureContext ctx;

  ws_text_log_attach (log, cr);
  ws_figure_context_init (&ctx, cr, style, 64, 64);
  for (guint i = 0; i < n; i++)
    {
      WsTextOptions line = { .max_width = 200 };
      WsTextOptions wrapped = { .max_width = 200, .wrap = TRUE };
      double w, h;

      if (texts[i] == NULL)
        continue;
      ws_figure_text (&ctx, 0, 0, texts[i], &line, &w, &h);
      FUZZ_CHECK (w <= 201);
      ws_figure_text (&ctx, 0, 0, texts[i], &wrapped, &w, &h);
      FUZZ_CHECK (w <= 201);
      FUZZ_CHECK (h <= 12 * 4 * style->font_size);
    }
  FUZZ_CHECK (cairo_status (cr) == CAIRO_STATUS_SUCCESS);
  fuzz_check_log (log);
  ws_figure_context_clear (&ctx);
  ws_text_log_free (log);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
}

/* The measured plot of a preset beside the recording (or a live GPU of
 * that name), with the model predicted on a device of that name: every
 * series' name is one bounded line, and the plot draws. */
static inline void
fuzz_plot_paths (WsRecording *recording,
                 const char  *device,
                 const char  *model_device)
{
  const WsPreset *preset = ws_preset_lookup ("coalescing/strided-sweep");
  g_autoptr (WsPattern) pattern = ws_preset_build (preset);
  g_autoptr (GPtrArray) recordings = g_ptr_array_new ();
  g_autoptr (WsChart) chart = NULL;
  g_autofree char *key = NULL;
  g_autofree char *subtitle = NULL;
  WsPlotSources sources = { recordings, device, NULL };
  WsPlotInput in = { preset, pattern, FALSE, ws_preset_sweep_param (preset, pattern) };
  const WsFigureStyle *style = ws_figure_style_get (WS_FIGURE_STYLE_PRINT);
  cairo_surface_t *surface;
  cairo_t *cr;
  WsTextLog *log;

  if (recording)
    g_ptr_array_add (recordings, recording);
  key = ws_pattern_sweep_key (pattern, in.sweep_param);
  in.key = key;
  in.model_device = model_device;
  chart = ws_plot_build (&in, &sources);
  ws_chart_autoscale (chart);
  for (guint i = 0; i < chart->series->len; i++)
    fuzz_check_line (((WsChartSeries *) g_ptr_array_index (chart->series, i))->name, 200);
  subtitle = ws_plot_subtitle (&sources);
  fuzz_check_text (subtitle, 400);
  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 240, 160);
  cr = cairo_create (surface);
  log = ws_text_log_new ();
  ws_text_log_attach (log, cr);
  ws_chart_draw (cr, chart, style, 240, 160);
  FUZZ_CHECK (cairo_status (cr) == CAIRO_STATUS_SUCCESS);
  fuzz_check_log (log);
  ws_text_log_free (log);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
}

/* The hierarchy view's figure, on a profile and beside a measurement, with
 * where each came from said in its subtitle and legend. */
static inline void
fuzz_hierarchy_paths (const WsDeviceProfile *profile,
                      const char            *profile_source,
                      const WsMeasurement   *measured,
                      const char            *measured_source)
{
  WsPlotHierarchyInput in = { "fuzz", NULL, profile, profile_source, measured, measured_source, 0,
                              "no model here" };
  g_autoptr (WsHierarchyFigure) figure = ws_plot_hierarchy_build (&in);
  const WsFigureStyle *style = ws_figure_style_get (WS_FIGURE_STYLE_LIGHT);
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 240, 160);
  cairo_t *cr = cairo_create (surface);
  WsTextLog *log = ws_text_log_new ();

  FUZZ_CHECK (figure != NULL);
  fuzz_check_text (figure->subtitle, 1000);
  ws_text_log_attach (log, cr);
  ws_hierarchy_figure_draw (cr, figure, style, 240, 160);
  FUZZ_CHECK (cairo_status (cr) == CAIRO_STATUS_SUCCESS);
  fuzz_check_log (log);
  ws_text_log_free (log);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
}

#endif
