/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "ws-hierarchy-json.h"

JsonNode *
ws_hier_stats_to_json (const WsHierStats *s)
{
  JsonObject *o = json_object_new ();
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);

#define MEMBER(F) json_object_set_int_member (o, #F, (gint64) s->F)
  MEMBER (l1_sectors);
  MEMBER (l1_hits);
  MEMBER (l2_read_sectors);
  MEMBER (l2_read_requests);
  MEMBER (l2_read_hits);
  MEMBER (l2_write_sectors);
  MEMBER (l2_write_requests);
  MEMBER (l2_partial_sectors);
  MEMBER (l2_atomic_sectors);
  MEMBER (dram_read_bytes);
  MEMBER (dram_write_bytes);
#undef MEMBER
  json_object_set_double_member (o, "l1_hit_rate", ws_hier_stats_l1_hit_rate (s));
  json_object_set_double_member (o, "l2_hit_rate", ws_hier_stats_l2_hit_rate (s));
  json_node_take_object (node, o);
  return node;
}

static JsonNode *
phase_to_json (const WsLaunchPhase *ph,
               const WsHierarchy   *h)
{
  JsonObject *o = json_object_new ();
  JsonArray *accesses = json_array_new ();
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);

  for (guint i = 0; i < h->n_accesses; i++)
    {
      const WsAccess *a = ws_pattern_get_access (ph->pattern, i);
      JsonNode *stats = ws_hier_stats_to_json (&h->accesses[i]);
      JsonObject *so = json_node_get_object (stats);
      g_autofree char *what = ws_pattern_describe_access (ph->pattern, i);

      json_object_set_string_member (so, "access", what);
      json_object_set_string_member (so, "space", ws_space_to_string (a->space));
      json_object_set_string_member (so, "kind", ws_access_kind_to_string (a->kind));
      json_object_set_int_member (so, "repeat", (gint64) ph->repeat[i]);
      json_array_add_element (accesses, stats);
    }
  json_object_set_int_member (o, "blocks_per_sm", h->blocks_per_sm);
  json_object_set_int_member (o, "l1_bytes", (gint64) h->l1_bytes);
  json_object_set_array_member (o, "accesses", accesses);
  json_object_set_member (o, "total", ws_hier_stats_to_json (&h->total));
  json_node_take_object (node, o);
  return node;
}

/* The top-level members both kinds of launch share. */
static void
add_totals (JsonObject            *o,
            const WsHierStats     *t,
            const WsTiming        *timing,
            const WsDeviceProfile *profile)
{
  JsonObject *device = json_object_new ();

  json_object_set_int_member (o, "l2_sectors_read", (gint64) t->l2_read_sectors);
  json_object_set_int_member (o, "l2_sectors_written", (gint64) t->l2_write_sectors);
  json_object_set_int_member (o, "dram_bytes_read", (gint64) t->dram_read_bytes);
  json_object_set_int_member (o, "dram_bytes_written", (gint64) t->dram_write_bytes);
  json_object_set_double_member (o, "l1_hit_rate", ws_hier_stats_l1_hit_rate (t));
  json_object_set_double_member (o, "l2_hit_rate", ws_hier_stats_l2_hit_rate (t));
  json_object_set_double_member (o, "predicted_ms", timing->predicted_ms);
  json_object_set_double_member (o, "warp_instructions", timing->warp_instructions);
  json_object_set_string_member (o, "bound", ws_bound_to_string (timing->bound));
  /* the Nsight Compute metric each of those counts is held against */
  {
    JsonObject *ncu = json_object_new ();

    json_object_set_string_member (ncu, "l2_sectors_read", "lts__t_sectors_srcunit_tex_op_read.sum");
    json_object_set_string_member (ncu, "l2_sectors_written", "lts__t_sectors_srcunit_tex_op_write.sum");
    json_object_set_string_member (ncu, "dram_bytes_read", "dram__bytes_read.sum");
    json_object_set_string_member (ncu, "dram_bytes_written", "dram__bytes_write.sum");
    json_object_set_string_member (ncu, "predicted_ms", "gpu__time_duration.sum");
    json_object_set_string_member (ncu, "warp_instructions", "smsp__inst_executed.sum");
    json_object_set_object_member (o, "ncu_metrics", ncu);
  }

  json_object_set_string_member (device, "id", profile->id);
  json_object_set_string_member (device, "name", profile->name);
  json_object_set_object_member (o, "device", device);
}

