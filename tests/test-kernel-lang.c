/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The kernel language's reader, checker and printer: what reads, what is
 * refused and with which words, and that the printed CUDA reads back into
 * the same tree and compiles with nvcc. */
#include "nvcc-check.h"
#include "ws-kernel.h"

#include <glib/gstdio.h>
#include <string.h>

static char *
read_data (const char *name)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "kernels", name, NULL);
  g_autoptr (GError) error = NULL;
  char *text = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, &error));
  g_assert_no_error (error);
  return text;
}

static WsKernelFile *
parse_ok (const char *text)
{
  g_autoptr (GError) error = NULL;
  WsKernelFile *f = ws_kernel_file_parse (text, -1, "test.cu", &error);

  if (f == NULL)
    g_test_message ("%s\n%s", error->message, text);
  g_assert_no_error (error);
  g_assert_nonnull (f);
  return f;
}

/* The printed CUDA reads back into the same tree, and printing that gives
 * the same text again. */
static void
assert_round_trip (WsKernelFile *f)
{
  g_autofree char *printed = ws_kernel_file_print (f);
  g_autoptr (GError) error = NULL;
  g_autoptr (WsKernelFile) again = ws_kernel_file_parse (printed, -1, NULL, &error);
  g_autofree char *printed_again = NULL;

  if (again == NULL)
    g_test_message ("%s\n%s", error->message, printed);
  g_assert_no_error (error);
  g_assert_true (ws_kernel_file_equal (f, again));
  printed_again = ws_kernel_file_print (again);
  g_assert_cmpstr (printed, ==, printed_again);
}

/* ------------------------------------------------------------------ */
/* The course kernels                                                 */
/* ------------------------------------------------------------------ */

typedef struct
{
  const char *file;
  const char *kernels;          /* their names, in order, space-separated */
  guint host_notes;             /* host functions ignored */
} CourseFile;

static const CourseFile course_files[] = {
  { "transpose.cu", "copy transposeNaive transposeCoalesced transposeNoBankConflicts", 2 },
  { "reduction.cu", "reduce0 reduce1 reduce2 reduce3 reduce4 reduce5", 0 },
  { "stencil_1d.cu", "stencil_1d", 0 },
  { "matvec.cu", "matvec_rows matvec_cols", 0 },
  { "grid_stride.cu", "saxpy", 0 },
  { "histogram.cu", "histo_kernel", 0 },
  { "matmul_tiled.cu", "MatrixMulKernel", 0 },
  { "shuffle_reduce.cu", "deviceReduceWarpAtomicKernel deviceReduceBlockAtomicKernel", 0 },
  { "dot_product.cu", "dot", 1 },
};

static void
test_course_file (gconstpointer data)
{
  const CourseFile *c = data;
  g_autofree char *text = read_data (c->file);
  g_autoptr (WsKernelFile) f = parse_ok (text);
  g_auto (GStrv) names = g_strsplit (c->kernels, " ", -1);
  GPtrArray *diags = ws_kernel_file_get_diagnostics (f);
  guint notes = 0;

  g_assert_cmpuint (ws_kernel_file_get_n_kernels (f), ==, g_strv_length (names));
  for (guint i = 0; names[i]; i++)
    g_assert_cmpstr (ws_kernel_file_get_kernel_name (f, i), ==, names[i]);
  for (guint i = 0; i < diags->len; i++)
    {
      const WsKernelDiagnostic *d = g_ptr_array_index (diags, i);
      g_assert_cmpint (d->severity, ==, WS_KERNEL_SEVERITY_NOTE);
      if (strstr (d->message, "host function") != NULL)
        notes++;
    }
  g_assert_cmpuint (notes, ==, c->host_notes);
  assert_round_trip (f);
}

static void
test_host_notes (void)
{
  g_autofree char *text = read_data ("transpose.cu");
  g_autoptr (WsKernelFile) f = parse_ok (text);
  GPtrArray *diags = ws_kernel_file_get_diagnostics (f);
  const WsKernelDiagnostic *d;
  g_autofree char *s = NULL;

  g_assert_cmpuint (diags->len, ==, 2);
  d = g_ptr_array_index (diags, 1);
  s = ws_kernel_diagnostic_to_string (d);
  /* main launches a kernel: what it gives of the launch is read */
  g_assert_cmpstr (s, ==, "line 106, column 1: the host function “main” is not run: only its launches of kernels, and "
                          "the values they use, are read");
  g_assert_cmpuint (d->end_line, ==, 124);
  /* the other host function does not */
  d = g_ptr_array_index (diags, 0);
  g_clear_pointer (&s, g_free);
  s = ws_kernel_diagnostic_to_string (d);
  g_assert_nonnull (strstr (s, "the host function “postprocess” is ignored: only __global__ and __device__ code is read"));
}

