/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-expr.h"

G_BEGIN_DECLS

/* Hot lane loops are built for AVX2 as well as the baseline, picked at run time. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define WS_LANE_LOOPS __attribute__ ((target_clones ("avx2", "default")))
#else
#define WS_LANE_LOOPS
#endif

/* An expression compiled for fast evaluation over a launch.
 *
 * Values are one of three classes: constants (known when compiling),
 * uniform values (one per block: blockIdx and what depends on it only) and
 * varying values (one per lane: threadIdx, lane, warp and what depends on
 * them). Uniform work runs once per block, varying work once per warp over
 * 32 lanes at a time.
 *
 * Errors are not raised while running: a failing operation marks its lane
 * "poisoned", and poison flows through later operations the way C's
 * short-circuit rules say (`b != 0 && a / b` is never poisoned). The caller
 * checks the lanes it uses and re-evaluates a poisoned one with
 * ws_expr_eval() to report exactly what failed.
 */

typedef enum
{
  WS_VALUE_CONST,
  WS_VALUE_UNIFORM,
  WS_VALUE_VARYING,
} WsValueClass;

typedef struct
{
  WsValueClass cls;
  guint reg;
  gint64 value;
} WsValue;

/* Inputs, in this register order. */
enum
{
  WS_UNIFORM_IN_BLOCK_X,
  WS_UNIFORM_IN_BLOCK_Y,
  WS_UNIFORM_IN_BLOCK_Z,
  WS_N_UNIFORM_INPUTS
};

enum
{
  WS_VARYING_IN_THREAD_X,
  WS_VARYING_IN_THREAD_Y,
  WS_VARYING_IN_THREAD_Z,
  WS_VARYING_IN_LANE,
  WS_VARYING_IN_WARP,
  WS_N_VARYING_INPUTS
};

typedef gboolean (*WsProgramResolve) (const char *name,
                                      gpointer    user_data,
                                      WsValue    *value,
                                      GError    **error);

typedef struct _WsProgram WsProgram;

/* Poison flags are 0 or 1, as wide as the values, so that lane loops over
 * both vectorise. */
typedef struct
{
  gint64 *u;
  guint64 *up;
  gint64 (*v)[32];
  guint64 (*vp)[32];
  const gint64 (*inputs)[32];   /* the last warp's inputs */
  guint8 *changed;              /* per varying register, in ws_program_run_next_warp() */
  gboolean block_fresh;         /* no warp run since the block */
} WsProgramState;

WsProgram      *ws_program_new             (const gint64     launch_constants[WS_N_BUILTINS]);
void            ws_program_free            (WsProgram       *prog);
gboolean        ws_program_compile         (WsProgram       *prog,
                                            const WsExpr    *expr,
                                            WsProgramResolve resolve,
                                            gpointer         user_data,
                                            WsValue         *out,
                                            GError         **error);
/* out = a * k + c, for byte addresses from element indices */
WsValue         ws_program_scale_offset    (WsProgram       *prog,
                                            WsValue          a,
                                            gint64           k,
                                            gint64           c);
WsValue         ws_program_binary          (WsProgram       *prog,
                                            WsOp             op,
                                            WsValue          a,
                                            WsValue          b);
/* Makes sure v can be read per lane after a block run (uniform and constant
 * values are splatted once per block). */
WsValue         ws_program_as_varying      (WsProgram       *prog,
                                            WsValue          v);

WsProgramState *ws_program_state_new       (const WsProgram *prog);
void            ws_program_state_free      (WsProgramState  *state);
void            ws_program_run_block       (const WsProgram *prog,
                                            WsProgramState  *state,
                                            const gint64     block[3]);
void            ws_program_run_warp        (const WsProgram *prog,
                                            WsProgramState  *state,
                                            const gint64     inputs[WS_N_VARYING_INPUTS][32]);
/* The same, for the warp after the one run last in this block, whose
 * inputs differ from its in the inputs of bits changed_inputs (bit r:
 * input register r) only. */
void            ws_program_run_next_warp   (const WsProgram *prog,
                                            WsProgramState  *state,
                                            const gint64     inputs[WS_N_VARYING_INPUTS][32],
                                            guint32          changed_inputs);
guint           ws_program_n_warp_ops      (const WsProgram *prog);
/* The lanes' values of a varying value after ws_program_run_warp(). */
const gint64   *ws_program_state_values    (const WsProgramState *state,
                                            WsValue               v);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsProgram, ws_program_free)

G_END_DECLS
