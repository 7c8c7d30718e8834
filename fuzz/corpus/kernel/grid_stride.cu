// SAXPY with a grid-stride loop, as Mark Harris's "CUDA Pro Tip: Write
// Flexible Kernels with Grid-Stride Loops" (NVIDIA Developer Blog, 2013)
// writes it: any grid covers any n.
/* warpscope:
 *   n = 1 << 22
 *   a = 2.0
 *   grid = 256
 *   block = 256
 *   x[n] = i
 *   y[n] = 1
 */
__global__
void saxpy(int n, float a, float *x, float *y)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x;
         i < n;
         i += blockDim.x * gridDim.x)
      {
          y[i] = a * x[i] + y[i];
      }
}
