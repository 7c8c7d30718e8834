/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <glib/gi18n.h>
#include "ws-pattern-editor.h"

#include <adwaita.h>
#include <string.h>

static const guint elem_sizes[] = { 1, 2, 4, 8, 16 };

struct _WsPatternEditor
{
  GtkWidget parent_instance;

  GtkWidget *box;
  AdwComboRow *access_row;
  AdwComboRow *space_row;
  AdwComboRow *kind_row;
  AdwComboRow *elem_row;
  AdwEntryRow *index_row;
  GtkLabel *error_label;
  GtkLabel *context_label;
  AdwPreferencesGroup *params_group;
  AdwEntryRow *block_row;
  AdwEntryRow *grid_row;
  AdwEntryRow *block_idx_row;
  GtkAdjustment *warp_adjustment;
  GtkLabel *launch_error_label;

  WsPattern *pattern;          /* the last valid one */
  guint access;
  WsDim3 block_idx;
  guint warp;
  char *error;
  GPtrArray *param_rows;       /* AdwPreferencesRow, each with its "ws-adjustment" */
  gboolean updating;
};

enum
{
  SIGNAL_PATTERN_CHANGED,
  SIGNAL_SELECTION_CHANGED,
  SIGNAL_ERROR_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (WsPatternEditor, ws_pattern_editor, GTK_TYPE_WIDGET)

/* ------------------------------------------------------------------ */
/* Errors, marked where they are                                      */
/* ------------------------------------------------------------------ */

static void
mark_entry (AdwEntryRow *row,
            guint        column)
{
  GtkEditable *text = gtk_editable_get_delegate (GTK_EDITABLE (row));
  const char *s = gtk_editable_get_text (GTK_EDITABLE (row));
  guint len = strlen (s);
  PangoAttrList *attrs = NULL;

  if (column > 0 && len > 0)
    {
      guint start = MIN (column - 1, len - 1), end = start + 1;
      PangoAttribute *a;

      /* the whole word the error points at */
      while (end < len && (g_ascii_isalnum (s[start]) || s[start] == '_') &&
             (g_ascii_isalnum (s[end]) || s[end] == '_' || s[end] == '.'))
        end++;
      attrs = pango_attr_list_new ();
      a = pango_attr_underline_new (PANGO_UNDERLINE_ERROR);
      a->start_index = start;
      a->end_index = end;
      pango_attr_list_insert (attrs, a);
      a = pango_attr_foreground_new (0xc0 * 257, 0x1c * 257, 0x28 * 257);
      a->start_index = start;
      a->end_index = end;
      pango_attr_list_insert (attrs, a);
    }
  if (GTK_IS_TEXT (text))
    gtk_text_set_attributes (GTK_TEXT (text), attrs);
  if (column > 0)
    gtk_widget_add_css_class (GTK_WIDGET (row), "error");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (row), "error");
  g_clear_pointer (&attrs, pango_attr_list_unref);
}

static void
set_error (WsPatternEditor *self,
           GtkLabel        *label,
           const char      *message)
{
  gtk_label_set_text (label, message ? message : "");
  gtk_widget_set_visible (GTK_WIDGET (label), message != NULL);
  if (g_strcmp0 (self->error, message) != 0)
    {
      g_free (self->error);
      self->error = g_strdup (message);
      /* a wrong pattern shows nothing stale: the window hears of it */
      g_signal_emit (self, signals[SIGNAL_ERROR_CHANGED], 0);
    }
}

static void
clear_errors (WsPatternEditor *self)
{
  set_error (self, self->launch_error_label, NULL);
  set_error (self, self->error_label, NULL);
  mark_entry (self->index_row, 0);
  gtk_widget_remove_css_class (GTK_WIDGET (self->block_row), "error");
  gtk_widget_remove_css_class (GTK_WIDGET (self->grid_row), "error");
  gtk_widget_remove_css_class (GTK_WIDGET (self->block_idx_row), "error");
}

