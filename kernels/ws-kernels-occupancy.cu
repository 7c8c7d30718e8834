// SPDX-License-Identifier: GPL-3.0-or-later
// Registers and occupancy. Each thread derives V values from its input in a
// chain that cannot be shortened (xorshift-multiply) and then combines value
// k with value V-1-k, so about V/2 of them are live at once: V sets the
// registers a thread needs. The budgets below were chosen by compiling for
// sm_90; the measurement reports the registers the runtime really allocated.
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

template <int V>
__global__ void __launch_bounds__ (WS_BLOCK)
ws_registers_kernel (const uint32_t *in,
                     uint32_t       *out,
                     int64_t         n)
{
  int64_t i = (int64_t) blockIdx.x * blockDim.x + threadIdx.x;

  if (i < n)
    out[i] = hold_values<V> (in[i]);
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

// budget -> values held. nvcc 13.0 for sm_90 allocates 13, 32, 48, 64, 94,
// 127, 174 and 255 registers for these; between 174 and 240 it finds no
// allocation, so there is no budget there. A request rounds up.
#define BUDGETS(X) \
  X (16, 4) X (32, 32) X (48, 72) X (64, 104) X (96, 160) X (128, 232) \
  X (176, 312) X (255, 488)

#define BUDGET(B, V) B,
extern "C" const int ws_occupancy_budgets[] = { BUDGETS (BUDGET) };
extern "C" const int ws_occupancy_n_budgets = sizeof ws_occupancy_budgets / sizeof ws_occupancy_budgets[0];
#undef BUDGET

extern "C" int
ws_occupancy_values (int budget)
{
#define VALUES(B, V) if (budget == B) return V;
  BUDGETS (VALUES)
#undef VALUES
  return 0;
}

template <int V>
static cudaError_t
launch (const uint32_t *in,
        uint32_t       *out,
        int64_t         n,
        cudaStream_t    stream,
        WsKernelShape  *shape)
{
  return ws_launch_1d (ws_registers_kernel<V>, n, stream, shape, in, out, n);
}

extern "C" cudaError_t
ws_launch_registers (int             budget,
                     const uint32_t *in,
                     uint32_t       *out,
                     int64_t         n,
                     cudaStream_t    stream,
                     WsKernelShape  *shape)
{
  switch (budget)
    {
#define CASE(B, V) case B: return launch<V> (in, out, n, stream, shape);
      BUDGETS (CASE)
#undef CASE
    default:
      return cudaErrorInvalidValue;
    }
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
