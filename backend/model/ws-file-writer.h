/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Files written so that nothing is ever half there: the data goes to a
 * temporary file beside the target, which is synced and closed, every step
 * checked, and only then renamed over it. After any error the old file is as
 * it was and the temporary one is gone; so it is after SIGINT, SIGTERM or
 * SIGHUP, which remove it before they end the process (ws-exit-cleanup.h).
 *
 * A path that is a symbolic link is written through: the file it points to
 * is replaced, the link stays. A folder, a device, a pipe or a socket is
 * refused, except standard output (“-”, /dev/stdout, or whatever file
 * descriptor 1 already is), which is written as it is. */

typedef struct _WsFileWriter WsFileWriter;

WsFileWriter *ws_file_writer_open   (const char    *path,
                                     GError       **error);
/* Whether open () would refuse the path (a folder, a device, a missing
 * folder), before any work goes into what is to be written. */
gboolean      ws_file_writer_check  (const char    *path,
                                     GError       **error);
gboolean      ws_file_writer_write  (WsFileWriter  *writer,
                                     const void    *data,
                                     gsize          length,
                                     GError       **error);
/* Syncs, closes and renames into place; frees the writer either way. */
gboolean      ws_file_writer_commit (WsFileWriter  *writer,
                                     GError       **error);
/* Leaves the old file as it was; frees the writer. */
void          ws_file_writer_abort  (WsFileWriter  *writer);

/* The whole file at once. */
gboolean      ws_file_write_atomic  (const char    *path,
                                     const void    *data,
                                     gsize          length,
                                     GError       **error);

/* A write past RLIMIT_FSIZE raises SIGXFSZ, which ends the process before
 * the error can be handled: programs that write files ignore it, so that
 * the write fails with EFBIG instead and the old file stays. */
void          ws_file_writer_init_process (void);

G_END_DECLS
