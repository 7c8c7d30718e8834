/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The time of a launch.
 *
 * Each level of the machine gets the work the hierarchy says reaches it,
 * over the rate the profile gives for it:
 *
 *   dram      bytes read and written, at the streaming rates; a transfer
 *             that opens a DRAM row of its own costs dram_burst_ns more, and
 *             reads and writes mixed lose dram_turnaround of the time
 *   l2        sectors, read requests, write requests, and sectors written in
 *             part (merged with a byte mask), each at its own rate
 *   l1        global loads, and the 128-byte lines global and local
 *             requests touch, per SM; texture fetches, in the texture
 *             pipeline before L1
 *   shared    wavefronts, per SM
 *   constant  requests (one per distinct address of a warp), per SM
 *   atomics   updates of the busiest address, one after another; passes
 *             over the sectors of the busiest L2 slice
 *   alu       the warp instructions the SMs' schedulers issue: the
 *             accesses' own, and the arithmetic, control and barriers the
 *             kernel has besides (a launch's description)
 *   blocks    an SM starts a block every block_ns at most; a block lives
 *             as long as its loads' latency (its stores', its shared
 *             loads', its synchronisations', its fences', its chains of
 *             arithmetic and the flags of other blocks it waits for), so
 *             that few slots bound it
 *
 * The slowest bounds the launch; the launch's own overhead comes on top. */
#include "ws-timing.h"
#include "ws-i18n.h"

#include <math.h>

/* ws_bound_describe's texts are marked for xgettext but kept in English
 * here: warpscope-cli and the truth tables print them. The window's plots
 * translate them where they show them. */

/* Per SM: what one SM's share takes, at its clock, the work shared by
 * `sms` SMs. */
static double
per_sm (double                 work,
        double                 cycles,
        double                 sms,
        const WsDeviceProfile *p)
{
  return work * cycles / (sms * p->sm_clock_mhz * 1e6);
}

/* The SMs the launch's work is shared by: all of them, or one a block
 * where there are fewer blocks than SMs (16 blocks keep 16 SMs' L1 and
 * schedulers busy, and the other 116 idle). */
static double
busy_sms (const WsTimingWork    *w,
          const WsDeviceProfile *p)
{
  if (w->blocks > 0 && w->blocks < p->sms)
    return (double) w->blocks;
  return p->sms;
}

/* What a phase adds to a block's life beyond l1_latency_ns (a block that
 * starts, hits L1 and ends): the part of its loads' latency beyond L1 (where
 * they are served: L2 or DRAM), plus the stores that wait for them. The next
 * iteration of a loop that is not unrolled waits for its loads from the
 * start: their whole latency where they miss L1. A warp that waits for
 * `together` loads at once waits for the slowest: where one load in
 * `together` goes to DRAM, every wait is DRAM's. */
static double
phase_life_ns (const WsHierarchy     *h,
               const WsDeviceProfile *p,
               double                 load_requests,
               double                 together,
               gboolean               loads,
               gboolean               stores,
               gboolean               first)
{
  double life = 0;

  if (load_requests > 0)
    {
      double to_l2 = MIN (1.0, MAX (together, 1) * h->total.l2_read_requests / load_requests);
      double to_dram = MIN (to_l2, MAX (together, 1) * h->total.dram_read_bytes / 64.0 / load_requests);

      life += to_l2 * (p->l2_latency_ns - (first ? p->l1_latency_ns : 0)) +
              to_dram * (p->dram_latency_ns - p->l2_latency_ns);
    }
  if (loads && stores)
    life += p->store_latency_ns;
  return life;
}

