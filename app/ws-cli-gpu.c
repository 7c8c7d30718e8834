/* SPDX-License-Identifier: GPL-3.0-or-later */
/* warpscope-cli device, list, measure, sweep and record: the real kernels.
 * Measurements are taken here and now; numbers from the bundled recording
 * are printed only when there is no GPU, and say where they come from. */
#include "ws-config.h"
#include "ws-cli.h"
#include "ws-gpu.h"
#include "ws-presets.h"
#include "ws-recording.h"

#include <json-glib/json-glib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* ------------------------------------------------------------------ */
/* Progress on a terminal                                             */
/* ------------------------------------------------------------------ */

typedef struct
{
  gboolean tty;
  const char *what;          /* the kernel being measured */
  guint point, points;       /* measurements done of all */
  gint64 last_us;
} Progress;

static void
progress_init (Progress *p,
               guint     points)
{
  memset (p, 0, sizeof *p);
  p->tty = isatty (STDERR_FILENO);
  p->points = MAX (points, 1);
}

static void
progress_draw (Progress *p,
               guint     done,
               guint     total)
{
  double fraction = (p->point + (total ? (double) done / total : 0)) / p->points;
  char bar[31];
  gint64 now = g_get_monotonic_time ();
  guint filled = (guint) (fraction * 30);

  if (!p->tty || (now - p->last_us < 50000 && done != total))
    return;
  p->last_us = now;
  memset (bar, '#', filled);
  memset (bar + filled, '.', 30 - filled);
  bar[30] = '\0';
  fprintf (stderr, "\r[%s] %3d %%  %u/%u  %-40.40s", bar, (int) (fraction * 100), MIN (p->point + 1, p->points),
           p->points, p->what ? p->what : "");
  fflush (stderr);
}

static void
progress_sample (guint    done,
                 guint    total,
                 gpointer data)
{
  progress_draw (data, done, total);
}

static void
progress_clear (Progress *p)
{
  if (p->tty)
    fprintf (stderr, "\r%100s\r", "");
}

/* ------------------------------------------------------------------ */
/* Printing                                                           */
/* ------------------------------------------------------------------ */

static char *
format_bytes (gint64 bytes)
{
  g_autofree char *size = g_format_size_full (bytes, G_FORMAT_SIZE_IEC_UNITS);
  return g_strdup_printf ("%" G_GINT64_FORMAT " (%s)", bytes, size);
}

static void
print_device (const WsDeviceInfo *d)
{
  g_autofree char *mem = format_bytes (d->global_mem_bytes);
  g_autofree char *l2 = format_bytes (d->l2_bytes);

  printf ("%s\n", d->name);
  printf ("  compute capability   %d.%d (sm_%d%d)\n", d->cc_major, d->cc_minor, d->cc_major, d->cc_minor);
  printf ("  SMs                  %d\n", d->sm_count);
  printf ("  memory               %s\n", mem);
  printf ("  L2                   %s\n", l2);
  printf ("  shared memory        %" G_GINT64_FORMAT " bytes per SM, %" G_GINT64_FORMAT " per block (opt-in)\n",
          d->shared_per_sm, d->shared_per_block_optin);
  printf ("  registers            %d per SM\n", d->registers_per_sm);
  printf ("  residency            %d threads, %d blocks per SM\n", d->max_threads_per_sm, d->max_blocks_per_sm);
  printf ("  SM clock             %d MHz (maximum)\n", d->sm_clock_mhz);
  printf ("  memory               %d MHz, %d-bit bus: %.0f GB/s peak\n", d->mem_clock_mhz, d->mem_bus_bits,
          d->peak_bandwidth_gbs);
  printf ("  driver, runtime      CUDA %s, CUDA %s\n", d->driver_version, d->runtime_version);
}

