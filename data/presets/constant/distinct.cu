// Constant memory, N distinct addresses: lane k reads table[k % distinct].
// The constant cache serves one address at a time, so a warp that asks
// for `distinct` addresses is served `distinct` times in a row.
// Each of the 32 loads of a round moves every lane by the same multiple of
// 32 words, so that the compiler cannot keep a value: the distinct
// addresses of each load are the preset's.
/* warpscope:
 *   distinct = 8
 *   loads    = 2048
 *   grid     = 132
 *   block    = 256
 *   out[132 * 256] = 0
 */
#define WORDS 2048

__constant__ unsigned table[WORDS];

__global__ void constantDistinct(int distinct, int loads, unsigned *out)
{
  int lane = threadIdx.x % 32;
  int base = lane % distinct;
  unsigned acc = 0;

  for (int q = 0; q < loads / 32; q++)
#pragma unroll
    for (int u = 0; u < 32; u++)
      acc += table[base + 32 * ((q + u) & 63)];
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
