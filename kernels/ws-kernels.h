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
};
cudaError_t ws_launch_private    (int variant, const uint32_t *in, uint32_t *out, int64_t n, int64_t k,
                                  cudaStream_t stream, WsKernelShape *shape);

/* ws-kernels-occupancy.cu */
/* the register budgets compiled in, ascending; a request rounds up to one */
extern const int ws_occupancy_budgets[];
extern const int ws_occupancy_n_budgets;
/* values each thread holds for a budget (what the CPU reference recomputes) */
int         ws_occupancy_values  (int budget);
cudaError_t ws_launch_registers  (int budget, const uint32_t *in, uint32_t *out, int64_t n,
                                  cudaStream_t stream, WsKernelShape *shape);
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

/* ws-kernels-transfer.cu: out[i] = in[i] * 3 + 1 */
cudaError_t ws_launch_scale      (const uint32_t *in, uint32_t *out, int64_t n,
                                  cudaStream_t stream, WsKernelShape *shape);

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

WS_KERNELS_END
