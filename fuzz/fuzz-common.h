/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* A harness's own checks: a failed one is a crash libFuzzer keeps. */
#define FUZZ_CHECK(cond)                                                         \
  do                                                                             \
    {                                                                            \
      if (!(cond))                                                               \
        {                                                                        \
          fprintf (stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
          abort ();                                                              \
        }                                                                        \
    }                                                                            \
  while (0)

/* Every GLib warning and critical (a g_return_if_fail () that failed) is a
 * bug found. */
static inline void
fuzz_init_glib (void)
{
  g_log_set_always_fatal (G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING);
  g_log_set_fatal_mask ("GLib", G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING);
}

/* An error is shown to someone: it must be text. */
static inline void
fuzz_check_error (const GError *error)
{
  FUZZ_CHECK (error != NULL);
  FUZZ_CHECK (error->message != NULL);
  FUZZ_CHECK (g_utf8_validate (error->message, -1, NULL));
}

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);
int LLVMFuzzerInitialize (int *argc, char ***argv);