/* A name that is neither a parameter nor a definition, with where it is. */
static const WsExpr *
unknown_name (const WsExpr    *e,
              const WsPattern *pattern)
{
  if (e->kind == WS_EXPR_NAME)
    {
      if (ws_pattern_get_param (pattern, e->name, NULL))
        return NULL;
      for (guint i = 0; i < ws_pattern_get_n_definitions (pattern); i++)
        if (g_strcmp0 (ws_pattern_get_definition (pattern, i)->name, e->name) == 0)
          return NULL;
      return e;
    }
  if (e->kind == WS_EXPR_UNARY || e->kind == WS_EXPR_BINARY || e->kind == WS_EXPR_TERNARY || e->kind == WS_EXPR_CALL)
    for (guint i = 0; i < e->op.n_args; i++)
      {
        const WsExpr *found = unknown_name (e->op.args[i], pattern);
        if (found)
          return found;
      }
  return NULL;
}

/* Checks the index as typed: syntax, then names. */
static gboolean
check_index (WsPatternEditor *self,
             const char      *text,
             WsPattern       *pattern)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WsExpr) expr = NULL;
  guint column = 0;
  const WsExpr *unknown;

  expr = ws_expr_parse (text, &column, &error);
  if (expr == NULL)
    {
      set_error (self, self->error_label, error->message);
      mark_entry (self->index_row, MAX (column, 1));
      return FALSE;
    }
  unknown = unknown_name (expr, pattern);
  if (unknown)
    {
      g_autofree char *message = g_strdup_printf (_("column %u: “%s” is neither a parameter nor a definition"),
                                                  unknown->start + 1, unknown->name);
      set_error (self, self->error_label, message);
      mark_entry (self->index_row, unknown->start + 1);
      return FALSE;
    }
  if (!ws_pattern_set_access_index (pattern, self->access, text, &error))
    {
      set_error (self, self->error_label, error->message);
      mark_entry (self->index_row, 1);
      return FALSE;
    }
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* From the widgets to a pattern                                      */
/* ------------------------------------------------------------------ */

static gboolean
apply_access (WsPatternEditor *self,
              WsPattern       *pattern)
{
  const WsAccess *a = ws_pattern_get_access (pattern, self->access);
  g_autoptr (GError) error = NULL;
  guint elem = a->elem_from_param ? a->elem_size : elem_sizes[adw_combo_row_get_selected (self->elem_row)];

  if (!ws_pattern_set_access_space (pattern, self->access, adw_combo_row_get_selected (self->space_row),
                                    adw_combo_row_get_selected (self->kind_row), elem, a->base, &error))
    {
      set_error (self, self->error_label, error->message);
      return FALSE;
    }
  {
    /* "i " is "i": spaces around the index are no part of it */
    g_autofree char *text = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->index_row))));

    return check_index (self, text, pattern);
  }
}

static gboolean
apply_params (WsPatternEditor *self,
              WsPattern       *pattern)
{
  for (guint i = 0; i < self->param_rows->len; i++)
    {
      GObject *row = g_ptr_array_index (self->param_rows, i);
      GtkAdjustment *adj = g_object_get_data (row, "ws-adjustment");
      g_autoptr (GError) error = NULL;

      if (!ws_pattern_set_param (pattern, g_object_get_data (row, "ws-name"), (gint64) gtk_adjustment_get_value (adj),
                                 &error))
        {
          set_error (self, self->error_label, error->message);
          return FALSE;
        }
    }
  return TRUE;
}

static gboolean
parse_dim (WsPatternEditor *self,
           AdwEntryRow     *row,
           const char      *what,
           WsDim3          *out)
{
  g_autoptr (GError) error = NULL;

  if (ws_dim3_parse (gtk_editable_get_text (GTK_EDITABLE (row)), out, &error))
    return TRUE;
  {
    g_autofree char *message = g_strdup_printf ("%s: %s", what, error->message);
    set_error (self, self->launch_error_label, message);
  }
  gtk_widget_add_css_class (GTK_WIDGET (row), "error");
  return FALSE;
}

