/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A share of a long test's cases, for the sanitized run: sample.h says
 * which. */
#include "sample.h"

#include <stdarg.h>

guint
sample_every (void)
{
  const char *every = g_getenv ("WS_TEST_SAMPLE");

  return every ? CLAMP (g_ascii_strtoull (every, NULL, 10), 1, 1000) : 1;
}

void
sample_init (Sample     *s,
             const char *what,
             guint       at_least)
{
  s->what = g_strdup (what);
  s->every = sample_every ();
  s->at_least = MAX (at_least, 1);
  s->met = 0;
  s->checked = 0;
  s->kinds = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
}

/* One case in each run of K: in run r, the one at r mod K. */
static gboolean
its_turn (const Sample *s,
          guint         n)
{
  return n % s->every == (n / s->every) % s->every;
}

gboolean
sample_keepv (Sample             *s,
              const char * const *kinds)
{
  gboolean keep;

  g_assert (s->kinds != NULL);
  keep = s->every <= 1 || its_turn (s, s->met);
  for (guint i = 0; kinds[i] && !keep; i++)
    keep = GPOINTER_TO_UINT (g_hash_table_lookup (s->kinds, kinds[i])) < s->at_least;
  s->met++;
  if (!keep)
    return FALSE;
  s->checked++;
  for (guint i = 0; kinds[i]; i++)
    {
      guint n = GPOINTER_TO_UINT (g_hash_table_lookup (s->kinds, kinds[i]));
      g_hash_table_insert (s->kinds, g_strdup (kinds[i]), GUINT_TO_POINTER (n + 1));
    }
  return TRUE;
}

gboolean
sample_keep (Sample     *s,
             const char *first_kind,
             ...)
{
  g_autoptr (GPtrArray) kinds = g_ptr_array_new ();
  va_list args;

  va_start (args, first_kind);
  for (const char *kind = first_kind; kind; kind = va_arg (args, const char *))
    g_ptr_array_add (kinds, (gpointer) kind);
  va_end (args);
  g_ptr_array_add (kinds, NULL);
  return sample_keepv (s, (const char * const *) kinds->pdata);
}

void
sample_finish (Sample *s)
{
  if (s->every > 1)
    g_test_message ("%s: %u of %u checked (WS_TEST_SAMPLE=%u: one in %u, and at least %u of each kind)",
                    s->what, s->checked, s->met, s->every, s->every, s->at_least);
  else
    g_test_message ("%s: %u of %u checked", s->what, s->checked, s->met);
  g_clear_pointer (&s->kinds, g_hash_table_unref);
  g_clear_pointer (&s->what, g_free);
}
