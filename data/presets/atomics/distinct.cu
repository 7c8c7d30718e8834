// Atomics on one address per thread: every thread updates its own
// element, no two lanes collide, and the warp's updates are coalesced
// into 4 sectors.
/* warpscope:
 *   N      = 16777216
 *   grid   = (N + 255) / 256
 *   block  = 256
 *   in[N]  = random(1)
 *   out[N] = 0
 */
__global__ void distinctAddresses(const unsigned *in, unsigned *out, int N)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;

  if (i < N)
    atomicAdd(&out[i], in[i]);
}
