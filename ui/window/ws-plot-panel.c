/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The explorer's measured plot (ws-plot-panel.h), built by ws-plot.c from
 * the session's recordings and live measurements; the model's prediction
 * for it runs on the session's model thread, which keeps it for whoever
 * asks again. */
#include <glib/gi18n.h>
#include "ws-plot-panel.h"
#include "ws-model-types.h"

#include <math.h>

#define STATUS_CHARS 2000     /* the status is cut there */
#define CHART_INTERVAL_US (80 * 1000)

/* What the model predicts for each x of the chart, and what it is called
 * ("sectors per request"); shared by whoever asks for the same key. */
typedef struct
{
  GArray *values;            /* WsPlotPrediction */
  const char *name;
} Predicted;

struct _WsPlotPanel
{
  GtkWidget parent_instance;

  /* template */
  GtkWidget *box;
  GtkInscription *measure_status;
  GtkDropDown *metric_dropdown;
  GtkStack *sweep_stack;     /* the sweep button, or the progress and cancel */
  GtkWidget *sweep_running;
  GtkProgressBar *sweep_progress;
  GtkWidget *sweep_button;
  GtkWidget *cancel_button;
  WsChartView *chart;

  WsSession *session;
  /* what the plot is of */
  const WsPreset *preset;
  WsPattern *pattern;
  gboolean edited;
  WsSpace space;
  gboolean wrong;

  WsPlotMetric metric;       /* what the plot shows */
  WsPlotMetric metric_items[WS_N_PLOT_METRICS];   /* the chooser's, in its order */
  guint n_metric_items;
  int metric_space;          /* the space the chooser's names are for, -1 before */
  gboolean setting_metric;   /* the chooser set from code */

  GCancellable *prediction_cancellable;
  Predicted *prediction;     /* for prediction_key */
  char *prediction_key;
  gboolean predicting;       /* a prediction is on its way */
  guint chart_timeout;       /* a rebuild, at most 12.5 a second during a sweep */
  gint64 chart_built_at;

  /* the session's sweep, followed: its progress in the toolbar */
  gulong session_sweep_handler;
  WsSweep *shown_sweep;
  gulong sweep_handlers[3];
  guint progress_timeout;    /* the progress's next update, at most every 80 ms */
};

G_DEFINE_FINAL_TYPE (WsPlotPanel, ws_plot_panel, GTK_TYPE_WIDGET)

