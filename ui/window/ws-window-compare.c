/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The compare page shows the session's comparison: two to four presets
 * side by side. Their views come from the model (the instruction that says
 * most of each); their costs, and their times measured on the GPU while
 * the page is in view, come from the session (ws-session-compare.c);
 * ws-compare.c builds the chart. */
#include <glib/gi18n.h>
#include "ws-window-private.h"
#include "ws-plot-listing.h"

#include <math.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* The chart                                                          */
/* ------------------------------------------------------------------ */

/* The model's time for the items, on the session's model thread, which
 * keeps it for the comparison and the device. */
typedef struct
{
  GPtrArray *items;          /* WsCompareItem, copied */
  WsDeviceProfile *profile;
} ComparePrediction;

static void
compare_prediction_free (ComparePrediction *p)
{
  g_ptr_array_unref (p->items);
  ws_device_profile_free (p->profile);
  g_free (p);
}

static gpointer
compare_predict_job (gpointer      data,
                     GCancellable *cancellable,
                     GError      **error)
{
  ComparePrediction *p = data;
  GArray *values = ws_compare_predict (p->items, p->profile, cancellable);

  if (values == NULL || g_cancellable_set_error_if_cancelled (cancellable, error))
    {
      g_clear_pointer (&values, g_array_unref);
      if (*error == NULL)
        g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, "cancelled");
      return NULL;
    }
  return values;
}

static void
compare_predict_done (GObject      *source,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  g_autoptr (WsWindow) self = user_data;
  GArray *values = ws_session_model_finish (WS_SESSION (source), result, NULL);

  g_assert (WS_IS_WINDOW (self));

  if (values == NULL)
    return;
  self->compare_predicting = FALSE;
  g_clear_pointer (&self->compare_prediction, g_array_unref);
  self->compare_prediction = values;
  ws_window_rebuild_compare (self);
}

static char *
compare_key (WsWindow  *self,
             GPtrArray *items)
{
  const WsDeviceProfile *profile = ws_session_get_device_profile (self->session);
  GString *s = g_string_new ("compare\n");

  g_string_append_printf (s, "%s\n%s", profile ? profile->id : "", ws_session_get_profile_source (self->session));
  for (guint i = 0; i < items->len; i++)
    {
      WsCompareItem *item = g_ptr_array_index (items, i);
      /* a kernel's spec names its file; what it read there is its text */
      g_autofree char *key = item->kernel ? g_compute_checksum_for_string (G_CHECKSUM_SHA256,
                                                                           ws_kernel_file_get_text (
                                                                             ws_kernel_instance_get_file (item->kernel)),
                                                                           -1)
                                          : ws_pattern_sweep_key (item->pattern, NULL);
      g_string_append_printf (s, "\n%s\n%s", item->id, key);
    }
  return g_string_free (s, FALSE);
}

/* The predicted times, when they are for these items on this device; else
 * starts computing them and returns NULL. */
static const WsPlotPrediction *
compare_prediction_for (WsWindow  *self,
                        GPtrArray *items)
{
  const WsDeviceProfile *profile = ws_session_get_device_profile (self->session);
  g_autofree char *key = NULL;
  ComparePrediction *p;
  GArray *kept;

  if (!ws_plot_model_can_predict (profile))
    return NULL;
  key = compare_key (self, items);
  if (g_strcmp0 (self->compare_prediction_key, key) == 0)
    return self->compare_prediction ? (const WsPlotPrediction *) self->compare_prediction->data : NULL;
  g_free (self->compare_prediction_key);
  self->compare_prediction_key = g_strdup (key);
  g_clear_pointer (&self->compare_prediction, g_array_unref);
  g_cancellable_cancel (self->compare_cancellable);
  g_clear_object (&self->compare_cancellable);
  if ((kept = ws_session_model_lookup (self->session, key)))
    {
      self->compare_prediction = kept;
      self->compare_predicting = FALSE;
      return (const WsPlotPrediction *) kept->data;
    }
  self->compare_cancellable = g_cancellable_new ();
  p = g_new0 (ComparePrediction, 1);
  p->items = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_compare_item_free);
  for (guint i = 0; i < items->len; i++)
    {
      g_ptr_array_add (p->items, ws_compare_item_copy (g_ptr_array_index (items, i)));
    }
  p->profile = ws_device_profile_copy (profile);
  self->compare_predicting = TRUE;
  ws_session_model_async (self->session, key, compare_predict_job, p, (GDestroyNotify) compare_prediction_free,
                          (GBoxedCopyFunc) g_array_ref, (GDestroyNotify) g_array_unref, self->compare_cancellable,
                          compare_predict_done, g_object_ref (self));
  return NULL;
}

