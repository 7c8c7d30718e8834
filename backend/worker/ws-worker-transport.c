/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "ws-config.h"
#include "ws-worker-transport.h"
#include "ws-worker-client.h"
#include "ws-worker-server.h"
#include "ws-i18n.h"
#include "ws-exit-cleanup.h"

#include <errno.h>
#include <gio/gunixinputstream.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

G_DEFINE_QUARK (ws-worker-error-quark, ws_worker_error)

#define TAIL_LINES 40
#define TAIL_LINE_BYTES 1000
/* what a remote login shell runs cannot be longer than this */
#define MAX_REMOTE_COMMAND 2048
#define MISSING_MARK "[warpscope-gpu-worker missing]"

/* What the thread reading standard error shares with the transport: it may
 * outlive the transport, blocked on a pipe that something else still holds. */
typedef struct
{
  gint refs;
  GMutex lock;
  GCond cond;
  GQueue tail;                 /* char *, the last lines */
  char *job;                   /* the Slurm job, once srun names it */
  gboolean eof;
  WsWorkerStateFunc state;     /* NULL once the transport is gone */
  gpointer state_data;
  GCancellable *cancellable;   /* stops the reader */
  GDataInputStream *in;
} Watch;

struct _WsWorkerTransport
{
  WsGpuTarget *target;
  GSubprocess *process;
  Watch *watch;                /* NULL for a local worker, whose stderr is ours */
  pid_t group;                 /* a command's process group, or 0 */
};

/* ------------------------------------------------------------------ */
/* Standard error                                                     */
/* ------------------------------------------------------------------ */

static void
watch_unref (Watch *w)
{
  if (!g_atomic_int_dec_and_test (&w->refs))
    return;
  g_queue_clear_full (&w->tail, g_free);
  g_free (w->job);
  g_clear_object (&w->cancellable);
  g_clear_object (&w->in);
  g_mutex_clear (&w->lock);
  g_cond_clear (&w->cond);
  g_free (w);
}

/* "srun: job 42 queued and waiting for resources" and the like. */
static gboolean
slurm_job_line (const char    *line,
                const char    *what,
                char         **job)
{
  const char *p = strstr (line, "job ");
  const char *end;

  if (!g_str_has_prefix (line, "srun: ") || p == NULL || strstr (line, what) == NULL)
    return FALSE;
  p += 4;
  for (end = p; g_ascii_isdigit (*end); end++)
    ;
  if (end == p)
    return FALSE;
  *job = g_strndup (p, end - p);
  return TRUE;
}

static void
watch_line (Watch      *w,
            const char *line)
{
  g_autofree char *job = NULL;
  WsWorkerState state = WS_WORKER_STATE_STARTING;
  gboolean tell = FALSE;

  g_debug ("GPU worker transport: %s", line);
  if (slurm_job_line (line, "queued and waiting", &job))
    state = WS_WORKER_STATE_QUEUED, tell = TRUE;
  else if (slurm_job_line (line, "has been allocated", &job))
    state = WS_WORKER_STATE_ALLOCATED, tell = TRUE;

  g_mutex_lock (&w->lock);
  g_queue_push_tail (&w->tail, g_utf8_make_valid (line, MIN (strlen (line), TAIL_LINE_BYTES)));
  while (w->tail.length > TAIL_LINES)
    g_free (g_queue_pop_head (&w->tail));
  if (job)
    {
      g_free (w->job);
      w->job = g_strdup (job);
    }
  /* under the lock: the transport clears the callback before it goes */
  if (tell && w->state)
    w->state (state, job, w->state_data);
  g_mutex_unlock (&w->lock);
}

static gpointer
read_stderr (gpointer data)
{
  Watch *w = data;

  for (;;)
    {
      g_autofree char *line = g_data_input_stream_read_line (w->in, NULL, w->cancellable, NULL);

      if (line == NULL)
        break;
      g_strchomp (line);
      if (line[0])
        watch_line (w, line);
    }
  g_mutex_lock (&w->lock);
  w->eof = TRUE;
  g_cond_broadcast (&w->cond);
  g_mutex_unlock (&w->lock);
  watch_unref (w);
  return NULL;
}

static Watch *
watch_new (GInputStream     *err,
           WsWorkerStateFunc state,
           gpointer          state_data)
{
  Watch *w = g_new0 (Watch, 1);

  w->refs = 2;                 /* the transport's and the reader's */
  g_mutex_init (&w->lock);
  g_cond_init (&w->cond);
  g_queue_init (&w->tail);
  w->state = state;
  w->state_data = state_data;
  w->cancellable = g_cancellable_new ();
  w->in = g_data_input_stream_new (err);
  g_thread_unref (g_thread_new ("ws-worker-stderr", read_stderr, w));
  return w;
}

/* ------------------------------------------------------------------ */
/* Command lines                                                      */
/* ------------------------------------------------------------------ */

/* Short enough for a socket's path with ssh's temporary suffix, private,
 * and ours. */
