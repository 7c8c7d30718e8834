/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Turns a help page's text into widgets; see ws-help-page.h for the
 * format.  The topics' preset lists come from the model itself, so the
 * guide never disagrees with the presets the window offers. */
#include <glib/gi18n.h>
#include "ws-help-page.h"
#include "ws-presets.h"

#include <adwaita.h>
#include <string.h>

static gboolean
on_activate_link (GtkLabel   *label,
                  const char *uri,
                  gpointer    user_data)
{
  if (!g_str_has_prefix (uri, "help:"))
    return FALSE;   /* let GTK open it */
  gtk_widget_activate_action (GTK_WIDGET (label), "help.show-page", "s", uri + strlen ("help:"));
  return TRUE;
}

static GtkWidget *
markup_label (const char *markup,
              const char *css_class)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_markup (GTK_LABEL (label), markup);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_xalign (GTK_LABEL (label), 0.0);
  gtk_widget_set_halign (label, GTK_ALIGN_FILL);
  if (css_class)
    gtk_widget_add_css_class (label, css_class);
  g_signal_connect (label, "activate-link", G_CALLBACK (on_activate_link), NULL);
  return label;
}

static GtkWidget *
bullet (const char *markup)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  GtkWidget *dot = gtk_label_new ("•");
  GtkWidget *text;

  gtk_widget_set_valign (dot, GTK_ALIGN_START);
  gtk_widget_set_margin_start (dot, 12);
  gtk_box_append (GTK_BOX (box), dot);
  text = markup_label (markup, NULL);
  gtk_widget_set_hexpand (text, TRUE);
  gtk_box_append (GTK_BOX (box), text);
  return box;
}

/* Commands are shown as typed: never wrapped (a wrapped command, copied,
 * is a different command); a long one scrolls sideways. */
static GtkWidget *
code_block (const char *text)
{
  GtkWidget *card = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *scroller = gtk_scrolled_window_new ();
  GtkWidget *label = gtk_label_new (text);

  gtk_widget_add_css_class (card, "card");
  gtk_widget_add_css_class (label, "monospace");
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  gtk_label_set_xalign (GTK_LABEL (label), 0.0);
  gtk_widget_set_margin_start (label, 12);
  gtk_widget_set_margin_end (label, 12);
  gtk_widget_set_margin_top (label, 10);
  gtk_widget_set_margin_bottom (label, 10);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_AUTOMATIC, GTK_POLICY_NEVER);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (scroller), TRUE);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), label);
  gtk_box_append (GTK_BOX (card), scroller);
  return card;
}

static void
on_preset_activated (AdwActionRow *row,
                     gpointer      user_data)
{
  const char *id = g_object_get_data (G_OBJECT (row), "ws-preset-id");

  gtk_widget_activate_action (GTK_WIDGET (row), "help.load-preset", "s", id);
}

static GtkWidget *
preset_list (const char *topic,
             gboolean    activatable)
{
  GtkWidget *list = gtk_list_box_new ();
  const WsPreset *presets;
  guint n;

  gtk_list_box_set_selection_mode (GTK_LIST_BOX (list), GTK_SELECTION_NONE);
  gtk_widget_add_css_class (list, "boxed-list");
  presets = ws_presets_get_all (&n);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *title = NULL;
      g_autofree char *subtitle = NULL;
      GtkWidget *row;

      if (g_strcmp0 (presets[i].topic, topic) != 0)
        continue;
      title = g_markup_escape_text (_(presets[i].title), -1);
      subtitle = g_markup_printf_escaped ("<tt>%s</tt> · %s", presets[i].id, _(presets[i].summary));
      row = adw_action_row_new ();
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
      g_object_set_data_full (G_OBJECT (row), "ws-preset-id", g_strdup (presets[i].id), g_free);
      if (activatable)
        {
          GtkWidget *arrow = gtk_image_new_from_icon_name ("go-next-symbolic");

          adw_action_row_add_suffix (ADW_ACTION_ROW (row), arrow);
          gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), TRUE);
          gtk_widget_set_tooltip_text (row, _("Show this preset in the main window"));
          g_signal_connect (row, "activated", G_CALLBACK (on_preset_activated), NULL);
        }
      gtk_list_box_append (GTK_LIST_BOX (list), row);
    }
  return list;
}

static GtkWidget *
topic_list (void)
{
  const WsTopic *topics;
  guint n;
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);

  topics = ws_topics_get_all (&n);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *item = g_markup_printf_escaped ("<a href=\"help:%s\">%s</a>: %s",
                                                       topics[i].id, _(topics[i].title),
                                                       _(topics[i].summary));
      gtk_box_append (GTK_BOX (box), bullet (item));
    }
  return box;
}

