/* SPDX-License-Identifier: GPL-3.0-or-later */
/* warpscope-cli export: the views of one warp instruction, the hierarchy
 * of a launch, and the view of the whole launch a topic is about. */
#include "ws-config.h"

#if WS_HAVE_FIGURES

#include "ws-cli-export.h"

#include <string.h>

#include "ws-cli-hierarchy.h"
#include "ws-hierarchy-figure.h"
#include "ws-plot-hierarchy.h"
#include "ws-plot-topic.h"

/* ------------------------------------------------------------------ */
/* The views of one warp instruction                                  */
/* ------------------------------------------------------------------ */

/* The views of one instruction that show some instruction of pattern, as
 * --view names them: "banks, atomics". */
static char *
views_for (const WsPattern *pattern)
{
  GString *s = g_string_new (NULL);

  for (guint k = 0; k < WS_N_FIGURES; k++)
    for (guint i = 0; i < ws_pattern_get_n_accesses (pattern); i++)
      if (ws_figure_applies (k, ws_pattern_get_access (pattern, i)->space, ws_pattern_get_access (pattern, i)->kind))
        {
          g_string_append_printf (s, "%s%s", s->len ? ", " : "", ws_figure_kind_to_string (k));
          break;
        }
  return g_string_free (s, FALSE);
}

/* The instruction asked for, else the one that says most if the view shows
 * it, else the first the view shows. */
static gboolean
pick_access (const Options   *o,
             const WsPattern *pattern,
             WsFigureKind     kind,
             guint           *access,
             GError         **error)
{
  guint n = ws_pattern_get_n_accesses (pattern);

  if (o->instruction != NO_INSTRUCTION)
    {
      const WsAccess *a;
      if (o->instruction < 1 || (guint) o->instruction > n)
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       _("--instruction: %d is not between 1 and %u"), o->instruction, n);
          return FALSE;
        }
      *access = o->instruction - 1;
      a = ws_pattern_get_access (pattern, *access);
      if (ws_figure_applies (kind, a->space, a->kind))
        return TRUE;
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("--view %s does not show instruction %d (%s %s)"), o->view, o->instruction,
                   ws_space_to_string (a->space), ws_access_kind_to_string (a->kind));
      return FALSE;
    }
  *access = ws_compare_main_access (pattern);
  if (ws_figure_applies (kind, ws_pattern_get_access (pattern, *access)->space,
                         ws_pattern_get_access (pattern, *access)->kind))
    return TRUE;
  for (guint i = 0; i < n; i++)
    {
      const WsAccess *a = ws_pattern_get_access (pattern, i);
      if (ws_figure_applies (kind, a->space, a->kind))
        {
          *access = i;
          return TRUE;
        }
    }
  {
    g_autofree char *views = views_for (pattern);

    if (*views)
      /* Translators: the view asked for, then the views that show this pattern ("banks, atomics") */
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("--view %s shows none of this pattern's instructions; these views do: %s (and plot, hierarchy)"),
                   o->view, views);
    else
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("--view %s shows none of this pattern's instructions (try --view plot or hierarchy)"), o->view);
  }
  return FALSE;
}

int
ws_cli_export_figure (const Options *o,
                      Job           *job,
                      WsFigureKind   kind,
                      GError       **error)
{
  g_autoptr (WsPattern) pattern = ws_cli_pattern_build (&o->pattern, error);
  g_autoptr (WsWarpResult) result = NULL;
  g_autofree char *what = NULL;
  g_autofree char *title = NULL;
  const WsPreset *preset = o->pattern.preset ? ws_preset_lookup (o->pattern.preset) : NULL;
  WsExportFigure figure = { kind }, prepared;
  Needs needs;
  double height = 0;
  guint access;

  if (pattern == NULL || !pick_access (o, pattern, kind, &access, error))
    return WS_CLI_USAGE;
  if (!ws_export_format_is_drawing (job->format))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("--view %s is a drawing: csv and json are for --view plot and compare"), o->view);
      return WS_CLI_USAGE;
    }
  if ((result = ws_model_analyze_warp (pattern, access, WS_DIM3 (0, 0, 0), 0, error)) == NULL)
    return WS_CLI_USAGE;
  what = ws_pattern_describe_access (pattern, access);
  if (preset)
    {
      /* "Strided", not "Strided (blockIdx.x + threadIdx.x * gridDim.x)": the index follows */
      g_autofree char *name = ws_preset_short_title (preset->title);
      title = g_strdup_printf ("%s: %s — warp 0 of block (0, 0, 0)", name, what);
    }
  else
    title = g_strdup_printf ("%s — warp 0 of block (0, 0, 0)", what);
  figure.frame = (WsFigureFrame) { result, title, ws_pattern_get_block (pattern),
                                   ws_cli_export_frame_position (o, result), WS_FIGURE_HIT_NONE,
                                   WS_FIGURE_LAYERS_ALL };
  /* the print style shows every step served; --step is for the screen styles */
  prepared = figure;
  ws_export_prepare_frame (&prepared.frame, job->style);
  needs = (Needs) { ws_figure_min_width (kind, &prepared.frame, job->style), ws_cli_export_view_min_height, &prepared,
                    ws_cli_export_view_natural_height };
  if (!ws_cli_export_size_for (o, job, &needs, &height, error))
    return WS_CLI_USAGE;
  if (!ws_export_drawing (o->output, job->format, o->width, height, o->scale, job->style, ws_export_draw_figure,
                          &figure, error))
    return WS_CLI_FAILED;
  return WS_CLI_OK;
}

/* ------------------------------------------------------------------ */
/* The hierarchy                                                      */
/* ------------------------------------------------------------------ */

