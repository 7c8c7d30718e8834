/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A device profile from a file (data/devices/, or one that calibrate wrote or
 * a user edited): either refused with a message that is text, or loaded;
 * what was loaded saves to data that loads again and saves the same, and the
 * model predicts a small launch with it without failing. Its message, and
 * its name and id, go the ways the window and the figures show them (a
 * toast, labels, the model's legend, the hierarchy view: fuzz-text.h). */
#include "fuzz-text.h"

#include <string.h>

#include "ws-device-json.h"
#include "ws-kernel-launch.h"
#include "ws-presets.h"

static WsPattern *small;

int
LLVMFuzzerInitialize (int    *argc,
                      char ***argv)
{
  fuzz_init_glib ();
  small = ws_preset_build (ws_preset_lookup ("coalescing/stride"));
  ws_pattern_set_param (small, "N", 65536, NULL);
  ws_preset_fit_grid (ws_preset_lookup ("coalescing/stride"), small, NULL);
  return 0;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WsDeviceProfile) p = NULL;
  g_autoptr (WsDeviceProfile) again = NULL;
  g_autoptr (WsKernelLaunch) launch = NULL;
  g_autoptr (WsLaunchPrediction) prediction = NULL;
  g_autofree char *text = g_strndup ((const char *) data, size);
  g_autofree char *saved = NULL;
  g_autofree char *resaved = NULL;

  p = ws_device_profile_from_data (text, -1, "fuzz.json", &error);
  if (p == NULL)
    {
      fuzz_check_error (error);
      fuzz_toast_path (error->message);
      return 0;
    }
  fuzz_name_paths (p->name);
  fuzz_name_paths (p->id);
#if WS_HAVE_FIGURES
  {
    const char *texts[] = { p->name, p->id };

    fuzz_draw_texts (texts, G_N_ELEMENTS (texts));
    fuzz_plot_paths (NULL, p->name, p->name ? p->name : p->id);
    fuzz_hierarchy_paths (p, p->name, NULL, NULL);
  }
#endif
  saved = ws_device_profile_to_data (p);
  again = ws_device_profile_from_data (saved, -1, "saved.json", &error);
  if (again == NULL)
    fprintf (stderr, "saved data does not load: %s\n", error->message);
  FUZZ_CHECK (again != NULL);
  resaved = ws_device_profile_to_data (again);
  FUZZ_CHECK (g_str_equal (saved, resaved));
  /* whatever the numbers, a prediction is a number or a message */
  launch = ws_kernel_launch_of_pattern (small);
  prediction = ws_launch_predict (launch, p, NULL, &error);
  if (prediction == NULL)
    {
      fuzz_check_error (error);
      fuzz_toast_path (error->message);
    }
  else
    FUZZ_CHECK (prediction->timing.predicted_ms >= 0 || prediction->timing.predicted_ms != prediction->timing.predicted_ms);
  return 0;
}
