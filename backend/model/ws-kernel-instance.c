/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A kernel at one launch: compiled with its template values, every array
 * sized (as the launch says, or to what the kernel touches, found by
 * running the launch once), every parameter given its value, every array
 * its fill; immutable, shared between threads. */
#include "ws-config.h"
#include "ws-kernel-instance.h"
#include "ws-i18n.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#define CUDA_NAME "ws_kernel"
/* What an array to size may reach while the launch runs to find its size. */
#define SIZING_CAP (G_GUINT64_CONSTANT (16) << 30)
/* An array of the launch: at most 64 GiB. */
#define MAX_ARRAY_BYTES (G_GUINT64_CONSTANT (64) << 30)

static void
note (WsKernelInstance *inst,
      const char       *format,
      ...) G_GNUC_PRINTF (2, 3);

static void
note (WsKernelInstance *inst,
      const char       *format,
      ...)
{
  va_list args;

  va_start (args, format);
  g_ptr_array_insert (inst->notes, (gint) inst->notes->len - 1, g_strdup_vprintf (format, args));
  va_end (args);
}

static void
array_info_free (gpointer data)
{
  WsKernelArrayInfo *a = data;

  g_free (a->name);
  g_free (a->elem_type);
  g_free (a->fill);
  g_free (a);
}

static void
param_free (gpointer data)
{
  WsKernelParam *p = data;

  g_free (p->name);
  g_free (p->type);
  g_free (p->value_text);
  g_free (p);
}

static void
site_clear (gpointer data)
{
  WsKernelSite *s = data;

  g_free (s->text);
}

WsKernelInstance *
ws_kernel_instance_ref (WsKernelInstance *instance)
{
  g_return_val_if_fail (instance != NULL, NULL);

  g_atomic_int_inc (&instance->ref_count);
  return instance;
}

void
ws_kernel_instance_unref (WsKernelInstance *instance)
{
  if (instance == NULL || !g_atomic_int_dec_and_test (&instance->ref_count))
    return;
  if (instance->fills != NULL)
    for (guint i = 0; i < instance->prog->arrays->len; i++)
      wk_fill_free (instance->fills[i]);
  g_free (instance->fills);
  g_clear_pointer (&instance->prog, wk_program_free);
  g_clear_pointer (&instance->template_values, g_hash_table_unref);
  g_clear_pointer (&instance->param_values, g_array_unref);
  g_clear_pointer (&instance->array_infos, g_ptr_array_unref);
  g_clear_pointer (&instance->params, g_ptr_array_unref);
  g_clear_pointer (&instance->sites, g_array_unref);
  g_clear_pointer (&instance->loops, g_array_unref);
  g_clear_pointer (&instance->notes, g_ptr_array_unref);
  g_clear_pointer (&instance->launch_note, ws_kernel_diagnostic_free);
  g_free (instance->cuda_name);
  ws_kernel_file_unref (instance->file);
  g_free (instance);
}

/* ------------------------------------------------------------------ */
/* Pieces                                                             */
/* ------------------------------------------------------------------ */

static gboolean
template_values (WsKernelInstance *inst,
                 WkLaunchValues   *values,
                 GError          **error)
{
  WkFunc *k = inst->kernel;

  inst->template_values = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  for (guint i = 0; i < k->n_tparams; i++)
    {
      WkConst *c = g_new0 (WkConst, 1);
      if (!wk_launch_values_scalar (values, k->tparams[i].name, k->tparams[i].type, c))
        {
          const char *host = wk_launch_values_host_note (values, NULL, NULL, NULL);

          g_free (c);
          if (host != NULL)
            /* Translators: the last %s says what the host code's launch gave, or why it gave nothing */
            wk_set_error_at (error, WS_KERNEL_ERROR_LAUNCH, inst->file->text, inst->file->len, k->tparams[i].pos,
                             _("the template parameter “%s” of %s needs a value: write “%s = …” in the launch "
                               "comment (%s)"), k->tparams[i].name, k->name, k->tparams[i].name, host);
          else
            wk_set_error_at (error, WS_KERNEL_ERROR_LAUNCH, inst->file->text, inst->file->len, k->tparams[i].pos,
                             _("the template parameter “%s” of %s needs a value: write “%s = …” in the launch "
                               "comment"), k->tparams[i].name, k->name, k->tparams[i].name);
          return FALSE;
        }
      g_hash_table_insert (inst->template_values, k->tparams[i].sym, c);
    }
  return TRUE;
}

static char *
const_text (WkConst c)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (c.type->kind == WK_TY_FLOAT)
    return g_strdup (g_ascii_formatd (buf, sizeof buf, "%.9g", c.v.f));
  if (c.type->kind == WK_TY_DOUBLE)
    return g_strdup (g_ascii_formatd (buf, sizeof buf, "%.17g", c.v.f));
  if (wk_type_is_signed (c.type))
    return g_strdup_printf ("%lld", (long long) c.v.i);
  return g_strdup_printf ("%llu", (unsigned long long) c.v.u);
}

static int
param_array (const WkProgram *prog,
             guint            param)
{
  for (guint i = 0; i < prog->arrays->len; i++)
    if (((WkArray *) g_ptr_array_index (prog->arrays, i))->param == (int) param)
      return (int) i;
  return -1;
}

