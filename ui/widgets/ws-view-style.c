/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "ws-view-style.h"

#include <adwaita.h>

struct _WsViewStyle
{
  GObject parent_instance;

  double text_scale;
};

enum
{
  CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (WsViewStyle, ws_view_style, G_TYPE_OBJECT)

static void
ws_view_style_class_init (WsViewStyleClass *klass)
{
  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                   G_TYPE_NONE, 0);
}

static void
on_dark_changed (WsViewStyle *self)
{
  g_signal_emit (self, signals[CHANGED], 0);
}

static void
ws_view_style_init (WsViewStyle *self)
{
  self->text_scale = 1;
  g_signal_connect_object (adw_style_manager_get_default (), "notify::dark", G_CALLBACK (on_dark_changed), self,
                           G_CONNECT_SWAPPED);
}

WsViewStyle *
ws_view_style_get_default (void)
{
  static WsViewStyle *instance;

  /* the main thread's: the views draw in threads with the style they were given */
  if (instance == NULL)
    instance = g_object_new (WS_TYPE_VIEW_STYLE, NULL);
  return instance;
}

const WsFigureStyle *
ws_view_style_get (void)
{
  gboolean dark = adw_style_manager_get_dark (adw_style_manager_get_default ());

  return ws_figure_style_get_scaled (dark ? WS_FIGURE_STYLE_DARK : WS_FIGURE_STYLE_LIGHT,
                                     ws_view_style_get_default ()->text_scale);
}

double
ws_view_style_get_text_scale (void)
{
  return ws_view_style_get_default ()->text_scale;
}

void
ws_view_style_set_text_scale (double scale)
{
  WsViewStyle *self = ws_view_style_get_default ();

  scale = CLAMP (scale, 1, 3);
  if (scale == self->text_scale)
    return;
  self->text_scale = scale;
  g_signal_emit (self, signals[CHANGED], 0);
}
