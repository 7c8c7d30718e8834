/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "ws-model-json.h"
#include "ws-json.h"

static JsonNode *
json_node_take_array_node (JsonArray *a)
{
  JsonNode *node = json_node_new (JSON_NODE_ARRAY);

  json_node_take_array (node, a);
  return node;
}

static JsonNode *
dim3_node (WsDim3 d)
{
  JsonArray *a = json_array_new ();

  json_array_add_int_element (a, d.x);
  json_array_add_int_element (a, d.y);
  json_array_add_int_element (a, d.z);
  /* the node takes the only reference: json_node_init_array () would add one */
  return json_node_take_array_node (a);
}

static JsonNode *
lanes_node (guint32 lanes)
{
  JsonArray *a = json_array_new ();

  for (guint l = 0; l < WS_WARP_SIZE; l++)
    if (lanes & (1u << l))
      json_array_add_int_element (a, l);
  /* the node takes the only reference: json_node_init_array () would add one */
  return json_node_take_array_node (a);
}

JsonNode *
ws_pattern_to_json (const WsPattern *p)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "block");
  json_builder_add_value (b, dim3_node (ws_pattern_get_block (p)));
  json_builder_set_member_name (b, "grid");
  json_builder_add_value (b, dim3_node (ws_pattern_get_grid (p)));
  json_builder_set_member_name (b, "params");
  json_builder_begin_array (b);
  for (guint i = 0; i < ws_pattern_get_n_params (p); i++)
    {
      const WsParam *param = ws_pattern_get_param_nth (p, i);
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "name");
      json_builder_add_string_value (b, param->name);
      json_builder_set_member_name (b, "value");
      json_builder_add_int_value (b, param->value);
      json_builder_set_member_name (b, "min");
      json_builder_add_int_value (b, param->min);
      json_builder_set_member_name (b, "max");
      json_builder_add_int_value (b, param->max);
      if (param->description)
        {
          json_builder_set_member_name (b, "description");
          json_builder_add_string_value (b, param->description);
        }
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  /* an array: definitions are evaluated in order */
  json_builder_set_member_name (b, "definitions");
  json_builder_begin_array (b);
  for (guint i = 0; i < ws_pattern_get_n_definitions (p); i++)
    {
      const WsDefinition *d = ws_pattern_get_definition (p, i);
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "name");
      json_builder_add_string_value (b, d->name);
      json_builder_set_member_name (b, "expr");
      json_builder_add_string_value (b, d->text);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_set_member_name (b, "guard");
  if (ws_pattern_get_guard_text (p))
    json_builder_add_string_value (b, ws_pattern_get_guard_text (p));
  else
    json_builder_add_null_value (b);
  json_builder_set_member_name (b, "accesses");
  json_builder_begin_array (b);
  for (guint i = 0; i < ws_pattern_get_n_accesses (p); i++)
    {
      const WsAccess *a = ws_pattern_get_access (p, i);
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "array");
      json_builder_add_string_value (b, a->array);
      json_builder_set_member_name (b, "space");
      json_builder_add_string_value (b, ws_space_to_string (a->space));
      json_builder_set_member_name (b, "access");
      json_builder_add_string_value (b, ws_access_kind_to_string (a->kind));
      json_builder_set_member_name (b, "elem_size");
      json_builder_add_int_value (b, a->elem_size);
      json_builder_set_member_name (b, "index");
      json_builder_add_string_value (b, a->index_text);
      json_builder_set_member_name (b, "base");
      json_builder_add_int_value (b, a->base);
      if (a->elem_from_param)
        {
          json_builder_set_member_name (b, "elem_size_from_param");
          json_builder_add_boolean_value (b, TRUE);
        }
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

/* ------------------------------------------------------------------ */
/* Reading a pattern back                                             */
/* ------------------------------------------------------------------ */

static const WsJsonErrors errors = { ws_pattern_error_quark, WS_PATTERN_ERROR_INVALID, "pattern " };

static gboolean
bad (GError    **error,
     const char *path,
     const char *what)
{
  return ws_json_invalid (&errors, error, path, "%s", what);
}