static gboolean
params (WsKernelInstance *inst,
        WkLaunchValues   *values,
        GError          **error)
{
  WkFunc *k = inst->kernel;

  inst->params = g_ptr_array_new_with_free_func (param_free);
  inst->param_values = g_array_new (FALSE, TRUE, sizeof (WkSlot));
  for (guint i = 0; i < k->n_params; i++)
    {
      WkDecl *d = k->params[i];
      WsKernelParam *p = g_new0 (WsKernelParam, 1);
      WkSlot slot = { 0 };

      p->name = g_strdup (d->name);
      p->type = wk_type_to_string (d->type);
      g_ptr_array_add (inst->params, p);
      if (d->type->kind == WK_TY_POINTER)
        {
          int a = param_array (inst->prog, i);
          p->is_pointer = TRUE;
          p->array = (guint) MAX (a, 0);
          p->size = 8;
          g_array_append_val (inst->param_values, slot);
          continue;
        }
      {
        WkConst c;
        if (!wk_launch_values_scalar (values, d->name, d->type, &c))
          {
            const char *host = wk_launch_values_host_note (values, NULL, NULL, NULL);
            if (host != NULL)
              /* Translators: the last %s says what the host code's launch gave, or why it gave nothing */
              wk_set_error_at (error, WS_KERNEL_ERROR_LAUNCH, inst->file->text, inst->file->len, d->name_pos,
                               _("the parameter “%s” of %s needs a value: write “%s = …” in the launch comment (%s)"),
                               d->name, k->name, d->name, host);
            else
              wk_set_error_at (error, WS_KERNEL_ERROR_LAUNCH, inst->file->text, inst->file->len, d->name_pos,
                               _("the parameter “%s” of %s needs a value: write “%s = …” in the launch comment"),
                               d->name, k->name, d->name);
            return FALSE;
          }
        p->kind = wk_type_is_float (d->type) ? WS_KERNEL_SCALAR_FLOAT :
                  wk_type_is_signed (d->type) || d->type->kind == WK_TY_BOOL ? WS_KERNEL_SCALAR_INT :
                  WS_KERNEL_SCALAR_UINT;
        p->size = d->type->size;
        if (d->type->kind == WK_TY_FLOAT)
          {
            float f = (float) c.v.f;
            slot.f = f;
            memcpy (p->value, &f, 4);
          }
        else if (d->type->kind == WK_TY_DOUBLE)
          {
            slot.d = c.v.f;
            memcpy (p->value, &slot.d, 8);
          }
        else
          {
            slot.i = wk_norm_int (wk_type_storage (d->type), c.v.i);
            memcpy (p->value, &slot.i, MIN (p->size, 8));
          }
        p->value_text = const_text (c);
        g_array_append_val (inst->param_values, slot);
      }
    }
  return TRUE;
}

static gboolean
launch_dims (WsKernelInstance *inst,
             WkLaunchValues   *values,
             GError          **error)
{
  gboolean grid_given, block_given;
  guint64 threads, blocks;

  wk_launch_values_dims (values, &inst->grid, &grid_given, &inst->block, &block_given);
  gboolean quiet;
  guint host_start, host_end;
  const char *host = wk_launch_values_host_note (values, &quiet, &host_start, &host_end);

  if (host != NULL && !quiet)
    {
      WkDiag d = { WS_KERNEL_SEVERITY_NOTE, host_start, host_end, 0, (char *) host };

      note (inst, "%s", host);
      inst->launch_note = wk_diag_to_public (&d, inst->file->text, inst->file->len);
    }
  if (!block_given)
    {
      inst->block = WS_DIM3 (256, 1, 1);
      note (inst, _("block not given: 256 threads"));
    }
  if (!grid_given)
    {
      /* enough blocks for a thread per element of the largest array given */
      guint64 most = 0;
      const char *name = NULL;
      threads = ws_dim3_count (inst->block);
      for (guint i = 0; i < inst->kernel->n_params; i++)
        {
          const WkArraySetting *a = wk_launch_values_array (values, inst->kernel->params[i]->name);
          if (a != NULL && a->has_size && a->size > most)
            {
              most = a->size;
              name = a->name;
            }
        }
      blocks = most > 0 ? MIN ((most + threads - 1) / threads, (guint64) G_MAXINT32) : 1;
      inst->grid = WS_DIM3 ((guint) blocks, 1, 1);
      if (name != NULL)
        note (inst, _("grid not given: %llu blocks, a thread for each of the %llu elements of %s"),
              (unsigned long long) blocks, (unsigned long long) most, name);
      else
        note (inst, _("grid not given: 1 block"));
    }
  threads = ws_dim3_count (inst->grid) * ws_dim3_count (inst->block);
  if (threads > WS_MODEL_MAX_THREADS)
    {
      g_set_error (error, WS_KERNEL_ERROR, WS_KERNEL_ERROR_LIMIT,
                   _("the launch has %llu threads; the model follows at most %llu"), (unsigned long long) threads,
                   (unsigned long long) WS_MODEL_MAX_THREADS);
      return FALSE;
    }
  return TRUE;
}

/* A fill, compiled; a constant is kept as its value. */
static WkFill *
make_fill (WsKernelInstance *inst,
           WkLaunchValues   *values,
           WkExpr           *expr,
           GError          **error)
{
  WkFill *fill = g_new0 (WkFill, 1);
  WkConst c;

  fill->value_class = wk_type_arith (expr->type);
  if (wk_const_eval (expr, NULL, &c, NULL) == WK_CONST_OK)
    {
      fill->constant = TRUE;
      fill->value.u = 0;
      if (c.type->kind == WK_TY_FLOAT)
        fill->value.f = (float) c.v.f;
      else if (c.type->kind == WK_TY_DOUBLE)
        fill->value.d = c.v.f;
      else
        fill->value.i = c.v.i;
      fill->value_class = wk_type_arith (c.type);
      return fill;
    }
  fill->prog = wk_compile_fill (inst->file, expr, wk_launch_values_index_sym (values), &fill->dst, error);
  if (fill->prog == NULL)
    {
      g_free (fill);
      return NULL;
    }
  return fill;
}

static void
flatten (const WkExpr *e,
         GPtrArray    *out)
{
  if (e->kind == WK_E_INIT_LIST)
    {
      for (guint i = 0; i < e->n_args; i++)
        flatten (e->args[i], out);
      return;
    }
  g_ptr_array_add (out, (gpointer) e);
}

