/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The model against the hardware counters: the cases (every preset, and
 * expressions chosen to test each rule of the model), the metric rules that
 * say which model figure each counter should equal, and the explanations of
 * the differences that have a known cause. Running the cases is the
 * session's (through the GPU worker); warpscope-cli truth prints what this
 * returns.
 *
 * To compare a new counter, add its quantity to Quantity and quantity_of ()
 * if the model has a new figure for it, and a line to rules[]: the space and
 * access it counts, its Nsight Compute name, and the quantity. */
#include "ws-config.h"
#include "ws-truth.h"
#include "ws-presets.h"

#include <math.h>
#include <string.h>

void
ws_truth_case_free (WsTruthCase *c)
{
  if (c == NULL)
    return;
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
  WsTruthCase *c = g_new0 (WsTruthCase, 1);

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

GPtrArray *
ws_truth_cases (const char *only)
{
  g_autoptr (GPtrArray) all = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_truth_case_free);
  GPtrArray *cases = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_truth_case_free);
  guint n;
  const WsPreset *presets = ws_presets_get_all (&n);

  for (guint i = 0; i < n; i++)
    add_case (all, presets[i].id, ws_preset_build (&presets[i]));
  add_global_cases (all);
  add_shared_cases (all);
  add_private_cases (all);
  for (guint i = 0; i < all->len; i++)
    {
      WsTruthCase *c = g_ptr_array_index (all, i);
      if (only == NULL || strstr (c->name, only) != NULL)
        {
          g_ptr_array_add (cases, c);
          all->pdata[i] = NULL;
        }
    }
  return cases;
}

/* Everything below needs the GPU: the counters, and the model's figures
 * beside them. */
WsPattern *
ws_truth_case_find (const char *name)
{
  g_autoptr (GPtrArray) cases = ws_truth_cases (NULL);

  g_return_val_if_fail (name != NULL, NULL);

  for (guint i = 0; i < cases->len; i++)
    {
      WsTruthCase *c = g_ptr_array_index (cases, i);
      if (g_strcmp0 (c->name, name) == 0)
        return ws_pattern_ref (c->pattern);
    }
  return NULL;
}

