/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-cli.h"

G_BEGIN_DECLS

/* truth --run-once, --bench and --dump (ws-cli-truth-look.c): a CUDA build only. */
int   ws_cli_truth_run_once   (const char *name,
                               gboolean    with_counters,
                               gboolean    all_metrics);
int   ws_cli_truth_bench      (const char *name,
                               const char *ncu,
                               const char *self,
                               gboolean    all_metrics);
int   ws_cli_truth_dump_cases (const char *only,
                               const char *dir);
char *ws_cli_truth_self_path  (const char *argv0);
char *ws_cli_truth_find_ncu   (const char *requested);

G_END_DECLS
