// Local memory, a non-uniform index: each lane uses its own index
// (threadIdx.x % 32). The interleaving now works against the warp: every
// lane's word is in a different 128-byte line, 32 sectors and 31 replays.
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

__global__ void nonuniformIndex(const unsigned *in, unsigned *out, int N)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;

  if (i >= N)
    return;
  unsigned x = in[i], acc = 0;
  unsigned a[WORDS];
#pragma unroll
  for (int j = 0; j < WORDS; j++)
    a[j] = hash(x + j);

  int base = threadIdx.x % WORDS;   // each lane its own
  // round q reads every element once, from (base + q) on; the rounds are
  // not unrolled, so every round reads memory again
#pragma unroll 1
  for (int q = 0; q < READS / WORDS; q++)
#pragma unroll
    for (int u = 0; u < WORDS; u++)
      acc += a[(base + q + u) % WORDS];
  out[i] = acc;
}
