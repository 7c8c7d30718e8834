/* SPDX-License-Identifier: GPL-3.0-or-later */
/* warpscope-cli as an unlucky user or an attacker meets it (issue 29): a
 * standard output that cannot be written, a sweep whose file cannot be
 * saved (from the start, or once the disk fills), the resume message of a
 * sweep that stops, a worker command whose children would outlive it, a
 * worker that answers what is not its protocol, signals while a file is
 * written, numbers too large, names of a megabyte, files that are devices,
 * pipes or folders. The GPU here is a worker playing a recording back. */
#include "ws-config.h"
#include "ws-recording.h"

#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

static gboolean hidden_file_in (const char *dir, const char *prefix);

static char *scratch;
static char *worker;           /* this build's GPU worker */
static char *h100;             /* the recording it plays back */

/* ------------------------------------------------------------------ */
/* Running warpscope-cli                                              */
/* ------------------------------------------------------------------ */

typedef struct
{
  int status;                  /* exit status, or -signal */
  char *out;
  char *err;
  double seconds;
} Run;

static void
run_clear (Run *r)
{
  g_free (r->out);
  g_free (r->err);
}

typedef void (*ChildSetup) (gpointer data);

static void
run_with (Run        *r,
          const char *stdout_path,
          ChildSetup  setup,
          gpointer    setup_data,
          GStrv       args)
{
  g_autoptr (GSubprocessLauncher) launcher = NULL;
  g_autoptr (GSubprocess) proc = NULL;
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GError) error = NULL;
  gint64 start = g_get_monotonic_time ();
  GSubprocessFlags flags = G_SUBPROCESS_FLAGS_STDERR_PIPE;

  if (stdout_path == NULL)
    flags |= G_SUBPROCESS_FLAGS_STDOUT_PIPE;
  launcher = g_subprocess_launcher_new (flags);
  if (stdout_path)
    g_subprocess_launcher_set_stdout_file_path (launcher, stdout_path);
  if (setup)
    g_subprocess_launcher_set_child_setup (launcher, setup, setup_data, NULL);
  g_subprocess_launcher_set_cwd (launcher, scratch);
  g_ptr_array_add (argv, (char *) g_getenv ("WS_CLI"));
  for (guint i = 0; args[i]; i++)
    g_ptr_array_add (argv, args[i]);
  g_ptr_array_add (argv, NULL);
  proc = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv->pdata, &error);
  g_assert_no_error (error);
  memset (r, 0, sizeof *r);
  g_assert_true (g_subprocess_communicate_utf8 (proc, NULL, NULL, &r->out, &r->err, &error));
  g_assert_no_error (error);
  r->status = g_subprocess_get_if_exited (proc) ? g_subprocess_get_exit_status (proc)
                                                 : -g_subprocess_get_term_sig (proc);
  r->seconds = (g_get_monotonic_time () - start) / 1e6;
  g_test_message ("%.2f s, status %d: %s", r->seconds, r->status, r->err);
}

/* warpscope-cli with the arguments up to NULL. */
static void
run (Run        *r,
     const char *first,
     ...)
{
  g_autoptr (GPtrArray) args = g_ptr_array_new ();
  va_list ap;

  va_start (ap, first);
  for (const char *a = first; a; a = va_arg (ap, const char *))
    g_ptr_array_add (args, (char *) a);
  va_end (ap);
  g_ptr_array_add (args, NULL);
  run_with (r, NULL, NULL, NULL, (GStrv) args->pdata);
}

static void
assert_says (const Run  *r,
             const char *fragment)
{
  if (strstr (r->err, fragment) == NULL)
    g_error ("expected “%s” in “%s”", fragment, r->err);
}

/* The worker playing h100.json back, delay ms a measurement, killed after
 * kill_after seconds if that is not NULL. */
static char *
replay_command (guint       delay,
                const char *kill_after)
{
  if (kill_after)
    return g_strdup_printf ("exec timeout -s KILL %s %s --replay %s --replay-delay %u", kill_after, worker, h100,
                            delay);
  return g_strdup_printf ("exec %s --replay %s --replay-delay %u", worker, h100, delay);
}

static char *
path_in_scratch (const char *name)
{
  return g_build_filename (scratch, name, NULL);
}

/* ------------------------------------------------------------------ */
/* Standard output that cannot be written                             */
/* ------------------------------------------------------------------ */

