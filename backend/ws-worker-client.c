/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "ws-config.h"
#include "ws-worker-client.h"
#include "ws-gpu-worker.h"

struct _WsWorkerClient
{
  GSubprocess *process;
  GDataInputStream *from;
  GOutputStream *to;
  GMutex write_lock;           /* a cancellation may be written from another thread */
  gint64 next_id;
};

WsWorkerClient *
ws_worker_client_new (void)
{
  WsWorkerClient *c = g_new0 (WsWorkerClient, 1);

  g_mutex_init (&c->write_lock);
  return c;
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
  g_clear_object (&c->process);
}

void
ws_worker_client_free (WsWorkerClient *c)
{
  if (c == NULL)
    return;
  stop (c);
  g_mutex_clear (&c->write_lock);
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

static gboolean
start (WsWorkerClient *c,
       GError        **error)
{
  g_autofree char *program = NULL;

  if (c->process)
    return TRUE;
  program = ws_worker_client_find_program (error);
  if (program == NULL)
    return FALSE;
  c->process = g_subprocess_new (G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE, error,
                                 program, NULL);
  if (c->process == NULL)
    {
      g_prefix_error (error, "starting the GPU worker %s: ", program);
      return FALSE;
    }
  c->to = g_object_ref (g_subprocess_get_stdin_pipe (c->process));
  c->from = g_data_input_stream_new (g_subprocess_get_stdout_pipe (c->process));
  return TRUE;
}

static gboolean
write_message (WsWorkerClient *c,
               JsonObject     *o,
               GError        **error)
{
  g_autoptr (JsonNode) node = json_node_init_object (json_node_alloc (), o);
  g_autoptr (JsonGenerator) gen = json_generator_new ();
  g_autofree char *text = NULL;
  gsize length;
  gboolean ok;

  json_generator_set_root (gen, node);
  text = json_generator_to_data (gen, &length);
  g_mutex_lock (&c->write_lock);
  ok = c->to != NULL &&
       g_output_stream_write_all (c->to, text, length, NULL, NULL, error) &&
       g_output_stream_write_all (c->to, "\n", 1, NULL, NULL, error) &&
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
  g_autofree char *how = NULL;

  g_subprocess_wait (c->process, NULL, NULL);
  if (!g_subprocess_get_if_exited (c->process) && !g_subprocess_get_if_signaled (c->process))
    g_subprocess_force_exit (c->process);
  if (g_subprocess_get_if_signaled (c->process))
    how = g_strdup_printf ("was killed by signal %d", g_subprocess_get_term_sig (c->process));
  else
    how = g_strdup_printf ("exited with status %d", g_subprocess_get_exit_status (c->process));
  g_set_error (error, WS_GPU_ERROR, WS_GPU_ERROR_KERNEL_FAULT,
               "the GPU worker process %s before it answered; the next measurement starts a new one", how);
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

  if (g_cancellable_set_error_if_cancelled (cancellable, error) || !start (c, error))
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
