/* SPDX-License-Identifier: GPL-3.0-or-later */
/* warpscope-cli export: a figure with no display, drawn by the renderers
 * the program draws with (ui/figures), from the plots and comparisons the
 * program builds (ws-plot.c, ws-compare.c): for slides, papers and course
 * notes made by a script. */
#include "ws-config.h"
#include "ws-cli.h"
#include "ws-file-writer.h"

#if WS_HAVE_FIGURES

#include <math.h>
#include <string.h>

#include "ws-compare.h"
#include "ws-cli-hierarchy.h"
#include "ws-device-json.h"
#include "ws-export.h"
#include "ws-hierarchy-figure.h"
#include "ws-plot.h"
#include "ws-plot-hierarchy.h"
#include "ws-plot-topic.h"

#define COMMAND "export"
#define DEFAULT_HEIGHT 720
#define NO_HEIGHT G_MININT       /* --height not given */
#define NO_STEP G_MININT         /* --step not given */
#define NO_INSTRUCTION G_MININT  /* --instruction not given */

static const char *const export_description =
  /* Translators: the help of “warpscope-cli export --help”; options, values
   * and examples stay as they are */
  N_("Views:\n"
     "  warp, banks, constant, local, atomics   one warp instruction (warp 0 of block 0)\n"
     "  occupancy, timeline, l2   the whole launch, for the presets of their topics: an SM\n"
     "            filled with the kernel's blocks; the copies and kernels of a launch on\n"
     "            their streams, as recorded; what an L2 access-policy window keeps\n"
     "  plot      the measured plot against the preset's sweep parameter, or the presets\n"
     "            of its topic side by side, with the model: in what the lesson is about\n"
     "            (--metric time, bandwidth, sectors or wavefronts, coalescing)\n"
     "  compare   two to four patterns side by side over a chart of their medians, the\n"
     "            model's predicted times and the speed-up: --preset (if given) and the\n"
     "            --compare list\n"
     "  hierarchy what the whole launch moves through L1, L2 and DRAM, as the model has it\n"
     "            on the recording's GPU, beside the hardware counters the recording holds\n"
     "\n"
     "The format comes from --format, else from the name of the output file: png, svg or\n"
     "pdf; csv or json write the data behind a plot or a comparison. The print style has a\n"
     "light background, larger type and every step served; the screen style (light or dark)\n"
     "is the window's. Measurements come from the bundled recording unless --recording is\n"
     "given (repeatable: each recording is plotted beside the others, labelled with its GPU).\n"
     "\n"
     "Examples:\n"
     "  warpscope-cli export --preset transpose/shared --view banks -o banks.svg\n"
     "  warpscope-cli export --preset coalescing/strided-sweep --view plot --format pdf -o sweep.pdf\n"
     "  warpscope-cli export --view compare --compare transpose/copy,transpose/shared,transpose/shared-padded \\\n"
     "                       --width 1600 --height 1000 --scale 2 -o transpose.png\n"
     "  warpscope-cli export --view compare --compare banks/stride:stride=1,banks/stride:stride=2 -o banks.pdf\n"
     "  warpscope-cli export --preset coalescing/stride --view hierarchy -o stride-hierarchy.svg\n"
     "  warpscope-cli export --preset coalescing/strided-sweep --view plot --metric sectors -o sectors.png\n"
     "  warpscope-cli export --preset occupancy/saturation --view occupancy -o occupancy.png\n");

typedef struct
{
  WsCliPatternOptions pattern;
  char *view;
  char *compare;
  char *format;
  int width;
  int height;
  double scale;
  char *style;
  char **recordings;
  char *output;
  char *device;
  int instruction;
  int step;
  char *metric;
} Options;

static void
options_clear (Options *o)
{
  ws_cli_pattern_options_clear (&o->pattern);
  g_free (o->view);
  g_free (o->compare);
  g_free (o->format);
  g_free (o->style);
  g_strfreev (o->recordings);
  g_free (o->output);
  g_free (o->device);
  g_free (o->metric);
}

/* What the command draws, gathered from the options. */
typedef struct
{
  WsExportFormat format;
  const WsFigureStyle *style;
  GPtrArray *recordings;           /* WsRecording */
  WsPlotSources sources;
  WsDeviceProfile *profile;        /* the device the model follows launches on, or NULL */
  const char *profile_source;
  GError *profile_error;           /* why there is none */
} Job;

