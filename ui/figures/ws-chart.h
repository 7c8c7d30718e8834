/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <cairo.h>
#include <glib.h>

#include "ws-figure-style.h"

G_BEGIN_DECLS

/* One small chart library for every plot: axes that map values to 0 … 1,
 * series of points (with min–max bars) or lines, a legend, units with SI
 * prefixes. Pure cairo + pango, like the figures. */

typedef enum
{
  WS_AXIS_LINEAR,
  WS_AXIS_LOG2,          /* powers of two: element sizes, bins */
  WS_AXIS_CATEGORY,      /* named values at 0, 1, 2, … */
  WS_AXIS_LOG10,         /* decades: times and bandwidths that span them; each tick with its own prefix */
} WsAxisScale;

typedef enum
{
  WS_CHART_X,
  WS_CHART_Y,            /* left */
  WS_CHART_Y2,           /* right; shown only when a series uses it */
  WS_CHART_N_AXES
} WsChartAxisId;

typedef struct
{
  char *title;           /* "median time", "stride" */
  char *unit;            /* "s", "B/s", "elements", or NULL */
  gboolean si;           /* show with an SI prefix (µs, GB/s) */
  WsAxisScale scale;
  double min;
  double max;
  GPtrArray *categories; /* WS_AXIS_CATEGORY: their names */
  gboolean fixed;        /* min and max were set: autoscaling leaves them */
  gboolean integer;      /* only whole values mean something: ticks at least 1 apart */
} WsChartAxis;

typedef enum
{
  WS_SERIES_POINTS,      /* markers, with a min–max bar where lo < hi */
  WS_SERIES_LINE,        /* a line through the points, with small markers */
} WsSeriesKind;

typedef struct
{
  double x;
  double y;
  double lo;             /* NAN when there is no range */
  double hi;
} WsChartPoint;

typedef struct
{
  char *name;
  WsSeriesKind kind;
  WsChartAxisId axis;    /* WS_CHART_Y or WS_CHART_Y2 */
  int hue;               /* index into the style's hues; -1 for the model's colour */
  gboolean dashed;
  /* at the points' own x, over the other series, with hollow markers: a
   * prediction on the measured axis, whose marks a right model puts on the
   * measured points */
  gboolean overlay;
  /* known not to follow what it stands beside (a model with no term for
   * the swept parameter): dotted and faint, never drawn as if it did */
  gboolean loose;
  GArray *points;        /* WsChartPoint */
  GPtrArray *notes;      /* char *, one per point (NULL for none), or NULL: more for the tooltip */
} WsChartSeries;

/* A line of text over a value of x (a category): a speed-up, a ratio.
 * Notes over one x stack in the order added. */
#define WS_CHART_NOTE_TEXT (-2)   /* hue: the foreground, no marker */
#define WS_CHART_NOTE_MODEL (-1)  /* hue: the model's colour, its marker */

typedef struct
{
  double x;
  char *text;
  int hue;               /* a series' hue (with its marker), or one of the above */
  gboolean bold;
} WsChartNote;

typedef struct
{
  char *title;
  char *subtitle;
  char *message;         /* shown in the plot area when there are no points */
  WsChartAxis axes[WS_CHART_N_AXES];
  GPtrArray *series;     /* WsChartSeries */
  GPtrArray *notes;      /* WsChartNote */
  double highlight;      /* x of a marked value, NAN for none */
  char *highlight_label; /* what the band says in the legend ("stride = 4, in the editor"), or NULL */
  char *footnote;        /* a sentence under the chart (why a line does not follow), or NULL */
} WsChart;

WsChart       *ws_chart_new              (void);
WsChart       *ws_chart_copy             (const WsChart       *chart);
void           ws_chart_free             (WsChart             *chart);
void           ws_chart_set_title        (WsChart             *chart,
                                          const char          *title,
                                          const char          *subtitle);
void           ws_chart_set_message      (WsChart             *chart,
                                          const char          *message);
void           ws_chart_set_footnote     (WsChart             *chart,
                                          const char          *footnote);
/* The marked value of x, and what its band says in the legend. */
void           ws_chart_set_highlight    (WsChart             *chart,
                                          double               x,
                                          const char          *label);
