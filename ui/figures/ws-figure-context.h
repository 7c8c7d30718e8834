/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <cairo.h>
#include <pango/pangocairo.h>

#include "ws-figure-style.h"

G_BEGIN_DECLS

/* What a renderer needs while it draws: the cairo context, the style, and
 * one Pango layout reused for every label (laying out text is the costly
 * part of a frame). Lives on the stack for one draw call. */

typedef struct
{
  cairo_t *cr;
  const WsFigureStyle *style;
  PangoLayout *layout;
  PangoFontDescription *sans;
  PangoFontDescription *mono;
  double width;
  double height;
} WsFigureContext;

typedef enum
{
  WS_TEXT_BOLD = 1 << 0,
  WS_TEXT_MONO = 1 << 1,
  WS_TEXT_ITALIC = 1 << 2,
  WS_TEXT_VERTICAL = 1 << 3,    /* rotated a quarter turn, reading upwards */
  WS_TEXT_MARKUP = 1 << 4,
} WsTextFlags;

/* Where (x, y) is on the text's box: 0 left/top, 0.5 centre, 1 right/bottom. */
typedef struct
{
  double size;        /* pixels; 0 means the style's body size */
  WsTextFlags flags;
  double ax;
  double ay;
  double max_width;   /* wrap (or, for one line, ellipsize) beyond it; 0 for none */
  gboolean wrap;
} WsTextOptions;

void     ws_figure_context_init       (WsFigureContext     *ctx,
                                       cairo_t             *cr,
                                       const WsFigureStyle *style,
                                       double               width,
                                       double               height);
void     ws_figure_context_clear      (WsFigureContext     *ctx);

void     ws_figure_set_color          (WsFigureContext     *ctx,
                                       WsRgba               color);
void     ws_figure_fill_background    (WsFigureContext     *ctx);
void     ws_figure_rounded_rect       (WsFigureContext     *ctx,
                                       double               x,
                                       double               y,
                                       double               w,
                                       double               h,
                                       double               radius);
/* Draws text in the current source colour; returns its width and height.
 * Clears the current path. */
void     ws_figure_text               (WsFigureContext     *ctx,
                                       double               x,
                                       double               y,
                                       const char          *text,
                                       const WsTextOptions *options,
                                       double              *width,
                                       double              *height);
void     ws_figure_text_size          (WsFigureContext     *ctx,
                                       const char          *text,
                                       const WsTextOptions *options,
                                       double              *width,
                                       double              *height);
/* The largest size ≤ wanted at which text fits in width (at least min). */
double   ws_figure_fit_text           (WsFigureContext     *ctx,
                                       const char          *text,
                                       WsTextFlags          flags,
                                       double               wanted,
                                       double               min,
                                       double               width);
/* A caption at the top: a bold title and a muted line; returns its height. */
double   ws_figure_caption            (WsFigureContext     *ctx,
                                       double               x,
                                       double               y,
                                       double               width,
                                       const char          *title,
                                       const char          *subtitle);

G_END_DECLS
