/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <glib/gi18n.h>
#include "ws-numbers-view.h"

#include <adwaita.h>
#include <math.h>

#include "ws-chart.h"

/* A value longer than this is a file's text: it is cut short. */
#define MAX_VALUE_CHARS 300

struct _WsNumbersView
{
  GtkWidget parent_instance;

  GtkWidget *box;
  AdwPreferencesGroup *model_group;
  AdwPreferencesGroup *hierarchy_group;
  AdwPreferencesGroup *measured_group;
  GtkWidget *calibrate_button;
  GHashTable *rows;            /* key → AdwActionRow */
  GPtrArray *counter_rows;
  GtkWidget *message_row;
};

G_DEFINE_FINAL_TYPE (WsNumbersView, ws_numbers_view, GTK_TYPE_WIDGET)

typedef enum
{
  GROUP_MODEL,
  GROUP_HIERARCHY,
  GROUP_MEASURED,
} Group;

static const struct
{
  const char *key;
  const char *title;
  const char *subtitle;
  Group group;
} row_specs[] = {
  { "instructions", N_("Warp instructions"), N_("in the whole launch"), GROUP_MODEL },
  { "sectors-per-request", N_("Sectors per request"), N_("32-byte sectors each warp instruction moves"), GROUP_MODEL },
  { "coalescing", N_("Coalescing"), N_("bytes asked for ÷ bytes moved"), GROUP_MODEL },
  { "bytes-moved", N_("Bytes moved"), N_("by the sectors, whole launch"), GROUP_MODEL },
  { "wavefronts", N_("Wavefronts per instruction"), N_("passes through the 32 banks"), GROUP_MODEL },
  { "bank-conflicts", N_("Bank conflicts per instruction"), N_("wavefronts beyond the fewest possible"), GROUP_MODEL },
  { "distinct", N_("Distinct addresses per instruction"), NULL, GROUP_MODEL },
  { "replays", N_("Replays per instruction"), N_("passes beyond the first"), GROUP_MODEL },
  { "atomic-conflicts", N_("Lanes waiting on another"), N_("per instruction, on the same address"), GROUP_MODEL },
  { "hierarchy-state", "", NULL, GROUP_HIERARCHY },
  { "predicted", N_("Predicted time per launch"), NULL, GROUP_HIERARCHY },
  { "bound", N_("Bound by"), N_("the slowest level"), GROUP_HIERARCHY },
  { "l1-hit-rate", N_("L1 hit rate"), N_("of the load sectors the warps look up"), GROUP_HIERARCHY },
  { "l2-sectors", N_("L2 sectors"), N_("read and written by L1"), GROUP_HIERARCHY },
  { "l2-hit-rate", N_("L2 hit rate"), N_("of the sectors read"), GROUP_HIERARCHY },
  { "dram-bytes", N_("DRAM bytes"), N_("read and written"), GROUP_HIERARCHY },
  { "source", N_("Measured on"), NULL, GROUP_MEASURED },
  { "median", N_("Median time per launch"), NULL, GROUP_MEASURED },
  { "range", N_("Fastest – slowest"), NULL, GROUP_MEASURED },
  { "bandwidth", N_("Effective bandwidth"), N_("bytes the kernel must move ÷ median"), GROUP_MEASURED },
  { "bytes", N_("Bytes per launch"), NULL, GROUP_MEASURED },
  { "clock", N_("SM clock while sampling"), NULL, GROUP_MEASURED },
  { "verified", N_("Output checked"), N_("against a CPU reference"), GROUP_MEASURED },
  { "counted", N_("Counted"), NULL, GROUP_MEASURED },
  { "warning", N_("Note"), NULL, GROUP_MEASURED },
};

static char *
format_si (double      v,
           const char *unit)
{
  WsChartAxis axis = { .unit = (char *) unit, .si = TRUE, .min = 0, .max = v };

  return ws_chart_axis_format (&axis, v, TRUE);
}

static AdwActionRow *
find_row (WsNumbersView *self,
          const char    *key)
{
  AdwActionRow *row = g_hash_table_lookup (self->rows, key);

  g_assert (row != NULL);
  return row;
}

