__global__ void c1(const float *x, float *y) { int i = threadIdx.x;
  if (x[i] > 0)
    y[i] = x[i];
}
__global__ void c2(const float *x, float *y) { int i = threadIdx.x;
  y[i] = x[i] * x[i];
}
__global__ void c3(const float *x, float *y, float *z) { int i = threadIdx.x;
  y[i] = x[i];
  z[i] = x[i];
}
__global__ void c4(const float *x, float *y) { __shared__ float s[256]; int t = threadIdx.x;
  s[t] = x[t];
  __syncthreads();
  y[t] = s[t] + s[255 - t];
}
__global__ void c5(const float *x, float *y) { __shared__ float s[256]; int t = threadIdx.x;
  s[t] = x[t];
  y[t] = s[t] + 1;
}
__global__ void c7(const float *x, float *y) { int i = threadIdx.x;
  float v = x[i];
  if (v > 0)
    y[i] = x[i] * 2;
}
__global__ void c8(float *x) { int i = threadIdx.x;
  x[i] = x[i] + x[i + 1];
  x[i + 1] = x[i] * 2;
}
