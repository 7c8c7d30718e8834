/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Placeholder: replaced by the real subcommands. */
#include "ws-cli.h"

int
ws_cli_device (int    argc,
              char **argv)
{
  return ws_cli_fail ("device", WS_CLI_FAILED, "not implemented yet");
}

int
ws_cli_list (int    argc,
            char **argv)
{
  return ws_cli_fail ("list", WS_CLI_FAILED, "not implemented yet");
}

int
ws_cli_measure (int    argc,
               char **argv)
{
  return ws_cli_fail ("measure", WS_CLI_FAILED, "not implemented yet");
}

int
ws_cli_sweep (int    argc,
             char **argv)
{
  return ws_cli_fail ("sweep", WS_CLI_FAILED, "not implemented yet");
}

int
ws_cli_record (int    argc,
              char **argv)
{
  return ws_cli_fail ("record", WS_CLI_FAILED, "not implemented yet");
}
