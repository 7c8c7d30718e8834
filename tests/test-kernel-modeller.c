/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Modelling a kernel text as it is typed (WsKernelModeller): the current
 * line's warps first, then the whole launch; the newest text wins; a
 * padding changed and the bank conflicts go. And the model line by line
 * beside counters per line (WsKernelLines): the figures a gutter shows,
 * the time shared out, and the lines where the two differ. */
#include "ws-config.h"
#include "ws-device-json.h"
#include "ws-kernel-lines.h"
#include "ws-kernel-modeller.h"
#include "ws-truth.h"

#include <math.h>
#include <string.h>

/* transpose.cu's transposeCoalesced: the tile filled (line 72: a global
 * load, a shared store), then read across (line 80: a shared load, a
 * global store). */
#define FILL_LINE 72
#define READ_LINE 80

static char *
course_text (const char *name)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "kernels", name, NULL);
  char *text = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  return text;
}

/* transposeCoalesced with its tile padded by a column */
static char *
padded_text (const char *text)
{
  static const char tile[] = "__shared__ float tile[TILE_DIM][TILE_DIM];";
  const char *at = strstr (text, tile);

  g_assert_nonnull (at);
  return g_strdup_printf ("%.*s__shared__ float tile[TILE_DIM][TILE_DIM+1];%s", (int) (at - text), text,
                          at + strlen (tile));
}

static WsDeviceProfile *
h200 (void)
{
  g_autoptr (GError) error = NULL;
  WsDeviceProfile *profile = ws_device_profile_find ("nvidia-h200", &error);

  g_assert_no_error (error);
  return profile;
}

typedef struct
{
  guint warp_ready;
  guint prediction_ready;
  guint failed;
} Counts;

static void
count_warp (WsKernelModeller *m,
            Counts           *c)
{
  c->warp_ready++;
}

static void
count_prediction (WsKernelModeller *m,
                  Counts           *c)
{
  c->prediction_ready++;
}

static void
count_failed (WsKernelModeller *m,
              Counts           *c)
{
  c->failed++;
}

static WsKernelModeller *
modeller_new (Counts *counts)
{
  WsKernelModeller *m = ws_kernel_modeller_new ();

  g_signal_connect (m, "warp-ready", G_CALLBACK (count_warp), counts);
  g_signal_connect (m, "prediction-ready", G_CALLBACK (count_prediction), counts);
  g_signal_connect (m, "failed", G_CALLBACK (count_failed), counts);
  return m;
}