/* ------------------------------------------------------------------ */
/* Language features that read                                        */
/* ------------------------------------------------------------------ */

typedef struct
{
  const char *name;
  const char *text;
} Feature;

static const Feature features[] = {
  { "types",
    "__global__ void k(char *c, unsigned char *uc, signed char *sc, short *s, unsigned short *us, int *i,\n"
    "                  unsigned *u, long *l, unsigned long *ul, long long *ll, unsigned long long *ull,\n"
    "                  size_t *z, float *f, double *d, bool *b, int n) {\n"
    "  c[0] = 'a'; uc[0] = 255u; sc[0] = -1; s[0] = 1; us[0] = 0xffff; i[0] = -2; u[0] = 4000000000u;\n"
    "  l[0] = 1l; ul[0] = 2ul; ll[0] = 3ll; ull[0] = 18446744073709551615ull; z[0] = sizeof (double);\n"
    "  f[0] = 1.5f; d[0] = 2.5e-3; b[0] = true; i[1] = 0x7fffffff; i[2] = 017;\n"
    "}\n" },
  { "vectors",
    "__global__ void k(float2 *a, float4 *b, int2 *c, int4 *d, double2 *e, uint2 *f, uint4 *g) {\n"
    "  int t = threadIdx.x;\n"
    "  float4 v = b[t]; v.x += 1.0f; b[t] = v;\n"
    "  a[t] = make_float2(v.y, v.z); c[t].x = d[t].w; e[t] = make_double2(1.0, 2.0);\n"
    "  f[t].y = g[t].z; float2 w = { 1.0f, 2.0f }; a[t + 1] = w;\n"
    "}\n" },
  { "structs",
    "struct Point { float x; float y; float z; };\n"
    "struct __align__(16) Particle { float4 pos; float mass; int id; };\n"
    "typedef struct { int a, b; } Pair;\n"
    "__global__ void k(Point *p, Particle *q, Pair *r) {\n"
    "  int i = threadIdx.x;\n"
    "  p[i].x = q[i].pos.y * q[i].mass; r[i].b = r[i].a + q[i].id;\n"
    "  Point c = p[i]; c.z = 0; p[i] = c;\n"
    "}\n" },
  { "loops",
    "#define N 16\n"
    "__global__ void k(int *a) {\n"
    "  int s = 0;\n"
    "  for (int i = 0; i < N; i++) { if (i == 3) continue; if (i == 9) break; s += i; }\n"
    "  int j = 0;\n"
    "  while (j < 4) j++;\n"
    "  do { j--; } while (j > 0);\n"
    "  #pragma unroll\n"
    "  for (int k = 0; k < 4; ++k) s += k;\n"
    "  #pragma unroll 2\n"
    "  for (int k = 0; k < 4; ++k) s -= k;\n"
    "  a[threadIdx.x] = s > 10 ? s : -s;\n"
    "}\n" },
  { "switch",
    "__global__ void k(int *a) {\n"
    "  switch (threadIdx.x % 4) {\n"
    "  case 0: a[0] = 1; break;\n"
    "  case 1:\n"
    "  case 2: a[1] = 2; break;\n"
    "  default: a[2] = 3;\n"
    "  }\n"
    "}\n" },
  { "shared",
    "#define T 32\n"
    "__global__ void k(float *out) {\n"
    "  __shared__ float tile[T][T + 1];\n"
    "  __shared__ int cube[2][4][8];\n"
    "  __shared__ int counter;\n"
    "  extern __shared__ float dyn[];\n"
    "  tile[threadIdx.y][threadIdx.x] = dyn[threadIdx.x];\n"
    "  cube[1][2][3] = 4; counter = 0;\n"
    "  __syncthreads();\n"
    "  out[threadIdx.x] = tile[threadIdx.x][threadIdx.y] + cube[1][2][3] + counter;\n"
    "}\n" },
  { "constant",
    "__constant__ float coef[16];\n"
    "__constant__ int scale;\n"
    "__device__ int counter[4];\n"
    "__global__ void k(float *out) {\n"
    "  out[threadIdx.x] = coef[threadIdx.x % 16] * scale;\n"
    "  atomicAdd(&counter[0], 1);\n"
    "}\n" },
  { "local",
    "__global__ void k(float *out, int n) {\n"
    "  float acc[8];\n"
    "  int idx[4] = { 1, 2, 3, 4 };\n"
    "  for (int i = 0; i < 8; i++) acc[i] = i;\n"
    "  out[threadIdx.x] = acc[n % 8] + idx[threadIdx.x % 4];\n"
    "}\n" },
  { "sync",
    "__global__ void k(int *a) {\n"
    "  __syncthreads(); __syncwarp(); __syncwarp(0xffffffff);\n"
    "  __threadfence_block(); __threadfence(); __threadfence_system();\n"
    "}\n" },
  { "atomics",
    "__global__ void k(int *i, unsigned int *u, float *f, unsigned long long *ull, double *d) {\n"
    "  __shared__ int s[32];\n"
    "  int old = atomicAdd(&i[0], 1); atomicSub(i + 1, 2); atomicMin(&i[2], 3); atomicMax(&i[3], old);\n"
    "  atomicExch(&i[4], 5); atomicCAS(&i[5], 0, 1); atomicAnd(&u[0], 1u); atomicOr(&u[1], 2u);\n"
    "  atomicXor(&u[2], 3u); atomicInc(&u[3], 10u); atomicDec(&u[4], 10u); atomicAdd(&f[0], 1.5f);\n"
    "  atomicAdd(&ull[0], 1ull); atomicAdd(&d[0], 2.0); atomicAdd(&s[threadIdx.x % 32], 1);\n"
    "}\n" },
  { "warp",
    "__global__ void k(float *a, unsigned *m) {\n"
    "  float v = a[threadIdx.x];\n"
    "  for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);\n"
    "  v += __shfl_sync(0xffffffff, v, 0) + __shfl_up_sync(0xffffffff, v, 1) + __shfl_xor_sync(0xffffffff, v, 1, 16);\n"
    "  unsigned b = __ballot_sync(0xffffffff, v > 0);\n"
    "  m[threadIdx.x] = b + __any_sync(0xffffffff, v > 1) + __all_sync(0xffffffff, v > 2) + __activemask();\n"
    "  m[0] = __popc(b) + __clz(b) + __ffs(b) + __popcll(1ull) + __brev(b);\n"
    "  a[threadIdx.x] = v;\n"
    "}\n" },
  { "ldg-math",
    "__global__ void k(const float * __restrict__ in, float *out, double *d) {\n"
    "  int i = threadIdx.x;\n"
    "  float x = __ldg(&in[i]);\n"
    "  out[i] = sqrtf(x) + expf(x) + __expf(x) + rsqrtf(x) + floorf(x) + fabsf(x) + fminf(x, 1.0f) + fmaxf(x, 0.0f)\n"
    "           + __fdividef(x, 2.0f) + fmaf(x, x, 1.0f) + powf(x, 2.0f) + sinf(x) + logf(x + 1.0f);\n"
    "  d[i] = sqrt(d[i]) + exp(d[i]) + fabs(d[i]) + fma(d[i], 2.0, 1.0) + floor(d[i]);\n"
    "  out[i + 1] = min(i, 3) + max(i, 4) + abs(-i) + __float2int_rn(x) + __int_as_float(__float_as_int(x));\n"
    "}\n" },
  { "casts",
    "__global__ void k(float *a, int *b) {\n"
    "  int i = threadIdx.x;\n"
    "  a[i] = (float) i / 2 + static_cast<float>(b[i]) + float(i) + (double) 1 / 3;\n"
    "  b[i] = (int) a[i] + (unsigned char) 300 + (short) -1;\n"
    "  float4 *v = reinterpret_cast<float4 *>(a);\n"
    "  v[1].x = 0;\n"
    "}\n" },
  { "pointers",
    "__global__ void k(const float *A, float *y, int n) {\n"
    "  const float *row = A + blockIdx.x * n;\n"
    "  float s = 0;\n"
    "  for (int k = 0; k < n; k++) s += row[k] + *(row + k);\n"
    "  float *out = y + 1;\n"
    "  *out = s; out[-1] = s; out++; *out = 0;\n"
    "}\n" },
  { "device-functions",
    "__device__ float square(float x) { return x * x; }\n"
    "__device__ __forceinline__ int clamp(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }\n"
    "__device__ void store(float *p, int i, float v) { if (i < 0) return; p[i] = v; }\n"
    "__global__ void k(float *a, int n) {\n"
    "  int i = clamp(threadIdx.x, 0, n - 1);\n"
    "  store(a, i, square(a[i]));\n"
    "}\n" },
  { "templates",
    "template <unsigned int blockSize>\n"
    "__device__ void add(volatile int *s, int t) { if (blockSize >= 64) s[t] += s[t + 32]; }\n"
    "template <int W>\n"
    "__global__ void k(int *a) {\n"
    "  __shared__ int s[W];\n"
    "  s[threadIdx.x] = a[threadIdx.x];\n"
    "  if (threadIdx.x < 32) add<W>(s, threadIdx.x);\n"
    "  a[threadIdx.x] = s[threadIdx.x];\n"
    "}\n" },
  { "preprocessor",
    "#include <cuda_runtime.h>\n"
    "#include \"helper.h\"\n"
    "#define BLOCK 256\n"
    "#define HALF (BLOCK / 2)\n"
    "#define IDX(r, c, w) ((r) * (w) + (c))\n"
    "#ifndef BLOCK\n"
    "#error no block\n"
    "#endif\n"
    "#if BLOCK > 128 && defined(HALF)\n"
    "#define WIDE 1\n"
    "#else\n"
    "#define WIDE 0\n"
    "#endif\n"
    "#pragma once\n"
    "extern \"C\" __global__ void k(float *a, int w) {\n"
    "  a[IDX(blockIdx.x, threadIdx.x, w)] = HALF + WIDE;\n"
    "#ifdef __CUDA_ARCH__\n"
    "  a[0] = __CUDA_ARCH__;\n"
    "#endif\n"
    "}\n" },
  { "host-templates",
    "template <int VARIANT>\n"
    "static cudaError_t launch (const unsigned *in, unsigned *out, cudaStream_t stream) { return cudaSuccess; }\n"
    "template <typename T> T twice (T x) { return 2 * x; }\n"
    "__global__ void k(float *a) { a[threadIdx.x] = 1; }\n" },
  { "several-kernels",
    "__global__ void first(float *a) { a[threadIdx.x] = 1; }\n"
    "__global__ void second(float *a) { a[threadIdx.x] = 2; }\n" },
  { "extern-c-block",
    "extern \"C\" {\n"
    "__global__ void k(float *a) { a[0] = 1; }\n"
    "}\n" },
  { "volatile-warp-sync",
    "__global__ void k(int *g) {\n"
    "  __shared__ int s[64];\n"
    "  volatile int *v = s;\n"
    "  unsigned tid = threadIdx.x;\n"
    "  s[tid] = g[tid];\n"
    "  if (tid < 32) { v[tid] += v[tid + 32]; v[tid] += v[tid + 16]; }\n"
    "  if (tid == 0) g[0] = s[0];\n"
    "}\n" },
  { "typedefs-and-stdint",
    "#include <stdint.h>\n"
    "typedef float real;\n"
    "typedef unsigned int uint32;\n"
    "__global__ void k(real *a, uint32_t *b, int64_t n, uint8_t *c) {\n"
    "  auto i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) { a[i] = (real) b[i]; c[i] = (uint8_t) i; }\n"
    "}\n" },
  { "grid-stride-and-warpsize",
    "__global__ void k(float *a, size_t n) {\n"
    "  for (size_t i = blockIdx.x * (size_t) blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)\n"
    "    a[i] *= 2;\n"
    "  int lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize;\n"
    "  if (lane == 0) a[warp] += 1;\n"
    "}\n" },
  { "initialised-globals-and-host-struct",
    "struct GpuTimer {\n"
    "  cudaEvent_t start, stop;\n"
    "  GpuTimer() { cudaEventCreate(&start); cudaEventCreate(&stop); }\n"
    "  void Start() { cudaEventRecord(start, 0); }\n"
    "};\n"
    "__constant__ float coef[] = { 0.5f, 1.0f, 2.0f, 4.0f };\n"
    "__constant__ int2 pairs[2] = { { 1, 2 }, { 3, 4 } };\n"
    "__device__ unsigned int count = 7;\n"
    "__global__ void k(float *out) {\n"
    "  out[threadIdx.x] = coef[threadIdx.x % 4] + count + pairs[1].y;\n"
    "}\n" },
  { "printf-and-comma",
    "#include <stdio.h>\n"
    "__global__ void k(int *a) {\n"
    "  int i, j;\n"
    "  for (i = 0, j = 10; i < j; i++, j--) a[i] = j;\n"
    "  if (threadIdx.x == 0) printf(\"block %d: %d\\n\", blockIdx.x, a[0]);\n"
    "}\n" },
};

