/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "ws-config.h"
#include "ws-worker-client-private.h"
#include "ws-worker-server.h"
#include "ws-json.h"
#include "ws-recording.h"

#include <errno.h>
#include <gio/gunixoutputstream.h>
#include <glib-unix.h>
#include <glib/gi18n-lib.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

/* How long a cancelled request may take to stop, and a worker that closed
 * its answers to leave, before it is killed (or the timeout, if shorter). */
#define GRACE_US (5 * G_USEC_PER_SEC)

struct _WsWorkerClient
{
  WsGpuTarget *target;
  WsWorkerTransport *transport;
  GSubprocess *process;        /* the transport's */
  WsWorkerHello *hello;        /* while the process runs */
  WsWorkerStateFunc state;
  gpointer state_data;
  GDataInputStream *from;
  GOutputStream *to;
  GMutex write_lock;           /* a cancellation may be written from another thread */
  gint64 next_id;
  gint64 timeout_us;           /* the longest silence during a request */
};

WsWorkerClient *
ws_worker_client_new_for_target (const WsGpuTarget *target)
{
  const char *timeout = g_getenv ("WS_WORKER_TIMEOUT");
  WsWorkerClient *c;

  g_return_val_if_fail (target != NULL, NULL);

  c = g_new0 (WsWorkerClient, 1);
  c->target = ws_gpu_target_copy (target);
  g_mutex_init (&c->write_lock);
  /* a worker that died between two lines must cost a write error, not the
   * program (SIGPIPE ends it by default) */
  signal (SIGPIPE, SIG_IGN);
  ws_worker_client_set_timeout (c, timeout ? (guint) CLAMP (g_ascii_strtoll (timeout, NULL, 10), 1, 86400)
                                           : WS_WORKER_DEFAULT_TIMEOUT);
  return c;
}

void
ws_worker_client_set_timeout (WsWorkerClient *c,
                              guint           seconds)
{
  g_return_if_fail (c != NULL);
  c->timeout_us = (gint64) MAX (seconds, 1) * G_USEC_PER_SEC;
}

static gint64
grace (WsWorkerClient *c)
{
  return MIN (GRACE_US, c->timeout_us);
}

WsWorkerClient *
ws_worker_client_new (void)
{
  g_autoptr (WsGpuTarget) local = ws_gpu_target_new_local ();

  return ws_worker_client_new_for_target (local);
}

const WsGpuTarget *
ws_worker_client_get_target (WsWorkerClient *c)
{
  return c->target;
}

void
ws_worker_client_set_state_func (WsWorkerClient   *c,
                                 WsWorkerStateFunc state,
                                 gpointer          state_data)
{
  c->state = state;
  c->state_data = state_data;
}

static void
stop (WsWorkerClient *c)
{
  gint64 until = g_get_monotonic_time () + 3 * G_USEC_PER_SEC;
  GOutputStream *to;

  if (c->process == NULL)
    return;
  /* closing its input asks it to free the GPU and leave; make sure it does.
   * No cancellation is written to it from now on: the descriptor is about
   * to be closed, and its number reused. */
  g_mutex_lock (&c->write_lock);
  to = g_steal_pointer (&c->to);
  g_mutex_unlock (&c->write_lock);
  if (to)
    {
      g_output_stream_close (to, NULL, NULL);
      g_object_unref (to);
    }
  while (g_subprocess_get_identifier (c->process) != NULL && g_get_monotonic_time () < until)
    g_usleep (10000);
  if (g_subprocess_get_identifier (c->process) != NULL)
    g_subprocess_force_exit (c->process);
  g_subprocess_wait (c->process, NULL, NULL);
  g_clear_object (&c->from);
  c->process = NULL;
  g_clear_pointer (&c->transport, ws_worker_transport_free);
  g_clear_pointer (&c->hello, ws_worker_hello_free);
}

void
ws_worker_client_free (WsWorkerClient *c)
{
  if (c == NULL)
    return;
  stop (c);
  g_mutex_clear (&c->write_lock);
  ws_gpu_target_free (c->target);
  g_free (c);
}

