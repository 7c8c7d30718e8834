/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The model of a kernel text and its counters, line by line: the sites of
 * a line summed by memory space, the line's share of the work of the level
 * that bounds the predicted time, and the SASS metrics the GPU counted for
 * the line, compared as the truth table compares a pattern's (within
 * WS_TRUTH_TOLERANCE, with the reasons the hardware has where they apply). */
#include "ws-config.h"
#include "ws-kernel-lines.h"
#include "ws-truth.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

struct _WsKernelLines
{
  GArray *lines;              /* WsKernelLine, by line number */
  gboolean measured;
  guint n_mismatches;
  gboolean has_timing;
  WsBound bound;
  double predicted_ms;
  guint64 warps;
};

static void
stats_init (WsStats *s)
{
  memset (s, 0, sizeof *s);
  s->min_address = G_MAXINT64;
  s->end_address = G_MININT64;
}

static void
line_clear (WsKernelLine *line)
{
  g_clear_pointer (&line->reason, g_free);
}

void
ws_kernel_lines_free (WsKernelLines *lines)
{
  if (lines == NULL)
    return;
  g_array_unref (lines->lines);
  g_free (lines);
}

/* ------------------------------------------------------------------ */
/* The model                                                          */
/* ------------------------------------------------------------------ */

static WsKernelLine *
line_for (WsKernelLines *lines,
          GHashTable    *index,
          guint          number)
{
  gpointer i;

  if (!g_hash_table_lookup_extended (index, GUINT_TO_POINTER (number), NULL, &i))
    {
      WsKernelLine line = { .line = number, .time_share = NAN };

      stats_init (&line.global);
      stats_init (&line.local);
      stats_init (&line.shared);
      stats_init (&line.constant);
      i = GUINT_TO_POINTER (lines->lines->len);
      g_array_append_val (lines->lines, line);
      g_hash_table_insert (index, GUINT_TO_POINTER (number), i);
    }
  return &g_array_index (lines->lines, WsKernelLine, GPOINTER_TO_UINT (i));
}

static void
add_site (WsKernelLine       *line,
          const WsKernelSite *site,
          const WsStats      *stats,
          const WsHierStats  *below,
          guint64            *atomics)
{
  if (site->keep == WS_KERNEL_KEEP_NEVER && site->space != WS_SPACE_REGISTER)
    {
      /* no instruction: its figures would say "not run" */
      line->flags |= WS_KERNEL_LINE_KEPT;
      line->n_sites++;
      return;
    }
  switch (site->space)
    {
    case WS_SPACE_GLOBAL:
      ws_stats_add (&line->global, stats);
      line->flags |= WS_KERNEL_LINE_GLOBAL;
      break;
    case WS_SPACE_LOCAL:
      ws_stats_add (&line->local, stats);
      line->flags |= WS_KERNEL_LINE_LOCAL;
      break;
    case WS_SPACE_SHARED:
      ws_stats_add (&line->shared, stats);
      line->flags |= WS_KERNEL_LINE_SHARED;
      break;
    case WS_SPACE_CONSTANT:
      ws_stats_add (&line->constant, stats);
      line->flags |= WS_KERNEL_LINE_CONSTANT;
      break;
    case WS_SPACE_REGISTER:
    default:
      return;   /* no memory instruction */
    }
  line->n_sites++;
  if (site->kind == WS_ACCESS_ATOMIC)
    {
      line->flags |= WS_KERNEL_LINE_ATOMIC;
      *atomics += stats->instructions;
    }
  if (below)
    ws_hier_stats_add (&line->below, below);
}

/* The work of the bounding level a line does; NAN for levels no line's
 * memory makes (arithmetic, starting blocks, the launch). */
static double
bound_work (const WsKernelLine *l,
            WsBound             bound,
            guint64             atomics)
{
  switch (bound)
    {
    case WS_BOUND_DRAM: return (double) (l->below.dram_read_bytes + l->below.dram_write_bytes);
    case WS_BOUND_L2:
      return (double) (l->below.l2_read_sectors + l->below.l2_write_sectors + l->below.l2_atomic_sectors);
    case WS_BOUND_L1: return (double) (l->global.lines + l->local.lines);
    case WS_BOUND_SHARED: return (double) l->shared.wavefronts;
    case WS_BOUND_CONSTANT: return (double) l->constant.requests;
    case WS_BOUND_ATOMICS: return (double) atomics;
    case WS_BOUND_ALU:
    case WS_BOUND_BLOCKS:
    case WS_BOUND_LAUNCH:
    default: return NAN;
    }
}

