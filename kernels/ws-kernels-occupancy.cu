// SPDX-License-Identifier: GPL-3.0-or-later
// Spills. Each thread derives V values from its input in a chain that
// cannot be shortened (xorshift-multiply) and then combines value k with
// value V-1-k, so about V/2 of them are live at once: V sets the registers
// a thread needs, and a kernel limited to fewer spills the rest to local
// memory. (Occupancy with the same work at every register count is
// ws-kernels-ilp.cu's hold kernel.)
#include "ws-kernels-launch.cuh"

template <int V>
__device__ __forceinline__ uint32_t
hold_values (uint32_t x)
{
  uint32_t v[V];
  uint32_t acc = 0;

  v[0] = x;
#pragma unroll
  for (int k = 1; k < V; k++)
    {
      uint32_t t = v[k - 1];
      t ^= t >> 13;
      v[k] = t * 0x5bd1e995u + (uint32_t) k;
    }
#pragma unroll
  for (int k = 0; k < V; k++)
    acc += v[k] ^ (v[V - 1 - k] >> 7);
  return acc;
}

// at least 8 blocks of 256 threads per SM: at most 32 registers, so the
// values that do not fit spill to local memory
__global__ void __launch_bounds__ (WS_BLOCK, 8)
ws_spill_kernel (const uint32_t *in,
                 uint32_t       *out,
                 int64_t         n)
{
  int64_t i = (int64_t) blockIdx.x * blockDim.x + threadIdx.x;

  if (i < n)
    out[i] = hold_values<WS_SPILL_VALUES> (in[i]);
}

extern "C" cudaError_t
ws_launch_spill (const uint32_t *in,
                 uint32_t       *out,
                 int64_t         n,
                 cudaStream_t    stream,
                 WsKernelShape  *shape)
{
  return ws_launch_1d (ws_spill_kernel, n, stream, shape, in, out, n);
}
