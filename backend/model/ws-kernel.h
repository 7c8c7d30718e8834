/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ws-analysis.h"
#include "ws-model-types.h"

G_BEGIN_DECLS

/* Kernels of one's own: a strict subset of CUDA C++ that the model follows
 * thread by thread, that a CPU reference runs, and that prints back as CUDA
 * for NVRTC.
 *
 * A file is read (lexed, preprocessed, parsed and checked) once into an
 * immutable WsKernelFile. A launch configuration (the file's launch comment,
 * then the caller's overrides) picks a kernel and sets its grid, block,
 * scalar values, array sizes and fills; a WsKernelInstance is that kernel
 * compiled for that launch, with every array sized. Memory and a walk over
 * blocks run it in a SIMT virtual machine, whose memory instructions the
 * model counts and whose final memory is the reference the GPU's output is
 * checked against.
 *
 * Every message has a line and a column (1-based, columns in characters) and
 * says what was wrong and where.
 *
 * What reads: __global__ void kernels (several a file), __device__
 * functions (inlined; no recursion), templates of integer parameters whose
 * values the launch gives, structs of plain fields (__align__, alignas),
 * typedef, __constant__ and __device__ arrays (their initial values fill
 * them), __shared__ and extern
 * __shared__ arrays, file-scope const numbers, extern "C"; object- and
 * function-like #define (not # and ##), #if/#ifdef/… as nvcc's device pass
 * sees them, #include (ignored), #pragma unroll; host functions are skipped
 * with a note. C's scalars (long is 64 bits, char signed), size_t and the
 * stdint names, CUDA's vector types, pointers (const, volatile,
 * __restrict__) that each point into one array, arrays of 1 to 3
 * dimensions; every statement but goto and labels; C's operators, casts
 * (C style, functional, static_cast, reinterpret_cast of pointers), sizeof;
 * the built-in variables, barriers and fences, atomics on global and shared
 * memory, __ldg, shuffles, votes, bit and math functions, make_<vector>,
 * printf (printed back; the VM prints nothing). The rest is refused by name.
 *
 * The VM: a block's warps run in turn, each to its next __syncthreads () or
 * its end; a branch some lanes take runs with those lanes, both sides of a
 * divergent one run (then first), loops run while a lane is in them. C's
 * arithmetic as the GPU does it (int wraps, float stays float, shifts by the
 * width and more clamp as PTX's do, float to int saturates); atomics apply
 * lane after lane; shared memory and uninitialised locals start at zero.
 * Division by zero, an access outside its array or misaligned, and a launch
 * past its step limit stop a run with a message. A private array indexed
 * only by constants or by the counter of a short constant loop lives in
 * registers (WS_SPACE_REGISTER), else in local memory.
 *
 * Not yet: predicated accesses are not counted as issued; a launch runs in
 * full (no shortcut or extrapolation for very large ones); structs by value
 * as kernel parameters, references, template type parameters. */

#define WS_KERNEL_ERROR (ws_kernel_error_quark ())

typedef enum
{
  WS_KERNEL_ERROR_SYNTAX,       /* the text does not read as C++ */
  WS_KERNEL_ERROR_UNSUPPORTED,  /* C++ or CUDA outside the subset */
  WS_KERNEL_ERROR_INVALID,      /* names, types, constants: nvcc would refuse it too */
  WS_KERNEL_ERROR_LIMIT,        /* a bound this reader or the VM sets */
  WS_KERNEL_ERROR_LAUNCH,       /* the launch: the comment, an override, a size */
  WS_KERNEL_ERROR_RUN,          /* what a thread did: out of bounds, division by zero, … */
  WS_KERNEL_ERROR_MISMATCH,     /* the GPU's output differs from the reference */
} WsKernelError;

/* The text a file may have, and how deeply its constructs may nest (every
 * walk over the tree recurses, so the parser bounds it). */
#define WS_KERNEL_MAX_TEXT (1024 * 1024)
#define WS_KERNEL_MAX_DEPTH 200
/* Memory instructions of one kernel, after device functions are inlined. */
#define WS_KERNEL_MAX_SITES 4096
/* Bytecode steps a run may take by default (warp instructions, all warps of
 * all blocks): a loop that runs far longer than meant stops with a message
 * that names it. ws_kernel_config_set_step_limit() changes it. */
