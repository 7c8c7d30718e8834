/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A comparison's members that are kernels of one's own: "FILE.cu", which
 * of its kernels after a colon, and the source line to show after an at
 * sign ("transpose.cu:transposeNaive@57"). The file is read once, when the
 * member is made; its launch is the one its comment gives. Without a line,
 * the member shows the memory instruction that says most, as a preset's
 * does (ws_compare_main_access). */
#include "ws-config.h"
#include "ws-comparison-private.h"
#include "ws-file-reader.h"
#include "ws-i18n.h"
#include "ws-kernel-spec.h"

#include <glib/gi18n-lib.h>
#include <string.h>

/* the first blocks a member's instruction is looked for in */
#define FIRST_BLOCKS 8

/* Where the file's name ends in spec: after ".cu", before ":NAME" or
 * "@LINE"; NULL if spec names no kernel file. */
static const char *
path_end (const char *spec)
{
  for (const char *p = strstr (spec, ".cu"); p; p = strstr (p + 1, ".cu"))
    if (p[3] == '\0' || p[3] == ':' || p[3] == '@')
      return p + 3;
  return NULL;
}

gboolean
ws_compare_spec_is_kernel (const char *spec)
{
  g_return_val_if_fail (spec != NULL, FALSE);
  return path_end (spec) != NULL;
}

static char *
read_text (const char *path,
           GError    **error)
{
  gsize length = 0;
  g_autoptr (GError) failed = NULL;
  g_autofree char *text = ws_file_read_bounded (path, WS_KERNEL_MAX_TEXT, &length, &failed);

  if (text == NULL && g_error_matches (failed, G_IO_ERROR, G_IO_ERROR_MESSAGE_TOO_LARGE))
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                   /* Translators: the most a kernel file may have, in KiB */
                   _("longer than a kernel file may be (%u KiB)"), (guint) (WS_KERNEL_MAX_TEXT >> 10));
      return NULL;
    }
  if (text == NULL)
    {
      g_propagate_error (error, g_steal_pointer (&failed));
      return NULL;
    }
  if (memchr (text, '\0', length) != NULL || !g_utf8_validate (text, (gssize) length, NULL))
    {
      g_set_error_literal (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, _("not UTF-8 text"));
      return NULL;
    }
  return g_steal_pointer (&text);
}

static const char *
untranslated (const char *msgid)
{
  return msgid;
}

/* The site of the line (any line: 0) that says most. */
static gboolean
pick_site (WsCompareItem *item,
           guint          line,
           GError       **error)
{
  g_autoptr (WsWarpResult) best = NULL;

  for (guint i = 0; i < ws_kernel_instance_get_n_sites (item->kernel); i++)
    {
      const WsKernelSite *s = ws_kernel_instance_get_site (item->kernel, i);
      WsWarpResult *r;

      if (line != 0 && s->line != line)
        continue;
      r = ws_kernel_analyze_first_warp (item->kernel, i, FIRST_BLOCKS, NULL);
      if (r && r->space != WS_SPACE_REGISTER && (best == NULL || ws_compare_better_access (r, best)))
        {
          g_clear_pointer (&best, ws_warp_result_free);
          best = r;
          item->access = i;
        }
      else if (r)
        ws_warp_result_free (r);
    }
  if (best)
    {
      item->line = ws_kernel_instance_get_site (item->kernel, item->access)->line;
      return TRUE;
    }
  if (line != 0)
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                 /* Translators: a source line of a kernel, then the kernel's name */
                 _("line %u of %s has no memory instruction that the first blocks run"), line,
                 ws_kernel_instance_get_kernel_name (item->kernel));
  else
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                 _("%s has no memory instruction that the first blocks run"),
                 ws_kernel_instance_get_kernel_name (item->kernel));
  return FALSE;
}

static gboolean
parse_line (const char *text,
            guint      *line,
            GError    **error)
{
  char *end = NULL;
  guint64 v = g_ascii_strtoull (text, &end, 10);

  if (end == text || *end != '\0' || v < 1 || v > G_MAXUINT)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("“@%s” is not a line (FILE.cu[:KERNEL][@LINE], lines from 1)"), text);
      return FALSE;
    }
  *line = (guint) v;
  return TRUE;
}

