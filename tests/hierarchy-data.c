/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "hierarchy-data.h"

#include <json-glib/json-glib.h>
#include <string.h>

void
ws_hier_record_free (WsHierRecord *r)
{
  if (r == NULL)
    return;
  g_free (r->name);
  g_free (r->spec);
  g_free (r->kernel);
  g_clear_pointer (&r->params, g_hash_table_unref);
  g_clear_pointer (&r->pattern, ws_pattern_unref);
  g_clear_pointer (&r->counters, g_hash_table_unref);
  g_free (r);
}

double
ws_hier_record_counter (const WsHierRecord *r,
                        const char         *name)
{
  const double *v = g_hash_table_lookup (r->counters, name);
  return v ? *v : 0.0;
}

static gboolean
parse_dim (const char *text,
           WsDim3     *out)
{
  g_auto (GStrv) parts = g_strsplit (text, ",", 3);
  guint64 v[3] = { 1, 1, 1 };

  for (guint i = 0; parts[i]; i++)
    if (!g_ascii_string_to_unsigned (g_strstrip (parts[i]), 10, 1, G_MAXUINT32, &v[i], NULL))
      return FALSE;
  *out = WS_DIM3 ((guint) v[0], (guint) v[1], (guint) v[2]);
  return TRUE;
}

static gboolean
is_empty (const char *field)
{
  return *field == '\0' || strcmp (field, "-") == 0;
}

static gboolean
add_accesses (WsPattern  *p,
              const char *text,
              GError    **error)
{
  g_auto (GStrv) list = g_strsplit (text, ";", -1);

  for (guint i = 0; list[i]; i++)
    {
      g_auto (GStrv) f = g_strsplit (g_strstrip (list[i]), ":", 5);
      WsSpace space;
      WsAccessKind kind;

      if (g_strv_length (f) != 5 || !ws_space_from_string (f[1], &space) ||
          !ws_access_kind_from_string (f[2], &kind))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "bad access “%s”", list[i]);
          return FALSE;
        }
      if (!ws_pattern_add_access (p, f[0], space, kind, (guint) g_ascii_strtoull (f[3], NULL, 10), f[4], 0, error))
        return FALSE;
    }
  return TRUE;
}

WsPattern *
ws_hier_spec_parse (const char *line,
                    char      **name,
                    GError    **error)
{
  g_auto (GStrv) f = g_strsplit (line, "|", 7);
  g_autoptr (WsPattern) p = ws_pattern_new ();
  WsDim3 block, grid;

  if (g_strv_length (f) != 7)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "a spec has 7 fields: “%s”", line);
      return NULL;
    }
  for (guint i = 0; i < 7; i++)
    g_strstrip (f[i]);
  if (!parse_dim (f[1], &block) || !parse_dim (f[2], &grid))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "bad block or grid in “%s”", line);
      return NULL;
    }
  if (!ws_pattern_set_block (p, block, error) || !ws_pattern_set_grid (p, grid, error))
    return NULL;
  if (!is_empty (f[3]))
    {
      g_auto (GStrv) params = g_strsplit_set (f[3], " \t", -1);
      for (guint i = 0; params[i]; i++)
        {
          g_auto (GStrv) kv = g_strsplit (params[i], "=", 2);
          if (*params[i] == '\0')
            continue;
          if (g_strv_length (kv) != 2 || !ws_pattern_set_param (p, kv[0], g_ascii_strtoll (kv[1], NULL, 10), error))
            return NULL;
        }
    }
  if (!is_empty (f[4]))
    {
      g_auto (GStrv) defs = g_strsplit (f[4], ";", -1);
      for (guint i = 0; defs[i]; i++)
        {
          g_auto (GStrv) kv = g_strsplit (defs[i], "=", 2);
          if (g_strv_length (kv) != 2 || !ws_pattern_add_definition (p, g_strstrip (kv[0]), g_strstrip (kv[1]), error))
            return NULL;
        }
    }
  if (!is_empty (f[5]) && !ws_pattern_set_guard (p, f[5], error))
    return NULL;
  if (!add_accesses (p, f[6], error))
    return NULL;
  if (name)
    *name = g_strdup (f[0]);
  return g_steal_pointer (&p);
}