/* A block index: like a dimension, but from 0. */
static gboolean
parse_index (WsPatternEditor *self,
             AdwEntryRow     *row,
             WsDim3          *out)
{
  g_auto (GStrv) parts = g_strsplit (gtk_editable_get_text (GTK_EDITABLE (row)), ",", -1);
  guint v[3] = { 0, 0, 0 };
  guint n = g_strv_length (parts);

  for (guint i = 0; i < n && n <= 3; i++)
    {
      char *end = NULL;
      const char *t = g_strstrip (parts[i]);
      guint64 x = g_ascii_strtoull (t, &end, 10);

      if (*t == '\0' || *end != '\0' || !g_ascii_isdigit (*t) || x > G_MAXUINT32)
        {
          g_autofree char *message = g_strdup_printf (_("block to look at: “%s” is not a number from 0 (component %u)"),
                                                      t, i + 1);
          set_error (self, self->launch_error_label, message);
          gtk_widget_add_css_class (GTK_WIDGET (row), "error");
          return FALSE;
        }
      v[i] = (guint) x;
    }
  if (n == 0 || n > 3)
    {
      set_error (self, self->launch_error_label, _("block to look at: give x, y and z, from 0"));
      gtk_widget_add_css_class (GTK_WIDGET (row), "error");
      return FALSE;
    }
  *out = WS_DIM3 (v[0], v[1], v[2]);
  return TRUE;
}

static gboolean
apply_launch (WsPatternEditor *self,
              WsPattern       *pattern)
{
  g_autoptr (GError) error = NULL;
  WsDim3 block, grid;

  if (!parse_dim (self, self->block_row, _("threads per block"), &block) ||
      !parse_dim (self, self->grid_row, _("blocks in the grid"), &grid))
    return FALSE;
  if (!ws_pattern_set_block (pattern, block, &error) || !ws_pattern_set_grid (pattern, grid, &error))
    {
      set_error (self, self->launch_error_label, error->message);
      return FALSE;
    }
  return TRUE;
}

static void
update_warp_range (WsPatternEditor *self)
{
  guint warps = ws_pattern_get_warps_per_block (self->pattern);

  gtk_adjustment_set_upper (self->warp_adjustment, MAX (1, warps) - 1);
  self->warp = MIN (self->warp, MAX (1, warps) - 1);
}

static gboolean
apply_selection (WsPatternEditor *self)
{
  WsDim3 idx, grid = ws_pattern_get_grid (self->pattern);

  if (!parse_index (self, self->block_idx_row, &idx))
    return FALSE;
  if (idx.x >= grid.x || idx.y >= grid.y || idx.z >= grid.z)
    {
      g_autofree char *message = g_strdup_printf (_("block to look at: (%u, %u, %u) is outside the grid of (%u, %u, %u)"),
                                                  idx.x, idx.y, idx.z, grid.x, grid.y, grid.z);
      set_error (self, self->launch_error_label, message);
      gtk_widget_add_css_class (GTK_WIDGET (self->block_idx_row), "error");
      return FALSE;
    }
  self->block_idx = idx;
  self->warp = (guint) gtk_adjustment_get_value (self->warp_adjustment);
  return TRUE;
}

static void
on_edited (WsPatternEditor *self)
{
  g_autoptr (WsPattern) copy = NULL;
  g_autoptr (GError) error = NULL;

  g_assert (WS_IS_PATTERN_EDITOR (self));

  if (self->updating || self->pattern == NULL)
    return;
  clear_errors (self);
  copy = ws_pattern_copy (self->pattern);
  if (!apply_access (self, copy) || !apply_params (self, copy) || !apply_launch (self, copy))
    return;
  if (!ws_pattern_validate (copy, &error))
    {
      set_error (self, self->error_label, error->message);
      return;
    }
  g_clear_pointer (&self->pattern, ws_pattern_unref);
  self->pattern = g_steal_pointer (&copy);
  update_warp_range (self);
  if (!apply_selection (self))
    return;
  g_signal_emit (self, signals[SIGNAL_PATTERN_CHANGED], 0);
}

