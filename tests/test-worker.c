/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The GPU worker's protocol from both ends, against everything a broken or
 * hostile peer can send: the worker answers every line it can read and
 * refuses the rest; the client never waits without a deadline, reads no
 * line without a length, takes no answer it has not checked, and kills a
 * worker that hangs. Needs no GPU: the workers here are scripts. */
#include "ws-config.h"
#include "ws-backend.h"
#include "ws-worker-server.h"
#include "ws-worker-target.h"
#include "ws-worker-client-private.h"

#include <glib/gstdio.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Answers, as the client reads them                                  */
/* ------------------------------------------------------------------ */

static WsWorkerAnswer
parse (const char *line,
       gsize       length,
       GError    **error)
{
  g_autoptr (JsonNode) reply = NULL;
  guint done = 0, total = 0;
  WsWorkerAnswer answer = ws_worker_answer_parse (line, length, 1, &done, &total, &reply, error);

  if (answer == WS_WORKER_ANSWER_REPLY)
    g_assert_nonnull (reply);
  return answer;
}

static void
test_answers (void)
{
  static const struct { const char *line; WsWorkerAnswer answer; const char *message; } cases[] = {
    { "{\"id\": 1, \"reply\": {\"x\": 1}}", WS_WORKER_ANSWER_REPLY, NULL },
    { "{\"id\": 1, \"progress\": [3, 10]}", WS_WORKER_ANSWER_PROGRESS, NULL },
    /* another request's, or not one at all */
    { "{\"id\": 2, \"reply\": {}}", WS_WORKER_ANSWER_OTHER, NULL },
    { "{\"id\": \"1\", \"reply\": {}}", WS_WORKER_ANSWER_OTHER, NULL },
    { "{\"id\": 1.0, \"reply\": {}}", WS_WORKER_ANSWER_OTHER, NULL },
    { "[1, 2]", WS_WORKER_ANSWER_OTHER, NULL },
    { "{\"id\": 1, \"progress\": \"half\"}", WS_WORKER_ANSWER_OTHER, NULL },
    { "{\"id\": 1, \"progress\": [1]}", WS_WORKER_ANSWER_OTHER, NULL },
    { "{\"id\": 1, \"progress\": [\"a\", 2]}", WS_WORKER_ANSWER_OTHER, NULL },
    /* out of range: more done than in all, negative, beyond any count */
    { "{\"id\": 1, \"progress\": [11, 10]}", WS_WORKER_ANSWER_OTHER, NULL },
    { "{\"id\": 1, \"progress\": [-1, 10]}", WS_WORKER_ANSWER_OTHER, NULL },
    { "{\"id\": 1, \"progress\": [8888888888888888883, 10]}", WS_WORKER_ANSWER_OTHER, NULL },
    { "{\"id\": 1}", WS_WORKER_ANSWER_OTHER, NULL },
    { "not json", WS_WORKER_ANSWER_OTHER, NULL },
    /* errors, whatever their members hold */
    { "{\"id\": 1, \"error\": {\"domain\": \"ws-gpu-error-quark\", \"code\": 2, \"message\": \"no driver\"}}",
      WS_WORKER_ANSWER_ERROR, "no driver" },
    { "{\"id\": 1, \"error\": {\"domain\": 5, \"code\": 2, \"message\": [1]}}", WS_WORKER_ANSWER_ERROR,
      "the GPU worker failed: it did not say why" },
    { "{\"id\": 1, \"error\": {\"domain\": null, \"message\": {\"a\": 1}}, \"fatal\": true}",
      WS_WORKER_ANSWER_FATAL, "did not say why" },
    { "{\"id\": 1, \"error\": \"oops\"}", WS_WORKER_ANSWER_ERROR, "did not say why" },
    { "{\"id\": 1, \"error\": {\"domain\": \"made-up-domain-4711\", \"code\": 1, \"message\": \"m\"}}",
      WS_WORKER_ANSWER_ERROR, "the GPU worker failed: m" },
    { "{\"id\": 1, \"error\": {\"domain\": \"g-io-error-quark\", \"code\": 99999999999, \"message\": \"m\"}}",
      WS_WORKER_ANSWER_ERROR, "the GPU worker failed: m" },
    { "{\"id\": 1, \"error\": {\"domain\": \"g-io-error-quark\", \"code\": 1, \"message\": \"m\"}, \"fatal\": 1}",
      WS_WORKER_ANSWER_ERROR, "m" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GError) error = NULL;
      WsWorkerAnswer answer = parse (cases[i].line, strlen (cases[i].line), &error);

      g_test_message ("%s", cases[i].line);
      g_assert_cmpint (answer, ==, cases[i].answer);
      if (cases[i].message)
        {
          g_assert_nonnull (error);
          g_assert_nonnull (strstr (error->message, cases[i].message));
        }
      else
        g_assert_no_error (error);
    }
  /* a quark is made for no domain a worker invents */
  g_assert_cmpuint (g_quark_try_string ("made-up-domain-4711"), ==, 0);
}