static void
print_measurement (const WsMeasurement *m,
                   const WsDeviceInfo  *d)
{
  printf ("%s\n", m->id);
  printf ("  %s\n", m->description ? m->description : "");
  printf ("  samples        %u, %s\n", m->samples_ms->len,
          m->cold ? "cold (L2 flushed before each)" : "hot (L2 as the previous launch left it)");
  printf ("  median         %.4f ms  (min %.4f, max %.4f)\n", m->median_ms, m->min_ms, m->max_ms);
  if (m->bytes > 0)
    {
      g_autofree char *bytes = format_bytes (m->bytes);
      printf ("  bytes          %s\n", bytes);
      if (d && d->peak_bandwidth_gbs > 0)
        printf ("  bandwidth      %.1f GB/s (%.0f %% of the %.0f GB/s peak)\n", m->bandwidth_gbs,
                100 * m->bandwidth_gbs / d->peak_bandwidth_gbs, d->peak_bandwidth_gbs);
      else
        printf ("  bandwidth      %.1f GB/s\n", m->bandwidth_gbs);
    }
  if (m->sm_clock_mhz)
    printf ("  SM clock       %d MHz (measured after the samples)\n", m->sm_clock_mhz);
  if (m->registers || m->blocks_per_sm)
    {
      printf ("  registers      %d per thread; local %d bytes, static shared %d bytes\n",
              m->registers, m->local_bytes, m->shared_bytes);
      printf ("  occupancy      %d blocks, %d warps per SM\n", m->blocks_per_sm, m->warps_per_sm);
    }
  printf ("  verified       %s\n", m->verified ? "yes, against a CPU reference" : "no");
  for (guint i = 0; i < m->counters->len; i++)
    {
      const WsCounter *c = &g_array_index (m->counters, WsCounter, i);
      printf ("  %-60s %.0f\n", c->name, c->value);
    }
  if (m->warning)
    printf ("  warning        %s\n", m->warning);
}

static void
print_recording_json (WsRecording *r)
{
  g_autofree char *data = ws_recording_to_data (r, NULL);

  printf ("%s\n", data);
}

/* ------------------------------------------------------------------ */
/* No GPU: the reason, and what the bundled recording holds           */
/* ------------------------------------------------------------------ */

static gboolean
params_match (const WsMeasurement *m,
              GArray              *params)
{
  for (guint i = 0; i < params->len; i++)
    {
      const WsParamValue *p = &g_array_index (params, WsParamValue, i);
      gint64 v;

      if (!ws_measurement_get_param (m, p->name, &v) || v != p->value)
        return FALSE;
    }
  return TRUE;
}

/* The recorded measurements of id whose parameters are params (all of a
 * kernel's, defaults included), one per entry of points, or NULL. */
static const WsMeasurement *
recorded (WsRecording *r,
          const char  *id,
          GArray      *params)
{
  g_autoptr (GPtrArray) found = r ? ws_recording_find (r, id) : NULL;

  for (guint i = 0; found && i < found->len; i++)
    if (params_match (g_ptr_array_index (found, i), params))
      return g_ptr_array_index (found, i);
  return NULL;
}

static void
print_recorded_header (WsRecording *r)
{
  const WsDeviceInfo *d = ws_recording_get_device (r);
  g_autofree char *date = g_date_time_format (ws_recording_get_date (r), "%Y-%m-%d");

  printf ("NOT MEASURED HERE: numbers from the recording that ships with Warpscope,\n"
          "made on %s (sm_%d%d, CUDA %s) on %s by Warpscope %s.\n\n",
          d->name, d->cc_major, d->cc_minor, d->driver_version, date, ws_recording_get_program_version (r));
}

static int
no_gpu (const char *command,
        GError     *error)
{
  return ws_cli_fail (command, WS_CLI_NO_GPU, "no usable GPU: %s", error->message);
}

/* ------------------------------------------------------------------ */
/* Options shared by measure, sweep and record                        */
/* ------------------------------------------------------------------ */

typedef struct
{
  int samples;
  gboolean cold;
  gboolean hot;
  gboolean json;
  gboolean counters;
} CommonOptions;

static gboolean
measure_options (const char             *command,
                 const CommonOptions    *c,
                 WsMeasureOptions       *options)
{
  *options = WS_MEASURE_OPTIONS_DEFAULT;
  if (c->cold && c->hot)
    {
      ws_cli_fail (command, WS_CLI_USAGE, "--cold and --hot contradict each other");
      return FALSE;
    }
  if (c->samples != 0 && c->samples < 10)
    {
      ws_cli_fail (command, WS_CLI_USAGE, "--samples: %d is too few; a measurement takes at least 10", c->samples);
      return FALSE;
    }
  if (c->samples)
    options->samples = (guint) c->samples;
  options->cold = !c->hot;
  options->counters = c->counters;
  return TRUE;
}

