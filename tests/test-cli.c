/* SPDX-License-Identifier: GPL-3.0-or-later */
/* warpscope-cli as a script or a person at a terminal runs it, with what
 * they should not have typed: every mistake is one line naming its option,
 * exit status 2; nothing typed reaches the terminal as a control
 * character; a launch too large is refused at once, a long one can be
 * stopped with Ctrl+C. */
#include "ws-config.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <signal.h>
#include <string.h>

/* warpscope-cli with the arguments up to NULL. */
static GSubprocess *
spawn (GSubprocessFlags flags,
       const char      *first,
       va_list          args)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GError) error = NULL;
  GSubprocess *proc;

  g_ptr_array_add (argv, (char *) g_getenv ("WS_CLI"));
  for (const char *arg = first; arg; arg = va_arg (args, const char *))
    g_ptr_array_add (argv, (char *) arg);
  g_ptr_array_add (argv, NULL);
  proc = g_subprocess_newv ((const char * const *) argv->pdata, flags, &error);
  g_assert_no_error (error);
  return proc;
}

/* One line, exit status 2, naming what was wrong; no control character. */
static void
assert_refused (const char *fragment,
                const char *first,
                ...)
{
  g_autoptr (GSubprocess) proc = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *err = NULL;
  va_list args;

  va_start (args, first);
  proc = spawn (G_SUBPROCESS_FLAGS_STDOUT_SILENCE | G_SUBPROCESS_FLAGS_STDERR_PIPE, first, args);
  va_end (args);
  g_assert_true (g_subprocess_communicate_utf8 (proc, NULL, NULL, NULL, &err, &error));
  g_assert_no_error (error);
  g_test_message ("%s", err);
  g_assert_cmpint (g_subprocess_get_exit_status (proc), ==, 2);
  g_assert_true (g_str_has_prefix (err, "warpscope-cli"));
  g_assert_cmpstr (strchr (err, '\n'), ==, "\n");
  for (const char *p = err; *p; p++)
    g_assert_true ((guchar) *p >= 0x20 || *p == '\n');
  if (!strstr (err, fragment))
    g_error ("expected “%s” in “%s”", fragment, err);
}

static void
test_options_named (void)
{
  assert_refused ("--elem-size: 0 is not 1, 2, 4, 8 or 16", "model", "--index", "lane", "--elem-size", "0", NULL);
  assert_refused ("--elem-size: -4 is not", "model", "--index", "lane", "--elem-size", "-4", NULL);
  assert_refused ("--base: 3 bytes", "model", "--index", "lane", "--base", "3", NULL);
  assert_refused ("--base: -8 bytes", "model", "--index", "lane", "--base", "-8", NULL);
  assert_refused ("--base: 4 bytes: it must be a non-negative multiple of the 16-byte element", "model",
                  "--preset", "banks/elem16", "--base", "4", NULL);
  assert_refused ("--access: constant memory is read-only", "model", "--index", "lane", "--space", "constant",
                  "--access", "store", NULL);
  assert_refused ("--index: column 4", "model", "--index", "1 +", NULL);
  assert_refused ("--instruction: -5 is not an instruction", "export", "--preset", "coalescing/stride",
                  "--view", "warp", "--instruction", "-5", "-o", "x.png", NULL);
  assert_refused ("--instruction: 0 is not an instruction", "export", "--preset", "coalescing/strided-sweep",
                  "--view", "plot", "--instruction", "0", "-o", "x.png", NULL);
  assert_refused ("--step: -3", "export", "--preset", "coalescing/stride", "--view", "warp", "--step", "-3",
                  "-o", "x.png", NULL);
}

/* A preset's parameters are its own: another name is an error that lists
 * them; help COMMAND is COMMAND --help, of a command that exists. */
static void
test_names (void)
{
  assert_refused ("--set: coalescing/stride has no parameter “strid”; its parameters are N", "model", "--preset",
                  "coalescing/stride", "--set", "strid=2", NULL);
  /* and a kernel's, before any GPU is looked for */
  assert_refused ("--set: merge/sort-hybrid has no parameter “grup”; its parameters are N, group", "measure",
                  "merge/sort-hybrid", "--set", "grup=8", NULL);
  assert_refused ("help: unknown command “modle”", "help", "modle", NULL);
}

