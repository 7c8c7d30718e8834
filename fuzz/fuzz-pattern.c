/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A pattern as a user or a file could give it (lines of “key value”: block,
 * grid, set, def, guard, then accesses “access SPACE KIND ELEM BASE INDEX”)
 * through the model and into CUDA source: the model either analyses the
 * launch or says why not, with text; the source holds nothing but the
 * generator's own words, numbers and the pattern's validated names. */
#include "fuzz-common.h"

#include <string.h>

#include "ws-analysis.h"
#include "ws-codegen.h"
#include "ws-model-json.h"

/* At most this many threads in a launch: the model must answer quickly (and
 * on one thread: it spreads larger launches over several). */
#define MAX_THREADS 4096

static GHashTable *vocabulary;   /* identifiers, string literals and # lines the generator writes */
static GRegex *access_comment;   /* the comment above each access */
static GRegex *access_name;      /* ws_i3, ws_a3…: the generator's names for access 3 */

typedef enum
{
  TOKEN_IDENT,
  TOKEN_STRING,
  TOKEN_DIRECTIVE,
  TOKEN_COMMENT,
} TokenKind;

/* Calls func on each identifier, string literal, # line and // comment of a
 * generated source; FALSE for a character C source of ours never holds. */
static gboolean
scan_source (const char *s,
             void      (*func) (TokenKind kind, const char *text, gsize length, gpointer data),
             gpointer    data)
{
  gboolean line_start = TRUE;

  while (*s)
    {
      const char *start = s;

      if (*s == '\n')
        {
          line_start = TRUE;
          s++;
          continue;
        }
      if (*s == ' ')
        {
          s++;
          continue;
        }
      if (line_start && *s == '#')
        {
          while (*s && *s != '\n')
            s++;
          func (TOKEN_DIRECTIVE, start, s - start, data);
          continue;
        }
      line_start = FALSE;
      if (s[0] == '/' && s[1] == '/')
        {
          while (*s && *s != '\n')
            s++;
          func (TOKEN_COMMENT, start, s - start, data);
        }
      else if (*s == '"')
        {
          for (s++; *s && *s != '"'; s++)
            if (*s == '\\' && s[1])
              s++;
          if (*s != '"')
            return FALSE;
          s++;
          func (TOKEN_STRING, start, s - start, data);
        }
      else if (g_ascii_isalpha (*s) || *s == '_')
        {
          while (g_ascii_isalnum (*s) || *s == '_')
            s++;
          func (TOKEN_IDENT, start, s - start, data);
        }
      else if (g_ascii_isdigit (*s))
        {
          while (g_ascii_isalnum (*s))
            s++;
        }
      else if (strchr ("{}()[];,.:?*/%+-<>=!&|^~", *s) != NULL)
        s++;
      else
        return FALSE;
    }
  return TRUE;
}

static void
learn (TokenKind   kind,
       const char *text,
       gsize       length,
       gpointer    data)
{
  if (kind != TOKEN_COMMENT)
    g_hash_table_add (vocabulary, g_strndup (text, length));
}

/* The generator's words: what it writes for every space, access and width,
 * with a guard, parameters and definitions of one-letter names. */
static void
learn_vocabulary (void)
{
  static const guint sizes[] = { 1, 2, 4, 8, 16 };

  vocabulary = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (WsSpace space = 0; space < WS_N_SPACES; space++)
    for (WsAccessKind kind = 0; kind < WS_N_ACCESS_KINDS; kind++)
      for (guint k = 0; k < G_N_ELEMENTS (sizes) * 2; k++)
        {
          g_autoptr (WsPattern) p = ws_pattern_new ();
          g_autoptr (WsKernelSource) ks = NULL;

          ws_pattern_set_param (p, "q", 1, NULL);
          ws_pattern_add_definition (p, "d", "lane + q", NULL);
          if (k % 2)
            ws_pattern_set_guard (p, "d < 1000", NULL);
          if (!ws_pattern_add_access (p, "a", space, kind, sizes[k / 2], "lane + warp", 0, NULL) ||
              !ws_pattern_add_access (p, "a", space, kind, sizes[k / 2], "lane", sizes[k / 2], NULL))
            continue;
          ks = ws_codegen_generate (p, NULL, NULL);
          FUZZ_CHECK (ks != NULL);
          FUZZ_CHECK (scan_source (ks->source, learn, NULL));
        }
}

