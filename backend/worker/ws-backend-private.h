/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-backend.h"

G_BEGIN_DECLS

/* For tests: makes the GPU worker run a kernel that faults. It fails with
 * WS_GPU_ERROR_KERNEL_FAULT, and the next job must work again. */
void     ws_backend_debug_fault_async  (WsBackend          *self,
                                        GCancellable       *cancellable,
                                        GAsyncReadyCallback callback,
                                        gpointer            user_data);
gboolean ws_backend_debug_fault_finish (WsBackend          *self,
                                        GAsyncResult       *result,
                                        GError            **error);

G_END_DECLS
