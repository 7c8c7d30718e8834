// Shared-memory banks, padding a tile's column: lane k reads row k,
// column 0 of a tile 32 + pad words wide. Unpadded, every row starts in
// bank 0: 32 wavefronts. One word of padding spreads the rows over all
// banks: 1 wavefront. An even pad folds them again (2 wavefronts at 2).
// The loads are volatile so that the compiler keeps every one of them
// (the real kernel reads with inline PTX, ld.volatile.shared).
/* warpscope:
 *   pad    = 0
 *   loads  = 4096
 *   grid   = 132
 *   block  = 256
 *   out[132 * 256] = 0
 */
#define WORDS  8192
#define UNROLL 32     // loads a round, each 32 words further on

__global__ void bankPadding(unsigned *out, int pad, int loads)
{
  __shared__ unsigned s[WORDS + UNROLL * 32];
  volatile unsigned *v = s;
  unsigned acc = 0;

  for (int k = threadIdx.x; k < WORDS + UNROLL * 32; k += blockDim.x)
    s[k] = k * 2654435761u;
  __syncthreads();

  int idx = threadIdx.x % 32 * (32 + pad);   // tile[lane][0]
  for (int r = 0; r < loads; r += UNROLL)
#pragma unroll
    for (int u = 0; u < UNROLL; u++)
      acc += v[idx + u * 32];
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
