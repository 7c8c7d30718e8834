/* SPDX-License-Identifier: GPL-3.0-or-later */
/* warpscope-cli sweep: a kernel over the values of one parameter. */
#include "ws-config.h"
#include "ws-cli-measuring.h"
#include "ws-cli-hierarchy.h"
#include "ws-device-json.h"
#include "ws-truth.h"

#include <math.h>
#include <stdio.h>

/* The profile the model predicts the points with: --device's, else the one
 * shipped for the GPU that measured them (none: no model column). */
static WsDeviceProfile *
sweep_profile (const char         *requested,
               const WsDeviceInfo *measured_on)
{
  g_autofree char *slug = measured_on && measured_on->name ? ws_device_slug (measured_on->name) : NULL;

  if (requested)
    return ws_device_profile_find (requested, NULL);
  return slug ? ws_device_profile_find (slug, NULL) : NULL;
}

static void
print_sweep_table (const char            *param,
                   GPtrArray             *results,
                   const WsDeviceProfile *profile)
{
  printf ("%12s %12s %12s %12s %12s %6s %8s", param, "median ms", "min ms", "max ms", "GB/s", "regs", "warps/SM");
  if (profile)
    printf (" %12s", "model ms");
  printf ("\n");
  for (guint i = 0; i < results->len; i++)
    {
      const WsMeasurement *m = g_ptr_array_index (results, i);
      gint64 v = 0;

      ws_measurement_get_param (m, param, &v);
      printf ("%12" G_GINT64_FORMAT " %12.4f %12.4f %12.4f %12.1f %6d %8d", v, m->median_ms, m->min_ms, m->max_ms,
              m->bandwidth_gbs, m->registers, m->warps_per_sm);
      if (profile)
        {
          double predicted = ws_truth_predict_measurement (m, profile);

          if (isnan (predicted))
            printf (" %12s", "—");
          else
            printf (" %12.4f", predicted);
        }
      printf ("\n");
    }
  if (profile)
    printf ("model: the hierarchy's predicted time on %s (data/devices/%s.json)\n", profile->name, profile->id);
}

static int
sweep_from_recording (const WsKernelInfo *info,
                      GArray             *params,
                      const char         *param,
                      GArray             *values,
                      gboolean            json,
                      const char         *device,
                      gboolean            hot,
                      guint               samples,
                      GError             *gpu_error)
{
  g_autoptr (WsDeviceProfile) profile = NULL;
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
      profile = sweep_profile (device, ws_recording_get_device (r));
      ws_cli_print_recorded_header (r, hot, samples, g_ptr_array_index (found, 0));
      printf ("%s: %u of %u points recorded\n", info->id, found->len, values->len);
      print_sweep_table (param, found, profile);
    }
  return WS_CLI_NO_GPU;
}

typedef struct
{
  WsCliKeeper *keeper;
  WsCliProgress *progress;
} Keeping;