#define WS_KERNEL_DEFAULT_STEP_LIMIT (G_GUINT64_CONSTANT (4) << 30)

typedef enum
{
  WS_KERNEL_SEVERITY_ERROR,
  WS_KERNEL_SEVERITY_WARNING,
  WS_KERNEL_SEVERITY_NOTE,      /* "host code ignored": the file still reads */
} WsKernelSeverity;

typedef struct
{
  WsKernelSeverity severity;
  guint line;                   /* 1-based */
  guint column;                 /* 1-based, in characters */
  guint end_line;
  guint end_column;             /* one past the construct's last character */
  char *message;                /* what is wrong, without the position */
} WsKernelDiagnostic;

GQuark      ws_kernel_error_quark          (void);
void        ws_kernel_diagnostic_free      (WsKernelDiagnostic *diagnostic);
/* "line 7, column 12: message" */
char       *ws_kernel_diagnostic_to_string (const WsKernelDiagnostic *diagnostic);

/* ------------------------------------------------------------------ */
/* Files                                                              */
/* ------------------------------------------------------------------ */

typedef struct _WsKernelFile WsKernelFile;   /* refcounted, immutable once read; any thread */

/* NULL and the first error ("line 7, column 12: …") if the text does not
 * read; length -1: NUL-terminated. display_name is what messages call the
 * file (may be NULL). */
WsKernelFile *ws_kernel_file_parse          (const char          *text,
                                             gssize               length,
                                             const char          *display_name,
                                             GError             **error);
/* Every diagnostic (errors, warnings and notes such as "host code ignored"),
 * in the order of the text, whether the file reads or not; *out_file (may be
 * NULL) gets the file if it has no error. */
GPtrArray    *ws_kernel_file_check          (const char          *text,
                                             gssize               length,
                                             WsKernelFile       **out_file);
WsKernelFile *ws_kernel_file_ref            (WsKernelFile        *file);
void          ws_kernel_file_unref          (WsKernelFile        *file);
guint         ws_kernel_file_get_n_kernels  (const WsKernelFile  *file);
const char   *ws_kernel_file_get_kernel_name (const WsKernelFile *file,
                                              guint               i);
const char   *ws_kernel_file_get_text       (const WsKernelFile  *file);
const char   *ws_kernel_file_get_display_name (const WsKernelFile *file);
/* The notes and warnings of a file that reads (WsKernelDiagnostic *). */
GPtrArray    *ws_kernel_file_get_diagnostics (const WsKernelFile *file);
/* The whole file as CUDA printed from its checked tree (every kernel under
 * its own name, device functions, structs, constant arrays), which reads
 * back into the same tree. Macros and typedefs are expanded. */
char         *ws_kernel_file_print          (const WsKernelFile  *file);
/* Whether two files' checked trees are the same (positions aside). */
gboolean      ws_kernel_file_equal          (const WsKernelFile  *a,
                                             const WsKernelFile  *b);

/* ------------------------------------------------------------------ */
/* The launch                                                         */
/* ------------------------------------------------------------------ */

/* From the file's launch comment ("/" "* warpscope: … *" "/" or
 * "// warpscope: grid = …; block = …"), then overrides. Lines are
 * "name = value":
 *   kernel = NAME              which kernel, if the file has several
 *   grid = X[, Y[, Z]]         expressions of the values below
 *   block = X[, Y[, Z]]
 *   shared = BYTES             dynamic shared memory (extern __shared__)
 *   steps = COUNT              the step limit of a run
 *   NAME = VALUE               a scalar parameter, a template parameter,
 *                              or a name used in the other expressions
 *   ARRAY[SIZE] = FILL         an array's size in elements and its fill
 *   ARRAY[SIZE] @ OFFSET = FILL   the parameter points OFFSET elements in
 *   ARRAY = FILL               its fill; the size is what the kernel touches
 *   KERNEL.NAME = VALUE        any of these, for that kernel only
 * A fill is an expression of i (the index of a scalar in the array: a
 * float4 array's element k holds scalars 4k … 4k + 3) and random(SEED), a
 * pseudo-random integer in [0, 2^31) of (SEED, i). */
