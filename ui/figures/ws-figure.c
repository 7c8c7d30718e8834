/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "ws-figure-private.h"

#include <math.h>

static const struct
{
  const char *name;
  const char *title;
} kinds[WS_N_FIGURES] = {
  [WS_FIGURE_WARP] = { "warp", N_("Sectors") },
  [WS_FIGURE_BANKS] = { "banks", N_("Banks") },
  [WS_FIGURE_CONSTANT] = { "constant", N_("Constant cache") },
  [WS_FIGURE_LOCAL] = { "local", N_("Private array") },
  [WS_FIGURE_ATOMICS] = { "atomics", N_("Contention") },
};

const char *
ws_figure_kind_to_string (WsFigureKind kind)
{
  g_return_val_if_fail (kind < WS_N_FIGURES, NULL);
  return kinds[kind].name;
}

const char *
ws_figure_kind_title (WsFigureKind kind)
{
  g_return_val_if_fail (kind < WS_N_FIGURES, NULL);
  return FG_(kinds[kind].title);
}

gboolean
ws_figure_kind_from_string (const char   *name,
                            WsFigureKind *kind)
{
  for (guint i = 0; i < WS_N_FIGURES; i++)
    if (g_strcmp0 (kinds[i].name, name) == 0)
      {
        *kind = i;
        return TRUE;
      }
  return FALSE;
}

gboolean
ws_figure_applies (WsFigureKind kind,
                   WsSpace      space,
                   WsAccessKind access)
{
  switch (kind)
    {
    case WS_FIGURE_WARP:
      return space == WS_SPACE_GLOBAL || space == WS_SPACE_LOCAL || space == WS_SPACE_REGISTER;
    case WS_FIGURE_BANKS:
      return space == WS_SPACE_SHARED;
    case WS_FIGURE_CONSTANT:
      return space == WS_SPACE_CONSTANT;
    case WS_FIGURE_LOCAL:
      return space == WS_SPACE_LOCAL;
    case WS_FIGURE_ATOMICS:
      return access == WS_ACCESS_ATOMIC && (space == WS_SPACE_GLOBAL || space == WS_SPACE_SHARED);
    case WS_N_FIGURES:
    default:
      return FALSE;
    }
}

guint
ws_figure_kinds_for (const WsWarpResult *result,
                     WsFigureKind        out[WS_N_FIGURES])
{
  /* the view that explains the cost comes first */
  static const WsFigureKind order[] = {
    WS_FIGURE_ATOMICS, WS_FIGURE_LOCAL, WS_FIGURE_WARP, WS_FIGURE_BANKS, WS_FIGURE_CONSTANT,
  };
  guint n = 0;

  g_return_val_if_fail (result != NULL, 0);
  for (guint i = 0; i < G_N_ELEMENTS (order); i++)
    if (ws_figure_applies (order[i], result->space, result->kind))
      out[n++] = order[i];
  return n;
}

/* Where the animation is, top right: part of the figure, so that a frame
 * exported or put on a slide says which step it shows. */
static void
draw_step_counter (WsFigureContext     *ctx,
                   const WsFigureFrame *frame)
{
  guint n = frame->result->steps->len;
  WsTextOptions o = { .size = ctx->style->font_size, .ax = 1, .ay = 0, .flags = WS_TEXT_BOLD };
  char text[64];

  if (ws_figure_counter_width (ctx, frame) <= 0)
    return;
  if (frame->position >= n)
    g_snprintf (text, sizeof text, NG_("%u step", "%u steps", n), n);
  else if (frame->position == floor (frame->position))
    /* between two steps (paused, or drawn after N steps): how many are done.
     * Translators: the steps served so far, then how many there are */
    g_snprintf (text, sizeof text, NG_("%u of %u step served", "%u of %u steps served", n),
                (guint) frame->position, n);
  else
    /* Translators: the step shown and the number of steps */
    g_snprintf (text, sizeof text, FG_("step %u of %u"), (guint) floor (frame->position) + 1, n);
  ws_figure_set_color (ctx, frame->position >= n ? ctx->style->muted : ctx->style->foreground);
  ws_figure_text (ctx, ctx->width - WS_FIGURE_MARGIN, WS_FIGURE_MARGIN, text, &o, NULL, NULL);
}

typedef void (*DrawFunc) (WsFigureContext *, const WsFigureFrame *);
typedef gboolean (*HitFunc) (WsFigureContext *, const WsFigureFrame *, double, double, WsFigureHit *);
typedef char *(*DescribeFunc) (const WsFigureFrame *, const WsFigureHit *);
typedef WsFigureNeeds (*NeedsFunc) (WsFigureContext *, const WsFigureFrame *);

