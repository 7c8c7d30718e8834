/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "ws-config.h"
#include "ws-program-private.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#define N_LANES 32

typedef enum
{
  INSN_LOADK,     /* uniform d = k */
  INSN_USPLAT,    /* varying d = uniform a */
  INSN_OP,        /* d = op (a, b, c) in the instruction's class */
} InsnKind;

/* Varying operations with an immediate operand, beyond the WsOp range. */
enum
{
  OP_ADDK = WS_N_OPS,   /* d = a + k, poisoned where a > hi (k > 0) or a < lo (k < 0) */
  OP_MULK,              /* d = a * k, k > 0, poisoned where a < lo or a > hi */
};

typedef struct
{
  guint8 kind;
  guint8 op;
  guint8 n_args;          /* of a, b, c, those read */
  guint32 d, a, b, c;
  gint64 k;
  gint64 lo;
  gint64 hi;
} Insn;

struct _WsProgram
{
  gint64 launch[WS_N_BUILTINS];
  GArray *block_insns;    /* run once per block: uniform ops and splats */
  GArray *warp_insns;     /* run once per warp: varying ops */
  GArray *const_splats;   /* (varying reg, value), set once per state */
  guint n_uniform;
  guint n_varying;
  GHashTable *splat_of_uniform;   /* uniform reg + 1 -> varying reg + 1 */
  GHashTable *splat_of_const;     /* gint64* -> varying reg + 1 */
  GHashTable *loadk_of_const;     /* gint64* -> uniform reg + 1 */
};

WsProgram *
ws_program_new (const gint64 launch_constants[WS_N_BUILTINS])
{
  WsProgram *prog = g_new0 (WsProgram, 1);

  memcpy (prog->launch, launch_constants, sizeof prog->launch);
  prog->block_insns = g_array_new (FALSE, FALSE, sizeof (Insn));
  prog->warp_insns = g_array_new (FALSE, FALSE, sizeof (Insn));
  prog->const_splats = g_array_new (FALSE, FALSE, sizeof (Insn));
  prog->n_uniform = WS_N_UNIFORM_INPUTS;
  prog->n_varying = WS_N_VARYING_INPUTS;
  prog->splat_of_uniform = g_hash_table_new (NULL, NULL);
  prog->splat_of_const = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  prog->loadk_of_const = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  return prog;
}

void
ws_program_free (WsProgram *prog)
{
  if (prog == NULL)
    return;
  g_array_unref (prog->block_insns);
  g_array_unref (prog->warp_insns);
  g_array_unref (prog->const_splats);
  g_hash_table_unref (prog->splat_of_uniform);
  g_hash_table_unref (prog->splat_of_const);
  g_hash_table_unref (prog->loadk_of_const);
  g_free (prog);
}

guint
ws_program_n_warp_ops (const WsProgram *prog)
{
  return prog->warp_insns->len;
}

/* ------------------------------------------------------------------ */
/* Emitting                                                           */
/* ------------------------------------------------------------------ */

static guint
as_uniform (WsProgram *prog,
            WsValue    v)
{
  gpointer found;
  Insn insn = { .kind = INSN_LOADK };

  g_assert (v.cls != WS_VALUE_VARYING);
  if (v.cls == WS_VALUE_UNIFORM)
    return v.reg;
  found = g_hash_table_lookup (prog->loadk_of_const, &v.value);
  if (found)
    return GPOINTER_TO_UINT (found) - 1;
  insn.d = prog->n_uniform++;
  insn.k = v.value;
  g_array_append_val (prog->block_insns, insn);
  g_hash_table_insert (prog->loadk_of_const, g_memdup2 (&v.value, sizeof v.value),
                       GUINT_TO_POINTER (insn.d + 1));
  return insn.d;
}