static void
set_time_shares (WsKernelLines *lines,
                 const guint64 *atomics)
{
  double total = 0;

  for (guint i = 0; i < lines->lines->len; i++)
    total += bound_work (&g_array_index (lines->lines, WsKernelLine, i), lines->bound, atomics[i]);
  if (!(total > 0))
    return;
  for (guint i = 0; i < lines->lines->len; i++)
    {
      WsKernelLine *l = &g_array_index (lines->lines, WsKernelLine, i);

      l->time_share = bound_work (l, lines->bound, atomics[i]) / total;
    }
}

static int
by_line (gconstpointer a,
         gconstpointer b)
{
  const WsKernelLine *x = a, *y = b;

  return x->line < y->line ? -1 : x->line > y->line;
}

/* ------------------------------------------------------------------ */
/* The counters                                                       */
/* ------------------------------------------------------------------ */

/* The metrics the measurement has for any line: one it lacks for a line
 * counted nothing there; one it has for none, this GPU does not know. */
static GHashTable *
known_metrics (const WsMeasurement *m)
{
  GHashTable *known = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; i < m->line_counters->len; i++)
    g_hash_table_add (known, g_array_index (m->line_counters, WsLineCounter, i).name);
  return known;
}

static double
counter (const WsMeasurement *m,
         GHashTable          *known,
         guint                line,
         const char          *name)
{
  if (!g_hash_table_contains (known, name))
    return NAN;
  return ws_measurement_get_line_counter_or (m, line, name, 0);
}

/* The sum of the metrics known; NAN when none is. */
static double
counters (const WsMeasurement *m,
          GHashTable          *known,
          guint                line,
          const char *const   *names)
{
  double sum = NAN;

  for (guint i = 0; names[i]; i++)
    {
      double v = counter (m, known, line, names[i]);

      if (!isnan (v))
        sum = isnan (sum) ? v : sum + v;
    }
  return sum;
}

static void
read_counters (WsKernelLine        *l,
               const WsMeasurement *m,
               GHashTable          *known)
{
  static const char *const global[] = { "smsp__sass_inst_executed_op_global_ld", "smsp__sass_inst_executed_op_global_st",
                                        "smsp__sass_inst_executed_op_global_red",
                                        "smsp__sass_inst_executed_op_global_atom", NULL };
  static const char *const local[] = { "smsp__sass_inst_executed_op_local_ld", "smsp__sass_inst_executed_op_local_st",
                                       NULL };
  static const char *const shared[] = { "smsp__sass_inst_executed_op_shared_ld", "smsp__sass_inst_executed_op_shared_st",
                                        "smsp__sass_inst_executed_op_shared_atom", NULL };
  WsKernelLineCounters *hw = &l->hw;

  l->measured = TRUE;
  hw->global_instructions = counters (m, known, l->line, global);
  hw->global_sectors = counter (m, known, l->line, "smsp__sass_sectors_mem_global");
  hw->global_ideal_sectors = counter (m, known, l->line, "smsp__sass_sectors_mem_global_ideal");
  hw->local_instructions = counters (m, known, l->line, local);
  hw->local_sectors = counter (m, known, l->line, "smsp__sass_sectors_mem_local");
  hw->shared_instructions = counters (m, known, l->line, shared);
  hw->shared_wavefronts = counter (m, known, l->line, WS_LINE_SHARED_WAVEFRONTS);
  hw->shared_ideal_wavefronts = counter (m, known, l->line, WS_LINE_SHARED_IDEAL_WAVEFRONTS);
  /* there is no SASS metric of bank conflicts: the wavefronts past the
   * fewest the addresses need are theirs */
  hw->shared_conflicts = hw->shared_wavefronts - hw->shared_ideal_wavefronts;
}

/* ------------------------------------------------------------------ */
/* Where they differ                                                  */
/* ------------------------------------------------------------------ */

static gboolean
differs (double model,
         double hardware)
{
  return !isnan (hardware) && fabs (model - hardware) > WS_TRUTH_TOLERANCE * MAX (fabs (model), fabs (hardware));
}

