/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Modelling a kernel text as it is typed. Three jobs, each a GTask on a
 * thread: the launch (read, check, size the arrays) with the current
 * line's warps, then the whole launch's prediction; and the warps alone,
 * when only the line or the warp changes. Each job carries the generation
 * of the text (and of the warp chosen) it was started for; a newer text
 * cancels the jobs of the older one, and whatever still comes back for it
 * is dropped. */
#include "ws-config.h"
#include "ws-kernel-modeller.h"

#include <glib/gi18n-lib.h>
#include <string.h>

typedef struct
{
  guint line;
  WsDim3 block_idx;
  guint warp;
  guint execution;
} WarpChoice;

typedef struct
{
  guint site;
  WsWarpResult *result;
  char *why_not;
} LineWarp;

struct _WsKernelModeller
{
  GObject parent_instance;

  WsKernelSpec *spec;
  WsDeviceProfile *profile;
  guint registers;
  WarpChoice choice;

  guint64 text_generation;      /* of the text: its launch */
  guint64 model_generation;     /* of the launch modelled: its prediction and warps */
  guint64 warp_generation;      /* of the warp chosen */
  gboolean model_stale;         /* the device changed: the next launch is modelled anew */
  GCancellable *text_cancellable;
  GCancellable *model_cancellable;
  gboolean launching;
  gboolean predicting;
  gboolean warping;
  gboolean busy;                 /* as last notified */

  WsKernelInstance *instance;
  GArray *warps;                 /* LineWarp */
  WsKernelPrediction *prediction;
  guint64 prediction_serial;      /* counts the predictions made (kept ones do not count) */
  GError *error;
};

enum
{
  PROP_0,
  PROP_BUSY,
  N_PROPS
};

enum
{
  SIGNAL_WARP_READY,
  SIGNAL_PREDICTION_READY,
  SIGNAL_FAILED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (WsKernelModeller, ws_kernel_modeller, G_TYPE_OBJECT)

static void
line_warp_clear (LineWarp *w)
{
  g_clear_pointer (&w->result, ws_warp_result_free);
  g_clear_pointer (&w->why_not, g_free);
}

static GArray *
line_warps_new (void)
{
  GArray *warps = g_array_new (FALSE, TRUE, sizeof (LineWarp));

  g_array_set_clear_func (warps, (GDestroyNotify) line_warp_clear);
  return warps;
}

/* The chosen warp's events at the line's sites, gathered in one run of its
 * block (whose memory is filled once for all of them). */
typedef struct
{
  const WarpChoice *choice;
  GArray *warps;                 /* LineWarp, in site order */
  guint *seen;                   /* per warp: executions so far */
  gint64 (*address)[WS_WARP_SIZE];
  guint32 *active;
  guint32 *valid;
  guint n_found;
} Gather;

static gboolean
gather_event (const WsKernelEvent *ev,
              gpointer             user_data,
              GError             **error)
{
  Gather *g = user_data;

  if (ev->warp != g->choice->warp)
    return TRUE;
  for (guint k = 0; k < g->warps->len; k++)
    {
      if (g_array_index (g->warps, LineWarp, k).site != ev->site || g->seen[k]++ != g->choice->execution)
        continue;
      memcpy (g->address[k], ev->address, sizeof g->address[k]);
      g->active[k] = ev->active;
      g->valid[k] = ev->valid;
      if (++g->n_found == g->warps->len)
        {
          /* all there: the rest of the block is not needed */
          g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, "found");
          return FALSE;
        }
    }
  return TRUE;
}

/* What ws_kernel_analyze_warp () makes of an event: each lane's element
 * and address (a private word's place in the warp's interleaved slice of
 * local memory), its bank, the counts and the schedule. */