WsValue
ws_program_as_varying (WsProgram *prog,
                       WsValue    v)
{
  gpointer found;
  Insn insn = { 0 };

  if (v.cls == WS_VALUE_VARYING)
    return v;
  if (v.cls == WS_VALUE_CONST)
    {
      found = g_hash_table_lookup (prog->splat_of_const, &v.value);
      if (found == NULL)
        {
          insn.kind = INSN_LOADK;
          insn.d = prog->n_varying++;
          insn.k = v.value;
          g_array_append_val (prog->const_splats, insn);
          found = GUINT_TO_POINTER (insn.d + 1);
          g_hash_table_insert (prog->splat_of_const, g_memdup2 (&v.value, sizeof v.value), found);
        }
    }
  else
    {
      found = g_hash_table_lookup (prog->splat_of_uniform, GUINT_TO_POINTER (v.reg + 1));
      if (found == NULL)
        {
          insn.kind = INSN_USPLAT;
          insn.d = prog->n_varying++;
          insn.a = v.reg;
          g_array_append_val (prog->block_insns, insn);
          found = GUINT_TO_POINTER (insn.d + 1);
          g_hash_table_insert (prog->splat_of_uniform, GUINT_TO_POINTER (v.reg + 1), found);
        }
    }
  return (WsValue) { .cls = WS_VALUE_VARYING, .reg = GPOINTER_TO_UINT (found) - 1 };
}

static gboolean
try_fold (WsOp    op,
          guint   n,
          WsValue args[3],
          gint64 *result)
{
  WsExprError failed = (WsExprError) -1;

  for (guint i = 0; i < n; i++)
    if (args[i].cls != WS_VALUE_CONST)
      return FALSE;
  if (op == WS_OP_SELECT)
    {
      *result = args[0].value ? args[1].value : args[2].value;
      return TRUE;
    }
  *result = ws_op_apply (op, args[0].value, n > 1 ? args[1].value : 0, &failed);
  /* A failing constant operation is left for run time, so that it is only
   * reported if a lane really evaluates it. */
  return failed == (WsExprError) -1;
}

static WsValue
emit_immediate (WsProgram *prog,
                guint8     op,
                WsValue    a,
                gint64     k)
{
  Insn insn = { .kind = INSN_OP, .op = op, .n_args = 1, .a = a.reg, .k = k };

  g_assert (a.cls == WS_VALUE_VARYING);
  if (op == OP_ADDK)
    {
      insn.lo = k < 0 ? G_MININT64 - k : G_MININT64;
      insn.hi = k > 0 ? G_MAXINT64 - k : G_MAXINT64;
    }
  else
    {
      g_assert (k > 0);
      insn.lo = G_MININT64 / k;
      insn.hi = G_MAXINT64 / k;
    }
  insn.d = prog->n_varying++;
  g_array_append_val (prog->warp_insns, insn);
  return (WsValue) { .cls = WS_VALUE_VARYING, .reg = insn.d };
}

static WsValue
emit (WsProgram *prog,
      WsOp       op,
      guint      n,
      WsValue    args[3])
{
  WsValueClass cls = WS_VALUE_CONST;
  Insn insn = { .kind = INSN_OP, .op = op, .n_args = (guint8) n };
  gint64 folded;
  guint regs[3] = { 0, 0, 0 };

  if (try_fold (op, n, args, &folded))
    return (WsValue) { .cls = WS_VALUE_CONST, .value = folded };

  for (guint i = 0; i < n; i++)
    cls = MAX (cls, args[i].cls);
  if (cls == WS_VALUE_CONST)
    cls = WS_VALUE_UNIFORM;

  if (cls == WS_VALUE_VARYING && n == 2 && (op == WS_OP_ADD || op == WS_OP_MUL) &&
      (args[0].cls == WS_VALUE_CONST || args[1].cls == WS_VALUE_CONST))
    {
      WsValue var = args[0].cls == WS_VALUE_CONST ? args[1] : args[0];
      gint64 k = args[0].cls == WS_VALUE_CONST ? args[0].value : args[1].value;

      if (op == WS_OP_ADD || k > 0)
        return emit_immediate (prog, op == WS_OP_ADD ? OP_ADDK : OP_MULK, ws_program_as_varying (prog, var), k);
    }

  for (guint i = 0; i < n; i++)
    regs[i] = cls == WS_VALUE_VARYING ? ws_program_as_varying (prog, args[i]).reg
                                      : as_uniform (prog, args[i]);
  insn.a = regs[0];
  insn.b = regs[1];
  insn.c = regs[2];
  if (cls == WS_VALUE_VARYING)
    {
      insn.d = prog->n_varying++;
      g_array_append_val (prog->warp_insns, insn);
    }
  else
    {
      insn.d = prog->n_uniform++;
      g_array_append_val (prog->block_insns, insn);
    }
  return (WsValue) { .cls = cls, .reg = insn.d };
}