static WsCompareItem *
kernel_item_new (const char *spec,
                 GError    **error)
{
  const char *end = path_end (spec), *at = strchr (end, '@');
  g_autofree char *path = g_strndup (spec, end - spec);
  g_autofree char *name = NULL;
  g_autofree char *text = NULL;
  g_autofree char *base = NULL;
  g_autoptr (WsKernelSpec) kspec = NULL;
  g_autoptr (WsCompareItem) item = g_new0 (WsCompareItem, 1);
  guint line = 0;

  if (*end == ':')
    name = at ? g_strndup (end + 1, at - end - 1) : g_strdup (end + 1);
  if (name && *g_strstrip (name) == '\0')
    {
      g_set_error_literal (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                           _("no kernel named after the colon (FILE.cu[:KERNEL][@LINE])"));
      return NULL;
    }
  if ((at && !parse_line (at + 1, &line, error)) || (text = read_text (path, error)) == NULL)
    return NULL;
  base = g_path_get_basename (path);
  kspec = ws_kernel_spec_new (text, base);
  ws_kernel_spec_set_kernel (kspec, name);
  if ((item->kernel = ws_kernel_spec_instantiate (kspec, NULL, error)) == NULL || !pick_site (item, line, error))
    return NULL;
  item->id = g_strdup (spec);
  item->params = g_strdup ("");
  item->kernel_key = ws_kernel_spec_live_key (kspec);
  item->kernel_spec = g_steal_pointer (&kspec);
  item->title = ws_compare_kernel_title (item, untranslated);
  return g_steal_pointer (&item);
}

WsCompareItem *
ws_compare_kernel_item_new (const char *spec,
                            GError    **error)
{
  g_autoptr (GError) failed = NULL;
  WsCompareItem *item = kernel_item_new (spec, &failed);

  if (item == NULL)
    g_propagate_prefixed_error (error, g_steal_pointer (&failed), "%s: ", spec);
  return item;
}

/* "transposeNaive, line 57" */
char *
ws_compare_kernel_title (const WsCompareItem *item,
                         WsGettextFunc        gettext_func)
{
  /* Translators: a kernel of one's own in a comparison, and the source
   * line of the instruction it shows: "transposeNaive, line 57" */
  return g_strdup_printf (gettext_func (N_("%s, line %u")), ws_kernel_instance_get_kernel_name (item->kernel),
                          item->line);
}

/* "global store odata[x*width + (y+j)], 4 B", as a preset's instruction
 * is described, and "(transpose.cu)" after it with_file. */
char *
ws_compare_kernel_describe (const WsCompareItem *item,
                            gboolean             with_file)
{
  const WsKernelSite *s = ws_kernel_instance_get_site (item->kernel, item->access);
  const WsKernelFile *file = ws_kernel_instance_get_file (item->kernel);
  static const char *verbs[] = { "load", "store", "atomic" };
  g_autofree char *text = ws_text_printable (s->text, 0);

  if (!with_file)
    return g_strdup_printf ("line %u: %s %s %s, %u B", s->line, ws_space_to_string (s->space), verbs[s->kind], text,
                            s->elem_size);
  return g_strdup_printf ("%s %s %s, %u B (%s)", ws_space_to_string (s->space), verbs[s->kind], text, s->elem_size,
                          ws_kernel_file_get_display_name (file));
}

WsWarpResult *
ws_compare_kernel_analyze (const WsCompareItem *item,
                           GError             **error)
{
  return ws_kernel_analyze_first_warp (item->kernel, item->access, FIRST_BLOCKS, error);
}

/* What a warp of the launch moves, as a preset's cost is counted. */
gboolean
ws_compare_kernel_cost (const WsCompareItem *item,
                        WsCompareCost       *cost,
                        GCancellable        *cancellable,
                        GError             **error)
{
  g_autoptr (WsKernelStats) stats = ws_kernel_model_analyze (item->kernel, cancellable, NULL, error);

  *cost = (WsCompareCost) { 0 };
  if (stats == NULL)
    return FALSE;
  for (guint i = 0; i < stats->n_sites; i++)
    ws_compare_cost_add (cost, ws_kernel_instance_get_site (item->kernel, i)->space, &stats->sites[i]);
  ws_compare_cost_finish (cost, stats->warps);
  return TRUE;
}
