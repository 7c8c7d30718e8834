/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A kernel file as anyone could write or paste it, through the reader, the
 * checker, the printer of CUDA, and a small launch of each kernel in the VM
 * (the CPU reference) and the model: the text either reads, or every
 * diagnostic is text with a line and a column inside the input; what reads
 * prints as CUDA that reads back into the same tree and prints the same;
 * a launch either runs (in a bounded number of steps) or says why, in text. */
#include "fuzz-common.h"

#include <string.h>

#include "ws-kernel.h"

/* A launch must stay small: a few blocks of a few warps, few steps, and
 * arrays the model and the reference fill page by page as they are touched
 * no larger than this in all (a scattered read of a 256 MB matrix filled
 * 16 K elements a step, and took 14 s an input under the sanitizers). */
#define MAX_BLOCKS 3
#define MAX_THREADS 96
#define MAX_STEPS 20000
#define MAX_ARRAY_BYTES (16u << 20)

static guint
count_lines (const char *text,
             gsize       n)
{
  guint lines = 1;

  for (gsize i = 0; i < n; i++)
    lines += text[i] == '\n';
  return lines;
}

static void
check_diagnostics (GPtrArray  *diags,
                   const char *text,
                   gsize       n)
{
  guint lines = count_lines (text, n);

  for (guint i = 0; i < diags->len; i++)
    {
      const WsKernelDiagnostic *d = g_ptr_array_index (diags, i);
      g_autofree char *s = ws_kernel_diagnostic_to_string (d);

      FUZZ_CHECK (d->message != NULL && g_utf8_validate (d->message, -1, NULL));
      FUZZ_CHECK (g_utf8_validate (s, -1, NULL));
      FUZZ_CHECK (d->line >= 1 && d->line <= lines);
      FUZZ_CHECK (d->column >= 1);
      FUZZ_CHECK (d->end_line >= d->line);
      FUZZ_CHECK (d->end_line > d->line || d->end_column > d->column);
    }
}

/* The printed CUDA reads back into the same tree, and prints the same. */
static void
check_round_trip (WsKernelFile *f)
{
  g_autofree char *printed = ws_kernel_file_print (f);
  g_autoptr (GError) error = NULL;
  g_autoptr (WsKernelFile) again = NULL;
  g_autofree char *printed_again = NULL;

  FUZZ_CHECK (printed != NULL && g_utf8_validate (printed, -1, NULL));
  again = ws_kernel_file_parse (printed, -1, NULL, &error);
  if (again == NULL)
    {
      /* only where printing made it longer or deeper than the limits */
      fuzz_check_error (error);
      FUZZ_CHECK (g_error_matches (error, WS_KERNEL_ERROR, WS_KERNEL_ERROR_LIMIT));
      return;
    }
  FUZZ_CHECK (ws_kernel_file_equal (f, again));
  printed_again = ws_kernel_file_print (again);
  FUZZ_CHECK (strcmp (printed, printed_again) == 0);
}

