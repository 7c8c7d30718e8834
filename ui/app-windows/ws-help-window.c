/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The user guide, offline: a sidebar of pages and a stack that shows the
 * one being read.  Pages are built the first time they are shown. */
#include "ws-config.h"

#include <glib/gi18n.h>
#include "ws-help-window.h"
#include "ws-help-page.h"
#include "ws-app-windows.h"
#include "ws-presets.h"

#include <string.h>

#define HELP_RESOURCE_PATH "/io/github/warpscope/Warpscope/help/"

struct _WsHelpWindow
{
  AdwWindow parent_instance;

  AdwWindowTitle *window_title;
  GtkListBox *sidebar;
  GtkStack *stack;

  GPtrArray *history;      /* ids of the pages shown before, oldest first */
  char *page;              /* the page shown now */
  gboolean navigating;     /* the sidebar's selection follows a page change */
};

G_DEFINE_FINAL_TYPE (WsHelpWindow, ws_help_window, ADW_TYPE_WINDOW)

/* Every page, in the sidebar's order; a page with a section starts it. */
typedef struct
{
  char *id;
  const char *section;
} PageEntry;

static GArray *page_entries;
static const char **page_ids;

static void
add_page_entry (const char *id,
                const char *section)
{
  PageEntry e = { g_strdup (id), section };

  g_array_append_val (page_entries, e);
}

static void
init_page_table (void)
{
  const WsTopic *topics;
  guint n_topics;

  page_entries = g_array_new (FALSE, FALSE, sizeof (PageEntry));
  add_page_entry ("welcome", N_("Getting Started"));
  add_page_entry ("views", NULL);
  add_page_entry ("editor", NULL);
  topics = ws_topics_get_all (&n_topics);
  for (guint i = 0; i < n_topics; i++)
    add_page_entry (topics[i].id, i == 0 ? N_("Topics") : NULL);
  add_page_entry ("measuring", N_("Using Warpscope"));
  add_page_entry ("compare", NULL);
  add_page_entry ("recordings", NULL);
  add_page_entry ("cli", NULL);

  page_ids = g_new0 (const char *, page_entries->len + 1);
  for (guint i = 0; i < page_entries->len; i++)
    page_ids[i] = g_array_index (page_entries, PageEntry, i).id;
}

static int
page_index (const char *id)
{
  for (guint i = 0; i < page_entries->len; i++)
    if (g_str_equal (g_array_index (page_entries, PageEntry, i).id, id))
      return i;
  return -1;
}

/* The page in the first of the user's languages that has it: the
 * translations are under help/LANG/ (help/meson.build), the English as
 * written under help/, for "C", the last of the languages. */
static GBytes *
lookup_page (const char *id)
{
  const char * const *languages = g_get_language_names ();

  for (guint i = 0; languages[i]; i++)
    {
      g_autofree char *path = NULL;
      GBytes *bytes;

      if (strchr (languages[i], '/'))
        continue;
      if (g_str_equal (languages[i], "C"))
        path = g_strconcat (HELP_RESOURCE_PATH, id, ".page", NULL);
      else
        path = g_strconcat (HELP_RESOURCE_PATH, languages[i], "/", id, ".page", NULL);
      if ((bytes = g_resources_lookup_data (path, G_RESOURCE_LOOKUP_FLAGS_NONE, NULL)))
        return bytes;
    }
  return NULL;
}

/* The page's text: its resource, or for a topic with no page of its own
 * (one added to the model after this guide was written) the topic's summary
 * and its presets. */
