/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "ws-plot-truth.h"

G_BEGIN_DECLS

/* How close the model is: the truth view (ws-plot-truth.h) of a GPU's
 * truth table, in a window of its own beside the explorer, with the GPUs
 * whose tables ship to choose from. A point's tooltip names its preset. */

#define WS_TYPE_TRUTH_WINDOW (ws_truth_window_get_type ())
G_DECLARE_FINAL_TYPE (WsTruthWindow, ws_truth_window, WS, TRUTH_WINDOW, AdwWindow)

/* Shows the table of the GPU id ("nvidia-h200"), or the first there is
 * when id is NULL or has none. */
WsTruthWindow     *ws_truth_window_new       (GtkWindow     *parent,
                                              const char    *id);
/* The table shown ("nvidia-h200"), or NULL when none reads. */
const char        *ws_truth_window_get_id    (WsTruthWindow *self);
gboolean           ws_truth_window_set_id    (WsTruthWindow *self,
                                              const char    *id);
/* The view drawn, or NULL with the reason shown instead. */
const WsTruthView *ws_truth_window_get_view  (WsTruthWindow *self);
/* The drawing, for tests and screenshots. */
GtkWidget         *ws_truth_window_get_area  (WsTruthWindow *self);
/* What the tooltip says at (x, y) of the drawing, or NULL. */
char              *ws_truth_window_describe_at (WsTruthWindow *self,
                                                double         x,
                                                double         y);

G_END_DECLS