/* A mistyped preset or kernel gets the nearest one; a name near none, no
 * guess. A view that shows none of a pattern's instructions names those
 * that do. */
static void
test_did_you_mean (void)
{
  assert_refused ("no preset “banks/strid”; did you mean banks/stride?", "model", "--preset", "banks/strid", NULL);
  assert_refused ("no preset “stride”; did you mean coalescing/stride?", "model", "--preset", "stride", NULL);
  assert_refused ("no preset “Transpose/Shared-Paded”; did you mean transpose/shared-padded?", "export",
                  "--preset", "Transpose/Shared-Paded", "--view", "plot", "-o", "x.png", NULL);
  assert_refused ("no preset “banks/strid”; did you mean banks/stride?", "export", "--view", "compare",
                  "--compare", "banks/strid,banks/padding", "-o", "x.png", NULL);
  assert_refused ("no kernel “coalescing/strid”; did you mean coalescing/stride?", "measure", "coalescing/strid",
                  NULL);
  assert_refused ("no kernel “banks/strid”; did you mean banks/stride?", "sweep", "banks/strid", NULL);
  {
    const char *argv[] = { g_getenv ("WS_CLI"), "model", "--preset", "xyzzy/plugh", NULL };
    g_autoptr (GSubprocess) proc = NULL;
    g_autoptr (GError) error = NULL;
    g_autofree char *err = NULL;

    proc = g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDOUT_SILENCE | G_SUBPROCESS_FLAGS_STDERR_PIPE, &error);
    g_assert_no_error (error);
    g_assert_true (g_subprocess_communicate_utf8 (proc, NULL, NULL, NULL, &err, &error));
    g_assert_nonnull (strstr (err, "no preset “xyzzy/plugh”"));
    g_assert_null (strstr (err, "did you mean"));
  }
  assert_refused ("--view warp shows none of this pattern's instructions; these views do: banks", "export",
                  "--preset", "banks/stride", "--view", "warp", "-o", "x.png", NULL);
}

/* What a command printed on standard output, and its exit status. */
static char *
run_out (int        *status,
         const char *first,
         ...)
{
  g_autoptr (GSubprocess) proc = NULL;
  g_autoptr (GError) error = NULL;
  char *out = NULL;
  va_list args;

  va_start (args, first);
  proc = spawn (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_SILENCE, first, args);
  va_end (args);
  g_assert_true (g_subprocess_communicate_utf8 (proc, NULL, NULL, &out, NULL, &error));
  g_assert_no_error (error);
  *status = g_subprocess_get_exit_status (proc);
  return out;
}

/* Standard output as one JSON object, of that format, version 1. */
static JsonObject *
json_of (JsonParser *parser,
         const char *text,
         const char *format)
{
  g_autoptr (GError) error = NULL;
  JsonObject *o;

  g_assert_true (json_parser_load_from_data (parser, text, -1, &error));
  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)));
  o = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpstr (json_object_get_string_member (o, "format"), ==, format);
  g_assert_cmpint (json_object_get_int_member (o, "version"), ==, 1);
  return o;
}

/* Every command that prints data prints one JSON object with --json: the
 * kernels, the presets by topic, a launch's analysis, and the device — also
 * without one, where the object says why and the status is 3. */
