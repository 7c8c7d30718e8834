/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The window's Kernel page, for real under Xvfb: a course kernel opened as
 * `warpscope FILE.cu` opens it, the lane view of the line the cursor is on
 * and its sentence, a padding typed in and the bank conflicts gone, the
 * text saved and read back, the listing exported; on a GPU, measured, the
 * gutter filled with the hardware's figures, and timed beside presets on
 * the compare page. Screenshots, light and dark,
 * in screenshots/ of the build. */
#include "window-fixture.h"
#include "ws-kernel-editor-private.h"
#include "ws-kernel-gutter.h"
#include "ws-preset-kernels.h"
#include "ws-pattern-kernel.h"

#include <glib/gstdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define TILE_READ_LINE 80         /* odata[…] = tile[threadIdx.x][threadIdx.y + j]; of transposeCoalesced */
#define TILE_LINE 65              /* its __shared__ float tile[TILE_DIM][TILE_DIM]; */

static char *
transpose_path (void)
{
  return g_test_build_filename (G_TEST_DIST, "data", "kernels", "transpose.cu", NULL);
}

static gboolean
page_settled (gpointer data)
{
  WsKernelPage *page = data;

  return ws_kernel_page_is_settled (page) && ws_kernel_modeller_get_instance (ws_kernel_page_get_modeller (page));
}

static gboolean
text_loaded (gpointer data)
{
  WsKernelPage *page = data;
  g_autofree char *text = ws_kernel_editor_get_text (ws_kernel_page_get_editor (page));

  return ws_kernel_editor_get_file (ws_kernel_page_get_editor (page)) != NULL && strstr (text, "transposeCoalesced");
}

/* The line's shared-memory instruction in the view: its result. */
static const WsWarpResult *
show_shared_site (WsKernelPage *page)
{
  WsKernelModeller *m = ws_kernel_page_get_modeller (page);

  for (guint i = 0; i < ws_kernel_modeller_get_n_warps (m); i++)
    {
      const WsWarpResult *r;

      ws_kernel_page_set_site (page, i);
      r = ws_figure_view_get_result (ws_kernel_page_get_figure (page));
      if (r && r->space == WS_SPACE_SHARED)
        return r;
    }
  return NULL;
}

static gboolean
saved (gpointer data)
{
  return !ws_kernel_editor_get_modified (data);
}

static void
on_saved (GObject      *source,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr (GError) error = NULL;

  g_assert_true (ws_kernel_editor_save_finish (WS_KERNEL_EDITOR (source), result, &error));
  g_assert_no_error (error);
  *(gboolean *) user_data = TRUE;
}

static gboolean
flag_set (gpointer data)
{
  return *(gboolean *) data;
}

