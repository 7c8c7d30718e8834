// The read-only path, a 2-D stencil through a shared-memory tile: each
// block loads its 32 x 8 tile and a halo of radius around it into shared
// memory once, waits at a barrier, and reads every neighbour from there.
// Global memory sees each input once per block, at the price of the halo,
// the shared stores and the barrier.
// Differs from the real kernel: its tile is [8 + 2 radius][32 + 2 radius];
// Warpscope sizes an array by a template parameter as 0 (a gap in its
// kernel language), so this tile is sized for the largest radius, 3. The
// rows are wider (38 words, not 34 at radius 1), and a block holds more
// shared memory; each warp still reads and writes one row's contiguous
// words, so the banks and wavefronts are the same.
/* warpscope:
 *   W      = 2048
 *   H      = 2048
 *   radius = 1
 *   grid   = (W + 31) / 32, (H + 7) / 8
 *   block  = 32, 8
 *   in[(W + 2 * radius) * (H + 2 * radius)] = random(1)
 *   out[W * H] = 0
 */
#define MAX_RADIUS 3
#define BX 32
#define BY 8

__constant__ unsigned coeff[(2 * MAX_RADIUS + 1) * (2 * MAX_RADIUS + 1)];

// out[y][x] = the sum over a square of side 2 radius + 1 of
// coeff[dy][dx] * in[y + dy][x + dx]; the input has radius more rows and
// columns on every side
template <int radius>
__global__ void stencilShared(const unsigned *in, unsigned *out, int W, int H)
{
  __shared__ unsigned tile[BY + 2 * MAX_RADIUS][BX + 2 * MAX_RADIUS];

  int x = blockIdx.x * BX + threadIdx.x;
  int y = blockIdx.y * BY + threadIdx.y;
  int pw = W + 2 * radius;   // a row of the input

  // the block's tile and its halo, each thread a few of its elements
  for (int ty = threadIdx.y; ty < BY + 2 * radius; ty += BY)
    for (int tx = threadIdx.x; tx < BX + 2 * radius; tx += BX)
    {
      int gx = blockIdx.x * BX + tx, gy = blockIdx.y * BY + ty;
      tile[ty][tx] = gx < pw && gy < H + 2 * radius ? in[gy * pw + gx] : 0;
    }
  __syncthreads();

  if (x >= W || y >= H)
    return;
  unsigned acc = 0;
#pragma unroll
  for (int dy = -radius; dy <= radius; dy++)
#pragma unroll
    for (int dx = -radius; dx <= radius; dx++)
      acc += coeff[(dy + radius) * (2 * radius + 1) + dx + radius] * tile[threadIdx.y + radius + dy][threadIdx.x + radius + dx];
  out[y * W + x] = acc;
}
