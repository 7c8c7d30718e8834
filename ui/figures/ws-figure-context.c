/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "ws-figure-context.h"
#include "ws-model-types.h"

#include <gio/gio.h>

#include <math.h>
#include <string.h>

/* No text drawn is longer, and none given a width takes more lines: a name a
 * file holds may be a megabyte long, and shaping it would take minutes and
 * draw a figure of nothing else. */
#define MAX_CHARS 1000
#define MAX_LINES 12

static const cairo_user_data_key_t log_key;

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
  ctx->log = cairo_get_user_data (cr, &log_key);
  ctx->owns_cr = FALSE;
}

void
ws_figure_context_init_measure (WsFigureContext     *ctx,
                                const WsFigureStyle *style,
                                double               width,
                                double               height)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1, 1);
  cairo_t *cr = cairo_create (surface);

  cairo_surface_destroy (surface);
  ws_figure_context_init (ctx, cr, style, width, height);
  ctx->owns_cr = TRUE;
}

void
ws_figure_context_clear (WsFigureContext *ctx)
{
  g_clear_object (&ctx->layout);
  g_clear_pointer (&ctx->sans, pango_font_description_free);
  g_clear_pointer (&ctx->mono, pango_font_description_free);
  if (ctx->owns_cr)
    g_clear_pointer (&ctx->cr, cairo_destroy);
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

static void log_text (WsFigureContext *ctx, const char *text, const WsTextOptions *options,
                      const PangoRectangle *ink);

char *
ws_figure_text_bound (const char *text)
{
  return ws_text_bounded (text, MAX_CHARS);
}

/* Pango limits the lines of each paragraph; text of many short lines is
 * cut after the last line that fits, with an ellipsis. */
static void
keep_lines (PangoLayout *layout,
            const char  *text)
{
  PangoLayoutLine *last;
  int end;

  if (pango_layout_get_line_count (layout) <= MAX_LINES)
    return;
  last = pango_layout_get_line_readonly (layout, MAX_LINES - 1);
  end = last->start_index + last->length;
  /* the ellipsis may push the last line's end onto a line of its own: cut
   * a little more until it fits (a few tries: a line holds many
   * characters) */
  for (guint tries = 0; tries < 16 && end > 0; tries++)
    {
      g_autofree char *cut = NULL;

      while (end > 0 && (text[end - 1] == '\n' || text[end - 1] == '\r'))
        end--;
      cut = g_strdup_printf ("%.*s…", end, text);
      pango_layout_set_text (layout, cut, -1);
      if (pango_layout_get_line_count (layout) <= MAX_LINES)
        return;
      end = (int) (g_utf8_find_prev_char (text, text + end) - text);
      for (guint k = 0; k < 3 && end > 0; k++)
        end = (int) (g_utf8_find_prev_char (text, text + end) - text);
    }
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
  gboolean limited = o->max_width > 0;

  pango_font_description_set_absolute_size (desc, size * PANGO_SCALE);
  pango_font_description_set_weight (desc, (o->flags & WS_TEXT_BOLD) ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL);
  pango_font_description_set_style (desc, (o->flags & WS_TEXT_ITALIC) ? PANGO_STYLE_ITALIC : PANGO_STYLE_NORMAL);
  pango_layout_set_font_description (ctx->layout, desc);
  pango_layout_set_width (ctx->layout, limited ? (int) (o->max_width * PANGO_SCALE) : -1);
  pango_layout_set_wrap (ctx->layout, PANGO_WRAP_WORD_CHAR);
  /* one line is ellipsized at its width; wrapped text is cut after
   * MAX_LINES lines (keep_lines), and wraps freely before (Pango's own
   * ellipsis of wrapped text also cuts lines that a narrow width breaks) */
  pango_layout_set_ellipsize (ctx->layout, limited && !o->wrap ? PANGO_ELLIPSIZE_END : PANGO_ELLIPSIZE_NONE);
  pango_layout_set_height (ctx->layout, -1);
  if (o->flags & WS_TEXT_MARKUP)
    pango_layout_set_markup (ctx->layout, text, -1);
  else
    {
      pango_layout_set_attributes (ctx->layout, NULL);
      pango_layout_set_text (ctx->layout, text, -1);
      if (limited)
        keep_lines (ctx->layout, text);
    }
}

/* Tabs as the spaces to the next multiple of eight columns: where they
 * stand in code they indent as Pango's own tab stops would, and a run of
 * them in a name from a file wraps, which Pango's tabs do not (a name of
 * a few hundred tabs came out 2000 px wide in a 200 px label). Other
 * control characters (a form feed, an escape) as U+FFFD: Pango draws them
 * as boxes it cannot break between. */
static char *
expand_tabs (char *text)
{
  GString *out;
  guint column = 0;
  gboolean plain = TRUE;

  for (const char *p = text; *p && plain; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);
      plain = c == '\n' || !g_unichar_iscntrl (c);
    }
  if (plain)
    return text;
  out = g_string_sized_new (strlen (text) + 16);
  for (const char *p = text; *p; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (c == '\t')
        {
          do
            g_string_append_c (out, ' ');
          while (++column % 8 != 0);
          continue;
        }
      g_string_append_unichar (out, c != '\n' && g_unichar_iscntrl (c) ? 0xFFFD : c);
      column = c == '\n' ? 0 : column + 1;
    }
  g_free (text);
  return g_string_free (out, FALSE);
}

