/* SPDX-License-Identifier: GPL-3.0-or-later */
/* warpscope-cli export: measured plots and comparisons, as drawings or as
 * the data behind them. */
#include "ws-config.h"

#if WS_HAVE_FIGURES

#include "ws-cli-export.h"
#include "ws-file-writer.h"
#include "ws-plot-truth.h"

#include <math.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Charts                                                             */
/* ------------------------------------------------------------------ */

int
ws_cli_export_write_chart (const Options  *o,
             Job            *job,
             WsChart        *chart,
             WsExportDrawFunc draw,
             gpointer        data,
             const Needs    *needs,
             GError        **error)
{
  gboolean ok;
  double height = 0;

  ws_chart_autoscale (chart);
  if (!ws_cli_export_size_for (o, job, needs, &height, error))
    return WS_CLI_USAGE;
  if (ws_export_format_is_drawing (job->format))
    ok = ws_export_drawing (o->output, job->format, o->width, height, o->scale, job->style, draw, data, error);
  else
    ok = ws_export_chart_data (o->output, job->format, chart, error);
  return ok ? WS_CLI_OK : WS_CLI_FAILED;
}

int
ws_cli_export_plot (const Options *o,
             Job           *job,
             GError       **error)
{
  g_autoptr (WsPattern) pattern = ws_cli_pattern_build (&o->pattern, error);
  const WsPreset *preset = o->pattern.preset ? ws_preset_lookup (o->pattern.preset) : NULL;
  g_autoptr (WsChart) chart = NULL;
  guint access;

  if (pattern == NULL)
    return WS_CLI_USAGE;
  /* the model of the instruction asked for, else of the one that says most */
  access = o->instruction != NO_INSTRUCTION ? (guint) o->instruction - 1 : ws_compare_main_access (pattern);
  if (access >= ws_pattern_get_n_accesses (pattern))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, _("--instruction: %d is not between 1 and %u"),
                   o->instruction, ws_pattern_get_n_accesses (pattern));
      return WS_CLI_USAGE;
    }
  if (o->metric)
    {
      WsPlotMetric metric;
      WsSpace space = ws_pattern_get_access (pattern, access)->space;

      if (!ws_plot_metric_from_string (o->metric, &metric))
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       _("--metric: “%s” is not time, bandwidth, sectors, wavefronts, requests or coalescing"),
                       o->metric);
          return WS_CLI_USAGE;
        }
      if (!ws_plot_metric_applies (metric, space))
        {
          /* Translators: the metric asked for, then the memory space of the instruction plotted */
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       _("--metric %s: the instruction plotted is %s; time, bandwidth or %s apply"), o->metric,
                       ws_space_to_string (space), ws_plot_metric_to_string (WS_PLOT_COST, space));
          return WS_CLI_USAGE;
        }
      chart = ws_plot_build_metric (preset, pattern, access, job->profile, &job->sources, metric);
    }
  else
    chart = ws_plot_build_for (preset, pattern, access, job->profile, &job->sources);
  ws_chart_set_message (chart, job->recordings->len ? "No measurement of this pattern in the recording"
                                                    : "No measurement: no recording (give one with --recording)");
  ws_chart_autoscale (chart);
  return ws_cli_export_write_chart (o, job, chart, ws_export_draw_chart, chart,
                      &(Needs) { ws_chart_min_width (chart, job->style), ws_cli_export_chart_min_height, chart }, error);
}

/* The view that explains a result's cost. */
static WsFigureKind
main_kind (const WsWarpResult *result)
{
  WsFigureKind kinds[WS_N_FIGURES];

  return ws_figure_kinds_for (result, kinds) > 0 ? kinds[0] : WS_FIGURE_WARP;
}

/* --kernel FILE[:KERNEL] (at --line) as a member: the spec a --compare
 * entry would be. */
static WsCompareItem *
kernel_member (const Options *o,
               GError       **error)
{
  g_autofree char *spec = o->line != NO_LINE ? g_strdup_printf ("%s@%d", o->pattern.kernel, o->line)
                                             : g_strdup (o->pattern.kernel);
  WsCompareItem *item;

  if (o->pattern.grid || o->pattern.block || o->pattern.sets)
    {
      g_set_error_literal (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                           _("--view compare takes a kernel's launch from its comment: no --grid, --block or --set"));
      return NULL;
    }
  if (!ws_compare_spec_is_kernel (spec))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("--kernel %s: a kernel compared is a .cu file (FILE.cu[:KERNEL])"), o->pattern.kernel);
      return NULL;
    }
  if ((item = ws_compare_item_new (spec, error)) == NULL)
    g_prefix_error (error, "--kernel: ");
  return item;
}

