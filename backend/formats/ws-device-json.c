/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "ws-config.h"
#include "ws-device-json.h"
#include "ws-json.h"
#include "ws-file-reader.h"

#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

/* what a device profile says it is, first */
#define PROFILE_FORMAT "warpscope-device-profile"
/* the largest of data/devices/ is a few KiB */
#define MAX_PROFILE_BYTES (1024 * 1024)

/* ------------------------------------------------------------------ */
/* Reading                                                            */
/* ------------------------------------------------------------------ */

static gboolean
fail (GError    **error,
      const char *where,
      const char *format,
      ...) G_GNUC_PRINTF (3, 4);

static gboolean
fail (GError    **error,
      const char *where,
      const char *format,
      ...)
{
  g_autofree char *what = NULL;
  va_list args;

  va_start (args, format);
  what = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (error, WS_DEVICE_PROFILE_ERROR, 0, "%s: %s", where, what);
  return FALSE;
}

static gboolean
number_of (JsonNode *node,
           double   *out)
{
  if (!JSON_NODE_HOLDS_VALUE (node))
    return FALSE;
  switch (json_node_get_value_type (node))
    {
    case G_TYPE_INT64:
      *out = (double) json_node_get_int (node);
      return TRUE;
    case G_TYPE_DOUBLE:
      *out = json_node_get_double (node);
      return isfinite (*out);
    default:
      return FALSE;
    }
}

static gboolean
read_number (JsonNode             *node,
             const WsProfileField *f,
             const char           *where,
             double               *v,
             GError              **error)
{
  if (!number_of (node, v))
    /* Translators: a field of the profile, then what it is (in English) */
    return fail (error, where, _("%s must be a number (%s)"), f->name, f->description);
  if (*v < f->min || *v > f->max)
    /* Translators: a field of the profile and its value, the range it must be
     * in, then what the field is (in English) */
    return fail (error, where, _("%s = %g is out of range (%g to %g: %s)"), f->name, *v, f->min, f->max,
                 f->description);
  if ((f->type == WS_PROFILE_FIELD_INT || f->type == WS_PROFILE_FIELD_UINT64) && *v != floor (*v))
    /* Translators: a field of the profile and its value, then what it is (in English) */
    return fail (error, where, _("%s = %g must be a whole number (%s)"), f->name, *v, f->description);
  return TRUE;
}

static gboolean
read_carveouts (JsonNode             *node,
                const WsProfileField *f,
                WsDeviceProfile      *p,
                const char           *where,
                GError              **error)
{
  JsonArray *a;
  guint n;

  if (!JSON_NODE_HOLDS_ARRAY (node))
    /* Translators: a field of the profile, then what it is (in English) */
    return fail (error, where, _("%s must be a list of numbers (%s)"), f->name, f->description);
  a = json_node_get_array (node);
  n = json_array_get_length (a);
  if (n < 1 || n > WS_DEVICE_MAX_CARVEOUTS)
    return fail (error, where, _("%s must list 1 to %d sizes"), f->name, WS_DEVICE_MAX_CARVEOUTS);
  for (guint i = 0; i < n; i++)
    {
      double v;

      if (!read_number (json_array_get_element (a, i), f, where, &v, error))
        return FALSE;
      p->carveouts_kib[i] = (guint) v;
    }
  p->n_carveouts = n;
  return TRUE;
}

