/* SPDX-License-Identifier: GPL-3.0-or-later */
/* CUDA source from patterns: what the kernel computes and touches, and that
 * NVRTC compiles it for Turing and Hopper. Needs no GPU, only the toolkit. */
#include "ws-config.h"
#include "ws-presets.h"

#include <string.h>

#if WS_HAVE_CUDA
#include "ws-codegen.h"
#include "ws-jit.h"
#include "sample.h"

static WsPattern *
pattern_new (WsSpace      space,
             WsAccessKind kind,
             guint        elem_size,
             const char  *index)
{
  g_autoptr (WsPattern) p = ws_pattern_new ();
  g_autoptr (GError) error = NULL;

  g_assert_true (ws_pattern_set_grid (p, WS_DIM3 (4, 1, 1), &error));
  g_assert_true (ws_pattern_add_definition (p, "i", "blockIdx.x * blockDim.x + threadIdx.x", &error));
  g_assert_true (ws_pattern_add_access (p, "a", space, kind, elem_size, index, 0, &error));
  g_assert_no_error (error);
  return g_steal_pointer (&p);
}

static char *
expr_cuda (const char *text)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WsExpr) e = ws_expr_parse (text, NULL, &error);

  g_assert_no_error (error);
  return ws_codegen_expr (e);
}

/* Comparisons are bool in C++: shifting one would be int arithmetic. */
static void
test_expr_types (void)
{
  g_autofree char *shift = expr_cuda ("(i < 3) << 40");
  g_autofree char *minimum = expr_cuda ("-9223372036854775807 - 1");
  g_autofree char *neg = expr_cuda ("- -x");
  g_autofree char *call = expr_cuda ("min(lane, 3) + abs(-warp)");

  g_assert_cmpstr (shift, ==, "(long long) (i < 3LL) << 40LL");
  g_assert_cmpstr (minimum, ==, "-9223372036854775807LL - 1LL");
  g_assert_cmpstr (neg, ==, "-(-x)");
  g_assert_cmpstr (call, ==, "min(lane, 3LL) + abs(-warp)");
}

/* Arrays are as large as the model says the launch reaches. */
static void
test_extents (void)
{
  g_autoptr (WsPattern) banks = ws_preset_build (ws_preset_lookup ("banks/stride"));
  g_autoptr (WsPattern) padded = ws_preset_build (ws_preset_lookup ("transpose/shared-padded"));
  g_autoptr (WsPattern) local = pattern_new (WS_SPACE_LOCAL, WS_ACCESS_LOAD, 8, "lane");
  g_autoptr (WsKernelSource) a = ws_codegen_generate (banks, NULL, NULL);
  g_autoptr (WsKernelSource) b = ws_codegen_generate (padded, NULL, NULL);
  g_autoptr (WsKernelSource) c = ws_codegen_generate (local, NULL, NULL);
  const WsKernelArray *in;

  /* 256 threads, stride 1, 4 bytes */
  g_assert_cmpint (a->shared_bytes, ==, 1024);
  /* tile[32][33] of floats, rounded to 16 bytes */
  g_assert_cmpint (b->shared_bytes, ==, 4224);
  g_assert_cmpuint (b->n_global, ==, 2);
  in = ws_kernel_source_find_array (b, WS_SPACE_GLOBAL, "in");
  g_assert_nonnull (in);
  /* the real kernel's matrix side, 8192 */
  g_assert_cmpint (in->bytes, ==, (gint64) 8192 * 8192 * 4);
  /* lanes 0-31, 8 bytes each, per thread */
  g_assert_cmpint (c->local_bytes, ==, 256);
  g_assert_nonnull (strstr (c->source, "ld.local.u64"));
  /* a zero the compiler cannot see through keeps the slot in memory */
  g_assert_nonnull (strstr (c->source, "const long long ws_o0 = (long long) (::clock64 () + lane < 0LL);"));
  g_assert_nonnull (strstr (c->source, "ws_i0 * 8LL + 0LL + ws_o0;"));
}

/* The source says what the model evaluates: the shadowed built-ins, the
 * definitions, the guard as an if, one access of the right kind. */
