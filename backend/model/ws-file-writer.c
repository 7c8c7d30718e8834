/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "ws-config.h"
#include "ws-file-writer.h"
#include "ws-exit-cleanup.h"

#include <errno.h>
#include <fcntl.h>
#include <gio/gio.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_LINKS 40

struct _WsFileWriter
{
  char *path;        /* what the caller named, for messages */
  char *target;      /* the file replaced: the end of any chain of links */
  char *temp;        /* NULL when writing standard output */
  int fd;
};

static gboolean
fail_errno (GError    **error,
            int         saved,
            const char *path)
{
  g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), _("could not write %s: %s"), path,
               g_strerror (saved));
  return FALSE;
}

/* Follows the chain of links from path to the file they end at, which need
 * not exist yet. */
static char *
resolve_links (const char *path,
               GError    **error)
{
  g_autofree char *current = g_strdup (path);

  for (guint hops = 0; hops < MAX_LINKS; hops++)
    {
      g_autofree char *dir = NULL;
      g_autofree char *link = g_file_read_link (current, NULL);

      if (link == NULL)
        return g_steal_pointer (&current);
      dir = g_path_get_dirname (current);
      g_free (current);
      current = g_path_is_absolute (link) ? g_steal_pointer (&link) : g_build_filename (dir, link, NULL);
    }
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_TOO_MANY_LINKS,
               _("could not write %s: more than %d symbolic links one after another"), path, MAX_LINKS);
  return NULL;
}

static gboolean
is_standard_output (const char        *path,
                    const struct stat *st)
{
  struct stat out;

  if (strcmp (path, "-") == 0)
    return TRUE;
  return st != NULL && fstat (STDOUT_FILENO, &out) == 0 && out.st_dev == st->st_dev && out.st_ino == st->st_ino;
}

/* What the target is: a regular file or nothing yet; FALSE and an error
 * for a folder or a device. */
static gboolean
check_target (WsFileWriter *w,
              struct stat  *st,
              gboolean     *exists,
              GError      **error)
{
  if (stat (w->target, st) != 0)
    {
      if (errno == ENOENT)
        {
          *exists = FALSE;
          return TRUE;
        }
      return fail_errno (error, errno, w->path);
    }
  *exists = TRUE;
  if (S_ISDIR (st->st_mode))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_IS_DIRECTORY, _("could not write %s: it is a folder"), w->path);
      return FALSE;
    }
  if (!S_ISREG (st->st_mode))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE,
                   S_ISCHR (st->st_mode) || S_ISBLK (st->st_mode)
                   ? _("could not write %s: it is a device, not a file (“-” writes to standard output)")
                   : S_ISFIFO (st->st_mode)
                   ? _("could not write %s: it is a pipe, not a file (“-” writes to standard output)")
                   : S_ISSOCK (st->st_mode)
                   ? _("could not write %s: it is a socket, not a file (“-” writes to standard output)")
                   : _("could not write %s: it is a special file, not a file (“-” writes to standard output)"),
                   w->path);
      return FALSE;
    }
  return TRUE;
}

gboolean
ws_file_writer_check (const char *path,
                      GError    **error)
{
  g_autofree char *dir = NULL;
  WsFileWriter w = { .path = (char *) path };
  struct stat st;
  gboolean exists;
  gboolean ok;

  g_return_val_if_fail (path != NULL, FALSE);

  if (strcmp (path, "-") == 0 || (stat (path, &st) == 0 && is_standard_output (path, &st)))
    return TRUE;
  w.target = resolve_links (path, error);
  ok = w.target != NULL && check_target (&w, &st, &exists, error);
  if (ok && !exists)
    {
      dir = g_path_get_dirname (w.target);
      if (!g_file_test (dir, G_FILE_TEST_IS_DIR))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("could not write %s: there is no folder %s"),
                       path, dir);
          ok = FALSE;
        }
    }
  g_free (w.target);
  return ok;
}

