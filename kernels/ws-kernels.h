/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/* The kernels' launchers, callable from C. Every launcher launches on the
 * stream it is given (the backend passes the legacy default stream, 0),
 * fills *shape (when not NULL) with what the occupancy API needs, and
 * returns cudaPeekAtLastError () — it never clears an error, so that the
 * caller sees launch failures where it checks for them.
 *
 * Input data comes from ws_value (): the CPU references compute the same
 * function, so no input ever has to be copied to the device. */

#include <stddef.h>
#include <stdint.h>

#include <cuda_runtime_api.h>

#ifdef __CUDACC__
#define WS_HD __host__ __device__ __forceinline__
#else
#define WS_HD static inline
#endif

#ifdef __cplusplus
#define WS_KERNELS_BEGIN extern "C" {
#define WS_KERNELS_END }
#else
#define WS_KERNELS_BEGIN
#define WS_KERNELS_END
#endif

WS_KERNELS_BEGIN

#define WS_BLOCK 256

/* lowbias32, a good 32-bit integer hash */
WS_HD uint32_t
ws_hash32 (uint32_t x)
{
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}

/* word k of an input filled with seed */
WS_HD uint32_t
ws_value (uint64_t k,
          uint32_t seed)
{
  return ws_hash32 ((uint32_t) k ^ ((uint32_t) (k >> 32) * 0x85ebca6bu) ^ (seed * 0x9e3779b9u));
}

typedef struct
{
  const void *func;      /* the __global__ function, for cudaFuncGetAttributes */
  int block_threads;
  size_t dynamic_shared;
} WsKernelShape;

/* ws-kernels-common.cu */
cudaError_t ws_fill_words        (uint32_t *p, size_t n_words, uint32_t seed, cudaStream_t stream);
/* spins one warp for cycles SM clocks; *elapsed receives the clocks it counted */
cudaError_t ws_flush_read        (const void *p, size_t bytes, uint32_t *sink, cudaStream_t stream);
cudaError_t ws_spin_clock        (long long cycles, long long *elapsed, cudaStream_t stream);
/* writes to an address that is not mapped: an illegal-address fault, on purpose */
cudaError_t ws_fault             (cudaStream_t stream);
const void *ws_fill_words_func   (void);

/* ws-kernels-coalescing.cu */
enum
{
  WS_COALESCING_SEQUENTIAL,
  WS_COALESCING_PERMUTED,
  WS_COALESCING_OFFSET,
  WS_COALESCING_STRIDE,
  WS_COALESCING_BROADCAST,
  WS_COALESCING_STRIDED_SWEEP,
};
cudaError_t ws_launch_coalescing (int variant, const uint32_t *in, uint32_t *out, int64_t n, int64_t param,
                                  cudaStream_t stream, WsKernelShape *shape);

/* ws-kernels-alignment.cu */
enum
{
  WS_ALIGNMENT_STRUCT_UNPADDED,
  WS_ALIGNMENT_STRUCT_PADDED,
  WS_ALIGNMENT_AOS,
  WS_ALIGNMENT_SOA,
  WS_ALIGNMENT_ASTA,
};
cudaError_t ws_launch_elem_size  (int elem_size, const void *in, void *out, int64_t n,
                                  cudaStream_t stream, WsKernelShape *shape);
cudaError_t ws_launch_layout     (int variant, const uint32_t *in, uint32_t *out, int64_t n,
                                  cudaStream_t stream, WsKernelShape *shape);
/* pitches in elements */
cudaError_t ws_launch_pitch      (const float *in, float *out, int64_t width, int64_t height, int64_t pitch,
                                  cudaStream_t stream, WsKernelShape *shape);
/* pitch in elements: element (x, y, z) at (z * height + y) * pitch + x */
cudaError_t ws_launch_pitch3d    (const float *in, float *out, int64_t width, int64_t height, int64_t depth,
                                  int64_t pitch, cudaStream_t stream, WsKernelShape *shape);
/* 7-byte structures (at byte 7 i) or padded to 8 (at byte 8 i): out[i] =
 * bytes 0-3 as a little-endian word xor-ed with bytes 4-6 */
cudaError_t ws_launch_struct7    (int padded, const void *in, uint32_t *out, int64_t n,
                                  cudaStream_t stream, WsKernelShape *shape);

