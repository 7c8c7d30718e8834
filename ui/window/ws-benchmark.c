/* SPDX-License-Identifier: GPL-3.0-or-later */
/* warpscope --benchmark and --screenshot: the program watching itself. */
#include "ws-benchmark.h"
#include "ws-window-private.h"

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* the model of a sweep at the kernels' own sizes (a launch of 32 Mi threads
 * a point) takes seconds on a laptop, more on a busy one */
#define SETTLE_TIMEOUT_US (30 * G_USEC_PER_SEC)
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
  gulong layout_id;
  gulong paint_id;
  gint64 layout_done;        /* when GTK's layout of the frame had ended */
  gint64 layout_cpu;         /* the main thread's CPU time then */
  gint64 paint_done;         /* when GTK's snapshot and render had ended */
  GArray *phases[4];         /* µs of each frame: update and layout, snapshot and render, the rest;
                              * and the main thread's CPU in update and layout */
  gint64 frame_start;
  gint64 frame_cpu_start;    /* µs of the main thread's CPU time */
  GArray *cpu;               /* µs of CPU the main thread spent on a frame */
  gint64 last_paint;
  GArray *work;              /* µs from a frame's update to its painting done */
  GArray *intervals;         /* µs between painted frames */
  gint64 longest_stall;      /* µs between two runs of a 1 ms timeout */
  gint64 last_tick;
  guint stall_id;
  gint64 first_frame;
  gint64 measuring_since;
  char load[32];             /* /proc/loadavg's first figure, when measuring ends */
  guint phase;               /* 0 starting, 1 loading the preset, 2 measuring */
  guint points;              /* sweep points plotted while measuring */
  guint last_done;
} Bench;

static void
bench_free (Bench *b)
{
  if (b->clock)
    {
      g_clear_signal_handler (&b->update_id, b->clock);
      g_clear_signal_handler (&b->layout_id, b->clock);
      g_clear_signal_handler (&b->paint_id, b->clock);
      g_clear_signal_handler (&b->after_paint_id, b->clock);
    }
  g_clear_handle_id (&b->stall_id, g_source_remove);
  g_clear_pointer (&b->work, g_array_unref);
  g_clear_pointer (&b->intervals, g_array_unref);
  for (guint i = 0; i < G_N_ELEMENTS (b->phases); i++)
    g_clear_pointer (&b->phases[i], g_array_unref);
  g_clear_pointer (&b->cpu, g_array_unref);
  g_free (b->path);
  g_object_unref (b->window);
  g_free (b);
}

static void
quit (Bench *b)
{
  g_autoptr (WsWindow) window = g_object_ref (b->window);
  GApplication *app = G_APPLICATION (gtk_window_get_application (GTK_WINDOW (window)));

  /* let go of the frame clock before the window takes it away */
  bench_free (b);
  gtk_window_destroy (GTK_WINDOW (window));
  if (app)
    g_application_quit (app);
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

  /* a toast that says what went wrong is part of the picture, all of it */
  if (!gtk_widget_get_mapped (GTK_WIDGET (b->window)) || !settled_or_late (b) ||
      ws_window_toast_settling (b->window))
    return G_SOURCE_CONTINUE;
  b->stall_id = 0;
  /* the whole picture: every step served */
  ws_schedule_player_set_playing (ws_window_active_player (b->window), FALSE);
  ws_schedule_player_set_position (ws_window_active_player (b->window),
                                   ws_schedule_player_get_n_steps (ws_window_active_player (b->window)));
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
  ws_window_keep_toasts (window);
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

static gint64
thread_cpu_us (void)
{
  struct timespec t;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &t);
  return (gint64) t.tv_sec * G_USEC_PER_SEC + t.tv_nsec / 1000;
}

static void
on_update (GdkFrameClock *clock,
           Bench         *b)
{
  b->frame_start = g_get_monotonic_time ();
  b->frame_cpu_start = thread_cpu_us ();
}

/* Connected after GTK's own handlers, so these run as its layout and its
 * painting (snapshot and render) end. */
static void
on_layout (GdkFrameClock *clock,
           Bench         *b)
{
  b->layout_done = g_get_monotonic_time ();
  b->layout_cpu = thread_cpu_us ();
}

