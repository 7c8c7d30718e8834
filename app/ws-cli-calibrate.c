/* SPDX-License-Identifier: GPL-3.0-or-later */
/* warpscope-cli calibrate: a device profile measured with microkernels of
 * our own (backend/gpu/ws-gpu-calibrate.c, run by the GPU worker), over the
 * profile that ships for the same device, or defaults; the session keeps it
 * in the user's cache, where every command and the window find it. */
#include "ws-config.h"
#include "ws-cli-measuring.h"
#include "ws-device-calibrate.h"
#include "ws-device-json.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const calibrate_description =
  /* Translators: the help of “warpscope-cli calibrate --help”; options, values
   * and examples stay as they are */
  N_("Measures what the model's device profile (data/devices/) needs with microkernels of its\n"
     "own, in a few seconds: DRAM read and write bandwidth (16-byte streams over 1 GiB, L2\n"
     "flushed), L2 read requests, sectors and write requests (8 MiB that L2 holds), L1 lines and\n"
     "shared-memory wavefronts per SM cycle, the constant cache per instruction and per address,\n"
     "atomics on one address and spread, host-to-device copies from pageable and pinned memory,\n"
     "the launch of an empty kernel, and what starting a block and a warp costs. The SMs, clocks,\n"
     "L2 size and shared memory come from the driver. Every other field keeps the value of the\n"
     "profile that ships for the same device, or a default when none does; the file says, field\n"
     "by field, which were measured and where the others came from; --base ID|FILE takes them\n"
     "from another profile.\n"
     "\n"
     "Prints each measured value beside the shipped profile's, and keeps the profile in the\n"
     "user's cache (~/.cache/warpscope/devices/ID.json), where warpscope-cli and the window find\n"
     "it for this GPU from then on. -o FILE saves a copy; -o DIR/ saves DIR/ID.json, ID the slug\n"
     "of the device's name (what --device ID reads).\n"
     "\n"
     "Exit status 3 when there is no usable GPU, 4 when its machine cannot be reached.\n"
     "\n"
     "Examples:\n"
     "  warpscope-cli calibrate\n"
     "  warpscope-cli calibrate -o ~/profiles/\n"
     "  warpscope-cli calibrate --json --gpu ssh://gpu01\n");

/* "4213 GB/s", "1.93 cycles": the field's value in its units */
static char *
format_value (const char *field,
              double      v)
{
  if (g_str_has_suffix (field, "_bytes_per_s"))
    return g_strdup_printf ("%.1f GB/s", v / 1e9);
  if (g_str_has_suffix (field, "_per_s"))
    return g_strdup_printf ("%.3g G/s", v / 1e9);
  if (g_str_has_suffix (field, "_ns"))
    return g_strdup_printf ("%.3g ns", v);
  if (g_str_has_suffix (field, "_us"))
    return g_strdup_printf ("%.3g µs", v);
  if (g_str_has_suffix (field, "_mhz"))
    return g_strdup_printf ("%.0f MHz", v);
  if (g_str_has_suffix (field, "_bytes"))
    return g_format_size_full ((guint64) v, G_FORMAT_SIZE_IEC_UNITS);
  if (strstr (field, "cycles"))
    return g_strdup_printf ("%.3g cycles", v);
  return g_strdup_printf ("%g", v);
}

static void
print_table (const WsCalibration       *calibration,
             const WsCalibratedProfile *cp,
             const WsDeviceProfile     *shipped,
             const char                *shipped_name,
             double                     seconds)
{
  printf ("calibrated %s (%s) in %.1f s; the fields not measured come from %s\n\n", cp->profile->name,
          cp->profile->id, seconds, shipped ? shipped_name : "defaults (no profile ships for this device)");
  printf ("  %-32s %14s %14s %7s\n", "field", "calibrated", shipped ? "shipped" : "default", "ratio");
  for (guint i = 0; i < calibration->values->len; i++)
    {
      const WsCalibrated *v = &g_array_index (calibration->values, WsCalibrated, i);
      double now = ws_device_profile_get_number (cp->profile, v->field);
      g_autofree char *a = format_value (v->field, v->value);
      g_autofree char *b = NULL;
      g_autofree char *ratio = NULL;

      if (shipped)
        {
          double then = ws_device_profile_get_number (shipped, v->field);

          b = format_value (v->field, then);
          ratio = then > 0 ? g_strdup_printf ("%.2f", v->value / then) : g_strdup ("—");
        }
      else
        {
          b = g_strdup ("—");
          ratio = g_strdup ("");
        }
      /* a value out of range was not used: the profile kept another */
      printf ("  %-32s %14s %14s %7s%s\n", v->field, a, b, ratio, now == v->value || isnan (now) ? "" : "  (not used)");
    }
  for (guint i = 0; i < cp->notes->len; i++)
    printf ("note: %s\n", (const char *) g_ptr_array_index (cp->notes, i));
}

