/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ws-device-profile.h"
#include "ws-hierarchy.h"
#include "ws-presets.h"
#include "ws-timing.h"

G_BEGIN_DECLS

/* What the model says of a whole launch on a device, as the plots and the
 * hierarchy view show it: what it moves below L1, and the time it predicts,
 * level by level. One place asks the model for it, so that the window, the
 * charts and warpscope-cli export show the same numbers. No GTK. */

#define WS_PLOT_MAX_LEVELS 10

typedef struct
{
  const char *name;          /* "DRAM", "L2"… (static) */
  double seconds;            /* the level's work over its throughput, alone */
  const char *what;          /* what the level is, in a few words (static), or NULL */
} WsPlotLevelTime;

typedef struct
{
  WsHierStats total;         /* below L1, the whole launch */
  double written_sectors;    /* store and atomic sectors the warps send to L1 */
  guint64 instructions;      /* warp memory instructions */
  guint64 blocks;
  guint64 warps;
  guint blocks_per_sm;
  guint warps_per_sm;
  guint64 l1_bytes;          /* what the carve-out leaves of L1 */
  guint sms;
  guint phases;              /* the kernel's patterns, one after another in each block */

  /* the time; predicted_s is NAN while the model predicts none */
  double predicted_s;
  int bound;                 /* index into levels, -1 for none */
  guint n_levels;
  WsPlotLevelTime levels[WS_PLOT_MAX_LEVELS];
} WsPlotModel;

/* The launch of pattern on the device: the real kernel of preset (its
 * stores, loops and copies beside the pattern's accesses) when pattern is
 * a build of it, else the pattern alone (preset NULL); NULL with an error
 * if cancelled or the model fails. */
WsPlotModel *ws_plot_model_compute     (const WsPreset        *preset,
                                        const WsPattern       *pattern,
                                        const WsDeviceProfile *profile,
                                        GCancellable          *cancellable,
                                        GError               **error);
/* Whether the model predicts a time on this device: the plots do not
 * follow every pattern of a chart below L1 for nothing. */
gboolean     ws_plot_model_can_predict (const WsDeviceProfile *profile);
WsPlotModel *ws_plot_model_copy        (const WsPlotModel     *model);
void         ws_plot_model_free        (WsPlotModel           *model);
/* "DRAM", or NULL when there is no prediction. */
const char  *ws_plot_model_bound_name  (const WsPlotModel     *model);
/* The name of a level that bounds a time ("DRAM", "shared"), as the
 * figures have it: English, N_() marked. */
const char  *ws_plot_bound_name            (WsBound                bound);
/* "DRAM 58 µs · L2 190 µs · launch 2.5 µs", the slowest first. */
char        *ws_plot_model_describe_levels (const WsPlotModel *model);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsPlotModel, ws_plot_model_free)

G_END_DECLS