WsFileWriter *
ws_file_writer_open (const char *path,
                     GError    **error)
{
  g_autofree char *dir = NULL;
  g_autofree char *base = NULL;
  WsFileWriter *w;
  struct stat st;
  gboolean exists = FALSE;

  g_return_val_if_fail (path != NULL, NULL);

  w = g_new0 (WsFileWriter, 1);
  w->path = g_strdup (path);
  w->fd = -1;
  if (strcmp (path, "-") != 0 && stat (path, &st) == 0 && is_standard_output (path, &st))
    path = "-";
  if (strcmp (path, "-") == 0)
    {
      w->fd = STDOUT_FILENO;
      return w;
    }
  w->target = resolve_links (path, error);
  if (w->target == NULL || !check_target (w, &st, &exists, error))
    goto fail;

  dir = g_path_get_dirname (w->target);
  base = g_path_get_basename (w->target);
  w->temp = g_strdup_printf ("%s/.%s.XXXXXX", dir, base);
  w->fd = g_mkstemp_full (w->temp, O_WRONLY | O_CLOEXEC, 0666);
  if (w->fd < 0)
    {
      int saved = errno;
      g_clear_pointer (&w->temp, g_free);
      fail_errno (error, saved, w->path);
      goto fail;
    }
  /* Ctrl+C or kill while it is written leaves nothing behind either */
  ws_exit_cleanup_add_file (w->temp);
  /* a replaced file keeps its permissions; a new one gets the umask's */
  if (exists && fchmod (w->fd, st.st_mode & 07777) != 0)
    {
      fail_errno (error, errno, w->path);
      goto fail;
    }
  return w;

fail:
  ws_file_writer_abort (w);
  return NULL;
}

gboolean
ws_file_writer_write (WsFileWriter *w,
                      const void   *data,
                      gsize         length,
                      GError      **error)
{
  const char *p = data;

  g_return_val_if_fail (w != NULL && w->fd >= 0, FALSE);

  while (length > 0)
    {
      gssize n = write (w->fd, p, MIN (length, (gsize) G_MAXSSIZE));

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return fail_errno (error, n < 0 ? errno : EIO, w->path);
      p += n;
      length -= (gsize) n;
    }
  return TRUE;
}

static void
writer_free (WsFileWriter *w)
{
  g_free (w->path);
  g_free (w->target);
  g_free (w->temp);
  g_free (w);
}

void
ws_file_writer_abort (WsFileWriter *w)
{
  if (w == NULL)
    return;
  if (w->temp != NULL)
    {
      if (w->fd >= 0)
        close (w->fd);
      g_unlink (w->temp);
      ws_exit_cleanup_remove_file (w->temp);
    }
  writer_free (w);
}

/* The folder's entry for the new file is on disk too, once renamed. */
static void
sync_folder (const char *file)
{
  g_autofree char *dir = g_path_get_dirname (file);
  int fd = open (dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

  if (fd >= 0)
    {
      fsync (fd);
      close (fd);
    }
}

gboolean
ws_file_writer_commit (WsFileWriter *w,
                       GError      **error)
{
  int fd;

  g_return_val_if_fail (w != NULL && w->fd >= 0, FALSE);

  if (w->temp == NULL)
    {
      /* standard output: what is written is out; nothing to rename */
      writer_free (w);
      return TRUE;
    }
  if (fsync (w->fd) != 0)
    {
      fail_errno (error, errno, w->path);
      ws_file_writer_abort (w);
      return FALSE;
    }
  fd = w->fd;
  w->fd = -1;
  if (close (fd) != 0)
    {
      fail_errno (error, errno, w->path);
      ws_file_writer_abort (w);
      return FALSE;
    }
  if (g_rename (w->temp, w->target) != 0)
    {
      fail_errno (error, errno, w->path);
      ws_file_writer_abort (w);
      return FALSE;
    }
  ws_exit_cleanup_remove_file (w->temp);
  sync_folder (w->target);
  writer_free (w);
  return TRUE;
}

gboolean
ws_file_write_atomic (const char *path,
                      const void *data,
                      gsize       length,
                      GError    **error)
{
  WsFileWriter *w = ws_file_writer_open (path, error);

  if (w == NULL)
    return FALSE;
  if (!ws_file_writer_write (w, data, length, error))
    {
      ws_file_writer_abort (w);
      return FALSE;
    }
  return ws_file_writer_commit (w, error);
}

void
ws_file_writer_init_process (void)
{
  signal (SIGXFSZ, SIG_IGN);
}