static WsWarpResult *
warp_result_new (const WsKernelSite *s,
                 guint               site,
                 const WarpChoice   *choice,
                 guint32             valid,
                 guint32             active,
                 const gint64       *address)
{
  WsWarpResult *r = g_new0 (WsWarpResult, 1);

  r->access = site;
  r->block_idx = choice->block_idx;
  r->warp = choice->warp;
  r->space = s->space;
  r->kind = s->kind;
  r->elem_size = s->elem_size;
  r->valid = valid;
  r->active = active;
  r->steps = g_array_new (FALSE, FALSE, sizeof (WsStep));
  for (guint l = 0; l < WS_WARP_SIZE; l++)
    {
      gint64 a = address[l];

      r->index[l] = a >= 0 ? a / (gint64) s->elem_size : -1;
      if (s->space == WS_SPACE_LOCAL || s->space == WS_SPACE_REGISTER)
        {
          r->private_offset[l] = a;
          r->address[l] = (gint64) ((((guint64) (a >> 2) * WS_WARP_SIZE + l) * WS_BANK_BYTES) + (guint64) (a & 3));
        }
      else
        r->address[l] = a;
      r->bank[l] = (guint8) ((r->address[l] >> 2) & (WS_N_BANKS - 1));
    }
  ws_model_count_warp (s->space, s->kind, s->elem_size, active, address, &r->counts, r->steps);
  return r;
}

/* One warp's instruction at each site of the chosen line (in a thread). */
/* A line's accesses the page lists: not those nvcc never makes (kept in a
 * register through a loop; the page says so instead). */
static gboolean
listed (const WsKernelSite *site,
        guint               line)
{
  return site->line == line && site->keep != WS_KERNEL_KEEP_NEVER;
}

static GArray *
model_warps (const WsKernelInstance *instance,
             const WarpChoice       *choice)
{
  GArray *warps = line_warps_new ();
  WsDim3 grid = ws_kernel_instance_get_grid (instance);
  guint per_block = (guint) ((ws_dim3_count (ws_kernel_instance_get_block (instance)) + WS_WARP_SIZE - 1) /
                             WS_WARP_SIZE);
  g_autoptr (WsKernelMemory) memory = NULL;
  g_autoptr (GError) error = NULL;
  Gather g = { choice, warps };
  guint64 linear;

  for (guint i = 0; i < ws_kernel_instance_get_n_sites (instance); i++)
    if (listed (ws_kernel_instance_get_site (instance, i), choice->line))
      g_array_append_val (warps, ((LineWarp) { .site = i }));
  if (warps->len == 0)
    return warps;
  if (choice->warp >= per_block || choice->block_idx.x >= grid.x || choice->block_idx.y >= grid.y ||
      choice->block_idx.z >= grid.z)
    {
      for (guint k = 0; k < warps->len; k++)
        /* Translators: a warp and a block the user chose, then how many warps a block of the launch has */
        g_array_index (warps, LineWarp, k).why_not =
          g_strdup_printf (_("there is no warp %u or block (%u, %u, %u) in this launch of %u warps per block"),
                           choice->warp, choice->block_idx.x, choice->block_idx.y, choice->block_idx.z, per_block);
      return warps;
    }
  g.seen = g_new0 (guint, warps->len);
  g.address = g_malloc0_n (warps->len, sizeof g.address[0]);
  g.active = g_new0 (guint32, warps->len);
  g.valid = g_new0 (guint32, warps->len);
  memory = ws_kernel_memory_new (instance);
  linear = choice->block_idx.x + (guint64) grid.x * (choice->block_idx.y + (guint64) grid.y * choice->block_idx.z);
  ws_kernel_run_blocks (instance, memory, linear, 1, gather_event, &g, NULL, NULL, NULL, NULL, &error);
  for (guint k = 0; k < warps->len; k++)
    {
      LineWarp *w = &g_array_index (warps, LineWarp, k);
      const WsKernelSite *s = ws_kernel_instance_get_site (instance, w->site);

      if (g.seen[k] > choice->execution)
        w->result = warp_result_new (s, w->site, choice, g.valid[k], g.active[k], g.address[k]);
      else if (error && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        w->why_not = g_strdup (error->message);
      else
        /* Translators: a warp, its block, a source line and the access
         * there; how often the warp runs it, and the execution chosen */
        w->why_not = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                   "warp %u of block (%u, %u, %u) runs line %u's %s %u time, not %u",
                                                   "warp %u of block (%u, %u, %u) runs line %u's %s %u times, not %u",
                                                   g.seen[k]),
                                      choice->warp, choice->block_idx.x, choice->block_idx.y, choice->block_idx.z,
                                      s->line, s->text, g.seen[k], choice->execution + 1);
    }
  g_free (g.seen);
  g_free (g.address);
  g_free (g.active);
  g_free (g.valid);
  return warps;
}

