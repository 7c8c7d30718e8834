// Local memory, N distinct indices: lane k uses index k % distinct, so
// the warp's words lie in `distinct` lines of local memory, served one
// after another: distinct - 1 replays, from the uniform index (1) to the
// fully divergent one (32).
/* warpscope:
 *   N        = 4194304
 *   distinct = 8
 *   grid     = (N + 255) / 256
 *   block    = 256
 *   in[N]    = random(1)
 *   out[N]   = 0
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

__global__ void distinctIndices(const unsigned *in, unsigned *out, int N, int distinct)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;

  if (i >= N)
    return;
  unsigned x = in[i], acc = 0;
  unsigned a[WORDS];
#pragma unroll
  for (int j = 0; j < WORDS; j++)
    a[j] = hash(x + j);

  int base = threadIdx.x % 32 % distinct;
#pragma unroll 1
  for (int q = 0; q < READS / WORDS; q++)
#pragma unroll
    for (int u = 0; u < WORDS; u++)
      acc += a[(base + q + u) % WORDS];
  out[i] = acc;
}