static void
test_stdout_full (void)
{
  g_autofree char *replay = replay_command (0, NULL);
  const char *commands[][12] = {
    { "list", NULL },
    { "list", "--json", NULL },
    /* a small launch: what is written matters here, not the model's work */
    { "model", "--preset", "coalescing/sequential", "--set", "N=65536", NULL },
    { "model", "--preset", "coalescing/sequential", "--set", "N=65536", "--json", NULL },
    { "model", "--list-presets", NULL },
    { "--help", NULL },
    { "--version", NULL },
    { "help", "sweep", NULL },
    { "export", "--help", NULL },
    { "device", "--json", NULL },
    { "measure", "coalescing/stride", NULL },
    { "sweep", "coalescing/strided-sweep", "--json", NULL },
    { "sweep", "coalescing/strided-sweep", "--gpu-command", replay, NULL },
    { "measure", "coalescing/stride", "--gpu-command", replay, "--json", NULL },
    { "device", "--gpu-command", replay, NULL },
    { "export", "--preset", "coalescing/stride", "--view", "plot", "--format", "csv", "-o", "-", NULL },
    { "export", "--preset", "coalescing/stride", "--view", "warp", "--format", "svg", "-o", "-", NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    {
      Run r;

      run_with (&r, "/dev/full", NULL, NULL, (GStrv) commands[i]);
      g_assert_cmpint (r.status, ==, 1);
      g_assert_true (strstr (r.err, "could not write to standard output") ||
                     strstr (r.err, "could not write all of the output to standard output") ||
                     strstr (r.err, "could not write -: No space left on device"));
      run_clear (&r);
    }
}

/* ------------------------------------------------------------------ */
/* A sweep (or record) whose file cannot be saved                     */
/* ------------------------------------------------------------------ */

/* Files that cannot be written at all: said before a point is measured. */
static void
test_sweep_unwritable (void)
{
  g_autofree char *replay = replay_command (0, NULL);
  g_autofree char *file = path_in_scratch ("a-file");
  g_autofree char *under_file = g_build_filename (file, "x.json", NULL);
  const char *outputs[] = { "missing-folder/x.json", "/dev/full", "/dev/null", under_file, scratch };

  g_assert_true (g_file_set_contents (file, "", 0, NULL));
  for (guint i = 0; i < G_N_ELEMENTS (outputs); i++)
    {
      Run r;

      run (&r, "sweep", "coalescing/strided-sweep", "--gpu-command", replay, "-o", outputs[i], NULL);
      g_assert_cmpint (r.status, ==, 2);
      assert_says (&r, "warpscope-cli sweep: -o: could not write");
      g_assert_cmpstr (r.out, ==, "");
      run_clear (&r);
      run (&r, "record", "--only", "coalescing/", "--gpu-command", replay, "-o", outputs[i], NULL);
      g_assert_cmpint (r.status, ==, 2);
      assert_says (&r, "warpscope-cli record: -o: could not write");
      run_clear (&r);
    }
}

/* A disk that fills: files grow past RLIMIT_FSIZE no more (and SIGXFSZ,
 * which warpscope-cli ignores, does not end it). */
static void
limit_file_size (gpointer data)
{
  struct rlimit limit = { GPOINTER_TO_UINT (data), GPOINTER_TO_UINT (data) };

  setrlimit (RLIMIT_FSIZE, &limit);
}

static guint
measurements_in (const char *path)
{
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GError) error = NULL;
  g_autoptr (WsRecording) r = ws_recording_load_file (file, NULL, &error);

  g_assert_no_error (error);
  return ws_recording_get_n_measurements (r);
}

/* The count in "…, of which N are kept in FILE". */
static guint
kept_said (const Run *r)
{
  const char *p = strstr (r->err, "of which ");

  g_assert_nonnull (p);
  return (guint) g_ascii_strtoull (p + strlen ("of which "), NULL, 10);
}

/* The model's answers for what a test's command models, kept where the
 * model keeps them (WS_MODEL_CACHE_DIR) by the same command run once where
 * it can write: a process whose files cannot grow cannot keep them, and
 * would model the strided sweep's 32 launches again on every run (seconds
 * each under the sanitizers), when what these tests are about is the file
 * the command writes. */
static void
keep_the_model (GStrv args)
{
  g_autoptr (GPtrArray) first = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *path = NULL;
  Run r;

  /* its output to a file of its own (of the same kind), that then goes */
  for (guint i = 0; args[i]; i++)
    {
      if (i > 0 && g_str_equal (args[i - 1], "-o"))
        {
          g_autofree char *base = g_path_get_basename (args[i]);
          g_autofree char *name = g_strconcat ("first-", base, NULL);

          path = path_in_scratch (name);
          g_ptr_array_add (first, g_strdup (path));
        }
      else
        g_ptr_array_add (first, g_strdup (args[i]));
    }
  g_ptr_array_add (first, NULL);
  run_with (&r, NULL, NULL, NULL, (GStrv) first->pdata);
  g_assert_cmpint (r.status, ==, 0);
  run_clear (&r);
  if (path)
    g_unlink (path);
}

static void
test_sweep_disk_fills (void)
{
  g_autofree char *replay = replay_command (0, NULL);
  g_autofree char *path = path_in_scratch ("fills.json");
  const char *args[] = { "sweep", "coalescing/strided-sweep", "--gpu-command", replay, "-o", path, NULL };
  const char *resume[] = { "sweep", "coalescing/strided-sweep", "--gpu-command", replay, "-o", path, "--resume",
                           NULL };
  Run r;
  guint kept;

  keep_the_model ((GStrv) args);
  g_unlink (path);
  /* room for about ten points */
  run_with (&r, NULL, limit_file_size, GUINT_TO_POINTER (12000), (GStrv) args);
  g_assert_cmpint (r.status, ==, 1);
  assert_says (&r, "warpscope-cli sweep: could not write");
  assert_says (&r, "File too large");
  assert_says (&r, "warpscope-cli sweep: stopped after ");
  assert_says (&r, "of 32 points, of which ");
  assert_says (&r, "the same command with --resume measures the rest");
  kept = kept_said (&r);
  g_assert_cmpuint (kept, >, 0);
  g_assert_cmpuint (kept, <, 32);
  /* what it says is kept is what the file holds, and nothing was half written */
  g_assert_cmpuint (measurements_in (path), ==, kept);
  run_clear (&r);

  /* with room again, --resume measures the rest */
  run_with (&r, NULL, NULL, NULL, (GStrv) resume);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpuint (measurements_in (path), ==, 32);
  run_clear (&r);
}

/* The same with record, whose points are the suite's. */
static void
test_record_disk_fills (void)
{
  g_autofree char *replay = replay_command (0, NULL);
  g_autofree char *path = path_in_scratch ("record-fills.json");
  const char *args[] = { "record", "--only", "coalescing/", "--gpu-command", replay, "-o", path, NULL };
  const char *resume[] = { "record", "--only", "coalescing/", "--gpu-command", replay, "-o", path, "--resume",
                           NULL };
  Run r;
  guint kept, all;

  g_unlink (path);
  run_with (&r, NULL, limit_file_size, GUINT_TO_POINTER (12000), (GStrv) args);
  g_assert_cmpint (r.status, ==, 1);
  assert_says (&r, "warpscope-cli record: could not write");
  assert_says (&r, "warpscope-cli record: stopped after ");
  kept = kept_said (&r);
  g_assert_cmpuint (kept, >, 0);
  g_assert_cmpuint (measurements_in (path), ==, kept);
  run_clear (&r);
  run_with (&r, NULL, NULL, NULL, (GStrv) resume);
  g_assert_cmpint (r.status, ==, 0);
  all = measurements_in (path);
  g_assert_cmpuint (all, >, kept);
  run_clear (&r);
}

/* Other writes onto a disk that fills: an export in each format fails with
 * status 1 and a line, the file it replaces stays as it was, and no hidden
 * file is left beside it. */
static void
test_export_disk_fills (void)
{
  const char *formats[] = { "png", "svg", "pdf", "csv", "json" };

  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    {
      g_autofree char *name = g_strdup_printf ("full.%s", formats[i]);
      g_autofree char *path = path_in_scratch (name);
      g_autofree char *hidden = g_strdup_printf (".%s.", name);
      g_autofree char *after = NULL;
      const char *args[] = { "export", "--preset", "coalescing/strided-sweep", "--view", "plot", "-o", path, NULL };
      Run r;

      if (i == 0)
        keep_the_model ((GStrv) args);
      g_assert_true (g_file_set_contents (path, "the old one", -1, NULL));
      run_with (&r, NULL, limit_file_size, GUINT_TO_POINTER (512), (GStrv) args);
      g_assert_cmpint (r.status, ==, 1);
      assert_says (&r, "could not write");
      assert_says (&r, "File too large");
      g_assert_true (g_file_get_contents (path, &after, NULL, NULL));
      g_assert_cmpstr (after, ==, "the old one");
      g_assert_false (hidden_file_in (scratch, hidden));
      run_clear (&r);
    }
}

/* ------------------------------------------------------------------ */
/* What the resume message counts                                     */
/* ------------------------------------------------------------------ */

/* A file of the same GPU holding other kernels' measurements (the
 * recording but its strided sweep), and one worker that is killed after a
 * few points: the message counts this sweep's points, not the file's. */
static void
test_resume_counts (void)
{
  g_autofree char *replay = replay_command (150, "1.5");
  g_autofree char *slow = replay_command (10000, "1");
  g_autofree char *path = path_in_scratch ("others.json");
  g_autofree char *none = path_in_scratch ("never-written.json");
  g_autoptr (GFile) source = g_file_new_for_path (h100);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (WsRecording) all = ws_recording_load_file (source, NULL, NULL);
  g_autoptr (WsRecording) others = ws_recording_new_copy_of (all);
  g_autoptr (GError) error = NULL;
  const char *p;
  guint others_n = 0;
  Run r;

  for (guint i = 0; i < ws_recording_get_n_measurements (all); i++)
    if (!g_str_equal (ws_recording_get_measurement (all, i)->id, "coalescing/strided-sweep"))
      {
        ws_recording_add (others, ws_recording_get_measurement (all, i));
        others_n++;
      }
  g_assert_cmpuint (others_n, >, 32);
  g_assert_true (ws_recording_save_file (others, file, NULL, &error));
  g_assert_no_error (error);

  run (&r, "sweep", "coalescing/strided-sweep", "--gpu-command", replay, "-o", path, "--resume", NULL);
  g_assert_cmpint (r.status, ==, 4);
  /* what it prints is this sweep's points, none of the file's others */
  g_assert_nonnull (strstr (r.out, "0 of the points resumed from"));
  g_assert_null (strstr (r.out, "coalescing/stride,"));
  p = strstr (r.err, " of 32 measured, kept in ");
  g_assert_nonnull (p);
  {
    const char *n = p;
    guint said;

    while (n > r.err && g_ascii_isdigit (n[-1]))
      n--;
    said = (guint) g_ascii_strtoull (n, NULL, 10);
    g_assert_cmpuint (said, >, 0);
    g_assert_cmpuint (said, <, 32);
    g_assert_cmpuint (measurements_in (path), ==, others_n + said);
  }
  run_clear (&r);

  /* nothing measured, nothing written: nothing said to be kept */
  g_unlink (none);
  run (&r, "sweep", "coalescing/strided-sweep", "--gpu-command", slow, "-o", none, NULL);
  g_assert_cmpint (r.status, ==, 4);
  g_assert_null (strstr (r.err, "kept in"));
  g_assert_null (strstr (r.err, "0 of 32"));
  g_assert_false (g_file_test (none, G_FILE_TEST_EXISTS));
  run_clear (&r);
}

/* ------------------------------------------------------------------ */
/* A worker command's children                                        */
/* ------------------------------------------------------------------ */

/* Whether a process whose command line is cmdline runs. */
static gboolean
process_runs (const char *cmdline)
{
  g_autoptr (GDir) proc = g_dir_open ("/proc", 0, NULL);
  const char *name;

  while ((name = g_dir_read_name (proc)))
    {
      g_autofree char *path = g_build_filename ("/proc", name, "cmdline", NULL);
      g_autofree char *text = NULL;
      gsize length;

      if (!g_ascii_isdigit (name[0]) || !g_file_get_contents (path, &text, &length, NULL))
        continue;
      for (gsize i = 0; i + 1 < length; i++)
        if (text[i] == '\0')
          text[i] = ' ';
      if (g_strcmp0 (text, cmdline) == 0)
        return TRUE;
    }
  return FALSE;
}

static gboolean
gone_within (const char *cmdline,
             guint       ms)
{
  gint64 end = g_get_monotonic_time () + ms * 1000;

  while (process_runs (cmdline))
    {
      if (g_get_monotonic_time () > end)
        return FALSE;
      g_usleep (20000);
    }
  return TRUE;
}

/* A worker that never answers is given up on; what its shell started goes
 * with it, as does what a command that starts several things started. */
static void
test_worker_group (void)
{
  g_autofree char *sleeper = g_strdup_printf ("sleep 1001.%d", (int) getpid ());
  g_autofree char *address = g_strdup_printf ("command:?run=sleep%%201001.%d&wait=2", (int) getpid ());
  g_autofree char *background = g_strdup_printf ("sleep 1002.%d", (int) getpid ());
  g_autofree char *both = g_strdup_printf ("sleep 1002.%d & sleep 1003.%d", (int) getpid (), (int) getpid ());
  g_autofree char *third = g_strdup_printf ("sleep 1003.%d", (int) getpid ());
  g_autofree char *both_address = g_strdup_printf ("command:%s?wait=2", both);
  Run r;

  run (&r, "device", "--gpu", address, NULL);
  g_assert_cmpint (r.status, ==, 4);
  assert_says (&r, "did not answer within 2 s");
  g_assert_true (gone_within (sleeper, 3000));
  run_clear (&r);

  run (&r, "measure", "coalescing/stride", "--gpu", both_address, NULL);
  g_assert_cmpint (r.status, ==, 4);
  g_assert_true (gone_within (background, 3000));
  g_assert_true (gone_within (third, 3000));
  run_clear (&r);
}

/* Ended by a signal while it waits for the worker: the group goes too. */
static void
test_worker_group_signal (void)
{
  g_autofree char *sleeper = g_strdup_printf ("sleep 1004.%d", (int) getpid ());
  g_autofree char *address = g_strdup_printf ("command:?run=sleep%%201004.%d&wait=60", (int) getpid ());
  const int signals[] = { SIGTERM, SIGINT, SIGHUP };

  for (guint i = 0; i < G_N_ELEMENTS (signals); i++)
    {
      const char *argv[] = { g_getenv ("WS_CLI"), "device", "--gpu", address, NULL };
      g_autoptr (GSubprocess) proc = g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDERR_SILENCE, NULL);
      gint64 end = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;

      g_assert_nonnull (proc);
      while (!process_runs (sleeper) && g_get_monotonic_time () < end)
        g_usleep (20000);
      g_assert_true (process_runs (sleeper));
      g_subprocess_send_signal (proc, signals[i]);
      g_assert_true (g_subprocess_wait (proc, NULL, NULL));
      g_assert_true (g_subprocess_get_if_signaled (proc));
      g_assert_cmpint (g_subprocess_get_term_sig (proc), ==, signals[i]);
      g_assert_true (gone_within (sleeper, 3000));
    }
}