static void
test_transpose (Fixture       *f,
                gconstpointer  data)
{
  WsWindow *w = f->window;
  WsKernelPage *page = ws_window_get_kernel_page (w);
  WsKernelEditor *editor = ws_kernel_page_get_editor (page);
  g_autofree char *path = transpose_path ();
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autofree char *original = NULL;
  g_autofree char *text = NULL;
  g_autofree char *saved_path = g_strdup_printf ("%s/warpscope-test-kernel-page-%d.cu", g_get_tmp_dir (),
                                                 (int) getpid ());
  g_autofree char *listing_path = g_strdup_printf ("%s/warpscope-test-kernel-page-%d.png", g_get_tmp_dir (),
                                                   (int) getpid ());
  g_autofree char *read_back = NULL;
  g_autofree char *format_name = NULL;
  g_autoptr (GFile) saved_file = g_file_new_for_path (saved_path);
  g_autoptr (GError) error = NULL;
  g_autoptr (GdkPixbuf) pixbuf = NULL;
  GtkTextBuffer *buffer;
  GtkTextIter iter;
  const WsWarpResult *r;
  const char *caption;
  gboolean done = FALSE;
  GdkPixbufFormat *format;

  g_assert_true (g_file_get_contents (path, &original, NULL, NULL));

  /* as `warpscope transpose.cu` does: the application's open */
  g_application_open (G_APPLICATION (the_app), &file, 1, "");
  g_assert_true (wait_until (text_loaded, page, 10000));
  g_assert_cmpstr (ws_window_get_page (w), ==, "kernel");
  g_assert_cmpstr (ws_kernel_editor_get_title (editor), ==, "transpose.cu");
  g_assert_false (ws_kernel_editor_get_modified (editor));
  /* the window's subtitle names what the page in view shows: the file
   * here (it named the Explore page's preset on every page) */
  g_assert_true (g_str_has_prefix (ws_window_get_subtitle (w), "transpose.cu · "));
  ws_window_set_page (w, "explore");
  g_assert_null (strstr (ws_window_get_subtitle (w), "transpose.cu"));
  ws_window_set_page (w, "kernel");
  g_assert_true (g_str_has_prefix (ws_window_get_subtitle (w), "transpose.cu · "));
  /* the cursor on the file's first line, a comment: the page says where the
   * kernel's first access is, and its link puts the cursor there */
  g_assert_true (wait_until (page_settled, page, 30000));
  {
    GtkLabel *message = ws_kernel_page_get_message (page);
    const char *said = gtk_label_get_text (message);
    const char *at = strstr (said, "The kernel's first is on line ");
    guint first;
    gboolean handled = FALSE;
    g_autofree char *uri = NULL;

    g_assert_cmpuint (ws_kernel_editor_get_cursor_line (editor), ==, 1);
    g_assert_nonnull (at);
    first = (guint) atoi (at + strlen ("The kernel's first is on line "));
    g_assert_cmpuint (first, >, 1);
    uri = g_strdup_printf ("line:%u", first);
    g_signal_emit_by_name (message, "activate-link", uri, &handled);
    g_assert_true (handled);
    g_assert_cmpuint (ws_kernel_editor_get_cursor_line (editor), ==, first);
    g_assert_true (wait_until (page_settled, page, 30000));
    g_assert_cmpuint (ws_kernel_modeller_get_n_warps (ws_kernel_page_get_modeller (page)), >, 0);
  }

  /* the cursor on the tile's read: 32 lanes down one column of a 32-word row */
  ws_kernel_editor_place_cursor (editor, TILE_READ_LINE, 1);
  g_assert_true (wait_until (page_settled, page, 30000));
  g_assert_cmpuint (ws_kernel_modeller_get_line (ws_kernel_page_get_modeller (page)), ==, TILE_READ_LINE);
  g_assert_cmpuint (ws_kernel_modeller_get_n_warps (ws_kernel_page_get_modeller (page)), ==, 2);
  r = show_shared_site (page);
  g_assert_nonnull (r);
  g_assert_cmpuint (r->counts.wavefronts, ==, 32);
  g_assert_cmpuint (r->counts.ideal_wavefronts, ==, 1);
  caption = ws_kernel_page_get_caption (page);
  g_assert_nonnull (strstr (caption, "32-way bank conflict"));
  g_assert_nonnull (strstr (caption, "32 wavefronts"));
  g_test_message ("caption: %s", caption);
  /* the schedule is a still of all 32 steps until played, and the
   * window's keys step it here as on the Explore page */
  {
    WsSchedulePlayer *player = ws_kernel_page_get_player (page);
    GtkWidget *view = gtk_stack_get_visible_child (GTK_STACK (gtk_widget_get_parent (
      GTK_WIDGET (ws_kernel_page_get_figure (page)))));
    double position = -1;

    g_assert_cmpuint (ws_schedule_player_get_n_steps (player), ==, 32);
    g_assert_cmpfloat (ws_schedule_player_get_position (player), ==, 32);
    g_assert_false (ws_schedule_player_get_playing (player));
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (w), "win.step-back", NULL));
    g_assert_cmpfloat (ws_schedule_player_get_position (player), ==, 31);
    g_object_get (view, "position", &position, NULL);
    g_assert_cmpfloat (position, ==, 31);
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (w), "win.restart", NULL));
    g_assert_cmpfloat (ws_schedule_player_get_position (player), ==, 0);
    g_object_set (w, "playing", TRUE, NULL);
    g_assert_true (ws_schedule_player_get_playing (player));
    g_object_set (w, "playing", FALSE, NULL);
    g_assert_false (ws_schedule_player_get_playing (player));
    /* the Explore page's player is not the one that moved */
    g_assert_true (ws_window_active_player (w) == player);
    ws_schedule_player_set_position (player, 32);
  }
  /* the gutter has the launch's figures */
  g_assert_nonnull (ws_kernel_editor_get_lines (editor));
  /* the page laid out now, the line in sight for the screenshots */
  wait_frames (w);
  ws_kernel_editor_place_cursor (editor, TILE_READ_LINE, 5);
  wait_frames (w);
  ws_kernel_editor_place_cursor (editor, TILE_READ_LINE, 1);
  wait_frames (w);
  g_assert_cmpfloat (widget_ink (GTK_WIDGET (ws_kernel_page_get_figure (page))), >, 0.05);
  {
    /* the line is longer than the text's room beside the figures: it wraps,
     * its end in sight, not under the figures or past the view */
    GtkTextView *view = GTK_TEXT_VIEW (ws_kernel_editor_get_view (editor));
    GtkTextIter end;
    GdkRectangle at, visible;

    gtk_text_buffer_get_iter_at_line (gtk_text_view_get_buffer (view), &end, TILE_READ_LINE - 1);
    gtk_text_iter_forward_to_line_end (&end);
    gtk_text_view_get_iter_location (view, &end, &at);
    gtk_text_view_get_visible_rect (view, &visible);
    g_assert_cmpint (at.x + at.width, <=, visible.x + visible.width);
  }
  save_screenshot (w, "kernel-page-conflicts.png");
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_FORCE_DARK);
  save_screenshot (w, "kernel-page-conflicts-dark.png");
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_FORCE_LIGHT);

  /* a padding typed in: one word more per row and the column spreads over the banks */
  buffer = GTK_TEXT_BUFFER (ws_kernel_editor_get_buffer (editor));
  gtk_text_buffer_get_iter_at_line (buffer, &iter, TILE_LINE - 1);
  g_assert_true (gtk_text_iter_forward_search (&iter, "[TILE_DIM];", 0, NULL, &iter, NULL));
  gtk_text_iter_backward_chars (&iter, 2);
  gtk_text_buffer_insert (buffer, &iter, "+1", -1);
  g_assert_true (ws_kernel_editor_get_modified (editor));
  g_assert_true (wait_until (page_settled, page, 30000));
  g_assert_cmpuint (ws_kernel_editor_get_cursor_line (editor), ==, TILE_READ_LINE);
  r = show_shared_site (page);
  g_assert_nonnull (r);
  g_assert_cmpuint (r->counts.wavefronts, ==, 1);
  caption = ws_kernel_page_get_caption (page);
  g_assert_nonnull (strstr (caption, "No bank conflict"));
  g_test_message ("caption: %s", caption);
  save_screenshot (w, "kernel-page-padded.png");
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_FORCE_DARK);
  save_screenshot (w, "kernel-page-padded-dark.png");
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_FORCE_LIGHT);

  /* saved and read back: the same text, the padding in it */
  text = ws_kernel_editor_get_text (editor);
  g_assert_nonnull (strstr (text, "tile[TILE_DIM][TILE_DIM+1];\n\n  int x"));
  ws_kernel_editor_save_async (editor, saved_file, NULL, on_saved, &done);
  g_assert_true (wait_until (flag_set, &done, 10000));
  g_assert_true (wait_until (saved, editor, 10000));
  g_assert_true (g_file_get_contents (saved_path, &read_back, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (read_back, ==, text);

  /* the window's export on this page is the listing */
  g_assert_true (ws_window_export (w, WS_WINDOW_EXPORT_FIGURE, listing_path, 1, &error));
  g_assert_no_error (error);
  g_assert_true (ws_kernel_page_export (page, listing_path, WS_EXPORT_PNG, 1280, 720, 1,
                                        ws_figure_style_get (WS_FIGURE_STYLE_LIGHT), &error));
  g_assert_no_error (error);
  pixbuf = gdk_pixbuf_new_from_file (listing_path, &error);
  g_assert_no_error (error);
  format = gdk_pixbuf_get_file_info (listing_path, NULL, NULL);
  format_name = gdk_pixbuf_format_get_name (format);
  g_assert_cmpstr (format_name, ==, "png");
  g_assert_cmpint (gdk_pixbuf_get_width (pixbuf), ==, 1280);
  g_assert_cmpint (gdk_pixbuf_get_height (pixbuf), ==, 720);
  g_unlink (listing_path);

  /* no chart on this page: Ctrl+Shift+E writes none of the other pages' */
  g_assert_false (ws_window_export (w, WS_WINDOW_EXPORT_PLOT, listing_path, 1, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED);
  g_assert_nonnull (strstr (error->message, "Kernel page has no chart"));
  g_assert_false (g_file_test (listing_path, G_FILE_TEST_EXISTS));
  g_clear_error (&error);
  g_unlink (saved_path);
}

/* Without a GPU the Measure button says why it cannot. */
static void
test_no_gpu (Fixture       *f,
             gconstpointer  data)
{
  WsKernelPage *page = ws_window_get_kernel_page (f->window);
  GtkWidget *button = NULL;
  g_autoptr (GPtrArray) stack = g_ptr_array_new ();

  if (ws_session_get_device (ws_window_get_session (f->window)))
    {
      g_test_skip ("there is a GPU here");
      return;
    }
  /* the page's Measure button, found by its label */
  g_ptr_array_add (stack, page);
  while (stack->len > 0 && button == NULL)
    {
      GtkWidget *wdg = g_ptr_array_steal_index (stack, stack->len - 1);

      if (GTK_IS_BUTTON (wdg) && g_strcmp0 (gtk_button_get_label (GTK_BUTTON (wdg)), "_Measure") == 0)
        button = wdg;
      for (GtkWidget *c = gtk_widget_get_first_child (wdg); c; c = gtk_widget_get_next_sibling (c))
        g_ptr_array_add (stack, c);
    }
  g_assert_nonnull (button);
  g_assert_false (gtk_widget_get_sensitive (button));
  g_assert_true (g_str_has_prefix (gtk_widget_get_tooltip_text (button), "No GPU to measure on: "));
}

/* The question about unsaved changes, once it is up. */
static gboolean
question_up (gpointer data)
{
  AdwMessageDialog **found = data;
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr (GtkWindow) t = g_list_model_get_item (toplevels, i);

      if (ADW_IS_MESSAGE_DIALOG (t) && gtk_widget_get_visible (GTK_WIDGET (t)))
        {
          *found = ADW_MESSAGE_DIALOG (t);
          return TRUE;
        }
    }
  return FALSE;
}

static gboolean
question_gone (gpointer data)
{
  AdwMessageDialog *dialog = NULL;

  return !question_up (&dialog);
}

static gboolean
text_has (gpointer data)
{
  const char **what = data;
  g_autofree char *text = ws_kernel_editor_get_text (WS_KERNEL_EDITOR ((gpointer) what[0]));

  return strstr (text, what[1]) != NULL;
}

static gboolean
text_lacks (gpointer data)
{
  return !text_has (data);
}

/* The button of a window labelled label, or NULL. */
static GtkWidget *
button_labelled (GtkWidget  *top,
                 const char *label)
{
  g_autoptr (GPtrArray) stack = g_ptr_array_new ();

  g_ptr_array_add (stack, top);
  while (stack->len > 0)
    {
      GtkWidget *wdg = g_ptr_array_steal_index (stack, stack->len - 1);

      if (GTK_IS_BUTTON (wdg) && g_strcmp0 (gtk_button_get_label (GTK_BUTTON (wdg)), label) == 0)
        return wdg;
      for (GtkWidget *c = gtk_widget_get_first_child (wdg); c; c = gtk_widget_get_next_sibling (c))
        g_ptr_array_add (stack, c);
    }
  return NULL;
}

/* Answers the question about unsaved changes with the button labelled
 * label, as a click does. */
static void
answer (const char *label)
{
  AdwMessageDialog *dialog = NULL;
  GtkWidget *button;

  g_assert_true (wait_until (question_up, &dialog, 10000));
  g_assert_nonnull (strstr (adw_message_dialog_get_heading (dialog), "Save"));
  button = button_labelled (GTK_WIDGET (dialog), label);
  g_assert_nonnull (button);
  g_signal_emit_by_name (button, "clicked");
  g_assert_true (wait_until (question_gone, NULL, 10000));
}

/* New Kernel from Example gives a copy to edit (no file behind it); New
 * Kernel and closing the window ask before unsaved changes go, and keep
 * them when told to. */
static void
test_new_and_close (Fixture       *f,
                    gconstpointer  data)
{
  WsWindow *w = f->window;
  WsKernelEditor *editor = ws_kernel_page_get_editor (ws_window_get_kernel_page (w));
  g_auto (GStrv) examples = ws_kernel_page_list_examples ();
  g_autofree char *example = NULL;
  const char *mine[] = { (const char *) editor, "// my change" };
  const char *first_line[2] = { (const char *) editor, NULL };
  GtkTextBuffer *buffer = GTK_TEXT_BUFFER (ws_kernel_editor_get_buffer (editor));
  GtkTextIter start;

  g_assert_nonnull (examples[0]);
  g_assert_true (g_file_get_contents (examples[0], &example, NULL, NULL));
  *strchr (example, '\n') = '\0';
  first_line[1] = example;

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (w), "win.new-kernel-from", "s", examples[0]));
  g_assert_true (wait_until (text_has, first_line, 10000));
  g_assert_cmpstr (ws_window_get_page (w), ==, "kernel");
  g_assert_null (ws_kernel_editor_get_file (editor));
  g_assert_true (ws_kernel_editor_get_modified (editor));

  /* changed, then New Kernel: asked; Cancel keeps the change */
  gtk_text_buffer_get_start_iter (buffer, &start);
  gtk_text_buffer_insert (buffer, &start, "// my change\n", -1);
  g_assert_true (ws_kernel_editor_get_modified (editor));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (w), "win.new-kernel", NULL));
  answer ("_Cancel");
  g_assert_true (text_has (mine));
  g_assert_true (ws_kernel_editor_get_modified (editor));

  /* closing the window: asked, and Cancel keeps it open with the change */
  gtk_window_close (GTK_WINDOW (w));
  answer ("_Cancel");
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (w)));
  g_assert_true (text_has (mine));

  /* New Kernel again, Discard: the blank kernel, the change gone, and
   * nothing to ask about on closing */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (w), "win.new-kernel", NULL));
  answer ("_Discard");
  g_assert_true (wait_until (text_lacks, mine, 10000));
  g_assert_false (text_has (first_line));
  g_assert_false (ws_kernel_editor_get_modified (editor));
}

