/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The hierarchy view's figure: the model's bytes at each level beside the
 * hardware counters' (Nsight Compute's names, as the truth table uses
 * them), and the time. */
#include "ws-plot-hierarchy.h"
#include "ws-figure-i18n-private.h"

#include <inttypes.h>
#include <math.h>

/* ------------------------------------------------------------------ */
/* The counters                                                       */
/* ------------------------------------------------------------------ */

/* The sum of the counters named, NAN if the first (the one that must be
 * there) is missing; the others count 0 when missing. */
static double
sum (const WsMeasurement *m,
     const char * const  *names)
{
  double total = 0, v;

  for (guint i = 0; names[i]; i++)
    {
      if (ws_measurement_get_counter (m, names[i], &v))
        total += v;
      else if (i == 0)
        return NAN;
    }
  return total;
}

static double
ratio (double num,
       double den)
{
  if (isnan (num) || isnan (den))
    return NAN;
  return den > 0 ? num / den : 0;
}

gboolean
ws_plot_hierarchy_counted (const WsMeasurement *m,
                           WsCountedHierarchy  *out)
{
  static const char * const l1_read[] = { "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
                                          "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum", NULL };
  static const char * const l1_hits[] = { "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum",
                                          "l1tex__t_sectors_pipe_lsu_mem_local_op_ld_lookup_hit.sum", NULL };
  static const char * const l1_write[] = { "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
                                           "l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum",
                                           "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum",
                                           "l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum", NULL };
  static const char * const l2_read[] = { "lts__t_sectors_srcunit_tex_op_read.sum", NULL };
  static const char * const l2_hits[] = { "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum", NULL };
  static const char * const l2_write[] = { "lts__t_sectors_srcunit_tex_op_write.sum",
                                           "lts__t_sectors_srcunit_tex_op_atom.sum",
                                           "lts__t_sectors_srcunit_tex_op_red.sum", NULL };
  static const char * const dram_read[] = { "dram__bytes_read.sum", NULL };
  static const char * const dram_write[] = { "dram__bytes_write.sum", NULL };

  g_return_val_if_fail (out != NULL, FALSE);

  *out = (WsCountedHierarchy) { NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN };
  if (m == NULL || m->counters == NULL || m->counters->len == 0)
    return FALSE;
  out->l1_read_sectors = sum (m, l1_read);
  out->l1_write_sectors = sum (m, l1_write);
  out->l1_hit_rate = ratio (sum (m, l1_hits), out->l1_read_sectors);
  out->l2_read_sectors = sum (m, l2_read);
  out->l2_write_sectors = sum (m, l2_write);
  out->l2_hit_rate = ratio (sum (m, l2_hits), out->l2_read_sectors);
  out->dram_read_bytes = sum (m, dram_read);
  out->dram_write_bytes = sum (m, dram_write);
  return !isnan (out->l1_read_sectors) || !isnan (out->l2_read_sectors) || !isnan (out->dram_read_bytes);
}

/* ------------------------------------------------------------------ */
/* Words                                                              */
/* ------------------------------------------------------------------ */

char *
ws_plot_format_binary (double bytes)
{
  static const char *units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
  guint u = 0;

  while (bytes >= 1024 && u + 1 < G_N_ELEMENTS (units))
    {
      bytes /= 1024;
      u++;
    }
  return g_strdup_printf (bytes == floor (bytes) || bytes >= 100 ? "%.0f %s" : "%.3g %s", bytes, units[u]);
}

static char *
format_rate (double bytes_per_s)
{
  g_autofree char *b = ws_hier_format_bytes (bytes_per_s);

  return g_strdup_printf ("%s/s", b);
}

/* ------------------------------------------------------------------ */
/* The model                                                          */
/* ------------------------------------------------------------------ */

static void
set_flow (WsHierarchyFigure *f,
          guint              link,
          WsHierDirection    d,
          double             model,
          double             counted,
          const char        *counter,
          char              *note)
{
  WsHierFlow *flow = &f->flows[link][d];

  flow->bytes = (WsHierPair) { model * flow->unit, counted * flow->unit };
  flow->counter = counter ? g_strdup_printf (FG_("counter: %s"), counter) : NULL;
  flow->note = note;
}

