// Fences, what a fence costs: each thread stores to its own word `rounds`
// times, each store followed by nothing (fence 0), __threadfence_block()
// (1), __threadfence() (2), __syncthreads() (3) or __threadfence_system()
// (4). A fence waits until the thread's stores are visible at its scope.
// The stores are volatile, so that none is merged away.
/* warpscope:
 *   N      = 1048576
 *   fence  = 2
 *   rounds = 64
 *   grid   = (N + 255) / 256
 *   block  = 256
 *   out[N] = 0
 */
template <int fence>
__global__ void fenceCost(unsigned *out, int rounds)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  volatile unsigned *p = out + i;

  for (int r = 0; r < rounds; r++)
  {
    *p = r + i;
    if (fence == 1)
      __threadfence_block();
    else if (fence == 2)
      __threadfence();
    else if (fence == 3)
      __syncthreads();
    else if (fence == 4)
      __threadfence_system();
  }
}