static gboolean
text_is (gpointer data)
{
  const char **want = data;
  g_autofree char *text = ws_kernel_editor_get_text (WS_KERNEL_EDITOR ((gpointer) want[0]));

  return g_strcmp0 (text, want[1]) == 0;
}

/* The model's figures of a line are in the gutter. */
static gboolean
gutter_has_line (gpointer data)
{
  const guint *line = g_object_get_data (data, "line");
  g_autofree char *text = ws_kernel_gutter_text_at (WS_KERNEL_GUTTER (WS_KERNEL_EDITOR (data)->model_gutter), *line);

  return text != NULL && *text != '\0';
}

static GtkWindow *
chooser_shown (void)
{
  GListModel *windows = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (windows); i++)
    {
      /* the list keeps the window */
      g_autoptr (GtkWindow) win = g_list_model_get_item (windows, i);

      if (g_strcmp0 (gtk_widget_get_name (GTK_WIDGET (win)), "preset-kernel-chooser") == 0)
        return win;
    }
  return NULL;
}

static gboolean
chooser_up (gpointer data)
{
  return chooser_shown () != NULL;
}

/* The chooser's row of preset id. */
static GtkWidget *
chooser_row (GtkWidget  *widget,
             const char *id)
{
  if (g_strcmp0 (g_object_get_data (G_OBJECT (widget), "preset-id"), id) == 0)
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = chooser_row (c, id);

      if (found)
        return found;
    }
  return NULL;
}