static void
on_selection_edited (WsPatternEditor *self)
{
  g_assert (WS_IS_PATTERN_EDITOR (self));

  if (self->updating || self->pattern == NULL)
    return;
  gtk_widget_remove_css_class (GTK_WIDGET (self->block_idx_row), "error");
  set_error (self, self->launch_error_label, NULL);
  if (apply_selection (self))
    g_signal_emit (self, signals[SIGNAL_SELECTION_CHANGED], 0);
}

/* ------------------------------------------------------------------ */
/* From a pattern to the widgets                                      */
/* ------------------------------------------------------------------ */

static void
show_access (WsPatternEditor *self)
{
  const WsAccess *a = ws_pattern_get_access (self->pattern, self->access);

  adw_combo_row_set_selected (self->space_row, a->space);
  adw_combo_row_set_selected (self->kind_row, a->kind);
  for (guint i = 0; i < G_N_ELEMENTS (elem_sizes); i++)
    if (elem_sizes[i] == a->elem_size)
      adw_combo_row_set_selected (self->elem_row, i);
  gtk_widget_set_sensitive (GTK_WIDGET (self->elem_row), !a->elem_from_param);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (self->elem_row),
                               a->elem_from_param ? _("Set by the parameter elem_size") : "");
  gtk_editable_set_text (GTK_EDITABLE (self->index_row), a->index_text);
}

static void
show_context (WsPatternEditor *self)
{
  GString *s = g_string_new (NULL);
  const char *guard = ws_pattern_get_guard_text (self->pattern);

  for (guint i = 0; i < ws_pattern_get_n_definitions (self->pattern); i++)
    {
      const WsDefinition *d = ws_pattern_get_definition (self->pattern, i);
      g_string_append_printf (s, "%s%s = %s", s->len ? "\n" : "", d->name, d->text);
    }
  if (guard)
    g_string_append_printf (s, "%sif (%s)", s->len ? "\n" : "", guard);
  gtk_label_set_text (self->context_label, s->str);
  gtk_widget_set_visible (GTK_WIDGET (self->context_label), s->len > 0);
  g_string_free (s, TRUE);
}

/* A parameter: its name and what it is above, the value's spin button
 * beside them, and where a slider can reach every value, the slider
 * under them the row's whole width (beside the spin button, it left the
 * description a few characters a line: "consecu-ti-ve"). */
static GtkWidget *
make_param_row (WsPatternEditor *self,
                const WsParam   *p)
{
  GtkWidget *row = adw_preferences_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  GtkWidget *top = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *labels = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *title = gtk_label_new (p->name);
  GtkAdjustment *adj = gtk_adjustment_new (p->value, p->min, p->max, 1, MAX (1, (p->max - p->min) / 16), 0);
  GtkWidget *spin = gtk_spin_button_new (adj, 1, 0);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), p->name);
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), FALSE);
  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 12);
  gtk_widget_set_margin_top (box, 8);
  gtk_widget_set_margin_bottom (box, 8);
  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_label_set_wrap (GTK_LABEL (title), TRUE);
  gtk_box_append (GTK_BOX (labels), title);
  /* a preset's parameter is described in the catalogue's English: translated here */
  if (p->description && *p->description)
    {
      GtkWidget *subtitle = gtk_label_new (_(p->description));

      gtk_label_set_xalign (GTK_LABEL (subtitle), 0);
      gtk_label_set_wrap (GTK_LABEL (subtitle), TRUE);
      gtk_label_set_wrap_mode (GTK_LABEL (subtitle), PANGO_WRAP_WORD);
      gtk_widget_add_css_class (subtitle, "dim-label");
      gtk_widget_add_css_class (subtitle, "caption");
      gtk_box_append (GTK_BOX (labels), subtitle);
      gtk_accessible_update_property (GTK_ACCESSIBLE (spin), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                      _(p->description), -1);
    }
  gtk_widget_set_hexpand (labels, TRUE);
  gtk_widget_set_valign (labels, GTK_ALIGN_CENTER);
  gtk_box_append (GTK_BOX (top), labels);
  gtk_widget_set_valign (spin, GTK_ALIGN_CENTER);
  gtk_spin_button_set_numeric (GTK_SPIN_BUTTON (spin), TRUE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (spin), GTK_ACCESSIBLE_PROPERTY_LABEL, p->name, -1);
  gtk_box_append (GTK_BOX (top), spin);
  gtk_box_append (GTK_BOX (box), top);
  /* a slider where it can reach every value */
  if (p->max - p->min <= 512)
    {
      GtkWidget *scale = gtk_scale_new (GTK_ORIENTATION_HORIZONTAL, adj);

      gtk_scale_set_digits (GTK_SCALE (scale), 0);
      gtk_accessible_update_property (GTK_ACCESSIBLE (scale), GTK_ACCESSIBLE_PROPERTY_LABEL, p->name, -1);
      gtk_box_append (GTK_BOX (box), scale);
    }
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  g_object_set_data_full (G_OBJECT (row), "ws-name", g_strdup (p->name), g_free);
  g_object_set_data (G_OBJECT (row), "ws-adjustment", adj);
  g_signal_connect_object (adj, "value-changed", G_CALLBACK (on_edited), self, G_CONNECT_SWAPPED);
  return row;
}