/* Every parameter of the kernel: its default, or what --set says. */
static GArray *
kernel_params (const char         *command,
               const WsKernelInfo *info,
               char              **sets)
{
  g_autoptr (GArray) params = g_array_new (FALSE, TRUE, sizeof (WsParamValue));

  for (guint i = 0; i < info->n_params; i++)
    {
      WsParamValue p = { (char *) info->params[i].name, info->params[i].def };
      g_array_append_val (params, p);
    }
  for (guint s = 0; sets && sets[s]; s++)
    {
      g_autoptr (GError) error = NULL;
      g_autofree char *name = NULL;
      gint64 value;
      guint i;

      if (!ws_cli_parse_assignment (sets[s], &name, &value, &error))
        {
          ws_cli_fail (command, WS_CLI_USAGE, "%s", error->message);
          return NULL;
        }
      for (i = 0; i < params->len; i++)
        if (strcmp (g_array_index (params, WsParamValue, i).name, name) == 0)
          break;
      if (i == params->len)
        {
          ws_cli_fail (command, WS_CLI_USAGE, "--set: the kernel %s has no parameter “%s” (see warpscope-cli list)",
                       info->id, name);
          return NULL;
        }
      g_array_index (params, WsParamValue, i).value = value;
    }
  return g_steal_pointer (&params);
}

static const WsKernelInfo *
lookup_kernel (const char *command,
               const char *id)
{
  const WsKernelInfo *info = ws_gpu_kernel_lookup (id);

  if (info == NULL)
    ws_cli_fail (command, WS_CLI_USAGE, "no kernel “%s” (warpscope-cli list shows them)", id);
  return info;
}

static int
failure_status (const GError *error)
{
  if (error->domain == WS_GPU_ERROR &&
      (error->code == WS_GPU_ERROR_INVALID_PARAM || error->code == WS_GPU_ERROR_UNKNOWN_KERNEL))
    return WS_CLI_USAGE;
  if (error->domain == WS_GPU_ERROR &&
      (error->code == WS_GPU_ERROR_NOT_BUILT || error->code == WS_GPU_ERROR_NO_DRIVER ||
       error->code == WS_GPU_ERROR_DRIVER_TOO_OLD || error->code == WS_GPU_ERROR_NO_DEVICE ||
       error->code == WS_GPU_ERROR_UNSUPPORTED))
    return WS_CLI_NO_GPU;
  return WS_CLI_FAILED;
}

/* ------------------------------------------------------------------ */
/* device and list                                                    */
/* ------------------------------------------------------------------ */

static JsonNode *
device_json (const WsDeviceInfo *d)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();

#define S(NAME) json_builder_set_member_name (b, #NAME); json_builder_add_string_value (b, d->NAME);
#define I(NAME) json_builder_set_member_name (b, #NAME); json_builder_add_int_value (b, d->NAME);
  json_builder_begin_object (b);
  S (name) I (cc_major) I (cc_minor) I (sm_count) I (global_mem_bytes) I (l2_bytes) I (shared_per_sm)
  I (shared_per_block_optin) I (registers_per_sm) I (max_threads_per_sm) I (max_blocks_per_sm)
  I (sm_clock_mhz) I (mem_clock_mhz) I (mem_bus_bits)
  json_builder_set_member_name (b, "peak_bandwidth_gbs");
  json_builder_add_double_value (b, d->peak_bandwidth_gbs);
  S (driver_version) S (runtime_version)
  json_builder_end_object (b);
#undef S
#undef I
  return json_builder_get_root (b);
}

static void
print_json_node (JsonNode *node)
{
  g_autoptr (JsonGenerator) gen = json_generator_new ();
  g_autofree char *text = NULL;

  json_generator_set_root (gen, node);
  json_generator_set_pretty (gen, TRUE);
  text = json_generator_to_data (gen, NULL);
  printf ("%s\n", text);
}

