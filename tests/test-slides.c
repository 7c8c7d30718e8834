/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Figures a teacher puts on a slide unchanged: every number names what is
 * under it (a lane's number over that lane, the rows a fold leaves out as
 * the figure labels its rows), counts agree with their nouns, nothing on a
 * figure is a note about its own layout, a figure drawn after N steps says
 * so and shows nothing in flight, and a figure with little to show fills
 * the slide rather than its top half. Checked on the text the renderers
 * lay out (the text log), not on pixels. */
#include "ws-chart.h"
#include "ws-comparison.h"
#include "ws-compare-figure.h"
#include "ws-export.h"
#include "ws-figure.h"
#include "ws-l2-figure.h"
#include "ws-presets.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct
{
  WsWarpResult *result;
  WsPattern *pattern;
  WsFigureKind kind;
  WsFigureFrame frame;
  WsTextLog *log;
  cairo_surface_t *surface;
  double width;
  double height;
} Drawn;

static void
drawn_clear (Drawn *d)
{
  g_clear_pointer (&d->result, ws_warp_result_free);
  g_clear_pointer (&d->pattern, ws_pattern_unref);
  g_clear_pointer (&d->log, ws_text_log_free);
  g_clear_pointer (&d->surface, cairo_surface_destroy);
}

/* The main view of a preset (kind), drawn at width × height after position
 * steps, with its text logged. */
static void
draw_preset (Drawn       *d,
             const char  *id,
             const char  *set,
             WsFigureKind kind,
             double       position,
             double       width,
             double       height)
{
  const WsFigureStyle *style = ws_figure_style_get (WS_FIGURE_STYLE_LIGHT);
  g_autoptr (GError) error = NULL;
  cairo_t *cr;
  guint access;

  memset (d, 0, sizeof *d);
  d->pattern = ws_preset_build (ws_preset_lookup (id));
  if (set)
    {
      g_auto (GStrv) kv = g_strsplit (set, "=", 2);
      g_assert_true (ws_pattern_set_param (d->pattern, kv[0], g_ascii_strtoll (kv[1], NULL, 10), &error));
    }
  /* the access that says most, else the first the view shows */
  access = ws_compare_main_access (d->pattern);
  if (!ws_figure_applies (kind, ws_pattern_get_access (d->pattern, access)->space,
                          ws_pattern_get_access (d->pattern, access)->kind))
    for (access = 0; access < ws_pattern_get_n_accesses (d->pattern); access++)
      {
        const WsAccess *a = ws_pattern_get_access (d->pattern, access);
        if (ws_figure_applies (kind, a->space, a->kind))
          break;
      }
  g_assert_cmpuint (access, <, ws_pattern_get_n_accesses (d->pattern));
  d->result = ws_model_analyze_warp (d->pattern, access, WS_DIM3 (0, 0, 0), 0, &error);
  g_assert_no_error (error);
  d->kind = kind;
  d->width = width;
  d->height = height;
  d->frame = (WsFigureFrame) { d->result, id, ws_pattern_get_block (d->pattern), position < 0 ? d->result->steps->len
                                                                                             : position,
                               WS_FIGURE_HIT_NONE, WS_FIGURE_LAYERS_ALL };
  d->surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) width, (int) height);
  cr = cairo_create (d->surface);
  d->log = ws_text_log_new ();
  ws_text_log_attach (d->log, cr);
  ws_figure_draw (kind, cr, &d->frame, style, width, height);
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  cairo_destroy (cr);
}

static const WsTextRecord *
find_text (const WsTextLog *log,
           const char      *text)
{
  for (guint i = 0; i < ws_text_log_len (log); i++)
    if (g_strcmp0 (ws_text_log_get (log, i)->text, text) == 0)
      return ws_text_log_get (log, i);
  return NULL;
}

/* The lowest of several with this text. */
static const WsTextRecord *
find_lowest (const WsTextLog *log,
             const char      *text)
{
  const WsTextRecord *found = NULL;

  for (guint i = 0; i < ws_text_log_len (log); i++)
    if (g_strcmp0 (ws_text_log_get (log, i)->text, text) == 0 &&
        (found == NULL || ws_text_log_get (log, i)->ink.y > found->ink.y))
      found = ws_text_log_get (log, i);
  return found;
}

