/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "ws-cli.h"
#include "ws-presets.h"

#include <errno.h>
#include <string.h>

GOptionEntry *
ws_cli_pattern_entries (WsCliPatternOptions *o)
{
  GOptionEntry entries[] = {
    { "preset", 'p', 0, G_OPTION_ARG_STRING, &o->preset,
      N_("Start from a preset (see “warpscope-cli model --list-presets”)"), N_("ID") },
    { "space", 0, 0, G_OPTION_ARG_STRING, &o->space,
      N_("Memory space: global, shared, constant, local or register (default global)"), N_("SPACE") },
    { "access", 0, 0, G_OPTION_ARG_STRING, &o->access,
      N_("Access: load, store or atomic (default load)"), N_("ACCESS") },
    { "elem-size", 0, 0, G_OPTION_ARG_INT, &o->elem_size,
      N_("Bytes per element: 1, 2, 4, 8 or 16 (default 4)"), N_("BYTES") },
    { "index", 'i', 0, G_OPTION_ARG_STRING, &o->index,
      N_("Index expression, in elements, e.g. 'blockIdx.x * blockDim.x + threadIdx.x'"), N_("EXPR") },
    { "guard", 0, 0, G_OPTION_ARG_STRING, &o->guard,
      N_("Lanes for which this is zero make no access, e.g. 'i < N'"), N_("EXPR") },
    { "define", 'd', 0, G_OPTION_ARG_STRING_ARRAY, &o->defines,
      N_("Define a name for the expressions (repeatable), e.g. 'i=blockIdx.x * blockDim.x + threadIdx.x'"),
      N_("NAME=EXPR") },
    { "block", 'b', 0, G_OPTION_ARG_STRING, &o->block, N_("Threads per block (default 256)"), N_("X[,Y[,Z]]") },
    { "grid", 'g', 0, G_OPTION_ARG_STRING, &o->grid, N_("Blocks in the grid (default 1)"), N_("X[,Y[,Z]]") },
    { "set", 's', 0, G_OPTION_ARG_STRING_ARRAY, &o->sets,
      N_("Set a named parameter (repeatable), e.g. N=4096"), N_("NAME=VALUE") },
    { "base", 0, 0, G_OPTION_ARG_STRING, &o->base,
      N_("Byte offset of element 0 from the array's start (default 0)"), N_("BYTES") },
    { "kernel", 'k', 0, G_OPTION_ARG_FILENAME, &o->kernel,
      N_("A CUDA kernel of your own, in place of a pattern: a .cu file, and which of its kernels after a colon "
         "(--grid, --block and --set NAME=VALUE change the launch its comment gives)"), N_("FILE[:NAME]") },
    { NULL }
  };

  /* --elem-size 0 is a mistake to report, not the default */
  o->elem_size = WS_CLI_NO_ELEM_SIZE;
  return g_memdup2 (entries, sizeof entries);
}

void
ws_cli_pattern_options_clear (WsCliPatternOptions *o)
{
  g_clear_pointer (&o->preset, g_free);
  g_clear_pointer (&o->space, g_free);
  g_clear_pointer (&o->access, g_free);
  g_clear_pointer (&o->index, g_free);
  g_clear_pointer (&o->guard, g_free);
  g_clear_pointer (&o->defines, g_strfreev);
  g_clear_pointer (&o->block, g_free);
  g_clear_pointer (&o->grid, g_free);
  g_clear_pointer (&o->sets, g_strfreev);
  g_clear_pointer (&o->base, g_free);
  g_clear_pointer (&o->kernel, g_free);
}

static gboolean
parse_int64 (const char *option,
             const char *text,
             gint64     *out,
             GError    **error)
{
  char *end = NULL;
  gint64 v;

  errno = 0;
  v = g_ascii_strtoll (text, &end, 0);
  if (*text == '\0' || *end != '\0' || errno != 0)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("%s: “%s” is not a 64-bit integer"), option, text);
      return FALSE;
    }
  *out = v;
  return TRUE;
}

