// warpscope: grid = 2; block = 32; v[64] = i; out[64] = 0; p[64] = i * 0.5
struct __align__(16) P { float x, y, z, w; };
typedef struct __global__{ int a; short b; char c; } S;
__device__ float dot(float4 a, float4 b) { return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w; }
__global__ void k(const float4 *v, float *out, P *p, S *s) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  float4 a = v[t];
  out[t] = dot(a, make_float4(1, 2, 3, 4)) + p[t].y;
  P q = p[t]; q.w = -q.x; p[t] = q;
  s[t].b = (short) t; s[t].c = 'x';
}