/* The text as drawn: bounded (markup is the program's own, never a file's). */
static char *
shown_text (const char          *text,
            const WsTextOptions *options)
{
  if (options && (options->flags & WS_TEXT_MARKUP))
    return g_strdup (text);
  g_autofree char *expanded = expand_tabs (ws_figure_text_bound (text));

  /* a thousand characters still, after the tabs' spaces */
  return ws_figure_text_bound (expanded);
}

void
ws_figure_text_size (WsFigureContext     *ctx,
                     const char          *text,
                     const WsTextOptions *options,
                     double              *width,
                     double              *height)
{
  g_autofree char *shown = shown_text (text, options);
  int w, h;

  prepare_layout (ctx, shown, options);
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
  g_autofree char *shown = shown_text (text, options);
  PangoRectangle ink, logical;
  int w, h, dx;

  prepare_layout (ctx, shown, options);
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
  if (ctx->log)
    log_text (ctx, shown, options, &ink);
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
                    double           width)
{
  WsTextOptions o = { .size = MAX (wanted, ctx->style->min_font_size), .flags = flags };
  double w, size;

  ws_figure_text_size (ctx, text, &o, &w, NULL);
  if (w <= width || w <= 0)
    return o.size;
  /* text widths are not quite proportional to the size: check the guess */
  size = floor (o.size * width / w * 2) / 2;
  while (size >= ctx->style->min_font_size)
    {
      o.size = size;
      ws_figure_text_size (ctx, text, &o, &w, NULL);
      if (w <= width)
        return size;
      size -= 0.5;
    }
  return 0;
}

static void
caption_options (const WsFigureStyle *s,
                 double               width,
                 WsTextOptions       *title,
                 WsTextOptions       *subtitle)
{
  *title = (WsTextOptions) { .size = s->font_size * 1.25, .flags = WS_TEXT_BOLD, .max_width = width, .wrap = TRUE };
  *subtitle = (WsTextOptions) { .size = s->font_size, .max_width = width, .wrap = TRUE };
}

double
ws_figure_caption_height (WsFigureContext *ctx,
                          double           width,
                          const char      *title,
                          const char      *subtitle)
{
  WsTextOptions t, u;
  double h = 0, th;

  caption_options (ctx->style, width, &t, &u);
  if (title)
    {
      ws_figure_text_size (ctx, title, &t, NULL, &th);
      h += th + ctx->style->font_size * 0.2;
    }
  if (subtitle)
    {
      ws_figure_text_size (ctx, subtitle, &u, NULL, &th);
      h += th;
    }
  return ceil (h);
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
  WsTextOptions t, u;
  double h = 0, th = 0;

  caption_options (s, width, &t, &u);
  if (title)
    {
      ws_figure_set_color (ctx, s->foreground);
      ws_figure_text (ctx, x, y, title, &t, NULL, &th);
      h += th + s->font_size * 0.2;
    }
  if (subtitle)
    {
      ws_figure_set_color (ctx, s->muted);
      ws_figure_text (ctx, x, y + h, subtitle, &u, NULL, &th);
      h += th;
    }
  return ceil (h);
}

/* ------------------------------------------------------------------ */
/* The text log                                                       */
/* ------------------------------------------------------------------ */

struct _WsTextLog
{
  GArray *records;           /* WsTextRecord */
};

static void
record_clear (gpointer data)
{
  g_free (((WsTextRecord *) data)->text);
}

WsTextLog *
ws_text_log_new (void)
{
  WsTextLog *log = g_new0 (WsTextLog, 1);

  log->records = g_array_new (FALSE, TRUE, sizeof (WsTextRecord));
  g_array_set_clear_func (log->records, record_clear);
  return log;
}

void
ws_text_log_free (WsTextLog *log)
{
  if (log == NULL)
    return;
  g_array_unref (log->records);
  g_free (log);
}

void
ws_text_log_attach (WsTextLog *log,
                    cairo_t   *cr)
{
  cairo_set_user_data (cr, &log_key, log, NULL);
}

