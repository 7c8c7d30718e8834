/* SPDX-License-Identifier: GPL-3.0-or-later */
/* warpscope-cli truth's looks at this process itself: --run-once launches
 * a case once (Nsight Compute's target), --bench times its own CUPTI
 * collection against ncu's, --dump writes each case's CUDA and SASS. They
 * run the GPU layer here rather than in the worker. */
#include "ws-config.h"

#if WS_HAVE_CUDA

#include "ws-cli-measuring.h"
#include "ws-cli-truth.h"
#include "ws-counters.h"
#include "ws-jit.h"
#include "ws-truth.h"

#include <stdio.h>
#include <string.h>


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
int
ws_cli_truth_run_once (const char *name,
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

int
ws_cli_truth_bench (const char *name,
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
int
ws_cli_truth_dump_cases (const char *only,
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


char *
ws_cli_truth_self_path (const char *argv0)
{
  g_autofree char *link = g_file_read_link ("/proc/self/exe", NULL);

  if (link)
    return g_steal_pointer (&link);
  return g_strdup (argv0);
}

char *
ws_cli_truth_find_ncu (const char *requested)
{
  char *path;

  if (requested)
    return g_strdup (requested);
  path = g_find_program_in_path ("ncu");
  if (path == NULL && g_file_test ("/usr/local/cuda/bin/ncu", G_FILE_TEST_IS_EXECUTABLE))
    path = g_strdup ("/usr/local/cuda/bin/ncu");
  return path;
}


#endif /* WS_HAVE_CUDA */
