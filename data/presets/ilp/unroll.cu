// Instruction-level parallelism left to the compiler: the same stream as
// a plain loop with one load and one addition, unrolled `unroll` times.
// The unrolled body's loads do not depend on each other, so they are
// issued together before the additions: ILP without writing it out.
// The grid is one wave: 132 SMs (an H100 or H200) times the blocks of 128
// threads that make `warps` warps per SM. Those are held there by dynamic
// shared memory that nothing reads; the real kernel's host code tunes its
// size with the occupancy calculator, the launch below gives the nearest
// size by arithmetic.
/* warpscope:
 *   N      = 8388608
 *   unroll = 1
 *   warps  = 16
 *   grid   = 132 * (warps / 4)
 *   block  = 128
 *   shared = 233472 / (warps / 4) / 128 * 128 - 1024
 *   in[N]  = random(1)
 *   out[132 * (warps / 4) * 128] = 0
 */
extern __shared__ unsigned dial[];   // never read: it limits the blocks per SM

template <int unroll>
__global__ void unrolledLoop(const uint4 *in, unsigned *out, int N)
{
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int threads = gridDim.x * blockDim.x;
  unsigned acc = 0;

#pragma unroll unroll
  for (int j = t; j < N; j += threads)
  {
    uint4 v = in[j];
    acc += v.x + v.y + v.z + v.w;
  }
  out[t] = acc;
}