static const WsTextRecord *
find_containing (const WsTextLog *log,
                 const char      *needle)
{
  for (guint i = 0; i < ws_text_log_len (log); i++)
    if (strstr (ws_text_log_get (log, i)->text, needle))
      return ws_text_log_get (log, i);
  return NULL;
}

/* The L2 view's legend names what its bars draw, and nothing else: no
 * "rest of the hot set" where all of it persists, no eviction where all
 * stays, the room L2 has left when there is some. */
static WsTextLog *
draw_l2 (const WsL2Figure *f)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1200, 720);
  cairo_t *cr = cairo_create (surface);
  WsTextLog *log = ws_text_log_new ();

  ws_text_log_attach (log, cr);
  ws_l2_figure_draw (cr, ws_figure_style_get (WS_FIGURE_STYLE_PRINT), 1200, 720, (gpointer) f);
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
  return log;
}

static void
test_l2_legend (void)
{
  const gint64 mib = 1 << 20;
  /* L2, its persisting part, the hot set, the hit ratio, what persists, the stream */
  WsL2Figure fits = { "All persists", { 60 * mib, 16 * mib, 16 * mib, 1.0, 16 * mib, 32 * mib } };
  WsL2Figure half = { "Half persists", { 60 * mib, 16 * mib, 16 * mib, 0.5, 16 * mib, 32 * mib } };
  WsL2Figure none = { "Streaming", { 60 * mib, 0, 0, 0, 32 * mib, 64 * mib } };
  WsTextLog *log;

  log = draw_l2 (&fits);
  g_assert_nonnull (find_text (log, "persisting (in the window)"));
  g_assert_nonnull (find_text (log, "streamed through"));
  g_assert_nonnull (find_text (log, "L2 this kernel leaves empty"));
  g_assert_null (find_containing (log, "rest of the hot set"));
  g_assert_null (find_containing (log, "evicted"));
  ws_text_log_free (log);

  log = draw_l2 (&half);
  g_assert_nonnull (find_text (log, "persisting (in the window)"));
  g_assert_nonnull (find_text (log, "the rest of the hot set"));
  g_assert_null (find_containing (log, "evicted"));
  ws_text_log_free (log);

  /* no window: the hot set competes with a stream bigger than L2, and goes */
  log = draw_l2 (&none);
  g_assert_nonnull (find_text (log, "the hot set, expected to be evicted"));
  g_assert_nonnull (find_text (log, "streamed through"));
  g_assert_null (find_containing (log, "persisting"));
  g_assert_null (find_containing (log, "rest of the hot set"));
  g_assert_null (find_text (log, "L2 this kernel leaves empty"));
  ws_text_log_free (log);
}

/* ------------------------------------------------------------------ */
/* Lanes' numbers stand over their lanes                               */
/* ------------------------------------------------------------------ */

/* The lane whose box is under x, below y: -1 for none. */
static int
lane_below (const Drawn *d,
            double       x,
            double       y)
{
  const WsFigureStyle *style = ws_figure_style_get (WS_FIGURE_STYLE_LIGHT);

  for (double yy = y; yy < y + 80; yy += 1)
    {
      WsFigureHit hit;
      if (ws_figure_hit_test (d->kind, &d->frame, style, d->width, d->height, x, yy, &hit) &&
          hit.kind == WS_HIT_LANE)
        return hit.index;
    }
  return -1;
}

/* Narrow, the lanes are numbered by a ruler over them, "lane" beside it;
 * each number stands over the lane it names (the word used to push "0"
 * over lane 1 or 2). */
static void
test_lane_ruler (void)
{
  const double widths[] = { 420, 480, 560, 700 };

  for (guint w = 0; w < G_N_ELEMENTS (widths); w++)
    {
      Drawn d;
      guint numbers = 0;

      draw_preset (&d, "transpose/copy", NULL, WS_FIGURE_WARP, -1, widths[w], 600);
      for (guint i = 0; i < ws_text_log_len (d.log); i++)
        {
          const WsTextRecord *r = ws_text_log_get (d.log, i);
          char *end;
          long n = strtol (r->text, &end, 10);
          int lane;

          if (*r->text == '\0' || *end != '\0' || n < 0 || n > 31)
            continue;
          lane = lane_below (&d, r->ink.x + r->ink.w / 2, r->ink.y + r->ink.h);
          if (lane < 0)
            continue;   /* not over the lanes: a line's or a sector's number */
          g_assert_cmpint (lane, ==, n);
          numbers++;
        }
      /* a ruler or every box: at least its ends */
      g_assert_cmpuint (numbers, >=, 2);
      g_assert_nonnull (find_text (d.log, "lane"));
      drawn_clear (&d);
    }
}

