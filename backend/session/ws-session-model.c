/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The session's model thread: what the model computes for the window's
 * pages and the session itself (a launch and its hierarchy, the
 * predictions a chart draws, a comparison's costs) is done on one thread
 * of its own, below the main thread's priority so that frames keep coming,
 * one job after another. A job with a key is done once: its result is kept
 * (the newest few), and whoever asks for it again, meanwhile or later, gets
 * the same. A job nobody waits for any more is cancelled, and one whose
 * cancellable was cancelled before its turn is not started. */
#include "ws-config.h"
#include "ws-session-private.h"

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#define KEEP 32

typedef struct _Queue Queue;

typedef struct
{
  Queue *queue;
  char *key;                       /* NULL: not kept */
  WsModelJob func;
  gpointer data;
  GDestroyNotify data_free;
  GBoxedCopyFunc copy;
  GDestroyNotify result_free;
  GCancellable *cancellable;       /* the job's own: cancelled when nobody waits */
  GPtrArray *waiters;              /* Waiter */
  gpointer result;                 /* from the thread */
  GError *error;
} Job;

typedef struct
{
  GTask *task;
  gulong cancelled_id;             /* on the task's cancellable */
} Waiter;

typedef struct
{
  char *key;
  gpointer result;
  GBoxedCopyFunc copy;
  GDestroyNotify result_free;
} Kept;

struct _Queue
{
  gatomicrefcount refs;
  GAsyncQueue *jobs;               /* Job, or the queue itself: stop */
  GThread *thread;
  GMainContext *context;           /* where results are delivered */
  GHashTable *running;             /* key → Job, queued or running */
  GQueue kept;                     /* Kept, newest first */
};

static Queue *
queue_ref (Queue *q)
{
  g_atomic_ref_count_inc (&q->refs);
  return q;
}

static void
kept_free (Kept *k)
{
  g_free (k->key);
  k->result_free (k->result);
  g_free (k);
}

static void
queue_unref (Queue *q)
{
  if (!g_atomic_ref_count_dec (&q->refs))
    return;
  g_async_queue_unref (q->jobs);
  g_main_context_unref (q->context);
  g_hash_table_unref (q->running);
  g_queue_clear_full (&q->kept, (GDestroyNotify) kept_free);
  g_free (q);
}

static void
waiter_free (Waiter *w)
{
  if (w->cancelled_id)
    g_cancellable_disconnect (g_task_get_cancellable (w->task), w->cancelled_id);
  g_object_unref (w->task);
  g_free (w);
}

static void
job_free (Job *job)
{
  g_free (job->key);
  if (job->data_free)
    job->data_free (job->data);
  if (job->result)
    job->result_free (job->result);
  g_clear_error (&job->error);
  g_clear_object (&job->cancellable);
  g_ptr_array_unref (job->waiters);
  queue_unref (job->queue);
  g_free (job);
}

/* ------------------------------------------------------------------ */
/* On the main thread                                                 */
/* ------------------------------------------------------------------ */

static void
keep (Queue    *q,
      Job      *job)
{
  Kept *k = g_new0 (Kept, 1);

  k->key = g_strdup (job->key);
  k->result = job->copy (job->result);
  k->copy = job->copy;
  k->result_free = job->result_free;
  g_queue_push_head (&q->kept, k);
  while (q->kept.length > KEEP)
    kept_free (g_queue_pop_tail (&q->kept));
}

/* Each waiter gets the result (a copy where it is kept), or the error. */
static gboolean
deliver (gpointer data)
{
  Job *job = data;
  Queue *q = job->queue;

  if (job->key && g_hash_table_lookup (q->running, job->key) == job)
    g_hash_table_remove (q->running, job->key);
  if (job->result && job->key)
    keep (q, job);
  for (guint i = 0; i < job->waiters->len; i++)
    {
      GTask *task = ((Waiter *) g_ptr_array_index (job->waiters, i))->task;

      if (g_task_return_error_if_cancelled (task))
        continue;
      if (job->error)
        g_task_return_error (task, g_error_copy (job->error));
      else if (job->key)
        g_task_return_pointer (task, job->copy (job->result), job->result_free);
      else
        {
          /* not kept: the one waiter takes it */
          g_task_return_pointer (task, g_steal_pointer (&job->result), job->result_free);
          break;
        }
    }
  job_free (job);
  return G_SOURCE_REMOVE;
}

/* A waiter gave up: the job stops when none is left. */
static void
on_waiter_cancelled (GCancellable *cancellable,
                     Job          *job)
{
  for (guint i = 0; i < job->waiters->len; i++)
    {
      GCancellable *c = g_task_get_cancellable (((Waiter *) g_ptr_array_index (job->waiters, i))->task);

      if (c == NULL || !g_cancellable_is_cancelled (c))
        return;
    }
  g_cancellable_cancel (job->cancellable);
}

/* ------------------------------------------------------------------ */
/* The thread                                                         */
/* ------------------------------------------------------------------ */

static gpointer
thread_main (gpointer data)
{
  Queue *q = data;

  /* below the main thread, so that frames keep coming while the model runs
   * on every core; the model's own threads inherit this (Linux: per thread) */
  setpriority (PRIO_PROCESS, (id_t) syscall (SYS_gettid), 10);
  for (;;)
    {
      Job *job = g_async_queue_pop (q->jobs);

      if (job == (Job *) q)
        break;
      if (!g_cancellable_set_error_if_cancelled (job->cancellable, &job->error))
        {
          job->result = job->func (job->data, job->cancellable, &job->error);
          g_assert (job->result != NULL || job->error != NULL);
        }
      g_main_context_invoke (q->context, deliver, job);
    }
  queue_unref (q);
  return NULL;
}

static Queue *
queue_of (WsSession *self)
{
  Queue *q = self->model;

  if (q == NULL)
    {
      q = self->model = g_new0 (Queue, 1);
      g_atomic_ref_count_init (&q->refs);
      q->jobs = g_async_queue_new ();
      q->context = g_main_context_ref_thread_default ();
      q->running = g_hash_table_new (g_str_hash, g_str_equal);
      q->thread = g_thread_new ("ws-session-model", thread_main, queue_ref (q));
    }
  return q;
}

/* ------------------------------------------------------------------ */
/* Public                                                             */
/* ------------------------------------------------------------------ */

static gpointer
lookup (Queue      *q,
        const char *key)
{
  for (GList *l = q->kept.head; l; l = l->next)
    {
      Kept *k = l->data;

      if (g_str_equal (k->key, key))
        {
          /* the newest first: used again, it stays longer */
          g_queue_unlink (&q->kept, l);
          g_queue_push_head_link (&q->kept, l);
          return k->copy (k->result);
        }
    }
  return NULL;
}

static void
add_waiter (Job   *job,
            GTask *task)
{
  Waiter *w = g_new0 (Waiter, 1);
  GCancellable *cancellable = g_task_get_cancellable (task);

  w->task = task;
  g_ptr_array_add (job->waiters, w);
  if (cancellable)
    w->cancelled_id = g_cancellable_connect (cancellable, G_CALLBACK (on_waiter_cancelled), job, NULL);
}

gpointer
ws_session_model_lookup (WsSession  *self,
                         const char *key)
{
  g_return_val_if_fail (WS_IS_SESSION (self), NULL);
  g_return_val_if_fail (key != NULL, NULL);

  return self->model ? lookup (self->model, key) : NULL;
}

void
ws_session_model_async (WsSession          *self,
                        const char         *key,
                        WsModelJob          func,
                        gpointer            data,
                        GDestroyNotify      data_free,
                        GBoxedCopyFunc      copy,
                        GDestroyNotify      result_free,
                        GCancellable       *cancellable,
                        GAsyncReadyCallback callback,
                        gpointer            user_data)
{
  g_autoptr (GTask) task = NULL;
  gpointer kept;
  Queue *q;
  Job *job;

  g_return_if_fail (WS_IS_SESSION (self));
  g_return_if_fail (func != NULL && result_free != NULL);
  g_return_if_fail (key == NULL || copy != NULL);

  q = queue_of (self);
  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, ws_session_model_async);
  g_task_set_check_cancellable (task, TRUE);
  if (key && (kept = lookup (q, key)))
    {
      if (data_free)
        data_free (data);
      g_task_return_pointer (task, kept, result_free);
      return;
    }
  /* asked for again while it runs: the same job, one more waiter */
  if (key && (job = g_hash_table_lookup (q->running, key)) && !g_cancellable_is_cancelled (job->cancellable))
    {
      if (data_free)
        data_free (data);
      add_waiter (job, g_steal_pointer (&task));
      return;
    }
  job = g_new0 (Job, 1);
  job->queue = queue_ref (q);
  job->key = g_strdup (key);
  job->func = func;
  job->data = data;
  job->data_free = data_free;
  job->copy = copy;
  job->result_free = result_free;
  job->cancellable = g_cancellable_new ();
  job->waiters = g_ptr_array_new_with_free_func ((GDestroyNotify) waiter_free);
  add_waiter (job, g_steal_pointer (&task));
  if (key)
    g_hash_table_replace (q->running, job->key, job);
  g_async_queue_push (q->jobs, job);
}

gpointer
ws_session_model_finish (WsSession    *self,
                         GAsyncResult *result,
                         GError      **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

void
ws_session_model_finalize (WsSession *self)
{
  Queue *q = self->model;

  if (q == NULL)
    return;
  self->model = NULL;
  /* the job under way ends by itself; the thread then stops */
  g_async_queue_push (q->jobs, q);
  g_thread_unref (q->thread);
  queue_unref (q);
}