/* ws-kernels-transpose.cu */
enum
{
  WS_TRANSPOSE_COPY,
  WS_TRANSPOSE_READ_COALESCED,
  WS_TRANSPOSE_WRITE_COALESCED,
  WS_TRANSPOSE_LDG,
  WS_TRANSPOSE_SHARED,
  WS_TRANSPOSE_SHARED_PADDED,
};
cudaError_t ws_launch_transpose  (int variant, const float *in, float *out, int64_t n,
                                  cudaStream_t stream, WsKernelShape *shape);

/* ws-kernels-banks.cu: every thread reads shared memory `loads` times (a
 * multiple of WS_BANKS_UNROLL) */
#define WS_BANKS_UNROLL 32
#define WS_BANKS_WORDS 8192     /* indices wrap here; one round adds 32 words */
#define WS_BANKS_BLOCKS 132
enum
{
  WS_BANKS_STRIDE,
  WS_BANKS_BROADCAST,
  WS_BANKS_PADDING,
  WS_BANKS_ELEM8,
  WS_BANKS_ELEM16,
  WS_BANKS_SWIZZLE,
};
cudaError_t ws_launch_banks      (int variant, uint32_t *out, int64_t param, int64_t loads, uint32_t seed,
                                  cudaStream_t stream, WsKernelShape *shape);

/* ws-kernels-constant.cu */
#define WS_CONSTANT_WORDS 2048
#define WS_CONSTANT_BLOCKS 132
cudaError_t ws_constant_upload   (const uint32_t *table, cudaStream_t stream);
/* distinct = 0: every warp on its own single address (broadcast); loads is
 * a multiple of 32 */
cudaError_t ws_launch_constant   (int64_t distinct, int64_t loads, uint32_t *out, cudaStream_t stream,
                                  WsKernelShape *shape);

/* ws-kernels-readonly.cu */
cudaError_t ws_launch_readonly   (int ldg, const uint32_t *in, uint32_t *out, int64_t n,
                                  cudaStream_t stream, WsKernelShape *shape);

/* ws-kernels-local.cu: private arrays of 32 words, read WS_PRIVATE_READS times */
#define WS_PRIVATE_WORDS 32
#define WS_PRIVATE_READS 256
enum
{
  WS_PRIVATE_STATIC,
  WS_PRIVATE_UNIFORM_LOCAL,
  WS_PRIVATE_NONUNIFORM_LOCAL,
  WS_PRIVATE_NONUNIFORM_SHARED,
  WS_PRIVATE_LOCAL_WIDE,
  WS_PRIVATE_RANDOM,           /* a random base per lane and round */
  WS_PRIVATE_DISTINCT,         /* base threadIdx.x % 32 % k: k distinct per warp */
  WS_PRIVATE_CARVEOUT,         /* WS_CARVEOUT_WORDS words, non-uniform base */
};
#define WS_CARVEOUT_WORDS 16
cudaError_t ws_launch_private    (int variant, const uint32_t *in, uint32_t *out, int64_t n, int64_t k,
                                  cudaStream_t stream, WsKernelShape *shape);
const void *ws_private_carveout_func (void);
/* a[size], indices left to the compiler: a[0] = ws_hash32 (in[i]),
 * a[j] = ws_hash32 (a[j - 1] + j); out[i] is the sum over
 * q < WS_PRIVATE_SIZE_ROUNDS and j < size of a[j] ^ q */
#define WS_PRIVATE_SIZE_ROUNDS 8
extern const int ws_private_sizes[];
extern const int ws_private_n_sizes;
cudaError_t ws_launch_private_size (int size, const uint32_t *in, uint32_t *out, int64_t n,
                                    cudaStream_t stream, WsKernelShape *shape);

/* ws-kernels-occupancy.cu: a kernel that needs WS_SPILL_VALUES / 2
 * registers, limited to 32 */
#define WS_SPILL_VALUES 192
cudaError_t ws_launch_spill      (const uint32_t *in, uint32_t *out, int64_t n,
                                  cudaStream_t stream, WsKernelShape *shape);