/* Bytes that are not text, a NUL, nesting json-glib could not take: ignored. */
static void
test_answers_not_text (void)
{
  g_autoptr (GString) deep = g_string_new ("{\"id\": 1, \"reply\": ");
  static const char nul[] = "{\"id\": 1, \"reply\": {\"a\": \"x\0y\"}}";
  static const char bad[] = "{\"id\": 1, \"error\": {\"message\": \"\xff\xfe\"}}";
  static const char surrogate[] = "{\"id\": 1, \"error\": {\"domain\": \"g-io-error-quark\", \"code\": 1, "
                                  "\"message\": \"\\ud800x\"}}";
  g_autoptr (GError) error = NULL;

  for (guint i = 0; i < 100000; i++)
    g_string_append_c (deep, '[');
  g_assert_cmpint (parse (deep->str, deep->len, NULL), ==, WS_WORKER_ANSWER_OTHER);
  g_assert_cmpint (parse (nul, sizeof nul - 1, NULL), ==, WS_WORKER_ANSWER_OTHER);
  g_assert_cmpint (parse (bad, sizeof bad - 1, NULL), ==, WS_WORKER_ANSWER_OTHER);
  /* a lone surrogate decodes to bytes that are not UTF-8: not a message */
  g_assert_cmpint (parse (surrogate, sizeof surrogate - 1, &error), ==, WS_WORKER_ANSWER_ERROR);
  g_assert_true (g_utf8_validate (error->message, -1, NULL));
}

/* ------------------------------------------------------------------ */
/* Requests, as the worker reads them                                 */
/* ------------------------------------------------------------------ */