guint
ws_text_log_len (const WsTextLog *log)
{
  return log->records->len;
}

const WsTextRecord *
ws_text_log_get (const WsTextLog *log,
                 guint            i)
{
  g_return_val_if_fail (i < log->records->len, NULL);
  return &g_array_index (log->records, WsTextRecord, i);
}

gboolean
ws_text_log_contains (const WsTextLog *log,
                      const char      *needle)
{
  for (guint i = 0; i < log->records->len; i++)
    if (strstr (g_array_index (log->records, WsTextRecord, i).text, needle))
      return TRUE;
  return FALSE;
}

/* The device-space box around a user-space rectangle. */
static WsBox
device_box (cairo_t *cr,
            double   x0,
            double   y0,
            double   x1,
            double   y1)
{
  double xs[4] = { x0, x1, x0, x1 }, ys[4] = { y0, y0, y1, y1 };
  double lo_x = INFINITY, lo_y = INFINITY, hi_x = -INFINITY, hi_y = -INFINITY;

  for (guint i = 0; i < 4; i++)
    {
      cairo_user_to_device (cr, &xs[i], &ys[i]);
      lo_x = MIN (lo_x, xs[i]);
      hi_x = MAX (hi_x, xs[i]);
      lo_y = MIN (lo_y, ys[i]);
      hi_y = MAX (hi_y, ys[i]);
    }
  return (WsBox) { lo_x, lo_y, hi_x - lo_x, hi_y - lo_y };
}

/* Called with the layout drawn at (0, 0) of the current transformation. */
static void
log_text (WsFigureContext     *ctx,
          const char          *text,
          const WsTextOptions *options,
          const PangoRectangle *ink)
{
  WsTextRecord r = { 0 };
  double cx0, cy0, cx1, cy1;

  if (ink->width <= 0 || ink->height <= 0)
    return;
  cairo_clip_extents (ctx->cr, &cx0, &cy0, &cx1, &cy1);
  r.text = g_strdup (pango_layout_get_text (ctx->layout));
  r.ink = device_box (ctx->cr, ink->x, ink->y, ink->x + ink->width, ink->y + ink->height);
  r.clip = device_box (ctx->cr, cx0, cy0, cx1, cy1);
  r.size = options && options->size > 0 ? options->size : ctx->style->font_size;
  r.cut = pango_layout_is_ellipsized (ctx->layout);
  g_array_append_val (ctx->log->records, r);
  (void) text;
}

static gboolean
overlap (const WsBox *a,
         const WsBox *b)
{
  /* a pixel of anti-aliasing may touch; more is an overlap */
  double w = MIN (a->x + a->w, b->x + b->w) - MAX (a->x, b->x);
  double h = MIN (a->y + a->h, b->y + b->h) - MAX (a->y, b->y);

  return w > 1 && h > 1;
}

static gboolean G_GNUC_PRINTF (2, 3)
fail (GError    **error,
      const char *format,
      ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  /* English: the text log's checks are for the tests of the figures' layout */
  g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED, message);
  return FALSE;
}

static gboolean
inside (const WsBox *k,
        const WsBox *c)
{
  return k->x >= c->x - 0.5 && k->y >= c->y - 0.5 && k->x + k->w <= c->x + c->w + 0.5 && k->y + k->h <= c->y + c->h + 0.5;
}

gboolean
ws_text_log_check (const WsTextLog *log,
                   double           min_size,
                   GError         **error)
{
  for (guint i = 0; i < log->records->len; i++)
    {
      const WsTextRecord *r = &g_array_index (log->records, WsTextRecord, i);
      const WsBox *k = &r->ink, *c = &r->clip;

      if (r->cut)
        return fail (error, "“%s” is cut short (ellipsized)", r->text);
      if (!inside (k, c))
        return fail (error, "“%s” is clipped: its ink %.1f,%.1f %.1f×%.1f is outside %.1f,%.1f %.1f×%.1f", r->text,
                     k->x, k->y, k->w, k->h, c->x, c->y, c->w, c->h);
      if (r->size < min_size - 1e-6)
        return fail (error, "“%s” is %.2f px, below the smallest, %.2f px", r->text, r->size, min_size);
      for (guint j = 0; j < i; j++)
        {
          const WsTextRecord *o = &g_array_index (log->records, WsTextRecord, j);
          if (overlap (k, &o->ink))
            return fail (error, "“%s” (%.0f,%.0f %.0f×%.0f) overlaps “%s” (%.0f,%.0f %.0f×%.0f)", r->text, k->x, k->y,
                         k->w, k->h, o->text, o->ink.x, o->ink.y, o->ink.w, o->ink.h);
        }
    }
  return TRUE;
}
