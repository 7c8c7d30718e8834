// Global coalescing: every lane reads in[0]. One sector serves the whole
// warp, but only 4 of its 32 bytes are distinct data: 12.5 % coalesced,
// and yet the fastest of these copies, since almost nothing moves.
/* warpscope:
 *   N      = 33554432
 *   grid   = (N + 255) / 256
 *   block  = 256
 *   in[N]  = i
 *   out[N] = 0
 */
__global__ void broadcast(const float *in, float *out, int N)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;

  if (i < N)
    out[i] = in[0];
}
