/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The kernel editor's figures: each line's, from the model of the launch
 * (WsKernelLines) and the counters of a measurement, in two columns of the
 * gutter. A mark at the start of each line holds its place, so that the
 * figures move with their line as the text changes before the next model
 * comes; the map from lines to figures is made again only when the text
 * changed. */
#include <glib/gi18n.h>
#include "ws-kernel-editor-private.h"

static void
clear_figures (WsKernelEditor *self)
{
  GtkTextBuffer *buffer = GTK_TEXT_BUFFER (self->buffer);

  for (guint i = 0; self->figure_marks && i < self->figure_marks->len; i++)
    if (buffer)
      gtk_text_buffer_delete_mark (buffer, self->figure_marks->pdata[i]);
  if (self->figure_marks)
    g_ptr_array_set_size (self->figure_marks, 0);
  if (self->model_texts)
    g_ptr_array_set_size (self->model_texts, 0);
  if (self->measured_texts)
    g_ptr_array_set_size (self->measured_texts, 0);
  g_clear_pointer (&self->lines, ws_kernel_lines_free);
  g_clear_pointer (&self->figures_instance, ws_kernel_instance_unref);
  if (self->figure_map)
    g_hash_table_remove_all (self->figure_map);
}

static void
update_gutters (WsKernelEditor *self)
{
  self->figure_map_changes = G_MAXUINT64;   /* the map is made again */
  ws_kernel_gutter_update (WS_KERNEL_GUTTER (self->model_gutter));
  ws_kernel_gutter_update (WS_KERNEL_GUTTER (self->measured_gutter));
}

/* The texts of the columns, and a mark at each line's start: where the
 * line is now (now: the lines the figures had → where they are, or NULL
 * for the lines of the text modelled). */
static void
place_figures (WsKernelEditor *self,
               GHashTable     *now)
{
  GtkTextBuffer *buffer = GTK_TEXT_BUFFER (self->buffer);

  for (guint i = 0; i < ws_kernel_lines_get_n_lines (self->lines); i++)
    {
      const WsKernelLine *l = ws_kernel_lines_get_line (self->lines, i);
      gpointer at = now ? g_hash_table_lookup (now, GUINT_TO_POINTER (l->line)) : NULL;
      GtkTextIter start;

      gtk_text_buffer_get_iter_at_line (buffer, &start, (at ? GPOINTER_TO_INT (at) : (int) l->line) - 1);
      g_ptr_array_add (self->figure_marks, g_object_ref (gtk_text_buffer_create_mark (buffer, NULL, &start, TRUE)));
      g_ptr_array_add (self->model_texts, ws_kernel_line_format (l, FALSE));
      g_ptr_array_add (self->measured_texts, ws_kernel_line_format (l, TRUE));
    }
  update_gutters (self);
}

void
ws_kernel_editor_set_prediction (WsKernelEditor           *self,
                                 WsKernelInstance         *instance,
                                 const WsKernelPrediction *prediction)
{
  g_return_if_fail (WS_IS_KERNEL_EDITOR (self));
  g_return_if_fail ((instance == NULL) == (prediction == NULL));

  /* the model's column may change width as the figures come and go */
  ws_kernel_editor_keep_cursor_in_place (self);
  clear_figures (self);
  self->figures_stale = FALSE;
  if (instance == NULL)
    {
      update_gutters (self);
      ws_kernel_editor_fill_problems (self);
      return;
    }
  self->figures_instance = ws_kernel_instance_ref (instance);
  self->lines = ws_kernel_lines_new (instance, prediction, self->measurement);
  place_figures (self, NULL);
  /* where the launch came from, among the notes */
  ws_kernel_editor_fill_problems (self);
}

void
ws_kernel_editor_set_measurement (WsKernelEditor      *self,
                                  const WsMeasurement *measurement)
{
  GtkTextBuffer *buffer;
  g_autoptr (GHashTable) now = NULL;
  g_autoptr (WsKernelLines) lines = NULL;
  g_autoptr (WsKernelInstance) instance = NULL;

  g_return_if_fail (WS_IS_KERNEL_EDITOR (self));

  g_clear_pointer (&self->measurement, ws_measurement_free);
  self->measurement = measurement ? ws_measurement_copy (measurement) : NULL;
  if (self->lines == NULL)
    return;
  /* the figures stay where the text has moved them */
  buffer = GTK_TEXT_BUFFER (self->buffer);
  now = g_hash_table_new (NULL, NULL);
  for (guint i = 0; i < self->figure_marks->len; i++)
    {
      GtkTextIter iter;

      gtk_text_buffer_get_iter_at_mark (buffer, &iter, self->figure_marks->pdata[i]);
      g_hash_table_insert (now, GUINT_TO_POINTER (ws_kernel_lines_get_line (self->lines, i)->line),
                           GINT_TO_POINTER (gtk_text_iter_get_line (&iter) + 1));
    }
  /* the hardware's column widens: the text wraps again, and the line one
   * measured from stays in sight */
  ws_kernel_editor_keep_cursor_in_place (self);
  lines = g_steal_pointer (&self->lines);
  instance = ws_kernel_instance_ref (self->figures_instance);
  clear_figures (self);
  ws_kernel_lines_set_measurement (lines, instance, self->measurement);
  self->lines = g_steal_pointer (&lines);
  self->figures_instance = g_steal_pointer (&instance);
  place_figures (self, now);
}