char *
ws_worker_client_find_program (GError **error)
{
  const char *env = g_getenv ("WS_GPU_WORKER");
  g_autofree char *built = g_build_filename (WS_BUILD_APPDIR, WS_GPU_WORKER_NAME, NULL);
  g_autofree char *installed = g_build_filename (WS_LIBEXECDIR, WS_GPU_WORKER_NAME, NULL);

  if (env && *env)
    {
      if (g_file_test (env, G_FILE_TEST_IS_EXECUTABLE))
        return g_strdup (env);
      g_set_error (error, WS_GPU_ERROR, WS_GPU_ERROR_NOT_BUILT,
                   /* Translators: WS_GPU_WORKER is an environment variable; %s is what it holds */
                   _("WS_GPU_WORKER names %s, which is not a program"), env);
      return NULL;
    }
  /* the uninstalled program uses its own build's worker */
  if (g_file_test (built, G_FILE_TEST_IS_EXECUTABLE))
    return g_steal_pointer (&built);
  if (g_file_test (installed, G_FILE_TEST_IS_EXECUTABLE))
    return g_steal_pointer (&installed);
  g_set_error (error, WS_GPU_ERROR, WS_GPU_ERROR_NOT_BUILT,
               /* Translators: the program's name, then the two folders it was looked for in */
               _("the GPU worker program %s is missing (looked in %s and %s)"),
               WS_GPU_WORKER_NAME, WS_BUILD_APPDIR, WS_LIBEXECDIR);
  return NULL;
}

static gboolean handshake (WsWorkerClient *c,
                           GCancellable   *cancellable,
                           GError        **error);

static gboolean
start (WsWorkerClient *c,
       GCancellable   *cancellable,
       GError        **error)
{
  if (c->process)
    return TRUE;
  c->transport = ws_worker_transport_start (c->target, c->state, c->state_data, error);
  if (c->transport == NULL)
    return FALSE;
  c->process = ws_worker_transport_get_process (c->transport);
  c->to = g_object_ref (g_subprocess_get_stdin_pipe (c->process));
  c->from = g_data_input_stream_new (g_subprocess_get_stdout_pipe (c->process));
  /* written through its descriptor, with poll (): a worker that reads
   * nothing never holds a write past its deadline */
  if (!g_unix_set_fd_nonblocking (g_unix_output_stream_get_fd (G_UNIX_OUTPUT_STREAM (c->to)), TRUE, error))
    {
      /* Translators: before what went wrong */
      g_prefix_error (error, _("starting the GPU worker: "));
      ws_worker_transport_kill (c->transport);
      stop (c);
      return FALSE;
    }
  return handshake (c, cancellable, error);
}

typedef enum
{
  WRITE_DONE,
  WRITE_TIMED_OUT,             /* the worker read nothing until the deadline */
  WRITE_CLOSED,                /* its input is closed: it is ending */
} WriteStatus;

/* Writes it all before the deadline, never blocking past it (the descriptor
 * is non-blocking): as much as the pipe takes at once, so that a message
 * that fits is one write. */
static WriteStatus
write_all (int         fd,
           const char *data,
           gsize       length,
           gint64      deadline)
{
  while (length > 0)
    {
      struct pollfd p = { fd, POLLOUT, 0 };
      gint64 left = deadline - g_get_monotonic_time ();
      gssize n;
      int r;

      if (left <= 0)
        return WRITE_TIMED_OUT;
      r = poll (&p, 1, (int) MIN ((left + 999) / 1000, G_MAXINT));
      if (r < 0 && errno == EINTR)
        continue;
      if (r < 0 || (p.revents & (POLLERR | POLLHUP | POLLNVAL)))
        return WRITE_CLOSED;
      if (r == 0)
        continue;
      n = write (fd, data, length);
      if (n < 0 && (errno == EINTR || errno == EAGAIN))
        continue;
      if (n <= 0)
        return WRITE_CLOSED;
      data += n;
      length -= (gsize) n;
    }
  return WRITE_DONE;
}

/* One write for a message that fits in the pipe (see ws-worker-server.c), and
 * never a wait past the deadline on a worker that reads nothing. */
static WriteStatus
write_message (WsWorkerClient *c,
               JsonObject     *o,
               gint64          deadline)
{
  g_autoptr (JsonNode) node = json_node_new (JSON_NODE_OBJECT);
  g_autoptr (JsonGenerator) gen = json_generator_new ();
  g_autofree char *text = NULL;
  g_autofree char *line = NULL;
  gsize length;
  WriteStatus status = WRITE_CLOSED;

  json_node_set_object (node, o);
  json_generator_set_root (gen, node);
  text = json_generator_to_data (gen, &length);
  line = g_strconcat (text, "\n", NULL);
  g_mutex_lock (&c->write_lock);
  if (c->to != NULL && G_IS_UNIX_OUTPUT_STREAM (c->to))
    status = write_all (g_unix_output_stream_get_fd (G_UNIX_OUTPUT_STREAM (c->to)), line, length + 1, deadline);
  g_mutex_unlock (&c->write_lock);
  return status;
}

typedef struct
{
  WsWorkerClient *client;
  gint64 id;
} Cancel;

