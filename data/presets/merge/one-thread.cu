// Shared-memory merge, one thread: the block's minimum found by thread 0
// alone, walking the 256 values in shared memory: one lane per
// instruction while the other threads wait.
/* warpscope:
 *   N      = 4194304
 *   grid   = (N + 255) / 256
 *   block  = 256
 *   in[N]  = random(1)
 *   out[N / 256] = 0
 */
#define BLOCK 256

__global__ void minOneThread(const unsigned *in, unsigned *out, int N)
{
  __shared__ unsigned s[BLOCK];

  int t = threadIdx.x;
  int i = blockIdx.x * BLOCK + t;
  s[t] = i < N ? in[i] : 0xffffffff;
  __syncthreads();

  if (t == 0)
  {
    unsigned m = s[0];
    for (int k = 1; k < BLOCK; k++)
      m = min(m, s[k]);
    out[blockIdx.x] = m;
  }
}
