// SPDX-License-Identifier: GPL-3.0-or-later
// One 2-D stencil read five ways: the material's "which memory when",
// measured on a pattern with reuse. out[y][x] is the sum over a square of
// radius R of c[dy][dx] * in[y + dy][x + dx], the coefficients c in
// constant memory (every lane reads the same one: a broadcast), the input
// padded with R rows and columns on every side so that no thread needs a
// bounds check. Each input element is read by (2R + 1)² threads, so what
// serves the reuse — L1, the texture cache, shared memory — is what the
// variants compare:
//
//   PLAIN     plain loads through pointers that may alias (L1)
//   RESTRICT  const __restrict__ pointers: the compiler may use the
//             read-only (non-coherent) path by itself
//   LDG       __ldg (): the read-only path, asked for
//   TEXTURE   tex2D () from a CUDA array (2-D locality in its layout)
//   SHARED    the block's tile and its halo loaded once into shared memory
//
// Integer arithmetic (modulo 2^32), so the CPU reference is exact.
#include "ws-kernels.h"

#define SIDE (2 * WS_STENCIL_MAX_RADIUS + 1)
#define BX 32
#define BY 8

__constant__ uint32_t ws_stencil_coeff[SIDE * SIDE];

extern "C" cudaError_t
ws_stencil_upload (const uint32_t *coeff,
                   cudaStream_t    stream)
{
  return cudaMemcpyToSymbolAsync (ws_stencil_coeff, coeff, sizeof ws_stencil_coeff, 0, cudaMemcpyHostToDevice,
                                  stream);
}

template <int R, typename Load>
__device__ __forceinline__ uint32_t
stencil (Load load)
{
  uint32_t acc = 0;

#pragma unroll
  for (int dy = -R; dy <= R; dy++)
#pragma unroll
    for (int dx = -R; dx <= R; dx++)
      acc += ws_stencil_coeff[(dy + R) * (2 * R + 1) + dx + R] * load (dy, dx);
  return acc;
}

template <int VARIANT, int R>
__global__ void __launch_bounds__ (BX * BY)
ws_stencil_kernel (const uint32_t     *in,
                   uint32_t           *out,
                   int                 w,
                   int                 h,
                   cudaTextureObject_t tex)
{
  int x = blockIdx.x * BX + threadIdx.x;
  int y = blockIdx.y * BY + threadIdx.y;
  int pw = w + 2 * R;
  uint32_t acc;

  if (VARIANT == WS_STENCIL_SHARED)
    {
      __shared__ uint32_t tile[BY + 2 * R][BX + 2 * R];

      for (int ty = threadIdx.y; ty < BY + 2 * R; ty += BY)
        for (int tx = threadIdx.x; tx < BX + 2 * R; tx += BX)
          {
            int gx = blockIdx.x * BX + tx, gy = blockIdx.y * BY + ty;
            tile[ty][tx] = gx < pw && gy < h + 2 * R ? in[(size_t) gy * pw + gx] : 0;
          }
      __syncthreads ();
      if (x >= w || y >= h)
        return;
      acc = stencil<R> ([&] (int dy, int dx) { return tile[threadIdx.y + R + dy][threadIdx.x + R + dx]; });
    }
  else
    {
      if (x >= w || y >= h)
        return;
      const uint32_t *centre = in + (size_t) (y + R) * pw + x + R;
      switch (VARIANT)
        {
        case WS_STENCIL_LDG:
          acc = stencil<R> ([&] (int dy, int dx) { return __ldg (centre + dy * pw + dx); });
          break;
        case WS_STENCIL_TEXTURE:
          acc = stencil<R> ([&] (int dy, int dx) {
            return tex2D<uint32_t> (tex, x + R + dx + 0.5f, y + R + dy + 0.5f);
          });
          break;
        default:
          acc = stencil<R> ([&] (int dy, int dx) { return centre[dy * pw + dx]; });
          break;
        }
    }
  out[(size_t) y * w + x] = acc;
}

// const __restrict__: the compiler knows in is never written while the
// kernel runs, and may read it through the read-only path
template <int R>
__global__ void __launch_bounds__ (BX * BY)
ws_stencil_restrict_kernel (const uint32_t *__restrict__ in,
                            uint32_t *__restrict__       out,
                            int                          w,
                            int                          h)
{
  int x = blockIdx.x * BX + threadIdx.x;
  int y = blockIdx.y * BY + threadIdx.y;
  int pw = w + 2 * R;

  if (x >= w || y >= h)
    return;
  const uint32_t *__restrict__ centre = in + (size_t) (y + R) * pw + x + R;
  out[(size_t) y * w + x] = stencil<R> ([&] (int dy, int dx) { return centre[dy * pw + dx]; });
}

template <int VARIANT, int R>
static cudaError_t
launch (const uint32_t     *in,
        uint32_t           *out,
        int                 w,
        int                 h,
        cudaTextureObject_t tex,
        cudaStream_t        stream,
        WsKernelShape      *shape)
{
  dim3 block (BX, BY), grid ((w + BX - 1) / BX, (h + BY - 1) / BY);

  if (VARIANT == WS_STENCIL_RESTRICT)
    {
      if (shape)
        *shape = (WsKernelShape) { (const void *) ws_stencil_restrict_kernel<R>, BX * BY, 0 };
      ws_stencil_restrict_kernel<R><<<grid, block, 0, stream>>> (in, out, w, h);
    }
  else
    {
      if (shape)
        *shape = (WsKernelShape) { (const void *) ws_stencil_kernel<VARIANT, R>, BX * BY, 0 };
      ws_stencil_kernel<VARIANT, R><<<grid, block, 0, stream>>> (in, out, w, h, tex);
    }
  return cudaPeekAtLastError ();
}

template <int VARIANT>
static cudaError_t
launch_radius (int                 radius,
               const uint32_t     *in,
               uint32_t           *out,
               int                 w,
               int                 h,
               cudaTextureObject_t tex,
               cudaStream_t        stream,
               WsKernelShape      *shape)
{
  switch (radius)
    {
    case 1: return launch<VARIANT, 1> (in, out, w, h, tex, stream, shape);
    case 2: return launch<VARIANT, 2> (in, out, w, h, tex, stream, shape);
    case 3: return launch<VARIANT, 3> (in, out, w, h, tex, stream, shape);
    default: return cudaErrorInvalidValue;
    }
}

extern "C" cudaError_t
ws_launch_stencil (int                 variant,
                   int                 radius,
                   const uint32_t     *in,
                   uint32_t           *out,
                   int64_t             w,
                   int64_t             h,
                   cudaTextureObject_t tex,
                   cudaStream_t        stream,
                   WsKernelShape      *shape)
{
  switch (variant)
    {
    case WS_STENCIL_PLAIN: return launch_radius<WS_STENCIL_PLAIN> (radius, in, out, w, h, tex, stream, shape);
    case WS_STENCIL_RESTRICT: return launch_radius<WS_STENCIL_RESTRICT> (radius, in, out, w, h, tex, stream, shape);
    case WS_STENCIL_LDG: return launch_radius<WS_STENCIL_LDG> (radius, in, out, w, h, tex, stream, shape);
    case WS_STENCIL_TEXTURE: return launch_radius<WS_STENCIL_TEXTURE> (radius, in, out, w, h, tex, stream, shape);
    case WS_STENCIL_SHARED: return launch_radius<WS_STENCIL_SHARED> (radius, in, out, w, h, tex, stream, shape);
    default: return cudaErrorInvalidValue;
    }
}