static void
wait_idle (WsKernelModeller *m)
{
  gint64 end = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;

  while (ws_kernel_modeller_get_busy (m) && g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (ws_kernel_modeller_get_busy (m));
}

static const WsWarpResult *
warp_of (WsKernelModeller *m,
         WsSpace           space,
         WsAccessKind      kind)
{
  for (guint i = 0; i < ws_kernel_modeller_get_n_warps (m); i++)
    {
      guint site;
      const WsWarpResult *r = ws_kernel_modeller_get_warp (m, i, &site, NULL);
      const WsKernelSite *s = ws_kernel_instance_get_site (ws_kernel_modeller_get_instance (m), site);

      if (s->space == space && s->kind == kind)
        {
          g_assert_nonnull (r);
          return r;
        }
    }
  g_assert_not_reached ();
}

/* ------------------------------------------------------------------ */
/* The modeller                                                       */
/* ------------------------------------------------------------------ */

static void
test_modeller_line_then_launch (void)
{
  g_autofree char *text = course_text ("transpose.cu");
  g_autoptr (WsDeviceProfile) profile = h200 ();
  Counts counts = { 0 };
  g_autoptr (WsKernelModeller) m = modeller_new (&counts);
  WsKernelInstance *instance;
  const WsKernelPrediction *p;

  ws_kernel_modeller_set_profile (m, profile, 0);
  ws_kernel_modeller_set_line (m, FILL_LINE);
  ws_kernel_modeller_set_text (m, text);
  g_assert_true (ws_kernel_modeller_get_busy (m));
  wait_idle (m);
  g_assert_cmpuint (counts.warp_ready, ==, 1);
  g_assert_cmpuint (counts.prediction_ready, ==, 1);
  g_assert_cmpuint (counts.failed, ==, 0);
  g_assert_null (ws_kernel_modeller_get_error (m));

  /* warp 0 of block 0 reads 32 consecutive floats of a row: 4 sectors,
   * and writes them into a row of the tile: one wavefront */
  instance = ws_kernel_modeller_get_instance (m);
  g_assert_cmpstr (ws_kernel_instance_get_kernel_name (instance), ==, "transposeCoalesced");
  g_assert_cmpuint (ws_kernel_modeller_get_n_warps (m), ==, 2);
  g_assert_cmpuint (warp_of (m, WS_SPACE_GLOBAL, WS_ACCESS_LOAD)->counts.sectors, ==, 4);
  g_assert_cmpuint (warp_of (m, WS_SPACE_SHARED, WS_ACCESS_STORE)->counts.wavefronts, ==, 1);

  /* the whole launch, timed on the H200 */
  p = ws_kernel_modeller_get_prediction (m);
  g_assert_nonnull (p);
  g_assert_true (p->has_timing);
  g_assert_cmpfloat (p->timing.predicted_ms, >, 0);
  g_assert_cmpuint (p->stats->blocks, ==, 32 * 32);

  /* another line: the warps again, on the same launch */
  ws_kernel_modeller_set_line (m, READ_LINE);
  wait_idle (m);
  g_assert_cmpuint (counts.warp_ready, ==, 2);
  g_assert_cmpuint (counts.prediction_ready, ==, 1);
  g_assert_true (ws_kernel_modeller_get_instance (m) == instance);
  g_assert_true (ws_kernel_modeller_get_prediction (m) == p);
  /* the tile read down a column: all 32 lanes in one bank */
  g_assert_cmpuint (warp_of (m, WS_SPACE_SHARED, WS_ACCESS_LOAD)->counts.wavefronts, ==, 32);
}

static void
assert_same_warp (const WsWarpResult *a,
                  const WsWarpResult *b)
{
  g_assert_cmpuint (a->access, ==, b->access);
  g_assert_cmpuint (a->active, ==, b->active);
  g_assert_cmpuint (a->valid, ==, b->valid);
  g_assert_cmpmem (a->address, sizeof a->address, b->address, sizeof b->address);
  g_assert_cmpmem (a->index, sizeof a->index, b->index, sizeof b->index);
  g_assert_cmpmem (a->private_offset, sizeof a->private_offset, b->private_offset, sizeof b->private_offset);
  g_assert_cmpmem (a->bank, sizeof a->bank, b->bank, sizeof b->bank);
  g_assert_cmpmem (&a->counts, sizeof a->counts, &b->counts, sizeof b->counts);
  g_assert_cmpuint (a->steps->len, ==, b->steps->len);
}

/* The line's warps, gathered in one run of the block, are the model's
 * warps one site at a time (ws_kernel_analyze_warp), for every line of
 * every course kernel, and for a warp and an execution further in. */
static void
test_modeller_warps_as_model (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "kernels", NULL);
  g_autoptr (GDir) dir = g_dir_open (path, 0, NULL);
  Counts counts = { 0 };
  g_autoptr (WsKernelModeller) m = modeller_new (&counts);
  const char *name;
  guint files = 0;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)))
    {
      g_autofree char *text = NULL;
      WsKernelInstance *instance;

      if (!g_str_has_suffix (name, ".cu"))
        continue;
      files++;
      text = course_text (name);
      ws_kernel_modeller_set_text (m, text);
      wait_idle (m);
      instance = ws_kernel_modeller_get_instance (m);
      for (guint choice = 0; choice < 2; choice++)
        {
          WsDim3 block = { choice, 0, 0 };

          ws_kernel_modeller_set_warp (m, block, choice, choice);
          for (guint i = 0; i < ws_kernel_instance_get_n_sites (instance); i++)
            {
              const WsKernelSite *s = ws_kernel_instance_get_site (instance, i);
              g_autoptr (GError) error = NULL;
              g_autoptr (WsWarpResult) expected = NULL;

              ws_kernel_modeller_set_line (m, s->line);
              wait_idle (m);
              expected = ws_kernel_analyze_warp (instance, i, block, choice, choice, &error);
              for (guint k = 0; k < ws_kernel_modeller_get_n_warps (m); k++)
                {
                  guint site;
                  const char *why_not;
                  const WsWarpResult *r = ws_kernel_modeller_get_warp (m, k, &site, &why_not);

                  if (site != i)
                    continue;
                  if (expected)
                    assert_same_warp (r, expected);
                  else if (g_str_has_prefix (error->message, "there is no site"))
                    {
                      /* said without the site's number, which is not the user's */
                      g_autofree char *said = g_strconcat ("there is no ", strstr (error->message, "warp"), NULL);

                      g_assert_null (r);
                      g_assert_cmpstr (why_not, ==, said);
                    }
                  else
                    {
                      g_assert_null (r);
                      g_assert_cmpstr (why_not, ==, error->message);
                    }
                }
            }
        }
      ws_kernel_modeller_set_warp (m, (WsDim3) { 0, 0, 0 }, 0, 0);
    }
  g_assert_cmpuint (files, >=, 7);
}

