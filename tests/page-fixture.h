/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/* What the tests of the window's pages on their own share (page-fixture.c):
 * no window, only a page and a session. */

#include "ws-session.h"

G_BEGIN_DECLS

typedef gboolean (*PageCondition) (gpointer data);

/* Runs the main loop until cond holds, at most seconds (times
 * WS_TEST_TIMEOUT_SCALE in a sanitized build); FALSE if it never did. */
gboolean   page_wait_until  (PageCondition cond,
                             gpointer      data,
                             guint         seconds);
/* A session on the bundled recording, probed (no GPU here). */
WsSession *page_new_session (void);

G_END_DECLS