/* ws-kernels-atomics.cu */
enum
{
  WS_ATOMICS_ONE_ADDRESS,
  WS_ATOMICS_DISTINCT,
  WS_ATOMICS_HISTOGRAM,
  WS_ATOMICS_SHARED,
  WS_ATOMICS_WARP_AGGREGATED,
  WS_ATOMICS_CAS_LOOP,
};
#define WS_ATOMICS_MAX_BINS 4096
cudaError_t ws_launch_atomics    (int variant, const uint32_t *in, uint32_t *out, int64_t n, int64_t bins,
                                  cudaStream_t stream, WsKernelShape *shape);

/* ws-kernels-l2.cu: out[i] = hot[i % hot_n] + stream[i]; window_bytes > 0
 * marks [hot, hot + window_bytes) persisting for hit_ratio of its lines */
cudaError_t ws_launch_l2         (const uint32_t *hot, const uint32_t *stream_in, uint32_t *out, int64_t n,
                                  int64_t hot_n, size_t window_bytes, float hit_ratio,
                                  cudaStream_t stream, WsKernelShape *shape);

/* ws-kernels-transfer.cu: out[i] = in[i] * 3 + 1, and out[i] = ws_work
 * (in[i], work) */
cudaError_t ws_launch_scale      (const uint32_t *in, uint32_t *out, int64_t n,
                                  cudaStream_t stream, WsKernelShape *shape);
cudaError_t ws_launch_scale_work (const uint32_t *in, uint32_t *out, int64_t n, int work,
                                  cudaStream_t stream, WsKernelShape *shape);

/* rounds of arithmetic that no compiler folds (what the CPU reference
 * recomputes) */
WS_HD uint32_t
ws_work (uint32_t x,
         int      rounds)
{
  for (int r = 0; r < rounds; r++)
    x = (x ^ (x >> 7)) * 0x5bd1e995u + 0x9e3779b9u;
  return x;
}

/* ws-kernels-merge.cu: out[b] = the minimum of block b's 256 values */
enum
{
  WS_MERGE_ONE_THREAD,
  WS_MERGE_ATOMICMIN,
  WS_MERGE_TREE,
  WS_MERGE_TREE_INTERLEAVED,
  WS_MERGE_HYBRID,
};
cudaError_t ws_launch_merge      (int variant, const uint32_t *in, uint32_t *out, int64_t n,
                                  cudaStream_t stream, WsKernelShape *shape);
/* the block-wide merge sort: each block sorts WS_SORT_ELEMENTS values,
 * in[k] >> 9 for k of the block (the last block's missing ones sort last),
 * into out. group (HYBRID only) divides WS_BLOCK. */
#define WS_SORT_ITEMS 4
#define WS_SORT_ELEMENTS (WS_SORT_ITEMS * WS_BLOCK)
enum
{
  WS_SORT_ONE_THREAD,
  WS_SORT_ATOMICMIN,
  WS_SORT_TREE,
  WS_SORT_HYBRID,
};
cudaError_t ws_launch_sort       (int strategy, const uint32_t *in, uint32_t *out, int64_t n, int group,
                                  cudaStream_t stream, WsKernelShape *shape);

/* ws-kernels-ilp.cu: latency hiding. Thread t of the grid's T threads sums
 * the words of the 16-byte elements t, t + T, t + 2T, … below n: one load
 * in flight per iteration for a warp (WS_LATENCY_HOLD), ILP of them
 * (WS_LATENCY_ILP, param 1, 2, 4 or 8) or a loop the compiler unrolls param
 * times (WS_LATENCY_UNROLL). The hold kernel keeps ws_latency_hold_values
 * (budget) values in registers across the loop, read from the first words of
 * in and xor-ed with t; it adds them all to the sum of every element whose
 * first word is MAGIC, and at the end folds them in one by one as
 * acc = (acc ^ v) * FOLD: the same work for every budget, and the budget's
 * registers. dial_bytes of
 * dynamic shared memory, never read, limit how many blocks fit on an SM. */
enum
{
  WS_LATENCY_ILP,
  WS_LATENCY_UNROLL,
  WS_LATENCY_HOLD,
};
#define WS_LATENCY_FOLD 0x01000193u
#define WS_LATENCY_MAGIC 0x9e3779b9u
extern const int ws_latency_budgets[];
extern const int ws_latency_n_budgets;
/* values held for a budget; -1 for none compiled */
int         ws_latency_hold_values (int budget);
/* the __global__ function, for the occupancy API; NULL for none compiled */
const void *ws_latency_func      (int variant, int param);
cudaError_t ws_launch_latency    (int variant, int param, const uint4 *in, uint32_t *out, int64_t n,
                                  int blocks, int block, size_t dial_bytes,
                                  cudaStream_t stream, WsKernelShape *shape);