int
ws_cli_device (int    argc,
               char **argv)
{
  gboolean json = FALSE;
  GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "Print one JSON object", NULL },
    { NULL }
  };
  g_autoptr (WsDeviceInfo) info = NULL;
  g_autoptr (GError) error = NULL;

  if (!ws_cli_parse ("device", NULL, "Describe the GPU, or say why there is none.",
                     "Exit status 3 when there is no usable GPU; the reason is on stderr.", entries, &argc, &argv))
    return WS_CLI_USAGE;
  if (argc > 1)
    return ws_cli_fail ("device", WS_CLI_USAGE, "unexpected argument “%s”", argv[1]);
  info = ws_gpu_probe (&error);
  if (info == NULL)
    return no_gpu ("device", error);
  if (json)
    {
      g_autoptr (JsonNode) node = device_json (info);
      print_json_node (node);
    }
  else
    {
      print_device (info);
      printf ("  this build           %s\n", ws_gpu_build_description ());
    }
  return WS_CLI_OK;
}

int
ws_cli_list (int    argc,
             char **argv)
{
  guint n;
  const WsKernelInfo *kernels = ws_gpu_kernels (&n);

  if (!ws_cli_parse ("list", NULL, "List the real kernels, with their parameters and standard sweeps.",
                     NULL, (GOptionEntry[]) { { NULL } }, &argc, &argv))
    return WS_CLI_USAGE;
  if (argc > 1)
    return ws_cli_fail ("list", WS_CLI_USAGE, "unexpected argument “%s”", argv[1]);
  if (!ws_gpu_is_built ())
    printf ("(this build has no CUDA backend: these kernels can be read from recordings only)\n\n");
  for (guint i = 0; i < n; i++)
    {
      printf ("%-34s %s\n", kernels[i].id, kernels[i].title);
      for (guint j = 0; j < kernels[i].n_params; j++)
        {
          const WsKernelParam *p = &kernels[i].params[j];
          printf ("    %-10s = %-10" G_GINT64_FORMAT " %" G_GINT64_FORMAT " to %" G_GINT64_FORMAT ": %s\n",
                  p->name, p->def, p->min, p->max, p->description);
        }
      if (kernels[i].sweep_param)
        printf ("    sweep: %s over %s\n", kernels[i].sweep_param, kernels[i].sweep_values);
    }
  return WS_CLI_OK;
}

/* ------------------------------------------------------------------ */
/* measure                                                            */
/* ------------------------------------------------------------------ */

static const char measure_description[] =
  "Runs a real kernel: its first launch is checked against a CPU reference, then it is\n"
  "warmed up and timed with CUDA events (short kernels in batches), with L2 flushed before\n"
  "each sample unless --hot. Without a GPU, the numbers of the bundled recording are shown,\n"
  "labelled as such, and the exit status is 3.\n"
  "\n"
  "--expr (or --index, --preset with the pattern options) measures a kernel generated from\n"
  "an index expression instead.\n"
  "\n"
  "Examples:\n"
  "  warpscope-cli measure coalescing/offset --set offset=4\n"
  "  warpscope-cli measure alignment/elem-size --set elem_size=16 --against-memcpy\n"
  "  warpscope-cli measure --expr 'blockIdx.x * blockDim.x + threadIdx.x' --grid 4096 --block 256\n";

static int
measure_from_recording (const char         *command,
                        const WsKernelInfo *info,
                        GArray             *params,
                        gboolean            json,
                        GError             *gpu_error)
{
  g_autoptr (WsRecording) r = ws_recording_load_bundled (NULL);
  const WsMeasurement *m = recorded (r, info->id, params);

  no_gpu (command, gpu_error);
  if (m == NULL)
    return WS_CLI_NO_GPU;
  if (json)
    {
      g_autoptr (WsRecording) subset = ws_recording_new (ws_recording_get_device (r));
      ws_recording_add (subset, m);
      print_recording_json (subset);
    }
  else
    {
      print_recorded_header (r);
      print_measurement (m, ws_recording_get_device (r));
    }
  return WS_CLI_NO_GPU;
}

static WsMeasurement *
measure_kernel (const char             *id,
                GArray                 *params,
                const WsMeasureOptions *options,
                Progress               *progress,
                GError                **error)
{
  progress->what = id;
  return ws_gpu_measure (id, (const WsParamValue *) params->data, params->len, options, NULL,
                         progress_sample, progress, error);
}

/* cudaMemcpy of as many bytes as the kernel reads (it writes as many) */
static WsMeasurement *
measure_memcpy (const WsMeasurement    *kernel,
                const WsMeasureOptions *options,
                Progress               *progress,
                GError                **error)
{
  g_autoptr (GArray) params = g_array_new (FALSE, TRUE, sizeof (WsParamValue));
  WsParamValue n = { (char *) "N", MAX (kernel->bytes / 8, 1) };

  g_array_append_val (params, n);
  return measure_kernel ("reference/memcpy", params, options, progress, error);
}

