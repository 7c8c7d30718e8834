/* SPDX-License-Identifier: GPL-3.0-or-later */
/* warpscope-cli truth: every case of the truth set (ws-truth.h) run on the
 * GPU through a session, its hardware counters beside the model's. The
 * cases, the rules and the explanations are the backend's; this prints the
 * table. --bench, --run-once and --dump look at this process itself (its
 * own CUPTI collection against Nsight Compute, the SASS of each case), so
 * they run the GPU layer here rather than in the worker. */
#include "ws-config.h"
#include "ws-cli-measuring.h"
#include "ws-cli-kernel.h"
#include "ws-truth-run.h"
#include "ws-cli-truth.h"
#include "ws-json.h"
#include "ws-device-json.h"
#include "ws-presets.h"
#include "ws-truth.h"

#include <json-glib/json-glib.h>
#include <stdio.h>
#include <string.h>

#if WS_HAVE_CUDA
#include "ws-counters.h"
#include "ws-jit.h"
#endif

static const char *const truth_description =
  /* Translators: the help of “warpscope-cli truth --help”; options, values
   * and examples stay as they are */
  N_("Runs every preset, and expressions chosen to test each rule of the model (strides, offsets,\n"
     "element sizes, broadcasts, permutations, shared-memory bank strides for 4-, 8- and 16-byte\n"
     "accesses, uniform and non-uniform local indexing, distinct constant addresses), as kernels\n"
     "generated from the pattern and compiled with NVRTC, and reads the GPU's hardware counters with\n"
     "CUPTI. Each row compares one counter with what the model predicts for the whole launch. A row\n"
     "where they differ by more than 2 % carries a note that explains why; a difference without one\n"
     "is a bug, and makes the exit status 1.\n"
     "\n"
     "Below L1, with the device's profile (data/devices/): L2 sectors read and written (within 10 %),\n"
     "DRAM bytes read and written (15 %) and, for each preset, its real kernel timed cold against the\n"
     "model's predicted time (25 %); a preset's rows are its real kernel's counters, an expression's\n"
     "the generated kernel's.\n"
     "\n"
     "--bench PATTERN times the collection of that pattern's counters in this process against\n"
     "Nsight Compute (ncu --metrics, the same metrics, the same kernel) run from the command line.\n"
     "\n"
     "Examples:\n"
     "  warpscope-cli truth\n"
     "  warpscope-cli truth --json -o nvidia-h100-80gb-hbm3.json\n"
     "  warpscope-cli truth --only banks/\n"
     "  warpscope-cli truth --bench coalescing/stride\n"
     "  warpscope-cli truth --kernel transpose.cu:transposeNaive --kernel reduction.cu\n");

static gboolean
write_output (const char *path,
              const char *text,
              GError    **error)
{
  if (path == NULL || g_strcmp0 (path, "-") == 0)
    {
      fputs (text, stdout);
      return TRUE;
    }
  return g_file_set_contents (path, text, -1, error);
}


/* ------------------------------------------------------------------ */
/* The command                                                        */
/* ------------------------------------------------------------------ */

typedef struct
{
  gboolean json;
  gboolean list;
  gboolean raw;
  gboolean with_counters;
  gboolean all_metrics;
  char *output;
  char *only;
  char *bench;
  char *run_once;
  char *ncu;
  char *device;
  char *dump;
  char **kernels;            /* --kernel FILE[:NAME]… */
  WsCliGpuOptions gpu;
  WsGpuTarget *target;
} TruthOptions;

static void
truth_options_clear (TruthOptions *o)
{
  g_free (o->output);
  g_free (o->only);
  g_free (o->bench);
  g_free (o->run_once);
  g_free (o->ncu);
  g_free (o->device);
  g_free (o->dump);
  g_strfreev (o->kernels);
  ws_cli_gpu_options_clear (&o->gpu);
  g_clear_pointer (&o->target, ws_gpu_target_free);
}

static int
list_cases (void)
{
  g_autoptr (GPtrArray) cases = ws_truth_cases (NULL);

  for (guint i = 0; i < cases->len; i++)
    {
      WsTruthCase *c = g_ptr_array_index (cases, i);
      g_autofree char *desc = ws_pattern_to_string (c->pattern);
      printf ("%-44s %s\n", c->name, desc);
    }
  return WS_CLI_OK;
}

/* Below L1, a preset is held against its real kernel: timed cold with
 * its counters, as `measure ID --counters` runs it, beside the model's
 * launch of that kernel (stores, loops and copies included). A case of
 * its own is held against the generated kernel counted above: its pattern
 * as one launch, untimed. */
