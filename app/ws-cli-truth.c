/* SPDX-License-Identifier: GPL-3.0-or-later */
/* warpscope-cli truth: every preset and a set of expressions run as real
 * kernels under CUPTI, their hardware counters beside the model's. */
#include "ws-config.h"
#include "ws-cli.h"
#include "ws-presets.h"

#include <json-glib/json-glib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#if WS_HAVE_CUDA
#include "ws-counters.h"
#include "ws-jit.h"
#endif

static const char truth_description[] =
  "Runs every preset, and expressions chosen to test each rule of the model (strides, offsets,\n"
  "element sizes, broadcasts, permutations, shared-memory bank strides for 4-, 8- and 16-byte\n"
  "accesses, uniform and non-uniform local indexing, distinct constant addresses), as kernels\n"
  "generated from the pattern and compiled with NVRTC, and reads the GPU's hardware counters with\n"
  "CUPTI. Each row compares one counter with what the model predicts for the whole launch. A row\n"
  "where they differ by more than 2 % carries a note that explains why; a difference without one\n"
  "is a bug, and makes the exit status 1.\n"
  "\n"
  "--bench PATTERN times the collection of that pattern's counters in this process against\n"
  "Nsight Compute (ncu --metrics, the same metrics, the same kernel) run from the command line.\n"
  "\n"
  "Examples:\n"
  "  warpscope-cli truth\n"
  "  warpscope-cli truth --json -o nvidia-h100-80gb-hbm3.json\n"
  "  warpscope-cli truth --only banks/\n"
  "  warpscope-cli truth --bench coalescing/stride\n";

#define TOLERANCE 0.02

typedef struct
{
  char *name;
  WsPattern *pattern;
} TruthCase;

typedef struct
{
  char *pattern;
  char *metric;
  double model;
  double hardware;
  char *note;
  gboolean mismatch;
  gboolean explained;
} TruthRow;

static void
truth_case_free (gpointer data)
{
  TruthCase *c = data;

  g_free (c->name);
  ws_pattern_unref (c->pattern);
  g_free (c);
}

/* ------------------------------------------------------------------ */
/* The cases                                                          */
/* ------------------------------------------------------------------ */

static void
add_case (GPtrArray  *cases,
          const char *name,
          WsPattern  *pattern)
{
  TruthCase *c = g_new0 (TruthCase, 1);

  c->name = g_strdup (name);
  c->pattern = pattern;
  g_ptr_array_add (cases, c);
}

/* One access of every thread of a launch; `i` is the thread's global index. */
static void
add_expr_in (GPtrArray   *cases,
             WsSpace      space,
             WsAccessKind kind,
             guint        elem_size,
             const char  *index,
             WsDim3       block,
             guint        blocks,
             const char  *suffix)
{
  g_autoptr (WsPattern) p = ws_pattern_new ();
  g_autoptr (GError) error = NULL;
  g_autofree char *name = NULL;
  static const char *kinds[] = { "load", "store", "atomic" };

  name = g_strdup_printf ("expr/%s-%s-%u/%s%s", ws_space_to_string (space), kinds[kind], elem_size, index,
                          suffix ? suffix : "");
  if (!ws_pattern_set_block (p, block, &error) ||
      !ws_pattern_set_grid (p, WS_DIM3 (blocks, 1, 1), &error) ||
      !ws_pattern_add_definition (p, "i", "blockIdx.x * blockDim.x + threadIdx.x", &error) ||
      !ws_pattern_add_access (p, "a", space, kind, elem_size, index, 0, &error))
    g_error ("truth case %s is broken: %s", name, error->message);
  add_case (cases, name, g_steal_pointer (&p));
}

/* Blocks of 256 threads. Shared, local and constant arrays are small, so
 * indices there use threadIdx.x or lane. */
static void
add_expr (GPtrArray   *cases,
          WsSpace      space,
          WsAccessKind kind,
          guint        elem_size,
          const char  *index,
          guint        blocks)
{
  add_expr_in (cases, space, kind, elem_size, index, WS_DIM3 (256, 1, 1), blocks, NULL);
}

/* The same access by one warp alone: what the 1-warp probe of
 * tests/data/sm90-probe.txt measured, free of other warps' traffic. */
static void
add_one_warp (GPtrArray   *cases,
              WsSpace      space,
              WsAccessKind kind,
              guint        elem_size,
              const char  *index)
{
  add_expr_in (cases, space, kind, elem_size, index, WS_DIM3 (32, 1, 1), 1, " (1 warp)");
}

static void
add_global_cases (GPtrArray *cases)
{
  static const char *loads[] = {
    "i", "i * 2", "i * 4", "i * 8", "i * 32", "i + 1", "i + 3", "i + 8", "0", "warp",
    "blockIdx.x * blockDim.x + (threadIdx.x ^ 3)", "blockIdx.x * blockDim.x + 31 - lane",
    "(i * 7 + 3) % 131072", "i / 2", "i % 16",
  };
  static const guint sizes[] = { 1, 2, 8, 16 };

  for (guint k = 0; k < G_N_ELEMENTS (loads); k++)
    add_expr (cases, WS_SPACE_GLOBAL, WS_ACCESS_LOAD, 4, loads[k], 512);
  for (guint k = 0; k < G_N_ELEMENTS (sizes); k++)
    {
      add_expr (cases, WS_SPACE_GLOBAL, WS_ACCESS_LOAD, sizes[k], "i", 512);
      add_expr (cases, WS_SPACE_GLOBAL, WS_ACCESS_LOAD, sizes[k], "i * 2", 512);
      add_expr (cases, WS_SPACE_GLOBAL, WS_ACCESS_STORE, sizes[k], "i", 512);
    }
  add_expr (cases, WS_SPACE_GLOBAL, WS_ACCESS_LOAD, 16, "0", 512);
  add_expr (cases, WS_SPACE_GLOBAL, WS_ACCESS_STORE, 4, "i", 512);
  add_expr (cases, WS_SPACE_GLOBAL, WS_ACCESS_STORE, 4, "i * 2", 512);
  add_expr (cases, WS_SPACE_GLOBAL, WS_ACCESS_STORE, 4, "i * 32", 512);
  add_expr (cases, WS_SPACE_GLOBAL, WS_ACCESS_STORE, 4, "i + 1", 512);
  add_expr (cases, WS_SPACE_GLOBAL, WS_ACCESS_ATOMIC, 4, "i % 4", 512);
  add_expr (cases, WS_SPACE_GLOBAL, WS_ACCESS_ATOMIC, 4, "i % 32 * 8", 512);
  add_expr (cases, WS_SPACE_GLOBAL, WS_ACCESS_ATOMIC, 8, "i", 512);
  add_expr (cases, WS_SPACE_GLOBAL, WS_ACCESS_ATOMIC, 8, "0", 512);
}

