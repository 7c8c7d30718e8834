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

#if WS_HAVE_CUDA

/* ------------------------------------------------------------------ */
/* The benchmark: this process against Nsight Compute                 */
/* ------------------------------------------------------------------ */

static char *
metric_list (const WsPattern *pattern,
             gboolean         all)
{
  g_autoptr (GPtrArray) names = g_ptr_array_new ();

  if (all)
    return g_strjoinv (",", (char **) ws_counters_default_metrics ());

  for (guint i = 0; i < ws_pattern_get_n_accesses (pattern); i++)
    {
      const WsAccess *a = ws_pattern_get_access (pattern, i);
      const char *const *m = ws_counters_metrics_for (a->space, a->kind);
      for (guint k = 0; m[k]; k++)
        if (!g_ptr_array_find_with_equal_func (names, m[k], g_str_equal, NULL))
          g_ptr_array_add (names, (gpointer) m[k]);
    }
  g_ptr_array_add (names, NULL);
  return g_strjoinv (",", (char **) names->pdata);
}

/* Launches the pattern once, for ncu (and, with counters, collects them the
 * way a user's click does, in a fresh process). */
static int
run_once (const char *name,
          gboolean    with_counters,
          gboolean    all)
{
  g_autoptr (WsPattern) pattern = ws_truth_case_find (name);
  g_autoptr (WsJitLaunch) jl = NULL;
  g_autoptr (WsMeasurement) m = ws_measurement_new ("expr");
  g_autoptr (GError) error = NULL;
  g_autofree char *metrics = NULL;
  g_auto (GStrv) list = NULL;

  if (pattern == NULL)
    return ws_cli_fail ("truth", WS_CLI_USAGE, _("--run-once: no truth case is called “%s”"), name);
  metrics = metric_list (pattern, all);
  list = g_strsplit (metrics, ",", -1);
  jl = ws_jit_prepare (pattern, NULL, &error);
  if (jl == NULL || !ws_jit_launch_sync (jl, &error) ||
      (with_counters && !ws_counters_collect (ws_jit_launch, jl, (const char *const *) list, m, &error)))
    return ws_cli_fail ("truth", WS_CLI_NO_GPU, "%s", error->message);
  for (guint i = 0; i < m->counters->len; i++)
    {
      const WsCounter *k = &g_array_index (m->counters, WsCounter, i);
      printf ("%s %.0f\n", k->name, k->value);
    }
  return WS_CLI_OK;
}

static double
spawn_seconds (char      **argv,
               char      **out,
               GError    **error)
{
  gint64 t0 = g_get_monotonic_time ();
  g_autofree char *text = NULL;
  g_autofree char *err = NULL;
  int status = 0;

  if (!g_spawn_sync (NULL, argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &text, &err, &status, error))
    return -1;
  if (!g_spawn_check_wait_status (status, error))
    {
      g_prefix_error (error, "%s%s", g_strstrip (err), *err ? ": " : "");
      return -1;
    }
  if (out)
    *out = g_steal_pointer (&text);
  return (g_get_monotonic_time () - t0) / 1e6;
}

static double
collect_seconds (WsJitLaunch        *jl,
                 const char *const  *metrics,
                 WsMeasurement      *m,
                 GError            **error)
{
  gint64 t0 = g_get_monotonic_time ();

  if (!ws_counters_collect (ws_jit_launch, jl, metrics, m, error))
    return -1;
  return (g_get_monotonic_time () - t0) / 1e6;
}

typedef struct
{
  double prepare, first, later;    /* in this process */
  double process, plain, ncu;      /* new processes */
} BenchTimes;

/* Prepares the pattern, then collects its counters twice, timing each. */
static gboolean
bench_in_process (WsPattern         *pattern,
                  const char *const *metrics,
                  WsMeasurement     *into,
                  BenchTimes        *t,
                  GError           **error)
{
  g_autoptr (WsJitLaunch) jl = NULL;
  g_autoptr (WsMeasurement) first = ws_measurement_new ("expr");
  gint64 t0 = g_get_monotonic_time ();

  jl = ws_jit_prepare (pattern, NULL, error);
  if (jl == NULL || !ws_jit_launch_sync (jl, error))
    return FALSE;
  t->prepare = (g_get_monotonic_time () - t0) / 1e6;
  t->first = collect_seconds (jl, metrics, first, error);
  t->later = t->first < 0 ? -1 : collect_seconds (jl, metrics, into, error);
  return t->later >= 0;
}

/* The same from the command line: warpscope-cli with and without counters,
 * and the kernel under ncu with the same metrics. */
static gboolean
bench_processes (const char  *name,
                 const char  *metrics,
                 const char  *ncu,
                 const char  *self,
                 gboolean     all,
                 BenchTimes  *t,
                 char       **ncu_out,
                 GError     **error)
{
  char *process[] = { (char *) self, "truth", "--run-once", (char *) name, "--with-counters",
                      all ? "--all-metrics" : NULL, NULL };
  char *plain[] = { (char *) self, "truth", "--run-once", (char *) name, NULL };
  char *under_ncu[] = { (char *) ncu, "--metrics", (char *) metrics, "-k", WS_CODEGEN_KERNEL_NAME, "-c", "1",
                        "--csv", "--print-units", "base", (char *) self, "truth", "--run-once", (char *) name, NULL };

  t->process = spawn_seconds (process, NULL, error);
  t->plain = t->process < 0 ? -1 : spawn_seconds (plain, NULL, error);
  t->ncu = t->plain < 0 ? -1 : spawn_seconds (under_ncu, ncu_out, error);
  return t->ncu >= 0;
}

