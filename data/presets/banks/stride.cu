// Shared-memory banks, a stride sweep: lane k reads word k * stride of a
// shared array, `loads` times. Shared memory has 32 banks of 4 bytes: an
// even stride folds the lanes onto fewer banks (2 wavefronts at stride 2,
// 4 at 4, 32 at 32), an odd one hits every bank once.
// Each of the 32 loads of a round is 32 words further on (the same bank
// for every lane), and the loads are volatile, so that the compiler keeps
// every one of them. The real kernel reads with inline PTX
// (ld.volatile.shared); here a volatile pointer says the same in C.
/* warpscope:
 *   stride = 1
 *   loads  = 4096
 *   grid   = 132
 *   block  = 256
 *   out[132 * 256] = 0
 */
#define WORDS  8192   // indices wrap here
#define UNROLL 32     // loads a round

__global__ void bankStride(unsigned *out, int stride, int loads)
{
  __shared__ unsigned s[WORDS + UNROLL * 32];
  volatile unsigned *v = s;
  unsigned acc = 0;

  for (int k = threadIdx.x; k < WORDS + UNROLL * 32; k += blockDim.x)
    s[k] = k * 2654435761u;
  __syncthreads();

  int idx = (threadIdx.x * stride) & (WORDS - 1);
  for (int r = 0; r < loads; r += UNROLL)
#pragma unroll
    for (int u = 0; u < UNROLL; u++)
      acc += v[idx + u * 32];
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