static char *
kernel_key (JsonObject *o)
{
  GString *s = g_string_new (json_object_get_string_member (o, "kernel"));
  JsonObject *params = json_object_get_object_member (o, "params");
  g_autoptr (GList) names = json_object_get_members (params);

  g_string_append_c (s, '@');
  for (GList *l = names; l; l = l->next)
    g_string_append_printf (s, "%s%s=%" G_GINT64_FORMAT, l == names ? "" : ",", (char *) l->data,
                            json_object_get_int_member (params, l->data));
  return g_string_free (s, FALSE);
}

static WsHierRecord *
record_of (JsonObject *o,
           GHashTable *specs,
           GError    **error)
{
  g_autoptr (WsHierRecord) r = g_new0 (WsHierRecord, 1);
  JsonObject *counters;
  g_autoptr (GList) names = NULL;

  r->counters = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  if (json_object_has_member (o, "name"))
    {
      r->name = g_strdup (json_object_get_string_member (o, "name"));
      r->spec = g_strdup (json_object_get_string_member (o, "spec"));
    }
  else
    {
      JsonObject *params = json_object_get_object_member (o, "params");
      g_autoptr (GList) keys = json_object_get_members (params);

      r->name = kernel_key (o);
      r->kernel = g_strdup (json_object_get_string_member (o, "kernel"));
      r->params = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
      for (GList *l = keys; l; l = l->next)
        {
          gint64 *v = g_new (gint64, 1);
          *v = json_object_get_int_member (params, l->data);
          g_hash_table_insert (r->params, g_strdup (l->data), v);
        }
      r->spec = g_strdup (specs ? g_hash_table_lookup (specs, r->name) : NULL);
    }
  if (r->spec && (r->pattern = ws_hier_spec_parse (r->spec, NULL, error)) == NULL)
    {
      g_prefix_error (error, "%s: ", r->name);
      return NULL;
    }
  r->median_ms = json_object_get_double_member_with_default (o, "median_ms", 0);
  r->registers = (guint) json_object_get_int_member_with_default (o, "registers", 0);
  counters = json_object_get_object_member (o, "counters");
  names = counters ? json_object_get_members (counters) : NULL;
  for (GList *l = names; l; l = l->next)
    {
      double *v = g_new (double, 1);
      *v = json_object_get_double_member (counters, l->data);
      g_hash_table_insert (r->counters, g_strdup (l->data), v);
    }
  return g_steal_pointer (&r);
}

GPtrArray *
ws_hier_records_load (const char *path,
                      GHashTable *specs,
                      GError    **error)
{
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  g_autoptr (GPtrArray) records = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_hier_record_free);

  if (!g_file_get_contents (path, &text, NULL, error))
    return NULL;
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      g_autoptr (JsonParser) parser = json_parser_new ();
      WsHierRecord *r;

      if (*g_strstrip (lines[i]) == '\0')
        continue;
      if (!json_parser_load_from_data (parser, lines[i], -1, error))
        return NULL;
      if ((r = record_of (json_node_get_object (json_parser_get_root (parser)), specs, error)) == NULL)
        return NULL;
      g_ptr_array_add (records, r);
    }
  return g_steal_pointer (&records);
}

GHashTable *
ws_hier_kernel_specs_load (const char *path,
                           GError    **error)
{
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  g_autoptr (GHashTable) specs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  if (!g_file_get_contents (path, &text, NULL, error))
    return NULL;
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      char *line = g_strstrip (lines[i]);
      char *bar;

      if (*line == '\0' || *line == '#')
        continue;
      bar = strchr (line, '|');
      if (bar == NULL)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s:%u: no '|'", path, i + 1);
          return NULL;
        }
      *bar = '\0';
      g_hash_table_insert (specs, g_strdup (g_strstrip (line)), g_strdup (bar + 1));
    }
  return g_steal_pointer (&specs);
}
