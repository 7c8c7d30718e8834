// SPDX-License-Identifier: GPL-3.0-or-later
// Fences, barriers and volatile: what goes wrong without them, counted over
// many trials, and what they cost. Every wait is bounded: a spin gives up
// after WS_FENCES_SPIN_LIMIT reads of its flag and says it timed out, so no
// kernel here can hang, whatever the compiler or the hardware does.
#include "ws-kernels-launch.cuh"

// ---- the last-block reduction (threadFenceReduction of the CUDA samples)
//
// Each block of a problem stores one partial sum per thread, then thread 0
// takes a ticket; the block that takes the last ticket adds up the partial
// sums of every block of its problem. Without __threadfence () between the
// stores and the ticket, nothing makes the stores of the other blocks
// visible before their tickets: __syncthreads () orders the block's threads,
// not what other SMs see. The tickets count modulo the blocks of a problem
// (atomicInc), so they are back at 0 for the next launch.

__device__ __forceinline__ uint32_t
block_sum (uint32_t v)
{
  __shared__ uint32_t warp_sums[WS_BLOCK / 32];

  for (int d = 16; d > 0; d /= 2)
    v += __shfl_down_sync (0xffffffffu, v, d);
  if (threadIdx.x % 32 == 0)
    warp_sums[threadIdx.x / 32] = v;
  __syncthreads ();
  v = 0;
  if (threadIdx.x < 32)
    {
      v = threadIdx.x < WS_BLOCK / 32 ? warp_sums[threadIdx.x] : 0;
      for (int d = 16; d > 0; d /= 2)
        v += __shfl_down_sync (0xffffffffu, v, d);
    }
  return v;   // in thread 0
}

template <bool FENCE>
__global__ void __launch_bounds__ (WS_BLOCK)
ws_last_block_kernel (const uint32_t *in,
                      uint32_t       *partial,
                      uint32_t       *tickets,
                      uint32_t       *result,
                      const uint32_t *expected,
                      uint32_t       *wrong)
{
  __shared__ bool last;
  int t = threadIdx.x;
  int problem = blockIdx.x / WS_LAST_BLOCK_BLOCKS;
  const uint32_t *mine = in + (size_t) blockIdx.x * WS_BLOCK * WS_LAST_BLOCK_ITEMS;
  uint32_t sum = 0;

  for (int u = 0; u < WS_LAST_BLOCK_ITEMS; u++)
    sum += mine[u * WS_BLOCK + t];
  partial[(size_t) blockIdx.x * WS_BLOCK + t] = sum;
  if (FENCE)
    __threadfence ();
  __syncthreads ();
  if (t == 0)
    last = atomicInc (&tickets[problem], WS_LAST_BLOCK_BLOCKS - 1) == WS_LAST_BLOCK_BLOCKS - 1;
  __syncthreads ();
  if (!last)
    return;
  if (FENCE)
    __threadfence ();
  // read at L2 (__ldcg): what the last block can miss is only what the
  // other blocks have not yet made visible there
  sum = 0;
  for (int b = 0; b < WS_LAST_BLOCK_BLOCKS; b++)
    sum += __ldcg (&partial[((size_t) problem * WS_LAST_BLOCK_BLOCKS + b) * WS_BLOCK + t]);
  sum = block_sum (sum);
  if (t == 0)
    {
      result[problem] = sum;
      if (sum != expected[problem])
        atomicAdd (wrong, 1u);
    }
}

extern "C" cudaError_t
ws_launch_last_block (int             fence,
                      const uint32_t *in,
                      uint32_t       *partial,
                      uint32_t       *tickets,
                      uint32_t       *result,
                      const uint32_t *expected,
                      uint32_t       *wrong,
                      int64_t         problems,
                      cudaStream_t    stream,
                      WsKernelShape  *shape)
{
  unsigned blocks = (unsigned) (problems * WS_LAST_BLOCK_BLOCKS);
  void (*kernel) (const uint32_t *, uint32_t *, uint32_t *, uint32_t *, const uint32_t *, uint32_t *) =
    fence ? ws_last_block_kernel<true> : ws_last_block_kernel<false>;

  if (shape)
    *shape = (WsKernelShape) { (const void *) kernel, WS_BLOCK, 0 };
  if (blocks > 0)
    kernel<<<blocks, WS_BLOCK, 0, stream>>> (in, partial, tickets, result, expected, wrong);
  return cudaPeekAtLastError ();
}

// ---- message passing between two blocks
//
// Block 2p writes WS_FLAG_WORDS words of data for pair p, then sets the
// pair's flag to this launch's sequence number; block 2p + 1 waits for the
// flag and reads the data. Three ways to write it:
//
//  PLAIN     the consumer reads the flag with plain loads: the compiler may
//            read it once, before the loop, and the loop never sees it change
//            (it spins until its limit and times out);
//  VOLATILE  volatile flag, no fences: the flag is read every time, but
//            nothing orders the producer's data before its flag, nor the
//            consumer's reads of the data after it: the data may be stale;
//  FENCE     volatile flag, and __threadfence () after the data on one side
//            and after the flag on the other: the data is always there.
//
// Each consumer says what it found: 0 the data, 1 stale data, 2 timed out;
// counts[1] and counts[2] add up the pairs of every launch.

__device__ __forceinline__ uint32_t
flag_value (int pair, int k, uint32_t seq)
{
  return ws_value ((uint64_t) pair * WS_FLAG_WORDS + k, seq);
}

