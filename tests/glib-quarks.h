/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Under AddressSanitizer, tells LeakSanitizer that GLib's first block of
 * quarks is not a leak of ours (glib-quarks.c says why); elsewhere,
 * nothing. A test that makes 2048 quarks or more (every test that starts
 * GTK) calls it first thing in main. */
void glib_quarks_ignore_first_block (void);

G_END_DECLS
