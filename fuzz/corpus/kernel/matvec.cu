// Matrix-vector products y = A x for a row-major n x n matrix, the two ways
// every course shows them: one thread per row walking along its row (lanes
// read addresses n floats apart: one sector each), and one thread per
// column of A^T's layout, where consecutive lanes read consecutive floats.
/* warpscope:
 *   kernel = matvec_rows
 *   n = 4096
 *   grid = (n + 255) / 256
 *   block = 256
 *   A[n * n] = (i % 13) * 0.5
 *   x[n] = 1
 *   y[n] = 0
 */

__global__ void matvec_rows(const float *A, const float *x, float *y, int n)
{
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < n) {
    float sum = 0.0f;
    for (int k = 0; k < n; k++)
      sum += A[row * n + k] * x[k];
    y[row] = sum;
  }
}

// A stored column-major (A[k * n + row] is A(row, k)): the lanes of a warp
// read neighbouring floats at every k.
__global__ void matvec_cols(const float *A, const float *x, float *y, int n)
{
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < n) {
    float sum = 0.0f;
    for (int k = 0; k < n; k++)
      sum += A[k * n + row] * x[k];
    y[row] = sum;
  }
}