static void
test_source (void)
{
  g_autoptr (WsPattern) p = ws_preset_build (ws_preset_lookup ("coalescing/offset"));
  g_autoptr (WsPattern) atom = pattern_new (WS_SPACE_GLOBAL, WS_ACCESS_ATOMIC, 8, "i % 4");
  g_autoptr (WsKernelSource) ks = ws_codegen_generate (p, NULL, NULL);
  g_autoptr (WsKernelSource) ka = ws_codegen_generate (atom, NULL, NULL);

  g_assert_nonnull (strstr (ks->source, "const ws_ll3 threadIdx = { (long long) ::threadIdx.x"));
  g_assert_nonnull (strstr (ks->source, "const long long offset = 1LL;"));
  g_assert_nonnull (strstr (ks->source, "const long long i = blockIdx.x * blockDim.x + threadIdx.x;"));
  g_assert_nonnull (strstr (ks->source, "const bool ws_active = (long long) (i < N) != 0LL;"));
  g_assert_nonnull (strstr (ks->source, "*(const unsigned int *) (ws_g_in + ws_a0)"));
  /* a RED of every lane, on an address the compiler cannot prove uniform:
   * else it would make one lane's RED of the warp's count */
  g_assert_nonnull (strstr (ka->source, "red.global.add.u64 [ws_p], %1;"));
  g_assert_nonnull (strstr (ka->source, "ws_i0 * 8LL + 0LL + ws_o0;"));
  g_assert_cmpuint (strlen (ks->hash), ==, 64);
}

static void
test_refusals (void)
{
  g_autoptr (WsPattern) negative = pattern_new (WS_SPACE_GLOBAL, WS_ACCESS_LOAD, 4, "i - 1");
  g_autoptr (WsPattern) two = pattern_new (WS_SPACE_SHARED, WS_ACCESS_LOAD, 4, "i % 256 * 200");
  g_autoptr (GError) error = NULL;
  g_autoptr (WsKernelSource) ks = ws_codegen_generate (negative, NULL, &error);

  g_assert_null (ks);
  g_assert_error (error, WS_PATTERN_ERROR, WS_PATTERN_ERROR_ADDRESS);
  g_assert_nonnull (strstr (error->message, "block (0, 0, 0), thread (0, 0, 0) — warp 0, lane 0"));
  g_clear_error (&error);

  /* two shared arrays of 200 KiB each: together more than a block may have */
  g_assert_true (ws_pattern_add_access (two, "b", WS_SPACE_SHARED, WS_ACCESS_LOAD, 4, "i % 256 * 200", 0, NULL));
  ks = ws_codegen_generate (two, NULL, &error);
  g_assert_null (ks);
  g_assert_error (error, WS_PATTERN_ERROR, WS_PATTERN_ERROR_ADDRESS);
  g_assert_nonnull (strstr (error->message, "shared arrays need"));
}

static void
compile_or_fail (const WsPattern *p,
                 const char      *what)
{
  static const char *targets[] = { "sm_90", "sm_75" };
  g_autoptr (GError) error = NULL;
  g_autoptr (WsKernelSource) ks = ws_codegen_generate (p, NULL, &error);

  g_assert_no_error (error);
  for (guint t = 0; t < G_N_ELEMENTS (targets); t++)
    {
      g_autoptr (GBytes) image = ws_jit_compile (ks, targets[t], NULL, &error);
      if (error)
        g_error ("%s for %s: %s\n%s", what, targets[t], error->message, ks->source);
      g_assert_cmpuint (g_bytes_get_size (image), >, 0);
    }
}

static void
test_compile_presets (void)
{
  guint n;
  const WsPreset *presets = ws_presets_get_all (&n);
  Sample sample;

  sample_init (&sample, "presets", 1);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (WsPattern) p = NULL;

      if (!sample_keep (&sample, presets[i].topic, NULL))
        continue;
      p = ws_preset_build (&presets[i]);
      compile_or_fail (p, presets[i].id);
    }
  sample_finish (&sample);
}