static void
show_params (WsPatternEditor *self)
{
  guint n = ws_pattern_get_n_params (self->pattern);

  for (guint i = 0; i < self->param_rows->len; i++)
    adw_preferences_group_remove (self->params_group, g_ptr_array_index (self->param_rows, i));
  g_ptr_array_set_size (self->param_rows, 0);
  for (guint i = 0; i < n; i++)
    {
      GtkWidget *row = make_param_row (self, ws_pattern_get_param_nth (self->pattern, i));
      adw_preferences_group_add (self->params_group, row);
      g_ptr_array_add (self->param_rows, row);
    }
  gtk_widget_set_visible (GTK_WIDGET (self->params_group), n > 0);
}

static void
set_dim_text (AdwEntryRow *row,
              WsDim3       d)
{
  g_autofree char *text = NULL;

  if (d.z > 1)
    text = g_strdup_printf ("%u, %u, %u", d.x, d.y, d.z);
  else if (d.y > 1)
    text = g_strdup_printf ("%u, %u", d.x, d.y);
  else
    text = g_strdup_printf ("%u", d.x);
  gtk_editable_set_text (GTK_EDITABLE (row), text);
}

static void
show_accesses (WsPatternEditor *self)
{
  guint n = ws_pattern_get_n_accesses (self->pattern);
  g_autoptr (GtkStringList) list = gtk_string_list_new (NULL);

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *what = ws_pattern_describe_access (self->pattern, i);
      g_autofree char *text = g_strdup_printf ("%u · %s", i + 1, what);
      gtk_string_list_append (list, text);
    }
  adw_combo_row_set_model (self->access_row, G_LIST_MODEL (list));
  adw_combo_row_set_selected (self->access_row, self->access);
  gtk_widget_set_visible (GTK_WIDGET (self->access_row), n > 1);
}

void
ws_pattern_editor_set_pattern (WsPatternEditor *self,
                               const WsPattern *pattern)
{
  ws_pattern_editor_set_pattern_at (self, pattern, 0);
}

void
ws_pattern_editor_set_pattern_at (WsPatternEditor *self,
                                  const WsPattern *pattern,
                                  guint            access)
{
  g_return_if_fail (WS_IS_PATTERN_EDITOR (self));
  g_return_if_fail (pattern != NULL);
  g_return_if_fail (access < MAX (1, ws_pattern_get_n_accesses (pattern)));

  self->updating = TRUE;
  g_clear_pointer (&self->pattern, ws_pattern_unref);
  self->pattern = ws_pattern_copy (pattern);
  self->access = access;
  self->block_idx = WS_DIM3 (0, 0, 0);
  self->warp = 0;
  clear_errors (self);
  show_accesses (self);
  show_access (self);
  show_context (self);
  show_params (self);
  set_dim_text (self->block_row, ws_pattern_get_block (pattern));
  set_dim_text (self->grid_row, ws_pattern_get_grid (pattern));
  gtk_editable_set_text (GTK_EDITABLE (self->block_idx_row), "0, 0, 0");
  update_warp_range (self);
  gtk_adjustment_set_value (self->warp_adjustment, 0);
  self->updating = FALSE;
}

