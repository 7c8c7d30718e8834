/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The data behind a chart, for a spreadsheet (CSV) or a program (JSON):
 * what is plotted, with the titles and units that say what it is. */
#include "ws-chart.h"
#include "ws-json-numbers.h"

#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

/* A value of x as the chart names it: a category's name, else the number. */
static char *
x_text (const WsChart *chart,
        double         x)
{
  const WsChartAxis *axis = &chart->axes[WS_CHART_X];
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (axis->scale == WS_AXIS_CATEGORY && axis->categories && x >= 0 && x < axis->categories->len &&
      x == floor (x))
    return g_strdup (g_ptr_array_index (axis->categories, (guint) x));
  return g_strdup (g_ascii_formatd (buf, sizeof buf, "%.10g", x));
}

/* RFC 4180's quoting (a field with a comma, a quote or a line break is
 * quoted), with the line ends of the systems that read it: LF. */
static void
csv_field (GString    *s,
           const char *text,
           gboolean    last)
{
  if (text && strpbrk (text, ",\"\r\n"))
    {
      g_autoptr (GString) q = g_string_new (text);
      g_string_replace (q, "\"", "\"\"", 0);
      g_string_append_printf (s, "\"%s\"", q->str);
    }
  else if (text)
    g_string_append (s, text);
  g_string_append (s, last ? "\n" : ",");
}

/* Ten significant digits: more than any timer resolves, and no binary noise. */
static void
csv_number (GString *s,
            double   v,
            gboolean last)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  csv_field (s, isfinite (v) ? g_ascii_formatd (buf, sizeof buf, "%.10g", v) : "", last);
}

static char *
axis_heading (const WsChartAxis *axis,
              const char        *fallback)
{
  const char *title = axis->title ? axis->title : fallback;

  return axis->unit ? g_strdup_printf ("%s (%s)", title, axis->unit) : g_strdup (title);
}

char *
ws_chart_to_csv (const WsChart *chart)
{
  GString *s = g_string_new (NULL);
  g_autofree char *x = NULL;

  g_return_val_if_fail (chart != NULL, NULL);
  x = axis_heading (&chart->axes[WS_CHART_X], "x");
  csv_field (s, "series", FALSE);
  csv_field (s, x, FALSE);
  csv_field (s, "value", FALSE);
  csv_field (s, "min", FALSE);
  csv_field (s, "max", FALSE);
  csv_field (s, "quantity", FALSE);
  csv_field (s, "unit", TRUE);
  for (guint i = 0; i < chart->series->len; i++)
    {
      const WsChartSeries *series = g_ptr_array_index (chart->series, i);
      const WsChartAxis *y = &chart->axes[series->axis];

      for (guint j = 0; j < series->points->len; j++)
        {
          const WsChartPoint *p = &g_array_index (series->points, WsChartPoint, j);
          g_autofree char *xs = x_text (chart, p->x);

          csv_field (s, series->name, FALSE);
          csv_field (s, xs, FALSE);
          csv_number (s, p->y, FALSE);
          csv_number (s, p->lo, FALSE);
          csv_number (s, p->hi, FALSE);
          csv_field (s, y->title, FALSE);
          csv_field (s, y->unit, TRUE);
        }
    }
  return g_string_free (s, FALSE);
}

/* ------------------------------------------------------------------ */

static void
json_number (JsonBuilder *b,
             const char  *name,
             double       v)
{
  json_builder_set_member_name (b, name);
  if (isfinite (v))
    json_builder_add_double_value (b, v);
  else
    json_builder_add_null_value (b);
}

static void
json_string (JsonBuilder *b,
             const char  *name,
             const char  *v)
{
  json_builder_set_member_name (b, name);
  if (v)
    json_builder_add_string_value (b, v);
  else
    json_builder_add_null_value (b);
}

static void
json_axis (JsonBuilder       *b,
           const char        *name,
           const WsChartAxis *axis)
{
  static const char *scales[] = { "linear", "log2", "category", "log10" };

  json_builder_set_member_name (b, name);
  json_builder_begin_object (b);
  json_string (b, "title", axis->title);
  json_string (b, "unit", axis->unit);
  json_string (b, "scale", scales[axis->scale]);
  if (axis->categories)
    {
      json_builder_set_member_name (b, "categories");
      json_builder_begin_array (b);
      for (guint i = 0; i < axis->categories->len; i++)
        json_builder_add_string_value (b, g_ptr_array_index (axis->categories, i));
      json_builder_end_array (b);
    }
  json_builder_end_object (b);
}

static void
json_series (JsonBuilder         *b,
             const WsChart       *chart,
             const WsChartSeries *series)
{
  json_builder_begin_object (b);
  json_string (b, "name", series->name);
  json_string (b, "axis", series->axis == WS_CHART_Y2 ? "y2" : "y");
  json_string (b, "kind", series->kind == WS_SERIES_LINE ? "line" : "points");
  /* a model known not to follow what it stands beside */
  if (series->loose)
    {
      json_builder_set_member_name (b, "follows");
      json_builder_add_boolean_value (b, FALSE);
    }
  json_builder_set_member_name (b, "points");
  json_builder_begin_array (b);
  for (guint j = 0; j < series->points->len; j++)
    {
      const WsChartPoint *p = &g_array_index (series->points, WsChartPoint, j);
      json_builder_begin_object (b);
      json_number (b, "x", p->x);
      if (chart->axes[WS_CHART_X].scale == WS_AXIS_CATEGORY)
        {
          g_autofree char *name = x_text (chart, p->x);
          json_string (b, "category", name);
        }
      json_number (b, "value", p->y);
      json_number (b, "min", p->lo);
      json_number (b, "max", p->hi);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
}

char *
ws_chart_to_json (const WsChart *chart)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  g_autoptr (JsonGenerator) gen = json_generator_new ();
  g_autoptr (JsonNode) root = NULL;
  g_autofree char *text = NULL;

  g_return_val_if_fail (chart != NULL, NULL);
  json_builder_begin_object (b);
  json_string (b, "format", "warpscope-chart");
  json_builder_set_member_name (b, "version");
  json_builder_add_int_value (b, 1);
  json_string (b, "title", chart->title);
  json_string (b, "subtitle", chart->subtitle);
  if (chart->footnote)
    json_string (b, "footnote", chart->footnote);
  json_axis (b, "x", &chart->axes[WS_CHART_X]);
  json_axis (b, "y", &chart->axes[WS_CHART_Y]);
  json_axis (b, "y2", &chart->axes[WS_CHART_Y2]);
  json_builder_set_member_name (b, "series");
  json_builder_begin_array (b);
  for (guint i = 0; i < chart->series->len; i++)
    json_series (b, chart, g_ptr_array_index (chart->series, i));
  json_builder_end_array (b);
  json_builder_set_member_name (b, "notes");
  json_builder_begin_array (b);
  for (guint i = 0; i < chart->notes->len; i++)
    {
      const WsChartNote *n = g_ptr_array_index (chart->notes, i);
      g_autofree char *x = x_text (chart, n->x);
      json_builder_begin_object (b);
      json_string (b, "x", x);
      json_string (b, "text", n->text);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  json_generator_set_root (gen, root);
  json_generator_set_pretty (gen, TRUE);
  text = json_generator_to_data (gen, NULL);
  /* 3352.32, not 3352.3200000000002 */
  return ws_json_shortest_numbers (text);
}