static void
set_row (WsNumbersView *self,
         const char    *key,
         const char    *value)
{
  AdwActionRow *row = find_row (self, key);
  GtkLabel *label = g_object_get_data (G_OBJECT (row), "ws-value");
  /* where it came from and a warning are a file's or a worker's text */
  g_autofree char *shown = ws_text_bounded (value ? value : "", MAX_VALUE_CHARS);

  /* new text lays the window out again: the numbers of a sweep's every
   * point are mostly the ones shown already */
  if (g_strcmp0 (gtk_label_get_text (label), shown) != 0)
    gtk_label_set_text (label, shown);
  gtk_widget_set_visible (GTK_WIDGET (row), value != NULL);
}

/* A group's description is markup, and says what a user typed (“i < N”)
 * and a profile's name: escaped, and bounded. */
static void
set_description (AdwPreferencesGroup *group,
                 const char          *text)
{
  g_autofree char *shown = text ? ws_text_bounded (text, MAX_VALUE_CHARS) : NULL;
  g_autofree char *escaped = shown ? g_markup_escape_text (shown, -1) : NULL;

  adw_preferences_group_set_description (group, escaped);
}

static GtkWidget *
make_row (const char *title,
          const char *subtitle)
{
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *value = gtk_label_new (NULL);

  /* titles name counters a file holds, and say messages that quote one */
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  if (subtitle)
    adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  gtk_label_set_selectable (GTK_LABEL (value), TRUE);
  gtk_label_set_xalign (GTK_LABEL (value), 1);
  gtk_label_set_justify (GTK_LABEL (value), GTK_JUSTIFY_RIGHT);
  gtk_widget_add_css_class (value, "numeric");
  gtk_widget_add_css_class (value, "ws-value");
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), value);
  g_object_set_data (G_OBJECT (row), "ws-value", value);
  return row;
}

void
ws_numbers_view_set_model (WsNumbersView *self,
                           const WsStats *stats,
                           WsSpace        space,
                           WsAccessKind   kind,
                           const char    *what)
{
  gboolean sectors = space == WS_SPACE_GLOBAL || space == WS_SPACE_LOCAL;
  g_autofree char *text = NULL;

  g_return_if_fail (WS_IS_NUMBERS_VIEW (self));

  set_description (self->model_group, what);
  for (guint i = 0; i < G_N_ELEMENTS (row_specs); i++)
    if (row_specs[i].group == GROUP_MODEL)
      set_row (self, row_specs[i].key, NULL);
  if (stats == NULL)
    {
      set_row (self, "instructions", "…");
      return;
    }
  text = g_strdup_printf ("%" G_GUINT64_FORMAT, stats->instructions);
  set_row (self, "instructions", text);
  if (space == WS_SPACE_REGISTER || stats->instructions == 0)
    return;
#define SET(key, ...) G_STMT_START { g_autofree char *t_ = g_strdup_printf (__VA_ARGS__); set_row (self, key, t_); } G_STMT_END
  if (sectors)
    {
      g_autofree char *moved = format_si (stats->bytes_moved, "B");
      SET ("sectors-per-request", "%.2f", ws_stats_sectors_per_request (stats));
      SET ("coalescing", "%.1f %%", 100 * ws_stats_efficiency (stats));
      set_row (self, "bytes-moved", moved);
    }
  if (space == WS_SPACE_SHARED)
    {
      SET ("wavefronts", "%.2f", ws_stats_wavefronts_per_instruction (stats));
      SET ("bank-conflicts", "%.2f", (double) ws_stats_bank_conflicts (stats) / stats->instructions);
    }
  if (space == WS_SPACE_CONSTANT || kind == WS_ACCESS_ATOMIC)
    SET ("distinct", "%.2f", ws_stats_distinct_per_instruction (stats));
  if (space == WS_SPACE_CONSTANT || space == WS_SPACE_LOCAL || (kind == WS_ACCESS_ATOMIC && space == WS_SPACE_GLOBAL))
    SET ("replays", "%.2f", ws_stats_replays_per_instruction (stats));
  if (kind == WS_ACCESS_ATOMIC)
    SET ("atomic-conflicts", "%.2f", (double) stats->atomic_conflicts / stats->instructions);
#undef SET
}

static char *
format_count (double v)
{
  if (v < 1000)
    return g_strdup_printf ("%.0f", v);
  return format_si (v, "");
}

