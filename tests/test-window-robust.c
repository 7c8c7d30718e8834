/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The window, under Xvfb, given what a file may hold: a GPU's name of ten
 * thousand characters (with no space, with spaces, with markup's
 * characters), a long warning and long counter names — the window keeps
 * its width, draws, and shows every page; files whose names and errors
 * look like markup (“R&D.json”, “<data>:1:2”) — the toast says them as
 * they are; and --screenshot waits for the toast and shows it. */
#include "window-fixture.h"
#include "ws-benchmark.h"

#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define WIDTH 1400
#define HEIGHT 900

static char *scratch;

/* ------------------------------------------------------------------ */
/* Recordings that hold long texts                                    */
/* ------------------------------------------------------------------ */

static char *
repeated (const char *piece,
          guint       chars)
{
  GString *s = g_string_new (NULL);
  glong n = g_utf8_strlen (piece, -1);

  for (glong have = 0; have < chars; have += n)
    g_string_append (s, piece);
  return g_string_free (s, FALSE);
}

/* The bundled recording's measurements, on a GPU of that name, each with a
 * long warning and a counter of a long name. */
static char *
recording_named (const char *file,
                 const char *name)
{
  g_autofree char *path = g_build_filename (scratch, file, NULL);
  g_autoptr (GFile) gfile = g_file_new_for_path (path);
  g_autoptr (WsRecording) bundled = ws_recording_load_bundled (NULL);
  g_autoptr (WsDeviceInfo) device = NULL;
  g_autoptr (WsRecording) r = NULL;
  g_autofree char *warning = repeated ("counters were not collected & <b>not</b> ", 3000);
  g_autofree char *pieces = repeated ("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.", 256);
  /* the longest a recording takes */
  g_autofree char *counter = g_strndup (pieces, 256);
  g_autoptr (GError) error = NULL;

  g_assert_nonnull (bundled);
  device = ws_device_info_copy (ws_recording_get_device (bundled));
  g_free (device->name);
  device->name = g_strdup (name);
  r = ws_recording_new (device);
  for (guint i = 0; i < ws_recording_get_n_measurements (bundled); i++)
    {
      g_autoptr (WsMeasurement) m = ws_measurement_copy (ws_recording_get_measurement (bundled, i));

      g_free (m->warning);
      m->warning = g_strdup (warning);
      ws_measurement_add_counter (m, counter, 42);
      ws_recording_add (r, m);
    }
  g_assert_true (ws_recording_save_file (r, gfile, NULL, &error));
  g_assert_no_error (error);
  return g_steal_pointer (&path);
}

static WsWindow *
window_on (const char *recording)
{
  g_autoptr (WsSession) session = ws_application_new_session (the_app, recording);
  WsWindow *window = ws_window_new (GTK_APPLICATION (the_app), session);

  gtk_window_set_default_size (GTK_WINDOW (window), WIDTH, HEIGHT);
  gtk_window_present (GTK_WINDOW (window));
  wait_settled (window);
  return window;
}

/* The window asks for no more than it was given, and has it. */
static void
assert_width_kept (WsWindow   *window,
                   const char *where)
{
  int minimum = 0, natural = 0;

  gtk_widget_measure (GTK_WIDGET (window), GTK_ORIENTATION_HORIZONTAL, -1, &minimum, &natural, NULL, NULL);
  g_test_message ("%s: the window is %d px wide, asks for at least %d", where,
                  gtk_widget_get_width (GTK_WIDGET (window)), minimum);
  g_assert_cmpint (minimum, <=, WIDTH);
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (window)), <=, WIDTH);
}

typedef struct
{
  const char *file;
  const char *piece;         /* repeated to 10 000 characters */
} LongName;

static const LongName long_names[] = {
  { "one-word.json", "X" },
  { "words.json", "NVIDIA H200 " },
  { "markup.json", "R&D <GPU> " },
  { "wide.json", "漢字" },
};

static void
test_long_names (gconstpointer data)
{
  const LongName *ln = data;
  g_autofree char *name = repeated (ln->piece, 10000);
  g_autofree char *path = recording_named (ln->file, name);
  g_autofree char *shot = g_strdup_printf ("robust-%s.png", ln->file);
  WsWindow *window;

  window = window_on (path);
  assert_width_kept (window, "the explorer");
  /* the plot draws the name cut short, and the banner says it too */
  g_assert_true (ws_banner_get_revealed (ws_window_get_banner (window)));
  g_assert_cmpuint (g_utf8_strlen (ws_banner_get_title (ws_window_get_banner (window)), -1), <=, WS_WINDOW_LINE_CHARS);
  save_screenshot (window, shot);
  g_assert_cmpfloat (widget_ink (GTK_WIDGET (plot_chart_view (window))), >, 0.02);

  g_assert_true (ws_window_show_view (window, "hierarchy"));
  wait_settled (window);
  assert_width_kept (window, "the hierarchy");

  ws_window_set_page (window, "compare");
  wait_settled (window);
  assert_width_kept (window, "the comparison");
  gtk_window_destroy (GTK_WINDOW (window));
}

