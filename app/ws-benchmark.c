/* SPDX-License-Identifier: GPL-3.0-or-later */
/* warpscope --benchmark and --screenshot: the program watching itself. */
#include "ws-benchmark.h"
#include "ws-window-private.h"

#include <stdio.h>
#include <time.h>
#include <unistd.h>

#define SETTLE_TIMEOUT_US (10 * G_USEC_PER_SEC)
#define BENCH_SECONDS 6

/* µs since this process started, from the kernel's clock of its start. */
static gint64
since_process_start (void)
{
  g_autofree char *stat = NULL;
  struct timespec now;
  const char *p;
  unsigned long long start = 0;

  if (!g_file_get_contents ("/proc/self/stat", &stat, NULL, NULL) || (p = strrchr (stat, ')')) == NULL)
    return -1;
  /* field 22, starttime, counts the fields after the command's closing parenthesis */
  if (sscanf (p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d %*d %*d %*d %llu",
              &start) != 1)
    return -1;
  clock_gettime (CLOCK_BOOTTIME, &now);
  return (gint64) now.tv_sec * G_USEC_PER_SEC + now.tv_nsec / 1000 -
         (gint64) (start * G_USEC_PER_SEC / sysconf (_SC_CLK_TCK));
}

typedef struct
{
  WsWindow *window;
  char *path;
  gint64 started;
  GdkFrameClock *clock;
  gulong update_id;
  gulong after_paint_id;
  gint64 frame_start;
  gint64 last_paint;
  GArray *work;              /* µs from a frame's update to its painting done */
  GArray *intervals;         /* µs between painted frames */
  gint64 longest_stall;      /* µs between two runs of a 1 ms timeout */
  gint64 last_tick;
  guint stall_id;
  gint64 first_frame;
  gint64 measuring_since;
} Bench;

static void
bench_free (Bench *b)
{
  if (b->clock)
    {
      g_clear_signal_handler (&b->update_id, b->clock);
      g_clear_signal_handler (&b->after_paint_id, b->clock);
    }
  g_clear_handle_id (&b->stall_id, g_source_remove);
  g_clear_pointer (&b->work, g_array_unref);
  g_clear_pointer (&b->intervals, g_array_unref);
  g_free (b->path);
  g_object_unref (b->window);
  g_free (b);
}

static void
quit (Bench *b)
{
  GApplication *app = G_APPLICATION (gtk_window_get_application (GTK_WINDOW (b->window)));

  gtk_window_destroy (GTK_WINDOW (b->window));
  if (app)
    g_application_quit (app);
  bench_free (b);
}

static gboolean
settled_or_late (Bench *b)
{
  return ws_window_is_settled (b->window) || g_get_monotonic_time () - b->started > SETTLE_TIMEOUT_US;
}

/* ------------------------------------------------------------------ */
/* --screenshot                                                       */
/* ------------------------------------------------------------------ */

static void
screenshot_after_paint (GdkFrameClock *clock,
                        Bench         *b)
{
  g_autoptr (GError) error = NULL;

  g_clear_signal_handler (&b->after_paint_id, b->clock);
  if (!ws_window_save_screenshot (b->window, b->path, &error))
    g_printerr ("warpscope: %s\n", error->message);
  quit (b);
}

static gboolean
screenshot_poll (gpointer data)
{
  Bench *b = data;

  if (!gtk_widget_get_mapped (GTK_WIDGET (b->window)) || !settled_or_late (b))
    return G_SOURCE_CONTINUE;
  b->stall_id = 0;
  /* the whole picture: every step served */
  ws_schedule_player_set_playing (b->window->player, FALSE);
  b->clock = gtk_widget_get_frame_clock (GTK_WIDGET (b->window));
  b->after_paint_id = g_signal_connect (b->clock, "after-paint", G_CALLBACK (screenshot_after_paint), b);
  gtk_widget_queue_draw (GTK_WIDGET (b->window));
  return G_SOURCE_REMOVE;
}

void
ws_benchmark_screenshot (WsWindow   *window,
                         const char *path)
{
  Bench *b = g_new0 (Bench, 1);

  b->window = g_object_ref (window);
  b->path = g_strdup (path);
  b->started = g_get_monotonic_time ();
  b->stall_id = g_timeout_add (100, screenshot_poll, b);
}

/* ------------------------------------------------------------------ */
/* --benchmark                                                        */
/* ------------------------------------------------------------------ */

static int
compare_gint64 (gconstpointer a,
                gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;
  return (x > y) - (x < y);
}

static double
percentile_ms (GArray *v,
               double  p)
{
  if (v->len == 0)
    return 0;
  return g_array_index (v, gint64, MIN (v->len - 1, (guint) (p * (v->len - 1) + 0.5))) / 1e3;
}

static void
on_update (GdkFrameClock *clock,
           Bench         *b)
{
  b->frame_start = g_get_monotonic_time ();
}