static void
on_cancelled (GCancellable *cancellable,
              gpointer      user_data)
{
  Cancel *cancel = user_data;
  JsonObject *o = json_object_new ();

  json_object_set_int_member (o, "id", cancel->id);
  json_object_set_string_member (o, "op", "cancel");
  /* on the thread that cancelled: never wait long for the worker */
  write_message (cancel->client, o, g_get_monotonic_time () + G_USEC_PER_SEC);
  json_object_unref (o);
}

/* A worker that hung or broke the protocol: kill it (its transport's way:
 * srun withdraws its job) and forget it. */
static void
kill_worker (WsWorkerClient *c)
{
  if (c->transport)
    ws_worker_transport_kill (c->transport);
  stop (c);
}

/* Why a worker was stopped; each is said in a sentence of its own. */
typedef enum
{
  STOPPED_SILENT,              /* it said nothing for the timeout */
  STOPPED_LONG_LINE,           /* it sent a line longer than WS_WORKER_MAX_LINE */
  STOPPED_NO_REQUEST,          /* it took no request for the timeout */
  STOPPED_ANSWERS_OPEN,        /* it closed its answers but did not end (here only) */
  STOPPED_REQUESTS_OPEN,       /* it closed its requests but did not end (here only) */
} Stopped;

static void
set_killed_here (Stopped  why,
                 int      seconds,
                 GError **error)
{
  switch (why)
    {
    case STOPPED_SILENT:
      g_set_error (error, WS_GPU_ERROR, WS_GPU_ERROR_WORKER,
                   /* Translators: WS_WORKER_TIMEOUT is an environment variable */
                   _("the GPU worker said nothing for %d s: it was stopped, and the next measurement starts a new "
                     "one (WS_WORKER_TIMEOUT sets how long it may be silent)"), seconds);
      break;
    case STOPPED_LONG_LINE:
      g_set_error (error, WS_GPU_ERROR, WS_GPU_ERROR_WORKER,
                   _("the GPU worker sent a line longer than %d MiB: it was stopped, and the next measurement "
                     "starts a new one"), WS_WORKER_MAX_LINE >> 20);
      break;
    case STOPPED_NO_REQUEST:
      g_set_error (error, WS_GPU_ERROR, WS_GPU_ERROR_WORKER,
                   _("the GPU worker took no request for %d s: it was stopped, and the next measurement starts a "
                     "new one"), seconds);
      break;
    case STOPPED_ANSWERS_OPEN:
      g_set_error (error, WS_GPU_ERROR, WS_GPU_ERROR_WORKER,
                   _("the GPU worker closed its answers but did not end: it was stopped, and the next measurement "
                     "starts a new one"));
      break;
    case STOPPED_REQUESTS_OPEN:
    default:
      g_set_error (error, WS_GPU_ERROR, WS_GPU_ERROR_WORKER,
                   _("the GPU worker closed its requests but did not end: it was stopped, and the next measurement "
                     "starts a new one"));
      break;
    }
}

/* A command's worker runs wherever the command takes it, which has no name. */
static void
set_killed_by_command (Stopped  why,
                       int      seconds,
                       GError **error)
{
  switch (why)
    {
    case STOPPED_SILENT:
      g_set_error (error, WS_WORKER_ERROR, WS_WORKER_ERROR_CONNECTION_LOST,
                   /* Translators: WS_WORKER_TIMEOUT is an environment variable */
                   _("the GPU worker on the machine the command reaches said nothing for %d s: it was stopped; the "
                     "measurements made are kept, and the next one connects again (WS_WORKER_TIMEOUT sets how long "
                     "it may be silent)"), seconds);
      break;
    case STOPPED_LONG_LINE:
      g_set_error (error, WS_WORKER_ERROR, WS_WORKER_ERROR_CONNECTION_LOST,
                   _("the GPU worker on the machine the command reaches sent a line longer than %d MiB: it was "
                     "stopped; the measurements made are kept, and the next one connects again"),
                   WS_WORKER_MAX_LINE >> 20);
      break;
    case STOPPED_NO_REQUEST:
      g_set_error (error, WS_WORKER_ERROR, WS_WORKER_ERROR_CONNECTION_LOST,
                   _("the GPU worker on the machine the command reaches took no request for %d s: it was stopped; "
                     "the measurements made are kept, and the next one connects again"), seconds);
      break;
    case STOPPED_ANSWERS_OPEN:
    case STOPPED_REQUESTS_OPEN:
    default:
      /* set_ended () stops only a worker of this computer */
      g_assert_not_reached ();
    }
}

