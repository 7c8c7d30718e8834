/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Memory of a run: each global or constant array is byte-addressed storage
 * of its size, in pages allocated when first touched and filled then from
 * the array's fill, so that a 4 GiB input costs nothing until a kernel
 * reads it. The same fill gives the bytes the host uploads to the GPU, and
 * the final contents are the reference the GPU's output is compared with. */
#include "ws-config.h"
#include "ws-kernel-instance.h"
#include "ws-i18n.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

struct _WsKernelMemory
{
  WsKernelInstance *instance;
  WkStore *stores;
  guint n_stores;
};

/* ------------------------------------------------------------------ */
/* Fills                                                              */
/* ------------------------------------------------------------------ */

void
wk_fill_free (WkFill *fill)
{
  if (fill == NULL)
    return;
  g_clear_pointer (&fill->prog, wk_program_free);
  g_free (fill->table);
  g_free (fill->table_class);
  g_free (fill);
}

static void
write_leaf (guint8    *p,
            WkTypeKind kind,
            WkSlot     v)
{
  switch (kind)
    {
    case WK_TY_BOOL: case WK_TY_CHAR: case WK_TY_SCHAR: case WK_TY_UCHAR: p[0] = (guint8) v.i; break;
    case WK_TY_SHORT: case WK_TY_USHORT: { guint16 x = (guint16) v.i; memcpy (p, &x, 2); break; }
    case WK_TY_INT: case WK_TY_UINT: { guint32 x = (guint32) v.i; memcpy (p, &x, 4); break; }
    case WK_TY_FLOAT: memcpy (p, &v.f, 4); break;
    default: memcpy (p, &v.u, 8); break;
    }
}

/* The fill's values for scalars [first, first + 32), each converted to
 * the kind of its scalar. */
static void
fill_values (const WkFill *fill,
             WkSlot       *regs,
             gint64        first,
             WkSlot       *out)
{
  if (fill->prog == NULL)
    {
      for (guint l = 0; l < WK_LANES; l++)
        out[l] = fill->value;
      return;
    }
  wk_run_fill_warp (fill->prog, regs, first);
  memcpy (out, regs + (gsize) fill->dst * WK_LANES, sizeof (WkSlot) * WK_LANES);
}

void
wk_fill_range (const WkFill  *fill,
               const WkArray *array,
               guint64        first,
               guint8        *dest,
               gsize          n)
{
  guint64 elem = array->elem_size;
  guint nl = MAX (array->n_leaves, 1);
  guint64 e0, e1, s0, s1;
  g_autofree WkSlot *regs = NULL;
  WkSlot values[WK_LANES];

  memset (dest, 0, n);
  if (fill == NULL || n == 0 || array->n_leaves == 0)
    return;
  if (fill->prog != NULL)
    {
      regs = g_new0 (WkSlot, (gsize) MAX (fill->prog->n_rw + fill->prog->n_const, 1) * WK_LANES);
      wk_program_load_consts (fill->prog, regs);
    }
  e0 = first / elem;
  e1 = (first + n + elem - 1) / elem;
  s0 = e0 * nl;
  s1 = e1 * nl;
  for (guint64 s = s0; s < s1; s += WK_LANES)
    {
      if (fill->table == NULL)
        fill_values (fill, regs, (gint64) s, values);
      for (guint l = 0; l < WK_LANES && s + l < s1; l++)
        {
          guint64 e = (s + l) / nl;
          const WkLeaf *leaf = &array->leaves[(s + l) % nl];
          guint size = WK_TYPE (leaf->kind)->size;
          guint64 at = e * elem + leaf->offset;
          guint8 bytes[8];
          WkStorage sc = wk_type_storage (WK_TYPE (leaf->kind));
          WkSlot v;

          if (fill->table != NULL)
            {
              WkSlot zero = { 0 };
              v = s + l < fill->n_table ? wk_convert_one (fill->table_class[s + l], sc, fill->table[s + l]) :
                                           wk_convert_one (WK_AC_I64, sc, zero);
            }
          else
            v = wk_convert_one (fill->value_class, sc, values[l]);

          if (at >= first && at + size <= first + n)
            {
              write_leaf (dest + (at - first), leaf->kind, v);
              continue;
            }
          write_leaf (bytes, leaf->kind, v);
          for (guint k = 0; k < size; k++)
            if (at + k >= first && at + k < first + n)
              dest[at + k - first] = bytes[k];
        }
    }
}

/* ------------------------------------------------------------------ */
/* Stores                                                             */
/* ------------------------------------------------------------------ */