static void
on_paint (GdkFrameClock *clock,
          Bench         *b)
{
  b->paint_done = g_get_monotonic_time ();
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
      gint64 cpu = thread_cpu_us () - b->frame_cpu_start;
      g_array_append_val (b->work, work);
      g_array_append_val (b->cpu, cpu);
      if (b->layout_done >= b->frame_start && b->paint_done >= b->layout_done)
        {
          gint64 phase[4] = { b->layout_done - b->frame_start, b->paint_done - b->layout_done, now - b->paint_done,
                              b->layout_cpu - b->frame_cpu_start };
          for (guint i = 0; i < G_N_ELEMENTS (phase); i++)
            g_array_append_val (b->phases[i], phase[i]);
        }
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
  GtkWidget *view = gtk_stack_get_visible_child (explore_views (b->window));
  double seconds = (g_get_monotonic_time () - b->measuring_since) / 1e6;
  const WsDeviceInfo *device = ws_session_get_device (b->window->session);
  WsRecording *recording = ws_session_get_recording (b->window->session);

  g_array_sort (b->work, compare_gint64);
  g_array_sort (b->intervals, compare_gint64);
  g_array_sort (b->cpu, compare_gint64);
  for (guint i = 0; i < G_N_ELEMENTS (b->phases); i++)
    g_array_sort (b->phases[i], compare_gint64);
  g_print ("warpscope benchmark: %s, %d×%d window, view %d×%d, renderer %s\n",
           device ? device->name : "no GPU (the sweep replays the recording)",
           gtk_widget_get_width (GTK_WIDGET (b->window)), gtk_widget_get_height (GTK_WIDGET (b->window)),
           gtk_widget_get_width (view), gtk_widget_get_height (view),
           g_getenv ("GSK_RENDERER") ? g_getenv ("GSK_RENDERER") : "default");
  g_print ("  first frame:               %.0f ms after the process started\n", b->first_frame / 1e3);
  g_print ("  frames painted:            %u in %.1f s (%.1f per second)\n", b->work->len, seconds,
           b->work->len / seconds);
  g_print ("  frame time (update→paint): p50 %.2f ms, p95 %.2f ms, p99 %.2f ms, max %.2f ms\n",
           percentile_ms (b->work, 0.5), percentile_ms (b->work, 0.95), percentile_ms (b->work, 0.99),
           percentile_ms (b->work, 1));
  for (guint i = 0; i < G_N_ELEMENTS (b->phases); i++)
    {
      static const char *const names[] = { "    update and layout:       ", "    snapshot and render:     ",
                                            "    after painting:          ", "    CPU in update and layout:" };
      g_print ("%sp50 %.2f ms, p95 %.2f ms, p99 %.2f ms, max %.2f ms\n", names[i], percentile_ms (b->phases[i], 0.5),
               percentile_ms (b->phases[i], 0.95), percentile_ms (b->phases[i], 0.99), percentile_ms (b->phases[i], 1));
    }
  g_print ("  main thread CPU per frame: p50 %.2f ms, p95 %.2f ms, p99 %.2f ms, max %.2f ms\n",
           percentile_ms (b->cpu, 0.5), percentile_ms (b->cpu, 0.95), percentile_ms (b->cpu, 0.99),
           percentile_ms (b->cpu, 1));
  g_print ("  machine load (1 min):      %s\n", b->load);
  g_print ("  between frames:            p50 %.2f ms, p99 %.2f ms, max %.2f ms\n", percentile_ms (b->intervals, 0.5),
           percentile_ms (b->intervals, 0.99), percentile_ms (b->intervals, 1));
  g_print ("  longest main-loop stall:   %.2f ms (a 1 ms timeout's longest wait, painting included)\n",
           b->longest_stall / 1e3);
  g_print ("  longest backend callback:  %.2f ms (progress, results and replayed points on the main thread)\n",
           MAX (MAX (b->window->longest_callback_us, ws_compare_page_take_longest_callback (b->window->compare_page)),
                ws_explore_page_take_longest_callback (b->window->explore_page)) / 1e3);
  g_print ("  sweeps:                    %u points plotted from %s\n", b->points,
           device ? "the GPU" : ws_recording_get_device (recording)->name);
  g_print ("  p99 frame time %s 16.7 ms\n", percentile_ms (b->work, 0.99) <= 16.7 ? "≤" : ">");
}

/* Without a GPU or a recording there is nothing to sweep; the benchmark
 * then replays made-up points, named as such, so that its figures still
 * come from a window with a sweep running. */
