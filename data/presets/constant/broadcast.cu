// Constant memory, one address per warp: every lane of a warp reads the
// same word (table[warp]), and one request serves the whole warp.
// Each of the 32 loads of a round moves the warp by the same multiple of
// 32 words, so that the compiler cannot keep a value.
/* warpscope:
 *   loads    = 2048
 *   grid     = 132
 *   block    = 256
 *   out[132 * 256] = 0
 */
#define WORDS 2048

__constant__ unsigned table[WORDS];

__global__ void constantBroadcast(int loads, unsigned *out)
{
  int base = threadIdx.x / 32;   // the warp's number
  unsigned acc = 0;

  for (int q = 0; q < loads / 32; q++)
#pragma unroll
    for (int u = 0; u < 32; u++)
      acc += table[base + 32 * ((q + u) & 63)];
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