guint8 *
wk_store_page_slow (WkStore *store,
                    guint64  page)
{
  guint8 *p;
  guint64 start = page << WK_PAGE_SHIFT;
  gsize n;

  g_assert (page < store->n_pages);
  p = g_malloc (WK_PAGE_SIZE);
  n = (gsize) MIN ((guint64) WK_PAGE_SIZE, store->bytes - start);
  wk_fill_range (store->fill, store->array, start, p, n);
  if (n < WK_PAGE_SIZE)
    memset (p + n, 0, WK_PAGE_SIZE - n);
  if (store->lock == NULL)
    {
      store->pages[page] = p;
      g_array_append_val (store->touched, page);
      return p;
    }
  /* blocks running at once fill pages side by side; the first to be done
   * puts its page in, another thread that filled the same one drops its own */
  if (!g_atomic_pointer_compare_and_exchange (&store->pages[page], NULL, p))
    {
      g_free (p);
      return g_atomic_pointer_get (&store->pages[page]);
    }
  g_mutex_lock (store->lock);
  g_array_append_val (store->touched, page);
  g_mutex_unlock (store->lock);
  return p;
}

void
wk_store_clear (WkStore *store)
{
  if (store->pages == NULL)
    return;
  for (guint i = 0; i < store->touched->len; i++)
    g_free (store->pages[g_array_index (store->touched, guint64, i)]);
  g_clear_pointer (&store->touched, g_array_unref);
  g_clear_pointer (&store->pages, g_free);
}

void
wk_store_init (WkStore       *store,
               const WkArray *array,
               const WkFill  *fill,
               guint64        bytes,
               gboolean       sizing)
{
  memset (store, 0, sizeof *store);
  store->array = array;
  store->fill = fill;
  store->bytes = bytes;
  store->sizing = sizing;
  store->n_pages = (bytes + WK_PAGE_SIZE - 1) >> WK_PAGE_SHIFT;
  store->pages = g_new0 (guint8 *, MAX (store->n_pages, 1));
  store->touched = g_array_new (FALSE, FALSE, sizeof (guint64));
}

/* ------------------------------------------------------------------ */
/* The public memory                                                  */
/* ------------------------------------------------------------------ */

WsKernelMemory *
ws_kernel_memory_new (const WsKernelInstance *instance)
{
  WsKernelMemory *m;
  const WkProgram *prog;

  g_return_val_if_fail (instance != NULL, NULL);

  prog = instance->prog;
  m = g_new0 (WsKernelMemory, 1);
  m->instance = ws_kernel_instance_ref ((WsKernelInstance *) instance);
  m->n_stores = prog->arrays->len;
  m->stores = g_new0 (WkStore, MAX (m->n_stores, 1));
  for (guint i = 0; i < m->n_stores; i++)
    {
      const WkArray *a = g_ptr_array_index (prog->arrays, i);
      if (a->space == WS_SPACE_GLOBAL || a->space == WS_SPACE_CONSTANT)
        wk_store_init (&m->stores[i], a, instance->fills[i], a->bytes, FALSE);
    }
  return m;
}

void
ws_kernel_memory_free (WsKernelMemory *memory)
{
  if (memory == NULL)
    return;
  for (guint i = 0; i < memory->n_stores; i++)
    wk_store_clear (&memory->stores[i]);
  g_free (memory->stores);
  ws_kernel_instance_unref (memory->instance);
  g_free (memory);
}

WkStore *
wk_memory_stores (WsKernelMemory *memory)
{
  return memory->stores;
}

typedef struct
{
  const WkFill *fill;
  const WkArray *array;
  guint64 first;
  guint8 *dest;
  gsize n;
} FillPart;

static gpointer
fill_part (gpointer data)
{
  FillPart *part = data;

  wk_fill_range (part->fill, part->array, part->first, part->dest, part->n);
  return NULL;
}

/* wk_fill_range, a large range in parts on wk_cores () threads: a random
 * fill of 512 MiB took 1.5 s on one. */
static void
fill_range_at_once (const WkFill  *fill,
                    const WkArray *array,
                    guint64        first,
                    guint8        *dest,
                    gsize          n)
{
  guint threads = wk_cores ();
  FillPart parts[WK_MAX_THREADS];
  GThread *handles[WK_MAX_THREADS];
  gsize step;
  guint k = 0;

  if (fill == NULL || n < (4u << 20) || threads < 2)
    {
      wk_fill_range (fill, array, first, dest, n);
      return;
    }
  step = (n / threads + WK_PAGE_SIZE - 1) & ~(gsize) (WK_PAGE_SIZE - 1);
  for (gsize at = 0; at < n && k < G_N_ELEMENTS (parts); at += step, k++)
    {
      parts[k] = (FillPart) { fill, array, first + at, dest + at, MIN (step, n - at) };
      handles[k] = g_thread_new ("ws-kernel-fill", fill_part, &parts[k]);
    }
  for (guint i = 0; i < k; i++)
    g_thread_join (handles[i]);
}

