// The read-only path, scattered reads with plain loads: thread i reads
// element (i * 7919) mod N, so every lane of a warp lands in a sector of
// its own. `in` is not __restrict__, so these really are plain loads.
/* warpscope:
 *   N      = 33554432
 *   grid   = (N + 255) / 256
 *   block  = 256
 *   in[N]  = i
 *   out[N] = 0
 */
__global__ void scatteredPlain(const float *in, float *out, int N)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;

  if (i < N)
    out[i] = in[(long long) i * 7919 % N];
}