/* ------------------------------------------------------------------ */
/* A worker that answers what is not its protocol                     */
/* ------------------------------------------------------------------ */

/* A fake worker: the real one's handshake and device, then answer for the
 * measurement. */
static char *
fake_worker (const char *name,
             const char *answer)
{
  static char *real = NULL;
  g_autofree char *path = path_in_scratch (name);
  g_autofree char *answer_path = g_strconcat (path, ".answer", NULL);
  g_autofree char *script = NULL;

  if (real == NULL)
    {
      g_autofree char *command = g_strdup_printf ("%s --replay %s", worker, h100);
      g_auto (GStrv) argv = NULL;
      g_autoptr (GSubprocess) proc = NULL;
      g_autofree char *out = NULL;
      const char *requests =
        "{\"id\":1,\"op\":\"hello\",\"protocol\":2,\"version\":\"" WS_VERSION "\",\"gpu\":0}\n"
        "{\"id\":2,\"op\":\"probe\"}\n"
        "{\"id\":3,\"op\":\"measure\",\"kernel\":\"coalescing/stride\",\"params\":{},"
        "\"options\":{\"samples\":10,\"warmup\":2,\"cold\":true,\"counters\":false}}\n";

      g_assert_true (g_shell_parse_argv (command, NULL, &argv, NULL));
      proc = g_subprocess_newv ((const char * const *) argv, G_SUBPROCESS_FLAGS_STDIN_PIPE |
                                G_SUBPROCESS_FLAGS_STDOUT_PIPE, NULL);
      g_assert_true (g_subprocess_communicate_utf8 (proc, requests, NULL, &out, NULL, NULL));
      real = path_in_scratch ("real-answers");
      g_assert_true (g_file_set_contents (real, out, -1, NULL));
    }
  if (g_str_equal (answer, "NEGATIVE"))
    {
      g_autofree char *text = NULL;
      g_auto (GStrv) lines = NULL;
      g_autoptr (GRegex) median = g_regex_new ("\"median_ms\":[0-9.e-]+", 0, 0, NULL);
      g_autofree char *negative = NULL;

      g_assert_true (g_file_get_contents (real, &text, NULL, NULL));
      lines = g_strsplit (text, "\n", -1);
      negative = g_regex_replace_literal (median, lines[2], -1, 0, "\"median_ms\":-0.25", 0, NULL);
      g_assert_true (g_file_set_contents (answer_path, negative, -1, NULL));
    }
  else
    g_assert_true (g_file_set_contents (answer_path, answer, -1, NULL));
  script = g_strdup_printf ("#!/bin/sh\nread l; sed -n 1p '%s'\nread l; sed -n 2p '%s'\nread l; cat '%s'; echo\n"
                            "exec sleep 1000\n", real, real, answer_path);
  g_assert_true (g_file_set_contents (path, script, -1, NULL));
  g_chmod (path, 0755);
  return g_steal_pointer (&path);
}