typedef struct _WsKernelLaunchConfig WsKernelLaunchConfig;

WsKernelLaunchConfig *ws_kernel_config_new   (const WsKernelFile   *file,
                                              const char           *kernel,
                                              GError              **error);
WsKernelLaunchConfig *ws_kernel_config_copy  (const WsKernelLaunchConfig *config);
void        ws_kernel_config_free            (WsKernelLaunchConfig *config);
const char *ws_kernel_config_get_kernel      (const WsKernelLaunchConfig *config);
gboolean    ws_kernel_config_set_grid        (WsKernelLaunchConfig *config,
                                              WsDim3                grid,
                                              GError              **error);
gboolean    ws_kernel_config_set_block       (WsKernelLaunchConfig *config,
                                              WsDim3                block,
                                              GError              **error);
/* One line of the comment: name "N", value "4096"; name "idata[N * N]",
 * value "random(7)"; "grid", "N / 32, N / 32". */
gboolean    ws_kernel_config_set             (WsKernelLaunchConfig *config,
                                              const char           *name,
                                              const char           *value_text,
                                              GError              **error);
void        ws_kernel_config_set_step_limit  (WsKernelLaunchConfig *config,
                                              guint64               steps);

/* ------------------------------------------------------------------ */
/* A kernel at one launch                                             */
/* ------------------------------------------------------------------ */

typedef struct _WsKernelInstance WsKernelInstance;  /* refcounted, immutable; any thread */

typedef enum
{
  WS_KERNEL_SIZE_DECLARED,      /* its declaration says (shared, constant, local) */
  WS_KERNEL_SIZE_GIVEN,         /* the launch says */
  WS_KERNEL_SIZE_INFERRED,      /* what the kernel touches, found by running the launch */
} WsKernelSizeOrigin;

typedef enum
{
  WS_KERNEL_SCALAR_INT,         /* signed integers, bool */
  WS_KERNEL_SCALAR_UINT,
  WS_KERNEL_SCALAR_FLOAT,       /* float and double */
} WsKernelScalarKind;

typedef struct
{
  char *name;
  WsSpace space;                /* global (parameters, __device__), shared, constant, local or register */
  char *elem_type;              /* "float", "float4", "Point" */
  guint elem_size;
  guint elem_align;
  guint64 n_elements;
  guint64 bytes;
  guint64 offset_elements;      /* a parameter points this far into its array */
  WsKernelSizeOrigin size_origin;
  gboolean dynamic_shared;      /* extern __shared__: sized by the launch's dynamic shared bytes */
  int param;                    /* the kernel's parameter, or -1 */
  char *fill;                   /* the fill as written, or the default's */
  gboolean fill_given;
  gboolean is_const;            /* const T *: the kernel may not write it */
  gboolean read;                /* the kernel has a load or an atomic on it */
  gboolean written;             /* a store or an atomic */
} WsKernelArrayInfo;

typedef struct
{
  char *name;
  char *type;                   /* as printed in CUDA: "const float *", "int" */
  gboolean is_pointer;
  guint array;                  /* a pointer's array */
  WsKernelScalarKind kind;      /* a scalar's */
  guint size;                   /* bytes the kernel receives: 8 for a pointer */
  guint8 value[8];              /* a scalar's value as the kernel receives it (little-endian) */
  char *value_text;             /* "1024", "2.5" */
} WsKernelParam;

/* How often nvcc makes a load or store of a loop: an element at an address
 * the loop does not change, that nothing else in it may touch, stays in a
 * register (loaded before the loop, stored after it). */
typedef enum
{
  WS_KERNEL_KEEP_EVERY,         /* at every iteration, as written */
  WS_KERNEL_KEEP_ONCE,          /* once each time the loop is entered */
  WS_KERNEL_KEEP_NEVER,         /* not at all: the value is already in a register, or
                                 * the store is written over before anything reads it */
} WsKernelKeep;

