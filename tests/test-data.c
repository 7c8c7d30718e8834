/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The desktop integration's files, checked with the tools that judge them:
 * desktop-file-validate, appstreamcli, glib-compile-schemas, man; and the
 * Flatpak manifest, which cannot be built here, parsed and read. */
#include "ws-config.h"
#include "svg-summary.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>

static char *
source_file (const char *first,
             ...)
{
  g_autofree char *top = g_path_get_dirname (WS_SOURCE_DATADIR);
  va_list args;
  GString *path = g_string_new (top);
  const char *part;

  va_start (args, first);
  for (part = first; part; part = va_arg (args, const char *))
    {
      g_string_append_c (path, G_DIR_SEPARATOR);
      g_string_append (path, part);
    }
  va_end (args);
  return g_string_free (path, FALSE);
}

/* Runs argv; FALSE (and the test skipped) if its program is missing. */
static gboolean
run (const char *const *argv,
     int                *status,
     char              **out,
     char              **err)
{
  g_autofree char *program = g_find_program_in_path (argv[0]);
  g_autoptr (GError) error = NULL;
  int wait_status;

  if (program == NULL)
    {
      g_autofree char *message = g_strdup_printf ("%s is not installed", argv[0]);
      g_test_skip (message);
      return FALSE;
    }
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL,
                               out, err, &wait_status, &error));
  g_assert_no_error (error);
  *status = WIFEXITED (wait_status) ? WEXITSTATUS (wait_status) : -1;
  return TRUE;
}

/* FALSE when the tool is not installed (the test is skipped). */
static gboolean
assert_tool_accepts (const char *const *argv)
{
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  int status;

  if (!run (argv, &status, &out, &err))
    return FALSE;
  g_test_message ("%s: %s%s", argv[0], out, err);
  g_assert_cmpint (status, ==, 0);
  return TRUE;
}

/* ------------------------------------------------------------------ */

static void
test_desktop_file (void)
{
  g_autofree char *path = source_file ("data", WS_APP_ID ".desktop", NULL);
  const char *argv[] = { "desktop-file-validate", path, NULL };
  g_autoptr (GKeyFile) kf = g_key_file_new ();
  g_autoptr (GError) error = NULL;
  g_autofree char *icon = NULL;
  g_autofree char *exec = NULL;
  g_auto (GStrv) types = NULL;

  g_key_file_load_from_file (kf, path, G_KEY_FILE_NONE, &error);
  g_assert_no_error (error);
  icon = g_key_file_get_string (kf, "Desktop Entry", "Icon", NULL);
  exec = g_key_file_get_string (kf, "Desktop Entry", "Exec", NULL);
  types = g_key_file_get_string_list (kf, "Desktop Entry", "MimeType", NULL, NULL);
  g_assert_cmpstr (icon, ==, WS_APP_ID);
  /* recordings open from Files, several at once */
  g_assert_cmpstr (exec, ==, "warpscope %F");
  g_assert_nonnull (types);
  g_assert_true (g_strv_contains ((const char * const *) types, "application/x-warpscope-recording"));
  /* kernels of one's own open from Files too */
  g_assert_true (g_strv_contains ((const char * const *) types, "text/x-cuda"));
  assert_tool_accepts (argv);
}

/* Removes a folder a test made, and what it holds. */
static void
remove_tree (const char *path)
{
  g_autoptr (GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir && (name = g_dir_read_name (dir)))
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        remove_tree (child);
      else
        g_unlink (child);
    }
  g_rmdir (path);
}

/* Recordings and CUDA sources are MIME types of their own:
 * update-mime-database accepts their definitions, and GIO then names a file
 * NAME.warpscope.json, or any data that is a recording, and a file NAME.cu
 * or NAME.cuh, by them. */
