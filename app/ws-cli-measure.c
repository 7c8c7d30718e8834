/* SPDX-License-Identifier: GPL-3.0-or-later */
/* warpscope-cli measure: one real kernel, or one generated from a pattern.
 * Without a GPU, the bundled recording's numbers, labelled as such. */
#include "ws-config.h"
#include "ws-cli-measuring.h"
#include "ws-cli-kernel.h"

#include <stdio.h>

static const char *const measure_description =
  /* Translators: the help of “warpscope-cli measure --help”; options, values
   * and examples stay as they are */
  N_("Runs a real kernel: its first launch is checked against a CPU reference, then it is\n"
     "warmed up and timed with CUDA events (short kernels in batches), with L2 flushed before\n"
     "each sample unless --hot. Without a GPU, the numbers of the bundled recording are shown,\n"
     "labelled as such, and the exit status is 3.\n"
     "\n"
     "--expr (or --index, --preset with the pattern options) measures a kernel generated from\n"
     "an index expression instead; --kernel FILE.cu[:NAME] a kernel of your own, at the launch\n"
     "its comment gives (--grid, --block and --set change it), checked against the model's\n"
     "reference run of the same launch; with --counters, the counters of each source line too.\n"
     "\n"
     "--gpu measures on another machine: ssh://HOST (the GPU worker started there with ssh),\n"
     "slurm://PARTITION (on a node srun allocates), or --gpu-command CMD; exit status 4 when it\n"
     "cannot be reached.\n"
     "\n"
     "Examples:\n"
     "  warpscope-cli measure coalescing/offset --set offset=4\n"
     "  warpscope-cli measure alignment/elem-size --set elem_size=16 --against-memcpy\n"
     "  warpscope-cli measure --expr 'blockIdx.x * blockDim.x + threadIdx.x' --grid 4096 --block 256\n"
     "  warpscope-cli measure --kernel transpose.cu:transposeNaive --set N=4096 --counters\n"
     "  warpscope-cli measure coalescing/stride --gpu ssh://gpu01 --gpu-index 1\n");

static int
measure_from_recording (const char         *command,
                        const WsKernelInfo *info,
                        GArray             *params,
                        gboolean            json,
                        gboolean            hot,
                        guint               samples,
                        GError             *gpu_error)
{
  g_autoptr (WsRecording) r = ws_recording_load_bundled (NULL);
  const WsMeasurement *m = ws_cli_recorded (r, info->id, params);

  ws_cli_no_gpu (command, gpu_error);
  if (m == NULL)
    return WS_CLI_NO_GPU;
  if (json)
    {
      /* the bundled recording's device and date, marked as not measured here */
      g_autoptr (WsRecording) subset = ws_recording_new_copy_of (r);

      ws_cli_warn_recorded_cold (command, hot, samples, m);
      ws_recording_add (subset, m);
      ws_cli_print_recording_json (subset);
    }
  else
    {
      ws_cli_print_recorded_header (r, hot, samples, m);
      ws_cli_print_measurement (m, ws_recording_get_device (r));
    }
  return WS_CLI_NO_GPU;
}

/* cudaMemcpy of as many bytes as the kernel reads (it writes as many) */
static WsMeasurement *
measure_memcpy (WsSession              *session,
                const WsMeasurement    *kernel,
                const WsMeasureOptions *options,
                WsCliProgress          *progress,
                GError                **error)
{
  g_autoptr (GArray) params = g_array_new (FALSE, TRUE, sizeof (WsParamValue));
  WsParamValue n = { (char *) "N", MAX (kernel->bytes / 8, 1) };
  g_autoptr (WsMeasureRequest) request = NULL;

  g_array_append_val (params, n);
  request = ws_cli_kernel_request ("reference/memcpy", params, options);
  progress->what = "reference/memcpy";
  return ws_cli_run_measure (session, request, error);
}

/* A pattern's generated kernel, or a kernel of one's own (--kernel): read
 * here first, so that what the model refuses (an index out of its array)
 * is said before anything runs. */
