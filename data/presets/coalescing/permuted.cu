// Global coalescing: neighbouring lanes swap their elements
// (threadIdx.x ^ 1). The warp still reads the same 128 bytes, and the
// hardware does not care which lane takes which word: 4 sectors, 100 %.
/* warpscope:
 *   N      = 33554432
 *   grid   = (N + 255) / 256
 *   block  = 256
 *   in[N]  = i
 *   out[N] = 0
 */
__global__ void permuted(const float *in, float *out, int N)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.x * blockDim.x + (threadIdx.x ^ 1);

  if (i < N && j < N)
    out[i] = in[j];
}