static void
test_feature (gconstpointer data)
{
  const Feature *feature = data;
  g_autoptr (WsKernelFile) f = parse_ok (feature->text);

  assert_round_trip (f);
}

/* ------------------------------------------------------------------ */
/* Messages                                                           */
/* ------------------------------------------------------------------ */

typedef struct
{
  const char *text;
  const char *message;          /* the first error, word for word */
} Message;

static const Message messages[] = {
  { "__global__ void k(float *a) {\n  a[0] = foo(1);\n}\n",
    "line 2, column 10: function calls other than the CUDA built-ins are not supported (foo)" },
  { "__global__ void k(float *a) {\n  int i = 1\n  a[i] = 0;\n}\n",
    "line 3, column 3: expected “;” after the declaration, found “a”" },
  { "__global__ void k(float *a) {\n  a[0] = 1\n}\n",
    "line 3, column 1: expected “;” after the expression, found “}”" },
  { "__global__ void k(float *a) {\n  a[0] = (1 + 2;\n}\n",
    "line 2, column 16: expected “)” to close the “(”, found “;”" },
  { "__global__ void k(float *a) {\n  goto end;\n}\n", "line 2, column 3: goto is not supported" },
  { "__global__ void k(float *a) {\n  asm(\"exit;\");\n}\n", "line 2, column 3: inline PTX (asm) is not supported" },
  { "__global__ void k(float *a) {\n  a[0] = x;\n}\n", "line 2, column 10: unknown name “x”" },
  { "__global__ void k(const float *a) {\n  a[0] = 1;\n}\n",
    "line 2, column 3: “a[0]” is const: it cannot be written" },
  { "__global__ void k(float *a) {\n  float4 v = a[0];\n}\n",
    "line 2, column 14: the initial value of “v”: cannot convert float to float4" },
  { "__global__ void k(float *a) {\n  int b[n];\n}\n",
    "line 2, column 9: unknown name “n”" },
  { "__global__ void k(float *a, int n) {\n  int b[n];\n}\n",
    "line 2, column 9: an array length must be a constant (“n” is not known before the kernel runs)" },
  { "__global__ void k(float *a) {\n  break;\n}\n", "line 2, column 3: “break” outside a loop or a switch" },
  /* nvcc: "invalid narrowing conversion from "long" to "int"" (found by fuzz-kernel) */
  { "__global__ void k(int *a) {\n  switch (a[0]) { case 0xffffffff1: a[1] = 1; }\n}\n",
    "line 2, column 24: this case's value does not fit the switch's type, int" },
  { "__global__ void k(unsigned *a) {\n  switch (a[0]) { case -1: a[1] = 1; }\n}\n",
    "line 2, column 24: this case's value does not fit the switch's type, unsigned int" },
  { "__global__ int k(float *a) {\n  return 1;\n}\n", "line 1, column 1: a __global__ function must return void" },
  { "__global__ void k(float *a) {\n  int x = 1;\n  int *p = &x;\n}\n",
    "line 3, column 12: taking the address of the variable “x” is not supported: only of arrays' elements" },
  { "__device__ int f(int x) { return f(x - 1); }\n__global__ void k(int *a) { a[0] = f(3); }\n",
    "line 1, column 16: recursion is not supported: “f” calls itself" },
  { "__global__ void k(half *a) {\n}\n", "line 1, column 19: half precision is not supported" },
  { "__global__ void k(Thing *a) {\n}\n", "line 1, column 19: unknown type “Thing”" },
  { "struct S { int b; };\nstruct S;\nstruct S { int b; };\n__global__ void k(int *a) {\n}\n",
    "line 3, column 8: the struct “S” is defined twice" },
  /* found by fuzz-kernel: `struct int4` was read, and printed back as CUDA's int4 */
  { "typedef struct int4 { int a; short b; } S;\n__global__ void k(S *s) {\n  s[0].b = 1;\n}\n",
    "line 1, column 16: “int4” is a type of CUDA's own: a struct cannot take its name" },
  { "struct float { int a; };\n__global__ void k(int *a) {\n}\n",
    "line 1, column 8: “float” is a type of CUDA's own: a struct cannot take its name" },
  { "typedef struct { int b; } S;\n__device__ S;\n__global__ void k(int *a) {\n}\n",
    "line 2, column 13: expected a name, found “;”" },
  /* nvcc: "identifier "N" is undefined in device code"; a volatile host
   * constant was read as a constant, printed without its volatile (found
   * by fuzz-kernel) */
  { "int N = 1024;\n__global__ void k(int *a) {\n  a[0] = N;\n}\n",
    "line 3, column 10: “N” is a variable of the host code: a kernel cannot read it (pass it as a parameter, or "
    "declare it __constant__, or const with a constant value)" },
  { "volatile const int N = 1024;\n__global__ void k(int *a) {\n  a[0] = N;\n}\n",
    "line 3, column 10: “N” is a variable of the host code: a kernel cannot read it (pass it as a parameter, or "
    "declare it __constant__, or const with a constant value)" },
  /* nvcc: "attribute "global" does not apply here" (found by fuzz-kernel) */
  { "__global__ void k(int *a) {\n  a[0] = 1;\n}\n__global__ int result = 0;\n",
    "line 4, column 1: __global__ marks a kernel, a function: “result” is a variable (__device__ puts one in global "
    "memory)" },
  { "__global__ void k(int *a) {\n  __global__ int x = 1;\n  a[0] = x;\n}\n",
    "line 2, column 3: __global__ marks a kernel, a function, not a variable" },
  { "#define F(x) #x\n__global__ void k(float *a) {\n  a[0] = F(1);\n}\n",
    "line 3, column 10: the macro “F” cannot be expanded: the # and ## operators of macros are not supported" },
  { "#define F(x, y) (x + y)\n__global__ void k(float *a) {\n  a[0] = F(1);\n}\n",
    "line 3, column 10: the macro “F” takes 2 arguments in parentheses" },
  /* a macro bomb stops at the use of the outermost macro, after 64 Ki tokens */
  { "#define A0 x = x + 1;\n#define A1 A0 A0 A0 A0\n#define A2 A1 A1 A1 A1\n#define A3 A2 A2 A2 A2\n"
    "#define A4 A3 A3 A3 A3\n#define A5 A4 A4 A4 A4\n#define A6 A5 A5 A5 A5\n#define A7 A6 A6 A6 A6\n"
    "__global__ void k(float *a) {\n  float x = 0;\n  A7\n  a[0] = x;\n}\n",
    "line 11, column 3: the macro “A7” expands too deeply or into too much text (more than 64 macros inside one "
    "another or 65536 tokens)" },
  { "#define D(x) x x\n__global__ void k(float *a) {\n  float x = 0;\n"
    "  D(D(D(D(D(D(D(D(D(D(D(D(D(D(D(D(x = x + 1;))))))))))))))))\n  a[0] = x;\n}\n",
    "line 4, column 3: the macro “D” expands too deeply or into too much text (more than 64 macros inside one "
    "another or 65536 tokens)" },
  { "__global__ void k(float *a) {\n  a[0] = 1;\n", "line 1, column 29: the block opened here is not closed with “}”" },
  { "/* unclosed\n__global__ void k(float *a) {}\n", "line 1, column 1: the comment opened here is not closed with “*/”" },
  { "__global__ void k(float *a) {\n  a[0] = 1 @ 2;\n}\n", "line 2, column 12: unexpected character “@”" },
  { "__global__ void k(float *a) {\n  a[0] = 1.0L;\n}\n", "line 2, column 10: long double is not supported (the number “1.0L”)" },
  { "__global__ void k(float *a) {\n  a[0] = 12abc;\n}\n", "line 2, column 10: unknown suffix “abc” on the number “12abc”" },
  { "__global__ void k(float *a) {\n  a[0] = atomicAdd(a, 1.0f, 2);\n}\n",
    "line 2, column 10: “atomicAdd” takes 2 arguments, not 3" },
  { "__global__ void k(float *a) {\n  atomicAnd(a, 1.0f);\n}\n", "line 2, column 13: “atomicAnd” does not work on float" },
  { "__global__ void k(float *a) {\n  int x = 0;\n  x.y = 1;\n}\n", "line 3, column 4: int has no fields (“.y”)" },
  { "struct P { float x; };\n__global__ void k(P *p) {\n  p[0].q = 1;\n}\n",
    "line 3, column 7: the struct “P” has no field “q”" },
  { "__global__ void k(float4 *v) {\n  v[0].w = v[0].q;\n}\n", "line 2, column 16: float4 has no component “q”" },
  { "__global__ void k(float *a) {\n  int a = 1;\n}\n",
    "line 2, column 7: “a” is already declared in this scope, at line 1" },
  { "__global__ void k(float *a) {\n  __shared__ float s[4] = { 1 };\n}\n",
    "line 2, column 20: __shared__ variables cannot have an initial value: write them after the declaration" },
  { "__global__ void k(float *a) {\n  new float;\n}\n", "line 2, column 3: new is not supported in a kernel" },
  { "__global__ void k(float *a) {\n  k<<<1, 1>>>(a);\n}\n",
    "line 2, column 3: launching a kernel from a kernel (dynamic parallelism) is not supported (k)" },
  { "__device__ void f(float *a);\n__global__ void k(float *a) {\n  f(a);\n}\n",
    "line 3, column 3: the function “f” is declared but never defined" },
  { "int main() { return 0; }\n", "line 1, column 1: the file has no kernel: write a __global__ void function" },
  { "__global__ void k(float *a) {\n  a[0] = 1 <<;\n}\n", "line 2, column 14: expected an expression, found “;”" },
  { "__global__ void k(float *a) {\n  for (int i = 0; i < 4; i++\n    a[i] = 0;\n}\n",
    "line 3, column 5: expected “)” to close the for loop's parentheses, found “a”" },
  { "__global__ void k(float *a) {\n  auto f = [&] (int i) { return a[i]; };\n}\n",
    "line 2, column 12: lambdas are not supported" },
  { "typedef struct { int a; } S;\ntypedef struct { int a; } S;\n__global__ void k(S *s) {}\n",
    "line 2, column 27: “S” is already declared" },
  { "template <typename T = float>\n__global__ void k(T *a) {}\n",
    "line 1, column 22: default types of template parameters are not supported: the launch gives the type "
    "(“T = float” in the launch comment)" },
};