WsValue
ws_program_binary (WsProgram *prog,
                   WsOp       op,
                   WsValue    a,
                   WsValue    b)
{
  WsValue args[3] = { a, b };
  return emit (prog, op, 2, args);
}

WsValue
ws_program_scale_offset (WsProgram *prog,
                         WsValue    a,
                         gint64     k,
                         gint64     c)
{
  WsValue v = a;

  if (k != 1)
    v = ws_program_binary (prog, WS_OP_MUL, v, (WsValue) { .cls = WS_VALUE_CONST, .value = k });
  if (c != 0)
    v = ws_program_binary (prog, WS_OP_ADD, v, (WsValue) { .cls = WS_VALUE_CONST, .value = c });
  return v;
}

static gboolean
compile_node (WsProgram       *prog,
              const WsExpr    *e,
              WsProgramResolve resolve,
              gpointer         user_data,
              WsValue         *out,
              GError         **error)
{
  WsValue args[3];

  switch (e->kind)
    {
    case WS_EXPR_INT:
      *out = (WsValue) { .cls = WS_VALUE_CONST, .value = e->value };
      return TRUE;

    case WS_EXPR_BUILTIN:
      switch (e->builtin)
        {
        case WS_BUILTIN_THREAD_IDX_X:
        case WS_BUILTIN_THREAD_IDX_Y:
        case WS_BUILTIN_THREAD_IDX_Z:
          *out = (WsValue) { .cls = WS_VALUE_VARYING, .reg = WS_VARYING_IN_THREAD_X + (e->builtin - WS_BUILTIN_THREAD_IDX_X) };
          return TRUE;
        case WS_BUILTIN_LANE:
          *out = (WsValue) { .cls = WS_VALUE_VARYING, .reg = WS_VARYING_IN_LANE };
          return TRUE;
        case WS_BUILTIN_WARP:
          *out = (WsValue) { .cls = WS_VALUE_VARYING, .reg = WS_VARYING_IN_WARP };
          return TRUE;
        case WS_BUILTIN_BLOCK_IDX_X:
        case WS_BUILTIN_BLOCK_IDX_Y:
        case WS_BUILTIN_BLOCK_IDX_Z:
          *out = (WsValue) { .cls = WS_VALUE_UNIFORM, .reg = WS_UNIFORM_IN_BLOCK_X + (e->builtin - WS_BUILTIN_BLOCK_IDX_X) };
          return TRUE;
        case WS_BUILTIN_BLOCK_DIM_X:
        case WS_BUILTIN_BLOCK_DIM_Y:
        case WS_BUILTIN_BLOCK_DIM_Z:
        case WS_BUILTIN_GRID_DIM_X:
        case WS_BUILTIN_GRID_DIM_Y:
        case WS_BUILTIN_GRID_DIM_Z:
          *out = (WsValue) { .cls = WS_VALUE_CONST, .value = prog->launch[e->builtin] };
          return TRUE;
        case WS_N_BUILTINS:
        default:
          g_assert_not_reached ();
        }

    case WS_EXPR_NAME:
      if (resolve == NULL || !resolve (e->name, user_data, out, error))
        {
          if (error && *error == NULL)
            g_set_error (error, WS_EXPR_ERROR, WS_EXPR_ERROR_UNKNOWN_NAME,
                         /* Translators: a column in the expression, then the name found there */
                         _("column %u: unknown name “%s”"), e->start + 1, e->name);
          return FALSE;
        }
      return TRUE;

    case WS_EXPR_TERNARY:
      if (!compile_node (prog, e->op.args[0], resolve, user_data, &args[0], error))
        return FALSE;
      if (args[0].cls == WS_VALUE_CONST)
        return compile_node (prog, e->op.args[args[0].value ? 1 : 2], resolve, user_data, out, error);
      if (!compile_node (prog, e->op.args[1], resolve, user_data, &args[1], error) ||
          !compile_node (prog, e->op.args[2], resolve, user_data, &args[2], error))
        return FALSE;
      *out = emit (prog, WS_OP_SELECT, 3, args);
      return TRUE;

    case WS_EXPR_BINARY:
      if (!compile_node (prog, e->op.args[0], resolve, user_data, &args[0], error))
        return FALSE;
      if ((e->op.op == WS_OP_LAND || e->op.op == WS_OP_LOR) && args[0].cls == WS_VALUE_CONST)
        {
          gboolean decided = e->op.op == WS_OP_LAND ? args[0].value == 0 : args[0].value != 0;

          if (decided)
            {
              *out = (WsValue) { .cls = WS_VALUE_CONST, .value = e->op.op == WS_OP_LOR };
              return TRUE;
            }
          if (!compile_node (prog, e->op.args[1], resolve, user_data, &args[1], error))
            return FALSE;
          *out = ws_program_binary (prog, WS_OP_NE, args[1], (WsValue) { .cls = WS_VALUE_CONST, .value = 0 });
          return TRUE;
        }
      if (!compile_node (prog, e->op.args[1], resolve, user_data, &args[1], error))
        return FALSE;
      *out = emit (prog, e->op.op, 2, args);
      return TRUE;

    case WS_EXPR_UNARY:
    case WS_EXPR_CALL:
      for (guint i = 0; i < e->op.n_args; i++)
        if (!compile_node (prog, e->op.args[i], resolve, user_data, &args[i], error))
          return FALSE;
      *out = emit (prog, e->op.op, e->op.n_args, args);
      return TRUE;

    default:
      g_assert_not_reached ();
    }
}

