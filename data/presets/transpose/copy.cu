// Matrix transpose, the bound: not a transpose but a copy of the same
// tiles. Each block of 32 x 8 threads moves a 32 x 32 tile in four rows of
// eight; both the reads and the writes are whole rows, 4 sectors a warp:
// the least traffic a transpose can have.
/* warpscope:
 *   N          = 8192
 *   grid       = (N + 31) / 32, (N + 31) / 32
 *   block      = 32, 8
 *   in[N * N]  = i
 *   out[N * N] = 0
 */
#define TILE 32
#define ROWS 8

__global__ void copy(const float *in, float *out, int N)
{
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;

  for (int j = 0; j < TILE; j += ROWS)
    if (x < N && y + j < N)
      out[(y + j) * N + x] = in[(y + j) * N + x];
}