gboolean
ws_cli_parse_assignment (const char  *text,
                         char       **name,
                         gint64      *value,
                         GError     **error)
{
  const char *eq = strchr (text, '=');
  g_autofree char *n = NULL;
  g_autofree char *option = NULL;

  if (eq == NULL || eq == text)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("--set: “%s” is not NAME=VALUE"), text);
      return FALSE;
    }
  n = g_strstrip (g_strndup (text, eq - text));
  option = g_strdup_printf ("--set %s", n);
  if (!ws_name_is_valid (n, error))
    {
      g_prefix_error (error, "--set: ");
      return FALSE;
    }
  if (!parse_int64 (option, g_strstrip ((char *) eq + 1), value, error))
    return FALSE;
  *name = g_steal_pointer (&n);
  return TRUE;
}

/* What the pattern puts before an error of its guard or index, in the
 * user's words ("index: "), or NULL. */
static char *
own_prefix (const char *option)
{
  if (g_str_equal (option, "--index"))
    return g_strdup_printf (_("index: %s"), "");
  if (g_str_equal (option, "--guard"))
    return g_strdup_printf (_("guard: %s"), "");
  return NULL;
}

/* Names the option in an error; the pattern's own "index: " or "guard: "
 * becomes "--index: " rather than "--index: index: ". */
static gboolean
prefix (gboolean    ok,
        GError    **error,
        const char *option)
{
  if (!ok && error && *error)
    {
      g_autofree char *own = g_strdup_printf ("%s: ", option + 2);
      g_autofree char *translated = own_prefix (option);
      const char *message = (*error)->message;
      g_autofree char *text = NULL;

      if (translated && *translated && g_str_has_prefix (message, translated))
        message += strlen (translated);
      else if (g_str_has_prefix (message, own))
        message += strlen (own);
      text = g_strdup_printf ("%s: %s", option, message);
      g_free ((*error)->message);
      (*error)->message = g_steal_pointer (&text);
    }
  return ok;
}

/* Said before the access is made, so that the error names --base and not
 * the option next to it. */
static gboolean
check_base (const WsCliPatternOptions *o,
            gint64                     base,
            guint                      elem_size,
            GError                   **error)
{
  if (o->base == NULL || (base >= 0 && base % elem_size == 0))
    return TRUE;
  /* (long long: xgettext reads no G_GINT64_FORMAT in a message) */
  g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
               _("--base: %lld bytes: it must be a non-negative multiple of the %u-byte element"),
               (long long) base, elem_size);
  return FALSE;
}

