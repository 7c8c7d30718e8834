// Shared-memory merge, atomicMin on one word: every thread offers its
// value to one shared word. The 32 lanes of a warp collide on one address;
// the hardware combines a warp's updates of one word.
/* warpscope:
 *   N      = 4194304
 *   grid   = (N + 255) / 256
 *   block  = 256
 *   in[N]  = random(1)
 *   out[N / 256] = 0
 */
#define BLOCK 256

__global__ void minAtomic(const unsigned *in, unsigned *out, int N)
{
  __shared__ unsigned smin;

  int t = threadIdx.x;
  int i = blockIdx.x * BLOCK + t;
  unsigned v = i < N ? in[i] : 0xffffffff;

  if (t == 0)
    smin = 0xffffffff;
  __syncthreads();
  atomicMin(&smin, v);
  __syncthreads();
  if (t == 0)
    out[blockIdx.x] = smin;
}
