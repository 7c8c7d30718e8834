/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A comparison: two to four presets side by side, each with the
 * instruction that says most about it, and what the model says each costs
 * a warp. The figures and the chart are drawn from it elsewhere
 * (ui/plots/ws-compare.c); this is the model's part, GLib only. */
#include "ws-config.h"
#include "ws-comparison-private.h"
#include "ws-i18n.h"

/* errors are messages, in the user's language where they are made;
 * titles are composed in the English, and in a language on request
 * (ws_compare_item_dup_title) */
#include <glib/gi18n-lib.h>
#include <string.h>

static guint
preset_n_accesses (const WsPreset *preset)
{
  guint n = 0;

  while (n < WS_PRESET_MAX_ACCESSES && preset->accesses[n].index)
    n++;
  return n;
}

static const WsCompareSet sets[] = {
  { N_("Transpose: naive against tiled"),
    { "transpose/copy", "transpose/read-coalesced", "transpose/shared", "transpose/shared-padded" } },
  { N_("Transpose: which side to coalesce"),
    { "transpose/read-coalesced", "transpose/write-coalesced", "transpose/ldg" } },
  { N_("Shared tile against padded tile"), { "transpose/shared", "transpose/shared-padded" } },
  { N_("Sequential against strided"), { "coalescing/sequential", "coalescing/stride" } },
  { N_("Four ways to read global memory"),
    { "coalescing/sequential", "coalescing/offset", "coalescing/stride", "coalescing/broadcast" } },
  { N_("Structures: AoS, SoA and ASTA"), { "alignment/aos", "alignment/soa", "alignment/asta" } },
  { N_("Local memory: uniform against non-uniform"),
    { "private-array/uniform-local", "private-array/nonuniform-local", "private-array/nonuniform-shared" } },
  { N_("Registers against local memory"), { "private-array/static", "private-array/uniform-local" } },
  { N_("Constant memory: one address against many"), { "constant/broadcast", "constant/distinct" } },
  { N_("Atomics: one address, many, aggregated"),
    { "atomics/one-address", "atomics/distinct", "atomics/warp-aggregated" } },
  { N_("Merging in shared memory"), { "merge/one-thread", "merge/atomicmin", "merge/tree", "merge/hybrid" } },
};

const WsCompareSet *
ws_compare_sets_get_all (guint *n_sets)
{
  *n_sets = G_N_ELEMENTS (sets);
  return sets;
}

/* ------------------------------------------------------------------ */
/* Items                                                              */
/* ------------------------------------------------------------------ */

/* Which instruction says most about a pattern: one in shared, local or
 * constant memory if it has any (a tiled transpose is about its tile), the
 * one of them with the longest schedule, loads before stores. */
gboolean
ws_compare_better_access (const WsWarpResult *r,
                          const WsWarpResult *best)
{
  gboolean special = r->space != WS_SPACE_GLOBAL, best_special = best->space != WS_SPACE_GLOBAL;

  if (special != best_special)
    return special;
  if (r->steps->len != best->steps->len)
    return r->steps->len > best->steps->len;
  return r->kind == WS_ACCESS_LOAD && best->kind != WS_ACCESS_LOAD;
}

guint
ws_compare_main_access (const WsPattern *pattern)
{
  g_autoptr (WsWarpResult) best = NULL;
  guint chosen = 0;

  for (guint a = 0; a < ws_pattern_get_n_accesses (pattern); a++)
    {
      WsWarpResult *r = ws_model_analyze_warp (pattern, a, WS_DIM3 (0, 0, 0), 0, NULL);
      if (r && r->space != WS_SPACE_REGISTER && (best == NULL || ws_compare_better_access (r, best)))
        {
          g_clear_pointer (&best, ws_warp_result_free);
          best = r;
          chosen = a;
        }
      else if (r)
        ws_warp_result_free (r);
    }
  return chosen;
}

/* The parameters that differ from the preset's, or that are in also (the
 * names of parameters to show whatever their value): ", stride = 4". */
static char *
item_params (const WsPreset     *preset,
             const WsPattern    *pattern,
             const char * const *also)
{
  g_autoptr (WsPattern) reference = ws_preset_build (preset);
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < ws_pattern_get_n_params (pattern); i++)
    {
      const WsParam *p = ws_pattern_get_param_nth (pattern, i);
      gint64 v;
      if ((ws_pattern_get_param (reference, p->name, &v) && v != p->value) ||
          (also && g_strv_contains (also, p->name)))
        g_string_append_printf (s, ", %s = %" G_GINT64_FORMAT, p->name, p->value);
    }
  return g_string_free (s, FALSE);
}

