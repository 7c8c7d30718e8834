/* SPDX-License-Identifier: GPL-3.0-or-later */
/* How close the model is, in a window (ws-truth-window.h). */
#include <glib/gi18n.h>
#include "ws-truth-window.h"
#include "ws-view-style.h"

struct _WsTruthWindow
{
  AdwWindow parent_instance;

  AdwWindowTitle *title;
  GtkDropDown *chooser;
  GtkStack *stack;
  GtkWidget *area;
  GtkWidget *scrolled;       /* the area, larger than the window if need be */
  AdwStatusPage *status;
  GStrv ids;                 /* the tables there are, in the chooser's order */
  GPtrArray *tables;         /* WsTruthTable of each, read once; NULL where it did not read */
  char *id;
  WsTruthView *view;
};

G_DEFINE_FINAL_TYPE (WsTruthWindow, ws_truth_window, ADW_TYPE_WINDOW)

static void
draw (GtkDrawingArea *area,
      cairo_t        *cr,
      int             width,
      int             height,
      gpointer        data)
{
  WsTruthWindow *self = data;
  const WsFigureStyle *style = ws_view_style_get ();

  if (self->view == NULL)
    return;
  cairo_set_source_rgba (cr, style->background.r, style->background.g, style->background.b, style->background.a);
  cairo_paint (cr);
  ws_truth_view_draw (cr, style, width, height, self->view);
}

char *
ws_truth_window_describe_at (WsTruthWindow *self,
                             double         x,
                             double         y)
{
  guint chart, series, point;

  g_return_val_if_fail (WS_IS_TRUTH_WINDOW (self), NULL);

  if (self->view == NULL ||
      !ws_truth_view_pick (self->view, ws_view_style_get (), gtk_widget_get_width (self->area),
                           gtk_widget_get_height (self->area), x, y, &chart, &series, &point))
    return NULL;
  return ws_chart_describe_point (self->view->charts[chart], series, point);
}

static gboolean
on_query_tooltip (GtkWidget  *widget,
                  int         x,
                  int         y,
                  gboolean    keyboard,
                  GtkTooltip *tooltip,
                  gpointer    data)
{
  g_autofree char *text = ws_truth_window_describe_at (data, x, y);

  if (text == NULL)
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

static void
update_size (WsTruthWindow *self)
{
  const WsFigureStyle *style = ws_view_style_get ();
  double w;

  if (self->view == NULL)
    return;
  w = ws_truth_view_min_width (self->view, style);
  gtk_widget_set_size_request (self->area, (int) w, (int) ws_truth_view_min_height (self->view, style, w));
}

gboolean
ws_truth_window_set_id (WsTruthWindow *self,
                        const char    *id)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WsTruthTable) found = NULL;
  const WsTruthTable *table = NULL;
  g_autofree char *subtitle = NULL;

  g_return_val_if_fail (WS_IS_TRUTH_WINDOW (self), FALSE);
  g_return_val_if_fail (id != NULL, FALSE);

  g_clear_pointer (&self->view, ws_truth_view_free);
  g_free (self->id);
  self->id = NULL;
  /* a table the chooser read already, else read now (and the reason it does not read) */
  for (guint i = 0; self->ids[i] && table == NULL; i++)
    if (g_str_equal (self->ids[i], id))
      table = g_ptr_array_index (self->tables, i);
  if (table == NULL)
    table = found = ws_truth_table_find (id, &error);
  if (table == NULL)
    {
      adw_status_page_set_description (self->status, error->message);
      gtk_stack_set_visible_child (self->stack, GTK_WIDGET (self->status));
      adw_window_title_set_subtitle (self->title, NULL);
      return FALSE;
    }
  self->id = g_strdup (id);
  self->view = ws_truth_view_new (table);
  /* Translators: the GPU, then the day its truth table was made */
  subtitle = g_strdup_printf (_("%s, measured %s"), self->view->device, self->view->date);
  adw_window_title_set_subtitle (self->title, subtitle);
  for (guint i = 0; self->ids[i]; i++)
    if (g_str_equal (self->ids[i], id) && gtk_drop_down_get_selected (self->chooser) != i)
      gtk_drop_down_set_selected (self->chooser, i);
  update_size (self);
  gtk_stack_set_visible_child (self->stack, self->scrolled);
  gtk_widget_queue_draw (self->area);
  return TRUE;
}

static void
on_chosen (WsTruthWindow *self)
{
  guint i = gtk_drop_down_get_selected (self->chooser);

  if (i < g_strv_length (self->ids) && g_strcmp0 (self->ids[i], self->id) != 0)
    ws_truth_window_set_id (self, self->ids[i]);
}

