// Matrix transpose through a padded shared-memory tile: one extra word
// per row (tile[32][33]) shifts each row by one bank, so a column touches
// all 32 banks: 1 wavefront instead of 32.
/* warpscope:
 *   N          = 8192
 *   grid       = (N + 31) / 32, (N + 31) / 32
 *   block      = 32, 8
 *   in[N * N]  = i
 *   out[N * N] = 0
 */
#define TILE 32
#define ROWS 8

__global__ void transposePadded(const float *in, float *out, int N)
{
  __shared__ float tile[TILE][TILE + 1];

  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;

  for (int j = 0; j < TILE; j += ROWS)
    if (x < N && y + j < N)
      tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * N + x];

  __syncthreads();

  // the tile's column becomes a row of out
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;

  for (int j = 0; j < TILE; j += ROWS)
    if (x < N && y + j < N)
      out[(y + j) * N + x] = tile[threadIdx.x][threadIdx.y + j];
}