WsPattern *
ws_cli_pattern_build (const WsCliPatternOptions *o,
                      GError                   **error)
{
  g_autoptr (WsPattern) p = NULL;
  const WsPreset *preset = NULL;
  WsSpace space = WS_SPACE_GLOBAL;
  WsAccessKind kind = WS_ACCESS_LOAD;
  guint elem_size = 4;
  gint64 base = 0;
  WsDim3 dim;

  if (o->preset)
    {
      preset = ws_preset_lookup (o->preset);
      if (preset == NULL)
        {
          const char *near = ws_preset_suggest (o->preset);

          if (near)
            g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                         _("--preset: no preset “%s”; did you mean %s? (see warpscope-cli model --list-presets)"),
                         o->preset, near);
          else
            g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                         _("--preset: no preset “%s” (see warpscope-cli model --list-presets)"), o->preset);
          return NULL;
        }
      p = ws_preset_build (preset);
    }
  else
    {
      if (o->index == NULL)
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       _("give an index with --index EXPR, or start from a preset with --preset ID"));
          return NULL;
        }
      p = ws_pattern_new ();
    }

  if (o->space && !ws_space_from_string (o->space, &space))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("--space: “%s” is not global, shared, constant, local or register"), o->space);
      return NULL;
    }
  if (o->access && !ws_access_kind_from_string (o->access, &kind))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("--access: “%s” is not load, store or atomic"), o->access);
      return NULL;
    }
  if (o->elem_size != WS_CLI_NO_ELEM_SIZE)
    {
      if (o->elem_size < 0 || !ws_elem_size_is_valid ((guint) o->elem_size))
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       _("--elem-size: %d is not 1, 2, 4, 8 or 16"), o->elem_size);
          return NULL;
        }
      elem_size = (guint) o->elem_size;
    }
  if (o->base && !parse_int64 ("--base", o->base, &base, error))
    return NULL;

  if (o->block && !prefix (ws_dim3_parse (o->block, &dim, error) && ws_pattern_set_block (p, dim, error), error, "--block"))
    return NULL;
  if (o->grid && !prefix (ws_dim3_parse (o->grid, &dim, error) && ws_pattern_set_grid (p, dim, error), error, "--grid"))
    return NULL;

  for (guint i = 0; o->sets && o->sets[i]; i++)
    {
      g_autofree char *name = NULL;
      gint64 value;

      if (!ws_cli_parse_assignment (o->sets[i], &name, &value, error))
        return NULL;
      if (preset && !ws_preset_get_param (preset, name))
        {
          g_autoptr (GString) known = g_string_new (NULL);

          for (guint k = 0; k < WS_PRESET_MAX_PARAMS && preset->params[k].name; k++)
            g_string_append_printf (known, "%s%s", k ? ", " : "", preset->params[k].name);
          g_set_error (error, WS_PATTERN_ERROR, WS_PATTERN_ERROR_INVALID,
                       _("--set: %s has no parameter “%s”; its parameters are %s"), preset->id, name,
                       known->len ? known->str : _("none"));
          return NULL;
        }
      if (!prefix (ws_pattern_set_param (p, name, value, error), error, "--set"))
        return NULL;
    }
  /* the launch the preset's kernel makes of these sizes, unless --grid says otherwise */
  if (preset && o->sets && !o->grid && !prefix (ws_preset_fit_grid (preset, p, error), error, "--set"))
    return NULL;
  for (guint i = 0; o->defines && o->defines[i]; i++)
    {
      const char *eq = strchr (o->defines[i], '=');
      g_autofree char *name = NULL;

      if (eq == NULL || eq == o->defines[i])
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       _("--define: “%s” is not NAME=EXPR"), o->defines[i]);
          return NULL;
        }
      name = g_strstrip (g_strndup (o->defines[i], eq - o->defines[i]));
      if (!prefix (ws_pattern_add_definition (p, name, eq + 1, error), error, "--define"))
        return NULL;
    }
  if (o->guard && !prefix (ws_pattern_set_guard (p, o->guard, error), error, "--guard"))
    return NULL;

  if (!o->preset)
    {
      /* an index that does not parse is --index's; a space, access and size
       * that do not go together are the options' that were given */
      if (!check_base (o, base, elem_size, error))
        return NULL;
      if (!ws_pattern_add_access (p, "data", space, kind, elem_size, o->index, base, error))
        {
          prefix (FALSE, error,
                  g_error_matches (*error, WS_PATTERN_ERROR, WS_PATTERN_ERROR_EXPRESSION) ? "--index"
                  : o->elem_size != WS_CLI_NO_ELEM_SIZE ? "--elem-size"
                  : o->access ? "--access" : "--space");
          return NULL;
        }
    }
  else
    {
      /* options given with a preset change its first access */
      const WsAccess *a = ws_pattern_get_access (p, 0);

      if (o->index && !prefix (ws_pattern_set_access_index (p, 0, o->index, error), error, "--index"))
        return NULL;
      gboolean elem_given = o->elem_size != WS_CLI_NO_ELEM_SIZE;

      if (!check_base (o, base, elem_given ? elem_size : a->elem_size, error))
        return NULL;
      if ((o->space || o->access || elem_given || o->base) &&
          !prefix (ws_pattern_set_access_space (p, 0, o->space ? space : a->space, o->access ? kind : a->kind,
                                                elem_given ? elem_size : a->elem_size,
                                                o->base ? base : a->base, error),
                   error, elem_given ? "--elem-size" : o->access ? "--access" : o->space ? "--space" : "--base"))
        return NULL;
    }

  if (!ws_pattern_validate (p, error))
    return NULL;
  return g_steal_pointer (&p);
}