static JsonObject *
levels_to_json (const WsTiming *timing)
{
  JsonObject *levels = json_object_new ();

  for (guint b = 0; b < WS_N_BOUNDS; b++)
    json_object_set_double_member (levels, ws_bound_to_string (b), timing->level_ms[b]);
  return levels;
}

void
ws_prediction_add_to_json (JsonObject               *o,
                           const WsLaunchPrediction *pred,
                           const WsKernelLaunch     *launch,
                           const WsDeviceProfile    *profile)
{
  const WsHierStats *t = &pred->total;
  JsonObject *hier = json_object_new ();
  JsonArray *phases = json_array_new ();

  add_totals (o, t, &pred->timing, profile);
  if (launch->preset && ws_kernel_launch_describe (launch->preset))
    json_object_set_string_member (hier, "kernel", ws_kernel_launch_describe (launch->preset));
  for (guint i = 0; i < pred->phases->len; i++)
    json_array_add_element (phases, phase_to_json (g_ptr_array_index (launch->phases, i),
                                                   g_ptr_array_index (pred->phases, i)));
  json_object_set_array_member (hier, "phases", phases);
  json_object_set_member (hier, "total", ws_hier_stats_to_json (t));
  json_object_set_object_member (hier, "level_ms", levels_to_json (&pred->timing));
  json_object_set_object_member (o, "hierarchy", hier);
}

void
ws_kernel_prediction_add_to_json (JsonObject               *o,
                                  const WsKernelInstance   *inst,
                                  const WsKernelPrediction *pred,
                                  const WsDeviceProfile    *profile)
{
  const WsHierarchy *h = pred->hierarchy;
  JsonObject *hier = json_object_new ();
  JsonObject *phase = json_object_new ();
  JsonArray *phases = json_array_new ();
  JsonArray *accesses = json_array_new ();

  g_return_if_fail (h != NULL);

  add_totals (o, &h->total, &pred->timing, profile);
  for (guint i = 0; i < h->n_accesses; i++)
    {
      const WsKernelSite *site = ws_kernel_instance_get_site (inst, i);
      JsonNode *stats = ws_hier_stats_to_json (&h->accesses[i]);
      JsonObject *so = json_node_get_object (stats);

      json_object_set_string_member (so, "access", site->text);
      json_object_set_string_member (so, "space", ws_space_to_string (site->space));
      json_object_set_string_member (so, "kind", ws_access_kind_to_string (site->kind));
      json_object_set_int_member (so, "line", site->line);
      json_object_set_int_member (so, "repeat", 1);
      json_array_add_element (accesses, stats);
    }
  json_object_set_int_member (phase, "blocks_per_sm", h->blocks_per_sm);
  json_object_set_int_member (phase, "l1_bytes", (gint64) h->l1_bytes);
  json_object_set_array_member (phase, "accesses", accesses);
  json_object_set_member (phase, "total", ws_hier_stats_to_json (&h->total));
  json_array_add_object_element (phases, phase);
  json_object_set_string_member (hier, "kernel", ws_kernel_instance_get_kernel_name (inst));
  json_object_set_array_member (hier, "phases", phases);
  json_object_set_member (hier, "total", ws_hier_stats_to_json (&h->total));
  json_object_set_object_member (hier, "level_ms", levels_to_json (&pred->timing));
  json_object_set_object_member (o, "hierarchy", hier);
}
