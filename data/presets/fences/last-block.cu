// Fences, a last-block reduction without a fence (threadFenceReduction
// of the CUDA samples): every block stores its partial sums and takes a
// ticket; the block with the last ticket adds up the partial sums of all
// 16 blocks of its problem. Without __threadfence() between the stores and
// the ticket nothing promises that another block's stores are visible
// when its ticket is: __syncthreads() orders one block's threads, not what
// other SMs see. The real kernel reads the partial sums with __ldcg (cached
// at L2 only), which Warpscope's kernel language lacks: a volatile load is
// served from L2 too. (The real kernel also compares each sum with the host's
// and counts the wrong ones; this one leaves that to whoever reads result.)
/* warpscope:
 *   N              = 8388608
 *   grid           = N / 1024
 *   block          = 256
 *   in[N]          = random(1)
 *   partial[N / 4] = 0
 *   tickets[N / 16384] = 0
 *   result[N / 16384]  = 0
 */
#define BLOCK  256
#define ITEMS  4    // elements a thread adds up
#define BLOCKS 16   // blocks a sum is shared among

__global__ void lastBlockSum(const unsigned *in, unsigned *partial, unsigned *tickets, unsigned *result)
{
  __shared__ unsigned warpSums[BLOCK / 32];
  __shared__ bool last;

  int t = threadIdx.x;
  int problem = blockIdx.x / BLOCKS;
  const unsigned *mine = in + blockIdx.x * BLOCK * ITEMS;
  unsigned sum = 0;

  for (int u = 0; u < ITEMS; u++)
    sum += mine[u * BLOCK + t];
  partial[blockIdx.x * BLOCK + t] = sum;
  __syncthreads();
  // a ticket: the block that takes the last one adds up the problem
  if (t == 0)
    last = atomicInc(&tickets[problem], BLOCKS - 1) == BLOCKS - 1;
  __syncthreads();
  if (!last)
    return;

  // read at L2, past this SM's L1 (volatile): what the last block can
  // miss is what the other blocks have not yet made visible there
  volatile unsigned *sums = partial;
  sum = 0;
  for (int b = 0; b < BLOCKS; b++)
    sum += sums[(problem * BLOCKS + b) * BLOCK + t];

  // the block's sum: each warp with shuffles, then the first warp
  for (int d = 16; d > 0; d /= 2)
    sum += __shfl_down_sync(0xffffffff, sum, d);
  if (t % 32 == 0)
    warpSums[t / 32] = sum;
  __syncthreads();
  if (t < 32)
  {
    sum = t < BLOCK / 32 ? warpSums[t] : 0;
    for (int d = 16; d > 0; d /= 2)
      sum += __shfl_down_sync(0xffffffff, sum, d);
    if (t == 0)
      result[problem] = sum;
  }
}
