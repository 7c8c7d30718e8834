/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-analysis.h"

G_BEGIN_DECLS

/* CUDA source for one pattern, printed from its validated ASTs — never from
 * the text a user typed, not even in a comment: the names in it are the
 * pattern's validated identifiers, which may not be keywords or macros. The kernel does exactly what the model evaluates:
 * every index in 64-bit arithmetic, the guard as an if, one real memory
 * instruction per access, of the access's space and width.
 *
 * The kernel is `extern "C" __global__ void ws_kernel (…)`, launched with the
 * pattern's grid and block and `shared_bytes` of dynamic shared memory. Its
 * parameters are, in order: one `unsigned char *` per global array (in the
 * order of kernel->arrays), then `unsigned long long *ws_sink` (8 bytes the
 * kernel writes only if its loads add up to ws_magic), `long long ws_zero`
 * (always 0: added to local and constant indices, so that the compiler cannot
 * resolve them at compile time) and `unsigned long long ws_magic`. */

#define WS_CODEGEN_KERNEL_NAME "ws_kernel"
/* The largest array a kernel may have: 2^48 bytes, a GPU's virtual address
 * space; the extents of a pattern's arrays add up without overflow. */
#define WS_CODEGEN_MAX_ARRAY_BYTES (G_GINT64_CONSTANT (1) << 48)
#define WS_CODEGEN_FILE_NAME "ws-pattern.cu"

typedef struct
{
  char *name;          /* the pattern's array name: "in", "tile" */
  char *symbol;        /* its name in the kernel: "ws_g_in" */
  WsSpace space;
  guint elem_size;     /* register arrays only: their element size */
  gint64 bytes;        /* extent: one past the highest byte any lane touches */
  gint64 offset;       /* shared: offset in the block's dynamic shared memory */
} WsKernelArray;

/* What a line of the source was generated from, for compile errors. */
typedef struct
{
  guint line;          /* 1-based */
  char *what;          /* "the index of in", "the definition of i", "the guard" (English) */
  char *in;            /* where, in the user's words, for the message of a compile
                        * error: "in the index of in" */
  char *text;          /* the expression as the pattern holds it */
} WsKernelLine;

typedef struct
{
  char *source;
  char *hash;               /* SHA-256 of the source, hex */
  GArray *arrays;           /* WsKernelArray */
  guint n_global;           /* global arrays: the first kernel parameters */
  gint64 shared_bytes;      /* dynamic shared memory per block */
  gint64 constant_bytes;    /* __constant__ memory of the module */
  gint64 local_bytes;       /* private arrays in local memory, per thread */
  WsDim3 grid;
  WsDim3 block;
  GArray *lines;            /* WsKernelLine */
} WsKernelSource;

/* stats: the pattern's ws_model_analyze_launch (), which gives each array's
 * extent; NULL runs it. Fails for a pattern the model refuses (naming the lane
 * and block), and for arrays too large for their space. */
WsKernelSource *ws_codegen_generate        (const WsPattern       *pattern,
                                            const WsLaunchStats   *stats,
                                            GError               **error);
void            ws_kernel_source_free      (WsKernelSource        *source);

/* The index expression as CUDA C: fully parenthesised, 64-bit literals,
 * comparisons and logical operators cast back to long long (in C++ they
 * are bool, and `(a < b) << 40` would shift an int). */
char           *ws_codegen_expr            (const WsExpr          *expr);

/* NVRTC's log, rewritten so that each message names the part of the pattern
 * its line came from ("in the index of in (i + bitand): …"). */
char           *ws_codegen_explain_log     (const WsKernelSource  *source,
                                            const char            *log);

const WsKernelArray *ws_kernel_source_find_array (const WsKernelSource *source,
                                                  WsSpace               space,
                                                  const char           *name);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsKernelSource, ws_kernel_source_free)

G_END_DECLS
