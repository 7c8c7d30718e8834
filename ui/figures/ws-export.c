/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "ws-config.h"
#include "ws-export.h"

#include <png.h>
#include "ws-file-writer.h"

/* the errors are messages, in the user's language (g_dgettext in the
 * program's domain), not words of a figure (ws-figure-i18n.h) */
#include <glib/gi18n-lib.h>
#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <math.h>
#include <string.h>

static const char *names[WS_N_EXPORT_FORMATS] = { "png", "svg", "pdf", "csv", "json" };

const char *
ws_export_format_to_string (WsExportFormat format)
{
  g_return_val_if_fail (format < WS_N_EXPORT_FORMATS, NULL);
  return names[format];
}

gboolean
ws_export_format_from_string (const char     *name,
                              WsExportFormat *format)
{
  for (guint i = 0; name && i < WS_N_EXPORT_FORMATS; i++)
    if (g_ascii_strcasecmp (name, names[i]) == 0)
      {
        *format = i;
        return TRUE;
      }
  return FALSE;
}

gboolean
ws_export_format_from_path (const char     *path,
                            WsExportFormat *format)
{
  g_autofree char *base = g_path_get_basename (path);
  const char *dot = strrchr (base, '.');

  return dot && ws_export_format_from_string (dot + 1, format);
}

gboolean
ws_export_format_is_drawing (WsExportFormat format)
{
  return format == WS_EXPORT_PNG || format == WS_EXPORT_SVG || format == WS_EXPORT_PDF;
}

void
ws_export_prepare_frame (WsFigureFrame       *frame,
                         const WsFigureStyle *style)
{
  frame->layers = WS_FIGURE_LAYERS_ALL;
  if (style->kind != WS_FIGURE_STYLE_PRINT)
    return;
  frame->position = frame->result ? frame->result->steps->len : 0;
  frame->hover = WS_FIGURE_HIT_NONE;
}

gboolean
ws_export_check_size (WsExportFormat format,
                      double         width,
                      double         height,
                      double         scale,
                      GError       **error)
{
  if (!(width >= 16 && height >= 16 && width <= 20000 && height <= 20000))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("the size %g × %g is not between 16 × 16 and 20000 × 20000"), width, height);
      return FALSE;
    }
  if (!(scale > 0 && scale <= 16))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, _("the scale %g is not above 0 and at most 16"),
                   scale);
      return FALSE;
    }
  if (format == WS_EXPORT_PNG && (width * scale > WS_EXPORT_MAX_PIXELS || height * scale > WS_EXPORT_MAX_PIXELS))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("%g × %g at scale %g is more than %d pixels on a side"), width, height, scale,
                   WS_EXPORT_MAX_PIXELS);
      return FALSE;
    }
  if (format == WS_EXPORT_PNG && ceil (width * scale) * ceil (height * scale) > WS_EXPORT_MAX_AREA)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("%g × %g at scale %g is %.0f megapixels; a PNG has at most %.0f (8192 × 8192): "
                     "use a smaller size or scale, or SVG or PDF"), width, height, scale,
                   ceil (width * scale) * ceil (height * scale) / 1e6, WS_EXPORT_MAX_AREA / 1e6);
      return FALSE;
    }
  return TRUE;
}

static void
draw_on_background (cairo_t             *cr,
                    const WsFigureStyle *style,
                    double               width,
                    double               height,
                    WsExportDrawFunc     draw,
                    gpointer             user_data)
{
  cairo_save (cr);
  cairo_set_source_rgb (cr, style->background.r, style->background.g, style->background.b);
  cairo_rectangle (cr, 0, 0, width, height);
  cairo_fill (cr);
  cairo_restore (cr);
  draw (cr, style, width, height, user_data);
}

cairo_surface_t *
ws_export_to_image (double               width,
                    double               height,
                    double               scale,
                    const WsFigureStyle *style,
                    WsExportDrawFunc     draw,
                    gpointer             user_data)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) ceil (width * scale),
                                                         (int) ceil (height * scale));
  cairo_t *cr;

  /* the device scale, not a transformation: text is hinted for the pixels it lands on */
  cairo_surface_set_device_scale (surface, scale, scale);
  cr = cairo_create (surface);
  draw_on_background (cr, style, width, height, draw, user_data);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  return surface;
}