typedef struct
{
  const WsPattern *pattern;
  GHashTable *names;
} Check;

static gboolean
is_symbol_of (const char *ident,
              GHashTable *names)
{
  /* ws_g_in, ws_s_tile, ws_r_a_4: an array's symbol */
  if (!g_str_has_prefix (ident, "ws_") || strlen (ident) < 6 || ident[4] != '_' || strchr ("gsclr", ident[3]) == NULL)
    return FALSE;
  if (g_hash_table_contains (names, ident + 5))
    return TRUE;
  if (ident[3] == 'r')
    {
      g_autofree char *array = g_strdup (ident + 5);
      char *last = strrchr (array, '_');

      if (last && (g_str_equal (last, "_1") || g_str_equal (last, "_2") || g_str_equal (last, "_4") ||
                   g_str_equal (last, "_8") || g_str_equal (last, "_16")))
        {
          *last = '\0';
          return g_hash_table_contains (names, array);
        }
    }
  return FALSE;
}

static void
check_token (TokenKind   kind,
             const char *text,
             gsize       length,
             gpointer    data)
{
  Check *c = data;
  g_autofree char *token = g_strndup (text, length);
  gboolean ok;

  switch (kind)
    {
    case TOKEN_COMMENT:
      ok = g_str_equal (token, "// Generated by Warpscope from a validated pattern. Do not edit.") ||
           g_regex_match (access_comment, token, 0, NULL);
      break;
    case TOKEN_IDENT:
      ok = g_hash_table_contains (vocabulary, token) || g_hash_table_contains (c->names, token) ||
           is_symbol_of (token, c->names) || g_regex_match (access_name, token, 0, NULL);
      break;
    case TOKEN_STRING:
    case TOKEN_DIRECTIVE:
    default:
      ok = g_hash_table_contains (vocabulary, token);
      break;
    }
  if (!ok)
    fprintf (stderr, "not the generator's: %s\n", token);
  FUZZ_CHECK (ok);
}

static void
check_source (const WsPattern      *pattern,
              const WsKernelSource *ks)
{
  Check c = { pattern, g_hash_table_new (g_str_hash, g_str_equal) };

  for (guint i = 0; i < ws_pattern_get_n_params (pattern); i++)
    g_hash_table_add (c.names, ws_pattern_get_param_nth (pattern, i)->name);
  for (guint i = 0; i < ws_pattern_get_n_definitions (pattern); i++)
    g_hash_table_add (c.names, ws_pattern_get_definition (pattern, i)->name);
  for (guint i = 0; i < ws_pattern_get_n_accesses (pattern); i++)
    g_hash_table_add (c.names, ws_pattern_get_access (pattern, i)->array);
  FUZZ_CHECK (g_utf8_validate (ks->source, -1, NULL));
  FUZZ_CHECK (scan_source (ks->source, check_token, &c));
  g_hash_table_unref (c.names);
}

static gboolean
read_access (WsPattern  *p,
             const char *rest,
             GError    **error)
{
  g_auto (GStrv) f = g_strsplit (rest, " ", 6);
  WsSpace space;
  WsAccessKind kind;

  if (g_strv_length (f) < 6 || !ws_space_from_string (f[1], &space) || !ws_access_kind_from_string (f[2], &kind))
    return TRUE;
  return ws_pattern_add_access (p, f[0], space, kind, (guint) g_ascii_strtoull (f[3], NULL, 10),
                                f[5], g_ascii_strtoll (f[4], NULL, 10), error);
}

