/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-measurement.h"
#include "ws-topic-figure.h"

G_BEGIN_DECLS

/* The views of a whole launch a topic is about (ws-topic-figure.h), built
 * from the preset's pattern, the measurement recorded or made of it, and
 * the GPU it ran on, so that the window and warpscope-cli export draw the
 * same figure. No GTK. */

typedef struct
{
  const WsPreset *preset;
  const WsPattern *pattern;          /* the preset's, maybe with other values */
  const WsMeasurement *measured;     /* recorded or measured now of this pattern, or NULL */
  const char *measured_source;       /* "recorded on NVIDIA H200", or NULL */
  const WsDeviceInfo *device;        /* the GPU it ran on (or would), or NULL */
} WsTopicInput;

WsTopicFigure *ws_plot_topic_build (WsTopicView         view,
                                    const WsTopicInput *input);

G_END_DECLS