typedef struct
{
  const char *what;            /* "global sectors" */
  double model;
  double hardware;
  WsSpace space;
  gboolean instructions;
} Figure;

/* Every warp issued each of the line's instructions of a space, where the
 * model counts those with an active lane: the compiler predicated a
 * guarded access rather than branching around it. */
static char *
explain_predication (const WsKernelLines *lines,
                     const Figure        *f,
                     guint                n_sites)
{
  double issued = (double) lines->warps * n_sites;

  if (!f->instructions || f->hardware <= f->model || n_sites == 0 || differs (issued, f->hardware))
    return NULL;
  return g_strdup_printf (_("the compiler predicated the access instead of branching around it: all %llu warps "
                            "issue it, those with no lane active moving nothing, and the model counts the "
                            "instructions with an active lane"), (unsigned long long) lines->warps);
}

/* With many warps using shared memory at once, the H100 reports a fraction
 * of a wavefront more per instruction than the addresses need (ws-truth.c
 * says how it was found). */
static char *
explain_contention (const WsKernelLine *l,
                    const Figure       *f)
{
  double excess;

  if (f->space != WS_SPACE_SHARED || f->instructions || f->hardware < f->model || l->shared.instructions == 0)
    return NULL;
  excess = (f->hardware - f->model) / (double) l->shared.instructions;
  if (excess >= 0.98)
    return NULL;
  return g_strdup_printf (_("%.3f wavefronts per instruction beyond what the addresses need: with many warps using "
                            "the shared memory banks at once, the GPU counts a fraction of an extra wavefront that "
                            "varies from run to run"), excess);
}

static guint
sites_in (const WsKernelInstance *instance,
          guint                   line,
          WsSpace                 space)
{
  guint n = 0;

  for (guint i = 0; i < ws_kernel_instance_get_n_sites (instance); i++)
    {
      const WsKernelSite *s = ws_kernel_instance_get_site (instance, i);

      n += s->line == line && s->space == space;
    }
  return n;
}

static void
compare (WsKernelLines          *lines,
         WsKernelLine           *l,
         const WsKernelInstance *instance)
{
  const Figure figures[] = {
    { N_("global memory instructions"), l->global.instructions, l->hw.global_instructions, WS_SPACE_GLOBAL, TRUE },
    { N_("global sectors"), l->global.sectors, l->hw.global_sectors, WS_SPACE_GLOBAL, FALSE },
    { N_("local memory instructions"), l->local.instructions, l->hw.local_instructions, WS_SPACE_LOCAL, TRUE },
    { N_("local sectors"), l->local.sectors, l->hw.local_sectors, WS_SPACE_LOCAL, FALSE },
    { N_("shared memory instructions"), l->shared.instructions, l->hw.shared_instructions, WS_SPACE_SHARED, TRUE },
    { N_("shared wavefronts"), l->shared.wavefronts, l->hw.shared_wavefronts, WS_SPACE_SHARED, FALSE },
  };
  GString *reason = g_string_new (NULL);

  for (guint i = 0; i < G_N_ELEMENTS (figures); i++)
    {
      const Figure *f = &figures[i];
      g_autofree char *why = NULL;

      if (!differs (f->model, f->hardware))
        continue;
      if (reason->len)
        g_string_append (reason, "; ");
      /* Translators: a figure of a source line ("global sectors"), then the
       * model's count and the hardware's */
      g_string_append_printf (reason, _("%s: model %.0f, hardware %.0f"), _(f->what), f->model, f->hardware);
      if ((why = explain_predication (lines, f, sites_in (instance, l->line, f->space))) ||
          (why = explain_contention (l, f)))
        g_string_append_printf (reason, " (%s)", why);
      else if (f->model == 0)
        g_string_append_printf (reason, " (%s)", _("the compiler put a memory instruction on this line that the "
                                                   "model has not: a spill to local memory, or code moved here"));
    }
  l->mismatch = reason->len > 0;
  l->reason = g_string_free (reason, reason->len == 0);
  lines->n_mismatches += l->mismatch;
}

/* ------------------------------------------------------------------ */

/* Lines where the hardware counted memory instructions that the model has
 * none of: they differ too. */
