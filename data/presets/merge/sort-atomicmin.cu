// Shared-memory merge, the block-wide merge sort with atomicMin: every
// thread offers its head to one shared word, 256 updates of one address
// per value sorted. Three words are used in turn, so that one barrier per
// step is enough: the word of step s is reset during step s + 1 (by then
// everyone has read it) and used again in step s + 3.
// Measured as a text, this kernel is compiled by NVRTC, whose code for it
// is 1.6 times slower on an H200 (0.451 ms, 25 registers) than nvcc's for
// the same printed text (0.278 ms, 18 registers) or the hand-written
// kernel it replaces (0.280 ms): NVRTC addresses shared memory in 64 bits.
/* warpscope:
 *   N      = 1048576
 *   grid   = (N + 1023) / 1024
 *   block  = 256
 *   in[N]  = random(1)
 *   out[N] = 0
 */
#define BLOCK 256
#define ITEMS 4                   // values each thread sorts
#define ELEMENTS (ITEMS * BLOCK)  // values a block sorts

__global__ void sortAtomicMin(const unsigned *in, unsigned *out, int N)
{
  __shared__ unsigned keys[ITEMS * BLOCK];
  __shared__ unsigned sorted[ELEMENTS];
  __shared__ unsigned smin[3];
  int t = threadIdx.x;
  int base = blockIdx.x * ELEMENTS;
  unsigned k[ITEMS], lo, hi;
  int pos = 0;

  // a key is the value (23 bits) above the thread's number: keys are
  // distinct, and the thread whose head is the minimum knows it is its own
  for (int u = 0; u < ITEMS; u++)
  {
    int e = base + t * ITEMS + u;
    k[u] = e < N ? (in[e] >> 9) << 8 | t : 0xffffffff;
  }
  // a sorting network of four
  lo = min(k[0], k[1]); hi = max(k[0], k[1]); k[0] = lo; k[1] = hi;
  lo = min(k[2], k[3]); hi = max(k[2], k[3]); k[2] = lo; k[3] = hi;
  lo = min(k[0], k[2]); hi = max(k[0], k[2]); k[0] = lo; k[2] = hi;
  lo = min(k[1], k[3]); hi = max(k[1], k[3]); k[1] = lo; k[3] = hi;
  lo = min(k[1], k[2]); hi = max(k[1], k[2]); k[1] = lo; k[2] = hi;
  // list position p of thread t at p * BLOCK + t: the threads' reads fall
  // in different banks
  for (int u = 0; u < ITEMS; u++)
    keys[u * BLOCK + t] = k[u];
  if (t < 3)
    smin[t] = 0xffffffff;
  unsigned head = k[0];
  __syncthreads();

  // the block merges the 256 sorted lists: ELEMENTS times, the smallest head
  for (int s = 0; s < ELEMENTS; s++)
  {
    unsigned m;
    atomicMin(&smin[s % 3], head);
    __syncthreads();
    m = smin[s % 3];
    if (t == 0)
      smin[(s + 2) % 3] = 0xffffffff;
    if (t == 0)
      sorted[s] = m >> 8;
    // the thread whose head was taken moves to its next value
    if (head == m && ++pos < ITEMS)
      head = keys[pos * BLOCK + t];
    else if (head == m)
      head = 0xffffffff;
  }
  __syncthreads();
  for (int e = t; e < ELEMENTS && base + e < N; e += BLOCK)
    out[base + e] = sorted[e];
}
