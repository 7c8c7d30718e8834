// Local memory, static indexing: every index into the private array is a
// compile-time constant (the loops are unrolled), so the compiler keeps
// the array in registers: no memory instruction at all. Element k is
// picked without indexing by k, which would put the array in local memory.
/* warpscope:
 *   N      = 4194304
 *   k      = 3
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

__global__ void staticIndex(const unsigned *in, unsigned *out, int N, int k)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;

  if (i >= N)
    return;
  unsigned x = in[i], acc = 0;
  unsigned a[WORDS];
#pragma unroll
  for (int j = 0; j < WORDS; j++)
    a[j] = hash(x + j);

#pragma unroll 1
  for (int q = 0; q < READS / WORDS; q++)
#pragma unroll
    for (int u = 0; u < WORDS; u++)
      acc += a[u];
  // a[k] with k known only at run time: every element, masked
#pragma unroll
  for (int j = 0; j < WORDS; j++)
    acc += a[j] & (0u - (unsigned) (j == k));
  out[i] = acc;
}