/* ------------------------------------------------------------------ */
/* What a fold leaves out is named as the rows around it are          */
/* ------------------------------------------------------------------ */

/* "⋮ 2 more words (15–16)": the rows drawn either side are 14 and 17. */
static void
check_fold (const Drawn *d,
            const char  *noun,
            const char  *row_format)
{
  g_autofree char *needle = g_strdup_printf (" more %s (", noun);
  const WsTextRecord *fold = find_containing (d->log, needle);
  const char *open;
  gint64 first, last;
  char *end;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autofree char *inside = NULL;
  guint count;

  g_assert_nonnull (fold);
  count = (guint) strtoul (strstr (fold->text, "⋮ ") + strlen ("⋮ "), NULL, 10);
  open = strchr (fold->text, '(');
  first = g_ascii_strtoll (open + 1, &end, 10);
  g_assert_true (g_str_has_prefix (end, "–"));
  last = g_ascii_strtoll (end + strlen ("–"), NULL, 10);
  before = g_strdup_printf (row_format, first - 1);
  after = g_strdup_printf (row_format, last + 1);
  inside = g_strdup_printf (row_format, first);
  g_assert_nonnull (find_containing (d->log, before));
  g_assert_nonnull (find_containing (d->log, after));
  g_assert_null (find_containing (d->log, inside));
  g_assert_cmpint (count, ==, last - first + 1);
}

static void
test_fold_labels (void)
{
  Drawn d;

  /* the private array's words are numbered from 0 */
  draw_preset (&d, "private-array/nonuniform-local", NULL, WS_FIGURE_LOCAL, -1, 1200, 600);
  check_fold (&d, "words", "word %" G_GINT64_FORMAT " ·");
  drawn_clear (&d);
  /* wavefronts from 1 */
  draw_preset (&d, "banks/padding", NULL, WS_FIGURE_BANKS, -1, 1200, 500);
  check_fold (&d, "wavefronts", "wavefront %" G_GINT64_FORMAT);
  drawn_clear (&d);
}

/* The atomics view labels its rows with byte addresses: so does its fold. */
static void
test_fold_addresses (void)
{
  Drawn d;
  const WsTextRecord *fold;
  gint64 first, last;
  char *end;

  /* narrow: one panel of addresses, folded (wider, they stand side by side) */
  draw_preset (&d, "atomics/distinct", NULL, WS_FIGURE_ATOMICS, -1, 300, 600);
  fold = find_containing (d.log, " more addresses (");
  g_assert_nonnull (fold);
  first = g_ascii_strtoll (strchr (fold->text, '(') + 1, &end, 10);
  last = g_ascii_strtoll (end + strlen ("–"), NULL, 10);
  g_assert_cmpint (first % 4, ==, 0);
  g_assert_cmpint (last % 4, ==, 0);
  {
    char before[32], after[32], inside[32];
    g_snprintf (before, sizeof before, "%" G_GINT64_FORMAT, first - 4);
    g_snprintf (after, sizeof after, "%" G_GINT64_FORMAT, last + 4);
    g_snprintf (inside, sizeof inside, "%" G_GINT64_FORMAT, first);
    g_assert_nonnull (find_text (d.log, before));
    g_assert_nonnull (find_text (d.log, after));
    g_assert_null (find_text (d.log, inside));
  }
  drawn_clear (&d);
}

/* ------------------------------------------------------------------ */
/* Counts and nouns, and no notes on the layout                        */
/* ------------------------------------------------------------------ */

static void
test_plurals (void)
{
  Drawn d;

  draw_preset (&d, "atomics/distinct", NULL, WS_FIGURE_ATOMICS, -1, 1200, 720);
  g_assert_nonnull (find_containing (d.log, "up to 1 lane on one address"));
  g_assert_null (find_containing (d.log, "1 lanes"));
  drawn_clear (&d);
  draw_preset (&d, "atomics/distinct", NULL, WS_FIGURE_WARP, -1, 1200, 720);
  g_assert_null (find_containing (d.log, "up to 1 lanes"));
  drawn_clear (&d);
}

