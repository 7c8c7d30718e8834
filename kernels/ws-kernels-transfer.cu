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

// The same, with `work` rounds of arithmetic per element (a hash that no
// compiler can fold), so that a kernel can take as long as the copies it
// overlaps with.
__global__ void
ws_scale_work_kernel (const uint32_t *in,
                      uint32_t       *out,
                      int64_t         n,
                      int             work)
{
  int64_t i = (int64_t) blockIdx.x * blockDim.x + threadIdx.x;

  if (i < n)
    out[i] = ws_work (in[i], work);
}

extern "C" cudaError_t
ws_launch_scale_work (const uint32_t *in,
                      uint32_t       *out,
                      int64_t         n,
                      int             work,
                      cudaStream_t    stream,
                      WsKernelShape  *shape)
{
  return ws_launch_1d (ws_scale_work_kernel, n, stream, shape, in, out, n, work);
}
