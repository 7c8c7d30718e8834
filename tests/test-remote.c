/* SPDX-License-Identifier: GPL-3.0-or-later */
/* GPU workers elsewhere: addresses, the handshake, and the worker reached
 * through a command, a real sshd on 127.0.0.1 and a real one-node Slurm,
 * with every failure broken for real: a wrong port, a missing worker, a
 * refused login, an unknown host key, an old worker, a worker that never
 * answers, a connection killed in the middle of a sweep (whose points are
 * kept, and whose rest is measured after), a refused Slurm job, a job that
 * waits in the queue and is withdrawn. */
#include "ws-config.h"
#include "ws-backend.h"
#include "ws-recording.h"
#include "ws-session.h"
#include "ws-worker-client.h"
#include "remote-fixture.h"

#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

static WsTestSshd sshd;
static char *sshd_missing;     /* why there is no sshd, or NULL */
static char *worker;           /* this build's GPU worker */
static char *recording;        /* the bundled recording, for workers that play it back */
static char *scratch;

/* ------------------------------------------------------------------ */
/* Driving a backend                                                  */
/* ------------------------------------------------------------------ */

typedef struct
{
  GMainLoop *loop;
  GAsyncResult *result;
  GPtrArray *points;           /* WsMeasurement, as progress brought them */
  GPtrArray *states;           /* char *: "queued 42" */
  guint kill_after;            /* drop ssh's connections once this many points are in, 0: never */
  GCancellable *cancel_when_queued;
} Run;

static void
run_init (Run *r)
{
  memset (r, 0, sizeof *r);
  r->loop = g_main_loop_new (NULL, FALSE);
  r->points = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_measurement_free);
  r->states = g_ptr_array_new_with_free_func (g_free);
}

static void
run_clear (Run *r)
{
  g_main_loop_unref (r->loop);
  g_clear_object (&r->result);
  g_ptr_array_unref (r->points);
  g_ptr_array_unref (r->states);
}

static void
on_done (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  Run *r = user_data;

  r->result = g_object_ref (result);
  g_main_loop_quit (r->loop);
}

static void
on_state (WsBackend  *backend,
          guint       state,
          const char *detail,
          Run        *r)
{
  const char *names[] = { "starting", "queued", "allocated" };

  g_ptr_array_add (r->states, g_strdup_printf ("%s %s", names[state], detail ? detail : ""));
  if (state == WS_WORKER_STATE_QUEUED && r->cancel_when_queued)
    g_cancellable_cancel (r->cancel_when_queued);
}

static void
on_progress (WsBackend           *backend,
             guint                done,
             guint                total,
             const WsMeasurement *latest,
             gpointer             user_data)
{
  Run *r = user_data;

  if (latest == NULL)
    return;
  g_ptr_array_add (r->points, ws_measurement_copy (latest));
  if (r->kill_after && r->points->len == r->kill_after)
    g_assert_cmpuint (ws_test_sshd_drop_connections (&sshd), >, 0);
}

static WsBackend *
backend_for (const char *address)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WsGpuTarget) target = ws_gpu_target_parse (address, &error);

  g_assert_no_error (error);
  return ws_backend_new_for_target (target);
}

static WsWorkerHello *
connect_to (WsBackend    *backend,
            Run          *r,
            GCancellable *cancellable,
            GError      **error)
{
  g_signal_connect (backend, "worker-state", G_CALLBACK (on_state), r);
  ws_backend_connect_async (backend, cancellable, on_done, r);
  g_main_loop_run (r->loop);
  return ws_backend_connect_finish (backend, r->result, error);
}

/* The handshake with the worker at address: NULL with the error. */
static WsWorkerHello *
hello_from (const char *address,
            GError    **error)
{
  g_autoptr (WsBackend) backend = backend_for (address);
  WsWorkerHello *hello;
  Run r;

  run_init (&r);
  hello = connect_to (backend, &r, NULL, error);
  run_clear (&r);
  return hello;
}

static GPtrArray *
sweep (WsBackend *backend,
       Run       *r,
       gint64     from,
       gint64     to,
       GError   **error)
{
  g_autoptr (WsMeasureRequest) request = ws_measure_request_new ();
  g_autoptr (GArray) values = g_array_new (FALSE, FALSE, sizeof (gint64));

  for (gint64 v = from; v <= to; v++)
    g_array_append_val (values, v);
  request->kernel_id = g_strdup ("coalescing/strided-sweep");
  g_clear_object (&r->result);
  ws_backend_sweep_async (backend, request, "stride", values, NULL, on_progress, r, NULL, on_done, r);
  g_main_loop_run (r->loop);
  return ws_backend_sweep_finish (backend, r->result, error);
}

static WsDeviceInfo *
probe (WsBackend *backend,
       Run       *r,
       GError   **error)
{
  g_clear_object (&r->result);
  ws_backend_probe_async (backend, NULL, on_done, r);
  g_main_loop_run (r->loop);
  return ws_backend_probe_finish (backend, r->result, error);
}

static gboolean
need_sshd (void)
{
  if (sshd_missing == NULL)
    return TRUE;
  g_test_skip (sshd_missing);
  return FALSE;
}

static void
use_ssh (const char *command)
{
  g_setenv ("WS_SSH_COMMAND", command, TRUE);
}

/* ------------------------------------------------------------------ */
/* Addresses                                                          */
/* ------------------------------------------------------------------ */