template <int MODE>
__global__ void __launch_bounds__ (32)
ws_flag_kernel (uint32_t *data,
                uint32_t *flags,
                uint32_t *out,
                uint32_t *status,
                uint32_t *counts,
                uint32_t  seq)
{
  int pair = blockIdx.x / 2;
  int lane = threadIdx.x;
  uint32_t *words = data + (size_t) pair * WS_FLAG_WORDS;

  if (blockIdx.x % 2 == 0)
    {
      for (int k = lane; k < WS_FLAG_WORDS; k += 32)
        words[k] = flag_value (pair, k, seq);
      if (MODE == WS_FLAG_FENCE)
        __threadfence ();
      __syncwarp ();
      if (lane == 0)
        {
          if (MODE == WS_FLAG_PLAIN)
            flags[pair] = seq;
          else
            *(volatile uint32_t *) &flags[pair] = seq;
        }
      return;
    }

  uint32_t seen = 0, spins = 0, stale = 0;
  if (lane == 0)
    {
      if (MODE == WS_FLAG_PLAIN)
        {
          while (flags[pair] != seq && spins < WS_FENCES_SPIN_LIMIT)
            spins++;
          seen = flags[pair] == seq;
        }
      else
        {
          while (*(volatile uint32_t *) &flags[pair] != seq && spins < WS_FENCES_SPIN_LIMIT)
            spins++;
          seen = spins < WS_FENCES_SPIN_LIMIT;
        }
    }
  seen = __shfl_sync (0xffffffffu, seen, 0);
  if (MODE == WS_FLAG_FENCE)
    __threadfence ();
  for (int k = lane; k < WS_FLAG_WORDS; k += 32)
    {
      uint32_t v = words[k];
      out[(size_t) pair * WS_FLAG_WORDS + k] = v;
      stale |= v != flag_value (pair, k, seq);
    }
  stale = __any_sync (0xffffffffu, stale);
  if (lane == 0)
    {
      uint32_t s = !seen ? 2 : stale ? 1 : 0;
      status[pair] = s;
      if (s)
        atomicAdd (&counts[s], 1u);
    }
}

extern "C" cudaError_t
ws_launch_flag (int            mode,
                uint32_t      *data,
                uint32_t      *flags,
                uint32_t      *out,
                uint32_t      *status,
                uint32_t      *counts,
                int64_t        pairs,
                uint32_t       seq,
                cudaStream_t   stream,
                WsKernelShape *shape)
{
  void (*kernel) (uint32_t *, uint32_t *, uint32_t *, uint32_t *, uint32_t *, uint32_t);

  switch (mode)
    {
    case WS_FLAG_PLAIN: kernel = ws_flag_kernel<WS_FLAG_PLAIN>; break;
    case WS_FLAG_VOLATILE: kernel = ws_flag_kernel<WS_FLAG_VOLATILE>; break;
    case WS_FLAG_FENCE: kernel = ws_flag_kernel<WS_FLAG_FENCE>; break;
    default: return cudaErrorInvalidValue;
    }
  if (shape)
    *shape = (WsKernelShape) { (const void *) kernel, 32, 0 };
  if (pairs > 0)
    kernel<<<(unsigned) (2 * pairs), 32, 0, stream>>> (data, flags, out, status, counts, seq);
  return cudaPeekAtLastError ();
}

// ---- what a fence costs
//
// Every thread stores to its own word `rounds` times (volatile stores, so
// that none is merged away), each store followed by the fence or barrier
// of its kind. out[i] ends as rounds - 1 + i.

template <int KIND>
__global__ void __launch_bounds__ (WS_BLOCK)
ws_fence_cost_kernel (uint32_t *out,
                      int64_t   n,
                      int       rounds)
{
  int64_t i = (int64_t) blockIdx.x * blockDim.x + threadIdx.x;
  // threads past n store to a word of their own too, so that every thread
  // of the block reaches every __syncthreads ()
  volatile uint32_t *p = out + i;

  for (int r = 0; r < rounds; r++)
    {
      *p = (uint32_t) (r + i);
      switch (KIND)
        {
        case WS_FENCE_BLOCK: __threadfence_block (); break;
        case WS_FENCE_DEVICE: __threadfence (); break;
        case WS_FENCE_SYNCTHREADS: __syncthreads (); break;
        case WS_FENCE_SYSTEM: __threadfence_system (); break;
        default: break;
        }
    }
  (void) n;
}

extern "C" cudaError_t
ws_launch_fence_cost (int            kind,
                      uint32_t      *out,
                      int64_t        n,
                      int            rounds,
                      cudaStream_t   stream,
                      WsKernelShape *shape)
{
  switch (kind)
    {
    case WS_FENCE_NONE: return ws_launch_1d (ws_fence_cost_kernel<WS_FENCE_NONE>, n, stream, shape, out, n, rounds);
    case WS_FENCE_BLOCK: return ws_launch_1d (ws_fence_cost_kernel<WS_FENCE_BLOCK>, n, stream, shape, out, n, rounds);
    case WS_FENCE_DEVICE: return ws_launch_1d (ws_fence_cost_kernel<WS_FENCE_DEVICE>, n, stream, shape, out, n, rounds);
    case WS_FENCE_SYNCTHREADS:
      return ws_launch_1d (ws_fence_cost_kernel<WS_FENCE_SYNCTHREADS>, n, stream, shape, out, n, rounds);
    case WS_FENCE_SYSTEM: return ws_launch_1d (ws_fence_cost_kernel<WS_FENCE_SYSTEM>, n, stream, shape, out, n, rounds);
    default: return cudaErrorInvalidValue;
    }
}
