/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The annotated listing's numbers from the model of a launch and a
 * measurement (WsKernelLines, line by line), and the lines to show: the
 * kernel's definition, found in its text, and the device functions its
 * memory instructions were inlined from. */
#include "ws-plot-listing.h"
#include "ws-figure-i18n-private.h"
#include "ws-truth.h"

#include <math.h>
#include <string.h>

struct _WsPlotListing
{
  WsListingFigure figure;
  WsKernelLines *lines;
  GArray *rows;                /* WsListingLine */
  GArray *ranges;              /* WsListingRange */
  char *title;
  char *subtitle;
  char *text;
};

void
ws_plot_listing_free (WsPlotListing *listing)
{
  if (listing == NULL)
    return;
  ws_kernel_lines_free (listing->lines);
  g_array_unref (listing->rows);
  g_array_unref (listing->ranges);
  g_free (listing->title);
  g_free (listing->subtitle);
  g_free (listing->text);
  g_free (listing);
}

/* ------------------------------------------------------------------ */
/* Where the kernel is in its text                                    */
/* ------------------------------------------------------------------ */

/* Whether name appears in line as a whole word followed by "(" (spaces
 * between allowed), or ends it. */
static gboolean
defines (const char *line,
         const char *name)
{
  gsize n = strlen (name);

  for (const char *p = strstr (line, name); p; p = strstr (p + 1, name))
    {
      const char *after = p + n;
      gboolean starts = p == line || !(g_ascii_isalnum (p[-1]) || p[-1] == '_');

      while (*after == ' ' || *after == '\t')
        after++;
      if (starts && (*after == '(' || *after == '\0'))
        return TRUE;
    }
  return FALSE;
}

/* A function of the text: from its signature to its closing brace. */
typedef struct
{
  guint start;                 /* the signature's first line, from 1 */
  guint open;                  /* the line of its opening brace */
  guint close;                 /* of its closing brace */
} Block;

/* Where the signature before line open starts: the lines above it that
 * are not the end of something else (up to three). */
static guint
signature_start (char  **lines,
                 guint   open)
{
  guint start = open;

  while (start > 1 && open - start < 3)
    {
      g_autofree char *above = g_strstrip (g_strdup (lines[start - 2]));

      if (*above == '\0' || *above == '#' || g_str_has_suffix (above, ";") || g_str_has_suffix (above, "}") ||
          g_str_has_suffix (above, "*/") || g_str_has_prefix (above, "//"))
        break;
      start--;
    }
  return start;
}

/* The top-level blocks of the text (comments and literals skipped when
 * counting braces). */
static GArray *
top_blocks (char **lines)
{
  GArray *blocks = g_array_new (FALSE, FALSE, sizeof (Block));
  gboolean comment = FALSE;
  int depth = 0;
  Block b = { 0 };

  for (guint j = 0; lines[j]; j++)
    for (const char *p = lines[j]; *p; p++)
      {
        if (comment)
          {
            if (p[0] == '*' && p[1] == '/')
              comment = FALSE, p++;
            continue;
          }
        if (p[0] == '/' && p[1] == '/')
          break;
        if (p[0] == '/' && p[1] == '*')
          {
            comment = TRUE;
            p++;
            continue;
          }
        if (*p == '"' || *p == '\'')
          {
            char quote = *p;

            for (p++; *p && *p != quote; p++)
              if (*p == '\\' && p[1])
                p++;
            if (*p == '\0')
              break;
            continue;
          }
        if (*p == '{' && depth++ == 0)
          b.open = j + 1;
        else if (*p == '}' && depth > 0 && --depth == 0)
          {
            b.close = j + 1;
            b.start = signature_start (lines, b.open);
            g_array_append_val (blocks, b);
          }
      }
  return blocks;
}

/* Whether the block's signature defines the kernel called name. */
static gboolean
is_kernel (char        **lines,
           const Block  *b,
           const char   *name)
{
  gboolean global = FALSE, named = FALSE;

  for (guint l = b->start; l <= b->open; l++)
    {
      global |= strstr (lines[l - 1], "__global__") != NULL;
      named |= defines (lines[l - 1], name);
    }
  return global && named;
}

