// Matrix transpose, naive: each thread reads in[y][x] along a row (4
// sectors a warp) and writes out[x][y] down a column, where every lane
// needs a sector of its own: 32 sectors a warp.
/* warpscope:
 *   N          = 8192
 *   grid       = (N + 31) / 32, (N + 31) / 32
 *   block      = 32, 8
 *   in[N * N]  = i
 *   out[N * N] = 0
 */
#define TILE 32
#define ROWS 8

__global__ void transposeNaive(const float *in, float *out, int N)
{
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;

  for (int j = 0; j < TILE; j += ROWS)
    if (x < N && y + j < N)
      out[x * N + (y + j)] = in[(y + j) * N + x];
}