/* A __constant__ or __device__ declaration's values, as a fill. */
static WkFill *
declared_fill (const WkArray *a)
{
  g_autoptr (GPtrArray) items = g_ptr_array_new ();
  WkFill *fill;

  if (a->sym == NULL || a->sym->decl == NULL || a->sym->decl->init == NULL)
    return NULL;
  flatten (a->sym->decl->init, items);
  fill = g_new0 (WkFill, 1);
  fill->n_table = items->len;
  fill->table = g_new0 (WkSlot, MAX (items->len, 1));
  fill->table_class = g_new0 (WkArith, MAX (items->len, 1));
  for (guint i = 0; i < items->len; i++)
    {
      WkConst c;
      const WkExpr *x = g_ptr_array_index (items, i);
      if (wk_const_eval (x, NULL, &c, NULL) != WK_CONST_OK)
        continue;
      fill->table_class[i] = wk_type_arith (c.type);
      if (c.type->kind == WK_TY_FLOAT)
        fill->table[i].f = (float) c.v.f;
      else if (c.type->kind == WK_TY_DOUBLE)
        fill->table[i].d = c.v.f;
      else
        fill->table[i].i = c.v.i;
    }
  return fill;
}

static gboolean
arrays (WsKernelInstance *inst,
        WkLaunchValues   *values,
        gboolean         *need_sizing,
        GError          **error)
{
  WkProgram *prog = inst->prog;
  guint64 dyn = 0;
  gboolean have_dyn = wk_launch_values_shared (values, &dyn);

  inst->fills = g_new0 (WkFill *, MAX (prog->arrays->len, 1));
  inst->dynamic_shared = 0;
  *need_sizing = FALSE;
  for (guint i = 0; i < prog->arrays->len; i++)
    {
      WkArray *a = g_ptr_array_index (prog->arrays, i);
      const WkArraySetting *s = wk_launch_values_array (values, a->name);
      WkExpr *fill = s != NULL ? s->fill : NULL;

      if (a->space == WS_SPACE_SHARED && a->dynamic_shared)
        {
          if (!have_dyn)
            {
              dyn = ws_dim3_count (inst->block) * a->elem_size;
              note (inst, _("shared not given: %llu bytes of dynamic shared memory, a %s for each thread of the "
                            "block"), (unsigned long long) dyn, a->elem->kind < WK_N_SCALARS ?
                                                                 wk_scalar_name (a->elem->kind) : a->elem->name);
              have_dyn = TRUE;
            }
          inst->dynamic_shared = dyn;
          a->n_elements = dyn / a->elem_size;
          a->bytes = dyn;
          a->shared_offset = (prog->static_shared + 15) & ~(guint64) 15;
          continue;
        }
      if (a->space != WS_SPACE_GLOBAL && a->space != WS_SPACE_CONSTANT)
        continue;
      if (a->param >= 0)
        {
          if (s != NULL && s->has_size)
            {
              if (s->size > MAX_ARRAY_BYTES / a->elem_size)
                {
                  g_set_error (error, WS_KERNEL_ERROR, WS_KERNEL_ERROR_LIMIT,
                               _("%s has %llu elements of %u bytes: more than the 64 GiB an array may have"), a->name,
                               (unsigned long long) s->size, a->elem_size);
                  return FALSE;
                }
              a->n_elements = s->size;
              a->bytes = s->size * a->elem_size;
            }
          else
            *need_sizing = TRUE;
          a->offset_bytes = s != NULL ? s->offset * a->elem_size : 0;
          /* the pointer starts where the launch says, in its array */
          g_array_index (inst->param_values, WkSlot, a->param).i = (gint64) a->offset_bytes;
        }
      if (fill == NULL && (inst->fills[i] = declared_fill (a)) != NULL)
        continue;
      if (fill == NULL)
        {
          /* what is read starts as its indices; what is only written, as zeros */
          const char *text = a->read || a->space == WS_SPACE_CONSTANT ? "i" : "0";
          fill = wk_launch_values_default_fill (values, text);
        }
      inst->fills[i] = make_fill (inst, values, fill, error);
      if (inst->fills[i] == NULL)
        return FALSE;
    }
  if (have_dyn && inst->dynamic_shared == 0 && dyn > 0)
    {
      /* CUDA reserves what the launch gives whether or not the kernel
       * reads it: dynamic shared memory as a dial of the blocks per SM */
      inst->dynamic_shared = dyn;
      note (inst, _("shared is given, but no extern __shared__ array reads it: %llu bytes per block, reserved"),
            (unsigned long long) dyn);
    }
  if (prog->static_shared + inst->dynamic_shared > WS_MAX_SHARED_BYTES)
    {
      g_set_error (error, WS_KERNEL_ERROR, WS_KERNEL_ERROR_LIMIT,
                   _("a block uses %llu bytes of shared memory; a GPU has at most %d"),
                   (unsigned long long) (prog->static_shared + inst->dynamic_shared), WS_MAX_SHARED_BYTES);
      return FALSE;
    }
  if (prog->local_bytes > WS_MAX_LOCAL_BYTES)
    {
      g_set_error (error, WS_KERNEL_ERROR, WS_KERNEL_ERROR_LIMIT,
                   _("a thread's private arrays take %llu bytes; a GPU allows at most %d"),
                   (unsigned long long) prog->local_bytes, WS_MAX_LOCAL_BYTES);
      return FALSE;
    }
  {
    guint64 constant = 0;
    for (guint i = 0; i < prog->arrays->len; i++)
      {
        WkArray *a = g_ptr_array_index (prog->arrays, i);
        if (a->space == WS_SPACE_CONSTANT)
          constant += a->bytes;
      }
    if (constant > WS_MAX_CONSTANT_BYTES)
      {
        g_set_error (error, WS_KERNEL_ERROR, WS_KERNEL_ERROR_LIMIT,
                     _("the __constant__ arrays take %llu bytes; a GPU has %d"), (unsigned long long) constant,
                     WS_MAX_CONSTANT_BYTES);
        return FALSE;
      }
  }
  return TRUE;
}

void
wk_instance_run_init (const WsKernelInstance *inst,
                      WkRun                  *run,
                      WkStore                *stores,
                      WsKernelRunCounts      *counts)
{
  memset (run, 0, sizeof *run);
  run->prog = inst->prog;
  run->stores = stores;
  run->n_stores = inst->prog->arrays->len;
  run->grid = inst->grid;
  run->block = inst->block;
  run->param_values = inst->param_values;
  run->shared_bytes = ((inst->prog->static_shared + 15) & ~(guint64) 15) + inst->dynamic_shared;
  run->step_limit = inst->step_limit;
  run->counts = counts;
}