static int
measure_pattern (const WsCliPatternOptions *po,
                 const WsMeasureOptions    *options,
                 const WsGpuTarget         *target,
                 gboolean                   json)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WsPattern) pattern = NULL;
  g_autoptr (WsKernelSpec) spec = NULL;
  g_autoptr (WsKernelInstance) instance = NULL;
  g_autoptr (WsSession) session = NULL;
  g_autoptr (WsMeasureRequest) request = NULL;
  g_autoptr (WsMeasurement) m = NULL;
  const WsDeviceInfo *device;
  WsCliProgress progress;

  if (po->kernel)
    {
      if ((spec = ws_cli_kernel_spec (po, &error)) == NULL ||
          (instance = ws_kernel_spec_instantiate (spec, NULL, &error)) == NULL)
        return ws_cli_fail ("measure", WS_CLI_USAGE, "%s", error->message);
    }
  else if ((pattern = ws_cli_pattern_build (po, &error)) == NULL)
    return ws_cli_fail ("measure", WS_CLI_USAGE, "%s", error->message);
  ws_cli_progress_init (&progress, 1);
  session = ws_cli_session_new (&progress, target);
  device = ws_cli_probe (session, &error);
  if (device == NULL)
    return ws_cli_no_gpu ("measure", error);
  progress.what = instance ? ws_kernel_instance_get_kernel_name (instance) : "expr";
  request = ws_measure_request_new ();
  request->pattern = pattern ? ws_pattern_ref (pattern) : NULL;
  request->kernel_text = spec ? ws_kernel_spec_copy (spec) : NULL;
  request->options = *options;
  m = ws_cli_run_measure (session, request, &error);
  ws_cli_progress_clear (&progress);
  if (m == NULL)
    return ws_cli_fail ("measure", ws_cli_failure_status (error), "%s", error->message);
  if (m->warning)
    ws_cli_fail ("measure", 0, _("warning: %s"), m->warning);
  if (json)
    {
      g_autoptr (WsRecording) r = ws_recording_new (device);
      ws_recording_add (r, m);
      ws_cli_print_recording_json (r);
    }
  else
    {
      g_autofree char *where = ws_cli_device_where (device);
      printf ("measured now on %s\n\n", where);
      ws_cli_print_measurement (m, device);
      if (instance && m->line_counters->len > 0)
        ws_cli_kernel_print_lines (instance, m);
    }
  return WS_CLI_OK;
}

static void
print_against_memcpy (const WsMeasurement *kernel,
                      const WsMeasurement *copy)
{
  printf ("\ncudaMemcpy device to device of %" G_GINT64_FORMAT " bytes, in the same run:\n", copy->bytes / 2);
  printf ("  median         %.4f ms  (min %.4f, max %.4f)\n", copy->median_ms, copy->min_ms, copy->max_ms);
  printf ("  bandwidth      %.1f GB/s\n", copy->bandwidth_gbs);
  printf ("%s reaches %.1f %% of cudaMemcpy's bandwidth\n", kernel->id,
          copy->bandwidth_gbs > 0 ? 100 * kernel->bandwidth_gbs / copy->bandwidth_gbs : 0);
}

static int
measure_registered (const char             *id,
                    char                  **sets,
                    const WsMeasureOptions *options,
                    const WsGpuTarget      *target,
                    gboolean                json,
                    gboolean                against_memcpy)
{
  const WsKernelInfo *info = ws_cli_lookup_kernel ("measure", id);
  g_autoptr (GArray) params = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (WsSession) session = NULL;
  g_autoptr (WsMeasureRequest) request = NULL;
  g_autoptr (WsMeasurement) m = NULL;
  g_autoptr (WsMeasurement) copy = NULL;
  const WsDeviceInfo *device;
  WsCliProgress progress;

  if (info == NULL || (params = ws_cli_kernel_params ("measure", info, sets)) == NULL)
    return WS_CLI_USAGE;
  ws_cli_progress_init (&progress, against_memcpy ? 2 : 1);
  session = ws_cli_session_new (&progress, target);
  device = ws_cli_probe (session, &error);
  if (device == NULL && ws_cli_gpu_unreachable (error))
    return ws_cli_no_gpu ("measure", error);
  if (device == NULL)
    return measure_from_recording ("measure", info, params, json, !options->cold, options->samples, error);
  progress.what = info->id;
  request = ws_cli_kernel_request (info->id, params, options);
  m = ws_cli_run_measure (session, request, &error);
  if (m && against_memcpy)
    {
      progress.point++;
      copy = measure_memcpy (session, m, options, &progress, &error);
    }
  ws_cli_progress_clear (&progress);
  if (m == NULL || (against_memcpy && copy == NULL))
    return ws_cli_fail ("measure", ws_cli_failure_status (error), "%s", error->message);
  if (m->warning)
    ws_cli_fail ("measure", 0, _("warning: %s"), m->warning);
  if (json)
    {
      g_autoptr (WsRecording) r = ws_recording_new (device);
      ws_recording_add (r, m);
      if (copy)
        ws_recording_add (r, copy);
      ws_cli_print_recording_json (r);
    }
  else
    {
      g_autofree char *where = ws_cli_device_where (device);

      printf ("measured now on %s\n\n", where);
      ws_cli_print_measurement (m, device);
      if (copy)
        print_against_memcpy (m, copy);
    }
  return WS_CLI_OK;
}

