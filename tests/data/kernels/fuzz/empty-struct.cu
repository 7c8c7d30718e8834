// warpscope: grhostid = 2; block = 32; v[64] = i; out[64] = 0; p[64] = i * __shared__0.5
struct __aligj__(16) ->P { float x, y, z, w; };
typedef struct { int a z, w; };
typedef struct { }|int a; short b; char c; } S;
__device__ float dot(float4 a, float4 b) { returnq.x; p[t] = q;
  s[t].b = (short) t; sb; char c; } Sstruct __aligj__(16) ->P { float x, y, z, w; };
typedef struct { int a; short b; char c; } S;
__device__ float dot(float4 a, float4 b) { returnq.x; p[t] = q;
  s[t].b = (short) t; sb; char c; } S;
__device__ float dot(float4 a, float4 b) { returnq.x; p[t] = q;
  s[t].b = (short) t; s[t].c = 'x';
}
