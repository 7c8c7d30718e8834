/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>
#include <cairo.h>

#include "ws-figure-style.h"

G_BEGIN_DECLS

/* Pictures drawn off the main thread, for the views that rasterise figures
 * (WsChartView, WsFigureView): a newer drawing cancels the one in flight,
 * whose picture then finishes unseen, and the main thread only paints. */

typedef cairo_surface_t *(*WsDrawingFunc) (gpointer data);

/* An opaque image of width × height pixels at scale, filled with the
 * style's background; *cr draws on it (cairo_destroy it when done). */
cairo_surface_t *ws_drawing_new_image (int                  width,
                                       int                  height,
                                       int                  scale,
                                       const WsFigureStyle *style,
                                       cairo_t            **cr);
/* Runs draw (data) in a thread and done on owner's main context; *in_flight
 * holds the drawing's cancellable. data lives until the drawing is done, then
 * free_data frees it. */
void             ws_drawing_start     (gpointer             owner,
                                       GCancellable       **in_flight,
                                       WsDrawingFunc        draw,
                                       gpointer             data,
                                       GDestroyNotify       free_data,
                                       GAsyncReadyCallback  done);
/* In done: the picture, or NULL for a drawing cancelled; *data is what
 * ws_drawing_start was given. The drawing no longer is in flight. */
cairo_surface_t *ws_drawing_finish    (GAsyncResult        *result,
                                       GCancellable       **in_flight,
                                       gpointer            *data);

G_END_DECLS
