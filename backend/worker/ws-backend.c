/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "ws-config.h"
#include "ws-backend-private.h"
#include "ws-model-json.h"
#include "ws-recording.h"
#include "ws-worker-client.h"

#include <glib/gi18n-lib.h>
#include <string.h>

/* One thread, the backend thread, runs jobs in order: timed kernels running
 * side by side would disturb each other. Jobs carry a GTask, which returns
 * on the main context of whoever started the job. Progress from the thread
 * is merged: the thread overwrites the job's latest progress and schedules
 * at most one idle callback at a time on the caller's context.
 *
 * The CUDA context itself lives in a process of its own, the GPU worker
 * (ws-worker-server.h), which the thread starts and talks to: after a kernel
 * fault CUDA refuses the faulting process any further work, so the worker
 * process ends and the next job starts a new one. "Worker" always means
 * that process here, never the thread. */

typedef enum
{
  JOB_CONNECT,
  JOB_PROBE,
  JOB_MEASURE,
  JOB_SWEEP,
  JOB_COUNT,
  JOB_CALIBRATE,
  JOB_FAULT,
  JOB_QUIT,
} JobKind;

typedef struct
{
  JobKind kind;
  GTask *task;                 /* NULL for JOB_QUIT */
  WsMeasureRequest *request;
  char *sweep_param;
  GArray *sweep_values;
  gboolean hold;               /* JOB_COUNT: more collections follow */

  WsBackendProgress progress;
  gpointer progress_data;
  GDestroyNotify progress_destroy;
  GMainContext *context;

  gint refs;                   /* the thread's, and one per idle on its way */
  GMutex lock;                 /* guards the fields below */
  guint done;
  guint total;
  GPtrArray *points;           /* finished sweep points not yet delivered, in order */
  gboolean idle_pending;
} Job;

struct _WsBackend
{
  GObject parent_instance;

  WsGpuTarget *target;
  GMainContext *context;       /* where "worker-state" is emitted */
  GThread *thread;
  GAsyncQueue *queue;

  /* the backend thread only */
  gboolean probed;
  WsDeviceInfo *device;
  GError *probe_error;
};

G_DEFINE_FINAL_TYPE (WsBackend, ws_backend, G_TYPE_OBJECT)

enum
{
  PROP_0,
  PROP_TARGET,
  N_PROPS
};

enum
{
  WORKER_STATE,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

/* ------------------------------------------------------------------ */
/* Requests                                                           */
/* ------------------------------------------------------------------ */

/* ------------------------------------------------------------------ */
/* Jobs                                                               */
/* ------------------------------------------------------------------ */

static Job *
job_new (JobKind              kind,
         GTask               *task,
         WsBackendProgress    progress,
         gpointer             progress_data,
         GDestroyNotify       progress_destroy)
{
  Job *job = g_new0 (Job, 1);

  job->kind = kind;
  job->task = task;
  job->progress = progress;
  job->progress_data = progress_data;
  job->progress_destroy = progress_destroy;
  job->context = g_main_context_ref_thread_default ();
  job->refs = 1;
  job->points = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_measurement_free);
  g_mutex_init (&job->lock);
  return job;
}

static void
job_free (Job *job)
{
  if (job->progress_destroy)
    job->progress_destroy (job->progress_data);
  g_clear_object (&job->task);
  g_clear_pointer (&job->request, ws_measure_request_free);
  g_free (job->sweep_param);
  g_clear_pointer (&job->sweep_values, g_array_unref);
  g_ptr_array_unref (job->points);
  g_main_context_unref (job->context);
  g_mutex_clear (&job->lock);
  g_free (job);
}

static void
job_unref (gpointer data)
{
  Job *job = data;

  if (g_atomic_int_dec_and_test (&job->refs))
    job_free (job);
}

/* Main context of the caller: hands over what the thread left. */
static gboolean
deliver_progress (gpointer data)
{
  Job *job = data;
  g_autoptr (GPtrArray) points = NULL;
  guint done, total;

  g_mutex_lock (&job->lock);
  done = job->done;
  total = job->total;
  points = g_steal_pointer (&job->points);
  job->points = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_measurement_free);
  job->idle_pending = FALSE;
  g_mutex_unlock (&job->lock);

  /* a cancelled job reports nothing more: its view has moved on */
  if (g_cancellable_is_cancelled (g_task_get_cancellable (job->task)))
    return G_SOURCE_REMOVE;
  /* every sweep point, in order; then where the samples are */
  for (guint i = 0; i < points->len; i++)
    job->progress (g_task_get_source_object (job->task), done - points->len + i + 1, total,
                   g_ptr_array_index (points, i), job->progress_data);
  if (points->len == 0)
    job->progress (g_task_get_source_object (job->task), done, total, NULL, job->progress_data);
  return G_SOURCE_REMOVE;
}

