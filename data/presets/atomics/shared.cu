// Atomics in shared memory: the same histogram kept per block in shared
// memory, then merged into the global one, one atomic per bin and block.
/* warpscope:
 *   N         = 4194304
 *   bins      = 8
 *   grid      = (N + 255) / 256
 *   block     = 256
 *   out[bins] = 0
 */
#define MAX_BINS 4096

__global__ void sharedHistogram(unsigned *out, int N, int bins)
{
  __shared__ unsigned hist[MAX_BINS];

  int i = blockIdx.x * blockDim.x + threadIdx.x;

  for (int b = threadIdx.x; b < bins; b += blockDim.x)
    hist[b] = 0;
  __syncthreads();

  if (i < N)
    atomicAdd(&hist[i % bins], 1u);
  __syncthreads();

  for (int b = threadIdx.x; b < bins; b += blockDim.x)
    if (hist[b])
      atomicAdd(&out[b], hist[b]);
}