/* A window of its own (a dialog) as it is drawn now, to PNG. */
static void
save_dialog_screenshot (GtkWindow  *dialog,
                        const char *name)
{
  g_autofree char *path = screenshot_path (name);
  g_autoptr (GdkPaintable) paintable = gtk_widget_paintable_new (GTK_WIDGET (dialog));
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  int width = gtk_widget_get_width (GTK_WIDGET (dialog)), height = gtk_widget_get_height (GTK_WIDGET (dialog));
  g_autoptr (GskRenderNode) node = NULL;
  g_autoptr (GdkTexture) texture = NULL;

  gdk_paintable_snapshot (paintable, snapshot, width, height);
  node = gtk_snapshot_free_to_node (snapshot);
  g_assert_nonnull (node);
  texture = gsk_renderer_render_texture (gtk_native_get_renderer (GTK_NATIVE (dialog)), node,
                                         &GRAPHENE_RECT_INIT (0, 0, width, height));
  g_assert_true (gdk_texture_save_to_png (texture, path));
  g_test_message ("screenshot: %s", path);
}

/* A preset's kernel as a copy: the Explore page's button opens the file's
 * text on the Kernel page, unsaved, named after the preset, and modelled
 * (the gutter has its figures); a preset without a kernel text leaves the
 * button insensitive, saying why; New Kernel from Preset… lists both, and
 * a row opens its copy. Screenshots, light and dark. */
