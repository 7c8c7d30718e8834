// Shared-memory merge, a tree reduction with interleaved addressing (the
// older form): thread t combines s[2 step t] and s[2 step t + step]. The
// stride doubles every step, and so do the bank conflicts.
/* warpscope:
 *   N      = 4194304
 *   grid   = (N + 255) / 256
 *   block  = 256
 *   in[N]  = random(1)
 *   out[N / 256] = 0
 */
#define BLOCK 256

__global__ void minTreeInterleaved(const unsigned *in, unsigned *out, int N)
{
  __shared__ unsigned s[BLOCK];

  int t = threadIdx.x;
  int i = blockIdx.x * BLOCK + t;
  s[t] = i < N ? in[i] : 0xffffffff;
  __syncthreads();

  for (int step = 1; step < BLOCK; step *= 2)
  {
    if (2 * step * t < BLOCK)
      s[2 * step * t] = min(s[2 * step * t], s[2 * step * t + step]);
    __syncthreads();
  }
  if (t == 0)
    out[blockIdx.x] = s[0];
}
