// Atomics, a histogram in global memory: thread i adds one to bin
// i % bins. With few bins the lanes of a warp collide and are applied one
// after another; with 32 bins or more each lane has a bin of its own.
/* warpscope:
 *   N         = 4194304
 *   bins      = 8
 *   grid      = (N + 255) / 256
 *   block     = 256
 *   hist[bins] = 0
 */
__global__ void histogram(unsigned *hist, int N, int bins)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;

  if (i < N)
    atomicAdd(&hist[i % bins], 1u);
}