/* Member name of o, of type (G_TYPE_INT64, G_TYPE_STRING, JSON_TYPE_ARRAY,
 * JSON_TYPE_OBJECT), or NULL with an error that says where and what. */
static JsonNode *
need (JsonObject *o,
      const char *name,
      GType       type,
      const char *path,
      GError    **error)
{
  g_autofree char *where = NULL;
  JsonNode *n = ws_json_member (&errors, o, path, name, &where, error);
  gboolean ok;

  if (n == NULL)
    return NULL;
  ok = type == JSON_TYPE_ARRAY ? JSON_NODE_HOLDS_ARRAY (n) :
       type == JSON_TYPE_OBJECT ? JSON_NODE_HOLDS_OBJECT (n) : ws_json_holds (n, type);
  if (!ok)
    {
      ws_json_invalid (&errors, error, where, "expected %s, found %s",
                       type == G_TYPE_INT64 ? "an integer" : type == G_TYPE_STRING ? "a string" :
                       type == JSON_TYPE_ARRAY ? "an array" : type == JSON_TYPE_OBJECT ? "an object" : "another type",
                       ws_json_kind_of (n));
      return NULL;
    }
  return n;
}

static gboolean
read_dim3 (JsonObject *o,
           const char *name,
           WsDim3     *out,
           GError    **error)
{
  JsonNode *n = need (o, name, JSON_TYPE_ARRAY, "", error);
  JsonArray *a;
  guint v[3];

  if (n == NULL)
    return FALSE;
  a = json_node_get_array (n);
  if (json_array_get_length (a) != 3)
    return bad (error, name, "expected [x, y, z]");
  for (guint i = 0; i < 3; i++)
    {
      JsonNode *e = json_array_get_element (a, i);
      if (!JSON_NODE_HOLDS_VALUE (e) || json_node_get_value_type (e) != G_TYPE_INT64 ||
          json_node_get_int (e) < 1 || json_node_get_int (e) > G_MAXINT32)
        return bad (error, name, "expected three positive integers");
      v[i] = (guint) json_node_get_int (e);
    }
  *out = WS_DIM3 (v[0], v[1], v[2]);
  return TRUE;
}

static gboolean
read_params (WsPattern  *p,
             JsonObject *root,
             GError    **error)
{
  JsonNode *n = need (root, "params", JSON_TYPE_ARRAY, "", error);
  JsonArray *a;

  if (n == NULL)
    return FALSE;
  a = json_node_get_array (n);
  for (guint i = 0; i < json_array_get_length (a); i++)
    {
      g_autofree char *path = g_strdup_printf ("params[%u]", i);
      JsonObject *o = JSON_NODE_HOLDS_OBJECT (json_array_get_element (a, i)) ? json_array_get_object_element (a, i) : NULL;
      JsonNode *name, *value, *min, *max;

      if (o == NULL)
        return bad (error, path, "expected an object");
      if (!(name = need (o, "name", G_TYPE_STRING, path, error)) || !(value = need (o, "value", G_TYPE_INT64, path, error)) ||
          !(min = need (o, "min", G_TYPE_INT64, path, error)) || !(max = need (o, "max", G_TYPE_INT64, path, error)))
        return FALSE;
      if (json_node_get_int (min) > json_node_get_int (max))
        return bad (error, path, "min is above max");
      if (!ws_pattern_set_param (p, json_node_get_string (name), json_node_get_int (value), error))
        return FALSE;
      ws_pattern_set_param_range (p, json_node_get_string (name), json_node_get_int (min), json_node_get_int (max),
                                  ws_json_string_or (o, "description", NULL));
    }
  return TRUE;
}