/* ------------------------------------------------------------------ */
/* Toasts                                                             */
/* ------------------------------------------------------------------ */

/* What the window says before a file is opened: a toast after it is the file's. */
#define BEFORE "before the file"

static gboolean
toast_said (gpointer data)
{
  return g_strcmp0 (ws_window_get_last_toast (data), BEFORE) != 0;
}

/* The labels under widget, depth first. */
static void
collect_labels (GtkWidget *widget,
                GPtrArray *labels)
{
  if (GTK_IS_LABEL (widget))
    g_ptr_array_add (labels, widget);
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    collect_labels (c, labels);
}

static gboolean
toast_shown (gpointer data)
{
  WsWindow *window = data;
  g_autoptr (GPtrArray) labels = g_ptr_array_new ();

  collect_labels (GTK_WIDGET (window), labels);
  for (guint i = 0; i < labels->len; i++)
    if (g_strcmp0 (gtk_label_get_text (g_ptr_array_index (labels, i)), ws_window_get_last_toast (window)) == 0)
      return TRUE;
  return FALSE;
}

/* The toast on screen says what the window said, markup's characters and
 * all (a title taken as markup shows nothing at all). A toast takes the
 * place of the one before it at once. */
static void
assert_toast_shows (WsWindow *window)
{
  g_assert_true (wait_until (toast_shown, window, 15000));
}

typedef struct
{
  const char *file;
  const char *content;
  const char *says;          /* what the toast must hold besides the name */
} BadFile;

static const BadFile bad_files[] = {
  { "R&D.json", "{\"format\": \"warpscope-recording\", <oops>", "<data>:" },
  { "<b>bold<i>.json", "[1, 2", "<data>:" },
  { "a_b&amp;c.json", "{\"format\": \"x & y <z>\", \"version\": 1}", "x & y <z>" },
  { "big-version.json", "{\"format\": \"warpscope-recording\", \"version\": 99999999999999999999}",
    "99999999999999999999" },
};

static void
test_toast_markup (void)
{
  WsWindow *window = window_on (NULL);

  for (guint i = 0; i < G_N_ELEMENTS (bad_files); i++)
    {
      const BadFile *b = &bad_files[i];
      g_autofree char *path = g_build_filename (scratch, b->file, NULL);
      g_autoptr (GFile) file = g_file_new_for_path (path);
      GFile *files[] = { file };

      g_assert_true (g_file_set_contents (path, b->content, -1, NULL));
      ws_window_toast (window, BEFORE);
      g_assert_true (ws_window_open_files (window, files, 1));
      g_assert_true (wait_until (toast_said, window, 10000));
      g_test_message ("toast: %s", ws_window_get_last_toast (window));
      g_assert_true (g_str_has_prefix (ws_window_get_last_toast (window), "Could not open “"));
      g_assert_nonnull (strstr (ws_window_get_last_toast (window), b->file));
      g_assert_nonnull (strstr (ws_window_get_last_toast (window), b->says));
      wait_frames (window);
      assert_toast_shows (window);
    }
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A device, a pipe with no writer, a folder: refused at once, in a toast
 * that says what each is (/dev/zero was read until memory ran out). */
static void
test_special_files (void)
{
  WsWindow *window = window_on (NULL);
  g_autofree char *fifo = g_build_filename (scratch, "a-pipe.warpscope.json", NULL);
  const struct { const char *path; const char *says; } files[] = {
    { "/dev/zero", "is a device, not a file" },
    { fifo, "is a pipe, not a file" },
    { scratch, "is a folder" },
  };

  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autoptr (GFile) file = g_file_new_for_path (files[i].path);
      GFile *list[] = { file };

      ws_window_toast (window, BEFORE);
      g_assert_true (ws_window_open_files (window, list, 1));
      g_assert_true (wait_until (toast_said, window, 10000));
      g_test_message ("toast: %s", ws_window_get_last_toast (window));
      g_assert_nonnull (strstr (ws_window_get_last_toast (window), files[i].says));
    }
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A name that is not UTF-8, and a message of a megabyte: the toast says
 * them printable and cut short. */
static void
test_toast_bounded (void)
{
  WsWindow *window = window_on (NULL);
  g_autofree char *huge = repeated ("&<x>\n", 1 << 20);

  ws_window_toast (window, huge);
  g_assert_cmpuint (g_utf8_strlen (ws_window_get_last_toast (window), -1), <=, WS_WINDOW_LINE_CHARS + 1);
  g_assert_true (g_str_has_prefix (ws_window_get_last_toast (window), "&<x>\\n&<x>"));
  wait_frames (window);
  assert_toast_shows (window);
  assert_width_kept (window, "a long toast");
  gtk_window_destroy (GTK_WINDOW (window));
}

/* ------------------------------------------------------------------ */
/* --screenshot shows the toast                                       */
/* ------------------------------------------------------------------ */

/* The share of the pixels of a band across the bottom of the picture, in
 * its middle half, that are dark: a toast is a dark pill there, the light
 * window behind it is not. */
static double
dark_share_at_bottom (const char *png)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GdkTexture) texture = gdk_texture_new_from_filename (png, &error);
  g_autofree guint32 *pixels = NULL;
  int w, h;
  guint64 dark = 0, all = 0;

  g_assert_no_error (error);
  w = gdk_texture_get_width (texture);
  h = gdk_texture_get_height (texture);
  pixels = g_new (guint32, (gsize) w * h);
  gdk_texture_download (texture, (guchar *) pixels, w * 4);
  for (int y = h - 50; y < h - 25; y++)
    for (int x = w / 4; x < 3 * w / 4; x++)
      {
        guint32 p = pixels[(gsize) y * w + x];
        guint r = (p >> 16) & 0xff, g = (p >> 8) & 0xff, b = p & 0xff;

        dark += r + g + b < 3 * 96;
        all++;
      }
  return (double) dark / all;
}

