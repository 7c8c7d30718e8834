/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "ws-figure-context.h"

#include <math.h>

void
ws_figure_context_init (WsFigureContext     *ctx,
                        cairo_t             *cr,
                        const WsFigureStyle *style,
                        double               width,
                        double               height)
{
  ctx->cr = cr;
  ctx->style = style;
  ctx->width = width;
  ctx->height = height;
  ctx->layout = pango_cairo_create_layout (cr);
  ctx->sans = pango_font_description_from_string (style->font_family);
  ctx->mono = pango_font_description_from_string (style->mono_family);
}

void
ws_figure_context_clear (WsFigureContext *ctx)
{
  g_clear_object (&ctx->layout);
  g_clear_pointer (&ctx->sans, pango_font_description_free);
  g_clear_pointer (&ctx->mono, pango_font_description_free);
}

void
ws_figure_set_color (WsFigureContext *ctx,
                     WsRgba           color)
{
  cairo_set_source_rgba (ctx->cr, color.r, color.g, color.b, color.a);
}

void
ws_figure_fill_background (WsFigureContext *ctx)
{
  ws_figure_set_color (ctx, ctx->style->background);
  cairo_paint (ctx->cr);
}

void
ws_figure_rounded_rect (WsFigureContext *ctx,
                        double           x,
                        double           y,
                        double           w,
                        double           h,
                        double           radius)
{
  cairo_t *cr = ctx->cr;
  double r = MIN (radius, MIN (w, h) / 2);

  if (r <= 0.5)
    {
      cairo_rectangle (cr, x, y, w, h);
      return;
    }
  cairo_new_sub_path (cr);
  cairo_arc (cr, x + w - r, y + r, r, -G_PI / 2, 0);
  cairo_arc (cr, x + w - r, y + h - r, r, 0, G_PI / 2);
  cairo_arc (cr, x + r, y + h - r, r, G_PI / 2, G_PI);
  cairo_arc (cr, x + r, y + r, r, G_PI, 3 * G_PI / 2);
  cairo_close_path (cr);
}

static void
prepare_layout (WsFigureContext     *ctx,
                const char          *text,
                const WsTextOptions *options)
{
  static const WsTextOptions defaults = { 0 };
  const WsTextOptions *o = options ? options : &defaults;
  PangoFontDescription *desc = (o->flags & WS_TEXT_MONO) ? ctx->mono : ctx->sans;
  double size = o->size > 0 ? o->size : ctx->style->font_size;

  pango_font_description_set_absolute_size (desc, size * PANGO_SCALE);
  pango_font_description_set_weight (desc, (o->flags & WS_TEXT_BOLD) ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL);
  pango_font_description_set_style (desc, (o->flags & WS_TEXT_ITALIC) ? PANGO_STYLE_ITALIC : PANGO_STYLE_NORMAL);
  pango_layout_set_font_description (ctx->layout, desc);
  pango_layout_set_width (ctx->layout, o->max_width > 0 ? (int) (o->max_width * PANGO_SCALE) : -1);
  pango_layout_set_wrap (ctx->layout, PANGO_WRAP_WORD_CHAR);
  pango_layout_set_ellipsize (ctx->layout, (o->max_width > 0 && !o->wrap) ? PANGO_ELLIPSIZE_END : PANGO_ELLIPSIZE_NONE);
  if (o->flags & WS_TEXT_MARKUP)
    pango_layout_set_markup (ctx->layout, text, -1);
  else
    {
      pango_layout_set_attributes (ctx->layout, NULL);
      pango_layout_set_text (ctx->layout, text, -1);
    }
}

void
ws_figure_text_size (WsFigureContext     *ctx,
                     const char          *text,
                     const WsTextOptions *options,
                     double              *width,
                     double              *height)
{
  int w, h;

  prepare_layout (ctx, text, options);
  pango_layout_get_pixel_size (ctx->layout, &w, &h);
  if (options && (options->flags & WS_TEXT_VERTICAL))
    {
      int t = w;
      w = h;
      h = t;
    }
  if (width)
    *width = w;
  if (height)
    *height = h;
}

void
ws_figure_text (WsFigureContext     *ctx,
                double               x,
                double               y,
                const char          *text,
                const WsTextOptions *options,
                double              *width,
                double              *height)
{
  cairo_t *cr = ctx->cr;
  double ax = options ? options->ax : 0;
  double ay = options ? options->ay : 0;
  gboolean vertical = options && (options->flags & WS_TEXT_VERTICAL);
  PangoRectangle ink, logical;
  int w, h, dx;

  prepare_layout (ctx, text, options);
  /* the text's own box: with a width set, centred lines start inside it */
  pango_layout_get_pixel_extents (ctx->layout, &ink, &logical);
  w = logical.width;
  h = logical.height;
  dx = logical.x;
  /* pango draws at the current point: start from a clean path */
  cairo_new_path (cr);
  cairo_save (cr);
  if (vertical)
    {
      /* the box is h wide and w tall; text reads from bottom to top */
      cairo_translate (cr, x - ax * h, y - ay * w + w + dx);
      cairo_rotate (cr, -G_PI / 2);
    }
  else
    cairo_translate (cr, round (x - ax * w - dx), round (y - ay * h));
  cairo_move_to (cr, 0, 0);
  pango_cairo_show_layout (cr, ctx->layout);
  cairo_restore (cr);
  if (width)
    *width = vertical ? h : w;
  if (height)
    *height = vertical ? w : h;
}

double
ws_figure_fit_text (WsFigureContext *ctx,
                    const char      *text,
                    WsTextFlags      flags,
                    double           wanted,
                    double           min,
                    double           width)
{
  WsTextOptions o = { .size = wanted, .flags = flags };
  double w;

  ws_figure_text_size (ctx, text, &o, &w, NULL);
  if (w <= width || w <= 0)
    return wanted;
  return MAX (min, floor (wanted * width / w * 2) / 2);
}

double
ws_figure_caption (WsFigureContext *ctx,
                   double           x,
                   double           y,
                   double           width,
                   const char      *title,
                   const char      *subtitle)
{
  const WsFigureStyle *s = ctx->style;
  WsTextOptions o = { .size = s->font_size * 1.25, .flags = WS_TEXT_BOLD, .max_width = width };
  double h = 0, th = 0;

  if (title)
    {
      ws_figure_set_color (ctx, s->foreground);
      ws_figure_text (ctx, x, y, title, &o, NULL, &th);
      h += th + s->font_size * 0.2;
    }
  if (subtitle)
    {
      o.size = s->font_size;
      o.flags = 0;
      ws_figure_set_color (ctx, s->muted);
      ws_figure_text (ctx, x, y + h, subtitle, &o, NULL, &th);
      h += th;
    }
  return h;
}
