/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Calibration: the numbers of a device profile (ws-device-profile.h) that
 * the driver says, and those that microkernels of our own measure
 * (kernels/ws-kernels-calibrate.cu). Each microkernel keeps one level of the
 * machine busy; its time over the work it gave that level is the level's
 * rate, in the units the time model (ws-timing.c) divides by. The whole
 * calibration takes a few seconds. */
#include "ws-config.h"
#include "ws-gpu-private.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#define SAMPLES 11
#define MIN_SAMPLE_MS 1.0
#define MAX_BATCH 1000

#define STREAM_BYTES ((gsize) 1 << 30)
#define STREAM_CHUNK ((gsize) 16 * 256 * WS_CAL_STREAM_UNROLL)
#define L2_SET_BYTES ((gsize) 8 << 20)
#define ATOMIC_SET_BYTES ((gsize) 4 << 20)
#define L1_SET_BYTES ((gsize) 32 << 10)
#define HOST_BYTES ((gsize) 256 << 20)

typedef struct
{
  GArray *out;                   /* WsCalibrated */
  const WsDeviceInfo *info;
  int sms;
  double clock_hz;               /* the SM clock the cycles are counted in */
  float *sink;
  void *stream;                  /* STREAM_BYTES, or less when memory is short */
  gsize stream_bytes;
  float *set;                    /* L2_SET_BYTES: L2's working set, then the atomics' */
  float *small;                  /* L1_SET_BYTES */
  cudaArray_t array;             /* WS_CAL_TEXTURE_SIDE² words, behind tex */
  cudaTextureObject_t tex;
  void *pinned;
  void *pageable;
  GCancellable *cancellable;
  WsSampleProgress progress;
  gpointer progress_data;
  guint step;
} Cal;

/* one per step below */
#define STEPS 16

static void
clear_calibrated (gpointer data)
{
  WsCalibrated *c = data;

  g_free (c->how);
}

static void
add (Cal        *c,
     const char *field,
     double      value,
     const char *format,
     ...) G_GNUC_PRINTF (4, 5);

static void
add (Cal        *c,
     const char *field,
     double      value,
     const char *format,
     ...)
{
  WsCalibrated v = { field, value, NULL };
  va_list args;

  va_start (args, format);
  v.how = g_strdup_vprintf (format, args);
  va_end (args);
  g_array_append_val (c->out, v);
}

static gboolean
next_step (Cal     *c,
           GError **error)
{
  c->step++;
  if (c->progress)
    c->progress (MIN (c->step, STEPS), STEPS, c->progress_data);
  return !g_cancellable_set_error_if_cancelled (c->cancellable, error);
}

/* ------------------------------------------------------------------ */
/* Timing                                                             */
/* ------------------------------------------------------------------ */

typedef cudaError_t (*CalLaunch) (Cal     *c,
                                  gpointer data);

static gboolean
time_batch (Cal        *c,
            const char *what,
            CalLaunch   launch,
            gpointer    data,
            guint       batch,
            gboolean    cold,
            double     *ms,
            GError    **error)
{
  cudaEvent_t start, stop;
  float elapsed = 0;

  ws_gpu_events (&start, &stop);
  if (cold && !ws_gpu_flush_l2 (error))
    return FALSE;
  if (!ws_gpu_check (cudaEventRecord (start, 0), _("recording an event"), error))
    return FALSE;
  for (guint b = 0; b < batch; b++)
    if (!ws_gpu_check (launch (c, data), what, error))
      return FALSE;
  if (!ws_gpu_check (cudaEventRecord (stop, 0), _("recording an event"), error) || !ws_gpu_sync (what, error) ||
      !ws_gpu_check (cudaEventElapsedTime (&elapsed, start, stop), _("reading the events"), error))
    return FALSE;
  *ms = (double) elapsed / batch;
  return TRUE;
}

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

/* The median time of one launch, in seconds: warmed up, then SAMPLES
 * samples, each a batch of launches that lasts MIN_SAMPLE_MS at least (one
 * launch after an L2 flush when cold). */
