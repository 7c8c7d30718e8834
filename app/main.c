/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "ws-application.h"
#include "ws-file-writer.h"

int
main (int   argc,
      char *argv[])
{
  g_autoptr (WsApplication) app = NULL;

  ws_file_writer_init_process ();
  app = ws_application_new ();
  return g_application_run (G_APPLICATION (app), argc, argv);
}
