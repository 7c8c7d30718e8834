// SPDX-License-Identifier: GPL-3.0-or-later
// Atomics. ptxas turns an atomicAdd to an address it can prove is the same
// for the whole warp into REDUX.SUM and one RED per warp — what the
// warp-aggregated kernel does by hand. So the one-address kernel adds to
// out[i & (bins - 1)] with bins = 1 passed at run time: the address is always
// out[0], but the compiler cannot know it, and every lane makes its update.
#include "ws-kernels-launch.cuh"

template <int VARIANT>
__global__ void
ws_atomics_kernel (const uint32_t *in,
                   uint32_t       *out,
                   int64_t         n,
                   int             bins)
{
  __shared__ uint32_t hist[VARIANT == WS_ATOMICS_SHARED ? WS_ATOMICS_MAX_BINS : 1];
  int64_t i = (int64_t) blockIdx.x * blockDim.x + threadIdx.x;

  switch (VARIANT)
    {
    case WS_ATOMICS_ONE_ADDRESS:
      if (i < n)
        atomicAdd (&out[i & (bins - 1)], in[i] & 0xff);
      break;
    case WS_ATOMICS_DISTINCT:
      if (i < n)
        atomicAdd (&out[i], in[i]);
      break;
    case WS_ATOMICS_HISTOGRAM:
      if (i < n)
        atomicAdd (&out[i % bins], 1u);
      break;
    case WS_ATOMICS_SHARED:
      for (int b = threadIdx.x; b < bins; b += blockDim.x)
        hist[b] = 0;
      __syncthreads ();
      if (i < n)
        atomicAdd (&hist[i % bins], 1u);
      __syncthreads ();
      for (int b = threadIdx.x; b < bins; b += blockDim.x)
        if (hist[b])
          atomicAdd (&out[b], hist[b]);
      break;
    case WS_ATOMICS_WARP_AGGREGATED:
      {
        uint32_t v = i < n ? in[i] & 0xff : 0;

        for (int d = 16; d > 0; d /= 2)
          v += __shfl_down_sync (0xffffffffu, v, d);
        if (threadIdx.x % 32 == 0 && v)
          atomicAdd (&out[0], v);
      }
      break;
    default: // WS_ATOMICS_CAS_LOOP: a float maximum, which has no atomic of its own
      if (i < n)
        {
          float v = (float) (in[i] & 0xffffff) * (1.0f / 16777216.0f);
          uint32_t old = out[0], assumed;

          do
            {
              assumed = old;
              old = atomicCAS (&out[0], assumed, __float_as_uint (fmaxf (v, __uint_as_float (assumed))));
            }
          while (assumed != old);
        }
      break;
    }
}

template <int VARIANT>
static cudaError_t
launch (const uint32_t *in,
        uint32_t       *out,
        int64_t         n,
        int64_t         bins,
        cudaStream_t    stream,
        WsKernelShape  *shape)
{
  return ws_launch_1d (ws_atomics_kernel<VARIANT>, n, stream, shape, in, out, n, (int) bins);
}

extern "C" cudaError_t
ws_launch_atomics (int             variant,
                   const uint32_t *in,
                   uint32_t       *out,
                   int64_t         n,
                   int64_t         bins,
                   cudaStream_t    stream,
                   WsKernelShape  *shape)
{
  switch (variant)
    {
    case WS_ATOMICS_ONE_ADDRESS: return launch<WS_ATOMICS_ONE_ADDRESS> (in, out, n, bins, stream, shape);
    case WS_ATOMICS_DISTINCT: return launch<WS_ATOMICS_DISTINCT> (in, out, n, bins, stream, shape);
    case WS_ATOMICS_HISTOGRAM: return launch<WS_ATOMICS_HISTOGRAM> (in, out, n, bins, stream, shape);
    case WS_ATOMICS_SHARED: return launch<WS_ATOMICS_SHARED> (in, out, n, bins, stream, shape);
    case WS_ATOMICS_WARP_AGGREGATED: return launch<WS_ATOMICS_WARP_AGGREGATED> (in, out, n, bins, stream, shape);
    case WS_ATOMICS_CAS_LOOP: return launch<WS_ATOMICS_CAS_LOOP> (in, out, n, bins, stream, shape);
    default: return cudaErrorInvalidValue;
    }
}
