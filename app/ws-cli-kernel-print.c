/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A kernel of one's own, printed: the model of its whole launch by source
 * line (model --kernel, as text or JSON), and each line's counters beside
 * the model's figures (measure --kernel --counters). */
#include "ws-config.h"
#include "ws-cli-kernel.h"
#include "ws-cli-measuring.h"
#include "ws-hierarchy-json.h"
#include "ws-model-json.h"

#include <stdio.h>
#include <string.h>

/* The source line, without its indentation, at most 72 characters. */
static char *
source_line (const WsKernelInstance *instance,
             guint                   line)
{
  const char *text = ws_kernel_file_get_text (ws_kernel_instance_get_file (instance));
  const char *p = text, *end;

  for (guint l = 1; l < line && p; l++)
    {
      p = strchr (p, '\n');
      if (p)
        p++;
    }
  if (p == NULL)
    return g_strdup ("");
  end = strchr (p, '\n');
  {
    g_autofree char *raw = end ? g_strndup (p, end - p) : g_strdup (p);
    return ws_text_printable (g_strstrip (raw), 72);
  }
}

/* What nvcc keeps in a register through a loop, and why the count is low. */
static void
print_kept (const WsKernelSite *site)
{
  g_autofree char *text = ws_kernel_site_keep_text (site);

  if (text != NULL)
    printf ("    %s\n", text);
}

static void
print_site (const WsKernelSite *site,
            const WsStats      *s)
{
  double n = s->instructions ? (double) s->instructions : 1.0;

  printf ("  %s %s %s, %u B, at column %u: %" G_GUINT64_FORMAT " warp instruction%s, %.1f active lanes each\n",
          ws_space_to_string (site->space), ws_access_kind_to_string (site->kind), site->text, site->elem_size,
          site->column, s->instructions, s->instructions == 1 ? "" : "s",
          s->instructions ? (double) s->active_lanes / n : 0.0);
  print_kept (site);
  if (s->instructions == 0)
    return;
  switch (site->space)
    {
    case WS_SPACE_GLOBAL:
    case WS_SPACE_LOCAL:
      printf ("    %.2f sectors per request (%" G_GUINT64_FORMAT " sectors, %" G_GUINT64_FORMAT " requests), "
              "%.1f %% of the bytes moved were asked for\n",
              ws_stats_sectors_per_request (s), s->sectors, s->requests, 100.0 * ws_stats_efficiency (s));
      if (site->kind == WS_ACCESS_ATOMIC)
        printf ("    %" G_GUINT64_FORMAT " colliding lanes\n", s->atomic_conflicts);
      if (site->space == WS_SPACE_LOCAL && s->replays)
        printf ("    %.2f replays per instruction\n", ws_stats_replays_per_instruction (s));
      break;
    case WS_SPACE_SHARED:
      printf ("    %.2f wavefronts per instruction (the fewest possible: %.2f), %" G_GUINT64_FORMAT
              " bank conflicts\n", ws_stats_wavefronts_per_instruction (s), s->ideal_wavefronts / n,
              ws_stats_bank_conflicts (s));
      break;
    case WS_SPACE_CONSTANT:
      printf ("    %.2f distinct addresses per instruction (served one after another)\n",
              ws_stats_distinct_per_instruction (s));
      break;
    case WS_SPACE_REGISTER:
      printf ("    in registers: no memory instruction\n");
      break;
    case WS_N_SPACES:
    default:
      break;
    }
}

static void
print_below (const WsHierStats *s)
{
  if (s->l1_sectors)
    printf ("    below L1: %.1f %% L1 hits, %" G_GUINT64_FORMAT " L2 sectors read, %" G_GUINT64_FORMAT
            " written, %" G_GUINT64_FORMAT " DRAM bytes read, %" G_GUINT64_FORMAT " written\n",
            100 * ws_hier_stats_l1_hit_rate (s), s->l2_read_sectors, s->l2_write_sectors, s->dram_read_bytes,
            s->dram_write_bytes);
  else if (s->l2_write_sectors || s->l2_atomic_sectors)
    printf ("    below L1: %" G_GUINT64_FORMAT " L2 sectors written, %" G_GUINT64_FORMAT " atomic sector passes, %"
            G_GUINT64_FORMAT " DRAM bytes written\n", s->l2_write_sectors, s->l2_atomic_sectors, s->dram_write_bytes);
}