static const struct
{
  DrawFunc draw;
  HitFunc hit;
  DescribeFunc describe;
  NeedsFunc needs;
} renderers[WS_N_FIGURES] = {
  [WS_FIGURE_WARP] = { ws_warp_figure_draw, ws_warp_figure_hit, ws_warp_figure_describe, ws_warp_figure_needs },
  [WS_FIGURE_BANKS] = { ws_bank_figure_draw, ws_bank_figure_hit, ws_bank_figure_describe, ws_bank_figure_needs },
  [WS_FIGURE_CONSTANT] = { ws_constant_figure_draw, ws_constant_figure_hit, ws_constant_figure_describe,
                           ws_constant_figure_needs },
  [WS_FIGURE_LOCAL] = { ws_local_figure_draw, ws_local_figure_hit, ws_local_figure_describe, ws_local_figure_needs },
  [WS_FIGURE_ATOMICS] = { ws_atomic_figure_draw, ws_atomic_figure_hit, ws_atomic_figure_describe,
                          ws_atomic_figure_needs },
};

static WsFigureNeeds
needs_at (WsFigureKind         kind,
          const WsFigureFrame *frame,
          const WsFigureStyle *style,
          double               width)
{
  WsFigureContext ctx;
  WsFigureNeeds needs;

  ws_figure_context_init_measure (&ctx, style, width, 0);
  needs = renderers[kind].needs (&ctx, frame);
  ws_figure_context_clear (&ctx);
  return (WsFigureNeeds) { ceil (needs.width), ceil (needs.height), ceil (MAX (needs.height, needs.natural)) };
}

double
ws_figure_min_width (WsFigureKind         kind,
                     const WsFigureFrame *frame,
                     const WsFigureStyle *style)
{
  g_return_val_if_fail (kind < WS_N_FIGURES, 0);
  g_return_val_if_fail (frame != NULL && frame->result != NULL && style != NULL, 0);

  return needs_at (kind, frame, style, 1000).width;
}

double
ws_figure_min_height (WsFigureKind         kind,
                      const WsFigureFrame *frame,
                      const WsFigureStyle *style,
                      double               width)
{
  g_return_val_if_fail (kind < WS_N_FIGURES, 0);
  g_return_val_if_fail (frame != NULL && frame->result != NULL && style != NULL, 0);

  return needs_at (kind, frame, style, MAX (width, ws_figure_min_width (kind, frame, style))).height;
}

static gboolean
fits (WsFigureContext     *ctx,
      WsFigureKind         kind,
      const WsFigureFrame *frame,
      WsFigureNeeds       *needs)
{
  *needs = renderers[kind].needs (ctx, frame);
  return ctx->width >= floor (needs->width) && ctx->height >= floor (needs->height);
}

void
ws_figure_draw_too_small (cairo_t             *cr,
                          const WsFigureStyle *style,
                          double               width,
                          double               height,
                          const char          *what,
                          double               need_width,
                          double               need_height)
{
  /* Translators: what is too small ("view", "chart" or "comparison"), then the
   * width and height it needs, in pixels */
  g_autofree char *message = g_strdup_printf (FG_("Too small to draw legibly: this %s needs %.0f × %.0f"), what,
                                              ceil (MAX (need_width, width)), ceil (MAX (need_height, height)));
  double m = MIN (WS_FIGURE_MARGIN, width / 8);
  WsFigureContext ctx;

  ws_figure_context_init (&ctx, cr, style, width, height);
  ws_figure_draw_message (&ctx, (WsBox) { m, m, MAX (1, width - 2 * m), MAX (1, height - 2 * m) }, message);
  ws_figure_context_clear (&ctx);
}

void
ws_figure_draw (WsFigureKind         kind,
                cairo_t             *cr,
                const WsFigureFrame *frame,
                const WsFigureStyle *style,
                double               width,
                double               height)
{
  WsFigureContext ctx;
  WsFigureNeeds needs;

  g_return_if_fail (kind < WS_N_FIGURES);
  g_return_if_fail (frame != NULL && frame->result != NULL);

  cairo_save (cr);
  ws_figure_context_init (&ctx, cr, style, width, height);
  cairo_set_line_width (cr, style->line_width);
  if (!fits (&ctx, kind, frame, &needs))
    {
      if (frame->layers != WS_FIGURE_LAYERS_PACKETS)
        ws_figure_draw_too_small (cr, style, width, height, FG_("view"), needs.width, needs.height);
    }
  else
    {
      renderers[kind].draw (&ctx, frame);
      if (frame->layers != WS_FIGURE_LAYERS_PACKETS)
        draw_step_counter (&ctx, frame);
    }
  ws_figure_context_clear (&ctx);
  cairo_restore (cr);
}