static gboolean
read_field (JsonObject           *o,
            const WsProfileField *f,
            WsDeviceProfile      *p,
            const char           *where,
            GError              **error)
{
  JsonNode *node = json_object_get_member (o, f->name);
  char *base = (char *) p;
  double v;

  if (node == NULL && !isnan (f->otherwise))
    return ws_device_profile_set_number (p, f->name, f->otherwise) ||
           fail (error, where, _("%s is missing and its default is out of range"), f->name);
  if (node == NULL)
    /* Translators: a field of the profile, then what it is (in English) */
    return fail (error, where, _("%s is missing (%s)"), f->name, f->description);
  switch (f->type)
    {
    case WS_PROFILE_FIELD_STRING:
      {
        const char *s;

        if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING ||
            !g_utf8_validate ((s = json_node_get_string (node)), -1, NULL) ||
            strlen (s) < f->min || strlen (s) > f->max)
          /* Translators: a field of the profile, the shortest and longest it
           * may be, then what it is (in English) */
          return fail (error, where, _("%s must be text of %g to %g characters (%s)"), f->name, f->min, f->max,
                       f->description);
        g_free (*(char **) (base + f->offset));
        *(char **) (base + f->offset) = g_strdup (s);
        return TRUE;
      }
    case WS_PROFILE_FIELD_INT:
      if (!read_number (node, f, where, &v, error))
        return FALSE;
      *(int *) (base + f->offset) = (int) v;
      return TRUE;
    case WS_PROFILE_FIELD_UINT64:
      if (!read_number (node, f, where, &v, error))
        return FALSE;
      *(guint64 *) (base + f->offset) = (guint64) v;
      return TRUE;
    case WS_PROFILE_FIELD_DOUBLE:
      if (!read_number (node, f, where, &v, error))
        return FALSE;
      *(double *) (base + f->offset) = v;
      return TRUE;
    case WS_PROFILE_FIELD_CARVEOUTS:
      return read_carveouts (node, f, p, where, error);
    default:
      g_assert_not_reached ();
    }
}

WsDeviceProfile *
ws_device_profile_from_data (const char *data,
                             gssize      length,
                             const char *where,
                             GError    **error)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (WsDeviceProfile) p = ws_device_profile_new ();
  g_autoptr (GError) local = NULL;
  const WsProfileField *fields;
  JsonNode *root, *format, *version, *body;
  JsonObject *o;
  guint n_fields;
  double v;

  g_return_val_if_fail (data != NULL, NULL);
  where = where ? where : "device profile";

  /* before json-glib, whose parser recurses once per level */
  if (!ws_json_check_depth (data, length < 0 ? strlen (data) : (gsize) length, WS_JSON_MAX_DEPTH, &local))
    {
      fail (error, where, _("not a device profile: %s"), local->message);
      return NULL;
    }
  if (!json_parser_load_from_data (parser, data, length, &local))
    {
      /* json-glib quotes the bytes it stopped at, which may be anything */
      g_autofree char *shown = g_utf8_make_valid (local->message, -1);

      fail (error, where, _("not JSON: %s"), shown);
      return NULL;
    }
  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      fail (error, where, _("a device profile is a JSON object"));
      return NULL;
    }
  o = json_node_get_object (root);
  /* written since version 1's first files, which lack it */
  format = json_object_get_member (o, "format");
  if (format != NULL && (!JSON_NODE_HOLDS_VALUE (format) || json_node_get_value_type (format) != G_TYPE_STRING ||
                         g_strcmp0 (json_node_get_string (format), PROFILE_FORMAT) != 0))
    {
      /* Translators: format is the member's name in the file, %s its expected value */
      fail (error, where, _("format: not “%s”: not a Warpscope device profile"), PROFILE_FORMAT);
      return NULL;
    }
  version = json_object_get_member (o, "version");
  if (version == NULL || !number_of (version, &v) || v != floor (v))
    {
      fail (error, where, _("version is missing or not a whole number"));
      return NULL;
    }
  if (v < 1 || v > WS_DEVICE_PROFILE_VERSION)
    {
      /* Translators: version is the member's name in the file; its value, then the newest version known */
      fail (error, where, _("version %g: this Warpscope reads device profiles of version 1 to %d"), v,
            WS_DEVICE_PROFILE_VERSION);
      return NULL;
    }
  body = json_object_get_member (o, "profile");
  if (body == NULL || !JSON_NODE_HOLDS_OBJECT (body))
    {
      fail (error, where, _("profile is missing or not an object"));
      return NULL;
    }
  fields = ws_device_profile_fields (&n_fields);
  for (guint i = 0; i < n_fields; i++)
    if (!read_field (json_node_get_object (body), &fields[i], p, where, error))
      return NULL;
  if (!ws_device_profile_validate (p, &local))
    {
      fail (error, where, "%s", local->message);
      return NULL;
    }
  return g_steal_pointer (&p);
}

