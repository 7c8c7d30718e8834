/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-cli.h"
#include "ws-kernel-predict.h"
#include "ws-kernel-spec.h"
#include "ws-measurement.h"

G_BEGIN_DECLS

/* Kernels of one's own on the command line: --kernel FILE[:NAME] with the
 * pattern options --grid, --block and --set NAME=VALUE as the launch's
 * overrides. */

#define WS_CLI_KERNEL_HELP N_("A CUDA kernel of your own: a .cu file, and which of its kernels after a colon " \
                              "(--grid, --block and --set change its launch)")

/* Reading and modelling (ws-cli-kernel.c). */

/* The kernel the options name, read from its file; NULL with an error that
 * says what is wrong and where. */
WsKernelSpec       *ws_cli_kernel_spec        (const WsCliPatternOptions *options,
                                               GError                   **error);
/* The spec at its launch, analysed on a thread while this one shows
 * progress and Ctrl+C cancels (G_IO_ERROR_CANCELLED); profile NULL: L1's
 * view only. */
WsKernelPrediction *ws_cli_kernel_predict     (WsKernelInstance          *instance,
                                               const WsDeviceProfile     *profile,
                                               GError                   **error);
/* Printing (ws-cli-kernel-print.c). model --kernel: the text table or
 * one JSON object. */
void                ws_cli_kernel_print_model (WsKernelInstance          *instance,
                                               const WsKernelPrediction  *prediction,
                                               const WsDeviceProfile     *profile,
                                               gboolean                   json);

/* measure --kernel --counters: each source line's counters beside the
 * model's figures for it (L1's view, from a run of the VM here). */
void                ws_cli_kernel_print_lines (WsKernelInstance          *instance,
                                               const WsMeasurement       *measurement);

G_END_DECLS
