// SPDX-License-Identifier: GPL-3.0-or-later
// Alignment and layout: element sizes, structures padded or not, AoS, SoA,
// ASTA, and 2-D arrays with and without a pitch. Each thread makes the
// preset's load(s) and one coalesced store.
#include "ws-kernels-launch.cuh"

// ---- element size: out[i] = in[i] with 1-, 2-, 4-, 8- or 16-byte elements

template <typename T>
__global__ void
ws_elem_size_kernel (const T *in,
                     T       *out,
                     int64_t  n)
{
  int64_t i = (int64_t) blockIdx.x * blockDim.x + threadIdx.x;

  if (i < n)
    out[i] = in[i];
}

template <typename T>
static cudaError_t
launch_elem (const void    *in,
             void          *out,
             int64_t        n,
             cudaStream_t   stream,
             WsKernelShape *shape)
{
  return ws_launch_1d (ws_elem_size_kernel<T>, n, stream, shape, (const T *) in, (T *) out, n);
}

extern "C" cudaError_t
ws_launch_elem_size (int            elem_size,
                     const void    *in,
                     void          *out,
                     int64_t        n,
                     cudaStream_t   stream,
                     WsKernelShape *shape)
{
  switch (elem_size)
    {
    case 1: return launch_elem<uint8_t> (in, out, n, stream, shape);
    case 2: return launch_elem<uint16_t> (in, out, n, stream, shape);
    case 4: return launch_elem<uint32_t> (in, out, n, stream, shape);
    case 8: return launch_elem<uint2> (in, out, n, stream, shape);
    case 16: return launch_elem<uint4> (in, out, n, stream, shape);
    default: return cudaErrorInvalidValue;
    }
}

// ---- layouts of a 3-field structure

struct WsVec3
{
  uint32_t x, y, z;              // 12 bytes: three 4-byte loads
};

struct __align__ (16) WsVec3Padded
{
  uint32_t x, y, z;              // 16 bytes with padding: one 16-byte load
};

template <int VARIANT>
__global__ void
ws_layout_kernel (const uint32_t *in,
                  uint32_t       *out,
                  int64_t         n)
{
  int64_t i = (int64_t) blockIdx.x * blockDim.x + threadIdx.x;

  if (i >= n)
    return;
  switch (VARIANT)
    {
    case WS_ALIGNMENT_STRUCT_UNPADDED:
      {
        WsVec3 v = ((const WsVec3 *) in)[i];
        out[i] = v.x + v.y + v.z;
      }
      break;
    case WS_ALIGNMENT_STRUCT_PADDED:
      {
        WsVec3Padded v = ((const WsVec3Padded *) in)[i];
        out[i] = v.x + v.y + v.z;
      }
      break;
    case WS_ALIGNMENT_AOS:
      out[i] = ((const WsVec3 *) in)[i].x;       // in[3 * i]
      break;
    case WS_ALIGNMENT_SOA:
      out[i] = in[i];                            // the x array alone
      break;
    default: // WS_ALIGNMENT_ASTA: x of structure i in tiles of 32 structures
      out[i] = in[(i / 32) * 96 + i % 32];
      break;
    }
}

template <int VARIANT>
static cudaError_t
launch_layout (const uint32_t *in,
               uint32_t       *out,
               int64_t         n,
               cudaStream_t    stream,
               WsKernelShape  *shape)
{
  return ws_launch_1d (ws_layout_kernel<VARIANT>, n, stream, shape, in, out, n);
}

extern "C" cudaError_t
ws_launch_layout (int             variant,
                  const uint32_t *in,
                  uint32_t       *out,
                  int64_t         n,
                  cudaStream_t    stream,
                  WsKernelShape  *shape)
{
  switch (variant)
    {
    case WS_ALIGNMENT_STRUCT_UNPADDED: return launch_layout<WS_ALIGNMENT_STRUCT_UNPADDED> (in, out, n, stream, shape);
    case WS_ALIGNMENT_STRUCT_PADDED: return launch_layout<WS_ALIGNMENT_STRUCT_PADDED> (in, out, n, stream, shape);
    case WS_ALIGNMENT_AOS: return launch_layout<WS_ALIGNMENT_AOS> (in, out, n, stream, shape);
    case WS_ALIGNMENT_SOA: return launch_layout<WS_ALIGNMENT_SOA> (in, out, n, stream, shape);
    case WS_ALIGNMENT_ASTA: return launch_layout<WS_ALIGNMENT_ASTA> (in, out, n, stream, shape);
    default: return cudaErrorInvalidValue;
    }
}