static int
by_first (gconstpointer a,
          gconstpointer b)
{
  const WsListingRange *x = a, *y = b;

  return x->first < y->first ? -1 : x->first > y->first;
}

/* The lines to show: the kernel's definition, and the functions its
 * memory instructions were inlined from (or, outside any, the lines
 * themselves), in order, overlaps merged. */
static GArray *
listing_ranges (const char  *text,
                const char  *name,
                GArray      *rows)
{
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  g_autoptr (GArray) blocks = top_blocks (lines);
  g_autoptr (GArray) raw = g_array_new (FALSE, FALSE, sizeof (WsListingRange));
  GArray *ranges = g_array_new (FALSE, FALSE, sizeof (WsListingRange));

  for (guint i = 0; i < blocks->len; i++)
    {
      const Block *b = &g_array_index (blocks, Block, i);
      gboolean wanted = is_kernel (lines, b, name);

      for (guint k = 0; k < rows->len && !wanted; k++)
        {
          guint l = g_array_index (rows, WsListingLine, k).line;

          wanted = l >= b->start && l <= b->close;
        }
      if (wanted)
        g_array_append_val (raw, ((WsListingRange) { b->start, b->close }));
    }
  for (guint k = 0; k < rows->len; k++)
    {
      guint l = g_array_index (rows, WsListingLine, k).line;

      g_array_append_val (raw, ((WsListingRange) { l, l }));
    }
  g_array_sort (raw, by_first);
  for (guint i = 0; i < raw->len; i++)
    {
      WsListingRange r = g_array_index (raw, WsListingRange, i);
      WsListingRange *tail = ranges->len ? &g_array_index (ranges, WsListingRange, ranges->len - 1) : NULL;

      if (tail && r.first <= tail->last + 1)
        tail->last = MAX (tail->last, r.last);
      else
        g_array_append_val (ranges, r);
    }
  return ranges;
}

/* ------------------------------------------------------------------ */
/* The numbers                                                        */
/* ------------------------------------------------------------------ */

/* As the truth table has it: further apart than its tolerance. */
static gboolean
differs (double model,
         double hardware)
{
  return !isnan (hardware) && fabs (model - hardware) > WS_TRUTH_TOLERANCE * MAX (fabs (model), fabs (hardware));
}

static WsListingLine
listing_line (const WsKernelLine *l)
{
  WsListingLine r = { .line = l->line, .time_share = l->time_share, .hw_bytes_moved = NAN, .hw_wavefronts = NAN };

  r.bytes_asked = (double) (l->global.bytes_requested + l->local.bytes_requested);
  r.bytes_moved = (double) (l->global.bytes_moved + l->local.bytes_moved);
  r.wavefronts = (double) l->shared.wavefronts;
  r.ideal_wavefronts = (double) l->shared.ideal_wavefronts;
  r.mismatch = l->mismatch;
  if (l->measured)
    {
      double local = isnan (l->hw.local_sectors) ? 0 : l->hw.local_sectors;

      if ((l->flags & (WS_KERNEL_LINE_GLOBAL | WS_KERNEL_LINE_LOCAL)) && !isnan (l->hw.global_sectors))
        r.hw_bytes_moved = (l->hw.global_sectors + local) * 32;
      if ((l->flags & WS_KERNEL_LINE_SHARED) && !isnan (l->hw.shared_wavefronts))
        r.hw_wavefronts = l->hw.shared_wavefronts;
    }
  r.bytes_differ = differs (r.bytes_moved, r.hw_bytes_moved);
  r.wavefronts_differ = differs (r.wavefronts, r.hw_wavefronts);
  return r;
}

/* "grid (32, 32, 1) of blocks (32, 8, 1) · predicted 0.0452 ms, bound by
 * DRAM bandwidth · measured: the counters differ on 1 line" */