typedef struct
{
  guint id;
  guint line;
  guint column;
  guint end_line;
  guint end_column;
  char *text;                   /* the access as written: "in[(y + j) * N + x]" */
  guint array;
  const char *array_name;
  WsSpace space;
  WsAccessKind kind;
  guint elem_size;              /* bytes one lane moves: 16 for a float4 */
  guint part;                   /* of a struct moved by several instructions: which, from 0 */
  guint joined_size;            /* a shared load in an unrolled loop that nvcc joins
                                 * over consecutive iterations: the bytes of the one
                                 * wide load (8 or 16), else 0 */
  gboolean read_only;           /* __ldg */
  const char *function;         /* the device function it was inlined from, or NULL */
  int unroll;                   /* the count of the #pragma unroll over the innermost loop
                                 * around it; 0: no count, or no pragma, or no loop */
  WsKernelKeep keep;            /* what nvcc keeps in a register through a loop */
  guint keep_line;              /* that loop's line (keep not EVERY) */
  gboolean forwarded;           /* a load never made: the value the statement before
                                 * the loop stored (reused: the value stored at keep_line) */
  gboolean reused;              /* a load never made: the value loaded or stored before
                                 * at keep_line, with nothing between that may change it */
  gboolean hoisted;             /* a load in an if never made there: nvcc loads it once
                                 * before the if, for the load at keep_line after it */
} WsKernelSite;

typedef struct
{
  guint id;
  guint line;
  guint column;
  const char *keyword;          /* "for", "while", "do" */
  const char *function;         /* NULL in the kernel itself */
} WsKernelLoop;

WsKernelInstance *ws_kernel_instance_new     (const WsKernelFile         *file,
                                              const WsKernelLaunchConfig *config,
                                              GCancellable               *cancellable,
                                              GError                    **error);
WsKernelInstance *ws_kernel_instance_ref     (WsKernelInstance *instance);
void        ws_kernel_instance_unref         (WsKernelInstance *instance);
const WsKernelFile *ws_kernel_instance_get_file (const WsKernelInstance *instance);
const char *ws_kernel_instance_get_kernel_name (const WsKernelInstance *instance);
WsDim3      ws_kernel_instance_get_grid      (const WsKernelInstance *instance);
WsDim3      ws_kernel_instance_get_block     (const WsKernelInstance *instance);
guint       ws_kernel_instance_get_n_sites   (const WsKernelInstance *instance);
/* A sentence on what nvcc keeps of site in a register through a loop, and
 * why the count is low, or NULL where the site is made as written. */
char       *ws_kernel_site_keep_text         (const WsKernelSite *site);
const WsKernelSite *ws_kernel_instance_get_site (const WsKernelInstance *instance,
                                                 guint                   i);
guint       ws_kernel_instance_get_n_arrays  (const WsKernelInstance *instance);
const WsKernelArrayInfo *ws_kernel_instance_get_array (const WsKernelInstance *instance,
                                                       guint                   i);
/* The array of that name, or -1. */
int         ws_kernel_instance_find_array    (const WsKernelInstance *instance,
                                              const char             *name);
guint       ws_kernel_instance_get_n_params  (const WsKernelInstance *instance);
const WsKernelParam *ws_kernel_instance_get_param (const WsKernelInstance *instance,
                                                   guint                   i);
guint       ws_kernel_instance_get_n_loops   (const WsKernelInstance *instance);
const WsKernelLoop *ws_kernel_instance_get_loop (const WsKernelInstance *instance,
                                                 guint                   i);
guint64     ws_kernel_instance_get_dynamic_shared (const WsKernelInstance *instance);
/* Static and dynamic shared bytes of a block. */
guint64     ws_kernel_instance_get_shared_bytes (const WsKernelInstance *instance);
gint64      ws_kernel_instance_get_local_bytes_per_thread (const WsKernelInstance *instance);
/* What the launch chose for the user: defaults, sizes it found, host code
 * it ignored; sentences, in the order they were made. */
const char *const *ws_kernel_instance_get_notes (const WsKernelInstance *instance);
/* Where the launch came from the host code (K<<<grid, block>>>(…) in
 * main), or why that launch was not used where it mattered: a note at
 * that launch in the text; NULL where the host code gave nothing. Its
 * message is also among the notes. */
