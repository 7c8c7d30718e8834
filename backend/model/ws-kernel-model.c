/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The model of a kernel of one's own: every memory instruction the VM runs
 * is counted by the hardware rules of ws_model_count_warp () (tested in
 * test-analysis), per site and in total, with what else the run did. */
#include "ws-config.h"
#include "ws-kernel-instance.h"
#include "ws-i18n.h"

#include <glib/gi18n-lib.h>
#include <string.h>

typedef struct
{
  const WsKernelInstance *inst;
  WsKernelStats *stats;
  /* the last event of each site: a warp asking for the same addresses
   * shifted by whole lines (or bank rows) counts the same */
  struct
  {
    gboolean valid;
    guint32 active;
    gint64 first;
    gint64 delta[WS_WARP_SIZE];
    WsWarpCounts counts;
  } *memo;
} Model;

static void
stats_init (WsStats *s)
{
  memset (s, 0, sizeof *s);
  s->min_address = G_MAXINT64;
  s->end_address = G_MININT64;
}

static inline void
stats_add (WsStats            *s,
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

/* The granule a shift of all addresses keeps the counts under: whole
 * lines for global memory (sectors and lines); for shared memory any shift
 * by whole elements only renames the banks. */
static gint64
granule (WsSpace space,
         guint   elem_size)
{
  switch (space)
    {
    case WS_SPACE_GLOBAL: return WS_LINE_BYTES;
    case WS_SPACE_SHARED: return MAX (elem_size, WS_BANK_BYTES);
    default: return 0;      /* constant, local: counted every time */
    }
}

static gboolean
count_event (const WsKernelEvent *ev,
             gpointer             user_data,
             GError             **error)
{
  Model *m = user_data;
  const WsKernelSite *site = &g_array_index (m->inst->sites, WsKernelSite, ev->site);
  WsStats *s = &m->stats->sites[ev->site];
  WsWarpCounts counts;
  gint64 lo = G_MAXINT64, hi = G_MININT64;
  guint first = (guint) g_bit_nth_lsf (ev->active, -1);
  guint size = ws_kernel_event_size (site, ev);
  gint64 g = granule (site->space, MAX (size, site->elem_size));
  gboolean hit = FALSE;

  for (guint l = 0; l < WS_WARP_SIZE; l++)
    if (ev->active & (1u << l))
      {
        lo = MIN (lo, ev->address[l]);
        hi = MAX (hi, ev->address[l]);
      }
  if (size == 0)
    ;     /* served by the wide load of an earlier iteration */
  else if (g > 0 && site->kind != WS_ACCESS_ATOMIC)
    {
      __typeof__ (m->memo[0]) *memo = &m->memo[ev->site];
      gint64 shift = ev->address[first] - memo->first;
      if (memo->valid && memo->active == ev->active && (shift & (g - 1)) == 0)
        {
          hit = TRUE;
          for (guint l = 0; l < WS_WARP_SIZE && hit; l++)
            if ((ev->active & (1u << l)) && ev->address[l] - ev->address[first] != memo->delta[l])
              hit = FALSE;
        }
      if (hit)
        counts = memo->counts;
      else
        {
          ws_model_count_warp (site->space, site->kind, size, ev->active, ev->address, &counts, NULL);
          memo->valid = TRUE;
          memo->active = ev->active;
          memo->first = ev->address[first];
          for (guint l = 0; l < WS_WARP_SIZE; l++)
            memo->delta[l] = (ev->active & (1u << l)) ? ev->address[l] - ev->address[first] : 0;
          memo->counts = counts;
        }
    }
  else
    ws_model_count_warp (site->space, site->kind, size, ev->active, ev->address, &counts, NULL);
  if (size != 0)
    stats_add (s, &counts, ev->active);
  s->min_address = MIN (s->min_address, lo);
  s->end_address = MAX (s->end_address, hi + (gint64) site->elem_size);
  (void) error;
  return TRUE;
}

void
ws_kernel_stats_free (WsKernelStats *stats)
{
  if (stats == NULL)
    return;
  g_free (stats->sites);
  g_free (stats->loop_iterations);
  g_free (stats);
}

WsKernelStats *
ws_kernel_model_analyze (const WsKernelInstance *instance,
                         GCancellable           *cancellable,
                         WsAnalysisProgress     *progress,
                         GError                **error)
{
  g_autoptr (WsKernelStats) stats = NULL;
  g_autoptr (WsKernelMemory) memory = NULL;
  g_autofree Model *models = NULL;
  g_autofree gpointer *data = NULL;
  guint64 blocks;
  guint n_threads;
  gboolean ok;

  g_return_val_if_fail (instance != NULL, NULL);

  stats = g_new0 (WsKernelStats, 1);
  stats->n_sites = instance->sites->len;
  stats->sites = g_new0 (WsStats, MAX (stats->n_sites, 1));
  stats->n_loops = instance->loops->len;
  stats->loop_iterations = g_new0 (guint64, MAX (stats->n_loops, 1));
  for (guint i = 0; i < stats->n_sites; i++)
    stats_init (&stats->sites[i]);
  stats_init (&stats->total);
  memory = ws_kernel_memory_new (instance);
  blocks = ws_dim3_count (instance->grid);
  /* blocks that cannot see each other's writes run at once, each thread
   * counting its own: the sums are the same in any order */
  n_threads = wk_run_threads (instance, blocks);
  models = g_new0 (Model, n_threads);
  data = g_new0 (gpointer, n_threads);
  for (guint k = 0; k < n_threads; k++)
    {
      models[k].inst = instance;
      models[k].stats = g_new0 (WsKernelStats, 1);
      models[k].stats->sites = g_new0 (WsStats, MAX (stats->n_sites, 1));
      for (guint i = 0; i < stats->n_sites; i++)
        stats_init (&models[k].stats->sites[i]);
      models[k].memo = g_malloc0 (sizeof models[k].memo[0] * MAX (stats->n_sites, 1));
      data[k] = &models[k];
    }
  if (n_threads > 1)
    ok = wk_run_blocks_at_once (instance, memory, 0, blocks, n_threads, count_event, data, &stats->counts,
                                stats->loop_iterations, cancellable, progress, error);
  else
    ok = ws_kernel_run_blocks (instance, memory, 0, blocks, count_event, data[0], &stats->counts,
                               stats->loop_iterations, cancellable, progress, error);
  for (guint k = 0; k < n_threads; k++)
    {
      for (guint i = 0; i < stats->n_sites; i++)
        ws_stats_add (&stats->sites[i], &models[k].stats->sites[i]);
      g_free (models[k].stats->sites);
      g_free (models[k].stats);
      g_free (models[k].memo);
    }
  if (!ok)
    return NULL;
  for (guint i = 0; i < stats->n_sites; i++)
    ws_stats_add (&stats->total, &stats->sites[i]);
  stats->blocks = blocks;
  stats->warps = blocks * ((ws_dim3_count (instance->block) + WS_WARP_SIZE - 1) / WS_WARP_SIZE);
  stats->threads = blocks * ws_dim3_count (instance->block);
  return g_steal_pointer (&stats);
}

/* ------------------------------------------------------------------ */
/* One warp's instruction                                             */
/* ------------------------------------------------------------------ */

typedef struct
{
  guint site;
  guint warp;
  guint execution;
  guint seen;
  gboolean found;
  WsKernelEvent event;
  gint64 address[WS_WARP_SIZE];
} Find;

static gboolean
find_event (const WsKernelEvent *ev,
            gpointer             user_data,
            GError             **error)
{
  Find *f = user_data;

  if (ev->site != f->site || ev->warp != f->warp)
    return TRUE;
  if (f->seen++ < f->execution)
    return TRUE;
  f->found = TRUE;
  f->event = *ev;
  memcpy (f->address, ev->address, sizeof f->address);
  f->event.address = f->address;
  /* enough: stop the run here */
  g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, "found");
  return FALSE;
}