static char *
subtitle_of (const WsKernelInstance *instance,
             const WsKernelLines    *lines)
{
  WsDim3 grid = ws_kernel_instance_get_grid (instance), block = ws_kernel_instance_get_block (instance);
  GString *s = g_string_new (NULL);
  WsBound bound;
  double ms;

  /* Translators: a kernel's launch: its grid and its block, each x, y, z */
  g_string_append_printf (s, FG_("grid (%u, %u, %u) of blocks (%u, %u, %u)"), grid.x, grid.y, grid.z, block.x,
                          block.y, block.z);
  if (ws_kernel_lines_get_timing (lines, &bound, &ms))
    {
      g_string_append (s, " · ");
      /* Translators: the model's time for the kernel, in ms, and what bounds it ("DRAM bandwidth") */
      g_string_append_printf (s, FG_("predicted %.3g ms, bound by %s"), ms, FG_(ws_bound_describe (bound)));
    }
  if (ws_kernel_lines_get_measured (lines))
    {
      guint n = ws_kernel_lines_get_n_mismatches (lines);

      g_string_append (s, " · ");
      if (n == 0)
        g_string_append (s, FG_("measured: the counters agree with the model on every line"));
      else
        /* Translators: how many source lines the hardware's counters and the model disagree on */
        g_string_append_printf (s, NG_("measured: the counters differ from the model on %u line (≠)",
                                       "measured: the counters differ from the model on %u lines (≠)", n), n);
    }
  return g_string_free (s, FALSE);
}

WsPlotListing *
ws_plot_listing_new (const WsKernelInstance   *instance,
                     const WsKernelPrediction *prediction,
                     const WsMeasurement      *measurement,
                     const char               *title)
{
  WsPlotListing *p;
  const char *name;

  g_return_val_if_fail (instance != NULL && prediction != NULL, NULL);

  p = g_new0 (WsPlotListing, 1);
  name = ws_kernel_instance_get_kernel_name (instance);
  p->lines = ws_kernel_lines_new (instance, prediction, measurement);
  p->rows = g_array_new (FALSE, FALSE, sizeof (WsListingLine));
  for (guint i = 0; i < ws_kernel_lines_get_n_lines (p->lines); i++)
    {
      WsListingLine l = listing_line (ws_kernel_lines_get_line (p->lines, i));

      g_array_append_val (p->rows, l);
    }
  p->text = g_strdup (ws_kernel_file_get_text (ws_kernel_instance_get_file (instance)));
  p->title = g_strdup (title ? title : name);
  p->subtitle = subtitle_of (instance, p->lines);
  p->ranges = listing_ranges (p->text, name, p->rows);
  p->figure = (WsListingFigure) {
    .title = p->title,
    .subtitle = p->subtitle,
    .text = p->text,
    .ranges = (const WsListingRange *) (gpointer) p->ranges->data,
    .n_ranges = p->ranges->len,
    .lines = (const WsListingLine *) (gpointer) p->rows->data,
    .n_lines = p->rows->len,
    .measured = ws_kernel_lines_get_measured (p->lines),
  };
  return p;
}

const WsListingFigure *
ws_plot_listing_figure (const WsPlotListing *listing)
{
  g_return_val_if_fail (listing != NULL, NULL);
  return &listing->figure;
}

const WsKernelLines *
ws_plot_listing_lines (const WsPlotListing *listing)
{
  g_return_val_if_fail (listing != NULL, NULL);
  return listing->lines;
}

void
ws_plot_listing_draw (cairo_t                  *cr,
                      const WsKernelInstance   *instance,
                      const WsKernelPrediction *prediction,
                      const WsMeasurement      *measurement,
                      const WsFigureStyle      *style,
                      double                    width,
                      double                    height)
{
  g_autoptr (WsPlotListing) listing = ws_plot_listing_new (instance, prediction, measurement, NULL);

  ws_listing_figure_draw (cr, style, width, height, &listing->figure);
}

gboolean
ws_plot_listing_export (const char               *path,
                        WsExportFormat            format,
                        double                    width,
                        double                    height,
                        double                    scale,
                        const WsFigureStyle      *style,
                        const WsKernelInstance   *instance,
                        const WsKernelPrediction *prediction,
                        const WsMeasurement      *measurement,
                        GError                  **error)
{
  g_autoptr (WsPlotListing) listing = NULL;

  g_return_val_if_fail (path != NULL && instance != NULL && prediction != NULL, FALSE);

  listing = ws_plot_listing_new (instance, prediction, measurement, NULL);
  return ws_export_drawing (path, format, width, height, scale, style, ws_listing_figure_draw, &listing->figure,
                            error);
}