/* Runs the launch once with the arrays to size unbounded, and sizes them
 * to what it touched. */
static gboolean
size_arrays (WsKernelInstance *inst,
             GCancellable     *cancellable,
             GError          **error)
{
  WkProgram *prog = inst->prog;
  g_autofree WkStore *stores = g_new0 (WkStore, MAX (prog->arrays->len, 1));
  WsKernelRunCounts counts = { 0 };
  WkRun run;
  gboolean ok;

  for (guint i = 0; i < prog->arrays->len; i++)
    {
      WkArray *a = g_ptr_array_index (prog->arrays, i);
      if (a->space != WS_SPACE_GLOBAL && a->space != WS_SPACE_CONSTANT)
        continue;
      if (a->param >= 0 && a->bytes == 0)
        wk_store_init (&stores[i], a, inst->fills[i], SIZING_CAP, TRUE);
      else
        wk_store_init (&stores[i], a, inst->fills[i], a->bytes, FALSE);
    }
  wk_instance_run_init (inst, &run, stores, &counts);
  run.cancellable = cancellable;
  ok = wk_run_blocks (&run, 0, ws_dim3_count (inst->grid), error);
  for (guint i = 0; i < prog->arrays->len; i++)
    {
      WkArray *a = g_ptr_array_index (prog->arrays, i);
      if (ok && stores[i].sizing)
        {
          guint64 n = (stores[i].max_end + a->elem_size - 1) / a->elem_size;
          n = MAX (n, a->offset_bytes / a->elem_size + 1);
          a->n_elements = n;
          a->bytes = n * a->elem_size;
          if (stores[i].max_end == 0)
            note (inst, _("%s is never touched: 1 element"), a->name);
          else
            note (inst,
                  g_dngettext (GETTEXT_PACKAGE, "%s sized to what the kernel touches: %llu element",
                               "%s sized to what the kernel touches: %llu elements", n),
                  a->name, (unsigned long long) n);
        }
      wk_store_clear (&stores[i]);
    }
  return ok;
}

static void
describe (WsKernelInstance *inst,
          WkLaunchValues   *values)
{
  WkProgram *prog = inst->prog;

  inst->array_infos = g_ptr_array_new_with_free_func (array_info_free);
  for (guint i = 0; i < prog->arrays->len; i++)
    {
      WkArray *a = g_ptr_array_index (prog->arrays, i);
      const WkArraySetting *s = wk_launch_values_array (values, a->name);
      WsKernelArrayInfo *info = g_new0 (WsKernelArrayInfo, 1);

      info->name = g_strdup (a->name);
      info->space = a->space;
      info->elem_type = g_strdup (a->elem->kind < WK_N_SCALARS ? wk_scalar_name (a->elem->kind) : a->elem->name);
      info->elem_size = a->elem_size;
      info->elem_align = a->elem->align;
      info->n_elements = a->n_elements;
      info->bytes = a->bytes;
      info->offset_elements = a->offset_bytes / a->elem_size;
      info->size_origin = a->param >= 0 ? (s != NULL && s->has_size ? WS_KERNEL_SIZE_GIVEN : WS_KERNEL_SIZE_INFERRED) :
                          a->dynamic_shared ? WS_KERNEL_SIZE_GIVEN : WS_KERNEL_SIZE_DECLARED;
      info->dynamic_shared = a->dynamic_shared;
      info->param = a->param;
      info->is_const = a->is_const;
      info->read = a->read;
      info->written = a->written;
      if (a->space == WS_SPACE_GLOBAL || a->space == WS_SPACE_CONSTANT)
        {
          info->fill_given = s != NULL && s->fill != NULL;
          if (!info->fill_given && inst->fills[i] != NULL && inst->fills[i]->table != NULL)
            info->fill = wk_text_span (inst->file->text, inst->file->len, a->sym->decl->init->start,
                                       a->sym->decl->init->end);
          else
            {
              info->fill = g_strdup (info->fill_given ? s->fill_text : a->read || a->space == WS_SPACE_CONSTANT ?
                                                                       "i" : "0");
              if (!info->fill_given && (a->read || a->written))
                note (inst, _("%s not filled by the launch: it starts as %s"), a->name, info->fill);
            }
        }
      g_ptr_array_add (inst->array_infos, info);
    }

  inst->sites = g_array_new (FALSE, TRUE, sizeof (WsKernelSite));
  g_array_set_clear_func (inst->sites, site_clear);
  for (guint i = 0; i < prog->sites->len; i++)
    {
      const WkSite *s = &g_array_index (prog->sites, WkSite, i);
      const WkArray *a = g_ptr_array_index (prog->arrays, s->array);
      WsKernelSite site = { 0 };

      site.id = i;
      wk_position (inst->file->text, inst->file->len, s->start, &site.line, &site.column);
      wk_position (inst->file->text, inst->file->len, s->end, &site.end_line, &site.end_column);
      site.text = wk_text_span (inst->file->text, inst->file->len, s->start, s->end);
      site.array = s->array;
      site.array_name = a->name;
      site.space = a->space;
      site.kind = s->kind;
      site.elem_size = s->size;
      site.part = s->part;
      site.joined_size = s->joined;
      site.read_only = s->read_only;
      site.function = s->function;
      site.unroll = MAX (s->unroll, 0);
      site.keep = s->keep == WK_KEEP_ONCE ? WS_KERNEL_KEEP_ONCE :
                  s->keep == WK_KEEP_NEVER ? WS_KERNEL_KEEP_NEVER : WS_KERNEL_KEEP_EVERY;
      if (site.keep != WS_KERNEL_KEEP_EVERY)
        {
          guint col;
          wk_position (inst->file->text, inst->file->len, s->keep_line, &site.keep_line, &col);
        }
      site.forwarded = s->forwarded;
      site.reused = s->reused;
      site.hoisted = s->hoisted;
      g_array_append_val (inst->sites, site);
    }

  inst->loops = g_array_new (FALSE, TRUE, sizeof (WsKernelLoop));
  for (guint i = 0; i < prog->loops->len; i++)
    {
      const WkLoopInfo *l = &g_array_index (prog->loops, WkLoopInfo, i);
      WsKernelLoop loop = { 0 };
      loop.id = i;
      wk_position (inst->file->text, inst->file->len, l->start, &loop.line, &loop.column);
      loop.keyword = l->keyword;
      loop.function = l->function;
      g_array_append_val (inst->loops, loop);
    }
}