static gboolean
read_definitions (WsPattern  *p,
                  JsonObject *root,
                  GError    **error)
{
  JsonNode *n = need (root, "definitions", JSON_TYPE_ARRAY, "", error);
  JsonArray *a;

  if (n == NULL)
    return FALSE;
  a = json_node_get_array (n);
  for (guint i = 0; i < json_array_get_length (a); i++)
    {
      g_autofree char *path = g_strdup_printf ("definitions[%u]", i);
      JsonObject *o = JSON_NODE_HOLDS_OBJECT (json_array_get_element (a, i)) ? json_array_get_object_element (a, i) : NULL;
      JsonNode *name, *expr;

      if (o == NULL)
        return bad (error, path, "expected an object");
      if (!(name = need (o, "name", G_TYPE_STRING, path, error)) || !(expr = need (o, "expr", G_TYPE_STRING, path, error)) ||
          !ws_pattern_add_definition (p, json_node_get_string (name), json_node_get_string (expr), error))
        return FALSE;
    }
  return TRUE;
}

static gboolean
read_accesses (WsPattern  *p,
               JsonObject *root,
               GError    **error)
{
  JsonNode *n = need (root, "accesses", JSON_TYPE_ARRAY, "", error);
  JsonArray *a;

  if (n == NULL)
    return FALSE;
  a = json_node_get_array (n);
  for (guint i = 0; i < json_array_get_length (a); i++)
    {
      g_autofree char *path = g_strdup_printf ("accesses[%u]", i);
      JsonObject *o = JSON_NODE_HOLDS_OBJECT (json_array_get_element (a, i)) ? json_array_get_object_element (a, i) : NULL;
      JsonNode *array, *space, *access, *elem, *index, *base;
      WsSpace sp;
      WsAccessKind kind;

      if (o == NULL)
        return bad (error, path, "expected an object");
      if (!(array = need (o, "array", G_TYPE_STRING, path, error)) || !(space = need (o, "space", G_TYPE_STRING, path, error)) ||
          !(access = need (o, "access", G_TYPE_STRING, path, error)) || !(elem = need (o, "elem_size", G_TYPE_INT64, path, error)) ||
          !(index = need (o, "index", G_TYPE_STRING, path, error)) || !(base = need (o, "base", G_TYPE_INT64, path, error)))
        return FALSE;
      if (!ws_space_from_string (json_node_get_string (space), &sp))
        return bad (error, path, "unknown memory space");
      if (!ws_access_kind_from_string (json_node_get_string (access), &kind))
        return bad (error, path, "unknown access");
      if (json_node_get_int (elem) < 1 || json_node_get_int (elem) > 16)
        return bad (error, path, "elem_size is not 1, 2, 4, 8 or 16");
      if (!ws_pattern_add_access (p, json_node_get_string (array), sp, kind, (guint) json_node_get_int (elem),
                                  json_node_get_string (index), json_node_get_int (base), error))
        return FALSE;
      if (ws_json_bool_or (o, "elem_size_from_param", FALSE) &&
          !ws_pattern_bind_elem_size (p, i, error))
        return FALSE;
    }
  return TRUE;
}

WsPattern *
ws_pattern_from_json (JsonNode *node,
                      GError  **error)
{
  g_autoptr (WsPattern) p = ws_pattern_new ();
  JsonObject *root;
  JsonNode *guard;
  WsDim3 block, grid;

  g_return_val_if_fail (node != NULL, NULL);

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      bad (error, "", "expected an object");
      return NULL;
    }
  root = json_node_get_object (node);
  if (!read_dim3 (root, "block", &block, error) || !read_dim3 (root, "grid", &grid, error) ||
      !ws_pattern_set_block (p, block, error) || !ws_pattern_set_grid (p, grid, error) ||
      !read_params (p, root, error) || !read_definitions (p, root, error))
    return NULL;
  guard = json_object_get_member (root, "guard");
  if (guard && !JSON_NODE_HOLDS_NULL (guard))
    {
      if (!JSON_NODE_HOLDS_VALUE (guard) || json_node_get_value_type (guard) != G_TYPE_STRING)
        {
          bad (error, "guard", "expected a string or null");
          return NULL;
        }
      if (!ws_pattern_set_guard (p, json_node_get_string (guard), error))
        return NULL;
    }
  if (!read_accesses (p, root, error) || !ws_pattern_validate (p, error))
    return NULL;
  return g_steal_pointer (&p);
}