static void
test_preset_copy (Fixture       *f,
                  gconstpointer  data)
{
  WsWindow *w = f->window;
  WsKernelPage *page = ws_window_get_kernel_page (w);
  WsKernelEditor *editor = ws_kernel_page_get_editor (page);
  g_autofree char *path = ws_preset_kernel_path ("transpose/shared");
  g_autofree char *text = NULL;
  g_autofree char *figures = NULL;
  const char *want[2] = { (const char *) editor, NULL };
  const char *tooltip;
  guint line = 0;
  GtkWindow *chooser;
  GtkWidget *row;

  g_assert_nonnull (path);
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  want[1] = text;
  /* the line of the tile's column read */
  {
    g_auto (GStrv) lines = g_strsplit (text, "\n", -1);

    for (guint i = 0; lines[i]; i++)
      if (strstr (lines[i], "= tile[threadIdx.x][threadIdx.y + j];"))
        line = i + 1;
    g_assert_cmpuint (line, >, 0);
  }

  load (f, "transpose/shared");
  g_assert_true (gtk_widget_is_sensitive (ws_preset_intro_get_kernel_button (page_intro (w))));
  save_screenshot (w, "explore-preset-kernel.png");
  g_signal_emit_by_name (ws_preset_intro_get_kernel_button (page_intro (w)), "clicked");
  g_assert_true (wait_until (text_is, want, 10000));
  g_assert_cmpstr (ws_window_get_page (w), ==, "kernel");
  g_assert_null (ws_kernel_editor_get_file (editor));
  g_assert_true (ws_kernel_editor_get_modified (editor));
  g_assert_cmpstr (ws_kernel_editor_get_title (editor), ==, "transpose-shared.cu");
  /* a 1024² matrix, as a user would try it first: the same tile and
   * banks, and a whole launch the sanitizers model in seconds (8192² took
   * minutes there) */
  {
    GtkTextBuffer *buffer = GTK_TEXT_BUFFER (ws_kernel_editor_get_buffer (editor));
    GtkTextIter start, end;

    gtk_text_buffer_get_start_iter (buffer, &start);
    g_assert_true (gtk_text_iter_forward_search (&start, "= 8192", 0, &start, &end, NULL));
    gtk_text_buffer_delete (buffer, &start, &end);
    gtk_text_buffer_insert (buffer, &start, "= 1024", -1);
  }
  g_assert_true (wait_until (page_settled, page, 30000));
  g_object_set_data (G_OBJECT (editor), "line", &line);
  g_assert_true (wait_until (gutter_has_line, editor, 30000));
  figures = ws_kernel_gutter_text_at (WS_KERNEL_GUTTER (editor->model_gutter), line);
  g_test_message ("line %u's figures: %s", line, figures);
  /* the column of a 32-wide tile: 32 wavefronts */
  g_assert_nonnull (strstr (figures, "32"));
  wait_frames (w);
  ws_kernel_editor_place_cursor (editor, line, 1);
  g_assert_true (wait_until (page_settled, page, 30000));
  save_screenshot (w, "kernel-page-preset-copy.png");
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_FORCE_DARK);
  save_screenshot (w, "kernel-page-preset-copy-dark.png");
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_FORCE_LIGHT);

  /* the copy's tile padded by hand: the bank view shows the column over
   * 32 banks, one wavefront, and says the conflicts are gone */
  {
    GtkTextBuffer *buffer = GTK_TEXT_BUFFER (ws_kernel_editor_get_buffer (editor));
    const WsWarpResult *r = show_shared_site (page);
    GtkTextIter iter;

    g_assert_nonnull (r);
    g_assert_cmpuint (r->counts.wavefronts, ==, 32);
    gtk_text_buffer_get_start_iter (buffer, &iter);
    g_assert_true (gtk_text_iter_forward_search (&iter, "tile[TILE][TILE];", 0, NULL, &iter, NULL));
    gtk_text_iter_backward_chars (&iter, 2);
    gtk_text_buffer_insert (buffer, &iter, " + 1", -1);
    g_assert_true (wait_until (page_settled, page, 30000));
    g_assert_cmpuint (ws_kernel_editor_get_cursor_line (editor), ==, line);
    r = show_shared_site (page);
    g_assert_nonnull (r);
    g_assert_cmpuint (r->counts.wavefronts, ==, 1);
    g_assert_nonnull (strstr (ws_kernel_page_get_caption (page), "No bank conflict"));
    save_screenshot (w, "kernel-page-preset-copy-padded.png");
  }

  /* a preset whose real kernel is host code: nothing to open, and why */
  load (f, "transfer/pageable");
  g_assert_false (gtk_widget_is_sensitive (ws_preset_intro_get_kernel_button (page_intro (w))));
  tooltip = gtk_widget_get_tooltip_text (ws_preset_intro_get_kernel_button (page_intro (w)));
  g_assert_nonnull (tooltip);
  g_assert_nonnull (strstr (tooltip, "not written as a kernel text"));

  /* New Kernel from Preset…: the host's preset there but insensitive, a
   * row with a text opens its copy (the copy before was changed by no one:
   * nothing to ask) */
  ws_kernel_editor_set_modified (editor, FALSE);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (w), "win.choose-preset-kernel", NULL));
  g_assert_true (wait_until (chooser_up, NULL, 10000));
  chooser = chooser_shown ();
  wait_frames (w);
  wait_frames (w);
  save_dialog_screenshot (chooser, "preset-kernel-chooser.png");
  row = chooser_row (GTK_WIDGET (chooser), "transfer/pageable");
  g_assert_nonnull (row);
  g_assert_false (gtk_widget_get_sensitive (row));
  g_assert_nonnull (strstr (gtk_widget_get_tooltip_text (row), "not written as a kernel text"));
  row = chooser_row (GTK_WIDGET (chooser), "banks/padding");
  g_assert_nonnull (row);
  g_assert_true (gtk_widget_get_sensitive (row));
  g_clear_pointer (&text, g_free);
  g_free (path);
  path = ws_preset_kernel_path ("banks/padding");
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  want[1] = text;
  g_signal_emit_by_name (row, "activated");
  g_assert_true (wait_until (text_is, want, 10000));
  g_assert_null (chooser_shown ());
  g_assert_cmpstr (ws_kernel_editor_get_title (editor), ==, "banks-padding.cu");
}

/* Open the Pattern as a Kernel, on the Explore page: a pattern changed by
 * hand (the stride sweep's stride set to 2) opens as the kernel text that
 * writes it out, and the Kernel page's model agrees with the Explore
 * page's: two lanes to a bank, 2 wavefronts. */
static void
test_pattern_copy (Fixture       *f,
                   gconstpointer  data)
{
  WsWindow *w = f->window;
  WsKernelPage *page = ws_window_get_kernel_page (w);
  WsKernelEditor *editor = ws_kernel_page_get_editor (page);
  g_autofree char *text = NULL;
  g_autofree char *figures = NULL;
  const char *want[2] = { (const char *) editor, NULL };
  guint line = 0;

  load (f, "banks/stride");
  g_assert_true (ws_pattern_editor_set_param (page_editor (w), "stride", 2));
  wait_settled (w);
  text = ws_pattern_to_kernel_text (page_pattern (w), ws_explore_page_get_preset (ws_window_get_explore_page (w)) ? ws_explore_page_get_preset (ws_window_get_explore_page (w))->title : NULL);
  g_assert_nonnull (strstr (text, "stride = 2"));
  want[1] = text;
  {
    g_auto (GStrv) lines = g_strsplit (text, "\n", -1);

    for (guint i = 0; lines[i]; i++)
      if (strstr (lines[i], "sum += s[threadIdx.x * stride];"))
        line = i + 1;
    g_assert_cmpuint (line, >, 0);
  }
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (w), "win.open-pattern-kernel", NULL));
  g_assert_true (wait_until (text_is, want, 10000));
  g_assert_cmpstr (ws_window_get_page (w), ==, "kernel");
  g_assert_null (ws_kernel_editor_get_file (editor));
  g_assert_true (g_str_has_suffix (ws_kernel_editor_get_title (editor), ".cu"));
  g_assert_true (wait_until (page_settled, page, 30000));
  g_object_set_data (G_OBJECT (editor), "line", &line);
  g_assert_true (wait_until (gutter_has_line, editor, 30000));
  figures = ws_kernel_gutter_text_at (WS_KERNEL_GUTTER (editor->model_gutter), line);
  g_test_message ("line %u's figures: %s", line, figures);
  g_assert_nonnull (strstr (figures, "2 wf/inst"));
  ws_kernel_editor_place_cursor (editor, line, 1);
  g_assert_true (wait_until (page_settled, page, 30000));
  save_screenshot (w, "kernel-page-pattern-copy.png");
}

static gboolean
probed (gpointer data)
{
  return ws_session_get_probed (data);
}