static void
job_clear (Job *job)
{
  g_clear_pointer (&job->recordings, g_ptr_array_unref);
  g_clear_pointer (&job->profile, ws_device_profile_free);
  g_clear_error (&job->profile_error);
}

/* ------------------------------------------------------------------ */
/* Checking the options                                               */
/* ------------------------------------------------------------------ */

static gboolean
check_style (const Options *o,
             Job           *job,
             GError       **error)
{
  WsFigureStyleKind kind = WS_FIGURE_STYLE_PRINT;

  if (o->style && g_str_equal (o->style, "screen"))
    kind = WS_FIGURE_STYLE_LIGHT;
  else if (o->style && !ws_figure_style_kind_from_string (o->style, &kind))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("--style: “%s” is not print, screen, light or dark"), o->style);
      return FALSE;
    }
  /* the type grows with the slide: 1920 pixels wide reads as 1280 does */
  job->style = ws_export_style_for_width (kind, o->width);
  return TRUE;
}

static gboolean
check_format (const Options *o,
              Job           *job,
              GError       **error)
{
  if (o->output == NULL)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, _("where to? give the file with -o FILE"));
      return FALSE;
    }
  if (o->format && !ws_export_format_from_string (o->format, &job->format))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("--format: “%s” is not png, svg, pdf, csv or json"), o->format);
      return FALSE;
    }
  if (o->format == NULL && !ws_export_format_from_path (o->output, &job->format))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("-o %s: give --format png|svg|pdf|csv|json, or a name that ends in one"), o->output);
      return FALSE;
    }
  /* a folder or a device is bad input, said before anything is drawn */
  if (!ws_file_writer_check (o->output, error))
    return FALSE;
  if (!ws_export_format_is_drawing (job->format))
    return TRUE;
  if (!ws_export_check_size (job->format, o->width, o->height != NO_HEIGHT ? o->height : DEFAULT_HEIGHT, o->scale,
                             error))
    {
      g_prefix_error (error, "--width, --height, --scale: ");
      return FALSE;
    }
  return TRUE;
}

static gboolean
load_recordings (const Options *o,
                 Job           *job,
                 GError       **error)
{
  job->recordings = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; o->recordings && o->recordings[i]; i++)
    {
      g_autoptr (GFile) file = g_file_new_for_commandline_arg (o->recordings[i]);
      WsRecording *r = ws_recording_load_file (file, NULL, error);

      if (r == NULL)
        {
          g_prefix_error (error, "--recording %s: ", o->recordings[i]);
          return FALSE;
        }
      g_ptr_array_add (job->recordings, r);
    }
  if (job->recordings->len == 0)
    {
      /* the recording that ships with Warpscope, if it is where it should be */
      WsRecording *bundled = ws_recording_load_bundled (NULL);
      if (bundled)
        g_ptr_array_add (job->recordings, bundled);
    }
  job->sources.recordings = job->recordings;
  return TRUE;
}

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

/* The figure's least size, and the height to draw it at: --height, else
 * 720 or what the figure needs, if more. A size the figure cannot be
 * legible at is refused, with the size it needs. */
typedef struct
{
  double min_width;
  double (*min_height) (gconstpointer figure, const WsFigureStyle *style, double width);
  gconstpointer figure;
  double (*natural_height) (gconstpointer figure, const WsFigureStyle *style, double width);
} Needs;

#define MOST_DEFAULT_HEIGHT 1600

static gboolean
size_for (const Options *o,
          const Job     *job,
          const Needs   *needs,
          double        *height,
          GError       **error)
{
  double min_h;

  if (!ws_export_format_is_drawing (job->format))
    return TRUE;
  if (o->width < floor (needs->min_width))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("--width %d: this figure needs at least %.0f to be legible"), o->width, ceil (needs->min_width));
      return FALSE;
    }
  min_h = ceil (needs->min_height (needs->figure, job->style, o->width));
  /* by default, room for everything without folding rows, within reason */
  *height = o->height != NO_HEIGHT ? o->height : MAX (DEFAULT_HEIGHT, min_h);
  if (o->height == NO_HEIGHT && needs->natural_height)
    *height = MAX (*height, MIN (MOST_DEFAULT_HEIGHT, ceil (needs->natural_height (needs->figure, job->style,
                                                                                   o->width))));
  if (*height < floor (min_h))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("--height %d: at %d wide, this figure needs at least %.0f to be legible"), o->height, o->width,
                   min_h);
      return FALSE;
    }
  return TRUE;
}

