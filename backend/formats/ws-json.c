/* SPDX-License-Identifier: GPL-3.0-or-later */
/* JSON as Warpscope writes and reads it (ws-json.h): recordings, the GPU
 * worker's lines and the model's results use these, so a value is written
 * and checked the same way wherever it goes. */
#include "ws-config.h"
#include "ws-json.h"
#include "ws-json-numbers.h"
#include "ws-i18n.h"
#include "ws-model-types.h"

#include <gio/gio.h>
#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Writing                                                            */
/* ------------------------------------------------------------------ */

void
ws_json_add_int (JsonBuilder *b,
                 const char  *name,
                 gint64       value)
{
  json_builder_set_member_name (b, name);
  json_builder_add_int_value (b, value);
}

/* json-glib 1.6 writes a double whose shortest form has an exponent but no
 * point (1e-05) with ".0" after it, which no parser reads: such a number
 * is written as an integer when it is one, else one ulp off. JSON has no
 * NaN or infinity; a measurement never holds one. */
void
ws_json_add_double_value (JsonBuilder *b,
                          double       value)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (!isfinite (value))
    value = 0;
  for (;;)
    {
      g_ascii_dtostr (buf, sizeof buf, value);
      if (!strchr (buf, 'e') || strchr (buf, '.'))
        break;
      if (value == trunc (value) && fabs (value) < 9e18)
        {
          json_builder_add_int_value (b, (gint64) value);
          return;
        }
      value = nextafter (value, INFINITY);
    }
  json_builder_add_double_value (b, value);
}

void
ws_json_add_double (JsonBuilder *b,
                    const char  *name,
                    double       value)
{
  json_builder_set_member_name (b, name);
  ws_json_add_double_value (b, value);
}

void
ws_json_add_string (JsonBuilder *b,
                    const char  *name,
                    const char  *value)
{
  json_builder_set_member_name (b, name);
  json_builder_add_string_value (b, value ? value : "");
}

void
ws_json_add_bool (JsonBuilder *b,
                  const char  *name,
                  gboolean     value)
{
  json_builder_set_member_name (b, name);
  json_builder_add_boolean_value (b, value);
}

/* ------------------------------------------------------------------ */
/* Reading                                                            */
/* ------------------------------------------------------------------ */

/* Whether the digits (no sign, no leading zeros but a lone 0) name a
 * number that 64 bits hold: json-glib wraps one that does not, silently
 * (99999999999999999999 reads as -1). */
static gboolean
fits_int64 (const char *digits,
            gsize       n,
            gboolean    negative)
{
  const char *max = negative ? "9223372036854775808" : "9223372036854775807";

  while (n > 1 && digits[0] == '0')
    digits++, n--;
  if (n != strlen (max))
    return n < strlen (max);
  return strncmp (digits, max, n) <= 0;
}

/* The whole number at data[i], if it is one (a number with a fraction or an
 * exponent is a double, which json-glib reads as one); FALSE with an error
 * that names the member it is in, if 64 bits do not hold it. */
static gboolean
check_number (const char  *data,
              gsize        length,
              gsize       *i,
              const char  *key,
              gsize        key_length,
              GError     **error)
{
  gsize start = *i, first;
  gboolean negative = data[start] == '-';
  gsize n;

  first = start + (negative ? 1 : 0);
  for (n = first; n < length && g_ascii_isdigit (data[n]); n++)
    ;
  *i = n - 1;
  if (n < length && (data[n] == '.' || data[n] == 'e' || data[n] == 'E'))
    return TRUE;
  if (n == first || fits_int64 (data + first, n - first, negative))
    return TRUE;
  {
    g_autofree char *number = g_strndup (data + start, MIN (n - start, 40));
    g_autofree char *name = g_strndup (key ? key : "", key ? MIN (key_length, 64) : 0);
    g_autofree char *shown = ws_text_printable (name, 64);

    if (key)
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   /* Translators: a member's name in a JSON file, the number as written (cut
                    * short after 40 characters), then where in the data */
                   _("%s: the whole number %s%s is beyond what 64 bits hold (%s to %s; at byte %llu)"),
                   shown, number, n - start > 40 ? "…" : "", "-9223372036854775808", "9223372036854775807",
                   (unsigned long long) start + 1);
    else
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   /* Translators: the number as written (cut short after 40 characters), then
                    * where in the data */
                   _("the whole number %s%s is beyond what 64 bits hold (%s to %s; at byte %llu)"),
                   number, n - start > 40 ? "…" : "", "-9223372036854775808", "9223372036854775807",
                   (unsigned long long) start + 1);
  }
  return FALSE;
}