void
ws_timing_work_add (WsTimingWork          *w,
                    const WsHierarchy     *h,
                    const guint64         *repeat,
                    const WsDeviceProfile *p)
{
  double load_requests = 0;
  gboolean loads = FALSE, stores = FALSE, shared_loads = FALSE, streaming;
  double shared_wavefronts = 0;   /* a warp's, of the phase's shared loads */

  ws_hier_stats_add (&w->mem, &h->total);
  for (guint i = 0; i < h->n_accesses; i++)
    {
      const WsAccessShape *a = &h->shapes[i];
      const WsStats *st = &h->launch->accesses[i];
      double times = repeat ? MAX (repeat[i], 1) : 1;

      if (a->space != WS_SPACE_REGISTER)
        w->memory_instructions += times * st->instructions *
                                  ws_access_machine_instructions (a->space, a->kind, a->elem_size);
      switch (a->space)
        {
        case WS_SPACE_GLOBAL:
        case WS_SPACE_LOCAL:
          w->lines += times * st->lines;
          if (a->space == WS_SPACE_LOCAL)
            w->local_lines += times * st->lines;
          if (a->kind == WS_ACCESS_LOAD)
            {
              load_requests += times * st->requests;
              if (a->space == WS_SPACE_GLOBAL)
                w->global_load_requests += times * st->requests;
              loads |= st->instructions > 0;
            }
          else
            stores |= st->instructions > 0;
          break;
        case WS_SPACE_SHARED:
          w->wavefronts += times * st->wavefronts;
          if (a->kind != WS_ACCESS_STORE && st->instructions > 0)
            {
              shared_loads = TRUE;
              shared_wavefronts += (double) st->wavefronts / st->instructions;
            }
          if (a->kind == WS_ACCESS_ATOMIC)
            w->shared_atomic_conflicts += times * st->atomic_conflicts;
          break;
        case WS_SPACE_CONSTANT:
          w->constant_instructions += times * st->instructions *
                                      ws_access_machine_instructions (a->space, a->kind, a->elem_size);
          w->constant_requests += times * st->requests;
          break;
        case WS_SPACE_REGISTER:
        case WS_N_SPACES:
        default:
          break;
        }
    }
  w->load_requests += load_requests;
  w->atomic_max_address += h->atomic_max_address;
  w->atomic_max_slice += h->atomic_max_slice;
  /* a loop that only loads (next_together set) stores what it stores
   * once, after its rounds */
  streaming = w->next_together > 0;
  w->block_life_ns += MAX (w->next_times, 1) * phase_life_ns (h, p, load_requests, w->next_together, loads,
                                                              stores && !streaming, !w->next_waits) +
                      (streaming && loads && stores ? p->store_latency_ns : 0);
  /* a phase's shared loads (and atomics) issue together, and what comes
   * after them waits for their data: the last of their wavefronts, one a
   * cycle after the first */
  if (shared_loads)
    {
      w->shared_waits += MAX (w->next_times, 1);
      w->shared_queue_cycles += MAX (w->next_times, 1) * MAX (shared_wavefronts - 1, 0);
    }
  if (w->blocks == 0)
    {
      w->blocks = h->launch->blocks;
      w->blocks_per_sm = h->blocks_per_sm;
      w->warps_per_block = h->blocks_per_sm ? h->warps_per_sm / h->blocks_per_sm : 1;
    }
}

static double
dram_seconds (const WsHierStats     *t,
              const WsDeviceProfile *p)
{
  double r = (double) t->dram_read_bytes;
  double w = (double) t->dram_write_bytes;
  double mix = r + w > 0 ? 2 * MIN (r, w) / (r + w) : 0;
  /* a 32-byte write of half a 64-byte pair takes the time of the whole pair,
   * read and written (the DRAM's ECC covers the pair) */
  double small = (double) t->dram_small_writes * 32;
  double stream = (r + small) / p->dram_read_bytes_per_s + (w + small) / p->dram_write_bytes_per_s;

  return stream * (1 + p->dram_turnaround * mix) + t->dram_row_misses * p->dram_burst_ns * 1e-9;
}

static double
l2_seconds (const WsHierStats     *t,
            const WsDeviceProfile *p)
{
  double sectors = (double) (t->l2_read_sectors + t->l2_write_sectors + t->l2_atomic_sectors);
  double s = sectors / p->l2_sectors_per_s;

  s = MAX (s, t->l2_read_requests / p->l2_read_requests_per_s);
  s = MAX (s, t->l2_write_requests / p->l2_write_requests_per_s);
  s = MAX (s, t->l2_partial_sectors / p->l2_partial_writes_per_s);
  return s;
}

/* A link of a block's chain with `warps` warps in chains on the SM: what
 * it takes with 8 (one block of 8 warps), and what each further warp adds. */
static double
link_ns (double base,
         double per_warp,
         double warps)
{
  return base + MAX (warps - 8, 0) * per_warp;
}

/* A block's chains (shared loads, synchronisations, dependent arithmetic,
 * fences, other blocks' flags it waits for) with `warps` warps in chains
 * on the SM. A chain of arithmetic is one thread's, while the block's other
 * warps wait at a barrier. */
static double
chains_ns (const WsTimingWork    *w,
           const WsDeviceProfile *p,
           double                 warps)
{
  return w->shared_waits * link_ns (p->shared_latency_ns, p->shared_latency_warp_ns, warps) +
         w->shared_queue_cycles * p->shared_cycles_per_wavefront * 1e3 / p->sm_clock_mhz +
         w->syncs * link_ns (p->sync_ns, p->sync_warp_ns, warps) +
         w->chain * p->alu_latency_ns +
         w->fences[WS_FENCE_BLOCK_SCOPE] * link_ns (p->fence_block_ns, p->fence_block_warp_ns, warps) +
         w->fences[WS_FENCE_GPU_SCOPE] * link_ns (p->fence_gpu_ns, p->fence_gpu_warp_ns, warps) +
         w->fences[WS_FENCE_SYSTEM_SCOPE] * link_ns (p->fence_system_ns, p->fence_system_warp_ns, warps) +
         w->messages * p->message_ns;
}

/* An SM starts a block every block_ns at most and holds blocks_per_sm of
 * them; each lives as long as its phases' latencies, its chains and a
 * little per warp resident beside it. The other blocks' warps wait their
 * turn at the schedulers in a chain only while they are in theirs: for the
 * part of their life their chains take. */
