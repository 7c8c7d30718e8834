/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/* What ws-recording.c shares with its tests. */

#include "ws-recording.h"

G_BEGIN_DECLS

/* The path among paths (NULL-terminated, by name) whose file is called
 * name, else the first; NULL when paths is empty. Points into paths. */
const char          *ws_recording_default_among    (const char *const  *paths,
                                                    const char         *name);

G_END_DECLS
