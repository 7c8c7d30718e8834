/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A kernel text's launch, once through the VM: each event is counted for
 * L1 (the rules of ws-analysis.c) and handed to the caches below
 * (ws_hier_walk_*), then the time is set down from what they moved and
 * what else the run did (arithmetic, barriers, fences). */
#include "ws-config.h"
#include "ws-kernel-predict.h"
#include "ws-kernel-instance.h"
#include "ws-i18n.h"

#include <glib/gi18n-lib.h>

#include <math.h>
#include <string.h>

typedef struct
{
  const WsKernelInstance *instance;
  WsStats *sites;
  WsHierWalk *walk;
  /* the last warp's counts per site: a warp that asks for the same
   * addresses, shifted by whole lines, costs the same (as in ws-analysis.c) */
  WsWarpCounts *last_counts;
  gint64 (*last_address)[WS_WARP_SIZE];
  guint32 *last_active;
} Predict;

static void
stats_init (WsStats *s)
{
  memset (s, 0, sizeof *s);
  s->min_address = G_MAXINT64;
  s->end_address = G_MININT64;
}

static void
stats_add_counts (WsStats            *s,
                  const WsWarpCounts *c,
                  guint32             active)
{
  s->instructions++;
  s->active_lanes += (guint) __builtin_popcount (active);
  s->requests += c->requests;
  s->sectors += c->sectors;
  s->lines += c->lines;
  s->bytes_requested += c->bytes_requested;
  s->bytes_moved += c->bytes_moved;
  s->wavefronts += c->wavefronts;
  s->ideal_wavefronts += c->ideal_wavefronts;
  s->distinct_addresses += c->distinct_addresses;
  s->replays += c->replays;
  s->atomic_conflicts += c->atomic_conflicts;
}

/* Whether a warp's addresses are the last one's moved by a whole number
 * of granules: then its counts are the same. */
static gboolean
same_shape (const gint64 *a,
            const gint64 *b,
            guint32       active,
            guint32       last_active,
            gint64        granule)
{
  gint64 shift;
  guint first;

  if (active != last_active || active == 0)
    return FALSE;
  first = (guint) __builtin_ctz (active);
  shift = a[first] - b[first];
  if (shift % granule != 0)
    return FALSE;
  for (guint32 m = active; m; m &= m - 1)
    {
      guint l = (guint) __builtin_ctz (m);
      if (a[l] - b[l] != shift)
        return FALSE;
    }
  return TRUE;
}

/* The shifts that keep a warp's counts: whole lines for global memory
 * (sectors and lines move together); for shared memory any whole number of
 * elements (the banks turn round together, and the phases of wide
 * accesses stay); for local memory whole words of the private array (each
 * moves a lane's address by a row of 128 bytes); any shift for constant
 * memory (only distinct addresses count). */
static gint64
shift_granule (const WsKernelSite *site)
{
  switch (site->space)
    {
    case WS_SPACE_SHARED:
      return MAX (site->elem_size, WS_BANK_BYTES);
    case WS_SPACE_LOCAL:
      return WS_BANK_BYTES;
    case WS_SPACE_CONSTANT:
      return 1;
    case WS_SPACE_GLOBAL:
    case WS_SPACE_REGISTER:
    case WS_N_SPACES:
    default:
      return WS_LINE_BYTES;
    }
}

static gboolean
visit (const WsKernelEvent *e,
       gpointer             user_data,
       GError             **error)
{
  Predict *p = user_data;
  const WsKernelSite *site = ws_kernel_instance_get_site (p->instance, e->site);
  WsStats *st = &p->sites[e->site];
  WsWarpCounts *c = &p->last_counts[e->site];
  guint size = ws_kernel_event_size (site, e);
  gint64 granule = MAX (shift_granule (site), (gint64) size);

  /* size 0: served by the wide load of an earlier iteration */
  if (size != 0)
    {
      if (!same_shape (e->address, p->last_address[e->site], e->active, p->last_active[e->site], granule))
        {
          ws_model_count_warp (site->space, site->kind, size, e->active, e->address, c, NULL);
          p->last_active[e->site] = e->active;
        }
      memcpy (p->last_address[e->site], e->address, sizeof p->last_address[e->site]);
      stats_add_counts (st, c, e->active);
      if (site->space == WS_SPACE_REGISTER)
        st->instructions--;   /* not a memory instruction */
    }
  for (guint32 m = e->active; m; m &= m - 1)
    {
      gint64 a = e->address[__builtin_ctz (m)];

      st->min_address = MIN (st->min_address, a);
      st->end_address = MAX (st->end_address, a + (gint64) site->elem_size);
    }
  if (p->walk && site->space != WS_SPACE_REGISTER && site->space <= WS_SPACE_LOCAL && e->site < WS_HIER_WALK_MAX_ACCESSES)
    ws_hier_walk_access (p->walk, e->block, e->warp, e->site, e->active, e->address);
  return TRUE;
}

