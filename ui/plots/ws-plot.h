/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-analysis.h"
#include "ws-chart.h"
#include "ws-plot-model.h"
#include "ws-presets.h"
#include "ws-recording.h"
#include "ws-session.h"

G_BEGIN_DECLS

/* The measured plots: median time per launch from recordings and from live
 * measurements, with the model's predicted time for the same patterns on
 * the same axis (hollow diamonds a right model puts on the measured points;
 * a line through them for a sweep), its sectors per request or wavefronts
 * in their tooltips. Without a device profile, the model's metric stands
 * on a right axis instead. The window and warpscope-cli export build them
 * here, so a plot on screen and a plot made by a script are the same plot.
 * No GTK. */

/* What the model says of one x of a plot. */
typedef struct
{
  double metric;                   /* sectors per request, wavefronts…; NAN where there is none */
  double seconds;                  /* predicted time per launch; NAN without a prediction */
  const char *bound;               /* the level that bounds it, or NULL (static) */
  double asked;                    /* bytes the launch's global and local instructions ask for; 0 unknown */
  double moved;                    /* bytes their sectors move; 0 unknown */
} WsPlotPrediction;

/* What a plot shows on its y axis: the lesson's quantity, measured beside
 * the model's. */
typedef enum
{
  WS_PLOT_TIME,                    /* median time per launch */
  WS_PLOT_BANDWIDTH,               /* effective bandwidth: bytes the kernel moves / median time */
  WS_PLOT_COST,                    /* sectors per request, wavefronts or requests per instruction, by space */
  WS_PLOT_COALESCING,              /* bytes asked / bytes moved, global and local */
  WS_N_PLOT_METRICS
} WsPlotMetric;

/* "time", "bandwidth", "sectors" (or "wavefronts", "requests", by space),
 * "coalescing": the names --metric takes. */
const char  *ws_plot_metric_to_string  (WsPlotMetric         metric,
                                        WsSpace              space);
/* Any of those names; FALSE for another. */
gboolean     ws_plot_metric_from_string (const char         *name,
                                        WsPlotMetric        *metric);
/* "median time", "sectors per request"…, translated: the y axis' title. */
const char  *ws_plot_metric_title      (WsPlotMetric         metric,
                                        WsSpace              space);
/* Whether the metric means something for an instruction in that space. */
gboolean     ws_plot_metric_applies    (WsPlotMetric         metric,
                                        WsSpace              space);
/* What the preset's lesson is about: its plot's first metric. */
WsPlotMetric ws_plot_metric_for        (const WsPreset      *preset);

/* Where measurements come from: recordings, each labelled with its device,
 * and what this session measured. */
typedef struct
{
  GPtrArray *recordings;           /* WsRecording, the main one first; may be NULL */
  const char *live_device;         /* the GPU measured on now; NULL for none */
  GPtrArray *live;                 /* WsLiveEntry (ws-session.h), newest last; may be NULL */
} WsPlotSources;

typedef struct
{
  const WsPreset *preset;          /* NULL for a pattern of one's own */
  const WsPattern *pattern;
  gboolean edited;                 /* differs from the preset's but for its sweep parameter */
  const char *sweep_param;         /* plotted against it; NULL: the presets of the topic side by side */
  const char *key;                 /* the pattern less its sweep parameter (live entries' key) */
  GArray *prediction;              /* WsPlotPrediction for each x; NULL while it is computed */
  const char *prediction_name;     /* "sectors per request" */
  const char *model_device;        /* "NVIDIA H200": the profile the time is predicted on */
  GPtrArray *replayed;             /* WsMeasurement: a recorded sweep replaying, so far; or NULL */
  GPtrArray *sweeping;             /* WsMeasurement: a live sweep under way, so far; or NULL */
  WsPlotMetric metric;             /* what the y axis shows */
  WsSpace space;                   /* the instruction's whose cost it is (WS_PLOT_COST, COALESCING) */
} WsPlotInput;