static void
test_worker_protocol (void)
{
  static const struct { const char *answer; const char *says; } cases[] = {
    { "not JSON at all", "answered “not JSON at all”, which is not an answer of Warpscope's protocol" },
    { "{\"id\":3,\"reply\":NaN}", "answered “{\"id\":3,\"reply\":NaN}”" },
    { "{\"id\":3,\"reply\":{\"median_ms\":nan}}", "answered “{\"id\":3,\"reply\":{\"median_ms\":nan}}”" },
    { "{\"id\":7,\"reply\":{}}", "answered “{\"id\":7,\"reply\":{}}”" },
    { "{\"id\":3}", "answered “{\"id\":3}”" },
    { "{\"id\":3,\"progress\":[9,2]}", "[9,2]" },
    { "{\"id\":3,\"reply\":{\"version\":99999999999999999999}}", "99999999999999999999" },
    { "NEGATIVE", "answered with something Warpscope does not read: measurement.median_ms: -0.25" },
    { "{\"id\":3,\"reply\":[1,2]}", "answered with something Warpscope does not read" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *name = g_strdup_printf ("fake-%u", i);
      g_autofree char *fake = fake_worker (name, cases[i].answer);
      Run r;

      run (&r, "measure", "coalescing/stride", "--gpu-command", fake, NULL);
      g_assert_cmpint (r.status, ==, 4);
      assert_says (&r, cases[i].says);
      /* at once, not after the worker's silence of two minutes */
      g_assert_cmpfloat (r.seconds, <, 20);
      run_clear (&r);
    }
}

/* In the handshake, a line that is an answer with another id is said at
 * once; one that is text (a shell's startup file) is passed over. */
static void
test_handshake_wrong_id (void)
{
  g_autofree char *script = path_in_scratch ("wrong-hello");
  Run r;

  g_assert_true (g_file_set_contents (script, "#!/bin/sh\nread l\necho 'Welcome!'\n"
                                      "echo '{\"id\":5,\"reply\":{\"protocol\":2}}'\nexec sleep 1000\n", -1, NULL));
  g_chmod (script, 0755);
  run (&r, "device", "--gpu-command", script, NULL);
  g_assert_cmpint (r.status, ==, 4);
  assert_says (&r, "answered “{\"id\":5,\"reply\":{\"protocol\":2}}”");
  g_assert_null (strstr (r.err, "Welcome"));
  g_assert_cmpfloat (r.seconds, <, 20);
  run_clear (&r);
}

/* ------------------------------------------------------------------ */
/* Signals while a file is written                                    */
/* ------------------------------------------------------------------ */

static gboolean
hidden_file_in (const char *dir,
                const char *prefix)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  while ((name = g_dir_read_name (d)))
    if (g_str_has_prefix (name, prefix))
      return TRUE;
  return FALSE;
}

