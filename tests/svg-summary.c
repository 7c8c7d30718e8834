/* SPDX-License-Identifier: GPL-3.0-or-later */
/* An SVG file read into the few figures the tests check. */
#include "svg-summary.h"

typedef struct
{
  SvgSummary *svg;
  int depth;
} Reading;

static void
svg_start (GMarkupParseContext *context,
           const char          *element,
           const char         **names,
           const char         **values,
           gpointer             user_data,
           GError             **error)
{
  Reading *r = user_data;
  SvgSummary *svg = r->svg;

  if (r->depth++ == 0)
    {
      svg->root = g_strdup (element);
      for (guint i = 0; names[i]; i++)
        if (g_str_equal (names[i], "width"))
          svg->width = g_strdup (values[i]);
        else if (g_str_equal (names[i], "height"))
          svg->height = g_strdup (values[i]);
    }
  if (g_str_equal (element, "path") || g_str_equal (element, "use") || g_str_equal (element, "rect"))
    svg->paths++;
  else if (g_str_equal (element, "text"))
    svg->texts++;
  else if (g_str_equal (element, "image"))
    svg->images++;
}

static void
svg_end (GMarkupParseContext *context,
         const char          *element,
         gpointer             user_data,
         GError             **error)
{
  ((Reading *) user_data)->depth--;
}

void
svg_summary_read (SvgSummary *svg,
                  const char *path)
{
  static const GMarkupParser parser = { svg_start, svg_end, NULL, NULL, NULL };
  g_autofree char *contents = NULL;
  g_autoptr (GMarkupParseContext) context = NULL;
  g_autoptr (GError) error = NULL;
  Reading r = { svg, 0 };
  gsize length;

  *svg = (SvgSummary) { 0 };
  g_file_get_contents (path, &contents, &length, &error);
  g_assert_no_error (error);
  context = g_markup_parse_context_new (&parser, 0, &r, NULL);
  g_markup_parse_context_parse (context, contents, length, &error);
  g_assert_no_error (error);
  g_markup_parse_context_end_parse (context, &error);
  g_assert_no_error (error);
}

void
svg_summary_clear (SvgSummary *svg)
{
  g_clear_pointer (&svg->root, g_free);
  g_clear_pointer (&svg->width, g_free);
  g_clear_pointer (&svg->height, g_free);
}
