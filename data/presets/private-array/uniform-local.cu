// Local memory, a uniform dynamic index: an index known only at run time
// puts the private array in local memory. Local memory is interleaved,
// word w of lane l at (w * 32 + l) * 4, so when all lanes of a warp use the
// same index (here blockIdx.x % 32) the warp reads 128 contiguous bytes:
// 4 sectors, no replay.
/* warpscope:
 *   N      = 4194304
 *   grid   = (N + 255) / 256
 *   block  = 256
 *   in[N]  = random(1)
 *   out[N] = 0
 */
#define WORDS 32    // the private array
#define READS 256   // reads of it per thread, in rounds of 32

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

__global__ void uniformIndex(const unsigned *in, unsigned *out, int N)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;

  if (i >= N)
    return;
  unsigned x = in[i], acc = 0;
  unsigned a[WORDS];
#pragma unroll
  for (int j = 0; j < WORDS; j++)
    a[j] = hash(x + j);

  int base = blockIdx.x % WORDS;   // the same for the whole warp
  // round q reads every element once, from (base + q) on; the rounds are
  // not unrolled, so every round reads memory again
#pragma unroll 1
  for (int q = 0; q < READS / WORDS; q++)
#pragma unroll
    for (int u = 0; u < WORDS; u++)
      acc += a[(base + q + u) % WORDS];
  out[i] = acc;
}