/* What comes back is always for the text as it is now. */
static void
assert_current (WsKernelModeller *m)
{
  const WsKernelFile *file = ws_kernel_instance_get_file (ws_kernel_modeller_get_instance (m));

  g_assert_cmpstr (ws_kernel_file_get_text (file), ==, ws_kernel_modeller_get_spec (m)->text);
}

/* Typing faster than the model: only the last text's results come back. */
static void
test_modeller_newest_wins (void)
{
  g_autofree char *text = course_text ("transpose.cu");
  g_autofree char *padded = padded_text (text);
  g_autoptr (WsDeviceProfile) profile = h200 ();
  Counts counts = { 0 };
  g_autoptr (WsKernelModeller) m = modeller_new (&counts);
  const WsKernelFile *file;

  ws_kernel_modeller_set_profile (m, profile, 0);
  ws_kernel_modeller_set_line (m, READ_LINE);
  g_signal_connect (m, "warp-ready", G_CALLBACK (assert_current), NULL);
  g_signal_connect (m, "prediction-ready", G_CALLBACK (assert_current), NULL);
  for (int i = 0; i < 20; i++)
    {
      ws_kernel_modeller_set_text (m, i % 2 ? text : padded);
      /* some of the older jobs end meanwhile, and are shown while current */
      if (i % 5 == 0)
        g_main_context_iteration (NULL, FALSE);
    }
  wait_idle (m);
  /* the launches of 20 texts take seconds: most were cancelled unseen */
  g_assert_cmpuint (counts.warp_ready, >=, 1);
  g_assert_cmpuint (counts.warp_ready, <=, 5);
  g_assert_cmpuint (counts.prediction_ready, ==, 1);
  file = ws_kernel_instance_get_file (ws_kernel_modeller_get_instance (m));
  g_assert_cmpstr (ws_kernel_file_get_text (file), ==, text);
  g_assert_cmpuint (warp_of (m, WS_SPACE_SHARED, WS_ACCESS_LOAD)->counts.wavefronts, ==, 32);
}

/* A comment typed: the text changes, not what it does, so the model stands
 * (for the new text); a space before an access moves it, and the model
 * still stands, its figures where the access is now; a line added above
 * moves the line's accesses off it; an index changed is modelled again. */
static void
test_modeller_same_model (void)
{
  g_autofree char *text = course_text ("transpose.cu");
  g_autofree char *commented = g_strconcat (text, "// a note\n", NULL);
  g_autofree char *moved = NULL;
  g_autoptr (WsDeviceProfile) profile = h200 ();
  Counts counts = { 0 };
  g_autoptr (WsKernelModeller) m = modeller_new (&counts);
  const WsKernelPrediction *p;
  guint64 serial;
  WsKernelInstance *instance;
  const char *at;

  ws_kernel_modeller_set_profile (m, profile, 0);
  ws_kernel_modeller_set_line (m, READ_LINE);
  ws_kernel_modeller_set_text (m, text);
  wait_idle (m);
  p = ws_kernel_modeller_get_prediction (m);
  serial = ws_kernel_modeller_get_prediction_serial (m);
  instance = ws_kernel_modeller_get_instance (m);

  ws_kernel_modeller_set_text (m, commented);
  wait_idle (m);
  g_assert_cmpuint (counts.warp_ready, ==, 2);
  g_assert_cmpuint (counts.prediction_ready, ==, 2);
  g_assert_true (ws_kernel_modeller_get_prediction (m) == p);
  g_assert_cmpuint (ws_kernel_modeller_get_prediction_serial (m), ==, serial);
  g_assert_true (ws_kernel_modeller_get_instance (m) != instance);
  assert_current (m);

  /* "     odata[…" → "      odata[…" on the read's line */
  at = strstr (commented, "     odata[(y+j)*width + x] = tile[threadIdx.x][threadIdx.y + j];");
  g_assert_nonnull (at);
  moved = g_strdup_printf ("%.*s %s", (int) (at - commented), commented, at);
  ws_kernel_modeller_set_text (m, moved);
  wait_idle (m);
  g_assert_cmpuint (counts.prediction_ready, ==, 3);
  g_assert_true (ws_kernel_modeller_get_prediction (m) == p);
  g_assert_cmpuint (ws_kernel_modeller_get_prediction_serial (m), ==, serial);
  assert_current (m);
  {
    const WsKernelSite *s = ws_kernel_instance_get_site (ws_kernel_modeller_get_instance (m), 2);

    g_assert_cmpuint (s->line, ==, READ_LINE);
    g_assert_cmpuint (s->column, ==, 32);
  }
  g_assert_cmpuint (warp_of (m, WS_SPACE_SHARED, WS_ACCESS_LOAD)->counts.wavefronts, ==, 32);

  /* a blank line above: the read is on the next line, the cursor's has none */
  g_clear_pointer (&moved, g_free);
  at = strstr (commented, "  x = blockIdx.y * TILE_DIM");
  g_assert_nonnull (at);
  moved = g_strdup_printf ("%.*s\n%s", (int) (at - commented), commented, at);
  ws_kernel_modeller_set_text (m, moved);
  wait_idle (m);
  g_assert_true (ws_kernel_modeller_get_prediction (m) == p);
  g_assert_cmpuint (ws_kernel_modeller_get_prediction_serial (m), ==, serial);
  g_assert_cmpuint (ws_kernel_modeller_get_n_warps (m), ==, 0);
  ws_kernel_modeller_set_line (m, READ_LINE + 1);
  wait_idle (m);
  g_assert_cmpuint (warp_of (m, WS_SPACE_SHARED, WS_ACCESS_LOAD)->counts.wavefronts, ==, 32);

  /* "threadIdx.y + j]" → "threadIdx.y + j + 0]": another expression */
  g_clear_pointer (&moved, g_free);
  at = strstr (commented, "[threadIdx.y + j];");
  g_assert_nonnull (at);
  moved = g_strdup_printf ("%.*s[threadIdx.y + j + 0];%s", (int) (at - commented), commented,
                           at + strlen ("[threadIdx.y + j];"));
  ws_kernel_modeller_set_text (m, moved);
  wait_idle (m);
  /* a new prediction (its address may be the freed one's: the count says) */
  g_assert_cmpuint (ws_kernel_modeller_get_prediction_serial (m), ==, serial + 1);
  assert_current (m);
}

