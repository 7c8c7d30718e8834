// SPDX-License-Identifier: GPL-3.0-or-later
// The microkernels of `warpscope-cli calibrate` (backend/gpu/ws-gpu-calibrate.c):
// each keeps one level of the machine busy, and nothing else, so that its
// rate shows alone. Every kernel's result goes to a sink only under a
// condition that never holds, so the compiler keeps the loads it feeds.
#include "ws-kernels-launch.cuh"

#define CAL_BLOCK 256
#define CAL_UNROLL 8

__constant__ float ws_cal_words[WS_CAL_CONSTANT_WORDS];

static __device__ __forceinline__ unsigned
cal_lane (void)
{
  return threadIdx.x & 31;
}

static __device__ __forceinline__ unsigned
cal_warp (void)
{
  return (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
}

// DRAM: each thread streams WS_CAL_STREAM_UNROLL 16-byte loads, a block's
// chunk after the other's.
__global__ void
ws_cal_read_kernel (const int4 *__restrict__ x,
                    int4                    *sink)
{
  size_t base = (size_t) blockIdx.x * blockDim.x * WS_CAL_STREAM_UNROLL + threadIdx.x;
  int4 v[WS_CAL_STREAM_UNROLL];
  int acc = 0;

#pragma unroll
  for (int k = 0; k < WS_CAL_STREAM_UNROLL; k++)
    v[k] = __ldcs (&x[base + (size_t) k * blockDim.x]);
#pragma unroll
  for (int k = 0; k < WS_CAL_STREAM_UNROLL; k++)
    acc ^= v[k].x ^ v[k].y ^ v[k].z ^ v[k].w;
  if (acc == 0x7a5c3e11)
    sink[threadIdx.x] = v[0];
}

__global__ void
ws_cal_write_kernel (int4 *x,
                     int   value)
{
  size_t base = (size_t) blockIdx.x * blockDim.x * WS_CAL_STREAM_UNROLL + threadIdx.x;
  int4 v = make_int4 (value, value + 1, value + 2, (int) threadIdx.x);

#pragma unroll
  for (int k = 0; k < WS_CAL_STREAM_UNROLL; k++)
    __stcs (&x[base + (size_t) k * blockDim.x], v);
}

// L2: loads that skip L1 (ld.global.cg) of a working set that L2 holds.
// Each warp instruction reads 32 / per_line lines, per_line lanes in each
// (1: one sector of each of 32 lines; 32: a whole line, 4 sectors).
__global__ void
ws_cal_l2_read_kernel (const float *x,
                       unsigned     line_mask,
                       unsigned     per_line,
                       int          iters,
                       float       *sink)
{
  unsigned warps = (gridDim.x * blockDim.x) >> 5;
  unsigned lane = cal_lane ();
  unsigned group = cal_warp ();
  unsigned lines = 32 / per_line;
  unsigned word = lane % per_line;
  float acc = 0;

  for (int i = 0; i < iters; i += CAL_UNROLL)
    {
      float v[CAL_UNROLL];
#pragma unroll
      for (int k = 0; k < CAL_UNROLL; k++)
        {
          unsigned line = ((group + (unsigned) (i + k) * warps) * lines + lane / per_line) & line_mask;
          v[k] = __ldcg (&x[(size_t) line * 32 + word]);
        }
#pragma unroll
      for (int k = 0; k < CAL_UNROLL; k++)
        acc += v[k];
    }
  if (acc == -1.25f)
    sink[threadIdx.x] = acc;
}

// L2 writes: 16-byte stores (st.global.cg), two lanes to a sector, the
// first sector of 16 lines an instruction: 16 requests of a whole sector.
__global__ void
ws_cal_l2_write_kernel (float4  *x,
                        unsigned line_mask,
                        int      iters)
{
  unsigned warps = (gridDim.x * blockDim.x) >> 5;
  unsigned lane = cal_lane ();
  unsigned group = cal_warp ();
  float4 v = make_float4 (1.0f, 2.0f, 3.0f, (float) lane);

#pragma unroll 8
  for (int i = 0; i < iters; i++)
    {
      unsigned line = ((group + (unsigned) i * warps) * 16 + lane / 2) & line_mask;
      __stcg (&x[(size_t) line * 8 + (lane & 1)], v);
    }
}

// L1: every lane reads a line of its own (32 lines a request; spread 0:
// one line, a word a lane) of an array small enough to stay in L1, through
// the read-only path.
__global__ void
ws_cal_l1_kernel (const float *__restrict__ x,
                  unsigned                  line_mask,
                  unsigned                  spread,
                  int                       iters,
                  float                    *sink)
{
  unsigned lane = cal_lane ();
  float acc = 0;

  for (int i = 0; i < iters; i += CAL_UNROLL)
    {
      float v[CAL_UNROLL];
#pragma unroll
      for (int k = 0; k < CAL_UNROLL; k++)
        v[k] = __ldg (&x[((lane * spread + (unsigned) (i + k)) & line_mask) * 32 +
                         (spread ? (unsigned) (i + k) & 31 : lane)]);
#pragma unroll
      for (int k = 0; k < CAL_UNROLL; k++)
        acc += v[k];
    }
  if (acc == -1.25f)
    sink[threadIdx.x] = acc;
}

// Shared memory: every lane in the same bank, 32 wavefronts an instruction.
__global__ void
ws_cal_shared_kernel (int    iters,
                      float *sink)
{
  __shared__ float s[32 * 32];
  volatile float *vs = s;
  unsigned lane = cal_lane ();
  float acc = 0;

  for (unsigned i = threadIdx.x; i < 32 * 32; i += blockDim.x)
    s[i] = (float) i;
  __syncthreads ();
  for (int i = 0; i < iters; i += CAL_UNROLL)
    {
#pragma unroll
      for (int k = 0; k < CAL_UNROLL; k++)
        acc += vs[lane * 32 + ((i + k) & 31)];
    }
  if (acc == -1.25f)
    sink[threadIdx.x] = acc;
}

// The constant cache: the lanes read `distinct` addresses (passed at run
// time, so that the compiler cannot use the uniform path for 1).
__global__ void
ws_cal_constant_kernel (unsigned distinct,
                        int      iters,
                        float   *sink)
{
  unsigned word = cal_lane () % distinct;
  float acc = 0;

  for (int i = 0; i < iters; i += CAL_UNROLL)
    {
#pragma unroll
      for (int k = 0; k < CAL_UNROLL; k++)
        acc += ws_cal_words[(word + (unsigned) (i + k) * 32) & (WS_CAL_CONSTANT_WORDS - 1)];
    }
  if (acc == -1.25f)
    sink[threadIdx.x] = acc;
}

// Atomics, as red.global.add written out so that ptxas cannot merge a
// warp's updates into one: every lane updates p[word], word = the lane's
// line of lines (line_mask 0: every lane on p[0]).
__global__ void
ws_cal_atomic_kernel (unsigned *p,
                      unsigned  line_mask,
                      int       iters)
{
  unsigned warps = (gridDim.x * blockDim.x) >> 5;
  unsigned line = cal_warp ();
  unsigned lane = line_mask ? cal_lane () : 0;

  for (int i = 0; i < iters; i++)
    {
      unsigned *a = p + (size_t) ((line + (unsigned) i * warps) & line_mask) * 32 + lane;
      asm volatile ("red.relaxed.gpu.global.add.u32 [%0], %1;" ::"l"(a), "r"(1u) : "memory");
    }
}

// The texture pipeline: point-sampled tex2D of 32 texels in a row a warp
// (as a 2-D stencil fetches them), from a 64 × 64 array that L1 holds, so
// that the fetches' rate shows and not the memory behind them.
__global__ void
ws_cal_texture_kernel (cudaTextureObject_t tex,
                       int                 iters,
                       float              *sink)
{
  unsigned x = cal_lane () + 32 * (cal_warp () & 1);
  unsigned y = cal_warp () >> 1;
  uint32_t acc = 0;

  for (int i = 0; i < iters; i += CAL_UNROLL)
    {
#pragma unroll
      for (int k = 0; k < CAL_UNROLL; k++)
        acc += tex2D<uint32_t> (tex, x + 0.5f, ((y + (unsigned) (i + k)) & (WS_CAL_TEXTURE_SIDE - 1)) + 0.5f);
    }
  if (acc == 0xdeadbeefu)
    sink[threadIdx.x] = (float) acc;
}

// Chains (WsCalChain): each link waits for the one before, so that the
// time of a launch of one wave is its blocks' life, `iters` links long.
template <int KIND>
__global__ void __launch_bounds__ (CAL_BLOCK)
ws_cal_chain_kernel (unsigned *words,
                     int       iters,
                     float    *sink)
{
  __shared__ unsigned s[CAL_BLOCK];
  unsigned t = threadIdx.x;
  volatile unsigned *mine = words + (size_t) blockIdx.x * CAL_BLOCK + t;
  unsigned v = t;
  unsigned x = mine[0] | 1u, y = mine[1];

  // each thread's word holds the next thread's index: the shared chain
  // walks the block
  s[t] = (t + 1) % CAL_BLOCK;
  __syncthreads ();
  for (int i = 0; i < iters; i++)
    switch (KIND)
      {
      case WS_CAL_CHAIN_STORE: *mine = (unsigned) i; break;
      case WS_CAL_CHAIN_FENCE_BLOCK: *mine = (unsigned) i; __threadfence_block (); break;
      case WS_CAL_CHAIN_FENCE_GPU: *mine = (unsigned) i; __threadfence (); break;
      case WS_CAL_CHAIN_FENCE_SYSTEM: *mine = (unsigned) i; __threadfence_system (); break;
      case WS_CAL_CHAIN_SYNC: __syncthreads (); break;
      case WS_CAL_CHAIN_SHARED: v = s[v]; break;
      case WS_CAL_CHAIN_ALU:
        // multiply-adds of values the compiler cannot know, so that it can
        // neither fold nor reorder the chain
#pragma unroll
        for (int k = 0; k < 8; k++)
          v = v * x + y;
        break;
      default: atomicMin (&s[0], v ^ (unsigned) i); break;
      }
  if (v == 0xdeadbeefu)
    sink[t] = (float) v;
}

// Messages between two blocks: lane 0 of block 0 and lane 0 of block 1 take
// turns at a flag in global memory, each waiting (a volatile load, again and
// again) until the other's store shows before it stores its own: 2 × iters
// messages, one after another. A wait gives up after WS_CAL_MESSAGE_TRIES
// loads and counts a timeout: the other block was not running.
__global__ void
ws_cal_message_kernel (unsigned *flag,
                       int       iters,
                       unsigned *timeouts)
{
  volatile unsigned *f = flag;
  unsigned me = blockIdx.x;

  if (threadIdx.x != 0)
    return;
  for (int i = 0; i < iters; i++)
    {
      unsigned want = 2u * (unsigned) i + me;
      unsigned tries = 0;

      while (*f != want)
        if (++tries == WS_CAL_MESSAGE_TRIES)
          {
            atomicAdd (timeouts, 1u);
            return;
          }
      *f = want + 1;
    }
}

__global__ void
ws_cal_empty_kernel (void)
{
}

// One access a thread: a block that starts, reads a word L1 holds, ends.
__global__ void
ws_cal_dispatch_kernel (const float *x,
                        float       *sink)
{
  float v = x[threadIdx.x & 1023];

  if (v == -1.25f)
    sink[blockIdx.x & 1023] = v;
}

extern "C" cudaError_t
ws_cal_read (const void *x, size_t bytes, void *sink, cudaStream_t stream)
{
  unsigned blocks = (unsigned) (bytes / (16 * CAL_BLOCK * WS_CAL_STREAM_UNROLL));

  ws_cal_read_kernel<<<blocks, CAL_BLOCK, 0, stream>>> ((const int4 *) x, (int4 *) sink);
  return cudaPeekAtLastError ();
}

extern "C" cudaError_t
ws_cal_write (void *x, size_t bytes, int value, cudaStream_t stream)
{
  unsigned blocks = (unsigned) (bytes / (16 * CAL_BLOCK * WS_CAL_STREAM_UNROLL));

  ws_cal_write_kernel<<<blocks, CAL_BLOCK, 0, stream>>> ((int4 *) x, value);
  return cudaPeekAtLastError ();
}

extern "C" cudaError_t
ws_cal_l2_read (const float *x, unsigned lines, unsigned per_line, unsigned blocks, int iters, float *sink,
                cudaStream_t stream)
{
  ws_cal_l2_read_kernel<<<blocks, CAL_BLOCK, 0, stream>>> (x, lines - 1, per_line, iters, sink);
  return cudaPeekAtLastError ();
}

extern "C" cudaError_t
ws_cal_l2_write (float *x, unsigned lines, unsigned blocks, int iters, cudaStream_t stream)
{
  ws_cal_l2_write_kernel<<<blocks, CAL_BLOCK, 0, stream>>> ((float4 *) x, lines - 1, iters);
  return cudaPeekAtLastError ();
}

extern "C" cudaError_t
ws_cal_l1 (const float *x, unsigned lines, unsigned spread, unsigned blocks, int iters, float *sink,
           cudaStream_t stream)
{
  ws_cal_l1_kernel<<<blocks, CAL_BLOCK, 0, stream>>> (x, lines - 1, spread, iters, sink);
  return cudaPeekAtLastError ();
}

extern "C" cudaError_t
ws_cal_shared (unsigned blocks, int iters, float *sink, cudaStream_t stream)
{
  ws_cal_shared_kernel<<<blocks, CAL_BLOCK, 0, stream>>> (iters, sink);
  return cudaPeekAtLastError ();
}

extern "C" cudaError_t
ws_cal_constant (unsigned distinct, unsigned blocks, int iters, float *sink, cudaStream_t stream)
{
  ws_cal_constant_kernel<<<blocks, CAL_BLOCK, 0, stream>>> (distinct, iters, sink);
  return cudaPeekAtLastError ();
}

extern "C" cudaError_t
ws_cal_atomic (unsigned *p, unsigned lines, unsigned blocks, int iters, cudaStream_t stream)
{
  ws_cal_atomic_kernel<<<blocks, CAL_BLOCK, 0, stream>>> (p, lines ? lines - 1 : 0, iters);
  return cudaPeekAtLastError ();
}

extern "C" cudaError_t
ws_cal_empty (cudaStream_t stream)
{
  ws_cal_empty_kernel<<<1, 32, 0, stream>>> ();
  return cudaPeekAtLastError ();
}

extern "C" cudaError_t
ws_cal_dispatch (const float *x, float *sink, unsigned blocks, unsigned threads, size_t dynamic_shared,
                 cudaStream_t stream)
{
  cudaError_t err = cudaFuncSetAttribute (ws_cal_dispatch_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          (int) dynamic_shared);

  if (err != cudaSuccess)
    return err;
  ws_cal_dispatch_kernel<<<blocks, threads, dynamic_shared, stream>>> (x, sink);
  return cudaPeekAtLastError ();
}

extern "C" cudaError_t
ws_cal_texture (cudaTextureObject_t tex, unsigned blocks, int iters, float *sink, cudaStream_t stream)
{
  ws_cal_texture_kernel<<<blocks, CAL_BLOCK, 0, stream>>> (tex, iters, sink);
  return cudaPeekAtLastError ();
}

extern "C" cudaError_t
ws_cal_message (unsigned *words, int iters, cudaStream_t stream)
{
  cudaError_t e = cudaMemsetAsync (words, 0, sizeof (unsigned), stream);

  if (e != cudaSuccess)
    return e;
  ws_cal_message_kernel<<<2, 32, 0, stream>>> (words, iters, words + WS_CAL_MESSAGE_TIMEOUTS);
  return cudaPeekAtLastError ();
}

extern "C" cudaError_t
ws_cal_chain (int kind, unsigned *words, unsigned blocks, int iters, float *sink, cudaStream_t stream)
{
  switch (kind)
    {
#define CHAIN(K) case K: ws_cal_chain_kernel<K><<<blocks, CAL_BLOCK, 0, stream>>> (words, iters, sink); break
      CHAIN (WS_CAL_CHAIN_STORE);
      CHAIN (WS_CAL_CHAIN_FENCE_BLOCK);
      CHAIN (WS_CAL_CHAIN_FENCE_GPU);
      CHAIN (WS_CAL_CHAIN_FENCE_SYSTEM);
      CHAIN (WS_CAL_CHAIN_SYNC);
      CHAIN (WS_CAL_CHAIN_SHARED);
      CHAIN (WS_CAL_CHAIN_ALU);
      CHAIN (WS_CAL_CHAIN_SHARED_ATOMIC);
#undef CHAIN
    default: return cudaErrorInvalidValue;
    }
  return cudaPeekAtLastError ();
}
