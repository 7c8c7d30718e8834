/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The presets' kernel texts (data/presets/TOPIC/NAME.cu) held against the
 * presets: each names a preset, reads and checks, models (at sizes
 * shrunk to keep the test short), and the first warp of each of the
 * preset's instructions, as the Explore page shows it, is served as the
 * kernel model serves the first warp of the matching source line (in the
 * loop's iteration that touches the same elements, where there is one):
 * the same requests, sectors, wavefronts, distinct addresses, replays and
 * active lanes. With -m slow (the preset-kernels-nvcc test), each also
 * compiles with nvcc. */
#include "ws-config.h"
#include "nvcc-check.h"
#include "ws-analysis.h"
#include "ws-kernel.h"
#include "ws-kernel-spec.h"
#include "ws-preset-kernels.h"
#include "ws-presets.h"

#include <glib/gstdio.h>
#include <string.h>

typedef struct
{
  char *id;
  char *path;
} PresetFile;

static GPtrArray *files;

static int
compare_files (gconstpointer a,
               gconstpointer b)
{
  const PresetFile *x = *(PresetFile * const *) a, *y = *(PresetFile * const *) b;

  return strcmp (x->id, y->id);
}

/* Every TOPIC/NAME.cu under the folder the program reads them from. */
static GPtrArray *
list_files (void)
{
  g_autofree char *dir = ws_preset_kernels_dir ();
  g_autoptr (GDir) top = g_dir_open (dir, 0, NULL);
  GPtrArray *all = g_ptr_array_new ();
  const char *topic;

  g_assert_nonnull (top);
  while ((topic = g_dir_read_name (top)))
    {
      g_autofree char *sub = g_build_filename (dir, topic, NULL);
      g_autoptr (GDir) d = g_dir_open (sub, 0, NULL);
      const char *name;

      if (d == NULL)
        continue;
      while ((name = g_dir_read_name (d)))
        if (g_str_has_suffix (name, ".cu"))
          {
            PresetFile *f = g_new0 (PresetFile, 1);

            f->id = g_strdup_printf ("%s/%.*s", topic, (int) (strlen (name) - 3), name);
            f->path = g_build_filename (sub, name, NULL);
            g_ptr_array_add (all, f);
          }
    }
  g_ptr_array_sort (all, compare_files);
  return all;
}

/* Sizes that keep a whole launch's model short: the arrays of a 1-D
 * kernel at 64 Ki elements, a transpose's matrix at 256², a 2-D array at
 * 256 × 64, a merge sort's values at two blocks' 2048, loops over loads at
 * one round of 32. Set only where the kernel's launch has the
 * name. */
static void
shrink (WsKernelSpec   *spec,
        const WsPreset *preset)
{
  const WsPresetParam *n = ws_preset_get_param (preset, "N");

  if (n)
    ws_kernel_spec_set (spec, "N", g_str_equal (preset->topic, "transpose") ? "256"
                                   : g_str_has_prefix (preset->id, "merge/sort") ? "2048" : "65536");
  if (ws_preset_get_param (preset, "loads"))
    ws_kernel_spec_set (spec, "loads", "32");
  if (ws_preset_get_param (preset, "W"))
    ws_kernel_spec_set (spec, "W", "256");
  if (ws_preset_get_param (preset, "H"))
    ws_kernel_spec_set (spec, "H", "64");
}

/* "sectors 5, the preset 4" for each figure that differs, else NULL. */
static char *
counts_differ (const WsWarpCounts *k,
               const WsWarpCounts *p)
{
  g_autoptr (GString) s = g_string_new (NULL);
#define FIGURE(F) \
  if (k->F != p->F) \
    g_string_append_printf (s, "%s" #F " %u, the preset %u", s->len ? "; " : "", k->F, p->F);
  FIGURE (requests);
  FIGURE (sectors);
  FIGURE (lines);
  FIGURE (bytes_requested);
  FIGURE (bytes_moved);
  FIGURE (wavefronts);
  FIGURE (ideal_wavefronts);
  FIGURE (distinct_addresses);
  FIGURE (replays);
  FIGURE (atomic_conflicts);
  FIGURE (atomic_depth);
#undef FIGURE
  return s->len ? g_string_free (g_steal_pointer (&s), FALSE) : NULL;
}

/* The active lanes read or write the same elements. */
static gboolean
same_elements (const WsWarpResult *k,
               const WsWarpResult *p)
{
  if (k->active != p->active)
    return FALSE;
  for (guint l = 0; l < WS_WARP_SIZE; l++)
    if ((p->active & (1u << l)) && k->index[l] != p->index[l])
      return FALSE;
  return TRUE;
}

/* The execution of the line by the first warp that runs it which touches
 * the elements the preset's instruction shows (a loop's iteration: the
 * views show one of a stencil's neighbours, the first is another), else
 * its first execution. */
static WsWarpResult *
matching_execution (const WsKernelInstance *inst,
                    guint                   site,
                    const WsWarpResult     *rp,
                    GError                **error)
{
  WsWarpResult *first = ws_kernel_analyze_first_warp (inst, site, 8, error);

  if (first == NULL || same_elements (first, rp))
    return first;
  for (guint e = 1; e < 64; e++)
    {
      WsWarpResult *r = ws_kernel_analyze_warp (inst, site, first->block_idx, first->warp, e, NULL);

      if (r == NULL)
        break;
      if (same_elements (r, rp))
        {
          ws_warp_result_free (first);
          return r;
        }
      ws_warp_result_free (r);
    }
  return first;
}

static gboolean
same_kind (const WsKernelSite *s,
           const WsAccess     *a,
           guint               elem_size)
{
  return s->space == a->space && s->kind == a->kind && s->elem_size == elem_size;
}

/* The kernel's line for the preset's instruction, and the first warp's
 * execution of it: among the sites of the same space, kind and width from
 * the one matched last on (a stencil's neighbours are one line, a
 * structure's fields three), the first with an execution that touches the
 * preset's elements; else, by the order of the source, the next such site
 * after the one matched last; else the same from the kernel's start.
 * G_MAXUINT if there is none. */
static guint
match_site (const WsKernelInstance  *inst,
            const WsAccess          *a,
            const WsWarpResult      *rp,
            guint                    last,
            WsWarpResult           **result,
            GError                 **error)
{
  guint n = ws_kernel_instance_get_n_sites (inst), next = G_MAXUINT;

  for (guint i = last == G_MAXUINT ? 0 : last; i < n; i++)
    {
      WsWarpResult *r;

      if (!same_kind (ws_kernel_instance_get_site (inst, i), a, rp->elem_size))
        continue;
      if (next == G_MAXUINT && i != last)
        next = i;
      if ((r = matching_execution (inst, i, rp, NULL)) == NULL)
        continue;
      if (same_elements (r, rp))
        {
          *result = r;
          return i;
        }
      ws_warp_result_free (r);
    }
  if (next == G_MAXUINT && last != G_MAXUINT)
    /* none after it: the one matched last, or one before it (the order
     * of a line's instructions is the compiler's, not the preset's) */
    return match_site (inst, a, rp, G_MAXUINT, result, error);
  if (next != G_MAXUINT)
    *result = matching_execution (inst, next, rp, error);
  return next;
}

/* Each of the preset's instructions against the kernel: problems are
 * appended to why, one a line. */
static void
hold_against_preset (const PresetFile       *f,
                     const WsPreset         *preset,
                     const WsKernelInstance *inst,
                     WsPattern              *pattern,
                     GString                *why)
{
  guint last = G_MAXUINT;

  for (guint i = 0; i < ws_pattern_get_n_accesses (pattern); i++)
    {
      const WsAccess *a = ws_pattern_get_access (pattern, i);
      g_autoptr (GError) error = NULL;
      g_autoptr (WsWarpResult) rp = ws_model_analyze_warp (pattern, i, WS_DIM3 (0, 0, 0), 0, &error);
      g_autoptr (WsWarpResult) rk = NULL;
      g_autofree char *differ = NULL;
      const WsKernelSite *s;
      guint site;

      g_assert_no_error (error);
      site = match_site (inst, a, rp, last, &rk, &error);
      if (site == G_MAXUINT)
        {
          g_string_append_printf (why, "%s: no %s %s of %u bytes for the preset's instruction %u (%s)\n", f->id,
                                  ws_space_to_string (a->space), ws_access_kind_to_string (a->kind), rp->elem_size,
                                  i + 1, a->index_text);
          continue;
        }
      last = site;
      s = ws_kernel_instance_get_site (inst, site);
      if (rk == NULL)
        {
          g_string_append_printf (why, "%s line %u (%s): %s\n", f->id, s->line, s->text, error->message);
          continue;
        }
      if (rk->active != rp->active)
        g_string_append_printf (why, "%s line %u (%s): %u active lanes, the preset's instruction %u %u\n", f->id,
                                s->line, s->text, (guint) __builtin_popcount (rk->active), i + 1,
                                (guint) __builtin_popcount (rp->active));
      if ((differ = counts_differ (&rk->counts, &rp->counts)))
        g_string_append_printf (why, "%s line %u (%s) against the preset's instruction %u: %s\n", f->id, s->line,
                                s->text, i + 1, differ);
    }
}

/* The preset's pattern at the values the kernel's launch was given. */
static WsPattern *
pattern_at (const WsPreset     *preset,
            const WsKernelSpec *spec)
{
  WsPattern *pattern = ws_preset_build (preset);
  g_autoptr (GError) error = NULL;

  for (guint i = 0; i < spec->names->len; i++)
    {
      const char *name = g_ptr_array_index (spec->names, i);
      const WsPresetParam *p = ws_preset_get_param (preset, name);

      gint64 value = g_ascii_strtoll (g_ptr_array_index (spec->values, i), NULL, 10);

      if (p && p->use != WS_PARAM_KERNEL_ONLY)
        g_assert_true (ws_pattern_set_param (pattern, name, value, &error));
      g_assert_no_error (error);
    }
  g_assert_true (ws_preset_fit_grid (preset, pattern, &error));
  g_assert_no_error (error);
  return pattern;
}

static void
test_file (gconstpointer data)
{
  const PresetFile *f = data;
  const WsPreset *preset = ws_preset_lookup (f->id);
  g_autoptr (GError) error = NULL;
  g_autofree char *text = NULL;
  g_autofree char *base = NULL;
  g_autoptr (WsKernelSpec) spec = NULL;
  g_autoptr (WsKernelInstance) inst = NULL;
  g_autoptr (WsKernelStats) stats = NULL;
  g_autoptr (WsPattern) pattern = NULL;
  g_autoptr (GString) why = g_string_new (NULL);

  if (preset == NULL)
    {
      g_test_fail_printf ("%s names no preset (data/presets/TOPIC/NAME.cu for the preset TOPIC/NAME)", f->path);
      return;
    }
  /* found as the program finds it, word for word the file */
  text = ws_preset_dup_kernel_text (f->id, &error);
  g_assert_no_error (error);
  g_assert_nonnull (text);
  g_assert_nonnull (strstr (text, "warpscope:"));

  base = g_path_get_basename (f->path);
  spec = ws_kernel_spec_new (text, base);
  /* its own launch reads and checks */
  inst = ws_kernel_spec_instantiate (spec, NULL, &error);
  g_assert_no_error (error);
  g_clear_pointer (&inst, ws_kernel_instance_unref);

  shrink (spec, preset);
  inst = ws_kernel_spec_instantiate (spec, NULL, &error);
  g_assert_no_error (error);
  stats = ws_kernel_model_analyze (inst, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (stats);
  g_assert_cmpuint (stats->warps, >, 0);

  pattern = pattern_at (preset, spec);
  hold_against_preset (f, preset, inst, pattern, why);
  if (why->len)
    g_test_fail_printf ("%s does not do what the preset %s shows:\n%s", f->path, preset->id, why->str);
}

/* The preset's id from a path of a file that is not there: no text, no
 * error; and an id that would leave the folder finds nothing. */
static void
test_lookup (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *found = NULL;

  g_assert_null (ws_preset_dup_kernel_text ("transfer/pageable", &error));
  g_assert_no_error (error);
  g_assert_null (ws_preset_kernel_path ("../presets/coalescing/sequential"));
  g_assert_null (ws_preset_kernel_path ("coalescing/../coalescing/sequential"));
  found = ws_preset_kernel_path ("coalescing/sequential");
  g_assert_nonnull (found);
}

/* ------------------------------------------------------------------ */

/* Each file as it is, compiled with nvcc for sm_90. */
static void
test_nvcc (void)
{
  g_autofree char *nvcc = ws_test_find_nvcc ();

  if (nvcc == NULL)
    {
      g_test_skip ("nvcc is not installed: the presets' kernel texts are not compiled");
      return;
    }
  if (!g_test_slow ())
    {
      g_test_skip ("compiling with nvcc takes a minute: run with -m slow");
      return;
    }
  for (guint i = 0; i < files->len; i++)
    {
      const PresetFile *f = g_ptr_array_index (files, i);
      g_autofree char *text = NULL;

      g_assert_true (g_file_get_contents (f->path, &text, NULL, NULL));
      ws_test_nvcc_compiles (nvcc, text, f->path);
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  files = list_files ();
  g_test_add_func ("/preset-kernels/lookup", test_lookup);
  for (guint i = 0; i < files->len; i++)
    {
      const PresetFile *f = g_ptr_array_index (files, i);
      g_autofree char *path = g_strdup_printf ("/preset-kernels/file/%s", f->id);

      g_test_add_data_func (path, f, test_file);
    }
  g_test_add_func ("/preset-kernels/nvcc", test_nvcc);
  return g_test_run ();
}