static void
update_busy (WsKernelModeller *self)
{
  gboolean busy = self->launching || self->predicting || self->warping;

  if (busy == self->busy)
    return;
  self->busy = busy;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

/* ------------------------------------------------------------------ */
/* The jobs                                                           */
/* ------------------------------------------------------------------ */

typedef struct
{
  GWeakRef self;                /* the modeller: the job does not keep it alive */
  guint64 text_generation;
  guint64 model_generation;
  guint64 warp_generation;
  WsKernelSpec *spec;
  WsKernelInstance *instance;   /* to model; for a launch, the one modelled before */
  gboolean compare;             /* a launch: whether it may keep the model of instance */
  WsDeviceProfile *profile;
  guint registers;
  WarpChoice choice;
} Job;

typedef struct
{
  WsKernelInstance *instance;
  gboolean same;                /* the launch is the one modelled before, but for its text */
  GArray *warps;
  WsKernelPrediction *prediction;
} JobResult;

static void
job_free (Job *job)
{
  g_clear_pointer (&job->spec, ws_kernel_spec_free);
  g_clear_pointer (&job->instance, ws_kernel_instance_unref);
  g_clear_pointer (&job->profile, ws_device_profile_free);
  g_weak_ref_clear (&job->self);
  g_free (job);
}

static void
job_result_free (JobResult *r)
{
  g_clear_pointer (&r->instance, ws_kernel_instance_unref);
  g_clear_pointer (&r->warps, g_array_unref);
  g_clear_pointer (&r->prediction, ws_kernel_prediction_free);
  g_free (r);
}

static Job *
job_new (WsKernelModeller *self)
{
  Job *job = g_new0 (Job, 1);

  job->text_generation = self->text_generation;
  job->model_generation = self->model_generation;
  job->warp_generation = self->warp_generation;
  job->choice = self->choice;
  g_weak_ref_init (&job->self, self);
  return job;
}

static void
run_job (WsKernelModeller    *self,
         Job                 *job,
         GCancellable        *cancellable,
         GTaskThreadFunc      func,
         GAsyncReadyCallback  done)
{
  /* no source object: a modeller let go of goes at once, and what its jobs
   * find comes back to no one */
  g_autoptr (GTask) task = g_task_new (NULL, cancellable, done, NULL);

  g_task_set_task_data (task, job, (GDestroyNotify) job_free);
  g_task_set_check_cancellable (task, TRUE);
  g_task_run_in_thread (task, func);
}

/* Whether two launches model the same, their texts aside: the same checked
 * tree, kernel and launch (a comment typed, lines indented, blank lines
 * added); their memory instructions may have moved, in the same order. */
static gboolean
same_model (const WsKernelInstance *a,
            const WsKernelInstance *b)
{
  WsDim3 ga = ws_kernel_instance_get_grid (a), gb = ws_kernel_instance_get_grid (b);
  WsDim3 ba = ws_kernel_instance_get_block (a), bb = ws_kernel_instance_get_block (b);

  if (!ws_kernel_file_equal (ws_kernel_instance_get_file (a), ws_kernel_instance_get_file (b)) ||
      g_strcmp0 (ws_kernel_instance_get_kernel_name (a), ws_kernel_instance_get_kernel_name (b)) != 0 ||
      memcmp (&ga, &gb, sizeof ga) != 0 || memcmp (&ba, &bb, sizeof ba) != 0 ||
      ws_kernel_instance_get_dynamic_shared (a) != ws_kernel_instance_get_dynamic_shared (b) ||
      ws_kernel_instance_get_n_sites (a) != ws_kernel_instance_get_n_sites (b) ||
      ws_kernel_instance_get_n_params (a) != ws_kernel_instance_get_n_params (b) ||
      ws_kernel_instance_get_n_arrays (a) != ws_kernel_instance_get_n_arrays (b) ||
      ws_kernel_instance_get_n_loops (a) != ws_kernel_instance_get_n_loops (b))
    return FALSE;
  for (guint i = 0; i < ws_kernel_instance_get_n_sites (a); i++)
    {
      const WsKernelSite *x = ws_kernel_instance_get_site (a, i), *y = ws_kernel_instance_get_site (b, i);

      if (x->space != y->space || x->kind != y->kind || x->elem_size != y->elem_size || x->array != y->array)
        return FALSE;
    }
  for (guint i = 0; i < ws_kernel_instance_get_n_params (a); i++)
    if (g_strcmp0 (ws_kernel_instance_get_param (a, i)->value_text, ws_kernel_instance_get_param (b, i)->value_text))
      return FALSE;
  for (guint i = 0; i < ws_kernel_instance_get_n_arrays (a); i++)
    {
      const WsKernelArrayInfo *x = ws_kernel_instance_get_array (a, i), *y = ws_kernel_instance_get_array (b, i);

      if (x->n_elements != y->n_elements || x->offset_elements != y->offset_elements || g_strcmp0 (x->fill, y->fill))
        return FALSE;
    }
  return TRUE;
}

/* Whether the sites on line in a are the sites on it in b (by their order). */
static gboolean
same_sites_on (const WsKernelInstance *a,
               const WsKernelInstance *b,
               guint                   line)
{
  for (guint i = 0; i < ws_kernel_instance_get_n_sites (a); i++)
    if (listed (ws_kernel_instance_get_site (a, i), line) != listed (ws_kernel_instance_get_site (b, i), line))
      return FALSE;
  return TRUE;
}

static void
launch_thread (GTask        *task,
               gpointer      source,
               gpointer      task_data,
               GCancellable *cancellable)
{
  Job *job = task_data;
  JobResult *r = g_new0 (JobResult, 1);
  GError *error = NULL;

  r->instance = ws_kernel_spec_instantiate (job->spec, cancellable, &error);
  if (r->instance == NULL)
    {
      job_result_free (r);
      g_task_return_error (task, error);
      return;
    }
  r->same = job->compare && job->instance && same_model (job->instance, r->instance);
  if (!r->same)
    r->warps = model_warps (r->instance, &job->choice);
  g_task_return_pointer (task, r, (GDestroyNotify) job_result_free);
}

static void
warps_thread (GTask        *task,
              gpointer      source,
              gpointer      task_data,
              GCancellable *cancellable)
{
  Job *job = task_data;
  JobResult *r = g_new0 (JobResult, 1);

  r->warps = model_warps (job->instance, &job->choice);
  g_task_return_pointer (task, r, (GDestroyNotify) job_result_free);
}

static void
predict_thread (GTask        *task,
                gpointer      source,
                gpointer      task_data,
                GCancellable *cancellable)
{
  Job *job = task_data;
  JobResult *r = g_new0 (JobResult, 1);
  GError *error = NULL;

  r->prediction = ws_kernel_predict (job->instance, job->profile, job->registers, cancellable, NULL, &error);
  if (r->prediction == NULL)
    {
      job_result_free (r);
      g_task_return_error (task, error);
      return;
    }
  g_task_return_pointer (task, r, (GDestroyNotify) job_result_free);
}

static void warps_done (GObject *source, GAsyncResult *result, gpointer user_data);
static void predict_done (GObject *source, GAsyncResult *result, gpointer user_data);

static void
start_warps (WsKernelModeller *self)
{
  Job *job = job_new (self);

  job->instance = ws_kernel_instance_ref (self->instance);
  self->warping = TRUE;
  run_job (self, job, self->model_cancellable, warps_thread, warps_done);
  update_busy (self);
}

static void
start_prediction (WsKernelModeller *self)
{
  Job *job = job_new (self);

  job->instance = ws_kernel_instance_ref (self->instance);
  job->profile = self->profile ? ws_device_profile_copy (self->profile) : NULL;
  job->registers = self->registers;
  self->predicting = TRUE;
  run_job (self, job, self->model_cancellable, predict_thread, predict_done);
  update_busy (self);
}

/* What was modelled goes, and the jobs still modelling it. */
static void
drop_model (WsKernelModeller *self)
{
  if (self->model_cancellable)
    g_cancellable_cancel (self->model_cancellable);
  g_clear_object (&self->model_cancellable);
  self->model_cancellable = g_cancellable_new ();
  self->model_generation++;
  self->warp_generation++;
  g_clear_pointer (&self->instance, ws_kernel_instance_unref);
  g_clear_pointer (&self->warps, g_array_unref);
  g_clear_pointer (&self->prediction, ws_kernel_prediction_free);
  self->predicting = self->warping = FALSE;
}

static void
fail (WsKernelModeller *self,
      GError           *error)
{
  g_clear_error (&self->error);
  self->error = error;
  g_signal_emit (self, signals[SIGNAL_FAILED], 0);
}

/* The job's result, or NULL when it was cancelled or failed (*error); in
 * *current, whether it is for what is modelled now (self: the modeller, or
 * NULL where it is gone). */
static JobResult *
job_finish (WsKernelModeller  *self,
            GAsyncResult      *result,
            gboolean          *current,
            GError           **error)
{
  Job *job = g_task_get_task_data (G_TASK (result));

  *current = self != NULL && job->model_generation == self->model_generation;
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
launch_done (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  Job *job = g_task_get_task_data (G_TASK (result));
  g_autoptr (WsKernelModeller) self = g_weak_ref_get (&job->self);
  GError *error = NULL;
  JobResult *r = g_task_propagate_pointer (G_TASK (result), &error);
  gboolean choice_kept;

  if (self == NULL || job->text_generation != self->text_generation)
    {
      /* a newer text has its own launch */
      g_clear_error (&error);
      g_clear_pointer (&r, job_result_free);
      return;
    }
  self->launching = FALSE;
  if (r == NULL)
    {
      drop_model (self);
      update_busy (self);
      fail (self, error);
      return;
    }
  g_clear_error (&self->error);
  if (r->same && self->instance)
    {
      /* the text changed, not what it does: the model stands (its sites in
       * the same order, perhaps moved), and what is still modelling it
       * goes on; the line's warps too, where it has the same sites */
      gboolean sites_kept = same_sites_on (self->instance, r->instance, self->choice.line);

      g_clear_pointer (&self->instance, ws_kernel_instance_unref);
      self->instance = g_steal_pointer (&r->instance);
      job_result_free (r);
      if (job->warp_generation != self->warp_generation || !sites_kept)
        start_warps (self);   /* the line moved meanwhile, or the sites under it */
      else if (self->warps)
        g_signal_emit (self, signals[SIGNAL_WARP_READY], 0);
      update_busy (self);
      if (self->prediction)
        g_signal_emit (self, signals[SIGNAL_PREDICTION_READY], 0);
      return;
    }
  choice_kept = job->warp_generation == self->warp_generation;
  drop_model (self);
  self->model_stale = FALSE;
  self->instance = g_steal_pointer (&r->instance);
  if (choice_kept)
    {
      self->warps = g_steal_pointer (&r->warps);
      g_signal_emit (self, signals[SIGNAL_WARP_READY], 0);
    }
  else
    start_warps (self);   /* the line moved meanwhile */
  job_result_free (r);
  start_prediction (self);
}

static void
warps_done (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  Job *job = g_task_get_task_data (G_TASK (result));
  g_autoptr (WsKernelModeller) self = g_weak_ref_get (&job->self);
  gboolean current;
  JobResult *r = job_finish (self, result, &current, NULL);

  /* the modeller gone, another model, or a newer choice with its own job */
  if (!current || job->warp_generation != self->warp_generation)
    {
      g_clear_pointer (&r, job_result_free);
      return;
    }
  g_assert (r != NULL);
  self->warping = FALSE;
  g_clear_pointer (&self->warps, g_array_unref);
  self->warps = g_steal_pointer (&r->warps);
  job_result_free (r);
  update_busy (self);
  g_signal_emit (self, signals[SIGNAL_WARP_READY], 0);
}

static void
predict_done (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  Job *job = g_task_get_task_data (G_TASK (result));
  g_autoptr (WsKernelModeller) self = g_weak_ref_get (&job->self);
  GError *error = NULL;
  gboolean current;
  JobResult *r = job_finish (self, result, &current, &error);

  if (!current)
    {
      g_clear_error (&error);
      g_clear_pointer (&r, job_result_free);
      return;
    }
  self->predicting = FALSE;
  update_busy (self);
  if (r == NULL)
    {
      /* the launch reads but does not run: out of bounds, a loop too long */
      fail (self, error);
      return;
    }
  self->prediction = g_steal_pointer (&r->prediction);
  self->prediction_serial++;
  job_result_free (r);
  g_signal_emit (self, signals[SIGNAL_PREDICTION_READY], 0);
}

/* ------------------------------------------------------------------ */
/* Asking                                                             */
/* ------------------------------------------------------------------ */

/* A new text: its launch, which keeps the model if it models the same. */
static void
restart (WsKernelModeller *self)
{
  Job *job;

  if (self->spec == NULL)
    return;
  if (self->text_cancellable)
    g_cancellable_cancel (self->text_cancellable);
  g_clear_object (&self->text_cancellable);
  self->text_cancellable = g_cancellable_new ();
  self->text_generation++;
  self->launching = TRUE;
  job = job_new (self);
  job->spec = ws_kernel_spec_copy (self->spec);
  job->instance = self->instance ? ws_kernel_instance_ref (self->instance) : NULL;
  job->compare = !self->model_stale && self->error == NULL;
  run_job (self, job, self->text_cancellable, launch_thread, launch_done);
  update_busy (self);
}

/* Another line or warp on the same text. */
static void
choice_changed (WsKernelModeller *self)
{
  self->warp_generation++;
  /* the launch in flight sees the change when it ends */
  if (self->instance && !self->launching)
    start_warps (self);
}

void
ws_kernel_modeller_set_profile (WsKernelModeller      *self,
                                const WsDeviceProfile *profile,
                                guint                  registers)
{
  g_return_if_fail (WS_IS_KERNEL_MODELLER (self));

  g_clear_pointer (&self->profile, ws_device_profile_free);
  self->profile = profile ? ws_device_profile_copy (profile) : NULL;
  self->registers = registers;
  self->model_stale = TRUE;
  restart (self);
}

void
ws_kernel_modeller_set_spec (WsKernelModeller   *self,
                             const WsKernelSpec *spec)
{
  g_return_if_fail (WS_IS_KERNEL_MODELLER (self));
  g_return_if_fail (spec != NULL);

  g_clear_pointer (&self->spec, ws_kernel_spec_free);
  self->spec = ws_kernel_spec_copy (spec);
  restart (self);
}

void
ws_kernel_modeller_set_text (WsKernelModeller *self,
                             const char       *text)
{
  g_return_if_fail (WS_IS_KERNEL_MODELLER (self));
  g_return_if_fail (text != NULL);

  if (self->spec == NULL)
    self->spec = ws_kernel_spec_new (text, NULL);
  else if (g_strcmp0 (self->spec->text, text) == 0)
    return;
  else
    {
      g_free (self->spec->text);
      self->spec->text = g_strdup (text);
    }
  restart (self);
}

const WsKernelSpec *
ws_kernel_modeller_get_spec (WsKernelModeller *self)
{
  g_return_val_if_fail (WS_IS_KERNEL_MODELLER (self), NULL);
  return self->spec;
}

void
ws_kernel_modeller_set_line (WsKernelModeller *self,
                             guint             line)
{
  g_return_if_fail (WS_IS_KERNEL_MODELLER (self));

  if (self->choice.line == line)
    return;
  self->choice.line = line;
  choice_changed (self);
}

guint
ws_kernel_modeller_get_line (WsKernelModeller *self)
{
  g_return_val_if_fail (WS_IS_KERNEL_MODELLER (self), 0);
  return self->choice.line;
}

void
ws_kernel_modeller_set_warp (WsKernelModeller *self,
                             WsDim3            block_idx,
                             guint             warp,
                             guint             execution)
{
  g_return_if_fail (WS_IS_KERNEL_MODELLER (self));

  if (memcmp (&self->choice.block_idx, &block_idx, sizeof block_idx) == 0 && self->choice.warp == warp &&
      self->choice.execution == execution)
    return;
  self->choice.block_idx = block_idx;
  self->choice.warp = warp;
  self->choice.execution = execution;
  choice_changed (self);
}

/* ------------------------------------------------------------------ */
/* What is current                                                    */
/* ------------------------------------------------------------------ */

gboolean
ws_kernel_modeller_get_busy (WsKernelModeller *self)
{
  g_return_val_if_fail (WS_IS_KERNEL_MODELLER (self), FALSE);
  return self->busy;
}

WsKernelInstance *
ws_kernel_modeller_get_instance (WsKernelModeller *self)
{
  g_return_val_if_fail (WS_IS_KERNEL_MODELLER (self), NULL);
  return self->instance;
}

guint
ws_kernel_modeller_get_n_warps (WsKernelModeller *self)
{
  g_return_val_if_fail (WS_IS_KERNEL_MODELLER (self), 0);
  return self->warps ? self->warps->len : 0;
}

const WsWarpResult *
ws_kernel_modeller_get_warp (WsKernelModeller  *self,
                             guint              i,
                             guint             *site,
                             const char       **why_not)
{
  const LineWarp *w;

  g_return_val_if_fail (WS_IS_KERNEL_MODELLER (self), NULL);
  g_return_val_if_fail (self->warps != NULL && i < self->warps->len, NULL);

  w = &g_array_index (self->warps, LineWarp, i);
  if (site)
    *site = w->site;
  if (why_not)
    *why_not = w->why_not;
  return w->result;
}

const WsKernelPrediction *
ws_kernel_modeller_get_prediction (WsKernelModeller *self)
{
  g_return_val_if_fail (WS_IS_KERNEL_MODELLER (self), NULL);
  return self->prediction;
}

guint64
ws_kernel_modeller_get_prediction_serial (WsKernelModeller *self)
{
  g_return_val_if_fail (WS_IS_KERNEL_MODELLER (self), 0);
  return self->prediction_serial;
}

const GError *
ws_kernel_modeller_get_error (WsKernelModeller *self)
{
  g_return_val_if_fail (WS_IS_KERNEL_MODELLER (self), NULL);
  return self->error;
}

/* ------------------------------------------------------------------ */
/* GObject                                                            */
/* ------------------------------------------------------------------ */

WsKernelModeller *
ws_kernel_modeller_new (void)
{
  return g_object_new (WS_TYPE_KERNEL_MODELLER, NULL);
}

static void
ws_kernel_modeller_dispose (GObject *object)
{
  WsKernelModeller *self = WS_KERNEL_MODELLER (object);

  /* what is still in flight comes back to no one */
  self->text_generation++;
  self->model_generation++;
  if (self->text_cancellable)
    g_cancellable_cancel (self->text_cancellable);
  if (self->model_cancellable)
    g_cancellable_cancel (self->model_cancellable);
  g_clear_object (&self->text_cancellable);
  g_clear_object (&self->model_cancellable);
  G_OBJECT_CLASS (ws_kernel_modeller_parent_class)->dispose (object);
}

static void
ws_kernel_modeller_finalize (GObject *object)
{
  WsKernelModeller *self = WS_KERNEL_MODELLER (object);

  g_clear_pointer (&self->spec, ws_kernel_spec_free);
  g_clear_pointer (&self->profile, ws_device_profile_free);
  g_clear_pointer (&self->instance, ws_kernel_instance_unref);
  g_clear_pointer (&self->warps, g_array_unref);
  g_clear_pointer (&self->prediction, ws_kernel_prediction_free);
  g_clear_error (&self->error);
  G_OBJECT_CLASS (ws_kernel_modeller_parent_class)->finalize (object);
}

static void
ws_kernel_modeller_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  WsKernelModeller *self = WS_KERNEL_MODELLER (object);

  switch (prop_id)
    {
    case PROP_BUSY:
      g_value_set_boolean (value, self->busy);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ws_kernel_modeller_class_init (WsKernelModellerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GType type = G_TYPE_FROM_CLASS (klass);

  object_class->dispose = ws_kernel_modeller_dispose;
  object_class->finalize = ws_kernel_modeller_finalize;
  object_class->get_property = ws_kernel_modeller_get_property;

  properties[PROP_BUSY] = g_param_spec_boolean ("busy", NULL, NULL, FALSE,
                                                G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  signals[SIGNAL_WARP_READY] = g_signal_new ("warp-ready", type, G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                             G_TYPE_NONE, 0);
  signals[SIGNAL_PREDICTION_READY] = g_signal_new ("prediction-ready", type, G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                                   G_TYPE_NONE, 0);
  signals[SIGNAL_FAILED] = g_signal_new ("failed", type, G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
ws_kernel_modeller_init (WsKernelModeller *self)
{
  self->choice.line = 1;
}
