/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What model, export and sweep share about the hierarchy: the device
 * profile to use, the launch a pattern stands for, and the text that shows
 * what it moves below L1 and how long it takes. */
#include "ws-cli-hierarchy.h"
#include "ws-device-json.h"
#include "ws-presets.h"
#include "ws-recording.h"

#include <math.h>
#include <stdio.h>

#define DEFAULT_DEVICE "nvidia-h200"

WsDeviceProfile *
ws_cli_device_profile (const char *requested,
                       GError    **error)
{
  g_autoptr (WsRecording) bundled = NULL;

  if (requested)
    return ws_device_profile_find (requested, error);
  /* the device the bundled recording was made on, so that the model and the
   * measurements shown without a GPU agree */
  bundled = ws_recording_load_bundled (NULL);
  if (bundled)
    {
      g_autofree char *slug = ws_device_slug (ws_recording_get_device (bundled)->name);
      WsDeviceProfile *p = ws_device_profile_find (slug, NULL);

      if (p)
        return p;
    }
  return ws_device_profile_find (DEFAULT_DEVICE, error);
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

void
ws_cli_print_prediction (const WsLaunchPrediction *pred,
                         const WsKernelLaunch     *launch,
                         const WsDeviceProfile    *profile)
{
  const WsTiming *t = &pred->timing;

  printf ("\nBelow L1, on %s (data/devices/%s.json)\n", profile->name, profile->id);
  if (launch->preset && ws_kernel_launch_describe (launch->preset))
    printf ("  the real kernel's launch: %s\n", ws_kernel_launch_describe (launch->preset));
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