enum
{
  PROP_0,
  PROP_SESSION,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum
{
  SIGNAL_REBUILT,
  SIGNAL_SWEEP_FINISHED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* ------------------------------------------------------------------ */
/* The model's prediction, on the session's model thread              */
/* ------------------------------------------------------------------ */

typedef struct
{
  GPtrArray *patterns;       /* WsPattern, NULL where there is nothing to predict */
  GPtrArray *presets;        /* the preset whose kernel runs each, or NULL */
  WsDeviceProfile *profile;  /* a copy, or NULL: the time needs one */
  WsSpace space;
} Prediction;

static void
prediction_free (Prediction *p)
{
  g_ptr_array_unref (p->patterns);
  g_ptr_array_unref (p->presets);
  g_clear_pointer (&p->profile, ws_device_profile_free);
  g_free (p);
}

static void
predicted_clear (gpointer data)
{
  g_array_unref (((Predicted *) data)->values);
}

static void
predicted_unref (gpointer data)
{
  g_rc_box_release_full (data, predicted_clear);
}

static gpointer
predict_job (gpointer      data,
             GCancellable *cancellable,
             GError      **error)
{
  Prediction *p = data;
  const char *name = NULL;
  GArray *values = ws_plot_predict (p->patterns, p->presets, p->space, p->profile, &name, cancellable);
  Predicted *out;

  if (values == NULL || g_cancellable_set_error_if_cancelled (cancellable, error))
    {
      g_clear_pointer (&values, g_array_unref);
      if (error && *error == NULL)
        g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, "cancelled");
      return NULL;
    }
  out = g_rc_box_new0 (Predicted);
  out->values = values;
  out->name = name;
  return out;
}

static void
predict_done (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr (WsPlotPanel) self = user_data;
  Predicted *p = ws_session_model_finish (WS_SESSION (source), result, NULL);

  if (p == NULL)
    return;
  self->predicting = FALSE;
  g_clear_pointer (&self->prediction, predicted_unref);
  self->prediction = p;
  ws_plot_panel_rebuild (self);
}

/* The prediction for key if it is at hand (the one the chart shows, or one
 * the session kept); else starts it on the session's model thread. */
static const Predicted *
prediction_for (WsPlotPanel *self,
                const char  *key,
                GPtrArray   *patterns,
                GPtrArray   *presets)
{
  const WsDeviceProfile *profile = ws_session_get_device_profile (self->session);
  Prediction *p;
  Predicted *kept;

  /* the one shown, or the one on its way */
  if (g_strcmp0 (self->prediction_key, key) == 0 && (self->prediction || self->predicting))
    {
      g_ptr_array_unref (patterns);
      g_ptr_array_unref (presets);
      return self->prediction;
    }
  g_free (self->prediction_key);
  self->prediction_key = g_strdup (key);
  g_cancellable_cancel (self->prediction_cancellable);
  g_clear_object (&self->prediction_cancellable);
  if ((kept = ws_session_model_lookup (self->session, key)))
    {
      g_ptr_array_unref (patterns);
      g_ptr_array_unref (presets);
      g_clear_pointer (&self->prediction, predicted_unref);
      self->prediction = kept;
      self->predicting = FALSE;
      return kept;
    }
  g_clear_pointer (&self->prediction, predicted_unref);
  self->prediction_cancellable = g_cancellable_new ();
  p = g_new0 (Prediction, 1);
  p->patterns = patterns;
  p->presets = presets;
  p->profile = profile ? ws_device_profile_copy (profile) : NULL;
  p->space = self->space;
  self->predicting = TRUE;
  ws_session_model_async (self->session, key, predict_job, p, (GDestroyNotify) prediction_free, g_rc_box_acquire,
                          predicted_unref, self->prediction_cancellable, predict_done, g_object_ref (self));
  return NULL;
}

void
ws_plot_panel_forget_prediction (WsPlotPanel *self)
{
  g_return_if_fail (WS_IS_PLOT_PANEL (self));
  g_clear_pointer (&self->prediction_key, g_free);
}

/* What the prediction is for: the plot's x values, the space shown and
 * the device the time is predicted on. */
static char *
prediction_key (WsPlotPanel *self,
                const char  *key,
                const char  *param)
{
  const WsDeviceProfile *profile = ws_session_get_device_profile (self->session);
  const char *source = ws_session_get_profile_source (self->session);
  g_autofree char *device = g_strdup_printf ("%s\n%s", profile ? profile->id : "", source ? source : "");

  if (param)
    return g_strdup_printf ("sweep\n%s\n%d\n%s\n%d", key, self->space, device, self->edited);
  return g_strdup_printf ("topic\n%s\n%s\n%d\n%s", self->preset ? self->preset->topic : "",
                          self->edited ? key : "", self->space, device);
}

/* ------------------------------------------------------------------ */
/* What the plot shows                                                */
/* ------------------------------------------------------------------ */

/* The chooser's items, for the instruction's space: the count's name is
 * the space's, the coalescing only for sectors. */
static void
update_metric_items (WsPlotPanel *self,
                     WsSpace      space)
{
  g_autoptr (GtkStringList) names = gtk_string_list_new (NULL);

  if ((int) space == self->metric_space)
    return;
  self->metric_space = space;
  self->n_metric_items = 0;
  for (WsPlotMetric m = 0; m < WS_N_PLOT_METRICS; m++)
    if (ws_plot_metric_applies (m, space))
      {
        g_autofree char *name = g_strdup (ws_plot_metric_title (m, space));

        /* a title on its own: "Effective bandwidth" */
        name[0] = g_ascii_toupper (name[0]);
        self->metric_items[self->n_metric_items++] = m;
        gtk_string_list_append (names, name);
      }
  self->setting_metric = TRUE;
  gtk_drop_down_set_model (self->metric_dropdown, G_LIST_MODEL (names));
  self->setting_metric = FALSE;
}

/* The chooser shows what the plot does, for the space shown. */
static void
show_metric (WsPlotPanel *self)
{
  update_metric_items (self, self->space);
  if (!ws_plot_metric_applies (self->metric, self->space))
    self->metric = WS_PLOT_TIME;
  for (guint i = 0; i < self->n_metric_items; i++)
    if (self->metric_items[i] == self->metric && gtk_drop_down_get_selected (self->metric_dropdown) != i)
      {
        self->setting_metric = TRUE;
        gtk_drop_down_set_selected (self->metric_dropdown, i);
        self->setting_metric = FALSE;
      }
}

WsPlotMetric
ws_plot_panel_get_metric (WsPlotPanel *self)
{
  g_return_val_if_fail (WS_IS_PLOT_PANEL (self), WS_PLOT_TIME);
  return self->metric;
}

void
ws_plot_panel_set_metric (WsPlotPanel *self,
                          WsPlotMetric metric)
{
  g_return_if_fail (WS_IS_PLOT_PANEL (self));

  if (metric == self->metric)
    return;
  self->metric = metric;
  ws_plot_panel_rebuild (self);
}

void
ws_plot_panel_reset_metric (WsPlotPanel *self,
                            WsPlotMetric metric)
{
  g_return_if_fail (WS_IS_PLOT_PANEL (self));
  self->metric = metric;
}

static void
on_metric_selected (WsPlotPanel *self)
{
  guint i = gtk_drop_down_get_selected (self->metric_dropdown);

  if (self->setting_metric || i >= self->n_metric_items)
    return;
  ws_plot_panel_set_metric (self, self->metric_items[i]);
}

/* ------------------------------------------------------------------ */
/* The chart                                                          */
/* ------------------------------------------------------------------ */

void
ws_plot_panel_set_pattern (WsPlotPanel    *self,
                           const WsPreset *preset,
                           WsPattern      *pattern,
                           gboolean        edited,
                           WsSpace         space,
                           gboolean        wrong)
{
  g_return_if_fail (WS_IS_PLOT_PANEL (self));

  self->preset = preset;
  if (pattern != self->pattern)
    {
      g_clear_pointer (&self->pattern, ws_pattern_unref);
      self->pattern = pattern ? ws_pattern_ref (pattern) : NULL;
    }
  self->edited = edited;
  self->space = space;
  self->wrong = wrong;
}

/* The sweep whose points the chart shows while it runs: the session's, of
 * the pattern in view. NULL when there is none. */
static GPtrArray *
sweep_points (WsPlotPanel *self,
              const char  *key,
              gboolean     replayed)
{
  WsSweep *sweep = ws_session_get_sweep (self->session);

  if (sweep == NULL || !ws_sweep_get_running (sweep) || ws_sweep_get_replayed (sweep) != replayed)
    return NULL;
  /* a replay is of the preset in view: it ends when another opens */
  if (!replayed && g_strcmp0 (ws_sweep_get_key (sweep), key) != 0)
    return NULL;
  return ws_sweep_get_points (sweep);
}

WsChart *
ws_plot_panel_build_chart (WsPlotPanel *self)
{
  const char *param;
  g_autofree char *key = NULL;
  g_autofree char *pkey = NULL;
  g_autoptr (GPtrArray) recordings = NULL;
  const WsDeviceProfile *profile;
  WsPlotInput in = { 0 };
  WsPlotSources sources;
  const Predicted *predicted;

  g_return_val_if_fail (WS_IS_PLOT_PANEL (self), NULL);
  g_return_val_if_fail (self->session != NULL && self->pattern != NULL, NULL);

  param = ws_preset_sweep_param (self->preset, self->pattern);
  key = ws_pattern_sweep_key (self->pattern, param);
  pkey = prediction_key (self, key, param);
  recordings = ws_session_dup_recordings (self->session);
  profile = ws_session_get_device_profile (self->session);
  in.preset = self->preset;
  in.pattern = self->pattern;
  in.edited = self->edited;
  in.sweep_param = param;
  in.key = key;
  in.replayed = sweep_points (self, key, TRUE);
  in.sweeping = sweep_points (self, key, FALSE);
  if (!ws_plot_metric_applies (self->metric, self->space))
    self->metric = WS_PLOT_TIME;
  in.metric = self->metric;
  in.space = self->space;
  predicted = prediction_for (self, pkey, ws_plot_prediction_patterns (&in), ws_plot_prediction_presets (&in));
  in.prediction = predicted ? predicted->values : NULL;
  in.prediction_name = predicted ? predicted->name : NULL;
  in.model_device = profile ? profile->name : NULL;
  ws_plot_sources_from_session (&sources, self->session, recordings);
  return ws_plot_build (&in, &sources);
}

void
ws_plot_panel_rebuild (WsPlotPanel *self)
{
  WsChart *chart;

  g_return_if_fail (WS_IS_PLOT_PANEL (self));

  if (self->session == NULL || self->pattern == NULL)
    return;
  /* a pattern the editor marks wrong has no model, and its old points are not its own */
  if (self->wrong)
    {
      chart = ws_chart_new ();
      ws_chart_set_title (chart, _("The pattern has an error"), NULL);
      ws_chart_set_message (chart, _("Fix the pattern in the editor to see its plot and the model's."));
      ws_chart_view_set_chart (self->chart, chart);
      return;
    }
  chart = ws_plot_panel_build_chart (self);
  if (!ws_session_get_recording_loaded (self->session) || !ws_session_get_probed (self->session))
    ws_chart_set_message (chart, _("Looking for a GPU and the recorded measurements…"));
  else if (ws_session_get_device (self->session))
    ws_chart_set_message (chart, _("Measuring…"));
  else
    ws_chart_set_message (chart, _("No measurement of this pattern: there is no GPU, and the recording has none."));
  ws_chart_view_set_chart (self->chart, chart);
  show_metric (self);
  g_clear_handle_id (&self->chart_timeout, g_source_remove);
  self->chart_built_at = g_get_monotonic_time ();
  g_signal_emit (self, signals[SIGNAL_REBUILT], 0);
}

static gboolean
rebuild_now (gpointer data)
{
  WsPlotPanel *self = data;

  self->chart_timeout = 0;
  ws_plot_panel_rebuild (self);
  return G_SOURCE_REMOVE;
}

void
ws_plot_panel_queue_rebuild (WsPlotPanel *self)
{
  gint64 wait;

  g_return_if_fail (WS_IS_PLOT_PANEL (self));

  if (self->chart_timeout != 0)
    return;
  wait = self->chart_built_at + CHART_INTERVAL_US - g_get_monotonic_time ();
  self->chart_timeout = g_timeout_add ((guint) CLAMP (wait / 1000, 0, 100), rebuild_now, self);
}

gboolean
ws_plot_panel_is_settled (WsPlotPanel *self)
{
  g_return_val_if_fail (WS_IS_PLOT_PANEL (self), FALSE);
  return !self->predicting && self->chart_timeout == 0 && ws_chart_view_is_drawn (self->chart);
}

/* ------------------------------------------------------------------ */
/* The toolbar                                                        */
/* ------------------------------------------------------------------ */

void
ws_plot_panel_set_status (WsPlotPanel *self,
                          const char  *text)
{
  g_autofree char *shown = NULL;

  g_return_if_fail (WS_IS_PLOT_PANEL (self));

  shown = text ? ws_text_bounded (text, STATUS_CHARS) : NULL;
  if (g_strcmp0 (gtk_inscription_get_text (self->measure_status), shown) == 0)
    return;
  gtk_inscription_set_text (self->measure_status, shown);
  /* cut short at the end, it is whole in the tooltip and for a screen reader */
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->measure_status), shown);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->measure_status), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  shown ? shown : "", -1);
}