/* template <typename T>: the types the launch gives the kernel's type
 * parameters and the device functions', by name (“T = float”), where they
 * await them (empty: none does); NULL and an error naming the first with
 * none. */
static GHashTable *
type_args (const WsKernelFile         *file,
           const WkFunc               *kernel,
           const WsKernelLaunchConfig *config,
           GPtrArray                  *notes,
           GError                    **error)
{
  g_autoptr (GHashTable) types = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  for (guint i = 0; i < file->funcs->len; i++)
    {
      const WkFunc *f = g_ptr_array_index (file->funcs, i);

      if ((f->is_kernel && f != kernel) || !wk_func_awaits_types (f))
        continue;
      for (guint k = 0; k < f->n_type_params; k++)
        {
          const WkTypeParam *tp = &f->type_params[k];
          const char *text = wk_config_value_text (config, tp->name, NULL);

          if (g_hash_table_contains (types, tp->name))
            continue;
          if (text == NULL && f == kernel)
            {
              /* the host code's launch: K<float><<<…>>>, or the type of
               * the pointer it is launched with */
              char *note = NULL;
              char *host = wk_host_type_arg (file, kernel, tp, &note);
              if (host != NULL)
                {
                  g_ptr_array_add (notes, note);
                  g_hash_table_insert (types, g_strdup (tp->name), host);
                  continue;
                }
            }
          if (text == NULL)
            {
              wk_set_error_at (error, WS_KERNEL_ERROR_LAUNCH, file->text, file->len, tp->pos,
                               /* Translators: a template's type parameter, its function, the parameter */
                               _("the template type parameter “%s” of %s needs a type: write “%s = …” in the launch "
                                 "comment, with the type it stands for (float, int, double2…)"),
                               tp->name, f->name, tp->name);
              return NULL;
            }
          g_hash_table_insert (types, g_strdup (tp->name), g_strdup (text));
        }
    }
  return g_steal_pointer (&types);
}

static WsKernelInstance *instance_new (const WsKernelFile         *file,
                                       const WsKernelLaunchConfig *config,
                                       GCancellable               *cancellable,
                                       GError                    **error);

WsKernelInstance *
ws_kernel_instance_new (const WsKernelFile         *file,
                        const WsKernelLaunchConfig *config,
                        GCancellable               *cancellable,
                        GError                    **error)
{
  g_autoptr (GHashTable) types = NULL;
  g_autoptr (GPtrArray) type_notes = g_ptr_array_new_with_free_func (g_free);
  const WkFunc *kernel;

  g_return_val_if_fail (file != NULL, NULL);
  g_return_val_if_fail (config != NULL, NULL);
  g_return_val_if_fail (wk_config_get_file (config) == file, NULL);

  kernel = wk_file_find_kernel (file, ws_kernel_config_get_kernel (config));
  g_return_val_if_fail (kernel != NULL, NULL);
  if ((types = type_args (file, kernel, config, type_notes, error)) == NULL)
    return NULL;
  if (g_hash_table_size (types) > 0)
    {
      /* the file read again with the launch's types, and the launch with it */
      g_autoptr (WsKernelFile) with_types = NULL;
      WsKernelLaunchConfig *again;
      WsKernelInstance *inst;

      if ((with_types = wk_file_parse_typed (file, types, error)) == NULL)
        {
          g_autoptr (GString) given = g_string_new (NULL);
          GHashTableIter iter;
          gpointer name, text;

          g_hash_table_iter_init (&iter, types);
          while (g_hash_table_iter_next (&iter, &name, &text))
            g_string_append_printf (given, "%s%s = %s", given->len ? ", " : "", (char *) name, (char *) text);
          /* Translators: the types given (“T = float”), then what is wrong with the kernel read with them */
          g_prefix_error (error, _("with %s: "), given->str);
          return NULL;
        }
      again = wk_config_copy_for (config, with_types);
      inst = instance_new (with_types, again, cancellable, error);
      ws_kernel_config_free (again);
      for (guint i = 0; inst != NULL && i < type_notes->len; i++)
        {
          g_ptr_array_insert (inst->notes, (gint) i, g_strdup (type_notes->pdata[i]));
          /* and in the launch's note, which the window shows beside the
           * launch in the host code */
          if (inst->launch_note != NULL)
            {
              char *both = g_strdup_printf ("%s; %s", (char *) type_notes->pdata[i], inst->launch_note->message);
              g_free (inst->launch_note->message);
              inst->launch_note->message = both;
            }
        }
      return inst;
    }
  return instance_new (file, config, cancellable, error);
}

static WsKernelInstance *
instance_new (const WsKernelFile         *file,
              const WsKernelLaunchConfig *config,
              GCancellable               *cancellable,
              GError                    **error)
{
  g_autoptr (WsKernelInstance) inst = NULL;
  WkLaunchValues *values = NULL;
  gboolean need_sizing = FALSE;
  gboolean ok;

  inst = g_new0 (WsKernelInstance, 1);
  inst->ref_count = 1;
  inst->file = ws_kernel_file_ref ((WsKernelFile *) file);
  inst->kernel = wk_file_find_kernel (file, ws_kernel_config_get_kernel (config));
  inst->notes = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (inst->notes, NULL);
  inst->cuda_name = g_strdup (CUDA_NAME);
  g_return_val_if_fail (inst->kernel != NULL, NULL);

  values = wk_config_resolve (config, inst->kernel, error);
  if (values == NULL)
    return NULL;
  inst->step_limit = wk_launch_values_steps (values);
  ok = template_values (inst, values, error);
  if (ok)
    {
      inst->prog = wk_compile_kernel (file, inst->kernel, inst->template_values, error);
      ok = inst->prog != NULL;
    }
  ok = ok && params (inst, values, error) && launch_dims (inst, values, error) &&
       arrays (inst, values, &need_sizing, error);
  if (ok && need_sizing)
    ok = size_arrays (inst, cancellable, error);
  if (ok)
    describe (inst, values);
  wk_launch_values_free (values);
  if (!ok)
    return NULL;
  for (guint i = 0; i < file->diagnostics->len; i++)
    {
      const WsKernelDiagnostic *d = g_ptr_array_index (file->diagnostics, i);
      if (strstr (d->message, "host") != NULL && d->severity == WS_KERNEL_SEVERITY_NOTE)
        note (inst, _("line %u: %s"), d->line, d->message);
    }
  return g_steal_pointer (&inst);
}