static void
add_stats_members (JsonBuilder   *b,
                   const WsStats *s)
{
  ws_json_add_int (b, "instructions", s->instructions);
  ws_json_add_int (b, "active_lanes", s->active_lanes);
  ws_json_add_int (b, "requests", s->requests);
  ws_json_add_int (b, "sectors", s->sectors);
  ws_json_add_int (b, "lines", s->lines);
  ws_json_add_double (b, "sectors_per_request", ws_stats_sectors_per_request (s));
  ws_json_add_int (b, "bytes_requested", s->bytes_requested);
  ws_json_add_int (b, "bytes_moved", s->bytes_moved);
  ws_json_add_double (b, "efficiency", ws_stats_efficiency (s));
  ws_json_add_int (b, "wavefronts", s->wavefronts);
  ws_json_add_int (b, "ideal_wavefronts", s->ideal_wavefronts);
  ws_json_add_double (b, "wavefronts_per_instruction", ws_stats_wavefronts_per_instruction (s));
  ws_json_add_int (b, "bank_conflicts", ws_stats_bank_conflicts (s));
  ws_json_add_int (b, "distinct_addresses", s->distinct_addresses);
  ws_json_add_double (b, "distinct_addresses_per_instruction", ws_stats_distinct_per_instruction (s));
  ws_json_add_int (b, "replays", s->replays);
  ws_json_add_double (b, "replays_per_instruction", ws_stats_replays_per_instruction (s));
  ws_json_add_int (b, "atomic_conflicts", s->atomic_conflicts);
  if (s->instructions > 0 && s->min_address <= s->end_address)
    {
      ws_json_add_int (b, "min_address", s->min_address);
      ws_json_add_int (b, "end_address", s->end_address);
    }
}

JsonNode *
ws_stats_to_json (const WsStats *stats)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  add_stats_members (b, stats);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

JsonNode *
ws_launch_stats_to_json (const WsLaunchStats *ls)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  add_stats_members (b, &ls->total);
  ws_json_add_int (b, "blocks", ls->blocks);
  ws_json_add_int (b, "warps", ls->warps);
  ws_json_add_int (b, "threads", ls->threads);
  ws_json_add_double (b, "analysis_seconds", ls->seconds);
  json_builder_set_member_name (b, "accesses");
  json_builder_begin_array (b);
  for (guint i = 0; i < ls->n_accesses; i++)
    {
      const WsAccess *a = ws_pattern_get_access (ls->pattern, i);
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "array");
      json_builder_add_string_value (b, a->array);
      json_builder_set_member_name (b, "space");
      json_builder_add_string_value (b, ws_space_to_string (a->space));
      json_builder_set_member_name (b, "access");
      json_builder_add_string_value (b, ws_access_kind_to_string (a->kind));
      ws_json_add_int (b, "elem_size", a->elem_size);
      json_builder_set_member_name (b, "index");
      json_builder_add_string_value (b, a->index_text);
      add_stats_members (b, &ls->accesses[i]);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

