/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "ws-cli.h"
#include "ws-cli-measuring.h"
#include "ws-cli-hierarchy.h"
#include "ws-cli-kernel.h"
#include "ws-hierarchy-json.h"
#include "ws-json.h"
#include "ws-model-json.h"
#include "ws-presets.h"

#include <glib-unix.h>
#include <signal.h>
#include <stdio.h>

static const char *const model_description =
  /* Translators: the help of “warpscope-cli model --help”; options, values
   * and examples stay as they are */
  N_("The pattern is one or more memory instructions that every thread of the launch executes.\n"
     "Its index expression is C over 64-bit integers: + - * / % << >> & | ^ ~ ! comparisons && || ?:\n"
     "min(a, b), max(a, b), abs(x), the built-ins threadIdx, blockIdx, blockDim, gridDim (.x .y .z),\n"
     "lane and warp, and named parameters set with --set or defined with --define.\n"
     "\n"
     "Figures are averages over the whole launch:\n"
     "  sectors per request  32-byte sectors per warp-level request (global, local)\n"
     "  efficiency           bytes the warp asked for / bytes the sectors moved; for shared memory,\n"
     "                       the fewest wavefronts possible / wavefronts needed\n"
     "  wavefronts           shared-memory passes per instruction (bank conflicts add passes)\n"
     "  distinct addresses   per instruction (constant memory serves one at a time)\n"
     "  replays              passes beyond the first (constant, local, atomics)\n"
     "\n"
     "The model analyses launches of at most 2^32 threads and 2^27 warps (each block is at least a\n"
     "warp). A long analysis shows progress on a terminal; Ctrl+C stops it (exit status 130).\n"
     "\n"
     "Below L1 (with a device profile, --device): the launch followed through the SMs' L1, L2 and\n"
     "DRAM — a preset's as its real kernel runs it (with its stores and loops), a pattern of your own\n"
     "as it is — with L1 hits, L2 sectors read and written, L2 hits, DRAM bytes read and written, the\n"
     "time each level alone would take, the predicted time, and the level that bounds it.\n"
     "--no-hierarchy leaves this out (it takes a second or two for the largest launches).\n"
     "\n"
     "Examples:\n"
     "  warpscope-cli model --preset coalescing/offset\n"
     "  warpscope-cli model --preset banks/stride --set stride=2 --json\n"
     "  warpscope-cli model --preset coalescing/stride --device nvidia-h100-80gb-hbm3\n"
     "  warpscope-cli model --index 'blockIdx.x + threadIdx.x * gridDim.x' --grid 128 --block 256\n"
     "  warpscope-cli model -d 'i=blockIdx.x * blockDim.x + threadIdx.x' --guard 'i < N' --set N=1000 \\\n"
     "                      --index 'i' --grid 4 --block 256 --elem-size 8\n");

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

static void
list_presets (gboolean json)
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

