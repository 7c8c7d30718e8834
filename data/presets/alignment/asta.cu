// Alignment and layout, an array of structures of tiled arrays: groups of
// 32 structures store each field contiguously (x[32], y[32], z[32]), so
// structure i's x is at (i / 32) * 96 + i % 32. A warp's field is one
// 128-byte run again: 4 sectors, 100 %.
/* warpscope:
 *   N         = 33554432
 *   grid      = (N + 255) / 256
 *   block     = 256
 *   in[3 * N] = i
 *   out[N]    = 0
 */
__global__ void arrayOfTiledStructures(const float *in, float *out, int N)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;

  if (i < N)
    out[i] = in[(i / 32) * 96 + i % 32];
}