/* The line of the cursor is in sight in the editor. */
static gboolean
cursor_in_sight (gpointer data)
{
  WsKernelEditor *editor = data;
  GtkTextView *view = GTK_TEXT_VIEW (ws_kernel_editor_get_view (editor));
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (view);
  GtkTextIter iter;
  GdkRectangle visible, r;

  gtk_text_buffer_get_iter_at_mark (buffer, &iter, gtk_text_buffer_get_insert (buffer));
  gtk_text_view_get_visible_rect (view, &visible);
  gtk_text_view_get_iter_location (view, &iter, &r);
  return r.y >= visible.y && r.y + r.height <= visible.y + visible.height;
}

static gboolean
gutter_filled (gpointer data)
{
  const WsKernelLines *lines = ws_kernel_editor_get_lines (data);

  return lines && ws_kernel_lines_find (lines, TILE_READ_LINE) != NULL;
}

static gboolean
lines_measured (gpointer data)
{
  const WsKernelLines *lines = ws_kernel_editor_get_lines (data);

  return lines && ws_kernel_lines_get_measured (lines);
}

/* Every item of the comparison has a live measurement in the session. */
static gboolean
comparison_measured (gpointer data)
{
  WsWindow *w = data;
  GPtrArray *items = ws_session_get_comparison (ws_window_get_session (w));
  GPtrArray *live = ws_session_get_live (ws_window_get_session (w));
  guint found = 0;

  for (guint i = 0; items && i < items->len; i++)
    {
      const WsCompareItem *item = g_ptr_array_index (items, i);

      for (guint j = 0; j < live->len; j++)
        {
          const WsLiveEntry *e = g_ptr_array_index (live, j);

          if (item->kernel ? g_strcmp0 (e->key, item->kernel_key) == 0 : g_strcmp0 (e->preset_id, item->id) == 0)
            {
              found++;
              break;
            }
        }
    }
  return items && found == items->len;
}

/* A note over the compare page's chart says text. */
static gboolean
chart_says (WsWindow   *w,
            const char *text)
{
  const WsChart *chart = ws_chart_view_get_chart (ws_compare_view_get_chart (compare_view (w)));

  for (guint i = 0; chart && i < chart->notes->len; i++)
    if (g_strcmp0 (((WsChartNote *) g_ptr_array_index (chart->notes, i))->text, text) == 0)
      return TRUE;
  return FALSE;
}

/* On a GPU: Measure runs the kernel, and the gutter fills with the
 * hardware's figures beside the model's, line by line: transposeCoalesced's
 * tile read has its 32 wavefronts an instruction on the GPU too (its
 * padded twin in test-kernel-gpu has 1). Skipped where there is no GPU,
 * with the reason the session gives. */
static void
test_measure (Fixture       *f,
              gconstpointer  data)
{
  WsWindow *w = f->window;
  WsSession *session = ws_window_get_session (w);
  WsKernelPage *page = ws_window_get_kernel_page (w);
  WsKernelEditor *editor = ws_kernel_page_get_editor (page);
  g_autofree char *path = transpose_path ();
  g_autoptr (GFile) file = g_file_new_for_path (path);
  const WsKernelLines *lines;
  const WsKernelLine *line;
  g_autofree char *model = NULL;
  g_autofree char *measured = NULL;
  GtkWidget *button;

  g_application_open (G_APPLICATION (the_app), &file, 1, "");
  g_assert_true (wait_until (text_loaded, page, 10000));
  ws_kernel_editor_place_cursor (editor, TILE_READ_LINE, 1);
  g_assert_true (wait_until (page_settled, page, 30000));
  g_assert_true (wait_until (gutter_filled, editor, 60000));
  line = ws_kernel_lines_find (ws_kernel_editor_get_lines (editor), TILE_READ_LINE);
  g_assert_nonnull (line);
  g_test_message ("line %d, model: %" G_GUINT64_FORMAT " shared instructions, %" G_GUINT64_FORMAT " wavefronts",
                  TILE_READ_LINE, (guint64) line->shared.instructions, (guint64) line->shared.wavefronts);
  g_assert_false (line->measured);

  g_assert_true (wait_until (probed, session, 60000));
  if (ws_session_get_device (session) == NULL)
    {
      const GError *why = ws_session_get_probe_error (session);
      g_autofree char *reason = g_strdup_printf ("no GPU to measure on: %s", why ? why->message : "none was found");

      g_test_skip (reason);
      return;
    }

  /* as a click does */
  button = button_labelled (GTK_WIDGET (page), "_Measure");
  g_assert_nonnull (button);
  g_assert_true (gtk_widget_get_sensitive (button));
  g_signal_emit_by_name (button, "clicked");
  g_assert_false (gtk_widget_get_sensitive (button));
  g_assert_true (wait_until (lines_measured, editor, 180000));
  g_assert_true (gtk_widget_get_sensitive (button));

  lines = ws_kernel_editor_get_lines (editor);
  line = ws_kernel_lines_find (lines, TILE_READ_LINE);
  g_assert_nonnull (line);
  g_assert_true (line->measured);
  g_test_message ("line %d after the measurement: model %" G_GUINT64_FORMAT " shared instructions, %" G_GUINT64_FORMAT
                  " wavefronts; GPU %.0f, %.0f", TILE_READ_LINE, (guint64) line->shared.instructions,
                  (guint64) line->shared.wavefronts, line->hw.shared_instructions, line->hw.shared_wavefronts);
  g_assert_cmpfloat (line->hw.shared_instructions, >, 0);
  g_assert_cmpuint (line->shared.instructions, >, 0);
  /* the model's 32 wavefronts an instruction, on the GPU too */
  g_assert_cmpfloat (fabs (line->hw.shared_wavefronts / line->hw.shared_instructions -
                           (double) line->shared.wavefronts / line->shared.instructions), <, 0.1 * 32);
  g_assert_cmpfloat (line->hw.shared_wavefronts / line->hw.shared_instructions, >, 28);
  model = ws_kernel_line_format (line, FALSE);
  measured = ws_kernel_line_format (line, TRUE);
  g_test_message ("line %d: model %s, GPU %s; %u lines disagree", TILE_READ_LINE, model, measured,
                  ws_kernel_lines_get_n_mismatches (lines));
  g_assert_cmpstr (measured, !=, "");
  /* the hardware's column widened the gutter and the text wrapped again:
   * the line one measured from is still in sight */
  for (guint i = 0; i < 5; i++)
    wait_frames (w);
  g_assert_true (cursor_in_sight (editor));
  /* every line with memory instructions has the GPU's figures */
  for (guint i = 0; i < ws_kernel_lines_get_n_lines (lines); i++)
    g_assert_true (ws_kernel_lines_get_line (lines, i)->measured);
  save_screenshot (w, "kernel-page-measured-light.png");
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_FORCE_DARK);
  save_screenshot (w, "kernel-page-measured-dark.png");
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_FORCE_LIGHT);

  /* beside two presets on the compare page, it is timed there too: its
   * median joins the chart */
  {
    const char *two[] = { "transpose/copy", "transpose/shared", NULL };
    const WsCompareItem *item;

    g_assert_true (ws_window_compare_presets (w, two));
    wait_settled (w);
    ws_window_set_page (w, "kernel");
    gtk_widget_activate_action (GTK_WIDGET (w), "win.compare-kernel", NULL);
    wait_settled (w);
    g_assert_cmpstr (ws_window_get_page (w), ==, "compare");
    item = g_ptr_array_index (ws_session_get_comparison (session), 2);
    g_assert_nonnull (item->kernel);
    g_assert_true (wait_until (comparison_measured, w, 180000));
    g_assert_false (chart_says (w, "not measured"));
    save_screenshot (w, "compare-kernel-measured-light.png");
  }
}

