/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Placeholder: replaced by the JSON implementation. */
#include "ws-recording.h"