static int
count_failure (const GError *error)
{
  if (g_error_matches (error, WS_GPU_ERROR, WS_GPU_ERROR_COUNTERS_UNAVAILABLE))
    return WS_CLI_NO_GPU;
  return ws_cli_failure_status (error);
}

static char *
table_text (TruthOptions *o,
            GPtrArray    *rows,
            const char   *device,
            JsonNode     *counters)
{
  g_autoptr (JsonNode) root = NULL;
  g_autofree char *body = NULL;

  if (!o->json)
    return ws_truth_to_text (rows, device);
  root = ws_truth_to_json (rows, device, counters);
  body = ws_json_to_text (root, TRUE);
  return g_strconcat (body, "\n", NULL);
}

static void
on_progress (guint       done,
             guint       total,
             const char *name,
             gpointer    user_data)
{
  if (user_data)
    fprintf (stderr, "\r%u/%u %-60s", done, total, name);
}

static void
got_rows (GObject      *source,
          GAsyncResult *result,
          gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

/* --kernel FILE…: kernels of one's own, as the files' comments launch them. */
static GPtrArray *
kernel_specs (TruthOptions *o,
              GError      **error)
{
  g_autoptr (GPtrArray) specs = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_kernel_spec_free);

  for (guint i = 0; o->kernels && o->kernels[i]; i++)
    {
      WsCliPatternOptions po = { .kernel = o->kernels[i], .elem_size = WS_CLI_NO_ELEM_SIZE };
      WsKernelSpec *spec = ws_cli_kernel_spec (&po, error);

      if (spec == NULL)
        return NULL;
      g_ptr_array_add (specs, spec);
    }
  return g_steal_pointer (&specs);
}