/* NULL where the pattern is refused, with the error checked. */
static WsPattern *
read_pattern (const char *text)
{
  g_autoptr (WsPattern) p = ws_pattern_new ();
  g_auto (GStrv) lines = g_strsplit (text, "\n", 64);
  g_autoptr (GError) error = NULL;

  for (guint i = 0; lines[i]; i++)
    {
      char *line = lines[i];
      char *rest = strchr (line, ' ');
      gboolean ok = TRUE;
      WsDim3 d;

      if (rest == NULL)
        continue;
      *rest++ = '\0';
      if (g_str_equal (line, "block") || g_str_equal (line, "grid"))
        {
          if (!ws_dim3_parse (rest, &d, &error))
            ok = FALSE;
          else if (g_str_equal (line, "block"))
            ok = ws_pattern_set_block (p, d, &error);
          else
            ok = ws_pattern_set_grid (p, d, &error);
        }
      else if (g_str_equal (line, "set") || g_str_equal (line, "def"))
        {
          char *eq = strchr (rest, '=');

          if (eq == NULL)
            continue;
          *eq++ = '\0';
          ok = g_str_equal (line, "set") ? ws_pattern_set_param (p, rest, g_ascii_strtoll (eq, NULL, 0), &error)
                                         : ws_pattern_add_definition (p, rest, eq, &error);
        }
      else if (g_str_equal (line, "guard"))
        ok = ws_pattern_set_guard (p, rest, &error);
      else if (g_str_equal (line, "access"))
        ok = read_access (p, rest, &error);
      if (!ok)
        {
          fuzz_check_error (error);
          return NULL;
        }
    }
  return g_steal_pointer (&p);
}

/* The pattern crosses to the worker as JSON and comes back the same. */
static void
check_json (const WsPattern *p)
{
  g_autoptr (JsonNode) node = ws_pattern_to_json (p);
  g_autoptr (GError) error = NULL;
  g_autoptr (WsPattern) back = ws_pattern_from_json (node, &error);
  g_autofree char *a = NULL;
  g_autofree char *b = NULL;

  FUZZ_CHECK (back != NULL);
  a = ws_pattern_to_string (p);
  b = ws_pattern_to_string (back);
  FUZZ_CHECK (g_str_equal (a, b));
}

int
LLVMFuzzerInitialize (int    *argc,
                      char ***argv)
{
  fuzz_init_glib ();
  learn_vocabulary ();
  access_comment = g_regex_new ("^// access [0-9]+: [a-z]+ [a-z]+ of ws_[gsclr]_[A-Za-z0-9_]+, [0-9]+ bytes per lane$",
                                G_REGEX_OPTIMIZE, 0, NULL);
  access_name = g_regex_new ("^ws_[iaoe][0-9]+$", G_REGEX_OPTIMIZE, 0, NULL);
  return 0;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autofree char *text = g_strndup ((const char *) data, size);
  g_autoptr (WsPattern) p = read_pattern (text);
  g_autoptr (WsLaunchStats) stats = NULL;
  g_autoptr (WsKernelSource) ks = NULL;
  g_autoptr (GError) error = NULL;
  WsDim3 grid;

  if (p == NULL)
    return 0;
  grid = ws_pattern_get_grid (p);
  if (ws_dim3_count (grid) * ws_dim3_count (ws_pattern_get_block (p)) > MAX_THREADS)
    return 0;
  if (!ws_pattern_validate (p, &error))
    {
      fuzz_check_error (error);
      return 0;
    }
  check_json (p);
  stats = ws_model_analyze_launch (p, NULL, &error);
  if (stats == NULL)
    {
      fuzz_check_error (error);
      return 0;
    }
  for (guint i = 0; i < ws_pattern_get_n_accesses (p); i++)
    {
      g_autoptr (WsWarpResult) r = ws_model_analyze_warp (p, i, WS_DIM3 (grid.x - 1, grid.y - 1, grid.z - 1), 0,
                                                          &error);
      /* the launch was analysed: each of its warps is too */
      FUZZ_CHECK (r != NULL);
    }
  ks = ws_codegen_generate (p, stats, &error);
  if (ks == NULL)
    {
      fuzz_check_error (error);
      return 0;
    }
  check_source (p, ks);
  return 0;
}