WsDeviceProfile *
ws_device_profile_load (const char *path,
                        GError    **error)
{
  g_autofree char *data = NULL;
  g_autoptr (GError) local = NULL;
  gsize length;

  g_return_val_if_fail (path != NULL, NULL);

  /* a regular file, read no further than the cap (/dev/zero grew to 24 GB) */
  data = ws_file_read_bounded (path, MAX_PROFILE_BYTES, &length, &local);
  if (g_error_matches (local, G_IO_ERROR, G_IO_ERROR_MESSAGE_TOO_LARGE))
    {
      g_set_error (error, WS_DEVICE_PROFILE_ERROR, 0,
                   /* Translators: a file's name, then the most a device profile may have */
                   _("%s: more than %d KiB is too large for a device profile"), path, MAX_PROFILE_BYTES >> 10);
      return NULL;
    }
  if (data == NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local));
      return NULL;
    }
  return ws_device_profile_from_data (data, (gssize) length, path, error);
}

/* ------------------------------------------------------------------ */
/* Writing                                                            */
/* ------------------------------------------------------------------ */

static void
write_field (JsonBuilder           *b,
             const WsProfileField  *f,
             const WsDeviceProfile *p)
{
  const char *base = (const char *) p;

  json_builder_set_member_name (b, f->name);
  switch (f->type)
    {
    case WS_PROFILE_FIELD_STRING:
      {
        const char *s = *(char *const *) (base + f->offset);
        json_builder_add_string_value (b, s ? s : "");
      }
      break;
    case WS_PROFILE_FIELD_INT:
      json_builder_add_int_value (b, *(const int *) (base + f->offset));
      break;
    case WS_PROFILE_FIELD_UINT64:
      json_builder_add_int_value (b, (gint64) *(const guint64 *) (base + f->offset));
      break;
    case WS_PROFILE_FIELD_DOUBLE:
      json_builder_add_double_value (b, *(const double *) (base + f->offset));
      break;
    case WS_PROFILE_FIELD_CARVEOUTS:
      json_builder_begin_array (b);
      for (guint i = 0; i < p->n_carveouts; i++)
        json_builder_add_int_value (b, p->carveouts_kib[i]);
      json_builder_end_array (b);
      break;
    default:
      g_assert_not_reached ();
    }
}

JsonNode *
ws_device_profile_to_json (const WsDeviceProfile *profile)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  const WsProfileField *fields;
  guint n_fields;

  g_return_val_if_fail (profile != NULL, NULL);

  fields = ws_device_profile_fields (&n_fields);
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "format");
  json_builder_add_string_value (b, PROFILE_FORMAT);
  json_builder_set_member_name (b, "version");
  json_builder_add_int_value (b, WS_DEVICE_PROFILE_VERSION);
  json_builder_set_member_name (b, "profile");
  json_builder_begin_object (b);
  for (guint i = 0; i < n_fields; i++)
    write_field (b, &fields[i], profile);
  json_builder_end_object (b);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

char *
ws_device_profile_json_to_data (JsonNode *node)
{
  g_autofree char *text = NULL;

  g_return_val_if_fail (node != NULL, NULL);

  text = ws_json_to_text (node, TRUE);
  return g_strconcat (text, "\n", NULL);
}

char *
ws_device_profile_to_data (const WsDeviceProfile *profile)
{
  g_autoptr (JsonNode) root = NULL;

  g_return_val_if_fail (profile != NULL, NULL);

  root = ws_device_profile_to_json (profile);
  return ws_device_profile_json_to_data (root);
}