/* A large PNG takes seconds to encode: the signal comes while its hidden
 * file is written; after it, neither that file nor a changed target. */
static void
test_export_signals (void)
{
  g_autofree char *dir = path_in_scratch ("signals");
  g_autofree char *target = g_build_filename (dir, "big.png", NULL);
  const int signals[] = { SIGINT, SIGTERM, SIGHUP };

  g_mkdir_with_parents (dir, 0755);
  for (guint i = 0; i < G_N_ELEMENTS (signals) + 1; i++)
    {
      const char *argv[] = { g_getenv ("WS_CLI"), "export", "--preset", "coalescing/stride", "--view", "plot",
                             "--width", "2000", "--height", "2000", "--scale", "2", "-o", target, NULL };
      g_autoptr (GSubprocess) proc = NULL;
      g_autofree char *before = NULL;
      g_autofree char *after = NULL;
      gint64 end = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
      int sig = signals[i % G_N_ELEMENTS (signals)];

      g_assert_true (g_file_set_contents (target, "the old figure", -1, NULL));
      proc = g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDERR_SILENCE, NULL);
      while (!hidden_file_in (dir, ".big.png.") && g_get_monotonic_time () < end &&
             g_subprocess_get_identifier (proc))
        g_usleep (2000);
      g_assert_true (hidden_file_in (dir, ".big.png."));
      /* early, and a little later in the writing */
      g_usleep (i < G_N_ELEMENTS (signals) ? 0 : 20000);
      g_subprocess_send_signal (proc, sig);
      g_assert_true (g_subprocess_wait (proc, NULL, NULL));
      if (g_subprocess_get_if_signaled (proc))
        g_assert_cmpint (g_subprocess_get_term_sig (proc), ==, sig);
      g_assert_false (hidden_file_in (dir, ".big.png."));
      g_assert_true (g_file_get_contents (target, &after, NULL, NULL));
      /* the old one, or the whole new one if it was done */
      g_assert_true (g_str_equal (after, "the old figure") || g_str_has_prefix (after, "\x89PNG"));
    }
}

