/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The kernel editor's check: the text is read and checked on a thread as
 * it changes (the newest check cancels the one in flight, and a result for
 * an older text is dropped), then its errors are underlined where they
 * are, with their message as a tooltip there and a row in the list under
 * the text. Marks hold each diagnostic's place, so that the underline and
 * the row follow the text typed before the next check ends. */
#include <glib/gi18n.h>
#include "ws-kernel-editor-private.h"

typedef struct
{
  char *text;
  guint64 generation;
} Check;

typedef struct
{
  GPtrArray *diagnostics;
  gboolean reads;
  GStrv kernels;
  char *named_kernel;
} CheckResult;

static void
check_free (Check *check)
{
  g_free (check->text);
  g_free (check);
}

static void
check_result_free (CheckResult *result)
{
  g_clear_pointer (&result->diagnostics, g_ptr_array_unref);
  g_strfreev (result->kernels);
  g_free (result->named_kernel);
  g_free (result);
}

gboolean
ws_kernel_editor_get_checking (WsKernelEditor *self)
{
  g_return_val_if_fail (WS_IS_KERNEL_EDITOR (self), FALSE);
  return self->check_idle != 0 || self->check_cancellable != NULL;
}

gboolean
ws_kernel_editor_get_reads (WsKernelEditor *self)
{
  g_return_val_if_fail (WS_IS_KERNEL_EDITOR (self), FALSE);
  return self->reads;
}

GPtrArray *
ws_kernel_editor_get_diagnostics (WsKernelEditor *self)
{
  g_return_val_if_fail (WS_IS_KERNEL_EDITOR (self), NULL);
  return self->diagnostics;
}

const char * const *
ws_kernel_editor_get_kernels (WsKernelEditor *self)
{
  static const char *none[] = { NULL };

  g_return_val_if_fail (WS_IS_KERNEL_EDITOR (self), none);
  return self->kernels ? (const char * const *) self->kernels : none;
}

const char *
ws_kernel_editor_get_named_kernel (WsKernelEditor *self)
{
  g_return_val_if_fail (WS_IS_KERNEL_EDITOR (self), NULL);
  return self->named_kernel;
}

/* ------------------------------------------------------------------ */
/* Where a diagnostic is in the buffer                                */
/* ------------------------------------------------------------------ */

/* Its range, never empty: a diagnostic at a point (a missing ";") covers
 * the character there, or the one before at the end of a line. */
static void
diagnostic_range (GtkTextBuffer            *buffer,
                  const WsKernelDiagnostic *d,
                  GtkTextIter              *start,
                  GtkTextIter              *end)
{
  gtk_text_buffer_get_iter_at_line_offset (buffer, start, (int) MAX (d->line, 1) - 1, (int) MAX (d->column, 1) - 1);
  if (d->end_line > 0)
    gtk_text_buffer_get_iter_at_line_offset (buffer, end, (int) d->end_line - 1, (int) MAX (d->end_column, 1) - 1);
  else
    *end = *start;
  if (gtk_text_iter_compare (end, start) > 0)
    return;
  *end = *start;
  if (!gtk_text_iter_ends_line (end))
    gtk_text_iter_forward_char (end);
  else if (!gtk_text_iter_starts_line (start))
    gtk_text_iter_backward_char (start);
}

static void
clear_marks (WsKernelEditor *self)
{
  GtkTextBuffer *buffer = GTK_TEXT_BUFFER (self->buffer);

  for (guint i = 0; self->marks && i < self->marks->len; i++)
    gtk_text_buffer_delete_mark (buffer, self->marks->pdata[i]);
  if (self->marks)
    g_ptr_array_set_size (self->marks, 0);
}

static void
mark_range (WsKernelEditor *self,
            guint           i,
            GtkTextIter    *start,
            GtkTextIter    *end)
{
  GtkTextBuffer *buffer = GTK_TEXT_BUFFER (self->buffer);

  gtk_text_buffer_get_iter_at_mark (buffer, start, self->marks->pdata[2 * i]);
  gtk_text_buffer_get_iter_at_mark (buffer, end, self->marks->pdata[2 * i + 1]);
}

static void
underline (WsKernelEditor *self)
{
  GtkTextBuffer *buffer = GTK_TEXT_BUFFER (self->buffer);
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  gtk_text_buffer_remove_tag (buffer, self->error_tag, &start, &end);
  gtk_text_buffer_remove_tag (buffer, self->warning_tag, &start, &end);
  clear_marks (self);
  for (guint i = 0; i < self->diagnostics->len; i++)
    {
      const WsKernelDiagnostic *d = self->diagnostics->pdata[i];

      diagnostic_range (buffer, d, &start, &end);
      g_ptr_array_add (self->marks, g_object_ref (gtk_text_buffer_create_mark (buffer, NULL, &start, TRUE)));
      g_ptr_array_add (self->marks, g_object_ref (gtk_text_buffer_create_mark (buffer, NULL, &end, FALSE)));
      /* a note ("host code ignored") is in the list only: the text is fine */
      if (d->severity == WS_KERNEL_SEVERITY_ERROR)
        gtk_text_buffer_apply_tag (buffer, self->error_tag, &start, &end);
      else if (d->severity == WS_KERNEL_SEVERITY_WARNING)
        gtk_text_buffer_apply_tag (buffer, self->warning_tag, &start, &end);
    }
}

