/* SPDX-License-Identifier: GPL-3.0-or-later */
/* warpscope-cli export --kernel FILE: a kernel of one's own as a figure:
 * its annotated listing (--view listing), or the instruction of one of its
 * lines in the views of a warp (--view warp, banks, …; --line N). */
#include "ws-config.h"

#if WS_HAVE_FIGURES

#include "ws-cli-export.h"
#include "ws-cli-kernel.h"
#include "ws-plot-listing.h"

#include <string.h>

static int
export_listing (const Options            *o,
                Job                      *job,
                WsKernelInstance         *inst,
                const WsKernelPrediction *pred,
                GError                  **error)
{
  if (!ws_export_format_is_drawing (job->format))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("--view listing is a drawing: give a .png, .svg or .pdf file"));
      return WS_CLI_USAGE;
    }
  if (!ws_plot_listing_export (o->output, job->format, o->width, o->height != NO_HEIGHT ? o->height : DEFAULT_HEIGHT,
                               o->scale, job->style, inst, pred, NULL, error))
    return WS_CLI_FAILED;
  return WS_CLI_OK;
}

/* The memory instruction to draw: of --line N (the --instruction-th of
 * that line's the view shows, from 1), else the one that costs most that
 * the view shows. */
static gboolean
pick_site (const Options            *o,
           WsKernelInstance         *inst,
           const WsKernelPrediction *pred,
           WsFigureKind              kind,
           guint                    *site,
           GError                  **error)
{
  guint n = ws_kernel_instance_get_n_sites (inst), nth = 0;
  double worst = -1;
  gboolean found = FALSE;

  for (guint i = 0; i < n; i++)
    {
      const WsKernelSite *s = ws_kernel_instance_get_site (inst, i);
      const WsStats *st = &pred->stats->sites[i];
      double cost = (double) st->sectors + st->wavefronts + st->replays + st->distinct_addresses;

      if (!ws_figure_applies (kind, s->space, s->kind) || st->instructions == 0)
        continue;
      if (o->line != NO_LINE && s->line != (guint) o->line)
        continue;
      nth++;
      if (o->line != NO_LINE && o->instruction != NO_INSTRUCTION)
        {
          if (nth == (guint) o->instruction)
            {
              *site = i;
              return TRUE;
            }
          continue;
        }
      if (cost / st->instructions > worst)
        {
          worst = cost / st->instructions;
          *site = i;
          found = TRUE;
        }
    }
  if (found)
    return TRUE;
  if (o->line != NO_LINE)
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                 /* Translators: a source line, then the view asked for */
                 _("--line %d: no memory instruction of that line runs that --view %s shows"), o->line, o->view);
  else
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                 _("--view %s shows none of the kernel's memory instructions that run"), o->view);
  return FALSE;
}

/* The first warp that executes the site. */
static WsWarpResult *
first_warp (WsKernelInstance *inst,
            guint             site,
            GError          **error)
{
  g_autoptr (GError) none = NULL;
  WsWarpResult *r = ws_kernel_analyze_first_warp (inst, site, 64, &none);

  if (r == NULL)
    g_propagate_prefixed_error (error, g_steal_pointer (&none), "%s",
                                _("no warp of the first blocks runs that instruction: "));
  return r;
}

static int
export_warp (const Options            *o,
             Job                      *job,
             WsKernelInstance         *inst,
             const WsKernelPrediction *pred,
             WsFigureKind              kind,
             GError                  **error)
{
  g_autoptr (WsWarpResult) result = NULL;
  g_autofree char *title = NULL;
  const WsKernelSite *s;
  WsExportFigure figure = { kind }, prepared;
  Needs needs;
  double height = 0;
  guint site = 0;

  if (!ws_export_format_is_drawing (job->format))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("--view %s is a drawing: give a .png, .svg or .pdf file"), o->view);
      return WS_CLI_USAGE;
    }
  if (!pick_site (o, inst, pred, kind, &site, error) || (result = first_warp (inst, site, error)) == NULL)
    return WS_CLI_USAGE;
  s = ws_kernel_instance_get_site (inst, site);
  title = g_strdup_printf ("%s, line %u: %s — warp %u of block (%u, %u, %u)",
                           ws_kernel_instance_get_kernel_name (inst), s->line, s->text, result->warp,
                           result->block_idx.x, result->block_idx.y, result->block_idx.z);
  figure.frame = (WsFigureFrame) { result, title, ws_kernel_instance_get_block (inst),
                                   ws_cli_export_frame_position (o, result), WS_FIGURE_HIT_NONE,
                                   WS_FIGURE_LAYERS_ALL };
  prepared = figure;
  ws_export_prepare_frame (&prepared.frame, job->style);
  needs = (Needs) { ws_figure_min_width (kind, &prepared.frame, job->style), ws_cli_export_view_min_height,
                    &prepared, ws_cli_export_view_natural_height };
  if (!ws_cli_export_size_for (o, job, &needs, &height, error))
    return WS_CLI_USAGE;
  if (!ws_export_drawing (o->output, job->format, o->width, height, o->scale, job->style, ws_export_draw_figure,
                          &figure, error))
    return WS_CLI_FAILED;
  return WS_CLI_OK;
}

int
ws_cli_export_kernel (const Options *o,
                      Job           *job,
                      GError       **error)
{
  g_autoptr (WsKernelSpec) spec = ws_cli_kernel_spec (&o->pattern, error);
  g_autoptr (WsKernelInstance) inst = NULL;
  g_autoptr (WsKernelPrediction) pred = NULL;
  WsFigureKind kind;

  if (spec == NULL || (inst = ws_kernel_spec_instantiate (spec, NULL, error)) == NULL)
    return WS_CLI_USAGE;
  if ((pred = ws_cli_kernel_predict (inst, job->profile, error)) == NULL)
    return g_error_matches (*error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ? WS_CLI_INTERRUPTED : WS_CLI_USAGE;
  if (g_str_equal (o->view, "listing"))
    return export_listing (o, job, inst, pred, error);
  if (ws_figure_kind_from_string (o->view, &kind))
    return export_warp (o, job, inst, pred, kind, error);
  g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
               _("--view %s: a kernel of your own draws as listing, warp, banks, constant, local or atomics"),
               o->view);
  return WS_CLI_USAGE;
}

#endif /* WS_HAVE_FIGURES */