static int
measure_pattern (const WsCliPatternOptions *po,
                 const WsMeasureOptions    *options,
                 gboolean                   json)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WsPattern) pattern = ws_cli_pattern_build (po, &error);
  g_autoptr (WsDeviceInfo) device = NULL;
  g_autoptr (WsMeasurement) m = NULL;
  Progress progress;

  if (pattern == NULL)
    return ws_cli_fail ("measure", WS_CLI_USAGE, "%s", error->message);
  device = ws_gpu_probe (&error);
  if (device == NULL)
    return no_gpu ("measure", error);
  progress_init (&progress, 1);
  progress.what = "expr";
  m = ws_gpu_measure_pattern (pattern, options, NULL, progress_sample, &progress, &error);
  progress_clear (&progress);
  if (m == NULL)
    return ws_cli_fail ("measure", failure_status (error), "%s", error->message);
  if (json)
    {
      g_autoptr (WsRecording) r = ws_recording_new (device);
      ws_recording_add (r, m);
      print_recording_json (r);
    }
  else
    print_measurement (m, device);
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
                    gboolean                json,
                    gboolean                against_memcpy)
{
  const WsKernelInfo *info = lookup_kernel ("measure", id);
  g_autoptr (GArray) params = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (WsDeviceInfo) device = NULL;
  g_autoptr (WsMeasurement) m = NULL;
  g_autoptr (WsMeasurement) copy = NULL;
  Progress progress;

  if (info == NULL || (params = kernel_params ("measure", info, sets)) == NULL)
    return WS_CLI_USAGE;
  device = ws_gpu_probe (&error);
  if (device == NULL)
    return measure_from_recording ("measure", info, params, json, error);
  progress_init (&progress, against_memcpy ? 2 : 1);
  m = measure_kernel (id, params, options, &progress, &error);
  if (m && against_memcpy)
    {
      progress.point++;
      copy = measure_memcpy (m, options, &progress, &error);
    }
  progress_clear (&progress);
  if (m == NULL || (against_memcpy && copy == NULL))
    return ws_cli_fail ("measure", failure_status (error), "%s", error->message);
  if (m->warning)
    ws_cli_fail ("measure", 0, "warning: %s", m->warning);
  if (json)
    {
      g_autoptr (WsRecording) r = ws_recording_new (device);
      ws_recording_add (r, m);
      if (copy)
        ws_recording_add (r, copy);
      print_recording_json (r);
    }
  else
    {
      printf ("measured now on %s\n\n", device->name);
      print_measurement (m, device);
      if (copy)
        print_against_memcpy (m, copy);
    }
  return WS_CLI_OK;
}

static gboolean
has_pattern_options (const WsCliPatternOptions *po)
{
  return po->preset || po->space || po->access || po->elem_size || po->index || po->guard ||
         po->defines || po->block || po->grid || po->base;
}

