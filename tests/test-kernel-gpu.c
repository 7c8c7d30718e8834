/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Kernels of one's own on the GPU: every course kernel of tests/data/kernels
 * (written by others, pasted as published) compiled from the printed tree,
 * its output held against the VM's reference, timed, and counted per
 * source line with CUPTI's SASS metrics; the model's figures per line
 * beside the counters: global sectors and instructions within 2 %, shared
 * wavefronts within 10 %. Below L1 (L2 sectors within 10 %, DRAM bytes
 * within 15 %) and the time (25 %) are printed, with a count of those
 * within their tolerance. Skips, saying why, without a GPU. */
#include "ws-config.h"
#include "ws-device-json.h"
#include "ws-gpu.h"
#include "ws-kernel-predict.h"
#include "ws-kernel-spec.h"
#include "ws-truth.h"

#include <math.h>
#include <string.h>

typedef struct
{
  const char *file;
  const char *kernel;          /* NULL: the comment's */
  const char *overrides;       /* "grid=N / 512" pairs separated by ';', or NULL */
} Case;

static const Case cases[] = {
  { "transpose.cu", "copy", NULL },
  { "transpose.cu", "transposeNaive", NULL },
  { "transpose.cu", "transposeCoalesced", NULL },
  { "transpose.cu", "transposeNoBankConflicts", NULL },
  { "reduction.cu", "reduce0", NULL },
  { "reduction.cu", "reduce1", NULL },
  { "reduction.cu", "reduce2", NULL },
  { "reduction.cu", "reduce3", "grid=N / 512" },
  { "reduction.cu", "reduce4", "grid=N / 512" },
  { "reduction.cu", "reduce5", "grid=N / 512; blockSize=256" },
  { "stencil_1d.cu", NULL, NULL },
  { "matvec.cu", "matvec_rows", NULL },
  { "matvec.cu", "matvec_cols", NULL },
  { "grid_stride.cu", NULL, NULL },
  { "histogram.cu", NULL, NULL },
  { "matmul_tiled.cu", NULL, NULL },
};

/* Tallies over every case, for the summary. */
static guint l2_within, l2_rows, dram_within, dram_rows, time_within, time_rows;

static gboolean
have_gpu (WsDeviceInfo **info)
{
  g_autoptr (GError) error = NULL;

  *info = ws_gpu_probe (&error);
  if (*info == NULL)
    {
      g_autofree char *reason = g_strdup_printf ("no usable GPU: %s", error->message);
      g_test_skip (reason);
      return FALSE;
    }
  return TRUE;
}

static gboolean
within (double model,
        double hardware,
        double tolerance)
{
  double larger = MAX (fabs (model), fabs (hardware));

  return larger == 0 || fabs (model - hardware) <= tolerance * larger;
}

static WsKernelSpec *
spec_for (const Case *c)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "kernels", c->file, NULL);
  g_autofree char *text = NULL;
  g_autoptr (GError) error = NULL;
  WsKernelSpec *spec;

  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  if (text == NULL)
    return NULL;
  spec = ws_kernel_spec_new (text, c->file);
  ws_kernel_spec_set_kernel (spec, c->kernel);
  if (c->overrides)
    {
      g_auto (GStrv) pairs = g_strsplit (c->overrides, ";", -1);

      for (guint i = 0; pairs[i]; i++)
        {
          g_auto (GStrv) kv = g_strsplit (pairs[i], "=", 2);
          ws_kernel_spec_set (spec, g_strstrip (kv[0]), g_strstrip (kv[1]));
        }
    }
  return spec;
}

/* The model's global sectors, global instructions and shared wavefronts of
 * one line. */
static void
model_line (const WsKernelInstance   *inst,
            const WsKernelPrediction *pred,
            guint                     line,
            double                   *sectors,
            double                   *instructions,
            double                   *wavefronts)
{
  *sectors = *instructions = *wavefronts = 0;
  for (guint i = 0; i < pred->stats->n_sites; i++)
    {
      const WsKernelSite *site = ws_kernel_instance_get_site (inst, i);
      const WsStats *s = &pred->stats->sites[i];

      if (site->line != line)
        continue;
      if (site->space == WS_SPACE_GLOBAL)
        {
          *sectors += s->sectors;
          *instructions += s->instructions;
        }
      else if (site->space == WS_SPACE_SHARED)
        *wavefronts += s->wavefronts;
    }
}

