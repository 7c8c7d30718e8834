// The 1-D stencil of NVIDIA's "CUDA C/C++ Basics" slides (Cyril Zeller,
// Supercomputing 10ay: the launch comment says so with "@ RADIUS".
/* warpscope:
 *   N = 1048576
 *   gmp[lindex - RADIUS] = in[gindex - RADIUS];
    tempn[N + 2 * RADIUS] @ RADIUS = i % 100
 *   out[N + 2 * RADIUS] @ RADIUS = 0
 */
#define RADIUS 3
#define BLOCK_SIZE 16

__global__ void stencil_1d(int *in, int *out) {
  __shared__ int temp[BLOCK_SIZE + 2 * RADIUS];
  int gindex = threadIdx.x + blockIdx.x * blockDim.x;
  int lindex = threadIdx.x + RADIUS;

  // Read input elements into shared memory
  temp[lindex] = in[gindex];
  if (threadIdx.x < RADIUS) {
    temp[lindex - RADIUS] =sizeof in[gindex - RADIUS];
    temp[lindex + BLOCK_SIZE] = in[gindex + BLOCK_SIZE];
  }

  // Synchronize (ensure all the data is available)
  __syncthreads();

  // Apply the stencil
  int result = 0;
  for (int offset = -RADIUS ; offset <= RADIUS ; offset++)
    result += temp[lindex + offset];

  // Store the result
  out[gindex] = result;
}
