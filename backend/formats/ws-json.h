/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* JSON as Warpscope writes and reads it, for recordings, the GPU worker's
 * lines and the model's results alike. */

/* ------------------------------------------------------------------ */
/* Writing                                                            */
/* ------------------------------------------------------------------ */

/* A member of the object being built. Doubles are written so that every
 * parser reads them back (json-glib 1.6 writes 1e-05 as "1e-05.0"); JSON
 * has no NaN or infinity, which become 0. A NULL string becomes "". */
void        ws_json_add_int          (JsonBuilder        *b,
                                      const char         *name,
                                      gint64              value);
void        ws_json_add_double       (JsonBuilder        *b,
                                      const char         *name,
                                      double              value);
void        ws_json_add_string       (JsonBuilder        *b,
                                      const char         *name,
                                      const char         *value);
void        ws_json_add_bool         (JsonBuilder        *b,
                                      const char         *name,
                                      gboolean            value);
/* The same for an element of an array. */
void        ws_json_add_double_value (JsonBuilder        *b,
                                      double              value);

/* ------------------------------------------------------------------ */
/* Reading what comes from outside                                    */
/* ------------------------------------------------------------------ */

/* What JSON from outside (a recording, a worker's line) is checked for before
 * json-glib reads it: json-glib's parser recurses once per level of nesting,
 * so a file of a hundred thousand “[” would exhaust the stack. */

#define WS_JSON_MAX_DEPTH 32

/* FALSE and a G_IO_ERROR_INVALID_DATA error that says where, if arrays and
 * objects nest more than max_depth deep (strings are skipped, escapes
 * included), or if a whole number is beyond 64 bits (which json-glib would
 * wrap: 99999999999999999999 reads as -1). */
gboolean    ws_json_check_depth      (const char         *data,
                                      gsize               length,
                                      guint               max_depth,
                                      GError            **error);

/* How a reader reports what it finds wrong: an error of this domain and code
 * whose message is prefix, the value's path and what is wrong with it:
 * "measurements[2].median_ms: expected a number, found a string". */
typedef struct
{
  GQuark (*domain) (void);
  int code;
  const char *prefix;        /* "" or "pattern " */
} WsJsonErrors;

/* Always FALSE, for `return ws_json_invalid (…)`. */
gboolean    ws_json_invalid          (const WsJsonErrors *e,
                                      GError            **error,
                                      const char         *path,
                                      const char         *format,
                                      ...) G_GNUC_PRINTF (4, 5);
/* "an integer", "a string", "an object"…: what a node holds, in English. */
const char *ws_json_kind_of          (JsonNode           *node);

/* What a reader expected, for ws_json_wrong_kind (). */
typedef enum
{
  WS_JSON_KIND_STRING,
  WS_JSON_KIND_INTEGER,
  WS_JSON_KIND_NUMBER,
  WS_JSON_KIND_BOOLEAN,
  WS_JSON_KIND_OBJECT,
  WS_JSON_KIND_ARRAY,
} WsJsonKind;

/* Always FALSE, with the error "PATH: expected an object, found an array"
 * in the user's language, a sentence for each pair; node NULL: "found
 * nothing". */
gboolean    ws_json_wrong_kind       (const WsJsonErrors *e,
                                      GError            **error,
                                      const char         *path,
                                      WsJsonKind          expected,
                                      JsonNode           *node);
gboolean    ws_json_holds            (JsonNode           *node,
                                      GType               type);
/* Line breaks and tabs may be in text from outside; nothing else a
 * terminal would act on. */
gboolean    ws_json_text_is_clean    (const char         *text);

/* A member that is a string (or a boolean), else otherwise: unlike
 * json-glib's *_with_default, no critical when the member is an object or
 * an array, as a file or a worker may send. */
const char *ws_json_string_or        (JsonObject         *o,
                                      const char         *member,
                                      const char         *otherwise);
gboolean    ws_json_bool_or          (JsonObject         *o,
                                      const char         *member,
                                      gboolean            otherwise);

/* The node as JSON text (pretty or not), its fractional numbers written in
 * the shortest form that reads back as the same double (3352.32, not
 * json-glib's 3352.3200000000002). */
char       *ws_json_to_text          (JsonNode           *node,
                                      gboolean            pretty);

/* Member name of o, at path (*full receives "path.name"); NULL and an
 * error if missing. The readers below check its type, and the range of
 * numbers; strings must be UTF-8 with no control character. */
JsonNode   *ws_json_member           (const WsJsonErrors *e,
                                      JsonObject         *o,
                                      const char         *path,
                                      const char         *name,
                                      char              **full,
                                      GError            **error);
gboolean    ws_json_read_string      (const WsJsonErrors *e,
                                      JsonObject         *o,
                                      const char         *path,
                                      const char         *name,
                                      char              **out,
                                      GError            **error);
gboolean    ws_json_check_int        (const WsJsonErrors *e,
                                      JsonNode           *node,
                                      const char         *path,
                                      gint64              min,
                                      gint64              max,
                                      gint64             *out,
                                      GError            **error);
gboolean    ws_json_read_int64       (const WsJsonErrors *e,
                                      JsonObject         *o,
                                      const char         *path,
                                      const char         *name,
                                      gint64              min,
                                      gint64              max,
                                      gint64             *out,
                                      GError            **error);
gboolean    ws_json_read_int         (const WsJsonErrors *e,
                                      JsonObject         *o,
                                      const char         *path,
                                      const char         *name,
                                      int                 min,
                                      int                 max,
                                      int                *out,
                                      GError            **error);
gboolean    ws_json_check_double     (const WsJsonErrors *e,
                                      JsonNode           *node,
                                      const char         *path,
                                      double              min,
                                      double              max,
                                      double             *out,
                                      GError            **error);
gboolean    ws_json_read_double      (const WsJsonErrors *e,
                                      JsonObject         *o,
                                      const char         *path,
                                      const char         *name,
                                      double              min,
                                      double              max,
                                      double             *out,
                                      GError            **error);
gboolean    ws_json_read_bool        (const WsJsonErrors *e,
                                      JsonObject         *o,
                                      const char         *path,
                                      const char         *name,
                                      gboolean           *out,
                                      GError            **error);
JsonObject *ws_json_read_object      (const WsJsonErrors *e,
                                      JsonObject         *o,
                                      const char         *path,
                                      const char         *name,
                                      GError            **error);
JsonArray  *ws_json_read_array       (const WsJsonErrors *e,
                                      JsonObject         *o,
                                      const char         *path,
                                      const char         *name,
                                      GError            **error);

G_END_DECLS
