/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The annotated listing of each course kernel, modelled for the H200, at a
 * slide's size (1280 × 720) and a page's (A4, 595 × 842 points), in the
 * light, dark and print styles: no text cut, too small or overlapping;
 * nothing drawn past the figure; each line's bars there; a measurement's
 * ticks and marks; a long kernel folded; PNG, SVG and PDF written. The
 * files go to figures/ of the build, to be looked at. */
#include "ws-config.h"
#include "ws-device-json.h"
#include "ws-kernel-spec.h"
#include "ws-plot-listing.h"
#include "svg-summary.h"

#include <math.h>
#include <string.h>


typedef struct
{
  const char *name;
  double width;
  double height;
} Size;

static const Size sizes[] = { { "slide", 1280, 720 }, { "a4", 595, 842 } };

typedef struct
{
  WsKernelInstance *instance;
  WsKernelPrediction *prediction;
} Modelled;

static void
modelled_clear (Modelled *m)
{
  g_clear_pointer (&m->instance, ws_kernel_instance_unref);
  g_clear_pointer (&m->prediction, ws_kernel_prediction_free);
}

static void
model_text (const char *text,
            const char *name,
            Modelled   *m)
{
  g_autoptr (WsKernelSpec) spec = ws_kernel_spec_new (text, name);
  g_autoptr (GError) error = NULL;
  g_autoptr (WsDeviceProfile) profile = ws_device_profile_find ("nvidia-h200", &error);

  g_assert_no_error (error);
  m->instance = ws_kernel_spec_instantiate (spec, NULL, &error);
  g_assert_no_error (error);
  m->prediction = ws_kernel_predict (m->instance, profile, 0, NULL, NULL, &error);
  g_assert_no_error (error);
}

static void
model_course (const char *name,
              Modelled   *m)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "kernels", name, NULL);
  g_autofree char *text = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  model_text (text, name, m);
}

static char *
out_path (const char *file)
{
  g_autofree char *dir = g_test_build_filename (G_TEST_BUILT, "figures", NULL);

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  return g_build_filename (dir, file, NULL);
}

/* Drawn on a surface without bounds (what lands where), then on the
 * figure's own (its text, cut by nothing). */
static void
draw_checked (const WsListingFigure *f,
              const WsFigureStyle   *style,
              double                 width,
              double                 height,
              WsTextLog            **log_out)
{
  cairo_surface_t *surface = cairo_recording_surface_create (CAIRO_CONTENT_COLOR_ALPHA, NULL);
  cairo_t *cr = cairo_create (surface);
  WsTextLog *log = ws_text_log_new ();
  g_autoptr (GError) error = NULL;
  double x, y, w, h;

  ws_listing_figure_draw (cr, style, width, height, (gpointer) f);
  cairo_destroy (cr);
  cairo_recording_surface_ink_extents (surface, &x, &y, &w, &h);
  cairo_surface_destroy (surface);
  /* nothing past the figure */
  g_assert_cmpfloat (x, >=, 0);
  g_assert_cmpfloat (y, >=, 0);
  g_assert_cmpfloat (x + w, <=, width);
  g_assert_cmpfloat (y + h, <=, height);

  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) width, (int) height);
  cr = cairo_create (surface);
  ws_text_log_attach (log, cr);
  ws_listing_figure_draw (cr, style, width, height, (gpointer) f);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
  if (!ws_text_log_check (log, style->min_font_size, &error))
    g_error ("%s at %g × %g, %s: %s", f->title, width, height, style->name, error->message);
  g_assert_false (ws_text_log_contains (log, "Too small"));
  *log_out = log;
}

/* The pixel at (x, y) of an image of the figure. */
static guint32
pixel (cairo_surface_t *image,
       double           x,
       double           y)
{
  guint8 *data = cairo_image_surface_get_data (image);
  int stride = cairo_image_surface_get_stride (image);

  cairo_surface_flush (image);
  return *(guint32 *) (gpointer) (data + (int) y * stride + (int) x * 4) & 0xffffff;
}

static guint32
rgb (WsRgba c)
{
  return ((guint32) lround (c.r * 255) << 16) | ((guint32) lround (c.g * 255) << 8) | (guint32) lround (c.b * 255);
}

static gboolean
near (guint32 a,
      guint32 b)
{
  for (int shift = 0; shift < 24; shift += 8)
    if (ABS ((int) ((a >> shift) & 0xff) - (int) ((b >> shift) & 0xff)) > 12)
      return FALSE;
  return TRUE;
}

