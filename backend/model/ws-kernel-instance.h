/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-kernel-vm.h"

G_BEGIN_DECLS

/* What an instance holds, for the parts that run it (memory, the VM's
 * walk, the model). */
struct _WsKernelInstance
{
  gint ref_count;
  WsKernelFile *file;
  WkFunc *kernel;
  WkProgram *prog;
  WsDim3 grid;
  WsDim3 block;
  guint64 dynamic_shared;
  guint64 step_limit;
  GHashTable *template_values;  /* WkSym * → WkConst * */
  GArray *param_values;         /* WkSlot per parameter */
  WkFill **fills;               /* per array (NULL: zeros) */
  GPtrArray *array_infos;       /* WsKernelArrayInfo * */
  GPtrArray *params;            /* WsKernelParam * */
  GArray *sites;                /* WsKernelSite */
  GArray *loops;                /* WsKernelLoop */
  GPtrArray *notes;             /* char *, NULL-terminated */
  WsKernelDiagnostic *launch_note; /* the host code's launch, or NULL */
  char *cuda_name;
};

/* The launch's values, as the config resolves them for an instance. */
typedef struct
{
  const char *name;
  gboolean has_size;
  guint64 size;                 /* elements */
  guint64 offset;               /* elements */
  WkExpr *fill;                 /* checked, with the names of the launch and i */
  char *fill_text;
} WkArraySetting;

typedef struct _WkLaunchValues WkLaunchValues;

/* Resolves the config against its kernel: every value evaluated, every
 * fill parsed and checked. */
/* The config for another reading of its file (the same text, read with
 * its template types given). */
WsKernelLaunchConfig *wk_config_copy_for (const WsKernelLaunchConfig *config,
                                          WsKernelFile               *file);
/* The text of name's value, and where it is in the file (-1: given by the
 * caller, not the comment); NULL when none is given. */
const char *wk_config_value_text    (const WsKernelLaunchConfig *config,
                                     const char                 *name,
                                     int                        *at);
WkLaunchValues *wk_config_resolve   (const WsKernelLaunchConfig *config,
                                     WkFunc                     *kernel,
                                     GError                    **error);
void        wk_launch_values_free   (WkLaunchValues *values);
gboolean    wk_launch_values_dims   (WkLaunchValues *values,
                                     WsDim3         *grid,
                                     gboolean       *grid_given,
                                     WsDim3         *block,
                                     gboolean       *block_given);
gboolean    wk_launch_values_shared (WkLaunchValues *values,
                                     guint64        *bytes);
guint64     wk_launch_values_steps  (WkLaunchValues *values);
/* What the host code's launch gave ("from the host code's launch at line
 * 119: grid (32, 32, 1), block (32, 8, 1)"), or why it gave nothing; NULL
 * where the file's host code does not launch the kernel. quiet: it is no
 * note of its own (the launch was given otherwise), only what a message
 * about a missing value adds. start, end: that launch in the text. */
const char *wk_launch_values_host_note (WkLaunchValues *values,
                                        gboolean       *quiet,
                                        guint          *start,
                                        guint          *end);
/* A scalar parameter's or template parameter's value, converted to its type. */
gboolean    wk_launch_values_scalar (WkLaunchValues *values,
                                     const char     *name,
                                     const WkType   *type,
                                     WkConst        *out);
const WkArraySetting *wk_launch_values_array (WkLaunchValues *values,
                                              const char     *name);
/* A default fill ("i" or "0"), checked like the others. */
WkExpr     *wk_launch_values_default_fill (WkLaunchValues *values,
                                           const char     *text);
WkSym      *wk_launch_values_index_sym (WkLaunchValues *values);
WsKernelFile *wk_config_get_file     (const WsKernelLaunchConfig *config);

WkStore    *wk_memory_stores        (WsKernelMemory *memory);
void        wk_instance_run_init    (const WsKernelInstance *inst,
                                     WkRun                  *run,
                                     WkStore                *stores,
                                     WsKernelRunCounts      *counts);
void        wk_store_init           (WkStore       *store,
                                     const WkArray *array,
                                     const WkFill  *fill,
                                     guint64        bytes,
                                     gboolean       sizing);
#define WK_MAX_THREADS 64
/* The threads a run takes where it may take several: the cores, at most
 * 16, or WS_KERNEL_THREADS (at most WK_MAX_THREADS). */
guint       wk_cores                (void);
/* How many threads a run of count blocks of the launch takes: 1 where
 * there is one block, or where its blocks may see each other's writes
 * while they run (atomics, fences or volatile accesses to global memory);
 * else wk_cores (). */
guint       wk_run_threads          (const WsKernelInstance *inst,
                                     guint64                 count);
/* Runs blocks [first, first + count) on n_threads threads at once, each
 * taking the next blocks in turn; thread k's events go to visit with
 * visit_data[k] (visit may be NULL), in the order it runs them. The
 * counts and loops are the sums of the threads' (max_block_instructions
 * the most); an error is that of the first block that failed; progress
 * (may be NULL) counts blocks from 0. */
gboolean    wk_run_blocks_at_once   (const WsKernelInstance *inst,
                                     WsKernelMemory         *memory,
                                     guint64                 first,
                                     guint64                 count,
                                     guint                   n_threads,
                                     WsKernelVisitor         visit,
                                     gpointer               *visit_data,
                                     WsKernelRunCounts      *counts_out,
                                     guint64                *loop_iterations_out,
                                     GCancellable           *cancellable,
                                     WsAnalysisProgress     *progress,
                                     GError                **error);
guint64     wk_random               (gint64 seed,
                                     gint64 index);

G_END_DECLS