/* Narrow, a view leaves the words' and lanes' numbers out, and its tooltips
 * have them: the figure does not say so in its caption. */
static void
test_no_layout_notes (void)
{
  const struct
  {
    const char *id;
    WsFigureKind kind;
  } cases[] = { { "transpose/shared", WS_FIGURE_BANKS }, { "atomics/one-address", WS_FIGURE_ATOMICS } };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const WsFigureStyle *style = ws_figure_style_get (WS_FIGURE_STYLE_LIGHT);
      Drawn d;
      double w;

      draw_preset (&d, cases[i].id, NULL, cases[i].kind, -1, 1200, 720);
      w = ws_figure_min_width (cases[i].kind, &d.frame, style);
      drawn_clear (&d);
      draw_preset (&d, cases[i].id, NULL, cases[i].kind, -1, w, 720);
      g_assert_null (find_containing (d.log, "too narrow"));
      g_assert_null (find_containing (d.log, "Too small"));
      drawn_clear (&d);
    }
}

/* ------------------------------------------------------------------ */
/* After N steps                                                       */
/* ------------------------------------------------------------------ */

static double
ink_share (cairo_surface_t *surface)
{
  int w = cairo_image_surface_get_width (surface), h = cairo_image_surface_get_height (surface);
  int stride = cairo_image_surface_get_stride (surface);
  const guint8 *data;
  guint64 n = 0;

  cairo_surface_flush (surface);
  data = cairo_image_surface_get_data (surface);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      n += ((const guint32 *) (data + y * stride))[x] != 0;
  return (double) n / (w * h);
}

/* --step 5: "5 of 32 steps served", and no packet sits at either end of
 * its curve (over a lane's or a bank's label); half-way, one is on its way. */
static void
test_after_steps (void)
{
  const WsFigureStyle *style = ws_figure_style_get (WS_FIGURE_STYLE_LIGHT);
  const WsFigureKind kinds[] = { WS_FIGURE_BANKS, WS_FIGURE_WARP };
  const char *ids[] = { "transpose/shared", "transpose/read-coalesced" };
  const char *sets[] = { NULL, NULL };

  for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
    {
      Drawn d;
      g_autofree char *served = NULL;
      g_autofree char *next = NULL;
      guint n;

      draw_preset (&d, ids[k], sets[k], kinds[k], 5, 1200, 720);
      n = d.result->steps->len;
      g_assert_cmpuint (n, >, 6);
      served = g_strdup_printf ("5 of %u steps served", n);
      next = g_strdup_printf ("step 6 of %u", n);
      g_assert_nonnull (find_text (d.log, served));
      g_assert_null (find_text (d.log, next));
      for (guint i = 0; i < 2; i++)
        {
          cairo_surface_t *packets = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1200, 720);
          cairo_t *cr = cairo_create (packets);
          WsFigureFrame frame = d.frame;

          frame.layers = WS_FIGURE_LAYERS_PACKETS;
          frame.position = i == 0 ? 5 : 5.5;
          ws_figure_draw (kinds[k], cr, &frame, style, 1200, 720);
          cairo_destroy (cr);
          if (i == 0)
            g_assert_cmpfloat (ink_share (packets), ==, 0);
          else
            g_assert_cmpfloat (ink_share (packets), >, 0);
          cairo_surface_destroy (packets);
        }
      drawn_clear (&d);
    }
}

/* ------------------------------------------------------------------ */
/* A slide filled                                                      */
/* ------------------------------------------------------------------ */

/* Two wavefronts, eight addresses: the last row stands in the lower part
 * of a 1200 × 720 slide, not half-way down with nothing below. */
