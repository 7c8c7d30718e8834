/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Files read whole (ws-file-reader.h): a regular file is read, no further
 * than the cap; a device, a pipe (with no writer, or one that never
 * stops), a socket or a folder is refused at once, by what it is; a file
 * of /proc, which reports no size, is read up to the cap. */
#include "ws-config.h"
#include "ws-file-reader.h"

#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

static char *scratch;

static void
assert_refused (const char *path,
                int         code,
                const char *fragment)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GFile) file = g_file_new_for_path (path);
  gint64 start = g_get_monotonic_time ();
  g_autofree char *data = ws_file_read_bounded (path, 1 << 20, NULL, &error);
  g_autofree char *again = NULL;

  g_assert_null (data);
  g_test_message ("%s: %s", path, error->message);
  g_assert_error (error, G_IO_ERROR, code);
  g_assert_nonnull (strstr (error->message, fragment));
  g_clear_error (&error);
  again = ws_file_load_bounded (file, 1 << 20, NULL, NULL, &error);
  g_assert_null (again);
  g_assert_error (error, G_IO_ERROR, code);
  /* at once: nothing is read, no writer waited for */
  g_assert_cmpint (g_get_monotonic_time () - start, <, 2 * G_USEC_PER_SEC);
}

static void
test_regular (void)
{
  g_autofree char *path = g_build_filename (scratch, "small.json", NULL);
  g_autofree char *exact = g_strnfill (4096, 'x');
  g_autoptr (GError) error = NULL;
  g_autofree char *data = NULL;
  gsize length = 0;

  g_assert_true (g_file_set_contents (path, exact, 4096, NULL));
  data = ws_file_read_bounded (path, 4096, &length, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (length, ==, 4096);
  g_assert_cmpint (data[4096], ==, '\0');
  g_assert_cmpmem (data, length, exact, 4096);
  g_clear_pointer (&data, g_free);

  /* one byte beyond the cap */
  data = ws_file_read_bounded (path, 4095, &length, &error);
  g_assert_null (data);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_MESSAGE_TOO_LARGE);
  g_clear_error (&error);

  /* empty */
  g_assert_true (g_file_set_contents (path, "", 0, NULL));
  data = ws_file_read_bounded (path, 4096, &length, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (length, ==, 0);
  g_assert_cmpstr (data, ==, "");
}

static void
test_special (void)
{
  g_autofree char *fifo = g_build_filename (scratch, "fifo", NULL);
  g_autofree char *link = g_build_filename (scratch, "zero-link.json", NULL);
  g_autofree char *sock = g_build_filename (scratch, "sock", NULL);
  struct sockaddr_un addr = { .sun_family = AF_UNIX };
  int fd;

  assert_refused ("/dev/zero", G_IO_ERROR_NOT_REGULAR_FILE, "/dev/zero is a device, not a file");
  assert_refused ("/dev/urandom", G_IO_ERROR_NOT_REGULAR_FILE, "is a device");
  assert_refused ("/dev/null", G_IO_ERROR_NOT_REGULAR_FILE, "is a device");
  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  assert_refused (fifo, G_IO_ERROR_NOT_REGULAR_FILE, "is a pipe, not a file");
  g_assert_cmpint (symlink ("/dev/zero", link), ==, 0);
  assert_refused (link, G_IO_ERROR_NOT_REGULAR_FILE, "is a device");
  assert_refused (scratch, G_IO_ERROR_IS_DIRECTORY, "is a folder, not a file");
  fd = socket (AF_UNIX, SOCK_STREAM, 0);
  g_assert_cmpint (fd, >=, 0);
  g_strlcpy (addr.sun_path, sock, sizeof addr.sun_path);
  g_assert_cmpint (bind (fd, (struct sockaddr *) &addr, sizeof addr), ==, 0);
  assert_refused (sock, G_IO_ERROR_NOT_REGULAR_FILE, "is a socket, not a file");
  close (fd);
  assert_refused ("/nonexistent/x.json", G_IO_ERROR_NOT_FOUND, "could not read /nonexistent/x.json");
}

/* A pipe with a writer that never stops is refused as one without. */
static void
test_busy_pipe (void)
{
  g_autofree char *fifo = g_build_filename (scratch, "busy-fifo", NULL);
  g_autofree char *command = NULL;
  g_autoptr (GSubprocess) writer = NULL;
  const char *argv[] = { "sh", "-c", NULL, NULL };

  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  command = g_strdup_printf ("exec yes > '%s'", fifo);
  argv[2] = command;
  writer = g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDERR_SILENCE, NULL);
  g_assert_nonnull (writer);
  assert_refused (fifo, G_IO_ERROR_NOT_REGULAR_FILE, "is a pipe");
  g_subprocess_force_exit (writer);
  /* the writer waits in open () for a reader that never comes: one that
   * opens and closes lets it go */
  {
    int fd = open (fifo, O_RDONLY | O_NONBLOCK);
    if (fd >= 0)
      close (fd);
  }
  g_subprocess_wait (writer, NULL, NULL);
}

/* /proc's files say they are empty: read up to the cap, and no further. */
static void
test_proc (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *status = NULL;
  g_autofree char *maps = NULL;
  gsize length = 0;

  status = ws_file_read_bounded ("/proc/self/status", 1 << 20, &length, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (length, >, 0);
  g_assert_nonnull (strstr (status, "Pid:"));
  maps = ws_file_read_bounded ("/proc/self/maps", 64, &length, &error);
  g_assert_null (maps);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_MESSAGE_TOO_LARGE);
  g_assert_nonnull (strstr (error->message, "holds more than 64 bytes"));
}

int
main (int    argc,
      char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  scratch = g_dir_make_tmp ("ws-file-reader-XXXXXX", NULL);
  g_test_add_func ("/file-reader/regular", test_regular);
  g_test_add_func ("/file-reader/special", test_special);
  g_test_add_func ("/file-reader/busy-pipe", test_busy_pipe);
  g_test_add_func ("/file-reader/proc", test_proc);
  status = g_test_run ();
  {
    const char *rm[] = { "rm", "-rf", scratch, NULL };
    g_autoptr (GSubprocess) p = g_subprocess_newv (rm, G_SUBPROCESS_FLAGS_NONE, NULL);
    g_subprocess_wait (p, NULL, NULL);
  }
  return status;
}
