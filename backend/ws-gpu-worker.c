/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "ws-gpu-worker.h"
#include "ws-gpu.h"
#include "ws-model-json.h"
#include "ws-recording.h"
#include "ws-worker-hello.h"
#include "ws-worker-replay.h"

#include <json-glib/json-glib.h>
#include <unistd.h>

typedef struct
{
  GOutputStream *out;
  GMutex out_lock;
  GAsyncQueue *requests;       /* JsonObject*; the worker itself when the input ends */
  GMutex cancel_lock;
  gint64 current_id;
  GCancellable *current;
  const WsGpuWorkerOptions *options;
} Worker;

static void
send (Worker   *w,
      JsonNode *message)
{
  g_autoptr (JsonGenerator) gen = json_generator_new ();
  g_autofree char *text = NULL;
  g_autofree char *line = NULL;
  gsize length;

  json_generator_set_root (gen, message);
  text = json_generator_to_data (gen, &length);
  /* one write: through ssh, a second small one would wait for the first's
   * acknowledgement */
  line = g_strconcat (text, "\n", NULL);
  g_mutex_lock (&w->out_lock);
  /* nothing useful is left to do if the program reading us went away */
  g_output_stream_write_all (w->out, line, length + 1, NULL, NULL, NULL);
  g_output_stream_flush (w->out, NULL, NULL);
  g_mutex_unlock (&w->out_lock);
}

static JsonObject *
answer_new (gint64 id)
{
  JsonObject *o = json_object_new ();

  json_object_set_int_member (o, "id", id);
  return o;
}

static void
send_object (Worker     *w,
             JsonObject *o)
{
  g_autoptr (JsonNode) node = json_node_init_object (json_node_alloc (), o);

  json_object_unref (o);
  send (w, node);
}

static void
send_error (Worker       *w,
            gint64        id,
            const GError *error,
            gboolean      fatal)
{
  JsonObject *o = answer_new (id);
  JsonObject *e = json_object_new ();

  json_object_set_string_member (e, "domain", g_quark_to_string (error->domain));
  json_object_set_int_member (e, "code", error->code);
  json_object_set_string_member (e, "message", error->message);
  json_object_set_object_member (o, "error", e);
  json_object_set_boolean_member (o, "fatal", fatal);
  send_object (w, o);
}

/* Progress of a measurement, at most this often. */
#define PROGRESS_US (250 * 1000)

typedef struct
{
  Worker *w;
  gint64 id;
  gint64 last_us;              /* the last progress sent, or the measurement's start */
} Progress;

static void
on_progress (guint    done,
             guint    total,
             gpointer user_data)
{
  Progress *p = user_data;
  gint64 now = g_get_monotonic_time ();
  JsonObject *o;
  JsonArray *a;

  /* a few a second, and none just before the reply: each is a small write,
   * and through ssh (which leaves Nagle's algorithm on where there is no
   * terminal) a small write that follows another waits for its delayed
   * acknowledgement, up to 40 ms */
  if (done >= total || now - p->last_us < PROGRESS_US)
    return;
  p->last_us = now;
  o = answer_new (p->id);
  a = json_array_new ();

  json_array_add_int_element (a, done);
  json_array_add_int_element (a, total);
  json_object_set_array_member (o, "progress", a);
  send_object (p->w, o);
}

static void
read_options (JsonObject       *request,
              WsMeasureOptions *options)
{
  JsonObject *o = json_object_has_member (request, "options") ? json_object_get_object_member (request, "options") : NULL;

  *options = WS_MEASURE_OPTIONS_DEFAULT;
  if (o == NULL)
    return;
  options->samples = (guint) json_object_get_int_member_with_default (o, "samples", options->samples);
  options->warmup = (guint) json_object_get_int_member_with_default (o, "warmup", options->warmup);
  options->cold = json_object_get_boolean_member_with_default (o, "cold", options->cold);
  options->counters = json_object_get_boolean_member_with_default (o, "counters", options->counters);
}

static WsMeasurement *
measure (Worker       *w,
         gint64        id,
         JsonObject   *request,
         GCancellable *cancellable,
         GError      **error)
{
  WsMeasureOptions options;
  Progress progress = { w, id, g_get_monotonic_time () };

  read_options (request, &options);
  if (w->options->replay)
    return ws_worker_replay_measure (w->options->replay, request, w->options->replay_delay_ms, cancellable,
                                     on_progress, &progress, error);
  if (json_object_has_member (request, "pattern"))
    {
      g_autoptr (WsPattern) pattern = ws_pattern_from_json (json_object_get_member (request, "pattern"), error);

      if (pattern == NULL)
        return NULL;
      return ws_gpu_measure_pattern (pattern, &options, cancellable, on_progress, &progress, error);
    }
  else
    {
      const char *kernel = json_object_get_string_member_with_default (request, "kernel", "");
      JsonObject *params = json_object_has_member (request, "params") ? json_object_get_object_member (request, "params") : NULL;
      g_autoptr (GList) names = params ? json_object_get_members (params) : NULL;
      g_autoptr (GArray) values = g_array_new (FALSE, TRUE, sizeof (WsParamValue));

      for (GList *l = names; l; l = l->next)
        {
          WsParamValue v = { l->data, json_object_get_int_member (params, l->data) };
          g_array_append_val (values, v);
        }
      return ws_gpu_measure (kernel, (WsParamValue *) values->data, values->len, &options, cancellable,
                             on_progress, &progress, error);
    }
}

