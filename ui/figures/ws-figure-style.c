/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "ws-figure-style.h"

#include <math.h>

/* GNOME's palette, so that figures sit well in an Adwaita window. */
#define HEX(V) { (((V) >> 16) & 0xff) / 255.0, (((V) >> 8) & 0xff) / 255.0, ((V) & 0xff) / 255.0, 1.0 }

/* State colours are warm and green (amber now, red for a conflict, green
 * for a broadcast; orange for the model in charts); identity colours are
 * blues, violets, a petrol and a slate, so that no step ever looks like a
 * state. Dark text goes on the amber: it is the lightest colour of all. */
static const WsFigureStyle styles[WS_N_FIGURE_STYLES] = {
  [WS_FIGURE_STYLE_LIGHT] = {
    .kind = WS_FIGURE_STYLE_LIGHT,
    .name = "light",
    .background = HEX (0xffffff),
    .foreground = HEX (0x241f31),
    .muted = HEX (0x5e5c64),
    .grid = HEX (0xc0bfbc),
    .surface = HEX (0xf6f5f4),
    .accent = HEX (0xf5c211),
    .conflict = HEX (0xc01c28),
    .broadcast = HEX (0x26a269),
    .model = HEX (0xc64600),
    .hues = { HEX (0x1a5fb4), HEX (0x99c1f1), HEX (0x613583), HEX (0xc879d2), HEX (0x0b5e6e), HEX (0x3d3846) },
    .font_family = "sans-serif",
    .mono_family = "monospace",
    .font_size = 12.0,
    .min_font_size = 9.0,
    .line_width = 1.0,
  },
  [WS_FIGURE_STYLE_DARK] = {
    .kind = WS_FIGURE_STYLE_DARK,
    .name = "dark",
    .background = HEX (0x242424),
    .foreground = HEX (0xf6f5f4),
    .muted = HEX (0xb5b3b0),
    .grid = HEX (0x5e5c64),
    .surface = HEX (0x303030),
    .accent = HEX (0xf3c32d),
    .conflict = HEX (0xe1153c),
    .broadcast = HEX (0x70c494),
    .model = HEX (0xe66100),
    .hues = { HEX (0x446ca4), HEX (0xc5aeed), HEX (0xa035d0), HEX (0x8c80fe), HEX (0xa24e7a), HEX (0xde6fd3) },
    .font_family = "sans-serif",
    .mono_family = "monospace",
    .font_size = 12.0,
    .min_font_size = 9.0,
    .line_width = 1.0,
  },
  [WS_FIGURE_STYLE_PRINT] = {
    .kind = WS_FIGURE_STYLE_PRINT,
    .name = "print",
    .background = HEX (0xffffff),
    .foreground = HEX (0x000000),
    .muted = HEX (0x3d3846),
    .grid = HEX (0x9a9996),
    .surface = HEX (0xf6f5f4),
    .accent = HEX (0xf5c211),
    .conflict = HEX (0xc01c28),
    .broadcast = HEX (0x26a269),
    .model = HEX (0xc64600),
    .hues = { HEX (0x1a5fb4), HEX (0x99c1f1), HEX (0x613583), HEX (0xc879d2), HEX (0x0b5e6e), HEX (0x3d3846) },
    .font_family = "sans-serif",
    .mono_family = "monospace",
    .font_size = 14.0,
    .min_font_size = 10.5,
    .line_width = 1.5,
  },
};

const WsFigureStyle *
ws_figure_style_get (WsFigureStyleKind kind)
{
  g_return_val_if_fail (kind < WS_N_FIGURE_STYLES, &styles[0]);
  return &styles[kind];
}

#define SCALE_STEPS 41               /* 1.00, 1.05, … 3.00 */

const WsFigureStyle *
ws_figure_style_get_scaled (WsFigureStyleKind kind,
                            double            scale)
{
  static WsFigureStyle scaled[WS_N_FIGURE_STYLES][SCALE_STEPS];
  static gsize made = 0;
  int step;

  g_return_val_if_fail (kind < WS_N_FIGURE_STYLES, &styles[0]);

  if (g_once_init_enter (&made))
    {
      for (guint k = 0; k < WS_N_FIGURE_STYLES; k++)
        for (guint i = 0; i < SCALE_STEPS; i++)
          {
            double f = 1 + 0.05 * i;

            scaled[k][i] = styles[k];
            scaled[k][i].font_size *= f;
            scaled[k][i].min_font_size *= f;
            scaled[k][i].line_width *= f;
          }
      g_once_init_leave (&made, 1);
    }
  step = (int) lround ((CLAMP (scale, 1, 3) - 1) / 0.05);
  return step == 0 ? &styles[kind] : &scaled[kind][step];
}

gboolean
ws_figure_style_kind_from_string (const char        *name,
                                  WsFigureStyleKind *kind)
{
  for (guint i = 0; i < WS_N_FIGURE_STYLES; i++)
    if (g_strcmp0 (styles[i].name, name) == 0)
      {
        *kind = i;
        return TRUE;
      }
  return FALSE;
}

WsRgba
ws_rgba_mix (WsRgba a,
             WsRgba b,
             double t)
{
  return (WsRgba) { a.r + (b.r - a.r) * t, a.g + (b.g - a.g) * t, a.b + (b.b - a.b) * t,
                    a.a + (b.a - a.a) * t };
}

WsRgba
ws_rgba_alpha (WsRgba c,
               double alpha)
{
  c.a *= alpha;
  return c;
}

WsRgba
ws_figure_style_hue (const WsFigureStyle *style,
                     guint                index)
{
  return style->hues[index % WS_FIGURE_N_HUES];
}

static double
linear (double c)
{
  return c <= 0.04045 ? c / 12.92 : pow ((c + 0.055) / 1.055, 2.4);
}

double
ws_rgba_luminance (WsRgba c)
{
  return 0.2126 * linear (c.r) + 0.7152 * linear (c.g) + 0.0722 * linear (c.b);
}

double
ws_rgba_contrast (WsRgba a,
                  WsRgba b)
{
  double la = ws_rgba_luminance (a), lb = ws_rgba_luminance (b);

  return (MAX (la, lb) + 0.05) / (MIN (la, lb) + 0.05);
}

WsRgba
ws_figure_style_ink_on (const WsFigureStyle *style,
                        WsRgba               fill)
{
  /* the style's darkest and lightest inks, whichever stands out more */
  WsRgba dark = style->kind == WS_FIGURE_STYLE_DARK ? style->background : style->foreground;
  WsRgba light = { 1, 1, 1, 1 };

  return ws_rgba_contrast (fill, dark) >= ws_rgba_contrast (fill, light) ? dark : light;
}