static char *
control_dir (void)
{
  g_autofree char *runtime = g_build_filename (g_get_user_runtime_dir (), "warpscope", NULL);
  g_autofree char *tmp = g_strdup_printf ("/tmp/warpscope-%u", (guint) getuid ());
  const char *candidates[] = { runtime, tmp };

  for (guint i = 0; i < G_N_ELEMENTS (candidates); i++)
    {
      GStatBuf st;

      if (strlen (candidates[i]) > 48)
        continue;
      if (g_mkdir (candidates[i], 0700) != 0 && errno != EEXIST)
        continue;
      if (g_lstat (candidates[i], &st) == 0 && S_ISDIR (st.st_mode) && st.st_uid == getuid () &&
          (st.st_mode & 077) == 0)
        return g_strdup (candidates[i]);
    }
  return NULL;
}

/* sh that runs the worker, or says it is missing. It goes through a
 * remote login shell inside single quotes: no single quote, no "!", no
 * newline (csh), and the path was checked for what double quotes expand. */
static char *
worker_script (const char *worker)
{
  GString *s = g_string_new (NULL);

  if (worker)
    {
      g_autofree char *quoted = g_str_has_prefix (worker, "~/") ? g_strdup_printf ("\"$HOME\"/\"%s\"", worker + 2)
                                                                : g_strdup_printf ("\"%s\"", worker);
      g_string_append_printf (s, "w=%s; if [ -x \"$w\" ] && [ -f \"$w\" ]; then exec \"$w\"; fi; "
                              "echo \"%s: no program $w on $(hostname)\" >&2; exit 127",
                              quoted, MISSING_MARK);
      return g_string_free (s, FALSE);
    }
  g_string_append_printf (s, "if command -v %s >/dev/null 2>&1; then exec %s; fi; ", WS_GPU_WORKER_NAME,
                          WS_GPU_WORKER_NAME);
  g_string_append_printf (s, "for w in \"$HOME/.local/libexec/%s\" /usr/local/libexec/%s /usr/libexec/%s; do "
                          "if [ -x \"$w\" ]; then exec \"$w\"; fi; done; ",
                          WS_GPU_WORKER_NAME, WS_GPU_WORKER_NAME, WS_GPU_WORKER_NAME);
  g_string_append_printf (s, "echo \"%s: not on the PATH nor in ~/.local/libexec, /usr/local/libexec or "
                          "/usr/libexec of $(hostname)\" >&2; exit 127", MISSING_MARK);
  return g_string_free (s, FALSE);
}

static gboolean
add_ssh_program (GPtrArray *argv,
                 GError   **error)
{
  const char *custom = g_getenv ("WS_SSH_COMMAND");
  g_auto (GStrv) words = NULL;
  g_autoptr (GError) local = NULL;

  if (custom == NULL || custom[0] == '\0')
    {
      g_ptr_array_add (argv, g_strdup ("ssh"));
      return TRUE;
    }
  if (!g_shell_parse_argv (custom, NULL, &words, &local))
    {
      /* Translators: WS_SSH_COMMAND is an environment variable: what it holds, then what is wrong with it */
      g_set_error (error, WS_WORKER_ERROR, WS_WORKER_ERROR_FAILED, _("WS_SSH_COMMAND “%s”: %s"), custom,
                   local->message);
      return FALSE;
    }
  for (guint i = 0; words[i]; i++)
    g_ptr_array_add (argv, g_strdup (words[i]));
  return TRUE;
}

static gboolean
ssh_argv (const WsGpuTarget *t,
          GPtrArray         *argv,
          GError           **error)
{
  g_autofree char *dir = control_dir ();
  g_autofree char *script = worker_script (t->worker);
  g_autofree char *quoted = g_shell_quote (script);

  if (!add_ssh_program (argv, error))
    return FALSE;
  g_ptr_array_add (argv, g_strdup ("-T"));
#define OPTION(TEXT) g_ptr_array_add (argv, g_strdup ("-o")); g_ptr_array_add (argv, TEXT)
  /* no prompt, ever: the window has no terminal to type a password in */
  OPTION (g_strdup ("BatchMode=yes"));
  if (dir)
    {
      /* one login serves every worker started in the next five minutes */
      OPTION (g_strdup ("ControlMaster=auto"));
      OPTION (g_strdup_printf ("ControlPath=%s/ssh-%%C", dir));
      OPTION (g_strdup ("ControlPersist=300"));
    }
  OPTION (g_strdup ("ConnectTimeout=15"));
  /* a connection that dies silently is noticed within 30 s */
  OPTION (g_strdup ("ServerAliveInterval=10"));
  OPTION (g_strdup ("ServerAliveCountMax=3"));
  OPTION (g_strdup ("ClearAllForwardings=yes"));
  OPTION (g_strdup ("LogLevel=ERROR"));
#undef OPTION
  if (t->port)
    {
      g_ptr_array_add (argv, g_strdup ("-p"));
      g_ptr_array_add (argv, g_strdup_printf ("%d", t->port));
    }
  if (t->user)
    {
      g_ptr_array_add (argv, g_strdup ("-l"));
      g_ptr_array_add (argv, g_strdup (t->user));
    }
  g_ptr_array_add (argv, g_strdup ("--"));
  g_ptr_array_add (argv, g_strdup (t->host));
  /* the remote side hands this string to the user's login shell */
  g_ptr_array_add (argv, g_strdup_printf ("exec /bin/sh -c %s", quoted));
  g_assert (strlen (g_ptr_array_index (argv, argv->len - 1)) < MAX_REMOTE_COMMAND);
  return TRUE;
}