void
ws_numbers_view_set_hierarchy (WsNumbersView     *self,
                               const WsHierStats *total,
                               const char        *what,
                               const char        *state,
                               gboolean           can_calibrate)
{
  static const char * const keys[] = { "l1-hit-rate", "l2-sectors", "l2-hit-rate", "dram-bytes" };

  g_return_if_fail (WS_IS_NUMBERS_VIEW (self));

  set_description (self->hierarchy_group, what);
  gtk_widget_set_visible (self->calibrate_button, can_calibrate);
  set_row (self, "hierarchy-state", NULL);
  if (state)
    {
      AdwActionRow *row = find_row (self, "hierarchy-state");
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), state);
      gtk_widget_set_visible (GTK_WIDGET (row), TRUE);
    }
  if (total == NULL)
    {
      for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
        set_row (self, keys[i], NULL);
      return;
    }
  {
    g_autofree char *read = format_count (total->l2_read_sectors);
    g_autofree char *written = format_count (total->l2_write_sectors + total->l2_atomic_sectors);
    g_autofree char *dram_read = format_si (total->dram_read_bytes, "B");
    g_autofree char *dram_written = format_si (total->dram_write_bytes, "B");
    g_autofree char *sectors = g_strdup_printf (_("%s read\n%s written"), read, written);
    g_autofree char *bytes = g_strdup_printf (_("%s read\n%s written"), total->dram_read_bytes ? dram_read : "0 B",
                                              total->dram_write_bytes ? dram_written : "0 B");

    g_autofree char *l1 = g_strdup_printf ("%.1f %%", 100 * ws_hier_stats_l1_hit_rate (total));
    g_autofree char *l2 = g_strdup_printf ("%.1f %%", 100 * ws_hier_stats_l2_hit_rate (total));

    set_row (self, "l1-hit-rate", total->l1_sectors > 0 ? l1 : NULL);
    set_row (self, "l2-sectors", sectors);
    set_row (self, "l2-hit-rate", total->l2_read_sectors > 0 ? l2 : NULL);
    set_row (self, "dram-bytes", bytes);
  }
}

void
ws_numbers_view_set_prediction (WsNumbersView *self,
                                double         seconds,
                                const char    *bound,
                                const char    *detail)
{
  g_return_if_fail (WS_IS_NUMBERS_VIEW (self));

  if (isnan (seconds))
    {
      set_row (self, "predicted", NULL);
      set_row (self, "bound", NULL);
      return;
    }
  {
    g_autofree char *t = format_si (seconds, "s");
    set_row (self, "predicted", t);
  }
  set_row (self, "bound", bound);
  adw_action_row_set_subtitle (find_row (self, "bound"), detail ? detail : _("the slowest level"));
}

/* The counters' rows, kept where the names are the ones shown already:
 * then only their values change. */
static void
set_counters (WsNumbersView       *self,
              const WsMeasurement *m)
{
  guint n = m && m->counters ? m->counters->len : 0;
  gboolean same = n == self->counter_rows->len;

  for (guint i = 0; same && i < n; i++)
    same = g_strcmp0 (adw_preferences_row_get_title (g_ptr_array_index (self->counter_rows, i)),
                      g_array_index (m->counters, WsCounter, i).name) == 0;
  if (!same)
    {
      for (guint i = 0; i < self->counter_rows->len; i++)
        adw_preferences_group_remove (self->measured_group, g_ptr_array_index (self->counter_rows, i));
      g_ptr_array_set_size (self->counter_rows, 0);
    }
  for (guint i = 0; i < n; i++)
    {
      const WsCounter *c = &g_array_index (m->counters, WsCounter, i);
      g_autofree char *value = g_strdup_printf ("%.6g", c->value);
      GtkWidget *row;
      GtkLabel *label;

      if (same)
        row = g_ptr_array_index (self->counter_rows, i);
      else
        {
          row = make_row (c->name, NULL);
          gtk_widget_add_css_class (row, "ws-counter");
          adw_preferences_group_add (self->measured_group, row);
          g_ptr_array_add (self->counter_rows, row);
        }
      label = g_object_get_data (G_OBJECT (row), "ws-value");
      if (g_strcmp0 (gtk_label_get_text (label), value) != 0)
        gtk_label_set_text (label, value);
    }
}

