/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The views of a whole launch a topic is about, built from the pattern,
 * its measurement and its GPU. */
#include "ws-plot-topic.h"
#include "ws-figure-i18n-private.h"
#include "ws-kernel-launch.h"

#include <math.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Building                                                           */
/* ------------------------------------------------------------------ */

static gint64
param (const WsPattern *pattern,
       const char      *name,
       gint64           otherwise)
{
  gint64 v;

  return ws_pattern_get_param (pattern, name, &v) ? v : otherwise;
}

static char *
source_line (const WsTopicInput *in)
{
  if (in->measured && in->measured_source)
    return g_strdup (in->measured_source);
  return NULL;
}

/* The shared memory per block that lets exactly `blocks` blocks onto an SM
 * (the saturation curve sets its warps so): the least that does. */
static guint
shared_for_blocks (const WsSmLimits *limits,
                   guint             threads,
                   guint             registers,
                   guint             blocks)
{
  for (guint shared = 0; shared <= limits->shared_per_block; shared += limits->shared_unit)
    {
      WsOccupancy o;
      if (!ws_occupancy_compute (limits, threads, registers, shared, &o, NULL))
        break;
      if (o.blocks_per_sm <= blocks)
        return shared;
    }
  return 0;
}

static void
build_occupancy (WsTopicFigure      *f,
                 const WsTopicInput *in)
{
  const WsDeviceInfo *d = in->device;
  const WsSmLimits *limits = d ? ws_sm_limits_lookup (d->cc_major, d->cc_minor) : NULL;
  WsDim3 block = ws_pattern_get_block (in->pattern);
  const WsMeasurement *m = in->measured;
  g_autoptr (WsKernelLaunch) launch = NULL;
  guint registers = 0, shared = 0, threads = block.x * block.y * block.z;

  /* without a GPU of its own, the one the lessons were measured on */
  if (limits == NULL)
    limits = ws_sm_limits_lookup (9, 0);
  if (in->preset)
    launch = ws_kernel_launch_new (in->preset->id, in->pattern, NULL);
  /* registers: as compiled, where the kernel was measured; else its budget */
  if (m && m->registers > 0)
    registers = m->registers;
  else
    registers = (guint) param (in->pattern, "registers", launch && launch->registers ? launch->registers : 32);
  /* shared memory: the dial, and what the kernel declares */
  shared = (guint) param (in->pattern, "shared", launch ? launch->shared_bytes : 0) + (m ? m->shared_bytes : 0);
  if (ws_pattern_get_param (in->pattern, "warps", NULL))
    shared = shared_for_blocks (limits, threads, registers, (guint) MAX (1, param (in->pattern, "warps", 4) * 32 /
                                                                             MAX (32, threads)));
  f->occupancy = (WsOccupancyFigure) { f->title, limits, threads, registers, shared, m ? m->median_ms : 0 };
}

static void
build_timeline (WsTopicFigure      *f,
                const WsTopicInput *in)
{
  const WsMeasurement *m = in->measured;

  f->bars = g_array_new (FALSE, FALSE, sizeof (WsTimelineBar));
  if (m == NULL || m->timeline->len == 0)
    {
      f->message = g_strdup (FG_("No timeline of this launch: the recording has none for these values. Measure it "
                                 "on a GPU to see its copies and kernels on their streams."));
      return;
    }
  for (guint i = 0; i < m->timeline->len; i++)
    {
      const WsSpan *s = &g_array_index (m->timeline, WsSpan, i);
      WsTimelineBar bar = { s->stream, (WsTimelineKind) s->kind, s->start_ms, s->end_ms };

      g_array_append_val (f->bars, bar);
    }
  f->timeline = (WsTimelineFigure) { f->title, f->subtitle, (const WsTimelineBar *) (void *) f->bars->data,
                                     f->bars->len };
}

static void
build_l2 (WsTopicFigure      *f,
          const WsTopicInput *in)
{
  const WsDeviceInfo *d = in->device;
  gint64 hot = 4 * param (in->pattern, "hot", 0);
  gboolean window = in->preset && !g_str_equal (in->preset->id, "l2/streaming");
  gint64 aside;

  if (d == NULL || d->l2_bytes <= 0 || (window && d->l2_persisting_max_bytes <= 0))
    {
      f->message = g_strdup (FG_("No GPU to size L2 by: open a recording, or measure on a GPU."));
      return;
    }
  /* as the kernel sets it up: the window over the whole hot buffer, and as
   * much L2 set aside for it as the device lets a program have */
  aside = window ? MIN (hot, d->l2_persisting_max_bytes) : 0;
  f->l2 = (WsL2Figure) { f->title, { d->l2_bytes, aside, window ? hot : 0,
                                     window ? param (in->pattern, "hit_ratio", 100) / 100.0 : 0, hot,
                                     /* between two reads of a hot element: an element of the
                                      * stream in and one out for each of the others */
                                     2 * hot } };
}

WsTopicFigure *
ws_plot_topic_build (WsTopicView         view,
                     const WsTopicInput *in)
{
  g_autofree char *title = NULL;
  g_autofree char *source = NULL;
  WsTopicFigure *f;

  g_return_val_if_fail (view < WS_N_TOPIC_VIEWS, NULL);
  g_return_val_if_fail (in != NULL && in->pattern != NULL, NULL);

  title = in->preset ? ws_preset_short_title (FG_(in->preset->title)) : g_strdup (FG_("Your pattern"));
  source = source_line (in);
  f = ws_topic_figure_new (view, title, source);
  switch (view)
    {
    case WS_TOPIC_VIEW_OCCUPANCY:
      build_occupancy (f, in);
      break;
    case WS_TOPIC_VIEW_TIMELINE:
      build_timeline (f, in);
      break;
    case WS_TOPIC_VIEW_L2:
    case WS_N_TOPIC_VIEWS:
    default:
      build_l2 (f, in);
      break;
    }
  return f;
}