static void
slurm_argv (const WsGpuTarget *t,
            GPtrArray         *argv)
{
  g_ptr_array_add (argv, g_strdup ("srun"));
  g_ptr_array_add (argv, g_strdup ("--job-name=warpscope-gpu"));
  g_ptr_array_add (argv, g_strdup ("--nodes=1"));
  g_ptr_array_add (argv, g_strdup ("--ntasks=1"));
  if (t->jobid)
    {
      /* a step in an allocation the user made (salloc), beside their own */
      g_ptr_array_add (argv, g_strdup_printf ("--jobid=%s", t->jobid));
      g_ptr_array_add (argv, g_strdup ("--overlap"));
    }
  if (t->partition)
    g_ptr_array_add (argv, g_strdup_printf ("--partition=%s", t->partition));
  if (t->gres == NULL && t->jobid == NULL)
    g_ptr_array_add (argv, g_strdup ("--gres=gpu:1"));
  else if (t->gres && !g_str_equal (t->gres, "none"))
    g_ptr_array_add (argv, g_strdup_printf ("--gres=%s", t->gres));
  if (t->time)
    g_ptr_array_add (argv, g_strdup_printf ("--time=%s", t->time));
  if (t->account)
    g_ptr_array_add (argv, g_strdup_printf ("--account=%s", t->account));
  g_ptr_array_add (argv, g_strdup ("/bin/sh"));
  g_ptr_array_add (argv, g_strdup ("-c"));
  g_ptr_array_add (argv, worker_script (t->worker));
}

GStrv
ws_worker_transport_argv (const WsGpuTarget *t,
                          GError           **error)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new_with_free_func (g_free);

  g_return_val_if_fail (t != NULL, NULL);

  switch (t->kind)
    {
    case WS_GPU_TARGET_LOCAL:
      {
        char *program = t->worker ? g_strdup (t->worker) : ws_worker_client_find_program (error);

        if (program == NULL)
          return NULL;
        g_ptr_array_add (argv, program);
      }
      break;
    case WS_GPU_TARGET_SSH:
      if (!ssh_argv (t, argv, error))
        return NULL;
      break;
    case WS_GPU_TARGET_SLURM:
      slurm_argv (t, argv);
      break;
    case WS_GPU_TARGET_COMMAND:
      g_ptr_array_add (argv, g_strdup ("/bin/sh"));
      g_ptr_array_add (argv, g_strdup ("-c"));
      g_ptr_array_add (argv, g_strdup (t->command));
      break;
    default:
      g_assert_not_reached ();
    }
  g_ptr_array_add (argv, NULL);
  return (GStrv) g_ptr_array_free (g_steal_pointer (&argv), FALSE);
}

/* ------------------------------------------------------------------ */
/* Starting and stopping                                              */
/* ------------------------------------------------------------------ */

static GError *
spawn_error (const WsGpuTarget *t,
             const char        *program,
             const GError      *error)
{
  if (!g_error_matches (error, G_SPAWN_ERROR, G_SPAWN_ERROR_NOENT))
    /* Translators: a program, then why it did not start */
    return g_error_new (WS_WORKER_ERROR, WS_WORKER_ERROR_FAILED, _("starting %s: %s"), program, error->message);
  switch (t->kind)
    {
    case WS_GPU_TARGET_SSH:
      return g_error_new (WS_WORKER_ERROR, WS_WORKER_ERROR_FAILED,
                          /* Translators: %s is the ssh program */
                          _("%s is not installed on this computer: Warpscope reaches other hosts with OpenSSH's "
                            "client (the openssh-client package)"), program);
    case WS_GPU_TARGET_SLURM:
      return g_error_new_literal (WS_WORKER_ERROR, WS_WORKER_ERROR_FAILED,
                                  _("srun is not installed on this computer: run Warpscope where Slurm's commands "
                                    "are (a cluster's login node), or reach that host with ssh://"));
    case WS_GPU_TARGET_LOCAL:
      return g_error_new (WS_GPU_ERROR, WS_GPU_ERROR_NOT_BUILT, _("the GPU worker %s is missing"), program);
    case WS_GPU_TARGET_COMMAND:
    default:
      return g_error_new (WS_WORKER_ERROR, WS_WORKER_ERROR_FAILED, _("starting %s: %s"), program, error->message);
    }
}

static gsize sigpipe_ignored;

/* In the child: a group of its own, which the shell's children join. */
static void
new_group (gpointer data)
{
  setpgid (0, 0);
}

/* A command's shell starts what it will (a container, a wrapper, `sleep`):
 * all of it is in one group, which ends with the worker, and with this
 * program if a signal ends it first. */
static void
own_group (WsWorkerTransport *self)
{
  const char *id = g_subprocess_get_identifier (self->process);

  if (id == NULL)
    return;
  self->group = (pid_t) g_ascii_strtoll (id, NULL, 10);
  /* set on both sides, so that neither the child's start nor a signal
   * here finds it in ours */
  setpgid (self->group, self->group);
  ws_exit_cleanup_add_group (self->group);
}

static void
end_group (WsWorkerTransport *self,
           int                sig)
{
  if (self->group <= 1)
    return;
  kill (-self->group, sig);
  kill (-self->group, SIGCONT);
}