static void
set_measured_message (WsNumbersView *self,
                      const char    *message)
{
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->message_row), message ? message : "");
  gtk_widget_set_visible (self->message_row, message != NULL);
}

static void
clear_measured (WsNumbersView *self)
{
  for (guint i = 0; i < G_N_ELEMENTS (row_specs); i++)
    if (row_specs[i].group == GROUP_MEASURED)
      set_row (self, row_specs[i].key, NULL);
  set_counters (self, NULL);
}

void
ws_numbers_view_set_measured_message (WsNumbersView *self,
                                      const char    *message)
{
  g_return_if_fail (WS_IS_NUMBERS_VIEW (self));

  clear_measured (self);
  set_measured_message (self, message);
}

void
ws_numbers_view_set_measurement (WsNumbersView       *self,
                                 const WsMeasurement *m,
                                 const char          *source)
{
  g_autofree char *median = NULL, *lo = NULL, *hi = NULL, *range = NULL, *samples = NULL;
  g_autofree char *bw = NULL, *bytes = NULL, *clock = NULL;

  g_return_if_fail (WS_IS_NUMBERS_VIEW (self));
  g_return_if_fail (m != NULL);

  /* every row set once, to its new text or hidden: a row cleared first
   * and set again would lay the window out twice */
  set_measured_message (self, NULL);
  median = format_si (m->median_ms / 1e3, "s");
  lo = format_si (m->min_ms / 1e3, "s");
  hi = format_si (m->max_ms / 1e3, "s");
  range = g_strdup_printf ("%s – %s", lo, hi);
  samples = g_strdup_printf (_("%u samples%s"), m->samples_ms ? m->samples_ms->len : 0,
                             m->cold ? _(", L2 flushed before each") : _(", warm L2"));
  set_row (self, "source", source);
  set_row (self, "median", median);
  adw_action_row_set_subtitle (find_row (self, "median"), samples);
  set_row (self, "range", range);
  if (m->bandwidth_gbs > 0)
    bw = format_si (m->bandwidth_gbs * 1e9, "B/s");
  set_row (self, "bandwidth", bw);
  if (m->bytes > 0)
    bytes = format_si (m->bytes, "B");
  set_row (self, "bytes", bytes);
  if (m->sm_clock_mhz > 0)
    clock = g_strdup_printf ("%d MHz", m->sm_clock_mhz);
  set_row (self, "clock", clock);
  set_row (self, "verified", m->verified ? _("yes") : _("no"));
  /* counters asked for but not collected say why */
  set_row (self, "warning", m->warning);
  set_counters (self, m);
}

void
ws_numbers_view_set_counted (WsNumbersView *self,
                             const char    *what,
                             double         counted,
                             double         model)
{
  AdwActionRow *row;
  g_autofree char *value = NULL;
  g_autofree char *title = NULL;
  g_autofree char *subtitle = NULL;

  g_return_if_fail (WS_IS_NUMBERS_VIEW (self));

  row = find_row (self, "counted");
  title = g_strdup_printf (_("%c%s, counted"), g_ascii_toupper (what[0]), what + 1);
  subtitle = isnan (model) ? g_strdup (_("by the GPU's hardware counters"))
                           : g_strdup_printf (_("by the GPU's hardware counters; the model says %.2f"), model);
  value = g_strdup_printf ("%.2f", counted);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_action_row_set_subtitle (row, subtitle);
  set_row (self, "counted", value);
}

const char *
ws_numbers_view_get_value (WsNumbersView *self,
                           const char    *key)
{
  AdwActionRow *row;

  g_return_val_if_fail (WS_IS_NUMBERS_VIEW (self), NULL);
  row = g_hash_table_lookup (self->rows, key);
  if (row == NULL || !gtk_widget_get_visible (GTK_WIDGET (row)))
    return NULL;
  return gtk_label_get_text (g_object_get_data (G_OBJECT (row), "ws-value"));
}

static void
ws_numbers_view_dispose (GObject *object)
{
  WsNumbersView *self = WS_NUMBERS_VIEW (object);

  g_clear_pointer (&self->box, gtk_widget_unparent);
  G_OBJECT_CLASS (ws_numbers_view_parent_class)->dispose (object);
}