/* The lesson: pad the tile, and the read's 32-way conflict goes,
 * in the warp and in the whole launch. */
static void
test_modeller_padding (void)
{
  g_autofree char *text = course_text ("transpose.cu");
  g_autofree char *padded = padded_text (text);
  Counts counts = { 0 };
  g_autoptr (WsKernelModeller) m = modeller_new (&counts);
  g_autoptr (WsKernelLines) before = NULL;
  g_autoptr (WsKernelLines) after = NULL;
  const WsKernelLine *line;

  ws_kernel_modeller_set_line (m, READ_LINE);
  ws_kernel_modeller_set_text (m, text);
  wait_idle (m);
  before = ws_kernel_lines_new (ws_kernel_modeller_get_instance (m), ws_kernel_modeller_get_prediction (m), NULL);
  ws_kernel_modeller_set_text (m, padded);
  wait_idle (m);
  g_assert_cmpuint (warp_of (m, WS_SPACE_SHARED, WS_ACCESS_LOAD)->counts.wavefronts, ==, 1);
  after = ws_kernel_lines_new (ws_kernel_modeller_get_instance (m), ws_kernel_modeller_get_prediction (m), NULL);

  line = ws_kernel_lines_find (before, READ_LINE);
  g_assert_cmpuint (line->shared.wavefronts, ==, 32 * line->shared.instructions);
  line = ws_kernel_lines_find (after, READ_LINE);
  g_assert_cmpuint (line->shared.wavefronts, ==, line->shared.instructions);
  g_assert_cmpuint (line->shared.ideal_wavefronts, ==, line->shared.wavefronts);
}

/* Text that does not read, and a launch that reads out of its array: the
 * message says what and where, and nothing stale stays current. */
static void
test_modeller_failures (void)
{
  static const char bad[] = "__global__ void k(float *a)\n{\n  a[threadIdx.x] = foo();\n}\n";
  static const char beyond[] = "/* warpscope: grid = 4; block = 64; a[256] = i; b[256] = 0 */\n"
                               "__global__ void k(const float *a, float *b)\n"
                               "{\n"
                               "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                               "  b[i] = a[i + 1];\n"
                               "}\n";
  Counts counts = { 0 };
  g_autoptr (WsKernelModeller) m = modeller_new (&counts);
  const GError *error;

  ws_kernel_modeller_set_text (m, bad);
  wait_idle (m);
  g_assert_cmpuint (counts.failed, ==, 1);
  error = ws_kernel_modeller_get_error (m);
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "line 3, column 20"));
  g_assert_null (ws_kernel_modeller_get_instance (m));

  /* the first warps read within the array; the last lane of the launch reads a[256] */
  ws_kernel_modeller_set_line (m, 5);
  ws_kernel_modeller_set_text (m, beyond);
  wait_idle (m);
  g_assert_cmpuint (counts.warp_ready, ==, 1);
  g_assert_cmpuint (counts.failed, ==, 2);
  error = ws_kernel_modeller_get_error (m);
  g_assert_nonnull (strstr (error->message, "line 5"));
  g_assert_nonnull (strstr (error->message, "256"));
  g_assert_null (ws_kernel_modeller_get_prediction (m));
}