/* ------------------------------------------------------------------ */
/* The list under the text                                            */
/* ------------------------------------------------------------------ */

static const char *
severity_icon (WsKernelSeverity severity)
{
  switch (severity)
    {
    case WS_KERNEL_SEVERITY_ERROR: return "dialog-error-symbolic";
    case WS_KERNEL_SEVERITY_WARNING: return "dialog-warning-symbolic";
    case WS_KERNEL_SEVERITY_NOTE:
    default: return "dialog-information-symbolic";
    }
}

static GtkWidget *
problem_row (const WsKernelDiagnostic *d,
             guint                     index)
{
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *icon = gtk_image_new_from_icon_name (severity_icon (d->severity));
  g_autofree char *where = NULL;
  GtkWidget *place, *message;

  /* Translators: where a problem of the kernel's text is */
  where = g_strdup_printf (_("Line %u, column %u"), d->line, d->column);
  place = gtk_label_new (where);
  message = gtk_label_new (d->message);
  gtk_widget_add_css_class (place, "dim-label");
  gtk_widget_add_css_class (place, "numeric");
  gtk_label_set_xalign (GTK_LABEL (message), 0);
  gtk_label_set_wrap (GTK_LABEL (message), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (message), PANGO_WRAP_WORD_CHAR);
  gtk_widget_set_hexpand (message, TRUE);
  if (d->severity == WS_KERNEL_SEVERITY_ERROR)
    gtk_widget_add_css_class (icon, "error");
  else if (d->severity == WS_KERNEL_SEVERITY_WARNING)
    gtk_widget_add_css_class (icon, "warning");
  gtk_box_append (GTK_BOX (box), icon);
  gtk_box_append (GTK_BOX (box), place);
  gtk_box_append (GTK_BOX (box), message);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  g_object_set_data (G_OBJECT (row), "diagnostic", GUINT_TO_POINTER (index));
  return row;
}

/* The host code's launch the prediction took (or could not), or NULL. */
static const WsKernelDiagnostic *
launch_note (WsKernelEditor *self)
{
  return self->figures_instance ? ws_kernel_instance_get_launch_note (self->figures_instance) : NULL;
}

/* "2 errors, 1 note" */
static char *
problems_summary (GPtrArray                *diagnostics,
                  const WsKernelDiagnostic *extra)
{
  guint n[3] = { 0 };
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < diagnostics->len; i++)
    n[MIN (((WsKernelDiagnostic *) diagnostics->pdata[i])->severity, 2)]++;
  if (extra != NULL)
    n[MIN (extra->severity, 2)]++;
  if (n[WS_KERNEL_SEVERITY_ERROR])
    g_string_append_printf (s, ngettext ("%u error", "%u errors", n[0]), n[0]);
  if (n[WS_KERNEL_SEVERITY_WARNING])
    {
      if (s->len)
        g_string_append (s, ", ");
      g_string_append_printf (s, ngettext ("%u warning", "%u warnings", n[1]), n[1]);
    }
  if (n[WS_KERNEL_SEVERITY_NOTE])
    {
      if (s->len)
        g_string_append (s, ", ");
      g_string_append_printf (s, ngettext ("%u note", "%u notes", n[2]), n[2]);
    }
  return g_string_free (s, FALSE);
}

/* The list: the check's problems and notes, then where the launch came
 * from when the host code gave it (the prediction's). */
void
ws_kernel_editor_fill_problems (WsKernelEditor *self)
{
  GtkWidget *child;
  const WsKernelDiagnostic *launch = launch_note (self);
  g_autofree char *summary = problems_summary (self->diagnostics, launch);

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->problems_list))))
    gtk_list_box_remove (self->problems_list, child);
  for (guint i = 0; i < self->diagnostics->len; i++)
    gtk_list_box_append (self->problems_list, problem_row (self->diagnostics->pdata[i], i));
  if (launch != NULL)
    gtk_list_box_append (self->problems_list, problem_row (launch, G_MAXUINT));
  gtk_label_set_text (self->problems_label, summary);
  gtk_revealer_set_reveal_child (self->problems_revealer, self->diagnostics->len > 0 || launch != NULL);
}