static WsHierWalk *
walk_new (const WsKernelInstance *inst,
          const WsDeviceProfile  *profile,
          guint                   registers,
          GError                **error)
{
  guint n = ws_kernel_instance_get_n_sites (inst);
  g_autofree WsAccessShape *shapes = g_new0 (WsAccessShape, MAX (n, 1));
  g_autofree guint8 *arrays = g_new0 (guint8, MAX (n, 1));
  g_autoptr (GArray) ids = g_array_new (FALSE, FALSE, sizeof (guint));
  WsHierWalkLaunch launch = { 0 };

  if (n > WS_HIER_WALK_MAX_ACCESSES)
    {
      g_set_error (error, WS_KERNEL_ERROR, WS_KERNEL_ERROR_LIMIT,
                   /* Translators: the memory instructions of a kernel, then the most the cache model follows */
                   _("the kernel has %u memory instructions; the model of the caches follows at most %u"),
                   n, WS_HIER_WALK_MAX_ACCESSES);
      return NULL;
    }
  for (guint i = 0; i < n; i++)
    {
      const WsKernelSite *s = ws_kernel_instance_get_site (inst, i);
      guint k;

      shapes[i] = (WsAccessShape) { s->space, s->kind, s->elem_size };
      for (k = 0; k < ids->len && g_array_index (ids, guint, k) != s->array; k++)
        ;
      if (k == ids->len)
        g_array_append_val (ids, s->array);
      arrays[i] = (guint8) MIN (k, 126);
    }
  launch.n_accesses = n;
  launch.shapes = shapes;
  launch.arrays = arrays;
  launch.block = ws_kernel_instance_get_block (inst);
  launch.blocks = ws_dim3_count (ws_kernel_instance_get_grid (inst));
  launch.registers_per_thread = registers;
  launch.shared_per_block = ws_kernel_instance_get_shared_bytes (inst);
  launch.local_per_thread = (guint64) MAX (ws_kernel_instance_get_local_bytes_per_thread (inst), 0);
  return ws_hier_walk_new (profile, &launch, error);
}

/* What the time needs beyond the caches, from the run's counts: the
 * arithmetic the SMs issue, a block's barriers and fences, and the loops
 * whose loads each iteration waits for. */
static void
add_run (WsTimingWork            *w,
         const WsKernelStats     *ks)
{
  const WsKernelRunCounts *c = &ks->counts;
  double blocks = MAX (ks->blocks, 1);
  double warps = MAX (ks->warps, 1);

  w->alu = (double) c->instructions;
  w->syncs = c->barriers / blocks;
  w->fences[WS_FENCE_BLOCK_SCOPE] = c->fences[WS_KERNEL_FENCE_BLOCK] / warps;
  w->fences[WS_FENCE_GPU_SCOPE] = c->fences[WS_KERNEL_FENCE_GPU] / warps;
  w->fences[WS_FENCE_SYSTEM_SCOPE] = c->fences[WS_KERNEL_FENCE_SYSTEM] / warps;
}

/* Loads of successive iterations a warp has in flight together: nvcc
 * unrolls a loop whose trip count it does not know four times, and issues
 * the four iterations' loads before it waits for the first (the SASS of the
 * course kernels shows it). */
#define LOADS_IN_FLIGHT 4

/* A loop that only loads (no store, atomic, barrier or fence in it) is
 * unrolled again by ptxas (16 iterations a round in all), and a warp then
 * has up to this many loads in flight, waiting for the slowest. Measured on
 * an H200 with matvec_cols (4096 iterations, two loads each) at 1 to 32
 * warps an SM, 16 to 132 SMs: #pragma unroll 1, 2, 4 and 8 take 362, 410,
 * 464 and 520 ns a round, one DRAM latency each; 16 and 32 take 1216 and
 * 2240 ns, two and four; nvcc's own unrolling 65 ns an iteration, as 8.
 * The time of a round does not change with the warps beside it. */
