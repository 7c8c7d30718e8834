/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The Compare page (ws-compare-page.h). Its cells' views come from the
 * model (the instruction that says most of each kernel); their costs, and
 * their times measured on the GPU while the page is in view, from the
 * session (ws-session-compare.c); ws-compare.c builds the chart. */
#include <glib/gi18n.h>
#include "ws-compare-page.h"
#include "ws-compare.h"
#include "ws-plot.h"
#include "ws-plot-listing.h"
#include "ws-plot-model.h"

#include <math.h>
#include <string.h>

struct _WsComparePage
{
  GtkWidget parent_instance;

  WsCompareView *view;
  WsSession *session;

  char *shown;                   /* the comparison the cells show (its items' titles) */
  GCancellable *cancellable;     /* the model's times */
  GArray *prediction;            /* WsPlotPrediction: the model's time of each item */
  char *prediction_key;          /* what it is for, or is being computed for */
  gboolean predicting;           /* a prediction is on its way */
  GCancellable *listing_cancellable;  /* the listings of the kernels compared */
  gint64 longest_callback_us;
};

G_DEFINE_FINAL_TYPE (WsComparePage, ws_compare_page, GTK_TYPE_WIDGET)

enum
{
  PROP_0,
  PROP_SESSION,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum
{
  SIGNAL_TOAST,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
toast (WsComparePage *self,
       const char    *text)
{
  g_signal_emit (self, signals[SIGNAL_TOAST], 0, text);
}

static void
note_callback (WsComparePage *self,
               gint64         start)
{
  self->longest_callback_us = MAX (self->longest_callback_us, g_get_monotonic_time () - start);
}

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

static void rebuild (WsComparePage *self);

static void
compare_predict_done (GObject      *source,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  g_autoptr (WsComparePage) self = user_data;
  GArray *values = ws_session_model_finish (WS_SESSION (source), result, NULL);

  if (values == NULL)
    return;
  self->predicting = FALSE;
  g_clear_pointer (&self->prediction, g_array_unref);
  self->prediction = values;
  rebuild (self);
}

static char *
compare_key (WsComparePage *self,
             GPtrArray     *items)
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
prediction_for (WsComparePage *self,
                GPtrArray     *items)
{
  const WsDeviceProfile *profile = ws_session_get_device_profile (self->session);
  g_autofree char *key = NULL;
  ComparePrediction *p;
  GArray *kept;

  if (!ws_plot_model_can_predict (profile))
    return NULL;
  key = compare_key (self, items);
  if (g_strcmp0 (self->prediction_key, key) == 0)
    return self->prediction ? (const WsPlotPrediction *) self->prediction->data : NULL;
  g_free (self->prediction_key);
  self->prediction_key = g_strdup (key);
  g_clear_pointer (&self->prediction, g_array_unref);
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  if ((kept = ws_session_model_lookup (self->session, key)))
    {
      self->prediction = kept;
      self->predicting = FALSE;
      return (const WsPlotPrediction *) kept->data;
    }
  self->cancellable = g_cancellable_new ();
  p = g_new0 (ComparePrediction, 1);
  p->items = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_compare_item_free);
  for (guint i = 0; i < items->len; i++)
    g_ptr_array_add (p->items, ws_compare_item_copy (g_ptr_array_index (items, i)));
  p->profile = ws_device_profile_copy (profile);
  self->predicting = TRUE;
  ws_session_model_async (self->session, key, compare_predict_job, p, (GDestroyNotify) compare_prediction_free,
                          (GBoxedCopyFunc) g_array_ref, (GDestroyNotify) g_array_unref, self->cancellable,
                          compare_predict_done, g_object_ref (self));
  return NULL;
}

WsChart *
ws_compare_page_build_chart (WsComparePage *self)
{
  GPtrArray *items;
  const WsDeviceProfile *profile;
  g_autoptr (GPtrArray) recordings = NULL;
  const WsPlotPrediction *predicted;
  WsPlotSources sources;

  g_return_val_if_fail (WS_IS_COMPARE_PAGE (self), NULL);

  if (self->session == NULL || (items = ws_session_get_comparison (self->session)) == NULL ||
      items->len < WS_COMPARE_MIN)
    return NULL;
  profile = ws_session_get_device_profile (self->session);
  recordings = ws_session_dup_recordings (self->session);
  ws_plot_sources_from_session (&sources, self->session, recordings);
  predicted = prediction_for (self, items);
  return ws_compare_build_chart (items, ws_session_get_comparison_costs (self->session), predicted,
                                 profile ? profile->name : NULL, &sources);
}

static void
rebuild (WsComparePage *self)
{
  WsChart *chart = ws_compare_page_build_chart (self);

  if (chart == NULL)
    return;
  if (!ws_session_get_recording_loaded (self->session) || !ws_session_get_probed (self->session))
    ws_chart_set_message (chart, _("Looking for a GPU and the recorded measurements…"));
  else if (ws_session_get_device (self->session))
    ws_chart_set_message (chart, _("Measuring…"));
  ws_chart_view_set_chart (ws_compare_view_get_chart (self->view), chart);
}

/* What the session measured or found, or the profile it models with. */
static void
on_session_changed (WsComparePage *self)
{
  gint64 start = g_get_monotonic_time ();

  rebuild (self);
  note_callback (self, start);
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
  WsComparePage *self = WS_COMPARE_PAGE (source);
  CompareListing *l = g_task_get_task_data (G_TASK (result));
  g_autoptr (GError) error = NULL;
  WsPlotListing *listing = g_task_propagate_pointer (G_TASK (result), &error);
  GPtrArray *items = self->session ? ws_session_get_comparison (self->session) : NULL;

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
  ws_compare_view_set_listing (self->view, l->slot, ws_plot_listing_figure (listing), listing,
                               (GDestroyNotify) ws_plot_listing_free);
}

static void
start_listings (WsComparePage *self,
                GPtrArray     *items)
{
  const WsDeviceProfile *profile = ws_session_get_device_profile (self->session);

  g_cancellable_cancel (self->listing_cancellable);
  g_clear_object (&self->listing_cancellable);
  self->listing_cancellable = g_cancellable_new ();
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
      task = g_task_new (self, self->listing_cancellable, compare_listing_done, NULL);
      g_task_set_task_data (task, l, (GDestroyNotify) compare_listing_free);
      g_task_run_in_thread (task, compare_listing_run);
    }
}