/* Runs the worker over input; returns its answers, one object each. */
static GPtrArray *
run_worker (const char *input,
            gsize       length)
{
  g_autoptr (GInputStream) in = g_memory_input_stream_new_from_data (g_memdup2 (input, length), length, g_free);
  g_autoptr (GOutputStream) out = g_memory_output_stream_new_resizable ();
  GPtrArray *answers = g_ptr_array_new_with_free_func ((GDestroyNotify) json_node_unref);
  g_auto (GStrv) lines = NULL;
  g_autofree char *text = NULL;

  g_assert_cmpint (ws_gpu_worker_run (in, out), ==, 0);
  g_assert_true (g_output_stream_close (out, NULL, NULL));
  text = g_strndup (g_memory_output_stream_get_data (G_MEMORY_OUTPUT_STREAM (out)),
                    g_memory_output_stream_get_data_size (G_MEMORY_OUTPUT_STREAM (out)));
  g_assert_true (g_utf8_validate (text, -1, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      g_autoptr (GError) error = NULL;
      JsonNode *node;

      if (*lines[i] == '\0')
        continue;
      node = json_from_string (lines[i], &error);
      g_assert_no_error (error);
      g_assert_true (JSON_NODE_HOLDS_OBJECT (node));
      g_ptr_array_add (answers, node);
    }
  return answers;
}

static const char *
answer_message (GPtrArray *answers,
                guint      i,
                gint64    *id)
{
  JsonObject *o = json_node_get_object (g_ptr_array_index (answers, i));
  JsonObject *e = json_object_get_object_member (o, "error");

  *id = json_object_get_int_member (o, "id");
  g_assert_nonnull (e);
  return json_object_get_string_member (e, "message");
}

static void
test_requests (void)
{
  static const struct { const char *line; gint64 id; const char *message; } cases[] = {
    { "{\"id\": 3, \"op\": 5}", 3, "“op” must be a string" },
    { "{\"id\": 4, \"op\": null}", 4, "“op” must be a string" },
    { "{\"id\": 5}", 5, "“op” must be a string" },
    { "{\"id\": \"x\", \"op\": \"nothing\"}", 0, "no request “nothing”" },
    /* an op that decodes to bytes that are not UTF-8 is quoted as text */
    { "{\"id\": 6, \"op\": \"\\ud800x\\u001b[2J\"}", 6, "\\x1b[2J”" },
    { "{\"id\": 7, \"op\": \"measure\", \"options\": 3}", 7, "options: expected an object" },
    { "{\"id\": 8, \"op\": \"measure\", \"options\": {\"samples\": \"many\"}}", 8, "options.samples" },
    { "{\"id\": 9, \"op\": \"measure\", \"options\": {\"warmup\": 4000000000}}", 9, "options.warmup" },
    { "{\"id\": 10, \"op\": \"measure\", \"kernel\": \"coalescing/sequential\", \"params\": {\"N\": \"x\"}}", 10,
      "params.N: expected an integer" },
    { "{\"id\": 11, \"op\": \"count\", \"pattern\": 1}", 11, NULL },
    { "{\"id\": 12, \"op\": \"count\"}", 12, "needs a pattern" },
    { "\xff\xfe{\"id\": 13}", 0, "not UTF-8" },
    { "[1, 2, 3]", 0, "not a JSON object" },
    { "{\"id\": 14, \"op\": \"measure\", \"options\": {\"cold\": \"yes\"}}", 14, "cold: expected true or false" },
    /* kernels of one's own: the text is read again here, as anything from outside */
    { "{\"id\": 15, \"op\": \"measure\", \"kernel_text\": {\"name\": \"k.cu\"}}", 15,
      "kernel_text.text: expected a string" },
    { "{\"id\": 16, \"op\": \"measure\", \"kernel_text\": {\"text\": \"x\", \"launch\": [[1, 2]]}}", 16,
      "kernel_text.launch[0]: expected a [name, value] pair of strings" },
    { "{\"id\": 17, \"op\": \"measure\", \"kernel_text\": {\"text\": \"__global__ void k(float *a) "
      "{ a[threadIdx.x] = foo(); }\"}}", 17, "line 1, column" },
    { "{\"id\": 18, \"op\": \"measure\", \"kernel_text\": {\"text\": \"__global__ void k(float *a) "
      "{ a[threadIdx.x] = 1; }\", \"launch\": [[\"grid\", \"0\"]]}}", 18, "grid" },
    { "{\"id\": 19, \"op\": \"measure\", \"kernel\": 3}", 19, "measure.kernel: expected a string" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *input = g_strdup_printf ("%s\n", cases[i].line);
      g_autoptr (GPtrArray) answers = run_worker (input, strlen (input));
      g_autofree char *shown = g_strescape (cases[i].line, NULL);
      const char *message;
      gint64 id;

      g_test_message ("%s", shown);
      g_assert_cmpuint (answers->len, ==, 1);
      message = answer_message (answers, 0, &id);
      g_assert_cmpint (id, ==, cases[i].id);
      g_assert_true (g_utf8_validate (message, -1, NULL));
      if (cases[i].message && !strstr (message, cases[i].message))
        g_error ("expected “%s” in “%s”", cases[i].message, message);
    }
}


/* A kernel of one's own crosses to the worker and is read back the same:
 * its text, its name, the kernel chosen and the launch's overrides, in
 * order. */
static void
test_kernel_text_request (void)
{
  g_autoptr (WsMeasureRequest) r = ws_measure_request_new ();
  g_autoptr (WsMeasureRequest) back = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (JsonNode) node = json_node_alloc ();
  g_autoptr (JsonNode) parsed = NULL;
  g_autofree char *text = NULL;

  r->kernel_text = ws_kernel_spec_new ("__global__ void k(float *a, int n)\n{ a[threadIdx.x] = n; }\n", "k.cu");
  ws_kernel_spec_set_kernel (r->kernel_text, "k");
  ws_kernel_spec_set (r->kernel_text, "grid", "4");
  ws_kernel_spec_set (r->kernel_text, "n", "7");
  ws_kernel_spec_set (r->kernel_text, "a[1024]", "random(3)");
  r->options.samples = 12;
  r->options.counters = TRUE;
  json_node_init_object (node, ws_worker_codec_measure (r));
  text = json_to_string (node, FALSE);
  parsed = json_from_string (text, &error);
  g_assert_no_error (error);
  back = ws_worker_codec_read_measure (json_node_get_object (parsed), &error);
  g_assert_no_error (error);
  g_assert_null (back->kernel_id);
  g_assert_null (back->pattern);
  g_assert_true (ws_kernel_spec_equal (back->kernel_text, r->kernel_text));
  g_assert_cmpstr (back->kernel_text->display_name, ==, "k.cu");
  g_assert_cmpuint (back->options.samples, ==, 12);
  g_assert_true (back->options.counters);
  {
    g_autofree char *a = ws_kernel_spec_hash (r->kernel_text), *b = ws_kernel_spec_hash (back->kernel_text);
    g_assert_cmpstr (a, ==, b);
  }
  /* another override is another kernel launch */
  ws_kernel_spec_set (back->kernel_text, "n", "8");
  g_assert_false (ws_kernel_spec_equal (back->kernel_text, r->kernel_text));
}


/* A launch that runs past its deadline ends its worker, with a fatal error
 * that says so, soon after the deadline (not when the launch would end):
 * the real worker on the GPU. Skips, saying why, without one. */
static void
test_deadline (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *program = ws_worker_client_find_program (&error);
  g_autoptr (GSubprocess) proc = NULL;
  g_autofree char *out = NULL;
  g_autoptr (JsonNode) probe = NULL, spin = NULL;
  g_auto (GStrv) lines = NULL;
  JsonObject *e;
  gint64 t0;
  const char *input = "{\"id\": 1, \"op\": \"probe\"}\n"
                      "{\"id\": 2, \"op\": \"spin\", \"ms\": 20000, \"deadline_ms\": 500}\n";

  g_assert_no_error (error);
  proc = g_subprocess_new (G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                           G_SUBPROCESS_FLAGS_STDERR_SILENCE, &error, program, NULL);
  g_assert_no_error (error);
  t0 = g_get_monotonic_time ();
  g_assert_true (g_subprocess_communicate_utf8 (proc, input, NULL, &out, NULL, &error));
  g_assert_no_error (error);
  lines = g_strsplit (out, "\n", -1);
  probe = json_from_string (lines[0], &error);
  g_assert_no_error (error);
  if (json_object_has_member (json_node_get_object (probe), "error"))
    {
      g_autofree char *reason = g_strdup_printf ("no usable GPU: %s",
        json_object_get_string_member (json_object_get_object_member (json_node_get_object (probe), "error"),
                                       "message"));
      g_test_skip (reason);
      return;
    }
  g_assert_nonnull (lines[1]);
  spin = json_from_string (lines[1], &error);
  g_assert_no_error (error);
  e = json_object_get_object_member (json_node_get_object (spin), "error");
  g_assert_nonnull (e);
  g_test_message ("%s", json_object_get_string_member (e, "message"));
  g_assert_cmpint (json_object_get_int_member (e, "code"), ==, WS_GPU_ERROR_KERNEL_TIMEOUT);
  g_assert_true (json_object_get_boolean_member (json_node_get_object (spin), "fatal"));
  g_assert_nonnull (strstr (json_object_get_string_member (e, "message"), "deadline of 0.5 s"));
  /* stopped at the deadline, not after the launch's twenty seconds */
  g_assert_cmpint (g_get_monotonic_time () - t0, <, 10 * G_USEC_PER_SEC);
  g_assert_true (g_subprocess_get_if_exited (proc));
}

/* A line too long, too deep or not text is refused, and the worker goes on
 * to the next. */
static void
test_requests_go_on (void)
{
  g_autoptr (GString) input = g_string_new (NULL);
  g_autoptr (GPtrArray) answers = NULL;
  gint64 id;

  g_string_append (input, "{\"id\": 1, \"op\": \"");
  for (guint i = 0; i < WS_WORKER_MAX_LINE / 8 + 1; i++)
    g_string_append (input, "abcdefgh");
  g_string_append (input, "\"}\n");
  for (guint i = 0; i < 100000; i++)
    g_string_append_c (input, '[');
  g_string_append (input, "\n\x80\n{\"id\": 2, \"op\": \"nothing\"}\n");
  answers = run_worker (input->str, input->len);
  g_assert_cmpuint (answers->len, ==, 4);
  g_assert_nonnull (strstr (answer_message (answers, 0, &id), "longer than 64 MiB"));
  g_assert_nonnull (strstr (answer_message (answers, 1, &id), "nested too deeply"));
  g_assert_nonnull (strstr (answer_message (answers, 2, &id), "not UTF-8"));
  g_assert_nonnull (strstr (answer_message (answers, 3, &id), "no request “nothing”"));
  g_assert_cmpint (id, ==, 2);
}

/* ------------------------------------------------------------------ */
/* The client against workers that misbehave                          */
/* ------------------------------------------------------------------ */

typedef struct
{
  char *dir;
  char *starts;          /* each fake worker adds a line here when it starts */
} Fake;

static void
fake_set_up (Fake          *f,
             gconstpointer  data)
{
  g_autoptr (GError) error = NULL;

  f->dir = g_dir_make_tmp ("ws-worker-XXXXXX", &error);
  g_assert_no_error (error);
  f->starts = g_build_filename (f->dir, "starts", NULL);
}

static void
fake_tear_down (Fake          *f,
                gconstpointer  data)
{
  g_autoptr (GDir) d = g_dir_open (f->dir, 0, NULL);
  const char *name;

  while ((name = g_dir_read_name (d)))
    {
      g_autofree char *path = g_build_filename (f->dir, name, NULL);
      g_unlink (path);
    }
  g_rmdir (f->dir);
  g_free (f->dir);
  g_free (f->starts);
  g_unsetenv ("WS_GPU_WORKER");
}

/* A worker that runs body (sh) after noting that it started and answering
 * the handshake (a new client's first request: the ones body reads count
 * from 2). */
static void
use_fake (Fake       *f,
          const char *body)
{
  g_autofree char *path = g_build_filename (f->dir, "worker.sh", NULL);
  g_autofree char *script = g_strdup_printf ("#!/bin/sh\necho started >> '%s'\n"
                                             "read hello\n"
                                             "id=$(echo \"$hello\" | sed 's/.*\"id\" *: *\\([0-9]*\\).*/\\1/')\n"
                                             "echo '{\"id\": '$id', \"reply\": {\"program\": \"warpscope-gpu-worker\", "
                                             "\"version\": \"%s\", \"protocol\": %d, \"host\": \"fake\", "
                                             "\"gpus\": [], \"gpu\": 0}}'\n%s\n",
                                             f->starts, WS_VERSION, WS_WORKER_PROTOCOL, body);

  g_assert_true (g_file_set_contents (path, script, -1, NULL));
  g_assert_cmpint (g_chmod (path, 0755), ==, 0);
  g_setenv ("WS_GPU_WORKER", path, TRUE);
}

static guint
starts (Fake *f)
{
  g_autofree char *text = NULL;
  guint n = 0;

  if (!g_file_get_contents (f->starts, &text, NULL, NULL))
    return 0;
  for (const char *p = text; *p; p++)
    n += *p == '\n';
  return n;
}

/* One probe through client: its error. That it returns at all is what is
 * tested: every wait has a deadline (how long it took is only logged). */
static GError *
call (WsWorkerClient *client,
      GCancellable   *cancellable)
{
  JsonObject *request = json_object_new ();
  g_autoptr (JsonNode) reply = NULL;
  GError *error = NULL;
  gint64 t0 = g_get_monotonic_time ();

  json_object_set_string_member (request, "op", "probe");
  reply = ws_worker_client_call (client, request, cancellable, NULL, NULL, &error);
  json_object_unref (request);
  g_test_message ("%.2f s: %s", (g_get_monotonic_time () - t0) / 1e6, error ? error->message : "a reply");
  return error;
}

/* The worker's answers stop the call with the error, the client waiting
 * `timeout` seconds at most for a line. */
static void
assert_stopped_within (Fake       *f,
                       const char *body,
                       guint       timeout,
                       GQuark      domain,
                       int         code,
                       const char *fragment)
{
  g_autoptr (WsWorkerClient) client = ws_worker_client_new ();
  g_autoptr (GError) error = NULL;

  use_fake (f, body);
  ws_worker_client_set_timeout (client, timeout);
  error = call (client, NULL);
  g_assert_error (error, domain, code);
  g_assert_nonnull (strstr (error->message, fragment));
  g_assert_true (g_utf8_validate (error->message, -1, NULL));
}

static void
assert_stopped (Fake       *f,
                const char *body,
                GQuark      domain,
                int         code,
                const char *fragment)
{
  assert_stopped_within (f, body, 2, domain, code, fragment);
}

static void
test_silent (Fake          *f,
             gconstpointer  data)
{
  assert_stopped (f, "exec sleep 1000", WS_GPU_ERROR, WS_GPU_ERROR_WORKER, "said nothing for 2 s");
}

/* An answer to another request, a line that is not UTF-8, one that is not
 * JSON (NaN), one of no known shape: each is a protocol error said at once,
 * with what was received cut short, not a silence of the timeout. */
static void
test_wrong_answers (Fake          *f,
                    gconstpointer  data)
{
  static const struct { const char *body; const char *fragment; } cases[] = {
    { "read l\nwhile true; do echo '{\"id\": 999, \"reply\": {}}'; sleep 0.2; done",
      "answered “{\"id\": 999, \"reply\": {}}”, which is not an answer of Warpscope's protocol" },
    { "read l\nwhile true; do printf '\\377\\376\\n'; sleep 0.2; done", "a line that is not text" },
    { "read l\necho '{\"id\": 2, \"reply\": NaN}'\nexec sleep 1000", "answered “{\"id\": 2, \"reply\": NaN}”" },
    { "read l\necho '{\"id\": 2, \"progress\": [3, 1]}'\nexec sleep 1000", "[3, 1]" },
    { "read l\necho 'Segmentation fault (core dumped) while reading a very long line of text that goes on and on "
      "and on and on and on'\nexec sleep 1000", "answered “Segmentation fault (core dumped) while reading a very "
      "long line of text that goe…”" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      gint64 start = g_get_monotonic_time ();

      /* a timeout far longer than the answer takes */
      assert_stopped_within (f, cases[i].body, 60, WS_WORKER_ERROR, WS_WORKER_ERROR_PROTOCOL, cases[i].fragment);
      g_assert_cmpint (g_get_monotonic_time () - start, <, 10 * G_USEC_PER_SEC);
    }
}

/* It closes its answers but stays: it is killed, not waited for forever. */
static void
test_closes_stdout (Fake          *f,
                    gconstpointer  data)
{
  assert_stopped (f, "exec 1>&-\nexec sleep 1000", WS_GPU_ERROR, WS_GPU_ERROR_WORKER, "closed its answers");
}

/* A line of 300 MB with no newline: read up to the limit, not into memory.
 * The cap stops it, not the wait: a busy machine (or a sanitized build)
 * may take more than the usual 2 s to send 64 MiB through tr. */
static void
test_endless_line (Fake          *f,
                   gconstpointer  data)
{
  assert_stopped_within (f, "head -c 300000000 /dev/zero | tr '\\0' a\nexec sleep 1000", 60, WS_GPU_ERROR,
                         WS_GPU_ERROR_WORKER, "longer than 64 MiB");
}

/* An error whose members are not strings completes the call with an
 * error, fatal or not. */
static void
test_odd_error (Fake          *f,
                gconstpointer  data)
{
  assert_stopped (f, "read l\necho '{\"id\": 2, \"error\": {\"domain\": 5, \"code\": \"x\", \"message\": [1]}}'\n"
                  "exec sleep 1000", WS_GPU_ERROR, WS_GPU_ERROR_CUDA, "did not say why");
  assert_stopped (f, "read l\necho '{\"id\": 2, \"error\": {\"message\": null}, \"fatal\": true}'\nexec cat",
                  WS_GPU_ERROR, WS_GPU_ERROR_CUDA, "has ended");
}

/* A worker that ignores a cancellation is killed after a grace period. */
typedef struct
{
  GCancellable *cancellable;
  const char *marker;          /* the fake writes it once it has the request */
} Canceller;

static gpointer
cancel_thread (gpointer data)
{
  Canceller *c = data;

  /* cancel the request, not the handshake */
  while (!g_file_test (c->marker, G_FILE_TEST_EXISTS))
    g_usleep (10000);
  g_cancellable_cancel (c->cancellable);
  return NULL;
}

static void
test_cancel_ignored (Fake          *f,
                     gconstpointer  data)
{
  g_autoptr (WsWorkerClient) client = ws_worker_client_new ();
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autoptr (GError) error = NULL;
  g_autofree char *marker = g_build_filename (f->dir, "requested", NULL);
  g_autofree char *body = g_strdup_printf ("read l\n: > '%s'\nexec sleep 1000", marker);
  Canceller c = { cancellable, marker };
  GThread *canceller;

  use_fake (f, body);
  ws_worker_client_set_timeout (client, 2);
  canceller = g_thread_new ("cancel", cancel_thread, &c);
  error = call (client, cancellable);
  g_thread_join (canceller);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_nonnull (strstr (error->message, "did not stop when asked"));
}

/* A worker elsewhere that goes silent is a connection lost: the session
 * connects again for the next measurement. */
static void
test_silent_elsewhere (Fake          *f,
                       gconstpointer  data)
{
  g_autofree char *path = NULL;
  g_autoptr (WsGpuTarget) target = NULL;
  g_autoptr (WsWorkerClient) client = NULL;
  g_autoptr (GError) error = NULL;

  use_fake (f, "exec sleep 1000");
  path = g_build_filename (f->dir, "worker.sh", NULL);
  target = ws_gpu_target_new_command (path, &error);
  g_assert_no_error (error);
  client = ws_worker_client_new_for_target (target);
  ws_worker_client_set_timeout (client, 1);
  error = call (client, NULL);
  g_assert_error (error, WS_WORKER_ERROR, WS_WORKER_ERROR_CONNECTION_LOST);
  g_assert_nonnull (strstr (error->message, "said nothing for 1 s"));
  g_assert_nonnull (strstr (error->message, "the next one connects again"));
}

/* After a worker is killed, the next call starts another. */
static void
test_restarted (Fake          *f,
                gconstpointer  data)
{
  g_autoptr (WsWorkerClient) client = ws_worker_client_new ();

  use_fake (f, "exec sleep 1000");
  ws_worker_client_set_timeout (client, 1);
  for (guint i = 0; i < 2; i++)
    {
      g_autoptr (GError) error = call (client, NULL);
      g_assert_error (error, WS_GPU_ERROR, WS_GPU_ERROR_WORKER);
    }
  g_assert_cmpuint (starts (f), ==, 2);
}

/* The user is told: through the backend, a probe of a worker that hangs
 * fails with the reason, and the next probe tries a new worker. */
static void
probe_done (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  GError **error = user_data;
  g_autoptr (WsDeviceInfo) info = ws_backend_probe_finish (WS_BACKEND (source), result, error);

  g_assert_null (info);
}

static void
test_backend_tells (Fake          *f,
                    gconstpointer  data)
{
  g_autoptr (WsBackend) backend = NULL;

  if (!ws_gpu_is_built ())
    {
      g_test_skip ("this build has no CUDA backend: the backend asks no worker");
      return;
    }
  use_fake (f, "exec sleep 1000");
  g_setenv ("WS_WORKER_TIMEOUT", "1", TRUE);
  backend = ws_backend_new ();
  for (guint i = 0; i < 2; i++)
    {
      g_autoptr (GError) error = NULL;

      ws_backend_probe_async (backend, NULL, probe_done, &error);
      while (error == NULL)
        g_main_context_iteration (NULL, TRUE);
      g_assert_error (error, WS_GPU_ERROR, WS_GPU_ERROR_WORKER);
      g_assert_nonnull (strstr (error->message, "it was stopped"));
    }
  g_clear_object (&backend);
  g_unsetenv ("WS_WORKER_TIMEOUT");
  g_assert_cmpuint (starts (f), ==, 2);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/worker/answers", test_answers);
  g_test_add_func ("/worker/answers-not-text", test_answers_not_text);
  g_test_add_func ("/worker/requests", test_requests);
  g_test_add_func ("/worker/requests-go-on", test_requests_go_on);
  g_test_add_func ("/worker/kernel-text-request", test_kernel_text_request);
  g_test_add_func ("/worker/deadline", test_deadline);
#define ADD(path, func) g_test_add (path, Fake, NULL, fake_set_up, func, fake_tear_down)
  ADD ("/worker/client/silent", test_silent);
  ADD ("/worker/client/silent-elsewhere", test_silent_elsewhere);
  ADD ("/worker/client/wrong-answers", test_wrong_answers);
  ADD ("/worker/client/closes-stdout", test_closes_stdout);
  ADD ("/worker/client/endless-line", test_endless_line);
  ADD ("/worker/client/odd-error", test_odd_error);
  ADD ("/worker/client/cancel-ignored", test_cancel_ignored);
  ADD ("/worker/client/restarted", test_restarted);
  ADD ("/worker/client/backend-tells", test_backend_tells);
#undef ADD
  return g_test_run ();
}
