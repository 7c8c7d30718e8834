/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What nvcc keeps in a register through a loop (ws-kernel-compile-keep.c):
 * each marked access of tests/data/kernels/keep.cu, how often the model
 * counts it, and, where nvcc is installed, where nvcc puts it in the PTX
 * it makes for sm_90 (by its .loc lines: in a loop, outside, or nowhere).
 * The H200's counters showed the first shape, Harris's reduce6: 512 shared
 * wavefronts on the loop's line where 524288 had been modelled. */
#include "ws-kernel.h"
#include "nvcc-check.h"

#include <glib/gstdio.h>
#include <string.h>

typedef struct
{
  const char *marker;           /* KERNEL.WHAT: "// K:marker" ends its line */
  WsAccessKind kind;
  const char *array;
  WsKernelKeep keep;
  gboolean straight;            /* not in a loop (or before one) */
} Case;

#define EVERY WS_KERNEL_KEEP_EVERY
#define ONCE WS_KERNEL_KEEP_ONCE
#define NEVER WS_KERNEL_KEEP_NEVER
#define LD WS_ACCESS_LOAD
#define ST WS_ACCESS_STORE

static const Case cases[] = {
  { "reduce_while.before", ST, "s", EVERY, TRUE },
  { "reduce_while.loop", LD, "s", NEVER, FALSE },
  { "reduce_while.loop", ST, "s", ONCE, FALSE },
  { "load_store.loop", LD, "s", ONCE, FALSE },
  { "load_store.loop", ST, "s", ONCE, FALSE },
  { "load_only.loop", LD, "s", ONCE, FALSE },
  { "barrier.loop", LD, "s", EVERY, FALSE },
  { "barrier.loop", ST, "s", EVERY, FALSE },
  { "neighbour.other", LD, "s", ONCE, FALSE },
  { "neighbour.loop", LD, "s", ONCE, FALSE },
  { "neighbour.loop", ST, "s", ONCE, FALSE },
  { "under_if.loop", LD, "s", EVERY, FALSE },
  { "under_if.loop", ST, "s", EVERY, FALSE },
  { "global_alias.loop", LD, "o", ONCE, FALSE },
  { "global_alias.loop", ST, "o", EVERY, FALSE },
  { "global_restrict.loop", LD, "o", ONCE, FALSE },
  { "global_restrict.loop", ST, "o", ONCE, FALSE },
  { "global_from_shared.other", LD, "s", EVERY, FALSE },
  { "global_from_shared.loop", LD, "o", ONCE, FALSE },
  { "global_from_shared.loop", ST, "o", ONCE, FALSE },
  { "tile.before", ST, "s", EVERY, TRUE },
  { "tile.loop", LD, "s", NEVER, FALSE },
  { "tile.loop", ST, "s", ONCE, FALSE },
  { "counted.before", ST, "s", NEVER, TRUE },
  { "counted.loop", LD, "s", NEVER, FALSE },
  { "counted.loop", ST, "s", ONCE, FALSE },
  { "leaves.loop", LD, "s", NEVER, FALSE },
  { "leaves.loop", ST, "s", EVERY, FALSE },
  { "atomic_beside.loop", LD, "s", NEVER, FALSE },
  { "atomic_beside.loop", ST, "s", ONCE, FALSE },
  { "dynamic.loop", LD, "s", NEVER, FALSE },
  { "dynamic.loop", ST, "s", ONCE, FALSE },
  { "maximum.loop", LD, "s", NEVER, FALSE },
  { "maximum.loop", ST, "s", ONCE, FALSE },
  { "moving.loop", LD, "s", EVERY, FALSE },
  { "moving.loop", ST, "s", EVERY, FALSE },
  { "do_loop.before", ST, "s", EVERY, TRUE },
  { "do_loop.loop", LD, "s", NEVER, FALSE },
  { "do_loop.loop", ST, "s", ONCE, FALSE },
  { "not_unrolled.before", ST, "s", EVERY, TRUE },
  { "not_unrolled.loop", LD, "s", NEVER, FALSE },
  { "not_unrolled.loop", ST, "s", ONCE, FALSE },
  { "store_first.store", ST, "s", ONCE, FALSE },
  { "store_first.load", LD, "s", NEVER, FALSE },
  { "again.first", LD, "g", EVERY, TRUE },
  { "again.second", LD, "g", NEVER, TRUE },
  { "square.first", LD, "g", EVERY, TRUE },
  { "square.second", LD, "g", NEVER, TRUE },
  { "between.first", LD, "g", EVERY, TRUE },
  { "between.second", LD, "g", EVERY, TRUE },
  { "barrier_between.first", LD, "s", EVERY, TRUE },
  { "barrier_between.second", LD, "s", EVERY, TRUE },
  { "stored.load", LD, "s", NEVER, TRUE },
  { "branch.first", LD, "g", NEVER, TRUE },
  { "branch.second", LD, "g", EVERY, TRUE },
  { "moved.first", LD, "g", EVERY, TRUE },
  { "moved.second", LD, "g", EVERY, TRUE },
  { "running.loop", LD, "s", EVERY, FALSE },
  { "running.loop", ST, "s", EVERY, FALSE },
  { "scattered.loop", LD, "s", EVERY, FALSE },
  { "scattered.loop", ST, "s", EVERY, FALSE },
};

