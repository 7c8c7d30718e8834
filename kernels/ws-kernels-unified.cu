// SPDX-License-Identifier: GPL-3.0-or-later
// Unified memory: a __managed__ array, which host code reads and writes as
// an ordinary global variable and kernels as device memory; the driver
// migrates its pages to whichever processor touches them. The kernel that
// reads it (and every other managed or mapped buffer) is ws_launch_scale.
//
// A managed variable is allocated when its module is loaded, and lives as
// long as the module: the array is the one global of a module of its own,
// in PTX as nvcc writes a __managed__ variable, loaded the first time it is
// asked for and unloaded before the process lets its context go (a managed
// variable of the program's own fatbin lives until the runtime unregisters
// it at exit, and a leak check before that counts it as leaked).
#include "ws-kernels.h"

#define STR(x) #x
#define XSTR(x) STR (x)

static const char managed_ptx[] =
  ".version 7.0\n"
  ".target sm_70\n"
  ".address_size 64\n"
  ".global .attribute(.managed) .align 16 .u32 ws_managed_words[" XSTR (WS_MANAGED_WORDS) "];\n";

static cudaLibrary_t managed_library;

extern "C" cudaError_t
ws_managed_variable (uint32_t **words)
{
  cudaError_t err;
  size_t bytes = 0;

  if (managed_library == NULL)
    {
      err = cudaLibraryLoadData (&managed_library, managed_ptx, NULL, NULL, 0, NULL, NULL, 0);
      if (err != cudaSuccess)
        {
          managed_library = NULL;
          return err;
        }
    }
  err = cudaLibraryGetManaged ((void **) words, &bytes, managed_library, "ws_managed_words");
  if (err == cudaSuccess && bytes < (size_t) WS_MANAGED_WORDS * sizeof (uint32_t))
    return cudaErrorInvalidValue;
  return err;
}

extern "C" void
ws_managed_variable_release (void)
{
  if (managed_library != NULL)
    cudaLibraryUnload (managed_library);
  managed_library = NULL;
}
