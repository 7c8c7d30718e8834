/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "ws-config.h"
#include "ws-textdomain.h"
#include "ws-application.h"
#include "ws-file-writer.h"

#include <glib/gi18n.h>
#include <locale.h>

int
main (int   argc,
      char *argv[])
{
  g_autoptr (WsApplication) app = NULL;

  ws_textdomain_init ();

  ws_file_writer_init_process ();
  app = ws_application_new ();
  return g_application_run (G_APPLICATION (app), argc, argv);
}
