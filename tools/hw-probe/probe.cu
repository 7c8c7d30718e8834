// Probe: how does the H100 count sectors/requests/wavefronts for table-driven accesses?
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <string>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("ERR %s at %d: %s\n", #x, __LINE__, cudaGetErrorString(e)); exit(1);} } while (0)

template <typename T> __device__ __forceinline__ void acc(T &s, T v);
template <> __device__ __forceinline__ void acc(float &s, float v) { s += v; }
template <> __device__ __forceinline__ void acc(char &s, char v) { s += v; }
template <> __device__ __forceinline__ void acc(short &s, short v) { s += v; }
template <> __device__ __forceinline__ void acc(float2 &s, float2 v) { s.x += v.x; s.y += v.y; }
template <> __device__ __forceinline__ void acc(float4 &s, float4 v) { s.x += v.x; s.y += v.w; }

template <typename T> __global__ void shld (const int *off, T *out, int n)
{
  extern __shared__ __align__(16) unsigned char sm[];
  T *s = (T *) sm;
  int t = threadIdx.x;
  // init with a different instruction class (stores)
  for (int i = t; i < n; i += blockDim.x) s[i] = T();
  __syncthreads ();
  T v = T();
  int o = off[t];
  if (o >= 0) v = s[o];
  out[t] = v;
}
template <typename T> __global__ void glld (const int *off, const T *in, T *out)
{
  int t = threadIdx.x; int o = off[t];
  T v = T();
  if (o >= 0) v = in[o];
  out[t] = v;
}
template <typename T> __global__ void glst (const int *off, T *out)
{
  int t = threadIdx.x; int o = off[t];
  if (o >= 0) out[o] = T();
}
template <typename T> __global__ void shst (const int *off, T *out, int n)
{
  extern __shared__ __align__(16) unsigned char sm[];
  T *s = (T *) sm;
  int t = threadIdx.x; int o = off[t];
  if (o >= 0) s[o] = T();
  __syncthreads ();
  if (t == 0) out[0] = s[0];
}
__constant__ int cdata[8192];
__global__ void cld (const int *off, int *out)
{
  int t = threadIdx.x; int o = off[t];
  out[t] = cdata[o];
}
template <typename T, int N> __global__ void lcl (const int *off, T *out)
{
  T a[N];
  int t = threadIdx.x;
  #pragma unroll
  for (int i = 0; i < N; i++) a[i] = out[(i + t) % 64];
  int o = off[t];
  out[t] = a[o];
}
__global__ void gatom (const int *off, int *out)
{
  int t = threadIdx.x; int o = off[t];
  atomicAdd (&out[o], 1);
}
__global__ void satom (const int *off, int *out)
{
  __shared__ int s[4096];
  int t = threadIdx.x;
  for (int i = t; i < 4096; i += blockDim.x) s[i] = 0;
  __syncthreads ();
  atomicAdd (&s[off[t]], 1);
  __syncthreads ();
  if (t < 32) out[t] = s[t];
}

static std::vector<std::pair<std::string, std::vector<int>>> pats (int maxel)
{
  std::vector<std::pair<std::string, std::vector<int>>> p;
  auto add = [&] (std::string n, auto f) { std::vector<int> v(32); for (int l = 0; l < 32; l++) v[l] = f(l); p.push_back({n, v}); };
  int strides[] = {1, 2, 3, 4, 8, 16, 17, 32, 33};
  for (int s : strides) add ("stride" + std::to_string(s), [=](int l) { return l * s; });
  add ("offset1", [](int l) { return l + 1; });
  add ("bcast", [](int l) { return 0; });
  add ("mod16", [](int l) { return l % 16; });
  add ("mod8", [](int l) { return l % 8; });
  add ("mod4", [](int l) { return l % 4; });
  add ("div2", [](int l) { return l / 2; });
  add ("div4", [](int l) { return l / 4; });
  add ("rev", [](int l) { return 31 - l; });
  add ("xor1", [](int l) { return l ^ 1; });
  add ("xor16", [](int l) { return l ^ 16; });
  add ("xor8", [](int l) { return l ^ 8; });
  add ("perm", [](int l) { return (l * 7 + 3) % 32; });
  add ("even_active", [](int l) { return l % 2 ? -1 : l; });
  add ("first8", [](int l) { return l < 8 ? l : -1; });
  add ("halves_far", [](int l) { return l < 16 ? l : l + 64; });
  add ("halves_swapped", [](int l) { return l < 16 ? l + 16 : l - 16; });
  add ("quarters_rev", [](int l) { return (3 - l / 8) * 8 + l % 8; });
  add ("q0q1same", [](int l) { return l < 16 ? l % 8 : l; });
  add ("stride2_mod16", [](int l) { return (l % 16) * 2; });
  add ("lane_x8_mod", [](int l) { return (l * 8) % 64 + l / 8; });
  add ("two_per_bank", [](int l) { return (l % 16) + (l / 16) * 32; });
  add ("bank0_4", [](int l) { return (l % 4) * 32; });
  for (auto &q : p) for (auto &x : q.second) if (x >= maxel) x = x % maxel;
  return p;
}

int main ()
{
  int *doff; CK (cudaMalloc (&doff, 32 * sizeof (int)));
  void *dbuf; CK (cudaMalloc (&dbuf, 1 << 20)); CK (cudaMemset (dbuf, 0, 1 << 20));
  void *dout; CK (cudaMalloc (&dout, 1 << 20)); CK (cudaMemset (dout, 0, 1 << 20));
  auto P = pats (4096);
  auto run = [&] (const char *kind, auto launch) {
    for (auto &q : P) {
      CK (cudaMemcpy (doff, q.second.data (), 128, cudaMemcpyHostToDevice));
      printf ("LAUNCH %s %s\n", kind, q.first.c_str ());
      launch ();
      CK (cudaGetLastError ()); CK (cudaDeviceSynchronize ());
    }
  };
  CK (cudaFuncSetAttribute (shld<char>, cudaFuncAttributeMaxDynamicSharedMemorySize, 65536));
  CK (cudaFuncSetAttribute (shld<short>, cudaFuncAttributeMaxDynamicSharedMemorySize, 65536));
  CK (cudaFuncSetAttribute (shld<float>, cudaFuncAttributeMaxDynamicSharedMemorySize, 65536));
  CK (cudaFuncSetAttribute (shld<float2>, cudaFuncAttributeMaxDynamicSharedMemorySize, 65536));
  CK (cudaFuncSetAttribute (shst<float>, cudaFuncAttributeMaxDynamicSharedMemorySize, 65536));
  CK (cudaFuncSetAttribute (shst<float2>, cudaFuncAttributeMaxDynamicSharedMemorySize, 65536));
  run ("shld1", [&] { shld<char><<<1, 32, 65536>>> (doff, (char *) dout, 4096); });
  run ("shld2", [&] { shld<short><<<1, 32, 65536>>> (doff, (short *) dout, 4096); });
  run ("shld4", [&] { shld<float><<<1, 32, 65536>>> (doff, (float *) dout, 4096); });
  run ("shld8", [&] { shld<float2><<<1, 32, 65536>>> (doff, (float2 *) dout, 4096); });
  CK (cudaFuncSetAttribute (shld<float4>, cudaFuncAttributeMaxDynamicSharedMemorySize, 65536 + 4096));
  run ("shld16", [&] { shld<float4><<<1, 32, 65536 + 4096>>> (doff, (float4 *) dout, 4096); });
  run ("shst4", [&] { shst<float><<<1, 32, 65536>>> (doff, (float *) dout, 4096); });
  run ("shst8", [&] { shst<float2><<<1, 32, 65536>>> (doff, (float2 *) dout, 4096); });
  CK (cudaFuncSetAttribute (shst<float4>, cudaFuncAttributeMaxDynamicSharedMemorySize, 65536 + 4096));
  run ("shst16", [&] { shst<float4><<<1, 32, 65536 + 4096>>> (doff, (float4 *) dout, 4096); });
  run ("glld1", [&] { glld<char><<<1, 32>>> (doff, (char *) dbuf, (char *) dout); });
  run ("glld2", [&] { glld<short><<<1, 32>>> (doff, (short *) dbuf, (short *) dout); });
  run ("glld4", [&] { glld<float><<<1, 32>>> (doff, (float *) dbuf, (float *) dout); });
  run ("glld8", [&] { glld<float2><<<1, 32>>> (doff, (float2 *) dbuf, (float2 *) dout); });
  run ("glld16", [&] { glld<float4><<<1, 32>>> (doff, (float4 *) dbuf, (float4 *) dout); });
  run ("glst4", [&] { glst<float><<<1, 32>>> (doff, (float *) dout); });
  run ("glst16", [&] { glst<float4><<<1, 32>>> (doff, (float4 *) dout); });
  auto P2 = P; for (auto &q : P) for (auto &x : q.second) if (x < 0) x = 0;
  run ("const4", [&] { cld<<<1, 32>>> (doff, (int *) dout); });
  for (auto &q : P) for (auto &x : q.second) x = x % 64;
  run ("local4", [&] { lcl<float, 64><<<1, 32>>> (doff, (float *) dout); });
  run ("local8", [&] { lcl<float2, 64><<<1, 32>>> (doff, (float2 *) dout); });
  run ("local16", [&] { lcl<float4, 64><<<1, 32>>> (doff, (float4 *) dout); });
  run ("gatom", [&] { gatom<<<1, 32>>> (doff, (int *) dout); });
  run ("satom", [&] { satom<<<1, 32>>> (doff, (int *) dout); });
  printf ("DONE\n");
  return 0;
}