const char *
ws_plot_panel_get_status (WsPlotPanel *self)
{
  g_return_val_if_fail (WS_IS_PLOT_PANEL (self), NULL);
  return gtk_inscription_get_text (self->measure_status);
}

void
ws_plot_panel_set_sweep_button (WsPlotPanel *self,
                                const char  *label,
                                const char  *tooltip)
{
  g_return_if_fail (WS_IS_PLOT_PANEL (self));

  gtk_button_set_label (GTK_BUTTON (self->sweep_button), label);
  gtk_widget_set_tooltip_text (self->sweep_button, tooltip);
}

void
ws_plot_panel_show_sweeping (WsPlotPanel *self,
                             gboolean     running,
                             double       fraction)
{
  g_return_if_fail (WS_IS_PLOT_PANEL (self));

  gtk_stack_set_visible_child (self->sweep_stack, running ? self->sweep_running : self->sweep_button);
  if (running)
    gtk_progress_bar_set_fraction (self->sweep_progress, fraction);
}

WsChartView *
ws_plot_panel_get_chart_view (WsPlotPanel *self)
{
  g_return_val_if_fail (WS_IS_PLOT_PANEL (self), NULL);
  return self->chart;
}

GtkDropDown *
ws_plot_panel_get_metric_chooser (WsPlotPanel *self)
{
  g_return_val_if_fail (WS_IS_PLOT_PANEL (self), NULL);
  return self->metric_dropdown;
}