static gboolean
time_launch (Cal        *c,
             const char *what,
             CalLaunch   launch,
             gpointer    data,
             gboolean    cold,
             double     *seconds,
             GError    **error)
{
  double samples[SAMPLES];
  double first;
  guint batch = 1;

  if (!time_batch (c, what, launch, data, 1, FALSE, &first, error) ||
      !time_batch (c, what, launch, data, 1, FALSE, &first, error))
    return FALSE;
  if (!cold && first < MIN_SAMPLE_MS)
    batch = (guint) CLAMP (MIN_SAMPLE_MS / MAX (first, 1e-4) + 1, 1, MAX_BATCH);
  for (guint s = 0; s < SAMPLES; s++)
    if (!time_batch (c, what, launch, data, batch, cold, &samples[s], error))
      return FALSE;
  qsort (samples, SAMPLES, sizeof samples[0], compare_doubles);
  *seconds = samples[SAMPLES / 2] * 1e-3;
  return TRUE;
}

/* Per SM and cycle: a launch of `per_launch` units of work in `seconds`. */
static double
cycles_per (Cal   *c,
            double seconds,
            double per_launch)
{
  return seconds * c->clock_hz * c->sms / per_launch;
}

/* ------------------------------------------------------------------ */
/* The launches                                                       */
/* ------------------------------------------------------------------ */

typedef struct
{
  unsigned blocks;
  int iters;
  unsigned lines;
  unsigned per_line;
  unsigned distinct;
  unsigned threads;
  gsize shared;
} Shape;

static cudaError_t
launch_read (Cal     *c,
             gpointer data)
{
  return ws_cal_read (c->stream, c->stream_bytes, c->sink, 0);
}

static cudaError_t
launch_write (Cal     *c,
              gpointer data)
{
  return ws_cal_write (c->stream, c->stream_bytes, 7, 0);
}

static cudaError_t
launch_l2_read (Cal     *c,
                gpointer data)
{
  const Shape *s = data;
  return ws_cal_l2_read (c->set, s->lines, s->per_line, s->blocks, s->iters, c->sink, 0);
}

static cudaError_t
launch_l2_write (Cal     *c,
                 gpointer data)
{
  const Shape *s = data;
  return ws_cal_l2_write (c->set, s->lines, s->blocks, s->iters, 0);
}

static cudaError_t
launch_l1 (Cal     *c,
           gpointer data)
{
  const Shape *s = data;
  return ws_cal_l1 (c->small, s->lines, s->per_line == 32 ? 0 : 8, s->blocks, s->iters, c->sink, 0);
}

static cudaError_t
launch_shared (Cal     *c,
               gpointer data)
{
  const Shape *s = data;
  return ws_cal_shared (s->blocks, s->iters, c->sink, 0);
}

static cudaError_t
launch_constant (Cal     *c,
                 gpointer data)
{
  const Shape *s = data;
  return ws_cal_constant (s->distinct, s->blocks, s->iters, c->sink, 0);
}

static cudaError_t
launch_atomic (Cal     *c,
               gpointer data)
{
  const Shape *s = data;
  return ws_cal_atomic ((unsigned *) c->set, s->lines, s->blocks, s->iters, 0);
}

static cudaError_t
launch_chain (Cal     *c,
              gpointer data)
{
  const Shape *s = data;
  return ws_cal_chain ((int) s->distinct, (unsigned *) c->set, s->blocks, s->iters, c->sink, 0);
}

static cudaError_t
launch_texture (Cal     *c,
                gpointer data)
{
  const Shape *s = data;
  return ws_cal_texture (c->tex, s->blocks, s->iters, c->sink, 0);
}

static cudaError_t
launch_message (Cal     *c,
                gpointer data)
{
  const Shape *s = data;
  return ws_cal_message ((unsigned *) c->set, s->iters, 0);
}

static cudaError_t
launch_empty (Cal     *c,
              gpointer data)
{
  return ws_cal_empty (0);
}

static cudaError_t
launch_dispatch (Cal     *c,
                 gpointer data)
{
  const Shape *s = data;
  return ws_cal_dispatch (c->small, c->sink, s->blocks, s->threads, s->shared, 0);
}

/* ------------------------------------------------------------------ */
/* The steps                                                          */
/* ------------------------------------------------------------------ */