/* The backend thread: records progress and makes sure one idle is on its way. */
static void
post_progress (Job                 *job,
               guint                done,
               guint                total,
               const WsMeasurement *latest)
{
  gboolean schedule;

  if (job->progress == NULL)
    return;

  g_mutex_lock (&job->lock);
  job->done = done;
  job->total = total;
  /* sample counts are merged; a sweep's points must all arrive */
  if (latest)
    g_ptr_array_add (job->points, ws_measurement_copy (latest));
  schedule = !job->idle_pending;
  job->idle_pending = TRUE;
  g_mutex_unlock (&job->lock);

  if (schedule)
    {
      GSource *source = g_idle_source_new ();

      /* the priority GTask returns at, so that a sweep's last point is
       * delivered before the sweep's end */
      g_atomic_int_inc (&job->refs);
      g_source_set_priority (source, G_PRIORITY_DEFAULT);
      g_source_set_callback (source, deliver_progress, job, job_unref);
      g_source_set_static_name (source, "[ws-backend] progress");
      g_source_attach (source, job->context);
      g_source_unref (source);
    }
}

static void
sample_progress (guint    done,
                 guint    total,
                 gpointer user_data)
{
  post_progress (user_data, done, total, NULL);
}

/* ------------------------------------------------------------------ */
/* The backend thread, and the worker process it talks to             */
/* ------------------------------------------------------------------ */

static JsonNode *
call_worker (WsWorkerClient *client,
             JsonObject     *request,
             Job            *job,
             GError        **error)
{
  JsonNode *reply = ws_worker_client_call (client, request, g_task_get_cancellable (job->task),
                                           job->kind == JOB_MEASURE || job->kind == JOB_CALIBRATE ? sample_progress : NULL, job, error);

  json_object_unref (request);
  return reply;
}

/* A reply that does not read (negative times, a device of no name) is the
 * worker's fault, as an answer of no shape is: a protocol error. */
static GError *
unreadable_reply (WsBackend    *self,
                  const GError *why)
{
  /* a command's worker runs wherever the command takes it */
  g_autofree char *place = self->target->kind == WS_GPU_TARGET_COMMAND ? g_strdup (_("the machine the command reaches"))
                                                                       : ws_gpu_target_place (self->target);

  /* Translators: where the GPU worker runs (“this computer”, a host's name,
   * Slurm or “the machine the command reaches”), then what is wrong with
   * its answer */
  return g_error_new (WS_WORKER_ERROR, WS_WORKER_ERROR_PROTOCOL,
                      _("the GPU worker on %s answered with something Warpscope does not read: %s"), place,
                      why->message);
}

static WsMeasurement *
measurement_of (WsBackend *self,
                JsonNode  *reply,
                GError   **error)
{
  g_autoptr (GError) local = NULL;
  WsMeasurement *m;

  if (reply == NULL)
    return NULL;
  m = ws_measurement_from_json (reply, &local);
  if (m == NULL)
    g_propagate_error (error, unreadable_reply (self, local));
  return m;
}

