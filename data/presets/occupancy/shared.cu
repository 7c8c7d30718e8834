// Registers and occupancy, shared memory per block: a latency-bound
// stream (each thread sums 16-byte elements in a loop with one load in
// flight), with `shared` bytes of dynamic shared memory per block that it
// never touches. Past 24 KiB a block's share leaves room for fewer than
// 8 blocks of 256 threads in the SM's 228 KiB, and the resident warps,
// which hide the loads' latency, fall in steps.
// The grid is one wave: 132 SMs (an H100 or H200) times the blocks that
// fit. The preset's parameter `shared` is `bytes` here (set it with
// --set bytes=32768): the launch's own `shared` cannot be read by the
// grid's expression.
/* warpscope:
 *   N      = 8388608
 *   bytes  = 0
 *   shared = bytes
 *   grid   = 132 * (233472 / ((bytes + 1151) / 128 * 128) < 8 ? 233472 / ((bytes + 1151) / 128 * 128) : 8)
 *   block  = 256
 *   in[N]  = random(1)
 *   out[132 * 8 * 256] = 0
 */
extern __shared__ unsigned dial[];   // never read: it limits the blocks per SM

__global__ void stream(const uint4 *in, unsigned *out, int N)
{
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int threads = gridDim.x * blockDim.x;
  unsigned acc = 0;

#pragma unroll 1
  for (int j = t; j < N; j += threads)
  {
    uint4 v = in[j];
    acc += v.x + v.y + v.z + v.w;
  }
  out[t] = acc;
}
