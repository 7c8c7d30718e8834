// Matrix transpose with coalesced writes and its strided reads through
// the read-only path (__ldg): the same sectors as the plain naive
// transpose, cached by the read-only (texture) path.
/* warpscope:
 *   N          = 8192
 *   grid       = (N + 31) / 32, (N + 31) / 32
 *   block      = 32, 8
 *   in[N * N]  = i
 *   out[N * N] = 0
 */
#define TILE 32
#define ROWS 8

__global__ void transposeLdg(const float *in, float *out, int N)
{
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;

  for (int j = 0; j < TILE; j += ROWS)
    if (x < N && y + j < N)
      out[(y + j) * N + x] = __ldg(&in[x * N + (y + j)]);
}