/* --preset (with its --set) or --kernel first, then the --compare list. */
static GPtrArray *
compare_items (const Options *o,
               GError       **error)
{
  g_autoptr (GPtrArray) items = NULL;

  if (o->line != NO_LINE && !o->pattern.kernel)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("--line goes with --kernel (a --compare kernel takes its line as FILE.cu@LINE)"));
      return NULL;
    }
  if (o->pattern.kernel && o->pattern.preset)
    {
      g_set_error_literal (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                           _("--preset and --kernel: the first member is one of them (put the other in --compare)"));
      return NULL;
    }
  items = o->compare ? ws_compare_parse_list (o->compare, error)
                     : g_ptr_array_new_with_free_func ((GDestroyNotify) ws_compare_item_free);
  if (items == NULL)
    {
      g_prefix_error (error, "--compare: ");
      return NULL;
    }
  if (o->pattern.kernel)
    {
      WsCompareItem *item = kernel_member (o, error);
      if (item == NULL)
        return NULL;
      g_ptr_array_insert (items, 0, item);
      ws_compare_items_name (items);
    }
  else if (o->pattern.preset)
    {
      g_autoptr (WsPattern) pattern = ws_cli_pattern_build (&o->pattern, error);
      if (pattern == NULL)
        return NULL;
      g_ptr_array_insert (items, 0, ws_compare_item_new_for (ws_preset_lookup (o->pattern.preset), pattern));
      ws_compare_items_name (items);
    }
  if (items->len < WS_COMPARE_MIN || items->len > WS_COMPARE_MAX)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("--view compare needs %d to %d members (--preset or --kernel, and --compare ID,FILE.cu…), "
                     "not %u"),
                   WS_COMPARE_MIN, WS_COMPARE_MAX, items->len);
      return NULL;
    }
  return g_steal_pointer (&items);
}

int
ws_cli_export_compare (const Options *o,
                Job           *job,
                GError       **error)
{
  g_autoptr (GPtrArray) items = compare_items (o, error);
  g_autoptr (GPtrArray) results = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_warp_result_free);
  g_autoptr (GPtrArray) captions = g_ptr_array_new_with_free_func (g_free);
  WsCompareCost costs[WS_COMPARE_MAX];
  g_autoptr (WsChart) chart = NULL;
  g_autoptr (GArray) predicted = NULL;
  WsCompareFigure figure = { .n_cells = 0 };

  if (items == NULL)
    return WS_CLI_USAGE;
  /* what a warp of each costs: side by side, and kept between runs */
  if (!ws_compare_costs (items, costs, NULL, error))
    return WS_CLI_USAGE;
  for (guint i = 0; i < items->len; i++)
    {
      WsCompareItem *item = g_ptr_array_index (items, i);
      WsWarpResult *r;

      if ((r = ws_compare_item_analyze (item, error)) == NULL)
        {
          g_prefix_error (error, "%s: ", item->id);
          return WS_CLI_USAGE;
        }
      g_ptr_array_add (results, r);
      g_ptr_array_add (captions, ws_compare_item_caption (item));
      figure.cells[i].kind = main_kind (r);
      figure.cells[i].frame = (WsFigureFrame) { r, g_ptr_array_index (captions, i), ws_compare_item_get_block (item),
                                                ws_cli_export_frame_position (o, r), WS_FIGURE_HIT_NONE, WS_FIGURE_LAYERS_ALL };
    }
  figure.n_cells = items->len;
  if (ws_plot_model_can_predict (job->profile))
    predicted = ws_compare_predict (items, job->profile, NULL);
  chart = ws_compare_build_chart (items, costs, predicted ? (WsPlotPrediction *) predicted->data : NULL,
                                  job->profile ? job->profile->name : NULL, &job->sources);
  figure.chart = chart;
  ws_chart_autoscale (chart);
  return ws_cli_export_write_chart (o, job, chart, ws_compare_figure_draw, &figure,
                      &(Needs) { ws_compare_figure_min_width (&figure, job->style), ws_cli_export_compare_min_height, &figure,
                                 ws_cli_export_compare_natural_height },
                      error);
}

/* ------------------------------------------------------------------ */
/* How close the model is                                             */
/* ------------------------------------------------------------------ */

static double
truth_min_height (gconstpointer        view,
                  const WsFigureStyle *style,
                  double               width)
{
  return ws_truth_view_min_height (view, style, width);
}

int
ws_cli_export_truth (const Options *o,
                     Job           *job,
                     GError       **error)
{
  WsRecording *recording = job->recordings->len ? g_ptr_array_index (job->recordings, 0) : NULL;
  const WsDeviceInfo *d = recording ? ws_recording_get_device (recording) : NULL;
  g_autofree char *id = o->device ? g_strdup (o->device) : d && d->name ? ws_device_slug (d->name) : NULL;
  g_autoptr (WsTruthTable) table = NULL;
  g_autoptr (WsTruthView) view = NULL;
  g_autofree char *text = NULL;
  double height = 0;
  gboolean ok;

  if (o->pattern.preset || o->pattern.index || o->pattern.kernel)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("--view truth shows every preset: give no --preset, --index or --kernel"));
      return WS_CLI_USAGE;
    }
  if (id == NULL)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("--view truth: which GPU? give --device ID (there is no recording to take it from)"));
      return WS_CLI_USAGE;
    }
  if ((table = ws_truth_table_find (id, error)) == NULL)
    return WS_CLI_USAGE;
  view = ws_truth_view_new (table);
  if (!ws_cli_export_size_for (o, job, &(Needs) { ws_truth_view_min_width (view, job->style), truth_min_height, view },
                               &height, error))
    return WS_CLI_USAGE;
  if (ws_export_format_is_drawing (job->format))
    ok = ws_export_drawing (o->output, job->format, o->width, height, o->scale, job->style, ws_truth_view_draw, view,
                            error);
  else
    {
      text = job->format == WS_EXPORT_CSV ? ws_truth_view_to_csv (view) : ws_truth_view_to_json (view);
      ok = ws_file_write_atomic (o->output, text, strlen (text), error);
    }
  return ok ? WS_CLI_OK : WS_CLI_FAILED;
}

#endif /* WS_HAVE_FIGURES */