static void
add_shared_cases (GPtrArray *cases)
{
  static const char *words[] = { "1", "2", "3", "4", "8", "16", "17", "32", "33" };

  for (guint k = 0; k < G_N_ELEMENTS (words); k++)
    {
      g_autofree char *index = g_strdup_printf ("threadIdx.x * %s", words[k]);
      add_expr (cases, WS_SPACE_SHARED, WS_ACCESS_LOAD, 4, index, 264);
      if (k < 7)
        add_expr (cases, WS_SPACE_SHARED, WS_ACCESS_LOAD, 8, index, 264);
      if (k < 5)
        add_expr (cases, WS_SPACE_SHARED, WS_ACCESS_LOAD, 16, index, 264);
    }
  for (guint e = 1; e <= 16; e *= 2)
    {
      add_expr (cases, WS_SPACE_SHARED, WS_ACCESS_LOAD, e, "warp", 264);
      add_expr (cases, WS_SPACE_SHARED, WS_ACCESS_STORE, e, "threadIdx.x", 264);
      add_expr (cases, WS_SPACE_SHARED, WS_ACCESS_STORE, e, "threadIdx.x * 2", 264);
    }
  add_expr (cases, WS_SPACE_SHARED, WS_ACCESS_LOAD, 8, "warp * 32 + lane / 2", 264);
  add_expr (cases, WS_SPACE_SHARED, WS_ACCESS_LOAD, 8, "warp * 32 + lane % 16", 264);
  add_expr (cases, WS_SPACE_SHARED, WS_ACCESS_LOAD, 16, "warp * 32 + lane / 2", 264);
  add_expr (cases, WS_SPACE_SHARED, WS_ACCESS_LOAD, 4, "warp * 32 + (lane ^ 1)", 264);
  add_expr (cases, WS_SPACE_SHARED, WS_ACCESS_STORE, 8, "warp", 264);
  add_expr (cases, WS_SPACE_SHARED, WS_ACCESS_STORE, 4, "threadIdx.x * 32", 264);
  add_expr (cases, WS_SPACE_SHARED, WS_ACCESS_ATOMIC, 4, "threadIdx.x", 264);
  add_expr (cases, WS_SPACE_SHARED, WS_ACCESS_ATOMIC, 4, "threadIdx.x * 32", 264);
  add_expr (cases, WS_SPACE_SHARED, WS_ACCESS_ATOMIC, 4, "lane % 4", 264);
  add_expr (cases, WS_SPACE_SHARED, WS_ACCESS_ATOMIC, 4, "i % 8", 264);
  add_one_warp (cases, WS_SPACE_SHARED, WS_ACCESS_LOAD, 4, "threadIdx.x * 3");
  add_one_warp (cases, WS_SPACE_SHARED, WS_ACCESS_LOAD, 4, "warp");
  add_one_warp (cases, WS_SPACE_SHARED, WS_ACCESS_LOAD, 4, "warp * 32 + (lane ^ 1)");
  add_one_warp (cases, WS_SPACE_SHARED, WS_ACCESS_LOAD, 8, "threadIdx.x * 17");
  add_one_warp (cases, WS_SPACE_SHARED, WS_ACCESS_LOAD, 8, "warp * 32 + lane / 2");
  add_one_warp (cases, WS_SPACE_SHARED, WS_ACCESS_LOAD, 16, "warp");
  add_one_warp (cases, WS_SPACE_SHARED, WS_ACCESS_ATOMIC, 4, "i % 8");
}

static void
add_private_cases (GPtrArray *cases)
{
  for (guint e = 4; e <= 16; e *= 2)
    {
      add_expr (cases, WS_SPACE_LOCAL, WS_ACCESS_LOAD, e, "blockIdx.x % 32", 512);
      add_expr (cases, WS_SPACE_LOCAL, WS_ACCESS_LOAD, e, "lane", 512);
      add_expr (cases, WS_SPACE_LOCAL, WS_ACCESS_STORE, e, "blockIdx.x % 32", 512);
      add_expr (cases, WS_SPACE_LOCAL, WS_ACCESS_STORE, e, "lane", 512);
    }
  add_expr (cases, WS_SPACE_LOCAL, WS_ACCESS_LOAD, 4, "lane % 4", 512);
  add_expr (cases, WS_SPACE_LOCAL, WS_ACCESS_LOAD, 1, "blockIdx.x % 32", 512);
  add_expr (cases, WS_SPACE_REGISTER, WS_ACCESS_LOAD, 4, "5", 512);
  for (guint d = 1; d <= 32; d *= 2)
    {
      g_autofree char *index = g_strdup_printf ("lane %% %u", d);
      add_expr (cases, WS_SPACE_CONSTANT, WS_ACCESS_LOAD, 4, index, 264);
    }
  add_expr (cases, WS_SPACE_CONSTANT, WS_ACCESS_LOAD, 8, "lane % 4", 264);
  add_expr (cases, WS_SPACE_CONSTANT, WS_ACCESS_LOAD, 16, "lane % 4", 264);
  add_expr (cases, WS_SPACE_CONSTANT, WS_ACCESS_LOAD, 4, "0", 264);
}

