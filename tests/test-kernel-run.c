/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Kernels of one's own, run: the VM's semantics (C's arithmetic as the GPU
 * does it, divergence, barriers, atomics, shuffles), the launch comment and
 * its overrides, sizes and fills, the reference results of the course
 * kernels, the model's counts per site, and the messages of a run that
 * goes wrong. */
#include "ws-kernel.h"
#include "ws-kernel-predict.h"

#include <math.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Helpers                                                            */
/* ------------------------------------------------------------------ */

static WsKernelInstance *
instance_of (const char         *text,
             const char         *kernel,
             const char *const  *sets,
             GError            **error)
{
  g_autoptr (WsKernelFile) f = NULL;
  g_autoptr (WsKernelLaunchConfig) cfg = NULL;

  f = ws_kernel_file_parse (text, -1, NULL, error);
  if (f == NULL)
    return NULL;
  cfg = ws_kernel_config_new (f, kernel, error);
  if (cfg == NULL)
    return NULL;
  for (guint i = 0; sets != NULL && sets[i] != NULL; i += 2)
    if (!ws_kernel_config_set (cfg, sets[i], sets[i + 1], error))
      return NULL;
  return ws_kernel_instance_new (f, cfg, NULL, error);
}

static WsKernelInstance *
make (const char        *text,
      const char *const *sets)
{
  g_autoptr (GError) error = NULL;
  WsKernelInstance *inst = instance_of (text, NULL, sets, &error);

  if (inst == NULL)
    g_test_message ("%s\n%s", error->message, text);
  g_assert_no_error (error);
  g_assert_nonnull (inst);
  return inst;
}

static WsKernelMemory *
run_ok (WsKernelInstance *inst)
{
  g_autoptr (GError) error = NULL;
  WsKernelMemory *m = ws_kernel_memory_new (inst);

  ws_kernel_run (inst, m, NULL, &error);
  g_assert_no_error (error);
  return m;
}

static char *
run_error (const char        *text,
           const char *const *sets)
{
  g_autoptr (WsKernelInstance) inst = make (text, sets);
  g_autoptr (WsKernelMemory) m = ws_kernel_memory_new (inst);
  g_autoptr (GError) error = NULL;

  g_assert_false (ws_kernel_run (inst, m, NULL, &error));
  g_assert_nonnull (error);
  return g_strdup (error->message);
}

static guint
array_index (WsKernelInstance *inst,
             const char       *name)
{
  int i = ws_kernel_instance_find_array (inst, name);
  g_assert_cmpint (i, >=, 0);
  return (guint) i;
}

static void
read_array (WsKernelMemory   *m,
            WsKernelInstance *inst,
            const char       *name,
            gpointer          dest,
            gsize             bytes)
{
  g_autoptr (GError) error = NULL;
  guint i = array_index (inst, name);

  ws_kernel_memory_read (m, i, 0, dest, bytes, &error);
  g_assert_no_error (error);
}