gboolean
ws_json_check_depth (const char  *data,
                     gsize        length,
                     guint        max_depth,
                     GError     **error)
{
  gboolean in_string = FALSE;
  guint depth = 0;
  gsize string_start = 0;
  const char *key = NULL;          /* the member the values that follow are of */
  gsize key_length = 0;
  const char *last = NULL;         /* the last string, which a ':' makes a key */
  gsize last_length = 0;

  g_return_val_if_fail (data != NULL || length == 0, FALSE);

  for (gsize i = 0; i < length; i++)
    {
      char c = data[i];

      if (in_string)
        {
          if (c == '\\')
            i++;
          else if (c == '"')
            {
              in_string = FALSE;
              last = data + string_start;
              last_length = i - string_start;
            }
          continue;
        }
      if (c == '"')
        {
          in_string = TRUE;
          string_start = i + 1;
        }
      else if (c == ':')
        {
          key = last;
          key_length = last_length;
        }
      else if (c == '-' || g_ascii_isdigit (c))
        {
          if (!check_number (data, length, &i, key, key_length, error))
            return FALSE;
        }
      else if (c == '[' || c == '{')
        {
          if (++depth > max_depth)
            {
              g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           /* Translators: how deep they may nest, then where in the data */
                           _("arrays and objects nest more than %u deep (at byte %llu)"),
                           max_depth, (unsigned long long) i + 1);
              return FALSE;
            }
        }
      else if ((c == ']' || c == '}') && depth > 0)
        depth--;
    }
  return TRUE;
}

const char *
ws_json_kind_of (JsonNode *node)
{
  switch (json_node_get_node_type (node))
    {
    case JSON_NODE_OBJECT:
      return "an object";
    case JSON_NODE_ARRAY:
      return "an array";
    case JSON_NODE_NULL:
      return "null";
    default:
      switch (json_node_get_value_type (node))
        {
        case G_TYPE_STRING:
          return "a string";
        case G_TYPE_BOOLEAN:
          return "a boolean";
        case G_TYPE_INT64:
          return "an integer";
        default:
          return "a number";
        }
    }
}

/* What a node holds, as the rows of wrong_kinds[] are ordered. */
typedef enum
{
  FOUND_OBJECT,
  FOUND_ARRAY,
  FOUND_NULL,
  FOUND_STRING,
  FOUND_BOOLEAN,
  FOUND_INTEGER,
  FOUND_NUMBER,
  FOUND_NOTHING,
  N_FOUND
} Found;

static Found
found_of (JsonNode *node)
{
  if (node == NULL)
    return FOUND_NOTHING;
  switch (json_node_get_node_type (node))
    {
    case JSON_NODE_OBJECT:
      return FOUND_OBJECT;
    case JSON_NODE_ARRAY:
      return FOUND_ARRAY;
    case JSON_NODE_NULL:
      return FOUND_NULL;
    case JSON_NODE_VALUE:
    default:
      switch (json_node_get_value_type (node))
        {
        case G_TYPE_STRING:
          return FOUND_STRING;
        case G_TYPE_BOOLEAN:
          return FOUND_BOOLEAN;
        case G_TYPE_INT64:
          return FOUND_INTEGER;
        default:
          return FOUND_NUMBER;
        }
    }
}

/* A sentence for each pair, as the kinds are words that change with the
 * sentence around them in other languages. NULL: a pair no reader reports
 * (a number is what an integer is too). */
static const char *const wrong_kinds[][N_FOUND] = {
  [WS_JSON_KIND_STRING] = {
    /* Translators: said of a value in a JSON file, after its path:
     * "measurements[2].median_ms: expected a number, found a string";
     * true, false and null are JSON's own words */
    N_("expected a string, found an object"), N_("expected a string, found an array"),
    N_("expected a string, found null"), NULL, N_("expected a string, found a boolean"),
    N_("expected a string, found an integer"), N_("expected a string, found a number"),
    N_("expected a string, found nothing"),
  },
  [WS_JSON_KIND_INTEGER] = {
    N_("expected an integer, found an object"), N_("expected an integer, found an array"),
    N_("expected an integer, found null"), N_("expected an integer, found a string"),
    N_("expected an integer, found a boolean"), NULL, N_("expected an integer, found a number"),
    N_("expected an integer, found nothing"),
  },
  [WS_JSON_KIND_NUMBER] = {
    N_("expected a number, found an object"), N_("expected a number, found an array"),
    N_("expected a number, found null"), N_("expected a number, found a string"),
    N_("expected a number, found a boolean"), NULL, NULL, N_("expected a number, found nothing"),
  },
  [WS_JSON_KIND_BOOLEAN] = {
    N_("expected true or false, found an object"), N_("expected true or false, found an array"),
    N_("expected true or false, found null"), N_("expected true or false, found a string"),
    NULL, N_("expected true or false, found an integer"), N_("expected true or false, found a number"),
    N_("expected true or false, found nothing"),
  },
  [WS_JSON_KIND_OBJECT] = {
    NULL, N_("expected an object, found an array"), N_("expected an object, found null"),
    N_("expected an object, found a string"), N_("expected an object, found a boolean"),
    N_("expected an object, found an integer"), N_("expected an object, found a number"),
    N_("expected an object, found nothing"),
  },
  [WS_JSON_KIND_ARRAY] = {
    N_("expected an array, found an object"), NULL, N_("expected an array, found null"),
    N_("expected an array, found a string"), N_("expected an array, found a boolean"),
    N_("expected an array, found an integer"), N_("expected an array, found a number"),
    N_("expected an array, found nothing"),
  },
};

