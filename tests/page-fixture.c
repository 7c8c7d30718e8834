/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "page-fixture.h"

#include <stdlib.h>

gboolean
page_wait_until (PageCondition cond,
                 gpointer      data,
                 guint         seconds)
{
  const char *scale = g_getenv ("WS_TEST_TIMEOUT_SCALE");
  gint64 end = g_get_monotonic_time () + (gint64) seconds * G_USEC_PER_SEC * (scale ? MAX (1, atoi (scale)) : 1);

  while (!cond (data))
    {
      if (g_get_monotonic_time () > end)
        return FALSE;
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
  return TRUE;
}

static gboolean
session_ready (gpointer data)
{
  return ws_session_get_recording_loaded (data) && ws_session_get_probed (data);
}

WsSession *
page_new_session (void)
{
  WsSession *s = ws_session_new (NULL);

  ws_session_load_recording (s, NULL);
  ws_session_probe (s);
  g_assert_true (page_wait_until (session_ready, s, 60));
  return s;
}
