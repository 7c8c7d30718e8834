/* SPDX-License-Identifier: GPL-3.0-or-later */
/* warpscope-cli sweep: a kernel over the values of one parameter. */
#include "ws-config.h"
#include "ws-cli-measuring.h"
#include "ws-cli-hierarchy.h"

#include <stdio.h>

static int
sweep_from_recording (WsSession          *session,
                      const WsKernelInfo *info,
                      GArray             *params,
                      const char         *param,
                      GArray             *values,
                      gboolean            json,
                      gboolean            hot,
                      guint               samples,
                      GError             *gpu_error)
{
  g_autoptr (WsRecording) r = ws_recording_load_bundled (NULL);
  g_autoptr (GPtrArray) found = g_ptr_array_new ();

  ws_cli_no_gpu ("sweep", gpu_error);
  for (guint i = 0; r && i < values->len; i++)
    {
      const WsMeasurement *m;

      ws_cli_set_param (params, param, g_array_index (values, gint64, i));
      if ((m = ws_cli_recorded (r, info->id, params)))
        g_ptr_array_add (found, (gpointer) m);
    }
  if (found->len == 0)
    return WS_CLI_NO_GPU;
  if (json)
    {
      /* the bundled recording's device and date, marked as not measured here */
      g_autoptr (WsRecording) subset = ws_recording_new_copy_of (r);

      ws_cli_warn_recorded_cold ("sweep", hot, samples, g_ptr_array_index (found, 0));
      for (guint i = 0; i < found->len; i++)
        ws_recording_add (subset, g_ptr_array_index (found, i));
      ws_cli_print_recording_json (subset);
    }
  else
    {
      /* the model of the GPU the points were recorded on */
      ws_session_set_recording (session, r, NULL);
      ws_cli_print_recorded_header (r, hot, samples, g_ptr_array_index (found, 0));
      printf ("%s: %u of %u points recorded\n", info->id, found->len, values->len);
      ws_cli_print_sweep_table (param, found, session);
    }
  return WS_CLI_NO_GPU;
}

typedef struct
{
  WsCliKeeper *keeper;
  WsCliProgress *progress;
} Keeping;

static void
on_point (WsSweep             *sweep,
          const WsMeasurement *point,
          Keeping             *keeping)
{
  /* one that cannot be kept stops the sweep */
  if (!ws_cli_keeper_add (keeping->keeper, point))
    {
      ws_cli_progress_clear (keeping->progress);
      ws_sweep_cancel (sweep);
    }
}

/* This sweep's points measured (now or before, resumed) and those of them
 * the file holds: not the file's other measurements. */
static void
count_points (WsCliKeeper        *k,
              const WsKernelInfo *info,
              GArray             *params,
              const char         *param,
              GArray             *values,
              guint              *done,
              guint              *kept)
{
  *done = *kept = 0;
  for (guint i = 0; i < values->len; i++)
    {
      ws_cli_set_param (params, param, g_array_index (values, gint64, i));
      *done += ws_cli_keeper_has (k, info->id, params);
      *kept += ws_cli_keeper_kept (k, info->id, params);
    }
}

/* Every point of the sweep (resumed ones and new, in the order of the
 * values): not the other measurements the file holds. */
static void
print_points (WsSession              *session,
              WsSweep                *sweep,
              guint                   resumed,
              const WsKernelInfo     *info,
              WsCliKeeper            *k,
              const WsMeasureOptions *options,
              gboolean                json)
{
  GPtrArray *points = ws_sweep_get_points (sweep);
  g_autofree char *where = ws_cli_device_where (ws_recording_get_device (k->recording));

  if (json)
    {
      g_autoptr (WsRecording) swept = ws_recording_new (ws_recording_get_device (k->recording));

      for (guint i = 0; i < points->len; i++)
        ws_recording_add (swept, g_ptr_array_index (points, i));
      ws_cli_print_recording_json (swept);
      return;
    }
  printf ("%s, measured now on %s (%s)\n", info->id, where,
          options->cold ? "cold: L2 flushed before each sample" : "hot");
  if (k->resumed)
    printf ("%u of the points resumed from %s\n", resumed, g_file_peek_path (k->file));
  ws_cli_print_sweep_table (ws_sweep_get_param (sweep), points, session);
}

