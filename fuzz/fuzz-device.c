/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A device profile from a file (data/devices/, or one that calibrate wrote or
 * a user edited): either refused with a message that is text, or loaded;
 * what was loaded saves to data that loads again and saves the same, and the
 * model predicts a small launch with it without failing. */
#include "fuzz-common.h"

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
      return 0;
    }
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
    fuzz_check_error (error);
  else
    FUZZ_CHECK (prediction->timing.predicted_ms >= 0 || prediction->timing.predicted_ms != prediction->timing.predicted_ms);
  return 0;
}
