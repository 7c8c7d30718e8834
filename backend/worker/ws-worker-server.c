/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "ws-config.h"
#include "ws-worker-server.h"
#include "ws-device-calibrate.h"
#include "ws-gpu.h"
#include "ws-json.h"
#include "ws-model-json.h"
#include "ws-recording.h"
#include "ws-worker-client.h"
#include "ws-worker-codec.h"
#include "ws-worker-hello.h"
#include "ws-worker-replay.h"

#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>
#include <string.h>
#include <unistd.h>

typedef struct
{
  GOutputStream *out;
  GMutex out_lock;
  GAsyncQueue *requests;       /* JsonObject*; the worker itself when the input ends */
  GMutex cancel_lock;
  gint64 current_id;
  GCancellable *current;
  guint current_deadline_ms;   /* of the request under way: a kernel text's, or 0 */
  gboolean quitting;
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

static WsMeasurement *
measure (Worker       *w,
         gint64        id,
         JsonObject   *request,
         GCancellable *cancellable,
         GError      **error)
{
  g_autoptr (WsMeasureRequest) r = ws_worker_codec_read_measure (request, error);
  Progress progress = { w, id, g_get_monotonic_time () };

  if (r == NULL)
    return NULL;
  if (w->options->replay)
    return ws_worker_replay_measure (w->options->replay, r, w->options->replay_delay_ms, cancellable,
                                     on_progress, &progress, error);
  if (r->pattern)
    return ws_gpu_measure_pattern (r->pattern, &r->options, cancellable, on_progress, &progress, error);
  if (r->kernel_text)
    {
      /* read again here: the text came from another process */
      g_autoptr (WsKernelInstance) instance = ws_kernel_spec_instantiate (r->kernel_text, cancellable, error);

      WsMeasurement *m;

      if (instance == NULL)
        return NULL;
      g_mutex_lock (&w->cancel_lock);
      w->current_deadline_ms = r->options.deadline_ms ? r->options.deadline_ms : WS_KERNEL_DEADLINE_MS_DEFAULT;
      g_mutex_unlock (&w->cancel_lock);
      m = ws_gpu_measure_kernel (instance, &r->options, cancellable, on_progress, &progress, error);
      g_mutex_lock (&w->cancel_lock);
      w->current_deadline_ms = 0;
      g_mutex_unlock (&w->cancel_lock);
      return m;
    }
  return ws_gpu_measure (r->kernel_id, (WsParamValue *) r->params->data, r->params->len, &r->options, cancellable,
                         on_progress, &progress, error);
}

static WsMeasurement *
count (JsonObject   *request,
       GCancellable *cancellable,
       GError      **error)
{
  gboolean cold, hold;
  g_autoptr (WsPattern) pattern = ws_worker_codec_read_count (request, &cold, &hold, error);

  if (pattern == NULL)
    return NULL;
  return ws_gpu_count_pattern (pattern, NULL, cold, hold, cancellable, error);
}

/* The device profile's numbers that microkernels measure, and the
 * device's name (ws-device-calibrate.h). */
static JsonNode *
calibrate (Worker       *w,
           gint64        id,
           GCancellable *cancellable,
           GError      **error)
{
  Progress progress = { w, id, g_get_monotonic_time () };
  g_autoptr (WsDeviceInfo) info = NULL;
  g_autoptr (GArray) values = NULL;
  g_autoptr (WsCalibration) calibration = NULL;

  if (w->options->replay)
    {
      g_set_error (error, WS_GPU_ERROR, WS_GPU_ERROR_NO_DEVICE,
                   _("a worker that plays a recording back has no GPU to calibrate"));
      return NULL;
    }
  if ((info = ws_gpu_probe (error)) == NULL ||
      (values = ws_gpu_calibrate (cancellable, on_progress, &progress, error)) == NULL)
    return NULL;
  calibration = ws_calibration_new (info->name, values);
  return ws_calibration_to_json (calibration);
}

/* FALSE when the GPU is unusable in this process from now on. */
static gboolean
handle (Worker     *w,
        JsonObject *request)
{
  gint64 id = ws_worker_codec_read_id (request);
  const char *op = ws_worker_codec_read_op (request);
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autoptr (GError) error = NULL;
  JsonNode *reply = NULL;
  gboolean fatal;

  g_mutex_lock (&w->cancel_lock);
  w->current_id = id;
  w->current = cancellable;
  g_mutex_unlock (&w->cancel_lock);

  if (op == NULL)
    /* Translators: op is a member of the request */
    g_set_error (&error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, _("a request's “op” must be a string"));
  else if (g_str_equal (op, "hello"))
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
  else if (g_str_equal (op, "calibrate"))
    reply = calibrate (w, id, cancellable, &error);
  else if (g_str_equal (op, "fault"))
    ws_gpu_debug_fault (&error);
  else if (g_str_equal (op, "spin"))
    {
      JsonNode *ms = json_object_get_member (request, "ms");
      JsonNode *deadline = json_object_get_member (request, "deadline_ms");
      gint64 v = ms && JSON_NODE_HOLDS_VALUE (ms) && json_node_get_value_type (ms) == G_TYPE_INT64
                   ? json_node_get_int (ms) : -1;
      gint64 d = deadline && JSON_NODE_HOLDS_VALUE (deadline) && json_node_get_value_type (deadline) == G_TYPE_INT64
                   ? json_node_get_int (deadline) : WS_KERNEL_DEADLINE_MS_DEFAULT;

      if (v < 0 || v > 60000 || d <= 0 || d > 3600 * 1000)
        g_set_error (&error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                     /* Translators: ms and deadline_ms are members of the request */
                     _("a spin request needs ms (0 to 60000) and deadline_ms (1 to 3600000)"));
      else
        {
          g_mutex_lock (&w->cancel_lock);
          w->current_deadline_ms = (guint) d;
          g_mutex_unlock (&w->cancel_lock);
          if (ws_gpu_debug_spin ((guint) v, &error))
            reply = json_node_init_object (json_node_alloc (), json_object_new ());
          g_mutex_lock (&w->cancel_lock);
          w->current_deadline_ms = 0;
          g_mutex_unlock (&w->cancel_lock);
        }
    }
  else
    {
      /* quoted as text: the op may be anything a JSON string can decode to */
      g_autofree char *shown = ws_text_for_message (op);
      /* Translators: %s is the request's op, as it came */
      g_set_error (&error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, _("the GPU worker has no request “%s”"), shown);
    }

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
    g_set_error (&error, G_IO_ERROR, G_IO_ERROR_FAILED, _("the GPU worker failed without saying why"));
  fatal = g_error_matches (error, WS_GPU_ERROR, WS_GPU_ERROR_KERNEL_FAULT);
  send_error (w, id, error, fatal);
  return !fatal;
}

/* The next line of the input, without its newline, or NULL at its end.
 * A line longer than WS_WORKER_MAX_LINE is skipped whole (*too_long). */
static GBytes *
read_line (GInputStream *in,
           GByteArray   *pending,
           gboolean     *too_long)
{
  gboolean skipping = FALSE;

  *too_long = FALSE;
  for (;;)
    {
      guint8 *newline = pending->len > 0 ? memchr (pending->data, '\n', pending->len) : NULL;
      guint8 buffer[65536];
      gssize n;

      if (newline != NULL)
        {
          gsize length = newline - pending->data;
          GBytes *line = skipping || length > WS_WORKER_MAX_LINE ? NULL : g_bytes_new (pending->data, length);

          g_byte_array_remove_range (pending, 0, length + 1);
          if (line)
            return line;
          skipping = FALSE;
          *too_long = TRUE;
          return g_bytes_new (NULL, 0);
        }
      if (pending->len > WS_WORKER_MAX_LINE)
        {
          /* drop what there is and the rest of the line as it comes */
          skipping = TRUE;
          g_byte_array_set_size (pending, 0);
        }
      n = g_input_stream_read (in, buffer, sizeof buffer, NULL, NULL);
      if (n <= 0)
        return NULL;
      g_byte_array_append (pending, buffer, (guint) n);
    }
}

/* An error answer to a line that could not be read as a request (id 0:
 * which request it was is not known); message says why, a whole sentence. */
static void
refuse_line (Worker     *w,
             const char *message)
{
  g_autoptr (GError) error = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_INVALID_DATA, message);

  g_printerr ("warpscope-gpu-worker: %s\n", error->message);
  send_error (w, 0, error, FALSE);
}