#define STREAM_LOADS_IN_FLIGHT 16

/* How often a warp waits for its loads from memory, one after another, and
 * how many it waits for together each time. A loop that also stores (or
 * synchronises) waits every LOADS_IN_FLIGHT iterations of its most
 * executed load (the loads of one iteration go together), their latencies
 * averaged; one that only loads waits for STREAM_LOADS_IN_FLIGHT loads at a
 * time. A #pragma unroll with a count over the loop of the most executed
 * load says how many iterations go together instead: 1, each iteration
 * waits for its own loads (matvec_cols on an H200: 362 ns an iteration,
 * 1.48 ms in all, where nvcc's own unrolling takes 0.25). */
static guint64
load_rounds (const WsKernelInstance *inst,
             const WsKernelStats    *ks,
             double                 *together)
{
  double most = 1, loads = 0, others = 0;
  double warps = MAX (ks->warps, 1);
  double per_block = MAX (ks->blocks, 1);
  double per_iteration;
  gboolean fences = FALSE;
  int unroll = 0;

  for (guint f = 0; f < WS_KERNEL_N_FENCES; f++)
    fences |= ks->counts.fences[f] > 0;
  for (guint i = 0; i < ks->n_sites; i++)
    {
      const WsKernelSite *site = ws_kernel_instance_get_site (inst, i);
      double times = (double) ks->sites[i].instructions / warps;

      if (site->kind == WS_ACCESS_LOAD && (site->space == WS_SPACE_GLOBAL || site->space == WS_SPACE_LOCAL))
        {
          if (times > most)
            unroll = site->unroll;
          most = MAX (most, times);
          loads += times;
        }
      else if (site->kind != WS_ACCESS_LOAD && site->space != WS_SPACE_REGISTER)
        others = MAX (others, times);
    }
  *together = 0;
  /* the loads of one iteration of the loop */
  per_iteration = MAX (loads / most, 1);
  if (most > LOADS_IN_FLIGHT && others < 2 && !fences && ks->counts.barriers / per_block < 2)
    {
      *together = unroll > 0 ? MIN (unroll * per_iteration, STREAM_LOADS_IN_FLIGHT) : STREAM_LOADS_IN_FLIGHT;
      return (guint64) ceil (loads / *together - 0.01);
    }
  if (unroll > 0)
    return (guint64) ceil (most / MIN (unroll, LOADS_IN_FLIGHT) - 0.01);
  return (guint64) ceil (most / LOADS_IN_FLIGHT - 0.01);
}

