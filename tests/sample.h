/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/* A share of a long test's cases, for the sanitized run (sample.c).
 *
 * With WS_TEST_SAMPLE=K in the environment (K > 1), a test that loops over
 * costly cases (a preset's plot, a window loading a preset, an export)
 * checks one case in each run of K it meets: the first case of the first
 * run, the second of the second, and so on round, so that no inner loop is
 * always met at the same value. Besides, the test names the kinds of each
 * case (its topic, its views, its format…), and a case is checked whenever
 * one of its kinds has been checked fewer times than the test asks
 * (at_least): every kind of case is checked, whatever K. Unset, or 1, every
 * case is checked. Which cases are depends on K and the order of the loops
 * alone, so a failure comes back on the next run; the test's output says
 * how many were checked of how many. */

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  char *what;                /* what a case is, for the count: "plots" */
  guint every;               /* K */
  guint at_least;            /* cases of each kind to check, at least */
  guint met;
  guint checked;
  GHashTable *kinds;         /* kind → how many cases checked so far had it */
} Sample;

/* WS_TEST_SAMPLE, 1 when unset. */
guint    sample_every  (void);
void     sample_init   (Sample     *s,
                        const char *what,
                        guint       at_least);
/* Whether to check the next case, whose kinds follow (NULL after the
 * last); the test skips it when not. */
gboolean sample_keep   (Sample     *s,
                        const char *first_kind,
                        ...) G_GNUC_NULL_TERMINATED;
/* The same, with the kinds in a NULL-terminated array. */
gboolean sample_keepv  (Sample             *s,
                        const char * const *kinds);
/* Says in the test's output how many cases were checked of how many, then
 * clears s. */
void     sample_finish (Sample     *s);

G_END_DECLS