/* Where the session's points come from: recordings (the session's, as
 * ws_session_dup_recordings () gives them, kept by the caller), its GPU
 * and what it measured there. */
void         ws_plot_sources_from_session (WsPlotSources *sources,
                                           WsSession     *session,
                                           GPtrArray     *recordings);

/* The hue of live measurements: the one after the recordings'. */
int          ws_plot_live_hue          (const WsPlotSources *sources);

/* The recorded measurements of a preset whose parameters (other than
 * except) are those of pattern; if none is, every one of the preset (a
 * recording may have run its kernels at sizes of its own). */
GPtrArray   *ws_plot_recorded          (WsRecording         *recording,
                                        const char          *id,
                                        const WsPattern     *pattern,
                                        const char          *except);
/* The one recorded measurement of the preset at the pattern's value of its
 * sweep parameter (any, for a preset without one), or NULL. */
const WsMeasurement *ws_plot_recorded_one (WsRecording      *recording,
                                        const WsPreset      *preset,
                                        const WsPattern     *pattern);
/* "recorded on NVIDIA H100 80GB HBM3"; for numbers copied from another
 * recording, "recorded on NVIDIA H100 80GB HBM3 on 2026-03-02 (not measured
 * here)" */
char        *ws_plot_recording_name    (WsRecording         *recording);
/* "measured now on NVIDIA H100 80GB HBM3" */
char        *ws_plot_live_name         (const char          *device);
/* Where the points come from, with devices and dates, then what they are. */
char        *ws_plot_subtitle          (const WsPlotSources *sources);
char        *ws_plot_subtitle_for      (const WsPlotSources *sources,
                                        WsPlotMetric         metric);

/* The model's cost for one instruction's space over a launch (sectors per
 * request, wavefronts per instruction, requests per instruction); without
 * stats only its name. */
double       ws_plot_model_metric      (const WsLaunchStats *stats,
                                        WsSpace              space,
                                        const char         **name);
/* The model for each pattern: its metric, and on a profile (or NULL) the
 * time it predicts for the kernel of presets[i] (NULL, or an array of one
 * per pattern, NULL for a pattern of one's own). WsPlotPrediction for each;
 * NULL if cancelled. */
GArray      *ws_plot_predict           (GPtrArray           *patterns,
                                        GPtrArray           *presets,
                                        WsSpace              space,
                                        const WsDeviceProfile *profile,
                                        const char         **name,
                                        GCancellable        *cancellable);
/* "32.0 sectors per request · bound by DRAM", for a tooltip; NULL for nothing. */
char        *ws_plot_prediction_describe (const WsPlotPrediction *prediction,
                                        const char          *metric_name);

/* The patterns whose metric the plot needs, one for each x (NULL where
 * there is nothing to predict), and the preset whose kernel runs each
 * (NULL for a pattern of one's own; the array owns nothing). */
GPtrArray   *ws_plot_prediction_patterns (const WsPlotInput *input);
GPtrArray   *ws_plot_prediction_presets (const WsPlotInput *input);
WsChart     *ws_plot_build             (const WsPlotInput   *input,
                                        const WsPlotSources *sources);
/* The plot of a pattern (of a preset, or NULL) with the model's prediction
 * for one of its instructions, on a profile (or NULL), computed here: what
 * the command line draws. */
WsChart     *ws_plot_build_for         (const WsPreset      *preset,
                                        const WsPattern     *pattern,
                                        guint                access,
                                        const WsDeviceProfile *profile,
                                        const WsPlotSources *sources);
/* The same in a metric of one's choice. */
WsChart     *ws_plot_build_metric      (const WsPreset      *preset,
                                        const WsPattern     *pattern,
                                        guint                access,
                                        const WsDeviceProfile *profile,
                                        const WsPlotSources *sources,
                                        WsPlotMetric         metric);

G_END_DECLS