static void
test_messages (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (messages); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (WsKernelFile) f = ws_kernel_file_parse (messages[i].text, -1, NULL, &error);

      if (f != NULL)
        g_test_message ("read, but should not have: %s", messages[i].text);
      g_assert_null (f);
      g_assert_error (error, WS_KERNEL_ERROR, error->code);
      g_assert_cmpstr (error->message, ==, messages[i].message);
    }
}

/* The checker goes on after an error: an editor gets them all. */
static void
test_all_errors (void)
{
  const char *text =
    "__global__ void k(const float *a, int n) {\n"
    "  a[0] = 1;\n"
    "  b = 2;\n"
    "  int c[n];\n"
    "  foo();\n"
    "}\n";
  g_autoptr (WsKernelFile) f = NULL;
  g_autoptr (GPtrArray) diags = ws_kernel_file_check (text, -1, &f);
  const guint lines[] = { 2, 3, 4, 5 };

  g_assert_null (f);
  g_assert_cmpuint (diags->len, ==, G_N_ELEMENTS (lines));
  for (guint i = 0; i < diags->len; i++)
    {
      const WsKernelDiagnostic *d = g_ptr_array_index (diags, i);
      g_assert_cmpint (d->severity, ==, WS_KERNEL_SEVERITY_ERROR);
      g_assert_cmpuint (d->line, ==, lines[i]);
      g_assert_cmpuint (d->end_line, >=, d->line);
    }
}