static void
query (Cal *c)
{
  const WsDeviceInfo *d = c->info;

  add (c, "cc_major", d->cc_major, "queried: compute capability");
  add (c, "cc_minor", d->cc_minor, "queried: compute capability");
  add (c, "sms", d->sm_count, "queried: multiProcessorCount");
  add (c, "l2_bytes", (double) d->l2_bytes, "queried: l2CacheSize");
  /* every SM since Volta (7.0) has four schedulers, each issuing one warp
   * instruction a cycle */
  if (d->cc_major >= 7)
    add (c, "alu_warp_instructions_per_cycle", 4,
         "from the compute capability (%d.%d): four schedulers an SM, one warp instruction each a cycle",
         d->cc_major, d->cc_minor);
  if (d->mem_clock_mhz > 0)
    add (c, "memory_clock_mhz", d->mem_clock_mhz, "queried: memory clock rate");
  /* the driver gives the shared memory an SM can have, not the unified
   * L1 it is carved from: that is the next 64 KiB above it on every SM
   * since Volta (96 → 128, 164 → 192, 228 → 256 KiB) */
  add (c, "l1_shared_bytes", (double) ((d->shared_per_sm / 65536 + 1) * 65536),
       "queried: sharedMemPerMultiprocessor (%" G_GINT64_FORMAT " KiB), rounded up to the next 64 KiB",
       d->shared_per_sm / 1024);
}

static gboolean
measure_dram (Cal     *c,
              GError **error)
{
  g_autofree char *size = g_format_size_full (c->stream_bytes, G_FORMAT_SIZE_IEC_UNITS);
  double s;

  if (!time_launch (c, _("the DRAM read kernel"), launch_read, NULL, TRUE, &s, error))
    return FALSE;
  add (c, "dram_read_bytes_per_s", c->stream_bytes / s,
       "measured: 16-byte streaming loads over %s, L2 flushed before each sample", size);
  if (!next_step (c, error) ||
      !time_launch (c, _("the DRAM write kernel"), launch_write, NULL, TRUE, &s, error))
    return FALSE;
  add (c, "dram_write_bytes_per_s", c->stream_bytes / s,
       "measured: 16-byte streaming stores over %s, L2 flushed before each sample", size);
  return next_step (c, error);
}

static gboolean
measure_l2 (Cal     *c,
            GError **error)
{
  Shape s = { .blocks = c->sms * 8, .iters = 256, .lines = L2_SET_BYTES / 128, .per_line = 1 };
  double instructions = (double) s.blocks * 8 * s.iters;
  double t;

  if (!ws_gpu_check (cudaMemset (c->set, 0, L2_SET_BYTES), _("clearing L2's working set"), error) ||
      !time_launch (c, _("the L2 read kernel"), launch_l2_read, &s, FALSE, &t, error))
    return FALSE;
  add (c, "l2_read_requests_per_s", 32 * instructions / t,
       "measured: loads (ld.global.cg) of one sector in each of 32 lines a warp, over 8 MiB that L2 holds");
  s.per_line = 32;
  if (!next_step (c, error) || !time_launch (c, _("the L2 read kernel"), launch_l2_read, &s, FALSE, &t, error))
    return FALSE;
  add (c, "l2_sectors_per_s", 4 * instructions / t,
       "measured: loads (ld.global.cg) of a whole line, 4 sectors, a warp, over 8 MiB that L2 holds");
  if (!next_step (c, error) || !time_launch (c, _("the L2 write kernel"), launch_l2_write, &s, FALSE, &t, error))
    return FALSE;
  add (c, "l2_write_requests_per_s", 16 * instructions / t,
       "measured: 16-byte stores (st.global.cg) of a whole sector in each of 16 lines a warp, over 8 MiB "
       "that L2 holds");
  return next_step (c, error);
}