gboolean
ws_json_wrong_kind (const WsJsonErrors *e,
                    GError            **error,
                    const char         *path,
                    WsJsonKind          expected,
                    JsonNode           *node)
{
  const char *message;

  g_return_val_if_fail (expected < G_N_ELEMENTS (wrong_kinds), FALSE);

  message = wrong_kinds[expected][found_of (node)];
  g_assert (message != NULL);
  return ws_json_invalid (e, error, path, "%s", _(message));
}

/* Line breaks and tabs may be in a description; nothing else a terminal
 * would act on. */
gboolean
ws_json_text_is_clean (const char *text)
{
  for (const guchar *p = (const guchar *) text; *p; p++)
    if ((*p < 0x20 && *p != '\n' && *p != '\t') || *p == 0x7f)
      return FALSE;
  return TRUE;
}

gboolean
ws_json_invalid (const WsJsonErrors  *e,
                 GError             **error,
                 const char          *path,
                 const char          *format,
                 ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  /* the path is data, "measurements[2].median_ms", and a prefix is part of it */
  g_set_error (error, e->domain (), e->code, "%s%s: %s", e->prefix, path, message);
  return FALSE;
}

JsonNode *
ws_json_member (const WsJsonErrors  *e,
                JsonObject          *o,
                const char          *path,
                const char          *name,
                char               **full,
                GError             **error)
{
  JsonNode *node;

  *full = *path ? g_strdup_printf ("%s.%s", path, name) : g_strdup (name);
  node = json_object_get_member (o, name);
  if (node == NULL)
    /* Translators: said of a member of a JSON file, after its path:
     * "measurements[2].median_ms: missing" */
    ws_json_invalid (e, error, *full, "%s", _("missing"));
  return node;
}

gboolean
ws_json_holds (JsonNode *node,
               GType     type)
{
  return JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == type;
}

gboolean
ws_json_read_string (const WsJsonErrors  *e,
                     JsonObject          *o,
                     const char          *path,
                     const char          *name,
                     char               **out,
                     GError             **error)
{
  g_autofree char *full = NULL;
  JsonNode *node = ws_json_member (e, o, path, name, &full, error);

  if (node == NULL)
    return FALSE;
  if (!ws_json_holds (node, G_TYPE_STRING))
    return ws_json_wrong_kind (e, error, full, WS_JSON_KIND_STRING, node);
  if (!g_utf8_validate (json_node_get_string (node), -1, NULL))
    /* Translators: said of a text in a JSON file, after its path */
    return ws_json_invalid (e, error, full, "%s", _("not valid UTF-8"));
  if (!ws_json_text_is_clean (json_node_get_string (node)))
    /* Translators: said of a text in a JSON file, after its path */
    return ws_json_invalid (e, error, full, "%s", _("holds a control character"));
  *out = json_node_dup_string (node);
  return TRUE;
}

gboolean
ws_json_check_int (const WsJsonErrors  *e,
                   JsonNode            *node,
                   const char          *path,
                   gint64               min,
                   gint64               max,
                   gint64              *out,
                   GError             **error)
{
  gint64 v;

  if (!ws_json_holds (node, G_TYPE_INT64))
    return ws_json_wrong_kind (e, error, path, WS_JSON_KIND_INTEGER, node);
  v = json_node_get_int (node);
  if (v < min || v > max)
    /* Translators: a value of a JSON file, then the least and the most it may be */
    return ws_json_invalid (e, error, path, _("%lld is out of range (%lld to %lld)"),
                            (long long) v, (long long) min, (long long) max);
  *out = v;
  return TRUE;
}

gboolean
ws_json_read_int64 (const WsJsonErrors  *e,
                    JsonObject          *o,
                    const char          *path,
                    const char          *name,
                    gint64               min,
                    gint64               max,
                    gint64              *out,
                    GError             **error)
{
  g_autofree char *full = NULL;
  JsonNode *node = ws_json_member (e, o, path, name, &full, error);

  return node != NULL && ws_json_check_int (e, node, full, min, max, out, error);
}

