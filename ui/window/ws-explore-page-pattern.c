/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the Explore page shows: a preset or a pattern of one's own, as the
 * editor changes it; the model of the warp in the views (microseconds, on
 * the main thread) and of the whole launch (up to half a second for a big
 * one, on the session's model thread, cancelled when the pattern moves on);
 * and nothing stale while the editor says the pattern is wrong. */
#include "ws-config.h"

#include <glib/gi18n.h>
#include "ws-explore-page-private.h"
#include "ws-compare.h"
#include "ws-plot.h"
#include "ws-plot-model.h"

#include <math.h>

/* ------------------------------------------------------------------ */
/* The model                                                          */
/* ------------------------------------------------------------------ */

char *
ws_explore_page_describe_pattern (WsExplorePage *self)
{
  guint access;
  WsDim3 b;
  g_autofree char *what = NULL;

  g_return_val_if_fail (WS_IS_EXPLORE_PAGE (self), NULL);
  g_return_val_if_fail (self->pattern != NULL, NULL);

  access = ws_pattern_editor_get_access (self->editor);
  b = ws_pattern_editor_get_block_idx (self->editor);
  what = ws_pattern_describe_access (self->pattern, access);
  return g_strdup_printf ("%s — warp %u of block (%u, %u, %u)", what, ws_pattern_editor_get_warp (self->editor), b.x,
                          b.y, b.z);
}

WsSpace
ws_explore_page_shown_space (WsExplorePage *self)
{
  g_return_val_if_fail (WS_IS_EXPLORE_PAGE (self), WS_SPACE_GLOBAL);
  g_return_val_if_fail (self->pattern != NULL, WS_SPACE_GLOBAL);

  return ws_pattern_get_access (self->pattern, ws_pattern_editor_get_access (self->editor))->space;
}

static void
show_result (WsExplorePage *self)
{
  g_autofree char *title = ws_explore_page_describe_pattern (self);
  WsTopicView topic;
  gboolean has_topic = ws_topic_view_for (self->preset, &topic);

  ws_explore_page_show_result (self, self->result, title, ws_pattern_get_block (self->pattern),
                               has_topic ? &topic : NULL, self->opening_preset);
  self->opening_preset = FALSE;
}

static void
analyze_warp (WsExplorePage *self)
{
  g_autoptr (GError) error = NULL;
  WsWarpResult *r;

  r = ws_model_analyze_warp (self->pattern, ws_pattern_editor_get_access (self->editor),
                             ws_pattern_editor_get_block_idx (self->editor), ws_pattern_editor_get_warp (self->editor),
                             &error);
  if (r == NULL)
    {
      /* the last good view stays; the editor says what is wrong */
      ws_pattern_editor_show_error (self->editor, error->message);
      return;
    }
  g_clear_pointer (&self->result, ws_warp_result_free);
  self->result = r;
  show_result (self);
}

static void
show_launch (WsExplorePage *self)
{
  guint access = ws_pattern_editor_get_access (self->editor);
  const WsAccess *a = ws_pattern_get_access (self->pattern, access);
  g_autofree char *what = NULL;

  if (self->launch == NULL || access >= self->launch->n_accesses)
    {
      ws_numbers_view_set_model (self->numbers, NULL, a->space, a->kind, _("Analysing the whole launch…"));
      return;
    }
  what = g_strdup_printf (_("Instruction %u of the whole launch: %llu warps in %llu blocks, analysed in %.0f ms"),
                          access + 1, (unsigned long long) self->launch->warps,
                          (unsigned long long) self->launch->blocks, self->launch->seconds * 1e3);
  ws_numbers_view_set_model (self->numbers, &self->launch->accesses[access], a->space, a->kind, what);
}

/* The Hierarchy view follows the launch below L1 once the launch's own
 * figures are in: they are what the other views show. */
static void
follow_hierarchy (WsExplorePage *self)
{
  ws_hierarchy_page_follow (self->hierarchy_page, self->preset, self->pattern, self->edited,
                            self->launch != NULL && self->launch->pattern == self->pattern);
}

static char *
profile_description (WsExplorePage         *self,
                     const WsDeviceProfile *profile)
{
  g_autofree char *name = NULL;
  g_autofree char *source = NULL;

  if (profile == NULL)
    return g_strdup (_("No device to follow the launch on"));
  /* a profile's name, and where it came from (a path), are a file's */
  name = ws_text_for_message (profile->name ? profile->name : profile->id);
  source = ws_text_for_message (ws_session_get_profile_source (self->session));
  return g_strdup_printf (_("The whole launch on the %s: %s"), name, source);
}

/* The numbers follow the Hierarchy view's model: the launch below L1 and
 * its predicted time. */
static void
show_hierarchy_numbers (WsExplorePage *self)
{
  const WsDeviceProfile *profile = self->session ? ws_session_get_device_profile (self->session) : NULL;
  const WsPlotModel *model = ws_hierarchy_page_get_model (self->hierarchy_page);
  const char *error = ws_hierarchy_page_get_error (self->hierarchy_page);
  g_autofree char *what = profile_description (self, profile);
  const char *state = NULL;

  if (profile == NULL)
    state = NULL;
  else if (model == NULL)
    state = error ? error : _("Following the launch through L1, L2 and DRAM…");
  ws_numbers_view_set_hierarchy (self->numbers, model ? &model->total : NULL, what, state,
                                 self->session && ws_session_get_device (self->session) != NULL);
  if (model && !isnan (model->predicted_s))
    {
      g_autofree char *levels = ws_plot_model_describe_levels (model);
      const char *bound = ws_plot_model_bound_name (model);

      ws_numbers_view_set_prediction (self->numbers, model->predicted_s, bound ? _(bound) : NULL, levels);
    }
  else
    ws_numbers_view_set_prediction (self->numbers, NAN, NULL, NULL);
}

static gpointer
analyze_launch_job (gpointer      data,
                    GCancellable *cancellable,
                    GError      **error)
{
  return ws_model_analyze_launch (data, cancellable, error);
}

static void
analyze_launch_done (GObject      *source,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  g_autoptr (WsExplorePage) self = user_data;
  g_autoptr (GError) error = NULL;
  WsLaunchStats *stats = ws_session_model_finish (WS_SESSION (source), result, &error);

  if (stats == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        ws_pattern_editor_show_error (self->editor, error->message);
      return;
    }
  g_clear_pointer (&self->launch, ws_launch_stats_free);
  self->launch = stats;
  show_launch (self);
  follow_hierarchy (self);
  /* the counters' figure is set beside the model's */
  ws_explore_page_show_measured (self);
  g_signal_emit (self, ws_explore_page_signals[WS_EXPLORE_PAGE_SIGNAL_LAUNCH_CHANGED], 0);
}

/* The warp in the views, then the whole launch, unless it is already
 * modelled for this very pattern. */
static void
analyze (WsExplorePage *self)
{
  analyze_warp (self);
  if (self->launch && self->launch->pattern == self->pattern)
    {
      show_launch (self);
      return;
    }
  g_cancellable_cancel (self->model_cancellable);
  g_clear_object (&self->model_cancellable);
  self->model_cancellable = g_cancellable_new ();
  g_clear_pointer (&self->launch, ws_launch_stats_free);
  show_launch (self);
  follow_hierarchy (self);
  g_signal_emit (self, ws_explore_page_signals[WS_EXPLORE_PAGE_SIGNAL_LAUNCH_CHANGED], 0);
  if (self->session == NULL)
    return;
  ws_session_model_async (self->session, NULL, analyze_launch_job, ws_pattern_ref (self->pattern),
                          (GDestroyNotify) ws_pattern_unref, NULL, (GDestroyNotify) ws_launch_stats_free,
                          self->model_cancellable, analyze_launch_done, g_object_ref (self));
}

/* ------------------------------------------------------------------ */
/* Presets and edits                                                  */
/* ------------------------------------------------------------------ */

static void
set_pattern (WsExplorePage *self,
             WsPattern     *pattern)
{
  g_clear_pointer (&self->pattern, ws_pattern_unref);
  self->pattern = ws_pattern_ref (pattern);
  self->edited = ws_preset_differs (self->preset, self->pattern);
}

static void
pattern_changed (WsExplorePage *self)
{
  g_signal_emit (self, ws_explore_page_signals[WS_EXPLORE_PAGE_SIGNAL_PATTERN_CHANGED], 0);
}

void
ws_explore_page_show_preset (WsExplorePage  *self,
                             const WsPreset *preset)
{
  g_autoptr (WsPattern) pattern = NULL;

  g_return_if_fail (WS_IS_EXPLORE_PAGE (self));
  g_return_if_fail (preset != NULL);

  self->preset = preset;
  pattern = ws_preset_build (preset);
  /* open on the instruction that says most (a tiled transpose: its tile) */
  ws_pattern_editor_set_pattern_at (self->editor, pattern, ws_compare_main_access (pattern));
  set_pattern (self, ws_pattern_editor_get_pattern (self->editor));
  ws_preset_intro_show_preset (self->preset_intro, preset);
  /* a new preset opens on its topic's view, if it has one, and its plot on
   * what its lesson is about */
  self->opening_preset = TRUE;
  ws_plot_panel_reset_metric (self->plot_panel, ws_plot_metric_for (preset));
  analyze (self);
  ws_explore_page_schedule_measurement (self);
  pattern_changed (self);
}

void
ws_explore_page_show_pattern (WsExplorePage *self,
                              WsPattern     *pattern)
{
  g_return_if_fail (WS_IS_EXPLORE_PAGE (self));
  g_return_if_fail (pattern != NULL);

  self->preset = NULL;
  ws_pattern_editor_set_pattern (self->editor, pattern);
  set_pattern (self, ws_pattern_editor_get_pattern (self->editor));
  ws_preset_intro_show_own (self->preset_intro, NULL);
  analyze (self);
  ws_explore_page_schedule_measurement (self);
  pattern_changed (self);
}

/* Whether the pattern is still the preset's but for its parameters'
 * values: a changed index, space, access or launch makes it one's own. */
static gboolean
same_shape (const WsPreset  *preset,
            const WsPattern *pattern)
{
  g_autoptr (WsPattern) reference = ws_preset_build (preset);
  g_autofree char *a = NULL;
  g_autofree char *b = NULL;

  for (guint i = 0; i < ws_pattern_get_n_params (pattern); i++)
    {
      const WsParam *p = ws_pattern_get_param_nth (pattern, i);
      ws_pattern_set_param (reference, p->name, p->value, NULL);
    }
  /* the launch the preset's kernel makes for those values */
  ws_preset_fit_grid (preset, reference, NULL);
  a = ws_pattern_to_string (reference);
  b = ws_pattern_to_string (pattern);
  return g_strcmp0 (a, b) == 0;
}

/* Whether a parameter's name appears as a name in any of the pattern's texts. */
static gboolean
uses_name (const WsPattern *pattern,
           const char      *name)
{
  g_autofree char *quoted = g_regex_escape_string (name, -1);
  g_autofree char *re = g_strdup_printf ("(^|[^A-Za-z0-9_])%s($|[^A-Za-z0-9_])", quoted);
  g_autoptr (GRegex) regex = g_regex_new (re, 0, 0, NULL);

  if (g_regex_match (regex, ws_pattern_get_guard_text (pattern) ? ws_pattern_get_guard_text (pattern) : "", 0, NULL))
    return TRUE;
  for (guint i = 0; i < ws_pattern_get_n_definitions (pattern); i++)
    if (g_regex_match (regex, ws_pattern_get_definition (pattern, i)->text, 0, NULL))
      return TRUE;
  for (guint i = 0; i < ws_pattern_get_n_accesses (pattern); i++)
    {
      const WsAccess *a = ws_pattern_get_access (pattern, i);
      if (g_regex_match (regex, a->index_text, 0, NULL) || (a->elem_from_param && g_str_equal (name, "elem_size")))
        return TRUE;
    }
  return FALSE;
}

/* The pattern less the parameters nothing in it reads any more (the
 * offset of a misaligned load edited to i * 2). */
static WsPattern *
without_unused (const WsPattern *pattern)
{
  g_autoptr (WsPattern) out = ws_pattern_new ();
  g_autoptr (GError) error = NULL;

  for (guint i = 0; i < ws_pattern_get_n_params (pattern); i++)
    {
      const WsParam *p = ws_pattern_get_param_nth (pattern, i);
      if (!uses_name (pattern, p->name))
        continue;
      ws_pattern_set_param (out, p->name, p->value, NULL);
      ws_pattern_set_param_range (out, p->name, p->min, p->max, p->description);
    }
  if (!ws_pattern_set_block (out, ws_pattern_get_block (pattern), &error) ||
      !ws_pattern_set_grid (out, ws_pattern_get_grid (pattern), &error))
    return NULL;
  for (guint i = 0; i < ws_pattern_get_n_definitions (pattern); i++)
    if (!ws_pattern_add_definition (out, ws_pattern_get_definition (pattern, i)->name,
                                    ws_pattern_get_definition (pattern, i)->text, &error))
      return NULL;
  if (ws_pattern_get_guard_text (pattern) && !ws_pattern_set_guard (out, ws_pattern_get_guard_text (pattern), &error))
    return NULL;
  for (guint i = 0; i < ws_pattern_get_n_accesses (pattern); i++)
    {
      const WsAccess *a = ws_pattern_get_access (pattern, i);
      if (!ws_pattern_add_access (out, a->array, a->space, a->kind, a->elem_size, a->index_text, a->base, &error) ||
          (a->elem_from_param && !ws_pattern_bind_elem_size (out, i, &error)))
        return NULL;
    }
  return ws_pattern_validate (out, NULL) ? g_steal_pointer (&out) : NULL;
}

/* An edited preset is a pattern of one's own, and says so: its title
 * names where it came from, the lesson (which was about the preset's
 * pattern) gives way, the parameters it no longer reads go, and its plot
 * is its own, with its model. */
static void
become_own (WsExplorePage *self)
{
  g_autoptr (WsPattern) trimmed = without_unused (self->pattern);

  ws_preset_intro_show_own (self->preset_intro, self->preset);
  self->preset = NULL;
  if (trimmed)
    {
      ws_pattern_editor_set_pattern_at (self->editor, trimmed, ws_pattern_editor_get_access (self->editor));
      set_pattern (self, ws_pattern_editor_get_pattern (self->editor));
    }
  self->edited = TRUE;
}

static void
on_pattern_changed (WsExplorePage *self)
{
  set_pattern (self, ws_pattern_editor_get_pattern (self->editor));
  if (self->preset && !same_shape (self->preset, self->pattern))
    become_own (self);
  if (self->pattern_wrong)
    {
      self->pattern_wrong = FALSE;
      ws_plot_panel_set_status (self->plot_panel, NULL);
    }
  analyze (self);
  ws_explore_page_schedule_measurement (self);
  pattern_changed (self);
}

static void
shown_changed (WsExplorePage *self)
{
  g_signal_emit (self, ws_explore_page_signals[WS_EXPLORE_PAGE_SIGNAL_SHOWN_CHANGED], 0);
}

/* A wrong pattern draws nothing stale: the views and the plot's model
 * wait, saying so, until the editor has a pattern again. */
static gboolean
restore_after_error (gpointer data)
{
  WsExplorePage *self = data;

  self->wrong_idle = 0;
  if (!self->pattern_wrong || ws_pattern_editor_get_error (self->editor))
    return G_SOURCE_REMOVE;
  self->pattern_wrong = FALSE;
  analyze (self);
  ws_plot_panel_set_status (self->plot_panel, NULL);
  shown_changed (self);
  return G_SOURCE_REMOVE;
}

static void
on_editor_error (WsExplorePage *self)
{
  if (ws_pattern_editor_get_error (self->editor) == NULL)
    {
      /* a pattern again, or just a moment between two checks */
      if (self->pattern_wrong && self->wrong_idle == 0)
        self->wrong_idle = g_idle_add (restore_after_error, self);
      return;
    }
  if (self->pattern_wrong)
    return;
  self->pattern_wrong = TRUE;
  for (guint k = 0; k < WS_N_FIGURES; k++)
    ws_figure_view_set_result (self->views[k], NULL, NULL, WS_DIM3 (0, 0, 0));
  ws_hierarchy_page_clear (self->hierarchy_page);
  for (guint v = 0; v < WS_N_TOPIC_VIEWS; v++)
    ws_launch_view_set_figure (self->launch_views[v], NULL);
  ws_plot_panel_set_status (self->plot_panel, _("The pattern has an error"));
  shown_changed (self);
}

/* Another instruction, block or warp in view. */
static void
on_selection_changed (WsExplorePage *self)
{
  analyze (self);
  shown_changed (self);
}

const char *
ws_explore_page_get_pattern_error (WsExplorePage *self)
{
  const char *error;

  g_return_val_if_fail (WS_IS_EXPLORE_PAGE (self), NULL);

  error = ws_pattern_editor_get_error (self->editor);
  if (error == NULL && self->pattern_wrong)
    return _("it has an error");
  return error;
}

/* ------------------------------------------------------------------ */
/* What it shows                                                      */
/* ------------------------------------------------------------------ */

const WsPreset *
ws_explore_page_get_preset (WsExplorePage *self)
{
  g_return_val_if_fail (WS_IS_EXPLORE_PAGE (self), NULL);
  return self->preset;
}

WsPattern *
ws_explore_page_get_pattern (WsExplorePage *self)
{
  g_return_val_if_fail (WS_IS_EXPLORE_PAGE (self), NULL);
  return self->pattern;
}

gboolean
ws_explore_page_get_edited (WsExplorePage *self)
{
  g_return_val_if_fail (WS_IS_EXPLORE_PAGE (self), FALSE);
  return self->edited;
}

gboolean
ws_explore_page_get_pattern_wrong (WsExplorePage *self)
{
  g_return_val_if_fail (WS_IS_EXPLORE_PAGE (self), FALSE);
  return self->pattern_wrong;
}

const WsWarpResult *
ws_explore_page_get_result (WsExplorePage *self)
{
  g_return_val_if_fail (WS_IS_EXPLORE_PAGE (self), NULL);
  return self->result;
}

const WsLaunchStats *
ws_explore_page_get_launch (WsExplorePage *self)
{
  g_return_val_if_fail (WS_IS_EXPLORE_PAGE (self), NULL);
  return self->launch;
}

WsSession *
ws_explore_page_get_session (WsExplorePage *self)
{
  g_return_val_if_fail (WS_IS_EXPLORE_PAGE (self), NULL);
  return self->session;
}

void
ws_explore_page_set_session (WsExplorePage *self,
                             WsSession     *session)
{
  g_autoptr (WsSession) old = NULL;

  g_return_if_fail (WS_IS_EXPLORE_PAGE (self));
  g_return_if_fail (session == NULL || WS_IS_SESSION (session));

  old = self->session ? g_object_ref (self->session) : NULL;
  if (!g_set_object (&self->session, session))
    return;
  g_object_notify (G_OBJECT (self), "session");
  ws_explore_page_measure_follow (self, old);
  ws_hierarchy_page_set_session (self->hierarchy_page, session);
  ws_plot_panel_set_session (self->plot_panel, session);
  /* the launch is modelled on the session's thread */
  if (self->pattern)
    {
      g_clear_pointer (&self->launch, ws_launch_stats_free);
      analyze (self);
    }
}

void
ws_explore_page_pattern_init (WsExplorePage *self)
{
  self->model_cancellable = g_cancellable_new ();
  g_signal_connect_object (self->editor, "pattern-changed", G_CALLBACK (on_pattern_changed), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->editor, "selection-changed", G_CALLBACK (on_selection_changed), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->editor, "error-changed", G_CALLBACK (on_editor_error), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->hierarchy_page, "changed", G_CALLBACK (show_hierarchy_numbers), self,
                           G_CONNECT_SWAPPED);
}

void
ws_explore_page_pattern_dispose (WsExplorePage *self)
{
  g_clear_handle_id (&self->wrong_idle, g_source_remove);
  g_cancellable_cancel (self->model_cancellable);
}

void
ws_explore_page_pattern_finalize (WsExplorePage *self)
{
  g_clear_object (&self->model_cancellable);
  g_clear_object (&self->session);
  g_clear_pointer (&self->pattern, ws_pattern_unref);
  g_clear_pointer (&self->result, ws_warp_result_free);
  g_clear_pointer (&self->launch, ws_launch_stats_free);
}
