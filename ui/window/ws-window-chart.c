/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The measured plot below the views, built by ws-plot.c from the session's
 * recordings and live measurements; the model's prediction for it runs on
 * the session's model thread, which keeps it for whoever asks again. */
#include <glib/gi18n.h>
#include "ws-window-private.h"

#include <math.h>

/* The plot panel (ws-plot-panel.c) is told what the explorer shows before
 * it builds its chart. */
static WsPlotPanel *
synced_panel (WsWindow *self)
{
  ws_plot_panel_set_pattern (explore_plot (self), explore_preset (self), explore_pattern (self), explore_edited (self),
                             ws_explore_page_shown_space (self->explore_page), ws_explore_page_get_pattern_wrong (self->explore_page));
  return explore_plot (self);
}

/* The measured plot of the pattern shown, as it stands. */
WsChart *
ws_window_build_chart (WsWindow *self)
{
  return ws_plot_panel_build_chart (synced_panel (self));
}

void
ws_window_rebuild_chart (WsWindow *self)
{
  ws_plot_panel_rebuild (synced_panel (self));
}
