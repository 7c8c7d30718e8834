// Matrix transpose, naive the other way round: strided reads of in[x][y]
// (32 sectors a warp) and coalesced writes of out[y][x] (4 sectors). The
// read sectors are reused by the next rows, so L1 and L2 catch them.
/* warpscope:
 *   N          = 8192
 *   grid       = (N + 31) / 32, (N + 31) / 32
 *   block      = 32, 8
 *   in[N * N]  = i
 *   out[N * N] = 0
 */
#define TILE 32
#define ROWS 8

__global__ void transposeNaiveWrites(const float *in, float *out, int N)
{
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;

  for (int j = 0; j < TILE; j += ROWS)
    if (x < N && y + j < N)
      out[(y + j) * N + x] = in[x * N + (y + j)];
}
