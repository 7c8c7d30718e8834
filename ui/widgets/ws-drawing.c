/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "ws-drawing.h"

typedef struct
{
  WsDrawingFunc draw;
  gpointer data;
  GDestroyNotify free_data;
} Job;

static void
job_free (Job *job)
{
  if (job->free_data)
    job->free_data (job->data);
  g_free (job);
}

static void
job_thread (GTask        *task,
            gpointer      source,
            gpointer      task_data,
            GCancellable *cancellable)
{
  Job *job = task_data;

  g_task_return_pointer (task, job->draw (job->data), (GDestroyNotify) cairo_surface_destroy);
}

cairo_surface_t *
ws_drawing_new_image (int                  width,
                      int                  height,
                      int                  scale,
                      const WsFigureStyle *style,
                      cairo_t            **cr)
{
  cairo_surface_t *image = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width * scale, height * scale);

  cairo_surface_set_device_scale (image, scale, scale);
  *cr = cairo_create (image);
  cairo_set_source_rgb (*cr, style->background.r, style->background.g, style->background.b);
  cairo_paint (*cr);
  return image;
}

void
ws_drawing_start (gpointer             owner,
                  GCancellable       **in_flight,
                  WsDrawingFunc        draw,
                  gpointer             data,
                  GDestroyNotify       free_data,
                  GAsyncReadyCallback  done)
{
  g_autoptr (GTask) task = NULL;
  Job *job = g_new (Job, 1);

  if (*in_flight)
    {
      /* the older drawing finishes unseen */
      g_cancellable_cancel (*in_flight);
      g_clear_object (in_flight);
    }
  *job = (Job) { draw, data, free_data };
  *in_flight = g_cancellable_new ();
  task = g_task_new (owner, *in_flight, done, NULL);
  g_task_set_task_data (task, job, (GDestroyNotify) job_free);
  g_task_set_return_on_cancel (task, TRUE);
  g_task_run_in_thread (task, job_thread);
}

cairo_surface_t *
ws_drawing_finish (GAsyncResult  *result,
                   GCancellable **in_flight,
                   gpointer      *data)
{
  cairo_surface_t *image = g_task_propagate_pointer (G_TASK (result), NULL);
  Job *job = g_task_get_task_data (G_TASK (result));

  if (data)
    *data = job->data;
  if (image && *in_flight == g_task_get_cancellable (G_TASK (result)))
    g_clear_object (in_flight);
  return image;
}