static void
fill_levels (WsHierarchyFigure          *f,
             const WsPlotHierarchyInput *in)
{
  const WsPlotModel *h = in->model;
  const WsDeviceProfile *p = in->profile;
  const WsHierStats *t = h ? &h->total : NULL;
  g_autofree char *instructions = NULL;

  f->levels[WS_HIER_SMS].name = g_strdup ("SMs");
  f->levels[WS_HIER_L1].name = g_strdup ("L1");
  f->levels[WS_HIER_L2].name = g_strdup ("L2");
  f->levels[WS_HIER_DRAM].name = g_strdup ("DRAM");
  if (h)
    {
      instructions = ws_hier_format_count (h->instructions);
      f->levels[WS_HIER_SMS].detail = g_strdup_printf (FG_("%s warp instructions"), instructions);
      f->levels[WS_HIER_SMS].note = g_strdup_printf (FG_("%" PRIu64 " blocks of %" PRIu64 " warps on %u SMs; "
                                                       "%u warps resident per SM"),
                                                     (uint64_t) h->blocks, (uint64_t) (h->warps / MAX (1, h->blocks)),
                                                     h->sms, h->warps_per_sm);

      g_autofree char *l1 = ws_plot_format_binary (h->l1_bytes);
      f->levels[WS_HIER_L1].detail = g_strdup_printf (FG_("%s per SM"), l1);
      f->levels[WS_HIER_L1].note = g_strdup (FG_("what the shared-memory carve-out leaves of L1; a second request for a "
                                               "sector already on its way waits for it and counts as a hit"));
      f->levels[WS_HIER_L1].hit_rate.model = t->l1_sectors ? ws_hier_stats_l1_hit_rate (t) : NAN;
      f->levels[WS_HIER_L1].hit_what = g_strdup (FG_("of the load sectors looked up"));
      f->levels[WS_HIER_L2].hit_rate.model = t->l2_read_sectors ? ws_hier_stats_l2_hit_rate (t) : NAN;
      f->levels[WS_HIER_L2].hit_what = g_strdup (FG_("of the sectors read"));
    }
  if (p)
    {
      g_autofree char *l2 = ws_plot_format_binary (p->l2_bytes);
      g_autofree char *reuse = ws_plot_format_binary (p->l2_reuse_bytes);
      g_autofree char *bw = format_rate (p->dram_read_bytes_per_s);
      g_autofree char *write_bw = format_rate (p->dram_write_bytes_per_s);
      f->levels[WS_HIER_L2].detail = g_strdup (l2);
      f->levels[WS_HIER_L2].note = g_strdup_printf (FG_("%s of it keeps data a launch comes back to; sectors fetched in "
                                                      "pairs on a miss"), reuse);
      f->levels[WS_HIER_DRAM].detail = g_strdup (bw);
      f->levels[WS_HIER_DRAM].note = g_strdup_printf (FG_("reads at %s, writes at %s"), bw, write_bw);
    }
}

static void
fill_flows (WsHierarchyFigure          *f,
            const WsPlotHierarchyInput *in,
            const WsCountedHierarchy   *c)
{
  const WsPlotModel *h = in->model;
  const WsHierStats *t = &h->total;
  g_autofree char *requests = ws_hier_format_count (t->l2_read_requests);
  g_autofree char *partial = ws_hier_format_count (t->l2_partial_sectors);
  g_autofree char *atomic = ws_hier_format_count (t->l2_atomic_sectors);
  g_autofree char *transfers = ws_hier_format_count (t->dram_transfers);
  g_autofree char *rows = ws_hier_format_count (t->dram_row_misses);

  set_flow (f, 0, WS_HIER_READ, t->l1_sectors, c->l1_read_sectors,
            "l1tex__t_sectors_pipe_lsu_mem_{global,local}_op_ld.sum",
            g_strdup (FG_("the load sectors the warps' requests look up in L1")));
  set_flow (f, 0, WS_HIER_WRITE, h->written_sectors, c->l1_write_sectors,
            "l1tex__t_sectors_pipe_lsu_mem_{global,local}_op_{st,red,atom}.sum",
            g_strdup (FG_("the sectors stores and atomics send through L1")));
  set_flow (f, 1, WS_HIER_READ, t->l2_read_sectors, c->l2_read_sectors, "lts__t_sectors_srcunit_tex_op_read.sum",
            g_strdup_printf (FG_("what L1 misses, in %s requests"), requests));
  set_flow (f, 1, WS_HIER_WRITE, t->l2_write_sectors + t->l2_atomic_sectors, c->l2_write_sectors,
            "lts__t_sectors_srcunit_tex_op_{write,atom,red}.sum",
            g_strdup_printf (FG_("stores go through L1 to L2; %s sectors written in part, %s of atomics"), partial,
                             atomic));
  set_flow (f, 2, WS_HIER_READ, t->dram_read_bytes, c->dram_read_bytes, "dram__bytes_read.sum",
            g_strdup_printf (FG_("L2 fetches sectors in pairs on a miss; %s transfers, %s of them to a DRAM row not open"),
                             transfers, rows));
  set_flow (f, 2, WS_HIER_WRITE, t->dram_write_bytes, c->dram_write_bytes, "dram__bytes_write.sum",
            g_strdup (FG_("dirty lines written back when evicted, or when too many are dirty")));
}