/* Add Kernel to Comparison: the saved kernel, at the cursor's line, beside
 * the compare page's presets; an unsaved one is refused, and said. */
static void
test_add_to_comparison (Fixture       *f,
                        gconstpointer  data)
{
  WsWindow *w = f->window;
  WsKernelPage *page = ws_window_get_kernel_page (w);
  WsKernelEditor *editor = ws_kernel_page_get_editor (page);
  g_autofree char *path = transpose_path ();
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autofree char *spec = g_strdup_printf ("%s:transposeCoalesced@%d", path, TILE_READ_LINE);
  const char *two[] = { "transpose/copy", "transpose/shared", NULL };
  g_auto (GStrv) ids = NULL;
  GPtrArray *items;

  g_assert_true (ws_window_compare_presets (w, two));
  wait_settled (w);
  ws_kernel_page_new_kernel (page, NULL);
  ws_window_set_page (w, "kernel");
  g_assert_false (ws_window_compare_kernel (w));
  g_assert_nonnull (strstr (ws_window_get_last_toast (w), "Save the kernel first"));
  g_assert_cmpuint (ws_compare_view_get_n_items (compare_view (w)), ==, 2);

  g_application_open (G_APPLICATION (the_app), &file, 1, "");
  g_assert_true (wait_until (text_loaded, page, 10000));
  ws_kernel_editor_place_cursor (editor, TILE_READ_LINE, 1);
  g_assert_true (wait_until (page_settled, page, 30000));
  gtk_widget_activate_action (GTK_WIDGET (w), "win.compare-kernel", NULL);
  wait_settled (w);
  g_assert_cmpstr (ws_window_get_page (w), ==, "compare");
  ids = ws_compare_view_get_ids (compare_view (w));
  g_assert_cmpuint (g_strv_length (ids), ==, 3);
  g_assert_cmpstr (ids[2], ==, spec);
  items = ws_session_get_comparison (ws_window_get_session (w));
  g_assert_cmpuint (items->len, ==, 3);
  g_assert_cmpstr (((WsCompareItem *) g_ptr_array_index (items, 2))->title, ==, "transposeCoalesced, line 80");
  g_assert_true (g_str_has_prefix (ws_window_get_subtitle (w), "a comparison of 3 kernels · "));
  g_assert_cmpint (ws_figure_view_get_result (ws_compare_view_get_figure (compare_view (w), 2))->space, ==,
                   WS_SPACE_SHARED);
}

/* A file of several kernels and no word of which, as NVIDIA's blog files
 * are: the page shows the first and a dropdown lists them all; picking
 * another shows it; a comment that names one is what the page opens on;
 * an edit keeps what was picked. */
static gboolean
shows_kernel (gpointer data)
{
  const char **want = data;
  WsKernelPage *page = (WsKernelPage *) want[0];
  WsKernelInstance *inst;

  if (!ws_kernel_page_is_settled (page))
    return FALSE;
  inst = ws_kernel_modeller_get_instance (ws_kernel_page_get_modeller (page));
  return inst && g_strcmp0 (ws_kernel_instance_get_kernel_name (inst), want[1]) == 0;
}

static void
test_kernel_choice (Fixture       *f,
                    gconstpointer  data)
{
  WsWindow *w = f->window;
  WsKernelPage *page = ws_window_get_kernel_page (w);
  WsKernelEditor *editor = ws_kernel_page_get_editor (page);
  GtkDropDown *dropdown = ws_kernel_page_get_kernel_dropdown (page);
  GListModel *names = gtk_drop_down_get_model (dropdown);
  const char *text =
    "/* warpscope:\n"
    " *   grid = 64\n"
    " *   block = 256\n"
    " */\n"
    "__global__ void copy(const float *in, float *out)\n"
    "{\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  out[i] = in[i];\n"
    "}\n"
    "__global__ void gather(const float *in, float *out)\n"
    "{\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  out[i] = in[i * 2];\n"
    "}\n";
  g_autofree char *path = g_strdup_printf ("%s/warpscope-test-kernels-%d.cu", g_get_tmp_dir (), (int) getpid ());
  g_autoptr (GFile) file = g_file_new_for_path (path);
  const char *want_copy[] = { (const char *) page, "copy" };
  const char *want_gather[] = { (const char *) page, "gather" };
  GtkTextBuffer *buffer;
  GtkTextIter end;

  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  g_application_open (G_APPLICATION (the_app), &file, 1, "");
  g_assert_true (wait_until (shows_kernel, want_copy, 30000));
  g_assert_true (gtk_widget_is_visible (GTK_WIDGET (dropdown)));
  g_assert_cmpuint (g_list_model_get_n_items (names), ==, 2);
  g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (names), 0), ==, "copy");
  g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (names), 1), ==, "gather");
  g_assert_cmpuint (gtk_drop_down_get_selected (dropdown), ==, 0);
  save_screenshot (w, "kernel-page-kernels.png");

  /* picked: the other */
  gtk_drop_down_set_selected (dropdown, 1);
  g_assert_true (wait_until (shows_kernel, want_gather, 30000));

  /* an edit keeps it */
  buffer = GTK_TEXT_BUFFER (ws_kernel_editor_get_buffer (editor));
  gtk_text_buffer_get_end_iter (buffer, &end);
  gtk_text_buffer_insert (buffer, &end, "// edited\n", -1);
  g_assert_true (wait_until (shows_kernel, want_gather, 30000));
  g_assert_cmpuint (gtk_drop_down_get_selected (dropdown), ==, 1);
  g_unlink (path);

  /* one kernel: no dropdown */
  gtk_text_buffer_set_text (buffer, strstr (text, "__global__ void gather"), -1);
  g_assert_true (wait_until (shows_kernel, want_gather, 30000));
  g_assert_false (gtk_widget_is_visible (GTK_WIDGET (dropdown)));
}

