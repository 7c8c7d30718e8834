/* SPDX-License-Identifier: GPL-3.0-or-later */
/* warpscope-cli record: every kernel and its standard sweep, saved as a
 * recording. */
#include "ws-config.h"
#include "ws-cli-measuring.h"

#include <stdio.h>

typedef struct
{
  const WsKernelInfo *info;
  char *param;                 /* NULL: the defaults */
  gint64 value;
} Point;

static void
point_clear (gpointer data)
{
  g_free (((Point *) data)->param);
}

/* Every kernel at its defaults, then the other points of its sweep. */
static GArray *
suite_points (const char *only)
{
  GArray *points = g_array_new (FALSE, TRUE, sizeof (Point));
  guint n;
  const WsKernelInfo *kernels = ws_gpu_kernels (&n);

  g_array_set_clear_func (points, point_clear);
  for (guint i = 0; i < n; i++)
    {
      const WsKernelInfo *info = &kernels[i];
      Point p = { info, NULL, 0 };

      if (only && !g_str_has_prefix (info->id, only))
        continue;
      g_array_append_val (points, p);
      if (info->sweep_param)
        {
          g_autoptr (GArray) values = ws_sweep_values_parse (info->sweep_values, NULL);
          gint64 def = ws_kernel_info_get_param (info, info->sweep_param)->def;

          g_assert (values != NULL);
          for (guint v = 0; v < values->len; v++)
            if (g_array_index (values, gint64, v) != def)
              {
                Point q = { info, g_strdup (info->sweep_param), g_array_index (values, gint64, v) };
                g_array_append_val (points, q);
              }
        }
    }
  return points;
}

/* Of the suite's points, those measured (now or resumed) and those the file
 * holds: not the file's other measurements. */
static void
tell (WsCliKeeper *keeper,
      GArray      *points)
{
  guint done = 0, kept = 0;

  for (guint i = 0; i < points->len; i++)
    {
      Point *p = &g_array_index (points, Point, i);
      g_autoptr (GArray) params = ws_cli_kernel_params ("record", p->info, NULL);

      if (p->param)
        ws_cli_set_param (params, p->param, p->value);
      done += ws_cli_keeper_has (keeper, p->info->id, params);
      kept += ws_cli_keeper_kept (keeper, p->info->id, params);
    }
  ws_cli_keeper_tell (keeper, done, kept, points->len);
}

/* One measurement a point, each through the session: a point that fails
 * leaves the others standing, but a GPU out of reach stops the run (what
 * it measured is in the file, and --resume goes on). */
static int
record_suite (WsSession              *session,
              WsCliProgress          *progress,
              GArray                 *points,
              WsCliKeeper            *keeper,
              const WsMeasureOptions *options)
{
  g_autoptr (GString) failed = g_string_new (NULL);
  g_autoptr (GError) error = NULL;
  gint64 start = g_get_monotonic_time ();
  guint measured = 0;

  for (guint i = 0; i < points->len; i++)
    {
      Point *p = &g_array_index (points, Point, i);
      g_autoptr (GArray) params = ws_cli_kernel_params ("record", p->info, NULL);
      g_autoptr (WsMeasureRequest) request = NULL;
      g_autoptr (GError) local = NULL;
      g_autoptr (WsMeasurement) m = NULL;

      progress->point = i;
      progress->what = p->info->id;
      if (p->param)
        ws_cli_set_param (params, p->param, p->value);
      if (ws_cli_keeper_has (keeper, p->info->id, params))
        continue;
      request = ws_cli_kernel_request (p->info->id, params, options);
      m = ws_cli_run_measure (session, request, &local);
      if (m == NULL && ws_cli_gpu_unreachable (local))
        {
          ws_cli_progress_clear (progress);
          ws_cli_fail ("record", 0, "%s%s%s: %s", p->info->id, p->param ? " " : "", p->param ? p->param : "",
                       local->message);
          tell (keeper, points);
          return ws_cli_failure_status (local);
        }
      if (m == NULL)
        {
          /* the others are still worth recording; the exit status says it */
          ws_cli_progress_clear (progress);
          ws_cli_fail ("record", 0, "%s%s%s: %s", p->info->id, p->param ? " " : "", p->param ? p->param : "",
                       local->message);
          g_string_append_printf (failed, "%s%s", failed->len ? ", " : "", p->info->id);
          continue;
        }
      if (!ws_cli_keeper_add (keeper, m))
        {
          /* what cannot be kept is not measured on */
          ws_cli_progress_clear (progress);
          tell (keeper, points);
          return WS_CLI_FAILED;
        }
      measured++;
    }
  ws_cli_progress_clear (progress);
  /* saved already, unless there was nothing to measure */
  if (measured == 0 && !ws_recording_save_file (keeper->recording, keeper->file, NULL, &error))
    return ws_cli_fail ("record", WS_CLI_FAILED, "%s", error->message);
  fprintf (stderr, keeper->resumed
                     ? _("warpscope-cli record: %u measurements of %u kernels' points in %.1f s saved to %s "
                         "(some resumed from it)\n")
                     : _("warpscope-cli record: %u measurements of %u kernels' points in %.1f s saved to %s\n"),
           ws_recording_get_n_measurements (keeper->recording), points->len,
           (g_get_monotonic_time () - start) / 1e6, g_file_peek_path (keeper->file));
  if (failed->len)
    return ws_cli_fail ("record", WS_CLI_FAILED, _("these failed and are missing: %s"), failed->str);
  return WS_CLI_OK;
}

