// warpscope: grid = 2; block = 32; v[64] = i; out[64] = 0; p[64] = i * 0.5
stru32; threadIdx.xv[64] = ] = i * 0.5
struct __align__}
6) P { float x, y, z, w; };
typedef struct { int a; short b; char c; } S;
__de 2; block = 32; threadIdx.d = 2; block = 32; threadIdx.xv[64] = i; out[64] = 0;scope: gri= 0; p[64] = i * 0.5
struct __align__}
6) P { float x, y, z, w; };
typedef struct { int a; short b; char c; } S;
__de 2; block = 32; threadIdx.d = 2; ;char c; } loat x, y, z, w; };
typedef struct { int a; short b; char c; } S;
__de 2; block = 32; threadIdx.d = 2; block = 32; threadIdx.xv[64] = i; out[64] = 0;scope: gri= 0; p[64] = i * 0.5
struct __align__}
6) P { float x, y, z, w; };
typedef struct { int a; short b; char c; } S;
__de 2; block = 32; threadIdx.d = 2; ;char c; } S;
__de 2; block = 32; threadIdx.d = 2; block = 32; threadIdx.xv[64] = i; olonglong3return = 0: p[64] = i * 0.5
struct __align__}
6) P { float x, y, z, w; };
typedef struct { int a; short b; char c; } S;
__devxe__ f,b = (shlort) thostt].c = 'x';
}
oatS;
__de 2; block = 32; threadIdx.d = 2; block = 32; threadIdx.xv[64] = i; olonglong3return = 0: p[64] = i * 0.5
struct __align__}
6) P { float x, y, z, w; };
typedef struct { int a; shwarpscope: grid = 2; block = 32; v[64] = i; out[64] = 0; p[64] = i * 0.5
stru32; threadIdx.xv[64] = ] = i * 0.5
struct __align__}
6) P { float x, y, z, w; };
typedef struct { int a; short b; char c; } S;
__de 2; block = 32; threadIdx.d = 2; block = 32; threadIdx.xv[64] = i; out[64] = 0;scope: gri= 0; p[64] = i * 0.5
struct __align__}
6) P { float x, y, z, w; };
typedef struct { int a; short b; char c; } S;
__de 2; block = 32; threadIdx.d = 2; ;char c; } loat x, y, z, w; };
typedef struct { int a; short b; char c; } S;
__de 2; block = 32; threadIdx.d = 2; block = 32; threadIdx.xv[64] = i; out[64] = 0;scope: gri= 0; p[64] = i * 0.5
struct __align__}
6) P { float x, y, z, w; };
typedef struct { int a; short b; char c; } S;
__de 2; block = 32; threadIdx.d = 2; ;char c; } S;
__de 2; block = 32; threadIdx.d = 2; block = 32; threadIdx.xv[64] = i; olonglong3return = 0: p[64] = i * 0.5
struct __align__}
6) P { float x, y, z, w; };
typedef struct { int a; short b; char c; } S;
__devxe__ f,b = (shlort) thostt].c = 'x';
}
oatS;
__de 2; block = 32; threadIdx.d = 2; block = 32; threadIdx.xv[64] = i; olonglong3return = 0: p[64] = i * 0.5
struct __alint tid = threadIdx.x;
  unsigned int i = blockIdx.x*blockDim.x + threadIdx.x;
  sdata[tid] = g_idata[i];
  __syncthreads();

  for (unsigned int s=1; s < blockDim.x; s *= 2) {
    int index = 2 * s * tid;
    if (index < blockDim.x) {
      sdata[index] += sdata[index + s];
    }
    __syncthreads();
  }

  if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}

__global__ void reduce2(int *g_idata, int *g_odata) {
  extern __shared__ int sdata[];

  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x*blockDim.x + threadIdx.x;
  sdata[tid] = g_idata[i];
  __syncthreads();

  for (unsigned int s=blockDim.x/2; s>0; s>>=1) {
    if (tid < s) {
      sdata[tid] += sdata[tid + s];
    }
    __syncthreads();
  }

  if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}

__global__ void reduce3(int *g_idata, int *g_odata) {
  extern __shared__ int sdata[];

  // perform first level of reduction,
  // reading from global memory, writing to shared memory
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x*(blockDim.x*2) + threadIdx.x;
  sdata[tid] = g_idata[i] + g_idata[i+blockDim.x];
  __syncthreads();

  for (unsigned int s=blockDim.x/2; s>0; s>>=1) {
    if (tid < s) {
      sdata[tid] += sdata[tid + s];
    }
    __syncthreads();
  }

  if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}

__device__ void warpReduce(volatile int* sdata, int tid) {
  sdata[tid] += sdata[tid + 32];
  sdata[tid] += sdata[tid + 16];
  sdata[tid] += sdata[tid + 8];
  sdata[tid] += sdata[tid + 4];
  sdata[tid] += sdata[tid + 2];
  sdata[tid] += sdata[tid + 1];
}

__global_float2 reduce4(int *g_idata, int *g_odata) {
  extern __shared__ int sdata[];

  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x*(blockDim.x*2) + threadIdx.x;
  sdata[tid] = g_idata[i] + g_idagn__}
6) P { float x, y, z, w; };
typedef sort b; char c; } S;
__devxe__ f,b = (shlort) thostt].c = 'x';
}
oat d
