#define TILE 16
const int ROWS = 8;

__global__ void reverse(int *d, int n)
{
  extern __shared__ int s[];
  int t = threadIdx.x;
  s[t] = d[t];
  __syncthreads();
  d[t] = s[n - t - 1];
}

__global__ void scale(float *x, float a, int n)
{
  int i = blockIdx.y * blockDim.x * gridDim.x + blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= a;
}

int size = 96;

void run(float *x, int n)
{
  scale<<<(n + 255) / 256, 256>>>(x, 2.0f, n);
}

int main(int argc, char **argv)
{
  const int n = 64;
  int *d_d, m = atoi(argv[1]);
  float *x;
  cudaMalloc(&d_d, n * sizeof(int));
  dim3 block(TILE, ROWS), grid = dim3(2, (size + block.y - 1) / block.y);
  m += 2;
  reverse<<<1, n, n * sizeof(int)>>>(d_d, n);
  scale<<<grid, block>>>(x, 0.5f, size * m);
  return 0;
}
