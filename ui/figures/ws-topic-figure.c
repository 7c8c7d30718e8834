/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The views of a whole launch a topic is about, drawn by the renderers of
 * ws-occupancy-figure.c, ws-timeline-figure.c and ws-l2-figure.c. */
#include "ws-topic-figure.h"
#include "ws-figure-private.h"

#include <math.h>

static const struct
{
  const char *name;
  const char *title;
  const char *topic;
} views[WS_N_TOPIC_VIEWS] = {
  [WS_TOPIC_VIEW_OCCUPANCY] = { "occupancy", N_("Occupancy"), "occupancy" },
  [WS_TOPIC_VIEW_TIMELINE] = { "timeline", N_("Streams"), "transfer" },
  [WS_TOPIC_VIEW_L2] = { "l2", N_("L2"), "l2" },
};

const char *
ws_topic_view_to_string (WsTopicView view)
{
  g_return_val_if_fail (view < WS_N_TOPIC_VIEWS, NULL);
  return views[view].name;
}

gboolean
ws_topic_view_from_string (const char  *name,
                           WsTopicView *view)
{
  for (guint i = 0; i < WS_N_TOPIC_VIEWS; i++)
    if (g_strcmp0 (views[i].name, name) == 0)
      {
        *view = i;
        return TRUE;
      }
  return FALSE;
}

const char *
ws_topic_view_title (WsTopicView view)
{
  g_return_val_if_fail (view < WS_N_TOPIC_VIEWS, NULL);
  return FG_(views[view].title);
}

gboolean
ws_topic_view_for (const WsPreset *preset,
                   WsTopicView    *view)
{
  if (preset == NULL)
    return FALSE;
  for (guint i = 0; i < WS_N_TOPIC_VIEWS; i++)
    if (g_strcmp0 (views[i].topic, preset->topic) == 0)
      {
        *view = i;
        return TRUE;
      }
  return FALSE;
}

/* ------------------------------------------------------------------ */

WsTopicFigure *
ws_topic_figure_new (WsTopicView  view,
                     const char  *title,
                     const char  *subtitle)
{
  WsTopicFigure *f = g_new0 (WsTopicFigure, 1);

  g_return_val_if_fail (view < WS_N_TOPIC_VIEWS, f);
  f->view = view;
  f->title = g_strdup (title);
  f->subtitle = g_strdup (subtitle);
  return f;
}

/* Its own strings and bars, the renderers' structs pointing at them. */
static void
point_into (WsTopicFigure *f)
{
  f->occupancy.title = f->title;
  f->l2.title = f->title;
  f->timeline.title = f->title;
  f->timeline.subtitle = f->subtitle;
  if (f->bars)
    {
      f->timeline.bars = (const WsTimelineBar *) (void *) f->bars->data;
      f->timeline.n_bars = f->bars->len;
    }
}

WsTopicFigure *
ws_topic_figure_copy (const WsTopicFigure *figure)
{
  WsTopicFigure *f;

  g_return_val_if_fail (figure != NULL, NULL);
  f = g_memdup2 (figure, sizeof *figure);
  f->title = g_strdup (figure->title);
  f->subtitle = g_strdup (figure->subtitle);
  f->message = g_strdup (figure->message);
  if (figure->bars)
    {
      f->bars = g_array_new (FALSE, FALSE, sizeof (WsTimelineBar));
      g_array_append_vals (f->bars, figure->bars->data, figure->bars->len);
    }
  point_into (f);
  return f;
}

void
ws_topic_figure_free (WsTopicFigure *figure)
{
  if (figure == NULL)
    return;
  g_free (figure->title);
  g_free (figure->subtitle);
  g_free (figure->message);
  g_clear_pointer (&figure->bars, g_array_unref);
  g_free (figure);
}

/* ------------------------------------------------------------------ */
/* Drawing                                                            */
/* ------------------------------------------------------------------ */

/* The least sizes, in lines of body text: the renderers lay their parts
 * out in proportion to the room they have, with text at the body size. The
 * occupancy and L2 views measure their least height, caption and all. */
