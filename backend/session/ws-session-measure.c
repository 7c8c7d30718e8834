/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The session's measurements: one path for every one of them, from the
 * window, the comparison and warpscope-cli alike. A request goes to the
 * backend thread, which hands it to the GPU worker process; what comes back
 * is kept among the live measurements by measure_done, the one callback
 * every measurement ends in, which then emits "measured". */
#include "ws-config.h"
#include "ws-session-private.h"

#include <glib/gi18n-lib.h>
#include <math.h>

/* What a measurement is of, for its live entry. */
typedef struct
{
  char *key;
  char *preset_id;
  char *sweep_param;
} Subject;

static void
subject_free (Subject *s)
{
  g_free (s->key);
  g_free (s->preset_id);
  g_free (s->sweep_param);
  g_free (s);
}

/* The pattern a request measures: its own, or the preset's at the
 * request's parameters (warpscope-cli names a kernel and its sizes). */
static WsPattern *
request_pattern (const WsMeasureRequest *request,
                 const WsPreset         *preset)
{
  WsPattern *pattern;

  if (request->pattern)
    return ws_pattern_ref (request->pattern);
  if (preset == NULL)
    return NULL;
  pattern = ws_preset_build (preset);
  for (guint i = 0; request->params && i < request->params->len; i++)
    {
      const WsParamValue *p = &g_array_index (request->params, WsParamValue, i);
      gint64 v;

      if (ws_pattern_get_param (pattern, p->name, &v))
        ws_pattern_set_param (pattern, p->name, p->value, NULL);
    }
  ws_preset_fit_grid (preset, pattern, NULL);
  return pattern;
}

static Subject *
subject_of (const WsMeasureRequest *request)
{
  const WsPreset *preset = request->kernel_id ? ws_preset_lookup (request->kernel_id) : NULL;
  g_autoptr (WsPattern) pattern = request_pattern (request, preset);
  Subject *s = g_new0 (Subject, 1);

  s->preset_id = request->kernel_id ? g_strdup (request->kernel_id) : NULL;
  s->sweep_param = g_strdup (request->sweep_param ? request->sweep_param
                                                  : pattern ? ws_preset_sweep_param (preset, pattern) : NULL);
  /* a reference with no pattern (cudaMemcpy) is known by its id, a kernel
   * of one's own by its text and launch */
  if (request->kernel_text)
    s->key = ws_kernel_spec_live_key (request->kernel_text);
  else
    s->key = pattern ? ws_pattern_sweep_key (pattern, s->sweep_param) : g_strdup (request->kernel_id);
  return s;
}

static const WsLiveEntry *
add_live (WsSession           *self,
          const Subject       *s,
          const WsPattern     *pattern,
          const WsMeasurement *m,
          gboolean             announce)
{
  WsLiveEntry *e = g_new0 (WsLiveEntry, 1);
  gint64 x;

  e->key = g_strdup (s->key);
  e->preset_id = g_strdup (s->preset_id);
  e->x = s->sweep_param && (ws_measurement_get_param (m, s->sweep_param, &x) ||
                            (pattern && ws_pattern_get_param (pattern, s->sweep_param, &x))) ? x : NAN;
  e->m = ws_measurement_copy (m);
  g_ptr_array_add (self->live, e);
  if (announce)
    g_signal_emit (self, ws_session_signals[WS_SESSION_SIGNAL_MEASURED], 0, e);
  return e;
}

GPtrArray *
ws_session_get_live (WsSession *self)
{
  g_return_val_if_fail (WS_IS_SESSION (self), NULL);
  return self->live;
}

const WsLiveEntry *
ws_session_find_live (WsSession  *self,
                      const char *key,
                      double      x)
{
  g_return_val_if_fail (WS_IS_SESSION (self), NULL);

  for (guint i = self->live->len; i > 0; i--)
    {
      const WsLiveEntry *e = g_ptr_array_index (self->live, i - 1);
      if (g_strcmp0 (e->key, key) == 0 && (isnan (x) || e->x == x))
        return e;
    }
  return NULL;
}