/* -o FILE, or -o DIR/ (or an existing folder): DIR/ID.json */
static char *
output_path (const char *output,
             const char *id)
{
  g_autofree char *file = g_strconcat (id, ".json", NULL);

  if (g_str_has_suffix (output, "/") || g_file_test (output, G_FILE_TEST_IS_DIR))
    return g_build_filename (output, file, NULL);
  return g_strdup (output);
}

static int
save (const WsCalibratedProfile *cp,
      const char                *output,
      gboolean                   quiet)
{
  g_autofree char *path = output_path (output, cp->profile->id);
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *text = ws_calibrated_profile_to_data (cp);
  g_autoptr (GError) error = NULL;

  if (g_mkdir_with_parents (dir, 0755) != 0)
    return ws_cli_fail ("calibrate", WS_CLI_FAILED, _("-o %s: cannot make %s: %s"), output, dir, g_strerror (errno));
  if (!g_file_set_contents (path, text, -1, &error))
    return ws_cli_fail ("calibrate", WS_CLI_FAILED, "-o %s: %s", output, error->message);
  if (!quiet)
    printf ("\nsaved to %s (warpscope-cli model --device %s reads it)\n", path, path);
  return WS_CLI_OK;
}

static int
calibrate (const WsGpuTarget *target,
           const char        *output,
           const char        *base,
           gboolean           json)
{
  g_autoptr (WsSession) session = ws_cli_session_new (NULL, target);
  g_autoptr (GError) error = NULL;
  g_autoptr (WsDeviceProfile) chosen = NULL;
  g_autoptr (WsSessionCalibration) c = NULL;
  WsCliProgress progress;
  gint64 start;

  if (base && (chosen = ws_device_profile_find (base, &error)) == NULL)
    return ws_cli_fail ("calibrate", WS_CLI_USAGE, "--base: %s", error->message);
  if (ws_cli_probe (session, &error) == NULL)
    return ws_cli_no_gpu ("calibrate", error);
  ws_cli_progress_init (&progress, 1);
  progress.what = _("calibrating");
  start = g_get_monotonic_time ();
  /* the session keeps it where the window and the other commands look */
  c = ws_cli_run_calibrate (session, chosen, base, &progress, &error);
  ws_cli_progress_clear (&progress);
  if (c == NULL)
    {
      if (ws_cli_failure_status (error) == WS_CLI_NO_GPU)
        return ws_cli_no_gpu ("calibrate", error);
      return ws_cli_fail ("calibrate", ws_cli_failure_status (error), "%s", error->message);
    }
  if (json)
    {
      g_autofree char *text = ws_calibrated_profile_to_data (c->calibrated);
      fputs (text, stdout);
    }
  else
    {
      print_table (c->calibration, c->calibrated, c->base, c->base_name, (g_get_monotonic_time () - start) / 1e6);
      printf ("\nkept in %s: warpscope-cli and the window use it for this GPU\n", c->kept);
    }
  if (output)
    return save (c->calibrated, output, json);
  return WS_CLI_OK;
}

int
ws_cli_calibrate (int    argc,
                  char **argv)
{
  WsCliGpuOptions gpu = { 0 };
  g_autoptr (WsGpuTarget) target = NULL;
  g_autofree char *output = NULL;
  g_autofree char *base = NULL;
  gboolean json = FALSE;
  GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
      N_("Save the profile to FILE, or to DIR/ID.json"), N_("FILE|DIR/") },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print the profile (JSON) instead of the table"), NULL },
    { "base", 0, 0, G_OPTION_ARG_STRING, &base,
      N_("Take the fields not measured from this profile (default: the one shipped for the device)"),
      N_("ID|FILE") },
    { NULL }
  };
  int status;

  if (!ws_cli_parse_gpu ("calibrate", NULL, N_("Measure a device profile for the model with microkernels."),
                         calibrate_description, entries, &gpu, &argc, &argv))
    status = WS_CLI_USAGE;
  else if (argc > 1)
    status = ws_cli_fail ("calibrate", WS_CLI_USAGE, _("unexpected argument “%s”"), argv[1]);
  else if (output && *output == '\0')
    status = ws_cli_fail ("calibrate", WS_CLI_USAGE, _("-o: give a file or a folder"));
  else if ((target = ws_cli_gpu_target ("calibrate", &gpu)) == NULL)
    status = WS_CLI_USAGE;
  else
    status = calibrate (target, output, base, json);
  ws_cli_gpu_options_clear (&gpu);
  return status;
}
