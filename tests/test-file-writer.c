/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Files written whole or not at all, through links, never over a folder or a
 * device, and to standard output when asked. */
#include "ws-file-writer.h"

#include <errno.h>
#include <fcntl.h>
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

static char *
temp_dir (void)
{
  g_autoptr (GError) error = NULL;
  char *dir = g_dir_make_tmp ("ws-file-writer-XXXXXX", &error);

  g_assert_no_error (error);
  return dir;
}

static void
remove_dir (const char *dir)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  while ((name = g_dir_read_name (d)))
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      if (g_file_test (path, G_FILE_TEST_IS_DIR) && !g_file_test (path, G_FILE_TEST_IS_SYMLINK))
        remove_dir (path);
      else
        g_unlink (path);
    }
  g_rmdir (dir);
}

static guint
count_entries (const char *dir)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  guint n = 0;

  while (g_dir_read_name (d))
    n++;
  return n;
}

static char *
contents (const char *path)
{
  char *text = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  return text;
}

static void
test_new_and_replaced (void)
{
  g_autofree char *dir = temp_dir ();
  g_autofree char *path = g_build_filename (dir, "a.txt", NULL);
  g_autoptr (GError) error = NULL;
  g_autofree char *first = NULL;
  g_autofree char *second = NULL;
  struct stat st;

  g_assert_true (ws_file_write_atomic (path, "one", 3, &error));
  g_assert_no_error (error);
  first = contents (path);
  g_assert_cmpstr (first, ==, "one");

  /* a replaced file keeps its permissions */
  g_assert_cmpint (g_chmod (path, 0640), ==, 0);
  g_assert_true (ws_file_write_atomic (path, "two", 3, &error));
  second = contents (path);
  g_assert_cmpstr (second, ==, "two");
  g_assert_cmpint (g_stat (path, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0640);
  g_assert_cmpuint (count_entries (dir), ==, 1);
  remove_dir (dir);
}

/* A link stays a link: the file it points to is replaced. */
static void
test_through_links (void)
{
  g_autofree char *dir = temp_dir ();
  g_autofree char *sub = g_build_filename (dir, "sub", NULL);
  g_autofree char *target = g_build_filename (sub, "target.txt", NULL);
  g_autofree char *relative = g_build_filename (dir, "relative", NULL);
  g_autofree char *absolute = g_build_filename (dir, "absolute", NULL);
  g_autofree char *chain = g_build_filename (dir, "chain", NULL);
  g_autofree char *dangling = g_build_filename (dir, "dangling", NULL);
  g_autofree char *created = g_build_filename (sub, "created.txt", NULL);
  g_autofree char *loop = g_build_filename (dir, "loop", NULL);
  g_autoptr (GError) error = NULL;

  g_assert_cmpint (g_mkdir (sub, 0755), ==, 0);
  g_assert_true (g_file_set_contents (target, "old", -1, NULL));
  g_assert_cmpint (symlink ("sub/target.txt", relative), ==, 0);
  g_assert_cmpint (symlink (target, absolute), ==, 0);
  g_assert_cmpint (symlink ("relative", chain), ==, 0);
  g_assert_cmpint (symlink ("sub/created.txt", dangling), ==, 0);
  g_assert_cmpint (symlink ("loop", loop), ==, 0);

  for (guint i = 0; i < 3; i++)
    {
      const char *link = i == 0 ? relative : i == 1 ? absolute : chain;
      g_autofree char *text = g_strdup_printf ("through %u", i);
      g_autofree char *back = NULL;

      g_assert_true (ws_file_write_atomic (link, text, strlen (text), &error));
      g_assert_no_error (error);
      g_assert_true (g_file_test (link, G_FILE_TEST_IS_SYMLINK));
      back = contents (target);
      g_assert_cmpstr (back, ==, text);
    }
  /* a link to a file not there yet makes the file */
  g_assert_true (ws_file_write_atomic (dangling, "new", 3, &error));
  g_assert_true (g_file_test (dangling, G_FILE_TEST_IS_SYMLINK));
  g_assert_true (g_file_test (created, G_FILE_TEST_IS_REGULAR));
  /* a loop of links is an error, not a hang */
  g_assert_false (ws_file_write_atomic (loop, "x", 1, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_TOO_MANY_LINKS);
  g_assert_cmpuint (count_entries (sub), ==, 2);
  remove_dir (dir);
}

static void
test_refused (void)
{
  g_autofree char *dir = temp_dir ();
  g_autofree char *fifo = g_build_filename (dir, "fifo", NULL);
  g_autofree char *link = g_build_filename (dir, "link-to-dir", NULL);
  g_autofree char *missing = g_build_filename (dir, "no", "such", "x.txt", NULL);
  static const struct { const char *path; gint code; const char *fragment; } devices[] = {
    { "/dev/null", G_IO_ERROR_NOT_REGULAR_FILE, "is a device" },
    { "/dev/zero", G_IO_ERROR_NOT_REGULAR_FILE, "is a device" },
  };
  g_autoptr (GError) error = NULL;

  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  g_assert_cmpint (symlink (dir, link), ==, 0);

  g_assert_false (ws_file_writer_check (dir, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_IS_DIRECTORY);
  g_clear_error (&error);
  g_assert_false (ws_file_write_atomic (dir, "x", 1, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_IS_DIRECTORY);
  g_assert_nonnull (strstr (error->message, "is a folder"));
  g_clear_error (&error);
  g_assert_false (ws_file_write_atomic (link, "x", 1, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_IS_DIRECTORY);
  g_clear_error (&error);
  g_assert_false (ws_file_write_atomic (fifo, "x", 1, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE);
  g_assert_nonnull (strstr (error->message, "is a pipe"));
  g_clear_error (&error);
  for (guint i = 0; i < G_N_ELEMENTS (devices); i++)
    {
      g_assert_false (ws_file_writer_check (devices[i].path, &error));
      g_assert_error (error, G_IO_ERROR, devices[i].code);
      g_clear_error (&error);
      g_assert_false (ws_file_write_atomic (devices[i].path, "x", 1, &error));
      g_assert_error (error, G_IO_ERROR, devices[i].code);
      g_assert_nonnull (strstr (error->message, devices[i].fragment));
      g_clear_error (&error);
    }
  g_assert_false (ws_file_writer_check (missing, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_clear_error (&error);
  g_assert_false (ws_file_write_atomic (missing, "x", 1, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_assert_cmpuint (count_entries (dir), ==, 2);
  remove_dir (dir);
}

/* “-” and /dev/stdout are standard output, whatever it is: here a file. */
static void
test_standard_output (void)
{
  g_autofree char *dir = temp_dir ();
  g_autofree char *path = g_build_filename (dir, "out", NULL);
  g_autoptr (GError) error = NULL;
  g_autofree char *text = NULL;
  int saved = dup (STDOUT_FILENO);
  int fd = open (path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

  fflush (stdout);
  g_assert_cmpint (dup2 (fd, STDOUT_FILENO), ==, STDOUT_FILENO);
  close (fd);
  g_assert_true (ws_file_writer_check ("-", &error));
  g_assert_true (ws_file_writer_check ("/dev/stdout", &error));
  g_assert_true (ws_file_write_atomic ("-", "dash ", 5, &error));
  g_assert_true (ws_file_write_atomic ("/dev/stdout", "stdout", 6, &error));
  g_assert_no_error (error);
  g_assert_cmpint (dup2 (saved, STDOUT_FILENO), ==, STDOUT_FILENO);
  close (saved);
  text = contents (path);
  g_assert_cmpstr (text, ==, "dash stdout");
  g_assert_cmpuint (count_entries (dir), ==, 1);
  remove_dir (dir);
}

/* A write that fails (here past the file-size limit) leaves the old file as
 * it was, makes no new one, and leaves no temporary file behind. */
static void
test_failed_write (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *old = NULL;
  g_autofree char *fresh = NULL;
  g_autofree char *big = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *back = NULL;
  struct rlimit limit = { 4096, 4096 };
  WsFileWriter *w;

  if (!g_test_subprocess ())
    {
      g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
      g_test_trap_assert_passed ();
      return;
    }
  dir = temp_dir ();
  old = g_build_filename (dir, "old.json", NULL);
  fresh = g_build_filename (dir, "fresh.json", NULL);
  big = g_malloc0 (65536);
  memset (big, 'x', 65535);
  g_assert_true (g_file_set_contents (old, "{ \"valid\": true }", -1, NULL));

  ws_file_writer_init_process ();
  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &limit), ==, 0);
  g_assert_false (ws_file_write_atomic (old, big, 65535, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_FAILED);
  g_assert_nonnull (strstr (error->message, "old.json"));
  g_clear_error (&error);
  g_assert_false (ws_file_write_atomic (fresh, big, 65535, &error));
  g_assert_nonnull (error);
  g_clear_error (&error);

  /* abandoned half-way: nothing happens to the old file */
  w = ws_file_writer_open (old, &error);
  g_assert_true (ws_file_writer_write (w, "{ \"trunc", 8, &error));
  ws_file_writer_abort (w);

  back = contents (old);
  g_assert_cmpstr (back, ==, "{ \"valid\": true }");
  g_assert_false (g_file_test (fresh, G_FILE_TEST_EXISTS));
  g_assert_cmpuint (count_entries (dir), ==, 1);
  remove_dir (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/file-writer/new-and-replaced", test_new_and_replaced);
  g_test_add_func ("/file-writer/through-links", test_through_links);
  g_test_add_func ("/file-writer/refused", test_refused);
  g_test_add_func ("/file-writer/standard-output", test_standard_output);
  g_test_add_func ("/file-writer/failed-write", test_failed_write);
  return g_test_run ();
}