static double
view_min_height (gconstpointer        data,
                 const WsFigureStyle *style,
                 double               width)
{
  const WsExportFigure *figure = data;
  return ws_figure_min_height (figure->kind, &figure->frame, style, width);
}

static double
view_natural_height (gconstpointer        data,
                     const WsFigureStyle *style,
                     double               width)
{
  const WsExportFigure *figure = data;
  return ws_figure_natural_height (figure->kind, &figure->frame, style, width);
}

static double
compare_natural_height (gconstpointer        data,
                        const WsFigureStyle *style,
                        double               width)
{
  return ws_compare_figure_natural_height (data, style, width);
}

static double
chart_min_height (gconstpointer        data,
                  const WsFigureStyle *style,
                  double               width)
{
  return ws_chart_min_height (data, style, width);
}

static double
compare_min_height (gconstpointer        data,
                    const WsFigureStyle *style,
                    double               width)
{
  return ws_compare_figure_min_height (data, style, width);
}

static double
frame_position (const Options      *o,
                const WsWarpResult *result)
{
  /* --step N: as it is after N steps; else every step served */
  if (o->step != NO_STEP)
    return MIN ((guint) o->step, result->steps->len);
  return result->steps->len;
}

static int
export_figure (const Options *o,
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
  figure.frame = (WsFigureFrame) { result, title, ws_pattern_get_block (pattern), frame_position (o, result),
                                   WS_FIGURE_HIT_NONE, WS_FIGURE_LAYERS_ALL };
  /* the print style shows every step served; --step is for the screen styles */
  prepared = figure;
  ws_export_prepare_frame (&prepared.frame, job->style);
  needs = (Needs) { ws_figure_min_width (kind, &prepared.frame, job->style), view_min_height, &prepared,
                    view_natural_height };
  if (!size_for (o, job, &needs, &height, error))
    return WS_CLI_USAGE;
  if (!ws_export_drawing (o->output, job->format, o->width, height, o->scale, job->style, ws_export_draw_figure,
                          &figure, error))
    return WS_CLI_FAILED;
  return WS_CLI_OK;
}

/* ------------------------------------------------------------------ */
/* Charts                                                             */
/* ------------------------------------------------------------------ */

static int
write_chart (const Options  *o,
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
  if (!size_for (o, job, needs, &height, error))
    return WS_CLI_USAGE;
  if (ws_export_format_is_drawing (job->format))
    ok = ws_export_drawing (o->output, job->format, o->width, height, o->scale, job->style, draw, data, error);
  else
    ok = ws_export_chart_data (o->output, job->format, chart, error);
  return ok ? WS_CLI_OK : WS_CLI_FAILED;
}

static int
export_plot (const Options *o,
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
  return write_chart (o, job, chart, ws_export_draw_chart, chart,
                      &(Needs) { ws_chart_min_width (chart, job->style), chart_min_height, chart }, error);
}

/* The view that explains a result's cost. */
static WsFigureKind
main_kind (const WsWarpResult *result)
{
  WsFigureKind kinds[WS_N_FIGURES];

  return ws_figure_kinds_for (result, kinds) > 0 ? kinds[0] : WS_FIGURE_WARP;
}

/* --preset (with its --set) first, then the --compare list. */
static GPtrArray *
compare_items (const Options *o,
               GError       **error)
{
  g_autoptr (GPtrArray) items = o->compare ? ws_compare_parse_list (o->compare, error)
                                           : g_ptr_array_new_with_free_func ((GDestroyNotify) ws_compare_item_free);

  if (items == NULL)
    {
      g_prefix_error (error, "--compare: ");
      return NULL;
    }
  if (o->pattern.preset)
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
                   _("--view compare needs %d to %d patterns (--preset and --compare ID,ID…), not %u"),
                   WS_COMPARE_MIN, WS_COMPARE_MAX, items->len);
      return NULL;
    }
  return g_steal_pointer (&items);
}

static int
export_compare (const Options *o,
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
      figure.cells[i].frame = (WsFigureFrame) { r, g_ptr_array_index (captions, i), ws_pattern_get_block (item->pattern),
                                                frame_position (o, r), WS_FIGURE_HIT_NONE, WS_FIGURE_LAYERS_ALL };
    }
  figure.n_cells = items->len;
  if (ws_plot_model_can_predict (job->profile))
    predicted = ws_compare_predict (items, job->profile, NULL);
  chart = ws_compare_build_chart (items, costs, predicted ? (WsPlotPrediction *) predicted->data : NULL,
                                  job->profile ? job->profile->name : NULL, &job->sources);
  figure.chart = chart;
  ws_chart_autoscale (chart);
  return write_chart (o, job, chart, ws_compare_figure_draw, &figure,
                      &(Needs) { ws_compare_figure_min_width (&figure, job->style), compare_min_height, &figure,
                                 compare_natural_height },
                      error);
}