static void
add_counted_lines (WsKernelLines       *lines,
                   GHashTable          *index,
                   const WsMeasurement *m)
{
  for (guint i = 0; i < m->line_counters->len; i++)
    {
      const WsLineCounter *c = &g_array_index (m->line_counters, WsLineCounter, i);

      if (c->value > 0 && g_str_has_prefix (c->name, "smsp__sass_inst_executed_op_") &&
          !g_hash_table_contains (index, GUINT_TO_POINTER (c->line)))
        line_for (lines, index, c->line);
    }
}

WsKernelLines *
ws_kernel_lines_new (const WsKernelInstance   *instance,
                     const WsKernelPrediction *prediction,
                     const WsMeasurement      *measurement)
{
  WsKernelLines *lines;
  g_autoptr (GHashTable) index = NULL;
  g_autoptr (GArray) atomics = NULL;

  g_return_val_if_fail (instance != NULL && prediction != NULL, NULL);
  g_return_val_if_fail (prediction->stats->n_sites == ws_kernel_instance_get_n_sites (instance), NULL);

  lines = g_new0 (WsKernelLines, 1);
  lines->lines = g_array_new (FALSE, TRUE, sizeof (WsKernelLine));
  g_array_set_clear_func (lines->lines, (GDestroyNotify) line_clear);
  lines->warps = prediction->stats->warps;
  index = g_hash_table_new (NULL, NULL);
  atomics = g_array_new (FALSE, TRUE, sizeof (guint64));
  for (guint i = 0; i < prediction->stats->n_sites; i++)
    {
      const WsKernelSite *site = ws_kernel_instance_get_site (instance, i);
      WsKernelLine *l;

      if (site->space == WS_SPACE_REGISTER)
        continue;
      l = line_for (lines, index, site->line);
      g_array_set_size (atomics, lines->lines->len);
      add_site (l, site, &prediction->stats->sites[i],
                prediction->hierarchy ? &prediction->hierarchy->accesses[i] : NULL,
                &g_array_index (atomics, guint64, l - (WsKernelLine *) (gpointer) lines->lines->data));
    }
  if ((lines->has_timing = prediction->has_timing))
    {
      lines->bound = prediction->timing.bound;
      lines->predicted_ms = prediction->timing.predicted_ms;
      set_time_shares (lines, (const guint64 *) (gpointer) atomics->data);
    }

  g_array_sort (lines->lines, by_line);
  ws_kernel_lines_set_measurement (lines, instance, measurement);
  return lines;
}

/* What a measurement set before added: its counters and the lines only it had. */
static void
forget_measurement (WsKernelLines *lines)
{
  for (guint i = lines->lines->len; i-- > 0;)
    {
      WsKernelLine *l = &g_array_index (lines->lines, WsKernelLine, i);

      if (l->n_sites == 0)
        {
          g_array_remove_index (lines->lines, i);
          continue;
        }
      l->measured = FALSE;
      l->mismatch = FALSE;
      memset (&l->hw, 0, sizeof l->hw);
      g_clear_pointer (&l->reason, g_free);
    }
  lines->measured = FALSE;
  lines->n_mismatches = 0;
}

void
ws_kernel_lines_set_measurement (WsKernelLines          *lines,
                                 const WsKernelInstance *instance,
                                 const WsMeasurement    *measurement)
{
  g_autoptr (GHashTable) index = NULL;
  g_autoptr (GHashTable) known = NULL;

  g_return_if_fail (lines != NULL && instance != NULL);

  forget_measurement (lines);
  if (measurement == NULL || measurement->line_counters == NULL || measurement->line_counters->len == 0)
    return;
  lines->measured = TRUE;
  known = known_metrics (measurement);
  index = g_hash_table_new (NULL, NULL);
  for (guint i = 0; i < lines->lines->len; i++)
    g_hash_table_insert (index, GUINT_TO_POINTER (g_array_index (lines->lines, WsKernelLine, i).line),
                         GUINT_TO_POINTER (i));
  add_counted_lines (lines, index, measurement);
  for (guint i = 0; i < lines->lines->len; i++)
    {
      WsKernelLine *l = &g_array_index (lines->lines, WsKernelLine, i);

      read_counters (l, measurement, known);
      compare (lines, l, instance);
    }
  g_array_sort (lines->lines, by_line);
}

guint
ws_kernel_lines_get_n_lines (const WsKernelLines *lines)
{
  g_return_val_if_fail (lines != NULL, 0);
  return lines->lines->len;
}

