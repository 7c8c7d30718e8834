/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Axes: mapping values to 0 … 1, round ticks, SI prefixes, autoscaling. */
#include "ws-chart.h"

#include <math.h>

static const char *prefixes[] = { "p", "n", "µ", "m", "", "k", "M", "G", "T", "P" };
#define PREFIX_ZERO 4

double
ws_chart_axis_map (const WsChartAxis *axis,
                   double             v)
{
  double lo = axis->min, hi = axis->max;

  if (axis->scale == WS_AXIS_LOG2 || axis->scale == WS_AXIS_LOG10)
    {
      if (v <= 0 || lo <= 0 || hi <= 0)
        return 0;
      v = log2 (v);
      lo = log2 (lo);
      hi = log2 (hi);
    }
  if (hi <= lo)
    return 0.5;
  return (v - lo) / (hi - lo);
}

static double
nice_step (double range,
           guint  most)
{
  double raw = range / MAX (1, most);
  double mag = pow (10, floor (log10 (raw)));
  double f = raw / mag;

  if (f <= 1)
    return mag;
  if (f <= 2)
    return 2 * mag;
  if (f <= 2.5)
    return 2.5 * mag;
  if (f <= 5)
    return 5 * mag;
  return 10 * mag;
}

guint
ws_chart_axis_ticks (const WsChartAxis *axis,
                     guint              most,
                     double            *ticks)
{
  guint n = 0;

  if (axis->max <= axis->min || most == 0)
    return 0;
  if (axis->scale == WS_AXIS_CATEGORY)
    {
      guint count = axis->categories ? axis->categories->len : 0;
      guint every = (count + most - 1) / most;
      for (guint i = 0; i < count && n < most; i += MAX (1, every))
        ticks[n++] = i;
      return n;
    }
  if (axis->scale == WS_AXIS_LOG2)
    {
      int lo = (int) ceil (log2 (MAX (axis->min, 1e-300)) - 1e-9);
      int hi = (int) floor (log2 (axis->max) + 1e-9);
      int every = MAX (1, (hi - lo + (int) most) / (int) most);
      for (int e = lo; e <= hi && n < most; e += every)
        ticks[n++] = ldexp (1, e);
      return n;
    }
  if (axis->scale == WS_AXIS_LOG10)
    {
      /* decades, and 2 and 5 between them where there is room */
      static const double steps[3][3] = { { 1 }, { 1, 3 }, { 1, 2, 5 } };
      static const guint n_steps[3] = { 1, 2, 3 };
      int lo = (int) floor (log10 (MAX (axis->min, 1e-300)));
      int hi = (int) ceil (log10 (MAX (axis->max, 1e-300)));

      for (int k = 2; k >= 0; k--)
        {
          n = 0;
          for (int e = lo; e <= hi; e++)
            for (guint i = 0; i < n_steps[k]; i++)
              {
                double v = steps[k][i] * pow (10, e);
                if (v >= axis->min * (1 - 1e-9) && v <= axis->max * (1 + 1e-9) && n < 16)
                  ticks[n++] = v;
              }
          if (n <= most || k == 0)
            break;
        }
      /* too many decades: every other one */
      if (n > most)
        {
          guint kept = 0;
          for (guint i = 0; i < n; i += 2)
            ticks[kept++] = ticks[i];
          n = kept;
        }
      return n;
    }
  {
    double step = nice_step (axis->max - axis->min, most);
    double first;

    if (axis->integer)
      step = MAX (1, round (step));
    first = ceil (axis->min / step - 1e-9) * step;
    for (double v = first; v <= axis->max + step * 1e-9 && n < most + 1; v += step)
      ticks[n++] = fabs (v) < step * 1e-9 ? 0 : v;
  }
  return n;
}

/* The power of 1000 the axis is shown in (3 for k, -3 for m…). */
static int
axis_exponent (const WsChartAxis *axis)
{
  double m = MAX (fabs (axis->min), fabs (axis->max));
  int e;

  if (!axis->si || m == 0 || !isfinite (m))
    return 0;
  e = (int) floor (log10 (m) / 3) * 3;
  return CLAMP (e, -12, 15);
}