void
ws_kernel_editor_problem_activated_cb (WsKernelEditor *self,
                                       GtkListBoxRow  *row)
{
  guint i = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (row), "diagnostic"));
  GtkTextBuffer *buffer = GTK_TEXT_BUFFER (self->buffer);
  GtkTextIter start, end;
  const WsKernelDiagnostic *launch = launch_note (self);

  if (i == G_MAXUINT && launch != NULL)
    {
      /* the launch in the host code */
      ws_kernel_editor_place_cursor (self, launch->line, launch->column);
      gtk_widget_grab_focus (GTK_WIDGET (self->view));
      return;
    }
  if (2 * i + 1 >= self->marks->len)
    return;
  mark_range (self, i, &start, &end);
  gtk_text_buffer_place_cursor (buffer, &start);
  ws_kernel_editor_place_cursor (self, (guint) gtk_text_iter_get_line (&start) + 1,
                                 (guint) gtk_text_iter_get_line_offset (&start) + 1);
  gtk_widget_grab_focus (GTK_WIDGET (self->view));
}

char *
ws_kernel_editor_messages_at (WsKernelEditor    *self,
                              const GtkTextIter *iter)
{
  GString *text = g_string_new (NULL);
  GtkTextIter start, end;

  for (guint i = 0; i < self->diagnostics->len; i++)
    {
      const WsKernelDiagnostic *d = self->diagnostics->pdata[i];

      if (d->severity == WS_KERNEL_SEVERITY_NOTE)
        continue;
      mark_range (self, i, &start, &end);
      if (gtk_text_iter_compare (iter, &start) < 0 || gtk_text_iter_compare (iter, &end) >= 0)
        continue;
      if (text->len)
        g_string_append_c (text, '\n');
      g_string_append (text, d->message);
    }
  if (text->len == 0)
    {
      g_string_free (text, TRUE);
      return NULL;
    }
  return g_string_free (text, FALSE);
}

gboolean
ws_kernel_editor_query_tooltip (WsKernelEditor *self,
                                int             x,
                                int             y,
                                GtkTooltip     *tooltip)
{
  GtkTextView *view = GTK_TEXT_VIEW (self->view);
  g_autofree char *text = NULL;
  GtkTextIter iter;
  int bx, by;

  gtk_text_view_window_to_buffer_coords (view, GTK_TEXT_WINDOW_WIDGET, x, y, &bx, &by);
  if (!gtk_text_view_get_iter_at_location (view, &iter, bx, by) ||
      (text = ws_kernel_editor_messages_at (self, &iter)) == NULL)
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* The check                                                          */
/* ------------------------------------------------------------------ */

static void
check_thread (GTask        *task,
              gpointer      source,
              gpointer      task_data,
              GCancellable *cancellable)
{
  Check *check = task_data;
  CheckResult *result = g_new0 (CheckResult, 1);
  g_autoptr (WsKernelFile) file = NULL;

  result->diagnostics = ws_kernel_file_check (check->text, -1, &file);
  result->reads = file != NULL;
  if (file != NULL)
    {
      g_autoptr (WsKernelLaunchConfig) config = ws_kernel_config_new (file, NULL, NULL);
      guint n = ws_kernel_file_get_n_kernels (file);

      result->kernels = g_new0 (char *, n + 1);
      for (guint i = 0; i < n; i++)
        result->kernels[i] = g_strdup (ws_kernel_file_get_kernel_name (file, i));
      result->named_kernel = config ? g_strdup (ws_kernel_config_get_kernel (config)) : NULL;
    }
  g_task_return_pointer (task, result, (GDestroyNotify) check_result_free);
}

static void
check_done (GObject      *source,
            GAsyncResult *res,
            gpointer      user_data)
{
  WsKernelEditor *self = WS_KERNEL_EDITOR (source);
  Check *check = g_task_get_task_data (G_TASK (res));
  CheckResult *result = g_task_propagate_pointer (G_TASK (res), NULL);
  gboolean reads_changed;

  /* cancelled by a newer check, or the editor went away */
  if (result == NULL || check->generation != self->check_generation || self->buffer == NULL)
    {
      g_clear_pointer (&result, check_result_free);
      return;
    }
  g_clear_object (&self->check_cancellable);
  g_ptr_array_unref (self->diagnostics);
  self->diagnostics = g_steal_pointer (&result->diagnostics);
  reads_changed = self->reads != result->reads;
  self->reads = result->reads;
  if (result->reads)
    {
      g_strfreev (self->kernels);
      self->kernels = g_steal_pointer (&result->kernels);
      g_free (self->named_kernel);
      self->named_kernel = g_steal_pointer (&result->named_kernel);
    }
  check_result_free (result);
  underline (self);
  ws_kernel_editor_fill_problems (self);
  if (reads_changed)
    g_object_notify_by_pspec (G_OBJECT (self), ws_kernel_editor_props[PROP_READS]);
  g_object_notify_by_pspec (G_OBJECT (self), ws_kernel_editor_props[PROP_DIAGNOSTICS]);
  if (!ws_kernel_editor_get_checking (self))
    g_object_notify_by_pspec (G_OBJECT (self), ws_kernel_editor_props[PROP_CHECKING]);
  g_signal_emit (self, ws_kernel_editor_signals[SIGNAL_CHECKED], 0);
}

static gboolean
start_check (gpointer data)
{
  WsKernelEditor *self = data;
  g_autoptr (GTask) task = NULL;
  Check *check = g_new0 (Check, 1);

  self->check_idle = 0;
  if (self->check_cancellable)
    {
      /* the older check's result is for an older text */
      g_cancellable_cancel (self->check_cancellable);
      g_clear_object (&self->check_cancellable);
    }
  self->check_cancellable = g_cancellable_new ();
  check->text = ws_kernel_editor_get_text (self);
  check->generation = ++self->check_generation;
  task = g_task_new (self, self->check_cancellable, check_done, NULL);
  g_task_set_source_tag (task, start_check);
  g_task_set_task_data (task, check, (GDestroyNotify) check_free);
  g_task_set_check_cancellable (task, TRUE);
  g_task_run_in_thread (task, check_thread);
  return G_SOURCE_REMOVE;
}

void
ws_kernel_editor_queue_check (WsKernelEditor *self)
{
  gboolean was_checking = ws_kernel_editor_get_checking (self);

  if (self->check_idle == 0)
    self->check_idle = g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, start_check, self, NULL);
  if (!was_checking)
    g_object_notify_by_pspec (G_OBJECT (self), ws_kernel_editor_props[PROP_CHECKING]);
}