const WsKernelLine *
ws_kernel_lines_get_line (const WsKernelLines *lines,
                          guint                i)
{
  g_return_val_if_fail (lines != NULL && i < lines->lines->len, NULL);
  return &g_array_index (lines->lines, WsKernelLine, i);
}

const WsKernelLine *
ws_kernel_lines_find (const WsKernelLines *lines,
                      guint                line)
{
  guint lo = 0, hi;

  g_return_val_if_fail (lines != NULL, NULL);

  hi = lines->lines->len;
  while (lo < hi)
    {
      guint mid = (lo + hi) / 2;
      const WsKernelLine *l = &g_array_index (lines->lines, WsKernelLine, mid);

      if (l->line == line)
        return l;
      if (l->line < line)
        lo = mid + 1;
      else
        hi = mid;
    }
  return NULL;
}

gboolean
ws_kernel_lines_get_measured (const WsKernelLines *lines)
{
  g_return_val_if_fail (lines != NULL, FALSE);
  return lines->measured;
}

guint
ws_kernel_lines_get_n_mismatches (const WsKernelLines *lines)
{
  g_return_val_if_fail (lines != NULL, 0);
  return lines->n_mismatches;
}

gboolean
ws_kernel_lines_get_timing (const WsKernelLines *lines,
                            WsBound             *bound,
                            double              *predicted_ms)
{
  g_return_val_if_fail (lines != NULL, FALSE);

  if (bound)
    *bound = lines->bound;
  if (predicted_ms)
    *predicted_ms = lines->predicted_ms;
  return lines->has_timing;
}

/* ------------------------------------------------------------------ */
/* In words                                                           */
/* ------------------------------------------------------------------ */

static double
ratio (double num,
       double den)
{
  return den > 0 ? num / den : NAN;
}

static void
append_part (GString    *s,
             const char *part)
{
  if (s->len)
    g_string_append (s, " · ");
  g_string_append (s, part);
}

/* The figures of a line, the model's or the hardware's; units: with
 * them ("4 sect/req · 32 wf/inst, +31 confl") or the numbers alone, for a
 * column beside one that has them ("4 · 32, +31"). */
static char *
format_line (const WsKernelLine *l,
             gboolean            measured,
             gboolean            units)
{
  GString *s = g_string_new (NULL);
  const WsKernelLineCounters *hw = &l->hw;

  if (measured && !l->measured)
    return g_string_free (s, FALSE);
  if (l->flags & (WS_KERNEL_LINE_GLOBAL | WS_KERNEL_LINE_LOCAL))
    {
      double r = measured ? ratio (hw->global_sectors + (isnan (hw->local_sectors) ? 0 : hw->local_sectors),
                                   hw->global_instructions + (isnan (hw->local_instructions) ? 0 : hw->local_instructions))
                          : ratio ((double) (l->global.sectors + l->local.sectors),
                                   (double) (l->global.instructions + l->local.instructions));
      g_autofree char *part = isnan (r) ? g_strdup (_("not run"))
                            /* Translators: sectors per request, in a narrow column beside a source line */
                            : units ? g_strdup_printf (_("%.3g sect/req"), r) : g_strdup_printf ("%.3g", r);
      append_part (s, part);
    }
  if (l->flags & WS_KERNEL_LINE_SHARED)
    {
      double inst = measured ? hw->shared_instructions : (double) l->shared.instructions;
      double wf = ratio (measured ? hw->shared_wavefronts : (double) l->shared.wavefronts, inst);
      double conflicts = ratio (measured ? hw->shared_conflicts
                                         : (double) (l->shared.wavefronts - l->shared.ideal_wavefronts), inst);
      g_autofree char *part = NULL;

      if (isnan (wf))
        part = g_strdup (_("not run"));
      else if (conflicts > 0 && units)
        /* Translators: shared-memory wavefronts per instruction, and the
         * bank conflicts per instruction, in a narrow column */
        part = g_strdup_printf (_("%.3g wf/inst, +%.3g confl"), wf, conflicts);
      else if (conflicts > 0)
        part = g_strdup_printf ("%.3g, +%.3g", wf, conflicts);
      else
        /* Translators: shared-memory wavefronts per instruction, in a narrow column */
        part = units ? g_strdup_printf (_("%.3g wf/inst"), wf) : g_strdup_printf ("%.3g", wf);
      append_part (s, part);
    }
  if ((l->flags & WS_KERNEL_LINE_CONSTANT) && !measured)
    {
      double r = ratio ((double) l->constant.requests, (double) l->constant.instructions);
      /* Translators: constant-cache requests per instruction, in a narrow column */
      g_autofree char *part = isnan (r) ? g_strdup (_("not run")) : g_strdup_printf (_("%.3g req/inst"), r);

      append_part (s, part);
    }
  if (!measured && s->len == 0 && (l->flags & WS_KERNEL_LINE_KEPT))
    /* Translators: a line whose memory access nvcc keeps in a register
     * through a loop, so that it makes no memory instruction; a narrow column */
    append_part (s, _("in a register"));
  if (measured && l->n_sites == 0)
    /* Translators: a line where the hardware counted memory instructions the model has none of */
    append_part (s, _("not in the model"));
  return g_string_free (s, FALSE);
}

