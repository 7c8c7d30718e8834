/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-device-profile.h"
#include "ws-hierarchy-figure.h"
#include "ws-measurement.h"
#include "ws-plot-model.h"

G_BEGIN_DECLS

/* The hierarchy view's figure (ws-hierarchy-figure.h) from what the model
 * says a launch moves below L1 and, when a measurement with hardware
 * counters is at hand, what the GPU counted: the window and
 * warpscope-cli export draw the same figure. No GTK. */

typedef struct
{
  const char *title;               /* what the pattern is */
  const WsPlotModel *model;        /* NULL while the model works, or without a profile */
  const WsDeviceProfile *profile;  /* the device the model follows the launch on */
  const char *profile_source;      /* "calibrated on this GPU", "shipped for the recording's GPU" */
  const WsMeasurement *measured;   /* its median, and its counters if it has them; or NULL */
  const char *measured_source;     /* "measured now on NVIDIA H200", "recorded on NVIDIA H100 80GB HBM3" */
  int measured_hue;                /* its colour in the charts */
  const char *message;             /* why there is no model, when model is NULL */
} WsPlotHierarchyInput;

WsHierarchyFigure *ws_plot_hierarchy_build   (const WsPlotHierarchyInput *input);

/* What the counters say of a launch below L1, in the figure's terms: NAN
 * where a counter needed is missing. */
typedef struct
{
  double l1_read_sectors;          /* load sectors L1 looked up (global and local) */
  double l1_write_sectors;         /* store, reduction and atomic sectors */
  double l1_hit_rate;
  double l2_read_sectors;          /* lts__t_sectors_srcunit_tex_op_read */
  double l2_write_sectors;         /* …_write, with atomics and reductions */
  double l2_hit_rate;              /* of reads */
  double dram_read_bytes;
  double dram_write_bytes;
} WsCountedHierarchy;

/* FALSE when the measurement carries none of these counters. */
gboolean           ws_plot_hierarchy_counted (const WsMeasurement        *m,
                                              WsCountedHierarchy         *out);

/* "60 MiB", "208 KiB" */
char              *ws_plot_format_binary     (double                      bytes);

G_END_DECLS