/* Accumulates the lines of the block being read. */
typedef enum
{
  BLOCK_NONE,
  BLOCK_PARAGRAPH,
  BLOCK_BULLET,
  BLOCK_CODE,
} BlockKind;

typedef struct
{
  GtkBox *box;
  BlockKind kind;
  GString *text;
  gboolean presets_activatable;
} PageBuilder;

static void
flush_block (PageBuilder *b)
{
  switch (b->kind)
    {
    case BLOCK_PARAGRAPH:
      gtk_box_append (b->box, markup_label (b->text->str, NULL));
      break;
    case BLOCK_BULLET:
      gtk_box_append (b->box, bullet (b->text->str));
      break;
    case BLOCK_CODE:
      gtk_box_append (b->box, code_block (b->text->str));
      break;
    case BLOCK_NONE:
    default:
      break;
    }
  b->kind = BLOCK_NONE;
  g_string_truncate (b->text, 0);
}

static void
append_to_block (PageBuilder *b,
                 BlockKind    kind,
                 const char  *text,
                 const char  *separator)
{
  if (b->kind != kind)
    flush_block (b);
  else
    g_string_append (b->text, separator);
  b->kind = kind;
  g_string_append (b->text, text);
}

static void
read_line (PageBuilder *b,
           const char  *line)
{
  if (*line == '\0')
    flush_block (b);
  else if (g_str_has_prefix (line, "    ") && b->kind != BLOCK_BULLET)
    append_to_block (b, BLOCK_CODE, line + 4, "\n");
  else if (g_str_has_prefix (line, "  ") && b->kind == BLOCK_BULLET)
    append_to_block (b, BLOCK_BULLET, line + 2, " ");
  else if (g_str_has_prefix (line, "- "))
    {
      flush_block (b);
      append_to_block (b, BLOCK_BULLET, line + 2, " ");
    }
  else if (g_str_has_prefix (line, "## "))
    {
      GtkWidget *heading;

      flush_block (b);
      heading = markup_label (line + 3, "title-4");
      gtk_widget_set_margin_top (heading, 12);
      gtk_box_append (b->box, heading);
    }
  else if (g_str_has_prefix (line, "[presets ") && g_str_has_suffix (line, "]"))
    {
      g_autofree char *topic = g_strndup (line + 9, strlen (line) - 10);

      flush_block (b);
      gtk_box_append (b->box, preset_list (topic, b->presets_activatable));
    }
  else if (g_str_equal (line, "[topics]"))
    {
      flush_block (b);
      gtk_box_append (b->box, topic_list ());
    }
  else
    append_to_block (b, b->kind == BLOCK_BULLET ? BLOCK_BULLET : BLOCK_PARAGRAPH, line, " ");
}

char *
ws_help_page_parse_title (const char *text)
{
  const char *end;

  g_return_val_if_fail (text != NULL, NULL);

  if (!g_str_has_prefix (text, "# "))
    return NULL;
  end = strchr (text, '\n');
  return end ? g_strndup (text + 2, end - text - 2) : g_strdup (text + 2);
}

GtkWidget *
ws_help_page_build (const char *text,
                    gboolean    presets_activatable)
{
  g_autofree char *title = ws_help_page_parse_title (text);
  g_auto (GStrv) lines = NULL;
  GtkWidget *scrolled, *clamp, *box;
  PageBuilder b = { NULL, BLOCK_NONE, g_string_new (NULL), presets_activatable };

  g_return_val_if_fail (title != NULL, NULL);

  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  gtk_widget_set_margin_top (box, 24);
  gtk_widget_set_margin_bottom (box, 36);
  gtk_widget_set_margin_start (box, 24);
  gtk_widget_set_margin_end (box, 24);
  gtk_box_append (GTK_BOX (box), markup_label (title, "title-1"));
  b.box = GTK_BOX (box);

  lines = g_strsplit (text, "\n", -1);
  for (guint i = 1; lines[i]; i++)
    read_line (&b, lines[i]);
  flush_block (&b);
  g_string_free (b.text, TRUE);

  clamp = adw_clamp_new ();
  adw_clamp_set_maximum_size (ADW_CLAMP (clamp), 720);
  adw_clamp_set_tightening_threshold (ADW_CLAMP (clamp), 560);
  adw_clamp_set_child (ADW_CLAMP (clamp), box);
  scrolled = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), clamp);
  return scrolled;
}