JsonNode *
ws_kernel_stats_to_json (const WsKernelInstance *inst,
                         const WsKernelStats    *ks)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  add_stats_members (b, &ks->total);
  ws_json_add_int (b, "blocks", ks->blocks);
  ws_json_add_int (b, "warps", ks->warps);
  ws_json_add_int (b, "threads", ks->threads);
  json_builder_set_member_name (b, "accesses");
  json_builder_begin_array (b);
  for (guint i = 0; i < ks->n_sites; i++)
    {
      const WsKernelSite *site = ws_kernel_instance_get_site (inst, i);

      json_builder_begin_object (b);
      ws_json_add_string (b, "array", site->array_name);
      ws_json_add_string (b, "space", ws_space_to_string (site->space));
      ws_json_add_string (b, "access", ws_access_kind_to_string (site->kind));
      ws_json_add_int (b, "elem_size", site->elem_size);
      ws_json_add_string (b, "index", site->text);
      ws_json_add_int (b, "line", site->line);
      ws_json_add_int (b, "column", site->column);
      if (site->function)
        ws_json_add_string (b, "function", site->function);
      if (site->keep != WS_KERNEL_KEEP_EVERY)
        {
          /* kept in a register through the loop at keep_line: made once
           * each time it is entered, or never */
          ws_json_add_string (b, "kept", site->keep == WS_KERNEL_KEEP_ONCE ? "once" : "never");
          ws_json_add_int (b, "kept_loop_line", site->keep_line);
        }
      add_stats_members (b, &ks->sites[i]);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

JsonNode *
ws_warp_result_to_json (const WsWarpResult *r,
                        const WsPattern    *pattern)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  const WsAccess *a = ws_pattern_get_access (pattern, r->access);
  WsDim3 block = ws_pattern_get_block (pattern);

  json_builder_begin_object (b);
  ws_json_add_int (b, "access", r->access);
  json_builder_set_member_name (b, "array");
  json_builder_add_string_value (b, a->array);
  json_builder_set_member_name (b, "space");
  json_builder_add_string_value (b, ws_space_to_string (r->space));
  json_builder_set_member_name (b, "block");
  json_builder_add_value (b, dim3_node (r->block_idx));
  ws_json_add_int (b, "warp", r->warp);
  ws_json_add_int (b, "active_lanes", __builtin_popcount (r->active));

  json_builder_set_member_name (b, "lanes");
  json_builder_begin_array (b);
  for (guint l = 0; l < WS_WARP_SIZE; l++)
    {
      guint64 t = (guint64) r->warp * WS_WARP_SIZE + l;

      if (!(r->valid & (1u << l)))
        continue;
      json_builder_begin_object (b);
      ws_json_add_int (b, "lane", l);
      json_builder_set_member_name (b, "thread");
      json_builder_add_value (b, dim3_node (WS_DIM3 ((guint) (t % block.x), (guint) ((t / block.x) % block.y),
                                                     (guint) (t / ((guint64) block.x * block.y)))));
      json_builder_set_member_name (b, "active");
      json_builder_add_boolean_value (b, (r->active >> l) & 1);
      if (r->active & (1u << l))
        {
          ws_json_add_int (b, "index", r->index[l]);
          ws_json_add_int (b, "address", r->address[l]);
          switch (r->space)
            {
            case WS_SPACE_GLOBAL:
            case WS_SPACE_LOCAL:
              ws_json_add_int (b, "sector", r->address[l] / WS_SECTOR_BYTES);
              ws_json_add_int (b, "line", r->address[l] / WS_LINE_BYTES);
              if (r->space == WS_SPACE_LOCAL)
                ws_json_add_int (b, "private_offset", r->private_offset[l]);
              break;
            case WS_SPACE_SHARED:
              ws_json_add_int (b, "bank", r->bank[l]);
              ws_json_add_int (b, "word", r->address[l] / WS_BANK_BYTES);
              break;
            case WS_SPACE_CONSTANT:
            case WS_SPACE_REGISTER:
            case WS_N_SPACES:
            default:
              break;
            }
        }
      json_builder_end_object (b);
    }
  json_builder_end_array (b);

  json_builder_set_member_name (b, "schedule");
  json_builder_begin_array (b);
  for (guint i = 0; i < r->steps->len; i++)
    {
      const WsStep *s = &g_array_index (r->steps, WsStep, i);
      json_builder_begin_object (b);
      ws_json_add_int (b, "step", i);
      json_builder_set_member_name (b, "kind");
      json_builder_add_string_value (b, ws_step_kind_to_string (s->kind));
      json_builder_set_member_name (b, "lanes");
      json_builder_add_value (b, lanes_node (s->lanes));
      switch (s->kind)
        {
        case WS_STEP_SECTOR:
          ws_json_add_int (b, "sector_address", s->address);
          break;
        case WS_STEP_WAVEFRONT:
          ws_json_add_int (b, "phase", s->phase);
          json_builder_set_member_name (b, "banks");
          json_builder_add_value (b, lanes_node (s->banks));
          break;
        case WS_STEP_ADDRESS:
          ws_json_add_int (b, "address", s->address);
          break;
        case WS_STEP_ATOMIC:
          ws_json_add_int (b, "sector_address", s->address);
          ws_json_add_int (b, "round", s->round);
          break;
        case WS_STEP_REGISTER:
        default:
          break;
        }
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}