// ---- 2-D arrays: blocks of 32 x 8, element (x, y) at y * pitch + x

__global__ void
ws_pitch_kernel (const float *in,
                 float       *out,
                 int64_t      width,
                 int64_t      height,
                 int64_t      pitch)
{
  int64_t x = (int64_t) blockIdx.x * blockDim.x + threadIdx.x;
  int64_t y = (int64_t) blockIdx.y * blockDim.y + threadIdx.y;

  if (x < width && y < height)
    out[y * pitch + x] = in[y * pitch + x];
}

extern "C" cudaError_t
ws_launch_pitch (const float   *in,
                 float         *out,
                 int64_t        width,
                 int64_t        height,
                 int64_t        pitch,
                 cudaStream_t   stream,
                 WsKernelShape *shape)
{
  dim3 block (32, 8);
  dim3 grid ((unsigned) ((width + 31) / 32), (unsigned) ((height + 7) / 8));

  if (shape)
    *shape = (WsKernelShape) { (const void *) ws_pitch_kernel, 256, 0 };
  ws_pitch_kernel<<<grid, block, 0, stream>>> (in, out, width, height, pitch);
  return cudaPeekAtLastError ();
}

// ---- a 7-byte structure, packed or padded to 8
//
// struct { uint8_t b[7]; } has no alignment of its own: the compiler reads
// it one byte at a time, seven loads that each stride 7 bytes across the
// warp. __align__ (8) pads it to 8 bytes and one 8-byte load reads it.
// out[i] = bytes 0-3 as a little-endian word, xor-ed with bytes 4-6.

struct WsBytes7
{
  uint8_t b[7];
};

struct __align__ (8) WsBytes7Padded
{
  uint8_t b[7];
};

template <typename T>
__global__ void
ws_struct7_kernel (const T  *in,
                   uint32_t *out,
                   int64_t   n)
{
  int64_t i = (int64_t) blockIdx.x * blockDim.x + threadIdx.x;

  if (i < n)
    {
      T v = in[i];
      out[i] = (v.b[0] | (uint32_t) v.b[1] << 8 | (uint32_t) v.b[2] << 16 | (uint32_t) v.b[3] << 24) ^
               (v.b[4] | (uint32_t) v.b[5] << 8 | (uint32_t) v.b[6] << 16);
    }
}

extern "C" cudaError_t
ws_launch_struct7 (int            padded,
                   const void    *in,
                   uint32_t      *out,
                   int64_t        n,
                   cudaStream_t   stream,
                   WsKernelShape *shape)
{
  if (padded)
    return ws_launch_1d (ws_struct7_kernel<WsBytes7Padded>, n, stream, shape, (const WsBytes7Padded *) in, out, n);
  return ws_launch_1d (ws_struct7_kernel<WsBytes7>, n, stream, shape, (const WsBytes7 *) in, out, n);
}

// ---- 3-D arrays (cudaMalloc3D): element (x, y, z) at (z * height + y) * pitch + x

__global__ void
ws_pitch3d_kernel (const float *in,
                   float       *out,
                   int64_t      width,
                   int64_t      height,
                   int64_t      depth,
                   int64_t      pitch)
{
  int64_t x = (int64_t) blockIdx.x * blockDim.x + threadIdx.x;
  int64_t y = (int64_t) blockIdx.y * blockDim.y + threadIdx.y;
  int64_t z = blockIdx.z;

  if (x < width && y < height && z < depth)
    out[(z * height + y) * pitch + x] = in[(z * height + y) * pitch + x];
}

extern "C" cudaError_t
ws_launch_pitch3d (const float   *in,
                   float         *out,
                   int64_t        width,
                   int64_t        height,
                   int64_t        depth,
                   int64_t        pitch,
                   cudaStream_t   stream,
                   WsKernelShape *shape)
{
  dim3 block (32, 8);
  dim3 grid ((unsigned) ((width + 31) / 32), (unsigned) ((height + 7) / 8), (unsigned) depth);

  if (shape)
    *shape = (WsKernelShape) { (const void *) ws_pitch3d_kernel, 256, 0 };
  ws_pitch3d_kernel<<<grid, block, 0, stream>>> (in, out, width, height, depth, pitch);
  return cudaPeekAtLastError ();
}