void
ws_truth_row_free (WsTruthRow *r)
{
  if (r == NULL)
    return;
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
differs_by (double model,
            double hardware,
            double tolerance)
{
  return fabs (model - hardware) > tolerance * MAX (fabs (model), fabs (hardware));
}

static gboolean
differs (double model,
         double hardware)
{
  return differs_by (model, hardware, WS_TRUTH_TOLERANCE);
}

/* ------------------------------------------------------------------ */
/* Why hardware differs, where it does for a known reason             */
/* ------------------------------------------------------------------ */

typedef struct
{
  const WsTruthCase *c;
  const WsTruthRow *row;
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

static WsTruthRow *
row_new (const WsTruthCase *c,
         const char      *metric,
         double           model,
         double           hardware)
{
  WsTruthRow *r = g_new0 (WsTruthRow, 1);

  r->pattern = g_strdup (c->name);
  r->metric = g_strdup (metric);
  r->model = model;
  r->hardware = hardware;
  r->tolerance = WS_TRUTH_TOLERANCE;
  r->mismatch = differs (model, hardware);
  return r;
}

static void
explain_row (WsTruthRow            *r,
             const WsTruthCase     *c,
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

static WsTruthRow *
rule_row (const WsTruthCase     *c,
          const MetricRule    *rule,
          const WsLaunchStats *stats,
          const WsMeasurement *m)
{
  double model, instructions, hardware;
  g_autofree char *note = NULL;
  WsTruthRow *r;

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

void
ws_truth_compare (const WsTruthCase   *c,
                  const WsLaunchStats *stats,
                  const WsMeasurement *m,
                  GPtrArray           *rows)
{
  for (guint k = 0; k < G_N_ELEMENTS (rules); k++)
    {
      WsTruthRow *r = rule_row (c, &rules[k], stats, m);

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

/* ------------------------------------------------------------------ */
/* Below L1                                                           */
/* ------------------------------------------------------------------ */

static WsTruthRow *
hier_row (const WsTruthCase *c,
          const char        *metric,
          double             model,
          double             hardware,
          double             tolerance)
{
  WsTruthRow *r = row_new (c, metric, model, hardware);

  r->tolerance = tolerance;
  r->mismatch = differs_by (model, hardware, tolerance);
  return r;
}

/* Presets whose memory below L1 depends on what the model does not follow:
 * said where a row misses, for the one direction the reason explains. */
static const struct
{
  const char *prefix;           /* of the preset's id */
  const char *metric;           /* the row's */
  gboolean fewer;               /* the hardware counts fewer than the model */
  const char *why;
} below_gaps[] = {
  { "l2/", "dram__bytes_read.sum", TRUE,
    "the access-policy window keeps the hot buffer in the part of L2 set aside for persisting lines; the model's "
    "L2 has no persisting lines, and the stream and the output evict the hot buffer before its next use" },
  { "transfer/overlap", "dram__bytes_read.sum", TRUE,
    "each stream's kernel reads the chunk its copy wrote to the device just before, much of it still in L2; the "
    "model analyses the kernel with L2 cold, so every byte it reads comes from DRAM" },
  { "unified/managed", "dram__bytes_write.sum", TRUE,
    "the counted launch wrote less than the kernel's own output: the managed input's move to the device is not "
    "among its DRAM writes, which the model counts, and the last of the output stays dirty in L2" },
  { "unified/prefetch", "dram__bytes_write.sum", TRUE,
    "the counted launch wrote less than the kernel's own output: the prefetch's copy to the device is not among "
    "its DRAM writes, which the model counts, and the last of the output stays dirty in L2" },
};

/* Why a DRAM or L2 row differs, where the hardware has a reason the model
 * does not follow. */
static char *
explain_below_l1 (const WsTruthCase        *c,
                  const WsTruthRow         *r,
                  const WsLaunchPrediction *prediction,
                  const WsDeviceProfile    *profile,
                  double                    bytes_per_unit)
{
  const WsHierStats *t = &prediction->total;
  double apart = fabs (r->model - r->hardware) * bytes_per_unit;
  gboolean dram = g_str_has_prefix (r->metric, "dram__");
  gboolean l2_read = g_str_equal (r->metric, "lts__t_sectors_srcunit_tex_op_read.sum");
  gboolean dram_read = g_str_equal (r->metric, "dram__bytes_read.sum");
  const WsHierarchy *local = NULL;
  double later = 0;

  /* the DRAM counters also count what the memory controller and the L2 do
   * on their own (refresh, the write-back of other kernels' lines, the
   * flush between samples): a few hundred KB that a small launch shows */
  if (apart < 1048576)
    return g_strdup_printf ("%.0f KB apart, less than 1 MB: at this size the counters' own background traffic "
                            "(the L2 flush before the launch, write-back of lines from before it) is of the same "
                            "order", apart / 1024);
  /* a kernel's last writes stay dirty in L2 when it ends */
  if (g_str_equal (r->metric, "dram__bytes_write.sum") && r->hardware < r->model && profile &&
      apart <= (double) profile->l2_dirty_bytes)
    return g_strdup_printf ("%.1f MB fewer written: the L2 keeps up to %.0f MB of dirty lines when a kernel ends "
                            "(measured: 22 to 30 MB on the H200), written to DRAM after the counters stop; the "
                            "model keeps a fixed amount", apart / 1048576, profile->l2_dirty_bytes / 1048576.0);
  /* sectors written in part: the hardware completes some from DRAM (a read
   * of the sector) and writes them back before the other writes to them
   * arrive; the model lets them wait in L2 for as long as its partial-line
   * budget allows, and under-counts when the L2 gives up on them sooner */
  if (dram && r->hardware > r->model && t->l2_partial_sectors > 0 &&
      apart <= (double) t->l2_partial_sectors * 32)
    return g_strdup_printf ("%.1f MB more than the model: of the %.0f MB of sectors this launch writes in part, the "
                            "L2 completed some from DRAM (read, then written back) before the other writes to them "
                            "came; the model keeps them waiting in L2 longer than the hardware does",
                            apart / 1048576, t->l2_partial_sectors * 32 / 1048576.0);
  /* private arrays: the model runs a warp's accesses one after another, so
   * its array stays in L1 between them; on the SM every resident warp's is
   * in use at once */
  for (guint i = 0; prediction->phases && i < prediction->phases->len; i++)
    {
      const WsHierarchy *h = g_ptr_array_index (prediction->phases, i);

      if (h->local_per_thread > 0 && (local == NULL || h->local_per_thread > local->local_per_thread))
        local = h;
    }
  if (local && r->hardware > r->model && (dram || l2_read) &&
      2 * (double) local->warps_per_sm * WS_WARP_SIZE * local->local_per_thread >= (double) local->l1_bytes)
    return g_strdup_printf ("the SM's %u resident warps hold %.0f KiB of private arrays (%" G_GUINT64_FORMAT
                            " bytes a thread), half or more of the %.0f KiB of L1 the carve-out leaves, and the "
                            "kernel's other lines pass through it too: running together, the warps evict each "
                            "other's lines to L2 and DRAM and read them back; the model runs a warp's accesses one "
                            "after another, so its array stays in L1",
                            local->warps_per_sm,
                            local->warps_per_sm * WS_WARP_SIZE * (double) local->local_per_thread / 1024,
                            local->local_per_thread, local->l1_bytes / 1024.0);
  /* private arrays live at the same addresses wave after wave (each warp
   * slot of each SM has its own): where the slots of all SMs take a little
   * more than the dirty lines the model's L2 holds, the model, which writes
   * back the oldest first, writes every wave's arrays to DRAM before the
   * next wave writes them again; the hardware's L2 keeps a share of them */
  if (local && profile && g_str_equal (r->metric, "dram__bytes_write.sum") && r->hardware < r->model)
    {
      double slots = (double) profile->sms * local->warps_per_sm * WS_WARP_SIZE * (double) local->local_per_thread;
      double written = (double) local->launch->threads * (double) local->local_per_thread;

      if (slots > (double) profile->l2_dirty_bytes && slots <= (double) profile->l2_bytes && apart <= written)
        return g_strdup_printf ("%.0f MB fewer written: the private arrays of the %u SMs' resident warps take "
                                "%.1f MB, the same addresses for every wave of blocks, a little more than the "
                                "%.0f MB of dirty lines the model lets L2 hold; the model writes the oldest back "
                                "first, so every wave's arrays go to DRAM before the next wave writes them again, "
                                "where the hardware's L2 keeps a share of them",
                                apart / 1e6, profile->sms, slots / 1e6, profile->l2_dirty_bytes / 1e6);
    }
  /* a kernel of several phases: each is analysed with L1 and L2 cold, so
   * the later phases' reads can be what the hardware found in a cache */
  for (guint i = 1; prediction->phases && i < prediction->phases->len; i++)
    {
      const WsHierarchy *h = g_ptr_array_index (prediction->phases, i);

      later += dram ? (double) h->total.dram_read_bytes : (double) h->total.l2_read_sectors * 32;
    }
  if (later > 0 && r->hardware < r->model && (dram_read || l2_read) && apart <= later)
    return g_strdup_printf ("the model analyses each of the kernel's %u phases with L1 and L2 cold: what an earlier "
                            "phase brought into %s moments before counts again as %s",
                            prediction->phases->len, dram_read ? "L2" : "the SM's L1",
                            dram_read ? "a DRAM read" : "an L2 read");
  for (guint i = 0; c && i < G_N_ELEMENTS (below_gaps); i++)
    if (g_str_has_prefix (c->name, below_gaps[i].prefix) && g_str_equal (r->metric, below_gaps[i].metric) &&
        (r->hardware < r->model) == below_gaps[i].fewer)
      return g_strdup (below_gaps[i].why);
  return NULL;
}

/* What the timing model leaves out, where a kernel's time depends on it:
 * said beside a time that misses, never to excuse a number that should hold.
 * Each names the cost the model has no term for. */
#define PAGEABLE_STAGING "a pageable copy is staged through a pinned buffer by the host's CPU, at a rate the host " \
  "sets and that varies from run to run; the profile's pcie_pageable_bytes_per_s is one run's"
static const struct
{
  const char *prefix;           /* of the preset's id */
  const char *why;
} time_gaps[] = {
  { "merge/sort-", "the sorts issue an instruction in about 80 % of their cycles (ncu's smsp__issue_active): "
                   "the barriers and the shared loads' waits between them leave gaps that the model, which counts "
                   "their instructions at the SMs' full issue rate, does not see" },
  { "occupancy/spill", "the model's L1 follows one warp at a time, so a warp's spilled values stay in it; on the SM "
                       "the resident warps' spills together overflow L1 and go on to L2 and DRAM" },
  { "private-array/distinct", "L1 costs a local load more than its lines: the model charges l1_cycles_per_request "
                              "to global loads only, as calibrate measures it (charged to local loads too, it makes "
                              "the other local presets too slow)" },
  { "alignment/struct7", "seven byte loads per element make the L1 and DRAM times close: the hardware pays for "
                         "both, the model takes the larger" },
  { "transfer/pageable", PAGEABLE_STAGING },
  { "unified/managed", "migration on page faults is the driver's work on the host, and its rate varies from run to "
                      "run; the profile's managed_fault_bytes_per_s is fitted to one recording's sweep" },
  { "unified/explicit", PAGEABLE_STAGING },
};

static const char *
time_gap (const char *preset)
{
  for (guint i = 0; preset && i < G_N_ELEMENTS (time_gaps); i++)
    if (g_str_has_prefix (preset, time_gaps[i].prefix))
      return time_gaps[i].why;
  return NULL;
}

void
ws_truth_compare_hierarchy (const WsTruthCase        *c,
                            const WsLaunchPrediction *prediction,
                            const WsDeviceProfile    *profile,
                            const WsMeasurement      *m,
                            GPtrArray                *rows)
{
  const WsHierStats *t = &prediction->total;
  struct
  {
    const char *metric;
    double model;
    double tolerance;
    double bytes;            /* per unit of the metric */
  } below[] = {
    { "lts__t_sectors_srcunit_tex_op_read.sum", (double) t->l2_read_sectors, WS_TRUTH_L2_TOLERANCE, 32 },
    { "lts__t_sectors_srcunit_tex_op_write.sum", (double) t->l2_write_sectors, WS_TRUTH_L2_TOLERANCE, 32 },
    { "dram__bytes_read.sum", (double) t->dram_read_bytes, WS_TRUTH_DRAM_TOLERANCE, 1 },
    { "dram__bytes_write.sum", (double) t->dram_write_bytes, WS_TRUTH_DRAM_TOLERANCE, 1 },
  };

  g_return_if_fail (c != NULL && prediction != NULL && m != NULL && rows != NULL);

  for (guint i = 0; i < G_N_ELEMENTS (below); i++)
    {
      double hardware;
      WsTruthRow *r;

      if (!ws_measurement_get_counter (m, below[i].metric, &hardware))
        continue;
      /* nothing either way says nothing */
      if (hardware == 0 && below[i].model == 0)
        continue;
      r = hier_row (c, below[i].metric, below[i].model, hardware, below[i].tolerance);
      if (r->mismatch && (r->note = explain_below_l1 (c, r, prediction, profile, below[i].bytes)))
        r->explained = TRUE;
      g_ptr_array_add (rows, r);
    }
  if (m->median_ms > 0)
    {
      WsTruthRow *r = hier_row (c, WS_TRUTH_TIME_METRIC, prediction->timing.predicted_ms, m->median_ms,
                                WS_TRUTH_TIME_TOLERANCE);

      /* what the model says bounds it, for every time row: the reader of a
       * mismatch sees which level it got wrong */
      r->note = g_strdup_printf ("model: bound by %s (%s), %.4f ms", ws_bound_to_string (prediction->timing.bound),
                                 ws_bound_describe (prediction->timing.bound), prediction->timing.predicted_ms);
      if (r->mismatch && time_gap (c->name))
        {
          char *note = g_strdup_printf ("%s (%s)", time_gap (c->name), r->note);

          g_free (r->note);
          r->note = note;
          r->explained = TRUE;
        }
      g_ptr_array_add (rows, r);
    }
}

gboolean
ws_truth_row_unexplained (const WsTruthRow *r)
{
  return r->mismatch && !r->explained;
}

char *
ws_truth_device_slug (const char *name)
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

JsonNode *
ws_truth_to_json (GPtrArray  *rows,
                  const char *device,
                  JsonNode   *raw)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  guint mismatches = 0, unexplained = 0;
  g_autoptr (GDateTime) now = g_date_time_new_now_utc ();
  g_autofree char *stamp = g_date_time_format_iso8601 (now);

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "format");
  json_builder_add_string_value (b, "warpscope-truth");
  json_builder_set_member_name (b, "version");
  json_builder_add_int_value (b, 1);
  json_builder_set_member_name (b, "device");
  json_builder_add_string_value (b, device);
  json_builder_set_member_name (b, "warpscope");
  json_builder_add_string_value (b, WS_VERSION);
  json_builder_set_member_name (b, "date");
  json_builder_add_string_value (b, stamp);
  json_builder_set_member_name (b, "tolerance");
  json_builder_add_double_value (b, WS_TRUTH_TOLERANCE);
  json_builder_set_member_name (b, "rows");
  json_builder_begin_array (b);
  for (guint i = 0; i < rows->len; i++)
    {
      const WsTruthRow *r = g_ptr_array_index (rows, i);

      mismatches += r->mismatch;
      unexplained += ws_truth_row_unexplained (r);
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "pattern");
      json_builder_add_string_value (b, r->pattern);
      json_builder_set_member_name (b, "metric");
      json_builder_add_string_value (b, r->metric);
      json_builder_set_member_name (b, "model");
      json_builder_add_double_value (b, r->model);
      json_builder_set_member_name (b, "hardware");
      json_builder_add_double_value (b, r->hardware);
      if (r->tolerance != WS_TRUTH_TOLERANCE)
        {
          json_builder_set_member_name (b, "tolerance");
          json_builder_add_double_value (b, r->tolerance);
          /* below L1 a note may only say what bounds the time: whether it
           * explains the difference is said apart */
          json_builder_set_member_name (b, "explained");
          json_builder_add_boolean_value (b, r->explained);
        }
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

char *
ws_truth_to_text (GPtrArray  *rows,
                  const char *device)
{
  GString *s = g_string_new (NULL);
  guint mismatches = 0, unexplained = 0;

  g_string_append_printf (s, "Model against hardware counters on %s\n\n", device);
  g_string_append_printf (s, "%-44s %-58s %12s %12s  %s\n", "pattern", "metric", "model", "hardware", "");
  for (guint i = 0; i < rows->len; i++)
    {
      const WsTruthRow *r = g_ptr_array_index (rows, i);
      const char *mark = !r->mismatch ? "ok" : ws_truth_row_unexplained (r) ? "MISMATCH" : "explained";

      mismatches += r->mismatch;
      unexplained += ws_truth_row_unexplained (r);
      if (g_str_equal (r->metric, WS_TRUTH_TIME_METRIC))
        g_string_append_printf (s, "%-44s %-58s %12.4f %12.4f  %s\n", r->pattern, r->metric, r->model,
                                r->hardware, mark);
      else
        g_string_append_printf (s, "%-44s %-58s %12.0f %12.0f  %s\n", r->pattern, r->metric, r->model,
                                r->hardware, mark);
      if (r->mismatch && r->note)
        g_string_append_printf (s, "    %s\n", r->note);
    }
  g_string_append_printf (s, "\n%u rows, %u differ by more than their tolerance (%.0f %% for L1 counts, %.0f %% "
                          "for L2 sectors, %.0f %% for DRAM bytes, %.0f %% for the time), %u of them unexplained\n",
                          rows->len, mismatches, WS_TRUTH_TOLERANCE * 100, WS_TRUTH_L2_TOLERANCE * 100,
                          WS_TRUTH_DRAM_TOLERANCE * 100, WS_TRUTH_TIME_TOLERANCE * 100, unexplained);
  return g_string_free (s, FALSE);
}

WsPattern *
ws_truth_measurement_pattern (const WsMeasurement *m,
                              const WsPreset     **preset_out)
{
  const WsPreset *preset = ws_preset_lookup (m->id);
  g_autoptr (WsPattern) p = NULL;

  if (preset == NULL)
    return NULL;
  p = ws_preset_build (preset);
  for (guint i = 0; m->params && i < m->params->len; i++)
    {
      const WsParamValue *v = &g_array_index (m->params, WsParamValue, i);
      const WsPresetParam *own = ws_preset_get_param (preset, v->name);
      /* the pattern's parameters, and the kernel's own, which its launch reads */
      gboolean kernel = own && own->use == WS_PARAM_KERNEL_ONLY;

      if ((kernel || ws_pattern_get_param (p, v->name, NULL)) && !ws_pattern_set_param (p, v->name, v->value, NULL))
        return NULL;
    }
  if (!ws_preset_fit_grid (preset, p, NULL))
    return NULL;
  if (preset_out)
    *preset_out = preset;
  return g_steal_pointer (&p);
}

double
ws_truth_predict_measurement (const WsMeasurement   *m,
                              const WsDeviceProfile *profile)
{
  const WsPreset *preset = NULL;
  g_autoptr (WsPattern) p = profile ? ws_truth_measurement_pattern (m, &preset) : NULL;
  g_autoptr (WsKernelLaunch) launch = NULL;
  g_autoptr (WsLaunchPrediction) pred = NULL;

  if (p == NULL || (launch = ws_kernel_launch_new (preset->id, p, NULL)) == NULL ||
      (pred = ws_launch_predict (launch, profile, NULL, NULL)) == NULL)
    return NAN;
  return pred->timing.predicted_ms;
}