gboolean
ws_program_compile (WsProgram       *prog,
                    const WsExpr    *expr,
                    WsProgramResolve resolve,
                    gpointer         user_data,
                    WsValue         *out,
                    GError         **error)
{
  g_return_val_if_fail (prog != NULL, FALSE);
  g_return_val_if_fail (expr != NULL, FALSE);

  return compile_node (prog, expr, resolve, user_data, out, error);
}

/* ------------------------------------------------------------------ */
/* Running                                                            */
/* ------------------------------------------------------------------ */

WsProgramState *
ws_program_state_new (const WsProgram *prog)
{
  WsProgramState *s = g_new0 (WsProgramState, 1);

  s->u = g_new0 (gint64, prog->n_uniform);
  s->up = g_new0 (guint64, prog->n_uniform);
  s->v = g_malloc0 (sizeof *s->v * prog->n_varying);
  s->vp = g_malloc0 (sizeof *s->vp * prog->n_varying);
  s->changed = g_new0 (guint8, prog->n_varying);
  s->block_fresh = TRUE;
  for (guint i = 0; i < prog->const_splats->len; i++)
    {
      const Insn *insn = &g_array_index (prog->const_splats, Insn, i);
      for (guint l = 0; l < N_LANES; l++)
        s->v[insn->d][l] = insn->k;
    }
  return s;
}

void
ws_program_state_free (WsProgramState *state)
{
  if (state == NULL)
    return;
  g_free (state->u);
  g_free (state->up);
  g_free (state->v);
  g_free (state->vp);
  g_free (state->changed);
  g_free (state);
}

static void
run_uniform_op (const Insn     *insn,
                WsProgramState *s)
{
  gint64 a = s->u[insn->a];
  gint64 b = s->u[insn->b];
  guint64 pa = s->up[insn->a];
  guint64 pb = s->up[insn->b];
  WsExprError failed = (WsExprError) -1;

  switch (insn->op)
    {
    case WS_OP_SELECT:
      s->u[insn->d] = a ? b : s->u[insn->c];
      s->up[insn->d] = pa | (a ? pb : s->up[insn->c]);
      return;
    case WS_OP_LAND:
      s->u[insn->d] = a && b;
      s->up[insn->d] = pa | ((a != 0) & pb);
      return;
    case WS_OP_LOR:
      s->u[insn->d] = a || b;
      s->up[insn->d] = pa | ((a == 0) & pb);
      return;
    case WS_OP_NEG:
    case WS_OP_BITNOT:
    case WS_OP_NOT:
    case WS_OP_ABS:
      pb = 0;
      b = 0;
      break;
    default:
      break;
    }
  s->u[insn->d] = ws_op_apply (insn->op, a, b, &failed);
  s->up[insn->d] = pa | pb | (failed != (WsExprError) -1);
}