static void
count_finalized (gpointer  data,
                 GObject  *where)
{
  (*(guint *) data)++;
}

/* Let go of while modelling: it goes at once, and what its jobs still
 * find comes back to no one. */
static void
test_modeller_let_go (void)
{
  g_autofree char *text = course_text ("transpose.cu");
  g_autoptr (WsDeviceProfile) profile = h200 ();
  Counts counts = { 0 };
  WsKernelModeller *m = modeller_new (&counts);
  guint finalized = 0;
  gint64 end = g_get_monotonic_time () + 3 * G_USEC_PER_SEC;

  g_object_weak_ref (G_OBJECT (m), count_finalized, &finalized);
  ws_kernel_modeller_set_profile (m, profile, 0);
  ws_kernel_modeller_set_text (m, text);
  g_assert_true (ws_kernel_modeller_get_busy (m));
  g_object_unref (m);
  g_assert_cmpuint (finalized, ==, 1);
  while (g_get_monotonic_time () < end)
    {
      g_main_context_iteration (NULL, FALSE);
      g_usleep (10000);
    }
  g_assert_cmpuint (counts.warp_ready + counts.prediction_ready + counts.failed, ==, 0);
}

/* ------------------------------------------------------------------ */
/* Line by line                                                       */
/* ------------------------------------------------------------------ */

static WsKernelPrediction *
predict (const char        *text,
         WsKernelInstance **instance)
{
  g_autoptr (WsKernelSpec) spec = ws_kernel_spec_new (text, "transpose.cu");
  g_autoptr (WsDeviceProfile) profile = h200 ();
  g_autoptr (GError) error = NULL;
  WsKernelPrediction *p;

  *instance = ws_kernel_spec_instantiate (spec, NULL, &error);
  g_assert_no_error (error);
  p = ws_kernel_predict (*instance, profile, 0, NULL, NULL, &error);
  g_assert_no_error (error);
  return p;
}

/* The SMs' own work (L1 lookups, the schedulers' instructions) is shared
 * by the SMs that have blocks: a launch of 16 blocks keeps 16 SMs busy and
 * takes as long per SM as one of 132 blocks on 132 SMs (matvec_rows of the
 * course kernels: 16 blocks, bound by its L1 lookups on 16 SMs), not an
 * eighth of it. */
static double
l1_ms_of_grid (guint blocks)
{
  g_autofree char *text = g_strdup_printf ("// warpscope: grid = %u; block = 256\n"
                                           "__global__ void k(const float *in, float *out, int n) {\n"
                                           "  int t = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                           "  float s = 0;\n"
                                           "  for (int k = 0; k < n; k++)\n"
                                           "    s += in[t * n + k];\n"
                                           "  out[t] = s;\n"
                                           "}\n// warpscope: n = 64\n", blocks);
  g_autoptr (WsKernelInstance) instance = NULL;
  g_autoptr (WsKernelPrediction) p = predict (text, &instance);

  g_assert_true (p->has_timing);
  return p->timing.level_ms[WS_BOUND_L1];
}

static void
test_small_grid (void)
{
  double all = l1_ms_of_grid (132), few = l1_ms_of_grid (16), half = l1_ms_of_grid (264);

  g_assert_cmpfloat (all, >, 0);
  g_assert_cmpfloat_with_epsilon (few / all, 1.0, 0.02);
  /* past one block an SM, the work is shared by all of them */
  g_assert_cmpfloat_with_epsilon (half / all, 2.0, 0.04);
}

/* A loop that only loads keeps 16 loads of a warp in flight and waits for
 * the slowest of them (matvec_cols on an H200: 4096 iterations of two loads,
 * one DRAM latency every 8 iterations); one that also stores waits every 4
 * iterations. What `iterations` more iterations add to the blocks' time, in
 * ns. */
static double
blocks_ns_of_loop (guint       iterations,
                   const char *pragma,
                   const char *body)
{
  g_autofree char *text = g_strdup_printf ("// warpscope: grid = 16; block = 256; K = %u\n"
                                           "__global__ void k(const float *A, const float *x, float *y, int K) {\n"
                                           "  int t = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                           "  float s = 0;\n"
                                           "%s\n"
                                           "  for (int k = 0; k < K; k++)\n"
                                           "    %s\n"
                                           "  y[t] = s;\n"
                                           "}\n", iterations, pragma, body);
  g_autoptr (WsKernelInstance) instance = NULL;
  g_autoptr (WsKernelPrediction) p = predict (text, &instance);

  g_assert_true (p->has_timing);
  return p->timing.level_ms[WS_BOUND_BLOCKS] * 1e6;
}