/* A request from a line: text, JSON nested no deeper than json-glib can
 * read, an object. */
static JsonObject *
parse_request (Worker *w,
               GBytes *line)
{
  g_autoptr (JsonParser) parser = json_parser_new_immutable ();
  gsize length;
  const char *text = g_bytes_get_data (line, &length);

  if (length == 0)
    return NULL;
  if (!g_utf8_validate (text, (gssize) length, NULL))
    refuse_line (w, _("a request that is not UTF-8 text was ignored"));
  else if (!ws_json_check_depth (text, length, WS_JSON_MAX_DEPTH, NULL))
    refuse_line (w, _("a request nested too deeply was ignored"));
  else if (!json_parser_load_from_data (parser, text, (gssize) length, NULL) ||
           json_parser_get_root (parser) == NULL || !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    refuse_line (w, _("a request that is not a JSON object was ignored"));
  else
    return json_node_dup_object (json_parser_get_root (parser));
  return NULL;
}

/* Reads requests, and acts on cancellations at once. */
static gpointer
read_requests (gpointer data)
{
  Worker *w = data;
  GInputStream *in = g_object_get_data (G_OBJECT (w->out), "ws-worker-input");
  g_autoptr (GByteArray) pending = g_byte_array_new ();

  for (;;)
    {
      gboolean too_long;
      g_autoptr (GBytes) line = read_line (in, pending, &too_long);
      JsonObject *request;
      const char *op;

      if (line == NULL)
        break;
      if (too_long)
        {
          /* Translators: %d is the longest a request may be, in MiB */
          g_autofree char *why = g_strdup_printf (_("a request longer than %d MiB was ignored"),
                                                  WS_WORKER_MAX_LINE >> 20);
          refuse_line (w, why);
          continue;
        }
      request = parse_request (w, line);
      if (request == NULL)
        continue;
      op = ws_worker_codec_read_op (request);
      if (op && g_str_equal (op, "cancel"))
        {
          g_mutex_lock (&w->cancel_lock);
          if (w->current && w->current_id == ws_worker_codec_read_id (request))
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

/* A kernel of one's own whose launch runs past the request's deadline (a
 * loop far longer than meant, a spin on a flag no block sets) cannot be
 * stopped on the GPU from this process: the worker says so and ends, and
 * the driver takes the launch with the process; the next request starts
 * a new worker, and the GPU is usable again. */
static gpointer
watch_deadlines (gpointer data)
{
  Worker *w = data;

  for (;;)
    {
      gint64 since = ws_gpu_kernel_busy_since ();
      guint deadline;
      gint64 id;

      g_usleep (50 * 1000);
      g_mutex_lock (&w->cancel_lock);
      deadline = w->current_deadline_ms;
      id = w->current_id;
      if (w->quitting)
        {
          g_mutex_unlock (&w->cancel_lock);
          return NULL;
        }
      g_mutex_unlock (&w->cancel_lock);
      if (deadline == 0 || since == 0 || since != ws_gpu_kernel_busy_since () ||
          g_get_monotonic_time () - since < (gint64) deadline * 1000)
        continue;
      {
        g_autoptr (GError) error = NULL;

        g_set_error (&error, WS_GPU_ERROR, WS_GPU_ERROR_KERNEL_TIMEOUT,
                     /* Translators: %.1f is the deadline in seconds */
                     _("the kernel ran longer than its deadline of %.1f s and was stopped (its GPU worker ended; "
                       "the next measurement starts another): a loop may run far longer than meant, or spin on "
                       "a flag that no block sets. --deadline (or the preference) gives it longer"),
                     deadline / 1000.0);
        send_error (w, id, error, TRUE);
        _exit (0);
      }
    }
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
  GThread *reader, *watchdog;
  gboolean usable = TRUE;

  g_mutex_init (&w.out_lock);
  g_mutex_init (&w.cancel_lock);
  w.requests = g_async_queue_new ();
  g_object_set_data (G_OBJECT (out), "ws-worker-input", in);
  reader = g_thread_new ("ws-worker-input", read_requests, &w);
  watchdog = g_thread_new ("ws-worker-deadline", watch_deadlines, &w);

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
  g_mutex_lock (&w.cancel_lock);
  w.quitting = TRUE;
  g_mutex_unlock (&w.cancel_lock);
  g_thread_join (watchdog);
  ws_gpu_shutdown ();
  g_thread_join (reader);
  g_async_queue_unref (w.requests);
  g_mutex_clear (&w.out_lock);
  g_mutex_clear (&w.cancel_lock);
  return 0;
}