static void
test_mime_type (void)
{
  g_autofree char *source = source_file ("data", WS_APP_ID ".mime.xml", NULL);
  g_autofree char *root = NULL;
  g_autofree char *packages = NULL;
  g_autofree char *mime = NULL;
  g_autofree char *copy = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *dirs = NULL;
  g_autofree char *old_dirs = g_strdup (g_getenv ("XDG_DATA_DIRS"));
  const char *lint[] = { "xmllint", "--noout", source, NULL };
  const char *update[] = { "update-mime-database", NULL, NULL };

  if (!assert_tool_accepts (lint))
    return;
  root = g_dir_make_tmp ("warpscope-mime-XXXXXX", NULL);
  packages = g_build_filename (root, "mime", "packages", NULL);
  mime = g_build_filename (root, "mime", NULL);
  copy = g_build_filename (packages, WS_APP_ID ".xml", NULL);
  update[1] = mime;
  g_assert_true (g_file_get_contents (source, &contents, NULL, NULL));
  g_assert_cmpint (g_mkdir_with_parents (packages, 0755), ==, 0);
  g_assert_true (g_file_set_contents (copy, contents, -1, NULL));
  if (assert_tool_accepts (update))
    {
      dirs = g_strdup_printf ("%s:/usr/share", root);
      g_setenv ("XDG_DATA_DIRS", dirs, TRUE);
      gboolean recording, cuda;

      g_setenv ("XDG_DATA_DIRS", dirs, TRUE);
      g_test_trap_subprocess ("/data/mime-type/guess", 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
      recording = g_test_trap_has_passed ();
      g_test_trap_subprocess ("/data/mime-type/guess-cuda", 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
      cuda = g_test_trap_has_passed ();
      if (old_dirs)
        g_setenv ("XDG_DATA_DIRS", old_dirs, TRUE);
      else
        g_unsetenv ("XDG_DATA_DIRS");
      remove_tree (root);
      g_assert_true (recording);
      g_assert_true (cuda);
    }
  else
    remove_tree (root);
}

/* In a process of its own, which reads the MIME database once. */
static void
test_mime_type_guess (void)
{
  static const char recording[] = "{\n \"format\" : \"warpscope-recording\",\n \"version\" : 1\n}\n";
  g_autofree char *by_name = NULL;
  g_autofree char *by_data = NULL;

  if (!g_test_subprocess ())
    {
      g_test_skip ("run by /data/mime-type");
      return;
    }
  by_name = g_content_type_guess ("h100.warpscope.json", NULL, 0, NULL);
  by_data = g_content_type_guess (NULL, (const guchar *) recording, sizeof recording - 1, NULL);
  g_assert_cmpstr (by_name, ==, "application/x-warpscope-recording");
  g_assert_cmpstr (by_data, ==, "application/x-warpscope-recording");
  g_assert_true (g_content_type_is_a (by_name, "application/json"));
}

/* In a process of its own, as above: a kernel's source and a header of
 * CUDA are text/x-cuda, a kind of C++ source (which Debian 12's
 * shared-mime-info has, and CUDA does not). */
static void
test_mime_type_guess_cuda (void)
{
  g_autofree char *kernel = NULL;
  g_autofree char *header = NULL;
  g_autofree char *plain = NULL;

  if (!g_test_subprocess ())
    {
      g_test_skip ("run by /data/mime-type");
      return;
    }
  kernel = g_content_type_guess ("transpose.cu", NULL, 0, NULL);
  header = g_content_type_guess ("tile.cuh", NULL, 0, NULL);
  plain = g_content_type_guess ("transpose.cpp", NULL, 0, NULL);
  g_assert_cmpstr (kernel, ==, "text/x-cuda");
  g_assert_cmpstr (header, ==, "text/x-cuda");
  g_assert_true (g_content_type_is_a (kernel, "text/x-c++src"));
  g_assert_true (g_content_type_is_a (kernel, "text/plain"));
  g_assert_cmpstr (plain, !=, "text/x-cuda");
}

/* Run by hand from the build, with no schema installed, the program says
 * what to do, in one line, instead of aborting. */
static void
test_missing_schema (void)
{
  const char *program = g_getenv ("WS_PROGRAM");
  g_autofree char *empty = g_dir_make_tmp ("warpscope-schemas-XXXXXX", NULL);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_auto (GStrv) env = g_get_environ ();
  g_autoptr (GError) error = NULL;
  const char *argv[] = { program, "--size=800x600", NULL };
  int status;

  if (program == NULL || *program == '\0')
    {
      g_test_skip ("built without the GTK program");
      return;
    }
  env = g_environ_setenv (env, "GSETTINGS_SCHEMA_DIR", empty, TRUE);
  env = g_environ_setenv (env, "XDG_DATA_DIRS", empty, TRUE);
  env = g_environ_setenv (env, "GSETTINGS_BACKEND", "memory", TRUE);
  env = g_environ_unsetenv (env, "DISPLAY");
  env = g_environ_unsetenv (env, "WAYLAND_DISPLAY");
  g_assert_true (g_spawn_sync (NULL, (char **) argv, env, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, &error));
  g_assert_no_error (error);
  g_rmdir (empty);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 1);
  g_assert_nonnull (strstr (err, "settings schema " WS_APP_ID " is not installed"));
  g_assert_nonnull (strstr (err, "meson devenv"));
  /* one line: no GLib-GIO-ERROR, no trace */
  g_assert_nonnull (strchr (err, '\n'));
  g_assert_cmpstr (strchr (err, '\n') + 1, ==, "");
}

/* What the metainfo says, as far as the tests care. */
typedef struct
{
  GString *text;
  char *id;
  char *launchable;
  char *release;
  GPtrArray *screenshots;
  gboolean content_rating;
} Metainfo;

static void
meta_start (GMarkupParseContext *context,
            const char          *element,
            const char         **names,
            const char         **values,
            gpointer             user_data,
            GError             **error)
{
  Metainfo *m = user_data;

  g_string_truncate (m->text, 0);
  if (g_str_equal (element, "release") && m->release == NULL)
    for (guint i = 0; names[i]; i++)
      if (g_str_equal (names[i], "version"))
        m->release = g_strdup (values[i]);
  if (g_str_equal (element, "content_rating"))
    m->content_rating = TRUE;
}

static void
meta_end (GMarkupParseContext *context,
          const char          *element,
          gpointer             user_data,
          GError             **error)
{
  Metainfo *m = user_data;
  const GSList *stack = g_markup_parse_context_get_element_stack (context);
  const char *parent = stack->next ? stack->next->data : NULL;

  if (g_str_equal (element, "id") && g_strcmp0 (parent, "component") == 0)
    m->id = g_strdup (g_strstrip (m->text->str));
  else if (g_str_equal (element, "launchable"))
    m->launchable = g_strdup (g_strstrip (m->text->str));
  else if (g_str_equal (element, "image"))
    g_ptr_array_add (m->screenshots, g_strdup (g_strstrip (m->text->str)));
}

static void
meta_text (GMarkupParseContext *context,
           const char          *text,
           gsize                len,
           gpointer             user_data,
           GError             **error)
{
  Metainfo *m = user_data;

  g_string_append_len (m->text, text, len);
}

static void
test_metainfo (void)
{
  static const GMarkupParser parser = { meta_start, meta_end, meta_text, NULL, NULL };
  g_autofree char *path = source_file ("data", WS_APP_ID ".metainfo.xml", NULL);
  const char *argv[] = { "appstreamcli", "validate", "--no-net", "--explain", path, NULL };
  g_autofree char *contents = NULL;
  g_autoptr (GMarkupParseContext) context = NULL;
  g_autoptr (GError) error = NULL;
  Metainfo m = { g_string_new (NULL), NULL, NULL, NULL, g_ptr_array_new_with_free_func (g_free), FALSE };
  gsize len;

  g_file_get_contents (path, &contents, &len, &error);
  g_assert_no_error (error);
  context = g_markup_parse_context_new (&parser, 0, &m, NULL);
  g_markup_parse_context_parse (context, contents, len, &error);
  g_assert_no_error (error);

  g_assert_cmpstr (m.id, ==, WS_APP_ID);
  g_assert_cmpstr (m.launchable, ==, WS_APP_ID ".desktop");
  /* the newest release is this version: the About window shows its notes */
  g_assert_cmpstr (m.release, ==, WS_VERSION);
  g_assert_true (m.content_rating);
  g_assert_cmpuint (m.screenshots->len, >, 0);
  for (guint i = 0; i < m.screenshots->len; i++)
    {
      const char *url = g_ptr_array_index (m.screenshots, i);
      g_autofree char *name = g_path_get_basename (url);
      g_autofree char *file = source_file ("data", "screenshots", name, NULL);

      g_assert_true (g_str_has_prefix (url, "https://"));
      g_assert_nonnull (strstr (url, "/data/screenshots/"));
      if (!g_file_test (file, G_FILE_TEST_EXISTS))
        g_test_message ("screenshot %s is not made yet (see data/screenshots/README.md)", name);
    }
  assert_tool_accepts (argv);

  g_string_free (m.text, TRUE);
  g_free (m.id);
  g_free (m.launchable);
  g_free (m.release);
  g_ptr_array_unref (m.screenshots);
}

static void
test_schema (void)
{
  g_autofree char *dir = source_file ("data", NULL);
  const char *argv[] = { "glib-compile-schemas", "--strict", "--dry-run", dir, NULL };

  assert_tool_accepts (argv);
}

/* ------------------------------------------------------------------ */

static JsonObject *
load_manifest (JsonParser *parser)
{
  g_autofree char *path = source_file ("flatpak", WS_APP_ID ".json", NULL);
  g_autoptr (GError) error = NULL;
  JsonNode *root;

  json_parser_load_from_file (parser, path, &error);
  g_assert_no_error (error);
  root = json_parser_get_root (parser);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (root));
  return json_node_get_object (root);
}