/* ------------------------------------------------------------------ */
/* Getters                                                            */
/* ------------------------------------------------------------------ */

const WsKernelFile *
ws_kernel_instance_get_file (const WsKernelInstance *instance)
{
  g_return_val_if_fail (instance != NULL, NULL);
  return instance->file;
}

const char *
ws_kernel_instance_get_kernel_name (const WsKernelInstance *instance)
{
  g_return_val_if_fail (instance != NULL, NULL);
  return instance->kernel->name;
}

WsDim3
ws_kernel_instance_get_grid (const WsKernelInstance *instance)
{
  g_return_val_if_fail (instance != NULL, WS_DIM3 (0, 0, 0));
  return instance->grid;
}

WsDim3
ws_kernel_instance_get_block (const WsKernelInstance *instance)
{
  g_return_val_if_fail (instance != NULL, WS_DIM3 (0, 0, 0));
  return instance->block;
}

guint
ws_kernel_instance_get_n_sites (const WsKernelInstance *instance)
{
  g_return_val_if_fail (instance != NULL, 0);
  return instance->sites->len;
}

char *
ws_kernel_site_keep_text (const WsKernelSite *site)
{
  gboolean load = site->kind == WS_ACCESS_LOAD;

  switch (site->keep)
    {
    case WS_KERNEL_KEEP_ONCE:
      if (load)
        /* Translators: the access as written, then the loop's line */
        return g_strdup_printf (_("nvcc keeps %s in a register through the loop at line %u: it loads it once, "
                                  "before the loop."), site->text, site->keep_line);
      /* Translators: the access as written, then the loop's line */
      return g_strdup_printf (_("nvcc keeps %s in a register through the loop at line %u: it stores it once, "
                                "after the loop."), site->text, site->keep_line);
    case WS_KERNEL_KEEP_NEVER:
      if (load && site->hoisted)
        /* Translators: the access as written, then the line of a load of the same element after the if */
        return g_strdup_printf (_("nvcc loads %s before the if, for every lane, as line %u loads it again after "
                                  "the if: the load counts there."), site->text, site->keep_line);
      if (load && site->reused && site->forwarded)
        /* Translators: the access as written, then the line of a store of the same element */
        return g_strdup_printf (_("nvcc never loads %s here: it reuses the value line %u stored, which nothing "
                                  "between may have changed."), site->text, site->keep_line);
      if (load && site->reused)
        /* Translators: the access as written, then the line of a load of the same element */
        return g_strdup_printf (_("nvcc never loads %s here: it reuses the value line %u loaded, which nothing "
                                  "between may have changed."), site->text, site->keep_line);
      if (!load)
        /* Translators: the access as written, then the loop's line */
        return g_strdup_printf (_("nvcc never makes this store of %s: the loop at line %u, which it unrolls, "
                                  "stores it again before anything reads it."), site->text, site->keep_line);
      if (site->forwarded)
        /* Translators: the access as written, then the loop's line */
        return g_strdup_printf (_("nvcc never loads %s here: it keeps the value stored just before the loop at "
                                  "line %u in a register."), site->text, site->keep_line);
      /* Translators: the access as written, then the loop's line */
      return g_strdup_printf (_("nvcc never loads %s here: it keeps the value the loop at line %u stores in a "
                                "register."), site->text, site->keep_line);
    case WS_KERNEL_KEEP_EVERY:
    default:
      return NULL;
    }
}

const WsKernelSite *
ws_kernel_instance_get_site (const WsKernelInstance *instance,
                             guint                   i)
{
  g_return_val_if_fail (instance != NULL, NULL);
  g_return_val_if_fail (i < instance->sites->len, NULL);
  return &g_array_index (instance->sites, WsKernelSite, i);
}

guint
ws_kernel_instance_get_n_arrays (const WsKernelInstance *instance)
{
  g_return_val_if_fail (instance != NULL, 0);
  return instance->array_infos->len;
}

const WsKernelArrayInfo *
ws_kernel_instance_get_array (const WsKernelInstance *instance,
                              guint                   i)
{
  g_return_val_if_fail (instance != NULL, NULL);
  g_return_val_if_fail (i < instance->array_infos->len, NULL);
  return g_ptr_array_index (instance->array_infos, i);
}

int
ws_kernel_instance_find_array (const WsKernelInstance *instance,
                               const char             *name)
{
  g_return_val_if_fail (instance != NULL, -1);
  g_return_val_if_fail (name != NULL, -1);

  for (guint i = 0; i < instance->array_infos->len; i++)
    if (strcmp (((WsKernelArrayInfo *) g_ptr_array_index (instance->array_infos, i))->name, name) == 0)
      return (int) i;
  return -1;
}

guint
ws_kernel_instance_get_n_params (const WsKernelInstance *instance)
{
  g_return_val_if_fail (instance != NULL, 0);
  return instance->params->len;
}

const WsKernelParam *
ws_kernel_instance_get_param (const WsKernelInstance *instance,
                              guint                   i)
{
  g_return_val_if_fail (instance != NULL, NULL);
  g_return_val_if_fail (i < instance->params->len, NULL);
  return g_ptr_array_index (instance->params, i);
}

guint
ws_kernel_instance_get_n_loops (const WsKernelInstance *instance)
{
  g_return_val_if_fail (instance != NULL, 0);
  return instance->loops->len;
}

const WsKernelLoop *
ws_kernel_instance_get_loop (const WsKernelInstance *instance,
                             guint                   i)
{
  g_return_val_if_fail (instance != NULL, NULL);
  g_return_val_if_fail (i < instance->loops->len, NULL);
  return &g_array_index (instance->loops, WsKernelLoop, i);
}

