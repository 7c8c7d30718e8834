// SPDX-License-Identifier: GPL-3.0-or-later
// Host transfers: the kernel that follows each copy (or, for mapped memory,
// reads the host's memory itself).
#include "ws-kernels-launch.cuh"

__global__ void
ws_scale_kernel (const uint32_t *in,
                 uint32_t       *out,
                 int64_t         n)
{
  int64_t i = (int64_t) blockIdx.x * blockDim.x + threadIdx.x;

  if (i < n)
    out[i] = in[i] * 3u + 1u;
}

extern "C" cudaError_t
ws_launch_scale (const uint32_t *in,
                 uint32_t       *out,
                 int64_t         n,
                 cudaStream_t    stream,
                 WsKernelShape  *shape)
{
  return ws_launch_1d (ws_scale_kernel, n, stream, shape, in, out, n);
}
