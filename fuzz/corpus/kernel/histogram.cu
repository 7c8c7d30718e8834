// The histogram with shared-memory atomics of "CUDA by Example" (Sanders and
// Kandrot, 2010, chapter 9), written out again as the book gives it: each
// block counts into its own 256 bins in shared memory, then adds them to the
// global histogram.
/* warpscope:
 *   size = 1 << 20
 *   grid = 64
 *   block = 256
 *   buffer[size] = random(42) % 256
 *   histo[256] = 0
 */
__global__ void histo_kernel( unsigned char *buffer,
                              long size,
                              unsigned int *histo ) {
    __shared__  unsigned int temp[256];
    temp[threadIdx.x] = 0;
    __syncthreads();

    int i = threadIdx.x + blockIdx.x * blockDim.x;
    int offset = blockDim.x * gridDim.x;
    while (i < size) {
        atomicAdd( &temp[buffer[i]], 1);
        i += offset;
    }
    __syncthreads();

    atomicAdd( &(histo[threadIdx.x]), temp[threadIdx.x] );
}