/* A PNG of the figure in figures/ of the build, to be looked at. */
static void
save_png (const WsListingFigure *f,
          const WsFigureStyle   *style,
          double                 width,
          double                 height,
          const char            *name)
{
  g_autofree char *file = g_strdup_printf ("listing-%s-%s.png", name, style->name);
  g_autofree char *path = out_path (file);
  g_autoptr (GError) error = NULL;

  g_assert_true (ws_export_drawing (path, WS_EXPORT_PNG, width, height, 1, style, ws_listing_figure_draw,
                                    (gpointer) f, &error));
  g_assert_no_error (error);
}

/* Each line's bars where the layout puts them, in their colours. */
static void
assert_bars (const WsListingFigure *f,
             const WsFigureStyle   *style,
             double                 width,
             double                 height)
{
  cairo_surface_t *image = ws_export_to_image (width, height, 1, style, ws_listing_figure_draw, (gpointer) f);
  g_autofree char *name = g_strdup_printf ("listing-%s-%gx%g-%s.png", f->title, width, height, style->name);
  g_autofree char *path = out_path (name);
  guint bars = 0;

  /* to be looked at */
  g_assert_cmpint (cairo_surface_write_to_png (image, path), ==, CAIRO_STATUS_SUCCESS);

  for (guint i = 0; i < f->n_lines; i++)
    {
      const WsListingLine *l = &f->lines[i];
      WsBox box;

      if (l->bytes_asked > 0)
        {
          g_assert_true (ws_listing_figure_bar_box (f, style, width, height, l->line, WS_LISTING_BAR_BYTES, &box));
          g_assert_true (near (pixel (image, floor (box.x) + 1, box.y + box.h / 2), rgb (ws_figure_style_hue (style, 0))));
          bars++;
        }
      else
        g_assert_false (ws_listing_figure_bar_box (f, style, width, height, l->line, WS_LISTING_BAR_BYTES, &box));
      if (l->wavefronts > 0)
        {
          g_assert_true (ws_listing_figure_bar_box (f, style, width, height, l->line, WS_LISTING_BAR_WAVEFRONTS,
                                                    &box));
          /* what the words need, or (atomics, which need no wavefront of their own) the excess */
          g_assert_true (near (pixel (image, floor (box.x) + 1, box.y + box.h / 2),
                               rgb (l->ideal_wavefronts > 0 ? ws_figure_style_hue (style, 4) : style->conflict)));
          bars++;
        }
      if (!isnan (l->time_share) && l->time_share > 0.02)
        {
          g_assert_true (ws_listing_figure_bar_box (f, style, width, height, l->line, WS_LISTING_BAR_TIME, &box));
          g_assert_true (near (pixel (image, floor (box.x) + 1, box.y + box.h / 2), rgb (style->model)));
          bars++;
        }
    }
  g_assert_cmpuint (bars, >, 0);
  cairo_surface_destroy (image);
}

/* ------------------------------------------------------------------ */

/* The course kernels of tests/data/kernels, by name. */
static GPtrArray *
course_kernels (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "kernels", NULL);
  g_autoptr (GDir) dir = g_dir_open (path, 0, NULL);
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)))
    if (g_str_has_suffix (name, ".cu"))
      g_ptr_array_add (names, g_strdup (name));
  g_assert_cmpuint (names->len, >=, 7);
  return names;
}

static void
test_course_kernels (void)
{
  g_autoptr (GPtrArray) kernels = course_kernels ();

  for (guint k = 0; k < kernels->len; k++)
    {
      Modelled m = { 0 };
      g_autoptr (WsPlotListing) listing = NULL;
      const WsListingFigure *f;

      model_course (kernels->pdata[k], &m);
      listing = ws_plot_listing_new (m.instance, m.prediction, NULL, NULL);
      f = ws_plot_listing_figure (listing);
      g_assert_cmpuint (f->n_lines, ==, ws_kernel_lines_get_n_lines (ws_plot_listing_lines (listing)));
      for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
        for (guint s = 0; s < WS_N_FIGURE_STYLES; s++)
          {
            const WsFigureStyle *style = ws_figure_style_get (s);
            WsTextLog *log = NULL;
            char number[16];

            draw_checked (f, style, sizes[i].width, sizes[i].height, &log);
            /* the kernel's name, and each line with memory instructions by its number */
            g_assert_true (ws_text_log_contains (log, ws_kernel_instance_get_kernel_name (m.instance)));
            for (guint l = 0; l < f->n_lines; l++)
              {
                g_snprintf (number, sizeof number, "%u", f->lines[l].line);
                g_assert_true (ws_text_log_contains (log, number));
              }
            ws_text_log_free (log);
            assert_bars (f, style, sizes[i].width, sizes[i].height);
          }
      modelled_clear (&m);
    }
}