static void
test_json (void)
{
  g_autoptr (JsonParser) kernels = json_parser_new ();
  g_autoptr (JsonParser) presets = json_parser_new ();
  g_autoptr (JsonParser) device = json_parser_new ();
  g_autofree char *k = NULL;
  g_autofree char *p = NULL;
  g_autofree char *d = NULL;
  JsonObject *o, *first;
  int status;

  k = run_out (&status, "list", "--json", NULL);
  g_assert_cmpint (status, ==, 0);
  o = json_of (kernels, k, "warpscope-kernels");
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (o, "kernels")), >, 50);
  first = json_array_get_object_element (json_object_get_array_member (o, "kernels"), 0);
  g_assert_cmpstr (json_object_get_string_member (first, "id"), ==, "coalescing/sequential");
  g_assert_true (json_object_has_member (first, "params"));
  /* a preset with a kernel text carries it, word for word; one without
   * (a host recipe) has no "source" */
  {
    g_autofree char *path = g_build_filename (WS_SOURCE_DATADIR, "presets", "coalescing", "sequential.cu", NULL);
    g_autofree char *text = NULL;
    g_autoptr (GError) error = NULL;
    JsonArray *all = json_object_get_array_member (o, "kernels");
    gboolean seen_host = FALSE;

    g_assert_true (g_file_get_contents (path, &text, NULL, &error));
    g_assert_cmpstr (json_object_get_string_member (first, "source"), ==, text);
    g_assert_nonnull (strstr (text, "__global__ void sequential("));
    for (guint i = 0; i < json_array_get_length (all); i++)
      {
        JsonObject *kernel = json_array_get_object_element (all, i);

        if (g_str_equal (json_object_get_string_member (kernel, "id"), "transfer/pageable"))
          {
            g_assert_false (json_object_has_member (kernel, "source"));
            seen_host = TRUE;
          }
      }
    g_assert_true (seen_host);
  }
  /* plain list is as it was: ids, titles and parameters, no kernel texts */
  {
    g_autofree char *plain = run_out (&status, "list", NULL);

    g_assert_cmpint (status, ==, 0);
    g_assert_nonnull (strstr (plain, "coalescing/sequential"));
    g_assert_null (strstr (plain, "__global__"));
  }

  p = run_out (&status, "model", "--list-presets", "--json", NULL);
  g_assert_cmpint (status, ==, 0);
  o = json_of (presets, p, "warpscope-presets");
  first = json_array_get_object_element (json_object_get_array_member (o, "topics"), 0);
  g_assert_cmpstr (json_object_get_string_member (first, "id"), ==, "coalescing");
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (first, "presets")), >, 3);

  /* the model's counts below L1 name the Nsight Compute metrics they stand for */
  {
    g_autoptr (JsonParser) model = json_parser_new ();
    g_autofree char *m = run_out (&status, "model", "--preset", "coalescing/stride", "--device", "nvidia-h200",
                                  "--json", NULL);
    JsonObject *ncu;

    g_assert_cmpint (status, ==, 0);
    ncu = json_object_get_object_member (json_of (model, m, "warpscope-model"), "ncu_metrics");
    g_assert_cmpstr (json_object_get_string_member (ncu, "l2_sectors_read"), ==, "lts__t_sectors_srcunit_tex_op_read.sum");
    g_assert_cmpstr (json_object_get_string_member (ncu, "dram_bytes_written"), ==, "dram__bytes_write.sum");
  }

  d = run_out (&status, "device", "--json", NULL);
  o = json_of (device, d, "warpscope-device");
  g_assert_cmpstr (json_object_get_string_member (o, "address"), ==, "local");
  if (status == 3)
    {
      /* why, as a word that scripts can test, whatever the language: here
       * no driver, or a build without CUDA */
      const char *reason = json_object_get_string_member (o, "reason");

      g_assert_cmpuint (strlen (json_object_get_string_member (o, "error")), >, 0);
      g_assert_true (g_str_equal (reason, "no-driver") || g_str_equal (reason, "not-built") ||
                     g_str_equal (reason, "no-device") || g_str_equal (reason, "driver-too-old") ||
                     g_str_equal (reason, "unsupported"));
    }
  else
    {
      g_assert_cmpint (status, ==, 0);
      g_assert_true (json_object_has_member (o, "name"));
    }
}

/* Without a GPU, measure shows the bundled recording's numbers; asked for
 * warm samples, it says that those are cold. */