static gboolean
ensure_probed (WsBackend      *self,
               WsWorkerClient *client,
               Job            *job,
               GError        **error)
{
  if (!self->probed)
    {
      g_clear_error (&self->probe_error);
      if (!ws_gpu_is_built () && ws_gpu_target_is_local (self->target))
        self->device = ws_gpu_probe (&self->probe_error);
      else
        {
          g_autoptr (JsonNode) reply = call_worker (client, ws_worker_codec_simple ("probe"), job, &self->probe_error);

          if (reply)
            {
              g_autoptr (GError) local = NULL;

              self->device = ws_device_info_from_json (reply, &local);
              if (self->device == NULL)
                self->probe_error = unreadable_reply (self, local);
            }
          if (self->device)
            {
              /* where it is, as this side reaches it (a worker's own word
               * for it, a replay's recorded one, is replaced) */
              g_free (self->device->address);
              self->device->address = ws_gpu_target_to_string (self->target);
            }
          else if (self->probe_error->domain == WS_GPU_ERROR && !ws_gpu_target_is_local (self->target))
            {
              g_autofree char *place = ws_gpu_target_place (self->target);
              /* Translators: where the GPU worker runs (a host's name, Slurm and its
               * partition or job, or “a custom command”), before why it has no GPU:
               * "on gpu01, the NVIDIA driver sees no GPU" */
              g_prefix_error (&self->probe_error, _("on %s, "), place);
            }
        }
      /* a worker that ended or hung, or a host that did not answer, may do
       * better next time; a missing GPU will not */
      self->probed = self->device != NULL ||
                     (self->probe_error->domain == WS_GPU_ERROR &&
                      self->probe_error->code != WS_GPU_ERROR_KERNEL_FAULT &&
                      self->probe_error->code != WS_GPU_ERROR_WORKER);
    }
  if (self->device == NULL)
    {
      g_propagate_error (error, g_error_copy (self->probe_error));
      return FALSE;
    }
  return TRUE;
}


static WsMeasurement *
measure_one (WsBackend              *self,
             WsWorkerClient         *client,
             Job                    *job,
             const WsMeasureRequest *request,
             GError                **error)
{
  g_autoptr (JsonNode) reply = NULL;

  if (!ensure_probed (self, client, job, error))
    return NULL;
  if (g_cancellable_set_error_if_cancelled (g_task_get_cancellable (job->task), error))
    return NULL;
  if (request->kernel_id == NULL && request->pattern == NULL && request->kernel_text == NULL)
    {
      g_set_error (error, WS_GPU_ERROR, WS_GPU_ERROR_INVALID_PARAM, _("the request names no kernel, no pattern and no kernel text"));
      return NULL;
    }
  reply = call_worker (client, ws_worker_codec_measure (request), job, error);
  return measurement_of (self, reply, error);
}

static void
run_sweep (WsBackend      *self,
           WsWorkerClient *client,
           Job            *job)
{
  g_autoptr (GPtrArray) results = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_measurement_free);
  g_autoptr (WsMeasureRequest) point = ws_measure_request_copy (job->request);
  GError *error = NULL;
  guint n = job->sweep_values->len;

  post_progress (job, 0, n, NULL);
  for (guint i = 0; i < n; i++)
    {
      gint64 value = g_array_index (job->sweep_values, gint64, i);
      WsMeasurement *m;

      if (g_cancellable_set_error_if_cancelled (g_task_get_cancellable (job->task), &error))
        break;
      if (point->kernel_id)
        ws_measure_request_set_param (point, job->sweep_param, value);
      if (point->pattern && !ws_pattern_set_param (point->pattern, job->sweep_param, value, &error))
        break;
      m = measure_one (self, client, job, point, &error);
      if (m == NULL)
        {
          /* a parameter and its value, before the message: nothing to translate */
          g_prefix_error (&error, "%s = %lld: ", job->sweep_param, (long long) value);
          break;
        }
      g_ptr_array_add (results, m);
      post_progress (job, i + 1, n, m);
    }
  if (error)
    g_task_return_error (job->task, error);
  else
    g_task_return_pointer (job->task, g_steal_pointer (&results), (GDestroyNotify) g_ptr_array_unref);
}

static WsMeasurement *
count_one (WsBackend      *self,
           WsWorkerClient *client,
           Job            *job,
           GError        **error)
{
  g_autoptr (JsonNode) reply = NULL;
  JsonObject *request;

  if (!ensure_probed (self, client, job, error))
    return NULL;
  request = ws_worker_codec_count (job->request->pattern, job->request->options.cold, job->hold);
  reply = call_worker (client, request, job, error);
  return measurement_of (self, reply, error);
}

