// SPDX-License-Identifier: GPL-3.0-or-later
// Private arrays. Each thread fills an array of 32 words from its input and
// reads it in WS_PRIVATE_READS / 32 rounds; round q reads a[(base + q + u) % 32]
// for u = 0…31, every element once. The rounds are a loop the compiler may
// not unroll, so that no load of one round repeats a load of another and
// every round really reads memory. With a compile-time index
// the array stays in registers; with base = blockIdx.x % 32 (uniform) or
// threadIdx.x % 32 (non-uniform) it goes to local memory, whose interleaving
// serves the first in one line and the second in 32; kept in shared memory
// as a[index * blockDim.x + threadIdx.x] it needs one wavefront either way.
#include "ws-kernels-launch.cuh"

template <int VARIANT>
__global__ void __launch_bounds__ (WS_BLOCK)
ws_private_kernel (const uint32_t *in,
                   uint32_t       *out,
                   int64_t         n,
                   int             k)
{
  int64_t i = (int64_t) blockIdx.x * blockDim.x + threadIdx.x;
  uint32_t x, acc = 0;

  if (i >= n)
    return;
  x = in[i];

  if (VARIANT == WS_PRIVATE_LOCAL_WIDE)
    {
      uint64_t a[WS_PRIVATE_WORDS / 2];
      uint64_t acc64 = 0;
      int base = blockIdx.x % 16;

#pragma unroll
      for (int j = 0; j < WS_PRIVATE_WORDS / 2; j++)
        a[j] = ((uint64_t) ws_hash32 (x + 2 * j) << 32) | ws_hash32 (x + 2 * j + 1);
#pragma unroll 1
      for (int q = 0; q < WS_PRIVATE_READS / 16; q++)
        {
#pragma unroll
          for (int u = 0; u < 16; u++)
            acc64 += a[(base + q + u) % 16];
        }
      out[i] = (uint32_t) acc64 ^ (uint32_t) (acc64 >> 32);
    }
  else if (VARIANT == WS_PRIVATE_NONUNIFORM_SHARED)
    {
      __shared__ uint32_t a[WS_PRIVATE_WORDS * WS_BLOCK];
      int base = threadIdx.x % 32;

#pragma unroll
      for (int j = 0; j < WS_PRIVATE_WORDS; j++)
        a[j * WS_BLOCK + threadIdx.x] = ws_hash32 (x + j);
#pragma unroll 1
      for (int q = 0; q < WS_PRIVATE_READS / 32; q++)
        {
#pragma unroll
          for (int u = 0; u < 32; u++)
            acc += a[(base + q + u) % 32 * WS_BLOCK + threadIdx.x];
        }
      out[i] = acc;
    }
  else
    {
      uint32_t a[WS_PRIVATE_WORDS];

#pragma unroll
      for (int j = 0; j < WS_PRIVATE_WORDS; j++)
        a[j] = ws_hash32 (x + j);
      if (VARIANT == WS_PRIVATE_STATIC)
        {
#pragma unroll 1
          for (int q = 0; q < WS_PRIVATE_READS / 32; q++)
            {
#pragma unroll
              for (int u = 0; u < 32; u++)
                acc += a[u];
            }
          // a[k] with a run-time k would put the array in local memory: select it
#pragma unroll
          for (int j = 0; j < WS_PRIVATE_WORDS; j++)
            acc += a[j] & (0u - (uint32_t) (j == k));
        }
      else if (VARIANT == WS_PRIVATE_RANDOM)
        {
          // a base of its own for every lane and round: about 20 of 32
          // lanes' words differ, so a warp's load is served in about 20
          // lines, between the uniform index's 1 and the non-uniform's 32
#pragma unroll 1
          for (int q = 0; q < WS_PRIVATE_READS / 32; q++)
            {
              int base = ws_hash32 (x ^ (uint32_t) q * 0x9e3779b9u) % 32;
#pragma unroll
              for (int u = 0; u < 32; u++)
                acc += a[(base + u) % 32];
            }
        }
      else
        {
          int base = VARIANT == WS_PRIVATE_UNIFORM_LOCAL ? blockIdx.x % 32
                   : VARIANT == WS_PRIVATE_DISTINCT ? threadIdx.x % 32 % k
                   : threadIdx.x % 32;

#pragma unroll 1
          for (int q = 0; q < WS_PRIVATE_READS / 32; q++)
            {
#pragma unroll
              for (int u = 0; u < 32; u++)
                acc += a[(base + q + u) % 32];
            }
        }
      out[i] = acc;
    }
}

