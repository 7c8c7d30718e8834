/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/* What the files of warpscope-cli export share: its options, what it
 * gathered from them, how a figure is sized (ws-cli-export-size.c), and
 * the views' exporters (ws-cli-export-views.c: one instruction, the
 * hierarchy, a topic's launch; -charts.c: plots and comparisons;
 * -kernel.c: a kernel of one's own). */

#include "ws-cli.h"
#include "ws-compare.h"
#include "ws-export.h"
#include "ws-plot.h"
#include "ws-plot-topic.h"

G_BEGIN_DECLS

#define COMMAND "export"
#define DEFAULT_HEIGHT 720
#define NO_HEIGHT G_MININT       /* --height not given */
#define NO_STEP G_MININT         /* --step not given */
#define NO_INSTRUCTION G_MININT  /* --instruction not given */
#define NO_LINE 0                /* --line not given */

typedef struct
{
  WsCliPatternOptions pattern;
  char *view;
  char *compare;
  char *format;
  int width;
  int height;
  double scale;
  char *style;
  char **recordings;
  char *output;
  char *device;
  int instruction;
  int step;
  char *metric;
  int line;                  /* a kernel text's line, from 1 */
} Options;

/* What the command draws, gathered from the options. */
typedef struct
{
  WsExportFormat format;
  const WsFigureStyle *style;
  GPtrArray *recordings;           /* WsRecording */
  WsPlotSources sources;
  WsDeviceProfile *profile;        /* the device the model follows launches on, or NULL */
  const char *profile_source;
  GError *profile_error;           /* why there is none */
} Job;

typedef struct
{
  double min_width;
  double (*min_height) (gconstpointer figure, const WsFigureStyle *style, double width);
  gconstpointer figure;
  double (*natural_height) (gconstpointer figure, const WsFigureStyle *style, double width);
} Needs;

/* The figure's height for the options: --height, else DEFAULT_HEIGHT or
 * what it needs; FALSE with an error if it cannot be legible. */
gboolean ws_cli_export_size_for (const Options *o,
                                 const Job     *job,
                                 const Needs   *needs,
                                 double        *height,
                                 GError       **error);
double   ws_cli_export_frame_position (const Options      *o,
                                       const WsWarpResult *result);
double   ws_cli_export_view_min_height (gconstpointer        data,
                                        const WsFigureStyle *style,
                                        double               width);
double   ws_cli_export_view_natural_height (gconstpointer        data,
                                            const WsFigureStyle *style,
                                            double               width);
double   ws_cli_export_chart_min_height (gconstpointer        data,
                                         const WsFigureStyle *style,
                                         double               width);
double   ws_cli_export_compare_min_height (gconstpointer        data,
                                           const WsFigureStyle *style,
                                           double               width);
double   ws_cli_export_compare_natural_height (gconstpointer        data,
                                               const WsFigureStyle *style,
                                               double               width);
int      ws_cli_export_write_chart (const Options   *o,
                                    Job             *job,
                                    WsChart         *chart,
                                    WsExportDrawFunc draw,
                                    gpointer         data,
                                    const Needs     *needs,
                                    GError         **error);

/* Each view: WS_CLI_OK, or a status and an error. */
int      ws_cli_export_figure    (const Options *o,
                                  Job           *job,
                                  WsFigureKind   kind,
                                  GError       **error);
int      ws_cli_export_hierarchy (const Options *o,
                                  Job           *job,
                                  GError       **error);
int      ws_cli_export_topic     (const Options *o,
                                  Job           *job,
                                  WsTopicView    view,
                                  GError       **error);
int      ws_cli_export_plot      (const Options *o,
                                  Job           *job,
                                  GError       **error);
int      ws_cli_export_compare   (const Options *o,
                                  Job           *job,
                                  GError       **error);
/* --view truth: the truth table of --device's GPU (or the table --device
 * names), else of the main recording's. */
int      ws_cli_export_truth     (const Options *o,
                                  Job           *job,
                                  GError       **error);
/* --kernel FILE: --view listing, or one of its lines' instructions. */
int      ws_cli_export_kernel    (const Options *o,
                                  Job           *job,
                                  GError       **error);

G_END_DECLS
