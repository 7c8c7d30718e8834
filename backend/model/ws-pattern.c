/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "ws-config.h"
#include "ws-pattern.h"

#include <glib/gi18n-lib.h>
#include <string.h>

/* The parts of a pattern that hold an expression, for the errors that name
 * one: each says it in a sentence of its own. */
typedef enum
{
  PART_DEFINITION,             /* the definition of name */
  PART_GUARD,
  PART_INDEX,                  /* the index of name, an array */
} Part;

struct _WsPattern
{
  gatomicrefcount ref_count;
  WsDim3 block;
  WsDim3 grid;
  GArray *params;        /* WsParam */
  GPtrArray *defs;       /* WsDefinition* */
  char *guard_text;
  WsExpr *guard;
  GPtrArray *accesses;   /* WsAccess* */
};

G_DEFINE_BOXED_TYPE (WsPattern, ws_pattern, ws_pattern_ref, ws_pattern_unref)
G_DEFINE_QUARK (ws-pattern-error-quark, ws_pattern_error)

static void
param_clear (gpointer data)
{
  WsParam *p = data;
  g_free (p->name);
  g_free (p->description);
}

static void
definition_free (gpointer data)
{
  WsDefinition *d = data;
  g_free (d->name);
  g_free (d->text);
  ws_expr_free (d->expr);
  g_free (d);
}

static void
access_free (gpointer data)
{
  WsAccess *a = data;
  g_free (a->array);
  g_free (a->index_text);
  ws_expr_free (a->index);
  g_free (a);
}

WsPattern *
ws_pattern_new (void)
{
  WsPattern *self = g_new0 (WsPattern, 1);

  g_atomic_ref_count_init (&self->ref_count);
  self->block = WS_DIM3 (256, 1, 1);
  self->grid = WS_DIM3 (1, 1, 1);
  self->params = g_array_new (FALSE, TRUE, sizeof (WsParam));
  g_array_set_clear_func (self->params, param_clear);
  self->defs = g_ptr_array_new_with_free_func (definition_free);
  self->accesses = g_ptr_array_new_with_free_func (access_free);
  return self;
}

WsPattern *
ws_pattern_copy (const WsPattern *self)
{
  WsPattern *copy;

  g_return_val_if_fail (self != NULL, NULL);

  copy = ws_pattern_new ();
  copy->block = self->block;
  copy->grid = self->grid;
  for (guint i = 0; i < self->params->len; i++)
    {
      WsParam p = g_array_index (self->params, WsParam, i);
      p.name = g_strdup (p.name);
      p.description = g_strdup (p.description);
      g_array_append_val (copy->params, p);
    }
  for (guint i = 0; i < self->defs->len; i++)
    {
      const WsDefinition *d = g_ptr_array_index (self->defs, i);
      WsDefinition *c = g_new0 (WsDefinition, 1);
      c->name = g_strdup (d->name);
      c->text = g_strdup (d->text);
      c->expr = ws_expr_copy (d->expr);
      g_ptr_array_add (copy->defs, c);
    }
  copy->guard_text = g_strdup (self->guard_text);
  copy->guard = ws_expr_copy (self->guard);
  for (guint i = 0; i < self->accesses->len; i++)
    {
      const WsAccess *a = g_ptr_array_index (self->accesses, i);
      WsAccess *c = g_memdup2 (a, sizeof *a);
      c->array = g_strdup (a->array);
      c->index_text = g_strdup (a->index_text);
      c->index = ws_expr_copy (a->index);
      g_ptr_array_add (copy->accesses, c);
    }
  return copy;
}