static void
set_killed_there (Stopped     why,
                  const char *place,
                  int         seconds,
                  GError    **error)
{
  switch (why)
    {
    case STOPPED_SILENT:
      g_set_error (error, WS_WORKER_ERROR, WS_WORKER_ERROR_CONNECTION_LOST,
                   /* Translators: %s is where the GPU worker runs: a host's name or a Slurm job
                    * (“Slurm job 1234”); WS_WORKER_TIMEOUT is an environment variable */
                   _("the GPU worker on %s said nothing for %d s: it was stopped; the measurements made are kept, "
                     "and the next one connects again (WS_WORKER_TIMEOUT sets how long it may be silent)"),
                   place, seconds);
      break;
    case STOPPED_LONG_LINE:
      g_set_error (error, WS_WORKER_ERROR, WS_WORKER_ERROR_CONNECTION_LOST,
                   /* Translators: %s is where the GPU worker runs: a host's name or a Slurm job */
                   _("the GPU worker on %s sent a line longer than %d MiB: it was stopped; the measurements made "
                     "are kept, and the next one connects again"), place, WS_WORKER_MAX_LINE >> 20);
      break;
    case STOPPED_NO_REQUEST:
      g_set_error (error, WS_WORKER_ERROR, WS_WORKER_ERROR_CONNECTION_LOST,
                   /* Translators: %s is where the GPU worker runs: a host's name or a Slurm job */
                   _("the GPU worker on %s took no request for %d s: it was stopped; the measurements made are "
                     "kept, and the next one connects again"), place, seconds);
      break;
    case STOPPED_ANSWERS_OPEN:
    case STOPPED_REQUESTS_OPEN:
    default:
      /* set_ended () stops only a worker of this computer */
      g_assert_not_reached ();
    }
}

/* Kills it, and says why (it "said nothing for 120 s") as its end would
 * be said: here, in the GPU's terms (the backend probes again); elsewhere,
 * as a connection lost (the session connects again). */
static void
set_killed (WsWorkerClient *c,
            Stopped         why,
            GError        **error)
{
  g_autofree char *place = ws_gpu_target_place (c->target);
  WsGpuTargetKind kind = c->target->kind;
  int seconds = (int) (c->timeout_us / G_USEC_PER_SEC);

  kill_worker (c);
  if (kind == WS_GPU_TARGET_LOCAL)
    set_killed_here (why, seconds, error);
  else if (kind == WS_GPU_TARGET_COMMAND)
    set_killed_by_command (why, seconds, error);
  else
    set_killed_there (why, place, seconds, error);
}

/* It answered what is no answer of the protocol (not JSON, NaN, another
 * request's id, a reply of no known shape): it is stopped at once, and what
 * it sent is said, cut short (NULL: a line that was not text). */
static void
set_broke_protocol (WsWorkerClient *c,
                    const char     *line,
                    GError        **error)
{
  g_autofree char *place = ws_gpu_target_place (c->target);
  g_autofree char *shown = line ? ws_text_for_message (line) : NULL;
  WsGpuTargetKind kind = c->target->kind;

  kill_worker (c);
  if (shown == NULL && kind == WS_GPU_TARGET_LOCAL)
    g_set_error (error, WS_WORKER_ERROR, WS_WORKER_ERROR_PROTOCOL,
                 _("the GPU worker answered with a line that is not text (not UTF-8): it was stopped, and the next "
                   "measurement starts a new one"));
  else if (shown == NULL && kind == WS_GPU_TARGET_COMMAND)
    g_set_error (error, WS_WORKER_ERROR, WS_WORKER_ERROR_PROTOCOL,
                 _("the GPU worker on the machine the command reaches answered with a line that is not text (not "
                   "UTF-8): it was stopped; the measurements made are kept, and the next one connects again"));
  else if (shown == NULL)
    g_set_error (error, WS_WORKER_ERROR, WS_WORKER_ERROR_PROTOCOL,
                 /* Translators: %s is where the GPU worker runs: a host's name or a Slurm job */
                 _("the GPU worker on %s answered with a line that is not text (not UTF-8): it was stopped; the "
                   "measurements made are kept, and the next one connects again"), place);
  else if (kind == WS_GPU_TARGET_LOCAL)
    g_set_error (error, WS_WORKER_ERROR, WS_WORKER_ERROR_PROTOCOL,
                 /* Translators: what the GPU worker sent, cut short */
                 _("the GPU worker answered “%s”, which is not an answer of Warpscope's protocol: it was stopped, "
                   "and the next measurement starts a new one"), shown);
  else if (kind == WS_GPU_TARGET_COMMAND)
    g_set_error (error, WS_WORKER_ERROR, WS_WORKER_ERROR_PROTOCOL,
                 /* Translators: what the GPU worker sent, cut short */
                 _("the GPU worker on the machine the command reaches answered “%s”, which is not an answer of "
                   "Warpscope's protocol: it was stopped; the measurements made are kept, and the next one connects "
                   "again"), shown);
  else
    g_set_error (error, WS_WORKER_ERROR, WS_WORKER_ERROR_PROTOCOL,
                 /* Translators: where the GPU worker runs (a host's name or a Slurm
                  * job), then what it sent, cut short */
                 _("the GPU worker on %s answered “%s”, which is not an answer of Warpscope's protocol: it was "
                   "stopped; the measurements made are kept, and the next one connects again"), place, shown);
}