static void
test_target_round_trip (void)
{
  const char *addresses[] = {
    "local",
    "local?gpu=2",
    "ssh://gpu01",
    "ssh://ada@gpu01.example.org:2222",
    "ssh://[::1]:22?worker=/opt/warpscope/libexec/warpscope-gpu-worker&gpu=1",
    "ssh://gpu01?worker=~/warpscope/_build/app/warpscope-gpu-worker&wait=90",
    "slurm://gpu",
    "slurm://gpu?gres=gpu:h100:1&time=30:00&account=phys-lab",
    "slurm://?jobid=4242",
    "command:?run=docker%20exec%20-i%20box%20warpscope-gpu-worker&gpu=3",
  };

  for (guint i = 0; i < G_N_ELEMENTS (addresses); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (WsGpuTarget) t = ws_gpu_target_parse (addresses[i], &error);
      g_autoptr (WsGpuTarget) again = NULL;
      g_autofree char *text = NULL;

      g_assert_no_error (error);
      text = ws_gpu_target_to_string (t);
      again = ws_gpu_target_parse (text, &error);
      g_assert_no_error (error);
      g_assert_true (ws_gpu_target_equal (t, again));
    }
}

static void
test_target_parts (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WsGpuTarget) ssh = ws_gpu_target_parse ("ssh://ada@gpu01:2222?gpu=1", &error);
  g_autoptr (WsGpuTarget) slurm = ws_gpu_target_parse ("slurm://gpu?gres=gpu:2&time=10", &error);
  g_autoptr (WsGpuTarget) command = ws_gpu_target_new_command ("exec warpscope-gpu-worker", &error);
  g_autofree char *d1 = NULL;
  g_autofree char *d2 = NULL;
  g_autofree char *d3 = NULL;

  g_assert_no_error (error);
  g_assert_cmpint (ssh->kind, ==, WS_GPU_TARGET_SSH);
  g_assert_cmpstr (ssh->user, ==, "ada");
  g_assert_cmpstr (ssh->host, ==, "gpu01");
  g_assert_cmpint (ssh->port, ==, 2222);
  g_assert_cmpint (ssh->gpu, ==, 1);
  g_assert_cmpuint (ws_gpu_target_get_wait (ssh), ==, 30);
  g_assert_cmpstr (slurm->partition, ==, "gpu");
  g_assert_cmpstr (slurm->gres, ==, "gpu:2");
  g_assert_cmpuint (ws_gpu_target_get_wait (slurm), ==, 600);
  d1 = ws_gpu_target_describe (ssh);
  d2 = ws_gpu_target_describe (slurm);
  d3 = ws_gpu_target_describe (command);
  g_assert_cmpstr (d1, ==, "ada@gpu01 over ssh");
  g_assert_cmpstr (d2, ==, "Slurm partition gpu");
  g_assert_cmpstr (d3, ==, "the command “exec warpscope-gpu-worker”");
}

/* Every part lands in a command line: none may carry an option or shell
 * syntax there. */
static void
test_target_refused (void)
{
  const struct { const char *address; const char *says; } bad[] = {
    { "gpu01", "not a GPU address" },
    { "http://gpu01", "“http:”" },
    { "ssh://", "which host" },
    { "ssh://-oProxyCommand=touch%20x", "not begin with “-”" },
    { "ssh://-oProxyCommand=x@gpu01", "not begin with “-”" },
    { "ssh://ada:secret@gpu01", "never sends a password" },
    { "ssh://gpu01/home/ada", "not a path" },
    { "ssh://gpu01?worker=/opt/x'$(reboot)'", "holds “'”" },
    { "ssh://gpu01?worker=/opt/$HOME", "holds “$”" },
    { "ssh://gpu01?gres=gpu:1", "no such option" },
    { "ssh://gpu01?gpu=-1", "whole number" },
    { "ssh://gpu01?wait=0", "whole number" },
    { "slurm://gpu?gres=--uid=0", "not begin with “-”" },
    { "slurm://gpu%20-A%20x", "the partition" },
    { "slurm://gpu?time=1;reboot", "time limit" },
    { "command:", "empty" },
    { "command:?gpu=1", "which command" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (WsGpuTarget) t = ws_gpu_target_parse (bad[i].address, &error);

      g_assert_null (t);
      g_assert_error (error, WS_GPU_TARGET_ERROR, WS_GPU_TARGET_ERROR_INVALID);
      if (strstr (error->message, bad[i].says) == NULL)
        g_error ("%s: “%s” does not say “%s”", bad[i].address, error->message, bad[i].says);
    }
}

static gboolean
argv_has (GStrv       argv,
          const char *word)
{
  return g_strv_contains ((const char * const *) argv, word);
}

static void
test_transport_argv (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WsGpuTarget) ssh = ws_gpu_target_parse ("ssh://ada@gpu01:2222?worker=~/ws/warpscope-gpu-worker", &error);
  g_autoptr (WsGpuTarget) slurm = ws_gpu_target_parse ("slurm://gpu?time=30:00&account=lab", &error);
  g_autoptr (WsGpuTarget) none = ws_gpu_target_parse ("slurm://gpu?gres=none", &error);
  g_auto (GStrv) a = NULL;
  g_auto (GStrv) b = NULL;
  g_auto (GStrv) c = NULL;
  guint n;

  g_unsetenv ("WS_SSH_COMMAND");
  a = ws_worker_transport_argv (ssh, &error);
  g_assert_no_error (error);
  n = g_strv_length (a);
  g_assert_cmpstr (a[0], ==, "ssh");
  g_assert_true (argv_has (a, "-T"));
  g_assert_true (argv_has (a, "BatchMode=yes"));
  g_assert_true (argv_has (a, "ControlMaster=auto"));
  g_assert_true (argv_has (a, "ControlPersist=300"));
  g_assert_true (argv_has (a, "2222"));
  g_assert_true (argv_has (a, "ada"));
  /* the host comes after "--": it cannot be read as an option */
  g_assert_cmpstr (a[n - 3], ==, "--");
  g_assert_cmpstr (a[n - 2], ==, "gpu01");
  g_assert_true (g_str_has_prefix (a[n - 1], "exec /bin/sh -c '"));
  g_assert_nonnull (strstr (a[n - 1], "\"$HOME\"/\"ws/warpscope-gpu-worker\""));
  g_assert_null (strchr (a[n - 1], '\n'));
  g_assert_null (strchr (a[n - 1], '!'));

  b = ws_worker_transport_argv (slurm, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (b[0], ==, "srun");
  g_assert_true (argv_has (b, "--partition=gpu"));
  g_assert_true (argv_has (b, "--gres=gpu:1"));
  g_assert_true (argv_has (b, "--time=30:00"));
  g_assert_true (argv_has (b, "--account=lab"));
  c = ws_worker_transport_argv (none, &error);
  g_assert_false (argv_has (c, "--gres=gpu:1"));
}

/* ------------------------------------------------------------------ */
/* The handshake, through commands                                    */
/* ------------------------------------------------------------------ */

static char *
command_address (const char *command,
                 const char *options)
{
  g_autofree char *escaped = g_uri_escape_string (command, NULL, FALSE);

  return g_strdup_printf ("command:?run=%s%s%s", escaped, options ? "&" : "", options ? options : "");
}

static void
test_local_hello (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WsWorkerHello) hello = hello_from ("local", &error);

  g_assert_no_error (error);
  g_assert_cmpint (hello->protocol, ==, WS_WORKER_PROTOCOL);
  g_assert_cmpstr (hello->version, ==, WS_VERSION);
  g_assert_cmpstr (hello->host, ==, g_get_host_name ());
  /* here the worker sees no GPU, and says why */
  if (hello->gpus->len == 0)
    {
      g_assert_nonnull (hello->no_gpu);
      g_assert_true (hello->no_gpu->domain == WS_GPU_ERROR);
    }
}