static gboolean
measure_sm (Cal     *c,
            GError **error)
{
  Shape s = { .blocks = c->sms * 8, .iters = 256, .lines = L1_SET_BYTES / 128 };
  double warp_instructions = (double) s.blocks * 8 * s.iters;
  double t, one, all;

  if (!ws_gpu_check (cudaMemset (c->small, 0, L1_SET_BYTES), _("clearing L1's working set"), error) ||
      !time_launch (c, _("the L1 kernel"), launch_l1, &s, FALSE, &t, error))
    return FALSE;
  all = cycles_per (c, t, warp_instructions);
  s.per_line = 32;
  if (!time_launch (c, _("the L1 kernel"), launch_l1, &s, FALSE, &t, error))
    return FALSE;
  s.per_line = 0;
  one = cycles_per (c, t, warp_instructions);
  /* a request costs its lookup, and each line it touches */
  add (c, "l1_cycles_per_line", MAX ((all - one) / 31, 0.01),
       "measured: loads (ld.global.nc) of 32 lines a warp (%.2f cycles) less those of one line (%.2f), over 31, "
       "over 32 KiB that L1 holds", all, one);
  add (c, "l1_cycles_per_request", MAX (one - MAX ((all - one) / 31, 0.01), 0),
       "measured: loads of one line a warp, less what the line costs");
  s.iters = 512;
  warp_instructions = (double) s.blocks * 8 * s.iters;
  if (!next_step (c, error) || !time_launch (c, _("the shared-memory kernel"), launch_shared, &s, FALSE, &t, error))
    return FALSE;
  add (c, "shared_cycles_per_wavefront", cycles_per (c, t, warp_instructions * 32),
       "measured: shared loads with all 32 lanes in one bank (32 wavefronts each)");

  s.distinct = 1;
  if (!next_step (c, error) || !time_launch (c, _("the constant kernel"), launch_constant, &s, FALSE, &t, error))
    return FALSE;
  one = cycles_per (c, t, warp_instructions);
  s.distinct = 32;
  if (!time_launch (c, _("the constant kernel"), launch_constant, &s, FALSE, &t, error))
    return FALSE;
  all = cycles_per (c, t, warp_instructions);
  /* one address costs an instruction and an address; 32 add 31 addresses */
  add (c, "constant_cycles_per_address", MAX ((all - one) / 31, 0.01),
       "measured: constant loads of 32 distinct addresses a warp (%.2f cycles) less those of 1 (%.2f), over 31",
       all, one);
  add (c, "constant_cycles_per_instruction", MAX (one - MAX ((all - one) / 31, 0.01), 0),
       "measured: constant loads of one address a warp, less what one address costs");
  return next_step (c, error);
}

static gboolean
measure_atomics (Cal     *c,
                 GError **error)
{
  Shape one = { .blocks = c->sms * 4, .iters = 16, .lines = 0 };
  Shape spread = { .blocks = c->sms * 8, .iters = 64, .lines = ATOMIC_SET_BYTES / 128 };
  double t;

  if (!ws_gpu_check (cudaMemset (c->set, 0, ATOMIC_SET_BYTES), _("clearing the atomics' words"), error) ||
      !time_launch (c, _("the atomics kernel"), launch_atomic, &one, FALSE, &t, error))
    return FALSE;
  add (c, "atomic_same_address_ns", t * 1e9 / ((double) one.blocks * 256 * one.iters),
       "measured: red.add of every lane of every warp on one word");
  if (!time_launch (c, _("the atomics kernel"), launch_atomic, &spread, FALSE, &t, error))
    return FALSE;
  add (c, "atomic_passes_per_s", (double) spread.blocks * 8 * spread.iters * 4 / t,
       "measured: red.add of 32 words in one line (4 sectors) a warp, over 4 MiB that L2 holds");
  return next_step (c, error);
}

/* The texture pipeline: a warp's tex2D of 32 texels of a row, point
 * sampled from an array L1 holds, as a stencil reads through a texture
 * object. What a fetch costs the SM beyond L1's lookup of its lines. */