static void
fill_time (WsHierarchyFigure *f,
           const WsPlotModel *model)
{
  if (isnan (model->predicted_s))
    return;
  for (guint i = 0; i < model->n_levels; i++)
    ws_hierarchy_figure_add_term (f, FG_(model->levels[i].name), model->levels[i].seconds, FG_(model->levels[i].what));
  f->bound = model->bound;
  f->predicted_s = model->predicted_s;
}

static char *
subtitle (const WsPlotHierarchyInput *in,
          gboolean                    counted)
{
  GString *s = g_string_new (NULL);
  /* "recorded on NAME": a GPU's name from a file */
  g_autofree char *measured = ws_text_printable (in->measured_source ? in->measured_source : FG_("measured"), 160);

  if (in->profile)
    {
      /* a profile's name and where it came from (a file's path) are a file's text */
      g_autofree char *name = ws_text_for_message (in->profile->name ? in->profile->name : in->profile->id);
      g_autofree char *source = ws_text_for_message (in->profile_source ? in->profile_source : FG_("profile"));

      /* Translators: a device profile's name, then where it comes from */
      g_string_append_printf (s, FG_("Model: %s, %s"), name, source);
    }
  else
    g_string_append (s, FG_("Model: no device profile"));
  g_string_append (s, " · ");
  if (counted)
    g_string_append_printf (s, FG_("counters: %s"), measured);
  else if (in->measured)
    g_string_append_printf (s, FG_("%s, without hardware counters"), measured);
  else
    g_string_append (s, FG_("no hardware counters of this launch"));
  return g_string_free (s, FALSE);
}

WsHierarchyFigure *
ws_plot_hierarchy_build (const WsPlotHierarchyInput *in)
{
  WsHierarchyFigure *f = ws_hierarchy_figure_new ();
  WsCountedHierarchy c;
  gboolean counted;

  g_return_val_if_fail (in != NULL, f);

  counted = ws_plot_hierarchy_counted (in->measured, &c);
  f->title = g_strdup_printf (FG_("%s: what the whole launch moves below the SMs"), in->title ? in->title : FG_("The pattern"));
  f->subtitle = subtitle (in, counted);
  f->counted_hue = in->measured_hue;
  /* the subtitle says on which device and from where; the legend, what is what */
  f->model_name = g_strdup (FG_("model"));
  if (counted)
    f->counted_name = g_strdup (FG_("hardware counters"));
  fill_levels (f, in);
  if (in->model == NULL)
    {
      f->message = g_strdup (in->message ? in->message : FG_("Following the launch through L1, L2 and DRAM…"));
      return f;
    }
  fill_flows (f, in, &c);
  fill_time (f, in->model);
  f->levels[WS_HIER_L1].hit_rate.counted = c.l1_hit_rate;
  f->levels[WS_HIER_L2].hit_rate.counted = c.l2_hit_rate;
  if (in->measured)
    {
      f->measured_s = in->measured->median_ms / 1e3;
      f->measured_lo = in->measured->min_ms / 1e3;
      f->measured_hi = in->measured->max_ms / 1e3;
      f->measured_name = g_strdup (FG_("measured median"));
    }
  return f;
}
