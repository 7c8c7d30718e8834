/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The colours, type and line widths every figure is drawn with. A figure on
 * screen and the same figure exported for print differ only in their style. */

typedef enum
{
  WS_FIGURE_STYLE_LIGHT,     /* screen, light */
  WS_FIGURE_STYLE_DARK,      /* screen, dark */
  WS_FIGURE_STYLE_PRINT,     /* white paper, larger type, heavier lines */
  WS_N_FIGURE_STYLES
} WsFigureStyleKind;

typedef struct
{
  double r, g, b, a;
} WsRgba;

/* The series palette: distinct hues that read on both backgrounds. */
#define WS_FIGURE_N_HUES 8

typedef struct
{
  WsFigureStyleKind kind;
  const char *name;          /* "light", "dark", "print" */

  WsRgba background;
  WsRgba foreground;         /* text, axes */
  WsRgba muted;              /* secondary text */
  WsRgba grid;               /* grid lines, outlines of idle things */
  WsRgba surface;            /* fill of idle boxes */
  WsRgba accent;             /* the step being served */
  WsRgba served;             /* what has been served */
  WsRgba conflict;           /* bank conflicts, replays, serialisation */
  WsRgba broadcast;          /* one word shared by several lanes */
  WsRgba model;              /* the model's prediction in plots */
  WsRgba hues[WS_FIGURE_N_HUES];

  const char *font_family;
  const char *mono_family;
  double font_size;          /* body text, in pixels (points for print) */
  double line_width;
} WsFigureStyle;

const WsFigureStyle *ws_figure_style_get         (WsFigureStyleKind  kind);
gboolean             ws_figure_style_kind_from_string (const char   *name,
                                                   WsFigureStyleKind *kind);
WsRgba               ws_rgba_mix                 (WsRgba             a,
                                                  WsRgba             b,
                                                  double             t);
WsRgba               ws_rgba_alpha               (WsRgba             c,
                                                  double             alpha);
/* A colour of the palette; index wraps. */
WsRgba               ws_figure_style_hue         (const WsFigureStyle *style,
                                                  guint               index);

G_END_DECLS
