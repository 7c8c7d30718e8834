/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The words that figures and plots draw: titles, axes, legends, notes.
 *
 * In the window they are in the user's language. A chart is also a file of
 * data, though (CSV and JSON through ws_chart_to_csv and ws_chart_to_json),
 * and a file of data must not depend on the locale of whoever made it: the
 * thread that builds a chart for one brackets that with
 * ws_figure_push_untranslated and ws_figure_pop_untranslated. warpscope-cli
 * speaks English throughout and draws in English (ws_figure_set_translated),
 * so a script makes the same figures whatever the locale.
 *
 * Text is translated where it is composed, never stored translated: what
 * ui/plots keeps for later (a metric's name, a level's) is the English, marked
 * with N_(). ws-figure-i18n-private.h defines FG_() and N_() for them. */
void         ws_figure_set_translated     (gboolean    translated);
void         ws_figure_push_untranslated  (void);
void         ws_figure_pop_untranslated   (void);
const char  *ws_figure_gettext            (const char *msgid) G_GNUC_FORMAT (1);
/* the singular or the plural for n, as ngettext() (English without a catalogue) */
const char  *ws_figure_ngettext           (const char *msgid,
                                           const char *msgid_plural,
                                           gulong      n) G_GNUC_FORMAT (1) G_GNUC_FORMAT (2);

G_END_DECLS