static void
run_job (WsBackend      *self,
         WsWorkerClient *client,
         Job            *job)
{
  GError *error = NULL;

  switch (job->kind)
    {
    case JOB_CONNECT:
      {
        const WsWorkerHello *hello = ws_worker_client_connect (client, g_task_get_cancellable (job->task), &error);
        if (hello)
          g_task_return_pointer (job->task, ws_worker_hello_copy (hello), (GDestroyNotify) ws_worker_hello_free);
        else
          g_task_return_error (job->task, error);
      }
      break;
    case JOB_PROBE:
      if (ensure_probed (self, client, job, &error))
        g_task_return_pointer (job->task, ws_device_info_copy (self->device), (GDestroyNotify) ws_device_info_free);
      else
        g_task_return_error (job->task, error);
      break;
    case JOB_MEASURE:
      {
        WsMeasurement *m = measure_one (self, client, job, job->request, &error);
        /* the worker sends progress a few times a second and none just
         * before its reply: the last, every sample done, is said here, so
         * that a fast measurement's progress reaches its end too */
        if (m && m->samples_ms->len > 0)
          post_progress (job, m->samples_ms->len, m->samples_ms->len, NULL);
        if (m)
          g_task_return_pointer (job->task, m, (GDestroyNotify) ws_measurement_free);
        else
          g_task_return_error (job->task, error);
      }
      break;
    case JOB_SWEEP:
      run_sweep (self, client, job);
      break;
    case JOB_COUNT:
      {
        WsMeasurement *m = count_one (self, client, job, &error);
        if (m)
          g_task_return_pointer (job->task, m, (GDestroyNotify) ws_measurement_free);
        else
          g_task_return_error (job->task, error);
      }
      break;
    case JOB_CALIBRATE:
      if (ensure_probed (self, client, job, &error))
        {
          JsonNode *reply = call_worker (client, ws_worker_codec_simple ("calibrate"), job, &error);
          if (reply)
            {
              g_task_return_pointer (job->task, reply, (GDestroyNotify) json_node_unref);
              break;
            }
        }
      g_task_return_error (job->task, error);
      break;
    case JOB_FAULT:
      if (ensure_probed (self, client, job, &error))
        {
          JsonNode *reply = call_worker (client, ws_worker_codec_simple ("fault"), job, &error);
          g_assert (reply == NULL);
        }
      g_task_return_error (job->task, error);
      break;
    case JOB_QUIT:
    default:
      g_assert_not_reached ();
    }
}

/* How the worker's start goes, told on the backend's main context: the
 * sink holds a weak reference, as the backend may go first. */
typedef struct
{
  gint refs;
  GWeakRef backend;
  GMainContext *context;
} StateSink;

typedef struct
{
  StateSink *sink;
  WsWorkerState state;
  char *detail;
} StateNews;

static StateSink *
state_sink_new (WsBackend *self)
{
  StateSink *sink = g_new0 (StateSink, 1);

  sink->refs = 1;
  g_weak_ref_init (&sink->backend, self);
  sink->context = g_main_context_ref (self->context);
  return sink;
}

static void
state_sink_unref (StateSink *sink)
{
  if (!g_atomic_int_dec_and_test (&sink->refs))
    return;
  g_weak_ref_clear (&sink->backend);
  g_main_context_unref (sink->context);
  g_free (sink);
}

static void
state_news_free (gpointer data)
{
  StateNews *news = data;

  state_sink_unref (news->sink);
  g_free (news->detail);
  g_free (news);
}

static gboolean
deliver_state (gpointer data)
{
  StateNews *news = data;
  g_autoptr (WsBackend) self = g_weak_ref_get (&news->sink->backend);

  if (self)
    g_signal_emit (self, signals[WORKER_STATE], 0, (guint) news->state, news->detail);
  return G_SOURCE_REMOVE;
}

static void
on_worker_state (WsWorkerState state,
                 const char   *detail,
                 gpointer      user_data)
{
  StateSink *sink = user_data;
  StateNews *news = g_new0 (StateNews, 1);

  g_atomic_int_inc (&sink->refs);
  news->sink = sink;
  news->state = state;
  news->detail = g_strdup (detail);
  g_main_context_invoke_full (sink->context, G_PRIORITY_DEFAULT, deliver_state, news, state_news_free);
}

/* The thread touches the backend only while it runs a job: the job's task
 * keeps the backend alive. Dropping the job may finalise the backend (on
 * this thread), so the queue is the thread's own reference. */
static gpointer
thread_main (gpointer data)
{
  WsBackend *self = data;
  GAsyncQueue *queue = g_async_queue_ref (self->queue);
  g_autoptr (WsWorkerClient) client = ws_worker_client_new_for_target (self->target);
  StateSink *sink = state_sink_new (self);

  ws_worker_client_set_state_func (client, on_worker_state, sink);

  for (;;)
    {
      Job *job = g_async_queue_pop (queue);

      if (job->kind == JOB_QUIT)
        {
          job_unref (job);
          break;
        }
      run_job (self, client, job);
      job_unref (job);
    }
  g_clear_pointer (&client, ws_worker_client_free);
  state_sink_unref (sink);
  g_async_queue_unref (queue);
  return NULL;
}

