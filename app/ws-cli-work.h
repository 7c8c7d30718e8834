/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ws-analysis.h"

G_BEGIN_DECLS

/* Long work of the model (a launch analysed, a kernel's launch run) on a
 * thread of its own, while this one draws its progress on a terminal
 * after half a second and Ctrl+C cancels it (G_IO_ERROR_CANCELLED). */
typedef gpointer (*WsCliWorkFunc) (gpointer            data,
                                   GCancellable       *cancellable,
                                   WsAnalysisProgress *progress,
                                   GError            **error);

gpointer ws_cli_run_work (WsCliWorkFunc  func,
                          gpointer       data,
                          const char    *what,
                          GError       **error);

G_END_DECLS
