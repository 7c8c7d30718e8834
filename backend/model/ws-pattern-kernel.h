/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-pattern.h"

G_BEGIN_DECLS

char *ws_pattern_to_kernel_text (const WsPattern *pattern,
                                 const char      *title);

G_END_DECLS
