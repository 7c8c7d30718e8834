/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "ws-measurement.h"

#include <string.h>

G_DEFINE_BOXED_TYPE (WsDeviceInfo, ws_device_info, ws_device_info_copy, ws_device_info_free)
G_DEFINE_BOXED_TYPE (WsMeasurement, ws_measurement, ws_measurement_copy, ws_measurement_free)

WsDeviceInfo *
ws_device_info_new (void)
{
  return g_new0 (WsDeviceInfo, 1);
}

WsDeviceInfo *
ws_device_info_copy (const WsDeviceInfo *info)
{
  WsDeviceInfo *copy;

  g_return_val_if_fail (info != NULL, NULL);
  copy = g_memdup2 (info, sizeof *info);
  copy->name = g_strdup (info->name);
  copy->driver_version = g_strdup (info->driver_version);
  copy->runtime_version = g_strdup (info->runtime_version);
  copy->host = g_strdup (info->host);
  copy->address = g_strdup (info->address);
  return copy;
}

void
ws_device_info_free (WsDeviceInfo *info)
{
  if (info == NULL)
    return;
  g_free (info->name);
  g_free (info->driver_version);
  g_free (info->runtime_version);
  g_free (info->host);
  g_free (info->address);
  g_free (info);
}

static void
param_clear (gpointer data)
{
  g_free (((WsParamValue *) data)->name);
}

static void
counter_clear (gpointer data)
{
  g_free (((WsCounter *) data)->name);
}

static void
outcome_clear (gpointer data)
{
  g_free (((WsOutcome *) data)->name);
}

static void
line_counter_clear (gpointer data)
{
  g_free (((WsLineCounter *) data)->name);
}

WsMeasurement *
ws_measurement_new (const char *id)
{
  WsMeasurement *m = g_new0 (WsMeasurement, 1);

  m->id = g_strdup (id);
  m->params = g_array_new (FALSE, TRUE, sizeof (WsParamValue));
  g_array_set_clear_func (m->params, param_clear);
  m->samples_ms = g_array_new (FALSE, FALSE, sizeof (double));
  m->counters = g_array_new (FALSE, TRUE, sizeof (WsCounter));
  g_array_set_clear_func (m->counters, counter_clear);
  m->outcomes = g_array_new (FALSE, TRUE, sizeof (WsOutcome));
  g_array_set_clear_func (m->outcomes, outcome_clear);
  m->timeline = g_array_new (FALSE, FALSE, sizeof (WsSpan));
  m->line_counters = g_array_new (FALSE, TRUE, sizeof (WsLineCounter));
  g_array_set_clear_func (m->line_counters, line_counter_clear);
  return m;
}

WsMeasurement *
ws_measurement_copy (const WsMeasurement *m)
{
  WsMeasurement *copy;

  g_return_val_if_fail (m != NULL, NULL);
  copy = ws_measurement_new (m->id);
  copy->description = g_strdup (m->description);
  for (guint i = 0; i < m->params->len; i++)
    {
      const WsParamValue *p = &g_array_index (m->params, WsParamValue, i);
      ws_measurement_set_param (copy, p->name, p->value);
    }
  g_array_append_vals (copy->samples_ms, m->samples_ms->data, m->samples_ms->len);
  for (guint i = 0; i < m->counters->len; i++)
    {
      const WsCounter *c = &g_array_index (m->counters, WsCounter, i);
      ws_measurement_add_counter (copy, c->name, c->value);
    }
  copy->median_ms = m->median_ms;
  copy->min_ms = m->min_ms;
  copy->max_ms = m->max_ms;
  copy->bytes = m->bytes;
  copy->bandwidth_gbs = m->bandwidth_gbs;
  copy->cold = m->cold;
  copy->sm_clock_mhz = m->sm_clock_mhz;
  copy->registers = m->registers;
  copy->local_bytes = m->local_bytes;
  copy->shared_bytes = m->shared_bytes;
  copy->blocks_per_sm = m->blocks_per_sm;
  copy->warps_per_sm = m->warps_per_sm;
  copy->verified = m->verified;
  copy->warning = g_strdup (m->warning);
  copy->trials = m->trials;
  for (guint i = 0; i < m->outcomes->len; i++)
    {
      const WsOutcome *o = &g_array_index (m->outcomes, WsOutcome, i);
      ws_measurement_add_outcome (copy, o->name, o->count);
    }
  g_array_append_vals (copy->timeline, m->timeline->data, m->timeline->len);
  for (guint i = 0; i < m->line_counters->len; i++)
    {
      const WsLineCounter *c = &g_array_index (m->line_counters, WsLineCounter, i);
      ws_measurement_add_line_counter (copy, c->line, c->name, c->value);
    }
  return copy;
}