static gboolean
has_option (JsonArray  *options,
            const char *option)
{
  for (guint i = 0; options && i < json_array_get_length (options); i++)
    if (g_str_equal (json_array_get_string_element (options, i), option))
      return TRUE;
  return FALSE;
}

static void
test_flatpak_manifest (void)
{
  static const char *const allowed[] = {
    "--share=ipc", "--socket=wayland", "--socket=fallback-x11", "--device=all", NULL
  };
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonObject *manifest = load_manifest (parser);
  JsonArray *finish_args, *modules;
  JsonObject *app = NULL;
  gboolean device_all = FALSE;

  g_assert_cmpstr (json_object_get_string_member (manifest, "id"), ==, WS_APP_ID);
  g_assert_cmpstr (json_object_get_string_member (manifest, "runtime"), ==, "org.gnome.Platform");
  g_assert_cmpstr (json_object_get_string_member (manifest, "sdk"), ==, "org.gnome.Sdk");
  g_assert_cmpstr (json_object_get_string_member (manifest, "command"), ==, "warpscope");

  /* no wider than the display and the GPU */
  finish_args = json_object_get_array_member (manifest, "finish-args");
  for (guint i = 0; i < json_array_get_length (finish_args); i++)
    {
      const char *arg = json_array_get_string_element (finish_args, i);

      g_test_message ("finish-arg %s", arg);
      g_assert_true (g_strv_contains (allowed, arg));
      device_all |= g_str_equal (arg, "--device=all");
    }
  g_assert_true (device_all);

  /* every download is pinned; the last module builds this project with CUDA */
  modules = json_object_get_array_member (manifest, "modules");
  for (guint i = 0; i < json_array_get_length (modules); i++)
    {
      JsonObject *module = json_array_get_object_element (modules, i);
      JsonArray *sources = json_object_get_array_member (module, "sources");

      for (guint j = 0; j < json_array_get_length (sources); j++)
        {
          JsonObject *source = json_array_get_object_element (sources, j);

          if (json_object_has_member (source, "url"))
            {
              const char *sha = json_object_get_string_member_with_default (source, "sha256", "");
              JsonObject *checker = json_object_get_object_member (source, "x-checker-data");

              g_assert_true (g_str_has_prefix (json_object_get_string_member (source, "url"), "https://"));
              g_assert_cmpuint (strlen (sha), ==, 64);
              for (const char *c = sha; *c; c++)
                g_assert_true (g_ascii_isxdigit (*c));
              /* and flatpak-external-data-checker knows where newer ones are */
              g_assert_nonnull (checker);
              g_assert_true (json_object_has_member (checker, "type"));
              g_assert_true (g_str_has_prefix (json_object_get_string_member (checker, "url"), "https://"));
            }
        }
      app = module;
    }
  g_assert_nonnull (app);
  g_assert_cmpstr (json_object_get_string_member (app, "name"), ==, "warpscope");
  g_assert_cmpstr (json_object_get_string_member (app, "buildsystem"), ==, "meson");
  /* NVIDIA's CUDA wheels are x86_64's alone: the toolkit is built there
   * only, and the program with CUDA there, without it elsewhere */
  {
    JsonObject *toolkit = json_array_get_object_element (modules, 0);
    JsonArray *arches = json_object_get_array_member (toolkit, "only-arches");
    JsonObject *arch = json_object_get_object_member (json_object_get_object_member (app, "build-options"), "arch");

    g_assert_cmpstr (json_object_get_string_member (toolkit, "name"), ==, "cuda-toolkit");
    g_assert_cmpuint (json_array_get_length (arches), ==, 1);
    g_assert_cmpstr (json_array_get_string_element (arches, 0), ==, "x86_64");
    g_assert_false (has_option (json_object_get_array_member (app, "config-opts"), "-Dcuda=enabled"));
    g_assert_true (has_option (json_object_get_array_member (json_object_get_object_member (arch, "x86_64"),
                                                             "config-opts"), "-Dcuda=enabled"));
    g_assert_true (has_option (json_object_get_array_member (json_object_get_object_member (arch, "aarch64"),
                                                             "config-opts"), "-Dcuda=disabled"));
  }
}