static void
test_loads_in_flight (void)
{
  g_autoptr (WsDeviceProfile) profile = h200 ();
  const char *loads = "s += A[k * 4096 + t] * x[k];";
  const char *stores = "{ s += A[k * 4096 + t] * x[k]; y[t + 4096 * (k + 1)] = s; }";
  double more_loads = blocks_ns_of_loop (512, "", loads) - blocks_ns_of_loop (256, "", loads);
  double more_stores = blocks_ns_of_loop (512, "", stores) - blocks_ns_of_loop (256, "", stores);
  double one_by_one = blocks_ns_of_loop (512, "#pragma unroll 1", loads) -
                      blocks_ns_of_loop (256, "#pragma unroll 1", loads);
  double by_four = blocks_ns_of_loop (512, "#pragma unroll 4", loads) -
                   blocks_ns_of_loop (256, "#pragma unroll 4", loads);
  double stores_one_by_one = blocks_ns_of_loop (512, "#pragma unroll 1", stores) -
                             blocks_ns_of_loop (256, "#pragma unroll 1", stores);
  const char *one_load = "s += A[k * 4096 + t];";
  double one_load_by_one = blocks_ns_of_loop (512, "#pragma unroll 1", one_load) -
                           blocks_ns_of_loop (256, "#pragma unroll 1", one_load);

  /* 256 iterations of two loads: 32 waits of a DRAM latency each */
  g_assert_cmpfloat_with_epsilon (more_loads / 32, profile->dram_latency_ns, 0.01 * profile->dram_latency_ns);
  /* with a store in the loop: 64 waits, each the loads' latencies averaged
   * (x[k] mostly hits L1), and the store's */
  g_assert_cmpfloat (more_stores / 64, >, profile->store_latency_ns);
  g_assert_cmpfloat (more_stores / 64, <, profile->dram_latency_ns + profile->store_latency_ns);
  g_assert_cmpfloat (more_stores, >, 1.2 * more_loads);
  /* #pragma unroll 1: each iteration waits for its own two loads, a DRAM
   * latency (matvec_cols on an H200: 362 ns an iteration); 4: eight loads
   * a wait */
  g_assert_cmpfloat_with_epsilon (one_by_one / 256, profile->dram_latency_ns, 0.01 * profile->dram_latency_ns);
  g_assert_cmpfloat_with_epsilon (by_four / 64, profile->dram_latency_ns, 0.01 * profile->dram_latency_ns);
  /* one load an iteration, one by one: a DRAM latency each, the store
   * after the loop once, not every iteration */
  g_assert_cmpfloat_with_epsilon (one_load_by_one / 256, profile->dram_latency_ns, 0.01 * profile->dram_latency_ns);
  /* and with a store, every iteration too, where it waited every four */
  g_assert_cmpfloat_with_epsilon (stores_one_by_one / more_stores, 4.0, 0.05);
}

static void
test_lines_model (void)
{
  g_autofree char *text = course_text ("transpose.cu");
  g_autoptr (WsKernelInstance) instance = NULL;
  g_autoptr (WsKernelPrediction) p = predict (text, &instance);
  g_autoptr (WsKernelLines) lines = ws_kernel_lines_new (instance, p, NULL);
  const WsKernelLine *fill, *read;
  g_autofree char *fill_text = NULL;
  g_autofree char *read_text = NULL;
  g_autofree char *described = NULL;
  double shares = 0;
  WsBound bound;
  double ms;

  g_assert_cmpuint (ws_kernel_lines_get_n_lines (lines), ==, 2);
  g_assert_null (ws_kernel_lines_find (lines, 1));
  fill = ws_kernel_lines_find (lines, FILL_LINE);
  read = ws_kernel_lines_find (lines, READ_LINE);
  g_assert_true (fill == ws_kernel_lines_get_line (lines, 0));
  g_assert_true (read == ws_kernel_lines_get_line (lines, 1));
  g_assert_cmpint (fill->flags, ==, WS_KERNEL_LINE_GLOBAL | WS_KERNEL_LINE_SHARED);
  g_assert_cmpuint (fill->n_sites, ==, 2);
  /* a 1024 × 1024 matrix of floats read once, in sectors of 32 bytes */
  g_assert_cmpuint (fill->global.bytes_requested, ==, 4 << 20);
  g_assert_cmpuint (fill->global.sectors, ==, (4 << 20) / 32);
  g_assert_cmpuint (fill->global.sectors, ==, 4 * fill->global.instructions);

  fill_text = ws_kernel_line_format (fill, FALSE);
  read_text = ws_kernel_line_format (read, FALSE);
  g_assert_cmpstr (fill_text, ==, "4 sect/req · 1 wf/inst");
  g_assert_cmpstr (read_text, ==, "4 sect/req · 32 wf/inst, +31 confl");
  described = ws_kernel_line_describe (read);
  g_assert_nonnull (strstr (described, "1015808 bank conflicts"));
  g_assert_nonnull (strstr (described, "of the predicted time"));

  /* the time is shared out among the lines whose work bounds it */
  g_assert_true (ws_kernel_lines_get_timing (lines, &bound, &ms));
  g_assert_cmpfloat (ms, ==, p->timing.predicted_ms);
  g_assert_cmpint (bound, ==, p->timing.bound);
  for (guint i = 0; i < ws_kernel_lines_get_n_lines (lines); i++)
    {
      double share = ws_kernel_lines_get_line (lines, i)->time_share;

      if (bound <= WS_BOUND_ATOMICS)
        g_assert_false (isnan (share));
      if (!isnan (share))
        shares += share;
    }
  if (bound <= WS_BOUND_ATOMICS)
    g_assert_cmpfloat_with_epsilon (shares, 1.0, 1e-9);
  g_assert_false (ws_kernel_lines_get_measured (lines));
  g_free (fill_text);
  fill_text = ws_kernel_line_format (fill, TRUE);
  g_assert_cmpstr (fill_text, ==, "");
}

