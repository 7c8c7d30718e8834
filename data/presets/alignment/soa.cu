// Alignment and layout, a structure of arrays: the field x stored as an
// array of its own, so consecutive lanes read consecutive floats: 4
// sectors, 100 %.
/* warpscope:
 *   N      = 33554432
 *   grid   = (N + 255) / 256
 *   block  = 256
 *   x[N]   = i
 *   out[N] = 0
 */
__global__ void structureOfArrays(const float *x, float *out, int N)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;

  if (i < N)
    out[i] = x[i];
}
