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

/* Two kinds of colour, never sharing a hue (tests/test-figure-layout.c
 * checks it as people with protanopia, deuteranopia and tritanopia see
 * them):
 *
 * - state: what is happening — accent (being served, now), conflict (bank
 *   conflicts, serialised updates), broadcast (one word for several
 *   lanes); in charts the model, beside the measured series;
 * - identity: which step, which wavefront, which recording — the hues,
 *   cool colours that cycle, neighbours distinct for every vision.
 */
#define WS_FIGURE_N_HUES 6

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
  WsRgba conflict;           /* bank conflicts, replays, serialisation */
  WsRgba broadcast;          /* one word shared by several lanes */
  WsRgba model;              /* the model's prediction in plots */
  WsRgba hues[WS_FIGURE_N_HUES];

  const char *font_family;
  const char *mono_family;
  double font_size;          /* body text, in pixels (points for print) */
  double min_font_size;      /* no text is smaller: what does not fit at it is left out, and the figure says so */
  double line_width;
} WsFigureStyle;

const WsFigureStyle *ws_figure_style_get         (WsFigureStyleKind  kind);
/* The same style with its type and lines scale times larger (1 … 3, to
 * the nearest 0.05): text a room reads from the back, a slide's at 1920
 * pixels as at 1280. The pointer stays valid, one per kind and scale. */
const WsFigureStyle *ws_figure_style_get_scaled  (WsFigureStyleKind  kind,
                                                  double             scale);
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
/* Text that reads on a fill of this colour: the style's dark or light ink. */
WsRgba               ws_figure_style_ink_on      (const WsFigureStyle *style,
                                                  WsRgba              fill);
/* WCAG's relative luminance and contrast ratio (1 … 21). */
double               ws_rgba_luminance           (WsRgba              c);
double               ws_rgba_contrast            (WsRgba              a,
                                                  WsRgba              b);

G_END_DECLS
