/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Placeholder: replaced by the real subcommands. */
#include "ws-cli.h"

int
ws_cli_export (int    argc,
              char **argv)
{
  return ws_cli_fail ("export", WS_CLI_FAILED, "not implemented yet");
}
