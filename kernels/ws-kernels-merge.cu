// SPDX-License-Identifier: GPL-3.0-or-later
// The merge step of a shared-memory sort, as a minimum over each block's 256
// values: one thread, atomicMin on one shared word, a tree (sequential or
// interleaved addressing), and warp shuffles with one atomicMin per warp.
// Then the whole sort: each thread sorts a short list, and the block merges
// the 256 lists by finding the smallest head again and again, with the
// strategies of the material.
#include "ws-kernels-launch.cuh"

template <int VARIANT>
__global__ void __launch_bounds__ (WS_BLOCK)
ws_merge_kernel (const uint32_t *in,
                 uint32_t       *out,
                 int64_t         n)
{
  __shared__ uint32_t s[WS_BLOCK];
  __shared__ uint32_t smin;
  int t = threadIdx.x;
  int64_t i = (int64_t) blockIdx.x * WS_BLOCK + t;
  uint32_t v = i < n ? in[i] : 0xffffffffu;

  switch (VARIANT)
    {
    case WS_MERGE_ONE_THREAD:
      s[t] = v;
      __syncthreads ();
      if (t == 0)
        {
          uint32_t m = s[0];
          for (int k = 1; k < WS_BLOCK; k++)
            m = min (m, s[k]);
          out[blockIdx.x] = m;
        }
      break;
    case WS_MERGE_ATOMICMIN:
    case WS_MERGE_HYBRID:
      if (t == 0)
        smin = 0xffffffffu;
      __syncthreads ();
      if (VARIANT == WS_MERGE_HYBRID)
        {
          for (int d = 16; d > 0; d /= 2)
            v = min (v, __shfl_down_sync (0xffffffffu, v, d));
          if (t % 32 == 0)
            atomicMin (&smin, v);
        }
      else
        atomicMin (&smin, v);
      __syncthreads ();
      if (t == 0)
        out[blockIdx.x] = smin;
      break;
    case WS_MERGE_TREE:
      s[t] = v;
      __syncthreads ();
      for (int step = WS_BLOCK / 2; step > 0; step /= 2)
        {
          if (t < step)
            s[t] = min (s[t], s[t + step]);
          __syncthreads ();
        }
      if (t == 0)
        out[blockIdx.x] = s[0];
      break;
    default: // WS_MERGE_TREE_INTERLEAVED
      s[t] = v;
      __syncthreads ();
      for (int step = 1; step < WS_BLOCK; step *= 2)
        {
          if (2 * step * t < WS_BLOCK)
            s[2 * step * t] = min (s[2 * step * t], s[2 * step * t + step]);
          __syncthreads ();
        }
      if (t == 0)
        out[blockIdx.x] = s[0];
      break;
    }
}

template <int VARIANT>
static cudaError_t
launch (const uint32_t *in,
        uint32_t       *out,
        int64_t         n,
        cudaStream_t    stream,
        WsKernelShape  *shape)
{
  return ws_launch_1d (ws_merge_kernel<VARIANT>, n, stream, shape, in, out, n);
}

extern "C" cudaError_t
ws_launch_merge (int             variant,
                 const uint32_t *in,
                 uint32_t       *out,
                 int64_t         n,
                 cudaStream_t    stream,
                 WsKernelShape  *shape)
{
  switch (variant)
    {
    case WS_MERGE_ONE_THREAD: return launch<WS_MERGE_ONE_THREAD> (in, out, n, stream, shape);
    case WS_MERGE_ATOMICMIN: return launch<WS_MERGE_ATOMICMIN> (in, out, n, stream, shape);
    case WS_MERGE_TREE: return launch<WS_MERGE_TREE> (in, out, n, stream, shape);
    case WS_MERGE_TREE_INTERLEAVED: return launch<WS_MERGE_TREE_INTERLEAVED> (in, out, n, stream, shape);
    case WS_MERGE_HYBRID: return launch<WS_MERGE_HYBRID> (in, out, n, stream, shape);
    default: return cudaErrorInvalidValue;
    }
}

// ---- the block-wide merge sort
//
// Each block sorts WS_SORT_ELEMENTS values: thread t sorts its
// WS_SORT_ITEMS values in registers and leaves them in shared memory
// (interleaved, list position p of thread t at p * WS_BLOCK + t, so that
// the threads' reads fall in different banks), then the block takes the
// smallest head of the 256 lists WS_SORT_ELEMENTS times. A key is the value
// (23 bits) above the thread's number, so keys are distinct and the thread
// whose head is the minimum knows it is its own; ~0 marks an empty list.
// Finding the minimum is what the strategies differ in:
//
//   ONE_THREAD  thread 0 reads the 256 heads one after another
//   ATOMICMIN   every thread applies atomicMin to one shared word
//   TREE        a tree reduction in log2 (256) = 8 steps, a barrier each
//   HYBRID      threads in groups of `group`: the first of each reads the
//               group's heads, then applies one atomicMin
//
// The atomicMin words are used in turn, three of them, so that one barrier
// per step is enough: the word of step s is reset during step s + 1 (by
// then everyone has read it) and used again in step s + 3.

__device__ __forceinline__ void
order (uint32_t &a,
       uint32_t &b)
{
  uint32_t lo = min (a, b), hi = max (a, b);
  a = lo;
  b = hi;
}