void
ws_measurement_free (WsMeasurement *m)
{
  if (m == NULL)
    return;
  g_free (m->id);
  g_free (m->description);
  g_array_unref (m->params);
  g_array_unref (m->samples_ms);
  g_array_unref (m->counters);
  g_array_unref (m->outcomes);
  g_array_unref (m->timeline);
  g_array_unref (m->line_counters);
  g_free (m->warning);
  g_free (m);
}

void
ws_measurement_set_param (WsMeasurement *m,
                          const char    *name,
                          gint64         value)
{
  WsParamValue p;

  for (guint i = 0; i < m->params->len; i++)
    {
      WsParamValue *q = &g_array_index (m->params, WsParamValue, i);
      if (strcmp (q->name, name) == 0)
        {
          q->value = value;
          return;
        }
    }
  p.name = g_strdup (name);
  p.value = value;
  g_array_append_val (m->params, p);
}

gboolean
ws_measurement_get_param (const WsMeasurement *m,
                          const char          *name,
                          gint64              *value)
{
  for (guint i = 0; i < m->params->len; i++)
    {
      const WsParamValue *q = &g_array_index (m->params, WsParamValue, i);
      if (strcmp (q->name, name) == 0)
        {
          if (value)
            *value = q->value;
          return TRUE;
        }
    }
  return FALSE;
}

void
ws_measurement_add_sample (WsMeasurement *m,
                           double         ms)
{
  g_array_append_val (m->samples_ms, ms);
}

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

void
ws_measurement_summarize (WsMeasurement *m)
{
  g_autoptr (GArray) sorted = NULL;
  guint n = m->samples_ms->len;

  if (n == 0)
    {
      m->median_ms = m->min_ms = m->max_ms = 0;
      m->bandwidth_gbs = 0;
      return;
    }
  sorted = g_array_copy (m->samples_ms);
  g_array_sort (sorted, compare_doubles);
  m->min_ms = g_array_index (sorted, double, 0);
  m->max_ms = g_array_index (sorted, double, n - 1);
  m->median_ms = n % 2 ? g_array_index (sorted, double, n / 2)
                       : (g_array_index (sorted, double, n / 2 - 1) + g_array_index (sorted, double, n / 2)) / 2;
  m->bandwidth_gbs = m->bytes > 0 && m->median_ms > 0 ? m->bytes / (m->median_ms * 1e6) : 0;
}

void
ws_measurement_add_counter (WsMeasurement *m,
                            const char    *name,
                            double         value)
{
  WsCounter c = { g_strdup (name), value };

  for (guint i = 0; i < m->counters->len; i++)
    {
      WsCounter *q = &g_array_index (m->counters, WsCounter, i);
      if (strcmp (q->name, name) == 0)
        {
          q->value = value;
          g_free (c.name);
          return;
        }
    }
  g_array_append_val (m->counters, c);
}

gboolean
ws_measurement_get_counter (const WsMeasurement *m,
                            const char          *name,
                            double              *value)
{
  for (guint i = 0; i < m->counters->len; i++)
    {
      const WsCounter *q = &g_array_index (m->counters, WsCounter, i);
      if (strcmp (q->name, name) == 0)
        {
          if (value)
            *value = q->value;
          return TRUE;
        }
    }
  return FALSE;
}