GtkWidget *
ws_plot_panel_get_sweep_button (WsPlotPanel *self)
{
  g_return_val_if_fail (WS_IS_PLOT_PANEL (self), NULL);
  return self->sweep_button;
}

GtkWidget *
ws_plot_panel_get_sweep_progress (WsPlotPanel *self)
{
  g_return_val_if_fail (WS_IS_PLOT_PANEL (self), NULL);
  return GTK_WIDGET (self->sweep_progress);
}

GtkWidget *
ws_plot_panel_get_cancel_button (WsPlotPanel *self)
{
  g_return_val_if_fail (WS_IS_PLOT_PANEL (self), NULL);
  return self->cancel_button;
}

/* ------------------------------------------------------------------ */
/* The session's sweep: measured point by point on the GPU, or replayed */
/* from its recording; its progress and its points as they come        */
/* ------------------------------------------------------------------ */

/* The count goes into the status, an inscription whose new text only
 * draws again: in the progress bar, new text would lay the window out. */
static void
show_sweep_progress (WsPlotPanel *self)
{
  WsSweep *sweep = self->shown_sweep;
  guint done, total;
  g_autofree char *text = NULL;

  if (sweep == NULL || !ws_sweep_get_running (sweep))
    {
      ws_plot_panel_show_sweeping (self, FALSE, 0);
      return;
    }
  done = ws_sweep_get_done (sweep);
  total = ws_sweep_get_total (sweep);
  ws_plot_panel_show_sweeping (self, TRUE, total ? (double) done / total : 0);
  if (total == 0)
    text = g_strdup_printf (ngettext ("Sweeping: %u point so far", "Sweeping: %u points so far", done), done);
  else if (ws_sweep_get_replayed (sweep))
    text = g_strdup_printf (ngettext ("Replaying the recorded sweep: %u of %u point",
                                      "Replaying the recorded sweep: %u of %u points", total),
                            done, total);
  else
    text = g_strdup_printf (ngettext ("Sweeping: %u of %u point", "Sweeping: %u of %u points", total), done, total);
  ws_plot_panel_set_status (self, text);
}

