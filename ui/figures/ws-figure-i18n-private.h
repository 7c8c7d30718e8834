/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/* _() for the figures and the plots, which do not include <glib/gi18n.h>:
 * what they draw follows ws_figure_gettext; N_() as the model marks. */
#include "ws-figure-i18n.h"
#include "ws-i18n.h"

#define _(String) ws_figure_gettext (String)
/* the singular or the plural: po/meson.build tells xgettext of NG_ */
#define NG_(Singular, Plural, N) ws_figure_ngettext (Singular, Plural, N)