WsKernelPrediction *
ws_kernel_predict (const WsKernelInstance *instance,
                   const WsDeviceProfile  *profile,
                   guint                   registers,
                   GCancellable           *cancellable,
                   WsAnalysisProgress     *progress,
                   GError                **error)
{
  g_autoptr (WsKernelPrediction) r = g_new0 (WsKernelPrediction, 1);
  WsKernelStats *ks;
  WsKernelMemory *memory;
  Predict p = { 0 };
  Predict *each;
  gpointer *data;
  guint64 blocks;
  guint n, n_threads;
  gboolean ok;

  g_return_val_if_fail (instance != NULL, NULL);

  n = ws_kernel_instance_get_n_sites (instance);
  r->stats = ks = g_new0 (WsKernelStats, 1);
  ks->n_sites = n;
  ks->sites = g_new0 (WsStats, MAX (n, 1));
  ks->n_loops = ws_kernel_instance_get_n_loops (instance);
  ks->loop_iterations = g_new0 (guint64, MAX (ks->n_loops, 1));
  for (guint i = 0; i < n; i++)
    stats_init (&ks->sites[i]);
  stats_init (&ks->total);

  if (profile && (p.walk = walk_new (instance, profile, registers, error)) == NULL)
    return NULL;
  memory = ws_kernel_memory_new (instance);
  blocks = ws_dim3_count (ws_kernel_instance_get_grid (instance));
  /* the caches see the warps in the order the hardware runs them: one
   * thread; without them, blocks that cannot see each other's writes run
   * at once, each thread counting its own (the sums are the same) */
  n_threads = p.walk ? 1 : wk_run_threads (instance, blocks);
  each = g_new0 (Predict, n_threads);
  data = g_new0 (gpointer, n_threads);
  for (guint k = 0; k < n_threads; k++)
    {
      each[k].instance = instance;
      each[k].walk = p.walk;
      each[k].sites = g_new0 (WsStats, MAX (n, 1));
      for (guint i = 0; i < n; i++)
        stats_init (&each[k].sites[i]);
      each[k].last_counts = g_new0 (WsWarpCounts, MAX (n, 1));
      each[k].last_address = g_malloc0_n (MAX (n, 1), sizeof *each[k].last_address);
      each[k].last_active = g_new0 (guint32, MAX (n, 1));
      data[k] = &each[k];
    }
  if (n_threads > 1)
    ok = wk_run_blocks_at_once (instance, memory, 0, blocks, n_threads, visit, data, &ks->counts,
                                ks->loop_iterations, cancellable, progress, error);
  else
    ok = ws_kernel_run_blocks (instance, memory, 0, blocks, visit, data[0], &ks->counts, ks->loop_iterations,
                               cancellable, progress, error);
  ws_kernel_memory_free (memory);
  for (guint k = 0; k < n_threads; k++)
    {
      for (guint i = 0; i < n; i++)
        ws_stats_add (&ks->sites[i], &each[k].sites[i]);
      g_free (each[k].sites);
      g_free (each[k].last_counts);
      g_free (each[k].last_address);
      g_free (each[k].last_active);
    }
  g_free (each);
  g_free (data);
  if (!ok)
    {
      g_clear_pointer (&p.walk, ws_hier_walk_free);
      return NULL;
    }

  ks->blocks = ks->counts.blocks;
  ks->warps = ks->counts.warps;
  ks->threads = ks->blocks * ws_dim3_count (ws_kernel_instance_get_block (instance));
  for (guint i = 0; i < n; i++)
    {
      const WsKernelSite *site = ws_kernel_instance_get_site (instance, i);
      WsStats st = ks->sites[i];

      /* bytes are only comparable between global and local accesses */
      if (site->space != WS_SPACE_GLOBAL && site->space != WS_SPACE_LOCAL)
        st.bytes_requested = st.bytes_moved = 0;
      ws_stats_add (&ks->total, &st);
    }

  if (p.walk)
    {
      WsLaunchStats *launch = g_new0 (WsLaunchStats, 1);
      WsTimingWork work = { 0 };
      double together;
      guint64 rounds = load_rounds (instance, ks, &together);

      launch->n_accesses = n;
      launch->accesses = g_memdup2 (ks->sites, MAX (n, 1) * sizeof (WsStats));
      launch->total = ks->total;
      launch->blocks = ks->blocks;
      launch->warps = ks->warps;
      launch->threads = ks->threads;
      r->hierarchy = ws_hier_walk_finish (g_steal_pointer (&p.walk), launch);
      /* a loop's next iteration waits for its loads: the launch is one
       * phase run as often as a warp waits for them */
      work.next_waits = rounds > 1;
      work.next_times = rounds;
      work.next_together = together;
      ws_timing_work_add (&work, r->hierarchy, NULL, profile);
      add_run (&work, ks);
      ws_timing_predict_work (&work, profile, &r->timing);
      r->has_timing = TRUE;
    }
  return g_steal_pointer (&r);
}

void
ws_kernel_prediction_free (WsKernelPrediction *prediction)
{
  if (prediction == NULL)
    return;
  g_clear_pointer (&prediction->stats, ws_kernel_stats_free);
  g_clear_pointer (&prediction->hierarchy, ws_hierarchy_free);
  g_free (prediction);
}

gboolean
ws_kernel_prediction_line (const WsKernelPrediction *prediction,
                           const WsKernelInstance   *instance,
                           guint                     line,
                           WsStats                  *stats,
                           WsHierStats              *below)
{
  gboolean found = FALSE;

  g_return_val_if_fail (prediction != NULL && instance != NULL, FALSE);

  if (stats)
    stats_init (stats);
  if (below)
    memset (below, 0, sizeof *below);
  for (guint i = 0; i < prediction->stats->n_sites; i++)
    {
      const WsKernelSite *site = ws_kernel_instance_get_site (instance, i);

      if (site->line != line)
        continue;
      found = TRUE;
      if (stats)
        ws_stats_add (stats, &prediction->stats->sites[i]);
      if (below && prediction->hierarchy)
        ws_hier_stats_add (below, &prediction->hierarchy->accesses[i]);
    }
  return found;
}
