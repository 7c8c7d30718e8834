/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The registry of real kernels: ids (the presets'), parameters and standard
 * sweeps. Plain data, in every build, so that a build or a machine without
 * CUDA can still list the kernels and read recordings of them. */
#include "ws-gpu.h"

#include <string.h>

/* DRAM-bound buffers: 32 Mi elements of 4 bytes is 128 MiB per array, in and
 * out together five times the 50 MiB L2 of an H100 */
#define N_STREAM (1 << 25)
#define N_SMALL (1 << 22)

#define P_N(DEF) { "N", DEF, 1, 1 << 28, "elements" }
#define PARAMS(...) (const WsKernelParam[]) { __VA_ARGS__ }, G_N_ELEMENTS (((const WsKernelParam[]) { __VA_ARGS__ }))
#define KERNEL(ID, TITLE, ...) { ID, TITLE, PARAMS (__VA_ARGS__), NULL, NULL }
#define SWEPT(ID, TITLE, SWEEP, VALUES, ...) { ID, TITLE, PARAMS (__VA_ARGS__), SWEEP, VALUES }

static const WsKernelInfo kernels[] = {
  KERNEL ("coalescing/sequential", "out[i] = in[i]", P_N (N_STREAM)),
  KERNEL ("coalescing/permuted", "out[i] = in[blockIdx.x * blockDim.x + (threadIdx.x ^ 1)]", P_N (N_STREAM)),
  SWEPT ("coalescing/offset", "out[i] = in[i + offset]", "offset", "0:32",
         P_N (N_STREAM), { "offset", 1, 0, 64, "elements to shift every index by" }),
  KERNEL ("coalescing/stride", "out[i] = in[blockIdx.x + threadIdx.x * gridDim.x], N / 256 blocks",
          { "N", N_STREAM, 256, 1 << 28, "elements (a multiple of 256)" }),
  KERNEL ("coalescing/broadcast", "out[i] = in[0]", P_N (N_STREAM)),
  SWEPT ("coalescing/strided-sweep", "out[i] = in[i * stride] while i * stride < N", "stride", "1:32",
         P_N (N_STREAM), { "stride", 2, 1, 128, "elements between consecutive threads" }),

  SWEPT ("alignment/elem-size", "out[i] = in[i], elements of elem_size bytes", "elem_size", "1,2,4,8,16",
         P_N (N_STREAM), { "elem_size", 4, 1, 16, "bytes per element: 1, 2, 4, 8 or 16" }),
  KERNEL ("alignment/struct-unpadded", "out[i] = in[i].x + in[i].y + in[i].z, 12-byte structures", P_N (N_STREAM)),
  KERNEL ("alignment/struct-padded", "out[i] = in[i].x + in[i].y + in[i].z, __align__(16) structures", P_N (N_STREAM)),
  KERNEL ("alignment/aos", "out[i] = in[i].x of 12-byte structures (in[3 * i])", P_N (N_STREAM)),
  KERNEL ("alignment/soa", "out[i] = x[i]", P_N (N_STREAM)),
  KERNEL ("alignment/asta", "out[i] = in[(i / 32) * 96 + i % 32]", P_N (N_STREAM)),
  KERNEL ("alignment/pitch-none", "2-D copy, rows W elements apart",
          { "W", 1000, 1, 65536, "row width in elements" }, { "H", 32768, 1, 65536, "rows" }),
  KERNEL ("alignment/pitch", "2-D copy, rows pitch elements apart (cudaMallocPitch)",
          { "W", 1000, 1, 65536, "row width in elements" }, { "H", 32768, 1, 65536, "rows" },
          { "pitch", 0, 0, 65536, "row pitch in elements; 0: what cudaMallocPitch chooses" }),

#define P_SIDE { "N", 8192, 32, 32768, "matrix side in elements" }
  KERNEL ("transpose/copy", "out[y][x] = in[y][x] (the bound)", P_SIDE),
  KERNEL ("transpose/read-coalesced", "out[x][y] = in[y][x]", P_SIDE),
  KERNEL ("transpose/write-coalesced", "out[y][x] = in[x][y]", P_SIDE),
  KERNEL ("transpose/ldg", "out[y][x] = __ldg (&in[x][y])", P_SIDE),
  KERNEL ("transpose/shared", "32 x 32 shared-memory tile", P_SIDE),
  KERNEL ("transpose/shared-padded", "32 x 33 shared-memory tile", P_SIDE),

#define P_LOADS(DEF) { "loads", DEF, 32, 1 << 20, "loads per thread (a multiple of 32)" }
  SWEPT ("banks/stride", "4-byte shared loads of s[threadIdx.x * stride]", "stride", "1:33",
         { "stride", 1, 0, 64, "words between consecutive lanes" }, P_LOADS (4096)),
  KERNEL ("banks/broadcast", "4-byte shared loads of s[warp]", P_LOADS (4096)),
  SWEPT ("banks/padding", "4-byte shared loads of tile[threadIdx.x % 32 * (32 + pad)]", "pad", "0:4",
         { "pad", 0, 0, 8, "words of padding per row" }, P_LOADS (4096)),
  SWEPT ("banks/elem8", "8-byte shared loads of s[threadIdx.x * stride]", "stride", "1:17",
         { "stride", 1, 0, 64, "elements between consecutive lanes" }, P_LOADS (4096)),
  SWEPT ("banks/elem16", "16-byte shared loads of s[threadIdx.x * stride]", "stride", "1:9",
         { "stride", 1, 0, 64, "elements between consecutive lanes" }, P_LOADS (4096)),
  KERNEL ("banks/swizzle", "4-byte shared loads of tile[threadIdx.x * 32 + (threadIdx.y ^ threadIdx.x)]",
          P_LOADS (4096)),

  KERNEL ("constant/broadcast", "constant loads of c[warp]", P_LOADS (2048)),
  SWEPT ("constant/distinct", "constant loads of c[lane % distinct]", "distinct", "1:32",
         { "distinct", 8, 1, 32, "distinct addresses per warp" }, P_LOADS (2048)),

  KERNEL ("readonly/plain", "out[i] = in[i * 7919 % N], plain loads", P_N (N_STREAM)),
  KERNEL ("readonly/ldg", "out[i] = __ldg (&in[i * 7919 % N])", P_N (N_STREAM)),

  KERNEL ("private-array/static", "a[32] read at compile-time indices (registers)",
          P_N (N_SMALL), { "k", 3, 0, 31, "the constant index" }),
  KERNEL ("private-array/uniform-local", "a[32] read at (blockIdx.x + r) % 32 (local, uniform)", P_N (N_SMALL)),
  KERNEL ("private-array/nonuniform-local", "a[32] read at (threadIdx.x + r) % 32 (local, non-uniform)", P_N (N_SMALL)),
  KERNEL ("private-array/nonuniform-shared", "a[index * blockDim.x + threadIdx.x] in shared memory", P_N (N_SMALL)),
  KERNEL ("private-array/local-wide", "8-byte a[16] read at (blockIdx.x + r) % 16 (local, uniform)", P_N (N_SMALL)),

  SWEPT ("occupancy/registers", "a streaming kernel holding values in registers", "registers", "32,48,64,96,128,176,255",
         P_N (N_SMALL), { "registers", 32, 16, 255, "registers each thread needs (rounded up to a compiled budget)" }),
  KERNEL ("occupancy/spill", "the same kernel limited to 32 registers: it spills", P_N (N_SMALL)),

  KERNEL ("atomics/one-address", "atomicAdd (&counter, in[i] & 0xff)", P_N (N_SMALL)),
  KERNEL ("atomics/distinct", "atomicAdd (&out[i], in[i])", P_N (1 << 24)),
  SWEPT ("atomics/histogram", "atomicAdd (&bins[i % bins], 1), global", "bins", "1,2,4,8,16,32,64",
         P_N (N_SMALL), { "bins", 8, 1, 4096, "number of bins" }),
  SWEPT ("atomics/shared", "atomicAdd (&hist[i % bins], 1) in shared memory, merged per block", "bins", "1,2,4,8,16,32,64",
         P_N (N_SMALL), { "bins", 8, 1, 4096, "number of bins" }),
  KERNEL ("atomics/warp-aggregated", "warp sum with shuffles, one atomicAdd per warp", P_N (N_SMALL)),
  KERNEL ("atomics/cas-loop", "float maximum with an atomicCAS loop on one address", P_N (1 << 20)),

  SWEPT ("l2/persisting", "out[i] = hot[i % hot] + stream[i], hot buffer in a persisting window", "hit_ratio", "0:100:20",
         P_N (N_STREAM), { "hot", 1 << 23, 1024, 1 << 24, "elements in the hot buffer" },
         { "hit_ratio", 100, 0, 100, "percent of the window marked persisting" }),
  KERNEL ("l2/streaming", "out[i] = hot[i % hot] + stream[i], no window",
          P_N (N_STREAM), { "hot", 1 << 23, 1024, 1 << 24, "elements in the hot buffer" }),

  KERNEL ("transfer/pageable", "cudaMemcpy from malloc'ed memory, then a kernel", P_N (1 << 24)),
  KERNEL ("transfer/pinned", "cudaMemcpy from cudaMallocHost memory, then a kernel", P_N (1 << 24)),
  KERNEL ("transfer/mapped", "a kernel reading mapped host memory", P_N (1 << 24)),
  SWEPT ("transfer/streams", "copy in, kernel, copy out in chunks over streams", "streams", "1,2,4,8,16",
         P_N (1 << 24), { "streams", 4, 1, 16, "streams (chunks)" }),

  KERNEL ("merge/one-thread", "block minimum: thread 0 walks shared memory", P_N (N_SMALL)),
  KERNEL ("merge/atomicmin", "block minimum: atomicMin on one shared word", P_N (N_SMALL)),
  KERNEL ("merge/tree", "block minimum: tree reduction, sequential addressing", P_N (N_SMALL)),
  KERNEL ("merge/tree-interleaved", "block minimum: tree reduction, interleaved addressing", P_N (N_SMALL)),
  KERNEL ("merge/hybrid", "block minimum: warp shuffles, one atomicMin per warp", P_N (N_SMALL)),

  KERNEL ("reference/memcpy", "cudaMemcpy device to device of N words (the copy bound)", P_N (N_STREAM)),
};

const WsKernelInfo *
ws_gpu_kernels (guint *n_kernels)
{
  g_return_val_if_fail (n_kernels != NULL, NULL);
  *n_kernels = G_N_ELEMENTS (kernels);
  return kernels;
}

const WsKernelInfo *
ws_gpu_kernel_lookup (const char *id)
{
  g_return_val_if_fail (id != NULL, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (kernels); i++)
    if (strcmp (kernels[i].id, id) == 0)
      return &kernels[i];
  return NULL;
}

const WsKernelParam *
ws_kernel_info_get_param (const WsKernelInfo *info,
                          const char         *name)
{
  g_return_val_if_fail (info != NULL && name != NULL, NULL);
  for (guint i = 0; i < info->n_params; i++)
    if (strcmp (info->params[i].name, name) == 0)
      return &info->params[i];
  return NULL;
}
