/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What a GPU worker sends back (lines of answers), as the client reads each
 * line and the backend reads a reply: either it is not an answer to the
 * request (ignored), or progress, a reply, or an error whose message is
 * text; a reply is a device or a measurement, or refused with text. */
#include "fuzz-common.h"

#include <string.h>

#include "ws-device-calibrate.h"
#include "ws-device-json.h"
#include "ws-recording.h"
#include "ws-worker-client-private.h"

int
LLVMFuzzerInitialize (int    *argc,
                      char ***argv)
{
  fuzz_init_glib ();
  return 0;
}

/* A calibration: refused with text, or a profile over defaults that the
 * loader takes back, or refused with text. */
static void
check_calibration (JsonNode *reply)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WsCalibration) c = ws_calibration_from_json (reply, &error);
  g_autoptr (WsCalibratedProfile) cp = NULL;
  g_autoptr (WsDeviceProfile) back = NULL;
  g_autofree char *text = NULL;

  if (c == NULL)
    {
      fuzz_check_error (error);
      return;
    }
  cp = ws_calibrated_profile_new (c, NULL, NULL, "today", &error);
  if (cp == NULL)
    {
      fuzz_check_error (error);
      return;
    }
  text = ws_calibrated_profile_to_data (cp);
  back = ws_device_profile_from_data (text, -1, "calibrated", &error);
  FUZZ_CHECK (back != NULL && error == NULL);
}

static void
check_reply (JsonNode *reply)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WsDeviceInfo) device = ws_device_info_from_json (reply, &error);
  g_autoptr (WsMeasurement) m = NULL;

  if (device == NULL)
    fuzz_check_error (error);
  g_clear_error (&error);
  m = ws_measurement_from_json (reply, &error);
  if (m == NULL)
    fuzz_check_error (error);
  check_calibration (reply);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  const char *line = (const char *) data;
  const char *end = line + size;

  while (line < end)
    {
      const char *newline = memchr (line, '\n', end - line);
      gsize length = (newline ? newline : end) - line;
      g_autoptr (JsonNode) reply = NULL;
      g_autoptr (GError) error = NULL;
      guint done = G_MAXUINT, total = G_MAXUINT;

      switch (ws_worker_answer_parse (line, length, 1, &done, &total, &reply, &error))
        {
        case WS_WORKER_ANSWER_OTHER:
          FUZZ_CHECK (error == NULL && reply == NULL);
          break;
        case WS_WORKER_ANSWER_PROGRESS:
          FUZZ_CHECK (error == NULL && reply == NULL && done != G_MAXUINT && total != G_MAXUINT);
          break;
        case WS_WORKER_ANSWER_REPLY:
          FUZZ_CHECK (error == NULL && reply != NULL);
          check_reply (reply);
          break;
        case WS_WORKER_ANSWER_ERROR:
        case WS_WORKER_ANSWER_FATAL:
        default:
          FUZZ_CHECK (reply == NULL);
          fuzz_check_error (error);
          break;
        }
      line += length + 1;
    }
  return 0;
}