static gboolean
measure_texture (Cal     *c,
                 GError **error)
{
  struct cudaChannelFormatDesc desc = cudaCreateChannelDesc (32, 0, 0, 0, cudaChannelFormatKindUnsigned);
  struct cudaResourceDesc res = { 0 };
  struct cudaTextureDesc tex = { 0 };
  Shape s = { .blocks = c->sms * 8, .iters = 256 };
  double t;

  if (!ws_gpu_check (cudaMallocArray (&c->array, &desc, WS_CAL_TEXTURE_SIDE, WS_CAL_TEXTURE_SIDE, 0),
                     "cudaMallocArray", error) ||
      !ws_gpu_check (cudaMemcpy2DToArray (c->array, 0, 0, c->small, WS_CAL_TEXTURE_SIDE * 4, WS_CAL_TEXTURE_SIDE * 4,
                                          WS_CAL_TEXTURE_SIDE, cudaMemcpyDeviceToDevice),
                     "cudaMemcpy2DToArray", error))
    return FALSE;
  res.resType = cudaResourceTypeArray;
  res.res.array.array = c->array;
  tex.addressMode[0] = tex.addressMode[1] = cudaAddressModeClamp;
  tex.filterMode = cudaFilterModePoint;
  tex.readMode = cudaReadModeElementType;
  if (!ws_gpu_check (cudaCreateTextureObject (&c->tex, &res, &tex, NULL), "cudaCreateTextureObject", error) ||
      !time_launch (c, _("the texture kernel"), launch_texture, &s, FALSE, &t, error))
    return FALSE;
  add (c, "tex_cycles_per_request", cycles_per (c, t, (double) s.blocks * 8 * s.iters),
       "measured: point-sampled tex2D of 32 texels in a row a warp, from a %d × %d array that L1 holds",
       WS_CAL_TEXTURE_SIDE, WS_CAL_TEXTURE_SIDE);
  return next_step (c, error);
}

/* What one link of a chain adds to a block's life, in ns: the launch with
 * 2 × iters links less the one with iters, over iters (what does not
 * depend on the links, the launch and the blocks' start, cancels). */
static gboolean
chain_link_ns (Cal        *c,
               WsCalChain  kind,
               unsigned    blocks_per_sm,
               int         iters,
               double     *ns,
               GError    **error)
{
  Shape s = { .blocks = c->sms * blocks_per_sm, .iters = iters, .distinct = kind };
  double once, twice;

  if (!time_launch (c, _("the chain kernel"), launch_chain, &s, FALSE, &once, error))
    return FALSE;
  s.iters = 2 * iters;
  if (!time_launch (c, _("the chain kernel"), launch_chain, &s, FALSE, &twice, error))
    return FALSE;
  *ns = MAX (twice - once, 0) * 1e9 / iters;
  return TRUE;
}

/* Chains: with one block of 8 warps an SM, each link waits for the one
 * before and nothing else; with as many such blocks as an SM holds, every
 * link also waits its turn at the schedulers. The first is the field, the
 * difference over the further warps its _warp_ns (not for arithmetic: a
 * chain of it is one thread's, while the others wait). */
