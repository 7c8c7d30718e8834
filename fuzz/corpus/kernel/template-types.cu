/* warpscope:
 *   T = double
 *   U = float2
 *   kernel = offset
 */
template <typename T>
__global__ void offset(T* a, int s)
{
  int i = blockDim.x * blockIdx.x + threadIdx.x + s;
  a[i] = a[i] + 1;
}
template <typename U>
__device__ float sum(U v) { return v.x + v.y; }
__global__ void pairs(const float2 *in, float *out)
{
  out[threadIdx.x] = sum(in[threadIdx.x]);
}
template <typename T>
void runTest(int nMB)
{
  int n = nMB*1024*1024/sizeof(T);
  T *d_a;
  offset<<<n/256, 256>>>(d_a, 1);
}
int main() { runTest<float>(4); }