/* Waits until the process has been reaped, at most until deadline. */
static gboolean
wait_gone (WsWorkerClient *c,
           gint64          deadline)
{
  while (g_subprocess_get_identifier (c->process) != NULL && g_get_monotonic_time () < deadline)
    g_usleep (10000);
  return g_subprocess_get_identifier (c->process) == NULL;
}

/* The process closed its answers or its requests: say how it ended, and
 * forget it. A worker here that had answered the handshake and stays on
 * (stays: what it did) is killed after the grace period and said to have
 * hung; elsewhere its transport explains the end (ssh, srun), waiting a
 * few seconds at most. */
static void
set_ended (WsWorkerClient *c,
           Stopped         stays,
           GError        **error)
{
  if (c->hello != NULL && ws_gpu_target_is_local (c->target) &&
      !wait_gone (c, g_get_monotonic_time () + grace (c)))
    {
      set_killed (c, stays, error);
      return;
    }
  g_propagate_error (error, ws_worker_transport_explain_end (c->transport, c->hello != NULL));
  stop (c);
}

static gboolean
holds_int (JsonNode *node)
{
  return node != NULL && JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_INT64;
}

static const char *
get_string (JsonObject *o,
            const char *name)
{
  JsonNode *node = json_object_get_member (o, name);

  /* a string decoded from escapes may still not be UTF-8 (a lone surrogate) */
  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING ||
      !g_utf8_validate (json_node_get_string (node), -1, NULL))
    return NULL;
  return json_node_get_string (node);
}

/* The domains of the errors a worker sends, made quarks before an answer
 * needs one. */
static void
register_domains (void)
{
  /* each of these makes its quark the first time */
  (void) WS_GPU_ERROR;
  (void) WS_WORKER_ERROR;
  (void) G_IO_ERROR;
  (void) WS_PATTERN_ERROR;
  (void) WS_EXPR_ERROR;
  (void) WS_RECORDING_ERROR;
}

/* An error as the worker described it, whatever it sent: a domain this
 * program knows (no new quark for every string a worker makes up), a code
 * that is an int, a message that is text. */
static GError *
error_from_answer (JsonObject *answer)
{
  JsonNode *node = json_object_get_member (answer, "error");
  JsonObject *e = node && JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
  const char *domain = e ? get_string (e, "domain") : NULL;
  const char *message = e ? get_string (e, "message") : NULL;
  JsonNode *code = e ? json_object_get_member (e, "code") : NULL;
  GQuark quark;

  register_domains ();
  quark = domain ? g_quark_try_string (domain) : 0;
  if (quark != 0 && holds_int (code) && json_node_get_int (code) >= G_MININT && json_node_get_int (code) <= G_MAXINT)
    return g_error_new_literal (quark, (int) json_node_get_int (code),
                                message ? message : _("the GPU worker failed without saying why"));
  if (message == NULL)
    return g_error_new_literal (WS_GPU_ERROR, WS_GPU_ERROR_CUDA, _("the GPU worker failed: it did not say why"));
  /* Translators: what the GPU worker said went wrong */
  return g_error_new (WS_GPU_ERROR, WS_GPU_ERROR_CUDA, _("the GPU worker failed: %s"), message);
}

