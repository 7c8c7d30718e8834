// SPDX-License-Identifier: GPL-3.0-or-later
// Placeholder so that the build of kernel objects is exercised; the real
// coalescing kernels replace it.
#include <cuda_runtime.h>

__global__ void ws_placeholder_kernel (float *out)
{
  out[threadIdx.x] = threadIdx.x;
}

extern "C" cudaError_t
ws_placeholder_launch (float *out, cudaStream_t stream)
{
  ws_placeholder_kernel<<<1, 32, 0, stream>>> (out);
  return cudaGetLastError ();
}
