// SPDX-License-Identifier: GPL-3.0-or-later
// Latency hiding: a stream of 16-byte loads whose speed is set by how many
// loads are in flight at once. Thread t of a grid of T threads sums the
// words of elements t, t + T, t + 2T, … in a loop that is never unrolled, so
// a warp has as many loads in flight as one iteration issues, and an SM as
// many as its resident warps issue together. Two ways to get more:
//
//  - more warps (occupancy): the grid is one wave of as many blocks as fit,
//    and what fits is set from outside — the block size, dynamic shared
//    memory that nothing reads (the dial), or registers each thread holds
//    across the loop (the hold kernel);
//  - more loads per warp (ILP): ILP independent loads per iteration, written
//    out, or a plain loop unrolled by the compiler.
//
// The sum is the same whatever the variant (additions commute), so one CPU
// reference checks them all.
#include "ws-kernels-launch.cuh"

__device__ __forceinline__ uint32_t
fold (uint4 v)
{
  return v.x + v.y + v.z + v.w;
}

// ILP loads, then ILP additions: the loads of one iteration do not wait for
// each other. __launch_bounds__ (1024): block sizes up to 1024.
template <int ILP>
__global__ void __launch_bounds__ (1024)
ws_latency_ilp_kernel (const uint4 *in,
                       uint32_t    *out,
                       int64_t      n)
{
  int64_t t = (int64_t) blockIdx.x * blockDim.x + threadIdx.x;
  int64_t threads = (int64_t) gridDim.x * blockDim.x;
  uint32_t acc = 0;

#pragma unroll 1
  for (int64_t j = t; j < n; j += ILP * threads)
    {
      uint4 v[ILP];

#pragma unroll
      for (int u = 0; u < ILP; u++)
        v[u] = j + u * threads < n ? in[j + u * threads] : make_uint4 (0, 0, 0, 0);
#pragma unroll
      for (int u = 0; u < ILP; u++)
        acc += fold (v[u]);
    }
  out[t] = acc;
}

// The same loop written plainly, unrolled U times by the compiler: it hoists
// the U loads of the unrolled body above their additions, which is ILP too.
template <int U>
__global__ void __launch_bounds__ (1024)
ws_latency_unroll_kernel (const uint4 *in,
                          uint32_t    *out,
                          int64_t      n)
{
  int64_t t = (int64_t) blockIdx.x * blockDim.x + threadIdx.x;
  int64_t threads = (int64_t) gridDim.x * blockDim.x;
  uint32_t acc = 0;

#pragma unroll U
  for (int64_t j = t; j < n; j += threads)
    acc += fold (in[j]);
  out[t] = acc;
}

// One load in flight per warp, with V values held in registers across the
// loop: the same work whatever V, but V sets the registers each thread is
// allocated, and so how many warps fit. The values are read once, with
// volatile loads, before the loop: word k * blockDim.x + threadIdx.x of the
// input, so that a warp's load is one line and the V lines every block reads
// spread over L2's slices (the same few words for every thread made all the
// SMs queue at one slice, and the time grew with V); the loop adds them all whenever an
// element's first word is WS_LATENCY_MAGIC (rare, but no compiler can tell),
// so they must stay in registers all through it; after it they are folded
// in, in an order that cannot be computed early.
template <int V>
__global__ void __launch_bounds__ (WS_BLOCK)
ws_latency_hold_kernel (const uint4 *in,
                        uint32_t    *out,
                        int64_t      n)
{
  const volatile uint32_t *table = (const volatile uint32_t *) in;
  int64_t t = (int64_t) blockIdx.x * blockDim.x + threadIdx.x;
  int64_t threads = (int64_t) gridDim.x * blockDim.x;
  uint32_t held[V > 0 ? V : 1];
  uint32_t acc = 0;

  int64_t words = 4 * n;

#pragma unroll
  for (int k = 0; k < V; k++)
    held[k] = table[((int64_t) k * blockDim.x + threadIdx.x) % words] ^ (uint32_t) t;
#pragma unroll 1
  for (int64_t j = t; j < n; j += threads)
    {
      uint4 v = in[j];

      acc += fold (v);
      if (v.x == WS_LATENCY_MAGIC)
        {
#pragma unroll
          for (int k = 0; k < V; k++)
            acc += held[k];
        }
    }
#pragma unroll
  for (int k = 0; k < V; k++)
    acc = (acc ^ held[k]) * WS_LATENCY_FOLD;
  out[t] = acc;
}

// budget -> values held. ptxas gives a kernel every register it can use
// without losing a block per SM, so the registers allocated move in the
// steps of the occupancy table: with blocks of 256 threads 32 (8 blocks),
// 40 (6), 48 (5), 64 (4), 80 (3), 128 (2) and 255 (1). For these values
// nvcc 13.0 for sm_90 allocates at most the budget and more than the step
// below (nvcc -Xptxas -v); the measurement reports what the runtime really
// allocated.
#define BUDGETS(X) \
  X (32, 8) X (40, 20) X (48, 28) X (64, 44) X (80, 60) X (128, 100) X (255, 200)

#define BUDGET(B, V) B,
extern "C" const int ws_latency_budgets[] = { BUDGETS (BUDGET) };
extern "C" const int ws_latency_n_budgets = sizeof ws_latency_budgets / sizeof ws_latency_budgets[0];
#undef BUDGET

extern "C" int
ws_latency_hold_values (int budget)
{
#define VALUES(B, V) if (budget == B) return V;
  BUDGETS (VALUES)
#undef VALUES
  return -1;
}

template <typename Kernel>
static const void *
as_func (Kernel kernel)
{
  return (const void *) kernel;
}

extern "C" const void *
ws_latency_func (int variant,
                 int param)
{
  switch (variant)
    {
    case WS_LATENCY_ILP:
      switch (param)
        {
        case 1: return as_func (ws_latency_ilp_kernel<1>);
        case 2: return as_func (ws_latency_ilp_kernel<2>);
        case 4: return as_func (ws_latency_ilp_kernel<4>);
        case 8: return as_func (ws_latency_ilp_kernel<8>);
        default: return NULL;
        }
    case WS_LATENCY_UNROLL:
      switch (param)
        {
        case 1: return as_func (ws_latency_unroll_kernel<1>);
        case 2: return as_func (ws_latency_unroll_kernel<2>);
        case 4: return as_func (ws_latency_unroll_kernel<4>);
        case 8: return as_func (ws_latency_unroll_kernel<8>);
        default: return NULL;
        }
    case WS_LATENCY_HOLD:
      switch (param)
        {
#define CASE(B, V) case B: return as_func (ws_latency_hold_kernel<V>);
          BUDGETS (CASE)
#undef CASE
        default: return NULL;
        }
    default:
      return NULL;
    }
}

extern "C" cudaError_t
ws_launch_latency (int            variant,
                   int            param,
                   const uint4   *in,
                   uint32_t      *out,
                   int64_t        n,
                   int            blocks,
                   int            block,
                   size_t         dial_bytes,
                   cudaStream_t   stream,
                   WsKernelShape *shape)
{
  const void *func = ws_latency_func (variant, param);
  void *args[] = { (void *) &in, (void *) &out, (void *) &n };

  if (func == NULL || blocks <= 0 || block <= 0)
    return cudaErrorInvalidValue;
  if (shape)
    *shape = (WsKernelShape) { func, block, dial_bytes };
  // the kernels' own arguments are alike, so one cudaLaunchKernel serves them all
  cudaLaunchKernel (func, dim3 (blocks), dim3 (block), args, dial_bytes, stream);
  return cudaPeekAtLastError ();
}