static void
print_text (WsKernelInstance         *inst,
            const WsKernelPrediction *pred,
            const WsDeviceProfile    *profile)
{
  const WsKernelStats *ks = pred->stats;
  WsDim3 g = ws_kernel_instance_get_grid (inst), b = ws_kernel_instance_get_block (inst);
  const char *const *notes = ws_kernel_instance_get_notes (inst);
  guint last_line = 0;

  printf ("%s — %s\n", ws_kernel_file_get_display_name (ws_kernel_instance_get_file (inst)),
          ws_kernel_instance_get_kernel_name (inst));
  printf ("launch: grid (%u, %u, %u) × block (%u, %u, %u) = %" G_GUINT64_FORMAT " threads, %" G_GUINT64_FORMAT
          " warps\n", g.x, g.y, g.z, b.x, b.y, b.z, ks->threads, ks->warps);
  for (guint i = 0; i < ws_kernel_instance_get_n_params (inst); i++)
    {
      const WsKernelParam *p = ws_kernel_instance_get_param (inst, i);

      if (p->is_pointer)
        {
          const WsKernelArrayInfo *a = ws_kernel_instance_get_array (inst, p->array);
          printf ("  %s %s: %" G_GUINT64_FORMAT " element%s of %u bytes%s\n", p->type, p->name, a->n_elements,
                  a->n_elements == 1 ? "" : "s", a->elem_size, a->size_origin == WS_KERNEL_SIZE_INFERRED ? " (sized to what the kernel touches)" : "");
        }
      else
        printf ("  %s %s = %s\n", p->type, p->name, p->value_text);
    }
  for (guint i = 0; notes && notes[i]; i++)
    printf ("note: %s\n", notes[i]);

  for (guint i = 0; i < ks->n_sites; i++)
    {
      const WsKernelSite *site = ws_kernel_instance_get_site (inst, i);

      if (site->line != last_line)
        {
          g_autofree char *src = source_line (inst, site->line);
          printf ("\nline %u: %s\n", site->line, src);
          last_line = site->line;
        }
      print_site (site, &ks->sites[i]);
      if (pred->hierarchy)
        print_below (&pred->hierarchy->accesses[i]);
    }
  printf ("\nwhole launch: %" G_GUINT64_FORMAT " memory instructions, %" G_GUINT64_FORMAT
          " other warp instructions, %" G_GUINT64_FORMAT " barriers\n",
          ks->total.instructions, ks->counts.instructions, ks->counts.barriers);
  if (pred->has_timing)
    {
      const WsTiming *t = &pred->timing;
      const WsHierStats *s = &pred->hierarchy->total;

      printf ("\nBelow L1, on %s (data/devices/%s.json)\n", profile->name, profile->id);
      printf ("  L1 hits %.1f %%, L2 sectors read %" G_GUINT64_FORMAT ", written %" G_GUINT64_FORMAT
              ", L2 hits %.1f %%, DRAM bytes read %" G_GUINT64_FORMAT ", written %" G_GUINT64_FORMAT "\n",
              100 * ws_hier_stats_l1_hit_rate (s), s->l2_read_sectors, s->l2_write_sectors,
              100 * ws_hier_stats_l2_hit_rate (s), s->dram_read_bytes, s->dram_write_bytes);
      printf ("  each level alone:");
      for (guint k = 0; k < WS_N_BOUNDS; k++)
        printf ("%s %s %.4f ms", k ? "," : "", ws_bound_to_string (k), t->level_ms[k]);
      printf ("\n  predicted time %.4f ms, bound by %s (%s)\n", t->predicted_ms, ws_bound_to_string (t->bound),
              ws_bound_describe (t->bound));
    }
}