const WsKernelDiagnostic *ws_kernel_instance_get_launch_note (const WsKernelInstance *instance);
/* CUDA for NVRTC, printed from the checked tree (never the user's text):
 * an `extern "C" __global__` kernel named ws_kernel_instance_get_cuda_name()
 * with the user's parameters in their order (device pointers and scalar
 * values), constant arrays as `__constant__` symbols named as the arrays
 * are, `#line N` directives so that SASS line info maps to the user's
 * lines. */
char       *ws_kernel_instance_print_cuda    (const WsKernelInstance *instance,
                                              GError                **error);
const char *ws_kernel_instance_get_cuda_name (const WsKernelInstance *instance);

/* ------------------------------------------------------------------ */
/* Running it                                                         */
/* ------------------------------------------------------------------ */

/* Every warp-level memory instruction executed. */
typedef struct
{
  guint64 block;                /* linear block index, x fastest */
  WsDim3 block_idx;
  guint warp;                   /* warp within the block */
  guint site;                   /* index into the instance's sites */
  guint32 active;               /* lanes that make the access */
  guint32 valid;                /* lanes that exist (partial last warp) */
  const gint64 *address;        /* [32] byte offset from the array's start;
                                 * local: the lane's byte offset in its own
                                 * private array (ws-analysis.h's convention) */
} WsKernelEvent;

/* The bytes per lane an event of a site is counted with: the site's
 * elem_size, or for a joined load (joined_size) its wide size at the
 * iteration that starts a group (its addresses aligned to it), and 0 at
 * the iterations that the group's wide load has already served. */
static inline guint
ws_kernel_event_size (const WsKernelSite  *site,
                      const WsKernelEvent *event)
{
  if (site->joined_size == 0 || event->active == 0)
    return site->elem_size;
  if (event->address[__builtin_ctz (event->active)] % (gint64) site->joined_size != 0)
    return 0;
  return site->joined_size;
}

typedef enum
{
  WS_KERNEL_FENCE_BLOCK,        /* __threadfence_block () */
  WS_KERNEL_FENCE_GPU,          /* __threadfence () */
  WS_KERNEL_FENCE_SYSTEM,       /* __threadfence_system () */
  WS_KERNEL_N_FENCES
} WsKernelFence;

/* What the time model needs besides the memory instructions; warp counts
 * (a warp instruction counts once whatever its active lanes). */
typedef struct
{
  guint64 instructions;         /* warp instructions of arithmetic, comparisons, conversions, math,
                                 * shuffles and votes with an active lane (not moves, masks or jumps) */
  guint64 memory_instructions;  /* warp memory instructions (the events) */
  guint64 barriers;             /* __syncthreads () a block passes, summed over blocks */
  guint64 syncwarps;
  guint64 fences[WS_KERNEL_N_FENCES];
  guint64 atomics;              /* warp atomic instructions */
  guint64 shuffles;
  guint64 votes;                /* ballot, any, all, activemask */
  guint64 loop_iterations;      /* warp iterations of every loop */
  guint64 max_block_instructions; /* the most warp instructions of any warp, arithmetic and memory */
  guint64 blocks;
  guint64 warps;
} WsKernelRunCounts;

typedef struct _WsKernelMemory WsKernelMemory;

/* Fresh memory for a run: arrays filled as the launch says (lazily: a page is
 * filled when first touched). Not thread-safe: one run at a time. */
WsKernelMemory *ws_kernel_memory_new         (const WsKernelInstance *instance);
void        ws_kernel_memory_free            (WsKernelMemory         *memory);

typedef gboolean (*WsKernelVisitor) (const WsKernelEvent *event,
                                     gpointer             user_data,
                                     GError             **error);

/* Runs blocks [first, first + count) in order, each warp of a block until
 * its next __syncthreads () or its end, then the next; each memory
 * instruction of each warp is visited in the order the VM executes them
 * (visit may be NULL). counts_out (may be NULL) gets this call's counts,
 * loop_iterations_out (may be NULL, else n_loops long) its loops'. progress
 * (may be NULL) counts blocks. */