/* ------------------------------------------------------------------ */
/* What is compared                                                   */
/* ------------------------------------------------------------------ */

static void
show_cells (WsComparePage *self)
{
  GPtrArray *items = ws_session_get_comparison (self->session);

  for (guint i = 0; i < items->len; i++)
    {
      WsCompareItem *item = g_ptr_array_index (items, i);
      g_autoptr (WsWarpResult) r = ws_compare_item_analyze (item, NULL);
      /* the chooser above names the preset (a kernel's label its file and
       * kernel); an export names it in the caption */
      g_autofree char *caption = ws_compare_item_describe (item);

      ws_compare_view_set_cell (self->view, i, r, caption, ws_compare_item_get_block (item));
    }
  start_listings (self, items);
}

static void
on_comparison_changed (WsComparePage *self)
{
  GPtrArray *items = ws_session_get_comparison (self->session);
  g_auto (GStrv) shown = ws_compare_view_get_ids (self->view);
  gboolean same = items && g_strv_length (shown) == items->len;
  g_autoptr (GString) titles = g_string_new (NULL);
  g_autofree char *key = NULL;
  gint64 start = g_get_monotonic_time ();

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
      ws_compare_view_set_ids (self->view, (const char * const *) ids);
      return;
    }
  /* what the cells show: each item's preset and parameters */
  for (guint i = 0; items && i < items->len; i++)
    g_string_append_printf (titles, "%s\n", ((WsCompareItem *) g_ptr_array_index (items, i))->title);
  key = g_string_free (g_steal_pointer (&titles), FALSE);
  if (items && g_strcmp0 (self->shown, key) != 0)
    {
      g_free (self->shown);
      self->shown = g_steal_pointer (&key);
      show_cells (self);
      ws_schedule_player_restart (ws_compare_view_get_player (self->view));
    }
  rebuild (self);
  note_callback (self, start);
}

