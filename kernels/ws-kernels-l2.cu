// SPDX-License-Identifier: GPL-3.0-or-later
// L2 persistence: every thread reads a hot buffer (hot[i % hot_n]) and
// streams a large one. The access-policy window rides on the launch
// (cudaLaunchAttributeAccessPolicyWindow), so it needs no stream of its own.
#include "ws-kernels.h"

__global__ void
ws_l2_kernel (const uint32_t *hot,
              const uint32_t *stream_in,
              uint32_t       *out,
              int64_t         n,
              uint32_t        hot_n)
{
  int64_t i = (int64_t) blockIdx.x * blockDim.x + threadIdx.x;

  if (i < n)
    out[i] = hot[(uint64_t) i % hot_n] + stream_in[i];
}

extern "C" cudaError_t
ws_launch_l2 (const uint32_t *hot,
              const uint32_t *stream_in,
              uint32_t       *out,
              int64_t         n,
              int64_t         hot_n,
              size_t          window_bytes,
              float           hit_ratio,
              cudaStream_t    stream,
              WsKernelShape  *shape)
{
  cudaLaunchConfig_t config = {};
  cudaLaunchAttribute attr[1] = {};

  if (shape)
    *shape = (WsKernelShape) { (const void *) ws_l2_kernel, WS_BLOCK, 0 };
  config.gridDim = dim3 ((unsigned) ((n + WS_BLOCK - 1) / WS_BLOCK));
  config.blockDim = dim3 (WS_BLOCK);
  config.stream = stream;
  if (window_bytes > 0)
    {
      attr[0].id = cudaLaunchAttributeAccessPolicyWindow;
      attr[0].val.accessPolicyWindow.base_ptr = (void *) hot;
      attr[0].val.accessPolicyWindow.num_bytes = window_bytes;
      attr[0].val.accessPolicyWindow.hitRatio = hit_ratio;
      attr[0].val.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
      attr[0].val.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
      config.attrs = attr;
      config.numAttrs = 1;
    }
  cudaLaunchKernelEx (&config, ws_l2_kernel, hot, stream_in, out, n, (uint32_t) hot_n);
  return cudaPeekAtLastError ();
}
