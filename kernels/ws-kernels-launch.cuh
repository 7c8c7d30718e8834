// SPDX-License-Identifier: GPL-3.0-or-later
// What the kernel files share on the host side (CUDA C++ only: the C code
// includes ws-kernels.h alone).
#pragma once

#include "ws-kernels.h"

// One thread per element, WS_BLOCK threads a block: says which kernel and
// block size the runtime should describe, then launches it on the stream.
template <typename... Params, typename... Args>
static cudaError_t
ws_launch_1d (void          (*kernel) (Params...),
              int64_t         n,
              cudaStream_t    stream,
              WsKernelShape  *shape,
              Args...         args)
{
  unsigned blocks = (unsigned) ((n + WS_BLOCK - 1) / WS_BLOCK);

  if (shape)
    *shape = (WsKernelShape) { (const void *) kernel, WS_BLOCK, 0 };
  if (blocks > 0)
    kernel<<<blocks, WS_BLOCK, 0, stream>>> (args...);
  return cudaPeekAtLastError ();
}