static gboolean
show_progress_now (gpointer data)
{
  WsPlotPanel *self = data;

  self->progress_timeout = 0;
  show_sweep_progress (self);
  return G_SOURCE_REMOVE;
}

/* Points may come a hundred times a second: the chart is built again at
 * most 12.5 times a second, the progress shown at most every 80 ms. */
static void
on_sweep_point (WsPlotPanel *self)
{
  ws_plot_panel_queue_rebuild (self);
  if (self->progress_timeout == 0)
    self->progress_timeout = g_timeout_add (80, show_progress_now, self);
}

static void
on_sweep_running (WsPlotPanel *self)
{
  if (!ws_sweep_get_running (self->shown_sweep))
    return;
  ws_plot_panel_set_status (self, ws_sweep_get_replayed (self->shown_sweep)
                                    ? _("Replaying the recorded sweep, point by point")
                                    : _("Sweeping…"));
  show_sweep_progress (self);
  ws_plot_panel_rebuild (self);
}

/* What the status says once a sweep stops. */
static char *
sweep_ending (WsPlotPanel *self,
              WsSweep     *sweep)
{
  const GError *error = ws_sweep_get_error (sweep);
  GPtrArray *points = ws_sweep_get_points (sweep);
  const WsDeviceInfo *device;
  g_autofree char *name = NULL;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return g_strdup (_("Sweep cancelled"));
  if (error)
    return g_strdup_printf (_("The sweep stopped: %s"), error->message);
  if (ws_sweep_get_replayed (sweep))
    return g_strdup_printf (_("Replayed %u recorded points"), points->len);
  device = ws_session_get_device (self->session);
  name = ws_text_for_message (device ? device->name : "?");
  return g_strdup_printf (_("Sweep done: %u points measured on %s"), points->len, name);
}