static void
test_command_hello (void)
{
  g_autofree char *address = NULL;
  g_autofree char *command = g_strdup_printf ("exec %s --replay %s", worker, recording);
  g_autoptr (GError) error = NULL;
  g_autoptr (WsWorkerHello) hello = NULL;
  g_autoptr (WsWorkerHello) other = NULL;
  g_autofree char *gpu = NULL;

  address = command_address (command, NULL);
  hello = hello_from (address, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (hello->replay, ==, "h100.json");
  g_assert_cmpuint (hello->gpus->len, ==, 1);
  gpu = ws_worker_hello_describe_gpu (hello);
  g_assert_true (g_str_has_prefix (gpu, "NVIDIA H100 80GB HBM3 (sm_90, 79.2"));

  /* an index it does not have */
  g_free (address);
  address = command_address (command, "gpu=3");
  other = hello_from (address, &error);
  g_assert_null (other);
  g_assert_error (error, WS_WORKER_ERROR, WS_WORKER_ERROR_NO_SUCH_GPU);
}

/* Workers of another protocol: one without a handshake (protocol 1, as
 * Warpscope 0.1 answered an unknown request), one newer. */
static void
test_command_mismatch (void)
{
  g_autofree char *old = g_build_filename (scratch, "old-worker", NULL);
  g_autofree char *newer = g_build_filename (scratch, "newer-worker", NULL);
  g_autofree char *a = NULL;
  g_autofree char *b = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (WsWorkerHello) hello = NULL;

  ws_test_write_script (old, "#!/bin/sh\nread line\n"
                        "echo '{\"id\":1,\"error\":{\"domain\":\"g-io-error-quark\",\"code\":13,"
                        "\"message\":\"the GPU worker has no request “hello”\"},\"fatal\":false}'\n"
                        "read line\n");
  ws_test_write_script (newer, "#!/bin/sh\nread line\n"
                        "echo '{\"id\":1,\"reply\":{\"program\":\"warpscope-gpu-worker\",\"version\":\"9.0\","
                        "\"protocol\":9,\"future\":true}}'\nread line\n");
  a = command_address (old, NULL);
  hello = hello_from (a, &error);
  g_assert_null (hello);
  g_assert_error (error, WS_WORKER_ERROR, WS_WORKER_ERROR_VERSION_MISMATCH);
  g_assert_nonnull (strstr (error->message, "update Warpscope on the machine the command reaches"));
  g_clear_error (&error);

  b = command_address (newer, NULL);
  hello = hello_from (b, &error);
  g_assert_null (hello);
  g_assert_error (error, WS_WORKER_ERROR, WS_WORKER_ERROR_VERSION_MISMATCH);
  g_assert_nonnull (strstr (error->message, "Warpscope 9.0 (protocol 9), newer"));
  g_assert_nonnull (strstr (error->message, "update Warpscope on this computer"));
}

static void
test_command_fails (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WsWorkerHello) hello = NULL;
  g_autofree char *missing = command_address ("exec /nonexistent/warpscope-gpu-worker", NULL);
  g_autofree char *chatty = command_address ("echo 'Welcome to the cluster!'; exit 3", NULL);

  hello = hello_from (missing, &error);
  g_assert_null (hello);
  g_assert_error (error, WS_WORKER_ERROR, WS_WORKER_ERROR_NOT_INSTALLED);
  g_assert_nonnull (strstr (error->message, "could not start the GPU worker"));
  g_assert_nonnull (strstr (error->message, "/nonexistent/warpscope-gpu-worker"));
  g_clear_error (&error);

  hello = hello_from (chatty, &error);
  g_assert_null (hello);
  g_assert_error (error, WS_WORKER_ERROR, WS_WORKER_ERROR_FAILED);
  g_assert_nonnull (strstr (error->message, "exited with status 3 before the GPU worker answered"));
}

