/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The model of a whole launch, for the plots: the hierarchy below L1, and
 * the predicted time when the model predicts one. */
#include "ws-plot-model.h"

#include <math.h>
#include <stdlib.h>

#include "ws-chart.h"
#include "ws-device-json.h"
#include "ws-plot-cache.h"
#include "ws-figure-i18n-private.h"
#include "ws-kernel-launch.h"

/* Launches already followed, by preset, pattern and device: the hierarchy
 * view and the chart ask for the same ones, and a preset visited again
 * costs nothing. Every thread asks here. */
#define CACHE_MOST 256

static GMutex cache_lock;
static GHashTable *cache;    /* key → WsPlotModel */

static char *
cache_key (const WsPreset        *preset,
           const WsPattern       *pattern,
           const WsDeviceProfile *profile)
{
  g_autofree char *device = ws_device_profile_to_data (profile);
  g_autofree char *text = ws_pattern_sweep_key (pattern, NULL);

  return g_strdup_printf ("%s\n%s\n%s", preset ? preset->id : "", text, device);
}

static WsPlotModel *
cache_lookup (const char *key)
{
  WsPlotModel *m = NULL;

  g_mutex_lock (&cache_lock);
  if (cache && (m = g_hash_table_lookup (cache, key)))
    m = ws_plot_model_copy (m);
  g_mutex_unlock (&cache_lock);
  return m;
}

static void
cache_insert (char              *key,
              const WsPlotModel *m)
{
  g_mutex_lock (&cache_lock);
  if (cache == NULL)
    cache = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) ws_plot_model_free);
  if (g_hash_table_size (cache) >= CACHE_MOST)
    g_hash_table_remove_all (cache);
  g_hash_table_replace (cache, key, ws_plot_model_copy (m));
  g_mutex_unlock (&cache_lock);
}

/* The bounds as the figures name them, in WsBound's order; English, translated
 * where they are shown. */
static const char *level_names[WS_N_BOUNDS] = {
  [WS_BOUND_DRAM] = "DRAM",
  [WS_BOUND_L2] = "L2",
  [WS_BOUND_L1] = "L1",
  [WS_BOUND_SHARED] = N_("shared"),
  [WS_BOUND_CONSTANT] = N_("constant"),
  [WS_BOUND_ATOMICS] = N_("atomics"),
  [WS_BOUND_ALU] = N_("arithmetic"),
  [WS_BOUND_BLOCKS] = N_("blocks"),
  [WS_BOUND_LAUNCH] = N_("launch"),
};

G_STATIC_ASSERT (WS_N_BOUNDS <= WS_PLOT_MAX_LEVELS);

/* What the warps of a phase ask of L1, each access as often as a thread
 * makes it: instructions, and the sectors stores and atomics send down. */
static void
add_phase (WsPlotModel         *m,
           const WsHierarchy   *h,
           const WsLaunchPhase *phase)
{
  const WsLaunchStats *launch = h->launch;

  for (guint i = 0; launch && i < launch->n_accesses; i++)
    {
      const WsAccess *a = ws_pattern_get_access (launch->pattern, i);
      double times = phase && phase->repeat ? (double) phase->repeat[i] : 1;

      m->instructions += launch->accesses[i].instructions * times;
      if ((a->space == WS_SPACE_GLOBAL || a->space == WS_SPACE_LOCAL) && a->kind != WS_ACCESS_LOAD)
        m->written_sectors += launch->accesses[i].sectors * times;
    }
}

static void
fill_time (WsPlotModel    *m,
           const WsTiming *t)
{
  for (guint b = 0; b < WS_N_BOUNDS; b++)
    m->levels[b] = (WsPlotLevelTime) { level_names[b], t->level_ms[b] / 1e3, ws_bound_describe (b) };
  m->n_levels = WS_N_BOUNDS;
  m->bound = t->bound;
  m->predicted_s = t->predicted_ms / 1e3;
}

/* A model as numbers, for the disk (ws-plot-cache.h): the names of the
 * levels come back from their places. */
#define N_HIER_FIELDS (sizeof (WsHierStats) / sizeof (guint64))
#define N_SAVED (N_HIER_FIELDS + 13 + WS_PLOT_MAX_LEVELS)

G_STATIC_ASSERT (sizeof (WsHierStats) % sizeof (guint64) == 0);

static void
to_numbers (const WsPlotModel *m,
            double            *v)
{
  const guint64 *total = (const guint64 *) &m->total;
  guint k = 0;

  for (guint i = 0; i < N_HIER_FIELDS; i++)
    v[k++] = total[i];
  v[k++] = m->written_sectors;
  v[k++] = m->instructions;
  v[k++] = m->blocks;
  v[k++] = m->warps;
  v[k++] = m->blocks_per_sm;
  v[k++] = m->warps_per_sm;
  v[k++] = m->l1_bytes;
  v[k++] = m->sms;
  v[k++] = m->phases;
  v[k++] = m->predicted_s;
  v[k++] = m->bound;
  v[k++] = m->n_levels;
  v[k++] = 0;
  for (guint i = 0; i < WS_PLOT_MAX_LEVELS; i++)
    v[k++] = i < m->n_levels ? m->levels[i].seconds : 0;
}