static void
on_access_selected (WsPatternEditor *self)
{
  guint i;

  g_assert (WS_IS_PATTERN_EDITOR (self));

  i = adw_combo_row_get_selected (self->access_row);
  if (self->updating || self->pattern == NULL || i == GTK_INVALID_LIST_POSITION || i == self->access)
    return;
  self->updating = TRUE;
  self->access = i;
  clear_errors (self);
  show_access (self);
  self->updating = FALSE;
  g_signal_emit (self, signals[SIGNAL_SELECTION_CHANGED], 0);
}

/* The instructions' menu: each whole, wrapped, never cut short. */
static void
setup_instruction (GtkSignalListItemFactory *factory,
                   GtkListItem              *item)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 48);
  gtk_list_item_set_child (item, label);
}

static void
bind_instruction (GtkSignalListItemFactory *factory,
                  GtkListItem              *item)
{
  GtkStringObject *text = gtk_list_item_get_item (item);

  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (item)), gtk_string_object_get_string (text));
}

static GtkListItemFactory *
instruction_factory (void)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();

  g_signal_connect (factory, "setup", G_CALLBACK (setup_instruction), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_instruction), NULL);
  return factory;
}

/* ------------------------------------------------------------------ */
/* GObject                                                            */
/* ------------------------------------------------------------------ */

static void
ws_pattern_editor_dispose (GObject *object)
{
  WsPatternEditor *self = WS_PATTERN_EDITOR (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), WS_TYPE_PATTERN_EDITOR);
  G_OBJECT_CLASS (ws_pattern_editor_parent_class)->dispose (object);
}

static void
ws_pattern_editor_finalize (GObject *object)
{
  WsPatternEditor *self = WS_PATTERN_EDITOR (object);

  g_clear_pointer (&self->pattern, ws_pattern_unref);
  g_ptr_array_unref (self->param_rows);
  g_free (self->error);
  G_OBJECT_CLASS (ws_pattern_editor_parent_class)->finalize (object);
}

static void
ws_pattern_editor_class_init (WsPatternEditorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ws_pattern_editor_dispose;
  object_class->finalize = ws_pattern_editor_finalize;

  signals[SIGNAL_PATTERN_CHANGED] = g_signal_new ("pattern-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                                  NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[SIGNAL_SELECTION_CHANGED] = g_signal_new ("selection-changed", G_TYPE_FROM_CLASS (klass),
                                                    G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  /* ws_pattern_editor_get_error says what is wrong now, or NULL */
  signals[SIGNAL_ERROR_CHANGED] = g_signal_new ("error-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                                NULL, NULL, NULL, G_TYPE_NONE, 0);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/warpscope/Warpscope/ui/ws-pattern-editor.ui");
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "patterneditor");
  gtk_widget_class_bind_template_child (widget_class, WsPatternEditor, box);
  gtk_widget_class_bind_template_child (widget_class, WsPatternEditor, access_row);
  gtk_widget_class_bind_template_child (widget_class, WsPatternEditor, space_row);
  gtk_widget_class_bind_template_child (widget_class, WsPatternEditor, kind_row);
  gtk_widget_class_bind_template_child (widget_class, WsPatternEditor, elem_row);
  gtk_widget_class_bind_template_child (widget_class, WsPatternEditor, index_row);
  gtk_widget_class_bind_template_child (widget_class, WsPatternEditor, error_label);
  gtk_widget_class_bind_template_child (widget_class, WsPatternEditor, context_label);
  gtk_widget_class_bind_template_child (widget_class, WsPatternEditor, params_group);
  gtk_widget_class_bind_template_child (widget_class, WsPatternEditor, block_row);
  gtk_widget_class_bind_template_child (widget_class, WsPatternEditor, grid_row);
  gtk_widget_class_bind_template_child (widget_class, WsPatternEditor, block_idx_row);
  gtk_widget_class_bind_template_child (widget_class, WsPatternEditor, warp_adjustment);
  gtk_widget_class_bind_template_child (widget_class, WsPatternEditor, launch_error_label);
}