/* The chart of the comparison, as it stands; NULL with too few items. */
WsChart *
ws_window_build_compare_chart (WsWindow *self)
{
  GPtrArray *items = ws_session_get_comparison (self->session);
  const WsDeviceProfile *profile = ws_session_get_device_profile (self->session);
  g_autoptr (GPtrArray) recordings = NULL;
  const WsPlotPrediction *predicted;
  WsPlotSources sources;

  if (items == NULL || items->len < WS_COMPARE_MIN)
    return NULL;
  recordings = ws_session_dup_recordings (self->session);
  ws_window_plot_sources (self, &sources, recordings);
  predicted = compare_prediction_for (self, items);
  return ws_compare_build_chart (items, ws_session_get_comparison_costs (self->session), predicted,
                                 profile ? profile->name : NULL, &sources);
}

void
ws_window_rebuild_compare (WsWindow *self)
{
  WsChart *chart = ws_window_build_compare_chart (self);

  if (chart == NULL)
    return;
  if (!ws_session_get_recording_loaded (self->session) || !ws_session_get_probed (self->session))
    ws_chart_set_message (chart, _("Looking for a GPU and the recorded measurements…"));
  else if (ws_session_get_device (self->session))
    ws_chart_set_message (chart, _("Measuring…"));
  ws_chart_view_set_chart (ws_compare_view_get_chart (self->compare), chart);
}

/* ------------------------------------------------------------------ */
/* The listings of the kernels compared                               */
/* ------------------------------------------------------------------ */

/* A kernel's whole launch, modelled on a thread for its listing: the
 * bytes, wavefronts and share of the time of each line. */
typedef struct
{
  WsCompareItem *item;
  WsDeviceProfile *profile;  /* NULL: L1's view */
  guint slot;
} CompareListing;

static void
compare_listing_free (CompareListing *l)
{
  ws_compare_item_free (l->item);
  g_clear_pointer (&l->profile, ws_device_profile_free);
  g_free (l);
}