WsWorkerAnswer
ws_worker_answer_parse (const char *line,
                        gsize       length,
                        gint64      id,
                        guint      *done,
                        guint      *total,
                        JsonNode  **reply,
                        GError    **error)
{
  g_autoptr (JsonParser) parser = json_parser_new_immutable ();
  JsonObject *answer;
  JsonNode *member;

  /* text, with no NUL in it (g_utf8_validate stops at one), nested as
   * deep as json-glib can take */
  if (!g_utf8_validate (line, (gssize) length, NULL) ||
      !ws_json_check_depth (line, length, WS_JSON_MAX_DEPTH, NULL) ||
      !json_parser_load_from_data (parser, line, (gssize) length, NULL) ||
      json_parser_get_root (parser) == NULL || !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    return WS_WORKER_ANSWER_OTHER;
  answer = json_node_get_object (json_parser_get_root (parser));
  member = json_object_get_member (answer, "id");
  if (!holds_int (member) || json_node_get_int (member) != id)
    return WS_WORKER_ANSWER_OTHER;

  if ((member = json_object_get_member (answer, "progress")) != NULL)
    {
      JsonArray *p = JSON_NODE_HOLDS_ARRAY (member) ? json_node_get_array (member) : NULL;

      if (p == NULL || json_array_get_length (p) != 2 || !holds_int (json_array_get_element (p, 0)) ||
          !holds_int (json_array_get_element (p, 1)))
        return WS_WORKER_ANSWER_OTHER;
      /* samples or points done of so many: 0 ≤ done ≤ total, a count a
       * measurement could have; anything else is not progress */
      {
        gint64 d = json_array_get_int_element (p, 0), t = json_array_get_int_element (p, 1);

        if (d < 0 || t < d || t > G_MAXINT32)
          return WS_WORKER_ANSWER_OTHER;
        *done = (guint) d;
        *total = (guint) t;
      }
      return WS_WORKER_ANSWER_PROGRESS;
    }
  if (json_object_has_member (answer, "error"))
    {
      JsonNode *fatal = json_object_get_member (answer, "fatal");

      g_propagate_error (error, error_from_answer (answer));
      if (fatal && JSON_NODE_HOLDS_VALUE (fatal) && json_node_get_value_type (fatal) == G_TYPE_BOOLEAN &&
          json_node_get_boolean (fatal))
        return WS_WORKER_ANSWER_FATAL;
      return WS_WORKER_ANSWER_ERROR;
    }
  if ((member = json_object_get_member (answer, "reply")) != NULL)
    {
      *reply = json_node_copy (member);
      return WS_WORKER_ANSWER_REPLY;
    }
  return WS_WORKER_ANSWER_OTHER;
}

/* Reads answers to request id until its reply or error; a deadline for each
 * answer, a shorter one once cancelled. */
static JsonNode *
wait_for_answer (WsWorkerClient  *c,
                 gint64           id,
                 GCancellable    *cancellable,
                 WsSampleProgress progress,
                 gpointer         progress_data,
                 GError         **error)
{
  gint64 deadline = g_get_monotonic_time () + c->timeout_us;
  gboolean cancelled = FALSE;

  for (;;)
    {
      g_autoptr (GError) local = NULL;
      g_autofree char *line = ws_worker_read_line (c->from, WS_WORKER_MAX_LINE, deadline,
                                                   cancelled ? NULL : cancellable, &local);
      JsonNode *reply = NULL;
      guint done = 0, total = 0;

      if (g_error_matches (local, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          /* the handler has asked the worker to stop; give it a moment */
          cancelled = TRUE;
          deadline = MIN (deadline, g_get_monotonic_time () + grace (c));
          continue;
        }
      if (g_error_matches (local, WS_WORKER_ERROR, WS_WORKER_ERROR_TIMED_OUT))
        {
          if (cancelled)
            {
              kill_worker (c);
              g_set_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                           _("cancelled; the GPU worker did not stop when asked, so it was stopped"));
            }
          else
            set_killed (c, STOPPED_SILENT, error);
          return NULL;
        }
      if (g_error_matches (local, WS_WORKER_ERROR, WS_WORKER_ERROR_PROTOCOL))
        {
          set_killed (c, STOPPED_LONG_LINE, error);
          return NULL;
        }
      if (g_error_matches (local, G_CONVERT_ERROR, G_CONVERT_ERROR_ILLEGAL_SEQUENCE))
        {
          /* after the handshake, every line is an answer */
          set_broke_protocol (c, NULL, error);
          return NULL;
        }
      if (local != NULL || line == NULL)
        {
          /* its answers ended, or cannot be read any more */
          set_ended (c, STOPPED_ANSWERS_OPEN, error);
          return NULL;
        }

      switch (ws_worker_answer_parse (line, strlen (line), id, &done, &total, &reply, &local))
        {
        case WS_WORKER_ANSWER_PROGRESS:
          if (!cancelled)
            deadline = g_get_monotonic_time () + c->timeout_us;
          if (progress)
            progress (done, total, progress_data);
          continue;
        case WS_WORKER_ANSWER_REPLY:
          return reply;
        case WS_WORKER_ANSWER_FATAL:
          {
            /* Translators: what went wrong, then what became of the worker */
            char *message = g_strdup_printf (_("%s; the GPU worker that ran it has ended, and the next "
                                               "measurement starts a new one"), local->message);
            g_free (local->message);
            local->message = message;
          }
          stop (c);
          g_propagate_error (error, g_steal_pointer (&local));
          return NULL;
        case WS_WORKER_ANSWER_ERROR:
          g_propagate_error (error, g_steal_pointer (&local));
          return NULL;
        case WS_WORKER_ANSWER_OTHER:
        default:
          /* not an answer to this request (no other is pending): said at
           * once, not after a silence of the timeout */
          set_broke_protocol (c, line, error);
          return NULL;
        }
    }
}

JsonNode *
ws_worker_client_call (WsWorkerClient  *c,
                       JsonObject      *request,
                       GCancellable    *cancellable,
                       WsSampleProgress progress,
                       gpointer         progress_data,
                       GError         **error)
{
  Cancel cancel = { c, 0 };
  gulong handler = 0;
  JsonNode *reply;

  g_return_val_if_fail (c != NULL, NULL);
  g_return_val_if_fail (request != NULL, NULL);

  if (g_cancellable_set_error_if_cancelled (cancellable, error) || !start (c, cancellable, error))
    return NULL;
  cancel.id = ++c->next_id;
  json_object_set_int_member (request, "id", cancel.id);
  switch (write_message (c, request, g_get_monotonic_time () + c->timeout_us))
    {
    case WRITE_TIMED_OUT:
      set_killed (c, STOPPED_NO_REQUEST, error);
      return NULL;
    case WRITE_CLOSED:
      set_ended (c, STOPPED_REQUESTS_OPEN, error);
      return NULL;
    case WRITE_DONE:
    default:
      break;
    }
  if (cancellable)
    handler = g_cancellable_connect (cancellable, G_CALLBACK (on_cancelled), &cancel, NULL);
  reply = wait_for_answer (c, cancel.id, cancellable, progress, progress_data, error);
  if (handler)
    g_cancellable_disconnect (cancellable, handler);
  return reply;
}

/* ------------------------------------------------------------------ */
/* The handshake                                                      */
/* ------------------------------------------------------------------ */

/* Waiting was cut short: by the caller, or by the target's patience. */
static void
set_gave_up (WsWorkerClient *c,
             const GError   *why,
             GError        **error)
{
  /* a command's worker runs wherever the command takes it */
  g_autofree char *place = c->target->kind == WS_GPU_TARGET_COMMAND ? g_strdup (_("the machine the command reaches"))
                                                                    : ws_gpu_target_place (c->target);
  g_autofree char *job = ws_worker_transport_dup_job (c->transport);
  gboolean slurm = c->target->kind == WS_GPU_TARGET_SLURM;
  guint wait = ws_gpu_target_get_wait (c->target);

  ws_worker_transport_kill (c->transport);
  if (g_error_matches (why, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      if (slurm && job)
        /* Translators: a Slurm job's number */
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, _("cancelled: Slurm job %s is withdrawn"), job);
      else
        /* Translators: %s is where the GPU worker runs: a host's name, “this
         * computer”, Slurm (and its partition) or “a custom command” */
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, _("cancelled while connecting to %s"), place);
    }
  else if (slurm && job)
    g_set_error (error, WS_WORKER_ERROR, WS_WORKER_ERROR_TIMED_OUT,
                 /* Translators: a Slurm job's number, then how long it was waited for;
                  * slurm://…?wait=SECONDS is how the address says the wait */
                 _("Slurm did not start job %s within %u s, and it is withdrawn: try another partition, a shorter "
                   "time, or a longer wait (slurm://…?wait=SECONDS)"), job, wait);
  else if (slurm)
    g_set_error (error, WS_WORKER_ERROR, WS_WORKER_ERROR_TIMED_OUT,
                 /* Translators: how long the job was waited for; slurm://…?wait=SECONDS
                  * is how the address says the wait */
                 _("Slurm did not start the job within %u s, and it is withdrawn: try another partition, a shorter "
                   "time, or a longer wait (slurm://…?wait=SECONDS)"), wait);
  else if (!g_error_matches (why, WS_WORKER_ERROR, WS_WORKER_ERROR_TIMED_OUT))
    g_propagate_error (error, g_error_copy (why));
  else
    g_set_error (error, WS_WORKER_ERROR, WS_WORKER_ERROR_TIMED_OUT,
                 /* Translators: %s is where the GPU worker runs: a host's name, “this
                  * computer” or “a custom command”; ?wait=SECONDS is how the address
                  * says the wait */
                 _("the GPU worker on %s did not answer within %u s: is the host slow to log in to, or is its GPU "
                   "busy? (a longer wait: ?wait=SECONDS)"), place, wait);
  stop (c);
}