WsWorkerTransport *
ws_worker_transport_start (const WsGpuTarget *target,
                           WsWorkerStateFunc  state,
                           gpointer           state_data,
                           GError           **error)
{
  g_autoptr (WsWorkerTransport) self = g_new0 (WsWorkerTransport, 1);
  g_auto (GStrv) argv = NULL;
  g_autoptr (GSubprocessLauncher) launcher = NULL;
  g_autoptr (GError) local = NULL;
  GSubprocessFlags flags = G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE;

  g_return_val_if_fail (target != NULL, NULL);

  /* a worker (or ssh) that ended leaves a pipe with no reader: writing
   * to it must fail, not end this process */
  if (g_once_init_enter (&sigpipe_ignored))
    {
      signal (SIGPIPE, SIG_IGN);
      g_once_init_leave (&sigpipe_ignored, 1);
    }
  self->target = ws_gpu_target_copy (target);
  argv = ws_worker_transport_argv (target, error);
  if (argv == NULL)
    return NULL;
  if (!ws_gpu_target_is_local (target))
    flags |= G_SUBPROCESS_FLAGS_STDERR_PIPE;
  launcher = g_subprocess_launcher_new (flags);
  if (target->kind == WS_GPU_TARGET_COMMAND)
    g_subprocess_launcher_set_child_setup (launcher, new_group, NULL, NULL);
  self->process = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv, &local);
  if (self->process == NULL)
    {
      g_propagate_error (error, spawn_error (target, argv[0], local));
      return NULL;
    }
  if (target->kind == WS_GPU_TARGET_COMMAND)
    own_group (self);
  if (state)
    state (WS_WORKER_STATE_STARTING, NULL, state_data);
  if (flags & G_SUBPROCESS_FLAGS_STDERR_PIPE)
    self->watch = watch_new (g_subprocess_get_stderr_pipe (self->process), state, state_data);
  return g_steal_pointer (&self);
}

GSubprocess *
ws_worker_transport_get_process (WsWorkerTransport *self)
{
  return self->process;
}

const WsGpuTarget *
ws_worker_transport_get_target (WsWorkerTransport *self)
{
  return self->target;
}

char *
ws_worker_transport_dup_job (WsWorkerTransport *self)
{
  char *job;

  if (self->watch == NULL)
    return NULL;
  g_mutex_lock (&self->watch->lock);
  job = g_strdup (self->watch->job);
  g_mutex_unlock (&self->watch->lock);
  return job;
}

void
ws_worker_transport_set_job (WsWorkerTransport *self,
                             const char        *job)
{
  if (self->watch == NULL || job == NULL)
    return;
  g_mutex_lock (&self->watch->lock);
  if (self->watch->job == NULL)
    self->watch->job = g_strdup (job);
  g_mutex_unlock (&self->watch->lock);
}

static gboolean
wait_exit (GSubprocess *process,
           guint        ms)
{
  gint64 until = g_get_monotonic_time () + ms * 1000;

  while (g_subprocess_get_identifier (process) != NULL && g_get_monotonic_time () < until)
    g_usleep (5000);
  return g_subprocess_get_identifier (process) == NULL;
}

void
ws_worker_transport_kill (WsWorkerTransport *self)
{
  if (self->process == NULL || g_subprocess_get_identifier (self->process) == NULL)
    {
      end_group (self, SIGTERM);
      return;
    }
  /* srun withdraws its job on SIGTERM; ssh closes the session; a
   * command's whole group is told */
  if (self->group)
    end_group (self, SIGTERM);
  else
    g_subprocess_send_signal (self->process, SIGTERM);
  if (!wait_exit (self->process, 5000))
    {
      end_group (self, SIGKILL);
      g_subprocess_force_exit (self->process);
    }
  g_subprocess_wait (self->process, NULL, NULL);
}

char *
ws_worker_transport_dup_stderr (WsWorkerTransport *self)
{
  GString *s;

  if (self->watch == NULL)
    return NULL;
  s = g_string_new (NULL);
  g_mutex_lock (&self->watch->lock);
  for (GList *l = self->watch->tail.head; l; l = l->next)
    g_string_append_printf (s, "%s\n", (char *) l->data);
  g_mutex_unlock (&self->watch->lock);
  return g_string_free (s, FALSE);
}

void
ws_worker_transport_free (WsWorkerTransport *self)
{
  if (self == NULL)
    return;
  /* what the command left running goes with it */
  if (self->group)
    {
      end_group (self, SIGTERM);
      ws_exit_cleanup_remove_group (self->group);
    }
  if (self->watch)
    {
      g_mutex_lock (&self->watch->lock);
      self->watch->state = NULL;
      g_mutex_unlock (&self->watch->lock);
      /* a shared ssh connection may hold the pipe open: stop reading it */
      g_cancellable_cancel (self->watch->cancellable);
      watch_unref (self->watch);
    }
  g_clear_object (&self->process);
  ws_gpu_target_free (self->target);
  g_free (self);
}

/* ------------------------------------------------------------------ */
/* Why it ended                                                       */
/* ------------------------------------------------------------------ */

typedef struct
{
  const WsGpuTarget *target;
  char *place;                 /* "gpu01", "Slurm (gpu)" */
  char *tail;                  /* standard error, the last lines */
  char *last;                  /* its last line, or NULL */
  char *job;
  gboolean signaled;
  int status;                  /* exit status, or signal */
  gboolean answered;
} End;