void
ws_kernel_fill_bytes (const WsKernelInstance *instance,
                      guint                   array,
                      guint64                 first_byte,
                      guint8                 *dest,
                      gsize                   n)
{
  const WkArray *a;

  g_return_if_fail (instance != NULL);
  g_return_if_fail (array < instance->prog->arrays->len);
  g_return_if_fail (dest != NULL || n == 0);

  a = g_ptr_array_index (instance->prog->arrays, array);
  if (first_byte >= a->bytes)
    {
      memset (dest, 0, n);
      return;
    }
  fill_range_at_once (instance->fills[array], a, first_byte, dest, (gsize) MIN ((guint64) n, a->bytes - first_byte));
  if (first_byte + n > a->bytes)
    memset (dest + (a->bytes - first_byte), 0, (gsize) (first_byte + n - a->bytes));
}

gboolean
ws_kernel_memory_read (WsKernelMemory *memory,
                       guint           array,
                       guint64         first_byte,
                       guint8         *dest,
                       gsize           n,
                       GError        **error)
{
  WkStore *s;

  g_return_val_if_fail (memory != NULL, FALSE);
  g_return_val_if_fail (array < memory->n_stores, FALSE);

  s = &memory->stores[array];
  if (s->pages == NULL)
    {
      const WkArray *a = g_ptr_array_index (memory->instance->prog->arrays, array);
      g_set_error (error, WS_KERNEL_ERROR, WS_KERNEL_ERROR_RUN,
                   _("“%s” is %s memory: it lasts a block, not a run"), a->name, ws_space_to_string (a->space));
      return FALSE;
    }
  if (first_byte > s->bytes || n > s->bytes - first_byte)
    {
      g_set_error (error, WS_KERNEL_ERROR, WS_KERNEL_ERROR_RUN,
                   _("bytes %llu to %llu are outside the array “%s” of %llu bytes"), (unsigned long long) first_byte,
                   (unsigned long long) (first_byte + n), s->array->name, (unsigned long long) s->bytes);
      return FALSE;
    }
  while (n > 0)
    {
      guint64 page = first_byte >> WK_PAGE_SHIFT;
      guint64 within = first_byte & (WK_PAGE_SIZE - 1);
      gsize take = (gsize) MIN ((guint64) n, WK_PAGE_SIZE - within);

      if (s->pages[page] != NULL)
        memcpy (dest, s->pages[page] + within, take);
      else
        wk_fill_range (s->fill, s->array, first_byte, dest, take);
      dest += take;
      first_byte += take;
      n -= take;
    }
  return TRUE;
}

static double
leaf_value (const guint8 *p,
            WkTypeKind    kind,
            gboolean     *is_float,
            gint64       *ivalue,
            guint64      *uvalue)
{
  *is_float = FALSE;
  *ivalue = 0;
  *uvalue = 0;
  switch (kind)
    {
    case WK_TY_FLOAT: { float f; memcpy (&f, p, 4); *is_float = TRUE; return f; }
    case WK_TY_DOUBLE: { double d; memcpy (&d, p, 8); *is_float = TRUE; return d; }
    case WK_TY_BOOL: *ivalue = p[0] != 0; break;
    case WK_TY_CHAR: case WK_TY_SCHAR: *ivalue = (gint8) p[0]; break;
    case WK_TY_UCHAR: *ivalue = p[0]; break;
    case WK_TY_SHORT: { gint16 x; memcpy (&x, p, 2); *ivalue = x; break; }
    case WK_TY_USHORT: { guint16 x; memcpy (&x, p, 2); *ivalue = x; break; }
    case WK_TY_INT: { gint32 x; memcpy (&x, p, 4); *ivalue = x; break; }
    case WK_TY_UINT: { guint32 x; memcpy (&x, p, 4); *ivalue = x; break; }
    case WK_TY_ULONG: case WK_TY_ULLONG: memcpy (uvalue, p, 8); return 0;
    default: memcpy (ivalue, p, 8); break;
    }
  *uvalue = (guint64) *ivalue;
  return 0;
}