/* ------------------------------------------------------------------ */
/* Writing, atomically                                                */
/* ------------------------------------------------------------------ */

typedef struct
{
  WsFileWriter *out;
  GError *error;
} Sink;

static cairo_status_t
sink_write (void                *closure,
            const unsigned char *data,
            unsigned int         length)
{
  Sink *sink = closure;

  if (sink->error)
    return CAIRO_STATUS_WRITE_ERROR;
  if (!ws_file_writer_write (sink->out, data, length, &sink->error))
    return CAIRO_STATUS_WRITE_ERROR;
  return CAIRO_STATUS_SUCCESS;
}

/* Into a temporary file beside the target, through any link to it. */
static gboolean
sink_open (Sink        *sink,
           const char  *path,
           GError     **error)
{
  sink->error = NULL;
  sink->out = ws_file_writer_open (path, error);
  return sink->out != NULL;
}

/* Renames the file into place, or, after an error, leaves the old one as it
 * was. */
static gboolean
sink_close (Sink          *sink,
            cairo_status_t status,
            const char    *path,
            GError       **error)
{
  if (sink->error == NULL && status == CAIRO_STATUS_SUCCESS)
    return ws_file_writer_commit (g_steal_pointer (&sink->out), error);
  ws_file_writer_abort (g_steal_pointer (&sink->out));
  if (sink->error)
    {
      g_propagate_error (error, sink->error);
      return FALSE;
    }
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("could not draw %s: %s"), path,
               cairo_status_to_string (status));
  return FALSE;
}

static cairo_status_t
write_vector (Sink                *sink,
              WsExportFormat       format,
              double               width,
              double               height,
              const WsFigureStyle *style,
              WsExportDrawFunc     draw,
              gpointer             user_data)
{
  cairo_surface_t *surface = format == WS_EXPORT_SVG
                               ? cairo_svg_surface_create_for_stream (sink_write, sink, width, height)
                               : cairo_pdf_surface_create_for_stream (sink_write, sink, width, height);
  cairo_t *cr = cairo_create (surface);
  cairo_status_t status;

  if (format == WS_EXPORT_PDF)
    cairo_pdf_surface_set_metadata (surface, CAIRO_PDF_METADATA_CREATOR, "Warpscope");
  draw_on_background (cr, style, width, height, draw, user_data);
  status = cairo_status (cr);
  cairo_destroy (cr);
  /* SVG and PDF are written as the surface finishes */
  cairo_surface_finish (surface);
  if (status == CAIRO_STATUS_SUCCESS)
    status = cairo_surface_status (surface);
  cairo_surface_destroy (surface);
  return status;
}

const WsFigureStyle *
ws_export_style_for_width (WsFigureStyleKind kind,
                           double            width)
{
  return ws_figure_style_get_scaled (kind, MAX (1, width / 1280));
}

/* ------------------------------------------------------------------ */
/* PNG                                                                */
/* ------------------------------------------------------------------ */

static void
png_sink_write (png_structp  png,
                png_bytep    data,
                size_t       length)
{
  Sink *sink = png_get_io_ptr (png);

  if (sink_write (sink, data, length) != CAIRO_STATUS_SUCCESS)
    png_error (png, "write error");
}

static void
png_sink_flush (png_structp png)
{
}

/* An image as a PNG, as cairo's writer would (RGB where every pixel is
 * opaque, as a figure on its background is; else RGBA, not premultiplied),
 * but at a faster zlib level: a slide's 2600 × 3200 image took as long to
 * compress as to draw. */
