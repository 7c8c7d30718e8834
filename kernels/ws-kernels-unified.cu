// SPDX-License-Identifier: GPL-3.0-or-later
// Unified memory: a __managed__ array, which host code reads and writes as
// an ordinary global variable and kernels as device memory; the driver
// migrates its pages to whichever processor touches them. The kernel that
// reads it (and every other managed or mapped buffer) is ws_launch_scale.
//
// A managed variable is allocated when the module is loaded, in every
// process that loads it: it is kept small (16 MiB).
#include "ws-kernels.h"

__managed__ uint32_t ws_managed_words[WS_MANAGED_WORDS];

extern "C" cudaError_t
ws_managed_variable (uint32_t **words)
{
  return cudaGetSymbolAddress ((void **) words, ws_managed_words);
}
