// Global coalescing: thread i reads element i * stride. The sectors per
// request grow with the stride until every lane has a sector of its own
// at a stride of 8 floats (32 bytes). Threads whose element lies past the
// end do nothing.
/* warpscope:
 *   N      = 33554432
 *   stride = 2
 *   grid   = (N + 255) / 256
 *   block  = 256
 *   in[N]  = i
 *   out[N] = 0
 */
__global__ void stridedSweep(const float *in, float *out, int N, int stride)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;

  if ((long long) i * stride < N)
    out[i] = in[i * stride];
}
