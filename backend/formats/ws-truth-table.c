/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Truth tables, read (ws-truth-table.h). backend/session/ws-truth.c makes
 * them on a GPU and writes them. */
#include "ws-config.h"
#include "ws-truth-table.h"
#include "ws-device-json.h"
#include "ws-json.h"

#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

G_DEFINE_QUARK (ws-truth-table-error-quark, ws_truth_table_error)

#define MAX_TEXT 200

static void
entry_free (WsTruthEntry *e)
{
  g_free (e->pattern);
  g_free (e->metric);
  g_free (e);
}

void
ws_truth_table_free (WsTruthTable *table)
{
  if (table == NULL)
    return;
  g_free (table->device);
  g_free (table->date);
  g_clear_pointer (&table->entries, g_ptr_array_unref);
  g_free (table);
}

static gboolean
read_text (const WsJsonErrors *e,
           JsonObject         *o,
           const char         *path,
           const char         *name,
           char              **out,
           GError            **error)
{
  if (!ws_json_read_string (e, o, path, name, out, error))
    return FALSE;
  if (**out == '\0' || strlen (*out) > MAX_TEXT)
    {
      g_autofree char *full = g_strdup_printf ("%s.%s", path, name);

      g_clear_pointer (out, g_free);
      return ws_json_invalid (e, error, full, _("expected a name of 1 to %d characters"), MAX_TEXT);
    }
  return TRUE;
}

static gboolean
read_row (const WsJsonErrors *e,
          JsonNode           *node,
          guint               i,
          WsTruthTable       *table,
          GError            **error)
{
  g_autofree char *path = g_strdup_printf ("rows[%u]", i);
  WsTruthEntry *entry;
  JsonObject *o;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    return ws_json_wrong_kind (e, error, path, WS_JSON_KIND_OBJECT, node);
  o = json_node_get_object (node);
  entry = g_new0 (WsTruthEntry, 1);
  if (!read_text (e, o, path, "pattern", &entry->pattern, error) ||
      !read_text (e, o, path, "metric", &entry->metric, error) ||
      !ws_json_read_double (e, o, path, "model", 0, G_MAXDOUBLE, &entry->model, error) ||
      !ws_json_read_double (e, o, path, "hardware", 0, G_MAXDOUBLE, &entry->hardware, error))
    {
      entry_free (entry);
      return FALSE;
    }
  g_ptr_array_add (table->entries, entry);
  return TRUE;
}

WsTruthTable *
ws_truth_table_load_data (const char *data,
                          gsize       length,
                          const char *name,
                          GError    **error)
{
  g_autofree char *prefix = g_strdup_printf ("%s: ", name ? name : _("the truth table"));
  WsJsonErrors e = { ws_truth_table_error_quark, 0, prefix };
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (WsTruthTable) table = NULL;
  g_autoptr (GError) local = NULL;
  g_autofree char *format = NULL;
  JsonNode *root;
  JsonObject *o;
  JsonArray *rows;
  gint64 version;

  g_return_val_if_fail (data != NULL || length == 0, NULL);

  if (length > WS_TRUTH_TABLE_MAX_BYTES)
    {
      g_set_error (error, WS_TRUTH_TABLE_ERROR, 0, _("%sis %.0f bytes, more than a truth table's %d"), prefix,
                   (double) length, WS_TRUTH_TABLE_MAX_BYTES);
      return NULL;
    }
  if (!ws_json_check_depth (data, length, WS_JSON_MAX_DEPTH, &local) ||
      !json_parser_load_from_data (parser, data, length, &local))
    {
      g_set_error (error, WS_TRUTH_TABLE_ERROR, 0, _("%snot JSON: %s"), prefix, local->message);
      return NULL;
    }
  root = json_parser_get_root (parser);
  if (root == NULL)
    {
      g_set_error (error, WS_TRUTH_TABLE_ERROR, 0, _("%snot JSON: the file is empty"), prefix);
      return NULL;
    }
  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      /* Translators: the file's name and ": ", then what it holds: "an array" */
      g_set_error (error, WS_TRUTH_TABLE_ERROR, 0, _("%snot a truth table: expected an object, found %s"), prefix,
                   ws_json_kind_of (root));
      return NULL;
    }
  o = json_node_get_object (root);
  if (!ws_json_read_string (&e, o, "", "format", &format, error))
    return NULL;
  if (!g_str_equal (format, "warpscope-truth"))
    {
      g_set_error (error, WS_TRUTH_TABLE_ERROR, 0,
                   _("%sa file of format “%s”, not a truth table (warpscope-truth)"), prefix, format);
      return NULL;
    }
  if (!ws_json_read_int64 (&e, o, "", "version", 1, 1, &version, error))
    return NULL;
  table = g_new0 (WsTruthTable, 1);
  table->entries = g_ptr_array_new_with_free_func ((GDestroyNotify) entry_free);
  if (!read_text (&e, o, "", "device", &table->device, error) ||
      !read_text (&e, o, "", "date", &table->date, error) ||
      (rows = ws_json_read_array (&e, o, "", "rows", error)) == NULL)
    return NULL;
  if (json_array_get_length (rows) > WS_TRUTH_TABLE_MAX_ROWS)
    {
      g_set_error (error, WS_TRUTH_TABLE_ERROR, 0, _("%s%u rows, more than a truth table's %d"), prefix,
                   json_array_get_length (rows), WS_TRUTH_TABLE_MAX_ROWS);
      return NULL;
    }
  for (guint i = 0; i < json_array_get_length (rows); i++)
    if (!read_row (&e, json_array_get_element (rows, i), i, table, error))
      return NULL;
  return g_steal_pointer (&table);
}

WsTruthTable *
ws_truth_table_load (const char *path,
                     GError    **error)
{
  g_autoptr (GMappedFile) file = NULL;
  g_autofree char *name = NULL;

  g_return_val_if_fail (path != NULL, NULL);

  name = g_filename_display_name (path);
  if ((file = g_mapped_file_new (path, FALSE, error)) == NULL)
    return NULL;
  return ws_truth_table_load_data (g_mapped_file_get_contents (file), g_mapped_file_get_length (file), name, error);
}

WsTruthTable *
ws_truth_table_find (const char *id_or_path,
                     GError    **error)
{
  g_autofree char *path = NULL;
  g_auto (GStrv) ids = NULL;
  g_autofree char *known = NULL;

  g_return_val_if_fail (id_or_path != NULL, NULL);

  if (strchr (id_or_path, '/') || g_str_has_suffix (id_or_path, ".json"))
    return ws_truth_table_load (id_or_path, error);
  if (ws_data_id_is_valid (id_or_path) &&
      g_file_test ((path = ws_data_path_for ("truth", id_or_path)), G_FILE_TEST_IS_REGULAR))
    return ws_truth_table_load (path, error);
  ids = ws_truth_table_list_ids ();
  known = g_strjoinv (", ", ids);
  /* Translators: the device asked for, then the ids of the tables there are */
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("no truth table for “%s” (there are: %s)"), id_or_path,
               *known ? known : _("none"));
  return NULL;
}

GStrv
ws_truth_table_list_ids (void)
{
  return ws_data_list_ids ("truth");
}