static char *keep_text;
static char *keep_path;

static char *
kernel_of (const Case *c)
{
  return g_strndup (c->marker, strchr (c->marker, '.') - c->marker);
}


static guint
marker_line (const char *marker)
{
  g_autofree char *needle = g_strdup_printf ("// K:%s\n", marker);
  const char *at = strstr (keep_text, needle);
  guint line = 1;

  g_assert_nonnull (at);
  for (const char *p = keep_text; p < at; p++)
    line += *p == '\n';
  return line;
}

static const char *
keep_name (WsKernelKeep k)
{
  return k == EVERY ? "every iteration" : k == ONCE ? "once" : "never";
}

/* ------------------------------------------------------------------ */
/* The model                                                          */
/* ------------------------------------------------------------------ */

static void
test_model (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WsKernelFile) f = ws_kernel_file_parse (keep_text, -1, "keep.cu", &error);
  g_autofree char *last = NULL;
  WsKernelInstance *inst = NULL;
  WsKernelStats *stats = NULL;

  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const Case *c = &cases[i];
      g_autofree char *kernel = kernel_of (c);
      guint line = marker_line (c->marker);
      const WsKernelSite *site = NULL;
      const WsStats *st = NULL;
      guint64 warps;

      if (last == NULL || strcmp (last, kernel) != 0)
        {
          g_autoptr (WsKernelLaunchConfig) cfg = NULL;
          g_clear_pointer (&stats, ws_kernel_stats_free);
          g_clear_pointer (&inst, ws_kernel_instance_unref);
          cfg = ws_kernel_config_new (f, kernel, &error);
          g_assert_no_error (error);
          inst = ws_kernel_instance_new (f, cfg, NULL, &error);
          g_assert_no_error (error);
          stats = ws_kernel_model_analyze (inst, NULL, NULL, &error);
          g_assert_no_error (error);
          g_free (last);
          last = g_strdup (kernel);
        }
      for (guint k = 0; k < ws_kernel_instance_get_n_sites (inst); k++)
        {
          const WsKernelSite *s = ws_kernel_instance_get_site (inst, k);
          if (s->line == line && s->kind == c->kind && strcmp (s->array_name, c->array) == 0)
            {
              g_assert_null (site);
              site = s;
              st = &stats->sites[k];
            }
        }
      g_assert_nonnull (site);
      if (site->keep != c->keep)
        g_error ("%s: the %s of %s is made %s in the model, %s by nvcc", c->marker,
                 c->kind == LD ? "load" : "store", site->text, keep_name (site->keep), keep_name (c->keep));
      warps = stats->warps;
      g_assert_cmpuint (warps, ==, 8);
      switch (c->keep)
        {
        case WS_KERNEL_KEEP_NEVER:
          g_assert_cmpuint (st->instructions, ==, 0);
          break;
        case WS_KERNEL_KEEP_ONCE:
          /* every warp enters each loop once, with all its lanes */
          g_assert_cmpuint (st->instructions, ==, warps);
          g_assert_cmpuint (st->active_lanes, ==, warps * 32);
          g_assert_cmpuint (site->keep_line, >, 0);
          g_assert_cmpuint (site->keep_line, <=, line);
          break;
        case WS_KERNEL_KEEP_EVERY:
        default:
          if (c->straight)
            {
              /* by every warp that comes to it (branch.first: one) */
              g_assert_cmpuint (st->instructions, >=, 1);
              g_assert_cmpuint (st->instructions, <=, warps);
            }
          else
            g_assert_cmpuint (st->instructions, >, warps);
          break;
        }
    }
  g_clear_pointer (&stats, ws_kernel_stats_free);
  g_clear_pointer (&inst, ws_kernel_instance_unref);
}