static const char *
untranslated (const char *msgid)
{
  return msgid;
}

/* The threads of its launch: how much work it is, to say so where the
 * members of a comparison are not the same size. */
guint64
ws_compare_item_threads (const WsCompareItem *item)
{
  g_return_val_if_fail (item != NULL, 0);

  if (item->kernel)
    return ws_dim3_count (ws_kernel_instance_get_grid (item->kernel)) *
           ws_dim3_count (ws_kernel_instance_get_block (item->kernel));
  if (item->pattern)
    return ws_dim3_count (ws_pattern_get_grid (item->pattern)) * ws_dim3_count (ws_pattern_get_block (item->pattern));
  return 0;
}

char *
ws_compare_item_dup_title (const WsCompareItem *item,
                           WsGettextFunc        gettext_func)
{
  const WsPreset *preset;
  g_autofree char *short_title = NULL;
  g_autofree char *title = NULL;

  g_return_val_if_fail (item != NULL, NULL);

  if (gettext_func == NULL)
    gettext_func = untranslated;
  if (item->kernel)
    title = ws_compare_kernel_title (item, gettext_func);
  else
    {
      preset = ws_preset_lookup (item->id);
      g_assert (preset != NULL);
      short_title = ws_preset_short_title (gettext_func (preset->title));
      title = g_strconcat (short_title, item->params ? item->params : "", NULL);
    }
  switch (item->mark)
    {
    case WS_COMPARE_MARK_INSTRUCTION:
      /* Translators: a comparison's item told from one alike by its
       * instruction: "Tiled transpose, instruction 2" */
      return g_strdup_printf (gettext_func (N_("%s, instruction %u")), title, item->mark_number);
    case WS_COMPARE_MARK_PLACE:
      /* Translators: a comparison's item told from one alike by its place: "Sequential (2)" */
      return g_strdup_printf (gettext_func (N_("%s (%u)")), title, item->mark_number);
    case WS_COMPARE_MARK_NONE:
    default:
      return g_steal_pointer (&title);
    }
}

static void
item_set_name (WsCompareItem *item,
               char          *params,
               WsCompareMark  mark,
               guint          mark_number)
{
  g_free (item->params);
  item->params = params;
  item->mark = mark;
  item->mark_number = mark_number;
  g_free (item->title);
  item->title = ws_compare_item_dup_title (item, NULL);
}

/* The parameters whose values differ between the items of one preset. */
static GStrv
differing_params (GPtrArray  *items,
                  const char *id)
{
  g_autoptr (GStrvBuilder) names = g_strv_builder_new ();
  const WsCompareItem *first = NULL;

  for (guint i = 0; i < items->len; i++)
    {
      const WsCompareItem *item = g_ptr_array_index (items, i);

      if (item->kernel || !g_str_equal (item->id, id))
        continue;
      if (first == NULL)
        {
          first = item;
          continue;
        }
      for (guint k = 0; k < ws_pattern_get_n_params (item->pattern); k++)
        {
          const WsParam *p = ws_pattern_get_param_nth (item->pattern, k);
          gint64 v;
          if (ws_pattern_get_param (first->pattern, p->name, &v) && v != p->value)
            g_strv_builder_add (names, p->name);
        }
    }
  return g_strv_builder_end (names);
}

void
ws_compare_items_name (GPtrArray *items)
{
  g_autoptr (GArray) marks = NULL;

  g_return_if_fail (items != NULL);

  /* each preset's items named by the parameters they differ in */
  for (guint i = 0; i < items->len; i++)
    {
      WsCompareItem *item = g_ptr_array_index (items, i);
      g_auto (GStrv) also = NULL;

      if (item->kernel)
        {
          item_set_name (item, g_strdup (""), WS_COMPARE_MARK_NONE, 0);
          continue;
        }
      also = differing_params (items, item->id);
      item_set_name (item, item_params (ws_preset_lookup (item->id), item->pattern, (const char * const *) also),
                     WS_COMPARE_MARK_NONE, 0);
    }
  /* and, still alike, by their instruction, or their place */
  marks = g_array_sized_new (FALSE, TRUE, sizeof (WsCompareMark), items->len);
  for (guint i = 0; i < items->len; i++)
    {
      const WsCompareItem *item = g_ptr_array_index (items, i);
      gboolean alike = FALSE, same_access = TRUE;
      WsCompareMark mark;

      for (guint j = 0; j < items->len; j++)
        {
          const WsCompareItem *other = g_ptr_array_index (items, j);
          if (j != i && g_str_equal (other->title, item->title))
            {
              alike = TRUE;
              same_access &= other->access == item->access;
            }
        }
      mark = !alike ? WS_COMPARE_MARK_NONE : !same_access ? WS_COMPARE_MARK_INSTRUCTION : WS_COMPARE_MARK_PLACE;
      g_array_append_val (marks, mark);
    }
  for (guint i = 0; i < items->len; i++)
    {
      WsCompareItem *item = g_ptr_array_index (items, i);
      WsCompareMark mark = g_array_index (marks, WsCompareMark, i);

      item_set_name (item, g_steal_pointer (&item->params), mark,
                     mark == WS_COMPARE_MARK_INSTRUCTION ? item->access + 1 : i + 1);
    }
}