const WsLiveEntry *
ws_session_find_live_preset (WsSession  *self,
                             const char *preset_id,
                             double      x)
{
  g_return_val_if_fail (WS_IS_SESSION (self), NULL);
  g_return_val_if_fail (preset_id != NULL, NULL);

  for (guint i = self->live->len; i > 0; i--)
    {
      const WsLiveEntry *e = g_ptr_array_index (self->live, i - 1);
      if (g_strcmp0 (e->preset_id, preset_id) == 0 && (isnan (x) || e->x == x))
        return e;
    }
  return NULL;
}

WsMeasureRequest *
ws_session_request_for (WsSession       *self,
                        const WsPreset  *preset,
                        const WsPattern *pattern,
                        gboolean         counters)
{
  WsMeasureRequest *request;
  const WsKernelInfo *info;
  const char *sweep_param;

  g_return_val_if_fail (WS_IS_SESSION (self), NULL);
  g_return_val_if_fail (pattern != NULL, NULL);

  request = ws_measure_request_new ();
  request->options.samples = self->samples;
  request->options.cold = self->cold;
  request->options.counters = counters;
  request->pattern = ws_pattern_copy (pattern);
  /* an edited pattern keeps the sweep of the preset it came from */
  sweep_param = ws_preset_sweep_param (preset, pattern);
  request->sweep_param = g_strdup (sweep_param);
  info = preset && !ws_preset_differs (preset, pattern) ? ws_gpu_kernel_lookup (preset->id) : NULL;
  if (info == NULL)
    return request;
  /* the kernel's own sizes (the preset's, as recorded), at the pattern's
   * value of the parameter its sweep varies */
  request->kernel_id = g_strdup (info->id);
  for (guint i = 0; i < info->n_params; i++)
    {
      gint64 v = info->params[i].def;

      if (g_strcmp0 (info->params[i].name, sweep_param) == 0)
        ws_pattern_get_param (pattern, sweep_param, &v);
      ws_measure_request_set_param (request, info->params[i].name, v);
    }
  return request;
}

/* ------------------------------------------------------------------ */
/* One measurement                                                    */
/* ------------------------------------------------------------------ */

typedef struct
{
  Subject *subject;
  WsPattern *pattern;           /* NULL for a reference with no pattern */
  GPtrArray *partial;           /* a sweep's points so far (WsMeasurement) */
  WsBackendProgress hook;       /* who started it hears of each point too */
  gpointer hook_data;
} MeasureData;

static void
measure_data_free (MeasureData *d)
{
  subject_free (d->subject);
  g_clear_pointer (&d->pattern, ws_pattern_unref);
  g_clear_pointer (&d->partial, g_ptr_array_unref);
  g_free (d);
}

static void
measure_progress (WsBackend           *backend,
                  guint                done,
                  guint                total,
                  const WsMeasurement *latest,
                  gpointer             user_data)
{
  WsSession *self = user_data;

  g_assert (WS_IS_SESSION (self));

  g_signal_emit (self, ws_session_signals[WS_SESSION_SIGNAL_MEASURE_PROGRESS], 0, done, total);
}

