/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/* N_() marks a string of the model's for translation (xgettext finds it):
 * the model and its JSON keep the English (a preset's title, a bound's
 * name, a comparison's title); what shows it to a person translates it
 * there.
 *
 * A message the model or the backend makes for a person to read (an error)
 * is translated where it is made, with g_dgettext in the program's domain:
 * _() of <glib/gi18n-lib.h>, after ws-config.h, which says GETTEXT_PACKAGE.
 * The window and warpscope-cli show it in the user's language. */
#define N_(String) (String)