char *
ws_kernel_line_format (const WsKernelLine *l,
                       gboolean            measured)
{
  g_return_val_if_fail (l != NULL, NULL);
  return format_line (l, measured, !measured);
}

static void
describe_memory (GString       *s,
                 const char    *space,
                 const WsStats *st)
{
  /* Translators: a memory space ("global"), then its instructions (warp
   * instructions of the whole launch), requests, sectors, bytes the lanes
   * asked for and bytes the sectors moved */
  g_string_append_printf (s, _("%s: %llu instructions, %llu requests, %llu sectors (%.3g per request); %llu bytes "
                               "asked, %llu moved"),
                          space, (unsigned long long) st->instructions, (unsigned long long) st->requests,
                          (unsigned long long) st->sectors, ratio ((double) st->sectors, (double) st->requests),
                          (unsigned long long) st->bytes_requested, (unsigned long long) st->bytes_moved);
  g_string_append_c (s, '\n');
}

char *
ws_kernel_line_describe (const WsKernelLine *l)
{
  GString *s = g_string_new (NULL);

  g_return_val_if_fail (l != NULL, NULL);

  if (l->flags & WS_KERNEL_LINE_GLOBAL)
    describe_memory (s, _("Global memory"), &l->global);
  if (l->flags & WS_KERNEL_LINE_LOCAL)
    describe_memory (s, _("Local memory"), &l->local);
  if (l->flags & WS_KERNEL_LINE_SHARED)
    {
      /* Translators: shared-memory instructions of the whole launch, their
       * wavefronts, the fewest the lanes' words need, and the bank
       * conflicts (the difference) */
      g_string_append_printf (s, _("Shared memory: %llu instructions, %llu wavefronts (%.3g per instruction), the "
                                   "fewest possible %llu, %llu bank conflicts"),
                              (unsigned long long) l->shared.instructions, (unsigned long long) l->shared.wavefronts,
                              ratio ((double) l->shared.wavefronts, (double) l->shared.instructions),
                              (unsigned long long) l->shared.ideal_wavefronts,
                              (unsigned long long) (l->shared.wavefronts - l->shared.ideal_wavefronts));
      g_string_append_c (s, '\n');
    }
  if (l->flags & WS_KERNEL_LINE_CONSTANT)
    {
      /* Translators: constant-memory instructions of the whole launch, and the requests they make */
      g_string_append_printf (s, _("Constant memory: %llu instructions, %llu requests"),
                              (unsigned long long) l->constant.instructions, (unsigned long long) l->constant.requests);
      g_string_append_c (s, '\n');
    }
  if (!isnan (l->time_share))
    {
      /* Translators: the share of the kernel's predicted time that this line's memory traffic takes; %% is a percent sign */
      g_string_append_printf (s, _("%.1f %% of the predicted time"), 100 * l->time_share);
      g_string_append_c (s, '\n');
    }
  if (l->measured)
    {
      g_autofree char *hw = format_line (l, TRUE, TRUE);

      /* Translators: the hardware's figures of the line, as the gutter shows them */
      g_string_append_printf (s, _("Measured: %s"), hw);
      g_string_append_c (s, '\n');
    }
  if (l->mismatch)
    {
      /* Translators: what differs between the model and the counters, and why where known */
      g_string_append_printf (s, _("Model and hardware differ: %s"), l->reason);
      g_string_append_c (s, '\n');
    }
  if (s->len && s->str[s->len - 1] == '\n')
    g_string_truncate (s, s->len - 1);
  return g_string_free (s, FALSE);
}