/* The choosers set the session's comparison; the page shows it. */
static void
on_items_changed (WsComparePage *self)
{
  g_auto (GStrv) ids = ws_compare_view_get_ids (self->view);
  g_autoptr (GError) error = NULL;

  if (self->session == NULL)
    return;
  if (!ws_session_set_comparison (self->session, (const char * const *) ids, &error))
    {
      /* a kernel file that does not read (the presets always do): said,
       * and the page shows the comparison it had */
      g_autofree char *text = g_strdup_printf (_("Could not compare: %s"), error->message);

      toast (self, text);
      if (ws_session_get_comparison (self->session))
        on_comparison_changed (self);
    }
}

static void
on_kernel_refused (WsComparePage *self,
                   const char    *path)
{
  g_autofree char *name = g_filename_display_basename (path);
  /* Translators: a file's name */
  g_autofree char *text = g_strdup_printf (_("%s is not a kernel file: its name ends in .cu"), name);

  toast (self, text);
}

static void
on_comparison_failed (WsComparePage *self,
                      const GError  *error)
{
  g_autofree char *text = g_strdup_printf (_("Could not measure: %s"), error->message);

  toast (self, text);
}

gboolean
ws_compare_page_compare (WsComparePage      *self,
                         const char * const *ids)
{
  guint n = ids ? g_strv_length ((char **) ids) : 0;

  g_return_val_if_fail (WS_IS_COMPARE_PAGE (self), FALSE);
  if (n < WS_COMPARE_MIN || n > WS_COMPARE_MAX)
    return FALSE;
  for (guint i = 0; i < n; i++)
    if (ws_preset_lookup (ids[i]) == NULL && !ws_compare_spec_is_kernel (ids[i]))
      return FALSE;
  ws_compare_view_set_ids (self->view, ids);
  return TRUE;
}

gboolean
ws_compare_page_add_kernel (WsComparePage *self,
                            const char    *spec)
{
  g_auto (GStrv) ids = NULL;
  guint n;

  g_return_val_if_fail (WS_IS_COMPARE_PAGE (self), FALSE);
  g_return_val_if_fail (spec != NULL, FALSE);

  ids = ws_compare_view_get_ids (self->view);
  n = g_strv_length (ids);
  /* beside the presets in view; in the last one's place when there are four */
  if (n >= WS_COMPARE_MAX)
    {
      g_free (ids[n - 1]);
      ids[n - 1] = g_strdup (spec);
      ws_compare_view_set_ids (self->view, (const char * const *) ids);
      return TRUE;
    }
  return ws_compare_view_add_id (self->view, spec);
}

/* ------------------------------------------------------------------ */
/* The session                                                        */
/* ------------------------------------------------------------------ */

WsSession *
ws_compare_page_get_session (WsComparePage *self)
{
  g_return_val_if_fail (WS_IS_COMPARE_PAGE (self), NULL);
  return self->session;
}

void
ws_compare_page_set_session (WsComparePage *self,
                             WsSession     *session)
{
  static const char *changes[] = { "notify::probed", "notify::device-profile", "recordings-changed", "measured" };

  g_return_if_fail (WS_IS_COMPARE_PAGE (self));
  g_return_if_fail (session == NULL || WS_IS_SESSION (session));

  if (self->session == session)
    return;
  if (self->session)
    g_signal_handlers_disconnect_by_data (self->session, self);
  g_cancellable_cancel (self->cancellable);
  g_cancellable_cancel (self->listing_cancellable);
  g_clear_pointer (&self->prediction_key, g_free);
  g_clear_pointer (&self->prediction, g_array_unref);
  g_clear_pointer (&self->shown, g_free);
  self->predicting = FALSE;
  g_set_object (&self->session, session);
  if (session)
    {
      for (guint i = 0; i < G_N_ELEMENTS (changes); i++)
        g_signal_connect_swapped (session, changes[i], G_CALLBACK (on_session_changed), self);
      g_signal_connect_swapped (session, "comparison-changed", G_CALLBACK (on_comparison_changed), self);
      g_signal_connect_swapped (session, "measure-failed", G_CALLBACK (on_comparison_failed), self);
      if (ws_session_get_comparison (session))
        on_comparison_changed (self);
      else
        {
          guint n_sets;
          const WsCompareSet *sets = ws_compare_sets_get_all (&n_sets);

          /* the transpose variants, to begin with */
          ws_compare_view_set_ids (self->view, sets[0].ids);
        }
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SESSION]);
}