/* ------------------------------------------------------------------ */

/* The commands `warpscope-cli --help` lists. */
static GStrv
cli_commands (void)
{
  const char *argv[] = { g_getenv ("WS_CLI"), "--help", NULL };
  g_autofree char *out = NULL;
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) lines = NULL;
  g_autoptr (GStrvBuilder) commands = g_strv_builder_new ();
  gboolean in_commands = FALSE;

  g_assert_nonnull (argv[0]);
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, 0, NULL, NULL, &out, NULL, NULL, &error));
  g_assert_no_error (error);
  lines = g_strsplit (out, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      if (g_str_equal (lines[i], "Commands:"))
        in_commands = TRUE;
      else if (in_commands && g_str_has_prefix (lines[i], "  "))
        {
          g_auto (GStrv) words = g_strsplit (g_strstrip (lines[i]), " ", 2);
          g_strv_builder_add (commands, words[0]);
        }
      else if (in_commands)
        break;
    }
  return g_strv_builder_end (commands);
}

/* The long options a command's --help lists, or NULL if it has no help yet. */
static GPtrArray *
cli_options (const char *command)
{
  const char *argv[] = { g_getenv ("WS_CLI"), command, "--help", NULL };
  g_autofree char *out = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GRegex) regex = g_regex_new ("^  (?:-\\w, )?(--[a-z][a-z0-9-]*)", G_REGEX_MULTILINE, 0, NULL);
  g_autoptr (GMatchInfo) match = NULL;
  GPtrArray *options = g_ptr_array_new_with_free_func (g_free);
  int status;

  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, 0, NULL, NULL, &out, NULL, &status, &error));
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, NULL))
    {
      g_ptr_array_unref (options);
      return NULL;
    }
  g_regex_match (regex, out, 0, &match);
  for (; g_match_info_matches (match); g_match_info_next (match, NULL))
    {
      g_autofree char *option = g_match_info_fetch (match, 1);

      if (!g_str_equal (option, "--help") && !g_str_has_prefix (option, "--help-"))
        g_ptr_array_add (options, g_steal_pointer (&option));
    }
  return options;
}

