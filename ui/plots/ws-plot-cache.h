/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The model's answers for whole launches, kept on disk between runs: a
 * launch followed through L1, L2 and DRAM takes the better part of a
 * second, and a plot or a comparison asks for tens of them, the same ones
 * each time a figure is drawn again. Each answer is a few numbers under
 * its key (the preset, the pattern, the device profile, what is asked),
 * in a folder named after the model as built (tools/model-fingerprint.py),
 * so that a model that changed answers afresh.
 *
 * The folder is $WS_MODEL_CACHE_DIR, else warpscope/ in the user's cache
 * folder; WS_MODEL_CACHE_DIR=off keeps nothing. Files are written whole
 * (a rename), so processes that share the folder never read half of one.
 *
 * Ahead of that folder, the answers shipped for the presets' figures
 * (data/model-answers.txt, made by tools/make-model-answers): the first
 * figure a user draws of a preset needs no launch followed. They are used
 * only by a build of the sources they were made from
 * (WS_MODEL_SOURCE_FINGERPRINT): $WS_MODEL_ANSWERS names another file, or
 * "off" for none; else the installed file, else the source tree's. */

/* FALSE when there is none, or it is not n values. */
gboolean ws_plot_cache_lookup (const char   *kind,
                               const char   *key,
                               double       *values,
                               guint         n);
void     ws_plot_cache_store  (const char   *kind,
                               const char   *key,
                               const double *values,
                               guint         n);
/* Where the answers of this build go, or NULL when none are kept. */
char    *ws_plot_cache_dir    (void);
/* The file of shipped answers in use, or NULL when none is. */
const char *ws_plot_cache_shipped_path  (void);
/* Whether path holds answers made from this build's sources, and how
 * many; the error says what is wrong and where. */
gboolean    ws_plot_cache_shipped_check (const char  *path,
                                         guint       *n_answers,
                                         GError     **error);

G_END_DECLS
