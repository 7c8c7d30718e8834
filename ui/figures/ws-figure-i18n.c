/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "ws-config.h"
#include "ws-figure-i18n.h"

static gint translate_figures = TRUE;
/* how deep this thread is in ws_figure_push_untranslated */
static GPrivate untranslated_depth;

void
ws_figure_set_translated (gboolean translated)
{
  g_atomic_int_set (&translate_figures, !!translated);
}

void
ws_figure_push_untranslated (void)
{
  guint depth = GPOINTER_TO_UINT (g_private_get (&untranslated_depth));

  g_private_set (&untranslated_depth, GUINT_TO_POINTER (depth + 1));
}

void
ws_figure_pop_untranslated (void)
{
  guint depth = GPOINTER_TO_UINT (g_private_get (&untranslated_depth));

  g_return_if_fail (depth > 0);
  g_private_set (&untranslated_depth, GUINT_TO_POINTER (depth - 1));
}

const char *
ws_figure_gettext (const char *msgid)
{
  /* "" would be translated into the catalogue's header */
  if (msgid == NULL || *msgid == '\0')
    return msgid;
  if (!g_atomic_int_get (&translate_figures) || g_private_get (&untranslated_depth) != NULL)
    return msgid;
  return g_dgettext (GETTEXT_PACKAGE, msgid);
}

const char *
ws_figure_ngettext (const char *msgid,
                    const char *msgid_plural,
                    gulong      n)
{
  if (!g_atomic_int_get (&translate_figures) || g_private_get (&untranslated_depth) != NULL)
    return n == 1 ? msgid : msgid_plural;
  return g_dngettext (GETTEXT_PACKAGE, msgid, msgid_plural, n);
}