static void
end_clear (End *e)
{
  g_free (e->place);
  g_free (e->tail);
  g_free (e->last);
  g_free (e->job);
}

/* The line of the tail that holds needle, or NULL. */
static char *
line_with (const End  *e,
           const char *needle)
{
  const char *p = e->tail ? strstr (e->tail, needle) : NULL;
  const char *start, *end;

  if (p == NULL)
    return NULL;
  for (start = p; start > e->tail && start[-1] != '\n'; start--)
    ;
  end = strchr (p, '\n');
  return g_strndup (start, end ? end - start : (gssize) strlen (start));
}

/* How it ended and whether it said something are parts of the sentence
 * that tells it: of a message's four sentences (an exit status, with what
 * it said last, a signal, with what it said last), the one for e, in the
 * user's language. Each takes its own arguments, then e->status, then
 * e->last, which the sentences without it do not read. */
static const char *
pick (const End         *e,
      const char *const  sentences[4])
{
  return _(sentences[(e->signaled ? 2 : 0) + (e->last ? 1 : 0)]);
}

static GError *
explain_missing (const End *e)
{
  g_autofree char *line = line_with (e, MISSING_MARK);
  g_autofree char *loader = line_with (e, "error while loading shared libraries");

  if (loader)
    return g_error_new (WS_WORKER_ERROR, WS_WORKER_ERROR_NOT_INSTALLED,
                        /* Translators: where the GPU worker runs (a host's name, Slurm and its
                         * partition or job, or “a custom command”), then what the loader said */
                        _("the GPU worker on %s cannot start (“%s”): install what it needs there, or build it "
                          "again (meson setup -Dgui=disabled)"), e->place, g_strstrip (loader));
  if (line == NULL)
    return NULL;
  if (e->target->worker)
    return g_error_new (WS_WORKER_ERROR, WS_WORKER_ERROR_NOT_INSTALLED,
                        /* Translators: the path given for the GPU worker, where it runs (a host's
                         * name, Slurm and its partition or job, or “a custom command”), then the
                         * program's name */
                        _("Warpscope's GPU worker is not at %s on %s: give the path of %s in a build "
                          "(meson setup -Dgui=disabled) or an installation there"), e->target->worker, e->place,
                        WS_GPU_WORKER_NAME);
  return g_error_new (WS_WORKER_ERROR, WS_WORKER_ERROR_NOT_INSTALLED,
                      /* Translators: where the GPU worker runs (a host's name, Slurm and its
                       * partition or job, or “a custom command”), then the program's name */
                      _("Warpscope's GPU worker is not installed on %s (it is not on the PATH there, nor in "
                        "~/.local/libexec, /usr/local/libexec or /usr/libexec): build Warpscope there with "
                        "meson setup -Dgui=disabled, then give the path of app/%s with --gpu-worker"),
                      e->place, WS_GPU_WORKER_NAME);
}

static GError *
explain_ssh (const End *e)
{
  const WsGpuTarget *t = e->target;
  g_autofree char *line = NULL;
  g_autofree char *port = t->port ? g_strdup_printf ("%d", t->port) : g_strdup ("22");
  g_autofree char *login = t->user ? g_strdup_printf ("%s@%s", t->user, t->host) : g_strdup (t->host);

  if ((line = line_with (e, "Permission denied")) || (line = line_with (e, "Too many authentication failures")))
    return g_error_new (WS_WORKER_ERROR, WS_WORKER_ERROR_AUTH_REFUSED,
                        /* Translators: the host, what ssh said, then the login, “user@host” or “host”,
                         * in a command to type */
                        _("%s refused the login (ssh: “%s”): Warpscope logs in with your ssh keys and agent, never "
                          "a password; check that “ssh %s” works in a terminal without asking for one"),
                        t->host, g_strstrip (line), login);
  if ((line = line_with (e, "Host key verification failed")) || (line = line_with (e, "REMOTE HOST IDENTIFICATION")))
    return g_error_new (WS_WORKER_ERROR, WS_WORKER_ERROR_AUTH_REFUSED,
                        /* Translators: the host, what ssh said, then the host again in a command to type */
                        _("the host key of %s is not known here, or has changed (ssh: “%s”): run “ssh %s” once in a "
                          "terminal to check it and accept it"), t->host, g_strstrip (line), t->host);
  if ((line = line_with (e, "Could not resolve hostname")))
    return g_error_new (WS_WORKER_ERROR, WS_WORKER_ERROR_UNREACHABLE,
                        /* Translators: the host, then what ssh said */
                        _("there is no host %s (ssh: “%s”): check its name"), t->host, g_strstrip (line));
  if ((line = line_with (e, "Connection refused")) && !e->answered)
    return g_error_new (WS_WORKER_ERROR, WS_WORKER_ERROR_UNREACHABLE,
                        /* Translators: the port, the host, then what ssh said */
                        _("nothing answers on port %s of %s (ssh: “%s”): is its ssh server running, and is the port "
                          "right?"), port, t->host, g_strstrip (line));
  if (((line = line_with (e, "timed out")) || (line = line_with (e, "No route to host")) ||
       (line = line_with (e, "Network is unreachable")) || (line = line_with (e, "Connection closed by")) ||
       (line = line_with (e, "Connection reset by"))) && !e->answered)
    return g_error_new (WS_WORKER_ERROR, WS_WORKER_ERROR_UNREACHABLE,
                        /* Translators: the host, then what ssh said */
                        _("cannot reach %s (ssh: “%s”): is it up, and can this computer reach it?"), t->host,
                        g_strstrip (line));
  return NULL;
}