static double
blocks_seconds (const WsTimingWork    *w,
                const WsDeviceProfile *p)
{
  double blocks_per_sm = ceil ((double) w->blocks / p->sms);
  double slots = MAX (w->blocks_per_sm, 1);
  double resident = MIN (blocks_per_sm, slots) * w->warps_per_block;
  double base = p->l1_latency_ns + w->block_life_ns + resident * p->warp_ns;
  double alone = chains_ns (w, p, w->warps_per_block);
  double in_chains = alone > 0 ? resident * alone / (base + alone) : 0;
  double life = base + chains_ns (w, p, MAX (in_chains, w->warps_per_block));

  return MAX (blocks_per_sm * p->block_ns, ceil (blocks_per_sm / slots) * life) * 1e-9;
}

void
ws_timing_predict_work (const WsTimingWork    *w,
                        const WsDeviceProfile *p,
                        WsTiming              *out)
{
  double worst = 0;
  double global_lines = w->lines - w->local_lines;
  double sms;

  g_return_if_fail (w != NULL && p != NULL && out != NULL);

  sms = busy_sms (w, p);
  out->level_ms[WS_BOUND_DRAM] = (dram_seconds (&w->mem, p) + w->mapped_bytes / p->pcie_pinned_bytes_per_s) * 1e3;
  out->level_ms[WS_BOUND_L2] = l2_seconds (&w->mem, p) * 1e3;
  out->level_ms[WS_BOUND_L1] = (per_sm (global_lines, p->l1_cycles_per_line, sms, p) +
                                per_sm (w->local_lines, p->l1_cycles_per_local_line, sms, p) +
                                per_sm (w->mem.l2_read_sectors, p->l1_cycles_per_miss, sms, p) +
                                per_sm (w->global_load_requests, p->l1_cycles_per_request, sms, p) +
                                per_sm (w->tex_requests, p->tex_cycles_per_request, sms, p)) * 1e3;
  out->level_ms[WS_BOUND_SHARED] = per_sm (w->wavefronts, p->shared_cycles_per_wavefront, sms, p) * 1e3;
  out->level_ms[WS_BOUND_CONSTANT] = (per_sm (w->constant_instructions, p->constant_cycles_per_instruction, sms, p) +
                                      per_sm (w->constant_requests, p->constant_cycles_per_address, sms, p)) * 1e3;
  out->level_ms[WS_BOUND_ATOMICS] = MAX (MAX (w->atomic_max_address * p->atomic_same_address_ns,
                                              w->atomic_max_slice * p->atomic_pass_ns) * 1e-6,
                                         w->mem.l2_atomic_sectors / p->atomic_passes_per_s * 1e3) +
                                    per_sm (w->shared_atomic_conflicts, p->shared_atomic_cycles, sms, p) * 1e3;
  out->warp_instructions = w->alu + w->memory_instructions;
  out->level_ms[WS_BOUND_ALU] = per_sm (out->warp_instructions, 1.0 / p->alu_warp_instructions_per_cycle, sms, p) * 1e3;
  out->level_ms[WS_BOUND_BLOCKS] = blocks_seconds (w, p) * 1e3;
  out->level_ms[WS_BOUND_LAUNCH] = p->launch_us * 1e-3 + w->host_ms;

  out->bound = WS_BOUND_LAUNCH;
  for (guint b = 0; b < WS_BOUND_LAUNCH; b++)
    if (out->level_ms[b] > worst)
      {
        worst = out->level_ms[b];
        out->bound = b;
      }
  if (w->host_ms > worst)
    out->bound = WS_BOUND_LAUNCH;
  out->predicted_ms = worst + out->level_ms[WS_BOUND_LAUNCH];
}

void
ws_timing_predict (const WsHierarchy        *h,
                   const WsDeviceProfile    *p,
                   const WsHierarchyOptions *options,
                   WsTiming                 *out)
{
  WsTimingWork w = { 0 };

  g_return_if_fail (h != NULL && p != NULL && out != NULL);

  ws_timing_work_add (&w, h, options ? options->repeat : NULL, p);
  ws_timing_predict_work (&w, p, out);
}

const char *
ws_bound_to_string (WsBound bound)
{
  static const char *names[] = { "dram", "l2", "l1", "shared", "constant", "atomics", "alu", "blocks", "launch" };

  g_return_val_if_fail (bound < WS_N_BOUNDS, NULL);
  return names[bound];
}

const char *
ws_bound_describe (WsBound bound)
{
  static const char *what[] = {
    N_("DRAM bandwidth"),
    N_("L2 sectors and requests"),
    N_("L1 lookups (lines per request)"),
    N_("shared-memory wavefronts"),
    N_("constant-cache requests"),
    N_("atomic updates one after another"),
    N_("arithmetic"),
    N_("blocks: SMs starting them, and their latency"),
    N_("the launch itself, and host copies"),
  };

  g_return_val_if_fail (bound < WS_N_BOUNDS, NULL);
  return what[bound];
}