static GPtrArray *
truth_cases (const char *only)
{
  g_autoptr (GPtrArray) all = g_ptr_array_new_with_free_func (truth_case_free);
  GPtrArray *cases = g_ptr_array_new_with_free_func (truth_case_free);
  guint n;
  const WsPreset *presets = ws_presets_get_all (&n);

  for (guint i = 0; i < n; i++)
    add_case (all, presets[i].id, ws_preset_build (&presets[i]));
  add_global_cases (all);
  add_shared_cases (all);
  add_private_cases (all);
  for (guint i = 0; i < all->len; i++)
    {
      TruthCase *c = g_ptr_array_index (all, i);
      if (only == NULL || strstr (c->name, only) != NULL)
        {
          g_ptr_array_add (cases, c);
          all->pdata[i] = NULL;
        }
    }
  g_ptr_array_set_free_func (all, NULL);
  return cases;
}

/* Everything below needs the GPU: the counters, and the model's figures
 * beside them. */
#if WS_HAVE_CUDA

static void
truth_row_free (gpointer data)
{
  TruthRow *r = data;

  g_free (r->pattern);
  g_free (r->metric);
  g_free (r->note);
  g_free (r);
}

/* ------------------------------------------------------------------ */
/* What the model predicts, per counter                               */
/* ------------------------------------------------------------------ */

typedef enum
{
  Q_SECTORS,
  Q_REQUESTS,
  Q_INSTRUCTIONS,
  Q_WAVEFRONTS,
  Q_CONFLICTS,
} Quantity;

typedef struct
{
  WsSpace space;
  WsAccessKind kind;
  const char *metric;
  Quantity quantity;
} MetricRule;

