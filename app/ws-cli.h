/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>
#include <glib/gi18n.h>

#include "ws-pattern.h"

G_BEGIN_DECLS

/* warpscope-cli: one function per subcommand, each in its own file.
 *
 * What it says to a person (its help, its errors, on standard error) is in
 * the user's language: _() for a message, N_() for a command's summary,
 * description and options, which ws_cli_parse translates.  What it writes for
 * a script (JSON, CSV, recordings, figures, its tables' keys) stays English,
 * and its numbers have a point (LC_NUMERIC is C), in any locale. */

enum
{
  WS_CLI_OK = 0,
  WS_CLI_FAILED = 1,     /* ran, but the answer is bad (a mismatch, a failed check) */
  WS_CLI_USAGE = 2,      /* bad input: a flag, an expression, a value */
  WS_CLI_NO_GPU = 3,     /* needs a GPU and there is none usable */
  WS_CLI_UNREACHABLE = 4, /* the GPU's machine could not be reached, or the connection to it was lost */
  WS_CLI_INTERRUPTED = 130, /* stopped by Ctrl+C (128 + SIGINT, as shells report it) */
};

#define WS_CLI_NO_ELEM_SIZE G_MININT

typedef int (*WsCliCommandFunc) (int    argc,
                                 char **argv);

typedef struct
{
  const char *name;
  const char *summary;
  WsCliCommandFunc run;
} WsCliCommand;

int  ws_cli_model   (int argc, char **argv);
int  ws_cli_device  (int argc, char **argv);
int  ws_cli_list    (int argc, char **argv);
int  ws_cli_measure (int argc, char **argv);
int  ws_cli_sweep   (int argc, char **argv);
int  ws_cli_record  (int argc, char **argv);
int  ws_cli_truth   (int argc, char **argv);
int  ws_cli_export  (int argc, char **argv);
int  ws_cli_calibrate (int argc, char **argv);

/* "warpscope-cli COMMAND: message" on stderr, one line; returns status. */
int  ws_cli_fail    (const char *command,
                     int         status,
                     const char *format,
                     ...) G_GNUC_PRINTF (3, 4);

/* Parses argv with the entries, with help text; on a bad flag prints one
 * line and returns FALSE (exit with WS_CLI_USAGE). */
gboolean ws_cli_parse (const char    *command,
                       const char    *parameter_string,
                       const char    *summary,
                       const char    *description,
                       GOptionEntry  *entries,
                       int           *argc,
                       char        ***argv);

/* Options that describe a pattern: shared by model, measure and export. */
typedef struct
{
  char *preset;
  char *space;
  char *access;
  int elem_size;             /* WS_CLI_NO_ELEM_SIZE unless --elem-size was given */
  char *index;
  char *guard;
  char **defines;
  char *block;
  char *grid;
  char **sets;
  char *base;
  char *kernel;              /* --kernel FILE[:NAME]: a kernel of one's own in place of a pattern */
} WsCliPatternOptions;

/* Entries for the options above; free with ws_cli_pattern_options_clear(). */
GOptionEntry *ws_cli_pattern_entries        (WsCliPatternOptions *options);
void          ws_cli_pattern_options_clear  (WsCliPatternOptions *options);
/* The pattern the options describe, or NULL with an error that names the
 * option and what is wrong with it. */
WsPattern    *ws_cli_pattern_build          (const WsCliPatternOptions *options,
                                             GError                   **error);
/* Splits "NAME=VALUE" for --set; FALSE with an error if malformed. */
gboolean      ws_cli_parse_assignment       (const char  *text,
                                             char       **name,
                                             gint64      *value,
                                             GError     **error);

gboolean      ws_cli_stdout_is_terminal     (void);

G_END_DECLS