static void
test_hot_without_gpu (void)
{
  g_autofree char *hot = NULL;
  g_autofree char *cold = NULL;
  int status;

  hot = run_out (&status, "measure", "coalescing/stride", "--hot", NULL);
  if (status != 3)
    {
      g_test_skip ("a GPU is here: measure measures");
      return;
    }
  g_assert_true (g_str_has_prefix (hot, "NOT MEASURED HERE"));
  g_assert_nonnull (strstr (hot, "--hot asks for samples with L2 warm; the recording holds cold ones"));
  cold = run_out (&status, "measure", "coalescing/stride", NULL);
  g_assert_cmpint (status, ==, 3);
  g_assert_null (strstr (cold, "--hot"));
  g_assert_null (strstr (cold, "--samples"));
  /* asked for more samples than the recording holds, it says so */
  {
    g_autofree char *more = run_out (&status, "measure", "coalescing/stride", "--samples", "20", NULL);
    g_assert_cmpint (status, ==, 3);
    g_assert_nonnull (strstr (more, "--samples 20 asks for 20 samples; the recording holds the 10 it was made with"));
  }

  /* a script reading the JSON is told on standard error */
  {
    const char *argv[] = { g_getenv ("WS_CLI"), "sweep", "coalescing/strided-sweep", "--hot", "--json", NULL };
    g_autoptr (GSubprocess) proc = NULL;
    g_autoptr (GError) error = NULL;
    g_autofree char *out = NULL, *err = NULL;

    proc = g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE, &error);
    g_assert_no_error (error);
    g_assert_true (g_subprocess_communicate_utf8 (proc, NULL, NULL, &out, &err, &error));
    g_assert_no_error (error);
    g_assert_cmpint (g_subprocess_get_exit_status (proc), ==, 3);
    g_assert_nonnull (strstr (out, "\"not_measured_here\" : true"));
    g_assert_nonnull (strstr (err, "warpscope-cli sweep: --hot asks for samples with L2 warm; the recording holds cold"));
  }
}

/* model describes a preset's real kernel in words, not in the notation
 * the model reads it from ("@0; out:global:store:4:i :: host=…"). */
static void
test_model_in_words (void)
{
  const char *ids[] = { "transpose/shared", "transfer/streams", "occupancy/registers", "l2/persisting" };

  for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
    {
      int status;
      g_autofree char *out = run_out (&status, "model", "--preset", ids[i], NULL);

      g_assert_cmpint (status, ==, 0);
      g_assert_nonnull (strstr (out, "the real kernel: "));
      g_assert_null (strstr (out, "@0"));
      g_assert_null (strstr (out, ":global:"));
      g_assert_null (strstr (out, " :: "));
      g_assert_null (strstr (out, "| - |"));
      g_assert_null (strstr (out, "regs="));
    }
}

/* Escapes, never the bytes: a terminal would act on them. */
static void
test_control_characters (void)
{
  assert_refused ("no preset “\\x1b[31mred\\x07”", "model", "--preset", "\x1b[31mred\x07", NULL);
  assert_refused ("unknown command “\\x1b]0;title\\x07”", "\x1b]0;title\x07", NULL);
  assert_refused ("unexpected control character \\x1b", "model", "--index", "lane\x1b[2J", NULL);
  assert_refused ("--grid: “\\x1b[H”", "model", "--index", "lane", "--grid", "\x1b[H", NULL);
  assert_refused ("“\\x1b[Hx” is not a valid name", "model", "--index", "lane", "--set", "\x1b[Hx=1", NULL);
}

/* CUDA allows 2^31 × 1024 threads; the model analyses at most 2^32, and
 * says so at once instead of running for hours. */
static void
test_launch_too_large (void)
{
  gint64 start = g_get_monotonic_time ();

  assert_refused ("the model analyses at most 4294967296 (2^32)", "model", "--index", "blockIdx.x * blockDim.x + "
                  "threadIdx.x", "--grid", "2147483647", "--block", "1024", NULL);
  g_assert_cmpint (g_get_monotonic_time () - start, <, 10 * G_USEC_PER_SEC);
}

/* A long analysis stops at Ctrl+C, with status 130. */
static void
test_interrupted (void)
{
  const char *argv[] = { g_getenv ("WS_CLI"), "model", "--index", "blockIdx.x * blockDim.x + threadIdx.x + lane * warp % 7",
                         "--grid", "4194304", "--block", "1024", NULL };
  g_autoptr (GSubprocess) proc = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *err = NULL;
  gint64 sent;

  proc = g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDOUT_SILENCE | G_SUBPROCESS_FLAGS_STDERR_PIPE, &error);
  g_assert_no_error (error);
  g_usleep (G_USEC_PER_SEC);
  g_subprocess_send_signal (proc, SIGINT);
  sent = g_get_monotonic_time ();
  g_assert_true (g_subprocess_communicate_utf8 (proc, NULL, NULL, NULL, &err, &error));
  g_assert_true (g_subprocess_get_if_exited (proc));
  g_assert_cmpint (g_subprocess_get_exit_status (proc), ==, 130);
  g_assert_nonnull (strstr (err, "interrupted"));
  g_assert_cmpint (g_get_monotonic_time () - sent, <, 5 * G_USEC_PER_SEC);
}

