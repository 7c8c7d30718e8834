// Alignment and layout, a 2-D array without a pitch: a 1001-wide float
// matrix stored row after row. A row is 4004 bytes, so seven rows in eight
// start 4, 8 ... 28 bytes into a sector, and a warp's 32 floats touch 5
// sectors instead of 4. A width of 1000 or 1008 (a multiple of 8 floats,
// 32 bytes) puts every row on a sector again.
/* warpscope:
 *   W          = 1001
 *   H          = 32768
 *   grid       = (W + 31) / 32, (H + 7) / 8
 *   block      = 32, 8
 *   in[W * H]  = i
 *   out[W * H] = 0
 */
__global__ void copy2D(const float *in, float *out, int W, int H)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;

  if (x < W && y < H)
    out[y * W + x] = in[y * W + x];
}