/* ------------------------------------------------------------------ */
/* Numbers                                                            */
/* ------------------------------------------------------------------ */

static void
test_numbers (void)
{
  g_autofree char *version = path_in_scratch ("version.json");
  g_autofree char *text = NULL;
  g_autofree char *bigger = NULL;
  Run r;

  run (&r, "model", "--index", "lane", "--grid", "2147483648", NULL);
  g_assert_cmpint (r.status, ==, 2);
  assert_says (&r, "--grid: “2147483648” in “2147483648” is too large (component 1): at most 2147483647");
  run_clear (&r);
  run (&r, "model", "--index", "lane", "--block", "32,99999999999999999999999", NULL);
  g_assert_cmpint (r.status, ==, 2);
  assert_says (&r, "is too large (component 2): at most 2147483647");
  run_clear (&r);
  run (&r, "model", "--index", "lane", "--grid", "-5", NULL);
  g_assert_cmpint (r.status, ==, 2);
  assert_says (&r, "is not a positive integer");
  run_clear (&r);

  /* a recording's version, and any whole number, beyond 64 bits */
  g_assert_true (g_file_get_contents (h100, &text, NULL, NULL));
  bigger = g_strdup_printf ("{\"format\" : \"warpscope-recording\", \"version\" : 99999999999999999999, %s",
                            strstr (text, "\"program_version\""));
  g_assert_true (g_file_set_contents (version, bigger, -1, NULL));
  run (&r, "export", "--recording", version, "--preset", "coalescing/stride", "--view", "plot", "-o", "x.csv", NULL);
  g_assert_cmpint (r.status, ==, 2);
  assert_says (&r, "version: the whole number 99999999999999999999 is beyond what 64 bits hold");
  {
    /* the file's name is random (a scratch folder), so look for a wrapped
     * "-1" only in what the message says after it */
    const char *said = strstr (r.err, "version.json");
    g_assert_nonnull (said);
    g_assert_null (strstr (said, "-1"));
  }
  run_clear (&r);

  /* command:CMD?wait=N: the wait is this program's, not the shell's */
  run (&r, "device", "--gpu", "command:sleep 1005?wait=1", NULL);
  g_assert_cmpint (r.status, ==, 4);
  assert_says (&r, "did not answer within 1 s");
  g_assert_cmpfloat (r.seconds, <, 10);
  run_clear (&r);
}