static void
test_man_page (void)
{
  g_autofree char *path = source_file ("docs", "warpscope-cli.1", NULL);
  const char *argv[] = { "man", "--warnings", "-E", "UTF-8", "-l", path, NULL };
  g_autofree char *source = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_auto (GStrv) commands = cli_commands ();
  g_autoptr (GString) undocumented = g_string_new (NULL);
  g_autoptr (GError) error = NULL;
  int status;

  /* every command has its own subsection, every option is mentioned */
  g_file_get_contents (path, &source, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_strv_length (commands), >=, 8);
  for (guint i = 0; commands[i]; i++)
    {
      g_autofree char *heading = g_strdup_printf ("\n.SS \"%s", commands[i]);
      g_autoptr (GPtrArray) options = cli_options (commands[i]);

      g_test_message ("command %s", commands[i]);
      g_assert_nonnull (strstr (source, heading));
      for (guint j = 0; options && j < options->len; j++)
        {
          g_autoptr (GString) escaped = g_string_new (g_ptr_array_index (options, j));

          g_string_replace (escaped, "-", "\\-", 0);
          if (!strstr (source, escaped->str))
            g_string_append_printf (undocumented, " %s %s", commands[i], (char *) g_ptr_array_index (options, j));
        }
    }

  /* it renders, with no warning from groff */
  if (!run (argv, &status, &out, &err))
    return;
  g_assert_cmpint (status, ==, 0);
  g_assert_cmpstr (err, ==, "");
  g_assert_nonnull (strstr (out, "warpscope-cli"));

  if (undocumented->len)
    {
      g_autofree char *message = g_strdup_printf ("options missing from docs/warpscope-cli.1:%s",
                                                  undocumented->str);
      g_test_incomplete (message);
    }
}

