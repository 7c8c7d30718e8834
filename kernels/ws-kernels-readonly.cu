// SPDX-License-Identifier: GPL-3.0-or-later
// The read-only path: scattered reads in[(i * 7919) % N], as plain loads or
// through __ldg. in is not __restrict__, so the plain variant really is plain.
#include "ws-kernels-launch.cuh"

template <bool LDG>
__global__ void
ws_readonly_kernel (const uint32_t *in,
                    uint32_t       *out,
                    int64_t         n)
{
  int64_t i = (int64_t) blockIdx.x * blockDim.x + threadIdx.x;
  int64_t j;

  if (i >= n)
    return;
  j = (int64_t) ((uint64_t) i * 7919u % (uint64_t) n);
  out[i] = LDG ? __ldg (&in[j]) : in[j];
}

extern "C" cudaError_t
ws_launch_readonly (int             ldg,
                    const uint32_t *in,
                    uint32_t       *out,
                    int64_t         n,
                    cudaStream_t    stream,
                    WsKernelShape  *shape)
{
  if (ldg)
    return ws_launch_1d (ws_readonly_kernel<true>, n, stream, shape, in, out, n);
  return ws_launch_1d (ws_readonly_kernel<false>, n, stream, shape, in, out, n);
}
