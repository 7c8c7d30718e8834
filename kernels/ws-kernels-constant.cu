// SPDX-License-Identifier: GPL-3.0-or-later
// Constant memory: lane k reads c[k % distinct] (or every lane of a warp
// c[warp]), `loads` times. Each load moves the warp's addresses by
// a multiple of 32 words, the same for every lane, so that the compiler cannot
// hoist it: the distinct addresses per instruction, which the constant cache
// serves one at a time, are the preset's.
#include "ws-kernels.h"

__constant__ uint32_t ws_constant_table[WS_CONSTANT_WORDS];

__global__ void
ws_constant_kernel (int       distinct,
                    int       loads,
                    uint32_t *out)
{
  int lane = threadIdx.x % 32;
  int base = distinct > 0 ? lane % distinct : threadIdx.x / 32;
  uint32_t acc = 0;

  for (int q = 0; q < loads / 32; q++)
    {
#pragma unroll
      for (int u = 0; u < 32; u++)
        acc += ws_constant_table[base + 32 * ((q + u) & 63)];
    }
  out[(size_t) blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

extern "C" cudaError_t
ws_constant_upload (const uint32_t *table,
                    cudaStream_t    stream)
{
  return cudaMemcpyToSymbolAsync (ws_constant_table, table, sizeof ws_constant_table, 0,
                                  cudaMemcpyHostToDevice, stream);
}

extern "C" cudaError_t
ws_launch_constant (int64_t        distinct,
                    int64_t        loads,
                    uint32_t      *out,
                    cudaStream_t   stream,
                    WsKernelShape *shape)
{
  if (shape)
    *shape = (WsKernelShape) { (const void *) ws_constant_kernel, WS_BLOCK, 0 };
  ws_constant_kernel<<<WS_CONSTANT_BLOCKS, WS_BLOCK, 0, stream>>> ((int) distinct, (int) loads, out);
  return cudaPeekAtLastError ();
}