static WsKernelStats *
model (WsKernelInstance *inst)
{
  g_autoptr (GError) error = NULL;
  WsKernelStats *s = ws_kernel_model_analyze (inst, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (s);
  return s;
}

/* The stats of the one site of a kind on a line. */
static const WsStats *
site_of (WsKernelInstance *inst,
         WsKernelStats    *s,
         guint             line,
         WsAccessKind      kind,
         const char       *array)
{
  for (guint i = 0; i < ws_kernel_instance_get_n_sites (inst); i++)
    {
      const WsKernelSite *site = ws_kernel_instance_get_site (inst, i);
      if (site->line == line && site->kind == kind && (array == NULL || strcmp (site->array_name, array) == 0))
        return &s->sites[i];
    }
  g_assert_not_reached ();
  return NULL;
}

/* ------------------------------------------------------------------ */
/* Arithmetic as the GPU does it                                      */
/* ------------------------------------------------------------------ */

static void
test_integer_arithmetic (void)
{
  const char *text =
    "// warpscope: grid = 1; block = 1\n"
    "__global__ void k(int *r, unsigned *u, long long *l) {\n"
    "  int big = 2147483647;\n"
    "  r[0] = big + 1;                     // wraps\n"
    "  r[1] = -7 / 2;                      // towards zero\n"
    "  r[2] = -7 % 2;\n"
    "  r[3] = 1 << 31;\n"
    "  int s = 33; r[4] = 1 << s;          // a shift of the width or more: 0\n"
    "  r[5] = -16 >> 2;                    // arithmetic\n"
    "  r[6] = (char) 300;\n"
    "  r[7] = (unsigned char) -1;\n"
    "  r[8] = (short) 70000;\n"
    "  r[9] = (int) 3.99f + (int) -3.99f;\n"
    "  r[10] = (int) 1e20f;                 // saturates\n"
    "  r[11] = 'a';\n"
    "  r[12] = 7 / 2 * 2;\n"
    "  r[13] = (-1 < 0u);                   // C: -1 becomes unsigned\n"
    "  u[0] = 0u - 1u;\n"
    "  u[1] = 4000000000u + 500000000u;\n"
    "  u[2] = 0xffffffffu >> 28;\n"
    "  u[3] = ~0u;\n"
    "  l[0] = 2147483647ll + 1;\n"
    "  l[1] = 1ll << 40;\n"
    "  l[2] = (long long) -1 * 3000000000ll;\n"
    "}\n";
  const char *sets[] = { "r[16]", "0", "u[4]", "0", "l[3]", "0", NULL };
  g_autoptr (WsKernelInstance) inst = make (text, sets);
  g_autoptr (WsKernelMemory) m = run_ok (inst);
  gint32 r[16];
  guint32 u[4];
  gint64 l[3];

  read_array (m, inst, "r", r, sizeof r);
  read_array (m, inst, "u", u, sizeof u);
  read_array (m, inst, "l", l, sizeof l);
  g_assert_cmpint (r[0], ==, G_MININT32);
  g_assert_cmpint (r[1], ==, -3);
  g_assert_cmpint (r[2], ==, -1);
  g_assert_cmpint (r[3], ==, G_MININT32);
  g_assert_cmpint (r[4], ==, 0);
  g_assert_cmpint (r[5], ==, -4);
  g_assert_cmpint (r[6], ==, 44);
  g_assert_cmpint (r[7], ==, 255);
  g_assert_cmpint (r[8], ==, 4464);
  g_assert_cmpint (r[9], ==, 0);
  g_assert_cmpint (r[10], ==, G_MAXINT32);
  g_assert_cmpint (r[11], ==, 97);
  g_assert_cmpint (r[12], ==, 6);
  g_assert_cmpint (r[13], ==, 0);
  g_assert_cmpuint (u[0], ==, G_MAXUINT32);
  g_assert_cmpuint (u[1], ==, 205032704u);
  g_assert_cmpuint (u[2], ==, 15);
  g_assert_cmpuint (u[3], ==, G_MAXUINT32);
  g_assert_cmpint (l[0], ==, 2147483648ll);
  g_assert_cmpint (l[1], ==, 1ll << 40);
  g_assert_cmpint (l[2], ==, -3000000000ll);
}

static void
test_float_arithmetic (void)
{
  const char *text =
    "// warpscope: grid = 1; block = 1\n"
    "__global__ void k(float *f, double *d) {\n"
    "  float big = 16777216.0f;\n"
    "  f[0] = big + 1.0f;                  // float stays float\n"
    "  f[1] = 1.0f / 3.0f;\n"
    "  f[2] = sqrtf(2.0f);\n"
    "  f[3] = fmaxf(1.0f, -2.0f) + fminf(1.0f, -2.0f);\n"
    "  f[4] = 7 / 2;                       // integer division first\n"
    "  f[5] = 7 / 2.0f;\n"
    "  f[6] = floorf(-1.5f) + ceilf(-1.5f);\n"
    "  f[7] = __int_as_float(0x3f800000);\n"
    "  d[0] = 1.0 / 3.0;\n"
    "  d[1] = big + 1.0;                   // double: exact\n"
    "  d[2] = fma(2.0, 3.0, 1.0);\n"
    "}\n";
  const char *sets[] = { "f[8]", "0", "d[3]", "0", NULL };
  g_autoptr (WsKernelInstance) inst = make (text, sets);
  g_autoptr (WsKernelMemory) m = run_ok (inst);
  float f[8];
  double d[3];

  read_array (m, inst, "f", f, sizeof f);
  read_array (m, inst, "d", d, sizeof d);
  g_assert_cmpfloat (f[0], ==, 16777216.0f);
  g_assert_cmpfloat (f[1], ==, 1.0f / 3.0f);
  g_assert_cmpfloat (f[2], ==, sqrtf (2.0f));
  g_assert_cmpfloat (f[3], ==, -1.0f);
  g_assert_cmpfloat (f[4], ==, 3.0f);
  g_assert_cmpfloat (f[5], ==, 3.5f);
  g_assert_cmpfloat (f[6], ==, -3.0f);
  g_assert_cmpfloat (f[7], ==, 1.0f);
  g_assert_cmpfloat (d[0], ==, 1.0 / 3.0);
  g_assert_cmpfloat (d[1], ==, 16777217.0);
  g_assert_cmpfloat (d[2], ==, 7.0);
}

/* ------------------------------------------------------------------ */
/* Control flow                                                       */
/* ------------------------------------------------------------------ */

static void
test_divergence (void)
{
  const char *text =
    "// warpscope: grid = 2; block = 64\n"
    "__device__ int steps(int x) {\n"
    "  int n = 0;\n"
    "  while (x != 1) {\n"
    "    if (n > 100) return -1;\n"
    "    x = x % 2 == 0 ? x / 2 : 3 * x + 1;\n"
    "    n++;\n"
    "  }\n"
    "  return n;\n"
    "}\n"
    "__global__ void k(int *out) {\n"
    "  int t = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  int v = 0;\n"
    "  if (t % 3 == 0) v = 1; else if (t % 3 == 1) v = 2; else v = 3;\n"
    "  for (int j = 0; j < t % 5; j++) { if (j == 3) break; if (j % 2) continue; v += 10; }\n"
    "  switch (t % 4) { case 0: v += 100; case 1: v += 1000; break; default: v += 10000; }\n"
    "  if (t == 127) return;\n"
    "  out[t] = v + 100000 * steps(t + 1);\n"
    "}\n";
  const char *sets[] = { "out[128]", "-5", NULL };
  g_autoptr (WsKernelInstance) inst = make (text, sets);
  g_autoptr (WsKernelMemory) m = run_ok (inst);
  gint32 out[128];

  read_array (m, inst, "out", out, sizeof out);
  for (int t = 0; t < 128; t++)
    {
      int v = t % 3 == 0 ? 1 : t % 3 == 1 ? 2 : 3;
      int x = t + 1, n = 0;
      for (int j = 0; j < t % 5; j++)
        {
          if (j == 3)
            break;
          if (j % 2)
            continue;
          v += 10;
        }
      switch (t % 4)
        {
        case 0: v += 100; /* fall through */
        case 1: v += 1000; break;
        default: v += 10000;
        }
      while (x != 1 && n <= 100)
        {
          x = x % 2 == 0 ? x / 2 : 3 * x + 1;
          n++;
        }
      if (t == 127)
        g_assert_cmpint (out[t], ==, -5);
      else
        g_assert_cmpint (out[t], ==, v + 100000 * (n > 100 ? -1 : n));
    }
}

/* Shared memory written before a barrier is read after it, by other warps. */
static void
test_barrier (void)
{
  const char *text =
    "// warpscope: grid = 3; block = 256\n"
    "__global__ void reverse(const int *in, int *out) {\n"
    "  __shared__ int s[256];\n"
    "  int t = threadIdx.x, g = blockIdx.x * blockDim.x + t;\n"
    "  s[t] = in[g];\n"
    "  __syncthreads();\n"
    "  out[g] = s[255 - t];\n"
    "}\n";
  const char *sets[] = { "in[768]", "i * 3", "out[768]", "0", NULL };
  g_autoptr (WsKernelInstance) inst = make (text, sets);
  g_autoptr (WsKernelMemory) m = run_ok (inst);
  g_autoptr (WsKernelStats) s = model (inst);
  gint32 out[768];

  read_array (m, inst, "out", out, sizeof out);
  for (int g = 0; g < 768; g++)
    g_assert_cmpint (out[g], ==, 3 * ((g / 256) * 256 + 255 - g % 256));
  g_assert_cmpuint (s->counts.barriers, ==, 3);
  g_assert_cmpuint (s->counts.blocks, ==, 3);
  g_assert_cmpuint (s->counts.warps, ==, 24);
}

/* What an integer division costs the schedulers follows the SASS nvcc
 * makes of it for sm_90 (counted with cuobjdump): by a variable, a
 * reciprocal refined by multiplications (17 instructions for an unsigned
 * remainder: reduce0 of the course's reductions, 8 times a warp); by a
 * power of two, one; a 64-bit one whose values need 64 bits calls a
 * routine. The kernels differ in that one operation only. */
static guint64
instructions_of (const char *operation,
                 const char *type)
{
  g_autofree char *text = g_strdup_printf ("// warpscope: grid = 1; block = 32\n"
                                           "__global__ void k(const %s *in, %s *out, %s d) {\n"
                                           "  %s x = in[threadIdx.x];\n"
                                           "  out[threadIdx.x] = %s;\n"
                                           "}\n", type, type, type, type, operation);
  const char *sets[] = { "in[32]", "i + 4294967296 * (i & 1)", "out[32]", "0", "d", "16", NULL };
  g_autoptr (WsKernelInstance) inst = make (text, sets);
  g_autoptr (WsKernelStats) s = model (inst);

  return s->counts.instructions;
}

static void
test_division_cost (void)
{
  guint64 add = instructions_of ("x + d", "unsigned");

  g_assert_cmpuint (instructions_of ("x % d", "unsigned"), ==, add + 16);
  g_assert_cmpuint (instructions_of ("x / d", "unsigned"), ==, add + 17);
  g_assert_cmpuint (instructions_of ("x / d", "int"), ==, add + 22);
  g_assert_cmpuint (instructions_of ("x % 16", "unsigned"), ==, add);
  g_assert_cmpuint (instructions_of ("x / 16", "int"), ==, add + 2);
  g_assert_cmpuint (instructions_of ("x % 7", "unsigned"), ==, add + 4);
  /* half the lanes' values need 64 bits: the routine */
  g_assert_cmpuint (instructions_of ("x / d", "unsigned long long"), ==, instructions_of ("x + d", "unsigned long long") + 76);
  g_assert_cmpuint (instructions_of ("x / d", "float"), ==, instructions_of ("x + d", "float") + 9);
}

/* A short if-body is predicated, not branched around: every warp that
 * comes to it issues it, whether or not a lane takes it (reduce1's
 * `@!P1 LDS`, `@!P1 STS` at every step in all eight warps of a block). A
 * body with a loop, or an if at the kernel's end, is a branch: warps with
 * no lane in it skip it. Two warps; only the first's lanes take the branch. */
static guint64
instructions_of_if (const char *body,
                    const char *after)
{
  g_autofree char *text = g_strdup_printf ("// warpscope: grid = 1; block = 64\n"
                                           "__global__ void k(const int *in, int *out) {\n"
                                           "  int t = threadIdx.x;\n"
                                           "  int x = in[t];\n"
                                           "  if (t < 32) {\n%s\n  }\n"
                                           "%s"
                                           "}\n", body, after);
  const char *sets[] = { "in[64]", "i", "out[128]", "0", NULL };
  g_autoptr (WsKernelInstance) inst = make (text, sets);
  g_autoptr (WsKernelStats) s = model (inst);

  return s->counts.instructions + s->counts.memory_instructions;
}

static guint64
cost_of_body (const char *body,
              const char *after)
{
  return instructions_of_if (body, after) - instructions_of_if ("", after);
}

static void
test_predicated_if (void)
{
  const char *store = "  out[t] = x;\n";
  const char *loop = "    for (int j = 0; j < 4; j++) x = x + j;";

  /* at the kernel's end the if is a branch to EXIT: the first warp alone pays */
  g_assert_cmpuint (cost_of_body ("    x = x + 1;", ""), ==, 1);
  /* before more code, both warps issue it */
  g_assert_cmpuint (cost_of_body ("    x = x + 1;", store), ==, 2);
  g_assert_cmpuint (cost_of_body ("    x = x + 1; out[t + 64] = x;", store), ==,
                    2 * cost_of_body ("    x = x + 1; out[t + 64] = x;", ""));
  /* a loop in the body: a branch that the second warp skips */
  g_assert_cmpuint (cost_of_body (loop, store), ==, cost_of_body (loop, ""));
  g_assert_cmpuint (cost_of_body (loop, store), >, 4);
  /* so is a body longer than nvcc predicates */
  g_assert_cmpuint (cost_of_body ("    x = x * 3 + 1; x = x * 5 + 2; x = x * 7 + 3; x = x * 9 + 4; x = x * 11 + 5; x = x * 13 + 6;", store), ==, 12);
}

/* ------------------------------------------------------------------ */
/* Atomics, shuffles, votes                                           */
/* ------------------------------------------------------------------ */

static void
test_atomics (void)
{
  const char *text =
    "// warpscope: grid = 4; block = 64\n"
    "__global__ void k(unsigned *count, int *old, int *flags, unsigned *wrap) {\n"
    "  int t = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  __shared__ int local;\n"
    "  if (threadIdx.x == 0) local = 0;\n"
    "  __syncthreads();\n"
    "  atomicAdd(&local, 2);\n"
    "  old[t] = atomicAdd(&count[0], 1u);\n"
    "  atomicMax((int *) &count[1], t);\n"
    "  atomicCAS(&flags[t % 8], 0, t + 1);\n"
    "  atomicInc(&wrap[0], 9u);\n"
    "  __syncthreads();\n"
    "  if (threadIdx.x == 0) atomicAdd(&count[2], (unsigned) local);\n"
    "}\n";
  const char *sets[] = { "count[3]", "0", "old[256]", "0", "flags[8]", "0", "wrap[1]", "0", NULL };
  g_autoptr (WsKernelInstance) inst = make (text, sets);
  g_autoptr (WsKernelMemory) m = run_ok (inst);
  guint32 count[3], wrap;
  gint32 old[256], flags[8];

  read_array (m, inst, "count", count, sizeof count);
  read_array (m, inst, "old", old, sizeof old);
  read_array (m, inst, "flags", flags, sizeof flags);
  read_array (m, inst, "wrap", &wrap, sizeof wrap);
  g_assert_cmpuint (count[0], ==, 256);
  g_assert_cmpuint (count[1], ==, 255);
  g_assert_cmpuint (count[2], ==, 4 * 128);
  /* the old values in lane order, block after block */
  for (int t = 0; t < 256; t++)
    g_assert_cmpint (old[t], ==, t);
  /* the first thread of each residue wins */
  for (int i = 0; i < 8; i++)
    g_assert_cmpint (flags[i], ==, i + 1);
  g_assert_cmpuint (wrap, ==, 256 % 10);
}

static void
test_shuffles (void)
{
  const char *text =
    "// warpscope: grid = 1; block = 64\n"
    "__global__ void k(const float *in, float *sum, unsigned *bits, int *moved) {\n"
    "  int t = threadIdx.x, lane = t % warpSize;\n"
    "  float v = in[t];\n"
    "  for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);\n"
    "  if (lane == 0) sum[t / 32] = v;\n"
    "  bits[t] = __ballot_sync(0xffffffff, t % 3 == 0);\n"
    "  moved[t] = __shfl_xor_sync(0xffffffff, t, 1) * 1000 + __shfl_sync(0xffffffff, t, 5, 8)\n"
    "             + 100000 * __shfl_up_sync(0xffffffff, t, 2, 16);\n"
    "}\n";
  const char *sets[] = { "in[64]", "i", "sum[2]", "0", "bits[64]", "0", "moved[64]", "0", NULL };
  g_autoptr (WsKernelInstance) inst = make (text, sets);
  g_autoptr (WsKernelMemory) m = run_ok (inst);
  g_autoptr (WsKernelStats) s = model (inst);
  float sum[2];
  guint32 bits[64];
  gint32 moved[64];

  read_array (m, inst, "sum", sum, sizeof sum);
  read_array (m, inst, "bits", bits, sizeof bits);
  read_array (m, inst, "moved", moved, sizeof moved);
  g_assert_cmpfloat (sum[0], ==, 31 * 32 / 2);
  g_assert_cmpfloat (sum[1], ==, (32 + 63) * 32 / 2);
  for (int t = 0; t < 64; t++)
    {
      guint32 want = 0;
      int lane = t % 32, up = (lane % 16) >= 2 ? t - 2 : t;
      for (int l = 0; l < 32; l++)
        if ((t / 32 * 32 + l) % 3 == 0)
          want |= 1u << l;
      g_assert_cmpuint (bits[t], ==, want);
      g_assert_cmpint (moved[t], ==, (t ^ 1) * 1000 + (t / 8 * 8 + 5) + 100000 * up);
    }
  g_assert_cmpuint (s->counts.shuffles, ==, 2 * (5 + 3));
  g_assert_cmpuint (s->counts.votes, ==, 2);
}

/* ------------------------------------------------------------------ */
/* Memory of each kind                                                */
/* ------------------------------------------------------------------ */

static void
test_vectors_and_structs (void)
{
  const char *text =
    "// warpscope: grid = 1; block = 32\n"
    "struct P { float x, y, z; };\n"
    "struct __align__(16) Q { float a, b, c, d; };\n"
    "__global__ void k(const float4 *v, float *out, P *p, Q *q, int2 *pairs) {\n"
    "  int t = threadIdx.x;\n"
    "  float4 a = v[t];\n"
    "  out[t] = a.x + a.y + a.z + a.w;\n"
    "  P c = p[t];\n"
    "  p[t].y = c.x + c.z;\n"
    "  Q w = q[t];\n"
    "  q[t] = w;\n"
    "  pairs[t] = make_int2(t, -t);\n"
    "}\n";
  const char *sets[] = { "v[32]", "i", "out[32]", "0", "p[32]", "i", "q[32]", "i", "pairs[32]", "0", NULL };
  g_autoptr (WsKernelInstance) inst = make (text, sets);
  g_autoptr (WsKernelMemory) m = run_ok (inst);
  g_autoptr (WsKernelStats) s = model (inst);
  float out[32], p[96];
  gint32 pairs[64];
  guint sizes_line8 = 0;

  read_array (m, inst, "out", out, sizeof out);
  read_array (m, inst, "p", p, sizeof p);
  read_array (m, inst, "pairs", pairs, sizeof pairs);
  for (int t = 0; t < 32; t++)
    {
      /* a float4 array's element t holds scalars 4t … 4t + 3 */
      g_assert_cmpfloat (out[t], ==, 16 * t + 6);
      g_assert_cmpfloat (p[3 * t + 1], ==, (3 * t) + (3 * t + 2));
      g_assert_cmpint (pairs[2 * t], ==, t);
      g_assert_cmpint (pairs[2 * t + 1], ==, -t);
    }
  /* one 16-byte load of a float4: 16 sectors of the warp's 512 bytes */
  g_assert_cmpuint (site_of (inst, s, 6, WS_ACCESS_LOAD, NULL)->sectors, ==, 16);
  g_assert_cmpuint (site_of (inst, s, 6, WS_ACCESS_LOAD, NULL)->requests, ==, 1);
  /* a struct of three floats is three 4-byte loads */
  for (guint i = 0; i < ws_kernel_instance_get_n_sites (inst); i++)
    {
      const WsKernelSite *site = ws_kernel_instance_get_site (inst, i);
      if (site->line == 8)
        {
          g_assert_cmpuint (site->elem_size, ==, 4);
          sizes_line8++;
        }
      if (site->line == 10 || site->line == 11)
        g_assert_cmpuint (site->elem_size, ==, 16);
      if (site->line == 12)
        g_assert_cmpuint (site->elem_size, ==, 8);
    }
  g_assert_cmpuint (sizes_line8, ==, 3);
  /* a field is the field's size at its offset: 32 lanes 12 bytes apart */
  g_assert_cmpuint (site_of (inst, s, 9, WS_ACCESS_STORE, NULL)->sectors, ==, 12);
}

static void
test_local_and_register (void)
{
  const char *text =
    "// warpscope: grid = 1; block = 32\n"
    "__global__ void k(const int *pick, int *out) {\n"
    "  int fixed[4];\n"
    "  int dyn[8];\n"
    "  #pragma unroll\n"
    "  for (int i = 0; i < 4; i++) fixed[i] = i * 10;\n"
    "  for (int i = 0; i < 8; i++) dyn[i] = i * 100;\n"
    "  out[threadIdx.x] = fixed[2] + dyn[pick[threadIdx.x] % 8];\n"
    "}\n";
  const char *sets[] = { "pick[32]", "i", "out[32]", "0", NULL };
  g_autoptr (WsKernelInstance) inst = make (text, sets);
  g_autoptr (WsKernelMemory) m = run_ok (inst);
  g_autoptr (WsKernelStats) s = model (inst);
  gint32 out[32];

  read_array (m, inst, "out", out, sizeof out);
  for (int t = 0; t < 32; t++)
    g_assert_cmpint (out[t], ==, 20 + (t % 8) * 100);
  g_assert_cmpint (ws_kernel_instance_get_array (inst, array_index (inst, "fixed"))->space, ==, WS_SPACE_REGISTER);
  g_assert_cmpint (ws_kernel_instance_get_array (inst, array_index (inst, "dyn"))->space, ==, WS_SPACE_LOCAL);
  g_assert_cmpint (ws_kernel_instance_get_local_bytes_per_thread (inst), ==, 32);
  /* a local load of 4 bytes per lane, lanes in their own slots: 4 sectors */
  g_assert_cmpuint (site_of (inst, s, 8, WS_ACCESS_LOAD, "dyn")->sectors, >=, 4);
  g_assert_cmpuint (site_of (inst, s, 7, WS_ACCESS_STORE, NULL)->instructions, ==, 8);
}

static void
test_constant_and_ldg (void)
{
  const char *text =
    "/* warpscope: grid = 1; block = 32\n"
    " * coef = i * 2 */\n"
    "__constant__ float coef[64];\n"
    "__global__ void k(const float * __restrict__ in, float *out) {\n"
    "  int t = threadIdx.x;\n"
    "  float same = coef[5];\n"
    "  float each = coef[t];\n"
    "  out[t] = same + each + __ldg(&in[t]);\n"
    "}\n";
  const char *sets[] = { "in[32]", "1", "out[32]", "0", NULL };
  g_autoptr (WsKernelInstance) inst = make (text, sets);
  g_autoptr (WsKernelMemory) m = run_ok (inst);
  g_autoptr (WsKernelStats) s = model (inst);
  float out[32];

  read_array (m, inst, "out", out, sizeof out);
  for (int t = 0; t < 32; t++)
    g_assert_cmpfloat (out[t], ==, 10 + 2 * t + 1);
  /* all lanes on one address: one request; 32 addresses: 32, 31 replays */
  g_assert_cmpuint (site_of (inst, s, 6, WS_ACCESS_LOAD, "coef")->requests, ==, 1);
  g_assert_cmpuint (site_of (inst, s, 7, WS_ACCESS_LOAD, NULL)->requests, ==, 32);
  g_assert_cmpuint (site_of (inst, s, 7, WS_ACCESS_LOAD, NULL)->replays, ==, 31);
  for (guint i = 0; i < ws_kernel_instance_get_n_sites (inst); i++)
    {
      const WsKernelSite *site = ws_kernel_instance_get_site (inst, i);
      if (site->line == 8 && site->kind == WS_ACCESS_LOAD)
        g_assert_true (site->read_only);
    }
}

/* A declaration's values fill its array; a host struct is skipped. */
static void
test_initialised_globals (void)
{
  const char *text =
    "// warpscope: grid = 1; block = 32; out[32] = 0\n"
    "struct GpuTimer {\n"
    "  cudaEvent_t start;\n"
    "  GpuTimer() { cudaEventCreate(&start); }\n"
    "};\n"
    "__constant__ float coef[] = { 0.5f, 1.0f, 2.0f, 4.0f };\n"
    "__device__ unsigned int count = 7;\n"
    "__global__ void k(float *out) {\n"
    "  out[threadIdx.x] = coef[threadIdx.x % 4] + count;\n"
    "  if (threadIdx.x == 0) atomicAdd(&count, 1u);\n"
    "}\n";
  g_autoptr (WsKernelInstance) inst = make (text, NULL);
  g_autoptr (WsKernelMemory) m = run_ok (inst);
  const WsKernelArrayInfo *coef = ws_kernel_instance_get_array (inst, array_index (inst, "coef"));
  float out[32];
  guint32 count;

  read_array (m, inst, "out", out, sizeof out);
  read_array (m, inst, "count", &count, sizeof count);
  const float coefs[] = { 0.5f, 1.0f, 2.0f, 4.0f };

  for (int t = 0; t < 32; t++)
    g_assert_cmpfloat (out[t], ==, coefs[t % 4] + 7);
  g_assert_cmpuint (count, ==, 8);
  g_assert_cmpuint (coef->n_elements, ==, 4);
  g_assert_cmpstr (coef->fill, ==, "{ 0.5f, 1.0f, 2.0f, 4.0f }");
  g_assert_false (coef->fill_given);
}

static void
test_pointers (void)
{
  const char *text =
    "// warpscope: grid = 1; block = 4; n = 8\n"
    "__global__ void rows(const float *A, float *y, int n) {\n"
    "  const float *row = A + threadIdx.x * n;\n"
    "  float s = 0;\n"
    "  for (int k = 0; k < n; k++) s += *row++;\n"
    "  float *dst = &y[threadIdx.x];\n"
    "  *dst = s;\n"
    "}\n";
  const char *sets[] = { "A[32]", "i", "y[4]", "0", NULL };
  g_autoptr (WsKernelInstance) inst = make (text, sets);
  g_autoptr (WsKernelMemory) m = run_ok (inst);
  float y[4];

  read_array (m, inst, "y", y, sizeof y);
  for (int r = 0; r < 4; r++)
    g_assert_cmpfloat (y[r], ==, 8 * 8 * r + 28);
}

/* ------------------------------------------------------------------ */
/* The model's counts                                                 */
/* ------------------------------------------------------------------ */

static void
test_model_coalescing (void)
{
  const char *text =
    "// warpscope: grid = 8; block = 128\n"
    "__global__ void k(const float *in, float *out, int stride) {\n"
    "  int t = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  out[t] = in[t * stride];\n"
    "}\n";
  for (int stride = 1; stride <= 32; stride *= 2)
    {
      g_autofree char *value = g_strdup_printf ("%d", stride);
      const char *sets[] = { "stride", value, "in[32768]", "i", "out[1024]", "0", NULL };
      g_autoptr (WsKernelInstance) inst = make (text, sets);
      g_autoptr (WsKernelStats) s = model (inst);
      const WsStats *load = site_of (inst, s, 4, WS_ACCESS_LOAD, NULL);
      const WsStats *store = site_of (inst, s, 4, WS_ACCESS_STORE, NULL);

      g_assert_cmpuint (load->instructions, ==, 32);
      g_assert_cmpfloat (ws_stats_sectors_per_request (load), ==, MIN (4 * stride, 32));
      g_assert_cmpfloat (ws_stats_sectors_per_request (store), ==, 4);
    }
}

static void
test_model_banks (void)
{
  const char *text =
    "// warpscope: grid = 1; block = 32, 32\n"
    "#define T 32\n"
    "__global__ void k(float *out) {\n"
    "  __shared__ float tile[T][T + PAD];\n"
    "  tile[threadIdx.y][threadIdx.x] = threadIdx.x;\n"
    "  __syncthreads();\n"
    "  out[threadIdx.y * T + threadIdx.x] = tile[threadIdx.x][threadIdx.y];\n"
    "}\n";
  for (int pad = 0; pad <= 1; pad++)
    {
      g_autofree char *padded = g_strdup_printf ("#define PAD %d\n%s", pad, text);
      const char *sets[] = { "out[1024]", "0", NULL };
      g_autoptr (WsKernelInstance) inst = make (padded, sets);
      g_autoptr (WsKernelStats) s = model (inst);
      const WsStats *column = site_of (inst, s, 8, WS_ACCESS_LOAD, NULL);
      const WsStats *row = site_of (inst, s, 6, WS_ACCESS_STORE, NULL);

      g_assert_cmpfloat (ws_stats_wavefronts_per_instruction (column), ==, pad ? 1 : 32);
      g_assert_cmpfloat (ws_stats_wavefronts_per_instruction (row), ==, 1);
      g_assert_cmpuint (ws_stats_bank_conflicts (column), ==, pad ? 0 : 31 * 32);
    }
}

static void
test_analyze_warp (void)
{
  const char *text =
    "// warpscope: grid = 2; block = 64\n"
    "__global__ void k(const float *in, float *out) {\n"
    "  float s = 0;\n"
    "  for (int j = 0; j < 4; j++)\n"
    "    s += in[(blockIdx.x * blockDim.x + threadIdx.x) * 2 + j * 1000];\n"
    "  out[blockIdx.x * blockDim.x + threadIdx.x] = s;\n"
    "}\n";
  const char *sets[] = { "in[8192]", "i", "out[128]", "0", NULL };
  g_autoptr (WsKernelInstance) inst = make (text, sets);
  g_autoptr (GError) error = NULL;
  g_autoptr (WsWarpResult) r = NULL;
  guint site = G_MAXUINT;

  for (guint i = 0; i < ws_kernel_instance_get_n_sites (inst); i++)
    if (ws_kernel_instance_get_site (inst, i)->line == 5)
      site = i;
  r = ws_kernel_analyze_warp (inst, site, WS_DIM3 (1, 0, 0), 1, 2, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (r->active, ==, 0xffffffffu);
  /* block 1, warp 1, iteration 2: element (64 + 32 + lane) * 2 + 2000 */
  for (guint l = 0; l < 32; l++)
    g_assert_cmpint (r->address[l], ==, ((96 + l) * 2 + 2000) * 4);
  g_assert_cmpuint (r->counts.sectors, ==, 8);
  g_assert_cmpuint (r->steps->len, ==, 8);
  g_clear_pointer (&r, ws_warp_result_free);
  r = ws_kernel_analyze_warp (inst, site, WS_DIM3 (1, 0, 0), 1, 4, &error);
  g_assert_null (r);
  g_assert_cmpstr (error->message, ==, "warp 1 of block (1, 0, 0) runs line 5's in[(blockIdx.x * blockDim.x + "
                                       "threadIdx.x) * 2 + j * 1000] 4 times, not 5");
}

/* ------------------------------------------------------------------ */
/* The launch                                                         */
/* ------------------------------------------------------------------ */

static void
test_launch_comment (void)
{
  const char *text =
    "#define WIDTH 64\n"
    "const int ROWS = 4;\n"
    "/* warpscope:\n"
    " *   kernel = second\n"
    " *   grid   = n / WIDTH, ROWS\n"
    " *   block  = WIDTH\n"
    " *   n      = 1 << 10\n"
    " *   scale  = 2.5\n"
    " *   a[n * ROWS] = i % 7\n"
    " *   b[n * ROWS + 3] @ 3 = random(9) % 100\n"
    " */\n"
    "__global__ void first(float *a) { a[0] = 1; }\n"
    "__global__ void second(const float *a, float *b, int n, float scale) {\n"
    "  int i = blockIdx.y * n + blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  b[i] = a[i] * scale;\n"
    "}\n";
  g_autoptr (WsKernelInstance) inst = make (text, NULL);
  g_autoptr (WsKernelMemory) m = run_ok (inst);
  const WsKernelArrayInfo *a = ws_kernel_instance_get_array (inst, array_index (inst, "a"));
  const WsKernelArrayInfo *b = ws_kernel_instance_get_array (inst, array_index (inst, "b"));
  const WsKernelParam *n = ws_kernel_instance_get_param (inst, 2);
  const WsKernelParam *scale = ws_kernel_instance_get_param (inst, 3);
  g_autofree float *bv = g_new (float, 4096 + 3);
  g_autofree guint8 *initial = g_new (guint8, (4096 + 3) * 4);
  gint32 nv;
  float sv;

  g_assert_cmpstr (ws_kernel_instance_get_kernel_name (inst), ==, "second");
  g_assert_cmpuint (ws_kernel_instance_get_grid (inst).x, ==, 16);
  g_assert_cmpuint (ws_kernel_instance_get_grid (inst).y, ==, 4);
  g_assert_cmpuint (ws_kernel_instance_get_block (inst).x, ==, 64);
  g_assert_cmpuint (a->n_elements, ==, 4096);
  g_assert_cmpint (a->size_origin, ==, WS_KERNEL_SIZE_GIVEN);
  g_assert_cmpuint (b->offset_elements, ==, 3);
  g_assert_cmpstr (b->fill, ==, "random(9) % 100");
  g_assert_true (n->size == 4 && !n->is_pointer);
  memcpy (&nv, n->value, 4);
  memcpy (&sv, scale->value, 4);
  g_assert_cmpint (nv, ==, 1024);
  g_assert_cmpfloat (sv, ==, 2.5f);
  g_assert_cmpstr (n->value_text, ==, "1024");
  g_assert_cmpstr (ws_kernel_instance_get_param (inst, 0)->type, ==, "const float *");

  /* b's first three elements are before the parameter's pointer: untouched, as filled */
  ws_kernel_fill_bytes (inst, array_index (inst, "b"), 0, initial, (4096 + 3) * 4);
  read_array (m, inst, "b", bv, (4096 + 3) * 4);
  g_assert_cmpmem (bv, 12, initial, 12);
  for (int i = 0; i < 4096; i++)
    g_assert_cmpfloat (bv[3 + i], ==, (i % 7) * 2.5f);
}

static void
test_launch_overrides (void)
{
  const char *text =
    "// warpscope: grid = 2; block = 32; n = 64; out[n] = 0\n"
    "__global__ void k(int *out, int n) {\n"
    "  int t = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (t < n) out[t] = n;\n"
    "}\n";
  const char *sets[] = { "n", "96", "grid", "3", NULL };
  g_autoptr (WsKernelInstance) inst = make (text, sets);
  g_autoptr (WsKernelMemory) m = run_ok (inst);
  gint32 out[96];

  g_assert_cmpuint (ws_kernel_instance_get_grid (inst).x, ==, 3);
  g_assert_cmpuint (ws_kernel_instance_get_array (inst, 0)->n_elements, ==, 96);
  read_array (m, inst, "out", out, sizeof out);
  for (int t = 0; t < 96; t++)
    g_assert_cmpint (out[t], ==, 96);
}

/* kernel.name = value holds for that kernel only */
static void
test_launch_per_kernel (void)
{
  const char *text =
    "/* warpscope:\n"
    " *   grid = 4; block = 32; out[256] = 0\n"
    " *   wide.grid = 8\n"
    " *   wide.block = 32\n"
    " */\n"
    "__global__ void narrow(int *out) { out[blockIdx.x * blockDim.x + threadIdx.x] = 1; }\n"
    "__global__ void wide(int *out) { out[blockIdx.x * blockDim.x + threadIdx.x] = 2; }\n";
  g_autoptr (GError) error = NULL;
  g_autoptr (WsKernelInstance) narrow = instance_of (text, "narrow", NULL, &error);
  g_autoptr (WsKernelInstance) wide = instance_of (text, "wide", NULL, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (ws_kernel_instance_get_grid (narrow).x, ==, 4);
  g_assert_cmpuint (ws_kernel_instance_get_grid (wide).x, ==, 8);
}

/* A note of the instance's that holds text, or NULL. */
static const char *
find_note (WsKernelInstance *inst,
           const char       *text)
{
  const char *const *notes = ws_kernel_instance_get_notes (inst);

  for (guint i = 0; notes != NULL && notes[i] != NULL; i++)
    if (strstr (notes[i], text) != NULL)
      return notes[i];
  return NULL;
}

/* A program pasted whole, as a blog post gives it, with no launch comment:
 * the launch is main's, followed through its declarations (const values,
 * sizeof, dim3 and their members); a name the caller sets is the host
 * code's name too; the comment and the caller win over it; what cannot be
 * followed is said, with where. */
static void
test_launch_host_code (void)
{
  const char *reverse =
    "#include <stdio.h>\n"
    "\n"
    "__global__ void reverse(int *d, int n)\n"
    "{\n"
    "  extern __shared__ int s[];\n"
    "  int t = threadIdx.x;\n"
    "  s[t] = d[t];\n"
    "  __syncthreads();\n"
    "  d[t] = s[n - t - 1];\n"
    "}\n"
    "\n"
    "int main(void)\n"
    "{\n"
    "  const int n = 64;\n"
    "  int a[n], *d_d;\n"
    "  for (int i = 0; i < n; i++)\n"
    "    a[i] = i;\n"
    "  cudaMalloc(&d_d, n * sizeof(int));\n"
    "  cudaMemcpy(d_d, a, n * sizeof(int), cudaMemcpyHostToDevice);\n"
    "  reverse<<<1, n, n * sizeof(int)>>>(d_d, n);\n"
    "  printf(\"%d\\n\", a[0]);\n"
    "  return 0;\n"
    "}\n";
  const char *matmul =
    "#define N 1024\n"
    "#define TILE 16\n"
    "__global__ void matmul(const float *a, const float *b, float *c, int n) {\n"
    "  int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (row < n && col < n) c[row * n + col] = a[row * n] * b[col];\n"
    "}\n"
    "__global__ void unused(float *c) { c[threadIdx.x] = 0; }\n"
    "int main() {\n"
    "  float *d_a, *d_b, *d_c;\n"
    "  dim3 block(TILE, TILE), other;\n"
    "  dim3 grid((N + block.x - 1) / block.x, (N + block.y - 1) / block.y);\n"
    "  matmul<<<grid, block>>>(d_a, d_b, d_c, N);\n"
    "  return 0;\n"
    "}\n";
  const char *saxpy =
    "__global__ void saxpy(int n, float a, float *x, float *y) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) y[i] = a * x[i] + y[i];\n"
    "}\n"
    "int main(int argc, char **argv) {\n"
    "  int N = 1 << 20;\n"
    "  float *d_x, *d_y;\n"
    "  saxpy<<<(N + 255) / 256, 256>>>(N, 2.0f, d_x, d_y);\n"
    "  return 0;\n"
    "}\n";
  g_autoptr (GError) error = NULL;
  g_autoptr (WsKernelInstance) inst = make (reverse, NULL);
  g_autoptr (WsKernelMemory) m = run_ok (inst);
  gint32 d[64];
  const WsKernelParam *p;

  /* grid, block, dynamic shared bytes and the scalar argument, from line 20 */
  g_assert_cmpuint (ws_kernel_instance_get_grid (inst).x, ==, 1);
  g_assert_cmpuint (ws_kernel_instance_get_block (inst).x, ==, 64);
  g_assert_cmpuint (ws_kernel_instance_get_dynamic_shared (inst), ==, 256);
  p = ws_kernel_instance_get_param (inst, 1);
  g_assert_cmpstr (p->name, ==, "n");
  g_assert_cmpstr (p->value_text, ==, "64");
  g_assert_nonnull (find_note (inst, "from the host code's launch at line 20: grid (1, 1, 1), block (64, 1, 1), "
                                     "256 bytes of dynamic shared memory, n = 64"));
  g_assert_null (find_note (inst, "not given"));
  /* and it runs as main would: the array reversed */
  read_array (m, inst, "d", d, sizeof d);
  for (int t = 0; t < 64; t++)
    g_assert_cmpint (d[t], ==, 63 - t);
  g_clear_pointer (&inst, ws_kernel_instance_unref);

  /* dim3 values and their members; another kernel main does not launch
   * keeps the defaults */
  inst = instance_of (matmul, "matmul", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ws_kernel_instance_get_grid (inst).x, ==, 64);
  g_assert_cmpuint (ws_kernel_instance_get_grid (inst).y, ==, 64);
  g_assert_cmpuint (ws_kernel_instance_get_block (inst).x, ==, 16);
  g_assert_cmpuint (ws_kernel_instance_get_block (inst).y, ==, 16);
  g_assert_cmpstr (ws_kernel_instance_get_param (inst, 3)->value_text, ==, "1024");
  g_clear_pointer (&inst, ws_kernel_instance_unref);
  inst = instance_of (matmul, "unused", NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (find_note (inst, "block not given"));
  g_assert_null (find_note (inst, "host code's launch"));
  g_clear_pointer (&inst, ws_kernel_instance_unref);

  /* a name the caller sets is main's too: the grid follows it */
  {
    const char *sets[] = { "N", "4096", NULL };
    inst = make (saxpy, sets);
    g_assert_cmpuint (ws_kernel_instance_get_grid (inst).x, ==, 16);
    g_assert_cmpstr (ws_kernel_instance_get_param (inst, 0)->value_text, ==, "4096");
    g_assert_cmpstr (ws_kernel_instance_get_param (inst, 1)->value_text, ==, "2");
    g_clear_pointer (&inst, ws_kernel_instance_unref);
  }
  /* a launch in a function of n: n is its call's; where no call gives
   * one that can be followed (read at run time), the launch gives way to
   * the next that can be */
  {
    const char *wrapped =
      "__global__ void k(float *x, int n) { int i = threadIdx.x; if (i < n) x[i] = 1; }\n"
      "void run(float *x, int n) { k<<<1, n>>>(x, n); }\n"
      "int main() { float *x; int n = 96; run(x, 32); k<<<1, n>>>(x, n / 2); }\n";
    const char *unknown =
      "__global__ void k(float *x, int n) { int i = threadIdx.x; if (i < n) x[i] = 1; }\n"
      "void run(float *x, int n) { k<<<1, n>>>(x, n); }\n"
      "int main(int argc, char **argv) { float *x; int n = 96; run(x, atoi(argv[1])); k<<<1, n>>>(x, n / 2); }\n";
    inst = make (wrapped, NULL);
    g_assert_cmpuint (ws_kernel_instance_get_block (inst).x, ==, 32);
    g_assert_cmpstr (ws_kernel_instance_get_param (inst, 1)->value_text, ==, "32");
    g_assert_nonnull (find_note (inst, "from the host code's launch at line 2: grid (1, 1, 1), block (32, 1, 1), n = 32, "
                                       "with n = 32 from the call at line 3"));
    g_clear_pointer (&inst, ws_kernel_instance_unref);
    inst = make (unknown, NULL);
    g_assert_cmpuint (ws_kernel_instance_get_block (inst).x, ==, 96);
    g_assert_cmpstr (ws_kernel_instance_get_param (inst, 1)->value_text, ==, "48");
    g_assert_nonnull (find_note (inst, "from the host code's launch at line 3: grid (1, 1, 1), block (96, 1, 1), n = 48"));
    g_clear_pointer (&inst, ws_kernel_instance_unref);
  }
  /* the caller's grid and parameter win; the block stays main's */
  {
    const char *sets[] = { "grid", "3", "n", "100", NULL };
    inst = make (saxpy, sets);
    g_assert_cmpuint (ws_kernel_instance_get_grid (inst).x, ==, 3);
    g_assert_cmpuint (ws_kernel_instance_get_block (inst).x, ==, 256);
    g_assert_cmpstr (ws_kernel_instance_get_param (inst, 0)->value_text, ==, "100");
    g_assert_nonnull (find_note (inst, "from the host code's launch at line 8: block (256, 1, 1), a = 2"));
    g_clear_pointer (&inst, ws_kernel_instance_unref);
  }
  /* a template's values from its launch, K<threads><<<…>>> (Harris's
   * reduce6 is launched so); the comment's win; a launch that gives too
   * few is not used, and the error says why */
  {
    const char *reduce =
      "template <unsigned int blockSize, bool twice>\n"
      "__global__ void reduce(const int *in, int *out, unsigned int n) {\n"
      "  extern __shared__ int s[];\n"
      "  unsigned int t = threadIdx.x, i = blockIdx.x * blockSize * 2 + t;\n"
      "  s[t] = i < n ? in[i] + (twice ? in[i + blockSize] : 0) : 0;\n"
      "  __syncthreads();\n"
      "  if (t == 0) out[blockIdx.x] = s[0] + s[blockSize - 1];\n"
      "}\n"
      "int main() {\n"
      "  const int threads = 128, n = 1 << 16;\n"
      "  int *d_in, *d_out;\n"
      "  reduce<2 * threads, (threads > 64)><<<n / (4 * threads), 2 * threads, 2 * threads * sizeof(int)>>>(d_in, d_out, n);\n"
      "  reduce<threads><<<1, threads>>>(d_out, d_out, n);\n"
      "  return 0;\n"
      "}\n";
    const char *sets[] = { "blockSize", "256", "twice", "0", NULL };
    g_autoptr (WsKernelStats) st = NULL;

    inst = make (reduce, NULL);
    g_assert_cmpuint (ws_kernel_instance_get_grid (inst).x, ==, 128);
    g_assert_cmpuint (ws_kernel_instance_get_block (inst).x, ==, 256);
    g_assert_cmpuint (ws_kernel_instance_get_dynamic_shared (inst), ==, 1024);
    g_assert_nonnull (find_note (inst, "from the host code's launch at line 12: grid (128, 1, 1), block (256, 1, 1), "
                                       "1024 bytes of dynamic shared memory, n = 65536, blockSize = 256, twice = 1"));
    /* both halves read (twice is true): in[i] and in[i + blockSize], 65536
     * lanes' loads in all, every element once */
    st = model (inst);
    {
      guint64 lanes = 0;
      for (guint i = 0; i < ws_kernel_instance_get_n_sites (inst); i++)
        {
          const WsKernelSite *site = ws_kernel_instance_get_site (inst, i);
          if (site->line == 5 && site->kind == WS_ACCESS_LOAD && strcmp (site->array_name, "in") == 0)
            lanes += st->sites[i].active_lanes;
        }
      g_assert_cmpuint (lanes, ==, 65536);
    }
    g_clear_pointer (&inst, ws_kernel_instance_unref);
    inst = make (reduce, sets);
    g_assert_nonnull (find_note (inst, "from the host code's launch at line 12: grid (128, 1, 1), block (256, 1, 1), "
                                       "1024 bytes of dynamic shared memory, n = 65536"));
    g_clear_pointer (&inst, ws_kernel_instance_unref);
    {
      g_autofree char *short_only = g_strdup (reduce);
      char *line12 = strstr (short_only, "  reduce<2 * threads");

      /* the first launch gone (made a comment), the second gives one value of two */
      line12[0] = '/';
      line12[1] = '/';
      inst = instance_of (short_only, NULL, NULL, &error);
      g_assert_null (inst);
      g_assert_nonnull (strstr (error->message, "the template parameter “blockSize” of reduce needs a value"));
      g_assert_nonnull (strstr (error->message, "the host code's launch at line 13 is not used: line 13, column 3: "
                                                "the launch's template arguments are not the kernel's template "
                                                "parameters"));
      g_clear_error (&error);
    }
  }
}

/* template <typename T>: the launch gives the type (the comment, or as
 * --set gives it), the file is read with it, and what the kernel moves,
 * runs and prints follows: NVIDIA's blog kernels are written so
 * (coalescing.cu's offset and stride, whose T runTest<float> gives). A
 * type none gives, or a text that is no type, says so and where. */
/* A program as NVIDIA's blog writes it, pasted with no comment: the
 * kernel is a template of types, launched from a host template whose
 * parameters main's call gives (runTest<float> (deviceId, nMB)). The
 * type is what the pointer launched with points to, in the call's type;
 * the size is the call's argument. */
static void
test_host_calls (void)
{
  const char *text =
    "#include <cstdio>\n"
    "template <typename T>\n"
    "__global__ void offset(T* a, int s)\n"
    "{\n"
    "  int i = blockDim.x * blockIdx.x + threadIdx.x + s;\n"
    "  a[i] = a[i] + 1;\n"
    "}\n"
    "template <typename U>\n"
    "void runTest(int deviceId, int nMB)\n"
    "{\n"
    "  int blockSize = 256;\n"
    "  U *d_a;\n"
    "  int n = nMB*1024*1024/sizeof(U);\n"
    "  cudaMalloc(&d_a, n * 33 * sizeof(U));\n"
    "  offset<<<n/blockSize, blockSize>>>(d_a, 0);\n"
    "}\n"
    "int main(int argc, char **argv)\n"
    "{\n"
    "  int nMB = 4;\n"
    "  int deviceId = 0;\n"
    "  runTest<float>(deviceId, nMB);\n"
    "  runTest<double>(deviceId, nMB);\n"
    "}\n";
  const char *as_double[] = { "T", "double", NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (WsKernelInstance) inst = instance_of (text, NULL, NULL, &error);
  g_autoptr (WsKernelInstance) doubles = NULL;
  g_autoptr (WsKernelInstance) unknown = NULL;
  const char *const *notes;
  g_autofree char *argv_text = NULL;

  g_assert_no_error (error);
  /* T = float (U * d_a, runTest<float>), n = 4 MB / 4 bytes: 4096 blocks */
  g_assert_cmpuint (ws_kernel_instance_get_array (inst, 0)->elem_size, ==, 4);
  g_assert_cmpuint (ws_kernel_instance_get_grid (inst).x, ==, 4096);
  g_assert_cmpuint (ws_kernel_instance_get_block (inst).x, ==, 256);
  notes = ws_kernel_instance_get_notes (inst);
  g_assert_cmpstr (notes[0], ==, "T = float: the host code's launch at line 15 is in runTest, called as "
                                 "runTest<float> at line 21");
  g_assert_nonnull (strstr (notes[1], "from the host code's launch at line 15: grid (4096, 1, 1), block (256, 1, 1), "
                                      "s = 0, with nMB = 4 from the call at line 21"));
  /* the note the window shows at the launch says both */
  {
    const WsKernelDiagnostic *d = ws_kernel_instance_get_launch_note (inst);
    g_assert_nonnull (d);
    g_assert_cmpuint (d->line, ==, 15);
    g_assert_true (g_str_has_prefix (d->message, "T = float: the host code's launch at line 15 is in runTest"));
    g_assert_nonnull (strstr (d->message, "; from the host code's launch at line 15: grid (4096, 1, 1)"));
  }
  /* main is not run, but what its call gives is read: said so */
  {
    const WsKernelFile *f = ws_kernel_instance_get_file (inst);
    GPtrArray *diags = ws_kernel_file_get_diagnostics (f);
    gboolean said = FALSE;
    for (guint i = 0; i < diags->len; i++)
      said |= strcmp (((const WsKernelDiagnostic *) diags->pdata[i])->message,
                      "the host function “main” is not run: only its launches of kernels, and the values they use, "
                      "are read") == 0;
    g_assert_true (said);
  }
  /* the comment's type wins, and the size follows it */
  doubles = instance_of (text, NULL, as_double, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ws_kernel_instance_get_array (doubles, 0)->elem_size, ==, 8);
  g_assert_cmpuint (ws_kernel_instance_get_grid (doubles).x, ==, 2048);

  /* a size read at run time: the message says no call gives it */
  {
    g_auto (GStrv) halves = g_strsplit (text, "int nMB = 4;", 2);
    argv_text = g_strjoinv ("int nMB = atoi(argv[1]);", halves);
  }
  unknown = instance_of (argv_text, NULL, NULL, &error);
  g_assert_null (unknown);
  g_assert_nonnull (error);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "“nMB” is not known before the program runs (a parameter of the host "
                                            "function, at line 9, that no call of it gives a value that can be "
                                            "followed)"));
}

static void
test_template_types (void)
{
  const char *text =
    "/* warpscope:\n"
    " *   block = 256\n"
    " *   grid = 4096\n"
    " */\n"
    "template <typename T>\n"
    "__global__ void offset(T* a, int s)\n"
    "{\n"
    "  int i = blockDim.x * blockIdx.x + threadIdx.x + s;\n"
    "  a[i] = a[i] + 1;\n"
    "}\n"
    "template <typename T>\n"
    "__device__ T twice(T x) { return x + x; }\n"
    "__global__ void doubled(const int *in, int *out)\n"
    "{\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  out[i] = twice(in[i]);\n"
    "}\n";
  const char *as_float[] = { "T", "float", "s", "1", NULL };
  const char *as_double[] = { "T", "double", "s", "1", NULL };
  const char *as_nothing[] = { "T", "flot", "s", "1", NULL };
  const char *as_int[] = { "T", "int", "s", "0", NULL };
  g_autoptr (GError) error = NULL;
  WsKernelInstance *inst;

  /* no type: the message names the parameter, its kernel and where */
  inst = instance_of (text, "offset", NULL, &error);
  g_assert_null (inst);
  g_assert_cmpstr (error->message, ==,
                   "line 5, column 20: the template type parameter “T” of offset needs a type: write “T = …” in the "
                   "launch comment, with the type it stands for (float, int, double2…)");
  g_clear_error (&error);
  inst = instance_of (text, "offset", as_nothing, &error);
  g_assert_null (inst);
  g_assert_nonnull (strstr (error->message, "line 5, column 20: the type given for the template parameter “T”, "
                                            "“flot”, is not a type"));
  g_clear_error (&error);

  /* float and double: 4 and 8 bytes a lane, 4 and 8 sectors a request,
   * with s = 1 a sector more each */
  for (guint k = 0; k < 2; k++)
    {
      g_autoptr (WsKernelStats) st = NULL;
      g_autoptr (WsKernelMemory) m = NULL;
      g_autofree char *cuda = NULL;
      const WsStats *load;
      guint elem = k == 0 ? 4 : 8;

      inst = instance_of (text, "offset", k == 0 ? as_float : as_double, &error);
      g_assert_no_error (error);
      g_assert_cmpstr (ws_kernel_instance_get_kernel_name (inst), ==, "offset");
      g_assert_cmpuint (ws_kernel_instance_get_array (inst, 0)->elem_size, ==, elem);
      st = model (inst);
      load = site_of (inst, st, 9, WS_ACCESS_LOAD, "a");
      g_assert_cmpuint (load->instructions, ==, 4096 * 8);
      g_assert_cmpuint (load->sectors, ==, load->instructions * (elem + 1));
      /* the reference adds 1 in the type given: a[1], filled with 1 (a[i]
       * starts as i), becomes 2 */
      m = run_ok (inst);
      {
        guint8 bytes[16];

        g_assert_true (ws_kernel_memory_read (m, 0, 0, bytes, 2 * elem, NULL));
        if (k == 0)
          g_assert_cmpfloat (((float *) bytes)[1], ==, 2.0f);
        else
          g_assert_cmpfloat (((double *) bytes)[1], ==, 2.0);
      }
      cuda = ws_kernel_instance_print_cuda (inst, &error);
      g_assert_no_error (error);
      g_assert_nonnull (strstr (cuda, k == 0 ? "float *a" : "double *a"));
      g_assert_null (strstr (cuda, "template"));
      g_clear_pointer (&inst, ws_kernel_instance_unref);
    }

  /* a device function's type, the kernel not a template */
  {
    g_autoptr (WsKernelStats) st = NULL;

    inst = instance_of (text, "doubled", NULL, &error);
    g_assert_null (inst);
    g_assert_nonnull (strstr (error->message, "line 11, column 20: the template type parameter “T” of twice needs a "
                                              "type"));
    g_clear_error (&error);
    /* the same T, by name, for the kernel that is a template */
    inst = instance_of (text, "offset", as_int, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (ws_kernel_instance_get_array (inst, 0)->elem_size, ==, 4);
    g_clear_pointer (&inst, ws_kernel_instance_unref);
    inst = instance_of (text, "doubled", as_int, &error);
    g_assert_no_error (error);
    st = model (inst);
    g_assert_cmpuint (site_of (inst, st, 16, WS_ACCESS_STORE, "out")->instructions, ==, 4096 * 8);
    g_clear_pointer (&inst, ws_kernel_instance_unref);
  }

  /* the comment gives it; the host code's sizeof (T) reads it too */
  {
    g_autofree char *with_host = g_strconcat (
      "/* warpscope:\n"
      " *   T = double\n"
      " *   kernel = offset\n"
      " */\n",
      strstr (text, "template"),
      "template <typename T>\n"
      "void runTest(int nMB)\n"
      "{\n"
      "  T *d_a;\n"
      "  int n = nMB*1024*1024/sizeof(T);\n"
      "  cudaMalloc(&d_a, n * sizeof(T));\n"
      "  offset<<<n/256, 256>>>(d_a, 3);\n"
      "}\n", NULL);
    const char *mb[] = { "nMB", "4", NULL };

    inst = make (with_host, mb);
    g_assert_cmpuint (ws_kernel_instance_get_array (inst, 0)->elem_size, ==, 8);
    /* 4 MiB of doubles: 524288 elements, 2048 blocks of 256 */
    g_assert_cmpuint (ws_kernel_instance_get_grid (inst).x, ==, 2048);
    g_assert_cmpstr (ws_kernel_instance_get_param (inst, 1)->value_text, ==, "3");
    g_clear_pointer (&inst, ws_kernel_instance_unref);
  }
}

/* Host code that cannot be followed says what and where, and changes
 * nothing else. */
static void
test_launch_host_code_unfollowed (void)
{
  const char *head =
    "__global__ void k(float *x, int n) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) x[i] = 1;\n"
    "}\n";
  struct
  {
    const char *host;
    const char *message;
  } cases[] = {
    { "int main(int argc, char **argv) {\n  int n = atoi(argv[1]);\n  float *x;\n"
      "  k<<<(n + 255) / 256, 256>>>(x, n);\n}\n",
      "“n” is not known before the program runs (line 6, column 11: unknown function “atoi”" },
    { "int main() {\n  int n = 1024;\n  n += 3;\n  float *x;\n  k<<<(n + 255) / 256, 256>>>(x, n);\n}\n",
      "line 9, column 8: “n” is not known before the program runs (line 7 changes it)" },
    { "void run(float *x, int n) {\n  k<<<(n + 255) / 256, 256>>>(x, n);\n}\n",
      "line 6, column 8: “n” is not known before the program runs (a parameter of the host function, at line 5, "
      "that no call of it gives a value that can be followed)" },
    { "int main() {\n  dim3 b(b.x);\n  float *x;\n  k<<<1, b>>>(x, 4);\n}\n",
      "the value depends on itself" },
    { "int main() {\n  float *x;\n  k<<<1, 2048>>>(x, 4);\n}\n",
      "line 7, column 10: 2048 is more than 1024" },
    { "int main() {\n  float *x;\n  k<<<1, 0>>>(x, 4);\n}\n",
      "line 7, column 10: the launch's sizes are whole numbers of at least 1" },
    { "int main() {\n  float *x;\n  k<<<1, dim3(64, 32)>>>(x, 4);\n}\n",
      "line 7, column 3: a block of 64 × 32 × 1 threads is too large" },
    { "int main() {\n  float *x;\n  k<<<1, 32>>>(x);\n}\n",
      "the launch's arguments are not the kernel's parameters" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = g_strconcat (head, cases[i].host, NULL);
      g_autoptr (GError) error = NULL;
      g_autoptr (WsKernelInstance) inst = instance_of (text, NULL, NULL, &error);
      const char *sets[] = { "grid", "2", "block", "32", "n", "64", NULL };

      /* n has no value: the message says why main's launch gave none */
      g_assert_null (inst);
      g_assert_nonnull (error);
      if (strstr (error->message, cases[i].message) == NULL)
        g_error ("case %u: “%s” does not hold “%s”", i, error->message, cases[i].message);
      g_assert_nonnull (strstr (error->message, "the host code's launch at line"));
      g_assert_nonnull (strstr (error->message, "is not used"));
      /* given otherwise, it runs, and the unused launch is no note */
      inst = make (text, sets);
      g_assert_cmpuint (ws_kernel_instance_get_grid (inst).x, ==, 2);
      g_assert_null (find_note (inst, "host code's launch"));
    }
}

static void
test_defaults_and_sizing (void)
{
  const char *text =
    "// warpscope: grid = 4; block = 64\n"
    "__global__ void k(const int *idx, const float *in, float *out) {\n"
    "  int t = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  out[t] = in[idx[t] * 3];\n"
    "}\n";
  g_autoptr (WsKernelInstance) inst = make (text, NULL);
  const WsKernelArrayInfo *idx = ws_kernel_instance_get_array (inst, array_index (inst, "idx"));
  const WsKernelArrayInfo *in = ws_kernel_instance_get_array (inst, array_index (inst, "in"));
  const WsKernelArrayInfo *out = ws_kernel_instance_get_array (inst, array_index (inst, "out"));
  const char *const *notes = ws_kernel_instance_get_notes (inst);
  gboolean said = FALSE;

  /* inputs are filled with their indices, outputs with zeros */
  g_assert_cmpstr (idx->fill, ==, "i");
  g_assert_false (idx->fill_given);
  g_assert_cmpstr (out->fill, ==, "0");
  /* sized to what the kernel touches, following the data */
  g_assert_cmpuint (idx->n_elements, ==, 256);
  g_assert_cmpuint (in->n_elements, ==, 255 * 3 + 1);
  g_assert_cmpint (in->size_origin, ==, WS_KERNEL_SIZE_INFERRED);
  for (guint i = 0; notes[i]; i++)
    if (strcmp (notes[i], "in sized to what the kernel touches: 766 elements") == 0)
      said = TRUE;
  g_assert_true (said);
}

/* Dynamic shared memory that no extern __shared__ array reads is
 * reserved all the same, as CUDA does (a dial of the blocks an SM holds),
 * and a note says so; an unused extern array counts it too. */
static void
test_dynamic_shared_unread (void)
{
  const char *text =
    "// warpscope: grid = 4; block = 64; shared = 49152\n"
    "extern __shared__ unsigned dial[];\n"
    "__global__ void k(float *out) {\n"
    "  out[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f;\n"
    "}\n";
  g_autoptr (WsKernelInstance) inst = make (text, NULL);
  const char *const *notes = ws_kernel_instance_get_notes (inst);
  gboolean said = FALSE;

  g_assert_cmpuint (ws_kernel_instance_get_dynamic_shared (inst), ==, 49152);
  g_assert_cmpuint (ws_kernel_instance_get_shared_bytes (inst), ==, 49152);
  for (guint i = 0; notes[i]; i++)
    if (strcmp (notes[i], "shared is given, but no extern __shared__ array reads it: 49152 bytes per block, "
                "reserved") == 0)
      said = TRUE;
  g_assert_true (said);
}

/* ------------------------------------------------------------------ */
/* Messages                                                           */
/* ------------------------------------------------------------------ */

/* ------------------------------------------------------------------ */
/* Blocks at once                                                     */
/* ------------------------------------------------------------------ */

/* A run and its model with n threads at most (WS_KERNEL_THREADS): what out
 * holds after it, the model's stats and the prediction's without the caches. */
static void
run_with_threads (const char        *text,
                  const char *const *sets,
                  guint              n,
                  guint8            *out,
                  gsize              bytes,
                  WsKernelStats    **stats,
                  WsKernelPrediction **prediction)
{
  g_autofree char *value = g_strdup_printf ("%u", n);
  g_autoptr (WsKernelInstance) inst = make (text, sets);
  g_autoptr (WsKernelMemory) m = NULL;
  g_autoptr (GError) error = NULL;

  g_setenv ("WS_KERNEL_THREADS", value, TRUE);
  m = run_ok (inst);
  read_array (m, inst, "out", out, bytes);
  *stats = model (inst);
  *prediction = ws_kernel_predict (inst, NULL, 0, NULL, NULL, &error);
  g_assert_no_error (error);
  g_unsetenv ("WS_KERNEL_THREADS");
}

static void
assert_same_stats (const WsKernelStats *a,
                   const WsKernelStats *b)
{
  g_assert_cmpuint (a->n_sites, ==, b->n_sites);
  g_assert_cmpmem (a->sites, sizeof (WsStats) * a->n_sites, b->sites, sizeof (WsStats) * b->n_sites);
  g_assert_cmpmem (&a->total, sizeof a->total, &b->total, sizeof b->total);
  g_assert_cmpmem (&a->counts, sizeof a->counts, &b->counts, sizeof b->counts);
  g_assert_cmpmem (a->loop_iterations, sizeof (guint64) * a->n_loops, b->loop_iterations,
                   sizeof (guint64) * b->n_loops);
}

/* The blocks of a launch run on several threads where none can see what
 * another writes: the same memory, counts and model as one after another,
 * the same first error; a launch whose blocks talk (atomics) the same as
 * ever. */
static void
test_blocks_at_once (void)
{
  static const char *kernels[] = {
    /* global, shared after a barrier, local, a loop, a tail of blocks */
    "// warpscope: grid = 300; block = 64; N = 19000\n"
    "__global__ void k(const float *in, float *out, int N) {\n"
    "  __shared__ float tile[64];\n"
    "  float a[8];\n"
    "  int i = blockIdx.x * 64 + threadIdx.x;\n"
    "  tile[threadIdx.x] = i < N ? in[(i * 7) % N] : 0;\n"
    "  __syncthreads();\n"
    "  for (int j = 0; j < 8; j++)\n"
    "    a[j] = tile[(threadIdx.x + j * 9) % 64] * (j + 1);\n"
    "  float acc = 0;\n"
    "  for (int j = 0; j < (int)(blockIdx.x % 5) + 1; j++)\n"
    "    acc += a[(threadIdx.x + j) % 8];\n"
    "  if (i < N)\n"
    "    out[i] = acc;\n"
    "}\n",
    /* blocks that talk: one counter every block adds to */
    "// warpscope: grid = 300; block = 64; N = 19200\n"
    "__global__ void k(const float *in, float *out, int N) {\n"
    "  int i = blockIdx.x * 64 + threadIdx.x;\n"
    "  unsigned slot = atomicAdd((unsigned *) &out[N], 1u);\n"
    "  out[i] = in[i] + (float) (slot % 3);\n"
    "}\n",
  };
  const char *const sets[][8] = {
    { "in[19000]", "random(3)", "out[19000]", "0", NULL },
    { "in[19200]", "i", "out[19201]", "0", NULL },
  };
  const gsize bytes[] = { 19000 * 4, 19201 * 4 };

  for (guint k = 0; k < G_N_ELEMENTS (kernels); k++)
    {
      g_autofree guint8 *one = g_malloc (bytes[k]);
      g_autofree guint8 *four = g_malloc (bytes[k]);
      g_autoptr (WsKernelStats) s1 = NULL;
      g_autoptr (WsKernelStats) s4 = NULL;
      g_autoptr (WsKernelPrediction) p1 = NULL;
      g_autoptr (WsKernelPrediction) p4 = NULL;

      run_with_threads (kernels[k], sets[k], 1, one, bytes[k], &s1, &p1);
      run_with_threads (kernels[k], sets[k], 4, four, bytes[k], &s4, &p4);
      g_assert_cmpmem (one, bytes[k], four, bytes[k]);
      assert_same_stats (s1, s4);
      assert_same_stats (p1->stats, p4->stats);
      g_assert_cmpuint (s1->counts.blocks, ==, 300);
    }

  /* the bytes uploaded to the GPU, filled in parts on several threads: the
   * same as on one, from any byte on (a random fill of 12-byte structs,
   * 12 MB, from byte 5) */
  {
    static const char *text =
      "struct P { float x; int k; unsigned short s; };\n"
      "// warpscope: grid = 1; block = 32\n"
      "__global__ void k(const P *in, float *out) {\n"
      "  out[threadIdx.x] = in[threadIdx.x].x + in[threadIdx.x].k;\n"
      "}\n";
    const char *const fill_sets[] = { "in[1048576]", "random(7)", "out[32]", "0", NULL };
    g_autoptr (WsKernelInstance) inst = make (text, fill_sets);
    guint in = array_index (inst, "in");
    gsize n = ws_kernel_instance_get_array (inst, in)->bytes - 5;
    g_autofree guint8 *one = g_malloc (n);
    g_autofree guint8 *four = g_malloc (n);

    g_assert_cmpuint (n, >, 8 << 20);
    g_setenv ("WS_KERNEL_THREADS", "1", TRUE);
    ws_kernel_fill_bytes (inst, in, 5, one, n);
    g_setenv ("WS_KERNEL_THREADS", "4", TRUE);
    ws_kernel_fill_bytes (inst, in, 5, four, n);
    g_unsetenv ("WS_KERNEL_THREADS");
    g_assert_cmpmem (one, n, four, n);
  }

  /* the error of the first block that goes wrong, whichever thread ran it:
   * block 271 fails last (it loops longest), 273 on another thread first */
  {
    static const char *text =
      "// warpscope: grid = 400; block = 32\n"
      "__global__ void k(int *out) {\n"
      "  int i = blockIdx.x * 32 + threadIdx.x;\n"
      "  for (int j = 0; j < (blockIdx.x == 271 ? 20000 : 20); j++)\n"
      "    out[i] += j;\n"
      "  if (blockIdx.x == 271 || blockIdx.x == 273)\n"
      "    out[i + 400 * 32] = 1;\n"
      "}\n";
    const char *const err_sets[] = { "out[12800]", "0", NULL };
    const char *expected = "line 7: out[i + 400 * 32] writes element 21472 of an array of 12800 (block (271, 0, 0), thread (0, 0, 0))";

    for (guint n = 1; n <= 8; n *= 2)
      {
        g_autofree char *value = g_strdup_printf ("%u", n);
        g_autofree char *message = NULL;

        g_setenv ("WS_KERNEL_THREADS", value, TRUE);
        message = run_error (text, err_sets);
        g_unsetenv ("WS_KERNEL_THREADS");
        g_assert_cmpstr (message, ==, expected);
      }
  }
}

static void
test_run_errors (void)
{
  struct
  {
    const char *text;
    const char *sets[8];
    const char *message;
  } cases[] = {
    { "// warpscope: grid = 4; block = 32, 4; N = 64\n"
      "__global__ void k(const float *in, float *out, int N) {\n"
      "  int x = blockIdx.x * 32 + threadIdx.x, y = threadIdx.y;\n"
      "  for (int j = 0; j < 2; j++)\n"
      "    out[y * N + x] = in[(y + j) * N + x + 64];\n"
      "}\n",
      { "in[256]", "i", "out[256]", "0", NULL },
      "line 5: in[(y + j) * N + x + 64] reads element 256 of an array of 256 (block (0, 0, 0), thread (0, 2, 0))" },
    { "// warpscope: grid = 1; block = 32\n"
      "__global__ void k(int *out) {\n"
      "  __shared__ int s[16];\n"
      "  s[threadIdx.x] = 1;\n"
      "}\n",
      { "out[1]", "0", NULL },
      "line 4: s[threadIdx.x] writes element 16 of an array of 16 (block (0, 0, 0), thread (16, 0, 0))" },
    { "// warpscope: grid = 1; block = 32\n"
      "__global__ void k(int *out) {\n"
      "  out[threadIdx.x] = 10 / (threadIdx.x - 7);\n"
      "}\n",
      { "out[32]", "0", NULL },
      "line 3: integer division by zero (block (0, 0, 0), thread (7, 0, 0))" },
    { "// warpscope: grid = 1; block = 32\n"
      "__global__ void k(float *out) {\n"
      "  float4 *v = reinterpret_cast<float4 *>(out + 1);\n"
      "  v[threadIdx.x] = make_float4(0, 0, 0, 0);\n"
      "}\n",
      { "out[256]", "0", NULL },
      "line 4: v[threadIdx.x] moves 16 bytes at byte 4 of “out”, which is not a multiple of 16: a misaligned "
      "address (block (0, 0, 0), thread (0, 0, 0))" },
    { "// warpscope: grid = 1; block = 32; steps = 100000\n"
      "__global__ void k(int *flag) {\n"
      "  while (flag[0] == 0) { }\n"
      "}\n",
      { "flag[1]", "0", NULL },
      "line 3: the launch has run more than 100000 steps, in this “while” loop when it stopped (block (0, 0, 0)): it "
      "may never end; if it is meant to run this long, raise the limit with “steps = …” in the launch comment" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *message = run_error (cases[i].text, cases[i].sets);
      g_assert_cmpstr (message, ==, cases[i].message);
    }
}

static void
test_launch_errors (void)
{
  struct
  {
    const char *text;
    const char *kernel;
    const char *sets[6];
    const char *message;
  } cases[] = {
    { "__global__ void a(int *x) {}\n__global__ void b(int *x) {}\n", NULL, { NULL },
      "the file has 2 kernels (a, b): say which, with “kernel = NAME” in the launch comment or FILE.cu:NAME" },
    { "__global__ void a(int *x) {}\n", "c", { NULL }, "the file has no kernel “c”; its kernels are a" },
    { "// warpscope: grid = 1; block = 32\n__global__ void k(int *x, int n) { x[0] = n; }\n", NULL, { NULL },
      "line 2, column 31: the parameter “n” of k needs a value: write “n = …” in the launch comment" },
    { "// warpscope: grid = 1; block = 2000\n__global__ void k(int *x) {}\n", NULL, { NULL },
      "line 1, column 33: the block's x must be from 1 to 1024, not 2000" },
    { "// warpscope: grid = N; block = 32\n__global__ void k(int *x) {}\n", NULL, { NULL },
      "line 1, column 22: unknown name “N”" },
    { "// warpscope: grid = 1; block = 32; N = M; M = N + 1\n__global__ void k(int *x) {}\n", NULL, { NULL },
      "line 1, column 41: the value of “N” depends on itself" },
    { "// warpscope: grid = 1; block 32\n__global__ void k(int *x) {}\n", NULL, { NULL },
      "line 1, column 31: expected “=” after “block”" },
    { "// warpscope: grid = 1; block = 32\n__global__ void k(int *x) {}\n", NULL, { "n", "4 +", NULL },
      "“4 +”, column 4: expected an expression, found the end of the value" },
    { "// warpscope: grid = 1; block = 32\n__global__ void k(int *x) {}\n", NULL, { "y[4]", "0", NULL },
      "“y[4] = 0”: “y” is not an array parameter of k, nor a __constant__ or __device__ array" },
    { "// warpscope: grid = 1; block = 32\n__global__ void k(int *x) {}\n", NULL, { "x", "i + z", NULL },
      "“i + z”, column 5: unknown name “z”" },
    { "// warpscope: grid = 1; block = 32\ntemplate <int B> __global__ void k(int *x) { x[0] = B; }\n", NULL,
      { NULL }, "line 2, column 15: the template parameter “B” of k needs a value: write “B = …” in the launch "
      "comment" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (WsKernelInstance) inst = instance_of (cases[i].text, cases[i].kernel, cases[i].sets, &error);

      g_assert_null (inst);
      g_assert_cmpstr (error->message, ==, cases[i].message);
    }
}

/* What only compiling for a launch finds. */
static void
test_compile_errors (void)
{
  struct
  {
    const char *text;
    const char *message;
  } cases[] = {
    { "// warpscope: grid = 1; block = 32\n"
      "__global__ void k(float *a, float *b, int n) {\n"
      "  float *p = a;\n"
      "  if (n > 3) p = b;\n"
      "  p[0] = 1;\n"
      "}\n",
      "line 4, column 16: the pointer “p” points into “a” and here into “b”: a pointer must stay in one array" },
    { "// warpscope: grid = 1; block = 32\n"
      "__constant__ int c[4];\n"
      "__global__ void k(int *a) {\n"
      "  atomicAdd(&c[0], 1);\n"
      "}\n",
      "line 4, column 3: atomics work on global and shared memory, not on “c”" },
    { "// warpscope: grid = 1; block = 32\n"
      "__global__ void k(int *a) {\n"
      "  __shared__ float big[60000];\n"
      "  big[threadIdx.x] = 0;\n"
      "}\n",
      "a block uses 240000 bytes of shared memory; a GPU has at most 232448" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GError) error = NULL;
      const char *sets[] = { "a[32]", "0", NULL };
      g_autoptr (WsKernelInstance) inst = instance_of (cases[i].text, NULL, sets, &error);

      g_assert_null (inst);
      g_assert_cmpstr (error->message, ==, cases[i].message);
    }
}

static void
test_compare (void)
{
  const char *text =
    "// warpscope: grid = 1; block = 32; out[32] = 0; v[8] = 0\n"
    "__global__ void k(float *out, float2 *v) {\n"
    "  out[threadIdx.x] = threadIdx.x * 0.5f;\n"
    "  if (threadIdx.x < 8) v[threadIdx.x] = make_float2(threadIdx.x, 1.0f);\n"
    "}\n";
  g_autoptr (WsKernelInstance) inst = make (text, NULL);
  g_autoptr (WsKernelMemory) m = run_ok (inst);
  float gpu[32];
  float pairs[16];
  g_autofree char *message = NULL;

  read_array (m, inst, "out", gpu, sizeof gpu);
  g_assert_true (ws_kernel_memory_compare (m, array_index (inst, "out"), (guint8 *) gpu, sizeof gpu, &message));
  /* within the tolerance */
  gpu[5] *= 1.00001f;
  g_assert_true (ws_kernel_memory_compare (m, array_index (inst, "out"), (guint8 *) gpu, sizeof gpu, &message));
  gpu[7] = 3.25f;
  g_assert_false (ws_kernel_memory_compare (m, array_index (inst, "out"), (guint8 *) gpu, sizeof gpu, &message));
  g_assert_cmpstr (message, ==, "out[7] is 3.25 on the GPU, 3.5 in the reference");
  g_clear_pointer (&message, g_free);
  read_array (m, inst, "v", pairs, sizeof pairs);
  pairs[5] = 7;
  g_assert_false (ws_kernel_memory_compare (m, array_index (inst, "v"), (guint8 *) pairs, sizeof pairs, &message));
  g_assert_cmpstr (message, ==, "v[2].y is 7 on the GPU, 1 in the reference");
}

/* ------------------------------------------------------------------ */
/* The course kernels                                                 */
/* ------------------------------------------------------------------ */

static char *
read_data (const char *name)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "kernels", name, NULL);
  g_autoptr (GError) error = NULL;
  char *text = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, &error));
  return text;
}

static WsKernelInstance *
course (const char        *file,
        const char        *kernel,
        const char *const *sets)
{
  g_autofree char *text = read_data (file);
  g_autoptr (GError) error = NULL;
  WsKernelInstance *inst = instance_of (text, kernel, sets, &error);

  g_assert_no_error (error);
  return inst;
}

static void
test_course_transpose (void)
{
  const char *kernels[] = { "copy", "transposeNaive", "transposeCoalesced", "transposeNoBankConflicts" };
  /* the store's sectors per request and the shared load's wavefronts per instruction, as the post says */
  const double store_sectors[] = { 4, 32, 4, 4 };
  const double wavefronts[] = { 0, 0, 32, 1 };

  for (guint k = 0; k < G_N_ELEMENTS (kernels); k++)
    {
      g_autoptr (WsKernelInstance) inst = course ("transpose.cu", kernels[k], NULL);
      g_autoptr (WsKernelMemory) m = run_ok (inst);
      g_autoptr (WsKernelStats) s = model (inst);
      g_autofree float *out = g_new (float, 1024 * 1024);

      read_array (m, inst, "odata", out, 1024 * 1024 * 4);
      for (int y = 0; y < 1024; y += 7)
        for (int x = 0; x < 1024; x += 5)
          g_assert_cmpfloat (out[y * 1024 + x], ==, k == 0 ? y * 1024 + x : x * 1024 + y);
      for (guint i = 0; i < s->n_sites; i++)
        {
          const WsKernelSite *site = ws_kernel_instance_get_site (inst, i);
          if (site->space == WS_SPACE_GLOBAL && site->kind == WS_ACCESS_STORE)
            g_assert_cmpfloat (ws_stats_sectors_per_request (&s->sites[i]), ==, store_sectors[k]);
          if (site->space == WS_SPACE_GLOBAL && site->kind == WS_ACCESS_LOAD)
            g_assert_cmpfloat (ws_stats_sectors_per_request (&s->sites[i]), ==, 4);
          if (site->space == WS_SPACE_SHARED && site->kind == WS_ACCESS_LOAD)
            g_assert_cmpfloat (ws_stats_wavefronts_per_instruction (&s->sites[i]), ==, wavefronts[k]);
          if (site->space == WS_SPACE_SHARED && site->kind == WS_ACCESS_STORE)
            g_assert_cmpfloat (ws_stats_wavefronts_per_instruction (&s->sites[i]), ==, 1);
        }
    }
}

static void
test_course_reduction (void)
{
  const char *kernels[] = { "reduce0", "reduce1", "reduce2", "reduce3", "reduce4", "reduce5" };
  const char *small[] = { "N", "65536", NULL };
  const char *halved[] = { "N", "65536", "grid", "N / 512", "blockSize", "256", NULL };

  for (guint k = 0; k < G_N_ELEMENTS (kernels); k++)
    {
      gboolean half = k >= 3;
      g_autoptr (WsKernelInstance) inst = course ("reduction.cu", kernels[k], half ? halved : small);
      g_autoptr (WsKernelMemory) m = run_ok (inst);
      g_autoptr (WsKernelStats) s = model (inst);
      guint per = half ? 512 : 256;
      guint blocks = 65536 / per;
      g_autofree gint32 *out = g_new (gint32, blocks);

      read_array (m, inst, "g_odata", out, blocks * 4);
      for (guint b = 0; b < blocks; b++)
        {
          gint32 want = 0;
          for (guint i = b * per; i < (b + 1) * per; i++)
            want += i % 7;
          g_assert_cmpint (out[b], ==, want);
        }
      /* reduce1's strided index conflicts in shared memory (the slides' point); reduce2's does not */
      if (k == 1 || k == 2)
        for (guint i = 0; i < s->n_sites; i++)
          {
            const WsKernelSite *site = ws_kernel_instance_get_site (inst, i);
            if (site->space == WS_SPACE_SHARED && site->kind == WS_ACCESS_LOAD && site->line == (k == 1 ? 49 : 67))
              {
                if (k == 1)
                  g_assert_cmpuint (ws_stats_bank_conflicts (&s->sites[i]), >, 0);
                else
                  g_assert_cmpuint (ws_stats_bank_conflicts (&s->sites[i]), ==, 0);
              }
          }
    }
}

static void
test_course_stencil (void)
{
  const char *sets[] = { "N", "4096", NULL };
  g_autoptr (WsKernelInstance) inst = course ("stencil_1d.cu", NULL, sets);
  g_autoptr (WsKernelMemory) m = run_ok (inst);
  g_autofree gint32 *out = g_new (gint32, 4096 + 6);

  read_array (m, inst, "out", out, (4096 + 6) * 4);
  for (int g = 0; g < 4096; g++)
    {
      gint32 want = 0;
      for (int o = -3; o <= 3; o++)
        want += (g + 3 + o) % 100;
      g_assert_cmpint (out[g + 3], ==, want);
    }
}

static void
test_course_matvec (void)
{
  const char *sets[] = { "n", "512", NULL };

  for (int cols = 0; cols <= 1; cols++)
    {
      g_autoptr (WsKernelInstance) inst = course ("matvec.cu", cols ? "matvec_cols" : "matvec_rows", sets);
      g_autoptr (WsKernelMemory) m = run_ok (inst);
      g_autoptr (WsKernelStats) s = model (inst);
      float y[512];
      const WsStats *a = NULL;

      read_array (m, inst, "y", y, sizeof y);
      for (int r = 0; r < 512; r += 11)
        {
          float want = 0;
          for (int k = 0; k < 512; k++)
            want += ((cols ? k * 512 + r : r * 512 + k) % 13) * 0.5f;
          g_assert_cmpfloat_with_epsilon (y[r], want, 1e-3);
        }
      for (guint i = 0; i < s->n_sites; i++)
        if (strcmp (ws_kernel_instance_get_site (inst, i)->array_name, "A") == 0)
          a = &s->sites[i];
      /* by rows every lane is a row apart: a sector each; by columns the warp reads 128 bytes in a row */
      g_assert_cmpfloat (ws_stats_sectors_per_request (a), ==, cols ? 4 : 32);
    }
}

static void
test_course_grid_stride (void)
{
  const char *sets[] = { "n", "100000", "grid", "7", NULL };
  g_autoptr (WsKernelInstance) inst = course ("grid_stride.cu", NULL, sets);
  g_autoptr (WsKernelMemory) m = run_ok (inst);
  g_autofree float *y = g_new (float, 100000);

  read_array (m, inst, "y", y, 100000 * 4);
  for (int i = 0; i < 100000; i++)
    g_assert_cmpfloat (y[i], ==, 2.0f * i + 1);
}

static void
test_course_histogram (void)
{
  const char *sets[] = { "size", "100000", NULL };
  g_autoptr (WsKernelInstance) inst = course ("histogram.cu", NULL, sets);
  g_autoptr (WsKernelMemory) m = run_ok (inst);
  g_autoptr (WsKernelStats) s = model (inst);
  g_autofree guint8 *buffer = g_new (guint8, 100000);
  guint32 histo[256], want[256] = { 0 };

  ws_kernel_fill_bytes (inst, array_index (inst, "buffer"), 0, buffer, 100000);
  for (int i = 0; i < 100000; i++)
    want[buffer[i]]++;
  read_array (m, inst, "histo", histo, sizeof histo);
  for (int b = 0; b < 256; b++)
    g_assert_cmpuint (histo[b], ==, want[b]);
  g_assert_cmpuint (s->counts.atomics, >, 0);
}

static void
test_course_matmul (void)
{
  const char *sets[] = { "Width", "64", NULL };
  g_autoptr (WsKernelInstance) inst = course ("matmul_tiled.cu", NULL, sets);
  g_autoptr (WsKernelMemory) m = run_ok (inst);
  g_autoptr (WsKernelStats) s = model (inst);
  float p[64 * 64];

  read_array (m, inst, "Pd", p, sizeof p);
  for (int r = 0; r < 64; r += 3)
    for (int c = 0; c < 64; c += 5)
      {
        float want = 0;
        for (int k = 0; k < 64; k++)
          want += ((r * 64 + k) % 17) * 0.25f * (((k * 64 + c) % 5) * 0.5f);
        g_assert_cmpfloat_with_epsilon (p[r * 64 + c], want, 1e-3);
      }
  g_assert_cmpuint (s->counts.barriers, ==, 16 * 2 * (64 / 16));
}

/* The shared loads of a line, summed over its sites. */
static WsStats
line_shared (const WsKernelInstance *inst,
             const WsKernelStats    *s,
             guint                   line)
{
  WsStats sum = { 0 };

  for (guint i = 0; i < s->n_sites; i++)
    {
      const WsKernelSite *site = ws_kernel_instance_get_site (inst, i);
      if (site->line == line && site->space == WS_SPACE_SHARED)
        {
          sum.instructions += s->sites[i].instructions;
          sum.wavefronts += s->sites[i].wavefronts;
        }
    }
  return sum;
}

/* matmul_tiled.cu at its own launch (Width 256): nvcc joins Mds[ty][k ..
 * k + 3] into one LDS.128 (2 wavefronts for a warp over two rows) and
 * keeps sixteen LDS of Nds[k][tx]; the H100's per-line counters gave
 * 786 432 shared wavefronts for line 36 (the model said 1 048 576 when it
 * counted sixteen LDS of each). */
static void
test_course_matmul_joined (void)
{
  g_autoptr (WsKernelInstance) inst = course ("matmul_tiled.cu", NULL, NULL);
  g_autoptr (WsKernelStats) s = model (inst);
  g_autoptr (GError) error = NULL;
  g_autoptr (WsKernelPrediction) pr = ws_kernel_predict (inst, NULL, 0, NULL, NULL, &error);
  WsStats l36 = line_shared (inst, s, 36), p36 = { 0 };
  guint64 warps_times_tiles = 2048 * 16;

  g_assert_no_error (error);
  g_assert_cmpuint (l36.wavefronts, ==, 786432);
  /* per warp and tile: 4 LDS.128 and 16 LDS */
  g_assert_cmpuint (l36.instructions, ==, warps_times_tiles * (4 + 16));
  g_assert_cmpuint (line_shared (inst, s, 31).wavefronts, ==, 32768);
  g_assert_cmpuint (line_shared (inst, s, 32).wavefronts, ==, 32768);
  g_assert_true (ws_kernel_prediction_line (pr, inst, 36, &p36, NULL));
  g_assert_cmpuint (p36.wavefronts, ==, 786432);
  g_assert_cmpuint (p36.instructions, ==, warps_times_tiles * (4 + 16));
  for (guint i = 0; i < s->n_sites; i++)
    {
      const WsKernelSite *site = ws_kernel_instance_get_site (inst, i);
      if (site->line == 36)
        g_assert_cmpuint (site->joined_size, ==, g_str_has_prefix (site->text, "Mds") ? 16 : 0);
    }
}

/* Which loads nvcc joins (what nvcc 13.0 did for sm_90 with each shape:
 * see join_group () in ws-kernel-compile.c), and that the counts follow. */
static void
test_model_joined_shapes (void)
{
  static const struct
  {
    const char *type;
    const char *cols;
    const char *pragma;
    const char *bound;
    const char *index;
    guint joined;
  } shapes[] = {
    { "float", "16", "", "16", "k", 16 },                     /* LDS.128 */
    { "float", "16", "#pragma unroll", "16", "k", 16 },
    { "float", "16", "#pragma unroll 8", "16", "k", 16 },
    { "float", "16", "#pragma unroll 4", "16", "k", 8 },      /* LDS.64 */
    { "float", "16", "#pragma unroll 2", "16", "k", 0 },
    { "float", "16", "#pragma unroll 1", "16", "k", 0 },
    { "float", "16", "", "n", "k", 0 },                       /* a runtime bound */
    { "float", "16", "", "8", "k + 4", 16 },
    { "float", "16", "", "8", "k + 1", 0 },                   /* not on a group's boundary */
    { "float", "20", "", "16", "k", 16 },                     /* rows of 80 bytes */
    { "float", "17", "", "16", "k", 0 },                      /* rows of 68 bytes */
    { "double", "16", "", "16", "k", 16 },                    /* two doubles a LDS.128 */
  };

  for (guint i = 0; i < G_N_ELEMENTS (shapes); i++)
    {
      g_autofree char *text = g_strdup_printf (
        "/* warpscope:\n *   grid = 4\n *   block = 16, 16\n *   n = 16\n */\n"
        "__global__ void k (%s *out, int n)\n"
        "{\n"
        "  __shared__ %s a[16][%s];\n"
        "  __shared__ %s b[16][16];\n"
        "  int tx = threadIdx.x, ty = threadIdx.y;\n"
        "  a[ty][tx] = tx;\n"
        "  b[ty][tx] = ty;\n"
        "  __syncthreads ();\n"
        "  %s p = 0;\n"
        "  %s\n"
        "  for (int k = 0; k < %s; ++k)\n"
        "    p += a[ty][%s] * b[k][tx];\n"
        "  out[ty * 16 + tx] = p;\n"
        "}\n",
        shapes[i].type, shapes[i].type, shapes[i].cols, shapes[i].type, shapes[i].type, shapes[i].pragma,
        shapes[i].bound, shapes[i].index);
      g_autoptr (WsKernelInstance) inst = make (text, NULL);
      g_autoptr (WsKernelStats) s = model (inst);
      guint trips = g_str_equal (shapes[i].bound, "8") ? 8 : 16;
      guint elem = g_str_equal (shapes[i].type, "double") ? 8 : 4;
      guint64 warps = 4 * 8;

      for (guint j = 0; j < s->n_sites; j++)
        {
          const WsKernelSite *site = ws_kernel_instance_get_site (inst, j);

          if (site->line != 17)
            continue;
          g_test_message ("%s rows of %s, %s k < %s: %s", shapes[i].type, shapes[i].cols, shapes[i].pragma,
                          shapes[i].bound, site->text);
          if (site->text[0] == 'a')
            {
              guint per = site->joined_size ? site->joined_size / elem : 1;
              g_assert_cmpuint (site->joined_size, ==, shapes[i].joined);
              g_assert_cmpuint (s->sites[j].instructions, ==, warps * trips / per);
            }
          else
            {
              g_assert_cmpuint (site->joined_size, ==, 0);
              g_assert_cmpuint (s->sites[j].instructions, ==, warps * trips);
            }
        }
    }
}

static void
test_course_shuffle_reduce (void)
{
  const char *kernels[] = { "deviceReduceWarpAtomicKernel", "deviceReduceBlockAtomicKernel" };
  const char *sets[] = { "N", "65536", NULL };
  gint32 want = 0;

  for (int i = 0; i < 65536; i++)
    want += i % 10;
  for (guint k = 0; k < G_N_ELEMENTS (kernels); k++)
    {
      g_autoptr (WsKernelInstance) inst = course ("shuffle_reduce.cu", kernels[k], sets);
      g_autoptr (WsKernelMemory) m = run_ok (inst);
      g_autoptr (WsKernelStats) s = model (inst);
      gint32 out;

      read_array (m, inst, "out", &out, sizeof out);
      g_assert_cmpint (out, ==, want);
      /* 5 shuffles a warp (and 5 more in the first warp of a block) */
      g_assert_cmpuint (s->counts.shuffles, ==, s->warps * 5 + (k == 1 ? s->blocks * 5 : 0));
      /* one atomic a warp, or a block */
      g_assert_cmpuint (s->counts.atomics, ==, k == 0 ? s->warps : s->blocks);
    }
}

static void
test_course_dot_product (void)
{
  g_autoptr (WsKernelInstance) inst = course ("dot_product.cu", NULL, NULL);
  g_autoptr (WsKernelMemory) m = run_ok (inst);
  const int n = 33 * 1024, threads = 256, blocks = 32;
  float c[32];

  g_assert_cmpuint (ws_kernel_instance_get_grid (inst).x, ==, blocks);
  read_array (m, inst, "c", c, sizeof c);
  for (int b = 0; b < blocks; b++)
    {
      /* the same float operations in the same order */
      float cache[256];
      for (int t = 0; t < threads; t++)
        {
          float temp = 0;
          for (int tid = b * threads + t; tid < n; tid += threads * blocks)
            temp += (float) tid * (float) (tid * 2);
          cache[t] = temp;
        }
      for (int i = threads / 2; i != 0; i /= 2)
        for (int t = 0; t < i; t++)
          cache[t] += cache[t + i];
      g_assert_cmpfloat (c[b], ==, cache[0]);
    }
}

static gpointer
analyze_thread (gpointer data)
{
  return ws_kernel_model_analyze (data, NULL, NULL, NULL);
}

/* An instance is shared between threads: two models of it at once agree
 * with one made alone. */
static void
test_threads (void)
{
  g_autoptr (WsKernelInstance) inst = course ("transpose.cu", "transposeCoalesced", NULL);
  g_autoptr (WsKernelStats) alone = model (inst);
  GThread *t1 = g_thread_new ("model-1", analyze_thread, inst);
  GThread *t2 = g_thread_new ("model-2", analyze_thread, inst);
  g_autoptr (WsKernelStats) s1 = g_thread_join (t1);
  g_autoptr (WsKernelStats) s2 = g_thread_join (t2);

  g_assert_nonnull (s1);
  g_assert_nonnull (s2);
  for (guint i = 0; i < alone->n_sites; i++)
    {
      g_assert_cmpmem (&s1->sites[i], sizeof (WsStats), &alone->sites[i], sizeof (WsStats));
      g_assert_cmpmem (&s2->sites[i], sizeof (WsStats), &alone->sites[i], sizeof (WsStats));
    }
  g_assert_cmpmem (&s1->counts, sizeof s1->counts, &alone->counts, sizeof alone->counts);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/kernel-run/arithmetic/integer", test_integer_arithmetic);
  g_test_add_func ("/kernel-run/arithmetic/float", test_float_arithmetic);
  g_test_add_func ("/kernel-run/divergence", test_divergence);
  g_test_add_func ("/kernel-run/barrier", test_barrier);
  g_test_add_func ("/kernel-run/atomics", test_atomics);
  g_test_add_func ("/kernel-run/shuffles", test_shuffles);
  g_test_add_func ("/kernel-run/vectors-and-structs", test_vectors_and_structs);
  g_test_add_func ("/kernel-run/local-and-register", test_local_and_register);
  g_test_add_func ("/kernel-run/constant-and-ldg", test_constant_and_ldg);
  g_test_add_func ("/kernel-run/pointers", test_pointers);
  g_test_add_func ("/kernel-run/initialised-globals", test_initialised_globals);
  g_test_add_func ("/kernel-run/model/coalescing", test_model_coalescing);
  g_test_add_func ("/kernel-run/model/banks", test_model_banks);
  g_test_add_func ("/kernel-run/model/analyze-warp", test_analyze_warp);
  g_test_add_func ("/kernel-run/launch/comment", test_launch_comment);
  g_test_add_func ("/kernel-run/launch/overrides", test_launch_overrides);
  g_test_add_func ("/kernel-run/launch/per-kernel", test_launch_per_kernel);
  g_test_add_func ("/kernel-run/launch/defaults-and-sizing", test_defaults_and_sizing);
  g_test_add_func ("/kernel-run/launch/host-code", test_launch_host_code);
  g_test_add_func ("/kernel-run/launch/host-code-unfollowed", test_launch_host_code_unfollowed);
  g_test_add_func ("/kernel-run/launch/template-types", test_template_types);
  g_test_add_func ("/kernel-run/launch/host-calls", test_host_calls);
  g_test_add_func ("/kernel-run/dynamic-shared-unread", test_dynamic_shared_unread);
  g_test_add_func ("/kernel-run/messages/run", test_run_errors);
  g_test_add_func ("/kernel-run/messages/launch", test_launch_errors);
  g_test_add_func ("/kernel-run/messages/compile", test_compile_errors);
  g_test_add_func ("/kernel-run/compare", test_compare);
  g_test_add_func ("/kernel-run/course/transpose", test_course_transpose);
  g_test_add_func ("/kernel-run/course/reduction", test_course_reduction);
  g_test_add_func ("/kernel-run/course/stencil", test_course_stencil);
  g_test_add_func ("/kernel-run/course/matvec", test_course_matvec);
  g_test_add_func ("/kernel-run/course/grid-stride", test_course_grid_stride);
  g_test_add_func ("/kernel-run/course/histogram", test_course_histogram);
  g_test_add_func ("/kernel-run/course/matmul", test_course_matmul);
  g_test_add_func ("/kernel-run/course/matmul-joined", test_course_matmul_joined);
  g_test_add_func ("/kernel-run/model/joined-shapes", test_model_joined_shapes);
  g_test_add_func ("/kernel-run/course/shuffle-reduce", test_course_shuffle_reduce);
  g_test_add_func ("/kernel-run/course/dot-product", test_course_dot_product);
  g_test_add_func ("/kernel-run/threads", test_threads);
  g_test_add_func ("/kernel-run/blocks-at-once", test_blocks_at_once);
  g_test_add_func ("/kernel-run/model/division-cost", test_division_cost);
  g_test_add_func ("/kernel-run/model/predicated-if", test_predicated_if);
  return g_test_run ();
}