guint64
ws_kernel_instance_get_dynamic_shared (const WsKernelInstance *instance)
{
  g_return_val_if_fail (instance != NULL, 0);
  return instance->dynamic_shared;
}

guint64
ws_kernel_instance_get_shared_bytes (const WsKernelInstance *instance)
{
  g_return_val_if_fail (instance != NULL, 0);
  return instance->prog->static_shared + instance->dynamic_shared;
}

gint64
ws_kernel_instance_get_local_bytes_per_thread (const WsKernelInstance *instance)
{
  guint64 bytes = 0;

  g_return_val_if_fail (instance != NULL, 0);
  /* what nvcc puts in local memory: arrays indexed by values known only when running */
  for (guint i = 0; i < instance->prog->arrays->len; i++)
    {
      const WkArray *a = g_ptr_array_index (instance->prog->arrays, i);
      if (a->space == WS_SPACE_LOCAL)
        bytes += a->bytes;
    }
  return (gint64) bytes;
}

const char *const *
ws_kernel_instance_get_notes (const WsKernelInstance *instance)
{
  g_return_val_if_fail (instance != NULL, NULL);
  return (const char *const *) instance->notes->pdata;
}

const WsKernelDiagnostic *
ws_kernel_instance_get_launch_note (const WsKernelInstance *instance)
{
  g_return_val_if_fail (instance != NULL, NULL);
  return instance->launch_note;
}

const char *
ws_kernel_instance_get_cuda_name (const WsKernelInstance *instance)
{
  g_return_val_if_fail (instance != NULL, NULL);
  return instance->cuda_name;
}

char *
ws_kernel_instance_print_cuda (const WsKernelInstance *instance,
                               GError                **error)
{
  WkPrintOptions options = { 0 };

  g_return_val_if_fail (instance != NULL, NULL);

  options.line_directives = TRUE;
  options.kernel = instance->kernel;
  options.kernel_name = instance->cuda_name;
  options.template_values = instance->template_values;
  return wk_print_file (instance->file, &options);
}

/* ------------------------------------------------------------------ */
/* Running                                                            */
/* ------------------------------------------------------------------ */

/* Whether a launch's blocks can run at once, on several threads, to the
 * same end as one after another: none can see what another writes while
 * it runs. Blocks talk through atomics on global memory, fences and
 * volatile accesses to global memory; a kernel with none of them that
 * reads what another block writes races on the GPU too. */
static gboolean
blocks_independent (const WsKernelInstance *inst)
{
  const WkProgram *prog = inst->prog;
  const WkInsn *code = (const WkInsn *) prog->code->data;

  for (guint i = 0; i < prog->sites->len; i++)
    {
      const WkSite *site = &g_array_index (prog->sites, WkSite, i);
      const WkArray *a = g_ptr_array_index (prog->arrays, site->array);

      if (a->space == WS_SPACE_GLOBAL && (site->kind == WS_ACCESS_ATOMIC || site->is_volatile))
        return FALSE;
    }
  for (guint i = 0; i < prog->code->len; i++)
    if (code[i].op == WK_I_FENCE)
      return FALSE;
  return TRUE;
}

guint
wk_cores (void)
{
  const char *env = g_getenv ("WS_KERNEL_THREADS");

  if (env != NULL && *env != '\0')
    return (guint) CLAMP (g_ascii_strtoull (env, NULL, 10), 1, WK_MAX_THREADS);
  return CLAMP (g_get_num_processors (), 1, 16);
}

guint
wk_run_threads (const WsKernelInstance *inst,
                guint64                 count)
{
  if (count < 2 || !blocks_independent (inst))
    return 1;
  return (guint) MIN ((guint64) wk_cores (), count);
}

typedef struct
{
  const WsKernelInstance *inst;
  WkStore *stores;
  guint64 first;
  guint64 count;
  guint64 chunk;
  gssize next;                  /* atomic: the next block to hand out, counted from first */
  gssize failed;                /* atomic: the lowest block (from first) that failed, else count */
  gssize steps;                 /* atomic: steps of every thread's blocks so far */
  WsKernelVisitor visit;
  GCancellable *cancellable;
  WsAnalysisProgress *progress;
} Pool;

typedef struct
{
  Pool *pool;
  gpointer visit_data;
  WsKernelRunCounts counts;
  guint64 *loop_iterations;
  GError *error;
  guint64 failed;               /* the block of error, from first */
} PoolThread;

static void
lower_to (gssize *at,
          gssize  value)
{
  gssize now = g_atomic_pointer_get (at);

  while (value < now && !g_atomic_pointer_compare_and_exchange (at, now, value))
    now = g_atomic_pointer_get (at);
}

static gpointer
pool_thread (gpointer data)
{
  PoolThread *t = data;
  Pool *p = t->pool;
  WkRun run;

  wk_instance_run_init (p->inst, &run, p->stores, &t->counts);
  run.visit = p->visit;
  run.visit_data = t->visit_data;
  run.cancellable = p->cancellable;
  run.progress = p->progress;
  run.loop_iterations = t->loop_iterations;
  for (;;)
    {
      guint64 start = (guint64) g_atomic_pointer_add (&p->next, (gssize) p->chunk);
      guint64 n, before;
      gboolean ok;

      if (start >= p->count || start >= (guint64) g_atomic_pointer_get (&p->failed))
        break;
      n = MIN (p->chunk, p->count - start);
      /* the limit of steps holds for the launch: this thread's count
       * starts from what every thread has taken */
      run.steps = before = (guint64) g_atomic_pointer_get (&p->steps);
      ok = wk_run_blocks (&run, p->first + start, n, &t->error);
      g_atomic_pointer_add (&p->steps, (gssize) (run.steps - before));
      if (!ok)
        {
          t->failed = run.block_now - p->first;
          lower_to (&p->failed, (gssize) t->failed);
          break;
        }
    }
  return NULL;
}

