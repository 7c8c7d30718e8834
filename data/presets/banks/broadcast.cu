// Shared-memory banks, a broadcast: all lanes of a warp read the same
// word (s[warp]). It is read once and handed to every lane: 1 wavefront.
// The loads are volatile so that the compiler keeps every one of them
// (the real kernel reads with inline PTX, ld.volatile.shared).
/* warpscope:
 *   loads  = 4096
 *   grid   = 132
 *   block  = 256
 *   out[132 * 256] = 0
 */
#define WORDS  8192
#define UNROLL 32     // loads a round, each 32 words further on

__global__ void bankBroadcast(unsigned *out, int loads)
{
  __shared__ unsigned s[WORDS + UNROLL * 32];
  volatile unsigned *v = s;
  unsigned acc = 0;

  for (int k = threadIdx.x; k < WORDS + UNROLL * 32; k += blockDim.x)
    s[k] = k * 2654435761u;
  __syncthreads();

  int idx = threadIdx.x / 32;   // the warp's number: one word a warp
  for (int r = 0; r < loads; r += UNROLL)
#pragma unroll
    for (int u = 0; u < UNROLL; u++)
      acc += v[idx + u * 32];
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