/* model --kernel: a course kernel nobody here wrote, by source line, as
 * text and as JSON (today's fields, and each access's line and column);
 * the options that describe a pattern are refused beside it, and a file
 * that is no kernel says what and where. */
static char *
run_ok (const char *first,
        ...)
{
  g_autoptr (GSubprocess) proc = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *out = NULL, *err = NULL;
  va_list args;

  va_start (args, first);
  proc = spawn (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE, first, args);
  va_end (args);
  g_assert_true (g_subprocess_communicate_utf8 (proc, NULL, NULL, &out, &err, &error));
  g_assert_no_error (error);
  if (g_subprocess_get_exit_status (proc) != 0)
    g_error ("exit status %d: %s", g_subprocess_get_exit_status (proc), err);
  return g_steal_pointer (&out);
}

/* model --as-kernel prints a pattern as a .cu file that --kernel reads
 * back: a typed bank-conflicted read, 2 lanes to a bank, 2 wavefronts. */
static void
test_as_kernel (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *text = run_ok ("model", "--space", "shared", "-i", "threadIdx.x * 2 % 64", "-b", "64",
                                  "--as-kernel", NULL);
  g_autofree char *dir = g_dir_make_tmp ("ws-cli-as-kernel-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "pattern.cu", NULL);
  g_autofree char *out = NULL;

  g_assert_nonnull (strstr (text, "__shared__ unsigned int data[63];"));
  g_assert_nonnull (strstr (text, "block = 64, 1, 1"));
  g_assert_true (g_file_set_contents (path, text, -1, &error));
  out = run_ok ("model", "--kernel", path, "--no-hierarchy", NULL);
  g_assert_nonnull (strstr (out, "2.00 wavefronts per instruction"));
  g_assert_cmpint (g_remove (path), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

static void
test_kernel (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "kernels", "transpose.cu", NULL);
  g_autofree char *naive = g_strconcat (path, ":transposeNaive", NULL);
  g_autofree char *text = run_ok ("model", "--kernel", path, "--no-hierarchy", NULL);
  g_autofree char *json = run_ok ("model", "--kernel", naive, "--set", "N=256", "--json", NULL);
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("ws-cli-kernel-XXXXXX", &error);
  g_autofree char *bad = g_build_filename (dir, "bad.cu", NULL);
  JsonObject *o;
  JsonArray *accesses;
  gboolean store_seen = FALSE;

  /* the padded tile's conflicts are the lesson: the column read of the
   * unpadded tile takes 32 wavefronts */
  g_assert_nonnull (strstr (text, "transposeCoalesced"));
  g_assert_nonnull (strstr (text, "line 80: odata[(y+j)*width + x] = tile[threadIdx.x][threadIdx.y + j];"));
  g_assert_nonnull (strstr (text, "32.00 wavefronts per instruction"));

  g_assert_true (json_parser_load_from_data (parser, json, -1, &error));
  g_assert_no_error (error);
  o = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpstr (json_object_get_string_member (o, "format"), ==, "warpscope-model");
  /* 32 × 32 tiles of 32 × 8 threads */
  g_assert_cmpint (json_object_get_int_member (o, "threads"), ==, (256 / 32) * (256 / 32) * 32 * 8);
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (o, "kernel"), "name"), ==,
                   "transposeNaive");
  g_assert_true (json_object_has_member (o, "predicted_ms"));
  accesses = json_object_get_array_member (o, "accesses");
  g_assert_cmpuint (json_array_get_length (accesses), >=, 2);
  for (guint i = 0; i < json_array_get_length (accesses); i++)
    {
      JsonObject *a = json_array_get_object_element (accesses, i);

      g_assert_cmpint (json_object_get_int_member (a, "line"), >, 0);
      g_assert_cmpint (json_object_get_int_member (a, "column"), >, 0);
      /* the naive transpose writes a column: every lane its own sector */
      if (g_str_equal (json_object_get_string_member (a, "access"), "store"))
        {
          g_assert_cmpfloat (json_object_get_double_member (a, "sectors_per_request"), ==, 32.0);
          store_seen = TRUE;
        }
    }
  g_assert_true (store_seen);

  assert_refused ("--kernel: a kernel of your own takes --grid, --block and --set only", "model", "--kernel",
                  path, "--index", "lane", NULL);
  assert_refused ("is a folder, not a file", "model", "--kernel", dir, NULL);
  g_assert_true (g_file_set_contents (bad, "__global__ void k(float *a) {\n  a[threadIdx.x] = foo(1);\n}\n", -1,
                                      &error));
  g_assert_no_error (error);
  assert_refused ("line 2, column", "model", "--kernel", bad, NULL);
  g_unlink (bad);

  /* drawn: the annotated listing, and a line's instruction in the banks */
  {
    g_autofree char *listing = g_build_filename (dir, "listing.svg", NULL);
    g_autofree char *banks = g_build_filename (dir, "banks.png", NULL);
    g_autofree char *svg = NULL;
    g_autofree char *out = run_ok ("export", "--kernel", path, "--view", "listing", "-o", listing, NULL);
    g_autofree char *out2 = run_ok ("export", "--kernel", path, "--view", "banks", "--line", "80", "-o", banks, NULL);

    g_assert_true (g_file_get_contents (listing, &svg, NULL, &error));
    g_assert_no_error (error);
    g_assert_nonnull (strstr (svg, "<svg"));
    g_assert_true (g_file_test (banks, G_FILE_TEST_IS_REGULAR));
    assert_refused ("--line 3: no memory instruction of that line", "export", "--kernel", path, "--view", "banks",
                    "--line", "3", "-o", banks, NULL);
    assert_refused ("--line goes with --kernel", "export", "--preset", "coalescing/stride", "--view", "warp",
                    "--line", "3", "-o", banks, NULL);
    g_unlink (listing);
    g_unlink (banks);
  }
  g_rmdir (dir);
}