/* Nothing hangs: a worker that never answers is given up on when the
 * target's wait is over, and at once when cancelled. */
static void
test_command_no_answer (void)
{
  g_autofree char *address = command_address ("exec sleep 60", "wait=1");
  g_autoptr (WsBackend) backend = backend_for (address);
  g_autoptr (WsBackend) other = backend_for (address);
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (WsWorkerHello) hello = NULL;
  gint64 start = g_get_monotonic_time ();
  Run r;

  run_init (&r);
  hello = connect_to (backend, &r, NULL, &error);
  g_assert_null (hello);
  g_assert_error (error, WS_WORKER_ERROR, WS_WORKER_ERROR_TIMED_OUT);
  g_assert_nonnull (strstr (error->message, "did not answer within 1 s"));
  g_assert_cmpint (g_get_monotonic_time () - start, <, 8 * G_USEC_PER_SEC);
  g_clear_error (&error);
  run_clear (&r);

  run_init (&r);
  start = g_get_monotonic_time ();
  g_timeout_add_once (200, (GSourceOnceFunc) g_cancellable_cancel, cancellable);
  hello = connect_to (other, &r, cancellable, &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpint (g_get_monotonic_time () - start, <, 6 * G_USEC_PER_SEC);
  run_clear (&r);
}

/* ------------------------------------------------------------------ */
/* ssh                                                                */
/* ------------------------------------------------------------------ */

static char *
worker_option (const char *path,
               const char *more)
{
  g_autofree char *escaped = g_uri_escape_string (path, "/", FALSE);

  return g_strdup_printf ("worker=%s%s%s", escaped, more ? "&" : "", more ? more : "");
}

/* The worker of this build, reached through sshd, answers as it does here:
 * no GPU, and why, named with the host. */
static void
test_ssh_measure (void)
{
  g_autofree char *options = NULL;
  g_autofree char *address = NULL;
  g_autoptr (WsBackend) backend = NULL;
  g_autoptr (WsWorkerHello) hello = NULL;
  g_autoptr (WsDeviceInfo) device = NULL;
  g_autoptr (GError) error = NULL;
  Run r;

  if (!need_sshd ())
    return;
  use_ssh (sshd.ssh_command);
  options = worker_option (worker, NULL);
  address = ws_test_sshd_address (&sshd, options);
  backend = backend_for (address);
  run_init (&r);
  hello = connect_to (backend, &r, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (hello->host, ==, g_get_host_name ());
  g_assert_cmpint (hello->protocol, ==, WS_WORKER_PROTOCOL);
  device = probe (backend, &r, &error);
  if (device)
    {
      /* a GPU here after all: the recording says where it was */
      g_assert_cmpstr (device->host, ==, g_get_host_name ());
      g_assert_true (g_str_has_prefix (device->address, "ssh://"));
    }
  else
    {
      g_assert_true (error->domain == WS_GPU_ERROR);
      g_assert_true (g_str_has_prefix (error->message, "on 127.0.0.1, "));
    }
  run_clear (&r);
}

static void
test_ssh_wrong_port (void)
{
  g_autofree char *address = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (WsWorkerHello) hello = NULL;
  int port = ws_test_free_port ();

  if (!need_sshd ())
    return;
  use_ssh (sshd.ssh_command);
  address = g_strdup_printf ("ssh://%s@127.0.0.1:%d", sshd.user, port);
  hello = hello_from (address, &error);
  g_assert_null (hello);
  g_assert_error (error, WS_WORKER_ERROR, WS_WORKER_ERROR_UNREACHABLE);
  g_assert_nonnull (strstr (error->message, "nothing answers on port"));
  g_assert_nonnull (strstr (error->message, "Connection refused"));
}

static void
test_ssh_missing_worker (void)
{
  g_autofree char *options = worker_option ("/nonexistent/build/app/warpscope-gpu-worker", NULL);
  g_autofree char *address = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (WsWorkerHello) hello = NULL;

  if (!need_sshd ())
    return;
  use_ssh (sshd.ssh_command);
  address = ws_test_sshd_address (&sshd, options);
  hello = hello_from (address, &error);
  g_assert_null (hello);
  g_assert_error (error, WS_WORKER_ERROR, WS_WORKER_ERROR_NOT_INSTALLED);
  g_assert_nonnull (strstr (error->message, "is not at /nonexistent/build/app/warpscope-gpu-worker on 127.0.0.1"));
  g_clear_error (&error);

  /* looked for where it is installed: not there, unless this machine has one */
  g_free (address);
  address = ws_test_sshd_address (&sshd, NULL);
  hello = hello_from (address, &error);
  if (hello == NULL)
    {
      g_assert_error (error, WS_WORKER_ERROR, WS_WORKER_ERROR_NOT_INSTALLED);
      g_assert_nonnull (strstr (error->message, "not installed on 127.0.0.1"));
      g_assert_nonnull (strstr (error->message, "meson setup -Dgui=disabled"));
    }
}

static void
test_ssh_auth_refused (void)
{
  g_autofree char *options = worker_option (worker, NULL);
  g_autofree char *address = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (WsWorkerHello) hello = NULL;

  if (!need_sshd ())
    return;
  /* a shared connection of an earlier test would let it in without a login */
  ws_test_sshd_drop_connections (&sshd);
  address = ws_test_sshd_address (&sshd, options);
  use_ssh (sshd.wrong_key_command);
  hello = hello_from (address, &error);
  g_assert_null (hello);
  g_assert_error (error, WS_WORKER_ERROR, WS_WORKER_ERROR_AUTH_REFUSED);
  g_assert_nonnull (strstr (error->message, "refused the login"));
  g_assert_nonnull (strstr (error->message, "Permission denied"));
  g_assert_nonnull (strstr (error->message, "never a password"));
  g_clear_error (&error);

  use_ssh (sshd.unknown_host_command);
  hello = hello_from (address, &error);
  g_assert_null (hello);
  g_assert_error (error, WS_WORKER_ERROR, WS_WORKER_ERROR_AUTH_REFUSED);
  g_assert_nonnull (strstr (error->message, "host key of 127.0.0.1 is not known"));
}

/* Points measured before the connection dropped come back, the sweep
 * fails saying so, and the rest of it is measured on a new connection. */
static void
test_ssh_killed_mid_sweep (void)
{
  g_autofree char *options = NULL;
  g_autofree char *address = NULL;
  g_autofree char *more = g_strdup_printf ("%s --replay-delay 150", recording);
  g_autofree char *script = g_build_filename (scratch, "replaying-worker", NULL);
  g_autofree char *text = g_strdup_printf ("#!/bin/sh\nexec %s --replay %s\n", worker, more);
  g_autoptr (WsBackend) backend = NULL;
  g_autoptr (GPtrArray) first = NULL;
  g_autoptr (GPtrArray) rest = NULL;
  g_autoptr (GError) error = NULL;
  Run r;

  if (!need_sshd ())
    return;
  use_ssh (sshd.ssh_command);
  ws_test_write_script (script, text);
  options = worker_option (script, NULL);
  address = ws_test_sshd_address (&sshd, options);
  backend = backend_for (address);
  run_init (&r);
  r.kill_after = 3;
  first = sweep (backend, &r, 1, 12, &error);
  g_assert_null (first);
  g_assert_error (error, WS_WORKER_ERROR, WS_WORKER_ERROR_CONNECTION_LOST);
  g_assert_nonnull (strstr (error->message, "connection to the GPU worker on 127.0.0.1 was lost"));
  g_assert_nonnull (strstr (error->message, "measurements made are kept"));
  /* the sweep's points so far came back before the error, and stay */
  g_assert_cmpuint (r.points->len, >=, 3);
  g_assert_cmpuint (r.points->len, <, 12);
  for (guint i = 0; i < r.points->len; i++)
    {
      gint64 stride = 0;
      g_assert_true (ws_measurement_get_param (g_ptr_array_index (r.points, i), "stride", &stride));
      g_assert_cmpint (stride, ==, i + 1);
    }
  g_clear_error (&error);

  /* resumed: the rest, through a new connection */
  r.kill_after = 0;
  rest = sweep (backend, &r, r.points->len + 1, 12, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (r.points->len, ==, 12);
  run_clear (&r);
}

/* ------------------------------------------------------------------ */
/* Sessions                                                           */
/* ------------------------------------------------------------------ */

static void
wait_probed (WsSession *session)
{
  while (!ws_session_get_probed (session))
    g_main_context_iteration (NULL, TRUE);
}

static void
on_session_sweep (GObject      *source,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

/* The worker this process started that plays a recording back. */
static GPid
replaying_worker (void)
{
  g_autoptr (GArray) children = ws_test_children (getpid ());

  for (guint i = 0; i < children->len; i++)
    {
      GPid pid = g_array_index (children, GPid, i);
      g_autofree char *path = g_strdup_printf ("/proc/%d/cmdline", pid);
      g_autofree char *cmdline = NULL;
      gsize n;

      if (!g_file_get_contents (path, &cmdline, &n, NULL) || n == 0 ||
          !g_str_has_suffix (cmdline, "warpscope-gpu-worker"))
        continue;
      /* its arguments, each ended by a NUL */
      for (const char *arg = cmdline; arg < cmdline + n; arg += strlen (arg) + 1)
        if (g_str_equal (arg, "--replay"))
          return pid;
    }
  return 0;
}

static void
kill_worker_at_third (WsSession           *session,
                      guint                done,
                      guint                total,
                      const WsMeasurement *latest)
{
  GPid pid;

  if (latest == NULL || done != 3)
    return;
  pid = replaying_worker ();
  g_assert_cmpint (pid, >, 0);
  kill (pid, SIGKILL);
}

/* A session follows its target: connecting, then the handshake; a target
 * out of reach is a failed connection with the reason; a sweep whose
 * connection drops keeps its points, and the values left are the rest. */
static void
test_session (void)
{
  g_autofree char *replay = g_strdup_printf ("exec %s --replay %s --replay-delay 150", worker, recording);
  g_autofree char *address = command_address (replay, NULL);
  g_autoptr (WsGpuTarget) target = ws_gpu_target_parse (address, NULL);
  g_autoptr (WsGpuTarget) nowhere = ws_gpu_target_parse ("command:?run=exit%2042", NULL);
  g_autoptr (WsSession) session = ws_session_new (NULL);
  g_autoptr (WsMeasureRequest) request = ws_measure_request_new ();
  g_autoptr (GArray) values = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr (GArray) left = NULL;
  g_autoptr (GAsyncResult) result = NULL;
  g_autoptr (GPtrArray) points = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *described = NULL;

  g_assert_true (ws_gpu_target_is_local (ws_session_get_target (session)));
  ws_session_set_target (session, nowhere);
  ws_session_probe (session);
  g_assert_cmpint (ws_session_get_connection (session), ==, WS_SESSION_CONNECTION_CONNECTING);
  wait_probed (session);
  g_assert_cmpint (ws_session_get_connection (session), ==, WS_SESSION_CONNECTION_FAILED);
  g_assert_error (ws_session_get_connection_error (session), WS_WORKER_ERROR, WS_WORKER_ERROR_FAILED);
  g_assert_nonnull (strstr (ws_session_get_probe_error (session)->message, "exited with status 42"));
  described = ws_session_describe_gpu (session);
  g_assert_true (g_str_has_prefix (described, "the command “exit 42”: "));
  g_clear_pointer (&described, g_free);

  ws_session_set_target (session, target);
  g_assert_false (ws_session_get_probed (session));
  wait_probed (session);
  g_assert_cmpint (ws_session_get_connection (session), ==, WS_SESSION_CONNECTION_CONNECTED);
  g_assert_nonnull (ws_session_get_device (session));
  g_assert_cmpstr (ws_session_get_hello (session)->replay, ==, "h100.json");
  described = ws_session_describe_gpu (session);
  g_assert_nonnull (strstr (described, "NVIDIA H100 80GB HBM3"));
  /* recordings say where they were measured */
  {
    g_autoptr (WsRecording) made = ws_recording_new (ws_session_get_device (session));
    g_autofree char *data = ws_recording_to_data (made, NULL);
    g_autoptr (WsRecording) read = ws_recording_load_data (data, -1, &error);
    const WsDeviceInfo *d;

    g_assert_no_error (error);
    d = ws_recording_get_device (read);
    g_assert_cmpstr (d->host, ==, g_get_host_name ());
    g_assert_cmpint (d->gpu_index, ==, 0);
    g_assert_true (g_str_has_prefix (d->address, "command:?run="));
  }

  /* the worker is killed after the third point: the first three stay */
  request->kernel_id = g_strdup ("coalescing/strided-sweep");
  for (gint64 v = 1; v <= 8; v++)
    g_array_append_val (values, v);
  g_signal_connect (session, "sweep-progress", G_CALLBACK (kill_worker_at_third), NULL);
  ws_session_sweep_async (session, request, "stride", values, NULL, on_session_sweep, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  points = ws_session_sweep_finish (session, result, &error);
  g_assert_null (points);
  g_assert_error (error, WS_WORKER_ERROR, WS_WORKER_ERROR_CONNECTION_LOST);
  g_assert_nonnull (strstr (error->message, "the measurements made are kept"));
  g_assert_cmpint (ws_session_get_connection (session), ==, WS_SESSION_CONNECTION_LOST);
  g_assert_cmpuint (ws_session_get_live (session)->len, >=, 3);
  g_assert_cmpuint (ws_session_get_live (session)->len, <, 8);
  g_clear_error (&error);
  g_clear_object (&result);
  g_signal_handlers_disconnect_by_func (session, kill_worker_at_third, NULL);

  /* resumed: the values left, on a worker started again */
  left = ws_session_sweep_values_left (session, request, "stride", values);
  g_assert_cmpuint (left->len, ==, 8 - ws_session_get_live (session)->len);
  g_assert_cmpint (g_array_index (left, gint64, 0), ==, ws_session_get_live (session)->len + 1);
  ws_session_sweep_async (session, request, "stride", left, NULL, on_session_sweep, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  points = ws_session_sweep_finish (session, result, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ws_session_get_live (session)->len, ==, 8);
  g_clear_pointer (&left, g_array_unref);
  left = ws_session_sweep_values_left (session, request, "stride", values);
  g_assert_cmpuint (left->len, ==, 0);
}

/* ------------------------------------------------------------------ */
/* warpscope-cli                                                      */
/* ------------------------------------------------------------------ */

/* Runs warpscope-cli with args; its exit status, output and errors. */
static int
cli (const char * const *args,
     char              **out,
     char              **err)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GSubprocess) p = NULL;
  g_autoptr (GError) error = NULL;

  g_ptr_array_add (argv, (char *) g_getenv ("WS_CLI"));
  for (guint i = 0; args[i]; i++)
    g_ptr_array_add (argv, (char *) args[i]);
  g_ptr_array_add (argv, NULL);
  p = g_subprocess_newv ((const char * const *) argv->pdata,
                         G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_communicate_utf8 (p, NULL, NULL, out, err, &error));
  g_assert_no_error (error);
  if (!g_subprocess_get_if_exited (p))
    g_error ("warpscope-cli %s was killed by signal %d; it said: %s", args[0], g_subprocess_get_term_sig (p),
             *err ? *err : "");
  return g_subprocess_get_exit_status (p);
}

static guint
measurements_in (const char *path)
{
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (WsRecording) r = ws_recording_load_file (file, NULL, NULL);

  return r ? ws_recording_get_n_measurements (r) : 0;
}

static void
test_cli_ssh (void)
{
  g_autofree char *options = NULL;
  g_autofree char *address = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *refused = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonObject *o;

  if (!need_sshd ())
    return;
  use_ssh (sshd.ssh_command);
  options = worker_option (worker, NULL);
  address = ws_test_sshd_address (&sshd, options);
  {
    const char *args[] = { "device", "--gpu", address, "--json", NULL };
    int status = cli (args, &out, &err);

    /* no GPU here; the host answered, and its (empty) list of GPUs is said */
    g_assert_true (status == 0 || status == 3);
    g_assert_true (json_parser_load_from_data (parser, out, -1, NULL));
    o = json_node_get_object (json_parser_get_root (parser));
    g_assert_cmpstr (json_object_get_string_member (o, "host"), ==, g_get_host_name ());
    g_assert_true (g_str_has_prefix (json_object_get_string_member (o, "address"), "ssh://"));
    g_assert_true (json_object_has_member (o, "gpus"));
  }
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  refused = g_strdup_printf ("ssh://%s@127.0.0.1:%d", sshd.user, ws_test_free_port ());
  {
    const char *args[] = { "measure", "coalescing/offset", "--gpu", refused, NULL };

    g_assert_cmpint (cli (args, &out, &err), ==, 4);
    g_assert_true (g_str_has_prefix (err, "warpscope-cli measure: nothing answers on port"));
    /* one line, and no recorded numbers stand in for a machine out of reach */
    g_assert_cmpstr (strchr (err, '\n'), ==, err + strlen (err) - 1);
    g_assert_cmpstr (out, ==, "");
  }
}

/* warpscope-cli sweep -o FILE through ssh, its connection killed after a
 * few points: exit status 4, the points kept in FILE; --resume measures
 * the rest. */
static void
test_cli_ssh_resume (void)
{
  g_autofree char *script = g_build_filename (scratch, "slow-worker", NULL);
  g_autofree char *text = g_strdup_printf ("#!/bin/sh\nexec %s --replay %s --replay-delay 250\n", worker, recording);
  g_autofree char *options = NULL;
  g_autofree char *address = NULL;
  g_autofree char *file = g_build_filename (scratch, "sweep.json", NULL);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr (GSubprocess) p = NULL;
  g_autoptr (GError) error = NULL;
  guint kept;

  if (!need_sshd ())
    return;
  use_ssh (sshd.ssh_command);
  ws_test_write_script (script, text);
  options = worker_option (script, NULL);
  address = ws_test_sshd_address (&sshd, options);
  g_remove (file);
  {
    const char *argv[] = { g_getenv ("WS_CLI"), "sweep", "coalescing/strided-sweep", "--values", "1:10",
                           "--gpu", address, "-o", file, NULL };

    p = g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE, &error);
    g_assert_no_error (error);
  }
  for (guint i = 0; i < 400 && measurements_in (file) < 3; i++)
    g_usleep (25000);
  g_assert_cmpuint (measurements_in (file), >=, 3);
  g_assert_cmpuint (ws_test_sshd_drop_connections (&sshd), >, 0);
  g_assert_true (g_subprocess_communicate_utf8 (p, NULL, NULL, &out, &err, &error));
  g_assert_cmpint (g_subprocess_get_exit_status (p), ==, 4);
  g_assert_nonnull (strstr (err, "was lost"));
  g_assert_nonnull (strstr (err, "the same command with --resume measures the rest"));
  kept = measurements_in (file);
  g_assert_cmpuint (kept, >=, 3);
  g_assert_cmpuint (kept, <, 10);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  {
    const char *args[] = { "sweep", "coalescing/strided-sweep", "--values", "1:10", "--gpu", address,
                           "-o", file, "--resume", NULL };

    g_assert_cmpint (cli (args, &out, &err), ==, 0);
  }
  g_assert_cmpuint (measurements_in (file), ==, 10);
  g_assert_nonnull (strstr (out, "of the points resumed from"));
}

/* ------------------------------------------------------------------ */
/* Slurm                                                              */
/* ------------------------------------------------------------------ */

static void
test_slurm (void)
{
  WsTestSlurm slurm;
  g_autofree char *why = ws_test_slurm_start (&slurm);
  g_autofree char *options = NULL;
  g_autofree char *address = NULL;
  g_autofree char *refused = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (WsWorkerHello) hello = NULL;
  g_autoptr (WsDeviceInfo) device = NULL;
  g_autoptr (WsBackend) backend = NULL;
  g_autoptr (WsBackend) waiting = NULL;
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autoptr (GSubprocess) holder = NULL;
  Run r;

  if (why)
    {
      ws_test_slurm_stop (&slurm);
      g_test_skip (why);
      return;
    }

  /* the worker on the node srun allocates; the node has no GPU to ask for */
  options = worker_option (worker, "gres=none");
  address = g_strdup_printf ("slurm://%s?%s", slurm.partition, options);
  backend = backend_for (address);
  run_init (&r);
  hello = connect_to (backend, &r, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (hello->job);
  g_assert_cmpint (hello->protocol, ==, WS_WORKER_PROTOCOL);
  device = probe (backend, &r, &error);
  g_assert_true (device != NULL || error->domain == WS_GPU_ERROR);
  g_clear_error (&error);
  run_clear (&r);

  /* a partition that does not exist */
  refused = g_strdup_printf ("slurm://nosuchpartition?%s", options);
  g_clear_pointer (&hello, ws_worker_hello_free);
  hello = hello_from (refused, &error);
  g_assert_null (hello);
  g_assert_error (error, WS_WORKER_ERROR, WS_WORKER_ERROR_SLURM_REFUSED);
  g_assert_nonnull (strstr (error->message, "Invalid partition"));
  g_clear_error (&error);

  /* the node is busy (backend's worker holds its one CPU): the next job
   * waits in the queue, says so, and is withdrawn when cancelled */
  waiting = backend_for (address);
  run_init (&r);
  r.cancel_when_queued = cancellable;
  hello = connect_to (waiting, &r, cancellable, &error);
  g_assert_null (hello);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_nonnull (strstr (error->message, "is withdrawn"));
  g_assert_cmpuint (r.states->len, >=, 2);
  g_assert_true (g_str_has_prefix (g_ptr_array_index (r.states, 1), "queued "));
  run_clear (&r);

  /* nothing hangs: a job that does not start within the wait is withdrawn */
  {
    g_autofree char *impatient = g_strdup_printf ("%s&wait=2", address);
    gint64 start = g_get_monotonic_time ();

    g_clear_error (&error);
    hello = hello_from (impatient, &error);
    g_assert_null (hello);
    g_assert_error (error, WS_WORKER_ERROR, WS_WORKER_ERROR_TIMED_OUT);
    g_assert_nonnull (strstr (error->message, "within 2 s, and it is withdrawn"));
    g_assert_cmpint (g_get_monotonic_time () - start, <, 10 * G_USEC_PER_SEC);
  }

  /* salloc, then the worker as a step of that allocation */
  g_clear_object (&backend);
  g_clear_object (&waiting);
  g_clear_error (&error);
  {
    const char *argv[] = { "salloc", "--no-shell", "-N1", "-n1", "-p", slurm.partition, NULL };
    g_autoptr (GSubprocess) p = g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                                   G_SUBPROCESS_FLAGS_STDERR_MERGE, &error);
    g_autofree char *said = NULL;
    g_autofree char *job = NULL;
    g_autofree char *in_job = NULL;
    g_autofree char *worker_only = worker_option (worker, NULL);
    g_autoptr (WsWorkerHello) step = NULL;
    const char *granted;

    g_assert_no_error (error);
    g_assert_true (g_subprocess_communicate_utf8 (p, NULL, NULL, &said, NULL, &error));
    granted = strstr (said, "Granted job allocation ");
    if (granted == NULL)
      g_error ("salloc: %s", said);
    granted += strlen ("Granted job allocation ");
    job = g_strndup (granted, strspn (granted, "0123456789"));
    in_job = g_strdup_printf ("slurm://?jobid=%s&%s", job, worker_only);
    step = hello_from (in_job, &error);
    g_assert_no_error (error);
    g_assert_cmpstr (step->job, ==, job);
    {
      const char *cancel[] = { "scancel", job, NULL };
      g_autoptr (GSubprocess) c = g_subprocess_newv (cancel, G_SUBPROCESS_FLAGS_NONE, NULL);

      g_subprocess_wait (c, NULL, NULL);
    }
  }
  ws_test_slurm_stop (&slurm);
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *runtime = g_dir_make_tmp ("ws-run-XXXXXX", NULL);
  int status;

  /* ssh's shared connections live here, apart from the user's */
  g_chmod (runtime, 0700);
  g_setenv ("XDG_RUNTIME_DIR", runtime, TRUE);
  g_test_init (&argc, &argv, NULL);
  worker = g_build_filename (WS_BUILD_APPDIR, "warpscope-gpu-worker", NULL);
  recording = g_build_filename (WS_SOURCE_DATADIR, "recordings", "h100.json", NULL);
  scratch = g_dir_make_tmp ("ws-remote-XXXXXX", NULL);
  sshd_missing = ws_test_sshd_start (&sshd);

  g_test_add_func ("/remote/target/round-trip", test_target_round_trip);
  g_test_add_func ("/remote/target/parts", test_target_parts);
  g_test_add_func ("/remote/target/refused", test_target_refused);
  g_test_add_func ("/remote/transport/argv", test_transport_argv);
  g_test_add_func ("/remote/local/hello", test_local_hello);
  g_test_add_func ("/remote/command/hello", test_command_hello);
  g_test_add_func ("/remote/command/mismatch", test_command_mismatch);
  g_test_add_func ("/remote/command/fails", test_command_fails);
  g_test_add_func ("/remote/command/no-answer", test_command_no_answer);
  g_test_add_func ("/remote/ssh/measure", test_ssh_measure);
  g_test_add_func ("/remote/ssh/wrong-port", test_ssh_wrong_port);
  g_test_add_func ("/remote/ssh/missing-worker", test_ssh_missing_worker);
  g_test_add_func ("/remote/ssh/auth-refused", test_ssh_auth_refused);
  g_test_add_func ("/remote/ssh/killed-mid-sweep", test_ssh_killed_mid_sweep);
  g_test_add_func ("/remote/session/target", test_session);
  g_test_add_func ("/remote/cli/ssh", test_cli_ssh);
  g_test_add_func ("/remote/cli/ssh-resume", test_cli_ssh_resume);
  g_test_add_func ("/remote/slurm", test_slurm);
  status = g_test_run ();

  ws_test_sshd_stop (&sshd);
  {
    const char *rm[] = { "rm", "-rf", scratch, runtime, NULL };
    g_autoptr (GSubprocess) p = g_subprocess_newv (rm, G_SUBPROCESS_FLAGS_NONE, NULL);
    g_subprocess_wait (p, NULL, NULL);
  }
  return status;
}