static void
test_case (gconstpointer data)
{
  const Case *c = data;
  g_autoptr (WsDeviceInfo) info = NULL;
  g_autoptr (WsKernelSpec) spec = NULL;
  g_autoptr (WsKernelInstance) inst = NULL;
  g_autoptr (WsDeviceProfile) profile = NULL;
  g_autoptr (WsKernelPrediction) pred = NULL;
  g_autoptr (WsMeasurement) m = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *slug = NULL;
  WsMeasureOptions options = WS_MEASURE_OPTIONS_DEFAULT;
  GHashTable *lines;
  double l2_model, l2_hw = 0, dram_model, dram_hw = 0, dram_w = 0;
  guint mismatches = 0;

  if (!have_gpu (&info) || (spec = spec_for (c)) == NULL)
    return;
  inst = ws_kernel_spec_instantiate (spec, NULL, &error);
  g_assert_no_error (error);
  if (inst == NULL)
    return;
  slug = ws_device_slug (info->name);
  profile = ws_device_profile_find (slug, &error);
  g_assert_no_error (error);
  pred = profile ? ws_kernel_predict (inst, profile, 0, NULL, NULL, &error) : NULL;
  g_assert_no_error (error);
  if (pred == NULL)
    return;

  options.counters = TRUE;
  m = ws_gpu_measure_kernel (inst, &options, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  if (m == NULL)
    return;
  g_assert_true (m->verified);
  if (m->warning)
    g_test_message ("%s", m->warning);
  g_assert_cmpuint (m->line_counters->len, >, 0);

  /* L1, line by line */
  lines = g_hash_table_new (NULL, NULL);
  for (guint i = 0; i < pred->stats->n_sites; i++)
    g_hash_table_add (lines, GUINT_TO_POINTER (ws_kernel_instance_get_site (inst, i)->line));
  for (guint i = 0; i < pred->stats->n_sites; i++)
    {
      guint line = ws_kernel_instance_get_site (inst, i)->line;
      double sectors, instructions, wavefronts, hw_sectors, hw_instructions, hw_wavefronts;
      gboolean ok;

      if (!g_hash_table_remove (lines, GUINT_TO_POINTER (line)))
        continue;   /* a line of several sites: counted once */
      hw_sectors = ws_measurement_get_line_counter_or (m, line, "smsp__sass_sectors_mem_global", 0);
      hw_instructions = ws_measurement_get_line_global_instructions (m, line);
      hw_wavefronts = ws_measurement_get_line_counter_or (m, line, WS_LINE_SHARED_WAVEFRONTS,
                                                          0);
      model_line (inst, pred, line, &sectors, &instructions, &wavefronts);
      ok = within (sectors, hw_sectors, 0.02) && within (instructions, hw_instructions, 0.02) &&
           within (wavefronts, hw_wavefronts, 0.10);
      g_test_message ("%s:%s line %u: global sectors %.0f / %.0f, instructions %.0f / %.0f, shared wavefronts "
                      "%.0f / %.0f (model / GPU)%s", c->file, ws_kernel_instance_get_kernel_name (inst), line,
                      sectors, hw_sectors, instructions, hw_instructions, wavefronts, hw_wavefronts,
                      ok ? "" : "  ← differs");
      mismatches += !ok;
    }
  g_hash_table_unref (lines);
  /* lines the GPU counted that the model has no memory instruction on */
  for (guint i = 0; i < m->line_counters->len; i++)
    {
      const WsLineCounter *lc = &g_array_index (m->line_counters, WsLineCounter, i);
      gboolean modelled = FALSE;

      for (guint k = 0; k < pred->stats->n_sites && !modelled; k++)
        modelled = ws_kernel_instance_get_site (inst, k)->line == lc->line;
      if (!modelled && lc->value > 0 && g_str_has_prefix (lc->name, "smsp__sass_") &&
          (strstr (lc->name, "sectors") || strstr (lc->name, "wavefronts") || strstr (lc->name, "op_global") ||
           strstr (lc->name, "op_shared") || strstr (lc->name, "op_local")))
        g_test_message ("%s:%s line %u (no memory instruction in the model): %s %.0f", c->file,
                        ws_kernel_instance_get_kernel_name (inst), lc->line, lc->name, lc->value);
    }

  /* the warp instructions the SMs issued, against the model's */
  {
    double issued = 0;

    for (guint i = 0; i < m->line_counters->len; i++)
      {
        const WsLineCounter *lc = &g_array_index (m->line_counters, WsLineCounter, i);
        if (g_str_equal (lc->name, "smsp__sass_inst_executed"))
          issued += lc->value;
      }
    g_test_message ("%s:%s warp instructions %" G_GUINT64_FORMAT " + %" G_GUINT64_FORMAT " memory / %.0f (model / GPU)",
                    c->file, ws_kernel_instance_get_kernel_name (inst), pred->stats->counts.instructions,
                    pred->stats->total.instructions, issued);
  }
  /* below L1 and the time: reported against their tolerances */
  l2_model = pred->hierarchy->total.l2_read_sectors;
  dram_model = pred->hierarchy->total.dram_read_bytes + pred->hierarchy->total.dram_write_bytes;
  ws_measurement_get_counter (m, "lts__t_sectors_srcunit_tex_op_read.sum", &l2_hw);
  ws_measurement_get_counter (m, "dram__bytes_read.sum", &dram_hw);
  ws_measurement_get_counter (m, "dram__bytes_write.sum", &dram_w);
  dram_hw += dram_w;
  l2_rows++, l2_within += within (l2_model, l2_hw, WS_TRUTH_L2_TOLERANCE);
  dram_rows++, dram_within += within (dram_model, dram_hw, WS_TRUTH_DRAM_TOLERANCE);
  time_rows++, time_within += within (pred->timing.predicted_ms, m->median_ms, WS_TRUTH_TIME_TOLERANCE);
  g_test_message ("%s:%s L2 sectors read %.0f / %.0f, DRAM bytes %.0f / %.0f, time %.4f / %.4f ms (model / GPU), "
                  "bound by %s", c->file, ws_kernel_instance_get_kernel_name (inst), l2_model, l2_hw, dram_model,
                  dram_hw, pred->timing.predicted_ms, m->median_ms, ws_bound_to_string (pred->timing.bound));
  g_assert_cmpuint (mismatches, ==, 0);
}


int
main (int    argc,
      char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  /* every case runs and says what it found, whatever the one before did */
  g_test_set_nonfatal_assertions ();
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *name = g_strdup_printf ("/kernel-gpu/%s/%s", cases[i].file,
                                               cases[i].kernel ? cases[i].kernel : "default");
      g_test_add_data_func (name, &cases[i], test_case);
    }
  status = g_test_run ();
  /* after every case: how many are within their tolerance below L1 */
  if (time_rows > 0)
    g_print ("# L2 sectors read within 10 %%: %u of %u; DRAM bytes within 15 %%: %u of %u; "
             "time within 25 %%: %u of %u\n", l2_within, l2_rows, dram_within, dram_rows, time_within, time_rows);
  return status;
}