WsCompareView *
ws_compare_page_get_view (WsComparePage *self)
{
  g_return_val_if_fail (WS_IS_COMPARE_PAGE (self), NULL);
  return self->view;
}

gboolean
ws_compare_page_is_settled (WsComparePage *self)
{
  g_return_val_if_fail (WS_IS_COMPARE_PAGE (self), FALSE);

  return !self->predicting && ws_chart_view_is_drawn (ws_compare_view_get_chart (self->view)) &&
         (self->session == NULL || ws_session_comparison_is_settled (self->session));
}

gint64
ws_compare_page_take_longest_callback (WsComparePage *self)
{
  gint64 longest;

  g_return_val_if_fail (WS_IS_COMPARE_PAGE (self), 0);
  longest = self->longest_callback_us;
  self->longest_callback_us = 0;
  return longest;
}

/* ------------------------------------------------------------------ */
/* GObject                                                            */
/* ------------------------------------------------------------------ */

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

static void
ws_compare_page_dispose (GObject *object)
{
  WsComparePage *self = WS_COMPARE_PAGE (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_cancellable_cancel (self->listing_cancellable);
  g_clear_object (&self->listing_cancellable);
  if (self->session)
    g_signal_handlers_disconnect_by_data (self->session, self);
  g_clear_object (&self->session);
  gtk_widget_dispose_template (GTK_WIDGET (self), WS_TYPE_COMPARE_PAGE);
  G_OBJECT_CLASS (ws_compare_page_parent_class)->dispose (object);
}

static void
ws_compare_page_finalize (GObject *object)
{
  WsComparePage *self = WS_COMPARE_PAGE (object);

  g_free (self->shown);
  g_free (self->prediction_key);
  g_clear_pointer (&self->prediction, g_array_unref);
  G_OBJECT_CLASS (ws_compare_page_parent_class)->finalize (object);
}

static void
ws_compare_page_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  WsComparePage *self = WS_COMPARE_PAGE (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      g_value_set_object (value, self->session);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ws_compare_page_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  WsComparePage *self = WS_COMPARE_PAGE (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      ws_compare_page_set_session (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ws_compare_page_class_init (WsComparePageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ws_compare_page_dispose;
  object_class->finalize = ws_compare_page_finalize;
  object_class->get_property = ws_compare_page_get_property;
  object_class->set_property = ws_compare_page_set_property;

  properties[PROP_SESSION] = g_param_spec_object ("session", NULL, NULL, WS_TYPE_SESSION,
                                                  G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY |
                                                    G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  signals[SIGNAL_TOAST] = g_signal_new ("toast", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                        NULL, G_TYPE_NONE, 1, G_TYPE_STRING);

  g_type_ensure (WS_TYPE_COMPARE_VIEW);
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/warpscope/Warpscope/ws-compare-page.ui");
  gtk_widget_class_bind_template_child (widget_class, WsComparePage, view);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
ws_compare_page_init (WsComparePage *self)
{
  g_autoptr (GMenuModel) menu = sets_menu ();

  gtk_widget_init_template (GTK_WIDGET (self));
  ws_compare_view_set_sets_menu (self->view, menu);
  g_signal_connect_object (self->view, "items-changed", G_CALLBACK (on_items_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->view, "kernel-refused", G_CALLBACK (on_kernel_refused), self,
                           G_CONNECT_SWAPPED);
}
