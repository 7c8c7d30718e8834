/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <glib/gi18n.h>
#include "ws-preset-sidebar.h"

#include "ws-presets.h"

struct _WsPresetSidebar
{
  GtkWidget parent_instance;

  GtkWidget *scroller;
  GtkListBox *list;
  gboolean selecting;
};

enum
{
  SIGNAL_PRESET_ACTIVATED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (WsPresetSidebar, ws_preset_sidebar, GTK_TYPE_WIDGET)

static const WsPreset *
row_preset (GtkListBoxRow *row)
{
  return row ? g_object_get_data (G_OBJECT (row), "ws-preset") : NULL;
}

static void
update_header (GtkListBoxRow *row,
               GtkListBoxRow *before,
               gpointer       data)
{
  const WsPreset *preset = row_preset (row);
  const WsPreset *prev = row_preset (before);
  GtkWidget *label;

  if (prev && g_strcmp0 (prev->topic, preset->topic) == 0)
    {
      gtk_list_box_row_set_header (row, NULL);
      return;
    }
  label = gtk_label_new (_(ws_topic_lookup (preset->topic)->title));
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, "heading");
  gtk_widget_add_css_class (label, "ws-topic");
  gtk_list_box_row_set_header (row, label);
}

static GtkWidget *
make_row (const WsPreset *preset)
{
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *label = gtk_label_new (_(preset->title));

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 28);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), label);
  gtk_widget_set_tooltip_text (row, _(preset->summary));
  gtk_widget_set_name (row, preset->id);
  g_object_set_data (G_OBJECT (row), "ws-preset", (gpointer) preset);
  return row;
}

static void
on_row_selected (GtkListBox      *list,
                 GtkListBoxRow   *row,
                 WsPresetSidebar *self)
{
  const WsPreset *preset = row_preset (row);

  g_assert (WS_IS_PRESET_SIDEBAR (self));

  if (preset && !self->selecting)
    g_signal_emit (self, signals[SIGNAL_PRESET_ACTIVATED], 0, preset->id);
}

static void
ws_preset_sidebar_dispose (GObject *object)
{
  WsPresetSidebar *self = WS_PRESET_SIDEBAR (object);

  g_clear_pointer (&self->scroller, gtk_widget_unparent);
  G_OBJECT_CLASS (ws_preset_sidebar_parent_class)->dispose (object);
}

static void
ws_preset_sidebar_class_init (WsPresetSidebarClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = ws_preset_sidebar_dispose;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "presetsidebar");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);

  signals[SIGNAL_PRESET_ACTIVATED] = g_signal_new ("preset-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                                   0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
}

static void
ws_preset_sidebar_init (WsPresetSidebar *self)
{
  guint n_topics, n_presets;
  const WsTopic *topics = ws_topics_get_all (&n_topics);
  const WsPreset *presets = ws_presets_get_all (&n_presets);

  self->scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (self->scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_widget_set_parent (self->scroller, GTK_WIDGET (self));
  self->list = GTK_LIST_BOX (gtk_list_box_new ());
  gtk_widget_add_css_class (GTK_WIDGET (self->list), "navigation-sidebar");
  gtk_list_box_set_header_func (self->list, update_header, NULL, NULL);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->list), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Presets"), -1);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->scroller), GTK_WIDGET (self->list));
  /* in the order of the topics, then of the presets */
  for (guint t = 0; t < n_topics; t++)
    for (guint p = 0; p < n_presets; p++)
      if (g_strcmp0 (presets[p].topic, topics[t].id) == 0)
        gtk_list_box_append (self->list, make_row (&presets[p]));
  g_signal_connect (self->list, "row-selected", G_CALLBACK (on_row_selected), self);
}

GtkWidget *
ws_preset_sidebar_new (void)
{
  return g_object_new (WS_TYPE_PRESET_SIDEBAR, NULL);
}

/* Brings the selected row into view, once it has a place. */
static gboolean
scroll_to_selected (gpointer data)
{
  WsPresetSidebar *self = data;
  GtkListBoxRow *row = gtk_list_box_get_selected_row (self->list);
  GtkAdjustment *adj = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (self->scroller));
  graphene_point_t p;
  double top, page;

  if (row == NULL || !gtk_widget_compute_point (GTK_WIDGET (row), GTK_WIDGET (self->list), &GRAPHENE_POINT_INIT (0, 0), &p))
    return G_SOURCE_REMOVE;
  top = gtk_adjustment_get_value (adj);
  page = gtk_adjustment_get_page_size (adj);
  if (p.y < top || p.y + gtk_widget_get_height (GTK_WIDGET (row)) > top + page)
    gtk_adjustment_set_value (adj, p.y - page / 3);
  return G_SOURCE_REMOVE;
}

gboolean
ws_preset_sidebar_select (WsPresetSidebar *self,
                          const char      *id)
{
  g_return_val_if_fail (WS_IS_PRESET_SIDEBAR (self), FALSE);

  for (int i = 0;; i++)
    {
      GtkListBoxRow *row = gtk_list_box_get_row_at_index (self->list, i);
      const WsPreset *preset;

      if (row == NULL)
        break;
      preset = row_preset (row);
      if (preset && id && g_strcmp0 (preset->id, id) == 0)
        {
          self->selecting = TRUE;
          gtk_list_box_select_row (self->list, row);
          self->selecting = FALSE;
          g_idle_add_full (G_PRIORITY_LOW, scroll_to_selected, g_object_ref (self), g_object_unref);
          return TRUE;
        }
    }
  self->selecting = TRUE;
  gtk_list_box_unselect_all (self->list);
  self->selecting = FALSE;
  return FALSE;
}

const char *
ws_preset_sidebar_get_selected (WsPresetSidebar *self)
{
  const WsPreset *preset;

  g_return_val_if_fail (WS_IS_PRESET_SIDEBAR (self), NULL);
  preset = row_preset (gtk_list_box_get_selected_row (self->list));
  return preset ? preset->id : NULL;
}

GtkListBox *
ws_preset_sidebar_get_list (WsPresetSidebar *self)
{
  g_return_val_if_fail (WS_IS_PRESET_SIDEBAR (self), NULL);
  return self->list;
}