/* The values do not change: the VM still moves them at every iteration. */
static void
test_values (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WsKernelFile) f = ws_kernel_file_parse (keep_text, -1, "keep.cu", &error);
  g_autoptr (WsKernelLaunchConfig) cfg = ws_kernel_config_new (f, "reduce_while", &error);
  g_autoptr (WsKernelInstance) inst = ws_kernel_instance_new (f, cfg, NULL, &error);
  g_autoptr (WsKernelMemory) m = ws_kernel_memory_new (inst);
  int o[1024];

  g_assert_no_error (error);
  g_assert_true (ws_kernel_run (inst, m, NULL, &error));
  g_assert_no_error (error);
  ws_kernel_memory_read (m, (guint) ws_kernel_instance_find_array (inst, "o"), 0, (guint8 *) o, sizeof o, &error);
  g_assert_no_error (error);
  for (int t = 0; t < 256; t++)
    {
      int want = 0, r = 255 - t;
      for (int i = r; i < 1024; i += 256)
        want += (i % 7);
      g_assert_cmpint (o[t], ==, want);
    }
}

/* ------------------------------------------------------------------ */
/* nvcc's PTX                                                         */
/* ------------------------------------------------------------------ */

typedef struct
{
  guint line;
  gboolean load;
  gboolean shared;
  gboolean in_loop;
} PtxAccess;

/* The loads and stores of one kernel's PTX with their source lines, each
 * marked if a backward branch goes around it. */
static GArray *
ptx_accesses (const char *ptx,
              const char *kernel)
{
  g_autofree char *entry = g_strdup_printf (".entry _Z%zu%s", strlen (kernel), kernel);
  const char *start = strstr (ptx, entry), *end;
  g_auto (GStrv) lines = NULL;
  g_autoptr (GArray) raw = g_array_new (FALSE, TRUE, sizeof (PtxAccess));
  g_autoptr (GArray) at = g_array_new (FALSE, TRUE, sizeof (guint));
  g_autoptr (GHashTable) labels = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  GArray *out = g_array_new (FALSE, TRUE, sizeof (PtxAccess));
  guint file = 0, line = 0;
  g_autofree char *body = NULL;

  g_assert_nonnull (start);
  end = strstr (start + 1, ".entry ");
  body = end ? g_strndup (start, end - start) : g_strdup (start);
  /* which .file is keep.cu */
  {
    const char *p = ptx;
    while ((p = strstr (p, ".file")) != NULL)
      {
        guint n = 0;
        const char *q = p + 5;
        while (*q == ' ' || *q == '\t')
          q++;
        n = (guint) g_ascii_strtoull (q, NULL, 10);
        {
          const char *nl = strchr (p, '\n');
          g_autofree char *l = nl ? g_strndup (p, nl - p) : g_strdup (p);
          if (strstr (l, "keep.cu\"") != NULL)
            file = n;
        }
        p += 5;
      }
  }
  g_assert_cmpuint (file, >, 0);
  lines = g_strsplit (body, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      char *l = g_strstrip (lines[i]);
      guint n = raw->len;

      if (g_str_has_prefix (l, ".loc"))
        {
          char **w = g_strsplit_set (l, " \t", -1);
          guint fields[2] = { 0 }, got = 0;
          for (guint j = 1; w[j] != NULL && got < 2; j++)
            if (*w[j] != '\0')
              fields[got++] = (guint) g_ascii_strtoull (w[j], NULL, 10);
          if (got == 2)
            line = fields[0] == file ? fields[1] : 0;
          g_strfreev (w);
          continue;
        }
      if (l[0] == '$' && g_str_has_suffix (l, ":"))
        {
          g_hash_table_insert (labels, g_strndup (l, strlen (l) - 1), GUINT_TO_POINTER (n + 1));
          continue;
        }
      if (strstr (l, "bra") != NULL)
        {
          const char *lab = strchr (l, '$');
          if (lab != NULL)
            {
              g_autofree char *name = g_strndup (lab, strcspn (lab, ";"));
              gpointer hit = g_hash_table_lookup (labels, name);
              if (hit != NULL)
                {
                  /* a backward branch: [label, here) is a loop */
                  guint from = GPOINTER_TO_UINT (hit) - 1;
                  for (guint k = from; k < raw->len; k++)
                    g_array_index (raw, PtxAccess, k).in_loop = TRUE;
                }
            }
          continue;
        }
      if ((g_str_has_prefix (l, "ld.") || g_str_has_prefix (l, "st.")) &&
          (strstr (l, ".shared") != NULL || strstr (l, ".global") != NULL) && strstr (l, ".nc") == NULL &&
          strstr (l, ".param") == NULL)
        {
          PtxAccess a = { 0 };
          a.line = line;
          a.load = l[0] == 'l';
          a.shared = strstr (l, ".shared") != NULL;
          g_array_append_val (raw, a);
        }
      else if (l[0] == '@')
        {
          /* a predicated load or store */
          const char *op = strchr (l, ' ');
          if (op != NULL)
            {
              while (*op == ' ' || *op == '\t')
                op++;
              if ((g_str_has_prefix (op, "ld.") || g_str_has_prefix (op, "st.")) &&
                  (strstr (op, ".shared") != NULL || strstr (op, ".global") != NULL) && strstr (op, ".nc") == NULL)
                {
                  PtxAccess a = { 0 };
                  a.line = line;
                  a.load = op[0] == 'l';
                  a.shared = strstr (op, ".shared") != NULL;
                  g_array_append_val (raw, a);
                }
            }
        }
    }
  g_array_append_vals (out, raw->data, raw->len);
  return out;
}

