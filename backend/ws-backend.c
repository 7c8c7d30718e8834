/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Placeholder: replaced by the worker-thread implementation. */
#include "ws-backend.h"