double
ws_figure_natural_height (WsFigureKind         kind,
                          const WsFigureFrame *frame,
                          const WsFigureStyle *style,
                          double               width)
{
  g_return_val_if_fail (kind < WS_N_FIGURES, 0);
  g_return_val_if_fail (frame != NULL && frame->result != NULL && style != NULL, 0);

  return needs_at (kind, frame, style, MAX (width, ws_figure_min_width (kind, frame, style))).natural;
}

gboolean
ws_figure_hit_test (WsFigureKind         kind,
                    const WsFigureFrame *frame,
                    const WsFigureStyle *style,
                    double               width,
                    double               height,
                    double               x,
                    double               y,
                    WsFigureHit         *hit)
{
  WsFigureContext ctx;
  WsFigureNeeds needs;
  gboolean found = FALSE;

  g_return_val_if_fail (kind < WS_N_FIGURES, FALSE);
  g_return_val_if_fail (frame != NULL && frame->result != NULL && hit != NULL, FALSE);

  *hit = WS_FIGURE_HIT_NONE;
  ws_figure_context_init_measure (&ctx, style, width, height);
  if (fits (&ctx, kind, frame, &needs))
    found = renderers[kind].hit (&ctx, frame, x, y, hit);
  ws_figure_context_clear (&ctx);
  return found;
}

char *
ws_figure_describe (WsFigureKind         kind,
                    const WsFigureFrame *frame,
                    const WsFigureHit   *hit)
{
  g_return_val_if_fail (kind < WS_N_FIGURES, NULL);
  g_return_val_if_fail (frame != NULL && frame->result != NULL && hit != NULL, NULL);

  if (hit->kind == WS_HIT_NONE)
    return NULL;
  if (hit->kind == WS_HIT_LANE)
    return ws_figure_describe_lane (frame, hit->index);
  return renderers[kind].describe (frame, hit);
}

gboolean
ws_figure_hit_equal (const WsFigureHit *a,
                     const WsFigureHit *b)
{
  return a->kind == b->kind && a->index == b->index && a->address == b->address && a->step == b->step;
}

/* ------------------------------------------------------------------ */
/* The schedule                                                       */
/* ------------------------------------------------------------------ */

void
ws_schedule_init (WsSchedule         *s,
                  const WsWarpResult *result,
                  double              position)
{
  s->n_steps = result->steps->len;
  s->position = CLAMP (position, 0, s->n_steps);
  s->current = s->position < s->n_steps ? (int) floor (s->position) : -1;
  s->t = s->current >= 0 ? s->position - s->current : 0;
  for (guint l = 0; l < WS_WARP_SIZE; l++)
    s->first_step[l] = s->last_step[l] = -1;
  for (guint i = 0; i < s->n_steps; i++)
    {
      guint32 lanes = ws_warp_result_step (result, i)->lanes;
      for (guint l = 0; l < WS_WARP_SIZE; l++)
        if (lanes & (1u << l))
          {
            if (s->first_step[l] < 0)
              s->first_step[l] = i;
            s->last_step[l] = i;
          }
    }
}

WsStepState
ws_schedule_step_state (const WsSchedule *s,
                        guint             step)
{
  if ((int) step == s->current)
    return WS_STEP_SERVING;
  return step + 1 <= s->position ? WS_STEP_DONE : WS_STEP_PENDING;
}

WsLaneState
ws_schedule_lane_state (const WsSchedule   *s,
                        const WsWarpResult *result,
                        guint               lane)
{
  g_assert (lane < WS_WARP_SIZE);

  if (!(result->active & (1u << lane)) || s->last_step[lane] < 0)
    return WS_LANE_INACTIVE;
  if (s->last_step[lane] + 1 <= s->position)
    return WS_LANE_SERVED;
  if (s->current >= s->first_step[lane] && s->current <= s->last_step[lane])
    return WS_LANE_SERVING;
  return WS_LANE_WAITING;
}

gboolean
ws_box_contains (const WsBox *box,
                 double       x,
                 double       y)
{
  return x >= box->x && x < box->x + box->w && y >= box->y && y < box->y + box->h;
}