WsWarpResult *
ws_kernel_analyze_warp (const WsKernelInstance *instance,
                        guint                   site,
                        WsDim3                  block_idx,
                        guint                   warp,
                        guint                   execution,
                        GError                **error)
{
  g_autoptr (WsKernelMemory) memory = NULL;
  g_autoptr (GError) local = NULL;
  WsWarpResult *r;
  const WsKernelSite *s;
  WsDim3 grid;
  guint warps;
  Find f = { 0 };
  guint64 linear;

  g_return_val_if_fail (instance != NULL, NULL);

  grid = instance->grid;
  warps = (guint) ((ws_dim3_count (instance->block) + WS_WARP_SIZE - 1) / WS_WARP_SIZE);
  if (site >= instance->sites->len || warp >= warps || block_idx.x >= grid.x || block_idx.y >= grid.y ||
      block_idx.z >= grid.z)
    {
      g_set_error (error, WS_KERNEL_ERROR, WS_KERNEL_ERROR_RUN,
                   _("there is no site %u, warp %u or block (%u, %u, %u) in this launch of %u warps per block"), site,
                   warp, block_idx.x, block_idx.y, block_idx.z, warps);
      return NULL;
    }
  s = &g_array_index (instance->sites, WsKernelSite, site);
  f.site = site;
  f.warp = warp;
  f.execution = execution;
  memory = ws_kernel_memory_new (instance);
  linear = block_idx.x + (guint64) grid.x * (block_idx.y + (guint64) grid.y * block_idx.z);
  if (!ws_kernel_run_blocks (instance, memory, linear, 1, find_event, &f, NULL, NULL, NULL, NULL, &local) &&
      !f.found)
    {
      g_propagate_error (error, g_steal_pointer (&local));
      return NULL;
    }
  if (!f.found)
    {
      g_set_error (error, WS_KERNEL_ERROR, WS_KERNEL_ERROR_RUN,
                   g_dngettext (GETTEXT_PACKAGE,
                                "warp %u of block (%u, %u, %u) runs line %u's %s %u time, not %u",
                                "warp %u of block (%u, %u, %u) runs line %u's %s %u times, not %u", f.seen),
                   warp, block_idx.x, block_idx.y, block_idx.z, s->line, s->text, f.seen, execution + 1);
      return NULL;
    }
  r = g_new0 (WsWarpResult, 1);
  r->access = site;
  r->block_idx = block_idx;
  r->warp = warp;
  r->space = s->space;
  r->kind = s->kind;
  r->elem_size = s->elem_size;
  r->valid = f.event.valid;
  r->active = f.event.active;
  r->steps = g_array_new (FALSE, FALSE, sizeof (WsStep));
  for (guint l = 0; l < WS_WARP_SIZE; l++)
    {
      gint64 a = f.address[l];
      r->index[l] = a >= 0 ? a / (gint64) s->elem_size : -1;
      if (s->space == WS_SPACE_LOCAL || s->space == WS_SPACE_REGISTER)
        {
          /* word w of lane l at (w * 32 + l) * 4 in the warp's slice */
          r->private_offset[l] = a;
          r->address[l] = (gint64) ((((guint64) (a >> 2) * WS_WARP_SIZE + l) * WS_BANK_BYTES) + (guint64) (a & 3));
        }
      else
        r->address[l] = a;
      r->bank[l] = (guint8) ((r->address[l] >> 2) & (WS_N_BANKS - 1));
    }
  ws_model_count_warp (s->space, s->kind, s->elem_size, r->active, f.address, &r->counts, r->steps);
  return r;
}

WsWarpResult *
ws_kernel_analyze_first_warp (const WsKernelInstance *instance,
                              guint                   site,
                              guint64                 max_blocks,
                              GError                **error)
{
  WsDim3 grid = ws_kernel_instance_get_grid (instance);
  guint warps = (guint) ((ws_dim3_count (ws_kernel_instance_get_block (instance)) + WS_WARP_SIZE - 1) / WS_WARP_SIZE);
  guint64 blocks = MIN (ws_dim3_count (grid), max_blocks);
  g_autoptr (GError) last = NULL;

  for (guint64 b = 0; b < blocks; b++)
    for (guint w = 0; w < warps; w++)
      {
        WsDim3 bi = WS_DIM3 ((guint) (b % grid.x), (guint) ((b / grid.x) % grid.y),
                             (guint) (b / ((guint64) grid.x * grid.y)));
        WsWarpResult *r;

        g_clear_error (&last);
        if ((r = ws_kernel_analyze_warp (instance, site, bi, w, 0, &last)))
          return r;
      }
  if (last)
    g_propagate_error (error, g_steal_pointer (&last));
  else
    g_set_error_literal (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, _("the launch has no threads"));
  return NULL;
}