/* ------------------------------------------------------------------ */
/* The hierarchy                                                      */
/* ------------------------------------------------------------------ */

/* The device the model follows launches on: the main recording's GPU,
 * from the profiles Warpscope ships. Without one, the plots show what the
 * model counts instead of a time, and the hierarchy is refused. */
static void
load_profile (const Options *o,
              Job           *job)
{
  WsRecording *recording = job->recordings->len ? g_ptr_array_index (job->recordings, 0) : NULL;
  const WsDeviceInfo *d = recording ? ws_recording_get_device (recording) : NULL;
  g_autofree char *id = d && d->name ? ws_device_slug (d->name) : NULL;

  if (o->device)
    {
      /* asked for by name: a mistake is the user's to hear of, not a
       * figure without the model */
      if ((job->profile = ws_device_profile_find (o->device, &job->profile_error)) == NULL)
        g_prefix_error (&job->profile_error, "--device %s: ", o->device);
      job->profile_source = "the profile asked for with --device";
      return;
    }
  if (id == NULL)
    {
      g_set_error (&job->profile_error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("there is no recording to take the GPU from"));
      return;
    }
  if ((job->profile = ws_device_profile_find (id, &job->profile_error)) == NULL)
    {
      g_prefix_error (&job->profile_error, _("the recording's GPU, %s: "), d->name);
      return;
    }
  job->profile_source = "the profile shipped for the recording's GPU";
}

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

static int
export_hierarchy (const Options *o,
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
  if (!size_for (o, job,
                 &(Needs) { ws_hierarchy_figure_min_width (figure, job->style), hierarchy_min_height, figure,
                            hierarchy_natural_height },
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

static int
export_topic (const Options *o,
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
  if (!size_for (o, job, &(Needs) { ws_topic_figure_min_width (figure, job->style), topic_min_height, figure },
                 &height, error))
    return WS_CLI_USAGE;
  if (!ws_export_drawing (o->output, job->format, o->width, height, o->scale, job->style, ws_topic_figure_draw,
                          figure, error))
    return WS_CLI_FAILED;
  return WS_CLI_OK;
}

/* ------------------------------------------------------------------ */

static int
run (const Options *o,
     Job           *job,
     GError       **error)
{
  WsFigureKind kind;
  WsTopicView topic_view;

  if (o->view == NULL)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("which view? --view warp|banks|constant|local|atomics|occupancy|timeline|l2|plot|compare|"
                     "hierarchy"));
      return WS_CLI_USAGE;
    }
  if (!check_style (o, job, error) || !check_format (o, job, error) || !load_recordings (o, job, error))
    return WS_CLI_USAGE;
  load_profile (o, job);
  if (o->device && job->profile == NULL)
    {
      g_propagate_error (error, g_steal_pointer (&job->profile_error));
      return WS_CLI_USAGE;
    }
  /* counted from 1; 0 and below are mistakes, not the default */
  if (o->instruction != NO_INSTRUCTION && o->instruction < 1)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("--instruction: %d is not an instruction (they are counted from 1)"), o->instruction);
      return WS_CLI_USAGE;
    }
  if (o->step != NO_STEP && o->step < 0)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("--step: %d is not a number of steps (0 or more)"), o->step);
      return WS_CLI_USAGE;
    }
  if (o->metric && !g_str_equal (o->view, "plot"))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, _("--metric goes with --view plot"));
      return WS_CLI_USAGE;
    }
  if (o->compare && !g_str_equal (o->view, "compare"))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, _("--compare goes with --view compare"));
      return WS_CLI_USAGE;
    }
  if (g_str_equal (o->view, "compare"))
    return export_compare (o, job, error);
  if (!o->pattern.preset && !o->pattern.index)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, _("which pattern? give --preset ID (or --index EXPR)"));
      return WS_CLI_USAGE;
    }
  if (g_str_equal (o->view, "plot"))
    return export_plot (o, job, error);
  if (g_str_equal (o->view, "hierarchy"))
    return export_hierarchy (o, job, error);
  if (ws_figure_kind_from_string (o->view, &kind))
    return export_figure (o, job, kind, error);
  if (ws_topic_view_from_string (o->view, &topic_view))
    return export_topic (o, job, topic_view, error);
  g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
               _("--view: “%s” is not warp, banks, constant, local, atomics, occupancy, timeline, l2, plot, compare "
                 "or hierarchy"), o->view);
  return WS_CLI_USAGE;
}