static int
decimals_for (double step)
{
  if (step <= 0 || !isfinite (step))
    return 0;
  /* as many as the step has: 0.25 needs two, not the one its size suggests */
  for (int d = 0; d < 6; d++)
    {
      double scaled = step * pow (10, d);
      if (fabs (scaled - round (scaled)) < 1e-6 * MAX (1, scaled))
        return d;
    }
  return 6;
}

char *
ws_chart_axis_format (const WsChartAxis *axis,
                      double             v,
                      gboolean           with_unit)
{
  int e = axis_exponent (axis);
  double scaled = v / pow (10, e);
  g_autofree char *unit = NULL;
  int decimals;

  if (axis->scale == WS_AXIS_CATEGORY)
    {
      guint i = (guint) lround (v);
      if (axis->categories && i < axis->categories->len)
        return g_strdup (g_ptr_array_index (axis->categories, i));
      return g_strdup ("");
    }
  if (with_unit && axis->scale == WS_AXIS_LOG10)
    {
      WsChartAxis own = *axis;
      double lo, hi;

      /* three significant digits, with the value's own prefix */
      own.scale = WS_AXIS_LINEAR;
      lo = hi = v;
      own.min = lo;
      own.max = hi;
      return ws_chart_axis_format (&own, v, TRUE);
    }
  if (with_unit)
    {
      /* three significant digits for a value on its own */
      decimals = scaled == floor (scaled) && fabs (scaled) < 1e15 ? 0
                 : CLAMP (2 - (int) floor (log10 (fabs (scaled))), 0, 6);
      if (axis->unit && *axis->unit)
        unit = g_strdup_printf (" %s%s", prefixes[PREFIX_ZERO + e / 3], axis->unit);
      /* a count keeps its magnitude: "33.6 M" */
      else if (axis->unit && e != 0)
        unit = g_strdup_printf (" %s", prefixes[PREFIX_ZERO + e / 3]);
      return g_strdup_printf ("%.*f%s", decimals, scaled, unit ? unit : "");
    }
  return ws_chart_axis_format_tick (axis, v, nice_step (axis->max - axis->min, 6));
}

/* A value on a log axis with a prefix of its own: "20 µs", "1.5 TB/s". */
static char *
format_with_own_prefix (const WsChartAxis *axis,
                        double             v)
{
  int e = v > 0 && axis->si ? CLAMP ((int) floor (log10 (v) / 3) * 3, -12, 15) : 0;
  double scaled = v / pow (10, e);
  int decimals = scaled == round (scaled) ? 0 : scaled < 10 ? 1 : 0;
  const char *unit = axis->unit ? axis->unit : "";

  if (*unit || prefixes[PREFIX_ZERO + e / 3][0])
    return g_strdup_printf ("%.*f %s%s", decimals, scaled, prefixes[PREFIX_ZERO + e / 3], unit);
  return g_strdup_printf ("%.*f", decimals, scaled);
}

char *
ws_chart_axis_format_tick (const WsChartAxis *axis,
                           double             v,
                           double             step)
{
  int e = axis_exponent (axis);
  double scaled = v / pow (10, e);

  if (axis->scale == WS_AXIS_CATEGORY)
    return ws_chart_axis_format (axis, v, FALSE);
  if (axis->scale == WS_AXIS_LOG10)
    return format_with_own_prefix (axis, v);
  if (axis->scale == WS_AXIS_LOG2)
    return g_strdup_printf ("%.*f", scaled == floor (scaled) ? 0 : 2, scaled);
  return g_strdup_printf ("%.*f", decimals_for (step / pow (10, e)), scaled);
}

char *
ws_chart_axis_label (const WsChartAxis *axis)
{
  int e = axis_exponent (axis);
  const char *title = axis->title ? axis->title : "";

  if (axis->unit == NULL || *axis->unit == '\0' || axis->scale == WS_AXIS_CATEGORY)
    return g_strdup (title);
  /* on a log axis each tick says its own prefix */
  if (axis->scale == WS_AXIS_LOG10)
    return g_strdup_printf ("%s, log scale", title);
  return g_strdup_printf ("%s (%s%s)", title, prefixes[PREFIX_ZERO + e / 3], axis->unit);
}

