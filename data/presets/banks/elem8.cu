// Shared-memory banks, 8-byte accesses: lane k reads the uint2 at
// k * stride. 32 lanes of 8 bytes cannot pass in one 128-byte wavefront:
// two half-warp phases are the fewest. Stride 2 takes 4.
// The real kernel reads with volatile inline PTX
// (ld.volatile.shared), so that no load is hoisted out of the loop; a
// volatile uint2 cannot be read whole in C++, so here each round ends
// with __syncwarp (), after which nvcc must read shared memory again
// (without it, it kept the first round's values: 11 times faster).
/* warpscope:
 *   stride = 1
 *   loads  = 4096
 *   grid   = 132
 *   block  = 256
 *   out[132 * 256] = 0
 */
#define WORDS  8192
#define UNROLL 32     // loads a round, each 32 words (16 uint2) further on

__global__ void bankElem8(unsigned *out, int stride, int loads)
{
  __shared__ uint2 s[(WORDS + UNROLL * 32) / 2];
  unsigned acc = 0;

  for (int k = threadIdx.x; k < (WORDS + UNROLL * 32) / 2; k += blockDim.x)
    s[k] = make_uint2(2 * k, 2 * k + 1);
  __syncthreads();

  int idx = (threadIdx.x * stride) & (WORDS / 2 - 1);
  for (int r = 0; r < loads; r += UNROLL)
  {
#pragma unroll
    for (int u = 0; u < UNROLL; u++)
    {
      uint2 w = s[idx + u * 16];
      acc += w.x + w.y;
    }
    __syncwarp();
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