gboolean    ws_kernel_run_blocks             (const WsKernelInstance *instance,
                                              WsKernelMemory         *memory,
                                              guint64                 first,
                                              guint64                 count,
                                              WsKernelVisitor         visit,
                                              gpointer                user_data,
                                              WsKernelRunCounts      *counts_out,
                                              guint64                *loop_iterations_out,
                                              GCancellable           *cancellable,
                                              WsAnalysisProgress     *progress,
                                              GError                **error);
/* Runs every block of the launch. */
gboolean    ws_kernel_run                    (const WsKernelInstance *instance,
                                              WsKernelMemory         *memory,
                                              GCancellable           *cancellable,
                                              GError                **error);

/* The initial contents of bytes [first_byte, first_byte + n) of an array,
 * as the host must upload them (the same fill). */
void        ws_kernel_fill_bytes             (const WsKernelInstance *instance,
                                              guint                   array,
                                              guint64                 first_byte,
                                              guint8                 *dest,
                                              gsize                   n);
/* Bytes of an array as they are now in memory (after a run: the reference). */
gboolean    ws_kernel_memory_read            (WsKernelMemory         *memory,
                                              guint                   array,
                                              guint64                 first_byte,
                                              guint8                 *dest,
                                              gsize                   n,
                                              GError                **error);
/* Compares the GPU's contents of a whole array (n bytes from its start) with
 * the reference's: integers exactly; floats within a relative tolerance of
 * 1e-4 (double: 1e-9) of max (1, |reference|), NaN equal to NaN. FALSE and
 * *message ("out[1234] is 3.5 on the GPU, 3.25 in the reference"; a struct
 * or vector names its field: "v[3].y …") at the first difference. */
gboolean    ws_kernel_memory_compare         (WsKernelMemory         *memory,
                                              guint                   array,
                                              const guint8           *gpu,
                                              gsize                   n,
                                              char                  **message);

/* ------------------------------------------------------------------ */
/* The model                                                          */
/* ------------------------------------------------------------------ */

/* Every site over the whole launch (ws_model_count_warp () for each event:
 * the hardware rules tested in test-analysis), their total, what else the
 * run did, and each loop's warp iterations. */
typedef struct
{
  guint n_sites;
  WsStats *sites;
  WsStats total;
  WsKernelRunCounts counts;
  guint n_loops;
  guint64 *loop_iterations;
  guint64 blocks;
  guint64 warps;
  guint64 threads;
} WsKernelStats;

WsKernelStats *ws_kernel_model_analyze       (const WsKernelInstance *instance,
                                              GCancellable           *cancellable,
                                              WsAnalysisProgress     *progress,
                                              GError                **error);
void        ws_kernel_stats_free             (WsKernelStats          *stats);

/* One warp's instruction at a site, for the views: the execution-th (from 0:
 * loop iterations count) execution of site by warp warp of block block_idx,
 * as a WsWarpResult with its schedule of steps (access is the site; local
 * addresses are the warp's interleaved slice, private_offset the lane's
 * own); NULL and an error if that warp never executes the site that often.
 * Runs that block alone, on freshly filled memory. */
WsWarpResult *ws_kernel_analyze_warp         (const WsKernelInstance *instance,
                                              guint                   site,
                                              WsDim3                  block_idx,
                                              guint                   warp,
                                              guint                   execution,
                                              GError                **error);
/* The first execution of site by the first warp, of the first max_blocks
 * blocks, that executes it; NULL and the last warp's error if none does
 * ("the launch has no threads" where there are none). */
WsWarpResult *ws_kernel_analyze_first_warp   (const WsKernelInstance *instance,
                                              guint                   site,
                                              guint64                 max_blocks,
                                              GError                **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsKernelFile, ws_kernel_file_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsKernelLaunchConfig, ws_kernel_config_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsKernelInstance, ws_kernel_instance_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsKernelMemory, ws_kernel_memory_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsKernelStats, ws_kernel_stats_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsKernelDiagnostic, ws_kernel_diagnostic_free)

G_END_DECLS