static const MetricRule rules[] = {
  { WS_SPACE_GLOBAL, WS_ACCESS_LOAD, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", Q_SECTORS },
  { WS_SPACE_GLOBAL, WS_ACCESS_LOAD, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", Q_REQUESTS },
  { WS_SPACE_GLOBAL, WS_ACCESS_LOAD, "smsp__inst_executed_op_global_ld.sum", Q_INSTRUCTIONS },
  { WS_SPACE_GLOBAL, WS_ACCESS_STORE, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", Q_SECTORS },
  { WS_SPACE_GLOBAL, WS_ACCESS_STORE, "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", Q_REQUESTS },
  { WS_SPACE_GLOBAL, WS_ACCESS_STORE, "smsp__inst_executed_op_global_st.sum", Q_INSTRUCTIONS },
  { WS_SPACE_GLOBAL, WS_ACCESS_ATOMIC, "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum", Q_SECTORS },
  { WS_SPACE_GLOBAL, WS_ACCESS_ATOMIC, "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum", Q_REQUESTS },
  { WS_SPACE_GLOBAL, WS_ACCESS_ATOMIC, "smsp__inst_executed_op_global_red.sum", Q_INSTRUCTIONS },
  { WS_SPACE_SHARED, WS_ACCESS_LOAD, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", Q_WAVEFRONTS },
  { WS_SPACE_SHARED, WS_ACCESS_LOAD, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", Q_CONFLICTS },
  { WS_SPACE_SHARED, WS_ACCESS_LOAD, "smsp__inst_executed_op_shared_ld.sum", Q_INSTRUCTIONS },
  { WS_SPACE_SHARED, WS_ACCESS_STORE, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", Q_WAVEFRONTS },
  { WS_SPACE_SHARED, WS_ACCESS_STORE, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", Q_CONFLICTS },
  { WS_SPACE_SHARED, WS_ACCESS_STORE, "smsp__inst_executed_op_shared_st.sum", Q_INSTRUCTIONS },
  { WS_SPACE_SHARED, WS_ACCESS_ATOMIC, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum", Q_WAVEFRONTS },
  { WS_SPACE_SHARED, WS_ACCESS_ATOMIC, "smsp__inst_executed_op_shared_atom.sum", Q_INSTRUCTIONS },
  { WS_SPACE_LOCAL, WS_ACCESS_LOAD, "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum", Q_SECTORS },
  { WS_SPACE_LOCAL, WS_ACCESS_LOAD, "l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum", Q_REQUESTS },
  { WS_SPACE_LOCAL, WS_ACCESS_LOAD, "smsp__inst_executed_op_local_ld.sum", Q_INSTRUCTIONS },
  { WS_SPACE_LOCAL, WS_ACCESS_STORE, "l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum", Q_SECTORS },
  { WS_SPACE_LOCAL, WS_ACCESS_STORE, "l1tex__t_requests_pipe_lsu_mem_local_op_st.sum", Q_REQUESTS },
  { WS_SPACE_LOCAL, WS_ACCESS_STORE, "smsp__inst_executed_op_local_st.sum", Q_INSTRUCTIONS },
  /* less the kernel's own LDCs, see constant_requests () */
  { WS_SPACE_CONSTANT, WS_ACCESS_LOAD, "idc__requests.sum", Q_REQUESTS },
};

static double
quantity_of (const WsStats *s,
             Quantity       q)
{
  switch (q)
    {
    case Q_SECTORS: return (double) s->sectors;
    case Q_REQUESTS: return (double) s->requests;
    case Q_INSTRUCTIONS: return (double) s->instructions;
    case Q_WAVEFRONTS: return (double) s->wavefronts;
    case Q_CONFLICTS: return (double) (s->wavefronts - s->ideal_wavefronts);
    default: g_assert_not_reached ();
    }
}

/* The model's figure for the accesses of one space and kind: the sum over
 * them. FALSE if the pattern has no such access. */
static gboolean
model_value (const WsPattern     *pattern,
             const WsLaunchStats *stats,
             WsSpace              space,
             WsAccessKind         kind,
             Quantity             quantity,
             double              *value)
{
  gboolean any = FALSE;

  *value = 0;
  for (guint i = 0; i < stats->n_accesses; i++)
    {
      const WsAccess *a = ws_pattern_get_access (pattern, i);
      if (a->space != space || a->kind != kind)
        continue;
      any = TRUE;
      *value += quantity_of (&stats->accesses[i], quantity);
    }
  return any;
}

static guint
count_accesses (const WsPattern *pattern,
                WsSpace          space,
                WsAccessKind     kind,
                guint            elem_size)
{
  guint n = 0;

  for (guint i = 0; i < ws_pattern_get_n_accesses (pattern); i++)
    {
      const WsAccess *a = ws_pattern_get_access (pattern, i);
      n += a->space == space && a->kind == kind && (elem_size == 0 || a->elem_size == elem_size);
    }
  return n;
}

static gboolean
pattern_has (const WsPattern *pattern,
             WsSpace          space)
{
  for (guint i = 0; i < ws_pattern_get_n_accesses (pattern); i++)
    if (ws_pattern_get_access (pattern, i)->space == space)
      return TRUE;
  return FALSE;
}

static gboolean
differs (double model,
         double hardware)
{
  return fabs (model - hardware) > TOLERANCE * MAX (fabs (model), fabs (hardware));
}

/* ------------------------------------------------------------------ */
/* Why hardware differs, where it does for a known reason             */
/* ------------------------------------------------------------------ */

typedef struct
{
  const TruthCase *c;
  const TruthRow *row;
  const MetricRule *rule;
  const WsLaunchStats *stats;
} Mismatch;

/* With many warps using shared memory at once, the H100 reports wavefronts
 * beyond what the addresses need, a fraction of one per instruction that
 * changes from run to run; one warp alone gets the model's count. */
static char *
explain_shared_contention (const Mismatch *x)
{
  double instructions, excess;

  if (x->rule->space != WS_SPACE_SHARED ||
      (x->rule->quantity != Q_WAVEFRONTS && x->rule->quantity != Q_CONFLICTS) ||
      x->row->hardware < x->row->model || x->stats->warps < 2 ||
      !model_value (x->c->pattern, x->stats, x->rule->space, x->rule->kind, Q_INSTRUCTIONS, &instructions) ||
      instructions == 0)
    return NULL;
  /* a whole wavefront more per instruction would be a rule, not contention */
  excess = (x->row->hardware - x->row->model) / instructions;
  if (excess >= 0.98)
    return NULL;
  return g_strdup_printf ("%.3f wavefronts per instruction beyond what the addresses need, all counted as bank "
                          "conflicts: with many warps using the L1/shared data banks at once, the H100 reports a "
                          "fraction of an extra wavefront that varies from run to run; a single warp gets the "
                          "model's count (tests/data/sm90-probe.txt, and the “1 warp” cases here)", excess);
}

/* A short guarded access is predicated rather than branched around: every
 * warp issues it, those without an active lane moving nothing. */
static char *
explain_predication (const Mismatch *x)
{
  double issued = (double) count_accesses (x->c->pattern, x->rule->space, x->rule->kind, 0) * x->stats->warps;

  if (x->rule->quantity != Q_INSTRUCTIONS || ws_pattern_get_guard (x->c->pattern) == NULL ||
      x->row->hardware <= x->row->model || differs (x->row->hardware, issued))
    return NULL;
  return g_strdup_printf ("the compiler predicated the guarded access instead of branching around it: all %"
                          G_GUINT64_FORMAT " warps issue it, those whose lanes all fail the guard with no lane "
                          "active and nothing moved; the model counts instructions with an active lane",
                          x->stats->warps);
}

static char *
explain (const Mismatch *x)
{
  char *why;

  if (x->rule == NULL)
    return NULL;
  if ((why = explain_shared_contention (x)) ||
      (why = explain_predication (x)))
    return why;
  return NULL;
}

/* ------------------------------------------------------------------ */
/* Running a case                                                     */
/* ------------------------------------------------------------------ */

static TruthRow *
row_new (const TruthCase *c,
         const char      *metric,
         double           model,
         double           hardware)
{
  TruthRow *r = g_new0 (TruthRow, 1);

  r->pattern = g_strdup (c->name);
  r->metric = g_strdup (metric);
  r->model = model;
  r->hardware = hardware;
  r->mismatch = differs (model, hardware);
  return r;
}

static void
explain_row (TruthRow            *r,
             const TruthCase     *c,
             const MetricRule    *rule,
             const WsLaunchStats *stats)
{
  Mismatch x = { c, r, rule, stats };
  g_autofree char *why = NULL;
  char *note;

  if (!r->mismatch || (why = explain (&x)) == NULL)
    return;
  note = r->note ? g_strconcat (why, " (", r->note, ")", NULL) : g_steal_pointer (&why);
  g_free (r->note);
  r->note = note;
  r->explained = TRUE;
}


static double
counter (const WsMeasurement *m,
         const char          *name)
{
  double v = 0;

  ws_measurement_get_counter (m, name, &v);
  return v;
}

/* The LDC instructions the pattern's constant loads become. */
static double
constant_ldcs (const WsPattern     *pattern,
               const WsLaunchStats *stats)
{
  double n = 0;

  for (guint i = 0; i < ws_pattern_get_n_accesses (pattern); i++)
    {
      const WsAccess *a = ws_pattern_get_access (pattern, i);

      if (a->space == WS_SPACE_CONSTANT)
        n += (double) stats->accesses[i].instructions * ws_access_machine_instructions (a->space, a->kind, a->elem_size);
    }
  return n;
}

/* idc__requests counts every LDC of the kernel, and the kernel reads some of
 * its parameters (and its stack pointer) with LDC too, one warp-uniform
 * address each. Take them off: the LDCs beyond one per constant access. */
static double
constant_requests (const WsMeasurement *m,
                   double               instructions,
                   char               **note)
{
  double idc = counter (m, "idc__requests.sum");
  double ldc = counter (m, "smsp__inst_executed_op_ldc.sum");
  double others = MAX (0, ldc - instructions);

  *note = g_strdup_printf ("hardware: %.0f requests minus %.0f of the kernel's other LDC instructions (%.0f "
                           "executed, the model's access %.0f of them)", idc, others, ldc, instructions);
  return idc - others;
}

static TruthRow *
rule_row (const TruthCase     *c,
          const MetricRule    *rule,
          const WsLaunchStats *stats,
          const WsMeasurement *m)
{
  double model, instructions, hardware;
  g_autofree char *note = NULL;
  TruthRow *r;

  if (!model_value (c->pattern, stats, rule->space, rule->kind, rule->quantity, &model))
    return NULL;
  hardware = counter (m, rule->metric);
  if (rule->space == WS_SPACE_CONSTANT)
    {
      /* the LDCs the accesses became (the model counts a 16-byte load as
       * the four the compiler makes of it) */
      instructions = constant_ldcs (c->pattern, stats);
      hardware = constant_requests (m, instructions, &note);
    }
  r = row_new (c, rule->metric, model, hardware);
  r->note = g_steal_pointer (&note);
  explain_row (r, c, rule, stats);
  return r;
}

static void
add_rows (GPtrArray           *rows,
          const TruthCase     *c,
          const WsLaunchStats *stats,
          const WsMeasurement *m)
{
  for (guint k = 0; k < G_N_ELEMENTS (rules); k++)
    {
      TruthRow *r = rule_row (c, &rules[k], stats, m);

      if (r)
        g_ptr_array_add (rows, r);
    }
  /* a private array indexed with constants lives in registers: no local
   * memory instruction at all */
  if (pattern_has (c->pattern, WS_SPACE_REGISTER) && !pattern_has (c->pattern, WS_SPACE_LOCAL))
    {
      g_ptr_array_add (rows, row_new (c, "smsp__inst_executed_op_local_ld.sum", 0,
                                      counter (m, "smsp__inst_executed_op_local_ld.sum")));
      g_ptr_array_add (rows, row_new (c, "smsp__inst_executed_op_local_st.sum", 0,
                                      counter (m, "smsp__inst_executed_op_local_st.sum")));
    }
}

static void
add_raw (JsonBuilder         *raw,
         const char          *name,
         const WsMeasurement *m)
{
  json_builder_set_member_name (raw, name);
  json_builder_begin_object (raw);
  for (guint i = 0; i < m->counters->len; i++)
    {
      const WsCounter *k = &g_array_index (m->counters, WsCounter, i);
      json_builder_set_member_name (raw, k->name);
      json_builder_add_double_value (raw, k->value);
    }
  json_builder_end_object (raw);
}

/* One warm launch (a fault shows here), then the profiled ones. */
static gboolean
run_case (const TruthCase *c,
          GPtrArray       *rows,
          JsonBuilder     *raw,
          GError         **error)
{
  g_autoptr (WsJitLaunch) jl = ws_jit_prepare (c->pattern, NULL, error);
  g_autoptr (WsMeasurement) m = ws_measurement_new ("expr");

  if (jl == NULL || !ws_jit_launch_sync (jl, error) ||
      !ws_counters_collect_after (ws_gpu_flush_before, ws_jit_launch, jl, NULL, m, error))
    return FALSE;
  add_rows (rows, c, ws_jit_launch_get_stats (jl), m);
  if (raw)
    add_raw (raw, c->name, m);
  return TRUE;
}


/* ------------------------------------------------------------------ */
/* Output                                                             */
/* ------------------------------------------------------------------ */

static gboolean
row_unexplained (const TruthRow *r)
{
  return r->mismatch && !r->explained;
}

static char *
device_slug (const char *name)
{
  g_autofree char *lower = g_ascii_strdown (name, -1);
  GString *s = g_string_new (NULL);

  for (const char *p = lower; *p; p++)
    {
      if (g_ascii_isalnum (*p))
        g_string_append_c (s, *p);
      else if (s->len > 0 && s->str[s->len - 1] != '-')
        g_string_append_c (s, '-');
    }
  while (s->len > 0 && s->str[s->len - 1] == '-')
    g_string_truncate (s, s->len - 1);
  return g_string_free (s, FALSE);
}

static JsonNode *
rows_to_json (GPtrArray  *rows,
              const char *device,
              JsonNode   *raw)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  guint mismatches = 0, unexplained = 0;
  g_autoptr (GDateTime) now = g_date_time_new_now_utc ();
  g_autofree char *stamp = g_date_time_format_iso8601 (now);

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "device");
  json_builder_add_string_value (b, device);
  json_builder_set_member_name (b, "warpscope");
  json_builder_add_string_value (b, WS_VERSION);
  json_builder_set_member_name (b, "date");
  json_builder_add_string_value (b, stamp);
  json_builder_set_member_name (b, "tolerance");
  json_builder_add_double_value (b, TOLERANCE);
  json_builder_set_member_name (b, "rows");
  json_builder_begin_array (b);
  for (guint i = 0; i < rows->len; i++)
    {
      const TruthRow *r = g_ptr_array_index (rows, i);

      mismatches += r->mismatch;
      unexplained += row_unexplained (r);
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "pattern");
      json_builder_add_string_value (b, r->pattern);
      json_builder_set_member_name (b, "metric");
      json_builder_add_string_value (b, r->metric);
      json_builder_set_member_name (b, "model");
      json_builder_add_double_value (b, r->model);
      json_builder_set_member_name (b, "hardware");
      json_builder_add_double_value (b, r->hardware);
      json_builder_set_member_name (b, "note");
      if (r->note)
        json_builder_add_string_value (b, r->note);
      else
        json_builder_add_null_value (b);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_set_member_name (b, "summary");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "rows");
  json_builder_add_int_value (b, rows->len);
  json_builder_set_member_name (b, "mismatches");
  json_builder_add_int_value (b, mismatches);
  json_builder_set_member_name (b, "unexplained");
  json_builder_add_int_value (b, unexplained);
  json_builder_end_object (b);
  if (raw)
    {
      json_builder_set_member_name (b, "counters");
      json_builder_add_value (b, json_node_ref (raw));
    }
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

static char *
rows_to_text (GPtrArray  *rows,
              const char *device)
{
  GString *s = g_string_new (NULL);
  guint mismatches = 0, unexplained = 0;

  g_string_append_printf (s, "Model against hardware counters on %s\n\n", device);
  g_string_append_printf (s, "%-44s %-58s %12s %12s  %s\n", "pattern", "metric", "model", "hardware", "");
  for (guint i = 0; i < rows->len; i++)
    {
      const TruthRow *r = g_ptr_array_index (rows, i);
      const char *mark = !r->mismatch ? "ok" : row_unexplained (r) ? "MISMATCH" : "explained";

      mismatches += r->mismatch;
      unexplained += row_unexplained (r);
      g_string_append_printf (s, "%-44s %-58s %12.0f %12.0f  %s\n", r->pattern, r->metric, r->model,
                              r->hardware, mark);
      if (r->mismatch && r->note)
        g_string_append_printf (s, "    %s\n", r->note);
    }
  g_string_append_printf (s, "\n%u rows, %u differ by more than %.0f %%, %u of them unexplained\n",
                          rows->len, mismatches, TOLERANCE * 100, unexplained);
  return g_string_free (s, FALSE);
}

static gboolean
write_output (const char *path,
              const char *text,
              GError    **error)
{
  if (path == NULL || g_strcmp0 (path, "-") == 0)
    {
      fputs (text, stdout);
      return TRUE;
    }
  return g_file_set_contents (path, text, -1, error);
}


/* ------------------------------------------------------------------ */
/* The benchmark: this process against Nsight Compute                 */
/* ------------------------------------------------------------------ */

static WsPattern *
find_case (const char *name)
{
  g_autoptr (GPtrArray) cases = truth_cases (NULL);

  for (guint i = 0; i < cases->len; i++)
    {
      TruthCase *c = g_ptr_array_index (cases, i);
      if (g_strcmp0 (c->name, name) == 0)
        return ws_pattern_ref (c->pattern);
    }
  return NULL;
}

static char *
metric_list (const WsPattern *pattern,
             gboolean         all)
{
  g_autoptr (GPtrArray) names = g_ptr_array_new ();

  if (all)
    return g_strjoinv (",", (char **) ws_counters_default_metrics ());

  for (guint i = 0; i < ws_pattern_get_n_accesses (pattern); i++)
    {
      const WsAccess *a = ws_pattern_get_access (pattern, i);
      const char *const *m = ws_counters_metrics_for (a->space, a->kind);
      for (guint k = 0; m[k]; k++)
        if (!g_ptr_array_find_with_equal_func (names, m[k], g_str_equal, NULL))
          g_ptr_array_add (names, (gpointer) m[k]);
    }
  g_ptr_array_add (names, NULL);
  return g_strjoinv (",", (char **) names->pdata);
}

/* Launches the pattern once, for ncu (and, with counters, collects them the
 * way a user's click does, in a fresh process). */
static int
run_once (const char *name,
          gboolean    with_counters,
          gboolean    all)
{
  g_autoptr (WsPattern) pattern = find_case (name);
  g_autoptr (WsJitLaunch) jl = NULL;
  g_autoptr (WsMeasurement) m = ws_measurement_new ("expr");
  g_autoptr (GError) error = NULL;
  g_autofree char *metrics = NULL;
  g_auto (GStrv) list = NULL;

  if (pattern == NULL)
    return ws_cli_fail ("truth", WS_CLI_USAGE, "--run-once: no truth case is called “%s”", name);
  metrics = metric_list (pattern, all);
  list = g_strsplit (metrics, ",", -1);
  jl = ws_jit_prepare (pattern, NULL, &error);
  if (jl == NULL || !ws_jit_launch_sync (jl, &error) ||
      (with_counters && !ws_counters_collect (ws_jit_launch, jl, (const char *const *) list, m, &error)))
    return ws_cli_fail ("truth", WS_CLI_NO_GPU, "%s", error->message);
  for (guint i = 0; i < m->counters->len; i++)
    {
      const WsCounter *k = &g_array_index (m->counters, WsCounter, i);
      printf ("%s %.0f\n", k->name, k->value);
    }
  return WS_CLI_OK;
}

static double
spawn_seconds (char      **argv,
               char      **out,
               GError    **error)
{
  gint64 t0 = g_get_monotonic_time ();
  g_autofree char *text = NULL;
  g_autofree char *err = NULL;
  int status = 0;

  if (!g_spawn_sync (NULL, argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &text, &err, &status, error))
    return -1;
  if (!g_spawn_check_wait_status (status, error))
    {
      g_prefix_error (error, "%s%s", g_strstrip (err), *err ? ": " : "");
      return -1;
    }
  if (out)
    *out = g_steal_pointer (&text);
  return (g_get_monotonic_time () - t0) / 1e6;
}

static double
collect_seconds (WsJitLaunch        *jl,
                 const char *const  *metrics,
                 WsMeasurement      *m,
                 GError            **error)
{
  gint64 t0 = g_get_monotonic_time ();

  if (!ws_counters_collect (ws_jit_launch, jl, metrics, m, error))
    return -1;
  return (g_get_monotonic_time () - t0) / 1e6;
}

typedef struct
{
  double prepare, first, later;    /* in this process */
  double process, plain, ncu;      /* new processes */
} BenchTimes;

/* Prepares the pattern, then collects its counters twice, timing each. */
static gboolean
bench_in_process (WsPattern         *pattern,
                  const char *const *metrics,
                  WsMeasurement     *into,
                  BenchTimes        *t,
                  GError           **error)
{
  g_autoptr (WsJitLaunch) jl = NULL;
  g_autoptr (WsMeasurement) first = ws_measurement_new ("expr");
  gint64 t0 = g_get_monotonic_time ();

  jl = ws_jit_prepare (pattern, NULL, error);
  if (jl == NULL || !ws_jit_launch_sync (jl, error))
    return FALSE;
  t->prepare = (g_get_monotonic_time () - t0) / 1e6;
  t->first = collect_seconds (jl, metrics, first, error);
  t->later = t->first < 0 ? -1 : collect_seconds (jl, metrics, into, error);
  return t->later >= 0;
}

/* The same from the command line: warpscope-cli with and without counters,
 * and the kernel under ncu with the same metrics. */
static gboolean
bench_processes (const char  *name,
                 const char  *metrics,
                 const char  *ncu,
                 const char  *self,
                 gboolean     all,
                 BenchTimes  *t,
                 char       **ncu_out,
                 GError     **error)
{
  char *process[] = { (char *) self, "truth", "--run-once", (char *) name, "--with-counters",
                      all ? "--all-metrics" : NULL, NULL };
  char *plain[] = { (char *) self, "truth", "--run-once", (char *) name, NULL };
  char *under_ncu[] = { (char *) ncu, "--metrics", (char *) metrics, "-k", WS_CODEGEN_KERNEL_NAME, "-c", "1",
                        "--csv", "--print-units", "base", (char *) self, "truth", "--run-once", (char *) name, NULL };

  t->process = spawn_seconds (process, NULL, error);
  t->plain = t->process < 0 ? -1 : spawn_seconds (plain, NULL, error);
  t->ncu = t->plain < 0 ? -1 : spawn_seconds (under_ncu, ncu_out, error);
  return t->ncu >= 0;
}

static void
print_bench (const char          *name,
             const char          *metrics,
             const WsMeasurement *m,
             const char          *ncu_out,
             const BenchTimes    *t)
{
  printf ("Counters of %s: %s\n\n", name, metrics);
  for (guint i = 0; i < m->counters->len; i++)
    {
      const WsCounter *k = &g_array_index (m->counters, WsCounter, i);
      printf ("  %-60s %14.0f\n", k->name, k->value);
    }
  printf ("\nNsight Compute's output:\n%s\n", ncu_out ? ncu_out : "");
  printf ("%-72s %10s\n", "wall time", "seconds");
  printf ("%-72s %10.3f\n", "warpscope, in process: prepare (model, NVRTC, buffers, first launch)", t->prepare);
  printf ("%-72s %10.3f\n", "warpscope, in process: first collection (starts CUPTI)", t->first);
  printf ("%-72s %10.3f\n", "warpscope, in process: a later collection", t->later);
  printf ("%-72s %10.3f\n", "warpscope-cli truth --run-once --with-counters (a new process)", t->process);
  printf ("%-72s %10.3f\n", "warpscope-cli truth --run-once (a new process, no counters)", t->plain);
  printf ("%-72s %10.3f\n", "ncu --metrics … warpscope-cli truth --run-once (the same kernel)", t->ncu);
  printf ("\nin-process collection: %.1f %% of ncu's time (first), %.2f %% (later); "
          "a new process with counters: %.1f %%\n",
          100 * t->first / t->ncu, 100 * t->later / t->ncu, 100 * t->process / t->ncu);
}

static int
bench (const char *name,
       const char *ncu,
       const char *self,
       gboolean    all)
{
  g_autoptr (WsPattern) pattern = find_case (name);
  g_autoptr (WsMeasurement) m = ws_measurement_new ("expr");
  g_autoptr (GError) error = NULL;
  g_autofree char *metrics = NULL;
  g_autofree char *ncu_out = NULL;
  g_auto (GStrv) list = NULL;
  BenchTimes t = { 0 };

  if (pattern == NULL)
    return ws_cli_fail ("truth", WS_CLI_USAGE, "--bench: no truth case is called “%s” (see --list)", name);
  metrics = metric_list (pattern, all);
  list = g_strsplit (metrics, ",", -1);
  if (!bench_in_process (pattern, (const char *const *) list, m, &t, &error))
    return ws_cli_fail ("truth", WS_CLI_NO_GPU, "%s", error->message);
  if (!bench_processes (name, metrics, ncu, self, all, &t, &ncu_out, &error))
    return ws_cli_fail ("truth", WS_CLI_FAILED, "running %s: %s", ncu, error->message);
  print_bench (name, metrics, m, ncu_out, &t);
  return WS_CLI_OK;
}

static char *
device_name (GError **error)
{
  g_autoptr (WsDeviceInfo) info = ws_gpu_probe (NULL);

  if (info)
    return g_strdup (info->name);
  return ws_jit_device_name (error);
}

/* Writes each case's kernel source and its SASS for sm_90 to a folder (no
 * GPU needed), to read what the compiler made of it. */
static int
dump_cases (const char *only,
            const char *dir)
{
  g_autoptr (GPtrArray) cases = truth_cases (only);

  if (g_mkdir_with_parents (dir, 0755) != 0)
    return ws_cli_fail ("truth", WS_CLI_FAILED, "--dump %s: cannot create the folder", dir);
  for (guint i = 0; i < cases->len; i++)
    {
      TruthCase *c = g_ptr_array_index (cases, i);
      g_autoptr (GError) error = NULL;
      g_autoptr (WsKernelSource) ks = ws_codegen_generate (c->pattern, NULL, &error);
      g_autoptr (GBytes) cubin = NULL;
      g_autofree char *slug = g_strdup (c->name);
      g_autofree char *base = NULL;
      g_autofree char *cu = NULL;
      g_autofree char *bin = NULL;

      g_strcanon (slug, G_CSET_A_2_Z G_CSET_a_2_z G_CSET_DIGITS "-", '_');
      base = g_build_filename (dir, slug, NULL);
      cu = g_strconcat (base, ".cu", NULL);
      bin = g_strconcat (base, ".cubin", NULL);
      if (ks == NULL ||
          !g_file_set_contents (cu, ks->source, -1, &error) ||
          (cubin = ws_jit_compile (ks, "sm_90", NULL, &error)) == NULL ||
          !g_file_set_contents (bin, g_bytes_get_data (cubin, NULL), g_bytes_get_size (cubin), &error))
        return ws_cli_fail ("truth", WS_CLI_FAILED, "%s: %s", c->name, error->message);
    }
  return WS_CLI_OK;
}

#endif

/* ------------------------------------------------------------------ */
/* The command                                                        */
/* ------------------------------------------------------------------ */

typedef struct
{
  gboolean json;
  gboolean list;
  gboolean raw;
  gboolean with_counters;
  gboolean all_metrics;
  char *output;
  char *only;
  char *bench;
  char *run_once;
  char *ncu;
  char *dump;
} TruthOptions;

static void
truth_options_clear (TruthOptions *o)
{
  g_free (o->output);
  g_free (o->only);
  g_free (o->bench);
  g_free (o->run_once);
  g_free (o->ncu);
  g_free (o->dump);
}

static int
list_cases (void)
{
  g_autoptr (GPtrArray) cases = truth_cases (NULL);

  for (guint i = 0; i < cases->len; i++)
    {
      TruthCase *c = g_ptr_array_index (cases, i);
      g_autofree char *desc = ws_pattern_to_string (c->pattern);
      printf ("%-44s %s\n", c->name, desc);
    }
  return WS_CLI_OK;
}

#if WS_HAVE_CUDA

static int
run_all (TruthOptions *o)
{
  g_autoptr (GPtrArray) cases = truth_cases (o->only);
  g_autoptr (GPtrArray) rows = g_ptr_array_new_with_free_func (truth_row_free);
  g_autoptr (JsonBuilder) raw = json_builder_new ();
  g_autoptr (JsonNode) raw_node = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *device = NULL;
  g_autofree char *text = NULL;
  guint unexplained = 0;

  if (cases->len == 0)
    return ws_cli_fail ("truth", WS_CLI_USAGE, "--only %s: no case matches (see --list)", o->only);
  device = device_name (&error);
  if (device == NULL || !ws_counters_available (&error))
    return ws_cli_fail ("truth", WS_CLI_NO_GPU, "%s", error->message);
  json_builder_begin_object (raw);
  /* one collection after another: keep the profiler between them */
  ws_counters_hold (TRUE);
  for (guint i = 0; i < cases->len; i++)
    {
      TruthCase *c = g_ptr_array_index (cases, i);

      if (!run_case (c, rows, o->raw ? raw : NULL, &error))
        {
          ws_counters_hold (FALSE);
          return ws_cli_fail ("truth", WS_CLI_FAILED, "%s: %s", c->name, error->message);
        }
      if (!o->json && ws_cli_stdout_is_terminal () && o->output == NULL)
        fprintf (stderr, "\r%u/%u %-60s", i + 1, cases->len, c->name);
    }
  ws_counters_hold (FALSE);
  json_builder_end_object (raw);
  raw_node = json_builder_get_root (raw);
  if (!o->json && ws_cli_stdout_is_terminal () && o->output == NULL)
    fprintf (stderr, "\r%80s\r", "");

  if (o->json)
    {
      g_autoptr (JsonNode) root = rows_to_json (rows, device, o->raw ? raw_node : NULL);
      g_autoptr (JsonGenerator) gen = json_generator_new ();
      g_autofree char *body = NULL;

      json_generator_set_pretty (gen, TRUE);
      json_generator_set_root (gen, root);
      body = json_generator_to_data (gen, NULL);
      text = g_strconcat (body, "\n", NULL);
    }
  else
    text = rows_to_text (rows, device);
  /* -o FOLDER/ names the file after the device, as data/truth/ does */
  if (o->output && (g_str_has_suffix (o->output, "/") || g_file_test (o->output, G_FILE_TEST_IS_DIR)))
    {
      g_autofree char *slug = device_slug (device);
      g_autofree char *file = g_strconcat (slug, o->json ? ".json" : ".txt", NULL);
      g_autofree char *path = g_build_filename (o->output, file, NULL);

      g_free (o->output);
      o->output = g_steal_pointer (&path);
    }
  if (!write_output (o->output, text, &error))
    return ws_cli_fail ("truth", WS_CLI_FAILED, "-o %s: %s", o->output, error->message);
  for (guint i = 0; i < rows->len; i++)
    unexplained += row_unexplained (g_ptr_array_index (rows, i));
  if (unexplained > 0)
    return ws_cli_fail ("truth", WS_CLI_FAILED, "%u rows differ from the model by more than %.0f %% "
                        "without an explanation", unexplained, TOLERANCE * 100);
  return WS_CLI_OK;
}

static char *
self_path (const char *argv0)
{
  g_autofree char *link = g_file_read_link ("/proc/self/exe", NULL);

  if (link)
    return g_steal_pointer (&link);
  return g_strdup (argv0);
}

static char *
find_ncu (const char *requested)
{
  char *path;

  if (requested)
    return g_strdup (requested);
  path = g_find_program_in_path ("ncu");
  if (path == NULL && g_file_test ("/usr/local/cuda/bin/ncu", G_FILE_TEST_IS_EXECUTABLE))
    path = g_strdup ("/usr/local/cuda/bin/ncu");
  return path;
}

#endif

int
ws_cli_truth (int    argc,
              char **argv)
{
  TruthOptions o = { 0 };
  GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &o.json, "Write the table as JSON", NULL },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &o.output, "Write to FILE instead of standard output", "FILE" },
    { "only", 0, 0, G_OPTION_ARG_STRING, &o.only, "Only the cases whose name contains TEXT", "TEXT" },
    { "list", 0, 0, G_OPTION_ARG_NONE, &o.list, "List the cases and stop", NULL },
    { "counters", 0, 0, G_OPTION_ARG_NONE, &o.raw, "Also write every counter of every case (with --json)", NULL },
    { "bench", 0, 0, G_OPTION_ARG_STRING, &o.bench, "Time the collection of CASE's counters against ncu", "CASE" },
    { "all-metrics", 0, 0, G_OPTION_ARG_NONE, &o.all_metrics, "With --bench, every metric Warpscope shows", NULL },
    { "ncu", 0, 0, G_OPTION_ARG_FILENAME, &o.ncu, "The ncu to compare with (default: from PATH)", "PATH" },
    { "dump", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_FILENAME, &o.dump, "Write each case's source and SASS to DIR", "DIR" },
    { "run-once", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_STRING, &o.run_once, "Launch CASE once", "CASE" },
    { "with-counters", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_NONE, &o.with_counters, "With --run-once, collect", NULL },
    { NULL }
  };
  int status;

  if (!ws_cli_parse ("truth", NULL, "Compare the model with the GPU's hardware counters",
                     truth_description, entries, &argc, &argv))
    {
      truth_options_clear (&o);
      return WS_CLI_USAGE;
    }
  if (o.list)
    status = list_cases ();
  else
    {
#if WS_HAVE_CUDA
      if (o.dump)
        status = dump_cases (o.only, o.dump);
      else if (o.run_once)
        status = run_once (o.run_once, o.with_counters, o.all_metrics);
      else if (o.bench)
        {
          g_autofree char *ncu = find_ncu (o.ncu);
          g_autofree char *self = self_path (argv[0]);

          if (ncu == NULL)
            status = ws_cli_fail ("truth", WS_CLI_USAGE, "--bench: no ncu on the PATH; name one with --ncu");
          else
            status = bench (o.bench, ncu, self, o.all_metrics);
        }
      else
        status = run_all (&o);
#else
      status = ws_cli_fail ("truth", WS_CLI_NO_GPU, "this build of Warpscope has no CUDA backend: "
                            "the truth table needs a GPU and its counters");
#endif
    }
  truth_options_clear (&o);
  return status;
}