static gboolean
measure_chains (Cal     *c,
                GError **error)
{
  static const struct
  {
    WsCalChain kind;
    const char *field;
    const char *per_warp;
    int iters;
    int per_link;
    const char *what;
  } chains[] = {
    { WS_CAL_CHAIN_SYNC, "sync_ns", "sync_warp_ns", 1024, 1, "__syncthreads () in a loop" },
    { WS_CAL_CHAIN_SHARED, "shared_latency_ns", "shared_latency_warp_ns", 1024, 1,
      "shared loads, each at the address the one before read" },
    { WS_CAL_CHAIN_ALU, "alu_latency_ns", NULL, 1024, 8,
      "multiply-adds, each on the one before's result" },
    { WS_CAL_CHAIN_FENCE_BLOCK, "fence_block_ns", "fence_block_warp_ns", 256, 1,
      "a volatile store then __threadfence_block (), less the store alone" },
    { WS_CAL_CHAIN_FENCE_GPU, "fence_gpu_ns", "fence_gpu_warp_ns", 256, 1,
      "a volatile store then __threadfence (), less the store alone" },
    { WS_CAL_CHAIN_FENCE_SYSTEM, "fence_system_ns", "fence_system_warp_ns", 256, 1,
      "a volatile store then __threadfence_system (), less the store alone" },
  };
  const WsDeviceInfo *d = c->info;
  unsigned full = (unsigned) CLAMP (MIN (d->max_threads_per_sm / 256, d->max_blocks_per_sm), 1, 64);
  double alone, busy, store_alone = 0, store_busy = 0, atomic;

  if (!ws_gpu_check (cudaMemset (c->set, 0, L2_SET_BYTES), _("clearing the chains' words"), error) ||
      !chain_link_ns (c, WS_CAL_CHAIN_STORE, 1, 256, &store_alone, error) ||
      !chain_link_ns (c, WS_CAL_CHAIN_STORE, full, 256, &store_busy, error))
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (chains); i++)
    {
      gboolean fence = chains[i].kind >= WS_CAL_CHAIN_FENCE_BLOCK && chains[i].kind <= WS_CAL_CHAIN_FENCE_SYSTEM;

      if (i == 3 && !next_step (c, error))
        return FALSE;
      if (!chain_link_ns (c, chains[i].kind, 1, chains[i].iters, &alone, error) ||
          !chain_link_ns (c, chains[i].kind, full, chains[i].iters, &busy, error))
        return FALSE;
      if (fence)
        {
          alone = MAX (alone - store_alone, 0);
          busy = MAX (busy - store_busy, 0);
        }
      alone /= chains[i].per_link;
      busy /= chains[i].per_link;
      add (c, chains[i].field, alone, "measured: %s, one block of 8 warps an SM", chains[i].what);
      if (full > 1 && chains[i].per_warp)
        add (c, chains[i].per_warp, MAX (busy - alone, 0) / ((full - 1) * 8.0),
             "measured: the same with %u such blocks an SM (%.1f ns a link against %.1f), over the %u warps more",
             full, busy, alone, (full - 1) * 8);
    }
  /* every lane of the SM's warps on one word of its block's: 31 conflicts
   * each warp instruction, one after another on the SM */
  if (!chain_link_ns (c, WS_CAL_CHAIN_SHARED_ATOMIC, full, 256, &atomic, error))
    return FALSE;
  add (c, "shared_atomic_cycles", atomic * 1e-9 * c->clock_hz / (full * 8 * 31.0),
       "measured: atomicMin of all 32 lanes of %u blocks of 8 warps an SM on one shared word of each block "
       "(%.1f ns for the SM's %u warp instructions)", full, atomic, full * 8);
  return next_step (c, error);
}

/* A message from one block to another: two blocks on their own take turns
 * at a flag, each waiting with volatile loads for the other's store, as a
 * consumer spins on its producer's flag. The launch with 2 × iters turns
 * less the one with iters, over the 2 × iters messages it adds. */
static gboolean
measure_message (Cal     *c,
                 GError **error)
{
  Shape s = { .iters = 256 };
  unsigned timeouts = 0;
  double once, twice;

  if (!ws_gpu_check (cudaMemset (c->set, 0, L2_SET_BYTES), _("clearing the message's words"), error) ||
      !time_launch (c, _("the message kernel"), launch_message, &s, FALSE, &once, error))
    return FALSE;
  s.iters *= 2;
  if (!time_launch (c, _("the message kernel"), launch_message, &s, FALSE, &twice, error) ||
      !ws_gpu_check (cudaMemcpy (&timeouts, (unsigned *) c->set + WS_CAL_MESSAGE_TIMEOUTS, sizeof timeouts,
                                 cudaMemcpyDeviceToHost),
                     _("reading the message kernel's timeouts"), error))
    return FALSE;
  if (timeouts > 0)
    {
      g_set_error (error, WS_GPU_ERROR, WS_GPU_ERROR_CUDA,
                   /* Translators: %u is how many of the kernel's waits gave up */
                   _("the message kernel's two blocks did not run at the same time (%u waits gave up): "
                     "is another program using the GPU?"), timeouts);
      return FALSE;
    }
  add (c, "message_ns", MAX (twice - once, 0) * 1e9 / s.iters,
       "measured: two blocks taking turns at a flag, each spinning with volatile loads until the other's store "
       "shows (%d messages)", s.iters);
  return next_step (c, error);
}

