/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The kernel editor: a GtkSourceView with CUDA's highlighting, a search
 * bar, and a scheme that follows the program's style. What it checks and
 * how it loads and saves are in the files beside it. */
#include <glib/gi18n.h>
#include "ws-kernel-editor-private.h"

#include <adwaita.h>

GParamSpec *ws_kernel_editor_props[N_PROPS];
guint ws_kernel_editor_signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (WsKernelEditor, ws_kernel_editor, GTK_TYPE_WIDGET)

GtkWidget *
ws_kernel_editor_new (void)
{
  return g_object_new (WS_TYPE_KERNEL_EDITOR, NULL);
}

/* ------------------------------------------------------------------ */
/* The scheme                                                         */
/* ------------------------------------------------------------------ */

static void
update_scheme (WsKernelEditor *self)
{
  AdwStyleManager *style = adw_style_manager_get_default ();
  GtkSourceStyleSchemeManager *schemes = gtk_source_style_scheme_manager_get_default ();
  const char *id = adw_style_manager_get_dark (style) ? "Adwaita-dark" : "Adwaita";

  gtk_source_buffer_set_style_scheme (self->buffer, gtk_source_style_scheme_manager_get_scheme (schemes, id));
}

const char *
ws_kernel_editor_get_scheme_id (WsKernelEditor *self)
{
  GtkSourceStyleScheme *scheme;

  g_return_val_if_fail (WS_IS_KERNEL_EDITOR (self), NULL);

  scheme = gtk_source_buffer_get_style_scheme (self->buffer);
  return scheme ? gtk_source_style_scheme_get_id (scheme) : NULL;
}

/* ------------------------------------------------------------------ */
/* Text, file, cursor                                                 */
/* ------------------------------------------------------------------ */

void
ws_kernel_editor_set_text (WsKernelEditor *self,
                           const char     *text)
{
  GtkTextBuffer *buffer;
  GtkTextIter start;

  g_return_if_fail (WS_IS_KERNEL_EDITOR (self));

  buffer = GTK_TEXT_BUFFER (self->buffer);
  /* a text set is where undo starts */
  gtk_text_buffer_begin_irreversible_action (buffer);
  gtk_text_buffer_set_text (buffer, text ? text : "", -1);
  gtk_text_buffer_end_irreversible_action (buffer);
  gtk_text_buffer_get_start_iter (buffer, &start);
  gtk_text_buffer_place_cursor (buffer, &start);
  gtk_text_buffer_set_modified (buffer, FALSE);
}

char *
ws_kernel_editor_get_text (WsKernelEditor *self)
{
  GtkTextIter start, end;

  g_return_val_if_fail (WS_IS_KERNEL_EDITOR (self), NULL);

  gtk_text_buffer_get_bounds (GTK_TEXT_BUFFER (self->buffer), &start, &end);
  return gtk_text_buffer_get_text (GTK_TEXT_BUFFER (self->buffer), &start, &end, TRUE);
}

GtkSourceBuffer *
ws_kernel_editor_get_buffer (WsKernelEditor *self)
{
  g_return_val_if_fail (WS_IS_KERNEL_EDITOR (self), NULL);
  return self->buffer;
}

GtkSourceView *
ws_kernel_editor_get_view (WsKernelEditor *self)
{
  g_return_val_if_fail (WS_IS_KERNEL_EDITOR (self), NULL);
  return self->view;
}

void
ws_kernel_editor_set_file (WsKernelEditor *self,
                           GFile          *file)
{
  g_return_if_fail (WS_IS_KERNEL_EDITOR (self));
  g_return_if_fail (file == NULL || G_IS_FILE (file));

  if (self->file == file || (self->file && file && g_file_equal (self->file, file)))
    return;
  g_set_object (&self->file, file);
  ws_kernel_editor_update_title (self);
  g_object_notify_by_pspec (G_OBJECT (self), ws_kernel_editor_props[PROP_FILE]);
}

/* What a text with no file is called, and the name Save offers for it
 * ("coalescing-sequential.cu" for a preset's copy); NULL: "Untitled
 * kernel". */