int
ws_cli_measure (int    argc,
                char **argv)
{
  WsCliPatternOptions po = { 0 };
  CommonOptions c = { 0 };
  g_autofree char *expr = NULL;
  gboolean against_memcpy = FALSE;
  g_autofree GOptionEntry *pattern_entries = ws_cli_pattern_entries (&po);
  g_autoptr (GArray) entries = g_array_new (TRUE, TRUE, sizeof (GOptionEntry));
  GOptionEntry own[] = {
    { "samples", 'n', 0, G_OPTION_ARG_INT, &c.samples, "Timed samples (default 10, at least 10)", "N" },
    { "cold", 0, 0, G_OPTION_ARG_NONE, &c.cold, "Flush L2 before each sample (the default)", NULL },
    { "hot", 0, 0, G_OPTION_ARG_NONE, &c.hot, "Do not flush L2 between samples", NULL },
    { "json", 0, 0, G_OPTION_ARG_NONE, &c.json, "Print a recording (JSON) holding the measurement", NULL },
    { "counters", 0, 0, G_OPTION_ARG_NONE, &c.counters, "Also read hardware counters (CUPTI)", NULL },
    { "against-memcpy", 0, 0, G_OPTION_ARG_NONE, &against_memcpy,
      "Also time cudaMemcpy of the same bytes, and compare", NULL },
    { "expr", 'e', 0, G_OPTION_ARG_STRING, &expr, "Measure a kernel generated from this index expression", "EXPR" },
  };
  WsMeasureOptions options;
  int status;

  for (guint i = 0; pattern_entries[i].long_name; i++)
    g_array_append_val (entries, pattern_entries[i]);
  g_array_append_vals (entries, own, G_N_ELEMENTS (own));
  if (!ws_cli_parse ("measure", "[ID]", "Run and time one real kernel (or a generated one) on the GPU.",
                     measure_description, (GOptionEntry *) entries->data, &argc, &argv))
    {
      ws_cli_pattern_options_clear (&po);
      return WS_CLI_USAGE;
    }
  if (!measure_options ("measure", &c, &options))
    status = WS_CLI_USAGE;
  else if (expr && po.index)
    status = ws_cli_fail ("measure", WS_CLI_USAGE, "give the expression once, with --expr or --index");
  else if (argc > 2)
    status = ws_cli_fail ("measure", WS_CLI_USAGE, "unexpected argument “%s”", argv[2]);
  else if (argc == 2 && (expr || has_pattern_options (&po)))
    status = ws_cli_fail ("measure", WS_CLI_USAGE,
                          "give a kernel ID or a pattern (--expr, --index, --preset…), not both");
  else if (argc == 2)
    status = measure_registered (argv[1], po.sets, &options, c.json, against_memcpy);
  else if (expr || has_pattern_options (&po))
    {
      if (expr)
        po.index = g_steal_pointer (&expr);
      status = measure_pattern (&po, &options, c.json);
    }
  else
    status = ws_cli_fail ("measure", WS_CLI_USAGE, "which kernel? (warpscope-cli list shows them)");
  ws_cli_pattern_options_clear (&po);
  return status;
}

/* ------------------------------------------------------------------ */
/* sweep                                                              */
/* ------------------------------------------------------------------ */

static void
set_param (GArray     *params,
           const char *name,
           gint64      value)
{
  for (guint i = 0; i < params->len; i++)
    if (strcmp (g_array_index (params, WsParamValue, i).name, name) == 0)
      g_array_index (params, WsParamValue, i).value = value;
}

static void
print_sweep_table (const char *param,
                   GPtrArray  *results)
{
  printf ("%12s %12s %12s %12s %12s %6s %8s\n", param, "median ms", "min ms", "max ms", "GB/s", "regs", "warps/SM");
  for (guint i = 0; i < results->len; i++)
    {
      const WsMeasurement *m = g_ptr_array_index (results, i);
      gint64 v = 0;

      ws_measurement_get_param (m, param, &v);
      printf ("%12" G_GINT64_FORMAT " %12.4f %12.4f %12.4f %12.1f %6d %8d\n", v, m->median_ms, m->min_ms, m->max_ms,
              m->bandwidth_gbs, m->registers, m->warps_per_sm);
    }
}

static int
sweep_from_recording (const WsKernelInfo *info,
                      GArray             *params,
                      const char         *param,
                      GArray             *values,
                      gboolean            json,
                      GError             *gpu_error)
{
  g_autoptr (WsRecording) r = ws_recording_load_bundled (NULL);
  g_autoptr (GPtrArray) found = g_ptr_array_new ();

  no_gpu ("sweep", gpu_error);
  for (guint i = 0; r && i < values->len; i++)
    {
      const WsMeasurement *m;

      set_param (params, param, g_array_index (values, gint64, i));
      if ((m = recorded (r, info->id, params)))
        g_ptr_array_add (found, (gpointer) m);
    }
  if (found->len == 0)
    return WS_CLI_NO_GPU;
  if (json)
    {
      g_autoptr (WsRecording) subset = ws_recording_new (ws_recording_get_device (r));
      for (guint i = 0; i < found->len; i++)
        ws_recording_add (subset, g_ptr_array_index (found, i));
      print_recording_json (subset);
    }
  else
    {
      print_recorded_header (r);
      printf ("%s: %u of %u points recorded\n", info->id, found->len, values->len);
      print_sweep_table (param, found);
    }
  return WS_CLI_NO_GPU;
}