static const struct
{
  double w, h;
} least[WS_N_TOPIC_VIEWS] = {
  [WS_TOPIC_VIEW_OCCUPANCY] = { 46, 25 },
  [WS_TOPIC_VIEW_TIMELINE] = { 36, 16 },
  [WS_TOPIC_VIEW_L2] = { 40, 23 },
};

double
ws_topic_figure_min_width (const WsTopicFigure *figure,
                           const WsFigureStyle *style)
{
  g_return_val_if_fail (figure != NULL && style != NULL, 0);
  if (figure->message)
    return ceil (style->font_size * 24);
  return ceil (style->font_size * least[figure->view].w);
}

double
ws_topic_figure_min_height (const WsTopicFigure *figure,
                            const WsFigureStyle *style,
                            double               width)
{
  g_return_val_if_fail (figure != NULL && style != NULL, 0);
  if (figure->message)
    return ceil (style->font_size * 14);
  if (figure->view == WS_TOPIC_VIEW_OCCUPANCY)
    return ws_occupancy_figure_min_height (&figure->occupancy, style,
                                           MAX (width, ws_topic_figure_min_width (figure, style)));
  if (figure->view == WS_TOPIC_VIEW_L2)
    return ws_l2_figure_min_height (&figure->l2, style, MAX (width, ws_topic_figure_min_width (figure, style)));
  return ceil (style->font_size * least[figure->view].h);
}

static void
draw_message (cairo_t             *cr,
              const WsTopicFigure *f,
              const WsFigureStyle *style,
              double               width,
              double               height)
{
  WsFigureContext ctx;
  double top;

  ws_figure_context_init (&ctx, cr, style, width, height);
  top = WS_FIGURE_MARGIN + ws_figure_caption (&ctx, WS_FIGURE_MARGIN, WS_FIGURE_MARGIN,
                                              width - 2 * WS_FIGURE_MARGIN, f->title, f->subtitle);
  ws_figure_draw_message (&ctx, (WsBox) { WS_FIGURE_MARGIN, top, MAX (1, width - 2 * WS_FIGURE_MARGIN),
                                          MAX (1, height - top - WS_FIGURE_MARGIN) },
                          f->message);
  ws_figure_context_clear (&ctx);
}

void
ws_topic_figure_draw (cairo_t             *cr,
                      const WsFigureStyle *style,
                      double               width,
                      double               height,
                      gpointer             data)
{
  WsTopicFigure *f = data;
  double min_w = ws_topic_figure_min_width (f, style), min_h = ws_topic_figure_min_height (f, style, width);

  g_return_if_fail (f != NULL);

  point_into (f);
  cairo_save (cr);
  cairo_set_line_width (cr, style->line_width);
  if (width < floor (min_w) || height < floor (min_h))
    ws_figure_draw_too_small (cr, style, width, height, FG_("view"), min_w, min_h);
  else if (f->message)
    draw_message (cr, f, style, width, height);
  else if (f->view == WS_TOPIC_VIEW_OCCUPANCY)
    ws_occupancy_figure_draw (cr, style, width, height, &f->occupancy);
  else if (f->view == WS_TOPIC_VIEW_TIMELINE)
    ws_timeline_figure_draw (cr, style, width, height, &f->timeline);
  else
    ws_l2_figure_draw (cr, style, width, height, &f->l2);
  cairo_restore (cr);
}

char *
ws_topic_figure_describe_at (const WsTopicFigure *figure,
                             const WsFigureStyle *style,
                             double               width,
                             double               height,
                             double               x,
                             double               y)
{
  WsTopicFigure *f = (WsTopicFigure *) figure;

  g_return_val_if_fail (figure != NULL, NULL);
  if (f->message || f->view != WS_TOPIC_VIEW_TIMELINE)
    return NULL;
  point_into (f);
  return ws_timeline_figure_describe (&f->timeline, ws_timeline_figure_hit (&f->timeline, style, width, height, x, y));
}
