/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What model, export and sweep share about the hierarchy: the device
 * profile to use, the launch a pattern stands for, and the text that shows
 * what it moves below L1 and how long it takes. */
#include "ws-cli-hierarchy.h"
#include "ws-presets.h"
#include "ws-recording.h"
#include "ws-session.h"

#include <math.h>
#include <stdio.h>

WsDeviceProfile *
ws_cli_device_profile (const char *requested,
                       GError    **error)
{
  g_autoptr (WsSession) session = ws_session_new (NULL);
  g_autoptr (WsRecording) bundled = NULL;

  if (requested && !ws_session_choose_profile (session, requested, error))
    return NULL;
  /* the device the bundled recording was made on, so that the model and
   * the measurements shown without a GPU agree */
  if ((bundled = ws_recording_load_bundled (NULL)))
    ws_session_set_recording (session, bundled, NULL);
  return ws_device_profile_copy (ws_session_get_device_profile (session));
}

WsLaunchPrediction *
ws_cli_predict (const char            *preset,
                const WsPattern       *pattern,
                const WsDeviceProfile *profile,
                WsKernelLaunch       **launch_out,
                GError               **error)
{
  g_autoptr (WsKernelLaunch) launch = ws_kernel_launch_choose (preset, pattern, error);
  WsLaunchPrediction *pred;

  if (launch == NULL)
    return NULL;
  pred = ws_launch_predict (launch, profile, NULL, error);
  if (pred && launch_out)
    *launch_out = g_steal_pointer (&launch);
  return pred;
}

static void
row (const char *label,
     double      value,
     const char *unit)
{
  printf ("  %-30s %14.0f %s\n", label, value, unit);
}

static void
print_stats (const WsHierStats *s)
{
  if (s->l1_sectors)
    printf ("  %-30s %14" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT " sectors (%.1f %%)\n", "L1 hits",
            s->l1_hits, s->l1_sectors, 100 * ws_hier_stats_l1_hit_rate (s));
  if (s->l2_read_sectors)
    {
      row ("L2 sectors read", s->l2_read_sectors, "");
      printf ("  %-30s %14.1f %%\n", "L2 hits (read sectors)", 100 * ws_hier_stats_l2_hit_rate (s));
    }
  if (s->l2_write_sectors)
    {
      row ("L2 sectors written", s->l2_write_sectors, "");
      if (s->l2_partial_sectors)
        row ("  of them written in part", s->l2_partial_sectors, "");
    }
  if (s->l2_atomic_sectors)
    row ("L2 atomic sector passes", s->l2_atomic_sectors, "");
  row ("DRAM bytes read", s->dram_read_bytes, "");
  row ("DRAM bytes written", s->dram_write_bytes, "");
}

static const char *
host_words (WsHostCopy host)
{
  switch (host)
    {
    case WS_HOST_PAGEABLE:
      return "copied from pageable memory, then the kernel";
    case WS_HOST_PINNED:
      return "copied from pinned memory, then the kernel";
    case WS_HOST_MAPPED:
      return "read by the kernel over the bus (mapped memory)";
    case WS_HOST_STREAMS:
      return "copied in and out in chunks over streams (pinned)";
    case WS_HOST_PREFETCH:
      return "prefetched from managed memory, then the kernel";
    case WS_HOST_MANAGED:
      return "migrated from managed memory on the kernel's page faults";
    case WS_HOST_NONE:
    default:
      return NULL;
    }
}

static void
append_amount (GString    *s,
               double      value,
               const char *one,
               const char *many)
{
  if (value <= 0)
    return;
  if (s->len)
    g_string_append (s, ", ");
  if (value == floor (value))
    g_string_append_printf (s, "%.0f %s", value, value == 1 ? one : many);
  else
    g_string_append_printf (s, "%.3g %s", value, many);
}

/* The real kernel in words: what it does (the catalogue's line), its
 * phases, and what it does beside its memory instructions, per thread;
 * not the model's notation for it. */
static void
print_kernel (const WsKernelLaunch *launch)
{
  const WsPreset *preset = ws_preset_lookup (launch->preset);
  g_autoptr (GString) beside = g_string_new (NULL);
  const char *host = host_words (launch->host);

  if (preset && preset->kernel)
    printf ("  the real kernel: %s\n", preset->kernel);
  if (launch->phases->len > 1)
    printf ("  in %u phases one after another, each memory instruction below as often as a thread makes it\n",
            launch->phases->len);
  append_amount (beside, launch->alu, "arithmetic instruction", "arithmetic instructions");
  append_amount (beside, launch->syncs, "barrier", "barriers");
  append_amount (beside, launch->tex, "texture fetch", "texture fetches");
  append_amount (beside, launch->fences[WS_FENCE_BLOCK_SCOPE], "__threadfence_block ()",
                 "__threadfence_block ()s");
  append_amount (beside, launch->fences[WS_FENCE_GPU_SCOPE], "__threadfence ()", "__threadfence ()s");
  append_amount (beside, launch->fences[WS_FENCE_SYSTEM_SCOPE], "__threadfence_system ()",
                 "__threadfence_system ()s");
  append_amount (beside, launch->messages, "flag of another block waited for",
                 "flags of other blocks waited for");
  if (beside->len)
    printf ("  beside its memory instructions, per thread: %s\n", beside->str);
  if (launch->registers)
    printf ("  registers: %u per thread\n", launch->registers);
  if (launch->shared_bytes)
    printf ("  shared memory: %" G_GUINT64_FORMAT " bytes per block beyond its arrays\n", launch->shared_bytes);
  if (host && launch->streams > 1)
    printf ("  host data: %s, %u streams\n", host, launch->streams);
  else if (host)
    printf ("  host data: %s\n", host);
}

void
ws_cli_print_prediction (const WsLaunchPrediction *pred,
                         const WsKernelLaunch     *launch,
                         const WsDeviceProfile    *profile)
{
  const WsTiming *t = &pred->timing;

  printf ("\nBelow L1, on %s (data/devices/%s.json)\n", profile->name, profile->id);
  if (launch->preset && ws_kernel_launch_describe (launch->preset))
    print_kernel (launch);
  for (guint p = 0; p < pred->phases->len; p++)
    {
      const WsLaunchPhase *ph = g_ptr_array_index (launch->phases, p);
      const WsHierarchy *h = g_ptr_array_index (pred->phases, p);

      if (pred->phases->len > 1)
        printf ("\n  phase %u\n", p + 1);
      for (guint i = 0; i < h->n_accesses; i++)
        {
          const WsAccess *a = ws_pattern_get_access (ph->pattern, i);
          g_autofree char *what = ws_pattern_describe_access (ph->pattern, i);

          if (a->space != WS_SPACE_GLOBAL && a->space != WS_SPACE_LOCAL)
            continue;
          if (ph->repeat[i] > 1)
            printf ("\n  %s, %" G_GUINT64_FORMAT " times per thread\n", what, ph->repeat[i]);
          else
            printf ("\n  %s\n", what);
          print_stats (&h->accesses[i]);
        }
    }
  printf ("\n  whole launch\n");
  print_stats (&pred->total);
  printf ("\n  each level alone:");
  for (guint b = 0; b < WS_N_BOUNDS; b++)
    printf ("%s %s %.4f ms", b ? "," : "", ws_bound_to_string (b), t->level_ms[b]);
  printf ("\n  predicted time %.4f ms, bound by %s (%s)\n", t->predicted_ms, ws_bound_to_string (t->bound),
          ws_bound_describe (t->bound));
}
