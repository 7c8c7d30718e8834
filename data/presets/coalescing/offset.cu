// Global coalescing: every index shifted by `offset` elements. At an
// offset of 1 the warp's 128 bytes straddle a sector boundary: 5 sectors
// move 160 bytes for 128 used, 80 %. An offset of 8 (32 bytes) is aligned
// again. The input has `offset` more elements than the output.
/* warpscope:
 *   N       = 33554432
 *   offset  = 1
 *   grid    = (N + 255) / 256
 *   block   = 256
 *   in[N + offset] = i
 *   out[N]  = 0
 */
__global__ void offset(const float *in, float *out, int N, int offset)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;

  if (i < N)
    out[i] = in[i + offset];
}