/* Where every measurement ends: kept, announced, then handed back. */
static void
measure_done (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr (GTask) task = user_data;
  WsSession *self = g_task_get_source_object (task);
  MeasureData *d = g_task_get_task_data (task);
  GError *error = NULL;
  WsMeasurement *m = ws_backend_measure_finish (WS_BACKEND (source), result, &error);

  g_assert (WS_IS_SESSION (self));

  if (m == NULL)
    {
      ws_session_note_failure (self, error);
      g_task_return_error (task, error);
      return;
    }
  /* a result for a view that has moved on is dropped, not kept */
  if (!g_task_return_error_if_cancelled (task))
    {
      add_live (self, d->subject, d->pattern, m, TRUE);
      g_task_return_pointer (task, m, (GDestroyNotify) ws_measurement_free);
    }
  else
    ws_measurement_free (m);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (MeasureData, measure_data_free)

static MeasureData *
measure_data_new (const WsMeasureRequest *request)
{
  MeasureData *d = g_new0 (MeasureData, 1);

  d->subject = subject_of (request);
  d->pattern = request_pattern (request, request->kernel_id ? ws_preset_lookup (request->kernel_id) : NULL);
  return d;
}

void
ws_session_measure_async (WsSession              *self,
                          const WsMeasureRequest *request,
                          GCancellable           *cancellable,
                          GAsyncReadyCallback     callback,
                          gpointer                user_data)
{
  GTask *task;

  g_return_if_fail (WS_IS_SESSION (self));
  g_return_if_fail (request != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, ws_session_measure_async);
  g_task_set_task_data (task, measure_data_new (request), (GDestroyNotify) measure_data_free);
  ws_backend_measure_async (self->backend, request, cancellable, measure_progress, g_object_ref (self),
                            g_object_unref, measure_done, task);
}

WsMeasurement *
ws_session_measure_finish (WsSession    *self,
                           GAsyncResult *result,
                           GError      **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

/* ------------------------------------------------------------------ */
/* Sweeps                                                             */
/* ------------------------------------------------------------------ */

static void
sweep_progress (WsBackend           *backend,
                guint                done,
                guint                total,
                const WsMeasurement *latest,
                gpointer             user_data)
{
  GTask *task = user_data;
  WsSession *self = g_task_get_source_object (task);
  MeasureData *d = g_task_get_task_data (task);

  g_assert (WS_IS_SESSION (self));

  if (latest)
    g_ptr_array_add (d->partial, ws_measurement_copy (latest));
  g_signal_emit (self, ws_session_signals[WS_SESSION_SIGNAL_SWEEP_PROGRESS], 0, done, total, latest);
  if (d->hook)
    d->hook (backend, done, total, latest, d->hook_data);
}

static void
sweeping_changed (WsSession *self,
                  int        delta)
{
  gboolean before = self->sweeps > 0;

  self->sweeps += delta;
  if (before != (self->sweeps > 0))
    g_object_notify_by_pspec (G_OBJECT (self), ws_session_properties[WS_SESSION_PROP_SWEEPING]);
}

static void
sweep_done (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr (GTask) task = user_data;
  WsSession *self = g_task_get_source_object (task);
  MeasureData *d = g_task_get_task_data (task);
  GError *error = NULL;
  GPtrArray *points = ws_backend_sweep_finish (WS_BACKEND (source), result, &error);

  g_assert (WS_IS_SESSION (self));

  sweeping_changed (self, -1);
  if (points == NULL)
    {
      /* what was measured before a failure (a lost connection) is kept:
       * the sweep resumes from there (ws_session_sweep_values_left) */
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        for (guint i = 0; i < d->partial->len; i++)
          add_live (self, d->subject, d->pattern, g_ptr_array_index (d->partial, i), FALSE);
      ws_session_note_failure (self, error);
      g_task_return_error (task, error);
      return;
    }
  if (g_task_return_error_if_cancelled (task))
    {
      g_ptr_array_unref (points);
      return;
    }
  /* the points join the live measurements together: whoever started the
   * sweep hears of them from its callback, once */
  for (guint i = 0; i < points->len; i++)
    add_live (self, d->subject, d->pattern, g_ptr_array_index (points, i), FALSE);
  g_task_return_pointer (task, points, (GDestroyNotify) g_ptr_array_unref);
}

/* The kernel's standard sweep, else the preset's. */
static GArray *
standard_values (const WsMeasureRequest *request,
                 const char             *param)
{
  const WsKernelInfo *info = request->kernel_id ? ws_gpu_kernel_lookup (request->kernel_id) : NULL;
  const WsPreset *preset = info ? info->preset : NULL;

  if (info && info->sweep_values && g_strcmp0 (info->sweep_param, param) == 0)
    return ws_sweep_values_parse (info->sweep_values, NULL);
  if (preset && preset->sweep_values && g_strcmp0 (preset->sweep_param, param) == 0)
    return ws_sweep_values_parse (preset->sweep_values, NULL);
  return NULL;
}

void
ws_session_sweep_run (WsSession              *self,
                      const WsMeasureRequest *request,
                      const char             *param,
                      GArray                 *values,
                      WsBackendProgress       hook,
                      gpointer                hook_data,
                      GCancellable           *cancellable,
                      GAsyncReadyCallback     callback,
                      gpointer                user_data)
{
  g_autoptr (GArray) standard = NULL;
  MeasureData *d;
  GTask *task;

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, ws_session_sweep_async);
  if (values == NULL && (values = standard = standard_values (request, param)) == NULL)
    {
      if (request->kernel_id)
        /* Translators: a kernel's id, then a parameter's name */
        g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, _("%s has no standard sweep of %s"),
                                 request->kernel_id, param);
      else
        g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                                 /* Translators: a parameter's name */
                                 _("the pattern has no standard sweep of %s"), param);
      g_object_unref (task);
      return;
    }
  d = measure_data_new (request);
  d->partial = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_measurement_free);
  d->hook = hook;
  d->hook_data = hook_data;
  /* every point of a sweep shares its key; x is the swept value */
  g_free (d->subject->sweep_param);
  d->subject->sweep_param = g_strdup (param);
  if (d->pattern)
    {
      g_free (d->subject->key);
      d->subject->key = ws_pattern_sweep_key (d->pattern, param);
    }
  g_task_set_task_data (task, d, (GDestroyNotify) measure_data_free);
  sweeping_changed (self, +1);
  ws_backend_sweep_async (self->backend, request, param, values, cancellable, sweep_progress, g_object_ref (task),
                          g_object_unref, sweep_done, task);
}

