/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "ws-figure-style.h"

/* GNOME's palette, so that figures sit well in an Adwaita window. */
#define HEX(V) { (((V) >> 16) & 0xff) / 255.0, (((V) >> 8) & 0xff) / 255.0, ((V) & 0xff) / 255.0, 1.0 }

static const WsFigureStyle styles[WS_N_FIGURE_STYLES] = {
  [WS_FIGURE_STYLE_LIGHT] = {
    .kind = WS_FIGURE_STYLE_LIGHT,
    .name = "light",
    .background = HEX (0xffffff),
    .foreground = HEX (0x241f31),
    .muted = HEX (0x5e5c64),
    .grid = HEX (0xc0bfbc),
    .surface = HEX (0xf6f5f4),
    .accent = HEX (0xe66100),
    .served = HEX (0x3584e4),
    .conflict = HEX (0xc01c28),
    .broadcast = HEX (0x26a269),
    .model = HEX (0x813d9c),
    .hues = { HEX (0x1c71d8), HEX (0x26a269), HEX (0xc64600), HEX (0x813d9c),
              HEX (0x986a44), HEX (0x0e7c86), HEX (0xa51d2d), HEX (0x5e5c64) },
    .font_family = "sans-serif",
    .mono_family = "monospace",
    .font_size = 12.0,
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
    .accent = HEX (0xffa348),
    .served = HEX (0x62a0ea),
    .conflict = HEX (0xff7b63),
    .broadcast = HEX (0x57e389),
    .model = HEX (0xdc8add),
    .hues = { HEX (0x62a0ea), HEX (0x57e389), HEX (0xffa348), HEX (0xdc8add),
              HEX (0xcdab8f), HEX (0x5bc8af), HEX (0xff7b63), HEX (0xc0bfbc) },
    .font_family = "sans-serif",
    .mono_family = "monospace",
    .font_size = 12.0,
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
    .accent = HEX (0xc64600),
    .served = HEX (0x1a5fb4),
    .conflict = HEX (0xa51d2d),
    .broadcast = HEX (0x26a269),
    .model = HEX (0x613583),
    .hues = { HEX (0x1a5fb4), HEX (0x26a269), HEX (0xc64600), HEX (0x613583),
              HEX (0x865e3c), HEX (0x0e7c86), HEX (0xa51d2d), HEX (0x3d3846) },
    .font_family = "sans-serif",
    .mono_family = "monospace",
    .font_size = 14.0,
    .line_width = 1.5,
  },
};

const WsFigureStyle *
ws_figure_style_get (WsFigureStyleKind kind)
{
  g_return_val_if_fail (kind < WS_N_FIGURE_STYLES, &styles[0]);
  return &styles[kind];
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
