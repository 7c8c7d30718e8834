// The tiled matrix multiplication of Kirk and Hwu, "Programming Massively
// Parallel Processors" (chapter 5), written out again as the book gives it:
// each block computes a TILE_WIDTH x TILE_WIDTH tile of Pd from tiles of Md
// and Nd staged in shared memory.
/* warpscope:
 *   Width = 256
 *   grid = Width / TILE_WIDTH, Width / TILE_WIDTH
 *   block = TILE_WIDTH, TILE_WIDTH
 *   Md[Width * Width] = (i % 17) * 0.25
 *   Nd[Width * Width] = (i % 5) * 0.5
 *   Pd[Width * Width] = 0
 */
#define TILE_WIDTH 16

__global__ void MatrixMulKernel(float* Md, float* Nd, float* Pd, int Width)
{
  __shared__ float Mds[TILE_WIDTH][TILE_WIDTH];
  __shared__ float Nds[TILE_WIDTH][TILE_WIDTH];

  int bx = blockIdx.x;  int by = blockIdx.y;
  int tx = threadIdx.x; int ty = threadIdx.y;

  // Identify the row and column of the Pd element to work on
  int Row = by * TILE_WIDTH + ty;
  int Col = bx * TILE_WIDTH + tx;

  float Pvalue = 0;
  // Loop over the Md and Nd tiles required to compute the Pd element
  for (int m = 0; m < Width/TILE_WIDTH; ++m) {
    // Collaborative loading of Md and Nd tiles into shared memory
    Mds[ty][tx] = Md[Row*Width + (m*TILE_WIDTH + tx)];
    Nds[ty][tx] = Nd[(m*TILE_WIDTH + ty)*Width + Col];
    __syncthreads();

    for (int k = 0; k < TILE_WIDTH; ++k)
      Pvalue += Mds[ty][k] * Nds[k][tx];
    __syncthreads();
  }
  Pd[Row*Width+Col] = Pvalue;
}