static int
run_sweep (const WsKernelInfo     *info,
           GArray                 *params,
           const char             *param,
           GArray                 *values,
           const WsMeasureOptions *options,
           const WsGpuTarget      *target,
           const char             *output,
           gboolean                resume,
           const char             *device_id,
           gboolean                json)
{
  g_autoptr (WsSession) session = NULL;
  g_autoptr (WsMeasureRequest) request = NULL;
  g_autoptr (WsSweep) sweep = NULL;
  g_autoptr (GError) probe_error = NULL;
  const GError *error;
  const WsDeviceInfo *device;
  guint resumed = 0;
  WsCliProgress progress;
  WsCliKeeper keeper = { 0 };
  Keeping keeping = { &keeper, &progress };
  int status = WS_CLI_OK;

  ws_cli_progress_init (&progress, values->len);
  session = ws_cli_session_new (&progress, target);
  if (device_id && !ws_session_choose_profile (session, device_id, &probe_error))
    return ws_cli_fail ("sweep", WS_CLI_USAGE, "--device: %s", probe_error->message);
  device = ws_cli_probe (session, &probe_error);
  if (device == NULL && ws_cli_gpu_unreachable (probe_error))
    return ws_cli_no_gpu ("sweep", probe_error);
  if (device == NULL)
    return sweep_from_recording (session, info, params, param, values, json, !options->cold, options->samples,
                                 probe_error);
  if (!ws_cli_keeper_init (&keeper, "sweep", output, resume, device))
    {
      ws_cli_keeper_clear (&keeper);
      return WS_CLI_USAGE;
    }
  request = ws_cli_kernel_request (info->id, params, options);
  sweep = ws_session_new_sweep (session, request, param, values);
  /* what the file has already is not measured again */
  for (guint i = 0; i < values->len; i++)
    {
      const WsMeasurement *m;

      ws_cli_set_param (params, param, g_array_index (values, gint64, i));
      if (ws_cli_keeper_has (&keeper, info->id, params) && (m = ws_cli_recorded (keeper.recording, info->id, params)))
        {
          ws_sweep_add_known (sweep, m);
          resumed++;
        }
    }
  progress.what = info->id;
  progress.points = MAX (values->len - resumed, 1);
  progress.sweep_start = progress.point;
  g_signal_connect (sweep, "point", G_CALLBACK (on_point), &keeping);
  ws_sweep_start (sweep);
  while (ws_sweep_get_running (sweep))
    g_main_context_iteration (NULL, TRUE);
  progress.sweep_start = G_MAXUINT;
  ws_cli_progress_clear (&progress);
  g_signal_handlers_disconnect_by_data (sweep, &keeping);
  error = ws_sweep_get_error (sweep);
  print_points (session, sweep, resumed, info, &keeper, options, json);
  if (error || keeper.save_failed)
    {
      guint done, kept;

      /* the points measured stay: printed, and kept in the file; a save
       * that failed has said why already */
      count_points (&keeper, info, params, param, values, &done, &kept);
      if (keeper.save_failed)
        status = WS_CLI_FAILED;
      else
        status = ws_cli_fail ("sweep", ws_cli_failure_status (error), "%s", error->message);
      ws_cli_keeper_tell (&keeper, done, kept, values->len);
    }
  ws_cli_keeper_clear (&keeper);
  return status;
}