/* A sum nvcc keeps in a register through its loop (keep.cu's
 * reduce_while, Harris's reduce6): the loop's line shows the one store it
 * makes, and the caption says why there is no load and only one store; a
 * store nvcc drops (counted's, before a loop it unrolls) says so where the
 * page would otherwise say the line makes no access. */
static void
test_kept (Fixture       *f,
           gconstpointer  data)
{
  WsWindow *w = f->window;
  WsKernelPage *page = ws_window_get_kernel_page (w);
  WsKernelEditor *editor = ws_kernel_page_get_editor (page);
  WsKernelModeller *modeller = ws_kernel_page_get_modeller (page);
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "kernels", "keep.cu", NULL);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autofree char *text = NULL;
  const char *want[] = { (const char *) page, "reduce_while" };
  const char *want_counted[] = { (const char *) page, "counted" };
  const WsWarpResult *r;
  const char *caption;
  guint loop_line = 1, before_line = 1;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  for (const char *p = text; p < strstr (text, "// K:reduce_while.loop\n"); p++)
    loop_line += *p == '\n';
  for (const char *p = text; p < strstr (text, "// K:counted.before\n"); p++)
    before_line += *p == '\n';
  g_application_open (G_APPLICATION (the_app), &file, 1, "");
  g_assert_true (wait_until (shows_kernel, want, 30000));
  ws_kernel_editor_place_cursor (editor, loop_line, 5);
  g_assert_true (wait_until (page_settled, page, 30000));
  g_assert_cmpuint (ws_kernel_modeller_get_line (modeller), ==, loop_line);
  /* s[t] += v: its store, once after the loop (the load is never made) */
  g_assert_cmpuint (ws_kernel_modeller_get_n_warps (modeller), ==, 1);
  r = show_shared_site (page);
  g_assert_nonnull (r);
  g_assert_cmpint (r->kind, ==, WS_ACCESS_STORE);
  caption = ws_kernel_page_get_caption (page);
  g_test_message ("caption: %s", caption);
  g_assert_nonnull (strstr (caption, "nvcc keeps s[t] in a register through the loop at line"));
  g_assert_nonnull (strstr (caption, "it stores it once, after the loop"));
  g_assert_nonnull (strstr (caption, "nvcc never loads s[t] here: it keeps the value stored just before the loop"));
  wait_frames (w);
  save_screenshot (w, "kernel-page-kept.png");
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_FORCE_DARK);
  save_screenshot (w, "kernel-page-kept-dark.png");
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_FORCE_LIGHT);

  /* the store before a loop nvcc unrolls whole: never made */
  gtk_drop_down_set_selected (ws_kernel_page_get_kernel_dropdown (page), 10);
  g_assert_true (wait_until (shows_kernel, want_counted, 30000));
  ws_kernel_editor_place_cursor (editor, before_line, 3);
  g_assert_true (wait_until (page_settled, page, 30000));
  {
    const char *said = gtk_label_get_text (ws_kernel_page_get_message (page));
    g_test_message ("message: %s", said);
    g_assert_nonnull (strstr (said, "nvcc never makes this store of s[t]"));
    g_assert_null (strstr (said, "This line makes no memory access"));
  }
  /* the gutter says where it went */
  {
    const WsKernelLines *lines = ws_kernel_editor_get_lines (editor);
    const WsKernelLine *l = lines ? ws_kernel_lines_find (lines, before_line) : NULL;
    g_autofree char *said = NULL;
    g_assert_nonnull (l);
    said = ws_kernel_line_format (l, FALSE);
    g_assert_cmpstr (said, ==, "in a register");
  }
  /* the line in sight */
  g_assert_true (wait_until (cursor_in_sight, editor, 10000));
  wait_frames (w);
  save_screenshot (w, "kernel-page-kept-never.png");
}

static void
add_tests (void)
{
  g_test_add ("/kernel-page/transpose", Fixture, NULL, fixture_set_up, test_transpose, fixture_tear_down);
  g_test_add ("/kernel-page/no-gpu", Fixture, NULL, fixture_set_up, test_no_gpu, fixture_tear_down);
  g_test_add ("/kernel-page/measure", Fixture, NULL, fixture_set_up, test_measure, fixture_tear_down);
  g_test_add ("/kernel-page/new-and-close", Fixture, NULL, fixture_set_up, test_new_and_close, fixture_tear_down);
  g_test_add ("/kernel-page/preset-copy", Fixture, NULL, fixture_set_up, test_preset_copy, fixture_tear_down);
  g_test_add ("/kernel-page/pattern-copy", Fixture, NULL, fixture_set_up, test_pattern_copy, fixture_tear_down);
  g_test_add ("/kernel-page/add-to-comparison", Fixture, NULL, fixture_set_up, test_add_to_comparison,
              fixture_tear_down);
  g_test_add ("/kernel-page/kernel-choice", Fixture, NULL, fixture_set_up, test_kernel_choice, fixture_tear_down);
  g_test_add ("/kernel-page/kept", Fixture, NULL, fixture_set_up, test_kept, fixture_tear_down);
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *cache = g_dir_make_tmp ("warpscope-test-kernel-page-XXXXXX", NULL);

  /* an unsaved kernel of the user's own is not offered to these tests */
  g_setenv ("XDG_CACHE_HOME", cache, TRUE);
  return window_test_run (&argc, &argv, add_tests);
}