const WsKernelLines *
ws_kernel_editor_get_lines (WsKernelEditor *self)
{
  g_return_val_if_fail (WS_IS_KERNEL_EDITOR (self), NULL);
  return self->lines;
}

void
ws_kernel_editor_figures_changed (WsKernelEditor *self)
{
  if (self->lines == NULL || self->figures_stale)
    return;
  self->figures_stale = TRUE;
  gtk_widget_queue_draw (GTK_WIDGET (self->model_gutter));
  gtk_widget_queue_draw (GTK_WIDGET (self->measured_gutter));
}

void
ws_kernel_editor_figures_refresh (WsKernelEditor *self)
{
  GtkTextBuffer *buffer = GTK_TEXT_BUFFER (self->buffer);

  if (self->figure_map_changes == self->changes || buffer == NULL)
    return;
  self->figure_map_changes = self->changes;
  g_hash_table_remove_all (self->figure_map);
  for (guint i = 0; i < self->figure_marks->len; i++)
    {
      GtkTextIter iter;

      gtk_text_buffer_get_iter_at_mark (buffer, &iter, self->figure_marks->pdata[i]);
      /* lines deleted between: the later figures win */
      g_hash_table_insert (self->figure_map, GINT_TO_POINTER (gtk_text_iter_get_line (&iter) + 1),
                           GUINT_TO_POINTER (i + 1));
    }
}

gboolean
ws_kernel_editor_figure_at (WsKernelEditor *self,
                            guint           line,
                            gboolean        measured,
                            WsKernelFigure *figure)
{
  guint i;

  if (self->lines == NULL)
    return FALSE;
  ws_kernel_editor_figures_refresh (self);
  i = GPOINTER_TO_UINT (g_hash_table_lookup (self->figure_map, GUINT_TO_POINTER (line)));
  if (i == 0)
    return FALSE;
  figure->line = ws_kernel_lines_get_line (self->lines, i - 1);
  figure->text = (measured ? self->measured_texts : self->model_texts)->pdata[i - 1];
  figure->stale = self->figures_stale;
  return figure->text && *figure->text;
}

char *
ws_kernel_editor_describe_line (WsKernelEditor *self,
                                guint           line)
{
  WsKernelFigure f;
  g_autofree char *figures = NULL;

  if (!ws_kernel_editor_figure_at (self, line, FALSE, &f) && !ws_kernel_editor_figure_at (self, line, TRUE, &f))
    return NULL;
  figures = ws_kernel_line_describe (f.line);
  if (f.stale)
    /* Translators: before a line's figures, when the text changed since they were modelled */
    return g_strconcat (_("(for the text as it was before the last change)"), "\n", figures, NULL);
  return g_steal_pointer (&figures);
}

void
ws_kernel_editor_activate_line (WsKernelEditor *self,
                                guint           line)
{
  g_signal_emit (self, ws_kernel_editor_signals[SIGNAL_LINE_ACTIVATED], 0, line);
}

void
ws_kernel_editor_figures_init (WsKernelEditor *self)
{
  /* on the right, where the figures leave the code where it was */
  GtkSourceGutter *gutter = gtk_source_view_get_gutter (self->view, GTK_TEXT_WINDOW_RIGHT);

  self->figure_marks = g_ptr_array_new_with_free_func (g_object_unref);
  self->model_texts = g_ptr_array_new_with_free_func (g_free);
  self->measured_texts = g_ptr_array_new_with_free_func (g_free);
  self->figure_map = g_hash_table_new (NULL, NULL);
  self->model_gutter = g_object_ref_sink (ws_kernel_gutter_new (self, FALSE));
  self->measured_gutter = g_object_ref_sink (ws_kernel_gutter_new (self, TRUE));
  gtk_source_gutter_insert (gutter, self->model_gutter, 0);
  gtk_source_gutter_insert (gutter, self->measured_gutter, 1);
}

void
ws_kernel_editor_figures_dispose (WsKernelEditor *self)
{
  if (self->figure_marks)
    clear_figures (self);
  g_clear_pointer (&self->figure_marks, g_ptr_array_unref);
  g_clear_pointer (&self->model_texts, g_ptr_array_unref);
  g_clear_pointer (&self->measured_texts, g_ptr_array_unref);
  g_clear_pointer (&self->figure_map, g_hash_table_unref);
  g_clear_pointer (&self->measurement, ws_measurement_free);
  g_clear_object (&self->model_gutter);
  g_clear_object (&self->measured_gutter);
}