static void
test_fills_slide (void)
{
  Drawn d;
  const WsTextRecord *r;

  draw_preset (&d, "banks/stride", "stride=2", WS_FIGURE_BANKS, -1, 1200, 720);
  r = find_text (d.log, "wavefront 2");
  g_assert_nonnull (r);
  g_assert_cmpfloat (r->ink.y, >, 0.6 * 720);
  drawn_clear (&d);
  draw_preset (&d, "atomics/histogram", NULL, WS_FIGURE_ATOMICS, -1, 1200, 720);
  /* the last address, byte 28 */
  r = find_lowest (d.log, "28");
  g_assert_nonnull (r);
  g_assert_cmpfloat (r->ink.y, >, 0.6 * 720);
  /* its cells are wide enough to carry their lanes' numbers large */
  r = find_lowest (d.log, "31");
  g_assert_nonnull (r);
  g_assert_cmpfloat (r->size, >, ws_figure_style_get (WS_FIGURE_STYLE_LIGHT)->font_size);
  drawn_clear (&d);
}

/* ------------------------------------------------------------------ */
/* Counts with their magnitude                                         */
/* ------------------------------------------------------------------ */

/* A count (no unit) keeps its prefix: "33.6 M", not "33.6". */
static void
test_count_suffix (void)
{
  const double values[] = { 33554432, 4194304, 999, 1500 };
  const char *expected[] = { "33.6 M", "4.19 M", "999", "1.50 k" };

  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    {
      WsChartAxis axis = { .unit = (char *) "", .si = TRUE, .min = 0, .max = values[i] };
      g_autofree char *text = ws_chart_axis_format (&axis, values[i], TRUE);
      g_assert_cmpstr (text, ==, expected[i]);
    }
}

/* ------------------------------------------------------------------ */
/* Text that grows with the slide                                      */
/* ------------------------------------------------------------------ */

static void
test_text_grows (void)
{
  const WsFigureStyle *print = ws_figure_style_get (WS_FIGURE_STYLE_PRINT);
  const WsFigureStyle *wide = ws_export_style_for_width (WS_FIGURE_STYLE_PRINT, 1920);

  g_assert_true (ws_export_style_for_width (WS_FIGURE_STYLE_PRINT, 1200) == print);
  g_assert_true (ws_export_style_for_width (WS_FIGURE_STYLE_PRINT, 1280) == print);
  g_assert_cmpfloat_with_epsilon (wide->font_size, print->font_size * 1.5, 1e-9);
  g_assert_cmpfloat_with_epsilon (wide->min_font_size, print->min_font_size * 1.5, 1e-9);
  g_assert_cmpint (wide->kind, ==, WS_FIGURE_STYLE_PRINT);
  /* the same figure's title, drawn for each */
  {
    g_autoptr (WsPattern) pattern = ws_preset_build (ws_preset_lookup ("banks/broadcast"));
    g_autoptr (WsWarpResult) r = ws_model_analyze_warp (pattern, 0, WS_DIM3 (0, 0, 0), 0, NULL);
    WsExportFigure figure = { WS_FIGURE_BANKS, { r, "Broadcast", ws_pattern_get_block (pattern), 1,
                                                 WS_FIGURE_HIT_NONE, WS_FIGURE_LAYERS_ALL } };
    double sizes[2];

    for (guint i = 0; i < 2; i++)
      {
        const WsFigureStyle *style = i ? wide : print;
        double w = i ? 1920 : 1280, h = i ? 1080 : 720;
        cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) w, (int) h);
        cairo_t *cr = cairo_create (surface);
        WsTextLog *log = ws_text_log_new ();

        ws_text_log_attach (log, cr);
        ws_export_draw_figure (cr, style, w, h, &figure);
        sizes[i] = find_text (log, "Broadcast")->size;
        ws_text_log_free (log);
        cairo_destroy (cr);
        cairo_surface_destroy (surface);
      }
    g_assert_cmpfloat (sizes[1], >=, sizes[0] * 1.45);
  }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/slides/lane-ruler", test_lane_ruler);
  g_test_add_func ("/slides/fold-labels", test_fold_labels);
  g_test_add_func ("/slides/fold-addresses", test_fold_addresses);
  g_test_add_func ("/slides/l2-legend", test_l2_legend);
  g_test_add_func ("/slides/plurals", test_plurals);
  g_test_add_func ("/slides/no-layout-notes", test_no_layout_notes);
  g_test_add_func ("/slides/after-steps", test_after_steps);
  g_test_add_func ("/slides/fills-slide", test_fills_slide);
  g_test_add_func ("/slides/count-suffix", test_count_suffix);
  g_test_add_func ("/slides/text-grows", test_text_grows);
  return g_test_run ();
}