static WsMeasurement *
count (JsonObject   *request,
       GCancellable *cancellable,
       GError      **error)
{
  g_autoptr (WsPattern) pattern = NULL;

  if (!json_object_has_member (request, "pattern"))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, "a count request needs a pattern");
      return NULL;
    }
  pattern = ws_pattern_from_json (json_object_get_member (request, "pattern"), error);
  if (pattern == NULL)
    return NULL;
  return ws_gpu_count_pattern (pattern, NULL, json_object_get_boolean_member_with_default (request, "cold", TRUE),
                               json_object_get_boolean_member_with_default (request, "hold", FALSE), cancellable,
                               error);
}

/* FALSE when the GPU is unusable in this process from now on. */
static gboolean
handle (Worker     *w,
        JsonObject *request)
{
  gint64 id = json_object_get_int_member_with_default (request, "id", 0);
  const char *op = json_object_get_string_member_with_default (request, "op", "");
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autoptr (GError) error = NULL;
  JsonNode *reply = NULL;
  gboolean fatal;

  g_mutex_lock (&w->cancel_lock);
  w->current_id = id;
  w->current = cancellable;
  g_mutex_unlock (&w->cancel_lock);

  if (g_str_equal (op, "hello"))
    reply = ws_worker_hello_answer (request, w->options->replay ? ws_recording_get_device (w->options->replay) : NULL,
                                    w->options->replay_name, &error);
  else if (g_str_equal (op, "ping"))
    reply = json_node_init_object (json_node_alloc (), json_object_new ());
  else if (g_str_equal (op, "probe"))
    {
      g_autoptr (WsDeviceInfo) info = w->options->replay ? ws_device_info_copy (ws_recording_get_device (w->options->replay))
                                                         : ws_gpu_probe (&error);
      if (info)
        {
          /* where it is measured, for recordings */
          g_free (info->host);
          info->host = g_strdup (g_get_host_name ());
          info->gpu_index = w->options->replay ? 0 : ws_gpu_selected ();
          reply = ws_device_info_to_json (info);
        }
    }
  else if (g_str_equal (op, "measure"))
    {
      g_autoptr (WsMeasurement) m = measure (w, id, request, cancellable, &error);
      if (m)
        reply = ws_measurement_to_json (m);
    }
  else if (g_str_equal (op, "count"))
    {
      g_autoptr (WsMeasurement) m = count (request, cancellable, &error);
      if (m)
        reply = ws_measurement_to_json (m);
    }
  else if (g_str_equal (op, "fault"))
    ws_gpu_debug_fault (&error);
  else
    g_set_error (&error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, "the GPU worker has no request “%s”", op);

  g_mutex_lock (&w->cancel_lock);
  w->current_id = 0;
  w->current = NULL;
  g_mutex_unlock (&w->cancel_lock);

  if (reply)
    {
      JsonObject *o = answer_new (id);
      json_object_set_member (o, "reply", reply);
      send_object (w, o);
      return TRUE;
    }
  if (error == NULL)
    g_set_error (&error, G_IO_ERROR, G_IO_ERROR_FAILED, "the GPU worker failed without saying why");
  fatal = g_error_matches (error, WS_GPU_ERROR, WS_GPU_ERROR_KERNEL_FAULT);
  send_error (w, id, error, fatal);
  return !fatal;
}

/* Reads requests, and acts on cancellations at once. */
static gpointer
read_requests (gpointer data)
{
  Worker *w = data;
  GDataInputStream *in = g_object_get_data (G_OBJECT (w->out), "ws-worker-input");
  g_autoptr (JsonParser) parser = json_parser_new ();

  for (;;)
    {
      g_autofree char *line = g_data_input_stream_read_line_utf8 (in, NULL, NULL, NULL);
      JsonObject *request;

      if (line == NULL)
        break;
      if (!json_parser_load_from_data (parser, line, -1, NULL) ||
          !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
        {
          g_printerr ("warpscope-gpu-worker: ignoring a line that is not a JSON object\n");
          continue;
        }
      request = json_node_dup_object (json_parser_get_root (parser));
      if (g_str_equal (json_object_get_string_member_with_default (request, "op", ""), "cancel"))
        {
          g_mutex_lock (&w->cancel_lock);
          if (w->current && w->current_id == json_object_get_int_member_with_default (request, "id", -1))
            g_cancellable_cancel (w->current);
          g_mutex_unlock (&w->cancel_lock);
          json_object_unref (request);
          continue;
        }
      g_async_queue_push (w->requests, request);
    }
  g_async_queue_push (w->requests, w);
  return NULL;
}

int
ws_gpu_worker_run (GInputStream  *in,
                   GOutputStream *out)
{
  WsGpuWorkerOptions none = { NULL };

  return ws_gpu_worker_run_with (in, out, &none);
}

int
ws_gpu_worker_run_with (GInputStream             *in,
                        GOutputStream            *out,
                        const WsGpuWorkerOptions *options)
{
  Worker w = { .out = out, .options = options };
  g_autoptr (GDataInputStream) lines = g_data_input_stream_new (in);
  GThread *reader;
  gboolean usable = TRUE;

  g_mutex_init (&w.out_lock);
  g_mutex_init (&w.cancel_lock);
  w.requests = g_async_queue_new ();
  g_object_set_data (G_OBJECT (out), "ws-worker-input", lines);
  reader = g_thread_new ("ws-worker-input", read_requests, &w);

  while (usable)
    {
      gpointer item = g_async_queue_pop (w.requests);

      if (item == &w)
        break;
      usable = handle (&w, item);
      json_object_unref (item);
    }
  if (!usable)
    {
      /* CUDA refuses this process any further work, and its own exit
       * handlers could hang on the faulted context: leave at once (the
       * answer is already flushed) */
      _exit (0);
    }
  ws_gpu_shutdown ();
  g_thread_join (reader);
  g_async_queue_unref (w.requests);
  g_mutex_clear (&w.out_lock);
  g_mutex_clear (&w.cancel_lock);
  return 0;
}
