// Instruction-level parallelism, independent loads per thread: the
// latency-bound stream of the occupancy presets at a modest occupancy (16
// warps per SM), with ilp independent 16-byte loads per iteration. Each
// warp keeps that many loads in flight, as if there were that many times
// more warps: loads in flight hide latency, whoever issues them.
// The grid is one wave: 132 SMs (an H100 or H200) times the blocks of 128
// threads that make `warps` warps per SM. Those are held there by dynamic
// shared memory that nothing reads; the real kernel's host code tunes its
// size with the occupancy calculator, the launch below gives the nearest
// size by arithmetic.
/* warpscope:
 *   N      = 8388608
 *   ilp    = 1
 *   warps  = 16
 *   grid   = 132 * (warps / 4)
 *   block  = 128
 *   shared = 233472 / (warps / 4) / 128 * 128 - 1024
 *   in[N]  = random(1)
 *   out[132 * (warps / 4) * 128] = 0
 */
#define MAX_ILP 8

extern __shared__ unsigned dial[];   // never read: it limits the blocks per SM

template <int ilp>
__global__ void ilpLoads(const uint4 *in, unsigned *out, int N)
{
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int threads = gridDim.x * blockDim.x;
  unsigned acc = 0;

  // one iteration: ilp loads, then ilp additions; the loads of an
  // iteration do not wait for each other, the iterations do
#pragma unroll 1
  for (int j = t; j < N; j += ilp * threads)
  {
    uint4 v[MAX_ILP];
#pragma unroll
    for (int u = 0; u < ilp; u++)
      v[u] = j + u * threads < N ? in[j + u * threads] : make_uint4(0, 0, 0, 0);
#pragma unroll
    for (int u = 0; u < ilp; u++)
      acc += v[u].x + v[u].y + v[u].z + v[u].w;
  }
  out[t] = acc;
}
