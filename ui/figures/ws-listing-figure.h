/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <cairo.h>

#include "ws-figure-context.h"
#include "ws-figure-style.h"

G_BEGIN_DECLS

/* The annotated listing: a kernel's source, line by line, with bars beside
 * each line that has memory instructions: the bytes its sectors moved
 * against the bytes its lanes asked for (global and local memory), the
 * shared-memory wavefronts against the fewest its words need, and its
 * share of the predicted time; a measurement's figures as ticks on the
 * bars, and a mark where they differ from the model's. Course material:
 * on screen, in slides (1280 × 720) and on paper (A4), nothing cut. A long
 * kernel folds the runs of lines without memory instructions ("⋮ 12
 * lines"), and so do the lines between the ranges it shows (another
 * kernel of the file between a device function and its kernel).
 *
 * The figure computes nothing: WsListingFigure holds the numbers
 * (ui/plots/ws-plot-listing.h makes it from a model and a measurement). */

typedef struct
{
  guint line;                  /* 1-based, in text */
  double bytes_asked;          /* global and local; 0 where the line has none */
  double bytes_moved;
  double wavefronts;           /* shared; 0 where the line has none */
  double ideal_wavefronts;
  double time_share;           /* 0 … 1; NAN when unknown */
  double hw_bytes_moved;       /* the measurement's (sectors × 32); NAN when none */
  double hw_wavefronts;        /* NAN when none */
  gboolean bytes_differ;       /* the measured bytes are not the model's (its tick is marked) */
  gboolean wavefronts_differ;
  gboolean mismatch;           /* model and counters differ on this line, in these or other figures */
} WsListingLine;

/* Lines first … last of the text, from 1. */
typedef struct
{
  guint first;
  guint last;
} WsListingRange;

typedef struct
{
  const char *title;           /* "transposeCoalesced", or NULL */
  const char *subtitle;        /* the launch and the time, or NULL */
  const char *text;            /* the whole source */
  const WsListingRange *ranges; /* the lines shown, in order (lines with figures are
                                * shown whatever they say); none: all */
  guint n_ranges;
  const WsListingLine *lines;  /* the lines with memory instructions, by line */
  guint n_lines;
  gboolean measured;           /* a measurement is shown */
} WsListingFigure;

typedef enum
{
  WS_LISTING_BAR_BYTES,        /* bytes moved against bytes asked */
  WS_LISTING_BAR_WAVEFRONTS,   /* wavefronts against the fewest possible */
  WS_LISTING_BAR_TIME,         /* share of the predicted time */
  WS_N_LISTING_BARS
} WsListingBar;

/* A WsExportDrawFunc: user_data is the WsListingFigure. */
void     ws_listing_figure_draw       (cairo_t               *cr,
                                       const WsFigureStyle   *style,
                                       double                 width,
                                       double                 height,
                                       gpointer               figure);
/* Where the bar of a line is drawn at that size (its whole length, the
 * longest bar of its column being the column's width); FALSE where the
 * line has no such bar, or is folded away. */
gboolean ws_listing_figure_bar_box    (const WsListingFigure *figure,
                                       const WsFigureStyle   *style,
                                       double                 width,
                                       double                 height,
                                       guint                  line,
                                       WsListingBar           bar,
                                       WsBox                 *box);
/* The height at which nothing folds, at a width. */
double   ws_listing_figure_natural_height (const WsListingFigure *figure,
                                       const WsFigureStyle   *style,
                                       double                 width);

G_END_DECLS