/* Syntax errors in several statements, each reported. */
static void
test_all_syntax_errors (void)
{
  const char *text =
    "__global__ void k(float *a) {\n"
    "  a[0] = ;\n"
    "  a[1] = 1 +;\n"
    "  a[2] = 2;\n"
    "  a[3] = (;\n"
    "}\n";
  g_autoptr (GPtrArray) diags = ws_kernel_file_check (text, -1, NULL);

  g_assert_cmpuint (diags->len, ==, 3);
}

static void
test_columns_in_characters (void)
{
  /* “é” is two bytes, one character */
  const char *text = "// café\n__global__ void k(float *a) { /* é */ a[0] = x; }\n";
  g_autoptr (GError) error = NULL;
  g_autoptr (WsKernelFile) f = ws_kernel_file_parse (text, -1, NULL, &error);

  g_assert_null (f);
  g_assert_cmpstr (error->message, ==, "line 2, column 46: unknown name “x”");
}

static void
test_bad_text (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *big = g_strnfill (WS_KERNEL_MAX_TEXT + 1, ' ');
  g_autofree char *expected = g_strdup_printf ("line 1, column 1: the text is %d bytes long; at most %d are allowed",
                                               WS_KERNEL_MAX_TEXT + 1, WS_KERNEL_MAX_TEXT);
  const char invalid[] = "__global__ void k(float *a) { a[0] = 1; } \xff\xfe";
  const char nul[] = "__global__ void k(float *a) {\0}";

  g_assert_null (ws_kernel_file_parse (big, -1, NULL, &error));
  g_assert_cmpstr (error->message, ==, expected);
  g_clear_error (&error);
  g_assert_null (ws_kernel_file_parse (invalid, sizeof invalid - 1, NULL, &error));
  g_assert_cmpstr (error->message, ==, "line 1, column 43: the text is not valid UTF-8 here");
  g_clear_error (&error);
  g_assert_null (ws_kernel_file_parse (nul, sizeof nul - 1, NULL, &error));
  g_assert_cmpstr (error->message, ==, "line 1, column 30: the text holds a NUL character");
}