static int
run_sweep (const WsKernelInfo     *info,
           GArray                 *params,
           const char             *param,
           GArray                 *values,
           const WsMeasureOptions *options,
           gboolean                json)
{
  g_autoptr (GPtrArray) results = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_measurement_free);
  g_autoptr (WsDeviceInfo) device = NULL;
  g_autoptr (GError) error = NULL;
  Progress progress;

  device = ws_gpu_probe (&error);
  if (device == NULL)
    return sweep_from_recording (info, params, param, values, json, error);
  progress_init (&progress, values->len);
  for (guint i = 0; i < values->len; i++)
    {
      gint64 v = g_array_index (values, gint64, i);
      WsMeasurement *m;

      progress.point = i;
      set_param (params, param, v);
      m = measure_kernel (info->id, params, options, &progress, &error);
      if (m == NULL)
        {
          progress_clear (&progress);
          return ws_cli_fail ("sweep", failure_status (error), "%s = %" G_GINT64_FORMAT ": %s", param, v, error->message);
        }
      g_ptr_array_add (results, m);
    }
  progress_clear (&progress);
  if (json)
    {
      g_autoptr (WsRecording) r = ws_recording_new (device);
      for (guint i = 0; i < results->len; i++)
        ws_recording_add (r, g_ptr_array_index (results, i));
      print_recording_json (r);
    }
  else
    {
      printf ("%s, measured now on %s (%s)\n", info->id, device->name,
              options->cold ? "cold: L2 flushed before each sample" : "hot");
      print_sweep_table (param, results);
    }
  return WS_CLI_OK;
}

int
ws_cli_sweep (int    argc,
              char **argv)
{
  CommonOptions c = { 0 };
  g_autofree char *param = NULL;
  g_autofree char *values_text = NULL;
  g_auto (GStrv) sets = NULL;
  GOptionEntry entries[] = {
    { "param", 'p', 0, G_OPTION_ARG_STRING, &param, "The parameter to vary (default: the kernel's standard sweep)", "NAME" },
    { "values", 'v', 0, G_OPTION_ARG_STRING, &values_text, "Its values: A:B[:STEP] or A,B,C", "VALUES" },
    { "set", 's', 0, G_OPTION_ARG_STRING_ARRAY, &sets, "Set another parameter (repeatable)", "NAME=VALUE" },
    { "samples", 'n', 0, G_OPTION_ARG_INT, &c.samples, "Timed samples per point (default 10)", "N" },
    { "cold", 0, 0, G_OPTION_ARG_NONE, &c.cold, "Flush L2 before each sample (the default)", NULL },
    { "hot", 0, 0, G_OPTION_ARG_NONE, &c.hot, "Do not flush L2 between samples", NULL },
    { "json", 0, 0, G_OPTION_ARG_NONE, &c.json, "Print a recording (JSON) of the points", NULL },
    { NULL }
  };
  const WsKernelInfo *info;
  g_autoptr (GArray) params = NULL;
  g_autoptr (GArray) values = NULL;
  g_autoptr (GError) error = NULL;
  WsMeasureOptions options;

  if (!ws_cli_parse ("sweep", "ID", "Measure a kernel over the values of one parameter.",
                     "Example:\n  warpscope-cli sweep coalescing/strided-sweep --param stride --values 1:32\n",
                     entries, &argc, &argv))
    return WS_CLI_USAGE;
  if (argc < 2)
    return ws_cli_fail ("sweep", WS_CLI_USAGE, "which kernel? (warpscope-cli list shows them)");
  if (argc > 2)
    return ws_cli_fail ("sweep", WS_CLI_USAGE, "unexpected argument “%s”", argv[2]);
  if (!measure_options ("sweep", &c, &options) || (info = lookup_kernel ("sweep", argv[1])) == NULL)
    return WS_CLI_USAGE;
  if (param == NULL && info->sweep_param == NULL)
    return ws_cli_fail ("sweep", WS_CLI_USAGE, "%s has no standard sweep: give --param and --values", info->id);
  if (param == NULL)
    param = g_strdup (info->sweep_param);
  if (values_text == NULL && g_strcmp0 (param, info->sweep_param) != 0)
    return ws_cli_fail ("sweep", WS_CLI_USAGE, "--values: which values of %s?", param);
  if (ws_kernel_info_get_param (info, param) == NULL)
    return ws_cli_fail ("sweep", WS_CLI_USAGE, "--param: the kernel %s has no parameter “%s”", info->id, param);
  values = ws_sweep_values_parse (values_text ? values_text : info->sweep_values, &error);
  if (values == NULL)
    return ws_cli_fail ("sweep", WS_CLI_USAGE, "--values: %s", error->message);
  if ((params = kernel_params ("sweep", info, sets)) == NULL)
    return WS_CLI_USAGE;
  return run_sweep (info, params, param, values, &options, c.json);
}