int
ws_cli_record (int    argc,
               char **argv)
{
  WsCliMeasureOptions c = { 0 };
  WsCliGpuOptions gpu = { 0 };
  g_autoptr (WsGpuTarget) target = NULL;
  WsCliKeeper keeper = { 0 };
  gboolean resume = FALSE;
  g_autofree char *output = NULL;
  g_autofree char *only = NULL;
  GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, N_("Where to save the recording (JSON)"), N_("FILE") },
    { "only", 0, 0, G_OPTION_ARG_STRING, &only, N_("Only the kernels whose id starts with this"), N_("PREFIX") },
    { "samples", 'n', 0, G_OPTION_ARG_INT, &c.samples, N_("Timed samples per measurement (default 10)"), N_("N") },
    { "hot", 0, 0, G_OPTION_ARG_NONE, &c.hot, N_("Do not flush L2 between samples"), NULL },
    { "resume", 0, 0, G_OPTION_ARG_NONE, &resume, N_("Measure only what FILE lacks, and add it there"), NULL },
    { NULL }
  };
  g_autoptr (GArray) points = NULL;
  g_autoptr (WsSession) session = NULL;
  g_autoptr (GError) error = NULL;
  const WsDeviceInfo *device;
  WsCliProgress progress;
  WsMeasureOptions options;
  int status;

  if (!ws_cli_parse_gpu ("record", N_("-o FILE"), N_("Measure every kernel and its standard sweep, and save a recording."),
                         N_("The recording opens anywhere, with or without a GPU. It is saved after every measurement: "
                         "when the\nrun stops (a lost connection to the GPU's machine), the same command with "
                         "--resume measures the rest."), entries, &gpu, &argc, &argv))
    {
      ws_cli_gpu_options_clear (&gpu);
      return WS_CLI_USAGE;
    }
  target = ws_cli_gpu_target ("record", &gpu);
  ws_cli_gpu_options_clear (&gpu);
  if (target == NULL)
    return WS_CLI_USAGE;
  if (argc > 1)
    return ws_cli_fail ("record", WS_CLI_USAGE, _("unexpected argument “%s”"), argv[1]);
  if (output == NULL)
    return ws_cli_fail ("record", WS_CLI_USAGE, _("where to? give -o FILE"));
  if (!ws_cli_measure_options ("record", &c, &options))
    return WS_CLI_USAGE;
  points = suite_points (only);
  if (points->len == 0)
    return ws_cli_fail ("record", WS_CLI_USAGE, _("--only: no kernel id starts with “%s”"), only);
  ws_cli_progress_init (&progress, points->len);
  session = ws_cli_session_new (&progress, target);
  device = ws_cli_probe (session, &error);
  if (device == NULL)
    return ws_cli_no_gpu ("record", error);
  if (!ws_cli_keeper_init (&keeper, "record", output, resume, device))
    {
      ws_cli_keeper_clear (&keeper);
      return WS_CLI_USAGE;
    }
  status = record_suite (session, &progress, points, &keeper, &options);
  ws_cli_keeper_clear (&keeper);
  return status;
}