static int
run_all (TruthOptions *o)
{
  g_autoptr (GPtrArray) cases = o->kernels && o->only == NULL ? g_ptr_array_new () : ws_truth_cases (o->only);
  g_autoptr (GPtrArray) kernels = NULL;
  g_autoptr (GPtrArray) rows = NULL;
  g_autoptr (JsonNode) raw = NULL;
  g_autoptr (WsSession) session = ws_cli_session_new (NULL, o->target);
  g_autoptr (GAsyncResult) result = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *text = NULL;
  gboolean progress = !o->json && ws_cli_stdout_is_terminal () && o->output == NULL;
  const WsDeviceInfo *device;
  g_autoptr (WsDeviceProfile) profile = NULL;
  g_autofree char *slug = NULL;
  guint unexplained = 0;

  if ((kernels = kernel_specs (o, &error)) == NULL)
    return ws_cli_fail ("truth", WS_CLI_USAGE, "%s", error->message);
  if (cases->len == 0 && kernels->len == 0)
    return ws_cli_fail ("truth", WS_CLI_USAGE, _("--only %s: no case matches (see --list)"), o->only);
  if ((device = ws_cli_probe (session, &error)) == NULL)
    return ws_cli_fail ("truth", ws_cli_gpu_unreachable (error) ? ws_cli_failure_status (error) : WS_CLI_NO_GPU,
                        "%s", error->message);
  /* below L1 the model needs the device: --device's profile, else the one
   * shipped for it */
  slug = o->device ? g_strdup (o->device) : ws_device_slug (device->name);
  if ((profile = ws_device_profile_find (slug, &error)) == NULL && o->device)
    return ws_cli_fail ("truth", WS_CLI_USAGE, "--device: %s", error->message);
  if (profile == NULL)
    {
      g_printerr (_("warpscope-cli truth: no device profile for %s (%s): the rows below L1 and the time are left "
                  "out; warpscope-cli calibrate makes one\n"), device->name, error->message);
      g_clear_error (&error);
    }
  ws_truth_run_async (session, cases, kernels, profile, o->raw, on_progress, progress ? o : NULL, NULL, got_rows,
                      &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  rows = ws_truth_run_finish (session, result, &raw, &error);
  if (progress)
    fprintf (stderr, "\r%80s\r", "");
  if (rows == NULL)
    return ws_cli_fail ("truth", count_failure (error), "%s", error->message);

  text = table_text (o, rows, device->name, raw);
  /* -o FOLDER/ names the file after the device, as data/truth/ does */
  if (o->output && (g_str_has_suffix (o->output, "/") || g_file_test (o->output, G_FILE_TEST_IS_DIR)))
    {
      g_autofree char *name = ws_truth_device_slug (device->name);
      g_autofree char *file = g_strconcat (name, o->json ? ".json" : ".txt", NULL);
      g_autofree char *path = g_build_filename (o->output, file, NULL);

      g_free (o->output);
      o->output = g_steal_pointer (&path);
    }
  if (!write_output (o->output, text, &error))
    return ws_cli_fail ("truth", WS_CLI_FAILED, "-o %s: %s", o->output, error->message);
  for (guint i = 0; i < rows->len; i++)
    unexplained += ws_truth_row_unexplained (g_ptr_array_index (rows, i));
  if (unexplained > 0)
    return ws_cli_fail ("truth", WS_CLI_FAILED, _("%u rows differ from the model by more than %.0f %% "
                        "without an explanation"), unexplained, WS_TRUTH_TOLERANCE * 100);
  return WS_CLI_OK;
}


int
ws_cli_truth (int    argc,
              char **argv)
{
  TruthOptions o = { 0 };
  GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &o.json, N_("Write the table as JSON"), NULL },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &o.output,
      N_("Write to FILE instead of standard output"), N_("FILE") },
    { "only", 0, 0, G_OPTION_ARG_STRING, &o.only, N_("Only the cases whose name contains TEXT"), N_("TEXT") },
    { "list", 0, 0, G_OPTION_ARG_NONE, &o.list, N_("List the cases and stop"), NULL },
    { "counters", 0, 0, G_OPTION_ARG_NONE, &o.raw,
      N_("Also write every counter of every case (with --json)"), NULL },
    { "bench", 0, 0, G_OPTION_ARG_STRING, &o.bench,
      N_("Time the collection of CASE's counters against ncu"), N_("CASE") },
    { "all-metrics", 0, 0, G_OPTION_ARG_NONE, &o.all_metrics,
      N_("With --bench, every metric Warpscope shows"), NULL },
    { "ncu", 0, 0, G_OPTION_ARG_FILENAME, &o.ncu, N_("The ncu to compare with (default: from PATH)"), N_("PATH") },
    { "kernel", 'k', 0, G_OPTION_ARG_FILENAME_ARRAY, &o.kernels,
      N_("A kernel of your own, line by line against its counters (repeatable; alone, without the cases "
         "unless --only)"), N_("FILE[:NAME]") },
    { "device", 0, 0, G_OPTION_ARG_STRING, &o.device,
      N_("Device profile for the rows below L1 and the time: an id of data/devices/ or a file (default: the GPU's)"),
      N_("ID|FILE") },
    { "dump", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_FILENAME, &o.dump, "Write each case's source and SASS to DIR", "DIR" },
    { "run-once", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_STRING, &o.run_once, "Launch CASE once", "CASE" },
    { "with-counters", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_NONE, &o.with_counters, "With --run-once, collect", NULL },
    { NULL }
  };
  int status;

  if (!ws_cli_parse_gpu ("truth", NULL, N_("Compare the model with the GPU's hardware counters"),
                         truth_description, entries, &o.gpu, &argc, &argv) ||
      (o.target = ws_cli_gpu_target ("truth", &o.gpu)) == NULL)
    {
      truth_options_clear (&o);
      return WS_CLI_USAGE;
    }
  if ((o.dump || o.run_once || o.bench) && !ws_gpu_target_is_local (o.target))
    status = ws_cli_fail ("truth", WS_CLI_USAGE, _("--dump, --run-once and --bench look at this process on this "
                          "computer: they take no --gpu"));
  else if (o.list)
    status = list_cases ();
  else
    {
#if WS_HAVE_CUDA
      if (o.dump)
        status = ws_cli_truth_dump_cases (o.only, o.dump);
      else if (o.run_once)
        status = ws_cli_truth_run_once (o.run_once, o.with_counters, o.all_metrics);
      else if (o.bench)
        {
          g_autofree char *ncu = ws_cli_truth_find_ncu (o.ncu);
          g_autofree char *self = ws_cli_truth_self_path (argv[0]);

          if (ncu == NULL)
            status = ws_cli_fail ("truth", WS_CLI_USAGE, _("--bench: no ncu on the PATH; name one with --ncu"));
          else
            status = ws_cli_truth_bench (o.bench, ncu, self, o.all_metrics);
        }
      else
        status = run_all (&o);
#else
      if (o.dump || o.run_once || o.bench)
        status = ws_cli_fail ("truth", WS_CLI_NO_GPU, _("this build of Warpscope has no CUDA backend: "
                              "--dump, --run-once and --bench need NVRTC and the GPU in this process"));
      else
        status = run_all (&o);
#endif
    }
  truth_options_clear (&o);
  return status;
}
