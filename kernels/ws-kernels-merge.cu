// SPDX-License-Identifier: GPL-3.0-or-later
// The merge step of a shared-memory sort, as a minimum over each block's 256
// values: one thread, atomicMin on one shared word, a tree (sequential or
// interleaved addressing), and warp shuffles with one atomicMin per warp.
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
