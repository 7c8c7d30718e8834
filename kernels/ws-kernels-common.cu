// SPDX-License-Identifier: GPL-3.0-or-later
// Helpers every family uses: input data, the SM clock, and a fault on purpose.
#include "ws-kernels.h"

__global__ void
ws_fill_words_kernel (uint32_t *p,
                      size_t    n,
                      uint32_t  seed)
{
  size_t stride = (size_t) gridDim.x * blockDim.x;

  for (size_t k = (size_t) blockIdx.x * blockDim.x + threadIdx.x; k < n; k += stride)
    p[k] = ws_value (k, seed);
}

extern "C" cudaError_t
ws_fill_words (uint32_t    *p,
               size_t       n_words,
               uint32_t     seed,
               cudaStream_t stream)
{
  size_t blocks = (n_words + WS_BLOCK - 1) / WS_BLOCK;

  if (blocks > 65536)
    blocks = 65536;
  if (blocks == 0)
    return cudaSuccess;
  ws_fill_words_kernel<<<(unsigned) blocks, WS_BLOCK, 0, stream>>> (p, n_words, seed);
  return cudaPeekAtLastError ();
}

extern "C" const void *
ws_fill_words_func (void)
{
  return (const void *) ws_fill_words_kernel;
}

// Reads n 16-byte words: evicts whatever L2 held and leaves it holding clean
// lines (a memset would leave it full of dirty ones, which the next kernel
// would pay to write back). Writes the sink only if the words add up to
// magic, which they never do, so the loads cannot be dropped.
__global__ void
ws_flush_read_kernel (const uint4 *p,
                      size_t       n,
                      uint32_t    *sink,
                      uint32_t     magic)
{
  size_t stride = (size_t) gridDim.x * blockDim.x;
  uint32_t sum = 0;

  for (size_t k = (size_t) blockIdx.x * blockDim.x + threadIdx.x; k < n; k += stride)
    {
      uint4 v = p[k];
      sum += v.x ^ v.y ^ v.z ^ v.w;
    }
  if (sum == magic)
    *sink = sum;
}

extern "C" cudaError_t
ws_flush_read (const void  *p,
               size_t       bytes,
               uint32_t    *sink,
               cudaStream_t stream)
{
  size_t n = bytes / sizeof (uint4);
  size_t blocks = (n + WS_BLOCK - 1) / WS_BLOCK;

  if (blocks > 65536)
    blocks = 65536;
  if (blocks == 0)
    return cudaSuccess;
  ws_flush_read_kernel<<<(unsigned) blocks, WS_BLOCK, 0, stream>>> ((const uint4 *) p, n, sink, 0x9e3779b9u);
  return cudaPeekAtLastError ();
}

__global__ void
ws_spin_kernel (long long  cycles,
                long long *elapsed)
{
  long long start = clock64 ();
  long long now = start;

  while (now - start < cycles)
    now = clock64 ();
  if (threadIdx.x == 0)
    *elapsed = now - start;
}

extern "C" cudaError_t
ws_spin_clock (long long    cycles,
               long long   *elapsed,
               cudaStream_t stream)
{
  ws_spin_kernel<<<1, 32, 0, stream>>> (cycles, elapsed);
  return cudaPeekAtLastError ();
}

__global__ void
ws_fault_kernel (uint32_t *p)
{
  p[threadIdx.x] = threadIdx.x;
}

extern "C" cudaError_t
ws_fault (cudaStream_t stream)
{
  // far from any allocation: the first store faults
  ws_fault_kernel<<<1, 32, 0, stream>>> ((uint32_t *) (uintptr_t) 0x10000000ull);
  return cudaPeekAtLastError ();
}