/* Counters per line as the GPU worker writes them for what the model
 * predicts of line: the SASS metrics of each kind of instruction. */
static void
add_counters (WsMeasurement      *m,
              const WsKernelLine *l,
              double              sector_scale,
              double              shared_instructions)
{
  ws_measurement_add_line_counter (m, l->line, "smsp__sass_inst_executed_op_global_ld", (double) l->global.instructions / 2);
  ws_measurement_add_line_counter (m, l->line, "smsp__sass_inst_executed_op_global_st", (double) l->global.instructions / 2);
  ws_measurement_add_line_counter (m, l->line, "smsp__sass_sectors_mem_global", (double) l->global.sectors * sector_scale);
  ws_measurement_add_line_counter (m, l->line, "smsp__sass_inst_executed_op_shared_ld", shared_instructions);
  ws_measurement_add_line_counter (m, l->line, WS_LINE_SHARED_WAVEFRONTS,
                                   (double) l->shared.wavefronts);
  ws_measurement_add_line_counter (m, l->line, WS_LINE_SHARED_IDEAL_WAVEFRONTS,
                                   (double) l->shared.ideal_wavefronts);
}

static void
test_lines_counters (void)
{
  g_autofree char *text = course_text ("transpose.cu");
  g_autoptr (WsKernelInstance) instance = NULL;
  g_autoptr (WsKernelPrediction) p = predict (text, &instance);
  g_autoptr (WsKernelLines) model = ws_kernel_lines_new (instance, p, NULL);
  const WsKernelLine *fill = ws_kernel_lines_find (model, FILL_LINE);
  const WsKernelLine *read = ws_kernel_lines_find (model, READ_LINE);
  g_autoptr (WsMeasurement) same = ws_measurement_new ("kernel");
  g_autoptr (WsMeasurement) apart = ws_measurement_new ("kernel");
  g_autoptr (WsKernelLines) agree = NULL;
  g_autoptr (WsKernelLines) differ = NULL;
  g_autofree char *hw = NULL;
  const WsKernelLine *l;

  /* what the model says, counted: no line differs */
  add_counters (same, fill, 1, (double) fill->shared.instructions);
  add_counters (same, read, 1, (double) read->shared.instructions);
  agree = ws_kernel_lines_new (instance, p, same);
  g_assert_true (ws_kernel_lines_get_measured (agree));
  g_assert_cmpuint (ws_kernel_lines_get_n_mismatches (agree), ==, 0);
  l = ws_kernel_lines_find (agree, READ_LINE);
  g_assert_true (l->measured);
  g_assert_false (l->mismatch);
  g_assert_null (l->reason);
  hw = ws_kernel_line_format (l, TRUE);
  g_assert_cmpstr (hw, ==, "4 · 32, +31");
  /* a metric the measurement has for no line is unknown */
  g_assert_true (isnan (l->hw.local_instructions));
  g_assert_true (isnan (l->hw.global_ideal_sectors));

  /* 3 % more sectors than the model on the fill (beyond 2 %), 1 % more on
   * the read (within) */
  add_counters (apart, fill, 1.03, (double) fill->shared.instructions);
  add_counters (apart, read, 1.01, (double) read->shared.instructions);
  differ = ws_kernel_lines_new (instance, p, apart);
  g_assert_cmpuint (ws_kernel_lines_get_n_mismatches (differ), ==, 1);
  l = ws_kernel_lines_find (differ, FILL_LINE);
  g_assert_true (l->mismatch);
  g_assert_nonnull (strstr (l->reason, "global sectors: model 131072, hardware 135004"));
  l = ws_kernel_lines_find (differ, READ_LINE);
  g_assert_false (l->mismatch);
}

