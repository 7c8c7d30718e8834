/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <cairo.h>
#include <gio/gio.h>

#include "ws-chart.h"
#include "ws-figure.h"

G_BEGIN_DECLS

/* Figures to files, drawn by the same renderers as the screen into the
 * matching cairo surface: PNG (at a scale), SVG and PDF; and the data
 * behind a chart as CSV or JSON. Files are written atomically: an existing
 * one is replaced only once the new one is complete. */

typedef enum
{
  WS_EXPORT_PNG,
  WS_EXPORT_SVG,
  WS_EXPORT_PDF,
  WS_EXPORT_CSV,             /* a chart's data */
  WS_EXPORT_JSON,
  WS_N_EXPORT_FORMATS
} WsExportFormat;

/* The most pixels a PNG may have on a side (cairo's own limit), and in all:
 * 8192 × 8192, an image of 256 MiB drawn in memory before it is written. */
#define WS_EXPORT_MAX_PIXELS 32767
#define WS_EXPORT_MAX_AREA (8192.0 * 8192.0)

typedef void (*WsExportDrawFunc) (cairo_t             *cr,
                                  const WsFigureStyle *style,
                                  double               width,
                                  double               height,
                                  gpointer             user_data);

const char      *ws_export_format_to_string   (WsExportFormat       format);
gboolean         ws_export_format_from_string (const char          *name,
                                               WsExportFormat      *format);
/* By the file name's extension, whatever its case. */
gboolean         ws_export_format_from_path   (const char          *path,
                                               WsExportFormat      *format);
gboolean         ws_export_format_is_drawing  (WsExportFormat       format);

/* The style a figure of this width is exported in: its type grows with the
 * slide, so that text on a 1920-pixel slide is as legible from the back of
 * a room as on a 1280-pixel one (1 up to 1280, width / 1280 above). */
const WsFigureStyle *ws_export_style_for_width (WsFigureStyleKind kind,
                                                double            width);

/* A figure for print shows no animation state: every step served, nothing
 * under the pointer. On screen it is as it is. */
void             ws_export_prepare_frame      (WsFigureFrame       *frame,
                                               const WsFigureStyle *style);

/* Checks a size and a scale: FALSE with an error that says which is wrong. */
gboolean         ws_export_check_size         (WsExportFormat       format,
                                               double               width,
                                               double               height,
                                               double               scale,
                                               GError             **error);
/* Draws on the style's background into the format's surface, width × height
 * (pixels times scale for PNG, points for SVG and PDF), and writes it. */
gboolean         ws_export_drawing            (const char          *path,
                                               WsExportFormat       format,
                                               double               width,
                                               double               height,
                                               double               scale,
                                               const WsFigureStyle *style,
                                               WsExportDrawFunc     draw,
                                               gpointer             user_data,
                                               GError             **error);
/* The same drawing in an image surface (what a PNG holds). */
cairo_surface_t *ws_export_to_image           (double               width,
                                               double               height,
                                               double               scale,
                                               const WsFigureStyle *style,
                                               WsExportDrawFunc     draw,
                                               gpointer             user_data);
/* A chart's data as CSV or JSON. */
gboolean         ws_export_chart_data         (const char          *path,
                                               WsExportFormat       format,
                                               const WsChart       *chart,
                                               GError             **error);

/* Draw functions for ws_export_drawing: user_data is the WsChart, or a
 * WsExportFigure. */
typedef struct
{
  WsFigureKind kind;
  WsFigureFrame frame;
} WsExportFigure;

void             ws_export_draw_chart         (cairo_t             *cr,
                                               const WsFigureStyle *style,
                                               double               width,
                                               double               height,
                                               gpointer             chart);
void             ws_export_draw_figure        (cairo_t             *cr,
                                               const WsFigureStyle *style,
                                               double               width,
                                               double               height,
                                               gpointer             figure);

G_END_DECLS
