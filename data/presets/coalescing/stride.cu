// Global coalescing: consecutive lanes read elements gridDim.x apart
// (blockIdx.x + threadIdx.x * gridDim.x). With N / 256 blocks the lanes of
// a warp are hundreds of kilobytes apart, so each needs a sector of its
// own: 32 sectors move 1024 bytes for 128 used, 12.5 %. N is a multiple
// of 256, so every thread has an element.
/* warpscope:
 *   N      = 33554432
 *   grid   = N / 256
 *   block  = 256
 *   in[N]  = i
 *   out[N] = 0
 */
__global__ void stride(const float *in, float *out)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;

  out[i] = in[blockIdx.x + threadIdx.x * gridDim.x];
}