/* The hardware counts what the model does not: the line is marked, and
 * where the reason is known it says so. */
static void
test_lines_reasons (void)
{
  static const char guarded[] = "/* warpscope: grid = 4; block = 256; a[992] = i; b[992] = 0; n = 992 */\n"
                                "__global__ void k(const float *a, float *b, int n)\n"
                                "{\n"
                                "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                "  if (i < n)\n"
                                "    b[i] = a[i];\n"
                                "}\n";
  g_autoptr (WsKernelInstance) instance = NULL;
  g_autoptr (WsKernelPrediction) p = predict (guarded, &instance);
  g_autoptr (WsKernelLines) model = ws_kernel_lines_new (instance, p, NULL);
  const WsKernelLine *copy = ws_kernel_lines_find (model, 6);
  g_autoptr (WsMeasurement) m = ws_measurement_new ("kernel");
  g_autoptr (WsKernelLines) lines = NULL;
  const WsKernelLine *l;

  /* 32 warps; the last has no lane below n, so the model counts 31 a site */
  g_assert_cmpuint (p->stats->warps, ==, 32);
  g_assert_cmpuint (copy->global.instructions, ==, 2 * 31);
  ws_measurement_add_line_counter (m, 6, "smsp__sass_inst_executed_op_global_ld", 32);
  ws_measurement_add_line_counter (m, 6, "smsp__sass_inst_executed_op_global_st", 32);
  ws_measurement_add_line_counter (m, 6, "smsp__sass_sectors_mem_global", (double) copy->global.sectors);
  /* and a spill on the line above */
  ws_measurement_add_line_counter (m, 4, "smsp__sass_inst_executed_op_local_st", 32);
  lines = ws_kernel_lines_new (instance, p, m);
  l = ws_kernel_lines_find (lines, 6);
  g_assert_true (l->mismatch);
  g_assert_nonnull (strstr (l->reason, "global memory instructions: model 62, hardware 64"));
  g_assert_nonnull (strstr (l->reason, "predicated"));
  /* a metric it has for another line counted nothing on this one */
  g_assert_cmpfloat (l->hw.local_instructions, ==, 0);
  /* line 4 has no memory instruction in the model, the hardware one */
  l = ws_kernel_lines_find (lines, 4);
  g_assert_nonnull (l);
  g_assert_cmpuint (l->n_sites, ==, 0);
  g_assert_true (l->mismatch);
  g_assert_nonnull (strstr (l->reason, "local memory instructions: model 0, hardware 32"));
  g_assert_nonnull (strstr (l->reason, "spill"));
  g_assert_cmpuint (ws_kernel_lines_get_n_mismatches (lines), ==, 2);
  g_assert_true (ws_kernel_lines_get_line (lines, 0) == l);

  /* the measurement taken back: the model's lines alone */
  ws_kernel_lines_set_measurement (lines, instance, NULL);
  g_assert_false (ws_kernel_lines_get_measured (lines));
  g_assert_cmpuint (ws_kernel_lines_get_n_mismatches (lines), ==, 0);
  g_assert_cmpuint (ws_kernel_lines_get_n_lines (lines), ==, 1);
  g_assert_null (ws_kernel_lines_find (lines, 4));
  g_assert_false (ws_kernel_lines_find (lines, 6)->measured);
  g_assert_null (ws_kernel_lines_find (lines, 6)->reason);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/kernel-modeller/line-then-launch", test_modeller_line_then_launch);
  g_test_add_func ("/kernel-modeller/warps-as-model", test_modeller_warps_as_model);
  g_test_add_func ("/kernel-modeller/newest-wins", test_modeller_newest_wins);
  g_test_add_func ("/kernel-modeller/same-model", test_modeller_same_model);
  g_test_add_func ("/kernel-modeller/padding", test_modeller_padding);
  g_test_add_func ("/kernel-modeller/failures", test_modeller_failures);
  g_test_add_func ("/kernel-modeller/let-go", test_modeller_let_go);
  g_test_add_func ("/kernel-lines/model", test_lines_model);
  g_test_add_func ("/kernel-lines/small-grid", test_small_grid);
  g_test_add_func ("/kernel-lines/loads-in-flight", test_loads_in_flight);
  g_test_add_func ("/kernel-lines/counters", test_lines_counters);
  g_test_add_func ("/kernel-lines/reasons", test_lines_reasons);
  return g_test_run ();
}