int
ws_cli_sweep (int    argc,
              char **argv)
{
  WsCliMeasureOptions c = { 0 };
  WsCliGpuOptions gpu = { 0 };
  g_autoptr (WsGpuTarget) target = NULL;
  g_autofree char *output = NULL;
  gboolean resume = FALSE;
  g_autofree char *param = NULL;
  g_autofree char *values_text = NULL;
  g_auto (GStrv) sets = NULL;
  g_autofree char *device = NULL;
  GOptionEntry entries[] = {
    { "param", 'p', 0, G_OPTION_ARG_STRING, &param,
      N_("The parameter to vary (default: the kernel's standard sweep)"), N_("NAME") },
    { "values", 'v', 0, G_OPTION_ARG_STRING, &values_text, N_("Its values: A:B[:STEP] or A,B,C"), N_("VALUES") },
    { "set", 's', 0, G_OPTION_ARG_STRING_ARRAY, &sets,
      N_("Set another parameter (repeatable)"), N_("NAME=VALUE") },
    { "samples", 'n', 0, G_OPTION_ARG_INT, &c.samples, N_("Timed samples per point (default 10)"), N_("N") },
    { "cold", 0, 0, G_OPTION_ARG_NONE, &c.cold, N_("Flush L2 before each sample (the default)"), NULL },
    { "hot", 0, 0, G_OPTION_ARG_NONE, &c.hot, N_("Do not flush L2 between samples"), NULL },
    { "json", 0, 0, G_OPTION_ARG_NONE, &c.json, N_("Print a recording (JSON) of the points"), NULL },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
      N_("Also keep the points in this recording, saved after each"),
      N_("FILE") },
    { "resume", 0, 0, G_OPTION_ARG_NONE, &resume, N_("Measure only the points the -o FILE lacks"), NULL },
    { "device", 0, 0, G_OPTION_ARG_STRING, &device,
      N_("Device profile for the hierarchy and the time: an id of data/devices/ (nvidia-h200, "
         "nvidia-h100-80gb-hbm3) or a file (default: the bundled recording's device) for the model's column"),
      N_("ID|FILE") },
    { NULL }
  };
  const WsKernelInfo *info;
  g_autoptr (GArray) params = NULL;
  g_autoptr (GArray) values = NULL;
  g_autoptr (GError) error = NULL;
  WsMeasureOptions options;

  if (!ws_cli_parse_gpu ("sweep", N_("ID"), N_("Measure a kernel over the values of one parameter."),
                         N_("A sweep that stops (a lost connection to the GPU's machine) keeps the points it measured: "
                         "with -o FILE\nthey are saved as they come, and the same command with --resume measures the "
                         "rest.\n\n"
                         "Examples:\n"
                         "  warpscope-cli sweep coalescing/strided-sweep --param stride --values 1:32\n"
                         "  warpscope-cli sweep banks/stride --gpu ssh://gpu01 -o banks.json --resume\n"),
                         entries, &gpu, &argc, &argv))
    {
      ws_cli_gpu_options_clear (&gpu);
      return WS_CLI_USAGE;
    }
  target = ws_cli_gpu_target ("sweep", &gpu);
  ws_cli_gpu_options_clear (&gpu);
  if (target == NULL)
    return WS_CLI_USAGE;
  if (argc < 2)
    return ws_cli_fail ("sweep", WS_CLI_USAGE, _("which kernel? (warpscope-cli list shows them)"));
  if (argc > 2)
    return ws_cli_fail ("sweep", WS_CLI_USAGE, _("unexpected argument “%s”"), argv[2]);
  if (!ws_cli_measure_options ("sweep", &c, &options) || (info = ws_cli_lookup_kernel ("sweep", argv[1])) == NULL)
    return WS_CLI_USAGE;
  if (param == NULL && info->sweep_param == NULL)
    return ws_cli_fail ("sweep", WS_CLI_USAGE, _("%s has no standard sweep: give --param and --values"), info->id);
  if (param == NULL)
    param = g_strdup (info->sweep_param);
  if (values_text == NULL && g_strcmp0 (param, info->sweep_param) != 0)
    return ws_cli_fail ("sweep", WS_CLI_USAGE, _("--values: which values of %s?"), param);
  if (ws_kernel_info_get_param (info, param) == NULL)
    return ws_cli_fail ("sweep", WS_CLI_USAGE, _("--param: the kernel %s has no parameter “%s”"), info->id, param);
  values = ws_sweep_values_parse (values_text ? values_text : info->sweep_values, &error);
  if (values == NULL)
    return ws_cli_fail ("sweep", WS_CLI_USAGE, "--values: %s", error->message);
  if ((params = ws_cli_kernel_params ("sweep", info, sets)) == NULL)
    return WS_CLI_USAGE;
  return run_sweep (info, params, param, values, &options, target, output, resume, device, c.json);
}
