/* SPDX-License-Identifier: GPL-3.0-or-later */
/* warpscope-cli export: a figure with no display, drawn by the renderers
 * the program draws with (ui/figures), from the plots and comparisons the
 * program builds (ws-plot.c, ws-compare.c): for slides, papers and course
 * notes made by a script. */
#include "ws-config.h"
#include "ws-cli.h"
#include "ws-file-writer.h"

#if WS_HAVE_FIGURES

#include "ws-cli-export.h"
#include "ws-cli-hierarchy.h"
#include "ws-device-json.h"
#include "ws-plot-topic.h"

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
     "  compare   two to four members side by side over a chart of their medians, the model's\n"
     "            predicted times and the speed-up: --preset or --kernel (if given), then the\n"
     "            --compare list: presets ID[@N][:NAME=VALUE], kernels FILE.cu[:KERNEL][@LINE]\n"
     "  hierarchy what the whole launch moves through L1, L2 and DRAM, as the model has it\n"
     "            on the recording's GPU, beside the hardware counters the recording holds\n"
     "  truth     how close the model is to a GPU, preset by preset, from its truth table:\n"
     "            --device ID (data/truth/ID.json) or a table FILE (warpscope-cli truth --json)\n"
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
     "  warpscope-cli export --view compare --compare transpose.cu:transposeNaive@57,transpose/shared -o mine.png\n"
     "  warpscope-cli export --preset coalescing/stride --view hierarchy -o stride-hierarchy.svg\n"
     "  warpscope-cli export --preset coalescing/strided-sweep --view plot --metric sectors -o sectors.png\n"
     "  warpscope-cli export --preset occupancy/saturation --view occupancy -o occupancy.png\n"
     "  warpscope-cli export --kernel transpose.cu --view listing -o transpose-listing.pdf\n"
     "  warpscope-cli export --kernel transpose.cu --view banks --line 80 -o tile-column.png\n");

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
                     "hierarchy|truth"));
      return WS_CLI_USAGE;
    }
  if (!check_style (o, job, error) || !check_format (o, job, error) || !load_recordings (o, job, error))
    return WS_CLI_USAGE;
  if (g_str_equal (o->view, "truth"))
    return ws_cli_export_truth (o, job, error);
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
    return ws_cli_export_compare (o, job, error);
  if (o->pattern.kernel)
    return ws_cli_export_kernel (o, job, error);
  if (o->line != NO_LINE)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, _("--line goes with --kernel"));
      return WS_CLI_USAGE;
    }
  if (!o->pattern.preset && !o->pattern.index)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, _("which pattern? give --preset ID (or --index EXPR)"));
      return WS_CLI_USAGE;
    }
  if (g_str_equal (o->view, "plot"))
    return ws_cli_export_plot (o, job, error);
  if (g_str_equal (o->view, "hierarchy"))
    return ws_cli_export_hierarchy (o, job, error);
  if (ws_figure_kind_from_string (o->view, &kind))
    return ws_cli_export_figure (o, job, kind, error);
  if (ws_topic_view_from_string (o->view, &topic_view))
    return ws_cli_export_topic (o, job, topic_view, error);
  g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
               _("--view: “%s” is not warp, banks, constant, local, atomics, occupancy, timeline, l2, plot, compare, "
                 "hierarchy or truth"), o->view);
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
      N_("What to draw: warp, banks, constant, local, atomics, occupancy, timeline, l2, plot, compare, hierarchy, "
         "truth, or listing (--kernel)"),
      N_("VIEW") },
    { "compare", 0, 0, G_OPTION_ARG_STRING, &o.compare,
      N_("What to compare (after --preset or --kernel): presets ID[@INSTRUCTION][:NAME=VALUE] and kernels of your own "
         "FILE.cu[:KERNEL][@LINE], e.g. transpose/copy,banks/stride:stride=2,mine.cu:tile@12"), N_("ID,FILE…") },
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
    { "line", 0, 0, G_OPTION_ARG_INT, &o.line,
      N_("With --kernel: the source line whose instruction to draw (--instruction N: the N-th of the line's)"),
      N_("N") },
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