void
ws_session_sweep_async (WsSession              *self,
                        const WsMeasureRequest *request,
                        const char             *param,
                        GArray                 *values,
                        GCancellable           *cancellable,
                        GAsyncReadyCallback     callback,
                        gpointer                user_data)
{
  g_return_if_fail (WS_IS_SESSION (self));
  g_return_if_fail (request != NULL);
  g_return_if_fail (param != NULL);

  ws_session_sweep_run (self, request, param, values, NULL, NULL, cancellable, callback, user_data);
}

char *
ws_session_sweep_key (const WsMeasureRequest *request,
                      const char             *param)
{
  g_autoptr (MeasureData) d = measure_data_new (request);

  if (d->pattern)
    return ws_pattern_sweep_key (d->pattern, param);
  return g_steal_pointer (&d->subject->key);
}

GArray *
ws_session_sweep_values_left (WsSession              *self,
                              const WsMeasureRequest *request,
                              const char             *param,
                              GArray                 *values)
{
  g_autoptr (GArray) standard = NULL;
  g_autoptr (MeasureData) d = NULL;
  GArray *left;

  g_return_val_if_fail (WS_IS_SESSION (self), NULL);
  g_return_val_if_fail (request != NULL, NULL);
  g_return_val_if_fail (param != NULL, NULL);

  if (values == NULL && (values = standard = standard_values (request, param)) == NULL)
    return NULL;
  /* the key the sweep's points were kept under */
  d = measure_data_new (request);
  g_free (d->subject->sweep_param);
  d->subject->sweep_param = g_strdup (param);
  if (d->pattern)
    {
      g_free (d->subject->key);
      d->subject->key = ws_pattern_sweep_key (d->pattern, param);
    }
  left = g_array_new (FALSE, FALSE, sizeof (gint64));
  for (guint i = 0; i < values->len; i++)
    {
      gint64 v = g_array_index (values, gint64, i);

      if (ws_session_find_live (self, d->subject->key, (double) v) == NULL)
        g_array_append_val (left, v);
    }
  return left;
}

GPtrArray *
ws_session_sweep_finish (WsSession    *self,
                         GAsyncResult *result,
                         GError      **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

gboolean
ws_session_get_sweeping (WsSession *self)
{
  g_return_val_if_fail (WS_IS_SESSION (self), FALSE);
  return self->sweeps > 0;
}

/* ------------------------------------------------------------------ */
/* Hardware counters                                                  */
/* ------------------------------------------------------------------ */

static void
count_done (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr (GTask) task = user_data;
  GError *error = NULL;
  WsMeasurement *m = ws_backend_count_finish (WS_BACKEND (source), result, &error);

  if (m)
    g_task_return_pointer (task, m, (GDestroyNotify) ws_measurement_free);
  else
    g_task_return_error (task, error);
}

void
ws_session_count_async (WsSession          *self,
                        const WsPattern    *pattern,
                        gboolean            hold,
                        GCancellable       *cancellable,
                        GAsyncReadyCallback callback,
                        gpointer            user_data)
{
  GTask *task;

  g_return_if_fail (WS_IS_SESSION (self));
  g_return_if_fail (pattern != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, ws_session_count_async);
  ws_backend_count_async (self->backend, pattern, self->cold, hold, cancellable, count_done, task);
}

WsMeasurement *
ws_session_count_finish (WsSession    *self,
                         GAsyncResult *result,
                         GError      **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