static void
print_bench (const char          *name,
             const char          *metrics,
             const WsMeasurement *m,
             const char          *ncu_out,
             const BenchTimes    *t)
{
  printf ("Counters of %s: %s\n\n", name, metrics);
  for (guint i = 0; i < m->counters->len; i++)
    {
      const WsCounter *k = &g_array_index (m->counters, WsCounter, i);
      printf ("  %-60s %14.0f\n", k->name, k->value);
    }
  printf ("\nNsight Compute's output:\n%s\n", ncu_out ? ncu_out : "");
  printf ("%-72s %10s\n", "wall time", "seconds");
  printf ("%-72s %10.3f\n", "warpscope, in process: prepare (model, NVRTC, buffers, first launch)", t->prepare);
  printf ("%-72s %10.3f\n", "warpscope, in process: first collection (starts CUPTI)", t->first);
  printf ("%-72s %10.3f\n", "warpscope, in process: a later collection", t->later);
  printf ("%-72s %10.3f\n", "warpscope-cli truth --run-once --with-counters (a new process)", t->process);
  printf ("%-72s %10.3f\n", "warpscope-cli truth --run-once (a new process, no counters)", t->plain);
  printf ("%-72s %10.3f\n", "ncu --metrics … warpscope-cli truth --run-once (the same kernel)", t->ncu);
  printf ("\nin-process collection: %.1f %% of ncu's time (first), %.2f %% (later); "
          "a new process with counters: %.1f %%\n",
          100 * t->first / t->ncu, 100 * t->later / t->ncu, 100 * t->process / t->ncu);
}

static int
bench (const char *name,
       const char *ncu,
       const char *self,
       gboolean    all)
{
  g_autoptr (WsPattern) pattern = ws_truth_case_find (name);
  g_autoptr (WsMeasurement) m = ws_measurement_new ("expr");
  g_autoptr (GError) error = NULL;
  g_autofree char *metrics = NULL;
  g_autofree char *ncu_out = NULL;
  g_auto (GStrv) list = NULL;
  BenchTimes t = { 0 };

  if (pattern == NULL)
    return ws_cli_fail ("truth", WS_CLI_USAGE, _("--bench: no truth case is called “%s” (see --list)"), name);
  metrics = metric_list (pattern, all);
  list = g_strsplit (metrics, ",", -1);
  if (!bench_in_process (pattern, (const char *const *) list, m, &t, &error))
    return ws_cli_fail ("truth", WS_CLI_NO_GPU, "%s", error->message);
  if (!bench_processes (name, metrics, ncu, self, all, &t, &ncu_out, &error))
    return ws_cli_fail ("truth", WS_CLI_FAILED, _("running %s: %s"), ncu, error->message);
  print_bench (name, metrics, m, ncu_out, &t);
  return WS_CLI_OK;
}

/* Writes each case's kernel source and its SASS for sm_90 to a folder (no
 * GPU needed), to read what the compiler made of it. */
static int
dump_cases (const char *only,
            const char *dir)
{
  g_autoptr (GPtrArray) cases = ws_truth_cases (only);

  if (g_mkdir_with_parents (dir, 0755) != 0)
    return ws_cli_fail ("truth", WS_CLI_FAILED, _("--dump %s: cannot create the folder"), dir);
  for (guint i = 0; i < cases->len; i++)
    {
      WsTruthCase *c = g_ptr_array_index (cases, i);
      g_autoptr (GError) error = NULL;
      g_autoptr (WsKernelSource) ks = ws_codegen_generate (c->pattern, NULL, &error);
      g_autoptr (GBytes) cubin = NULL;
      g_autofree char *slug = g_strdup (c->name);
      g_autofree char *base = NULL;
      g_autofree char *cu = NULL;
      g_autofree char *bin = NULL;

      g_strcanon (slug, G_CSET_A_2_Z G_CSET_a_2_z G_CSET_DIGITS "-", '_');
      base = g_build_filename (dir, slug, NULL);
      cu = g_strconcat (base, ".cu", NULL);
      bin = g_strconcat (base, ".cubin", NULL);
      if (ks == NULL ||
          !g_file_set_contents (cu, ks->source, -1, &error) ||
          (cubin = ws_jit_compile (ks, "sm_90", NULL, &error)) == NULL ||
          !g_file_set_contents (bin, g_bytes_get_data (cubin, NULL), g_bytes_get_size (cubin), &error))
        return ws_cli_fail ("truth", WS_CLI_FAILED, "%s: %s", c->name, error->message);
    }
  return WS_CLI_OK;
}

#endif

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

#if WS_HAVE_CUDA

static char *
self_path (const char *argv0)
{
  g_autofree char *link = g_file_read_link ("/proc/self/exe", NULL);

  if (link)
    return g_steal_pointer (&link);
  return g_strdup (argv0);
}

static char *
find_ncu (const char *requested)
{
  char *path;

  if (requested)
    return g_strdup (requested);
  path = g_find_program_in_path ("ncu");
  if (path == NULL && g_file_test ("/usr/local/cuda/bin/ncu", G_FILE_TEST_IS_EXECUTABLE))
    path = g_strdup ("/usr/local/cuda/bin/ncu");
  return path;
}

#endif

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
        status = dump_cases (o.only, o.dump);
      else if (o.run_once)
        status = run_once (o.run_once, o.with_counters, o.all_metrics);
      else if (o.bench)
        {
          g_autofree char *ncu = find_ncu (o.ncu);
          g_autofree char *self = self_path (argv[0]);

          if (ncu == NULL)
            status = ws_cli_fail ("truth", WS_CLI_USAGE, _("--bench: no ncu on the PATH; name one with --ncu"));
          else
            status = bench (o.bench, ncu, self, o.all_metrics);
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
