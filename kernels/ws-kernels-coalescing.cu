// SPDX-License-Identifier: GPL-3.0-or-later
// Global coalescing: out[i] = in[index (i)], one load per thread whose index
// is the preset's expression. The store is always coalesced (out[i]), so the
// differences come from the load alone.
#include "ws-kernels-launch.cuh"

template <int VARIANT>
__global__ void
ws_coalescing_kernel (const uint32_t *in,
                      uint32_t       *out,
                      int64_t         n,
                      int64_t         param)
{
  int64_t i = (int64_t) blockIdx.x * blockDim.x + threadIdx.x;
  int64_t j;

  if (i >= n)
    return;
  switch (VARIANT)
    {
    case WS_COALESCING_SEQUENTIAL:
      j = i;
      break;
    case WS_COALESCING_PERMUTED:
      j = (int64_t) blockIdx.x * blockDim.x + (threadIdx.x ^ 1);
      if (j >= n)
        return;
      break;
    case WS_COALESCING_OFFSET:
      j = i + param;
      break;
    case WS_COALESCING_STRIDE:
      // the preset's blockIdx.x + threadIdx.x * gridDim.x; n = gridDim.x * blockDim.x
      j = blockIdx.x + (int64_t) threadIdx.x * gridDim.x;
      break;
    case WS_COALESCING_BROADCAST:
      j = 0;
      break;
    default: // WS_COALESCING_STRIDED_SWEEP, guard i * stride < N
      j = i * param;
      if (j >= n)
        return;
      break;
    }
  out[i] = in[j];
}

template <int VARIANT>
static cudaError_t
launch (const uint32_t *in,
        uint32_t       *out,
        int64_t         n,
        int64_t         param,
        cudaStream_t    stream,
        WsKernelShape  *shape)
{
  return ws_launch_1d (ws_coalescing_kernel<VARIANT>, n, stream, shape, in, out, n, param);
}

extern "C" cudaError_t
ws_launch_coalescing (int             variant,
                      const uint32_t *in,
                      uint32_t       *out,
                      int64_t         n,
                      int64_t         param,
                      cudaStream_t    stream,
                      WsKernelShape  *shape)
{
  switch (variant)
    {
    case WS_COALESCING_SEQUENTIAL: return launch<WS_COALESCING_SEQUENTIAL> (in, out, n, param, stream, shape);
    case WS_COALESCING_PERMUTED: return launch<WS_COALESCING_PERMUTED> (in, out, n, param, stream, shape);
    case WS_COALESCING_OFFSET: return launch<WS_COALESCING_OFFSET> (in, out, n, param, stream, shape);
    case WS_COALESCING_STRIDE: return launch<WS_COALESCING_STRIDE> (in, out, n, param, stream, shape);
    case WS_COALESCING_BROADCAST: return launch<WS_COALESCING_BROADCAST> (in, out, n, param, stream, shape);
    case WS_COALESCING_STRIDED_SWEEP: return launch<WS_COALESCING_STRIDED_SWEEP> (in, out, n, param, stream, shape);
    default: return cudaErrorInvalidValue;
    }
}
