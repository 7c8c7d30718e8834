/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-config.h"

#include <glib.h>
#include <libintl.h>
#include <locale.h>

/* The user's locale, and the program's text domain bound to its
 * catalogues: those installed under LOCALEDIR, or, where
 * WARPSCOPE_LOCALEDIR names a folder (LANG/LC_MESSAGES/warpscope.mo in
 * it), those: a translation tried from the build tree, and the tests'. */
static inline void
ws_textdomain_init (void)
{
  const char *dir = g_getenv ("WARPSCOPE_LOCALEDIR");

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, dir != NULL && *dir != '\0' ? dir : LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
}
