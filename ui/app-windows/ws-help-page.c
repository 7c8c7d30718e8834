/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Turns a help page, Mallard, into widgets; see ws-help-page.h for what
 * of Mallard it reads.  The topics' preset lists come from the model itself, so the
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

/* ------------------------------------------------------------------ */
/* Reading a Mallard page                                             */
/* ------------------------------------------------------------------ */

/* What the text being read becomes. */
typedef enum
{
  TEXT_NONE,
  TEXT_TITLE,       /* the page's title */
  TEXT_HEADING,     /* a section's title */
  TEXT_PARAGRAPH,
  TEXT_ITEM,        /* a paragraph of a list item */
  TEXT_CODE,        /* a block of code, verbatim */
} TextKind;

typedef struct
{
  GtkBox *box;                  /* NULL: only the title is wanted */
  gboolean presets_activatable;
  TextKind kind;
  GString *markup;              /* the text being read, as Pango markup */
  GString *plain;               /* and as plain text (for the title) */
  gboolean space;               /* the text read so far ends in a space */
  GPtrArray *closing;           /* the Pango tags that close the inline elements open */
  GString *item;                /* the list item being read */
  guint keys;                   /* the keys of the key sequence being read */
  guint guis;                   /* the labels of the menu path being read */
  guint skipped;                /* how deep in an element not shown (info) */
  char *title;                  /* the page's title, markup */
  char *plain_title;
} PageReader;

static const char *
parent_element (GMarkupParseContext *context)
{
  const GSList *stack = g_markup_parse_context_get_element_stack (context);

  return stack && stack->next ? stack->next->data : NULL;
}

/* Whether an element in @parent is a block: a paragraph, a list, code… */
static gboolean
is_block_parent (const char *parent)
{
  return g_str_equal (parent, "page") || g_str_equal (parent, "section") || g_str_equal (parent, "item");
}

static void
start_text (PageReader *r,
            TextKind    kind)
{
  r->kind = kind;
  g_string_truncate (r->markup, 0);
  g_string_truncate (r->plain, 0);
  r->space = TRUE;   /* no space at the start */
}

static void
end_text (PageReader *r)
{
  /* no space at the end either */
  if (r->kind != TEXT_CODE && r->markup->len > 0 && r->markup->str[r->markup->len - 1] == ' ')
    g_string_truncate (r->markup, r->markup->len - 1);
  if (r->kind != TEXT_CODE && r->plain->len > 0 && r->plain->str[r->plain->len - 1] == ' ')
    g_string_truncate (r->plain, r->plain->len - 1);

  switch (r->kind)
    {
    case TEXT_TITLE:
      if (r->title == NULL)
        {
          r->title = g_strdup (r->markup->str);
          r->plain_title = g_strdup (r->plain->str);
        }
      break;
    case TEXT_HEADING:
      if (r->box)
        {
          GtkWidget *heading = markup_label (r->markup->str, "title-4");

          gtk_widget_set_margin_top (heading, 12);
          gtk_box_append (r->box, heading);
        }
      break;
    case TEXT_PARAGRAPH:
      if (r->box)
        gtk_box_append (r->box, markup_label (r->markup->str, NULL));
      break;
    case TEXT_ITEM:
      if (r->item->len > 0)
        g_string_append_c (r->item, '\n');
      g_string_append (r->item, r->markup->str);
      break;
    case TEXT_CODE:
      if (r->box)
        gtk_box_append (r->box, code_block (r->plain->str));
      break;
    case TEXT_NONE:
    default:
      g_assert_not_reached ();
    }
  r->kind = TEXT_NONE;
}

/* Runs of white space are one space, as a Mallard reader shows them. */
static void
append_text (PageReader *r,
             const char *text,
             gsize       len)
{
  const char *end = text + len;

  if (r->kind == TEXT_CODE)
    {
      g_string_append_len (r->plain, text, len);
      return;
    }
  while (text < end)
    {
      const char *word = text;

      if (g_ascii_isspace (*text))
        {
          while (text < end && g_ascii_isspace (*text))
            text++;
          if (!r->space)
            {
              g_string_append_c (r->markup, ' ');
              g_string_append_c (r->plain, ' ');
              r->space = TRUE;
            }
          continue;
        }
      while (text < end && !g_ascii_isspace (*text))
        text++;
      {
        g_autofree char *escaped = g_markup_escape_text (word, text - word);

        g_string_append (r->markup, escaped);
        g_string_append_len (r->plain, word, text - word);
        r->space = FALSE;
      }
    }
}

/* Text put in by the reader, not read: a separator, an empty link's target. */
static void
append_literal (PageReader *r,
                const char *text)
{
  append_text (r, text, strlen (text));
}