/* An object with an id, JSON or nearly (NaN): what only a worker sends. */
static gboolean
looks_like_answer (const char *line)
{
  while (g_ascii_isspace (*line))
    line++;
  return *line == '{' && strstr (line, "\"id\"") != NULL;
}

/* The first exchange: versions, the host, its GPUs, and the one chosen.
 * Lines that are no JSON (a shell's startup file that prints) are passed
 * over, a few. */
static gboolean
handshake (WsWorkerClient *c,
           GCancellable   *cancellable,
           GError        **error)
{
  /* a command's worker runs wherever the command takes it */
  g_autofree char *place = c->target->kind == WS_GPU_TARGET_COMMAND
                        /* Translators: where the GPU worker runs when a command
                         * of the user's starts it */
                        ? g_strdup (_("the machine the command reaches"))
                                                                    : ws_gpu_target_place (c->target);
  JsonObject *request = ws_worker_hello_request (c->target->gpu);
  gint64 id = ++c->next_id;
  gint64 deadline = g_get_monotonic_time () + (gint64) ws_gpu_target_get_wait (c->target) * G_USEC_PER_SEC;
  gboolean sent, ended = FALSE;

  json_object_set_int_member (request, "id", id);
  sent = write_message (c, request, deadline) == WRITE_DONE;
  json_object_unref (request);
  for (guint strays = 0; sent && strays < 100; strays++)
    {
      g_autoptr (GError) local = NULL;
      g_autoptr (GError) refused = NULL;
      g_autoptr (JsonNode) reply = NULL;
      g_autofree char *line = ws_worker_read_line (c->from, WS_WORKER_MAX_LINE, deadline, cancellable, &local);
      guint done, total;

      if (g_error_matches (local, G_CONVERT_ERROR, G_CONVERT_ERROR_ILLEGAL_SEQUENCE))
        continue;
      if (local)
        {
          set_gave_up (c, local, error);
          return FALSE;
        }
      if (line == NULL)
        {
          ended = TRUE;
          break;
        }
      /* checked as every answer is; lines that are none are passed over */
      switch (ws_worker_answer_parse (line, strlen (line), id, &done, &total, &reply, &refused))
        {
        case WS_WORKER_ANSWER_ERROR:
        case WS_WORKER_ANSWER_FATAL:
          g_propagate_error (error, ws_worker_hello_refused (refused, place));
          ws_worker_transport_kill (c->transport);
          stop (c);
          return FALSE;
        case WS_WORKER_ANSWER_REPLY:
          break;
        case WS_WORKER_ANSWER_OTHER:
          /* a shell's startup file prints text; a worker that answers
           * another id, or in no shape, is said at once */
          if (!looks_like_answer (line))
            continue;
          set_broke_protocol (c, line, error);
          return FALSE;
        case WS_WORKER_ANSWER_PROGRESS:
        default:
          continue;
        }
      if ((c->hello = ws_worker_hello_from_json (reply, place, error)) == NULL)
        {
          ws_worker_transport_kill (c->transport);
          stop (c);
          return FALSE;
        }
      ws_worker_transport_set_job (c->transport, c->hello->job);
      return TRUE;
    }
  if (sent && !ended && c->target->kind == WS_GPU_TARGET_COMMAND)
    {
      g_set_error (error, WS_WORKER_ERROR, WS_WORKER_ERROR_PROTOCOL,
                   _("the machine the command reaches printed lines that are not the GPU worker's answer: does a "
                     "shell startup file there print something?"));
      ws_worker_transport_kill (c->transport);
      stop (c);
      return FALSE;
    }
  if (sent && !ended)
    {
      g_set_error (error, WS_WORKER_ERROR, WS_WORKER_ERROR_PROTOCOL,
                   /* Translators: %s is where the GPU worker runs: a host's name, “this
                    * computer” or Slurm (and its partition or job) */
                   _("%s printed lines that are not the GPU worker's answer: does a shell startup file there print "
                     "something?"), place);
      ws_worker_transport_kill (c->transport);
      stop (c);
      return FALSE;
    }
  set_ended (c, STOPPED_ANSWERS_OPEN, error);
  return FALSE;
}

const WsWorkerHello *
ws_worker_client_connect (WsWorkerClient *c,
                          GCancellable   *cancellable,
                          GError        **error)
{
  g_return_val_if_fail (c != NULL, NULL);

  if (g_cancellable_set_error_if_cancelled (cancellable, error) || !start (c, cancellable, error))
    return NULL;
  return c->hello;
}
