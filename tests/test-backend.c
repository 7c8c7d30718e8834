/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The backend thread: jobs in order, results on the caller's main context,
 * progress merged, cancellation, and a clear reason when there is no GPU. */
#include "ws-backend-private.h"
#include "ws-presets.h"

#include <string.h>

typedef struct
{
  GMainLoop *loop;
  GThread *main_thread;
  guint pending;
  /* what came back */
  GPtrArray *order;          /* job names, in completion order */
  GError *error;
  WsMeasurement *measurement;
  GPtrArray *sweep;
  GArray *progress_done;     /* guint */
  GPtrArray *progress_points;
  gboolean progress_on_worker;
} Fixture;

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  f->loop = g_main_loop_new (NULL, FALSE);
  f->main_thread = g_thread_self ();
  f->order = g_ptr_array_new ();
  f->progress_done = g_array_new (FALSE, FALSE, sizeof (guint));
  f->progress_points = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_measurement_free);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  g_main_loop_unref (f->loop);
  g_ptr_array_unref (f->order);
  g_clear_error (&f->error);
  g_clear_pointer (&f->measurement, ws_measurement_free);
  g_clear_pointer (&f->sweep, g_ptr_array_unref);
  g_array_unref (f->progress_done);
  g_ptr_array_unref (f->progress_points);
}

static void
done_one (Fixture *f)
{
  /* results come back on the thread that asked */
  g_assert_true (g_thread_self () == f->main_thread);
  if (--f->pending == 0)
    g_main_loop_quit (f->loop);
}

static gboolean
have_gpu (WsBackend *backend,
          Fixture   *f);

static void
probe_done (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  Fixture *f = user_data;
  g_autoptr (WsDeviceInfo) info = NULL;

  g_clear_error (&f->error);
  info = ws_backend_probe_finish (WS_BACKEND (source), result, &f->error);

  g_ptr_array_add (f->order, "probe");
  if (info)
    g_assert_nonnull (info->name);
  done_one (f);
}

static void
measure_done (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  Fixture *f = user_data;

  g_clear_error (&f->error);
  f->measurement = ws_backend_measure_finish (WS_BACKEND (source), result, &f->error);
  g_ptr_array_add (f->order, "measure");
  done_one (f);
}

static void
sweep_done (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  Fixture *f = user_data;

  g_clear_error (&f->error);
  f->sweep = ws_backend_sweep_finish (WS_BACKEND (source), result, &f->error);
  g_ptr_array_add (f->order, "sweep");
  done_one (f);
}

static void
on_progress (WsBackend           *backend,
             guint                done,
             guint                total,
             const WsMeasurement *latest,
             gpointer             user_data)
{
  Fixture *f = user_data;

  if (g_thread_self () != f->main_thread)
    f->progress_on_worker = TRUE;
  g_assert_cmpuint (done, <=, total);
  g_array_append_val (f->progress_done, done);
  if (latest)
    g_ptr_array_add (f->progress_points, ws_measurement_copy (latest));
}

/* Probes once; TRUE if there is a GPU, else the reason is in f->error. */
static gboolean
have_gpu (WsBackend *backend,
          Fixture   *f)
{
  f->pending = 1;
  ws_backend_probe_async (backend, NULL, probe_done, f);
  g_main_loop_run (f->loop);
  return f->error == NULL;
}

static void
test_no_gpu_reason (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr (WsBackend) backend = ws_backend_new ();
  g_autoptr (WsMeasureRequest) request = ws_measure_request_new ();

  if (have_gpu (backend, f))
    {
      g_test_skip ("a GPU is present: this test is about machines without one");
      return;
    }
  /* one clear reason, from the GPU layer's own domain */
  g_test_message ("no GPU: %s", f->error->message);
  g_assert_error (f->error, WS_GPU_ERROR, f->error->code);
  g_assert_true (f->error->code == WS_GPU_ERROR_NOT_BUILT || f->error->code == WS_GPU_ERROR_NO_DRIVER ||
                 f->error->code == WS_GPU_ERROR_NO_DEVICE || f->error->code == WS_GPU_ERROR_DRIVER_TOO_OLD);
  g_assert_cmpuint (strlen (f->error->message), >, 20);

  /* later jobs fail with the same reason, without crashing */
  request->kernel_id = g_strdup ("coalescing/sequential");
  g_clear_error (&f->error);
  f->pending = 1;
  ws_backend_measure_async (backend, request, NULL, on_progress, f, NULL, measure_done, f);
  g_main_loop_run (f->loop);
  g_assert_null (f->measurement);
  g_assert_error (f->error, WS_GPU_ERROR, f->error->code);
  g_assert_false (f->progress_on_worker);
}

