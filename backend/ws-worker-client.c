/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "ws-config.h"
#include "ws-worker-client.h"
#include "ws-gpu-worker.h"

/* The longest line the worker may send. */
#define MAX_LINE (64 * 1024 * 1024)

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
};

WsWorkerClient *
ws_worker_client_new_for_target (const WsGpuTarget *target)
{
  WsWorkerClient *c = g_new0 (WsWorkerClient, 1);

  g_return_val_if_fail (target != NULL, NULL);

  c->target = ws_gpu_target_copy (target);
  g_mutex_init (&c->write_lock);
  return c;
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

  if (c->process == NULL)
    return;
  /* closing its input asks it to free the GPU and leave; make sure it does */
  g_output_stream_close (c->to, NULL, NULL);
  while (g_subprocess_get_identifier (c->process) != NULL && g_get_monotonic_time () < until)
    g_usleep (10000);
  if (g_subprocess_get_identifier (c->process) != NULL)
    g_subprocess_force_exit (c->process);
  g_subprocess_wait (c->process, NULL, NULL);
  g_clear_object (&c->from);
  g_clear_object (&c->to);
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
                   "WS_GPU_WORKER names %s, which is not a program", env);
      return NULL;
    }
  /* the uninstalled program uses its own build's worker */
  if (g_file_test (built, G_FILE_TEST_IS_EXECUTABLE))
    return g_steal_pointer (&built);
  if (g_file_test (installed, G_FILE_TEST_IS_EXECUTABLE))
    return g_steal_pointer (&installed);
  g_set_error (error, WS_GPU_ERROR, WS_GPU_ERROR_NOT_BUILT,
               "the GPU worker program %s is missing (looked in %s and %s)",
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
  return handshake (c, cancellable, error);
}

static gboolean
write_message (WsWorkerClient *c,
               JsonObject     *o,
               GError        **error)
{
  g_autoptr (JsonNode) node = json_node_init_object (json_node_alloc (), o);
  g_autoptr (JsonGenerator) gen = json_generator_new ();
  g_autofree char *text = NULL;
  g_autofree char *line = NULL;
  gsize length;
  gboolean ok;

  json_generator_set_root (gen, node);
  text = json_generator_to_data (gen, &length);
  /* one write (see ws-gpu-worker.c) */
  line = g_strconcat (text, "\n", NULL);
  g_mutex_lock (&c->write_lock);
  ok = c->to != NULL &&
       g_output_stream_write_all (c->to, line, length + 1, NULL, NULL, error) &&
       g_output_stream_flush (c->to, NULL, error);
  g_mutex_unlock (&c->write_lock);
  return ok;
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
  write_message (cancel->client, o, NULL);
  json_object_unref (o);
}

/* The process ended without answering: say how, and forget it. */
static void
set_ended (WsWorkerClient *c,
           GError        **error)
{
  g_propagate_error (error, ws_worker_transport_explain_end (c->transport, c->hello != NULL));
  stop (c);
}

static GError *
error_from_answer (JsonObject *answer)
{
  JsonObject *e = json_object_get_object_member (answer, "error");
  const char *domain = json_object_get_string_member_with_default (e, "domain", "ws-gpu-error-quark");

  return g_error_new_literal (g_quark_from_string (domain),
                              (int) json_object_get_int_member_with_default (e, "code", WS_GPU_ERROR_CUDA),
                              json_object_get_string_member_with_default (e, "message", "the GPU worker failed"));
}