/* ws-kernels-unified.cu: a __managed__ array of WS_MANAGED_WORDS words, and
 * its address (valid on the host and the device alike) */
#define WS_MANAGED_WORDS 4194304   /* 1 << 22, written out: the PTX of its module says it */
cudaError_t ws_managed_variable  (uint32_t **words);
/* unloads the array's module, freeing it (before the context goes) */
void        ws_managed_variable_release (void);

/* ws-kernels-fences.cu. Every spin gives up after WS_FENCES_SPIN_LIMIT reads
 * of its flag. */
#define WS_FENCES_SPIN_LIMIT (1 << 16)
/* the last-block reduction: problem p is WS_LAST_BLOCK_BLOCKS blocks, each
 * summing WS_LAST_BLOCK_ITEMS elements per thread into partial (one word per
 * thread); the last block to take a ticket writes result[p] and counts it
 * in *wrong when it differs from expected[p]. tickets start at 0 and are
 * back at 0 after each launch. */
#define WS_LAST_BLOCK_BLOCKS 16
#define WS_LAST_BLOCK_ITEMS 4
#define WS_LAST_BLOCK_ELEMENTS (WS_LAST_BLOCK_BLOCKS * WS_BLOCK * WS_LAST_BLOCK_ITEMS)
cudaError_t ws_launch_last_block (int fence, const uint32_t *in, uint32_t *partial, uint32_t *tickets,
                                  uint32_t *result, const uint32_t *expected, uint32_t *wrong, int64_t problems,
                                  cudaStream_t stream, WsKernelShape *shape);
/* message passing: pair p's data (WS_FLAG_WORDS words from p * WS_FLAG_WORDS)
 * is ws_value (p * WS_FLAG_WORDS + k, seq); its consumer copies what it read
 * to out and sets status[p] to 0 (the data), 1 (stale) or 2 (timed out),
 * adding 1 to counts[status]. flags start below seq. */
#define WS_FLAG_WORDS 256
enum
{
  WS_FLAG_PLAIN,
  WS_FLAG_VOLATILE,
  WS_FLAG_FENCE,
};
cudaError_t ws_launch_flag       (int mode, uint32_t *data, uint32_t *flags, uint32_t *out, uint32_t *status,
                                  uint32_t *counts, int64_t pairs, uint32_t seq,
                                  cudaStream_t stream, WsKernelShape *shape);
/* each of the n threads (rounded up to whole blocks: out must hold them)
 * stores rounds times, each store followed by a fence of the kind */
enum
{
  WS_FENCE_NONE,
  WS_FENCE_BLOCK,
  WS_FENCE_DEVICE,
  WS_FENCE_SYNCTHREADS,
  WS_FENCE_SYSTEM,
};
cudaError_t ws_launch_fence_cost (int kind, uint32_t *out, int64_t n, int rounds,
                                  cudaStream_t stream, WsKernelShape *shape);

/* ws-kernels-stencil.cu: out[y * w + x] = sum over |dy|, |dx| <= radius of
 * c[(dy + radius) * (2 radius + 1) + dx + radius] *
 * in[(y + radius + dy) * (w + 2 radius) + x + radius + dx], modulo 2^32: in
 * is padded with radius rows and columns on every side; c is in constant
 * memory (ws_stencil_upload, (2 WS_STENCIL_MAX_RADIUS + 1)^2 words). tex, for
 * WS_STENCIL_TEXTURE only, reads the same padded array. */
#define WS_STENCIL_MAX_RADIUS 3
enum
{
  WS_STENCIL_PLAIN,
  WS_STENCIL_RESTRICT,
  WS_STENCIL_LDG,
  WS_STENCIL_TEXTURE,
  WS_STENCIL_SHARED,
};
cudaError_t ws_stencil_upload    (const uint32_t *coeff, cudaStream_t stream);
cudaError_t ws_launch_stencil    (int variant, int radius, const uint32_t *in, uint32_t *out, int64_t w, int64_t h,
                                  cudaTextureObject_t tex, cudaStream_t stream, WsKernelShape *shape);

