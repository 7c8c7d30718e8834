/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* Files read whole (a recording, a device profile, a kernel): only a
 * regular file, and never more of it than the reader's cap. A device
 * (/dev/zero), a pipe, a socket or a folder is refused before anything is
 * read, and without waiting for a pipe's writer; a file that reports no
 * size (/proc's) is read up to the cap and no further.
 *
 * Errors are G_IO_ERROR's: IS_DIRECTORY, NOT_REGULAR_FILE (the message
 * says which kind of file it is), MESSAGE_TOO_LARGE when there is more than
 * max_bytes (the caller says its cap in its own words), or what opening
 * and reading said. The contents end with a NUL, not counted in length. */
char     *ws_file_read_bounded   (const char *path,
                                  gsize       max_bytes,
                                  gsize      *length,
                                  GError    **error);
/* The same for any GFile: a local one through the path, another through
 * GIO, read no further than the cap either. */
char     *ws_file_load_bounded   (GFile        *file,
                                  gsize         max_bytes,
                                  gsize        *length,
                                  GCancellable *cancellable,
                                  GError      **error);

G_END_DECLS