static double
hierarchy_min_height (gconstpointer        data,
                      const WsFigureStyle *style,
                      double               width)
{
  return ws_hierarchy_figure_min_height (data, style, width);
}

static double
hierarchy_natural_height (gconstpointer        data,
                          const WsFigureStyle *style,
                          double               width)
{
  return ws_hierarchy_figure_natural_height (data, style, width);
}

static char *
pattern_title (const WsPreset  *preset,
               const WsPattern *pattern)
{
  if (preset)
    return ws_preset_short_title (preset->title);
  return ws_pattern_describe_access (pattern, ws_compare_main_access (pattern));
}

int
ws_cli_export_hierarchy (const Options *o,
                         Job           *job,
                         GError       **error)
{
  g_autoptr (WsPattern) pattern = ws_cli_pattern_build (&o->pattern, error);
  const WsPreset *preset = o->pattern.preset ? ws_preset_lookup (o->pattern.preset) : NULL;
  g_autoptr (WsPlotModel) model = NULL;
  g_autoptr (WsHierarchyFigure) figure = NULL;
  g_autofree char *title = NULL;
  g_autofree char *measured_source = NULL;
  WsRecording *recording = job->recordings->len ? g_ptr_array_index (job->recordings, 0) : NULL;
  const WsMeasurement *m = NULL;
  WsPlotHierarchyInput in = { 0 };
  double height = 0;

  if (pattern == NULL)
    return WS_CLI_USAGE;
  if (!ws_export_format_is_drawing (job->format))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("--view hierarchy is a drawing: csv and json are for --view plot and compare"));
      return WS_CLI_USAGE;
    }
  if (job->profile == NULL)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("--view hierarchy needs a device to follow the launch on: %s"), job->profile_error->message);
      return WS_CLI_USAGE;
    }
  if ((model = ws_plot_model_compute (preset && !ws_preset_differs (preset, pattern) ? preset : NULL, pattern,
                                      job->profile, NULL, error)) == NULL)
    return WS_CLI_USAGE;
  /* what the recording measured of this very launch, counters and all */
  if (recording && preset && !ws_preset_differs (preset, pattern))
    m = ws_plot_recorded_one (recording, preset, pattern);
  if (m)
    {
      g_autofree char *name = ws_plot_recording_name (recording);
      measured_source = g_steal_pointer (&name);
    }
  title = pattern_title (preset, pattern);
  in = (WsPlotHierarchyInput) { title, model, job->profile, job->profile_source, m, measured_source, 0, NULL };
  figure = ws_plot_hierarchy_build (&in);
  if (!ws_cli_export_size_for (o, job,
                               &(Needs) { ws_hierarchy_figure_min_width (figure, job->style), hierarchy_min_height,
                                          figure, hierarchy_natural_height },
                               &height, error))
    return WS_CLI_USAGE;
  if (!ws_export_drawing (o->output, job->format, o->width, height, o->scale, job->style,
                          ws_hierarchy_figure_export_draw, figure, error))
    return WS_CLI_FAILED;
  return WS_CLI_OK;
}

/* ------------------------------------------------------------------ */
/* The views of a whole launch a topic is about                       */
/* ------------------------------------------------------------------ */

static double
topic_min_height (gconstpointer        data,
                  const WsFigureStyle *style,
                  double               width)
{
  return ws_topic_figure_min_height (data, style, width);
}

int
ws_cli_export_topic (const Options *o,
                     Job           *job,
                     WsTopicView    view,
                     GError       **error)
{
  g_autoptr (WsPattern) pattern = ws_cli_pattern_build (&o->pattern, error);
  const WsPreset *preset = o->pattern.preset ? ws_preset_lookup (o->pattern.preset) : NULL;
  WsRecording *recording = job->recordings->len ? g_ptr_array_index (job->recordings, 0) : NULL;
  g_autoptr (WsTopicFigure) figure = NULL;
  g_autofree char *source = NULL;
  WsTopicInput in = { 0 };
  WsTopicView own;
  double height = 0;

  if (pattern == NULL)
    return WS_CLI_USAGE;
  if (!ws_export_format_is_drawing (job->format))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("--view %s is a drawing: csv and json are for --view plot and compare"), o->view);
      return WS_CLI_USAGE;
    }
  if (!ws_topic_view_for (preset, &own) || own != view)
    {
      if (ws_topic_view_for (preset, &own))
        g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                     _("--view %s is for another topic's presets; this one's is --view %s"), o->view,
                     ws_topic_view_to_string (own));
      else
        g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                     _("--view %s is for the presets of its topic (occupancy/…, transfer/…, l2/…)"), o->view);
      return WS_CLI_USAGE;
    }
  in.preset = preset;
  in.pattern = pattern;
  /* what the recording measured of this very launch */
  if (recording && !ws_preset_differs (preset, pattern))
    in.measured = ws_plot_recorded_one (recording, preset, pattern);
  if (in.measured)
    in.measured_source = source = ws_plot_recording_name (recording);
  in.device = recording ? ws_recording_get_device (recording) : NULL;
  figure = ws_plot_topic_build (view, &in);
  if (!ws_cli_export_size_for (o, job,
                               &(Needs) { ws_topic_figure_min_width (figure, job->style), topic_min_height, figure },
                               &height, error))
    return WS_CLI_USAGE;
  if (!ws_export_drawing (o->output, job->format, o->width, height, o->scale, job->style, ws_topic_figure_draw,
                          figure, error))
    return WS_CLI_FAILED;
  return WS_CLI_OK;
}

#endif /* WS_HAVE_FIGURES */