static char *
page_text (const char *id)
{
  g_autoptr (GBytes) bytes = lookup_page (id);
  const WsTopic *topic;

  if (bytes)
    return g_strndup (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  topic = ws_topic_lookup (id);
  g_assert (topic != NULL);
  return g_markup_printf_escaped ("<page xmlns=\"http://projectmallard.org/1.0/\" "
                                  "xmlns:ws=\"https://github.com/warpscope/warpscope/help\" id=\"%s\">"
                                  "<title>%s</title><p>%s</p><ws:presets topic=\"%s\"/></page>",
                                  topic->id, _(topic->title), _(topic->summary), topic->id);
}

static char *
page_title (const char *id)
{
  g_autofree char *text = page_text (id);

  return ws_help_page_parse_title (text);
}

/* Whether the window we were opened from can show a preset: it has a
 * "load-preset" action, in its action map or among its class's actions. */
static gboolean
parent_can_load_preset (WsHelpWindow *self)
{
  GtkWindow *parent = gtk_window_get_transient_for (GTK_WINDOW (self));
  const GVariantType *parameter_type;
  const char *name, *property;
  GType owner;

  if (parent == NULL)
    return FALSE;
  if (G_IS_ACTION_GROUP (parent) && g_action_group_has_action (G_ACTION_GROUP (parent), "load-preset"))
    return TRUE;
  /* GTK 4.8 writes every out argument: none may be NULL */
  for (guint i = 0;
       gtk_widget_class_query_action (GTK_WIDGET_GET_CLASS (parent), i, &owner, &name, &parameter_type, &property);
       i++)
    if (g_str_equal (name, "win.load-preset"))
      return TRUE;
  return FALSE;
}

static void
select_sidebar_row (WsHelpWindow *self,
                    int           index)
{
  GtkListBoxRow *row = gtk_list_box_get_row_at_index (self->sidebar, index);

  self->navigating = TRUE;
  gtk_list_box_select_row (self->sidebar, row);
  self->navigating = FALSE;
}

static void
set_page (WsHelpWindow *self,
          const char   *id,
          gboolean      remember)
{
  g_autofree char *title = page_title (id);
  GtkWidget *child = gtk_stack_get_child_by_name (self->stack, id);
  char *previous;

  if (child == NULL)
    {
      g_autofree char *text = page_text (id);

      child = ws_help_page_build (text, parent_can_load_preset (self));
      gtk_stack_add_named (self->stack, child, id);
    }
  gtk_stack_set_visible_child (self->stack, child);
  adw_window_title_set_subtitle (self->window_title, title);
  select_sidebar_row (self, page_index (id));

  if (self->page && remember && !g_str_equal (self->page, id))
    g_ptr_array_add (self->history, g_strdup (self->page));
  previous = self->page;
  self->page = g_strdup (id);   /* id may be the old self->page */
  g_free (previous);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "help.back", self->history->len > 0);
}

/* A page id, a topic id, or a preset id (which resolves to its topic). */
static const char *
resolve_page (const char *id)
{
  const WsPreset *preset;

  if (page_index (id) >= 0)
    return g_array_index (page_entries, PageEntry, page_index (id)).id;
  preset = ws_preset_lookup (id);
  if (preset && page_index (preset->topic) >= 0)
    return g_array_index (page_entries, PageEntry, page_index (preset->topic)).id;
  return NULL;
}

gboolean
ws_help_window_show_page (WsHelpWindow *self,
                          const char   *id)
{
  const char *page;

  g_return_val_if_fail (WS_IS_HELP_WINDOW (self), FALSE);
  g_return_val_if_fail (id != NULL, FALSE);

  page = resolve_page (id);
  if (page == NULL)
    return FALSE;
  set_page (self, page, TRUE);
  return TRUE;
}

const char *
ws_help_window_get_page (WsHelpWindow *self)
{
  g_return_val_if_fail (WS_IS_HELP_WINDOW (self), NULL);

  return self->page;
}

const char *const *
ws_help_window_list_pages (void)
{
  g_type_ensure (WS_TYPE_HELP_WINDOW);
  g_type_class_unref (g_type_class_ref (WS_TYPE_HELP_WINDOW));
  return page_ids;
}

static void
on_row_selected (WsHelpWindow  *self,
                 GtkListBoxRow *row)
{
  if (row == NULL || self->navigating)
    return;
  set_page (self, g_array_index (page_entries, PageEntry, gtk_list_box_row_get_index (row)).id, TRUE);
}

static void
show_page_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  WsHelpWindow *self = WS_HELP_WINDOW (widget);
  const char *id = g_variant_get_string (parameter, NULL);

  if (!ws_help_window_show_page (self, id))
    g_warning ("The guide links to a page it does not have: “%s”", id);
}

static void
back_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  WsHelpWindow *self = WS_HELP_WINDOW (widget);
  g_autofree char *previous = NULL;

  if (self->history->len == 0)
    return;
  previous = g_ptr_array_steal_index (self->history, self->history->len - 1);
  set_page (self, previous, FALSE);
}

static void
load_preset_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  GtkWindow *parent = gtk_window_get_transient_for (GTK_WINDOW (widget));

  if (parent == NULL)
    return;
  gtk_widget_activate_action_variant (GTK_WIDGET (parent), "win.load-preset", parameter);
  gtk_window_present (parent);
}

