/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* JSON text with its fractional numbers rewritten in the shortest form that
 * reads back as the same double (3352.32, not json-glib's
 * 3352.3200000000002; 3.0 stays a fraction); strings and integers are left
 * as they are. GLib only: whatever made the text. */
char *ws_json_shortest_numbers (const char *text);

G_END_DECLS