static void
ws_pattern_editor_init (WsPatternEditor *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->param_rows = g_ptr_array_new ();

  {
    g_autoptr (GtkListItemFactory) factory = instruction_factory ();
    adw_combo_row_set_list_factory (self->access_row, factory);
  }
  g_signal_connect_object (self->access_row, "notify::selected", G_CALLBACK (on_access_selected), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->space_row, "notify::selected", G_CALLBACK (on_edited), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->kind_row, "notify::selected", G_CALLBACK (on_edited), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->elem_row, "notify::selected", G_CALLBACK (on_edited), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->index_row, "changed", G_CALLBACK (on_edited), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->block_row, "changed", G_CALLBACK (on_edited), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->grid_row, "changed", G_CALLBACK (on_edited), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->block_idx_row, "changed", G_CALLBACK (on_selection_edited), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->warp_adjustment, "value-changed", G_CALLBACK (on_selection_edited), self,
                           G_CONNECT_SWAPPED);
}

GtkWidget *
ws_pattern_editor_new (void)
{
  return g_object_new (WS_TYPE_PATTERN_EDITOR, NULL);
}

WsPattern *
ws_pattern_editor_get_pattern (WsPatternEditor *self)
{
  g_return_val_if_fail (WS_IS_PATTERN_EDITOR (self), NULL);
  return self->pattern;
}

guint
ws_pattern_editor_get_access (WsPatternEditor *self)
{
  g_return_val_if_fail (WS_IS_PATTERN_EDITOR (self), 0);
  return self->access;
}

void
ws_pattern_editor_set_access (WsPatternEditor *self,
                              guint            access)
{
  g_return_if_fail (WS_IS_PATTERN_EDITOR (self));
  g_return_if_fail (self->pattern && access < ws_pattern_get_n_accesses (self->pattern));

  adw_combo_row_set_selected (self->access_row, access);
}

WsDim3
ws_pattern_editor_get_block_idx (WsPatternEditor *self)
{
  g_return_val_if_fail (WS_IS_PATTERN_EDITOR (self), WS_DIM3 (0, 0, 0));
  return self->block_idx;
}

guint
ws_pattern_editor_get_warp (WsPatternEditor *self)
{
  g_return_val_if_fail (WS_IS_PATTERN_EDITOR (self), 0);
  return self->warp;
}

void
ws_pattern_editor_set_warp (WsPatternEditor *self,
                            guint            warp)
{
  g_return_if_fail (WS_IS_PATTERN_EDITOR (self));
  gtk_adjustment_set_value (self->warp_adjustment, warp);
}

const char *
ws_pattern_editor_get_error (WsPatternEditor *self)
{
  g_return_val_if_fail (WS_IS_PATTERN_EDITOR (self), NULL);
  return self->error;
}

GtkEditable *
ws_pattern_editor_get_index_entry (WsPatternEditor *self)
{
  g_return_val_if_fail (WS_IS_PATTERN_EDITOR (self), NULL);
  return GTK_EDITABLE (self->index_row);
}

void
ws_pattern_editor_show_error (WsPatternEditor *self,
                              const char      *message)
{
  g_return_if_fail (WS_IS_PATTERN_EDITOR (self));
  set_error (self, self->error_label, message);
}

gboolean
ws_pattern_editor_set_param (WsPatternEditor *self,
                             const char      *name,
                             gint64           value)
{
  g_return_val_if_fail (WS_IS_PATTERN_EDITOR (self), FALSE);

  for (guint i = 0; i < self->param_rows->len; i++)
    {
      GObject *row = g_ptr_array_index (self->param_rows, i);
      if (g_strcmp0 (g_object_get_data (row, "ws-name"), name) == 0)
        {
          gtk_adjustment_set_value (g_object_get_data (row, "ws-adjustment"), value);
          return TRUE;
        }
    }
  return FALSE;
}