static void
ws_numbers_view_finalize (GObject *object)
{
  WsNumbersView *self = WS_NUMBERS_VIEW (object);

  g_hash_table_unref (self->rows);
  g_ptr_array_unref (self->counter_rows);
  G_OBJECT_CLASS (ws_numbers_view_parent_class)->finalize (object);
}

static void
ws_numbers_view_class_init (WsNumbersViewClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = ws_numbers_view_dispose;
  G_OBJECT_CLASS (klass)->finalize = ws_numbers_view_finalize;
  gtk_widget_class_set_layout_manager_type (GTK_WIDGET_CLASS (klass), GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (GTK_WIDGET_CLASS (klass), "numbersview");
}

static void
ws_numbers_view_init (WsNumbersView *self)
{
  self->rows = g_hash_table_new (g_str_hash, g_str_equal);
  self->counter_rows = g_ptr_array_new ();
  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 18);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));
  self->model_group = ADW_PREFERENCES_GROUP (adw_preferences_group_new ());
  adw_preferences_group_set_title (self->model_group, _("Model"));
  self->hierarchy_group = ADW_PREFERENCES_GROUP (adw_preferences_group_new ());
  adw_preferences_group_set_title (self->hierarchy_group, _("Through L1, L2 and DRAM"));
  self->calibrate_button = gtk_button_new_with_mnemonic (_("_Recalibrate"));
  gtk_widget_set_valign (self->calibrate_button, GTK_ALIGN_CENTER);
  gtk_widget_set_tooltip_text (self->calibrate_button,
                               _("Measure this GPU again for the model: its caches, DRAM and rates"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (self->calibrate_button), "win.recalibrate");
  gtk_widget_add_css_class (self->calibrate_button, "flat");
  gtk_widget_set_visible (self->calibrate_button, FALSE);
  adw_preferences_group_set_header_suffix (self->hierarchy_group, self->calibrate_button);
  self->measured_group = ADW_PREFERENCES_GROUP (adw_preferences_group_new ());
  adw_preferences_group_set_title (self->measured_group, _("Measured"));
  gtk_box_append (GTK_BOX (self->box), GTK_WIDGET (self->model_group));
  gtk_box_append (GTK_BOX (self->box), GTK_WIDGET (self->hierarchy_group));
  gtk_box_append (GTK_BOX (self->box), GTK_WIDGET (self->measured_group));
  self->message_row = adw_action_row_new ();
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (self->message_row), FALSE);
  gtk_widget_add_css_class (self->message_row, "ws-message");
  adw_preferences_group_add (self->measured_group, self->message_row);
  for (guint i = 0; i < G_N_ELEMENTS (row_specs); i++)
    {
      GtkWidget *row = make_row (row_specs[i].title[0] ? _(row_specs[i].title) : "",
                                 row_specs[i].subtitle ? _(row_specs[i].subtitle) : NULL);
      /* only where it came from is long enough to wrap */
      if (g_str_equal (row_specs[i].key, "source") || g_str_equal (row_specs[i].key, "warning"))
        {
          GtkLabel *value = g_object_get_data (G_OBJECT (row), "ws-value");
          gtk_label_set_wrap (value, TRUE);
          /* a GPU's name may be one long word */
          gtk_label_set_wrap_mode (value, PANGO_WRAP_WORD_CHAR);
          gtk_label_set_max_width_chars (value, 26);
        }
      adw_preferences_group_add (row_specs[i].group == GROUP_MEASURED    ? self->measured_group
                                 : row_specs[i].group == GROUP_HIERARCHY ? self->hierarchy_group
                                                                         : self->model_group,
                                 row);
      if (g_str_equal (row_specs[i].key, "hierarchy-state"))
        gtk_widget_add_css_class (row, "ws-message");
      gtk_widget_set_visible (row, FALSE);
      g_hash_table_insert (self->rows, (gpointer) row_specs[i].key, row);
    }
  ws_numbers_view_set_measured_message (self, _("Nothing measured yet"));
}

GtkWidget *
ws_numbers_view_new (void)
{
  return g_object_new (WS_TYPE_NUMBERS_VIEW, NULL);
}