static const char *
element_attribute (const char **names,
                   const char **values,
                   const char  *name)
{
  for (guint i = 0; names[i]; i++)
    if (g_str_equal (names[i], name))
      return values[i];
  return NULL;
}

/* An element inside a paragraph or a title, as Pango markup. */
static gboolean
start_inline (PageReader  *r,
              const char  *element,
              const char **names,
              const char **values,
              GError     **error)
{
  const char *open = "", *close = "";
  g_autofree char *link = NULL;

  if (g_str_equal (element, "em"))
    {
      const char *style = element_attribute (names, values, "style");
      gboolean strong = style && strstr (style, "strong");

      open = strong ? "<b>" : "<i>";
      close = strong ? "</b>" : "</i>";
    }
  else if (g_str_equal (element, "guiseq") || g_str_equal (element, "keyseq"))
    {
      /* a menu path's labels and a sequence's keys are bold as one */
      *(g_str_equal (element, "guiseq") ? &r->guis : &r->keys) = 1;
      open = "<b>", close = "</b>";
    }
  else if (g_str_equal (element, "gui") && r->guis > 0)
    {
      if (r->guis++ > 1)
        append_literal (r, " › ");
    }
  else if (g_str_equal (element, "key") && r->keys > 0)
    {
      if (r->keys++ > 1)
        append_literal (r, "+");
    }
  else if (g_str_equal (element, "gui") || g_str_equal (element, "key"))
    open = "<b>", close = "</b>";
  else if (g_str_equal (element, "code") || g_str_equal (element, "cmd") || g_str_equal (element, "sys") ||
           g_str_equal (element, "file") || g_str_equal (element, "input") || g_str_equal (element, "output"))
    open = "<tt>", close = "</tt>";
  else if (g_str_equal (element, "var"))
    open = "<i>", close = "</i>";
  else if (g_str_equal (element, "link"))
    {
      const char *xref = element_attribute (names, values, "xref");
      const char *href = element_attribute (names, values, "href");

      if (xref)
        link = g_markup_printf_escaped ("<a href=\"help:%s\">", xref);
      else if (href)
        link = g_markup_printf_escaped ("<a href=\"%s\">", href);
      else
        {
          /* English: a bundled page that is malformed, for the guide's writers */
          g_set_error (error, G_MARKUP_ERROR, G_MARKUP_ERROR_MISSING_ATTRIBUTE, "a <link> with no xref or href");
          return FALSE;
        }
      open = link, close = "</a>";
    }
  else if (!g_str_equal (element, "span") && !g_str_equal (element, "app"))
    {
      /* English: a bundled page that is malformed, for the guide's writers */
      g_set_error (error, G_MARKUP_ERROR, G_MARKUP_ERROR_UNKNOWN_ELEMENT, "<%s> in a paragraph", element);
      return FALSE;
    }
  g_string_append (r->markup, open);
  g_ptr_array_add (r->closing, (gpointer) close);
  return TRUE;
}

static void
end_inline (PageReader *r,
            const char *element)
{
  g_assert (r->closing->len > 0);
  g_string_append (r->markup, g_ptr_array_steal_index (r->closing, r->closing->len - 1));
  if (g_str_equal (element, "guiseq"))
    r->guis = 0;
  else if (g_str_equal (element, "keyseq"))
    r->keys = 0;
}

static void
start_element (GMarkupParseContext *context,
               const char          *element,
               const char         **names,
               const char         **values,
               gpointer             user_data,
               GError             **error)
{
  PageReader *r = user_data;
  const char *parent = parent_element (context);

  if (r->skipped > 0)
    {
      r->skipped++;
      return;
    }
  if (parent == NULL)
    {
      if (!g_str_equal (element, "page"))
        /* English: a bundled page that is malformed, for the guide's writers */
        g_set_error (error, G_MARKUP_ERROR, G_MARKUP_ERROR_UNKNOWN_ELEMENT, "<%s>, not a Mallard <page>", element);
      return;
    }
  if (r->kind != TEXT_NONE)
    {
      start_inline (r, element, names, values, error);
      return;
    }
  if (g_str_equal (parent, "list") ? !g_str_equal (element, "item") : !is_block_parent (parent))
    {
      /* English: a bundled page that is malformed, for the guide's writers */
      g_set_error (error, G_MARKUP_ERROR, G_MARKUP_ERROR_UNKNOWN_ELEMENT, "<%s> in <%s>", element, parent);
      return;
    }

  if (g_str_equal (element, "section") || g_str_equal (element, "list"))
    ;
  else if (g_str_equal (element, "info"))
    r->skipped = 1;
  else if (g_str_equal (element, "title"))
    start_text (r, g_strcmp0 (parent, "page") == 0 ? TEXT_TITLE : TEXT_HEADING);
  else if (g_str_equal (element, "p"))
    start_text (r, g_strcmp0 (parent, "item") == 0 ? TEXT_ITEM : TEXT_PARAGRAPH);
  else if (g_str_equal (element, "code") || g_str_equal (element, "screen"))
    start_text (r, TEXT_CODE);
  else if (g_str_equal (element, "item"))
    g_string_truncate (r->item, 0);
  else if (g_str_equal (element, "ws:presets"))
    {
      const char *topic = element_attribute (names, values, "topic");

      if (topic == NULL)
        /* English: a bundled page that is malformed, for the guide's writers */
        g_set_error (error, G_MARKUP_ERROR, G_MARKUP_ERROR_MISSING_ATTRIBUTE, "<ws:presets> with no topic");
      else if (r->box)
        gtk_box_append (r->box, preset_list (topic, r->presets_activatable));
    }
  else if (g_str_equal (element, "ws:topics"))
    {
      if (r->box)
        gtk_box_append (r->box, topic_list ());
    }
  else
    /* English: a bundled page that is malformed, for the guide's writers */
    g_set_error (error, G_MARKUP_ERROR, G_MARKUP_ERROR_UNKNOWN_ELEMENT, "<%s> is not shown", element);
}

