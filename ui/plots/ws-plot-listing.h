/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-export.h"
#include "ws-kernel-lines.h"
#include "ws-listing-figure.h"

G_BEGIN_DECLS

/* The annotated listing of a kernel text (ws-listing-figure.h) from the
 * model of its launch and, when one is at hand, a measurement with
 * counters per line: the window and warpscope-cli export draw the same
 * figure. The lines shown are the kernel's (its definition, and the
 * device functions its memory instructions come from). No GTK. */

typedef struct _WsPlotListing WsPlotListing;

/* measurement may be NULL; title NULL: the kernel's name. */
WsPlotListing         *ws_plot_listing_new      (const WsKernelInstance   *instance,
                                                 const WsKernelPrediction *prediction,
                                                 const WsMeasurement      *measurement,
                                                 const char               *title);
void                   ws_plot_listing_free     (WsPlotListing            *listing);
const WsListingFigure *ws_plot_listing_figure   (const WsPlotListing      *listing);
/* The same lines as the figure's, line by line. */
const WsKernelLines   *ws_plot_listing_lines    (const WsPlotListing      *listing);

/* Draws the listing of a launch in one call: what the window's export and
 * the command line need. */
void                   ws_plot_listing_draw     (cairo_t                  *cr,
                                                 const WsKernelInstance   *instance,
                                                 const WsKernelPrediction *prediction,
                                                 const WsMeasurement      *measurement,
                                                 const WsFigureStyle      *style,
                                                 double                    width,
                                                 double                    height);
/* To a PNG (at scale), SVG or PDF file, written whole or not at all. */
gboolean               ws_plot_listing_export   (const char               *path,
                                                 WsExportFormat            format,
                                                 double                    width,
                                                 double                    height,
                                                 double                    scale,
                                                 const WsFigureStyle      *style,
                                                 const WsKernelInstance   *instance,
                                                 const WsKernelPrediction *prediction,
                                                 const WsMeasurement      *measurement,
                                                 GError                  **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsPlotListing, ws_plot_listing_free)

G_END_DECLS