static void
on_after_paint (GdkFrameClock *clock,
                Bench         *b)
{
  gint64 now = g_get_monotonic_time ();

  if (b->first_frame == 0)
    b->first_frame = since_process_start ();
  if (b->measuring_since && b->frame_start)
    {
      gint64 work = now - b->frame_start;
      g_array_append_val (b->work, work);
      if (b->last_paint)
        {
          gint64 interval = now - b->last_paint;
          g_array_append_val (b->intervals, interval);
        }
    }
  b->last_paint = now;
  b->frame_start = 0;
}

static gboolean
on_stall_tick (gpointer data)
{
  Bench *b = data;
  gint64 now = g_get_monotonic_time ();

  if (b->measuring_since && b->last_tick)
    b->longest_stall = MAX (b->longest_stall, now - b->last_tick);
  b->last_tick = now;
  return G_SOURCE_CONTINUE;
}

static void
report (Bench *b)
{
  GtkWidget *view = gtk_stack_get_visible_child (b->window->view_stack);
  double seconds = (g_get_monotonic_time () - b->measuring_since) / 1e6;

  g_array_sort (b->work, compare_gint64);
  g_array_sort (b->intervals, compare_gint64);
  g_print ("warpscope benchmark: %s, %d×%d window, view %d×%d, renderer %s\n",
           b->window->device ? b->window->device->name : "no GPU (the sweep replays the recording)",
           gtk_widget_get_width (GTK_WIDGET (b->window)), gtk_widget_get_height (GTK_WIDGET (b->window)),
           gtk_widget_get_width (view), gtk_widget_get_height (view),
           g_getenv ("GSK_RENDERER") ? g_getenv ("GSK_RENDERER") : "default");
  g_print ("  first frame:               %.0f ms after the process started\n", b->first_frame / 1e3);
  g_print ("  frames painted:            %u in %.1f s (%.1f per second)\n", b->work->len, seconds,
           b->work->len / seconds);
  g_print ("  frame time (update→paint): p50 %.2f ms, p95 %.2f ms, p99 %.2f ms, max %.2f ms\n",
           percentile_ms (b->work, 0.5), percentile_ms (b->work, 0.95), percentile_ms (b->work, 0.99),
           percentile_ms (b->work, 1));
  g_print ("  between frames:            p50 %.2f ms, p99 %.2f ms, max %.2f ms\n", percentile_ms (b->intervals, 0.5),
           percentile_ms (b->intervals, 0.99), percentile_ms (b->intervals, 1));
  g_print ("  longest main-loop stall:   %.2f ms (a 1 ms timeout's longest wait, painting included)\n",
           b->longest_stall / 1e3);
  g_print ("  longest backend callback:  %.2f ms (progress, results and replayed points on the main thread)\n",
           b->window->longest_callback_us / 1e3);
  g_print ("  sweep points plotted:      %u\n", b->window->sweep_done);
  g_print ("  p99 frame time %s 16.7 ms\n", percentile_ms (b->work, 0.99) <= 16.7 ? "≤" : ">");
}

static gboolean
bench_step (gpointer data)
{
  Bench *b = data;
  gint64 now = g_get_monotonic_time ();

  if (b->measuring_since == 0)
    {
      if (!gtk_widget_get_mapped (GTK_WIDGET (b->window)) || !settled_or_late (b))
        return G_SOURCE_CONTINUE;
      /* the heaviest warp view: 32 lanes, 32 lines; the sweep beside it */
      ws_window_load_preset (b->window, "coalescing/strided-sweep");
      ws_pattern_editor_set_param (b->window->editor, "stride", 8);
      ws_schedule_player_set_speed (b->window->player, 8);
      ws_schedule_player_restart (b->window->player);
      b->window->longest_callback_us = 0;
      ws_window_start_sweep (b->window);
      b->measuring_since = now;
      return G_SOURCE_CONTINUE;
    }
  /* a sweep runs the whole time */
  if (!ws_window_is_sweeping (b->window))
    ws_window_start_sweep (b->window);
  if (now - b->measuring_since < BENCH_SECONDS * G_USEC_PER_SEC)
    return G_SOURCE_CONTINUE;
  report (b);
  quit (b);
  return G_SOURCE_REMOVE;
}

void
ws_benchmark_run (WsWindow *window)
{
  Bench *b = g_new0 (Bench, 1);

  b->window = g_object_ref (window);
  b->started = g_get_monotonic_time ();
  b->work = g_array_new (FALSE, FALSE, sizeof (gint64));
  b->intervals = g_array_new (FALSE, FALSE, sizeof (gint64));
  b->clock = gtk_widget_get_frame_clock (GTK_WIDGET (window));
  g_return_if_fail (b->clock != NULL);
  b->update_id = g_signal_connect (b->clock, "update", G_CALLBACK (on_update), b);
  b->after_paint_id = g_signal_connect (b->clock, "after-paint", G_CALLBACK (on_after_paint), b);
  b->stall_id = g_timeout_add_full (G_PRIORITY_HIGH, 1, on_stall_tick, b, NULL);
  g_timeout_add (50, bench_step, b);
}