gboolean
wk_run_blocks_at_once (const WsKernelInstance *inst,
                       WsKernelMemory         *memory,
                       guint64                 first,
                       guint64                 count,
                       guint                   n_threads,
                       WsKernelVisitor         visit,
                       gpointer               *visit_data,
                       WsKernelRunCounts      *counts_out,
                       guint64                *loop_iterations_out,
                       GCancellable           *cancellable,
                       WsAnalysisProgress     *progress,
                       GError                **error)
{
  Pool pool = { 0 };
  g_autofree PoolThread *threads = g_new0 (PoolThread, MAX (n_threads, 1));
  g_autofree GThread **handles = g_new0 (GThread *, MAX (n_threads, 1));
  WkStore *stores = wk_memory_stores (memory);
  guint n_loops = inst->prog->loops->len;
  GError *first_error = NULL;
  guint64 first_failed = G_MAXUINT64;
  GMutex lock;

  g_mutex_init (&lock);
  pool.inst = inst;
  pool.stores = stores;
  pool.first = first;
  pool.count = count;
  /* small enough that every thread has blocks to the end */
  pool.chunk = MAX (1, MIN (64, count / ((guint64) MAX (n_threads, 1) * 16)));
  pool.failed = (gssize) count;
  pool.visit = visit;
  pool.cancellable = cancellable;
  pool.progress = progress;
  if (progress != NULL)
    {
      g_atomic_pointer_set (&progress->blocks_done, 0);
      g_atomic_pointer_set (&progress->blocks_total, (gint64) count);
    }
  for (guint i = 0; i < inst->prog->arrays->len; i++)
    stores[i].lock = stores[i].pages != NULL ? &lock : NULL;
  for (guint i = 0; i < n_threads; i++)
    {
      threads[i].pool = &pool;
      threads[i].visit_data = visit_data != NULL ? visit_data[i] : NULL;
      threads[i].loop_iterations = g_new0 (guint64, MAX (n_loops, 1));
      handles[i] = g_thread_new ("ws-kernel-run", pool_thread, &threads[i]);
    }
  if (counts_out != NULL)
    memset (counts_out, 0, sizeof *counts_out);
  for (guint i = 0; i < n_threads; i++)
    {
      PoolThread *t = &threads[i];
      const WsKernelRunCounts *c = &t->counts;

      g_thread_join (handles[i]);
      /* the error of the first block that failed, as one after another */
      if (t->error != NULL && t->failed < first_failed)
        {
          g_clear_error (&first_error);
          first_error = g_steal_pointer (&t->error);
          first_failed = t->failed;
        }
      g_clear_error (&t->error);
      if (counts_out != NULL)
        {
          counts_out->instructions += c->instructions;
          counts_out->memory_instructions += c->memory_instructions;
          counts_out->barriers += c->barriers;
          counts_out->syncwarps += c->syncwarps;
          for (guint f = 0; f < WS_KERNEL_N_FENCES; f++)
            counts_out->fences[f] += c->fences[f];
          counts_out->atomics += c->atomics;
          counts_out->shuffles += c->shuffles;
          counts_out->votes += c->votes;
          counts_out->loop_iterations += c->loop_iterations;
          counts_out->max_block_instructions = MAX (counts_out->max_block_instructions, c->max_block_instructions);
          counts_out->blocks += c->blocks;
          counts_out->warps += c->warps;
        }
      if (loop_iterations_out != NULL)
        for (guint k = 0; k < n_loops; k++)
          loop_iterations_out[k] += t->loop_iterations[k];
      g_free (t->loop_iterations);
    }
  for (guint i = 0; i < inst->prog->arrays->len; i++)
    stores[i].lock = NULL;
  g_mutex_clear (&lock);
  if (first_error != NULL)
    {
      g_propagate_error (error, first_error);
      return FALSE;
    }
  return TRUE;
}

gboolean
ws_kernel_run_blocks (const WsKernelInstance *instance,
                      WsKernelMemory         *memory,
                      guint64                 first,
                      guint64                 count,
                      WsKernelVisitor         visit,
                      gpointer                user_data,
                      WsKernelRunCounts      *counts_out,
                      guint64                *loop_iterations_out,
                      GCancellable           *cancellable,
                      WsAnalysisProgress     *progress,
                      GError                **error)
{
  WsKernelRunCounts counts = { 0 };
  WkRun run;
  gboolean ok;
  guint64 blocks;
  guint n_threads;

  g_return_val_if_fail (instance != NULL, FALSE);
  g_return_val_if_fail (memory != NULL, FALSE);

  blocks = ws_dim3_count (instance->grid);
  if (first > blocks || count > blocks - first)
    {
      g_set_error (error, WS_KERNEL_ERROR, WS_KERNEL_ERROR_RUN,
                   _("blocks %llu to %llu are outside the grid of %llu blocks"), (unsigned long long) first,
                   (unsigned long long) (first + count), (unsigned long long) blocks);
      return FALSE;
    }
  wk_instance_run_init (instance, &run, wk_memory_stores (memory), &counts);
  run.visit = visit;
  run.visit_data = user_data;
  run.cancellable = cancellable;
  run.progress = progress;
  run.loop_iterations = loop_iterations_out;
  if (progress != NULL)
    {
      g_atomic_pointer_set (&progress->blocks_done, 0);
      g_atomic_pointer_set (&progress->blocks_total, (gint64) count);
    }
  /* a visitor sees the events in the order the VM runs them: one thread */
  if (visit == NULL && (n_threads = wk_run_threads (instance, count)) > 1)
    return wk_run_blocks_at_once (instance, memory, first, count, n_threads, NULL, NULL, counts_out,
                                  loop_iterations_out, cancellable, progress, error);
  ok = wk_run_blocks (&run, first, count, error);
  if (counts_out != NULL)
    *counts_out = counts;
  return ok;
}

gboolean
ws_kernel_run (const WsKernelInstance *instance,
               WsKernelMemory         *memory,
               GCancellable           *cancellable,
               GError                **error)
{
  g_return_val_if_fail (instance != NULL, FALSE);

  return ws_kernel_run_blocks (instance, memory, 0, ws_dim3_count (instance->grid), NULL, NULL, NULL, NULL,
                               cancellable, NULL, error);
}
