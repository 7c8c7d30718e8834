#include <cstdio>
template <typename T>
__global__ void offset(T* a, int s)
{
  int i = blockDim.x * blockIdx.x + threadIdx.x + s;
  a[i] = a[i] + 1;
}
template <typename U>
void runTest(int deviceId, int nMB)
{
  int blockSize = 256;
  U *d_a;
  int n = nMB*1024*1024/sizeof(U);
  cudaMalloc(&d_a, n * 33 * sizeof(U));
  offset<<<n/blockSize, blockSize>>>(d_a, 0);
}
int main(int argc, char **argv)
{
  int nMB = 4;
  int deviceId = 0;
  runTest<float>(deviceId, nMB);
  runTest<double>(deviceId, nMB);
}
