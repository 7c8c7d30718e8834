/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What a GPU reached through ssh costs per measurement, warm: the same
 * measurements (a worker playing the bundled recording back at once, so
 * that only the way there and back is timed) through a worker started
 * here and through one reached with ssh to 127.0.0.1 (a real sshd, with a
 * shared connection), once both answered. The target: at most 20 ms more
 * per measurement. `meson test --benchmark` prints it. */
#include "ws-config.h"
#include "ws-backend.h"
#include "remote-fixture.h"

#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>

#define WARM_UP 10
#define ROUNDS 200
#define TARGET_MS 20.0
/* each measurement takes as long, its samples coming one by one: progress
 * flows while it runs, as on a GPU */
#define REPLAY_MS 20

static void
on_done (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

static double
measure_once (WsBackend              *backend,
              const WsMeasureRequest *request)
{
  g_autoptr (GAsyncResult) result = NULL;
  g_autoptr (WsMeasurement) m = NULL;
  g_autoptr (GError) error = NULL;
  gint64 start = g_get_monotonic_time ();

  ws_backend_measure_async (backend, request, NULL, NULL, NULL, NULL, on_done, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  m = ws_backend_measure_finish (backend, result, &error);
  if (m == NULL)
    {
      fprintf (stderr, "bench-remote: %s\n", error->message);
      exit (1);
    }
  return (g_get_monotonic_time () - start) / 1e3;
}

static int
compare_double (gconstpointer a,
                gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

/* The median of ROUNDS measurements, after WARM_UP (the first starts the worker). */
static double
median_ms (const char *address,
           double     *mean)
{
  g_autoptr (WsGpuTarget) target = ws_gpu_target_parse (address, NULL);
  g_autoptr (WsBackend) backend = ws_backend_new_for_target (target);
  g_autoptr (WsMeasureRequest) request = ws_measure_request_new ();
  g_autoptr (GArray) times = g_array_new (FALSE, FALSE, sizeof (double));
  double sum = 0;

  g_assert_nonnull (target);
  request->kernel_id = g_strdup ("coalescing/offset");
  ws_measure_request_set_param (request, "offset", 4);
  for (guint i = 0; i < WARM_UP; i++)
    measure_once (backend, request);
  for (guint i = 0; i < ROUNDS; i++)
    {
      double t = measure_once (backend, request);
      g_array_append_val (times, t);
      sum += t;
    }
  g_array_sort (times, compare_double);
  *mean = sum / ROUNDS;
  return g_array_index (times, double, ROUNDS / 2);
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *runtime = g_dir_make_tmp ("ws-run-XXXXXX", NULL);
  g_autofree char *worker = g_build_filename (WS_BUILD_APPDIR, "warpscope-gpu-worker", NULL);
  g_autofree char *recording = g_build_filename (WS_SOURCE_DATADIR, "recordings", "h100.json", NULL);
  g_autofree char *command = g_strdup_printf ("exec %s --replay %s --replay-delay %d", worker, recording, REPLAY_MS);
  g_autofree char *escaped = g_uri_escape_string (command, NULL, FALSE);
  g_autofree char *local = g_strdup_printf ("command:?run=%s", escaped);
  g_autofree char *script = NULL;
  g_autofree char *options = NULL;
  g_autofree char *remote = NULL;
  g_autofree char *why = NULL;
  WsTestSshd sshd;
  double local_ms, remote_ms, local_mean, remote_mean, extra;

  g_chmod (runtime, 0700);
  g_setenv ("XDG_RUNTIME_DIR", runtime, TRUE);
  why = ws_test_sshd_start (&sshd);
  if (why)
    {
      printf ("extra time per measurement through ssh: not measured: %s\n", why);
      ws_test_sshd_stop (&sshd);
      return 0;
    }
  g_setenv ("WS_SSH_COMMAND", sshd.ssh_command, TRUE);
  script = g_build_filename (sshd.dir, "replaying-worker", NULL);
  {
    g_autofree char *text = g_strdup_printf ("#!/bin/sh\n%s\n", command);
    ws_test_write_script (script, text);
  }
  options = g_strdup_printf ("worker=%s", script);
  remote = ws_test_sshd_address (&sshd, options);

  local_ms = median_ms (local, &local_mean);
  remote_ms = median_ms (remote, &remote_mean);
  extra = remote_ms - local_ms;
  printf ("extra time per measurement through ssh to 127.0.0.1, warm: %.2f ms (median of %d: %.2f ms through "
          "ssh, %.2f ms here; means %.2f and %.2f ms); the target is at most %.0f ms\n",
          extra, ROUNDS, remote_ms, local_ms, remote_mean, local_mean, TARGET_MS);
  ws_test_sshd_stop (&sshd);
  {
    const char *rm[] = { "rm", "-rf", runtime, NULL };
    g_autoptr (GSubprocess) p = g_subprocess_newv (rm, G_SUBPROCESS_FLAGS_NONE, NULL);
    g_subprocess_wait (p, NULL, NULL);
  }
  return extra <= TARGET_MS ? 0 : 1;
}
