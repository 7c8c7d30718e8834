/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/* What the tests that read SVG files want to know of one (svg-summary.c). */

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  char *root;                /* the root element's name */
  char *width;               /* the root's width and height attributes, or NULL */
  char *height;
  guint paths;               /* path, use (cairo's glyphs) and rect elements */
  guint texts;               /* text elements, which need a font to draw */
  guint images;              /* embedded bitmaps */
} SvgSummary;

/* Parses @path as XML, asserting that it reads and is well formed. */
void svg_summary_read  (SvgSummary *svg,
                        const char *path);
void svg_summary_clear (SvgSummary *svg);

G_END_DECLS