/* ------------------------------------------------------------------ */
/* Files that are devices, pipes, folders or /proc's                  */
/* ------------------------------------------------------------------ */

/* Every file the commands read is refused at once, and in one line, when
 * it is no regular file (model --device /dev/zero grew to 24 GB; export
 * --recording /dev/zero read 4.2 GB), and read no further than its cap
 * when it says it is empty (/proc). */
static void
test_loaders (void)
{
  g_autofree char *fifo = path_in_scratch ("loader-fifo");
  g_autofree char *replay = replay_command (0, NULL);
  const struct { const char *path; const char *says; } files[] = {
    { "/dev/zero", "is a device, not a file" },
    { "/dev/urandom", "is a device, not a file" },
    { fifo, "is a pipe, not a file" },
    { scratch, "is a folder" },
    { "/proc/self/maps", "not" },
    { "/proc/self/mountinfo", "not" },
  };

  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      const char *path = files[i].path;
      Run r;

      run (&r, "model", "--preset", "coalescing/stride", "--device", path, NULL);
      g_assert_cmpint (r.status, ==, 2);
      assert_says (&r, "warpscope-cli model: --device: ");
      assert_says (&r, files[i].says);
      g_assert_cmpfloat (r.seconds, <, 10);
      run_clear (&r);

      run (&r, "export", "--recording", path, "--preset", "coalescing/stride", "--view", "plot", "-o", "x.csv", NULL);
      g_assert_cmpint (r.status, ==, 2);
      assert_says (&r, "warpscope-cli export: --recording ");
      assert_says (&r, files[i].says);
      g_assert_cmpfloat (r.seconds, <, 10);
      run_clear (&r);

      run (&r, "sweep", "coalescing/strided-sweep", "--gpu-command", replay, "-o", path, "--resume", NULL);
      g_assert_cmpint (r.status, ==, 2);
      assert_says (&r, "warpscope-cli sweep: --resume: ");
      assert_says (&r, files[i].says);
      g_assert_cmpfloat (r.seconds, <, 10);
      run_clear (&r);

      /* the worker that plays a recording back reads it the same way */
      {
        const char *argv[] = { worker, "--replay", path, NULL };
        g_autoptr (GSubprocess) proc = g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDIN_PIPE |
                                                          G_SUBPROCESS_FLAGS_STDOUT_SILENCE |
                                                          G_SUBPROCESS_FLAGS_STDERR_PIPE, NULL);
        g_autofree char *err = NULL;

        g_assert_true (g_subprocess_communicate_utf8 (proc, "", NULL, NULL, &err, NULL));
        g_assert_cmpint (g_subprocess_get_exit_status (proc), ==, 2);
        g_assert_nonnull (strstr (err, files[i].says));
      }
    }
}