void
ws_measurement_add_outcome (WsMeasurement *m,
                            const char    *name,
                            gint64         count)
{
  WsOutcome o;

  g_return_if_fail (m != NULL && name != NULL);
  for (guint i = 0; i < m->outcomes->len; i++)
    {
      WsOutcome *q = &g_array_index (m->outcomes, WsOutcome, i);
      if (strcmp (q->name, name) == 0)
        {
          q->count += count;
          return;
        }
    }
  o.name = g_strdup (name);
  o.count = count;
  g_array_append_val (m->outcomes, o);
}

gboolean
ws_measurement_get_outcome (const WsMeasurement *m,
                            const char          *name,
                            gint64              *count)
{
  for (guint i = 0; i < m->outcomes->len; i++)
    {
      const WsOutcome *q = &g_array_index (m->outcomes, WsOutcome, i);
      if (strcmp (q->name, name) == 0)
        {
          if (count)
            *count = q->count;
          return TRUE;
        }
    }
  return FALSE;
}

void
ws_measurement_add_span (WsMeasurement *m,
                         guint          stream,
                         WsSpanKind     kind,
                         double         start_ms,
                         double         end_ms)
{
  WsSpan span = { stream, kind, start_ms, end_ms };

  g_return_if_fail (m != NULL && kind < WS_N_SPAN_KINDS);
  g_array_append_val (m->timeline, span);
}

static const char *span_kinds[] = { "kernel", "host-to-device", "device-to-host", "prefetch" };
G_STATIC_ASSERT (G_N_ELEMENTS (span_kinds) == WS_N_SPAN_KINDS);

const char *
ws_span_kind_to_string (WsSpanKind kind)
{
  g_return_val_if_fail (kind < WS_N_SPAN_KINDS, NULL);
  return span_kinds[kind];
}

gboolean
ws_span_kind_from_string (const char *name,
                          WsSpanKind *kind)
{
  for (guint i = 0; i < WS_N_SPAN_KINDS; i++)
    if (g_strcmp0 (name, span_kinds[i]) == 0)
      {
        *kind = i;
        return TRUE;
      }
  return FALSE;
}

void
ws_measurement_add_line_counter (WsMeasurement *m,
                                 guint          line,
                                 const char    *name,
                                 double         value)
{
  WsLineCounter c = { line, g_strdup (name), value };

  for (guint i = 0; i < m->line_counters->len; i++)
    {
      WsLineCounter *q = &g_array_index (m->line_counters, WsLineCounter, i);
      if (q->line == line && strcmp (q->name, name) == 0)
        {
          q->value += value;
          g_free (c.name);
          return;
        }
    }
  g_array_append_val (m->line_counters, c);
}

gboolean
ws_measurement_get_line_counter (const WsMeasurement *m,
                                 guint                line,
                                 const char          *name,
                                 double              *value)
{
  for (guint i = 0; i < m->line_counters->len; i++)
    {
      const WsLineCounter *q = &g_array_index (m->line_counters, WsLineCounter, i);
      if (q->line == line && strcmp (q->name, name) == 0)
        {
          if (value)
            *value = q->value;
          return TRUE;
        }
    }
  return FALSE;
}

double
ws_measurement_get_line_counter_or (const WsMeasurement *m,
                                    guint                line,
                                    const char          *name,
                                    double               fallback)
{
  double value;

  return ws_measurement_get_line_counter (m, line, name, &value) ? value : fallback;
}

double
ws_measurement_get_line_global_instructions (const WsMeasurement *m,
                                             guint                line)
{
  return ws_measurement_get_line_counter_or (m, line, "smsp__sass_inst_executed_op_global_ld", 0) +
         ws_measurement_get_line_counter_or (m, line, "smsp__sass_inst_executed_op_global_st", 0) +
         ws_measurement_get_line_counter_or (m, line, "smsp__sass_inst_executed_op_global_red", 0) +
         ws_measurement_get_line_counter_or (m, line, "smsp__sass_inst_executed_op_global_atom", 0);
}