/* ws-kernels-calibrate.cu: the microkernels of `warpscope-cli calibrate`
 * (backend/gpu/ws-gpu-calibrate.c). Streams move bytes in chunks of
 * 16 × 256 × WS_CAL_STREAM_UNROLL; `lines` are powers of two; iters a
 * multiple of 8. */
#define WS_CAL_STREAM_UNROLL 4
#define WS_CAL_CONSTANT_WORDS 1024
cudaError_t ws_cal_read          (const void *x, size_t bytes, void *sink, cudaStream_t stream);
cudaError_t ws_cal_write         (void *x, size_t bytes, int value, cudaStream_t stream);
/* per_line: lanes in each line a warp reads (1: 32 lines, one sector of
 * each; 32: one line, all four sectors) */
cudaError_t ws_cal_l2_read       (const float *x, unsigned lines, unsigned per_line, unsigned blocks, int iters,
                                  float *sink, cudaStream_t stream);
/* 16 whole sectors of 16 lines a warp instruction */
cudaError_t ws_cal_l2_write      (float *x, unsigned lines, unsigned blocks, int iters, cudaStream_t stream);
/* spread 8: a line a lane (32 a request); 0: one line, a word a lane */
cudaError_t ws_cal_l1            (const float *x, unsigned lines, unsigned spread, unsigned blocks, int iters,
                                  float *sink, cudaStream_t stream);
cudaError_t ws_cal_shared        (unsigned blocks, int iters, float *sink, cudaStream_t stream);
cudaError_t ws_cal_constant      (unsigned distinct, unsigned blocks, int iters, float *sink, cudaStream_t stream);
/* lines 0: every lane of every warp on p[0] */
cudaError_t ws_cal_atomic        (unsigned *p, unsigned lines, unsigned blocks, int iters, cudaStream_t stream);
cudaError_t ws_cal_empty         (cudaStream_t stream);
cudaError_t ws_cal_dispatch      (const float *x, float *sink, unsigned blocks, unsigned threads,
                                  size_t dynamic_shared, cudaStream_t stream);
/* point-sampled tex2D of 32 texels in a row a warp, over a
 * WS_CAL_TEXTURE_SIDE² array of 32-bit words */
#define WS_CAL_TEXTURE_SIDE 64
cudaError_t ws_cal_texture       (cudaTextureObject_t tex, unsigned blocks, int iters, float *sink,
                                  cudaStream_t stream);
/* Two blocks take turns at words[0] (which it sets to 0 first), each
 * waiting for the other's store: 2 × iters messages through L2, one after
 * another. A wait that gives up adds 1 to words[WS_CAL_MESSAGE_TIMEOUTS]. */
#define WS_CAL_MESSAGE_TRIES (1u << 20)
#define WS_CAL_MESSAGE_TIMEOUTS 64
cudaError_t ws_cal_message       (unsigned *words, int iters, cudaStream_t stream);
/* Chains: every thread of `blocks` blocks of 256 makes `iters` links, each
 * waiting for the one before: what one link adds to a block's life. */
typedef enum
{
  WS_CAL_CHAIN_STORE,            /* a volatile store to the thread's own word */
  WS_CAL_CHAIN_FENCE_BLOCK,      /* the same, then __threadfence_block () */
  WS_CAL_CHAIN_FENCE_GPU,        /* … __threadfence () */
  WS_CAL_CHAIN_FENCE_SYSTEM,     /* … __threadfence_system () */
  WS_CAL_CHAIN_SYNC,             /* __syncthreads () */
  WS_CAL_CHAIN_SHARED,           /* a shared load whose address is the load before's value */
  WS_CAL_CHAIN_ALU,              /* eight multiply-adds, each on the one before's result */
  WS_CAL_CHAIN_SHARED_ATOMIC,    /* atomicMin of every lane on one shared word */
  WS_CAL_N_CHAINS
} WsCalChain;
cudaError_t ws_cal_chain         (int kind, unsigned *words, unsigned blocks, int iters, float *sink,
                                  cudaStream_t stream);

WS_KERNELS_END
