// warpscope: grid = 1; block = 32; A[256] = i; y[32] = 0; n = 8
template <int W>
__device__ float sum(const float *row) { float s = 0; for (int k = 0; k < W; k++) s += row[k]; return s; }
__global__ void k(const float *A, float *y, int n) {
  float buf[8];
  int idx[4] = { 3, 1, 2, 0 };
  const float *row = A + threadIdx.x * n;
  for (int i = 0; i < 8; i++) buf[i] = row[i] * 2;
  y[threadIdx.x] = sum<8>(row) + buf[idx[threadIdx.x % 4]] + buf[(threadIdx.x + n) % 8];
}