/* Slurm's job, by number or not */
static GError *
slurm_ended (const End  *e,
             const char *line)
{
  if (e->job)
    /* Translators: a Slurm job's number, then what srun said */
    return g_error_new (WS_WORKER_ERROR, WS_WORKER_ERROR_CONNECTION_LOST, _("Slurm ended job %s (“%s”)"), e->job,
                        line);
  /* Translators: what srun said */
  return g_error_new (WS_WORKER_ERROR, WS_WORKER_ERROR_CONNECTION_LOST, _("Slurm ended the job (“%s”)"), line);
}

static GError *
slurm_time_limit (const End *e)
{
  const char *time = e->target->time;

  if (e->job && time)
    return g_error_new (WS_WORKER_ERROR, WS_WORKER_ERROR_CONNECTION_LOST,
                        /* Translators: a Slurm job's number, then the time it was given, as Slurm writes it */
                        _("Slurm ended job %s at its time limit of %s; the measurements made are kept: choose a "
                          "longer time to go on"), e->job, time);
  if (e->job)
    return g_error_new (WS_WORKER_ERROR, WS_WORKER_ERROR_CONNECTION_LOST,
                        /* Translators: a Slurm job's number */
                        _("Slurm ended job %s at its time limit; the measurements made are kept: choose a longer "
                          "time to go on"), e->job);
  if (time)
    return g_error_new (WS_WORKER_ERROR, WS_WORKER_ERROR_CONNECTION_LOST,
                        /* Translators: the time the job was given, as Slurm writes it */
                        _("Slurm ended the job at its time limit of %s; the measurements made are kept: choose a "
                          "longer time to go on"), time);
  return g_error_new_literal (WS_WORKER_ERROR, WS_WORKER_ERROR_CONNECTION_LOST,
                              _("Slurm ended the job at its time limit; the measurements made are kept: choose a "
                                "longer time to go on"));
}

static GError *
explain_slurm (const End *e)
{
  g_autofree char *line = NULL;

  if ((line = line_with (e, "TIME LIMIT")))
    return slurm_time_limit (e);
  if ((line = line_with (e, "Unable to contact slurm controller")) ||
      (line = line_with (e, "Slurm controller not responding")))
    return g_error_new (WS_WORKER_ERROR, WS_WORKER_ERROR_UNREACHABLE,
                        /* Translators: what srun said */
                        _("Slurm's controller does not answer (srun: “%s”)"), g_strstrip (line));
  if ((line = line_with (e, "Unable to allocate resources")) || (line = line_with (e, "Unable to create step")) ||
      (line = line_with (e, "Invalid")) || (line = line_with (e, "srun: error:")))
    {
      if (e->answered)
        return slurm_ended (e, g_strstrip (line));
      /* Translators: what srun said */
      return g_error_new (WS_WORKER_ERROR, WS_WORKER_ERROR_SLURM_REFUSED, _("Slurm refused the job (“%s”)"),
                          g_strstrip (line));
    }
  if ((line = line_with (e, "CANCELLED")) && e->job)
    /* Translators: a Slurm job's number, then what srun said */
    return g_error_new (WS_WORKER_ERROR, WS_WORKER_ERROR_CONNECTION_LOST, _("Slurm cancelled job %s (“%s”)"),
                        e->job, g_strstrip (line));
  if (line)
    /* Translators: what srun said */
    return g_error_new (WS_WORKER_ERROR, WS_WORKER_ERROR_CONNECTION_LOST, _("Slurm cancelled the job (“%s”)"),
                        g_strstrip (line));
  return NULL;
}

static GError *
explain_local (const End *e)
{
  if (e->signaled)
    return g_error_new (WS_GPU_ERROR, WS_GPU_ERROR_KERNEL_FAULT,
                        /* Translators: a signal's number */
                        _("the GPU worker process was killed by signal %d before it answered; the next measurement "
                          "starts a new one"), e->status);
  return g_error_new (WS_GPU_ERROR, WS_GPU_ERROR_KERNEL_FAULT,
                      /* Translators: an exit status */
                      _("the GPU worker process exited with status %d before it answered; the next measurement "
                        "starts a new one"), e->status);
}

/* The sentences of a message that says how a program ended, in pick ()'s
 * order: an exit status, the same with the last line it wrote, a signal,
 * the same with the last line. */

static const char *const ssh_lost[4] = {
  /* Translators: the host, then ssh's exit status */
  N_("the connection to the GPU worker on %s was lost: ssh exited with status %d; the measurements made are "
     "kept, and the next one connects again"),
  /* Translators: the host, ssh's exit status, then the last line ssh wrote */
  N_("the connection to the GPU worker on %s was lost: ssh exited with status %d (it said “%s”); the "
     "measurements made are kept, and the next one connects again"),
  /* Translators: the host, then the signal's number */
  N_("the connection to the GPU worker on %s was lost: ssh was killed by signal %d; the measurements made are "
     "kept, and the next one connects again"),
  /* Translators: the host, the signal's number, then the last line ssh wrote */
  N_("the connection to the GPU worker on %s was lost: ssh was killed by signal %d (it said “%s”); the "
     "measurements made are kept, and the next one connects again"),
};