/* The list grows under the text: the cursor stays in sight. */
static void
problems_revealed_cb (WsKernelEditor *self)
{
  GtkTextBuffer *buffer = GTK_TEXT_BUFFER (self->buffer);

  /* the notes took rows from the text: the cursor stays in sight if it was
   * (one types there, or a file was just opened at a line) */
  if (buffer && (gtk_widget_has_focus (GTK_WIDGET (self->view)) || self->cursor_seen))
    gtk_text_view_scroll_mark_onscreen (GTK_TEXT_VIEW (self->view), gtk_text_buffer_get_insert (buffer));
}

/* Whether the cursor is in sight now, before the notes move the text. */
static void
problems_revealing_cb (WsKernelEditor *self)
{
  if (self->buffer == NULL)
    return;
  self->cursor_seen = ws_kernel_editor_cursor_in_sight (self, NULL);
}

void
ws_kernel_editor_diagnostics_init (WsKernelEditor *self)
{
  GtkTextTagTable *tags = gtk_text_buffer_get_tag_table (GTK_TEXT_BUFFER (self->buffer));

  self->diagnostics = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_kernel_diagnostic_free);
  self->marks = g_ptr_array_new_with_free_func (g_object_unref);
  /* the palette's red and yellow, readable on either scheme */
  self->error_tag = gtk_text_tag_new ("ws-error");
  g_object_set (self->error_tag, "underline", PANGO_UNDERLINE_ERROR,
                "underline-rgba", &(GdkRGBA) { 0.878, 0.106, 0.141, 1 }, NULL);
  self->warning_tag = gtk_text_tag_new ("ws-warning");
  g_object_set (self->warning_tag, "underline", PANGO_UNDERLINE_ERROR,
                "underline-rgba", &(GdkRGBA) { 0.898, 0.647, 0.039, 1 }, NULL);
  gtk_text_tag_table_add (tags, self->error_tag);
  gtk_text_tag_table_add (tags, self->warning_tag);
  g_signal_connect_object (self->problems_revealer, "notify::reveal-child", G_CALLBACK (problems_revealing_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->problems_revealer, "notify::child-revealed", G_CALLBACK (problems_revealed_cb), self,
                           G_CONNECT_SWAPPED);
}

void
ws_kernel_editor_diagnostics_dispose (WsKernelEditor *self)
{
  g_clear_handle_id (&self->check_idle, g_source_remove);
  if (self->check_cancellable)
    g_cancellable_cancel (self->check_cancellable);
  g_clear_object (&self->check_cancellable);
  if (self->buffer && self->marks)
    clear_marks (self);
  g_clear_pointer (&self->marks, g_ptr_array_unref);
  g_clear_pointer (&self->diagnostics, g_ptr_array_unref);
  g_clear_pointer (&self->kernels, g_strfreev);
  g_clear_pointer (&self->named_kernel, g_free);
  g_clear_object (&self->error_tag);
  g_clear_object (&self->warning_tag);
}