/* ------------------------------------------------------------------ */
/* record                                                             */
/* ------------------------------------------------------------------ */

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

static int
record_suite (GFile                  *file,
              const char             *only,
              const WsMeasureOptions *options,
              const WsDeviceInfo     *device)
{
  g_autoptr (GArray) points = suite_points (only);
  g_autoptr (WsRecording) r = ws_recording_new (device);
  g_autoptr (GString) failed = g_string_new (NULL);
  g_autoptr (GError) error = NULL;
  gint64 start = g_get_monotonic_time ();
  Progress progress;

  if (points->len == 0)
    return ws_cli_fail ("record", WS_CLI_USAGE, "--only: no kernel id starts with “%s”", only);
  progress_init (&progress, points->len);
  for (guint i = 0; i < points->len; i++)
    {
      Point *p = &g_array_index (points, Point, i);
      g_autoptr (GArray) params = kernel_params ("record", p->info, NULL);
      g_autoptr (GError) local = NULL;
      g_autoptr (WsMeasurement) m = NULL;

      progress.point = i;
      if (p->param)
        set_param (params, p->param, p->value);
      m = measure_kernel (p->info->id, params, options, &progress, &local);
      if (m == NULL)
        {
          /* the others are still worth recording; the exit status says it */
          progress_clear (&progress);
          ws_cli_fail ("record", 0, "%s%s%s: %s", p->info->id, p->param ? " " : "", p->param ? p->param : "",
                       local->message);
          g_string_append_printf (failed, "%s%s", failed->len ? ", " : "", p->info->id);
          continue;
        }
      ws_recording_add (r, m);
    }
  progress_clear (&progress);
  if (!ws_recording_save_file (r, file, NULL, &error))
    return ws_cli_fail ("record", WS_CLI_FAILED, "%s", error->message);
  fprintf (stderr, "warpscope-cli record: %u measurements of %u kernels' points in %.1f s saved to %s\n",
           ws_recording_get_n_measurements (r), points->len, (g_get_monotonic_time () - start) / 1e6,
           g_file_peek_path (file));
  if (failed->len)
    return ws_cli_fail ("record", WS_CLI_FAILED, "these failed and are missing: %s", failed->str);
  return WS_CLI_OK;
}

int
ws_cli_record (int    argc,
               char **argv)
{
  CommonOptions c = { 0 };
  g_autofree char *output = NULL;
  g_autofree char *only = NULL;
  GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, "Where to save the recording (JSON)", "FILE" },
    { "only", 0, 0, G_OPTION_ARG_STRING, &only, "Only the kernels whose id starts with this", "PREFIX" },
    { "samples", 'n', 0, G_OPTION_ARG_INT, &c.samples, "Timed samples per measurement (default 10)", "N" },
    { "hot", 0, 0, G_OPTION_ARG_NONE, &c.hot, "Do not flush L2 between samples", NULL },
    { NULL }
  };
  g_autoptr (WsDeviceInfo) device = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GFile) file = NULL;
  WsMeasureOptions options;

  if (!ws_cli_parse ("record", "-o FILE", "Measure every kernel and its standard sweep, and save a recording.",
                     "The recording opens anywhere, with or without a GPU.", entries, &argc, &argv))
    return WS_CLI_USAGE;
  if (argc > 1)
    return ws_cli_fail ("record", WS_CLI_USAGE, "unexpected argument “%s”", argv[1]);
  if (output == NULL)
    return ws_cli_fail ("record", WS_CLI_USAGE, "where to? give -o FILE");
  if (!measure_options ("record", &c, &options))
    return WS_CLI_USAGE;
  device = ws_gpu_probe (&error);
  if (device == NULL)
    return no_gpu ("record", error);
  file = g_file_new_for_commandline_arg (output);
  return record_suite (file, only, &options, device);
}