void
ws_kernel_editor_set_untitled_name (WsKernelEditor *self,
                                    const char     *name)
{
  g_return_if_fail (WS_IS_KERNEL_EDITOR (self));

  if (g_strcmp0 (self->untitled_name, name) == 0)
    return;
  g_free (self->untitled_name);
  self->untitled_name = g_strdup (name);
  ws_kernel_editor_update_title (self);
}

GFile *
ws_kernel_editor_get_file (WsKernelEditor *self)
{
  g_return_val_if_fail (WS_IS_KERNEL_EDITOR (self), NULL);
  return self->file;
}

gboolean
ws_kernel_editor_get_modified (WsKernelEditor *self)
{
  g_return_val_if_fail (WS_IS_KERNEL_EDITOR (self), FALSE);
  return gtk_text_buffer_get_modified (GTK_TEXT_BUFFER (self->buffer));
}

void
ws_kernel_editor_set_modified (WsKernelEditor *self,
                               gboolean        modified)
{
  g_return_if_fail (WS_IS_KERNEL_EDITOR (self));
  gtk_text_buffer_set_modified (GTK_TEXT_BUFFER (self->buffer), modified);
}

const char *
ws_kernel_editor_get_title (WsKernelEditor *self)
{
  g_return_val_if_fail (WS_IS_KERNEL_EDITOR (self), NULL);
  return self->title;
}

guint
ws_kernel_editor_get_cursor_line (WsKernelEditor *self)
{
  g_return_val_if_fail (WS_IS_KERNEL_EDITOR (self), 0);
  return self->cursor_line;
}

/* A third of the way down, with what leads to it above. */
static void
scroll_to_cursor (WsKernelEditor *self)
{
  GtkTextBuffer *buffer = GTK_TEXT_BUFFER (self->buffer);

  gtk_text_view_scroll_to_mark (GTK_TEXT_VIEW (self->view), gtk_text_buffer_get_insert (buffer), 0, TRUE, 0,
                                self->scroll_yalign);
}

static gboolean scroll_again (GtkWidget     *view,
                              GdkFrameClock *clock,
                              gpointer       data);

/* Scrolls to the cursor again once the view has settled (scroll_again). */
static void
scroll_when_settled (WsKernelEditor *self)
{
  self->scroll_frames = 0;
  self->scroll_height = 0;
  if (self->scroll_tick == 0)
    self->scroll_tick = gtk_widget_add_tick_callback (GTK_WIDGET (self->view), scroll_again, self, NULL);
}

gboolean
ws_kernel_editor_cursor_in_sight (WsKernelEditor *self,
                                  double         *yalign)
{
  GtkTextView *view = GTK_TEXT_VIEW (self->view);
  GtkTextIter iter;
  GdkRectangle visible, r;

  if (self->buffer == NULL)
    return FALSE;
  gtk_text_buffer_get_iter_at_mark (GTK_TEXT_BUFFER (self->buffer), &iter,
                                    gtk_text_buffer_get_insert (GTK_TEXT_BUFFER (self->buffer)));
  gtk_text_view_get_visible_rect (view, &visible);
  gtk_text_view_get_iter_location (view, &iter, &r);
  if (visible.height <= 0 || r.y < visible.y || r.y + r.height > visible.y + visible.height)
    return FALSE;
  if (yalign)
    *yalign = CLAMP ((double) (r.y - visible.y) / MAX (visible.height - r.height, 1), 0, 1);
  return TRUE;
}

void
ws_kernel_editor_keep_cursor_in_place (WsKernelEditor *self)
{
  if (ws_kernel_editor_cursor_in_sight (self, &self->scroll_yalign))
    scroll_when_settled (self);
}

/* Once the view's size has settled: it has one, the notes below it are not
 * sliding in or out, and it was the same on the frame before (two seconds
 * at most, then as it is). */