void
ws_program_run_block (const WsProgram *prog,
                      WsProgramState  *s,
                      const gint64     block[3])
{
  const Insn *insns = (const Insn *) prog->block_insns->data;

  s->u[WS_UNIFORM_IN_BLOCK_X] = block[0];
  s->u[WS_UNIFORM_IN_BLOCK_Y] = block[1];
  s->u[WS_UNIFORM_IN_BLOCK_Z] = block[2];
  s->block_fresh = TRUE;
  for (guint i = 0; i < prog->block_insns->len; i++)
    {
      const Insn *insn = &insns[i];

      switch (insn->kind)
        {
        case INSN_LOADK:
          s->u[insn->d] = insn->k;
          s->up[insn->d] = 0;
          break;
        case INSN_USPLAT:
          for (guint l = 0; l < N_LANES; l++)
            {
              s->v[insn->d][l] = s->u[insn->a];
              s->vp[insn->d][l] = s->up[insn->a];
            }
          break;
        case INSN_OP:
          run_uniform_op (insn, s);
          break;
        default:
          g_assert_not_reached ();
        }
    }
}

/* The lane loops below are written so that the compiler can vectorise them:
 * no branches, overflow found with bit arithmetic. */

#define LANES for (guint l = 0; l < N_LANES; l++)

static inline __attribute__ ((always_inline)) void
vop (const Insn    *insn,
     gint64 *restrict d, guint64 *restrict dp,
     const gint64 *restrict a, const guint64 *restrict ap,
     const gint64 *restrict b, const guint64 *restrict bp,
     const gint64 *restrict c, const guint64 *restrict cp)
{
  guint8 op = insn->op;

  switch (op)
    {
    case OP_ADDK:
      {
        gint64 k = insn->k, lo = insn->lo, hi = insn->hi;
        LANES
          {
            dp[l] = ap[l] | (a[l] < lo) | (a[l] > hi);
            d[l] = (gint64) ((guint64) a[l] + (guint64) k);
          }
      }
      break;
    case OP_MULK:
      {
        gint64 k = insn->k, lo = insn->lo, hi = insn->hi;
        LANES
          {
            dp[l] = ap[l] | (a[l] < lo) | (a[l] > hi);
            d[l] = (gint64) ((guint64) a[l] * (guint64) k);
          }
      }
      break;
    case WS_OP_ADD:
      LANES
        {
          gint64 r = (gint64) ((guint64) a[l] + (guint64) b[l]);
          dp[l] = ap[l] | bp[l] | ((guint64) ((a[l] ^ r) & (b[l] ^ r)) >> 63);
          d[l] = r;
        }
      break;
    case WS_OP_SUB:
      LANES
        {
          gint64 r = (gint64) ((guint64) a[l] - (guint64) b[l]);
          dp[l] = ap[l] | bp[l] | ((guint64) ((a[l] ^ b[l]) & (a[l] ^ r)) >> 63);
          d[l] = r;
        }
      break;
    case WS_OP_MUL:
      LANES
        {
          __int128 r = (__int128) a[l] * b[l];
          d[l] = (gint64) r;
          dp[l] = ap[l] | bp[l] | (r != (gint64) r);
        }
      break;
    case WS_OP_DIV:
    case WS_OP_MOD:
      LANES
        {
          guint64 bad = (b[l] == 0) | ((a[l] == G_MININT64) & (b[l] == -1));
          gint64 y = bad ? 1 : b[l];
          d[l] = op == WS_OP_DIV ? a[l] / y : a[l] % y;
          dp[l] = ap[l] | bp[l] | bad;
        }
      break;
    case WS_OP_SHL:
      LANES
        {
          guint64 bad = (b[l] < 0) | (b[l] > 63) | (a[l] < 0);
          gint64 s = bad ? 0 : b[l];
          guint64 ovf = (a[l] >> (63 - s)) != 0;
          d[l] = (gint64) ((guint64) a[l] << s);
          dp[l] = ap[l] | bp[l] | bad | ovf;
        }
      break;
    case WS_OP_SHR:
      LANES
        {
          guint64 bad = (b[l] < 0) | (b[l] > 63);
          d[l] = a[l] >> (bad ? 0 : b[l]);
          dp[l] = ap[l] | bp[l] | bad;
        }
      break;
#define SIMPLE(OPC, EXPR) \
    case OPC: LANES { d[l] = (EXPR); dp[l] = ap[l] | bp[l]; } break;
    SIMPLE (WS_OP_LT, a[l] < b[l])
    SIMPLE (WS_OP_LE, a[l] <= b[l])
    SIMPLE (WS_OP_GT, a[l] > b[l])
    SIMPLE (WS_OP_GE, a[l] >= b[l])
    SIMPLE (WS_OP_EQ, a[l] == b[l])
    SIMPLE (WS_OP_NE, a[l] != b[l])
    SIMPLE (WS_OP_BITAND, a[l] & b[l])
    SIMPLE (WS_OP_BITXOR, a[l] ^ b[l])
    SIMPLE (WS_OP_BITOR, a[l] | b[l])
    SIMPLE (WS_OP_MIN, a[l] < b[l] ? a[l] : b[l])
    SIMPLE (WS_OP_MAX, a[l] > b[l] ? a[l] : b[l])
#undef SIMPLE
    case WS_OP_LAND:
      LANES
        {
          d[l] = (a[l] != 0) & (b[l] != 0);
          dp[l] = ap[l] | ((a[l] != 0) & bp[l]);
        }
      break;
    case WS_OP_LOR:
      LANES
        {
          d[l] = (a[l] != 0) | (b[l] != 0);
          dp[l] = ap[l] | ((a[l] == 0) & bp[l]);
        }
      break;
    case WS_OP_SELECT:
      LANES
        {
          d[l] = a[l] ? b[l] : c[l];
          dp[l] = ap[l] | (a[l] ? bp[l] : cp[l]);
        }
      break;
    case WS_OP_NEG:
      LANES
        {
          dp[l] = ap[l] | (a[l] == G_MININT64);
          d[l] = (gint64) (0 - (guint64) a[l]);
        }
      break;
    case WS_OP_ABS:
      LANES
        {
          dp[l] = ap[l] | (a[l] == G_MININT64);
          d[l] = a[l] < 0 ? (gint64) (0 - (guint64) a[l]) : a[l];
        }
      break;
    case WS_OP_BITNOT:
      LANES { d[l] = ~a[l]; dp[l] = ap[l]; }
      break;
    case WS_OP_NOT:
      LANES { d[l] = !a[l]; dp[l] = ap[l]; }
      break;
    default:
      g_assert_not_reached ();
    }
}