static void
print_json (WsKernelInstance         *inst,
            const WsKernelPrediction *pred,
            const WsDeviceProfile    *profile)
{
  g_autoptr (JsonNode) counts = ws_kernel_stats_to_json (inst, pred->stats);
  g_autoptr (JsonNode) root = json_node_new (JSON_NODE_OBJECT);
  JsonObject *o = json_object_new ();
  JsonObject *kernel = json_object_new ();
  JsonArray *notes = json_array_new ();
  g_autoptr (GList) members = json_object_get_members (json_node_get_object (counts));
  const char *const *n = ws_kernel_instance_get_notes (inst);
  WsDim3 g = ws_kernel_instance_get_grid (inst), b = ws_kernel_instance_get_block (inst);

  json_node_take_object (root, o);
  json_object_set_string_member (o, "format", "warpscope-model");
  json_object_set_int_member (o, "version", 1);
  for (GList *m = members; m; m = m->next)
    json_object_set_member (o, m->data, json_node_copy (json_object_get_member (json_node_get_object (counts), m->data)));
  json_object_set_string_member (kernel, "file", ws_kernel_file_get_display_name (ws_kernel_instance_get_file (inst)));
  json_object_set_string_member (kernel, "name", ws_kernel_instance_get_kernel_name (inst));
  {
    JsonArray *grid = json_array_new (), *block = json_array_new ();

    json_array_add_int_element (grid, g.x);
    json_array_add_int_element (grid, g.y);
    json_array_add_int_element (grid, g.z);
    json_array_add_int_element (block, b.x);
    json_array_add_int_element (block, b.y);
    json_array_add_int_element (block, b.z);
    json_object_set_array_member (kernel, "grid", grid);
    json_object_set_array_member (kernel, "block", block);
  }
  for (guint i = 0; n && n[i]; i++)
    json_array_add_string_element (notes, n[i]);
  json_object_set_array_member (kernel, "notes", notes);
  json_object_set_object_member (o, "kernel", kernel);
  json_object_set_int_member (o, "warp_instructions_other", (gint64) pred->stats->counts.instructions);
  json_object_set_int_member (o, "barriers", (gint64) pred->stats->counts.barriers);
  if (pred->has_timing)
    ws_kernel_prediction_add_to_json (o, inst, pred, profile);
  ws_cli_print_json_node (root);
}

void
ws_cli_kernel_print_model (WsKernelInstance         *instance,
                           const WsKernelPrediction *prediction,
                           const WsDeviceProfile    *profile,
                           gboolean                  json)
{
  if (json)
    print_json (instance, prediction, profile);
  else
    print_text (instance, prediction, profile);
}

void
ws_cli_kernel_print_lines (WsKernelInstance    *instance,
                           const WsMeasurement *m)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WsKernelPrediction) pred = ws_cli_kernel_predict (instance, NULL, &error);
  guint last = 0;

  if (pred == NULL)
    {
      ws_cli_fail ("measure", 0, _("warning: no model to set beside the counters: %s"), error->message);
      return;
    }
  printf ("\nper source line, model / GPU (CUPTI's SASS metrics):\n");
  printf ("  %5s %21s %21s %21s\n", "line", "global instructions", "global sectors", "shared wavefronts");
  for (guint i = 0; i < pred->stats->n_sites; i++)
    {
      guint line = ws_kernel_instance_get_site (instance, i)->line;
      WsStats s;
      double hw_inst, hw_sectors, hw_waves;
      gboolean global = FALSE, shared = FALSE;

      if (line == last)
        continue;
      last = line;
      memset (&s, 0, sizeof s);
      for (guint k = 0; k < pred->stats->n_sites; k++)
        {
          const WsKernelSite *site = ws_kernel_instance_get_site (instance, k);
          const WsStats *st = &pred->stats->sites[k];

          if (site->line != line)
            continue;
          if (site->space == WS_SPACE_GLOBAL)
            s.instructions += st->instructions, s.sectors += st->sectors, global = TRUE;
          else if (site->space == WS_SPACE_SHARED)
            s.wavefronts += st->wavefronts, shared = TRUE;
        }
      hw_inst = ws_measurement_get_line_global_instructions (m, line);
      hw_sectors = ws_measurement_get_line_counter_or (m, line, "smsp__sass_sectors_mem_global", 0);
      hw_waves = ws_measurement_get_line_counter_or (m, line,
                                                     WS_LINE_SHARED_WAVEFRONTS, 0);
      printf ("  %5u", line);
      if (global || hw_inst > 0)
        printf (" %10" G_GUINT64_FORMAT " / %-8.0f %10" G_GUINT64_FORMAT " / %-8.0f", s.instructions, hw_inst,
                s.sectors, hw_sectors);
      else
        printf (" %21s %21s", "", "");
      if (shared || hw_waves > 0)
        printf (" %10" G_GUINT64_FORMAT " / %-8.0f", s.wavefronts, hw_waves);
      printf ("\n");
    }
}