static void
on_sweep_finished (WsPlotPanel *self)
{
  g_autofree char *text = sweep_ending (self, self->shown_sweep);

  g_clear_handle_id (&self->progress_timeout, g_source_remove);
  ws_plot_panel_set_status (self, text);
  show_sweep_progress (self);
  ws_plot_panel_rebuild (self);
  g_signal_emit (self, signals[SIGNAL_SWEEP_FINISHED], 0);
}

static void
unfollow_sweep (WsPlotPanel *self)
{
  g_clear_handle_id (&self->progress_timeout, g_source_remove);
  for (guint i = 0; i < G_N_ELEMENTS (self->sweep_handlers); i++)
    g_clear_signal_handler (&self->sweep_handlers[i], self->shown_sweep);
  g_clear_object (&self->shown_sweep);
}

/* The session's newest sweep is the one the panel shows. */
static void
follow_sweep (WsPlotPanel *self)
{
  WsSweep *sweep = self->session ? ws_session_get_sweep (self->session) : NULL;

  if (sweep == self->shown_sweep)
    return;
  unfollow_sweep (self);
  if (sweep == NULL)
    return;
  self->shown_sweep = g_object_ref (sweep);
  self->sweep_handlers[0] = g_signal_connect_swapped (sweep, "point", G_CALLBACK (on_sweep_point), self);
  self->sweep_handlers[1] = g_signal_connect_swapped (sweep, "finished", G_CALLBACK (on_sweep_finished), self);
  self->sweep_handlers[2] = g_signal_connect_swapped (sweep, "notify::running", G_CALLBACK (on_sweep_running), self);
  show_sweep_progress (self);
}

gboolean
ws_plot_panel_is_sweeping (WsPlotPanel *self)
{
  g_return_val_if_fail (WS_IS_PLOT_PANEL (self), FALSE);
  return self->shown_sweep && ws_sweep_get_running (self->shown_sweep);
}

/* ------------------------------------------------------------------ */
/* GObject                                                            */
/* ------------------------------------------------------------------ */

WsSession *
ws_plot_panel_get_session (WsPlotPanel *self)
{
  g_return_val_if_fail (WS_IS_PLOT_PANEL (self), NULL);
  return self->session;
}