void           ws_chart_set_axis         (WsChart             *chart,
                                          WsChartAxisId        id,
                                          const char          *title,
                                          const char          *unit,
                                          gboolean             si,
                                          WsAxisScale          scale);
void           ws_chart_add_category     (WsChart             *chart,
                                          const char          *name);
WsChartSeries *ws_chart_add_series       (WsChart             *chart,
                                          const char          *name,
                                          WsSeriesKind         kind,
                                          WsChartAxisId        axis,
                                          int                  hue);
void           ws_chart_series_add       (WsChartSeries       *series,
                                          double               x,
                                          double               y,
                                          double               lo,
                                          double               hi);
/* More for the tooltip of a point: what the model counts there, say. */
void           ws_chart_series_set_note  (WsChartSeries       *series,
                                          guint                point,
                                          const char          *text);
void           ws_chart_add_note         (WsChart             *chart,
                                          double               x,
                                          const char          *text,
                                          int                  hue,
                                          gboolean             bold);
/* Fixes an axis' range, so that points streaming in do not move it. */
void           ws_chart_set_range        (WsChart             *chart,
                                          WsChartAxisId        id,
                                          double               min,
                                          double               max);
guint          ws_chart_n_points         (const WsChart       *chart);
/* The smallest and largest positive values the series on an axis reach
 * (bars included); FALSE when there is none. */
gboolean       ws_chart_axis_extent      (const WsChart       *chart,
                                          WsChartAxisId        id,
                                          double              *lo,
                                          double              *hi);
/* Fits every axis to the data: values from zero up (honest baselines) on
 * a linear axis, the decades or powers of two the values span on a log
 * one; x over the values plotted. */
void           ws_chart_autoscale        (WsChart             *chart);

/* The position of v on the axis, 0 at min and 1 at max. */
double         ws_chart_axis_map         (const WsChartAxis   *axis,
                                          double               v);
/* Round values between min and max at which to draw ticks. */
guint          ws_chart_axis_ticks       (const WsChartAxis   *axis,
                                          guint                most,
                                          double              *ticks);
/* The value with the axis' prefix and unit: "1.25 ms", "3.2 GB/s". */
char          *ws_chart_axis_format      (const WsChartAxis   *axis,
                                          double               v,
                                          gboolean             with_unit);
/* A tick's label, as precise as the step between ticks needs. */
char          *ws_chart_axis_format_tick (const WsChartAxis   *axis,
                                          double               v,
                                          double               step);
/* "median time (µs)" */
char          *ws_chart_axis_label       (const WsChartAxis   *axis);

/* The least width, and the least height at a width, at which a chart lays
 * out with nothing cut and no text below its style's smallest size. Drawn
 * smaller, it says so instead. */
double         ws_chart_min_width        (const WsChart       *chart,
                                          const WsFigureStyle *style);
double         ws_chart_min_height       (const WsChart       *chart,
                                          const WsFigureStyle *style,
                                          double               width);
void           ws_chart_draw             (cairo_t             *cr,
                                          const WsChart       *chart,
                                          const WsFigureStyle *style,
                                          double               width,
                                          double               height);
/* The point nearest (x, y), within reach; FALSE when none. */
gboolean       ws_chart_pick             (const WsChart       *chart,
                                          const WsFigureStyle *style,
                                          double               width,
                                          double               height,
                                          double               x,
                                          double               y,
                                          guint               *series,
                                          guint               *point);
/* Where a point is drawn in a chart of width × height. */
void           ws_chart_point_position   (const WsChart       *chart,
                                          const WsFigureStyle *style,
                                          double               width,
                                          double               height,
                                          guint                series,
                                          guint                point,
                                          double              *x,
                                          double              *y);
char          *ws_chart_describe_point   (const WsChart       *chart,
                                          guint                series,
                                          guint                point);

/* The data behind a chart (ws-chart-data.c): CSV, one row per point, with
 * the axes' titles and units in the header; or JSON with the titles, the
 * axes, the series and the notes. */
char          *ws_chart_to_csv           (const WsChart       *chart);
char          *ws_chart_to_json          (const WsChart       *chart);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsChart, ws_chart_free)

G_END_DECLS
