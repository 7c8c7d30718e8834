/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-window.h"

G_BEGIN_DECLS

/* warpscope --benchmark: frame times of the animation while a sweep runs,
 * the longest the main loop was held, the first frame; printed, then quit. */
void ws_benchmark_run        (WsWindow   *window);
/* warpscope --screenshot FILE: once the window has settled, a PNG, then quit. */
void ws_benchmark_screenshot (WsWindow   *window,
                              const char *path);

G_END_DECLS