gboolean
ws_json_read_int (const WsJsonErrors  *e,
                  JsonObject          *o,
                  const char          *path,
                  const char          *name,
                  int                  min,
                  int                  max,
                  int                 *out,
                  GError             **error)
{
  gint64 v;

  if (!ws_json_read_int64 (e, o, path, name, min, max, &v, error))
    return FALSE;
  *out = (int) v;
  return TRUE;
}

gboolean
ws_json_check_double (const WsJsonErrors  *e,
                      JsonNode            *node,
                      const char          *path,
                      double               min,
                      double               max,
                      double              *out,
                      GError             **error)
{
  double v;

  if (ws_json_holds (node, G_TYPE_INT64))
    v = (double) json_node_get_int (node);
  else if (ws_json_holds (node, G_TYPE_DOUBLE))
    v = json_node_get_double (node);
  else
    return ws_json_wrong_kind (e, error, path, WS_JSON_KIND_NUMBER, node);
  if (!isfinite (v) || v < min || v > max)
    /* Translators: a value of a JSON file, then the least and the most it may be */
    return ws_json_invalid (e, error, path, _("%g is out of range (%g to %g)"), v, min, max);
  *out = v;
  return TRUE;
}

gboolean
ws_json_read_double (const WsJsonErrors  *e,
                     JsonObject          *o,
                     const char          *path,
                     const char          *name,
                     double               min,
                     double               max,
                     double              *out,
                     GError             **error)
{
  g_autofree char *full = NULL;
  JsonNode *node = ws_json_member (e, o, path, name, &full, error);

  return node != NULL && ws_json_check_double (e, node, full, min, max, out, error);
}

gboolean
ws_json_read_bool (const WsJsonErrors  *e,
                   JsonObject          *o,
                   const char          *path,
                   const char          *name,
                   gboolean            *out,
                   GError             **error)
{
  g_autofree char *full = NULL;
  JsonNode *node = ws_json_member (e, o, path, name, &full, error);

  if (node == NULL)
    return FALSE;
  if (!ws_json_holds (node, G_TYPE_BOOLEAN))
    return ws_json_wrong_kind (e, error, full, WS_JSON_KIND_BOOLEAN, node);
  *out = json_node_get_boolean (node);
  return TRUE;
}

JsonObject *
ws_json_read_object (const WsJsonErrors  *e,
                     JsonObject          *o,
                     const char          *path,
                     const char          *name,
                     GError             **error)
{
  g_autofree char *full = NULL;
  JsonNode *node = ws_json_member (e, o, path, name, &full, error);

  if (node == NULL)
    return NULL;
  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      ws_json_wrong_kind (e, error, full, WS_JSON_KIND_OBJECT, node);
      return NULL;
    }
  return json_node_get_object (node);
}

JsonArray *
ws_json_read_array (const WsJsonErrors  *e,
                    JsonObject          *o,
                    const char          *path,
                    const char          *name,
                    GError             **error)
{
  g_autofree char *full = NULL;
  JsonNode *node = ws_json_member (e, o, path, name, &full, error);

  if (node == NULL)
    return NULL;
  if (!JSON_NODE_HOLDS_ARRAY (node))
    {
      ws_json_wrong_kind (e, error, full, WS_JSON_KIND_ARRAY, node);
      return NULL;
    }
  return json_node_get_array (node);
}

char *
ws_json_to_text (JsonNode *node,
                 gboolean  pretty)
{
  g_autoptr (JsonGenerator) gen = json_generator_new ();
  g_autofree char *text = NULL;

  json_generator_set_root (gen, node);
  json_generator_set_pretty (gen, pretty);
  text = json_generator_to_data (gen, NULL);
  return ws_json_shortest_numbers (text);
}

const char *
ws_json_string_or (JsonObject *o,
                   const char *member,
                   const char *otherwise)
{
  JsonNode *n = o ? json_object_get_member (o, member) : NULL;

  if (n == NULL || !JSON_NODE_HOLDS_VALUE (n) || json_node_get_value_type (n) != G_TYPE_STRING)
    return otherwise;
  return json_node_get_string (n);
}

gboolean
ws_json_bool_or (JsonObject *o,
                 const char *member,
                 gboolean    otherwise)
{
  JsonNode *n = o ? json_object_get_member (o, member) : NULL;

  if (n == NULL || !JSON_NODE_HOLDS_VALUE (n) || json_node_get_value_type (n) != G_TYPE_BOOLEAN)
    return otherwise;
  return json_node_get_boolean (n);
}