static void
test_too_deep (void)
{
  GString *s = g_string_new ("__global__ void k(int *a) { a[0] = ");
  g_autoptr (GError) error = NULL;
  g_autoptr (WsKernelFile) f = NULL;
  g_autofree char *text = NULL;

  for (int i = 0; i < 5000; i++)
    g_string_append_c (s, '(');
  g_string_append_c (s, '1');
  for (int i = 0; i < 5000; i++)
    g_string_append_c (s, ')');
  g_string_append (s, "; }\n");
  text = g_string_free (s, FALSE);
  f = ws_kernel_file_parse (text, -1, NULL, &error);
  g_assert_null (f);
  g_assert_nonnull (strstr (error->message, "nested too deeply"));

  /* a long chain of operators is deep too */
  {
    GString *c = g_string_new ("__global__ void k(int *a) { a[0] = 1");
    g_autofree char *chain = NULL;
    g_autoptr (WsKernelFile) g = NULL;
    g_clear_error (&error);
    for (int i = 0; i < 1000; i++)
      g_string_append (c, " + 1");
    g_string_append (c, "; }\n");
    chain = g_string_free (c, FALSE);
    g = ws_kernel_file_parse (chain, -1, NULL, &error);
    g_assert_null (g);
    g_assert_nonnull (strstr (error->message, "the expression is too deep"));
  }
}

