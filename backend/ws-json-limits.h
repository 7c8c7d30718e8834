/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* What JSON from outside (a recording, a worker's line) is checked for before
 * json-glib reads it: json-glib's parser recurses once per level of nesting,
 * so a file of a hundred thousand “[” would exhaust the stack. */

#define WS_JSON_MAX_DEPTH 32

/* FALSE and a G_IO_ERROR_INVALID_DATA error that says where, if arrays and
 * objects nest more than max_depth deep (strings are skipped, escapes
 * included). */
gboolean ws_json_check_depth (const char *data,
                              gsize       length,
                              guint       max_depth,
                              GError    **error);

G_END_DECLS