static void
push_job (WsBackend *self,
          Job       *job)
{
  if (self->thread == NULL)
    self->thread = g_thread_new ("ws-backend", thread_main, self);
  g_async_queue_push (self->queue, job);
}

/* ------------------------------------------------------------------ */
/* GObject                                                            */
/* ------------------------------------------------------------------ */

static void
ws_backend_finalize (GObject *object)
{
  WsBackend *self = WS_BACKEND (object);

  if (self->thread)
    {
      Job *quit = job_new (JOB_QUIT, NULL, NULL, NULL, NULL);

      g_async_queue_push (self->queue, quit);
      /* the last reference may be dropped by a job on the backend thread itself */
      if (g_thread_self () != self->thread)
        g_thread_join (self->thread);
      else
        g_thread_unref (self->thread);
      self->thread = NULL;
    }
  g_async_queue_unref (self->queue);
  g_clear_pointer (&self->device, ws_device_info_free);
  g_clear_error (&self->probe_error);
  g_clear_pointer (&self->target, ws_gpu_target_free);
  g_main_context_unref (self->context);

  G_OBJECT_CLASS (ws_backend_parent_class)->finalize (object);
}

static void
ws_backend_get_property (GObject    *object,
                         guint       prop_id,
                         GValue     *value,
                         GParamSpec *pspec)
{
  WsBackend *self = WS_BACKEND (object);

  switch (prop_id)
    {
    case PROP_TARGET:
      g_value_set_boxed (value, self->target);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ws_backend_set_property (GObject      *object,
                         guint         prop_id,
                         const GValue *value,
                         GParamSpec   *pspec)
{
  WsBackend *self = WS_BACKEND (object);

  switch (prop_id)
    {
    case PROP_TARGET:
      /* construct-only */
      if (g_value_get_boxed (value))
        {
          ws_gpu_target_free (self->target);
          self->target = g_value_dup_boxed (value);
        }
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ws_backend_class_init (WsBackendClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = ws_backend_finalize;
  object_class->get_property = ws_backend_get_property;
  object_class->set_property = ws_backend_set_property;

  properties[PROP_TARGET] =
    g_param_spec_boxed ("target", NULL, NULL, WS_TYPE_GPU_TARGET,
                        G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[WORKER_STATE] =
    g_signal_new ("worker-state", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2, G_TYPE_UINT, G_TYPE_STRING);
}

static void
ws_backend_init (WsBackend *self)
{
  self->queue = g_async_queue_new ();
  self->target = ws_gpu_target_new_local ();
  self->context = g_main_context_ref_thread_default ();
}

WsBackend *
ws_backend_new (void)
{
  return g_object_new (WS_TYPE_BACKEND, NULL);
}

WsBackend *
ws_backend_new_for_target (const WsGpuTarget *target)
{
  g_return_val_if_fail (target != NULL, NULL);

  return g_object_new (WS_TYPE_BACKEND, "target", target, NULL);
}

const WsGpuTarget *
ws_backend_get_target (WsBackend *self)
{
  g_return_val_if_fail (WS_IS_BACKEND (self), NULL);

  return self->target;
}

static GTask *
new_task (WsBackend          *self,
          GCancellable       *cancellable,
          GAsyncReadyCallback callback,
          gpointer            user_data,
          gpointer            tag)
{
  GTask *task = g_task_new (self, cancellable, callback, user_data);

  g_task_set_source_tag (task, tag);
  g_task_set_check_cancellable (task, TRUE);
  return task;
}

void
ws_backend_probe_async (WsBackend          *self,
                        GCancellable       *cancellable,
                        GAsyncReadyCallback callback,
                        gpointer            user_data)
{
  g_return_if_fail (WS_IS_BACKEND (self));

  push_job (self, job_new (JOB_PROBE, new_task (self, cancellable, callback, user_data, ws_backend_probe_async),
                           NULL, NULL, NULL));
}

WsDeviceInfo *
ws_backend_probe_finish (WsBackend    *self,
                         GAsyncResult *result,
                         GError      **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

void
ws_backend_debug_fault_async (WsBackend          *self,
                              GCancellable       *cancellable,
                              GAsyncReadyCallback callback,
                              gpointer            user_data)
{
  g_return_if_fail (WS_IS_BACKEND (self));

  push_job (self, job_new (JOB_FAULT, new_task (self, cancellable, callback, user_data, ws_backend_debug_fault_async),
                           NULL, NULL, NULL));
}

gboolean
ws_backend_debug_fault_finish (WsBackend    *self,
                               GAsyncResult *result,
                               GError      **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

void
ws_backend_measure_async (WsBackend              *self,
                          const WsMeasureRequest *request,
                          GCancellable           *cancellable,
                          WsBackendProgress       progress,
                          gpointer                progress_data,
                          GDestroyNotify          progress_destroy,
                          GAsyncReadyCallback     callback,
                          gpointer                user_data)
{
  Job *job;

  g_return_if_fail (WS_IS_BACKEND (self));
  g_return_if_fail (request != NULL);

  job = job_new (JOB_MEASURE, new_task (self, cancellable, callback, user_data, ws_backend_measure_async),
                 progress, progress_data, progress_destroy);
  job->request = ws_measure_request_copy (request);
  push_job (self, job);
}

WsMeasurement *
ws_backend_measure_finish (WsBackend    *self,
                           GAsyncResult *result,
                           GError      **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

void
ws_backend_sweep_async (WsBackend              *self,
                        const WsMeasureRequest *request,
                        const char             *param,
                        GArray                 *values,
                        GCancellable           *cancellable,
                        WsBackendProgress       progress,
                        gpointer                progress_data,
                        GDestroyNotify          progress_destroy,
                        GAsyncReadyCallback     callback,
                        gpointer                user_data)
{
  Job *job;

  g_return_if_fail (WS_IS_BACKEND (self));
  g_return_if_fail (request != NULL);
  g_return_if_fail (param != NULL);
  g_return_if_fail (values != NULL && values->len > 0);

  job = job_new (JOB_SWEEP, new_task (self, cancellable, callback, user_data, ws_backend_sweep_async),
                 progress, progress_data, progress_destroy);
  job->request = ws_measure_request_copy (request);
  job->sweep_param = g_strdup (param);
  job->sweep_values = g_array_copy (values);
  push_job (self, job);
}

GPtrArray *
ws_backend_sweep_finish (WsBackend    *self,
                         GAsyncResult *result,
                         GError      **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

void
ws_backend_count_async (WsBackend          *self,
                        const WsPattern    *pattern,
                        gboolean            cold,
                        gboolean            hold,
                        GCancellable       *cancellable,
                        GAsyncReadyCallback callback,
                        gpointer            user_data)
{
  Job *job;

  g_return_if_fail (WS_IS_BACKEND (self));
  g_return_if_fail (pattern != NULL);

  job = job_new (JOB_COUNT, new_task (self, cancellable, callback, user_data, ws_backend_count_async),
                 NULL, NULL, NULL);
  job->request = ws_measure_request_new ();
  job->request->pattern = ws_pattern_copy (pattern);
  job->request->options.cold = cold;
  job->hold = hold;
  push_job (self, job);
}

WsMeasurement *
ws_backend_count_finish (WsBackend    *self,
                         GAsyncResult *result,
                         GError      **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

void
ws_backend_calibrate_async (WsBackend          *self,
                            WsBackendProgress   progress,
                            gpointer            progress_data,
                            GDestroyNotify      progress_destroy,
                            GCancellable       *cancellable,
                            GAsyncReadyCallback callback,
                            gpointer            user_data)
{
  g_return_if_fail (WS_IS_BACKEND (self));

  push_job (self, job_new (JOB_CALIBRATE, new_task (self, cancellable, callback, user_data, ws_backend_calibrate_async),
                           progress, progress_data, progress_destroy));
}

JsonNode *
ws_backend_calibrate_finish (WsBackend    *self,
                             GAsyncResult *result,
                             GError      **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

void
ws_backend_connect_async (WsBackend          *self,
                          GCancellable       *cancellable,
                          GAsyncReadyCallback callback,
                          gpointer            user_data)
{
  GTask *task;

  g_return_if_fail (WS_IS_BACKEND (self));

  task = new_task (self, cancellable, callback, user_data, ws_backend_connect_async);
  /* a cancelled wait says what it withdrew */
  g_task_set_check_cancellable (task, FALSE);
  push_job (self, job_new (JOB_CONNECT, task, NULL, NULL, NULL));
}

WsWorkerHello *
ws_backend_connect_finish (WsBackend    *self,
                           GAsyncResult *result,
                           GError      **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}
