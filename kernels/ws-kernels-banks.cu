// SPDX-License-Identifier: GPL-3.0-or-later
// Shared-memory banks. Every thread reads the element the preset's index
// names, `loads` times. The loads are volatile, so that no compiler keeps a
// value it has read once (ptxas hoists plain shared loads out of the loop);
// each of the WS_BANKS_UNROLL loads of a round adds 32 words to the address
// (the same for every lane: banks and distinct words per warp stay those of
// the preset), so that they are independent and pipelined. Indices wrap at
// WS_BANKS_WORDS words: within one warp the lanes' words are less than that
// apart, so the wrap never merges two of them.
#include "ws-kernels.h"

#define SHARED_WORDS (WS_BANKS_WORDS + WS_BANKS_UNROLL * 32)

__device__ __forceinline__ uint32_t
shared_address (const void *p)
{
  return (uint32_t) __cvta_generic_to_shared (p);
}

// acc += the element at p, read with one volatile LDS of its width
__device__ __forceinline__ void
add (uint32_t &acc, const uint32_t *p)
{
  uint32_t v;

  asm volatile ("ld.volatile.shared.u32 %0, [%1];" : "=r" (v) : "r" (shared_address (p)));
  acc += v;
}

__device__ __forceinline__ void
add (uint32_t &acc, const uint2 *p)
{
  uint32_t x, y;

  asm volatile ("ld.volatile.shared.v2.u32 {%0, %1}, [%2];" : "=r" (x), "=r" (y) : "r" (shared_address (p)));
  acc += x + y;
}

__device__ __forceinline__ void
add (uint32_t &acc, const uint4 *p)
{
  uint32_t x, y, z, w;

  asm volatile ("ld.volatile.shared.v4.u32 {%0, %1, %2, %3}, [%4];"
                : "=r" (x), "=r" (y), "=r" (z), "=r" (w) : "r" (shared_address (p)));
  acc += x + y + z + w;
}

template <typename T, int VARIANT>
__global__ void __launch_bounds__ (VARIANT == WS_BANKS_SWIZZLE ? 1024 : WS_BLOCK)
ws_banks_kernel (uint32_t *out,
                 int       param,
                 int       loads,
                 uint32_t  seed)
{
  __shared__ uint4 shared4[SHARED_WORDS / 4];
  uint32_t *words = (uint32_t *) shared4;
  const T *s = (const T *) shared4;
  const int per = sizeof (T) / 4;
  const int wrap = WS_BANKS_WORDS / per;
  const int shift = 32 / per;
  int tid = threadIdx.y * blockDim.x + threadIdx.x;
  int threads = blockDim.x * blockDim.y;
  uint32_t acc = 0;
  int idx;

  for (int k = tid; k < SHARED_WORDS; k += threads)
    words[k] = ws_value (k, seed);
  __syncthreads ();

  switch (VARIANT)
    {
    case WS_BANKS_BROADCAST:
      idx = threadIdx.x / 32;                                // s[warp]
      break;
    case WS_BANKS_PADDING:
      idx = threadIdx.x % 32 * (32 + param);                 // tile[threadIdx.x % 32 * (32 + pad)]
      break;
    case WS_BANKS_SWIZZLE:
      idx = threadIdx.x * 32 + (threadIdx.y ^ threadIdx.x);  // blocks of 32 x 32
      break;
    default:                                                 // stride, elem8, elem16
      idx = (threadIdx.x * param) & (wrap - 1);
      break;
    }

  for (int r = 0; r < loads; r += WS_BANKS_UNROLL)
    {
#pragma unroll
      for (int u = 0; u < WS_BANKS_UNROLL; u++)
        add (acc, &s[idx + u * shift]);
    }
  out[(size_t) blockIdx.x * threads + tid] = acc;
}

template <typename T, int VARIANT>
static cudaError_t
launch (uint32_t      *out,
        int64_t        param,
        int64_t        loads,
        uint32_t       seed,
        cudaStream_t   stream,
        WsKernelShape *shape)
{
  dim3 block = VARIANT == WS_BANKS_SWIZZLE ? dim3 (32, 32) : dim3 (WS_BLOCK);

  if (shape)
    *shape = (WsKernelShape) { (const void *) ws_banks_kernel<T, VARIANT>, (int) (block.x * block.y), 0 };
  ws_banks_kernel<T, VARIANT><<<WS_BANKS_BLOCKS, block, 0, stream>>> (out, (int) param, (int) loads, seed);
  return cudaPeekAtLastError ();
}

extern "C" cudaError_t
ws_launch_banks (int            variant,
                 uint32_t      *out,
                 int64_t        param,
                 int64_t        loads,
                 uint32_t       seed,
                 cudaStream_t   stream,
                 WsKernelShape *shape)
{
  switch (variant)
    {
    case WS_BANKS_STRIDE: return launch<uint32_t, WS_BANKS_STRIDE> (out, param, loads, seed, stream, shape);
    case WS_BANKS_BROADCAST: return launch<uint32_t, WS_BANKS_BROADCAST> (out, param, loads, seed, stream, shape);
    case WS_BANKS_PADDING: return launch<uint32_t, WS_BANKS_PADDING> (out, param, loads, seed, stream, shape);
    case WS_BANKS_ELEM8: return launch<uint2, WS_BANKS_ELEM8> (out, param, loads, seed, stream, shape);
    case WS_BANKS_ELEM16: return launch<uint4, WS_BANKS_ELEM16> (out, param, loads, seed, stream, shape);
    case WS_BANKS_SWIZZLE: return launch<uint32_t, WS_BANKS_SWIZZLE> (out, param, loads, seed, stream, shape);
    default: return cudaErrorInvalidValue;
    }
}
