/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "ws-l2-window.h"

void
ws_l2_residency (const WsL2Window *w,
                 WsL2Residency    *out)
{
  gint64 window = MIN (w->window_bytes, w->hot_bytes);

  g_return_if_fail (w != NULL && out != NULL);
  *out = (WsL2Residency) { 0 };
  out->persisting_bytes = w->set_aside_bytes > 0 ? (gint64) (CLAMP (w->hit_ratio, 0, 1) * MAX (window, 0)) : 0;
  /* read cyclically, more persisting lines than the set-aside holds evict
   * each other before they are read again */
  out->thrashing = out->persisting_bytes > w->set_aside_bytes;
  out->persisting_resident = out->thrashing ? 0 : out->persisting_bytes;
  out->normal_bytes = MAX (0, w->hot_bytes - out->persisting_bytes);
  out->normal_capacity = MAX (0, w->l2_bytes - MIN (out->persisting_bytes, w->set_aside_bytes));
  out->normal_resident = out->normal_bytes + w->streamed_bytes <= out->normal_capacity ? out->normal_bytes : 0;
  out->resident_fraction = w->hot_bytes > 0
                             ? (double) (out->persisting_resident + out->normal_resident) / w->hot_bytes
                             : 0;
}