static void
end_element (GMarkupParseContext *context,
             const char          *element,
             gpointer             user_data,
             GError             **error)
{
  PageReader *r = user_data;

  if (r->skipped > 0)
    r->skipped--;
  else if (r->closing->len > 0)
    end_inline (r, element);
  else if (r->kind != TEXT_NONE)
    end_text (r);
  else if (g_str_equal (element, "item") && r->box)
    gtk_box_append (r->box, bullet (r->item->str));
}

static void
element_text (GMarkupParseContext *context,
              const char          *text,
              gsize                len,
              gpointer             user_data,
              GError             **error)
{
  PageReader *r = user_data;

  if (r->skipped > 0 || r->kind == TEXT_NONE)
    return;
  append_text (r, text, len);
}

static const GMarkupParser page_parser = { start_element, end_element, element_text, NULL, NULL };

/* Reads the page into r->box (if any); FALSE with a warning if it is not a
 * page this reader can show. */
static gboolean
read_page (PageReader *r,
           const char *text)
{
  g_autoptr (GMarkupParseContext) context = NULL;
  g_autoptr (GError) error = NULL;

  r->markup = g_string_new (NULL);
  r->plain = g_string_new (NULL);
  r->item = g_string_new (NULL);
  r->closing = g_ptr_array_new ();
  context = g_markup_parse_context_new (&page_parser, G_MARKUP_PREFIX_ERROR_POSITION, r, NULL);
  if ((!g_markup_parse_context_parse (context, text, -1, &error) ||
       !g_markup_parse_context_end_parse (context, &error)) ||
      r->title == NULL)
    {
      g_warning ("A help page could not be read: %s", error ? error->message : "it has no title");
      return FALSE;
    }
  return TRUE;
}

static void
page_reader_clear (PageReader *r)
{
  g_string_free (r->markup, TRUE);
  g_string_free (r->plain, TRUE);
  g_string_free (r->item, TRUE);
  g_ptr_array_unref (r->closing);
  g_free (r->title);
  g_free (r->plain_title);
}

char *
ws_help_page_parse_title (const char *text)
{
  PageReader r = { NULL };
  char *title = NULL;

  g_return_val_if_fail (text != NULL, NULL);

  if (read_page (&r, text))
    title = g_steal_pointer (&r.plain_title);
  page_reader_clear (&r);
  return title;
}

GtkWidget *
ws_help_page_build (const char *text,
                    gboolean    presets_activatable)
{
  GtkWidget *scrolled, *clamp, *box, *title;
  PageReader r = { NULL };

  g_return_val_if_fail (text != NULL, NULL);

  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  gtk_widget_set_margin_top (box, 24);
  gtk_widget_set_margin_bottom (box, 36);
  gtk_widget_set_margin_start (box, 24);
  gtk_widget_set_margin_end (box, 24);
  /* the title goes first, once the page says what it is */
  title = markup_label ("", "title-1");
  gtk_box_append (GTK_BOX (box), title);
  r.box = GTK_BOX (box);
  r.presets_activatable = presets_activatable;
  read_page (&r, text);
  if (r.title)
    gtk_label_set_markup (GTK_LABEL (title), r.title);
  page_reader_clear (&r);

  clamp = adw_clamp_new ();
  adw_clamp_set_maximum_size (ADW_CLAMP (clamp), 720);
  adw_clamp_set_tightening_threshold (ADW_CLAMP (clamp), 560);
  adw_clamp_set_child (ADW_CLAMP (clamp), box);
  scrolled = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), clamp);
  return scrolled;
}