static cairo_status_t
write_png (cairo_surface_t *surface,
           Sink            *sink)
{
  int w = cairo_image_surface_get_width (surface), h = cairo_image_surface_get_height (surface);
  int stride = cairo_image_surface_get_stride (surface);
  const guint8 *data;
  gboolean opaque = TRUE;
  png_structp png = NULL;
  png_infop info = NULL;
  guint8 *volatile row = NULL;
  volatile cairo_status_t status = CAIRO_STATUS_SUCCESS;

  cairo_surface_flush (surface);
  data = cairo_image_surface_get_data (surface);
  for (int y = 0; y < h && opaque; y++)
    for (int x = 0; x < w && opaque; x++)
      opaque = (((const guint32 *) (data + (gsize) y * stride))[x] >> 24) == 0xff;
  png = png_create_write_struct (PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
  info = png ? png_create_info_struct (png) : NULL;
  if (info == NULL)
    {
      png_destroy_write_struct (&png, NULL);
      return CAIRO_STATUS_NO_MEMORY;
    }
  if (setjmp (png_jmpbuf (png)))
    {
      status = CAIRO_STATUS_WRITE_ERROR;
      goto out;
    }
  png_set_write_fn (png, sink, png_sink_write, png_sink_flush);
  png_set_compression_level (png, 3);
  /* one filter, not every one tried on every row: flat colours compress
   * well with it, and choosing took most of the time */
  png_set_filter (png, PNG_FILTER_TYPE_BASE, PNG_FILTER_SUB);
  png_set_IHDR (png, info, w, h, 8, opaque ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_RGB_ALPHA, PNG_INTERLACE_NONE,
                PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info (png, info);
  row = g_malloc ((gsize) w * 4);
  for (int y = 0; y < h; y++)
    {
      const guint32 *src = (const guint32 *) (data + (gsize) y * stride);
      guint8 *out = row;

      for (int x = 0; x < w; x++)
        {
          guint32 p = src[x];
          guint a = p >> 24, r = (p >> 16) & 0xff, g = (p >> 8) & 0xff, b = p & 0xff;

          /* cairo's pixels are premultiplied; PNG's are not */
          if (a != 0xff && a != 0)
            {
              r = (r * 255 + a / 2) / a;
              g = (g * 255 + a / 2) / a;
              b = (b * 255 + a / 2) / a;
            }
          *out++ = r;
          *out++ = g;
          *out++ = b;
          if (!opaque)
            *out++ = a;
        }
      png_write_row (png, row);
    }
  png_write_end (png, info);
out:
  g_free (row);
  png_destroy_write_struct (&png, &info);
  return status;
}

gboolean
ws_export_drawing (const char          *path,
                   WsExportFormat       format,
                   double               width,
                   double               height,
                   double               scale,
                   const WsFigureStyle *style,
                   WsExportDrawFunc     draw,
                   gpointer             user_data,
                   GError             **error)
{
  Sink sink;
  cairo_status_t status;

  g_return_val_if_fail (path != NULL && style != NULL && draw != NULL, FALSE);
  if (!ws_export_format_is_drawing (format))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, _("%s is data, not a drawing: use PNG, SVG or PDF"),
                   ws_export_format_to_string (format));
      return FALSE;
    }
  if (!ws_export_check_size (format, width, height, scale, error) || !sink_open (&sink, path, error))
    return FALSE;
  if (format == WS_EXPORT_PNG)
    {
      cairo_surface_t *surface = ws_export_to_image (width, height, scale, style, draw, user_data);
      status = cairo_surface_status (surface);
      if (status == CAIRO_STATUS_SUCCESS)
        status = write_png (surface, &sink);
      cairo_surface_destroy (surface);
    }
  else
    status = write_vector (&sink, format, width, height, style, draw, user_data);
  return sink_close (&sink, status, path, error);
}

gboolean
ws_export_chart_data (const char    *path,
                      WsExportFormat format,
                      const WsChart *chart,
                      GError       **error)
{
  g_autofree char *text = NULL;
  g_return_val_if_fail (path != NULL && chart != NULL, FALSE);
  if (format != WS_EXPORT_CSV && format != WS_EXPORT_JSON)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, _("a plot's data is CSV or JSON, not %s"),
                   ws_export_format_to_string (format));
      return FALSE;
    }
  text = format == WS_EXPORT_CSV ? ws_chart_to_csv (chart) : ws_chart_to_json (chart);
  return ws_file_write_atomic (path, text, strlen (text), error);
}

/* ------------------------------------------------------------------ */

void
ws_export_draw_chart (cairo_t             *cr,
                      const WsFigureStyle *style,
                      double               width,
                      double               height,
                      gpointer             chart)
{
  ws_chart_draw (cr, chart, style, width, height);
}

void
ws_export_draw_figure (cairo_t             *cr,
                       const WsFigureStyle *style,
                       double               width,
                       double               height,
                       gpointer             data)
{
  WsExportFigure *figure = data;
  WsFigureFrame frame = figure->frame;

  ws_export_prepare_frame (&frame, style);
  ws_figure_draw (figure->kind, cr, &frame, style, width, height);
}