static gboolean
measure_host (Cal     *c,
              GError **error)
{
  cudaEvent_t start, stop;
  double samples[SAMPLES];
  float ms;

  ws_gpu_events (&start, &stop);
  for (guint pinned = 0; pinned < 2; pinned++)
    {
      const void *from = pinned ? c->pinned : c->pageable;

      /* the first copy pays for the pages, and is not timed */
      for (guint s = 0; s <= SAMPLES; s++)
        {
          if (!ws_gpu_check (cudaEventRecord (start, 0), _("recording an event"), error) ||
              !ws_gpu_check (cudaMemcpy (c->stream, from, HOST_BYTES, cudaMemcpyHostToDevice),
                             _("copying to the device"), error) ||
              !ws_gpu_check (cudaEventRecord (stop, 0), _("recording an event"), error) ||
              !ws_gpu_sync (_("copying to the device"), error) ||
              !ws_gpu_check (cudaEventElapsedTime (&ms, start, stop), _("reading the events"), error))
            return FALSE;
          /* timed with events, as measurements time copies */
          if (s > 0)
            samples[s - 1] = (double) ms * 1e-3;
        }
      qsort (samples, SAMPLES, sizeof samples[0], compare_doubles);
      if (pinned)
        add (c, "pcie_pinned_bytes_per_s", HOST_BYTES / samples[SAMPLES / 2],
             "measured: cudaMemcpy of 256 MiB from pinned memory to the device");
      else
        add (c, "pcie_pageable_bytes_per_s", HOST_BYTES / samples[SAMPLES / 2],
             "measured: cudaMemcpy of 256 MiB from pageable memory to the device");
    }
  return next_step (c, error);
}

static gboolean
measure_launches (Cal     *c,
                  GError **error)
{
  const WsDeviceInfo *d = c->info;
  Shape tiny = { .blocks = c->sms * 2048, .threads = 32 };
  /* shared memory sets how many blocks an SM holds: two, or one alone */
  Shape two = { .blocks = c->sms * 256, .threads = 1024, .shared = MAX (d->shared_per_sm / 2 - 8192, 0) };
  Shape alone = { .blocks = c->sms * 128, .threads = 1024,
                  .shared = MIN (d->shared_per_sm / 2 + 8192, d->shared_per_block_optin) };
  int slots = MIN (d->max_threads_per_sm / 1024, d->max_blocks_per_sm);
  double t, life_two, life_alone;

  /* as measurements time a launch: alone between two events, after L2 was
   * flushed (launches one after another overlap their overheads) */
  if (!time_launch (c, _("the empty kernel"), launch_empty, NULL, TRUE, &t, error))
    return FALSE;
  add (c, "launch_us", t * 1e6, "measured: an empty kernel, one launch between two events after an L2 flush, "
       "as measurements time it");
  if (!time_launch (c, _("the dispatch kernel"), launch_dispatch, &tiny, FALSE, &t, error))
    return FALSE;
  add (c, "block_ns", t * 1e9 * c->sms / tiny.blocks,
       "measured: %u blocks of one warp, one load each, %d SMs starting them", tiny.blocks, c->sms);
  /* a block's life is l1_latency_ns + resident warps × warp_ns, and an SM
   * ends `slots` blocks a life: blocks that fill the SM two at a time
   * against blocks that have it alone (their shared memory says so) */
  if (slots >= 2 && (alone.shared + 1024) * 2 > (gsize) d->shared_per_sm &&
      (two.shared + 1024) * 2 <= (gsize) d->shared_per_sm)
    {
      if (!time_launch (c, _("the dispatch kernel"), launch_dispatch, &two, FALSE, &t, error))
        return FALSE;
      life_two = t * 1e9 * c->sms / two.blocks * slots;
      if (!time_launch (c, _("the dispatch kernel"), launch_dispatch, &alone, FALSE, &t, error))
        return FALSE;
      life_alone = t * 1e9 * c->sms / alone.blocks;
      add (c, "warp_ns", MAX ((life_two - life_alone) / ((slots - 1) * 32.0), 0),
           "measured: blocks of 32 warps, %d to an SM (%.0f ns a life) against one to an SM (%.0f ns)", slots,
           life_two, life_alone);
    }
  return next_step (c, error);
}

/* ------------------------------------------------------------------ */
/* Buffers                                                            */
/* ------------------------------------------------------------------ */

