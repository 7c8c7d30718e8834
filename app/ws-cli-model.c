/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "ws-cli.h"
#include "ws-pattern-kernel.h"
#include "ws-cli-measuring.h"
#include "ws-cli-hierarchy.h"
#include "ws-cli-kernel.h"
#include "ws-cli-work.h"
#include "ws-cli-model-print.h"
#include "ws-hierarchy-json.h"
#include "ws-json.h"
#include "ws-model-json.h"
#include "ws-presets.h"

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

static gpointer
analyze_launch (gpointer            data,
                GCancellable       *cancellable,
                WsAnalysisProgress *progress,
                GError            **error)
{
  return ws_model_analyze_launch_full (data, cancellable, progress, error);
}

static WsLaunchStats *
analyze (const WsPattern *p,
         GError         **error)
{
  return ws_cli_run_work (analyze_launch, (gpointer) p, _("analysing the launch (Ctrl+C stops)"), error);
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
  gboolean as_kernel = FALSE;
  g_autofree char *device = NULL;
  g_autofree GOptionEntry *pattern_entries = ws_cli_pattern_entries (&po);
  g_autoptr (GArray) entries = g_array_new (TRUE, TRUE, sizeof (GOptionEntry));
  GOptionEntry own[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print one JSON object instead of a table"), NULL },
    { "list-presets", 0, 0, G_OPTION_ARG_NONE, &list, N_("List the presets and exit"), NULL },
    { "device", 0, 0, G_OPTION_ARG_STRING, &device, WS_CLI_DEVICE_HELP, N_("ID|FILE") },
    { "no-hierarchy", 0, 0, G_OPTION_ARG_NONE, &no_hierarchy,
      N_("Leave out what the launch moves below L1, and its time"), NULL },
    { "as-kernel", 0, 0, G_OPTION_ARG_NONE, &as_kernel,
      N_("Print the pattern as a kernel of your own (a .cu file for --kernel) and exit"), NULL },
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
      ws_cli_model_list_presets (json);
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
  if (as_kernel)
    {
      const WsPreset *from = po.preset ? ws_preset_lookup (po.preset) : NULL;
      g_autofree char *text = ws_pattern_to_kernel_text (p, from ? from->title : NULL);

      fputs (text, stdout);
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
      WsWarpResult *r = ws_cli_model_first_active_warp (p, i, &error);
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
    ws_cli_model_print_json (p, ls, warps, po.preset, pred, launch, profile);
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
          ws_cli_model_print_access_stats (ws_pattern_get_access (p, i), &ls->accesses[i]);
          ws_cli_model_print_warp (p, g_ptr_array_index (warps, i));
        }
      if (pred)
        ws_cli_print_prediction (pred, launch, profile);
    }

out:
  ws_cli_pattern_options_clear (&po);
  return status;
}