static const char *const slurm_job_lost[4] = {
  /* Translators: a Slurm job's number, then srun's exit status */
  N_("the GPU worker of Slurm job %s ended: srun exited with status %d; the measurements made are kept, and "
     "the next one asks Slurm again"),
  /* Translators: a Slurm job's number, srun's exit status, then the last line srun wrote */
  N_("the GPU worker of Slurm job %s ended: srun exited with status %d (it said “%s”); the measurements made "
     "are kept, and the next one asks Slurm again"),
  /* Translators: a Slurm job's number, then the signal's number */
  N_("the GPU worker of Slurm job %s ended: srun was killed by signal %d; the measurements made are kept, and "
     "the next one asks Slurm again"),
  /* Translators: a Slurm job's number, the signal's number, then the last line srun wrote */
  N_("the GPU worker of Slurm job %s ended: srun was killed by signal %d (it said “%s”); the measurements made "
     "are kept, and the next one asks Slurm again"),
};

static const char *const slurm_lost[4] = {
  /* Translators: srun's exit status */
  N_("the GPU worker of Slurm ended: srun exited with status %d; the measurements made are kept, and the next "
     "one asks Slurm again"),
  /* Translators: srun's exit status, then the last line srun wrote */
  N_("the GPU worker of Slurm ended: srun exited with status %d (it said “%s”); the measurements made are kept, "
     "and the next one asks Slurm again"),
  /* Translators: the signal's number */
  N_("the GPU worker of Slurm ended: srun was killed by signal %d; the measurements made are kept, and the next "
     "one asks Slurm again"),
  /* Translators: the signal's number, then the last line srun wrote */
  N_("the GPU worker of Slurm ended: srun was killed by signal %d (it said “%s”); the measurements made are "
     "kept, and the next one asks Slurm again"),
};

static const char *const command_lost[4] = {
  /* Translators: the command, as “the command “…””, then its exit status */
  N_("the GPU worker that %s started ended: it exited with status %d; the measurements made are kept, and the "
     "next one starts it again"),
  /* Translators: the command, as “the command “…””, its exit status, then the last line it wrote */
  N_("the GPU worker that %s started ended: it exited with status %d (it said “%s”); the measurements made are "
     "kept, and the next one starts it again"),
  /* Translators: the command, as “the command “…””, then the signal's number */
  N_("the GPU worker that %s started ended: it was killed by signal %d; the measurements made are kept, and the "
     "next one starts it again"),
  /* Translators: the command, as “the command “…””, the signal's number, then the last line it wrote */
  N_("the GPU worker that %s started ended: it was killed by signal %d (it said “%s”); the measurements made "
     "are kept, and the next one starts it again"),
};

static const char *const ended_early[4] = {
  /* Translators: what started the GPU worker (“alice@gpu01 over ssh”, “Slurm job 1234”,
   * “the command “…””), then its exit status */
  N_("%s exited with status %d before the GPU worker answered"),
  /* Translators: what started the GPU worker (“alice@gpu01 over ssh”, “Slurm job 1234”,
   * “the command “…””), its exit status, then the last line it wrote */
  N_("%s exited with status %d before the GPU worker answered (it said “%s”)"),
  /* Translators: what started the GPU worker (“alice@gpu01 over ssh”, “Slurm job 1234”,
   * “the command “…””), then the signal's number */
  N_("%s was killed by signal %d before the GPU worker answered"),
  /* Translators: what started the GPU worker (“alice@gpu01 over ssh”, “Slurm job 1234”,
   * “the command “…””), the signal's number, then the last line it wrote */
  N_("%s was killed by signal %d before the GPU worker answered (it said “%s”)"),
};

static GError *
explain_other (const End *e)
{
  g_autofree char *what = ws_gpu_target_describe (e->target);

  if (e->answered)
    switch (e->target->kind)
      {
      case WS_GPU_TARGET_SSH:
        return g_error_new (WS_WORKER_ERROR, WS_WORKER_ERROR_CONNECTION_LOST, pick (e, ssh_lost), e->place,
                            e->status, e->last);
      case WS_GPU_TARGET_SLURM:
        if (e->job)
          return g_error_new (WS_WORKER_ERROR, WS_WORKER_ERROR_CONNECTION_LOST, pick (e, slurm_job_lost), e->job,
                              e->status, e->last);
        return g_error_new (WS_WORKER_ERROR, WS_WORKER_ERROR_CONNECTION_LOST, pick (e, slurm_lost), e->status,
                            e->last);
      case WS_GPU_TARGET_COMMAND:
      default:
        return g_error_new (WS_WORKER_ERROR, WS_WORKER_ERROR_CONNECTION_LOST, pick (e, command_lost), what,
                            e->status, e->last);
      }
  if (e->target->kind == WS_GPU_TARGET_COMMAND && !e->signaled && (e->status == 127 || e->status == 126))
    {
      if (e->last)
        return g_error_new (WS_WORKER_ERROR, WS_WORKER_ERROR_NOT_INSTALLED,
                            /* Translators: the command as the program describes it (“the command
                             * “…””), then the last line it wrote */
                            _("%s could not start the GPU worker (it said “%s”)"), what, e->last);
      /* Translators: the command as the program describes it (“the command “…””) */
      return g_error_new (WS_WORKER_ERROR, WS_WORKER_ERROR_NOT_INSTALLED, _("%s could not start the GPU worker"),
                          what);
    }
  return g_error_new (WS_WORKER_ERROR, WS_WORKER_ERROR_FAILED, pick (e, ended_early), what, e->status, e->last);
}