static void
test_jobs_in_order (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr (WsBackend) backend = ws_backend_new ();
  g_autoptr (WsMeasureRequest) request = ws_measure_request_new ();
  g_autoptr (GArray) values = g_array_new (FALSE, FALSE, sizeof (gint64));
  gint64 v = 1;

  g_array_append_val (values, v);
  request->kernel_id = g_strdup ("coalescing/offset");
  f->pending = 3;
  ws_backend_probe_async (backend, NULL, probe_done, f);
  ws_backend_measure_async (backend, request, NULL, NULL, NULL, NULL, measure_done, f);
  ws_backend_sweep_async (backend, request, "offset", values, NULL, NULL, NULL, NULL, sweep_done, f);
  g_main_loop_run (f->loop);
  g_assert_cmpuint (f->order->len, ==, 3);
  g_assert_cmpstr (g_ptr_array_index (f->order, 0), ==, "probe");
  g_assert_cmpstr (g_ptr_array_index (f->order, 1), ==, "measure");
  g_assert_cmpstr (g_ptr_array_index (f->order, 2), ==, "sweep");
}

static void
test_cancelled_before_start (Fixture       *f,
                             gconstpointer  data)
{
  g_autoptr (WsBackend) backend = ws_backend_new ();
  g_autoptr (WsMeasureRequest) request = ws_measure_request_new ();
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();

  request->kernel_id = g_strdup ("coalescing/sequential");
  g_cancellable_cancel (cancellable);
  f->pending = 1;
  ws_backend_measure_async (backend, request, cancellable, on_progress, f, NULL, measure_done, f);
  g_main_loop_run (f->loop);
  g_assert_error (f->error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpuint (f->progress_done->len, ==, 0);
}

static void
test_dropped_while_busy (Fixture       *f,
                         gconstpointer  data)
{
  /* the caller lets go of the backend with jobs queued: they still finish,
   * and the backend thread ends cleanly */
  WsBackend *backend = ws_backend_new ();
  g_autoptr (WsMeasureRequest) request = ws_measure_request_new ();

  request->kernel_id = g_strdup ("coalescing/sequential");
  f->pending = 4;
  for (guint i = 0; i < 3; i++)
    ws_backend_measure_async (backend, request, NULL, NULL, NULL, NULL, measure_done, f);
  ws_backend_probe_async (backend, NULL, probe_done, f);
  g_object_unref (backend);
  g_main_loop_run (f->loop);
  g_assert_cmpuint (f->order->len, ==, 4);
}

static void
test_request_copy (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr (WsMeasureRequest) r = ws_measure_request_new ();
  g_autoptr (WsMeasureRequest) c = NULL;

  r->kernel_id = g_strdup ("banks/stride");
  r->pattern = ws_preset_build (ws_preset_lookup ("banks/stride"));
  ws_measure_request_set_param (r, "stride", 2);
  ws_measure_request_set_param (r, "stride", 4);
  r->options.samples = 25;
  c = ws_measure_request_copy (r);
  g_assert_cmpstr (c->kernel_id, ==, "banks/stride");
  g_assert_cmpuint (c->params->len, ==, 1);
  g_assert_cmpint (g_array_index (c->params, WsParamValue, 0).value, ==, 4);
  g_assert_cmpuint (c->options.samples, ==, 25);
  g_assert_true (c->pattern != r->pattern);
}

/* With a GPU: a real measurement, and a sweep whose every point arrives, in
 * order, on the main thread, before the sweep ends. */
static void
test_gpu_measure_and_sweep (Fixture       *f,
                            gconstpointer  data)
{
  g_autoptr (WsBackend) backend = ws_backend_new ();
  g_autoptr (WsMeasureRequest) request = ws_measure_request_new ();
  g_autoptr (GArray) values = ws_sweep_values_parse ("0,1,2,4,8", NULL);

  if (!have_gpu (backend, f))
    {
      g_autofree char *reason = g_strdup_printf ("no GPU: %s", f->error->message);
      g_test_skip (reason);
      return;
    }
  request->kernel_id = g_strdup ("coalescing/offset");
  f->pending = 1;
  ws_backend_measure_async (backend, request, NULL, on_progress, f, NULL, measure_done, f);
  g_main_loop_run (f->loop);
  g_assert_no_error (f->error);
  g_assert_nonnull (f->measurement);
  g_assert_cmpuint (f->measurement->samples_ms->len, >=, 10);
  g_assert_cmpfloat (f->measurement->min_ms, <=, f->measurement->median_ms);
  g_assert_cmpfloat (f->measurement->median_ms, <=, f->measurement->max_ms);
  g_assert_cmpfloat (f->measurement->min_ms, >, 0);
  g_assert_false (f->progress_on_worker);
  g_assert_cmpuint (f->progress_done->len, >, 0);

  g_array_set_size (f->progress_done, 0);
  f->pending = 1;
  ws_backend_sweep_async (backend, request, "offset", values, NULL, on_progress, f, NULL, sweep_done, f);
  g_main_loop_run (f->loop);
  g_assert_no_error (f->error);
  g_assert_cmpuint (f->sweep->len, ==, values->len);
  g_assert_cmpuint (f->progress_points->len, ==, values->len);
  for (guint i = 0; i < values->len; i++)
    {
      const WsMeasurement *m = g_ptr_array_index (f->progress_points, i);
      gint64 offset = -1;

      g_assert_true (ws_measurement_get_param (m, "offset", &offset));
      g_assert_cmpint (offset, ==, g_array_index (values, gint64, i));
    }
}

static void
fault_done (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  Fixture *f = user_data;

  g_clear_error (&f->error);
  g_assert_false (ws_backend_debug_fault_finish (WS_BACKEND (source), result, &f->error));
  g_ptr_array_add (f->order, "fault");
  done_one (f);
}

/* A kernel fault leaves CUDA unusable in the faulting process: it costs the
 * job it happened in, and the next job runs in a new GPU worker. */
static void
test_gpu_fault_recovery (Fixture       *f,
                         gconstpointer  data)
{
  g_autoptr (WsBackend) backend = ws_backend_new ();
  g_autoptr (WsMeasureRequest) request = ws_measure_request_new ();

  if (!have_gpu (backend, f))
    {
      g_autofree char *reason = g_strdup_printf ("no GPU: %s", f->error->message);
      g_test_skip (reason);
      return;
    }
  request->kernel_id = g_strdup ("coalescing/sequential");
  for (guint round = 0; round < 2; round++)
    {
      f->pending = 1;
      ws_backend_debug_fault_async (backend, NULL, fault_done, f);
      g_main_loop_run (f->loop);
      g_test_message ("fault: %s", f->error->message);
      g_assert_error (f->error, WS_GPU_ERROR, WS_GPU_ERROR_KERNEL_FAULT);

      g_clear_pointer (&f->measurement, ws_measurement_free);
      f->pending = 1;
      ws_backend_measure_async (backend, request, NULL, NULL, NULL, NULL, measure_done, f);
      g_main_loop_run (f->loop);
      g_assert_no_error (f->error);
      g_assert_nonnull (f->measurement);
      g_assert_true (f->measurement->verified);
    }
}

static void
cancel_soon (WsBackend           *backend,
             guint                done,
             guint                total,
             const WsMeasurement *latest,
             gpointer             user_data)
{
  GCancellable *cancellable = user_data;

  if (latest)
    g_cancellable_cancel (cancellable);
}

static void
test_gpu_cancel_sweep (Fixture       *f,
                       gconstpointer  data)
{
  g_autoptr (WsBackend) backend = ws_backend_new ();
  g_autoptr (WsMeasureRequest) request = ws_measure_request_new ();
  g_autoptr (GArray) values = ws_sweep_values_parse ("1:32", NULL);
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();

  if (!have_gpu (backend, f))
    {
      g_autofree char *reason = g_strdup_printf ("no GPU: %s", f->error->message);
      g_test_skip (reason);
      return;
    }
  request->kernel_id = g_strdup ("coalescing/strided-sweep");
  f->pending = 1;
  ws_backend_sweep_async (backend, request, "stride", values, cancellable, cancel_soon, cancellable, NULL,
                          sweep_done, f);
  g_main_loop_run (f->loop);
  g_assert_error (f->error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
#define ADD(path, func) g_test_add (path, Fixture, NULL, fixture_setup, func, fixture_teardown)
  ADD ("/backend/no-gpu-reason", test_no_gpu_reason);
  ADD ("/backend/jobs-in-order", test_jobs_in_order);
  ADD ("/backend/cancelled-before-start", test_cancelled_before_start);
  ADD ("/backend/dropped-while-busy", test_dropped_while_busy);
  ADD ("/backend/request-copy", test_request_copy);
  ADD ("/backend/gpu/measure-and-sweep", test_gpu_measure_and_sweep);
  ADD ("/backend/gpu/cancel-sweep", test_gpu_cancel_sweep);
  ADD ("/backend/gpu/fault-recovery", test_gpu_fault_recovery);
#undef ADD
  return g_test_run ();
}