/* Every space, access and width the model knows becomes a kernel. */
static void
test_compile_matrix (void)
{
  static const guint sizes[] = { 1, 2, 4, 8, 16 };
  Sample sample;

  sample_init (&sample, "kernels", 1);
  for (WsSpace space = 0; space < WS_N_SPACES; space++)
    for (WsAccessKind kind = 0; kind < WS_N_ACCESS_KINDS; kind++)
      for (guint k = 0; k < G_N_ELEMENTS (sizes); k++)
        {
          g_autoptr (WsPattern) p = ws_pattern_new ();
          g_autofree char *what = g_strdup_printf ("%s %s %u", ws_space_to_string (space),
                                                   ws_access_kind_to_string (kind), sizes[k]);
          g_autofree char *size = g_strdup_printf ("%u bytes", sizes[k]);

          if (!ws_pattern_add_access (p, "a", space, kind, sizes[k], "lane + warp", 0, NULL))
            continue;   /* the model refuses it (a constant store, a 1-byte atomic) */
          if (!sample_keep (&sample, ws_space_to_string (space), ws_access_kind_to_string (kind), size, NULL))
            continue;
          compile_or_fail (p, what);
        }
  sample_finish (&sample);
}

/* NVRTC's complaints come back naming the part of the pattern, not a line
 * of generated code. A valid pattern always compiles, so the errors are
 * planted in its lines of source. */
static char *
replace (const char *text,
         const char *from,
         const char *to)
{
  g_auto (GStrv) parts = g_strsplit (text, from, -1);

  g_assert_cmpuint (g_strv_length (parts), ==, 2);
  return g_strjoinv (to, parts);
}

static void
test_compile_error (void)
{
  g_autoptr (WsPattern) p = pattern_new (WS_SPACE_GLOBAL, WS_ACCESS_LOAD, 4, "i + k");
  g_autoptr (WsKernelSource) ks = NULL;
  g_autoptr (GBytes) image = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *log = NULL;
  char *planted;

  g_assert_true (ws_pattern_set_param (p, "k", 3, NULL));
  ks = ws_codegen_generate (p, NULL, &error);
  g_assert_no_error (error);
  planted = replace (ks->source, "const long long k = 3LL;", "const long long k = 3LL +;");
  g_free (ks->source);
  ks->source = planted;
  planted = replace (ks->source, "ws_i0 = i + k;", "ws_i0 = i + k k;");
  g_free (ks->source);
  ks->source = planted;
  image = ws_jit_compile (ks, "sm_90", &log, &error);
  g_assert_null (image);
  g_assert_error (error, WS_GPU_ERROR, WS_GPU_ERROR_COMPILE_FAILED);
  g_assert_nonnull (strstr (error->message, "in the parameter k (3)"));
  g_assert_nonnull (strstr (error->message, "in the index of a (i + k)"));
  g_assert_nonnull (strstr (log, WS_CODEGEN_FILE_NAME "("));
}

/* Names that C, C++ or NVRTC reserve never reach the compiler: the model
 * refuses them. */
static void
test_reserved_names (void)
{
  static const char *reserved[] = {
    "bitand", "_Pragma", "_Bool", "_Static_assert", "_X", "a__b", "__x", "NULL", "assert",
    "restrict", "co_await", "typeof", "defined", "cudaStreamDefault", "CUDART_VERSION",
    "CU_UUID_HAS_BEEN_DEFINED", "NV_HAS_FEATURE_SM_90a", "ws_zero", "warpSize",
  };

  for (guint i = 0; i < G_N_ELEMENTS (reserved); i++)
    {
      g_autoptr (WsPattern) p = ws_pattern_new ();
      g_autoptr (GError) error = NULL;
      g_autofree char *index = g_strdup_printf ("%s + 1", reserved[i]);

      g_assert_true (ws_name_is_reserved (reserved[i]));
      g_assert_false (ws_pattern_set_param (p, reserved[i], 3, &error));
      g_assert_nonnull (strstr (error->message, "reserved"));
      g_clear_error (&error);
      g_assert_false (ws_pattern_add_definition (p, reserved[i], "1", &error));
      g_clear_error (&error);
      g_assert_false (ws_pattern_add_access (p, "a", WS_SPACE_GLOBAL, WS_ACCESS_LOAD, 4, index, 0, &error));
      g_assert_nonnull (strstr (error->message, "reserved"));
    }
}

/* Names that look like CUDA's functions and types, but are neither keywords
 * nor macros, are fine: the kernel qualifies what it calls with ::. */