static void
print_access_stats (const WsAccess *a,
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

static void
print_warp (const WsPattern    *p,
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
static WsWarpResult *
first_active_warp (const WsPattern *p,
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

static void
print_json (const WsPattern          *p,
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

/* The launch analysed on a thread of its own, while this one draws progress
 * on a terminal and Ctrl+C cancels it. */
typedef struct
{
  const WsPattern *pattern;
  GCancellable *cancellable;
  WsAnalysisProgress progress;
  WsLaunchStats *stats;
  GError *error;
  int done;
} Analysis;

static gpointer
analysis_thread (gpointer data)
{
  Analysis *a = data;

  a->stats = ws_model_analyze_launch_full (a->pattern, a->cancellable, &a->progress, &a->error);
  g_atomic_int_set (&a->done, TRUE);
  g_main_context_wakeup (NULL);
  return NULL;
}

static gboolean
on_interrupt (gpointer cancellable)
{
  g_cancellable_cancel (cancellable);
  return G_SOURCE_CONTINUE;
}

static gboolean
on_tick (gpointer data)
{
  return G_SOURCE_CONTINUE;
}

static WsLaunchStats *
analyze (const WsPattern *p,
         GError         **error)
{
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  Analysis a = { p, cancellable };
  gint64 start = g_get_monotonic_time ();
  WsCliProgress bar;
  GThread *thread;
  guint interrupt, tick;
  gboolean drawn = FALSE;

  ws_cli_progress_init (&bar, 1);
  bar.what = _("analysing the launch (Ctrl+C stops)");
  interrupt = g_unix_signal_add (SIGINT, on_interrupt, cancellable);
  tick = g_timeout_add (100, on_tick, NULL);
  thread = g_thread_new ("ws-cli-model", analysis_thread, &a);
  while (!g_atomic_int_get (&a.done))
    {
      g_main_context_iteration (NULL, TRUE);
      /* only a launch that takes a while gets a bar */
      if (g_get_monotonic_time () - start > G_USEC_PER_SEC / 2)
        {
          ws_cli_progress_draw (&bar, (guint) MIN (g_atomic_pointer_get (&a.progress.blocks_done), G_MAXUINT32),
                                (guint) MIN (MAX (g_atomic_pointer_get (&a.progress.blocks_total), 1), G_MAXUINT32));
          drawn = TRUE;
        }
    }
  g_thread_join (thread);
  g_source_remove (tick);
  g_source_remove (interrupt);
  if (drawn)
    ws_cli_progress_clear (&bar);
  if (a.error)
    g_propagate_error (error, a.error);
  return a.stats;
}

/* model --kernel FILE: its launch by source line, and below L1. */
static int
model_kernel (const WsCliPatternOptions *po,
              const char                *device,
              gboolean                   json,
              gboolean                   no_hierarchy)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WsKernelSpec) spec = ws_cli_kernel_spec (po, &error);
  g_autoptr (WsKernelInstance) instance = NULL;
  g_autoptr (WsDeviceProfile) profile = NULL;
  g_autoptr (WsKernelPrediction) pred = NULL;

  if (spec == NULL || (instance = ws_kernel_spec_instantiate (spec, NULL, &error)) == NULL)
    return ws_cli_fail ("model", WS_CLI_USAGE, "%s", error->message);
  if (!no_hierarchy && (profile = ws_cli_device_profile (device, &error)) == NULL)
    return ws_cli_fail ("model", WS_CLI_USAGE, "--device: %s", error->message);
  pred = ws_cli_kernel_predict (instance, profile, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return ws_cli_fail ("model", WS_CLI_INTERRUPTED, _("interrupted"));
  if (pred == NULL)
    return ws_cli_fail ("model", WS_CLI_USAGE, "%s", error->message);
  ws_cli_kernel_print_model (instance, pred, profile, json);
  return WS_CLI_OK;
}

int
ws_cli_model (int    argc,
              char **argv)
{
  WsCliPatternOptions po = { 0 };
  gboolean json = FALSE;
  gboolean list = FALSE;
  gboolean no_hierarchy = FALSE;
  g_autofree char *device = NULL;
  g_autofree GOptionEntry *pattern_entries = ws_cli_pattern_entries (&po);
  g_autoptr (GArray) entries = g_array_new (TRUE, TRUE, sizeof (GOptionEntry));
  GOptionEntry own[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print one JSON object instead of a table"), NULL },
    { "list-presets", 0, 0, G_OPTION_ARG_NONE, &list, N_("List the presets and exit"), NULL },
    { "device", 0, 0, G_OPTION_ARG_STRING, &device, WS_CLI_DEVICE_HELP, N_("ID|FILE") },
    { "no-hierarchy", 0, 0, G_OPTION_ARG_NONE, &no_hierarchy,
      N_("Leave out what the launch moves below L1, and its time"), NULL },
  };
  g_autoptr (WsPattern) p = NULL;
  g_autoptr (WsLaunchStats) ls = NULL;
  g_autoptr (GPtrArray) warps = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_warp_result_free);
  g_autoptr (GError) error = NULL;
  g_autoptr (WsDeviceProfile) profile = NULL;
  g_autoptr (WsKernelLaunch) launch = NULL;
  g_autoptr (WsLaunchPrediction) pred = NULL;
  const WsPreset *preset;
  int status = WS_CLI_OK;

  for (guint i = 0; pattern_entries[i].long_name; i++)
    g_array_append_val (entries, pattern_entries[i]);
  g_array_append_vals (entries, own, G_N_ELEMENTS (own));

  if (!ws_cli_parse ("model", NULL, N_("Analyse a memory access pattern with the hardware model (no GPU needed)."),
                     model_description, (GOptionEntry *) entries->data, &argc, &argv))
    {
      status = WS_CLI_USAGE;
      goto out;
    }
  if (list)
    {
      list_presets (json);
      goto out;
    }
  if (argc > 1)
    {
      status = ws_cli_fail ("model", WS_CLI_USAGE, _("unexpected argument “%s” (options start with --)"), argv[1]);
      goto out;
    }

  if (po.kernel)
    {
      status = model_kernel (&po, device, json, no_hierarchy);
      goto out;
    }
  p = ws_cli_pattern_build (&po, &error);
  if (p == NULL)
    {
      status = ws_cli_fail ("model", WS_CLI_USAGE, "%s", error->message);
      goto out;
    }
  ls = analyze (p, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      status = ws_cli_fail ("model", WS_CLI_INTERRUPTED, _("interrupted"));
      goto out;
    }
  for (guint i = 0; ls && i < ws_pattern_get_n_accesses (p); i++)
    {
      WsWarpResult *r = first_active_warp (p, i, &error);
      if (r == NULL)
        g_clear_pointer (&ls, ws_launch_stats_free);
      else
        g_ptr_array_add (warps, r);
    }
  if (ls == NULL)
    {
      status = ws_cli_fail ("model", WS_CLI_USAGE, "%s", error->message);
      goto out;
    }

  if (!no_hierarchy)
    {
      profile = ws_cli_device_profile (device, &error);
      if (profile == NULL)
        {
          status = ws_cli_fail ("model", WS_CLI_USAGE, "--device: %s", error->message);
          goto out;
        }
      pred = ws_cli_predict (po.preset, p, profile, &launch, &error);
      if (pred == NULL)
        {
          status = ws_cli_fail ("model", WS_CLI_USAGE, "%s", error->message);
          goto out;
        }
    }

  preset = po.preset ? ws_preset_lookup (po.preset) : NULL;
  if (json)
    print_json (p, ls, warps, po.preset, pred, launch, profile);
  else
    {
      WsDim3 g = ws_pattern_get_grid (p), b = ws_pattern_get_block (p);

      if (preset)
        printf ("%s — %s\n%s\n\n", preset->id, preset->title, preset->summary);
      printf ("launch: grid (%u, %u, %u) × block (%u, %u, %u) = %" G_GUINT64_FORMAT " threads, %"
              G_GUINT64_FORMAT " warps (analysed in %.3f s)\n",
              g.x, g.y, g.z, b.x, b.y, b.z, ls->threads, ls->warps, ls->seconds);
      for (guint i = 0; i < ws_pattern_get_n_params (p); i++)
        {
          const WsParam *param = ws_pattern_get_param_nth (p, i);
          printf ("%s%s = %" G_GINT64_FORMAT, i == 0 ? "parameters: " : ", ", param->name, param->value);
        }
      if (ws_pattern_get_n_params (p))
        printf ("\n");
      /* what was typed, with any control character as an escape */
      for (guint i = 0; i < ws_pattern_get_n_definitions (p); i++)
        {
          g_autofree char *text = ws_text_printable (ws_pattern_get_definition (p, i)->text, 0);
          printf ("  %s = %s\n", ws_pattern_get_definition (p, i)->name, text);
        }
      if (ws_pattern_get_guard_text (p))
        {
          g_autofree char *guard = ws_text_printable (ws_pattern_get_guard_text (p), 0);
          printf ("  if (%s)\n", guard);
        }
      for (guint i = 0; i < ls->n_accesses; i++)
        {
          g_autofree char *desc = ws_pattern_describe_access (p, i);
          printf ("\n%s\n", desc);
          print_access_stats (ws_pattern_get_access (p, i), &ls->accesses[i]);
          print_warp (p, g_ptr_array_index (warps, i));
        }
      if (pred)
        ws_cli_print_prediction (pred, launch, profile);
    }

out:
  ws_cli_pattern_options_clear (&po);
  return status;
}