// How big a private array the compiler keeps in registers: a[S] is written
// and read in loops with no pragma, so whether they are unrolled — and the
// indices compile-time constants, and the array registers — is the
// compiler's choice. Every element is read WS_PRIVATE_SIZE_ROUNDS times.
template <int S>
__global__ void __launch_bounds__ (WS_BLOCK)
ws_private_size_kernel (const uint32_t *in,
                        uint32_t       *out,
                        int64_t         n)
{
  int64_t i = (int64_t) blockIdx.x * blockDim.x + threadIdx.x;
  uint32_t a[S];
  uint32_t x, acc = 0;

  if (i >= n)
    return;
  x = in[i];
  // a chain, so that no element can be recomputed where it is read
  a[0] = ws_hash32 (x);
  for (int j = 1; j < S; j++)
    a[j] = ws_hash32 (a[j - 1] + j);
#pragma unroll 1
  for (int q = 0; q < WS_PRIVATE_SIZE_ROUNDS; q++)
    for (int j = 0; j < S; j++)
      acc += a[j] ^ (uint32_t) q;
  out[i] = acc;
}

// The L1 preference: a private array of WS_CARVEOUT_WORDS words at a
// non-uniform index, so in local memory, whose lines L1 keeps as long as it
// can. The host sets this kernel's preferred shared-memory carveout: what
// shared memory does not take of the SM's unified L1 is cache.
__global__ void __launch_bounds__ (WS_BLOCK)
ws_private_carveout_kernel (const uint32_t *in,
                            uint32_t       *out,
                            int64_t         n)
{
  int64_t i = (int64_t) blockIdx.x * blockDim.x + threadIdx.x;
  uint32_t a[WS_CARVEOUT_WORDS];
  uint32_t x, acc = 0;
  int base = threadIdx.x % WS_CARVEOUT_WORDS;

  if (i >= n)
    return;
  x = in[i];
#pragma unroll
  for (int j = 0; j < WS_CARVEOUT_WORDS; j++)
    a[j] = ws_hash32 (x + j);
#pragma unroll 1
  for (int q = 0; q < WS_PRIVATE_READS / WS_CARVEOUT_WORDS; q++)
    {
#pragma unroll
      for (int u = 0; u < WS_CARVEOUT_WORDS; u++)
        acc += a[(base + q + u) % WS_CARVEOUT_WORDS];
    }
  out[i] = acc;
}

template <int VARIANT>
static cudaError_t
launch (const uint32_t *in,
        uint32_t       *out,
        int64_t         n,
        int64_t         k,
        cudaStream_t    stream,
        WsKernelShape  *shape)
{
  return ws_launch_1d (ws_private_kernel<VARIANT>, n, stream, shape, in, out, n, (int) k);
}

extern "C" cudaError_t
ws_launch_private (int             variant,
                   const uint32_t *in,
                   uint32_t       *out,
                   int64_t         n,
                   int64_t         k,
                   cudaStream_t    stream,
                   WsKernelShape  *shape)
{
  switch (variant)
    {
    case WS_PRIVATE_STATIC: return launch<WS_PRIVATE_STATIC> (in, out, n, k, stream, shape);
    case WS_PRIVATE_UNIFORM_LOCAL: return launch<WS_PRIVATE_UNIFORM_LOCAL> (in, out, n, k, stream, shape);
    case WS_PRIVATE_NONUNIFORM_LOCAL: return launch<WS_PRIVATE_NONUNIFORM_LOCAL> (in, out, n, k, stream, shape);
    case WS_PRIVATE_NONUNIFORM_SHARED: return launch<WS_PRIVATE_NONUNIFORM_SHARED> (in, out, n, k, stream, shape);
    case WS_PRIVATE_LOCAL_WIDE: return launch<WS_PRIVATE_LOCAL_WIDE> (in, out, n, k, stream, shape);
    case WS_PRIVATE_RANDOM: return launch<WS_PRIVATE_RANDOM> (in, out, n, k, stream, shape);
    case WS_PRIVATE_DISTINCT:
      if (k < 1 || k > 32)
        return cudaErrorInvalidValue;
      return launch<WS_PRIVATE_DISTINCT> (in, out, n, k, stream, shape);
    case WS_PRIVATE_CARVEOUT: return ws_launch_1d (ws_private_carveout_kernel, n, stream, shape, in, out, n);
    default: return cudaErrorInvalidValue;
    }
}

#define SIZES(X) X (4) X (8) X (16) X (32) X (64) X (96) X (128) X (160) X (192) X (256)

#define SIZE(S) S,
extern "C" const int ws_private_sizes[] = { SIZES (SIZE) };
extern "C" const int ws_private_n_sizes = sizeof ws_private_sizes / sizeof ws_private_sizes[0];
#undef SIZE

extern "C" cudaError_t
ws_launch_private_size (int             size,
                        const uint32_t *in,
                        uint32_t       *out,
                        int64_t         n,
                        cudaStream_t    stream,
                        WsKernelShape  *shape)
{
  switch (size)
    {
#define CASE(S) case S: return ws_launch_1d (ws_private_size_kernel<S>, n, stream, shape, in, out, n);
      SIZES (CASE)
#undef CASE
    default:
      return cudaErrorInvalidValue;
    }
}

extern "C" const void *
ws_private_carveout_func (void)
{
  return (const void *) ws_private_carveout_kernel;
}