static void
add_sidebar_rows (WsHelpWindow *self)
{
  for (guint i = 0; i < page_entries->len; i++)
    {
      g_autofree char *title = page_title (g_array_index (page_entries, PageEntry, i).id);
      GtkWidget *label = gtk_label_new (title);

      gtk_label_set_xalign (GTK_LABEL (label), 0.0);
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
      gtk_list_box_append (self->sidebar, label);
    }
}

static void
sidebar_header (GtkListBoxRow *row,
                GtkListBoxRow *before,
                gpointer       user_data)
{
  const PageEntry *e = &g_array_index (page_entries, PageEntry, gtk_list_box_row_get_index (row));
  GtkWidget *header;

  if (e->section == NULL)
    {
      gtk_list_box_row_set_header (row, NULL);
      return;
    }
  header = gtk_label_new (_(e->section));
  gtk_label_set_xalign (GTK_LABEL (header), 0.0);
  gtk_widget_add_css_class (header, "heading");
  gtk_widget_add_css_class (header, "dim-label");
  gtk_widget_set_margin_start (header, 12);
  gtk_widget_set_margin_top (header, before ? 18 : 6);
  gtk_widget_set_margin_bottom (header, 6);
  gtk_list_box_row_set_header (row, header);
}

static void
ws_help_window_finalize (GObject *object)
{
  WsHelpWindow *self = WS_HELP_WINDOW (object);

  g_clear_pointer (&self->history, g_ptr_array_unref);
  g_clear_pointer (&self->page, g_free);

  G_OBJECT_CLASS (ws_help_window_parent_class)->finalize (object);
}

static void
ws_help_window_class_init (WsHelpWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->finalize = ws_help_window_finalize;

  init_page_table ();

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/warpscope/Warpscope/ws-help-window.ui");
  gtk_widget_class_bind_template_child (widget_class, WsHelpWindow, window_title);
  gtk_widget_class_bind_template_child (widget_class, WsHelpWindow, sidebar);
  gtk_widget_class_bind_template_child (widget_class, WsHelpWindow, stack);
  gtk_widget_class_bind_template_callback (widget_class, on_row_selected);

  gtk_widget_class_install_action (widget_class, "help.show-page", "s", show_page_action);
  gtk_widget_class_install_action (widget_class, "help.load-preset", "s", load_preset_action);
  gtk_widget_class_install_action (widget_class, "help.back", NULL, back_action);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Left, GDK_ALT_MASK, "help.back", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_w, GDK_CONTROL_MASK, "window.close", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
ws_help_window_init (WsHelpWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->history = g_ptr_array_new_with_free_func (g_free);
  gtk_list_box_set_header_func (self->sidebar, sidebar_header, NULL, NULL);
  add_sidebar_rows (self);
  set_page (self, "welcome", FALSE);
}

/* Drops the pages built so far; the page shown is built again at once. */
static void
forget_pages (WsHelpWindow *self)
{
  g_autofree char *page = g_strdup (self->page);
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->stack))))
    gtk_stack_remove (self->stack, child);
  set_page (self, page, FALSE);
}

WsHelpWindow *
ws_help_window_new (void)
{
  return g_object_new (WS_TYPE_HELP_WINDOW, NULL);
}

void
ws_show_help_window (GtkWindow  *parent,
                     const char *page_or_null)
{
  static WsHelpWindow *help;

  g_return_if_fail (parent == NULL || GTK_IS_WINDOW (parent));

  /* one guide at a time: a second request shows the page in the first */
  if (help == NULL)
    {
      help = ws_help_window_new ();
      g_object_add_weak_pointer (G_OBJECT (help), (gpointer *) &help);
    }
  if (gtk_window_get_transient_for (GTK_WINDOW (help)) != parent)
    {
      gtk_window_set_transient_for (GTK_WINDOW (help), parent);
      gtk_window_set_destroy_with_parent (GTK_WINDOW (help), TRUE);
      /* whether preset rows can open a preset depends on the parent */
      forget_pages (help);
    }
  if (page_or_null && *page_or_null && !ws_help_window_show_page (help, page_or_null))
    g_warning ("No help page “%s”; showing the guide where it was", page_or_null);
  gtk_window_present (GTK_WINDOW (help));
}