/* Inputs are read in place; they are never poisoned. */
static inline const gint64 *
reg_values (const WsProgramState *s,
            const gint64        (*inputs)[32],
            guint                 reg)
{
  return reg < WS_N_VARYING_INPUTS ? inputs[reg] : s->v[reg];
}

static inline __attribute__ ((always_inline)) void
run_insn (const Insn           *insn,
          WsProgramState       *s,
          const gint64        (*inputs)[32])
{
  vop (insn,
       s->v[insn->d], s->vp[insn->d],
       reg_values (s, inputs, insn->a), s->vp[insn->a],
       reg_values (s, inputs, insn->b), s->vp[insn->b],
       reg_values (s, inputs, insn->c), s->vp[insn->c]);
}

WS_LANE_LOOPS void
ws_program_run_warp (const WsProgram *prog,
                     WsProgramState  *s,
                     const gint64     inputs[WS_N_VARYING_INPUTS][32])
{
  const Insn *insns = (const Insn *) prog->warp_insns->data;

  for (guint i = 0; i < prog->warp_insns->len; i++)
    run_insn (&insns[i], s, inputs);
  s->inputs = inputs;
  s->block_fresh = FALSE;
}

/* The next warp of the block: an operation none of whose operands changed
 * since the warp before keeps its values. The first warp after
 * ws_program_run_block() runs them all. */
WS_LANE_LOOPS void
ws_program_run_next_warp (const WsProgram *prog,
                          WsProgramState  *s,
                          const gint64     inputs[WS_N_VARYING_INPUTS][32],
                          guint32          changed_inputs)
{
  const Insn *insns = (const Insn *) prog->warp_insns->data;
  guint8 *changed = s->changed;

  if (s->block_fresh)
    {
      ws_program_run_warp (prog, s, inputs);
      return;
    }
  for (guint r = 0; r < WS_N_VARYING_INPUTS; r++)
    changed[r] = (changed_inputs >> r) & 1;
  for (guint i = 0; i < prog->warp_insns->len; i++)
    {
      const Insn *insn = &insns[i];
      guint8 c = changed[insn->a];

      if (insn->n_args > 1)
        c |= changed[insn->b];
      if (insn->n_args > 2)
        c |= changed[insn->c];
      changed[insn->d] = c;
      if (c)
        run_insn (insn, s, inputs);
    }
  s->inputs = inputs;
}

const gint64 *
ws_program_state_values (const WsProgramState *s,
                         WsValue               v)
{
  g_assert (v.cls == WS_VALUE_VARYING);
  return reg_values (s, s->inputs, v.reg);
}