int
ws_cli_export (int    argc,
               char **argv)
{
  Options o = { .width = 1200, .height = NO_HEIGHT, .scale = 1, .step = NO_STEP, .instruction = NO_INSTRUCTION };
  Job job = { 0 };
  g_autofree GOptionEntry *pattern_entries = ws_cli_pattern_entries (&o.pattern);
  g_autoptr (GArray) entries = g_array_new (TRUE, TRUE, sizeof (GOptionEntry));
  g_autoptr (GError) error = NULL;
  GOptionEntry own[] = {
    { "view", 0, 0, G_OPTION_ARG_STRING, &o.view,
      N_("What to draw: warp, banks, constant, local, atomics, occupancy, timeline, l2, plot, compare or hierarchy"),
      N_("VIEW") },
    { "compare", 0, 0, G_OPTION_ARG_STRING, &o.compare,
      N_("Presets to compare (after --preset), each ID[@INSTRUCTION][:NAME=VALUE]…, e.g. transpose/copy,banks/stride:stride=2"),
      N_("ID,ID…") },
    { "format", 'f', 0, G_OPTION_ARG_STRING, &o.format,
      N_("png, svg or pdf; csv or json for a plot's data (default: from the file's name)"), N_("FORMAT") },
    { "width", 'W', 0, G_OPTION_ARG_INT, &o.width,
      N_("Width in pixels (points for SVG and PDF; default 1200)"), N_("W") },
    { "height", 'H', 0, G_OPTION_ARG_INT, &o.height,
      N_("Height in pixels (points for SVG and PDF; default 720, or what a comparison's views need)"), N_("H") },
    { "scale", 0, 0, G_OPTION_ARG_DOUBLE, &o.scale,
      N_("Draw a PNG at S times its size, for sharp slides (default 1)"),
      N_("S") },
    { "style", 0, 0, G_OPTION_ARG_STRING, &o.style,
      N_("print (the default: light, larger type, every step served), screen, light or dark"), N_("STYLE") },
    { "recording", 'r', 0, G_OPTION_ARG_FILENAME_ARRAY, &o.recordings,
      N_("Measurements from this recording (repeatable; default: the bundled one)"), N_("FILE") },
    { "instruction", 0, 0, G_OPTION_ARG_INT, &o.instruction,
      N_("The memory instruction to draw, from 1 (default: the one that says most, if the view shows it); for a "
      "plot, whose model to plot"),
      N_("N") },
    { "step", 0, 0, G_OPTION_ARG_INT, &o.step,
      N_("Draw the views as after N steps of their schedule (screen styles; default: all)"), N_("N") },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &o.output, N_("The file to write"), N_("FILE") },
    { "device", 0, 0, G_OPTION_ARG_STRING, &o.device, WS_CLI_DEVICE_HELP, N_("ID|FILE") },
    { "metric", 'm', 0, G_OPTION_ARG_STRING, &o.metric,
      N_("What a plot shows: time, bandwidth, sectors (or wavefronts, requests) or coalescing (default: what the "
         "preset's lesson is about)"),
      N_("METRIC") },
  };
  int status;

  for (guint i = 0; pattern_entries[i].long_name; i++)
    g_array_append_val (entries, pattern_entries[i]);
  g_array_append_vals (entries, own, G_N_ELEMENTS (own));
  if (!ws_cli_parse (COMMAND, N_("--view VIEW -o FILE"),
                     N_("Draw a view, a measured plot or a comparison to PNG, SVG or PDF, with no display."),
                     export_description, (GOptionEntry *) entries->data, &argc, &argv))
    status = WS_CLI_USAGE;
  else if (argc > 1)
    status = ws_cli_fail (COMMAND, WS_CLI_USAGE, _("unexpected argument “%s”"), argv[1]);
  else if ((status = run (&o, &job, &error)) != WS_CLI_OK)
    ws_cli_fail (COMMAND, status, "%s", error->message);
  job_clear (&job);
  options_clear (&o);
  return status;
}

#else /* !WS_HAVE_FIGURES */

int
ws_cli_export (int    argc,
               char **argv)
{
  return ws_cli_fail ("export", WS_CLI_USAGE, _("this warpscope-cli was built without cairo and pango: it draws nothing"));
}

#endif