/* The guide's page on the command line names every command --help lists,
 * and gives one duration for calibrate, as the command's help does. */
static void
test_guide_names_every_command (void)
{
  int status;
  g_autofree char *help = run_out (&status, "--help", NULL);
  g_autofree char *calibrate = run_out (&status, "calibrate", "--help", NULL);
  g_autofree char *top = g_path_get_dirname (WS_SOURCE_DATADIR);
  g_autofree char *path = g_build_filename (top, "ui", "app-windows", "help", "cli.page", NULL);
  g_autofree char *page = NULL;
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) lines = NULL;
  guint n = 0;

  g_assert_true (g_file_get_contents (path, &page, NULL, &error));
  g_assert_no_error (error);
  lines = g_strsplit (strstr (help, "Commands:\n"), "\n", -1);
  for (guint i = 1; lines[i] && g_str_has_prefix (lines[i], "  "); i++)
    {
      g_auto (GStrv) words = g_strsplit_set (g_strstrip (lines[i]), " ", 2);
      g_autofree char *code = g_strdup_printf ("<code>%s</code>:", words[0]);

      if (strstr (page, code) == NULL)
        g_error ("cli.page does not name the command “%s”", words[0]);
      n++;
    }
  g_assert_cmpuint (n, >=, 9);
  g_assert_nonnull (strstr (calibrate, "in a few seconds"));
  g_assert_nonnull (strstr (page, "in a few seconds"));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/cli/options-named", test_options_named);
  g_test_add_func ("/cli/names", test_names);
  g_test_add_func ("/cli/did-you-mean", test_did_you_mean);
  g_test_add_func ("/cli/model-in-words", test_model_in_words);
  g_test_add_func ("/cli/guide-names-every-command", test_guide_names_every_command);
  g_test_add_func ("/cli/json", test_json);
  g_test_add_func ("/cli/hot-without-gpu", test_hot_without_gpu);
  g_test_add_func ("/cli/control-characters", test_control_characters);
  g_test_add_func ("/cli/launch-too-large", test_launch_too_large);
  g_test_add_func ("/cli/interrupted", test_interrupted);
  g_test_add_func ("/cli/kernel", test_kernel);
  g_test_add_func ("/cli/as-kernel", test_as_kernel);
  return g_test_run ();
}