WsCompareItem *
ws_compare_item_new_for (const WsPreset  *preset,
                         const WsPattern *pattern)
{
  WsCompareItem *item = g_new0 (WsCompareItem, 1);

  g_return_val_if_fail (preset != NULL && pattern != NULL, NULL);
  item->id = g_strdup (preset->id);
  item->pattern = ws_pattern_copy (pattern);
  item_set_name (item, item_params (preset, pattern, NULL), WS_COMPARE_MARK_NONE, 0);
  item->access = ws_compare_main_access (pattern);
  return item;
}

/* "ID@N": the preset and the instruction (from 1) to show; 0 for ws_compare_main_access. */
static const WsPreset *
parse_head (const char *head,
            guint      *instruction,
            GError    **error)
{
  g_auto (GStrv) parts = g_strsplit (head, "@", 2);
  const WsPreset *preset = ws_preset_lookup (g_strstrip (parts[0]));
  char *end = NULL;

  *instruction = 0;
  if (preset == NULL)
    {
      const char *near = ws_preset_suggest (parts[0]);

      if (near)
        g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                     _("no preset “%s”; did you mean %s? (see warpscope-cli model --list-presets)"), parts[0], near);
      else
        g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                     _("no preset “%s” (see warpscope-cli model --list-presets)"), parts[0]);
      return NULL;
    }
  if (parts[1] == NULL)
    return preset;
  *instruction = (guint) g_ascii_strtoull (parts[1], &end, 10);
  if (end == parts[1] || *end != '\0' || *instruction < 1 || *instruction > preset_n_accesses (preset))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("“%s”: %s has instructions 1 to %u"), head, preset->id, preset_n_accesses (preset));
      return NULL;
    }
  return preset;
}

WsCompareItem *
ws_compare_item_new (const char *spec,
                     GError    **error)
{
  g_auto (GStrv) parts = NULL;
  guint instruction;
  const WsPreset *preset;
  g_autoptr (WsPattern) pattern = NULL;
  WsCompareItem *item;

  g_return_val_if_fail (spec != NULL, NULL);

  if (ws_compare_spec_is_kernel (spec))
    return ws_compare_kernel_item_new (spec, error);
  parts = g_strsplit (spec, ":", -1);
  if ((preset = parse_head (parts[0], &instruction, error)) == NULL)
    return NULL;
  pattern = ws_preset_build (preset);
  for (guint i = 1; parts[i]; i++)
    {
      const char *eq = strchr (parts[i], '=');
      g_autofree char *name = eq ? g_strstrip (g_strndup (parts[i], eq - parts[i])) : NULL;
      char *end = NULL;
      gint64 v = eq ? g_ascii_strtoll (eq + 1, &end, 0) : 0;

      if (eq == NULL || end == eq + 1 || *end != '\0')
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, _("“%s” in “%s” is not NAME=VALUE"), parts[i],
                       spec);
          return NULL;
        }
      if (!ws_pattern_set_param (pattern, name, v, error))
        {
          g_prefix_error (error, "%s: ", preset->id);
          return NULL;
        }
    }
  /* the grid follows the parameters, as the window's and model's do
   * (transpose/shared:N=1024 is 32 × 32 blocks, not 8192's 256 × 256) */
  if (parts[1] != NULL && !ws_preset_fit_grid (preset, pattern, error))
    return NULL;
  item = ws_compare_item_new_for (preset, pattern);
  if (instruction > 0)
    item->access = instruction - 1;
  return item;
}

void
ws_compare_item_free (WsCompareItem *item)
{
  if (item == NULL)
    return;
  g_free (item->id);
  g_free (item->title);
  g_free (item->params);
  g_clear_pointer (&item->pattern, ws_pattern_unref);
  g_clear_pointer (&item->kernel, ws_kernel_instance_unref);
  g_free (item->kernel_key);
  g_clear_pointer (&item->kernel_spec, ws_kernel_spec_free);
  g_free (item);
}