WsPattern *
ws_pattern_ref (WsPattern *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
ws_pattern_unref (WsPattern *self)
{
  g_return_if_fail (self != NULL);
  if (!g_atomic_ref_count_dec (&self->ref_count))
    return;
  g_array_unref (self->params);
  g_ptr_array_unref (self->defs);
  g_free (self->guard_text);
  ws_expr_free (self->guard);
  g_ptr_array_unref (self->accesses);
  g_free (self);
}

/* ------------------------------------------------------------------ */

WsDim3
ws_pattern_get_block (const WsPattern *self)
{
  return self->block;
}

WsDim3
ws_pattern_get_grid (const WsPattern *self)
{
  return self->grid;
}

guint
ws_pattern_get_warps_per_block (const WsPattern *self)
{
  return (guint) ((ws_dim3_count (self->block) + WS_WARP_SIZE - 1) / WS_WARP_SIZE);
}

gboolean
ws_pattern_set_block (WsPattern *self,
                      WsDim3     block,
                      GError   **error)
{
  g_return_val_if_fail (self != NULL, FALSE);

  if (block.x == 0 || block.y == 0 || block.z == 0)
    {
      g_set_error (error, WS_PATTERN_ERROR, WS_PATTERN_ERROR_INVALID,
                   _("block (%u, %u, %u): every dimension must be at least 1"), block.x, block.y, block.z);
      return FALSE;
    }
  if (block.z > 64 || ws_dim3_count (block) > WS_MAX_THREADS_PER_BLOCK)
    {
      g_set_error (error, WS_PATTERN_ERROR, WS_PATTERN_ERROR_INVALID,
                   _("block (%u, %u, %u) has %llu threads: CUDA allows at most %d per block, and z ≤ 64"),
                   block.x, block.y, block.z, (unsigned long long) ws_dim3_count (block), WS_MAX_THREADS_PER_BLOCK);
      return FALSE;
    }
  self->block = block;
  return TRUE;
}

gboolean
ws_pattern_set_grid (WsPattern *self,
                     WsDim3     grid,
                     GError   **error)
{
  g_return_val_if_fail (self != NULL, FALSE);

  if (grid.x == 0 || grid.y == 0 || grid.z == 0)
    {
      g_set_error (error, WS_PATTERN_ERROR, WS_PATTERN_ERROR_INVALID,
                   _("grid (%u, %u, %u): every dimension must be at least 1"), grid.x, grid.y, grid.z);
      return FALSE;
    }
  if (grid.x > G_MAXINT32 || grid.y > 65535 || grid.z > 65535)
    {
      g_set_error (error, WS_PATTERN_ERROR, WS_PATTERN_ERROR_INVALID,
                   _("grid (%u, %u, %u) is too large: CUDA allows x < 2³¹, y and z ≤ 65535"),
                   grid.x, grid.y, grid.z);
      return FALSE;
    }
  self->grid = grid;
  return TRUE;
}

/* ------------------------------------------------------------------ */

static gboolean check_access_values (WsSpace space, WsAccessKind kind, guint elem_size, gint64 base, GError **error);

static gboolean
check_room_for_name (const WsPattern *self,
                     const char      *name,
                     GError         **error)
{
  if (self->params->len + self->defs->len < WS_PATTERN_MAX_NAMES)
    return TRUE;
  g_set_error (error, WS_PATTERN_ERROR, WS_PATTERN_ERROR_INVALID,
               _("“%s” is one name too many: a pattern has at most %d parameters and definitions together"),
               name, WS_PATTERN_MAX_NAMES);
  return FALSE;
}

static WsParam *
find_param (const WsPattern *self,
            const char      *name)
{
  for (guint i = 0; i < self->params->len; i++)
    {
      WsParam *p = &g_array_index (self->params, WsParam, i);
      if (strcmp (p->name, name) == 0)
        return p;
    }
  return NULL;
}

static const WsDefinition *
find_definition (const WsPattern *self,
                 const char      *name,
                 guint           *index)
{
  for (guint i = 0; i < self->defs->len; i++)
    {
      const WsDefinition *d = g_ptr_array_index (self->defs, i);
      if (strcmp (d->name, name) == 0)
        {
          if (index)
            *index = i;
          return d;
        }
    }
  return NULL;
}

gboolean
ws_pattern_set_param (WsPattern  *self,
                      const char *name,
                      gint64      value,
                      GError    **error)
{
  WsParam *p;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (name != NULL, FALSE);

  if (!ws_name_is_valid (name, error))
    return FALSE;
  if (find_definition (self, name, NULL))
    {
      g_set_error (error, WS_PATTERN_ERROR, WS_PATTERN_ERROR_INVALID,
                   _("“%s” is a definition of the pattern, not a parameter"), name);
      return FALSE;
    }
  if (strcmp (name, "elem_size") == 0)
    {
      for (guint i = 0; i < self->accesses->len; i++)
        {
          const WsAccess *a = g_ptr_array_index (self->accesses, i);
          if (a->elem_from_param &&
              !check_access_values (a->space, a->kind, (guint) CLAMP (value, 0, 64), a->base, error))
            return FALSE;
        }
      for (guint i = 0; i < self->accesses->len; i++)
        {
          WsAccess *a = g_ptr_array_index (self->accesses, i);
          if (a->elem_from_param)
            a->elem_size = (guint) value;
        }
    }
  p = find_param (self, name);
  if (p == NULL && !check_room_for_name (self, name, error))
    return FALSE;
  if (p == NULL)
    {
      WsParam np = { .name = g_strdup (name), .min = G_MININT64, .max = G_MAXINT64 };
      g_array_append_val (self->params, np);
      p = &g_array_index (self->params, WsParam, self->params->len - 1);
    }
  p->value = value;
  return TRUE;
}

void
ws_pattern_set_param_range (WsPattern  *self,
                            const char *name,
                            gint64      min,
                            gint64      max,
                            const char *description)
{
  WsParam *p;

  g_return_if_fail (self != NULL);
  g_return_if_fail (min <= max);

  p = find_param (self, name);
  g_return_if_fail (p != NULL);
  p->min = min;
  p->max = max;
  g_free (p->description);
  p->description = g_strdup (description);
}

gboolean
ws_pattern_get_param (const WsPattern *self,
                      const char      *name,
                      gint64          *value)
{
  WsParam *p = find_param (self, name);

  if (p == NULL)
    return FALSE;
  if (value)
    *value = p->value;
  return TRUE;
}

guint
ws_pattern_get_n_params (const WsPattern *self)
{
  return self->params->len;
}

const WsParam *
ws_pattern_get_param_nth (const WsPattern *self,
                          guint            i)
{
  g_return_val_if_fail (i < self->params->len, NULL);
  return &g_array_index (self->params, WsParam, i);
}

/* ------------------------------------------------------------------ */

/* name: the definition's, for PART_DEFINITION */
static gboolean
parse_into (Part        part,
            const char *name,
            const char *text,
            WsExpr    **out,
            GError    **error)
{
  g_autoptr (GError) local = NULL;
  WsExpr *e = ws_expr_parse (text, NULL, &local);

  if (e != NULL)
    {
      *out = e;
      return TRUE;
    }
  switch (part)
    {
    case PART_DEFINITION:
      /* Translators: a definition's name, then what is wrong with its
       * expression: "definition of i: column 3: the expression is empty" */
      g_set_error (error, WS_PATTERN_ERROR, WS_PATTERN_ERROR_EXPRESSION, _("definition of %s: %s"), name,
                   local->message);
      break;
    case PART_GUARD:
      /* Translators: what is wrong with the pattern's guard, its “if” */
      g_set_error (error, WS_PATTERN_ERROR, WS_PATTERN_ERROR_EXPRESSION, _("guard: %s"), local->message);
      break;
    case PART_INDEX:
    default:
      /* Translators: what is wrong with an access's index expression */
      g_set_error (error, WS_PATTERN_ERROR, WS_PATTERN_ERROR_EXPRESSION, _("index: %s"), local->message);
      break;
    }
  return FALSE;
}

gboolean
ws_pattern_add_definition (WsPattern  *self,
                           const char *name,
                           const char *text,
                           GError    **error)
{
  WsDefinition *d;
  WsExpr *e = NULL;

  g_return_val_if_fail (self != NULL, FALSE);

  if (!ws_name_is_valid (name, error))
    return FALSE;
  if (find_definition (self, name, NULL) || find_param (self, name))
    {
      g_set_error (error, WS_PATTERN_ERROR, WS_PATTERN_ERROR_INVALID,
                   _("“%s” is already defined in this pattern"), name);
      return FALSE;
    }
  if (!check_room_for_name (self, name, error))
    return FALSE;
  if (!parse_into (PART_DEFINITION, name, text, &e, error))
    return FALSE;
  d = g_new0 (WsDefinition, 1);
  d->name = g_strdup (name);
  d->text = g_strdup (text);
  d->expr = e;
  g_ptr_array_add (self->defs, d);
  return TRUE;
}

guint
ws_pattern_get_n_definitions (const WsPattern *self)
{
  return self->defs->len;
}

const WsDefinition *
ws_pattern_get_definition (const WsPattern *self,
                           guint            i)
{
  g_return_val_if_fail (i < self->defs->len, NULL);
  return g_ptr_array_index (self->defs, i);
}

gboolean
ws_pattern_set_guard (WsPattern  *self,
                      const char *text,
                      GError    **error)
{
  WsExpr *e = NULL;

  g_return_val_if_fail (self != NULL, FALSE);

  if (text != NULL && *text != '\0' && strspn (text, " \t") != strlen (text))
    {
      if (!parse_into (PART_GUARD, NULL, text, &e, error))
        return FALSE;
    }
  else
    text = NULL;
  g_clear_pointer (&self->guard, ws_expr_free);
  g_free (self->guard_text);
  self->guard = e;
  self->guard_text = g_strdup (text);
  return TRUE;
}

const char *
ws_pattern_get_guard_text (const WsPattern *self)
{
  return self->guard_text;
}

const WsExpr *
ws_pattern_get_guard (const WsPattern *self)
{
  return self->guard;
}

/* ------------------------------------------------------------------ */

static gboolean
check_access_values (WsSpace      space,
                     WsAccessKind kind,
                     guint        elem_size,
                     gint64       base,
                     GError     **error)
{
  if (space >= WS_N_SPACES || kind >= WS_N_ACCESS_KINDS)
    {
      g_set_error (error, WS_PATTERN_ERROR, WS_PATTERN_ERROR_INVALID, _("unknown memory space or access"));
      return FALSE;
    }
  if (!ws_elem_size_is_valid (elem_size))
    {
      g_set_error (error, WS_PATTERN_ERROR, WS_PATTERN_ERROR_INVALID,
                   _("element size %u: a warp accesses 1, 2, 4, 8 or 16 bytes per lane"), elem_size);
      return FALSE;
    }
  if (space == WS_SPACE_CONSTANT && kind != WS_ACCESS_LOAD)
    {
      g_set_error (error, WS_PATTERN_ERROR, WS_PATTERN_ERROR_INVALID,
                   _("constant memory is read-only in a kernel: only loads are possible"));
      return FALSE;
    }
  if (kind == WS_ACCESS_ATOMIC && space == WS_SPACE_LOCAL)
    {
      g_set_error (error, WS_PATTERN_ERROR, WS_PATTERN_ERROR_INVALID,
                   _("atomics work on global and shared memory, not on local"));
      return FALSE;
    }
  if (kind == WS_ACCESS_ATOMIC && space == WS_SPACE_REGISTER)
    {
      g_set_error (error, WS_PATTERN_ERROR, WS_PATTERN_ERROR_INVALID,
                   _("atomics work on global and shared memory, not on register"));
      return FALSE;
    }
  if (kind == WS_ACCESS_ATOMIC && elem_size != 4 && elem_size != 8)
    {
      g_set_error (error, WS_PATTERN_ERROR, WS_PATTERN_ERROR_INVALID,
                   _("element size %u: atomics here are on 4- or 8-byte values"), elem_size);
      return FALSE;
    }
  if (base < 0 || base % elem_size != 0)
    {
      g_set_error (error, WS_PATTERN_ERROR, WS_PATTERN_ERROR_INVALID,
                   _("base offset %lld bytes: it must be a non-negative multiple of the %u-byte element"),
                   (long long) base, elem_size);
      return FALSE;
    }
  return TRUE;
}

gboolean
ws_pattern_add_access (WsPattern   *self,
                       const char  *array,
                       WsSpace      space,
                       WsAccessKind kind,
                       guint        elem_size,
                       const char  *index_text,
                       gint64       base,
                       GError     **error)
{
  WsAccess *a;
  WsExpr *e = NULL;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (index_text != NULL, FALSE);

  if (array == NULL)
    array = "data";
  if (self->accesses->len >= WS_PATTERN_MAX_ACCESSES)
    {
      g_set_error (error, WS_PATTERN_ERROR, WS_PATTERN_ERROR_INVALID,
                   _("a pattern has at most %d accesses"), WS_PATTERN_MAX_ACCESSES);
      return FALSE;
    }
  if (!ws_name_is_valid (array, error))
    return FALSE;
  if (!check_access_values (space, kind, elem_size, base, error))
    return FALSE;
  if (!parse_into (PART_INDEX, NULL, index_text, &e, error))
    return FALSE;
  a = g_new0 (WsAccess, 1);
  a->array = g_strdup (array);
  a->space = space;
  a->kind = kind;
  a->elem_size = elem_size;
  a->base = base;
  a->index_text = g_strdup (index_text);
  a->index = e;
  g_ptr_array_add (self->accesses, a);
  return TRUE;
}

guint
ws_pattern_get_n_accesses (const WsPattern *self)
{
  return self->accesses->len;
}

const WsAccess *
ws_pattern_get_access (const WsPattern *self,
                       guint            i)
{
  g_return_val_if_fail (i < self->accesses->len, NULL);
  return g_ptr_array_index (self->accesses, i);
}

gboolean
ws_pattern_set_access_index (WsPattern  *self,
                             guint       i,
                             const char *index_text,
                             GError    **error)
{
  WsAccess *a;
  WsExpr *e = NULL;

  g_return_val_if_fail (i < self->accesses->len, FALSE);

  if (!parse_into (PART_INDEX, NULL, index_text, &e, error))
    return FALSE;
  a = g_ptr_array_index (self->accesses, i);
  ws_expr_free (a->index);
  g_free (a->index_text);
  a->index = e;
  a->index_text = g_strdup (index_text);
  return TRUE;
}

gboolean
ws_pattern_set_access_space (WsPattern   *self,
                             guint        i,
                             WsSpace      space,
                             WsAccessKind kind,
                             guint        elem_size,
                             gint64       base,
                             GError     **error)
{
  WsAccess *a;

  g_return_val_if_fail (i < self->accesses->len, FALSE);

  if (!check_access_values (space, kind, elem_size, base, error))
    return FALSE;
  a = g_ptr_array_index (self->accesses, i);
  a->space = space;
  a->kind = kind;
  a->elem_size = elem_size;
  a->base = base;
  return TRUE;
}

void
ws_pattern_remove_accesses (WsPattern *self)
{
  g_ptr_array_set_size (self->accesses, 0);
}

gboolean
ws_pattern_bind_elem_size (WsPattern *self,
                           guint      i,
                           GError   **error)
{
  WsAccess *a;
  gint64 value;

  g_return_val_if_fail (i < self->accesses->len, FALSE);

  if (!ws_pattern_get_param (self, "elem_size", &value))
    {
      g_set_error (error, WS_PATTERN_ERROR, WS_PATTERN_ERROR_INVALID,
                   _("the pattern has no parameter elem_size to take the element size from"));
      return FALSE;
    }
  a = g_ptr_array_index (self->accesses, i);
  if (!check_access_values (a->space, a->kind, (guint) CLAMP (value, 0, 64), a->base, error))
    return FALSE;
  a->elem_size = (guint) value;
  a->elem_from_param = TRUE;
  return TRUE;
}

/* ------------------------------------------------------------------ */

static void
set_unknown_name (Part         part,
                  const char  *owner,
                  const char  *name,
                  GError     **error)
{
  switch (part)
    {
    case PART_DEFINITION:
      g_set_error (error, WS_PATTERN_ERROR, WS_PATTERN_ERROR_INVALID,
                   /* Translators: a definition's name, then the name it uses;
                    * “--set %s=VALUE” is an option of warpscope-cli's */
                   _("the definition of %s uses “%s”, which is neither a parameter nor a definition "
                     "(set it with --set %s=VALUE)"), owner, name, name);
      break;
    case PART_GUARD:
      g_set_error (error, WS_PATTERN_ERROR, WS_PATTERN_ERROR_INVALID,
                   _("the guard uses “%s”, which is neither a parameter nor a definition (set it with --set %s=VALUE)"),
                   name, name);
      break;
    case PART_INDEX:
    default:
      g_set_error (error, WS_PATTERN_ERROR, WS_PATTERN_ERROR_INVALID,
                   /* Translators: an array's name, then the name its index uses */
                   _("the index of %s uses “%s”, which is neither a parameter nor a definition "
                     "(set it with --set %s=VALUE)"), owner, name, name);
      break;
    }
}

/* Every name an expression uses must be a parameter or an earlier
 * definition. owner: the definition's name, or the array's. */
static gboolean
check_names (const WsPattern *self,
             const WsExpr    *expr,
             guint            n_visible_defs,
             Part             part,
             const char      *owner,
             GError         **error)
{
  g_autoptr (GPtrArray) names = g_ptr_array_new ();

  ws_expr_collect_names (expr, names);
  for (guint i = 0; i < names->len; i++)
    {
      const char *name = g_ptr_array_index (names, i);
      guint index;

      if (find_param (self, name))
        continue;
      if (find_definition (self, name, &index))
        {
          if (index < n_visible_defs)
            continue;
          /* the guard and the indices see every definition */
          g_assert (part == PART_DEFINITION);
          g_set_error (error, WS_PATTERN_ERROR, WS_PATTERN_ERROR_INVALID,
                       /* Translators: a definition's name, then the name of one defined after it */
                       _("the definition of %s uses “%s”, which is defined after it"), owner, name);
          return FALSE;
        }
      set_unknown_name (part, owner, name, error);
      return FALSE;
    }
  return TRUE;
}

/* How deep the walks over an expression recurse once they follow its names
 * into the definitions (depths[] holds the definitions' own): bounded like
 * one expression's depth, so that no chain of definitions can exhaust the
 * stack either. */
static gboolean
check_depth (const WsPattern *self,
             const WsExpr    *expr,
             const guint     *depths,
             Part             part,
             const char      *owner,
             guint           *depth,
             GError         **error)
{
  g_autoptr (GPtrArray) names = g_ptr_array_new ();
  guint below = 0;

  ws_expr_collect_names (expr, names);
  for (guint i = 0; i < names->len; i++)
    {
      guint index;

      if (find_definition (self, g_ptr_array_index (names, i), &index))
        below = MAX (below, depths[index]);
    }
  *depth = ws_expr_get_depth (expr) + below;
  if (*depth <= WS_EXPR_MAX_DEPTH)
    return TRUE;
  switch (part)
    {
    case PART_DEFINITION:
      g_set_error (error, WS_PATTERN_ERROR, WS_PATTERN_ERROR_EXPRESSION,
                   /* Translators: a definition's name, then how deep an expression may be */
                   _("the definition of %s is too deep with the definitions it uses: more than %d operators "
                     "inside one another"), owner, WS_EXPR_MAX_DEPTH);
      break;
    case PART_GUARD:
      g_set_error (error, WS_PATTERN_ERROR, WS_PATTERN_ERROR_EXPRESSION,
                   _("the guard is too deep with the definitions it uses: more than %d operators inside one another"),
                   WS_EXPR_MAX_DEPTH);
      break;
    case PART_INDEX:
    default:
      g_set_error (error, WS_PATTERN_ERROR, WS_PATTERN_ERROR_EXPRESSION,
                   /* Translators: an array's name, then how deep an expression may be */
                   _("the index of %s is too deep with the definitions it uses: more than %d operators "
                     "inside one another"), owner, WS_EXPR_MAX_DEPTH);
      break;
    }
  return FALSE;
}

static gboolean
check_depths (const WsPattern *self,
              GError         **error)
{
  g_autofree guint *depths = g_new0 (guint, MAX (self->defs->len, 1));
  guint depth;

  for (guint i = 0; i < self->defs->len; i++)
    {
      const WsDefinition *d = g_ptr_array_index (self->defs, i);

      if (!check_depth (self, d->expr, depths, PART_DEFINITION, d->name, &depths[i], error))
        return FALSE;
    }
  if (self->guard && !check_depth (self, self->guard, depths, PART_GUARD, NULL, &depth, error))
    return FALSE;
  for (guint i = 0; i < self->accesses->len; i++)
    {
      const WsAccess *a = g_ptr_array_index (self->accesses, i);

      if (!check_depth (self, a->index, depths, PART_INDEX, a->array, &depth, error))
        return FALSE;
    }
  return TRUE;
}

gboolean
ws_pattern_validate (const WsPattern *self,
                     GError         **error)
{
  g_return_val_if_fail (self != NULL, FALSE);

  for (guint i = 0; i < self->params->len; i++)
    {
      const WsParam *p = &g_array_index (self->params, WsParam, i);
      if (p->value < p->min || p->value > p->max)
        {
          g_set_error (error, WS_PATTERN_ERROR, WS_PATTERN_ERROR_INVALID,
                       /* Translators: a parameter's name and value, then the least and the most it may be */
                       _("parameter %s = %lld is outside its range %lld…%lld"),
                       p->name, (long long) p->value, (long long) p->min, (long long) p->max);
          return FALSE;
        }
    }
  for (guint i = 0; i < self->defs->len; i++)
    {
      const WsDefinition *d = g_ptr_array_index (self->defs, i);
      if (!check_names (self, d->expr, i, PART_DEFINITION, d->name, error))
        return FALSE;
    }
  if (self->guard && !check_names (self, self->guard, self->defs->len, PART_GUARD, NULL, error))
    return FALSE;
  if (self->accesses->len == 0)
    {
      g_set_error (error, WS_PATTERN_ERROR, WS_PATTERN_ERROR_INVALID, _("the pattern has no memory access"));
      return FALSE;
    }
  for (guint i = 0; i < self->accesses->len; i++)
    {
      const WsAccess *a = g_ptr_array_index (self->accesses, i);
      if (!check_names (self, a->index, self->defs->len, PART_INDEX, a->array, error))
        return FALSE;
    }
  return check_depths (self, error);
}

void
ws_pattern_get_launch_builtins (const WsPattern *self,
                                gint64           b[WS_N_BUILTINS])
{
  memset (b, 0, sizeof (gint64) * WS_N_BUILTINS);
  b[WS_BUILTIN_BLOCK_DIM_X] = self->block.x;
  b[WS_BUILTIN_BLOCK_DIM_Y] = self->block.y;
  b[WS_BUILTIN_BLOCK_DIM_Z] = self->block.z;
  b[WS_BUILTIN_GRID_DIM_X] = self->grid.x;
  b[WS_BUILTIN_GRID_DIM_Y] = self->grid.y;
  b[WS_BUILTIN_GRID_DIM_Z] = self->grid.z;
}

/* A definition's value for this thread, once it has one: a chain of
 * definitions that each use the one before twice (v1 = v0 + v0, …) would
 * otherwise be evaluated 2^n times, 20 s for 28 of them. */
typedef enum
{
  DEF_UNKNOWN,
  DEF_VALUE,
  DEF_FAILED,
} DefState;

typedef struct
{
  DefState state;
  gint64 value;
  GError *error;               /* as it was said the first time */
} DefMemo;

typedef struct
{
  const WsPattern *pattern;
  const WsEvalEnv *env;
  guint depth;
  gboolean named;              /* the error names the definition it failed in */
  DefMemo *memo;               /* per definition */
} ThreadLookup;

static gboolean
lookup_thread_name (const char *name,
                    gpointer    user_data,
                    gint64     *value,
                    GError    **error)
{
  ThreadLookup *lk = user_data;
  const WsDefinition *d;
  const WsParam *p;
  g_autoptr (GError) local = NULL;
  guint index = 0;

  if ((d = find_definition (lk->pattern, name, &index)) != NULL)
    {
      DefMemo *memo = &lk->memo[index];
      gboolean ok;

      /* each definition once per thread, error or not */
      if (memo->state == DEF_VALUE)
        {
          *value = memo->value;
          return TRUE;
        }
      if (memo->state == DEF_FAILED)
        {
          g_propagate_error (error, g_error_copy (memo->error));
          return FALSE;
        }
      if (lk->depth > 64)
        {
          g_set_error (error, WS_EXPR_ERROR, WS_EXPR_ERROR_CYCLE, _("definitions nest too deeply at “%s”"), name);
          return FALSE;
        }
      lk->depth++;
      ok = ws_expr_eval (d->expr, lk->env, value, &local);
      lk->depth--;
      /* the innermost definition is named, once */
      if (!ok && !lk->named)
        {
          GError *named;

          /* Translators: a definition's name, then what went wrong in it:
           * "in the definition of i: division by zero in “N / 0” (column 3)" */
          named = g_error_new (local->domain, local->code, _("in the definition of %s: %s"), name, local->message);
          g_clear_error (&local);
          local = named;
          lk->named = TRUE;
        }
      memo->state = ok ? DEF_VALUE : DEF_FAILED;
      memo->value = ok ? *value : 0;
      if (!ok)
        {
          memo->error = g_error_copy (local);
          g_propagate_error (error, g_steal_pointer (&local));
        }
      return ok;
    }
  if ((p = find_param (lk->pattern, name)) != NULL)
    {
      *value = p->value;
      return TRUE;
    }
  g_set_error (error, WS_EXPR_ERROR, WS_EXPR_ERROR_UNKNOWN_NAME, _("unknown name “%s”"), name);
  return FALSE;
}

gboolean
ws_pattern_eval_thread (const WsPattern *self,
                        const WsExpr    *expr,
                        WsDim3           block_idx,
                        WsDim3           thread_idx,
                        gint64          *value,
                        GError         **error)
{
  WsEvalEnv env = { 0 };
  g_autofree DefMemo *memo = g_new0 (DefMemo, MAX (self->defs->len, 1));
  ThreadLookup lk = { self, &env, 0, FALSE, memo };
  guint64 linear;
  gboolean ok;

  ws_pattern_get_launch_builtins (self, env.builtins);
  env.builtins[WS_BUILTIN_THREAD_IDX_X] = thread_idx.x;
  env.builtins[WS_BUILTIN_THREAD_IDX_Y] = thread_idx.y;
  env.builtins[WS_BUILTIN_THREAD_IDX_Z] = thread_idx.z;
  env.builtins[WS_BUILTIN_BLOCK_IDX_X] = block_idx.x;
  env.builtins[WS_BUILTIN_BLOCK_IDX_Y] = block_idx.y;
  env.builtins[WS_BUILTIN_BLOCK_IDX_Z] = block_idx.z;
  linear = thread_idx.x + (guint64) self->block.x * (thread_idx.y + (guint64) self->block.y * thread_idx.z);
  env.builtins[WS_BUILTIN_LANE] = linear % WS_WARP_SIZE;
  env.builtins[WS_BUILTIN_WARP] = linear / WS_WARP_SIZE;
  env.lookup = lookup_thread_name;
  env.lookup_data = &lk;
  ok = ws_expr_eval (expr, &env, value, error);
  for (guint i = 0; i < self->defs->len; i++)
    g_clear_error (&memo[i].error);
  return ok;
}

/* What the user typed, shown: line breaks and other control characters in
 * an expression are spacing to the parser, escapes here. */
char *
ws_pattern_describe_access (const WsPattern *self,
                            guint            i)
{
  const WsAccess *a = ws_pattern_get_access (self, i);
  static const char *verbs[] = { "load", "store", "atomic" };
  g_autofree char *index = ws_text_printable (a->index_text, 0);

  if (a->base != 0)
    return g_strdup_printf ("%s %s %s[%s] (+%" G_GINT64_FORMAT " B), %u B",
                            ws_space_to_string (a->space), verbs[a->kind], a->array, index,
                            a->base, a->elem_size);
  return g_strdup_printf ("%s %s %s[%s], %u B", ws_space_to_string (a->space), verbs[a->kind],
                          a->array, index, a->elem_size);
}

char *
ws_pattern_to_string (const WsPattern *self)
{
  GString *s = g_string_new (NULL);
  g_autofree char *block = ws_dim3_to_string (self->block);
  g_autofree char *grid = ws_dim3_to_string (self->grid);

  g_string_append_printf (s, "grid %s, block %s", grid, block);
  for (guint i = 0; i < self->params->len; i++)
    {
      const WsParam *p = &g_array_index (self->params, WsParam, i);
      g_string_append_printf (s, "%s%s = %" G_GINT64_FORMAT, i == 0 ? "; " : ", ", p->name, p->value);
    }
  for (guint i = 0; i < self->defs->len; i++)
    {
      const WsDefinition *d = g_ptr_array_index (self->defs, i);
      g_autofree char *text = ws_text_printable (d->text, 0);
      g_string_append_printf (s, "; %s = %s", d->name, text);
    }
  if (self->guard_text)
    {
      g_autofree char *guard = ws_text_printable (self->guard_text, 0);
      g_string_append_printf (s, "; if (%s)", guard);
    }
  for (guint i = 0; i < self->accesses->len; i++)
    {
      g_autofree char *desc = ws_pattern_describe_access (self, i);
      g_string_append_printf (s, "; %s", desc);
    }
  return g_string_free (s, FALSE);
}