static void
compare_listing_run (GTask        *task,
                     gpointer      source,
                     gpointer      data,
                     GCancellable *cancellable)
{
  CompareListing *l = data;
  GError *error = NULL;
  g_autoptr (WsKernelPrediction) pred = ws_kernel_predict (l->item->kernel, l->profile, 0, cancellable, NULL, &error);
  g_autofree char *title = NULL;

  if (pred == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  title = ws_compare_item_dup_title (l->item, (WsGettextFunc) gettext);
  g_task_return_pointer (task, ws_plot_listing_new (l->item->kernel, pred, NULL, title),
                         (GDestroyNotify) ws_plot_listing_free);
}

static void
compare_listing_done (GObject      *source,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  WsWindow *self = WS_WINDOW (source);
  CompareListing *l = g_task_get_task_data (G_TASK (result));
  g_autoptr (GError) error = NULL;
  WsPlotListing *listing = g_task_propagate_pointer (G_TASK (result), &error);
  GPtrArray *items = ws_session_get_comparison (self->session);

  if (listing == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_warning ("the listing of %s: %s", l->item->id, error->message);
      return;
    }
  /* still the kernel in that place */
  if (items == NULL || l->slot >= items->len ||
      ((WsCompareItem *) g_ptr_array_index (items, l->slot))->kernel != l->item->kernel)
    {
      ws_plot_listing_free (listing);
      return;
    }
  ws_compare_view_set_listing (self->compare, l->slot, ws_plot_listing_figure (listing), listing,
                               (GDestroyNotify) ws_plot_listing_free);
}

static void
start_listings (WsWindow  *self,
                GPtrArray *items)
{
  const WsDeviceProfile *profile = ws_session_get_device_profile (self->session);

  g_cancellable_cancel (self->compare_listing_cancellable);
  g_clear_object (&self->compare_listing_cancellable);
  self->compare_listing_cancellable = g_cancellable_new ();
  for (guint i = 0; i < items->len; i++)
    {
      WsCompareItem *item = g_ptr_array_index (items, i);
      g_autoptr (GTask) task = NULL;
      CompareListing *l;

      if (item->kernel == NULL)
        continue;
      l = g_new0 (CompareListing, 1);
      l->item = ws_compare_item_copy (item);
      l->profile = profile ? ws_device_profile_copy (profile) : NULL;
      l->slot = i;
      task = g_task_new (self, self->compare_listing_cancellable, compare_listing_done, NULL);
      g_task_set_task_data (task, l, (GDestroyNotify) compare_listing_free);
      g_task_run_in_thread (task, compare_listing_run);
    }
}

/* ------------------------------------------------------------------ */
/* The presets chosen                                                 */
/* ------------------------------------------------------------------ */

static void
show_cells (WsWindow *self)
{
  GPtrArray *items = ws_session_get_comparison (self->session);

  for (guint i = 0; i < items->len; i++)
    {
      WsCompareItem *item = g_ptr_array_index (items, i);
      g_autoptr (WsWarpResult) r = ws_compare_item_analyze (item, NULL);
      /* the chooser above names the preset (a kernel's label its file and
       * kernel); an export names it in the caption */
      g_autofree char *caption = ws_compare_item_describe (item);

      ws_compare_view_set_cell (self->compare, i, r, caption, ws_compare_item_get_block (item));
    }
  start_listings (self, items);
}

static void on_comparison_changed (WsWindow *self);

/* The choosers set the session's comparison; the page shows it. */
static void
on_items_changed (WsWindow *self)
{
  g_auto (GStrv) ids = ws_compare_view_get_ids (self->compare);
  g_autoptr (GError) error = NULL;

  g_assert (WS_IS_WINDOW (self));

  if (!ws_session_set_comparison (self->session, (const char * const *) ids, &error))
    {
      /* a kernel file that does not read (the presets always do): said,
       * and the page shows the comparison it had */
      g_autofree char *text = g_strdup_printf (_("Could not compare: %s"), error->message);

      ws_window_toast (self, text);
      if (ws_session_get_comparison (self->session))
        on_comparison_changed (self);
    }
}

static void
on_kernel_refused (WsWindow   *self,
                   const char *path)
{
  g_autofree char *name = g_filename_display_basename (path);
  /* Translators: a file's name */
  g_autofree char *text = g_strdup_printf (_("%s is not a kernel file: its name ends in .cu"), name);

  ws_window_toast (self, text);
}

static void
on_comparison_failed (WsWindow     *self,
                      const GError *error)
{
  g_autofree char *text = g_strdup_printf (_("Could not measure: %s"), error->message);

  g_assert (WS_IS_WINDOW (self));

  ws_window_toast (self, text);
}

static void
on_comparison_changed (WsWindow *self)
{
  GPtrArray *items = ws_session_get_comparison (self->session);
  g_auto (GStrv) shown = ws_compare_view_get_ids (self->compare);
  gboolean same = items && g_strv_length (shown) == items->len;
  g_autoptr (GString) titles = g_string_new (NULL);
  g_autofree char *key = NULL;
  gint64 start = g_get_monotonic_time ();

  g_assert (WS_IS_WINDOW (self));

  for (guint i = 0; same && i < items->len; i++)
    same = g_str_equal (shown[i], ((WsCompareItem *) g_ptr_array_index (items, i))->id);
  /* a comparison set elsewhere (a script, the command line) shows in the choosers */
  if (items && !same)
    {
      g_autoptr (GStrvBuilder) b = g_strv_builder_new ();
      g_auto (GStrv) ids = NULL;

      for (guint i = 0; i < items->len; i++)
        g_strv_builder_add (b, ((WsCompareItem *) g_ptr_array_index (items, i))->id);
      ids = g_strv_builder_end (b);
      ws_compare_view_set_ids (self->compare, (const char * const *) ids);
      return;
    }
  /* what the cells show: each item's preset and parameters */
  for (guint i = 0; items && i < items->len; i++)
    g_string_append_printf (titles, "%s\n", ((WsCompareItem *) g_ptr_array_index (items, i))->title);
  key = g_string_free (g_steal_pointer (&titles), FALSE);
  if (items && g_strcmp0 (self->compare_shown, key) != 0)
    {
      g_free (self->compare_shown);
      self->compare_shown = g_steal_pointer (&key);
      show_cells (self);
      ws_schedule_player_restart (ws_compare_view_get_player (self->compare));
    }
  ws_window_rebuild_compare (self);
  ws_window_note_callback (self, start);
}

gboolean
ws_window_compare_presets (WsWindow           *self,
                           const char * const *ids)
{
  guint n = ids ? g_strv_length ((char **) ids) : 0;

  g_return_val_if_fail (WS_IS_WINDOW (self), FALSE);
  if (n < WS_COMPARE_MIN || n > WS_COMPARE_MAX)
    return FALSE;
  for (guint i = 0; i < n; i++)
    if (ws_preset_lookup (ids[i]) == NULL && !ws_compare_spec_is_kernel (ids[i]))
      return FALSE;
  ws_compare_view_set_ids (self->compare, ids);
  gtk_stack_set_visible_child_name (self->page_stack, "compare");
  return TRUE;
}

/* The kernel's spec, at the editor's line if that line has a memory
 * instruction; NULL with what stands in the way. */
static char *
kernel_page_spec (WsWindow *self,
                  char    **why)
{
  WsKernelEditor *editor = ws_kernel_page_get_editor (self->kernel_page);
  WsKernelInstance *inst = ws_kernel_modeller_get_instance (ws_kernel_page_get_modeller (self->kernel_page));
  GFile *file = ws_kernel_editor_get_file (editor);
  g_autofree char *path = file ? g_file_get_path (file) : NULL;
  guint line = ws_kernel_editor_get_cursor_line (editor);
  gboolean has_line = FALSE;

  if (path == NULL || ws_kernel_editor_get_modified (editor))
    *why = g_strdup (_("Save the kernel first: a comparison reads it from its file"));
  else if (!ws_compare_spec_is_kernel (path))
    *why = g_strdup (_("A comparison takes kernel files whose names end in .cu"));
  else if (inst == NULL)
    *why = g_strdup (_("The kernel does not model yet: its problems are underlined"));
  if (*why)
    return NULL;
  for (guint i = 0; i < ws_kernel_instance_get_n_sites (inst); i++)
    has_line |= ws_kernel_instance_get_site (inst, i)->line == line;
  if (has_line)
    return g_strdup_printf ("%s:%s@%u", path, ws_kernel_instance_get_kernel_name (inst), line);
  return g_strdup_printf ("%s:%s", path, ws_kernel_instance_get_kernel_name (inst));
}

gboolean
ws_window_compare_kernel (WsWindow *self)
{
  g_autofree char *why = NULL;
  g_autofree char *spec = NULL;
  g_auto (GStrv) ids = NULL;
  guint n;

  g_return_val_if_fail (WS_IS_WINDOW (self), FALSE);

  if ((spec = kernel_page_spec (self, &why)) == NULL)
    {
      ws_window_toast (self, why);
      return FALSE;
    }
  gtk_stack_set_visible_child_name (self->page_stack, "compare");
  ids = ws_compare_view_get_ids (self->compare);
  n = g_strv_length (ids);
  /* beside the presets in view; in the last one's place when there are four */
  if (n >= WS_COMPARE_MAX)
    {
      g_free (ids[n - 1]);
      ids[n - 1] = g_steal_pointer (&spec);
      ws_compare_view_set_ids (self->compare, (const char * const *) ids);
      return TRUE;
    }
  return ws_compare_view_add_id (self->compare, spec);
}

static void
compare_kernel_action (GtkWidget  *widget,
                       const char *name,
                       GVariant   *param)
{
  ws_window_compare_kernel (WS_WINDOW (widget));
}

static void
compare_set_action (GtkWidget  *widget,
                    const char *name,
                    GVariant   *param)
{
  guint n_sets, i = g_variant_get_uint32 (param);
  const WsCompareSet *sets = ws_compare_sets_get_all (&n_sets);

  if (i < n_sets)
    ws_window_compare_presets (WS_WINDOW (widget), sets[i].ids);
}

static GMenuModel *
sets_menu (void)
{
  guint n_sets;
  const WsCompareSet *sets = ws_compare_sets_get_all (&n_sets);
  GMenu *menu = g_menu_new ();

  for (guint i = 0; i < n_sets; i++)
    {
      g_autoptr (GMenuItem) item = g_menu_item_new (_(sets[i].title), NULL);
      g_menu_item_set_action_and_target_value (item, "win.compare-set", g_variant_new_uint32 (i));
      g_menu_append_item (menu, item);
    }
  return G_MENU_MODEL (menu);
}

void
ws_window_compare_class_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.compare-set", "u", compare_set_action);
  gtk_widget_class_install_action (widget_class, "win.compare-kernel", NULL, compare_kernel_action);
}

void
ws_window_compare_init (WsWindow *self)
{
  g_autoptr (GMenuModel) menu = sets_menu ();
  guint n_sets;
  const WsCompareSet *sets = ws_compare_sets_get_all (&n_sets);

  ws_compare_view_set_sets_menu (self->compare, menu);
  g_signal_connect_object (self->compare, "items-changed", G_CALLBACK (on_items_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->compare, "kernel-refused", G_CALLBACK (on_kernel_refused), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "comparison-changed", G_CALLBACK (on_comparison_changed), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "measure-failed", G_CALLBACK (on_comparison_failed), self,
                           G_CONNECT_SWAPPED);
  if (ws_session_get_comparison (self->session))
    on_comparison_changed (self);
  else
    /* the transpose variants, to begin with */
    ws_compare_view_set_ids (self->compare, sets[0].ids);
}
