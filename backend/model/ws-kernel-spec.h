/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-kernel.h"

G_BEGIN_DECLS

/* A kernel text and the launch a user gave it beyond its comment: what
 * crosses to the GPU worker, what a session keeps, what a recording says
 * was measured. Plain data, copied freely; the text is read again where
 * it is run (the worker reads it as untrusted input). */

typedef struct
{
  char *text;
  char *display_name;          /* what messages call the file: "transpose.cu" */
  char *kernel;                /* which kernel of the file; NULL: the one, or the comment's */
  GPtrArray *names;            /* the launch's overrides, in order: "grid", "block", "N", "in[N]" */
  GPtrArray *values;           /* their values, as typed: "64, 64", "4096", "random(1)" */
} WsKernelSpec;

WsKernelSpec     *ws_kernel_spec_new          (const char         *text,
                                               const char         *display_name);
WsKernelSpec     *ws_kernel_spec_copy         (const WsKernelSpec *spec);
void              ws_kernel_spec_free         (WsKernelSpec       *spec);
void              ws_kernel_spec_set_kernel   (WsKernelSpec       *spec,
                                               const char         *kernel);
/* Sets an override (replacing one of the same name). */
void              ws_kernel_spec_set          (WsKernelSpec       *spec,
                                               const char         *name,
                                               const char         *value);
/* The launch's grid and block as overrides. */
void              ws_kernel_spec_set_dim      (WsKernelSpec       *spec,
                                               const char         *name,
                                               WsDim3              dim);
gboolean          ws_kernel_spec_equal        (const WsKernelSpec *a,
                                               const WsKernelSpec *b);
/* A hex digest of everything in it: the key of caches and of live
 * measurements. */
char             *ws_kernel_spec_hash         (const WsKernelSpec *spec);
/* What a session's live measurements of it are kept under: "kernel:" and
 * the hash. */
char             *ws_kernel_spec_live_key     (const WsKernelSpec *spec);

/* Reads the text, applies the comment and the overrides and sizes the
 * launch; the errors say what and where (an override's errors name it). */
WsKernelInstance *ws_kernel_spec_instantiate  (const WsKernelSpec *spec,
                                               GCancellable       *cancellable,
                                               GError            **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsKernelSpec, ws_kernel_spec_free)

G_END_DECLS