static WsPlotModel *
from_numbers (const double *v)
{
  WsPlotModel *m = g_new0 (WsPlotModel, 1);
  guint64 *total = (guint64 *) &m->total;
  guint k = 0;

  for (guint i = 0; i < N_HIER_FIELDS; i++)
    total[i] = (guint64) v[k++];
  m->written_sectors = v[k++];
  m->instructions = (guint64) v[k++];
  m->blocks = (guint64) v[k++];
  m->warps = (guint64) v[k++];
  m->blocks_per_sm = (guint) v[k++];
  m->warps_per_sm = (guint) v[k++];
  m->l1_bytes = (guint64) v[k++];
  m->sms = (guint) v[k++];
  m->phases = (guint) v[k++];
  m->predicted_s = v[k++];
  m->bound = (int) v[k++];
  m->n_levels = MIN ((guint) v[k++], WS_N_BOUNDS);
  k++;
  for (guint b = 0; b < m->n_levels; b++)
    m->levels[b] = (WsPlotLevelTime) { level_names[b], v[k + b], ws_bound_describe (b) };
  return m;
}

WsPlotModel *
ws_plot_model_compute (const WsPreset        *preset,
                       const WsPattern       *pattern,
                       const WsDeviceProfile *profile,
                       GCancellable          *cancellable,
                       GError               **error)
{
  g_autoptr (WsKernelLaunch) launch = NULL;
  g_autoptr (WsLaunchPrediction) prediction = NULL;
  g_autofree char *key = NULL;
  const WsHierarchy *first;
  WsPlotModel *m;

  g_return_val_if_fail (pattern != NULL && profile != NULL, NULL);

  key = cache_key (preset, pattern, profile);
  if ((m = cache_lookup (key)))
    return m;
  {
    double saved[N_SAVED];

    /* followed in an earlier run of this very model */
    if (ws_plot_cache_lookup ("launch", key, saved, N_SAVED))
      {
        m = from_numbers (saved);
        cache_insert (g_strdup (key), m);
        return m;
      }
  }
  /* the preset's real kernel, stores, loops and copies included; else the pattern alone */
  launch = preset ? ws_kernel_launch_new (preset->id, pattern, error) : ws_kernel_launch_of_pattern (pattern);
  if (launch == NULL || (prediction = ws_launch_predict (launch, profile, cancellable, error)) == NULL)
    return NULL;
  m = g_new0 (WsPlotModel, 1);
  m->total = prediction->total;
  for (guint i = 0; i < prediction->phases->len; i++)
    add_phase (m, g_ptr_array_index (prediction->phases, i),
               i < launch->phases->len ? g_ptr_array_index (launch->phases, i) : NULL);
  first = g_ptr_array_index (prediction->phases, 0);
  m->blocks = first->launch ? first->launch->blocks : 0;
  m->warps = first->launch ? first->launch->warps : 0;
  m->blocks_per_sm = first->blocks_per_sm;
  m->warps_per_sm = first->warps_per_sm;
  m->l1_bytes = first->l1_bytes;
  m->sms = profile->sms;
  m->phases = prediction->phases->len;
  fill_time (m, &prediction->timing);
  {
    double saved[N_SAVED];

    to_numbers (m, saved);
    ws_plot_cache_store ("launch", key, saved, N_SAVED);
  }
  cache_insert (g_steal_pointer (&key), m);
  return m;
}

gboolean
ws_plot_model_can_predict (const WsDeviceProfile *profile)
{
  return profile != NULL;
}

WsPlotModel *
ws_plot_model_copy (const WsPlotModel *model)
{
  g_return_val_if_fail (model != NULL, NULL);
  return g_memdup2 (model, sizeof *model);
}

void
ws_plot_model_free (WsPlotModel *model)
{
  g_free (model);
}

const char *
ws_plot_model_bound_name (const WsPlotModel *model)
{
  if (model == NULL || isnan (model->predicted_s) || model->bound < 0 || (guint) model->bound >= model->n_levels)
    return NULL;
  return model->levels[model->bound].name;
}

const char *
ws_plot_bound_name (WsBound bound)
{
  g_return_val_if_fail (bound < WS_N_BOUNDS, NULL);
  return level_names[bound];
}

static int
slower_first (gconstpointer a,
              gconstpointer b)
{
  double ta = ((const WsPlotLevelTime *) a)->seconds, tb = ((const WsPlotLevelTime *) b)->seconds;

  return ta < tb ? 1 : ta > tb ? -1 : 0;
}

char *
ws_plot_model_describe_levels (const WsPlotModel *model)
{
  WsPlotLevelTime sorted[WS_PLOT_MAX_LEVELS];
  GString *s = g_string_new (NULL);
  guint n = 0;

  g_return_val_if_fail (model != NULL, NULL);
  for (guint i = 0; i < model->n_levels; i++)
    if (model->levels[i].seconds > 0)
      sorted[n++] = model->levels[i];
  qsort (sorted, n, sizeof sorted[0], slower_first);
  for (guint i = 0; i < n; i++)
    {
      WsChartAxis axis = { .unit = (char *) "s", .si = TRUE, .max = sorted[i].seconds };
      g_autofree char *t = ws_chart_axis_format (&axis, sorted[i].seconds, TRUE);
      g_string_append_printf (s, "%s%s %s", i ? " · " : "", FG_(sorted[i].name), t);
    }
  return g_string_free (s, FALSE);
}