static void
autoscale_x (WsChart *chart)
{
  WsChartAxis *x = &chart->axes[WS_CHART_X];
  double lo = INFINITY, hi = -INFINITY;

  if (x->scale == WS_AXIS_CATEGORY)
    {
      guint n = x->categories ? x->categories->len : 0;
      x->min = -0.5;
      x->max = MAX (1, n) - 0.5;
      return;
    }
  for (guint s = 0; s < chart->series->len; s++)
    {
      WsChartSeries *series = g_ptr_array_index (chart->series, s);
      for (guint i = 0; i < series->points->len; i++)
        {
          double v = g_array_index (series->points, WsChartPoint, i).x;
          lo = MIN (lo, v);
          hi = MAX (hi, v);
        }
    }
  if (!isfinite (lo))
    lo = hi = x->scale == WS_AXIS_LOG2 ? 1 : 0;
  if (x->scale == WS_AXIS_LOG2)
    {
      x->min = MAX (lo, 1e-300) / 1.3;
      x->max = MAX (hi, 1e-300) * 1.3;
      return;
    }
  if (hi <= lo)
    {
      x->min = lo - 1;
      x->max = hi + 1;
      return;
    }
  x->min = lo - (hi - lo) * 0.04;
  x->max = hi + (hi - lo) * 0.04;
}

static void
autoscale_y (WsChart      *chart,
             WsChartAxisId id)
{
  WsChartAxis *y = &chart->axes[id];
  double hi = 0;

  /* a log axis spans the decades (or powers of two) the values reach */
  if (y->scale == WS_AXIS_LOG10 || y->scale == WS_AXIS_LOG2)
    {
      double lo_v, hi_v;

      if (!ws_chart_axis_extent (chart, id, &lo_v, &hi_v))
        {
          y->min = 1;
          y->max = y->scale == WS_AXIS_LOG2 ? 2 : 10;
          return;
        }
      if (y->scale == WS_AXIS_LOG2)
        {
          y->min = ldexp (1, (int) floor (log2 (lo_v) + 1e-9));
          y->max = ldexp (1, (int) ceil (log2 (hi_v) - 1e-9));
        }
      else
        {
          y->min = pow (10, floor (log10 (lo_v / 1.25)));
          y->max = pow (10, ceil (log10 (hi_v * 1.25)));
          /* no empty decade either side: the nearest 2 or 5 */
          for (double m = 5; m >= 2; m -= 3)
            if (y->min * m <= lo_v / 1.25)
              {
                y->min *= m;
                break;
              }
          for (double m = 5; m >= 2; m -= 3)
            if (y->max / m >= hi_v * 1.25)
              {
                y->max /= m;
                break;
              }
        }
      if (y->max <= y->min)
        y->max = y->min * 2;
      return;
    }

  for (guint s = 0; s < chart->series->len; s++)
    {
      WsChartSeries *series = g_ptr_array_index (chart->series, s);
      if (series->axis != id)
        continue;
      for (guint i = 0; i < series->points->len; i++)
        {
          const WsChartPoint *p = &g_array_index (series->points, WsChartPoint, i);
          hi = MAX (hi, isnan (p->hi) ? p->y : MAX (p->y, p->hi));
        }
    }
  y->min = 0;
  if (hi <= 0 || !isfinite (hi))
    {
      y->max = 1;
      return;
    }
  {
    double step = nice_step (hi * 1.05, 5);
    y->max = ceil (hi * 1.05 / step) * step;
  }
}

void
ws_chart_autoscale (WsChart *chart)
{
  g_return_if_fail (chart != NULL);

  if (!chart->axes[WS_CHART_X].fixed)
    autoscale_x (chart);
  for (WsChartAxisId id = WS_CHART_Y; id <= WS_CHART_Y2; id++)
    if (!chart->axes[id].fixed)
      autoscale_y (chart, id);
}
