/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What warpscope-cli model prints of a pattern: its figures as a table,
 * the first warp's lanes and schedule, or one JSON object; and the list of
 * presets. */
#include "ws-config.h"
#include "ws-cli-model-print.h"
#include "ws-cli-measuring.h"
#include "ws-hierarchy-json.h"
#include "ws-json.h"
#include "ws-model-json.h"

#include <stdio.h>

/* {"format": "warpscope-presets", "version": 1, "topics": [{id, title,
 * presets: [{id, title, summary}]}]} */
static void
list_presets_json (void)
{
  guint n_topics, n_presets;
  const WsTopic *topics = ws_topics_get_all (&n_topics);
  const WsPreset *presets = ws_presets_get_all (&n_presets);
  g_autoptr (JsonBuilder) b = json_builder_new ();
  g_autoptr (JsonNode) root = NULL;

  json_builder_begin_object (b);
  ws_json_add_string (b, "format", "warpscope-presets");
  ws_json_add_int (b, "version", 1);
  json_builder_set_member_name (b, "topics");
  json_builder_begin_array (b);
  for (guint t = 0; t < n_topics; t++)
    {
      json_builder_begin_object (b);
      ws_json_add_string (b, "id", topics[t].id);
      ws_json_add_string (b, "title", topics[t].title);
      json_builder_set_member_name (b, "presets");
      json_builder_begin_array (b);
      for (guint i = 0; i < n_presets; i++)
        if (g_strcmp0 (presets[i].topic, topics[t].id) == 0)
          {
            json_builder_begin_object (b);
            ws_json_add_string (b, "id", presets[i].id);
            ws_json_add_string (b, "title", presets[i].title);
            json_builder_end_object (b);
          }
      json_builder_end_array (b);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  ws_cli_print_json_node (root);
}

void
ws_cli_model_list_presets (gboolean json)
{
  guint n_topics, n_presets;
  const WsTopic *topics = ws_topics_get_all (&n_topics);
  const WsPreset *presets = ws_presets_get_all (&n_presets);

  if (json)
    {
      list_presets_json ();
      return;
    }
  for (guint t = 0; t < n_topics; t++)
    {
      printf ("%s\n", topics[t].title);
      for (guint i = 0; i < n_presets; i++)
        if (g_strcmp0 (presets[i].topic, topics[t].id) == 0)
          printf ("  %-34s %s\n", presets[i].id, presets[i].title);
      printf ("\n");
    }
}

static char *
lane_ranges (guint32 lanes)
{
  GString *s = g_string_new (NULL);

  for (guint l = 0; l < WS_WARP_SIZE;)
    {
      guint e;

      if (!(lanes & (1u << l)))
        {
          l++;
          continue;
        }
      for (e = l; e + 1 < WS_WARP_SIZE && (lanes & (1u << (e + 1))); e++)
        ;
      if (s->len)
        g_string_append (s, ",");
      if (e == l)
        g_string_append_printf (s, "%u", l);
      else
        g_string_append_printf (s, "%u-%u", l, e);
      l = e + 1;
    }
  return g_string_free (s, FALSE);
}

static void
print_stats_row (const char *label,
                 double      per_instruction,
                 guint64     total,
                 gboolean    show_per)
{
  if (show_per)
    printf ("  %-30s %14.2f %16" G_GUINT64_FORMAT "\n", label, per_instruction, total);
  else
    printf ("  %-30s %14s %16" G_GUINT64_FORMAT "\n", label, "", total);
}

void
ws_cli_model_print_access_stats (const WsAccess *a,
                    const WsStats  *s)
{
  double n = s->instructions ? (double) s->instructions : 1.0;

  printf ("  %-30s %14s %16s\n", "", "per instruction", "whole launch");
  print_stats_row ("warp instructions", 0, s->instructions, FALSE);
  switch (a->space)
    {
    case WS_SPACE_GLOBAL:
    case WS_SPACE_LOCAL:
      print_stats_row ("requests", s->requests / n, s->requests, TRUE);
      print_stats_row ("sectors", s->sectors / n, s->sectors, TRUE);
      printf ("  %-30s %14.2f\n", "sectors per request", ws_stats_sectors_per_request (s));
      print_stats_row ("128-byte lines", s->lines / n, s->lines, TRUE);
      print_stats_row ("bytes asked for", s->bytes_requested / n, s->bytes_requested, TRUE);
      print_stats_row ("bytes moved", s->bytes_moved / n, s->bytes_moved, TRUE);
      printf ("  %-30s %13.1f %%\n", a->space == WS_SPACE_GLOBAL ? "coalescing (asked / moved)" : "efficiency (asked / moved)",
              100.0 * ws_stats_efficiency (s));
      if (a->space == WS_SPACE_LOCAL)
        print_stats_row ("replays", s->replays / n, s->replays, TRUE);
      if (a->kind == WS_ACCESS_ATOMIC)
        {
          print_stats_row ("distinct addresses", s->distinct_addresses / n, s->distinct_addresses, TRUE);
          print_stats_row ("colliding lanes", s->atomic_conflicts / n, s->atomic_conflicts, TRUE);
          print_stats_row ("serialised rounds beyond one", s->replays / n, s->replays, TRUE);
        }
      break;
    case WS_SPACE_SHARED:
      print_stats_row ("wavefronts", s->wavefronts / n, s->wavefronts, TRUE);
      print_stats_row ("fewest possible", s->ideal_wavefronts / n, s->ideal_wavefronts, TRUE);
      print_stats_row ("bank conflicts (extra)", ws_stats_bank_conflicts (s) / n, ws_stats_bank_conflicts (s), TRUE);
      print_stats_row ("distinct addresses", s->distinct_addresses / n, s->distinct_addresses, TRUE);
      if (a->kind == WS_ACCESS_ATOMIC)
        print_stats_row ("colliding lanes", s->atomic_conflicts / n, s->atomic_conflicts, TRUE);
      break;
    case WS_SPACE_CONSTANT:
      print_stats_row ("distinct addresses (requests)", s->distinct_addresses / n, s->distinct_addresses, TRUE);
      print_stats_row ("replays", s->replays / n, s->replays, TRUE);
      break;
    case WS_SPACE_REGISTER:
      printf ("  in registers: no memory instruction\n");
      break;
    case WS_N_SPACES:
    default:
      break;
    }
}

void
ws_cli_model_print_warp (const WsPattern    *p,
            const WsWarpResult *r)
{
  g_autofree char *active = lane_ranges (r->active);

  printf ("\n  first warp: block (%u, %u, %u), warp %u, active lanes %s\n",
          r->block_idx.x, r->block_idx.y, r->block_idx.z, r->warp, *active ? active : "none");
  if (r->space == WS_SPACE_REGISTER || r->active == 0)
    return;
  printf ("  %4s %16s %14s %10s\n", "lane", "index", "address", r->space == WS_SPACE_SHARED ? "bank" :
                                                               r->space == WS_SPACE_CONSTANT ? "" : "sector");
  for (guint l = 0; l < WS_WARP_SIZE; l++)
    {
      if (!(r->active & (1u << l)))
        continue;
      if (r->space == WS_SPACE_SHARED)
        printf ("  %4u %16" G_GINT64_FORMAT " %14" G_GINT64_FORMAT " %10u\n", l, r->index[l], r->address[l], r->bank[l]);
      else if (r->space == WS_SPACE_CONSTANT)
        printf ("  %4u %16" G_GINT64_FORMAT " %14" G_GINT64_FORMAT "\n", l, r->index[l], r->address[l]);
      else
        printf ("  %4u %16" G_GINT64_FORMAT " %14" G_GINT64_FORMAT " %10" G_GINT64_FORMAT "\n",
                l, r->index[l], r->address[l], r->address[l] / WS_SECTOR_BYTES);
    }
  printf ("  schedule (%u step%s):\n", r->steps->len, r->steps->len == 1 ? "" : "s");
  for (guint i = 0; i < r->steps->len; i++)
    {
      const WsStep *s = &g_array_index (r->steps, WsStep, i);
      g_autofree char *lanes = lane_ranges (s->lanes);

      switch (s->kind)
        {
        case WS_STEP_SECTOR:
          printf ("    %3u  sector at byte %-10" G_GINT64_FORMAT " lanes %s\n", i + 1, s->address, lanes);
          break;
        case WS_STEP_WAVEFRONT:
          {
            g_autofree char *banks = lane_ranges (s->banks);
            printf ("    %3u  wavefront, phase %u, banks %-12s lanes %s\n", i + 1, s->phase, banks, *lanes ? lanes : "(partial)");
          }
          break;
        case WS_STEP_ADDRESS:
          printf ("    %3u  address %-14" G_GINT64_FORMAT " lanes %s\n", i + 1, s->address, lanes);
          break;
        case WS_STEP_ATOMIC:
          printf ("    %3u  atomic round %u on sector at byte %-10" G_GINT64_FORMAT " lanes %s\n",
                  i + 1, s->round + 1, s->address, lanes);
          break;
        case WS_STEP_REGISTER:
        default:
          break;
        }
    }
  (void) p;
}

/* The first warp of the launch, in launch order, with an active lane. */
WsWarpResult *
ws_cli_model_first_active_warp (const WsPattern *p,
                   guint            access,
                   GError         **error)
{
  WsDim3 grid = ws_pattern_get_grid (p);
  guint warps = ws_pattern_get_warps_per_block (p);
  guint64 blocks = ws_dim3_count (grid);
  WsWarpResult *first = NULL;

  /* looking at the first few blocks is enough; an empty launch shows warp 0 */
  for (guint64 b = 0; b < MIN (blocks, 64); b++)
    for (guint w = 0; w < warps; w++)
      {
        WsDim3 bi = WS_DIM3 ((guint) (b % grid.x), (guint) ((b / grid.x) % grid.y), (guint) (b / ((guint64) grid.x * grid.y)));
        WsWarpResult *r = ws_model_analyze_warp (p, access, bi, w, error);

        if (r == NULL)
          {
            ws_warp_result_free (first);
            return NULL;
          }
        if (r->active)
          {
            ws_warp_result_free (first);
            return r;
          }
        if (first == NULL)
          first = r;
        else
          ws_warp_result_free (r);
      }
  return first;
}

void
ws_cli_model_print_json (const WsPattern          *p,
            const WsLaunchStats      *ls,
            GPtrArray                *warps,
            const char               *preset,
            const WsLaunchPrediction *pred,
            const WsKernelLaunch     *launch,
            const WsDeviceProfile    *profile)
{
  g_autoptr (JsonNode) counts = ws_launch_stats_to_json (ls);
  g_autoptr (JsonNode) root = json_node_new (JSON_NODE_OBJECT);
  JsonObject *o = json_object_new ();
  JsonObject *fw = json_object_new ();
  JsonArray *per_access = json_array_new ();
  g_autofree char *text = NULL;
  g_autoptr (GList) members = json_object_get_members (json_node_get_object (counts));

  /* what it is first, as every object the CLI prints for a program */
  json_node_take_object (root, o);
  json_object_set_string_member (o, "format", "warpscope-model");
  json_object_set_int_member (o, "version", 1);
  for (GList *m = members; m; m = m->next)
    json_object_set_member (o, m->data, json_node_copy (json_object_get_member (json_node_get_object (counts), m->data)));
  if (preset)
    json_object_set_string_member (o, "preset", preset);
  json_object_set_member (o, "pattern", ws_pattern_to_json (p));
  for (guint i = 0; i < warps->len; i++)
    json_array_add_element (per_access, ws_warp_result_to_json (g_ptr_array_index (warps, i), p));
  if (warps->len > 0)
    {
      /* the first access's lanes and schedule at the top, every access below */
      JsonObject *w0 = json_array_get_object_element (per_access, 0);
      json_object_set_member (fw, "block", json_node_copy (json_object_get_member (w0, "block")));
      json_object_set_int_member (fw, "warp", json_object_get_int_member (w0, "warp"));
      json_object_set_member (fw, "lanes", json_node_copy (json_object_get_member (w0, "lanes")));
      json_object_set_member (fw, "schedule", json_node_copy (json_object_get_member (w0, "schedule")));
    }
  json_object_set_array_member (fw, "accesses", per_access);
  json_object_set_object_member (o, "first_warp", fw);
  if (pred)
    ws_prediction_add_to_json (o, pred, launch, profile);

  text = ws_json_to_text (root, TRUE);
  printf ("%s\n", text);
}

