// Shared-memory banks, an XOR swizzle: instead of padding a 32 x 32 tile,
// element (row, col) is stored at column col ^ row. Reading a column,
// lane k reads tile[k][0 ^ k]: 32 different banks, 1 wavefront, without a
// wasted word per row.
// The loads are volatile so that the compiler keeps every one of them
// (the real kernel reads with inline PTX, ld.volatile.shared).
/* warpscope:
 *   loads  = 4096
 *   grid   = 132
 *   block  = 32, 32
 *   out[132 * 1024] = 0
 */
#define WORDS  8192
#define UNROLL 32     // loads a round, each 32 words further on

__global__ void bankSwizzle(unsigned *out, int loads)
{
  __shared__ unsigned s[WORDS + UNROLL * 32];
  volatile unsigned *v = s;
  int tid = threadIdx.y * blockDim.x + threadIdx.x;
  unsigned acc = 0;

  for (int k = tid; k < WORDS + UNROLL * 32; k += blockDim.x * blockDim.y)
    s[k] = k * 2654435761u;
  __syncthreads();

  int idx = threadIdx.x * 32 + (threadIdx.y ^ threadIdx.x);   // tile[threadIdx.x][threadIdx.y ^ threadIdx.x]
  for (int r = 0; r < loads; r += UNROLL)
#pragma unroll
    for (int u = 0; u < UNROLL; u++)
      acc += v[idx + u * 32];
  out[blockIdx.x * blockDim.x * blockDim.y + tid] = acc;
}