/* Reads answers to request id until its reply or error. */
static JsonNode *
wait_for_answer (WsWorkerClient  *c,
                 gint64           id,
                 WsSampleProgress progress,
                 gpointer         progress_data,
                 GError         **error)
{
  g_autoptr (JsonParser) parser = json_parser_new ();

  for (;;)
    {
      g_autofree char *line = g_data_input_stream_read_line_utf8 (c->from, NULL, NULL, NULL);
      JsonObject *answer;

      if (line == NULL)
        {
          set_ended (c, error);
          return NULL;
        }
      if (!json_parser_load_from_data (parser, line, -1, NULL) || !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
        continue;
      answer = json_node_get_object (json_parser_get_root (parser));
      if (json_object_get_int_member_with_default (answer, "id", -1) != id)
        continue;
      if (json_object_has_member (answer, "progress"))
        {
          JsonArray *p = json_object_get_array_member (answer, "progress");
          if (progress && json_array_get_length (p) == 2)
            progress ((guint) json_array_get_int_element (p, 0), (guint) json_array_get_int_element (p, 1), progress_data);
          continue;
        }
      if (json_object_has_member (answer, "error"))
        {
          GError *e = error_from_answer (answer);

          if (json_object_get_boolean_member_with_default (answer, "fatal", FALSE))
            {
              char *message = g_strconcat (e->message, "; the GPU worker that ran it has ended, and the "
                                           "next measurement starts a new one", NULL);
              g_free (e->message);
              e->message = message;
              stop (c);
            }
          g_propagate_error (error, e);
          return NULL;
        }
      if (json_object_has_member (answer, "reply"))
        return json_node_copy (json_object_get_member (answer, "reply"));
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
  if (!write_message (c, request, NULL))
    {
      set_ended (c, error);
      return NULL;
    }
  if (cancellable)
    handler = g_cancellable_connect (cancellable, G_CALLBACK (on_cancelled), &cancel, NULL);
  reply = wait_for_answer (c, cancel.id, progress, progress_data, error);
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
  g_autofree char *place = ws_gpu_target_place (c->target);
  g_autofree char *job = ws_worker_transport_dup_job (c->transport);
  gboolean slurm = c->target->kind == WS_GPU_TARGET_SLURM;
  guint wait = ws_gpu_target_get_wait (c->target);

  ws_worker_transport_kill (c->transport);
  if (g_error_matches (why, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      if (slurm && job)
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, "cancelled: Slurm job %s is withdrawn", job);
      else
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, "cancelled while connecting to %s", place);
    }
  else if (slurm)
    g_set_error (error, WS_WORKER_ERROR, WS_WORKER_ERROR_TIMED_OUT,
                 "Slurm did not start %s%s within %u s, and it is withdrawn: try another partition, a shorter "
                 "time, or a longer wait (slurm://…?wait=SECONDS)", job ? "job " : "the job", job ? job : "", wait);
  else if (!g_error_matches (why, WS_WORKER_ERROR, WS_WORKER_ERROR_TIMED_OUT))
    g_propagate_error (error, g_error_copy (why));
  else
    g_set_error (error, WS_WORKER_ERROR, WS_WORKER_ERROR_TIMED_OUT,
                 "the GPU worker on %s did not answer within %u s: is the host slow to log in to, or is its GPU "
                 "busy? (a longer wait: ?wait=SECONDS)", place, wait);
  stop (c);
}

/* The first exchange: versions, the host, its GPUs, and the one chosen.
 * Lines that are no JSON (a shell's startup file that prints) are passed
 * over, a few. */
static gboolean
handshake (WsWorkerClient *c,
           GCancellable   *cancellable,
           GError        **error)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  /* for messages: a command's worker runs wherever it takes it */
  g_autofree char *place = c->target->kind == WS_GPU_TARGET_COMMAND ? g_strdup ("the machine the command reaches")
                                                                    : ws_gpu_target_place (c->target);
  JsonObject *request = ws_worker_hello_request (c->target->gpu);
  gint64 id = ++c->next_id;
  gint64 deadline = g_get_monotonic_time () + (gint64) ws_gpu_target_get_wait (c->target) * G_USEC_PER_SEC;
  gboolean sent, ended = FALSE;

  json_object_set_int_member (request, "id", id);
  sent = write_message (c, request, NULL);
  json_object_unref (request);
  for (guint strays = 0; sent && strays < 100; strays++)
    {
      g_autoptr (GError) local = NULL;
      g_autofree char *line = ws_worker_read_line (c->from, MAX_LINE, deadline, cancellable, &local);
      JsonObject *answer;

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
      if (!json_parser_load_from_data (parser, line, -1, NULL) || !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
        continue;
      answer = json_node_get_object (json_parser_get_root (parser));
      if (json_object_get_int_member_with_default (answer, "id", -1) != id)
        continue;
      if (json_object_has_member (answer, "error"))
        {
          g_autoptr (GError) refused = error_from_answer (answer);

          g_propagate_error (error, ws_worker_hello_refused (refused, place));
          ws_worker_transport_kill (c->transport);
          stop (c);
          return FALSE;
        }
      if (!json_object_has_member (answer, "reply") ||
          (c->hello = ws_worker_hello_from_json (json_object_get_member (answer, "reply"), place, error)) == NULL)
        {
          if (!json_object_has_member (answer, "reply"))
            g_set_error (error, WS_WORKER_ERROR, WS_WORKER_ERROR_PROTOCOL,
                         "the GPU worker on %s answered the handshake without a reply", place);
          ws_worker_transport_kill (c->transport);
          stop (c);
          return FALSE;
        }
      ws_worker_transport_set_job (c->transport, c->hello->job);
      return TRUE;
    }
  if (sent && !ended)
    {
      g_set_error (error, WS_WORKER_ERROR, WS_WORKER_ERROR_PROTOCOL,
                   "%s printed lines that are not the GPU worker's answer: does a shell startup file there print "
                   "something?", place);
      ws_worker_transport_kill (c->transport);
      stop (c);
      return FALSE;
    }
  set_ended (c, error);
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