const char *
ws_truth_window_get_id (WsTruthWindow *self)
{
  g_return_val_if_fail (WS_IS_TRUTH_WINDOW (self), NULL);
  return self->id;
}

const WsTruthView *
ws_truth_window_get_view (WsTruthWindow *self)
{
  g_return_val_if_fail (WS_IS_TRUTH_WINDOW (self), NULL);
  return self->view;
}

GtkWidget *
ws_truth_window_get_area (WsTruthWindow *self)
{
  g_return_val_if_fail (WS_IS_TRUTH_WINDOW (self), NULL);
  return self->area;
}

/* The chooser names each GPU as its table does: the tables, read once. */
static GtkStringList *
read_tables (WsTruthWindow *self)
{
  GtkStringList *names = gtk_string_list_new (NULL);

  self->tables = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_truth_table_free);
  for (guint i = 0; self->ids[i]; i++)
    {
      WsTruthTable *t = ws_truth_table_find (self->ids[i], NULL);

      g_ptr_array_add (self->tables, t);
      gtk_string_list_append (names, t ? t->device : self->ids[i]);
    }
  return names;
}

static void
ws_truth_window_finalize (GObject *object)
{
  WsTruthWindow *self = WS_TRUTH_WINDOW (object);

  g_strfreev (self->ids);
  g_clear_pointer (&self->tables, g_ptr_array_unref);
  g_free (self->id);
  g_clear_pointer (&self->view, ws_truth_view_free);
  G_OBJECT_CLASS (ws_truth_window_parent_class)->finalize (object);
}

static void
ws_truth_window_class_init (WsTruthWindowClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = ws_truth_window_finalize;
  gtk_widget_class_add_binding_action (GTK_WIDGET_CLASS (klass), GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
ws_truth_window_init (WsTruthWindow *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *header = adw_header_bar_new ();
  g_autoptr (GtkStringList) names = NULL;

  self->ids = ws_truth_table_list_ids ();
  self->title = ADW_WINDOW_TITLE (adw_window_title_new (_("How Close the Model Is"), NULL));
  adw_header_bar_set_title_widget (ADW_HEADER_BAR (header), GTK_WIDGET (self->title));
  names = read_tables (self);
  self->chooser = GTK_DROP_DOWN (gtk_drop_down_new (G_LIST_MODEL (g_object_ref (names)), NULL));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->chooser), _("The GPU whose truth table is shown"));
  adw_header_bar_pack_start (ADW_HEADER_BAR (header), GTK_WIDGET (self->chooser));
  gtk_box_append (GTK_BOX (box), header);

  self->area = gtk_drawing_area_new ();
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (self->area), draw, self, NULL);
  gtk_widget_set_has_tooltip (self->area, TRUE);
  gtk_widget_set_hexpand (self->area, TRUE);
  gtk_widget_set_vexpand (self->area, TRUE);
  g_signal_connect (self->area, "query-tooltip", G_CALLBACK (on_query_tooltip), self);
  self->scrolled = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->scrolled), self->area);
  self->status = ADW_STATUS_PAGE (adw_status_page_new ());
  adw_status_page_set_icon_name (self->status, "dialog-warning-symbolic");
  adw_status_page_set_title (self->status, _("No Truth Table"));
  self->stack = GTK_STACK (gtk_stack_new ());
  gtk_stack_add_child (self->stack, self->scrolled);
  gtk_stack_add_child (self->stack, GTK_WIDGET (self->status));
  gtk_widget_set_vexpand (GTK_WIDGET (self->stack), TRUE);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->stack));
  adw_window_set_content (ADW_WINDOW (self), box);
  gtk_window_set_title (GTK_WINDOW (self), _("How Close the Model Is"));
  gtk_window_set_default_size (GTK_WINDOW (self), 1280, 760);

  g_signal_connect_object (ws_view_style_get_default (), "changed", G_CALLBACK (update_size), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (ws_view_style_get_default (), "changed", G_CALLBACK (gtk_widget_queue_draw), self->area,
                           G_CONNECT_SWAPPED);
  g_signal_connect_swapped (self->chooser, "notify::selected", G_CALLBACK (on_chosen), self);
}

WsTruthWindow *
ws_truth_window_new (GtkWindow  *parent,
                     const char *id)
{
  WsTruthWindow *self = g_object_new (WS_TYPE_TRUTH_WINDOW, "transient-for", parent, NULL);

  if (self->ids[0] == NULL)
    {
      adw_status_page_set_description (self->status, _("Warpscope was installed without its truth tables"));
      gtk_stack_set_visible_child (self->stack, GTK_WIDGET (self->status));
    }
  else if (id == NULL || !g_strv_contains ((const char * const *) self->ids, id) || !ws_truth_window_set_id (self, id))
    ws_truth_window_set_id (self, self->ids[0]);
  return self;
}