/* transposeCoalesced: only its own lines, the read's 32-way conflict. */
static void
test_transpose (void)
{
  Modelled m = { 0 };
  g_autoptr (WsPlotListing) listing = NULL;
  const WsListingFigure *f;
  WsTextLog *log = NULL;
  const WsListingLine *read = NULL;

  model_course ("transpose.cu", &m);
  listing = ws_plot_listing_new (m.instance, m.prediction, NULL, NULL);
  f = ws_plot_listing_figure (listing);
  g_assert_cmpstr (f->title, ==, "transposeCoalesced");
  g_assert_cmpuint (f->n_ranges, ==, 1);
  g_assert_cmpuint (f->ranges[0].first, ==, 63);
  g_assert_cmpuint (f->ranges[0].last, ==, 81);
  for (guint i = 0; i < f->n_lines; i++)
    if (f->lines[i].line == 80)
      read = &f->lines[i];
  g_assert_nonnull (read);
  g_assert_cmpfloat (read->wavefronts, ==, 32 * read->ideal_wavefronts);
  g_assert_cmpfloat (read->bytes_moved, ==, read->bytes_asked);
  draw_checked (f, ws_figure_style_get (WS_FIGURE_STYLE_LIGHT), 1280, 720, &log);
  g_assert_true (ws_text_log_contains (log, "32×"));
  g_assert_true (ws_text_log_contains (log, "tile[threadIdx.x][threadIdx.y + j]"));
  /* the other kernels of the file are not this one's */
  g_assert_false (ws_text_log_contains (log, "transposeNaive"));
  ws_text_log_free (log);
  modelled_clear (&m);
}

/* Counters per line: ticks on the bars, and the line where they differ
 * marked. */
static void
test_measured (void)
{
  Modelled m = { 0 };
  g_autoptr (WsMeasurement) measurement = ws_measurement_new ("kernel");
  g_autoptr (WsPlotListing) model = NULL;
  g_autoptr (WsPlotListing) listing = NULL;
  const WsFigureStyle *style = ws_figure_style_get (WS_FIGURE_STYLE_LIGHT);
  const WsKernelLines *lines;
  const WsListingFigure *f;
  cairo_surface_t *image;
  WsTextLog *log = NULL;
  WsBox box;
  double x;

  model_course ("transpose.cu", &m);
  model = ws_plot_listing_new (m.instance, m.prediction, NULL, NULL);
  lines = ws_plot_listing_lines (model);
  for (guint i = 0; i < ws_kernel_lines_get_n_lines (lines); i++)
    {
      const WsKernelLine *l = ws_kernel_lines_get_line (lines, i);

      /* the read's line: half the sectors the model says */
      ws_measurement_add_line_counter (measurement, l->line, "smsp__sass_sectors_mem_global",
                                       (double) l->global.sectors / (l->line == 80 ? 2 : 1));
      ws_measurement_add_line_counter (measurement, l->line, WS_LINE_SHARED_WAVEFRONTS,
                                       (double) l->shared.wavefronts);
    }
  listing = ws_plot_listing_new (m.instance, m.prediction, measurement, NULL);
  f = ws_plot_listing_figure (listing);
  g_assert_true (f->measured);
  draw_checked (f, style, 1280, 720, &log);
  g_assert_true (ws_text_log_contains (log, "≠"));
  g_assert_true (ws_text_log_contains (log, "differ from the model on 1 line"));
  ws_text_log_free (log);
  save_png (f, style, 1280, 720, "measured");
  save_png (f, ws_figure_style_get (WS_FIGURE_STYLE_DARK), 1280, 720, "measured");

  /* the tick halfway along the read's bytes bar, in the conflict colour */
  g_assert_true (ws_listing_figure_bar_box (f, style, 1280, 720, 80, WS_LISTING_BAR_BYTES, &box));
  image = ws_export_to_image (1280, 720, 1, style, ws_listing_figure_draw, (gpointer) f);
  for (x = box.x + box.w * 0.4; x < box.x + box.w * 0.6; x++)
    if (near (pixel (image, x, box.y + box.h / 2), rgb (style->conflict)))
      break;
  g_assert_cmpfloat (x, <, box.x + box.w * 0.6);
  /* the wavefronts' tick, which agrees, in the foreground's */
  g_assert_true (ws_listing_figure_bar_box (f, style, 1280, 720, 80, WS_LISTING_BAR_WAVEFRONTS, &box));
  g_assert_true (near (pixel (image, box.x + box.w - 1, box.y - 1), rgb (style->foreground)));
  cairo_surface_destroy (image);
  modelled_clear (&m);
}

/* A kernel far longer than a slide: the lines without memory instructions
 * fold, and nothing is cut. */