static void
test_lookalike_names (void)
{
  static const char *names[] = { "uint4", "make_uint4", "atomicAdd", "clock64", "dim3", "printf", "size_t",
                                 "int8_t", "Pragma", "_pragma", "N" };
  g_autoptr (GString) sum = g_string_new ("lane");
  static const struct { WsSpace space; WsAccessKind kind; guint elem; } accesses[] = {
    { WS_SPACE_GLOBAL, WS_ACCESS_STORE, 16 }, { WS_SPACE_GLOBAL, WS_ACCESS_ATOMIC, 4 },
    { WS_SPACE_LOCAL, WS_ACCESS_LOAD, 16 }, { WS_SPACE_SHARED, WS_ACCESS_ATOMIC, 8 },
    { WS_SPACE_REGISTER, WS_ACCESS_LOAD, 16 }, { WS_SPACE_CONSTANT, WS_ACCESS_LOAD, 4 },
  };
  g_autoptr (WsPattern) p = ws_pattern_new ();

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_assert_false (ws_name_is_reserved (names[i]));
      g_assert_true (ws_pattern_set_param (p, names[i], 0, NULL));
      g_string_append_printf (sum, " + %s", names[i]);
    }
  for (guint i = 0; i < G_N_ELEMENTS (accesses); i++)
    g_assert_true (ws_pattern_add_access (p, "a", accesses[i].space, accesses[i].kind, accesses[i].elem,
                                          sum->str, 0, NULL));
  compile_or_fail (p, "look-alike names");
}

/* The source comes from the pattern's trees alone: texts that parse to the
 * same trees make the same kernel, whatever their spacing, parentheses or
 * line breaks, and no text a user typed appears in it, comments included. */
static void
test_no_user_text (void)
{
  static const char *texts[][3] = {
    { "blockIdx.x * blockDim.x + threadIdx.x", "i < N", "i * 2 + 1" },
    { "(blockIdx.x)*blockDim.x+threadIdx.x", "(i<N)", "((i * 2)) + 1" },
    { "blockIdx.x\n * blockDim.x + threadIdx.x // x", "i <\n N", "i * 2 +\n1 ; asm(\"trap;\")" },
    { "blockIdx.x\n * blockDim.x + threadIdx.x", "i <\n N", "i * 2 +\n1" },
  };
  g_autofree char *first = NULL;

  for (guint t = 0; t < G_N_ELEMENTS (texts); t++)
    {
      g_autoptr (WsPattern) p = ws_pattern_new ();
      g_autoptr (WsKernelSource) ks = NULL;
      g_autoptr (GError) error = NULL;
      g_auto (GStrv) lines = NULL;
      gboolean ok;

      ok = ws_pattern_set_grid (p, WS_DIM3 (4, 1, 1), &error) &&
           ws_pattern_set_param (p, "N", 1000, &error) &&
           ws_pattern_add_definition (p, "i", texts[t][0], &error) &&
           ws_pattern_set_guard (p, texts[t][1], &error) &&
           ws_pattern_add_access (p, "a", WS_SPACE_GLOBAL, WS_ACCESS_LOAD, 4, texts[t][2], 0, &error);
      if (t == 2)
        {
          /* what is not an expression never gets as far as a kernel */
          g_assert_false (ok);
          g_assert_error (error, WS_PATTERN_ERROR, WS_PATTERN_ERROR_EXPRESSION);
          continue;
        }
      g_assert_no_error (error);
      ks = ws_codegen_generate (p, NULL, &error);
      g_assert_no_error (error);
      if (first == NULL)
        first = g_strdup (ks->source);
      g_assert_cmpstr (ks->source, ==, first);

      lines = g_strsplit (ks->source, "\n", -1);
      for (guint l = 0; lines[l]; l++)
        {
          const char *comment = strstr (lines[l], "//");

          if (comment == NULL)
            continue;
          g_assert_true (g_str_equal (comment, "// Generated by Warpscope from a validated pattern. Do not edit.") ||
                         g_regex_match_simple ("^  // access [0-9]+: [a-z]+ [a-z]+ of ws_[a-z]_[A-Za-z0-9_]+, "
                                               "[0-9]+ bytes per lane$", lines[l], 0, 0));
        }
    }
}

/* An array no GPU could address is refused before its extent, rounded up
 * and added to the others, wraps negative and slips past the memory check. */
