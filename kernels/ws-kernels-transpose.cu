// SPDX-License-Identifier: GPL-3.0-or-later
// Matrix transpose of an n x n float matrix. Blocks of 32 x 8 threads each
// move a 32 x 32 tile in four rows of eight (as in NVIDIA's transpose sample)
// instead of the preset's 32 x 32 blocks: a warp is still 32 consecutive x of
// one row, so every instruction touches the same sectors and shared-memory
// banks as the preset's — only the loop is added.
#include "ws-kernels.h"

#define TILE 32
#define ROWS 8

template <int VARIANT>
__device__ __forceinline__ void
transpose_rows (const float *in,
                float       *out,
                int64_t      n,
                int64_t      x,
                int64_t      y)
{
  for (int j = 0; j < TILE; j += ROWS)
    {
      if (x >= n || y + j >= n)
        continue;
      switch (VARIANT)
        {
        case WS_TRANSPOSE_COPY:
          out[(y + j) * n + x] = in[(y + j) * n + x];
          break;
        case WS_TRANSPOSE_READ_COALESCED:
          out[x * n + (y + j)] = in[(y + j) * n + x];
          break;
        case WS_TRANSPOSE_WRITE_COALESCED:
          // plain loads: in is not __restrict__, so not the read-only path
          out[(y + j) * n + x] = in[x * n + (y + j)];
          break;
        default: // WS_TRANSPOSE_LDG
          out[(y + j) * n + x] = __ldg (&in[x * n + (y + j)]);
          break;
        }
    }
}

template <int VARIANT>
__global__ void
ws_transpose_kernel (const float *in,
                     float       *out,
                     int64_t      n)
{
  __shared__ float tile[TILE][VARIANT == WS_TRANSPOSE_SHARED_PADDED ? TILE + 1 : TILE];
  int64_t x = (int64_t) blockIdx.x * TILE + threadIdx.x;
  int64_t y = (int64_t) blockIdx.y * TILE + threadIdx.y;

  if (VARIANT == WS_TRANSPOSE_SHARED || VARIANT == WS_TRANSPOSE_SHARED_PADDED)
    {
      for (int j = 0; j < TILE; j += ROWS)
        if (x < n && y + j < n)
          tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
      __syncthreads ();
      // the tile's column becomes a row of out
      x = (int64_t) blockIdx.y * TILE + threadIdx.x;
      y = (int64_t) blockIdx.x * TILE + threadIdx.y;
      for (int j = 0; j < TILE; j += ROWS)
        if (x < n && y + j < n)
          out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
    }
  else
    {
      transpose_rows<VARIANT> (in, out, n, x, y);
    }
}

template <int VARIANT>
static cudaError_t
launch (const float   *in,
        float         *out,
        int64_t        n,
        cudaStream_t   stream,
        WsKernelShape *shape)
{
  unsigned tiles = (unsigned) ((n + TILE - 1) / TILE);

  if (shape)
    *shape = (WsKernelShape) { (const void *) ws_transpose_kernel<VARIANT>, TILE * ROWS, 0 };
  ws_transpose_kernel<VARIANT><<<dim3 (tiles, tiles), dim3 (TILE, ROWS), 0, stream>>> (in, out, n);
  return cudaPeekAtLastError ();
}

extern "C" cudaError_t
ws_launch_transpose (int            variant,
                     const float   *in,
                     float         *out,
                     int64_t        n,
                     cudaStream_t   stream,
                     WsKernelShape *shape)
{
  switch (variant)
    {
    case WS_TRANSPOSE_COPY: return launch<WS_TRANSPOSE_COPY> (in, out, n, stream, shape);
    case WS_TRANSPOSE_READ_COALESCED: return launch<WS_TRANSPOSE_READ_COALESCED> (in, out, n, stream, shape);
    case WS_TRANSPOSE_WRITE_COALESCED: return launch<WS_TRANSPOSE_WRITE_COALESCED> (in, out, n, stream, shape);
    case WS_TRANSPOSE_LDG: return launch<WS_TRANSPOSE_LDG> (in, out, n, stream, shape);
    case WS_TRANSPOSE_SHARED: return launch<WS_TRANSPOSE_SHARED> (in, out, n, stream, shape);
    case WS_TRANSPOSE_SHARED_PADDED: return launch<WS_TRANSPOSE_SHARED_PADDED> (in, out, n, stream, shape);
    default: return cudaErrorInvalidValue;
    }
}