static gboolean
scroll_again (GtkWidget     *view,
              GdkFrameClock *clock,
              gpointer       data)
{
  WsKernelEditor *self = data;
  int height = gtk_widget_get_height (view);
  gboolean sliding = gtk_revealer_get_reveal_child (self->problems_revealer) !=
                     gtk_revealer_get_child_revealed (self->problems_revealer);

  /* (a few frames at least: the text wraps again in idle time) */
  if (++self->scroll_frames < 120 &&
      (height <= 1 || sliding || height != self->scroll_height || self->scroll_frames < 4))
    {
      self->scroll_height = height;
      return G_SOURCE_CONTINUE;
    }
  self->scroll_tick = 0;
  scroll_to_cursor (self);
  return G_SOURCE_REMOVE;
}

void
ws_kernel_editor_place_cursor (WsKernelEditor *self,
                               guint           line,
                               guint           column)
{
  GtkTextBuffer *buffer;
  GtkTextIter iter;

  g_return_if_fail (WS_IS_KERNEL_EDITOR (self));

  buffer = GTK_TEXT_BUFFER (self->buffer);
  gtk_text_buffer_get_iter_at_line_offset (buffer, &iter, (int) MAX (line, 1) - 1, (int) MAX (column, 1) - 1);
  gtk_text_buffer_place_cursor (buffer, &iter);
  self->scroll_yalign = 0.3;
  scroll_to_cursor (self);
  /* a view not laid out yet (a file opened as the window maps) forgets the
   * scroll at times: once more on the first frame it has a size */
  scroll_when_settled (self);
}

static void
cursor_moved_cb (WsKernelEditor *self)
{
  GtkTextBuffer *buffer = GTK_TEXT_BUFFER (self->buffer);
  GtkTextIter iter;
  guint line;

  gtk_text_buffer_get_iter_at_mark (buffer, &iter, gtk_text_buffer_get_insert (buffer));
  line = (guint) gtk_text_iter_get_line (&iter) + 1;
  if (line == self->cursor_line)
    return;
  self->cursor_line = line;
  g_object_notify_by_pspec (G_OBJECT (self), ws_kernel_editor_props[PROP_CURSOR_LINE]);
}

static void
buffer_changed_cb (WsKernelEditor *self)
{
  self->changes++;
  ws_kernel_editor_figures_changed (self);
  ws_kernel_editor_queue_check (self);
  ws_kernel_editor_queue_autosave (self);
  g_signal_emit (self, ws_kernel_editor_signals[SIGNAL_CHANGED], 0);
}

static void
modified_changed_cb (WsKernelEditor *self)
{
  if (!gtk_text_buffer_get_modified (GTK_TEXT_BUFFER (self->buffer)))
    ws_kernel_editor_drop_autosave (self);
  g_object_notify_by_pspec (G_OBJECT (self), ws_kernel_editor_props[PROP_MODIFIED]);
}

/* ------------------------------------------------------------------ */
/* A click on a line                                                  */
/* ------------------------------------------------------------------ */

/* A primary click in the text (not a gutter, not a drag that selects)
 * activates the line the cursor lands on. The view's own gesture claims
 * the click, so its press is watched here and its release seen as it
 * passes by. */
static void
text_pressed_cb (GtkGestureClick *gesture,
                 int              n_press,
                 double           x,
                 double           y,
                 WsKernelEditor  *self)
{
  GtkWidget *picked = gtk_widget_pick (GTK_WIDGET (self->view), x, y, GTK_PICK_DEFAULT);

  self->pressed_in_text = n_press == 1 && picked == GTK_WIDGET (self->view);
}

static gboolean
text_event_cb (GtkEventControllerLegacy *controller,
               GdkEvent                 *event,
               WsKernelEditor           *self)
{
  GtkTextBuffer *buffer = GTK_TEXT_BUFFER (self->buffer);
  GtkTextIter iter;

  if (gdk_event_get_event_type (event) != GDK_BUTTON_RELEASE ||
      gdk_button_event_get_button (event) != GDK_BUTTON_PRIMARY || !self->pressed_in_text)
    return GDK_EVENT_PROPAGATE;
  self->pressed_in_text = FALSE;
  if (gtk_text_buffer_get_has_selection (buffer))
    return GDK_EVENT_PROPAGATE;
  gtk_text_buffer_get_iter_at_mark (buffer, &iter, gtk_text_buffer_get_insert (buffer));
  ws_kernel_editor_activate_line (self, (guint) gtk_text_iter_get_line (&iter) + 1);
  return GDK_EVENT_PROPAGATE;
}

