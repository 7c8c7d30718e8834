/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/* FG_() for the figures and the plots, gettext's _() under a name of its
 * own: what they draw follows ws_figure_gettext, translated or not (the
 * window's figures are, warpscope-cli's files are not); N_() as the model
 * marks. po/meson.build tells xgettext of FG_ and NG_. */
#include "ws-figure-i18n.h"
#include "ws-i18n.h"

#define FG_(String) ws_figure_gettext (String)
/* the singular or the plural */
#define NG_(Singular, Plural, N) ws_figure_ngettext (Singular, Plural, N)