/* ------------------------------------------------------------------ */

static void
check_icon (const char *path,
            const char *size)
{
  SvgSummary s;

  svg_summary_read (&s, path);
  g_assert_cmpstr (s.root, ==, "svg");
  g_assert_cmpstr (s.width, ==, size);
  g_assert_cmpstr (s.height, ==, size);
  /* drawn shapes only: no embedded bitmaps, no text that needs a font */
  g_assert_cmpuint (s.images + s.texts, ==, 0);
  svg_summary_clear (&s);
}

static void
test_icons (void)
{
  g_autofree char *scalable = source_file ("data", "icons", "hicolor", "scalable", "apps", WS_APP_ID ".svg", NULL);
  g_autofree char *symbolic = source_file ("data", "icons", "hicolor", "symbolic", "apps",
                                           WS_APP_ID "-symbolic.svg", NULL);

  check_icon (scalable, "128");
  check_icon (symbolic, "16");
}

/* Every figure of the gallery the README shows is one docs/gallery/make.sh
 * makes, and is in docs/gallery. */
static void
test_gallery (void)
{
  g_autofree char *readme_path = source_file ("README.md", NULL);
  g_autofree char *script_path = source_file ("docs", "gallery", "make.sh", NULL);
  g_autofree char *readme = NULL;
  g_autofree char *script = NULL;
  g_autoptr (GRegex) shown = g_regex_new ("\\]\\(docs/gallery/([a-z0-9-]+)\\.png\\)", 0, 0, NULL);
  g_autoptr (GMatchInfo) match = NULL;
  guint n = 0;

  g_assert_true (g_file_get_contents (readme_path, &readme, NULL, NULL));
  g_assert_true (g_file_get_contents (script_path, &script, NULL, NULL));
  for (g_regex_match (shown, readme, 0, &match); g_match_info_matches (match); g_match_info_next (match, NULL))
    {
      g_autofree char *name = g_match_info_fetch (match, 1);
      g_autofree char *line = g_strdup_printf ("\nfig %s ", name);
      g_autofree char *file = g_strdup_printf ("%s.png", name);
      g_autofree char *png = source_file ("docs", "gallery", file, NULL);

      if (strstr (script, line) == NULL)
        g_error ("the README shows docs/gallery/%s.png, which docs/gallery/make.sh does not make", name);
      g_assert_true (g_file_test (png, G_FILE_TEST_IS_REGULAR));
      n++;
    }
  g_assert_cmpuint (n, >, 0);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/data/desktop-file", test_desktop_file);
  g_test_add_func ("/data/metainfo", test_metainfo);
  g_test_add_func ("/data/schema", test_schema);
  g_test_add_func ("/data/icons", test_icons);
  g_test_add_func ("/data/flatpak-manifest", test_flatpak_manifest);
  g_test_add_func ("/data/man-page", test_man_page);
  g_test_add_func ("/data/gallery", test_gallery);
  g_test_add_func ("/data/mime-type", test_mime_type);
  g_test_add_func ("/data/mime-type/guess", test_mime_type_guess);
  g_test_add_func ("/data/mime-type/guess-cuda", test_mime_type_guess_cuda);
  g_test_add_func ("/data/missing-schema", test_missing_schema);

  return g_test_run ();
}