static void
watch_clicks (WsKernelEditor *self)
{
  GtkGesture *press = gtk_gesture_click_new ();
  GtkEventController *legacy = gtk_event_controller_legacy_new ();

  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (press), GDK_BUTTON_PRIMARY);
  gtk_event_controller_set_propagation_phase (GTK_EVENT_CONTROLLER (press), GTK_PHASE_CAPTURE);
  g_signal_connect (press, "pressed", G_CALLBACK (text_pressed_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self->view), GTK_EVENT_CONTROLLER (press));
  /* after the view's own handling: the cursor has moved by then */
  gtk_event_controller_set_propagation_phase (legacy, GTK_PHASE_BUBBLE);
  g_signal_connect (legacy, "event", G_CALLBACK (text_event_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self->view), legacy);
}

/* ------------------------------------------------------------------ */
/* Search                                                             */
/* ------------------------------------------------------------------ */

int
ws_kernel_editor_get_n_matches (WsKernelEditor *self)
{
  g_return_val_if_fail (WS_IS_KERNEL_EDITOR (self), -1);
  return gtk_source_search_context_get_occurrences_count (self->search);
}

static void update_search_label (WsKernelEditor *self);

static gboolean
search_label_again (gpointer data)
{
  WsKernelEditor *self = data;

  self->search_label_source = 0;
  update_search_label (self);
  return G_SOURCE_REMOVE;
}

static void
update_search_label (WsKernelEditor *self)
{
  GtkTextBuffer *buffer = GTK_TEXT_BUFFER (self->buffer);
  int count = gtk_source_search_context_get_occurrences_count (self->search);
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->search_entry));
  g_autofree char *label = NULL;
  GtkTextIter start, end;
  int position = 0;

  if (gtk_text_buffer_get_selection_bounds (buffer, &start, &end))
    position = gtk_source_search_context_get_occurrence_position (self->search, &start, &end);
  /* the context scans the text in the background: ask again soon */
  if (position < 0 && self->search_label_source == 0)
    self->search_label_source = g_timeout_add (50, search_label_again, self);
  if (*text == '\0' || count < 0)
    label = g_strdup ("");
  else if (count == 0)
    label = g_strdup (_("No match"));
  else if (position > 0)
    /* Translators: the match selected, and how many there are */
    label = g_strdup_printf (_("%d of %d"), position, count);
  else
    label = g_strdup_printf (ngettext ("%d match", "%d matches", count), count);
  gtk_label_set_text (self->search_label, label);
  if (count == 0 && *text)
    gtk_widget_add_css_class (GTK_WIDGET (self->search_entry), "error");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->search_entry), "error");
}

static void
select_match (WsKernelEditor    *self,
              const GtkTextIter *start,
              const GtkTextIter *end)
{
  gtk_text_buffer_select_range (GTK_TEXT_BUFFER (self->buffer), start, end);
  gtk_text_view_scroll_to_mark (GTK_TEXT_VIEW (self->view), gtk_text_buffer_get_insert (GTK_TEXT_BUFFER (self->buffer)),
                                0.2, FALSE, 0, 0);
  update_search_label (self);
}

static void
search_move (WsKernelEditor *self,
             gboolean        forward)
{
  GtkTextBuffer *buffer = GTK_TEXT_BUFFER (self->buffer);
  GtkTextIter from, other, start, end;
  gboolean found;

  gtk_text_buffer_get_selection_bounds (buffer, &other, &from);
  if (!forward)
    from = other;
  found = forward ? gtk_source_search_context_forward (self->search, &from, &start, &end, NULL)
                  : gtk_source_search_context_backward (self->search, &from, &start, &end, NULL);
  if (found)
    select_match (self, &start, &end);
}

