// Atomics on one address: every thread adds to the same counter, so the
// 32 lanes of a warp are applied one after another, 32 serialised updates
// of one sector per warp.
// When the compiler can see that every lane has the same address, it adds
// the warp's values first and makes one update (CUDA 11 and later): the
// index here is i & (bins - 1), with bins = 1 given at run time, so the
// address is always out[0] but the compiler cannot know it.
/* warpscope:
 *   N      = 4194304
 *   bins   = 1
 *   grid   = (N + 255) / 256
 *   block  = 256
 *   in[N]  = random(1)
 *   out[1] = 0
 */
__global__ void oneAddress(const unsigned *in, unsigned *out, int N, int bins)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;

  if (i < N)
    atomicAdd(&out[i & (bins - 1)], in[i] & 0xff);
}