GError *
ws_worker_transport_explain_end (WsWorkerTransport *self,
                                 gboolean           answered)
{
  End e = { self->target, ws_gpu_target_place (self->target) };
  GError *error = NULL;

  if (!wait_exit (self->process, 3000))
    g_subprocess_force_exit (self->process);
  g_subprocess_wait (self->process, NULL, NULL);
  e.signaled = g_subprocess_get_if_signaled (self->process);
  e.status = e.signaled ? g_subprocess_get_term_sig (self->process) : g_subprocess_get_exit_status (self->process);
  e.answered = answered;
  if (self->watch)
    {
      gint64 until = g_get_monotonic_time () + G_USEC_PER_SEC;

      /* what it said last arrives after it ends, or soon: a shared
       * connection's master may keep the pipe open */
      g_mutex_lock (&self->watch->lock);
      while (!self->watch->eof && g_cond_wait_until (&self->watch->cond, &self->watch->lock, until))
        ;
      e.job = g_strdup (self->watch->job);
      if (self->watch->tail.tail)
        e.last = g_strdup (self->watch->tail.tail->data);
      g_mutex_unlock (&self->watch->lock);
      e.tail = ws_worker_transport_dup_stderr (self);
    }

  if (self->target->kind == WS_GPU_TARGET_LOCAL)
    error = explain_local (&e);
  else if (!e.answered && !e.signaled && e.status == 127 && (error = explain_missing (&e)))
    ;
  else if (self->target->kind == WS_GPU_TARGET_SSH && !e.signaled && e.status == 255 && (error = explain_ssh (&e)))
    ;
  else if (self->target->kind == WS_GPU_TARGET_SLURM && (error = explain_slurm (&e)))
    ;
  else if (!e.answered && (error = explain_missing (&e)))
    ;
  else
    error = explain_other (&e);
  end_clear (&e);
  return error;
}

/* ------------------------------------------------------------------ */
/* Reading with a deadline                                            */
/* ------------------------------------------------------------------ */

char *
ws_worker_read_line (GDataInputStream *in,
                     gsize             max_bytes,
                     gint64            deadline,
                     GCancellable     *cancellable,
                     GError          **error)
{
  GBufferedInputStream *buffered = G_BUFFERED_INPUT_STREAM (in);
  GInputStream *base = g_filter_input_stream_get_base_stream (G_FILTER_INPUT_STREAM (in));

  g_return_val_if_fail (G_IS_UNIX_INPUT_STREAM (base), NULL);

  for (;;)
    {
      gsize n;
      const char *data = g_buffered_input_stream_peek_buffer (buffered, &n);
      struct pollfd fds[2] = { { g_unix_input_stream_get_fd (G_UNIX_INPUT_STREAM (base)), POLLIN, 0 } };
      GPollFD cancel_fd;
      gboolean has_cancel_fd;
      gint64 now = g_get_monotonic_time ();
      gssize got;

      if (n > 0 && memchr (data, '\n', n))
        return g_data_input_stream_read_line_utf8 (in, NULL, NULL, error);
      if (n >= max_bytes)
        {
          g_set_error (error, WS_WORKER_ERROR, WS_WORKER_ERROR_PROTOCOL,
                       _("the GPU worker sent a line longer than %llu bytes"), (unsigned long long) max_bytes);
          return NULL;
        }
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return NULL;
      if (now >= deadline)
        {
          g_set_error_literal (error, WS_WORKER_ERROR, WS_WORKER_ERROR_TIMED_OUT, _("no answer in time"));
          return NULL;
        }
      has_cancel_fd = g_cancellable_make_pollfd (cancellable, &cancel_fd);
      if (has_cancel_fd)
        {
          fds[1].fd = cancel_fd.fd;
          fds[1].events = POLLIN;
        }
      else
        fds[1].fd = -1;
      poll (fds, 2, (int) MIN ((deadline - now + 999) / 1000, 1000));
      if (has_cancel_fd)
        g_cancellable_release_fd (cancellable);
      if (!(fds[0].revents & (POLLIN | POLLHUP | POLLERR)))
        continue;
      if (g_buffered_input_stream_get_buffer_size (buffered) - n < 4096)
        g_buffered_input_stream_set_buffer_size (buffered, MIN (2 * g_buffered_input_stream_get_buffer_size (buffered),
                                                                max_bytes + 1));
      got = g_buffered_input_stream_fill (buffered, -1, NULL, error);
      if (got < 0)
        return NULL;
      if (got == 0)
        return g_data_input_stream_read_line_utf8 (in, NULL, NULL, error);
    }
}