static void
test_huge_extent (void)
{
  static const char *indices[] = { "9223372036854775801 + lane % 2", "lane * 9007199254740992" };

  for (guint i = 0; i < G_N_ELEMENTS (indices); i++)
    {
      g_autoptr (WsPattern) p = ws_pattern_new ();
      g_autoptr (GError) error = NULL;
      g_autoptr (WsKernelSource) ks = NULL;
      g_autoptr (WsLaunchStats) stats = NULL;

      g_assert_true (ws_pattern_add_access (p, "a", WS_SPACE_GLOBAL, WS_ACCESS_LOAD, 1, indices[i], 0, &error));
      stats = ws_model_analyze_launch (p, NULL, &error);
      g_assert_no_error (error);
      ks = ws_codegen_generate (p, stats, &error);
      g_assert_null (ks);
      g_assert_error (error, WS_PATTERN_ERROR, WS_PATTERN_ERROR_ADDRESS);
      g_assert_nonnull (strstr (error->message, "256 TiB"));
    }
}

static void
test_explain_log (void)
{
  g_autoptr (WsPattern) p = pattern_new (WS_SPACE_GLOBAL, WS_ACCESS_LOAD, 4, "i");
  g_autoptr (WsKernelSource) ks = ws_codegen_generate (p, NULL, NULL);
  const WsKernelLine *def = &g_array_index (ks->lines, WsKernelLine, 0);
  g_autofree char *log = g_strdup_printf (WS_CODEGEN_FILE_NAME "(%u): error: something is wrong\n"
                                          "    const long long i = ...;\n"
                                          "                        ^\n"
                                          WS_CODEGEN_FILE_NAME "(2): error: elsewhere\n", def->line);
  g_autofree char *explained = ws_codegen_explain_log (ks, log);

  g_assert_cmpstr (def->what, ==, "the definition of i");
  g_assert_cmpstr (explained, ==,
                   "in the definition of i (blockIdx.x * blockDim.x + threadIdx.x): something is wrong; "
                   "in the generated kernel, line 2: elsewhere");
}

/* Machine code for a device NVRTC knows; PTX of the newest it knows for a
 * newer one; nothing for one older than all. */
static void
test_targets (void)
{
  g_autoptr (GArray) archs = ws_jit_supported_archs ();
  g_autofree char *hopper = ws_jit_target_for (9, 0, NULL);
  g_autofree char *future = ws_jit_target_for (99, 0, NULL);
  g_autofree char *newest = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *old = ws_jit_target_for (3, 0, &error);

  g_assert_cmpuint (archs->len, >, 0);
  newest = g_strdup_printf ("compute_%d", g_array_index (archs, int, archs->len - 1));
  g_assert_cmpstr (hopper, ==, "sm_90");
  g_assert_cmpstr (future, ==, newest);
  g_assert_null (old);
  g_assert_error (error, WS_GPU_ERROR, WS_GPU_ERROR_UNSUPPORTED);
}

static void
test_ptx (void)
{
  g_autoptr (WsPattern) p = ws_preset_build (ws_preset_lookup ("banks/elem16"));
  g_autoptr (WsKernelSource) ks = ws_codegen_generate (p, NULL, NULL);
  g_autoptr (GBytes) ptx = ws_jit_compile (ks, "compute_90", NULL, NULL);
  const char *text = g_bytes_get_data (ptx, NULL);

  g_assert_nonnull (strstr (text, ".entry ws_kernel"));
  g_assert_nonnull (strstr (text, "ld.shared.v4.u32"));
}

#else

static void
test_not_built (void)
{
  g_test_skip ("this build has no CUDA backend (no CUDA toolkit when it was built)");
}

#endif

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
#if WS_HAVE_CUDA
  g_test_add_func ("/codegen/expr-types", test_expr_types);
  g_test_add_func ("/codegen/extents", test_extents);
  g_test_add_func ("/codegen/source", test_source);
  g_test_add_func ("/codegen/refusals", test_refusals);
  g_test_add_func ("/codegen/explain-log", test_explain_log);
  g_test_add_func ("/codegen/targets", test_targets);
  g_test_add_func ("/codegen/ptx", test_ptx);
  g_test_add_func ("/codegen/compile-error", test_compile_error);
  g_test_add_func ("/codegen/reserved-names", test_reserved_names);
  g_test_add_func ("/codegen/lookalike-names", test_lookalike_names);
  g_test_add_func ("/codegen/no-user-text", test_no_user_text);
  g_test_add_func ("/codegen/huge-extent", test_huge_extent);
  g_test_add_func ("/codegen/compile-presets", test_compile_presets);
  g_test_add_func ("/codegen/compile-matrix", test_compile_matrix);
#else
  g_test_add_func ("/codegen/not-built", test_not_built);
#endif
  return g_test_run ();
}