void
ws_plot_panel_set_session (WsPlotPanel *self,
                           WsSession   *session)
{
  g_return_if_fail (WS_IS_PLOT_PANEL (self));
  g_return_if_fail (session == NULL || WS_IS_SESSION (session));

  if (self->session == session)
    return;
  g_cancellable_cancel (self->prediction_cancellable);
  g_clear_object (&self->prediction_cancellable);
  g_clear_pointer (&self->prediction, predicted_unref);
  g_clear_pointer (&self->prediction_key, g_free);
  self->predicting = FALSE;
  g_clear_signal_handler (&self->session_sweep_handler, self->session);
  unfollow_sweep (self);
  g_set_object (&self->session, session);
  if (session)
    {
      self->session_sweep_handler = g_signal_connect_swapped (session, "notify::sweep", G_CALLBACK (follow_sweep),
                                                              self);
      follow_sweep (self);
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SESSION]);
}

static void
ws_plot_panel_dispose (GObject *object)
{
  WsPlotPanel *self = WS_PLOT_PANEL (object);

  g_cancellable_cancel (self->prediction_cancellable);
  g_clear_object (&self->prediction_cancellable);
  g_clear_handle_id (&self->chart_timeout, g_source_remove);
  unfollow_sweep (self);
  g_clear_signal_handler (&self->session_sweep_handler, self->session);
  g_clear_object (&self->session);
  gtk_widget_dispose_template (GTK_WIDGET (self), WS_TYPE_PLOT_PANEL);
  G_OBJECT_CLASS (ws_plot_panel_parent_class)->dispose (object);
}

static void
ws_plot_panel_finalize (GObject *object)
{
  WsPlotPanel *self = WS_PLOT_PANEL (object);

  g_clear_pointer (&self->prediction, predicted_unref);
  g_free (self->prediction_key);
  g_clear_pointer (&self->pattern, ws_pattern_unref);
  G_OBJECT_CLASS (ws_plot_panel_parent_class)->finalize (object);
}

static void
ws_plot_panel_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  WsPlotPanel *self = WS_PLOT_PANEL (object);

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
ws_plot_panel_set_property (GObject      *object,
                            guint         prop_id,
                            const GValue *value,
                            GParamSpec   *pspec)
{
  WsPlotPanel *self = WS_PLOT_PANEL (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      ws_plot_panel_set_session (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ws_plot_panel_class_init (WsPlotPanelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ws_plot_panel_dispose;
  object_class->finalize = ws_plot_panel_finalize;
  object_class->get_property = ws_plot_panel_get_property;
  object_class->set_property = ws_plot_panel_set_property;

  properties[PROP_SESSION] = g_param_spec_object ("session", NULL, NULL, WS_TYPE_SESSION,
                                                  G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY |
                                                    G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  signals[SIGNAL_REBUILT] = g_signal_new ("rebuilt", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                          NULL, G_TYPE_NONE, 0);
  /* the session's sweep stopped: done, cancelled or failed (the status says which) */
  signals[SIGNAL_SWEEP_FINISHED] = g_signal_new ("sweep-finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                                 NULL, NULL, NULL, G_TYPE_NONE, 0);

  g_type_ensure (WS_TYPE_CHART_VIEW);
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/warpscope/Warpscope/ws-plot-panel.ui");
  gtk_widget_class_bind_template_child (widget_class, WsPlotPanel, box);
  gtk_widget_class_bind_template_child (widget_class, WsPlotPanel, measure_status);
  gtk_widget_class_bind_template_child (widget_class, WsPlotPanel, metric_dropdown);
  gtk_widget_class_bind_template_child (widget_class, WsPlotPanel, sweep_stack);
  gtk_widget_class_bind_template_child (widget_class, WsPlotPanel, sweep_running);
  gtk_widget_class_bind_template_child (widget_class, WsPlotPanel, sweep_progress);
  gtk_widget_class_bind_template_child (widget_class, WsPlotPanel, sweep_button);
  gtk_widget_class_bind_template_child (widget_class, WsPlotPanel, cancel_button);
  gtk_widget_class_bind_template_child (widget_class, WsPlotPanel, chart);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
ws_plot_panel_init (WsPlotPanel *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->metric_space = -1;
  g_signal_connect_object (self->metric_dropdown, "notify::selected", G_CALLBACK (on_metric_selected), self,
                           G_CONNECT_SWAPPED);
}