gboolean
ws_device_profile_save (const WsDeviceProfile *profile,
                        const char            *path,
                        GError               **error)
{
  g_autofree char *text = NULL;
  g_autoptr (GError) local = NULL;

  g_return_val_if_fail (profile != NULL && path != NULL, FALSE);

  if (!ws_device_profile_validate (profile, &local))
    {
      /* Translators: a file's name, then why it could not be written */
      g_set_error (error, WS_DEVICE_PROFILE_ERROR, 0, _("%s: not saved: %s"), path, local->message);
      return FALSE;
    }
  text = ws_device_profile_to_data (profile);
  return g_file_set_contents (path, text, -1, error);
}

/* ------------------------------------------------------------------ */
/* Finding                                                            */
/* ------------------------------------------------------------------ */

static gboolean
valid_id (const char *id)
{
  if (*id == '\0' || strlen (id) > 64)
    return FALSE;
  for (const char *p = id; *p; p++)
    if (!g_ascii_isalnum (*p) && *p != '-')
      return FALSE;
  return TRUE;
}

gboolean
ws_data_id_is_valid (const char *id)
{
  return valid_id (id);
}

char *
ws_data_path_for (const char *folder,
                  const char *id)
{
  g_autofree char *file = g_strconcat (id, ".json", NULL);
  g_autofree char *installed = g_build_filename (WS_PKGDATADIR, folder, file, NULL);

  if (g_file_test (installed, G_FILE_TEST_IS_REGULAR))
    return g_steal_pointer (&installed);
  return g_build_filename (WS_SOURCE_DATADIR, folder, file, NULL);
}

char *
ws_device_profile_path_for (const char *id)
{
  return ws_data_path_for ("devices", id);
}

WsDeviceProfile *
ws_device_profile_find (const char *id_or_path,
                        GError    **error)
{
  g_autofree char *path = NULL;
  g_auto (GStrv) ids = NULL;

  g_return_val_if_fail (id_or_path != NULL, NULL);

  if (strchr (id_or_path, '/') || g_str_has_suffix (id_or_path, ".json"))
    return ws_device_profile_load (id_or_path, error);
  if (!valid_id (id_or_path))
    {
      g_set_error (error, WS_DEVICE_PROFILE_ERROR, 0,
                   /* Translators: %s is what the user gave for a device */
                   _("“%s” is neither a device id (letters, digits and '-') nor a file"), id_or_path);
      return NULL;
    }
  path = ws_device_profile_path_for (id_or_path);
  if (g_file_test (path, G_FILE_TEST_IS_REGULAR))
    return ws_device_profile_load (path, error);
  ids = ws_device_profile_list_ids ();
  {
    g_autofree char *known = g_strjoinv (", ", ids);
    if (*known)
      /* Translators: the device asked for, then the ids of the profiles there are */
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("no device profile “%s” (known: %s)"), id_or_path,
                   known);
    else
      /* Translators: %s is the device asked for */
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("no device profile “%s” (known: none)"), id_or_path);
  }
  return NULL;
}

static void
add_ids_in (GPtrArray  *ids,
            const char *dir)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  if (d == NULL)
    return;
  while ((name = g_dir_read_name (d)))
    {
      g_autofree char *id = NULL;

      if (!g_str_has_suffix (name, ".json"))
        continue;
      id = g_strndup (name, strlen (name) - 5);
      if (valid_id (id) && !g_ptr_array_find_with_equal_func (ids, id, g_str_equal, NULL))
        g_ptr_array_add (ids, g_steal_pointer (&id));
    }
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return g_strcmp0 (*(char *const *) a, *(char *const *) b);
}

GStrv
ws_device_profile_list_ids (void)
{
  return ws_data_list_ids ("devices");
}

GStrv
ws_data_list_ids (const char *folder)
{
  g_autoptr (GPtrArray) ids = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *installed = g_build_filename (WS_PKGDATADIR, folder, NULL);
  g_autofree char *source = g_build_filename (WS_SOURCE_DATADIR, folder, NULL);

  add_ids_in (ids, installed);
  add_ids_in (ids, source);
  g_ptr_array_sort (ids, compare_strings);
  g_ptr_array_set_free_func (ids, NULL);
  g_ptr_array_add (ids, NULL);
  return (GStrv) g_ptr_array_free (g_steal_pointer (&ids), FALSE);
}
