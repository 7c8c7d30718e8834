/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Below L1, in the explorer (ws-hierarchy-page.h): the hierarchy of the
 * pattern's launch on the device the session chose (ws-session-profile.c),
 * on the session's model thread after the launch's L1 figures, drawn by
 * ws-plot-hierarchy.c beside what a measurement counted. */
#include <glib/gi18n.h>
#include "ws-hierarchy-page.h"
#include "ws-model-types.h"
#include "ws-plot-hierarchy.h"

struct _WsHierarchyPage
{
  GtkWidget parent_instance;

  /* template */
  WsHierarchyView *view;

  WsSession *session;
  gulong profile_handler;

  /* what it is of */
  const WsPreset *preset;
  WsPattern *pattern;
  gboolean edited;
  gboolean ready;
  WsMeasurement *measured;         /* a copy of the one shown: the session may replace its own */
  char *measured_source;
  int measured_hue;

  /* the model of the launch, on the session's model thread */
  GCancellable *cancellable;
  WsPlotModel *model;
  char *error;
  gboolean running;
};

G_DEFINE_FINAL_TYPE (WsHierarchyPage, ws_hierarchy_page, GTK_TYPE_WIDGET)

enum
{
  PROP_0,
  PROP_SESSION,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum
{
  SIGNAL_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* ------------------------------------------------------------------ */
/* What the user sees                                                 */
/* ------------------------------------------------------------------ */

static char *
title_of (WsHierarchyPage *self)
{
  if (self->preset && !self->edited)
    return ws_preset_short_title (_(self->preset->title));
  if (self->preset)
    {
      g_autofree char *name = ws_preset_short_title (_(self->preset->title));
      /* Translators: a preset's name */
      return g_strdup_printf (_("%s, edited"), name);
    }
  return g_strdup (_("Your pattern"));
}

static void
show (WsHierarchyPage *self)
{
  const WsDeviceProfile *profile = self->session ? ws_session_get_device_profile (self->session) : NULL;
  g_autofree char *title = title_of (self);
  g_autofree char *message = NULL;
  g_autoptr (WsHierarchyFigure) figure = NULL;
  WsPlotHierarchyInput in = { title, self->model, profile,
                              self->session ? ws_session_get_profile_source (self->session) : NULL,
                              self->measured, self->measured_source, self->measured_hue, NULL };

  if (profile == NULL)
    message = g_strdup (_("Looking for a GPU and the recorded measurements…"));
  else if (self->model == NULL)
    message = g_strdup (self->error ? self->error : _("Following the launch through L1, L2 and DRAM…"));
  in.message = message;
  figure = ws_plot_hierarchy_build (&in);
  ws_hierarchy_view_set_figure (self->view, figure);
  g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
}

/* ------------------------------------------------------------------ */
/* The model, on the session's model thread                           */
/* ------------------------------------------------------------------ */

typedef struct
{
  const WsPreset *preset;    /* whose kernel runs the pattern, or NULL */
  WsPattern *pattern;
  WsDeviceProfile *profile;  /* a copy: the session may let go of its own meanwhile */
} Job;

static void
job_free (Job *job)
{
  ws_pattern_unref (job->pattern);
  ws_device_profile_free (job->profile);
  g_free (job);
}

static gpointer
run_job (gpointer      data,
         GCancellable *cancellable,
         GError      **error)
{
  Job *job = data;

  return ws_plot_model_compute (job->preset, job->pattern, job->profile, cancellable, error);
}

static void
job_done (GObject      *source,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr (WsHierarchyPage) self = user_data;
  g_autoptr (GError) error = NULL;
  WsPlotModel *model = ws_session_model_finish (WS_SESSION (source), result, &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  self->running = FALSE;
  g_clear_pointer (&self->model, ws_plot_model_free);
  g_clear_pointer (&self->error, g_free);
  self->model = model;
  if (model == NULL)
    self->error = g_strdup_printf (_("The model could not follow this launch below L1: %s"), error->message);
  show (self);
}

static void
analyze (WsHierarchyPage *self)
{
  const WsDeviceProfile *profile = self->session ? ws_session_get_device_profile (self->session) : NULL;
  Job *job;

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->model, ws_plot_model_free);
  g_clear_pointer (&self->error, g_free);
  self->running = FALSE;
  if (profile == NULL || self->pattern == NULL || !self->ready)
    {
      show (self);
      return;
    }
  self->cancellable = g_cancellable_new ();
  job = g_new0 (Job, 1);
  job->preset = self->edited ? NULL : self->preset;
  job->pattern = ws_pattern_ref (self->pattern);
  job->profile = ws_device_profile_copy (profile);
  self->running = TRUE;
  ws_session_model_async (self->session, NULL, run_job, job, (GDestroyNotify) job_free, NULL,
                          (GDestroyNotify) ws_plot_model_free, self->cancellable, job_done, g_object_ref (self));
  show (self);
}

/* ------------------------------------------------------------------ */
/* Public API                                                         */
/* ------------------------------------------------------------------ */

void
ws_hierarchy_page_follow (WsHierarchyPage *self,
                          const WsPreset  *preset,
                          WsPattern       *pattern,
                          gboolean         edited,
                          gboolean         ready)
{
  g_return_if_fail (WS_IS_HIERARCHY_PAGE (self));

  self->preset = preset;
  if (pattern != self->pattern)
    {
      g_clear_pointer (&self->pattern, ws_pattern_unref);
      self->pattern = pattern ? ws_pattern_ref (pattern) : NULL;
    }
  self->edited = edited;
  self->ready = ready;
  analyze (self);
}

void
ws_hierarchy_page_set_measurement (WsHierarchyPage     *self,
                                   const WsMeasurement *measured,
                                   const char          *source,
                                   int                  hue)
{
  g_return_if_fail (WS_IS_HIERARCHY_PAGE (self));

  if (measured != self->measured)
    {
      g_clear_pointer (&self->measured, ws_measurement_free);
      self->measured = measured ? ws_measurement_copy (measured) : NULL;
    }
  g_free (self->measured_source);
  self->measured_source = g_strdup (source);
  self->measured_hue = hue;
  show (self);
}

void
ws_hierarchy_page_clear (WsHierarchyPage *self)
{
  g_return_if_fail (WS_IS_HIERARCHY_PAGE (self));
  ws_hierarchy_view_set_figure (self->view, NULL);
}

const WsPlotModel *
ws_hierarchy_page_get_model (WsHierarchyPage *self)
{
  g_return_val_if_fail (WS_IS_HIERARCHY_PAGE (self), NULL);
  return self->model;
}

const char *
ws_hierarchy_page_get_error (WsHierarchyPage *self)
{
  g_return_val_if_fail (WS_IS_HIERARCHY_PAGE (self), NULL);
  return self->error;
}

gboolean
ws_hierarchy_page_is_running (WsHierarchyPage *self)
{
  g_return_val_if_fail (WS_IS_HIERARCHY_PAGE (self), FALSE);
  return self->running;
}

WsHierarchyView *
ws_hierarchy_page_get_view (WsHierarchyPage *self)
{
  g_return_val_if_fail (WS_IS_HIERARCHY_PAGE (self), NULL);
  return self->view;
}

/* ------------------------------------------------------------------ */
/* GObject                                                            */
/* ------------------------------------------------------------------ */

WsSession *
ws_hierarchy_page_get_session (WsHierarchyPage *self)
{
  g_return_val_if_fail (WS_IS_HIERARCHY_PAGE (self), NULL);
  return self->session;
}

void
ws_hierarchy_page_set_session (WsHierarchyPage *self,
                               WsSession       *session)
{
  g_return_if_fail (WS_IS_HIERARCHY_PAGE (self));
  g_return_if_fail (session == NULL || WS_IS_SESSION (session));

  if (self->session == session)
    return;
  g_clear_signal_handler (&self->profile_handler, self->session);
  g_set_object (&self->session, session);
  /* a model made on another device is no model of this one */
  if (session)
    self->profile_handler = g_signal_connect_swapped (session, "notify::device-profile", G_CALLBACK (analyze), self);
  analyze (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SESSION]);
}

GtkWidget *
ws_hierarchy_page_new (void)
{
  return g_object_new (WS_TYPE_HIERARCHY_PAGE, NULL);
}

static void
ws_hierarchy_page_dispose (GObject *object)
{
  WsHierarchyPage *self = WS_HIERARCHY_PAGE (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_signal_handler (&self->profile_handler, self->session);
  g_clear_object (&self->session);
  gtk_widget_dispose_template (GTK_WIDGET (self), WS_TYPE_HIERARCHY_PAGE);
  G_OBJECT_CLASS (ws_hierarchy_page_parent_class)->dispose (object);
}

static void
ws_hierarchy_page_finalize (GObject *object)
{
  WsHierarchyPage *self = WS_HIERARCHY_PAGE (object);

  g_clear_pointer (&self->model, ws_plot_model_free);
  g_free (self->error);
  g_free (self->measured_source);
  g_clear_pointer (&self->measured, ws_measurement_free);
  g_clear_pointer (&self->pattern, ws_pattern_unref);
  G_OBJECT_CLASS (ws_hierarchy_page_parent_class)->finalize (object);
}

static void
ws_hierarchy_page_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  WsHierarchyPage *self = WS_HIERARCHY_PAGE (object);

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
ws_hierarchy_page_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  WsHierarchyPage *self = WS_HIERARCHY_PAGE (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      ws_hierarchy_page_set_session (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ws_hierarchy_page_class_init (WsHierarchyPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ws_hierarchy_page_dispose;
  object_class->finalize = ws_hierarchy_page_finalize;
  object_class->get_property = ws_hierarchy_page_get_property;
  object_class->set_property = ws_hierarchy_page_set_property;

  properties[PROP_SESSION] = g_param_spec_object ("session", NULL, NULL, WS_TYPE_SESSION,
                                                  G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY |
                                                    G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  signals[SIGNAL_CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                          NULL, G_TYPE_NONE, 0);

  g_type_ensure (WS_TYPE_HIERARCHY_VIEW);
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/warpscope/Warpscope/ws-hierarchy-page.ui");
  gtk_widget_class_bind_template_child (widget_class, WsHierarchyPage, view);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
ws_hierarchy_page_init (WsHierarchyPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}
