/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <cairo.h>
#include <pango/pangocairo.h>

#include "ws-figure-style.h"

G_BEGIN_DECLS

typedef struct
{
  double x, y, w, h;
} WsBox;

typedef struct _WsTextLog WsTextLog;

/* What a renderer needs while it draws or lays out: the cairo context, the
 * style, and one Pango layout reused for every label (laying out text is
 * the costly part of a frame). Lives on the stack for one draw call. A
 * context made with ws_figure_context_init_measure draws nowhere: layouts
 * measure their text with it (hit tests, minimum sizes). */

typedef struct
{
  cairo_t *cr;
  const WsFigureStyle *style;
  PangoLayout *layout;
  PangoFontDescription *sans;
  PangoFontDescription *mono;
  double width;
  double height;
  WsTextLog *log;            /* where drawn text is recorded, or NULL */
  gboolean owns_cr;
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
  double max_width;   /* wrap (at most 12 lines, then ellipsized) or, for one line, ellipsize beyond it; 0 for none */
  gboolean wrap;
} WsTextOptions;

/* Text as a figure draws it: valid UTF-8, and at most a thousand
 * characters (then “…”), whatever a file held. */
char    *ws_figure_text_bound         (const char          *text);

void     ws_figure_context_init       (WsFigureContext     *ctx,
                                       cairo_t             *cr,
                                       const WsFigureStyle *style,
                                       double               width,
                                       double               height);
void     ws_figure_context_init_measure (WsFigureContext   *ctx,
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
/* The largest size ≤ wanted at which text fits in width, never below the
 * style's smallest; 0 when it does not fit even at that size (then the
 * caller leaves it out, and says where to find it). */
double   ws_figure_fit_text           (WsFigureContext     *ctx,
                                       const char          *text,
                                       WsTextFlags          flags,
                                       double               wanted,
                                       double               width);
/* A caption at the top: a bold title and a muted line, both wrapped, never
 * cut; returns its height. ws_figure_caption_height measures it. */
double   ws_figure_caption            (WsFigureContext     *ctx,
                                       double               x,
                                       double               y,
                                       double               width,
                                       const char          *title,
                                       const char          *subtitle);
double   ws_figure_caption_height     (WsFigureContext     *ctx,
                                       double               width,
                                       const char          *title,
                                       const char          *subtitle);

/* ------------------------------------------------------------------ */
/* The text log: what was drawn as text, where, and how               */
/* ------------------------------------------------------------------ */

/* One piece of text as it landed: its ink and the clip in force, both in
 * device units; its size in user units; whether Pango had to cut it. */
typedef struct
{
  char *text;
  WsBox ink;
  WsBox clip;
  double size;
  gboolean cut;
} WsTextRecord;

WsTextLog          *ws_text_log_new     (void);
void                ws_text_log_free    (WsTextLog          *log);
/* Every figure drawn on cr from now on records its text into log. */
void                ws_text_log_attach  (WsTextLog          *log,
                                         cairo_t            *cr);
guint               ws_text_log_len     (const WsTextLog    *log);
const WsTextRecord *ws_text_log_get     (const WsTextLog    *log,
                                         guint               i);
gboolean            ws_text_log_contains (const WsTextLog   *log,
                                         const char         *needle);
/* FALSE, with an error that names the text, when any text was cut by
 * Pango or by the clip, is smaller than min_size, or overlaps another. */
gboolean            ws_text_log_check   (const WsTextLog    *log,
                                         double              min_size,
                                         GError            **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsTextLog, ws_text_log_free)

G_END_DECLS
