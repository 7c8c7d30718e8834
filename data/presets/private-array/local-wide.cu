// Local memory, 8-byte elements with a uniform index: interleaving is per
// 4-byte word, so an 8-byte element is two words 128 bytes apart, read as
// two requests of 4 sectors each.
/* warpscope:
 *   N      = 4194304
 *   grid   = (N + 255) / 256
 *   block  = 256
 *   in[N]  = random(1)
 *   out[N] = 0
 */
#define WORDS 32    // the private array, in 4-byte words
#define READS 256   // reads of it per thread, in rounds of 16

// lowbias32, a 32-bit integer hash: values the compiler cannot foresee
__device__ unsigned hash(unsigned x)
{
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}

__global__ void wideLocal(const unsigned *in, unsigned *out, int N)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;

  if (i >= N)
    return;
  unsigned x = in[i];
  unsigned long long a[WORDS / 2], acc = 0;
#pragma unroll
  for (int j = 0; j < WORDS / 2; j++)
    a[j] = ((unsigned long long) hash(x + 2 * j) << 32) | hash(x + 2 * j + 1);

  int base = blockIdx.x % 16;   // the same for the whole warp
#pragma unroll 1
  for (int q = 0; q < READS / 16; q++)
#pragma unroll
    for (int u = 0; u < 16; u++)
      acc += a[(base + q + u) % 16];
  out[i] = (unsigned) acc ^ (unsigned) (acc >> 32);
}