static void
test_nvcc (void)
{
  g_autofree char *nvcc = ws_test_find_nvcc ();
  g_autofree char *dir = NULL;
  g_autofree char *ptx_path = NULL;
  g_autofree char *ptx = NULL;
  g_autofree char *err = NULL;
  g_autoptr (GError) error = NULL;
  int status = 0;

  if (nvcc == NULL)
    {
      g_test_skip ("nvcc is not installed here (not on the PATH, nor in /usr/local/cuda/bin): "
                   "the PTX it makes of keep.cu cannot be read");
      return;
    }
  dir = g_dir_make_tmp ("ws-keep-XXXXXX", &error);
  g_assert_no_error (error);
  ptx_path = g_build_filename (dir, "keep.ptx", NULL);
  {
    const char *argv[] = { nvcc, "-arch=sm_90", "-ptx", "-lineinfo", keep_path, "-o", ptx_path, NULL };
    g_assert_true (g_spawn_sync (dir, (char **) argv, NULL, 0, NULL, NULL, NULL, &err, &status, &error));
    g_assert_no_error (error);
    if (!g_spawn_check_wait_status (status, NULL))
      g_error ("nvcc did not compile keep.cu: %s", err);
  }
  g_assert_true (g_file_get_contents (ptx_path, &ptx, NULL, &error));
  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const Case *c = &cases[i];
      g_autofree char *kernel = kernel_of (c);
      g_autoptr (GArray) acc = ptx_accesses (ptx, kernel);
      guint line = marker_line (c->marker), inside = 0, outside = 0, unplaced = 0;
      gboolean shared = strcmp (c->array, "s") == 0;
      WsKernelKeep seen;

      for (guint k = 0; k < acc->len; k++)
        {
          const PtxAccess *a = &g_array_index (acc, PtxAccess, k);
          if (a->load != (c->kind == LD) || a->shared != shared)
            continue;
          /* nvcc gives some accesses it hoists out of a loop no line
           * (.loc 1 0 0): the one load of load_only's s[255 - t] */
          if (a->line == 0 && !a->in_loop)
            unplaced++;
          if (a->line != line)
            continue;
          if (a->in_loop)
            inside++;
          else
            outside++;
        }
      /* what nvcc moves (out of a loop, above an if) it may give no line:
       * then one made nowhere else, of the same kind, stands for it */
      if (inside + outside == 0 && (c->keep == NEVER || unplaced == 0))
        seen = NEVER;
      else if (inside + outside == 0)
        seen = c->straight ? EVERY : ONCE;
      else if (inside > 0 || (c->straight && outside > 0))
        seen = EVERY;
      else
        seen = ONCE;
      g_test_message ("%s %s %s: %u in a loop, %u outside, %u outside on no line", c->marker,
                      c->kind == LD ? "load" : "store", c->array, inside, outside, unplaced);
      if (seen != c->keep)
        g_error ("%s: nvcc makes the %s of %s %s (%u in a loop, %u outside), the test says %s", c->marker,
                 c->kind == LD ? "load" : "store", c->array, keep_name (seen), inside, outside, keep_name (c->keep));
    }
  g_unlink (ptx_path);
  g_rmdir (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr (GError) error = NULL;
  int ret;

  g_test_init (&argc, &argv, NULL);
  keep_path = g_test_build_filename (G_TEST_DIST, "data", "kernels", "keep.cu", NULL);
  if (!g_file_get_contents (keep_path, &keep_text, NULL, &error))
    g_error ("%s", error->message);
  g_test_add_func ("/kernel-keep/model", test_model);
  g_test_add_func ("/kernel-keep/values", test_values);
  g_test_add_func ("/kernel-keep/nvcc", test_nvcc);
  ret = g_test_run ();
  g_free (keep_text);
  g_free (keep_path);
  return ret;
}