static void
run_launch (WsKernelFile *f,
            const char   *kernel,
            guint         seed)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WsKernelLaunchConfig) cfg = ws_kernel_config_new (f, kernel, &error);
  g_autoptr (WsKernelInstance) inst = NULL;
  g_autoptr (WsKernelStats) stats = NULL;
  g_autoptr (WsWarpResult) warp = NULL;
  g_autofree char *cuda = NULL;
  WsDim3 grid, block;

  if (cfg == NULL)
    {
      fuzz_check_error (error);
      return;
    }
  ws_kernel_config_set_step_limit (cfg, MAX_STEPS);
  /* whatever the file says, a small launch that the input picks */
  grid = WS_DIM3 (1 + seed % MAX_BLOCKS, 1, 1);
  block = WS_DIM3 (32 * (1 + (seed / MAX_BLOCKS) % (MAX_THREADS / 32)), 1, 1);
  FUZZ_CHECK (ws_kernel_config_set_grid (cfg, grid, NULL));
  FUZZ_CHECK (ws_kernel_config_set_block (cfg, block, NULL));
  inst = ws_kernel_instance_new (f, cfg, NULL, &error);
  if (inst == NULL)
    {
      fuzz_check_error (error);
      return;
    }
  cuda = ws_kernel_instance_print_cuda (inst, &error);
  FUZZ_CHECK (cuda != NULL && g_utf8_validate (cuda, -1, NULL));
  FUZZ_CHECK (strstr (cuda, ws_kernel_instance_get_cuda_name (inst)) != NULL);
  for (guint i = 0; i < ws_kernel_instance_get_n_sites (inst); i++)
    {
      const WsKernelSite *s = ws_kernel_instance_get_site (inst, i);
      FUZZ_CHECK (s->array < ws_kernel_instance_get_n_arrays (inst));
      FUZZ_CHECK (s->elem_size == 1 || s->elem_size == 2 || s->elem_size == 4 || s->elem_size == 8 ||
                  s->elem_size == 16);
      FUZZ_CHECK (g_utf8_validate (s->text, -1, NULL));
    }
  for (const char *const *n = ws_kernel_instance_get_notes (inst); *n; n++)
    FUZZ_CHECK (g_utf8_validate (*n, -1, NULL));
  {
    guint64 bytes = 0;

    for (guint i = 0; i < ws_kernel_instance_get_n_arrays (inst); i++)
      bytes += ws_kernel_instance_get_array (inst, i)->bytes;
    if (bytes > MAX_ARRAY_BYTES)
      return;
  }

  stats = ws_kernel_model_analyze (inst, NULL, NULL, &error);
  if (stats == NULL)
    {
      fuzz_check_error (error);
      return;
    }
  FUZZ_CHECK (stats->n_sites == ws_kernel_instance_get_n_sites (inst));
  if (stats->n_sites > 0)
    {
      warp = ws_kernel_analyze_warp (inst, 0, WS_DIM3 (0, 0, 0), 0, 0, &error);
      if (warp == NULL)
        fuzz_check_error (error);
    }

  /* the reference's memory reads back, and compares equal to itself */
  {
    g_autoptr (WsKernelMemory) m = ws_kernel_memory_new (inst);
    g_clear_error (&error);
    if (!ws_kernel_run (inst, m, NULL, &error))
      {
        fuzz_check_error (error);
        return;
      }
    for (guint i = 0; i < ws_kernel_instance_get_n_arrays (inst); i++)
      {
        const WsKernelArrayInfo *a = ws_kernel_instance_get_array (inst, i);
        g_autofree guint8 *bytes = NULL;
        g_autofree char *message = NULL;

        if (a->space != WS_SPACE_GLOBAL || a->bytes > (1u << 20))
          continue;
        bytes = g_malloc (MAX (a->bytes, 1));
        FUZZ_CHECK (ws_kernel_memory_read (m, i, 0, bytes, a->bytes, NULL));
        FUZZ_CHECK (ws_kernel_memory_compare (m, i, bytes, a->bytes, &message));
      }
  }
}

int
LLVMFuzzerInitialize (int    *argc,
                      char ***argv)
{
  fuzz_init_glib ();
  return 0;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr (WsKernelFile) f = NULL;
  g_autoptr (GPtrArray) diags = NULL;
  const char *text = (const char *) data;

  if (size > 64 * 1024)
    return 0;
  diags = ws_kernel_file_check (text, (gssize) size, &f);
  check_diagnostics (diags, text, size);
  if (f == NULL)
    {
      gboolean error = FALSE;
      for (guint i = 0; i < diags->len; i++)
        if (((WsKernelDiagnostic *) g_ptr_array_index (diags, i))->severity == WS_KERNEL_SEVERITY_ERROR)
          error = TRUE;
      FUZZ_CHECK (error);
      return 0;
    }
  check_round_trip (f);
  for (guint i = 0; i < MIN (ws_kernel_file_get_n_kernels (f), 2); i++)
    run_launch (f, ws_kernel_file_get_kernel_name (f, i), (guint) size + i);
  return 0;
}
