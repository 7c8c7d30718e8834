// Shared-memory banks, 16-byte accesses: lane k reads the uint4 at
// k * stride: four quarter-warp phases of 8 lanes at the least. A stride
// of 2 doubles the wavefronts.
// The real kernel reads with volatile inline PTX
// (ld.volatile.shared), so that no load is hoisted out of the loop; a
// volatile uint4 cannot be read whole in C++, so here each round ends
// with __syncwarp (), after which nvcc must read shared memory again
// (without it, it kept the first round's values: 3.5 times faster).
/* warpscope:
 *   stride = 1
 *   loads  = 4096
 *   grid   = 132
 *   block  = 256
 *   out[132 * 256] = 0
 */
#define WORDS  8192
#define UNROLL 32     // loads a round, each 32 words (8 uint4) further on

__global__ void bankElem16(unsigned *out, int stride, int loads)
{
  __shared__ uint4 s[(WORDS + UNROLL * 32) / 4];
  unsigned acc = 0;

  for (int k = threadIdx.x; k < (WORDS + UNROLL * 32) / 4; k += blockDim.x)
    s[k] = make_uint4(4 * k, 4 * k + 1, 4 * k + 2, 4 * k + 3);
  __syncthreads();

  int idx = (threadIdx.x * stride) & (WORDS / 4 - 1);
  for (int r = 0; r < loads; r += UNROLL)
  {
#pragma unroll
    for (int u = 0; u < UNROLL; u++)
    {
      uint4 w = s[idx + u * 8];
      acc += w.x + w.y + w.z + w.w;
    }
    __syncwarp();
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