static void
search_changed_cb (WsKernelEditor *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->search_entry));
  GtkTextBuffer *buffer = GTK_TEXT_BUFFER (self->buffer);
  GtkTextIter from, start, end;

  /* already searched for (ws_kernel_editor_find does not wait) */
  if (g_strcmp0 (gtk_source_search_settings_get_search_text (self->search_settings), *text ? text : NULL) == 0)
    return;
  gtk_source_search_settings_set_search_text (self->search_settings, *text ? text : NULL);
  /* as one types, the first match from where the selection starts */
  gtk_text_buffer_get_selection_bounds (buffer, &from, NULL);
  if (*text && gtk_source_search_context_forward (self->search, &from, &start, &end, NULL))
    select_match (self, &start, &end);
  update_search_label (self);
}

static void
search_next_cb (WsKernelEditor *self)
{
  search_move (self, TRUE);
}

static void
search_previous_cb (WsKernelEditor *self)
{
  search_move (self, FALSE);
}

static void
search_stop_cb (WsKernelEditor *self)
{
  gtk_search_bar_set_search_mode (self->search_bar, FALSE);
  gtk_widget_grab_focus (GTK_WIDGET (self->view));
}

void
ws_kernel_editor_find (WsKernelEditor *self,
                       const char     *text)
{
  g_return_if_fail (WS_IS_KERNEL_EDITOR (self));

  gtk_search_bar_set_search_mode (self->search_bar, TRUE);
  if (text)
    {
      gtk_editable_set_text (GTK_EDITABLE (self->search_entry), text);
      /* now, rather than after the entry's delay for typing */
      search_changed_cb (self);
    }
  gtk_widget_grab_focus (GTK_WIDGET (self->search_entry));
  gtk_editable_select_region (GTK_EDITABLE (self->search_entry), 0, -1);
}

/* Ctrl+F: the search bar, with the selection as what to find when it is
 * on one line. */
static void
find_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  WsKernelEditor *self = WS_KERNEL_EDITOR (widget);
  GtkTextIter start, end;
  g_autofree char *selected = NULL;

  if (gtk_text_buffer_get_selection_bounds (GTK_TEXT_BUFFER (self->buffer), &start, &end) &&
      gtk_text_iter_get_line (&start) == gtk_text_iter_get_line (&end))
    selected = gtk_text_iter_get_visible_text (&start, &end);
  ws_kernel_editor_find (self, selected);
}

static void
find_next_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  search_move (WS_KERNEL_EDITOR (widget), g_strcmp0 (action_name, "editor.find-next") == 0);
}

static void
setup_search (WsKernelEditor *self)
{
  self->search_settings = gtk_source_search_settings_new ();
  gtk_source_search_settings_set_wrap_around (self->search_settings, TRUE);
  self->search = gtk_source_search_context_new (self->buffer, self->search_settings);
  gtk_source_search_context_set_highlight (self->search, TRUE);
  g_signal_connect_object (self->search, "notify::occurrences-count", G_CALLBACK (update_search_label), self,
                           G_CONNECT_SWAPPED);
  gtk_search_bar_connect_entry (self->search_bar, GTK_EDITABLE (self->search_entry));
}

/* ------------------------------------------------------------------ */
/* GObject                                                            */
/* ------------------------------------------------------------------ */