/* ------------------------------------------------------------------ */
/* Names of a megabyte                                                */
/* ------------------------------------------------------------------ */

static void
test_long_names (void)
{
  g_autofree char *path = path_in_scratch ("long-name.json");
  g_autofree char *csv = path_in_scratch ("long-name.csv");
  g_autoptr (GFile) source = g_file_new_for_path (h100);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (WsRecording) all = ws_recording_load_file (source, NULL, NULL);
  g_autoptr (WsDeviceInfo) device = ws_device_info_copy (ws_recording_get_device (all));
  g_autoptr (WsRecording) named = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *data = NULL;
  g_auto (GStrv) lines = NULL;
  Run r;

  g_free (device->name);
  device->name = g_strnfill (1 << 20, 'X');
  named = ws_recording_new (device);
  for (guint i = 0; i < ws_recording_get_n_measurements (all); i++)
    ws_recording_add (named, ws_recording_get_measurement (all, i));
  g_assert_true (ws_recording_save_file (named, file, NULL, &error));
  g_assert_no_error (error);

  run (&r, "export", "--recording", path, "--preset", "coalescing/stride", "--view", "plot", "-o", csv, NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (g_file_get_contents (csv, &data, NULL, NULL));
  lines = g_strsplit (data, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), >, 2);
  for (guint i = 0; lines[i]; i++)
    g_assert_cmpuint (strlen (lines[i]), <, 400);
  run_clear (&r);
  run (&r, "export", "--recording", path, "--preset", "coalescing/stride", "--view", "plot", "-o", "long-name.svg",
       NULL);
  g_assert_cmpint (r.status, ==, 0);
  run_clear (&r);
}

int
main (int    argc,
      char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  scratch = g_dir_make_tmp ("ws-cli-robust-XXXXXX", NULL);
  worker = g_build_filename (WS_BUILD_APPDIR, "warpscope-gpu-worker", NULL);
  h100 = g_build_filename (g_getenv ("WS_SOURCE_DIR"), "data", "recordings", "h100.json", NULL);
  g_test_add_func ("/cli-robust/stdout/full", test_stdout_full);
  g_test_add_func ("/cli-robust/sweep/unwritable", test_sweep_unwritable);
  g_test_add_func ("/cli-robust/sweep/disk-fills", test_sweep_disk_fills);
  g_test_add_func ("/cli-robust/record/disk-fills", test_record_disk_fills);
  g_test_add_func ("/cli-robust/sweep/resume-counts", test_resume_counts);
  g_test_add_func ("/cli-robust/export/disk-fills", test_export_disk_fills);
  g_test_add_func ("/cli-robust/worker/group", test_worker_group);
  g_test_add_func ("/cli-robust/worker/group-signal", test_worker_group_signal);
  g_test_add_func ("/cli-robust/worker/protocol", test_worker_protocol);
  g_test_add_func ("/cli-robust/worker/handshake-wrong-id", test_handshake_wrong_id);
  g_test_add_func ("/cli-robust/export/signals", test_export_signals);
  g_test_add_func ("/cli-robust/numbers", test_numbers);
  g_test_add_func ("/cli-robust/long-names", test_long_names);
  g_test_add_func ("/cli-robust/loaders", test_loaders);
  status = g_test_run ();
  {
    const char *rm[] = { "rm", "-rf", scratch, NULL };
    g_autoptr (GSubprocess) p = g_subprocess_newv (rm, G_SUBPROCESS_FLAGS_NONE, NULL);
    g_subprocess_wait (p, NULL, NULL);
  }
  return status;
}