static gboolean
allocate (Cal     *c,
          GError **error)
{
  gsize free_bytes = ws_gpu_free_memory ();

  c->stream_bytes = STREAM_BYTES;
  if (free_bytes > 0 && free_bytes / 3 < c->stream_bytes)
    c->stream_bytes = free_bytes / 3 / STREAM_CHUNK * STREAM_CHUNK;
  c->stream_bytes = MAX (c->stream_bytes, HOST_BYTES);
  if (!ws_gpu_check (cudaMalloc (&c->stream, c->stream_bytes), _("cudaMalloc of the streamed array"), error) ||
      !ws_gpu_check (cudaMalloc ((void **) &c->set, L2_SET_BYTES), _("cudaMalloc of L2's working set"), error) ||
      !ws_gpu_check (cudaMalloc ((void **) &c->small, L1_SET_BYTES), _("cudaMalloc of L1's working set"), error) ||
      !ws_gpu_check (cudaMalloc ((void **) &c->sink, 4096), _("cudaMalloc of a sink"), error) ||
      !ws_gpu_check (cudaMallocHost (&c->pinned, HOST_BYTES), _("cudaMallocHost of 256 MiB"), error))
    return FALSE;
  c->pageable = g_try_malloc (HOST_BYTES);
  if (c->pageable == NULL)
    {
      g_set_error (error, WS_GPU_ERROR, WS_GPU_ERROR_OUT_OF_MEMORY, _("no 256 MiB of host memory to copy from"));
      return FALSE;
    }
  memset (c->pageable, 1, HOST_BYTES);
  memset (c->pinned, 1, HOST_BYTES);
  /* written once: the streams read defined data */
  return ws_gpu_check (cudaMemset (c->stream, 0, c->stream_bytes), _("clearing the streamed array"), error) &&
         ws_gpu_sync (_("clearing the streamed array"), error);
}

static void
release (Cal *c)
{
  /* after a fault the context is gone, and so is what it held */
  if (c->stream)
    cudaFree (c->stream);
  if (c->set)
    cudaFree (c->set);
  if (c->small)
    cudaFree (c->small);
  if (c->sink)
    cudaFree (c->sink);
  if (c->pinned)
    cudaFreeHost (c->pinned);
  if (c->tex)
    cudaDestroyTextureObject (c->tex);
  if (c->array)
    cudaFreeArray (c->array);
  g_free (c->pageable);
  cudaGetLastError ();
}

static gboolean
calibrate (Cal     *c,
           GError **error)
{
  int mhz;

  if (!allocate (c, error))
    return FALSE;
  /* the clock while the SMs are busy: every cycle count below is in it */
  if (!time_launch (c, _("the L1 kernel"), launch_l1, &(Shape) { c->sms * 8, 64, L1_SET_BYTES / 128 }, FALSE,
                    &(double) { 0 }, error))
    return FALSE;
  mhz = ws_gpu_measure_clock ();
  if (mhz <= 0)
    mhz = c->info->sm_clock_mhz;
  c->clock_hz = mhz * 1e6;
  add (c, "sm_clock_mhz", mhz, "measured: clock64 () against events, after the SMs were kept busy");
  return next_step (c, error) && measure_dram (c, error) && measure_l2 (c, error) && measure_sm (c, error) &&
         measure_atomics (c, error) && measure_texture (c, error) &&
         measure_chains (c, error) && measure_message (c, error) && measure_launches (c, error) &&
         measure_host (c, error);
}

GArray *
ws_gpu_calibrate (GCancellable    *cancellable,
                  WsSampleProgress progress,
                  gpointer         progress_data,
                  GError         **error)
{
  g_autoptr (GArray) out = g_array_new (FALSE, TRUE, sizeof (WsCalibrated));
  Cal c = { 0 };
  gboolean ok = FALSE;

  g_array_set_clear_func (out, clear_calibrated);
  c.out = out;
  c.cancellable = cancellable;
  c.progress = progress;
  c.progress_data = progress_data;

  ws_gpu_lock ();
  if (ws_gpu_ensure (error))
    {
      c.info = ws_gpu_device ();
      c.sms = MAX (c.info->sm_count, 1);
      query (&c);
      ok = calibrate (&c, error);
      release (&c);
    }
  ws_gpu_unlock ();
  return ok ? g_steal_pointer (&out) : NULL;
}
