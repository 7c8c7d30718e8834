/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "ws-config.h"
#include "ws-file-reader.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CHUNK 65536

static char *
fail_errno (GError    **error,
            int         saved,
            const char *path)
{
  g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), _("could not read %s: %s"), path,
               g_strerror (saved));
  return NULL;
}

/* A regular file, or an error that says what it is instead. */
static gboolean
check_kind (const struct stat *st,
            const char        *path,
            GError           **error)
{
  if (S_ISREG (st->st_mode))
    return TRUE;
  if (S_ISDIR (st->st_mode))
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_IS_DIRECTORY, _("%s is a folder, not a file"), path);
  else if (S_ISCHR (st->st_mode) || S_ISBLK (st->st_mode))
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE, _("%s is a device, not a file"), path);
  else if (S_ISFIFO (st->st_mode))
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE, _("%s is a pipe, not a file"), path);
  else if (S_ISSOCK (st->st_mode))
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE, _("%s is a socket, not a file"), path);
  else
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE, _("%s is a special file, not a file"), path);
  return FALSE;
}

static char *
too_large (GError    **error,
           const char *path,
           gsize       max_bytes)
{
  /* Translators: a file's name, then the most its reader reads, in bytes */
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_MESSAGE_TOO_LARGE, _("%s holds more than %llu bytes"), path,
               (unsigned long long) max_bytes);
  return NULL;
}

char *
ws_file_read_bounded (const char *path,
                      gsize       max_bytes,
                      gsize      *length,
                      GError    **error)
{
  g_autoptr (GByteArray) data = NULL;
  struct stat st;
  int fd, flags;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (max_bytes < G_MAXSIZE - CHUNK, NULL);

  /* a pipe's open would wait for a writer; a terminal would become ours */
  fd = open (path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0)
    {
      int saved = errno;

      /* a socket cannot be opened at all: say what it is */
      if (stat (path, &st) == 0 && !check_kind (&st, path, error))
        return NULL;
      return fail_errno (error, saved, path);
    }
  if (fstat (fd, &st) != 0)
    {
      int saved = errno;
      close (fd);
      return fail_errno (error, saved, path);
    }
  if (!check_kind (&st, path, error))
    {
      close (fd);
      return NULL;
    }
  if ((gsize) st.st_size > max_bytes)
    {
      close (fd);
      return too_large (error, path, max_bytes);
    }
  if ((flags = fcntl (fd, F_GETFL)) >= 0)
    fcntl (fd, F_SETFL, flags & ~O_NONBLOCK);
  /* what it says its size is, or (/proc) nothing: read to the cap and one
   * byte more, which says whether there is more */
  data = g_byte_array_sized_new (MIN ((gsize) st.st_size, max_bytes) + 1);
  for (;;)
    {
      gsize room = MIN (CHUNK, max_bytes + 1 - data->len);
      gssize n;

      g_byte_array_set_size (data, data->len + room);
      n = read (fd, data->data + data->len - room, room);
      if (n < 0 && errno == EINTR)
        {
          g_byte_array_set_size (data, data->len - room);
          continue;
        }
      if (n < 0)
        {
          int saved = errno;
          close (fd);
          return fail_errno (error, saved, path);
        }
      g_byte_array_set_size (data, data->len - room + (gsize) n);
      if (n == 0)
        break;
      if (data->len > max_bytes)
        {
          close (fd);
          return too_large (error, path, max_bytes);
        }
    }
  close (fd);
  if (length)
    *length = data->len;
  g_byte_array_append (data, (const guint8 *) "", 1);
  return (char *) g_byte_array_free (g_steal_pointer (&data), FALSE);
}

char *
ws_file_load_bounded (GFile        *file,
                      gsize         max_bytes,
                      gsize        *length,
                      GCancellable *cancellable,
                      GError      **error)
{
  g_autofree char *name = NULL;
  g_autoptr (GFileInputStream) in = NULL;
  g_autoptr (GFileInfo) info = NULL;
  g_autoptr (GByteArray) data = NULL;

  g_return_val_if_fail (G_IS_FILE (file), NULL);

  if (g_file_peek_path (file))
    return ws_file_read_bounded (g_file_peek_path (file), max_bytes, length, error);
  /* elsewhere (a GVfs mount): GIO says what kind it is; the cap holds */
  name = g_file_get_parse_name (file);
  info = g_file_query_info (file, G_FILE_ATTRIBUTE_STANDARD_TYPE, G_FILE_QUERY_INFO_NONE, cancellable, error);
  if (info == NULL)
    return NULL;
  if (g_file_info_get_file_type (info) == G_FILE_TYPE_DIRECTORY)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_IS_DIRECTORY, _("%s is a folder, not a file"), name);
      return NULL;
    }
  if (g_file_info_get_file_type (info) != G_FILE_TYPE_REGULAR)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE, _("%s is a special file, not a file"), name);
      return NULL;
    }
  if ((in = g_file_read (file, cancellable, error)) == NULL)
    return NULL;
  data = g_byte_array_new ();
  for (;;)
    {
      gsize room = MIN (CHUNK, max_bytes + 1 - data->len);
      gssize n;

      g_byte_array_set_size (data, data->len + room);
      n = g_input_stream_read (G_INPUT_STREAM (in), data->data + data->len - room, room, cancellable, error);
      if (n < 0)
        return NULL;
      g_byte_array_set_size (data, data->len - room + (gsize) n);
      if (n == 0)
        break;
      if (data->len > max_bytes)
        return too_large (error, name, max_bytes);
    }
  if (length)
    *length = data->len;
  g_byte_array_append (data, (const guint8 *) "", 1);
  return (char *) g_byte_array_free (g_steal_pointer (&data), FALSE);
}