static void
setup_buffer (WsKernelEditor *self)
{
  GtkSourceLanguageManager *languages = gtk_source_language_manager_get_default ();

  self->buffer = GTK_SOURCE_BUFFER (g_object_ref (gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->view))));
  gtk_source_buffer_set_language (self->buffer, gtk_source_language_manager_get_language (languages, "cuda"));
  gtk_source_buffer_set_highlight_matching_brackets (self->buffer, TRUE);
  /* what is saved is what is shown, to the last byte */
  gtk_source_buffer_set_implicit_trailing_newline (self->buffer, FALSE);
  g_signal_connect_object (self->buffer, "changed", G_CALLBACK (buffer_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->buffer, "modified-changed", G_CALLBACK (modified_changed_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->buffer, "notify::cursor-position", G_CALLBACK (cursor_moved_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (adw_style_manager_get_default (), "notify::dark", G_CALLBACK (update_scheme), self,
                           G_CONNECT_SWAPPED);
  update_scheme (self);
}

static gboolean
query_tooltip_cb (WsKernelEditor *self,
                  int             x,
                  int             y,
                  gboolean        keyboard,
                  GtkTooltip     *tooltip)
{
  return !keyboard && ws_kernel_editor_query_tooltip (self, x, y, tooltip);
}

static void
ws_kernel_editor_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  WsKernelEditor *self = WS_KERNEL_EDITOR (object);

  switch ((WsKernelEditorProp) prop_id)
    {
    case PROP_READS:
      g_value_set_boolean (value, self->reads);
      break;
    case PROP_DIAGNOSTICS:
      g_value_set_boxed (value, self->diagnostics);
      break;
    case PROP_CHECKING:
      g_value_set_boolean (value, ws_kernel_editor_get_checking (self));
      break;
    case PROP_FILE:
      g_value_set_object (value, self->file);
      break;
    case PROP_MODIFIED:
      g_value_set_boolean (value, ws_kernel_editor_get_modified (self));
      break;
    case PROP_CURSOR_LINE:
      g_value_set_uint (value, self->cursor_line);
      break;
    case PROP_TITLE:
      g_value_set_string (value, self->title);
      break;
    case PROP_AUTOSAVE:
      g_value_set_boolean (value, self->autosave);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ws_kernel_editor_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  WsKernelEditor *self = WS_KERNEL_EDITOR (object);

  switch ((WsKernelEditorProp) prop_id)
    {
    case PROP_FILE:
      ws_kernel_editor_set_file (self, g_value_get_object (value));
      break;
    case PROP_MODIFIED:
      ws_kernel_editor_set_modified (self, g_value_get_boolean (value));
      break;
    case PROP_AUTOSAVE:
      ws_kernel_editor_set_autosave (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ws_kernel_editor_dispose (GObject *object)
{
  WsKernelEditor *self = WS_KERNEL_EDITOR (object);

  ws_kernel_editor_diagnostics_dispose (self);
  ws_kernel_editor_figures_dispose (self);
  ws_kernel_editor_autosave_dispose (self);
  if (self->buffer)
    g_signal_handlers_disconnect_by_data (self->buffer, self);
  g_clear_handle_id (&self->search_label_source, g_source_remove);
  if (self->scroll_tick && self->view)
    gtk_widget_remove_tick_callback (GTK_WIDGET (self->view), self->scroll_tick);
  self->scroll_tick = 0;
  g_clear_object (&self->search);
  g_clear_object (&self->search_settings);
  gtk_widget_dispose_template (GTK_WIDGET (self), WS_TYPE_KERNEL_EDITOR);
  g_clear_object (&self->buffer);
  G_OBJECT_CLASS (ws_kernel_editor_parent_class)->dispose (object);
}

static void
ws_kernel_editor_finalize (GObject *object)
{
  WsKernelEditor *self = WS_KERNEL_EDITOR (object);

  g_clear_object (&self->file);
  g_free (self->title);
  g_free (self->untitled_name);
  G_OBJECT_CLASS (ws_kernel_editor_parent_class)->finalize (object);
}

static void
install_properties (GObjectClass *object_class)
{
  GParamFlags ro = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;
  GParamFlags rw = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  ws_kernel_editor_props[PROP_READS] = g_param_spec_boolean ("reads", NULL, NULL, FALSE, ro);
  ws_kernel_editor_props[PROP_DIAGNOSTICS] = g_param_spec_boxed ("diagnostics", NULL, NULL, G_TYPE_PTR_ARRAY, ro);
  ws_kernel_editor_props[PROP_CHECKING] = g_param_spec_boolean ("checking", NULL, NULL, FALSE, ro);
  ws_kernel_editor_props[PROP_FILE] = g_param_spec_object ("file", NULL, NULL, G_TYPE_FILE, rw);
  ws_kernel_editor_props[PROP_MODIFIED] = g_param_spec_boolean ("modified", NULL, NULL, FALSE, rw);
  ws_kernel_editor_props[PROP_CURSOR_LINE] = g_param_spec_uint ("cursor-line", NULL, NULL, 1, G_MAXUINT, 1, ro);
  ws_kernel_editor_props[PROP_TITLE] = g_param_spec_string ("title", NULL, NULL, NULL, ro);
  ws_kernel_editor_props[PROP_AUTOSAVE] = g_param_spec_boolean ("autosave", NULL, NULL, FALSE, rw);
  g_object_class_install_properties (object_class, N_PROPS, ws_kernel_editor_props);
}

static void
install_signals (GObjectClass *object_class)
{
  GType type = G_TYPE_FROM_CLASS (object_class);

  ws_kernel_editor_signals[SIGNAL_CHANGED] = g_signal_new ("changed", type, G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                                           G_TYPE_NONE, 0);
  ws_kernel_editor_signals[SIGNAL_CHECKED] = g_signal_new ("checked", type, G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                                           G_TYPE_NONE, 0);
  ws_kernel_editor_signals[SIGNAL_LINE_ACTIVATED] = g_signal_new ("line-activated", type, G_SIGNAL_RUN_LAST, 0,
                                                                  NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);
}

static void
ws_kernel_editor_class_init (WsKernelEditorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->get_property = ws_kernel_editor_get_property;
  object_class->set_property = ws_kernel_editor_set_property;
  object_class->dispose = ws_kernel_editor_dispose;
  object_class->finalize = ws_kernel_editor_finalize;
  install_properties (object_class);
  install_signals (object_class);

  gtk_source_init ();
  g_type_ensure (GTK_SOURCE_TYPE_VIEW);
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/warpscope/Warpscope/ui/ws-kernel-editor.ui");
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "kerneleditor");
  gtk_widget_class_bind_template_child (widget_class, WsKernelEditor, box);
  gtk_widget_class_bind_template_child (widget_class, WsKernelEditor, search_bar);
  gtk_widget_class_bind_template_child (widget_class, WsKernelEditor, search_entry);
  gtk_widget_class_bind_template_child (widget_class, WsKernelEditor, search_label);
  gtk_widget_class_bind_template_child (widget_class, WsKernelEditor, scroller);
  gtk_widget_class_bind_template_child (widget_class, WsKernelEditor, view);
  gtk_widget_class_bind_template_child (widget_class, WsKernelEditor, problems_revealer);
  gtk_widget_class_bind_template_child (widget_class, WsKernelEditor, problems_label);
  gtk_widget_class_bind_template_child (widget_class, WsKernelEditor, problems_list);
  gtk_widget_class_bind_template_callback (widget_class, search_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, search_next_cb);
  gtk_widget_class_bind_template_callback (widget_class, search_previous_cb);
  gtk_widget_class_bind_template_callback (widget_class, search_stop_cb);
  gtk_widget_class_bind_template_callback_full (widget_class, "problem_activated_cb",
                                                G_CALLBACK (ws_kernel_editor_problem_activated_cb));

  gtk_widget_class_install_action (widget_class, "editor.find", NULL, find_action);
  gtk_widget_class_install_action (widget_class, "editor.find-next", NULL, find_next_action);
  gtk_widget_class_install_action (widget_class, "editor.find-previous", NULL, find_next_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_f, GDK_CONTROL_MASK, "editor.find", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_g, GDK_CONTROL_MASK, "editor.find-next", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_g, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "editor.find-previous", NULL);
}

static void
ws_kernel_editor_init (WsKernelEditor *self)
{
  self->scroll_yalign = 0.3;
  gtk_widget_init_template (GTK_WIDGET (self));
  self->cursor_line = 1;
  self->autosave_lock = -1;
  setup_buffer (self);
  setup_search (self);
  watch_clicks (self);
  g_signal_connect_object (self->view, "query-tooltip", G_CALLBACK (query_tooltip_cb), self, G_CONNECT_SWAPPED);
  ws_kernel_editor_diagnostics_init (self);
  ws_kernel_editor_figures_init (self);
  ws_kernel_editor_update_title (self);
  ws_kernel_editor_queue_check (self);
}
