/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "ws-config.h"
#include "ws-application.h"
#include "ws-file-writer.h"

#include <glib/gi18n.h>
#include <locale.h>

int
main (int   argc,
      char *argv[])
{
  g_autoptr (WsApplication) app = NULL;

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  ws_file_writer_init_process ();
  app = ws_application_new ();
  return g_application_run (G_APPLICATION (app), argc, argv);
}
