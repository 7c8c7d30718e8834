// Shared-memory merge, a tree reduction with sequential addressing: in
// each step thread t < step combines s[t] and s[t + step]. Consecutive
// threads read consecutive words: no bank conflict, and whole warps retire
// as the step shrinks.
/* warpscope:
 *   N      = 4194304
 *   grid   = (N + 255) / 256
 *   block  = 256
 *   in[N]  = random(1)
 *   out[N / 256] = 0
 */
#define BLOCK 256

__global__ void minTree(const unsigned *in, unsigned *out, int N)
{
  __shared__ unsigned s[BLOCK];

  int t = threadIdx.x;
  int i = blockIdx.x * BLOCK + t;
  s[t] = i < N ? in[i] : 0xffffffff;
  __syncthreads();

  for (int step = BLOCK / 2; step > 0; step /= 2)
  {
    if (t < step)
      s[t] = min(s[t], s[t + step]);
    __syncthreads();
  }
  if (t == 0)
    out[blockIdx.x] = s[0];
}