/* ------------------------------------------------------------------ */
/* nvcc                                                               */
/* ------------------------------------------------------------------ */

static void
test_nvcc (void)
{
  g_autofree char *nvcc = ws_test_find_nvcc ();

  if (nvcc == NULL)
    {
      g_test_skip ("nvcc is not installed: the course kernels and their printed CUDA are not compiled");
      return;
    }
  if (!g_test_slow () && g_getenv ("WS_TEST_NVCC") == NULL)
    {
      g_test_skip ("compiling with nvcc takes minutes: run with -m slow or WS_TEST_NVCC=1");
      return;
    }
  for (guint i = 0; i < G_N_ELEMENTS (course_files); i++)
    {
      g_autofree char *text = read_data (course_files[i].file);
      g_autoptr (WsKernelFile) f = parse_ok (text);
      g_autofree char *printed = ws_kernel_file_print (f);

      ws_test_nvcc_compiles (nvcc, text, course_files[i].file);
      ws_test_nvcc_compiles (nvcc, printed, course_files[i].file);
      /* each kernel as NVRTC gets it: extern "C", its template values set, #line directives */
      for (guint k = 0; k < ws_kernel_file_get_n_kernels (f); k++)
        {
          g_autoptr (GError) error = NULL;
          g_autoptr (WsKernelLaunchConfig) cfg = ws_kernel_config_new (f, ws_kernel_file_get_kernel_name (f, k), &error);
          g_autoptr (WsKernelInstance) inst = NULL;
          g_autofree char *cuda = NULL;

          g_assert_no_error (error);
          g_assert_true (ws_kernel_config_set (cfg, "blockSize", "256", &error));
          inst = ws_kernel_instance_new (f, cfg, NULL, &error);
          g_assert_no_error (error);
          cuda = ws_kernel_instance_print_cuda (inst, &error);
          g_assert_no_error (error);
          g_assert_nonnull (strstr (cuda, "extern \"C\" __global__ void ws_kernel("));
          ws_test_nvcc_compiles (nvcc, cuda, ws_kernel_file_get_kernel_name (f, k));
        }
    }
  for (guint i = 0; i < G_N_ELEMENTS (features); i++)
    {
      g_autoptr (WsKernelFile) f = parse_ok (features[i].text);
      g_autofree char *printed = ws_kernel_file_print (f);

      /* helper.h is a header the feature test pretends to include */
      if (strstr (features[i].text, "helper.h") == NULL)
        ws_test_nvcc_compiles (nvcc, features[i].text, features[i].name);
      ws_test_nvcc_compiles (nvcc, printed, features[i].name);
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (course_files); i++)
    {
      g_autofree char *path = g_strdup_printf ("/kernel-lang/course/%s", course_files[i].file);
      g_test_add_data_func (path, &course_files[i], test_course_file);
    }
  g_test_add_func ("/kernel-lang/host-notes", test_host_notes);
  for (guint i = 0; i < G_N_ELEMENTS (features); i++)
    {
      g_autofree char *path = g_strdup_printf ("/kernel-lang/feature/%s", features[i].name);
      g_test_add_data_func (path, &features[i], test_feature);
    }
  g_test_add_func ("/kernel-lang/messages", test_messages);
  g_test_add_func ("/kernel-lang/all-errors", test_all_errors);
  g_test_add_func ("/kernel-lang/all-syntax-errors", test_all_syntax_errors);
  g_test_add_func ("/kernel-lang/columns", test_columns_in_characters);
  g_test_add_func ("/kernel-lang/bad-text", test_bad_text);
  g_test_add_func ("/kernel-lang/too-deep", test_too_deep);
  g_test_add_func ("/kernel-lang/nvcc", test_nvcc);
  return g_test_run ();
}