WsCompareItem *
ws_compare_item_copy (const WsCompareItem *item)
{
  WsCompareItem *copy;

  g_return_val_if_fail (item != NULL, NULL);

  copy = g_new0 (WsCompareItem, 1);
  *copy = *item;
  copy->id = g_strdup (item->id);
  copy->title = g_strdup (item->title);
  copy->params = g_strdup (item->params);
  copy->pattern = item->pattern ? ws_pattern_ref (item->pattern) : NULL;
  copy->kernel = item->kernel ? ws_kernel_instance_ref (item->kernel) : NULL;
  copy->kernel_key = g_strdup (item->kernel_key);
  copy->kernel_spec = item->kernel_spec ? ws_kernel_spec_copy (item->kernel_spec) : NULL;
  return copy;
}

WsDim3
ws_compare_item_get_block (const WsCompareItem *item)
{
  return item->kernel ? ws_kernel_instance_get_block (item->kernel) : ws_pattern_get_block (item->pattern);
}

GPtrArray *
ws_compare_parse_list (const char *list,
                       GError    **error)
{
  g_auto (GStrv) specs = g_strsplit (list, ",", -1);
  g_autoptr (GPtrArray) items = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_compare_item_free);

  for (guint i = 0; specs[i]; i++)
    {
      WsCompareItem *item;

      if (*g_strstrip (specs[i]) == '\0')
        continue;
      if ((item = ws_compare_item_new (specs[i], error)) == NULL)
        return NULL;
      g_ptr_array_add (items, item);
    }
  ws_compare_items_name (items);
  return g_steal_pointer (&items);
}

WsWarpResult *
ws_compare_item_analyze (const WsCompareItem *item,
                         GError             **error)
{
  if (item->kernel)
    return ws_compare_kernel_analyze (item, error);
  return ws_model_analyze_warp (item->pattern, item->access, WS_DIM3 (0, 0, 0), 0, error);
}

char *
ws_compare_item_describe (const WsCompareItem *item)
{
  g_return_val_if_fail (item != NULL, NULL);

  if (item->kernel)
    return ws_compare_kernel_describe (item, FALSE);
  return ws_pattern_describe_access (item->pattern, item->access);
}

char *
ws_compare_item_caption (const WsCompareItem *item)
{
  return ws_compare_item_dup_caption (item, NULL);
}

char *
ws_compare_item_dup_caption (const WsCompareItem *item,
                             WsGettextFunc        gettext_func)
{
  g_autofree char *title = ws_compare_item_dup_title (item, gettext_func);
  g_autofree char *what = item->kernel ? ws_compare_kernel_describe (item, TRUE) : ws_compare_item_describe (item);

  return g_strdup_printf ("%s: %s", title, what);
}

/* ------------------------------------------------------------------ */
/* The model's cost                                                   */
/* ------------------------------------------------------------------ */

gboolean
ws_compare_cost_compute (const WsPattern *pattern,
                         WsCompareCost   *cost,
                         GCancellable    *cancellable,
                         GError         **error)
{
  g_autoptr (WsLaunchStats) stats = ws_model_analyze_launch (pattern, cancellable, error);

  *cost = (WsCompareCost) { 0 };
  if (stats == NULL)
    return FALSE;
  for (guint i = 0; i < stats->n_accesses; i++)
    ws_compare_cost_add (cost, ws_pattern_get_access (pattern, i)->space, &stats->accesses[i]);
  ws_compare_cost_finish (cost, stats->warps);
  return TRUE;
}

void
ws_compare_cost_add (WsCompareCost *cost,
                     WsSpace        space,
                     const WsStats *stats)
{
  switch (space)
    {
    case WS_SPACE_GLOBAL:
    case WS_SPACE_LOCAL:
      cost->bytes += stats->bytes_moved;
      break;
    case WS_SPACE_SHARED:
      cost->wavefronts += stats->wavefronts;
      break;
    case WS_SPACE_CONSTANT:
      cost->requests += stats->requests;
      break;
    case WS_SPACE_REGISTER:
    case WS_N_SPACES:
    default:
      break;
    }
}

void
ws_compare_cost_finish (WsCompareCost *cost,
                        guint64        warps)
{
  if (warps > 0)
    {
      cost->bytes /= warps;
      cost->wavefronts /= warps;
      cost->requests /= warps;
    }
  cost->known = TRUE;
}

gboolean
ws_compare_item_cost (const WsCompareItem *item,
                      WsCompareCost       *cost,
                      GCancellable        *cancellable,
                      GError             **error)
{
  if (item->kernel)
    return ws_compare_kernel_cost (item, cost, cancellable, error);
  return ws_compare_cost_compute (item->pattern, cost, cancellable, error);
}