/* The name of a scalar of an element: ".y", ".pos.x", "[2]". */
static char *
leaf_path (const WkType *t,
           guint         offset)
{
  GString *s = g_string_new (NULL);

  while (t->kind == WK_TY_VECTOR || t->kind == WK_TY_STRUCT || t->kind == WK_TY_ARRAY)
    {
      if (t->kind == WK_TY_VECTOR)
        {
          guint k = offset / t->elem->size;
          g_string_append_printf (s, ".%c", "xyzw"[MIN (k, 3)]);
          offset -= k * t->elem->size;
          t = t->elem;
        }
      else if (t->kind == WK_TY_ARRAY)
        {
          guint k = offset / t->elem->size;
          g_string_append_printf (s, "[%u]", k);
          offset -= k * t->elem->size;
          t = t->elem;
        }
      else
        {
          guint f = t->st->n_fields - 1;
          for (guint i = 0; i + 1 < t->st->n_fields; i++)
            if (t->st->fields[i + 1].offset > offset)
              {
                f = i;
                break;
              }
          g_string_append_printf (s, ".%s", t->st->fields[f].name);
          offset -= t->st->fields[f].offset;
          t = t->st->fields[f].type;
        }
    }
  return g_string_free (s, FALSE);
}

static char *
format_number (double   f,
               gboolean is_float,
               gint64   i,
               guint64  u,
               WkTypeKind kind)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (is_float)
    return g_strdup (g_ascii_formatd (buf, sizeof buf, kind == WK_TY_FLOAT ? "%.9g" : "%.17g", f));
  if (kind == WK_TY_ULONG || kind == WK_TY_ULLONG)
    return g_strdup_printf ("%llu", (unsigned long long) u);
  return g_strdup_printf ("%lld", (long long) i);
}

gboolean
ws_kernel_memory_compare (WsKernelMemory *memory,
                          guint           array,
                          const guint8   *gpu,
                          gsize           n,
                          char          **message)
{
  const WkArray *a;
  g_autofree guint8 *ref = NULL;
  g_autoptr (GError) error = NULL;
  guint64 elements;

  g_return_val_if_fail (memory != NULL, FALSE);
  g_return_val_if_fail (array < memory->n_stores, FALSE);
  g_return_val_if_fail (gpu != NULL || n == 0, FALSE);

  a = g_ptr_array_index (memory->instance->prog->arrays, array);
  if (n != a->bytes)
    {
      if (message != NULL)
        *message = g_strdup_printf (_("%s has %llu bytes on the GPU and %llu in the reference"), a->name,
                                    (unsigned long long) n, (unsigned long long) a->bytes);
      return FALSE;
    }
  ref = g_malloc (MAX (n, 1));
  if (!ws_kernel_memory_read (memory, array, 0, ref, n, &error))
    {
      if (message != NULL)
        *message = g_strdup (error->message);
      return FALSE;
    }
  elements = a->bytes / a->elem_size;
  for (guint64 e = 0; e < elements; e++)
    for (guint k = 0; k < a->n_leaves; k++)
      {
        const WkLeaf *leaf = &a->leaves[k];
        guint64 at = e * a->elem_size + leaf->offset;
        gboolean fg, fr;
        gint64 ig, ir;
        guint64 ug, ur;
        double vg = leaf_value (gpu + at, leaf->kind, &fg, &ig, &ug);
        double vr = leaf_value (ref + at, leaf->kind, &fr, &ir, &ur);
        gboolean same;

        if (fg)
          {
            double tol = (leaf->kind == WK_TY_FLOAT ? 1e-4 : 1e-9) * MAX (1.0, fabs (vr));
            same = (isnan (vg) && isnan (vr)) || vg == vr || fabs (vg - vr) <= tol;
          }
        else
          same = ug == ur;
        if (!same)
          {
            if (message != NULL)
              {
                g_autofree char *path = leaf_path (a->elem, leaf->offset);
                g_autofree char *sg = format_number (vg, fg, ig, ug, leaf->kind);
                g_autofree char *sr = format_number (vr, fr, ir, ur, leaf->kind);
                gint64 index = (gint64) e - (gint64) (a->offset_bytes / a->elem_size);
                /* Translators: "out[1234] is 3.5 on the GPU, 3.25 in the reference" */
                *message = g_strdup_printf (_("%s[%lld]%s is %s on the GPU, %s in the reference"), a->name,
                                            (long long) index, path, sg, sr);
              }
            return FALSE;
          }
      }
  return TRUE;
}