static void
on_point (WsSession           *session,
          guint                done,
          guint                total,
          const WsMeasurement *latest,
          Keeping             *keeping)
{
  /* one that cannot be kept stops the sweep (the keeper's stop) */
  if (latest && !ws_cli_keeper_add (keeping->keeper, latest))
    ws_cli_progress_clear (keeping->progress);
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

static gint
by_param (gconstpointer a,
          gconstpointer b,
          gpointer      param)
{
  gint64 x = 0, y = 0;

  ws_measurement_get_param (*(WsMeasurement **) a, param, &x);
  ws_measurement_get_param (*(WsMeasurement **) b, param, &y);
  return (x > y) - (x < y);
}

/* Every point of this sweep kept (resumed ones and new), in the order of
 * the values: not the other measurements the file holds. */
static void
print_points (const WsKernelInfo     *info,
              GArray                 *params,
              const char             *param,
              GArray                 *values,
              WsCliKeeper            *k,
              const WsMeasureOptions *options,
              const char             *device,
              gboolean                json)
{
  g_autoptr (WsDeviceProfile) profile = NULL;
  g_autoptr (GPtrArray) points = g_ptr_array_new ();
  g_autofree char *where = ws_cli_device_where (ws_recording_get_device (k->recording));

  for (guint i = 0; i < values->len; i++)
    {
      const WsMeasurement *m;

      ws_cli_set_param (params, param, g_array_index (values, gint64, i));
      if ((m = ws_cli_recorded (k->recording, info->id, params)) && !g_ptr_array_find (points, m, NULL))
        g_ptr_array_add (points, (gpointer) m);
    }
  g_ptr_array_sort_with_data (points, by_param, (gpointer) param);
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
    {
      guint resumed = 0;

      /* this sweep's, of the measurements the file held */
      for (guint i = 0; i < points->len; i++)
        for (guint j = 0; j < k->resumed; j++)
          resumed += ws_recording_get_measurement (k->recording, j) == g_ptr_array_index (points, i);
      printf ("%u of the points resumed from %s\n", resumed, g_file_peek_path (k->file));
    }
  profile = sweep_profile (device, ws_recording_get_device (k->recording));
  print_sweep_table (param, points, profile);
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
  g_autoptr (GPtrArray) results = NULL;
  g_autoptr (WsSession) session = NULL;
  g_autoptr (WsMeasureRequest) request = NULL;
  g_autoptr (GArray) left = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr (GError) error = NULL;
  const WsDeviceInfo *device;
  WsCliProgress progress;
  WsCliKeeper keeper = { 0 };
  Keeping keeping = { &keeper, &progress };
  int status = WS_CLI_OK;

  ws_cli_progress_init (&progress, values->len);
  session = ws_cli_session_new (&progress, target);
  device = ws_cli_probe (session, &error);
  if (device == NULL && ws_cli_gpu_unreachable (error))
    return ws_cli_no_gpu ("sweep", error);
  if (device == NULL)
    return sweep_from_recording (info, params, param, values, json, device_id, !options->cold, options->samples,
                                 error);
  if (!ws_cli_keeper_init (&keeper, "sweep", output, resume, device))
    {
      ws_cli_keeper_clear (&keeper);
      return WS_CLI_USAGE;
    }
  /* what the file has already is not measured again */
  for (guint i = 0; i < values->len; i++)
    {
      gint64 v = g_array_index (values, gint64, i);

      ws_cli_set_param (params, param, v);
      if (!ws_cli_keeper_has (&keeper, info->id, params))
        g_array_append_val (left, v);
    }
  progress.what = info->id;
  progress.points = MAX (left->len, 1);
  g_signal_connect (session, "sweep-progress", G_CALLBACK (on_point), &keeping);
  request = ws_cli_kernel_request (info->id, params, options);
  if (left->len > 0)
    results = ws_cli_run_sweep (session, request, param, left, &progress, keeper.stop, &error);
  ws_cli_progress_clear (&progress);
  g_signal_handlers_disconnect_by_data (session, &keeping);
  if (left->len > 0 && results == NULL)
    {
      guint done, kept;

      /* the points measured stay: printed, and kept in the file */
      print_points (info, params, param, values, &keeper, options, device_id, json);
      count_points (&keeper, info, params, param, values, &done, &kept);
      /* a save that failed has said why already */
      if (keeper.save_failed)
        status = WS_CLI_FAILED;
      else
        status = ws_cli_fail ("sweep", ws_cli_failure_status (error), "%s", error->message);
      ws_cli_keeper_tell (&keeper, done, kept, values->len);
    }
  else if (keeper.save_failed)
    {
      guint done, kept;

      /* the last point could not be kept */
      print_points (info, params, param, values, &keeper, options, device_id, json);
      count_points (&keeper, info, params, param, values, &done, &kept);
      ws_cli_keeper_tell (&keeper, done, kept, values->len);
      status = WS_CLI_FAILED;
    }
  else
    print_points (info, params, param, values, &keeper, options, device_id, json);
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
  if (device)
    {
      g_autoptr (WsDeviceProfile) check = ws_device_profile_find (device, &error);

      if (check == NULL)
        return ws_cli_fail ("sweep", WS_CLI_USAGE, "--device: %s", error->message);
    }
  return run_sweep (info, params, param, values, &options, target, output, resume, device, c.json);
}
