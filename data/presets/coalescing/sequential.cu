// Global coalescing: thread i copies element i.
// The 32 lanes of a warp read 32 consecutive floats, 128 bytes: exactly
// four 32-byte sectors, every byte moved is used (100 % coalesced).
/* warpscope:
 *   N      = 33554432
 *   grid   = (N + 255) / 256
 *   block  = 256
 *   in[N]  = i
 *   out[N] = 0
 */
__global__ void sequential(const float *in, float *out, int N)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;

  if (i < N)
    out[i] = in[i];
}