template <int STRATEGY>
__global__ void __launch_bounds__ (WS_BLOCK)
ws_sort_kernel (const uint32_t *in,
                uint32_t       *out,
                int64_t         n,
                int             group)
{
  __shared__ uint32_t keys[WS_SORT_ITEMS * WS_BLOCK];
  __shared__ uint32_t heads[2][WS_BLOCK];
  __shared__ uint32_t sorted[WS_SORT_ELEMENTS];
  __shared__ uint32_t smin[3];
  int t = threadIdx.x;
  int64_t base = (int64_t) blockIdx.x * WS_SORT_ELEMENTS;
  uint32_t k[WS_SORT_ITEMS];
  int pos = 0;
  uint32_t head;

  static_assert (WS_SORT_ITEMS == 4, "the sorting network sorts four");
  for (int u = 0; u < WS_SORT_ITEMS; u++)
    {
      int64_t e = base + t * WS_SORT_ITEMS + u;
      k[u] = e < n ? (in[e] >> 9) << 8 | t : ~0u;
    }
  order (k[0], k[1]);
  order (k[2], k[3]);
  order (k[0], k[2]);
  order (k[1], k[3]);
  order (k[1], k[2]);
  for (int u = 0; u < WS_SORT_ITEMS; u++)
    keys[u * WS_BLOCK + t] = k[u];
  if (t < 3)
    smin[t] = ~0u;
  head = k[0];
  __syncthreads ();

  for (int s = 0; s < WS_SORT_ELEMENTS; s++)
    {
      uint32_t m;

      switch (STRATEGY)
        {
        case WS_SORT_ONE_THREAD:
          heads[0][t] = head;
          __syncthreads ();
          if (t == 0)
            {
              m = heads[0][0];
              for (int j = 1; j < WS_BLOCK; j++)
                m = min (m, heads[0][j]);
              smin[0] = m;
            }
          __syncthreads ();
          m = smin[0];
          break;
        case WS_SORT_TREE:
          {
            uint32_t *h = heads[s & 1];

            h[t] = head;
            __syncthreads ();
            for (int d = WS_BLOCK / 2; d > 0; d /= 2)
              {
                if (t < d)
                  h[t] = min (h[t], h[t + d]);
                __syncthreads ();
              }
            m = h[0];
          }
          break;
        case WS_SORT_ATOMICMIN:
          atomicMin (&smin[s % 3], head);
          __syncthreads ();
          m = smin[s % 3];
          if (t == 0)
            smin[(s + 2) % 3] = ~0u;
          break;
        default: // WS_SORT_HYBRID
          heads[0][t] = head;
          __syncthreads ();
          if (t % group == 0)
            {
              m = heads[0][t];
              for (int j = 1; j < group; j++)
                m = min (m, heads[0][t + j]);
              atomicMin (&smin[s % 3], m);
            }
          __syncthreads ();
          m = smin[s % 3];
          if (t == 0)
            smin[(s + 2) % 3] = ~0u;
          break;
        }
      if (t == 0)
        sorted[s] = m >> 8;
      if (head == m && ++pos < WS_SORT_ITEMS)
        head = keys[pos * WS_BLOCK + t];
      else if (head == m)
        head = ~0u;
    }
  __syncthreads ();
  for (int e = t; e < WS_SORT_ELEMENTS && base + e < n; e += WS_BLOCK)
    out[base + e] = sorted[e];
}

template <int STRATEGY>
static cudaError_t
launch_sort (const uint32_t *in,
             uint32_t       *out,
             int64_t         n,
             int             group,
             cudaStream_t    stream,
             WsKernelShape  *shape)
{
  unsigned blocks = (unsigned) ((n + WS_SORT_ELEMENTS - 1) / WS_SORT_ELEMENTS);

  if (shape)
    *shape = (WsKernelShape) { (const void *) ws_sort_kernel<STRATEGY>, WS_BLOCK, 0 };
  if (blocks > 0)
    ws_sort_kernel<STRATEGY><<<blocks, WS_BLOCK, 0, stream>>> (in, out, n, group);
  return cudaPeekAtLastError ();
}

extern "C" cudaError_t
ws_launch_sort (int             strategy,
                const uint32_t *in,
                uint32_t       *out,
                int64_t         n,
                int             group,
                cudaStream_t    stream,
                WsKernelShape  *shape)
{
  if (strategy == WS_SORT_HYBRID && (group < 1 || group > WS_BLOCK || WS_BLOCK % group != 0))
    return cudaErrorInvalidValue;
  switch (strategy)
    {
    case WS_SORT_ONE_THREAD: return launch_sort<WS_SORT_ONE_THREAD> (in, out, n, group, stream, shape);
    case WS_SORT_ATOMICMIN: return launch_sort<WS_SORT_ATOMICMIN> (in, out, n, group, stream, shape);
    case WS_SORT_TREE: return launch_sort<WS_SORT_TREE> (in, out, n, group, stream, shape);
    case WS_SORT_HYBRID: return launch_sort<WS_SORT_HYBRID> (in, out, n, group, stream, shape);
    default: return cudaErrorInvalidValue;
    }
}