static void
test_long_kernel (void)
{
  GString *text = g_string_new ("/* warpscope: grid = 4; block = 256; a[1024] = i; b[1024] = 0 */\n"
                                "__global__ void longer(const float *a, float *b)\n"
                                "{\n"
                                "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n");
  g_autofree char *source = NULL;
  Modelled m = { 0 };
  g_autoptr (WsPlotListing) listing = NULL;
  WsTextLog *log = NULL;

  for (int i = 0; i < 150; i++)
    g_string_append_printf (text, "  // step %d of a long explanation that a course would give here\n", i);
  g_string_append (text, "  b[i] = a[i];\n}\n");
  source = g_string_free (text, FALSE);
  model_text (source, "longer.cu", &m);
  listing = ws_plot_listing_new (m.instance, m.prediction, NULL, NULL);
  for (guint s = 0; s < WS_N_FIGURE_STYLES; s++)
    {
      draw_checked (ws_plot_listing_figure (listing), ws_figure_style_get (s), 1280, 720, &log);
      g_assert_true (ws_text_log_contains (log, "lines"));
      g_assert_true (ws_text_log_contains (log, "b[i] = a[i];"));
      g_assert_true (ws_text_log_contains (log, "155"));
      ws_text_log_free (log);
      save_png (ws_plot_listing_figure (listing), ws_figure_style_get (s), 1280, 720, "long");
    }
  g_assert_cmpfloat (ws_listing_figure_natural_height (ws_plot_listing_figure (listing),
                                                       ws_figure_style_get (WS_FIGURE_STYLE_LIGHT), 1280), >, 720);
  modelled_clear (&m);
}

/* Too small for the figure: it says so, rather than cutting. */
static void
test_too_small (void)
{
  Modelled m = { 0 };
  g_autoptr (WsPlotListing) listing = NULL;
  cairo_surface_t *surface = cairo_recording_surface_create (CAIRO_CONTENT_COLOR_ALPHA, NULL);
  cairo_t *cr = cairo_create (surface);
  g_autoptr (WsTextLog) log = ws_text_log_new ();

  model_course ("transpose.cu", &m);
  listing = ws_plot_listing_new (m.instance, m.prediction, NULL, NULL);
  ws_text_log_attach (log, cr);
  ws_listing_figure_draw (cr, ws_figure_style_get (WS_FIGURE_STYLE_LIGHT), 300, 200,
                          (gpointer) ws_plot_listing_figure (listing));
  g_assert_true (ws_text_log_contains (log, "Too small"));
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
  modelled_clear (&m);
}

/* PNG, SVG and PDF, through ws-export, in each style. */
static void
test_export (void)
{
  Modelled m = { 0 };
  static const char *const formats[] = { "png", "svg", "pdf" };

  model_course ("transpose.cu", &m);
  for (guint s = 0; s < WS_N_FIGURE_STYLES; s++)
    for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
      for (guint k = 0; k < G_N_ELEMENTS (formats); k++)
        {
          const WsFigureStyle *style = ws_figure_style_get (s);
          g_autofree char *name = g_strdup_printf ("listing-%s-%s.%s", sizes[i].name, style->name, formats[k]);
          g_autofree char *path = out_path (name);
          g_autoptr (GError) error = NULL;
          WsExportFormat format;

          g_assert_true (ws_export_format_from_path (path, &format));
          g_assert_true (ws_plot_listing_export (path, format, sizes[i].width, sizes[i].height, 1, style, m.instance,
                                                 m.prediction, NULL, &error));
          g_assert_no_error (error);
          if (format == WS_EXPORT_PNG)
            {
              cairo_surface_t *png = cairo_image_surface_create_from_png (path);

              g_assert_cmpint (cairo_surface_status (png), ==, CAIRO_STATUS_SUCCESS);
              g_assert_cmpint (cairo_image_surface_get_width (png), ==, (int) sizes[i].width);
              g_assert_cmpint (cairo_image_surface_get_height (png), ==, (int) sizes[i].height);
              cairo_surface_destroy (png);
            }
          else if (format == WS_EXPORT_SVG)
            {
              SvgSummary svg;

              svg_summary_read (&svg, path);
              g_assert_cmpstr (svg.root, ==, "svg");
              /* bars, bands and the glyphs of the code */
              g_assert_cmpuint (svg.paths, >, 200);
              svg_summary_clear (&svg);
            }
          else
            {
              g_autofree char *contents = NULL;

              g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
              g_assert_true (g_str_has_prefix (contents, "%PDF-"));
            }
          g_test_message ("wrote %s", path);
        }
  modelled_clear (&m);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/listing/course-kernels", test_course_kernels);
  g_test_add_func ("/listing/transpose", test_transpose);
  g_test_add_func ("/listing/measured", test_measured);
  g_test_add_func ("/listing/long-kernel", test_long_kernel);
  g_test_add_func ("/listing/too-small", test_too_small);
  g_test_add_func ("/listing/export", test_export);
  return g_test_run ();
}