static gboolean
has_pattern_options (const WsCliPatternOptions *po)
{
  return po->preset || po->space || po->access || po->elem_size != WS_CLI_NO_ELEM_SIZE || po->index || po->guard ||
         po->defines || po->block || po->grid || po->base || po->kernel;
}

int
ws_cli_measure (int    argc,
                char **argv)
{
  WsCliPatternOptions po = { 0 };
  WsCliMeasureOptions c = { 0 };
  WsCliGpuOptions gpu = { 0 };
  g_autoptr (WsGpuTarget) target = NULL;
  g_autofree char *expr = NULL;
  gboolean against_memcpy = FALSE;
  g_autofree GOptionEntry *pattern_entries = ws_cli_pattern_entries (&po);
  g_autoptr (GArray) entries = g_array_new (TRUE, TRUE, sizeof (GOptionEntry));
  GOptionEntry own[] = {
    { "samples", 'n', 0, G_OPTION_ARG_INT, &c.samples, N_("Timed samples (default 10, at least 10)"), N_("N") },
    { "cold", 0, 0, G_OPTION_ARG_NONE, &c.cold, N_("Flush L2 before each sample (the default)"), NULL },
    { "hot", 0, 0, G_OPTION_ARG_NONE, &c.hot, N_("Do not flush L2 between samples"), NULL },
    { "json", 0, 0, G_OPTION_ARG_NONE, &c.json, N_("Print a recording (JSON) holding the measurement"), NULL },
    { "counters", 0, 0, G_OPTION_ARG_NONE, &c.counters, N_("Also read hardware counters (CUPTI)"), NULL },
    { "deadline", 0, 0, G_OPTION_ARG_DOUBLE, &c.deadline,
      N_("Stop a kernel of your own whose launch runs longer (default 5 s)"), N_("SECONDS") },
    { "against-memcpy", 0, 0, G_OPTION_ARG_NONE, &against_memcpy,
      N_("Also time cudaMemcpy of the same bytes, and compare"), NULL },
    { "expr", 'e', 0, G_OPTION_ARG_STRING, &expr,
      N_("Measure a kernel generated from this index expression"), N_("EXPR") },
  };
  WsMeasureOptions options;
  int status;

  for (guint i = 0; pattern_entries[i].long_name; i++)
    g_array_append_val (entries, pattern_entries[i]);
  g_array_append_vals (entries, own, G_N_ELEMENTS (own));
  if (!ws_cli_parse_gpu ("measure", N_("[ID]"), N_("Run and time one real kernel (or a generated one) on the GPU."),
                         measure_description, (GOptionEntry *) entries->data, &gpu, &argc, &argv))
    {
      ws_cli_pattern_options_clear (&po);
      ws_cli_gpu_options_clear (&gpu);
      return WS_CLI_USAGE;
    }
  if (!ws_cli_measure_options ("measure", &c, &options) || (target = ws_cli_gpu_target ("measure", &gpu)) == NULL)
    status = WS_CLI_USAGE;
  else if (expr && po.index)
    status = ws_cli_fail ("measure", WS_CLI_USAGE, _("give the expression once, with --expr or --index"));
  else if (argc > 2)
    status = ws_cli_fail ("measure", WS_CLI_USAGE, _("unexpected argument “%s”"), argv[2]);
  else if (argc == 2 && (expr || has_pattern_options (&po)))
    status = ws_cli_fail ("measure", WS_CLI_USAGE,
                          _("give a kernel ID or a pattern (--expr, --index, --preset…), not both"));
  else if (argc == 2)
    status = measure_registered (argv[1], po.sets, &options, target, c.json, against_memcpy);
  else if (expr || has_pattern_options (&po))
    {
      if (expr)
        po.index = g_steal_pointer (&expr);
      status = measure_pattern (&po, &options, target, c.json);
    }
  else
    status = ws_cli_fail ("measure", WS_CLI_USAGE, _("which kernel? (warpscope-cli list shows them)"));
  ws_cli_pattern_options_clear (&po);
  ws_cli_gpu_options_clear (&gpu);
  return status;
}