static void
ensure_something_to_sweep (WsWindow *window)
{
  g_autoptr (WsDeviceInfo) device = NULL;
  g_autoptr (WsRecording) recording = NULL;
  const WsPreset *preset = ws_preset_lookup ("coalescing/strided-sweep");
  g_autoptr (GArray) values = ws_sweep_values_parse (preset->sweep_values, NULL);

  if (ws_session_get_device (window->session) || ws_session_get_recording (window->session))
    return;
  device = ws_device_info_new ();
  device->name = g_strdup ("made-up points (benchmark only)");
  recording = ws_recording_new (device);
  for (guint i = 0; i < values->len; i++)
    {
      g_autoptr (WsMeasurement) m = ws_measurement_new (preset->id);
      gint64 stride = g_array_index (values, gint64, i);

      ws_measurement_set_param (m, "stride", stride);
      for (guint s = 0; s < 10; s++)
        ws_measurement_add_sample (m, 0.1 * MIN (stride, 8) * (1 + 0.01 * s));
      ws_measurement_summarize (m);
      ws_recording_add (recording, m);
    }
  ws_session_set_recording (window->session, recording, NULL);
}

static gboolean
bench_step (gpointer data)
{
  Bench *b = data;
  gint64 now = g_get_monotonic_time ();

  if (b->phase == 0)
    {
      if (!gtk_widget_get_mapped (GTK_WIDGET (b->window)) || !settled_or_late (b))
        return G_SOURCE_CONTINUE;
      /* the heaviest warp view: 32 lanes, 32 lines; the sweep beside it */
      ensure_something_to_sweep (b->window);
      ws_window_load_preset (b->window, "coalescing/strided-sweep");
      ws_pattern_editor_set_param (explore_editor (b->window), "stride", 8);
      ws_schedule_player_set_speed (explore_player (b->window), 8);
      ws_schedule_player_restart (explore_player (b->window));
      b->started = now;
      b->phase = 1;
      return G_SOURCE_CONTINUE;
    }
  if (b->phase == 1)
    {
      /* the model of the new launch is done: what is measured is the sweep */
      if (!settled_or_late (b))
        return G_SOURCE_CONTINUE;
      b->window->longest_callback_us = 0;
      ws_compare_page_take_longest_callback (b->window->compare_page);
      ws_explore_page_take_longest_callback (b->window->explore_page);
      ws_window_start_sweep (b->window);
      b->measuring_since = now;
      b->phase = 2;
      return G_SOURCE_CONTINUE;
    }
  /* a sweep runs the whole time */
  {
    WsSweep *sweep = ws_session_get_sweep (b->window->session);
    guint done = sweep ? ws_sweep_get_done (sweep) : 0;

    if (done != b->last_done)
      b->points += done > b->last_done ? done - b->last_done : done;
    b->last_done = done;
  }
  if (!ws_window_is_sweeping (b->window))
    {
      ws_window_start_sweep (b->window);
      b->last_done = 0;
    }
  if (now - b->measuring_since < BENCH_SECONDS * G_USEC_PER_SEC)
    return G_SOURCE_CONTINUE;
  {
    g_autofree char *loadavg = NULL;
    if (g_file_get_contents ("/proc/loadavg", &loadavg, NULL, NULL))
      g_strlcpy (b->load, loadavg, strcspn (loadavg, " ") + 1);
  }
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
  b->cpu = g_array_new (FALSE, FALSE, sizeof (gint64));
  for (guint i = 0; i < G_N_ELEMENTS (b->phases); i++)
    b->phases[i] = g_array_new (FALSE, FALSE, sizeof (gint64));
  b->clock = gtk_widget_get_frame_clock (GTK_WIDGET (window));
  g_return_if_fail (b->clock != NULL);
  b->update_id = g_signal_connect (b->clock, "update", G_CALLBACK (on_update), b);
  b->layout_id = g_signal_connect (b->clock, "layout", G_CALLBACK (on_layout), b);
  b->paint_id = g_signal_connect (b->clock, "paint", G_CALLBACK (on_paint), b);
  b->after_paint_id = g_signal_connect (b->clock, "after-paint", G_CALLBACK (on_after_paint), b);
  b->stall_id = g_timeout_add_full (G_PRIORITY_HIGH, 1, on_stall_tick, b, NULL);
  g_timeout_add (50, bench_step, b);
}
