// The read-only path, a 2-D stencil read with __ldg: the read-only path
// asked for explicitly, whatever the compiler can prove. Since Maxwell it
// shares its storage with L1, so it differs little from plain loads.
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

__constant__ unsigned coeff[(2 * MAX_RADIUS + 1) * (2 * MAX_RADIUS + 1)];

// out[y][x] = the sum over a square of side 2 radius + 1 of
// coeff[dy][dx] * in[y + dy][x + dx]; the input has radius more rows and
// columns on every side, so no thread needs a bounds check
template <int radius>
__global__ void stencilLdg(const unsigned *in, unsigned *out, int W, int H)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int pw = W + 2 * radius;   // a row of the input

  if (x >= W || y >= H)
    return;
  const unsigned *centre = in + (y + radius) * pw + x + radius;
  unsigned acc = 0;
#pragma unroll
  for (int dy = -radius; dy <= radius; dy++)
#pragma unroll
    for (int dx = -radius; dx <= radius; dx++)
      acc += coeff[(dy + radius) * (2 * radius + 1) + dx + radius] * __ldg(centre + dy * pw + dx);
  out[y * W + x] = acc;
}
