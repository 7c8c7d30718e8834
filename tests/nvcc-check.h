/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* nvcc on the PATH or in /usr/local/cuda, or NULL */
char *ws_test_find_nvcc     (void);
/* Fails the test where nvcc does not compile text for sm_90 (what names
 * it): its device code alone where it has no host code that runs, else
 * the whole of it; a text this nvcc compiled before is not compiled
 * again. */
void  ws_test_nvcc_compiles (const char *nvcc,
                             const char *text,
                             const char *what);

G_END_DECLS
