// Atomics, warp-aggregated: the warp first adds its values with shuffles,
// and lane 0 alone updates the counter: one atomic per warp instead of 32.
/* warpscope:
 *   N      = 4194304
 *   grid   = (N + 255) / 256
 *   block  = 256
 *   in[N]  = random(1)
 *   out[1] = 0
 */
__global__ void warpAggregated(const unsigned *in, unsigned *out, int N)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned v = i < N ? in[i] & 0xff : 0;

  for (int d = 16; d > 0; d /= 2)
    v += __shfl_down_sync(0xffffffff, v, d);
  if (threadIdx.x % 32 == 0 && v)
    atomicAdd(&out[0], v);
}