static gboolean
file_exists (gpointer data)
{
  return g_file_test (data, G_FILE_TEST_EXISTS);
}

static void
test_screenshot_toast (void)
{
  g_autofree char *path = g_build_filename (scratch, "damaged.json", NULL);
  g_autofree char *with = screenshot_path ("robust-screenshot-toast.png");
  g_autofree char *without = screenshot_path ("robust-screenshot-no-toast.png");
  g_autoptr (GFile) file = g_file_new_for_path (path);
  GFile *files[] = { file };
  WsWindow *window;

  g_assert_true (g_file_set_contents (path, "{\"format\": \"warpscope-rec", -1, NULL));
  g_unlink (with);
  g_unlink (without);

  /* as --screenshot does: from the window's first moment */
  window = ws_window_new (GTK_APPLICATION (the_app), NULL);
  gtk_window_set_default_size (GTK_WINDOW (window), WIDTH, HEIGHT);
  gtk_window_present (GTK_WINDOW (window));
  ws_benchmark_screenshot (window, without);
  g_assert_true (wait_until (file_exists, without, 120000));

  window = ws_window_new (GTK_APPLICATION (the_app), NULL);
  gtk_window_set_default_size (GTK_WINDOW (window), WIDTH, HEIGHT);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (ws_window_open_files (window, files, 1));
  ws_benchmark_screenshot (window, with);
  g_assert_true (wait_until (file_exists, with, 120000));

  g_test_message ("dark at the bottom: %.2f with the toast, %.2f without",
                  dark_share_at_bottom (with), dark_share_at_bottom (without));
  g_assert_cmpfloat (dark_share_at_bottom (with), >, 0.5);
  g_assert_cmpfloat (dark_share_at_bottom (without), <, 0.2);
}

static void
add_tests (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (long_names); i++)
    {
      g_autofree char *name = g_strdup_printf ("/window-robust/long-name/%s", long_names[i].file);
      g_test_add_data_func (name, &long_names[i], test_long_names);
    }
  g_test_add_func ("/window-robust/toast/markup", test_toast_markup);
  g_test_add_func ("/window-robust/toast/bounded", test_toast_bounded);
  g_test_add_func ("/window-robust/toast/special-files", test_special_files);
  g_test_add_func ("/window-robust/screenshot/toast", test_screenshot_toast);
}

/* a toast is dark on the light style */
static void
add_tests_light (void)
{
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_FORCE_LIGHT);
  add_tests ();
}

int
main (int    argc,
      char **argv)
{
  int status;

  scratch = g_dir_make_tmp ("ws-window-robust-XXXXXX", NULL);
  status = window_test_run (&argc, &argv, add_tests_light);
  {
    const char *rm[] = { "rm", "-rf", scratch, NULL };
    g_autoptr (GSubprocess) p = g_subprocess_newv (rm, G_SUBPROCESS_FLAGS_NONE, NULL);
    g_subprocess_wait (p, NULL, NULL);
  }
  return status;
}
