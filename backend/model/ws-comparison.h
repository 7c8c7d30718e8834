/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-analysis.h"
#include "ws-kernel.h"
#include "ws-kernel-spec.h"
#include "ws-presets.h"

G_BEGIN_DECLS

/* Two to four presets side by side: each item is a preset with the
 * parameters set, or a kernel of one's own, and the instruction its view
 * shows; its cost is what the model says a warp of its launch moves. GLib
 * only: the session holds a comparison, the figures and the chart draw it. */

#define WS_COMPARE_MAX 4
#define WS_COMPARE_MIN 2

/* What tells an item from another that is otherwise alike. */
typedef enum
{
  WS_COMPARE_MARK_NONE,
  WS_COMPARE_MARK_INSTRUCTION,   /* "…, instruction 2" */
  WS_COMPARE_MARK_PLACE,         /* "… (2)" */
} WsCompareMark;

typedef struct
{
  char *id;                  /* the preset */
  char *title;               /* short, with the parameters set: "Stride sweep, stride = 4"; English */
  WsPattern *pattern;
  guint access;              /* the instruction in view (ws_compare_main_access) */
  /* what the title is made of, besides the preset's title */
  char *params;              /* ", stride = 4", or "" */
  WsCompareMark mark;
  guint mark_number;
  /* a kernel of one's own, from "FILE.cu[:KERNEL][@LINE]": id is that
   * spec, pattern NULL, access the site in view and line its source line;
   * NULL for a preset */
  WsKernelInstance *kernel;
  guint line;
  char *kernel_key;          /* a kernel's: the key of its live measurements (ws_kernel_spec_live_key) */
  WsKernelSpec *kernel_spec; /* a kernel's: what the GPU runs */
} WsCompareItem;

/* A msgid's translation, as the caller wants it (the program's domain, or
 * the one the figures draw in); NULL: the English. */
typedef const char *(*WsGettextFunc) (const char *msgid);

/* What the model says a warp of the launch costs (on average), in units
 * that can be compared between patterns. */
typedef struct
{
  gboolean known;
  double bytes;              /* moved by the 32-byte sectors of global and local memory */
  double wavefronts;         /* shared memory */
  double requests;           /* constant memory, one per distinct address */
} WsCompareCost;

/* A set worth comparing, for the window's menu and the gallery. */
typedef struct
{
  const char *title;                     /* English, marked N_() */
  const char *ids[WS_COMPARE_MAX + 1];   /* NULL after the last */
} WsCompareSet;

/* "ID[@N][:NAME=VALUE]…": a preset, the instruction to show (from 1; the
 * one that says most without), and parameters set; or
 * "FILE.cu[:KERNEL][@LINE]": a kernel of one's own (which of the file's
 * kernels, and the source line to show; the one that says most without),
 * read from its file now. */
WsCompareItem *ws_compare_item_new       (const char          *spec,
                                          GError             **error);
WsCompareItem *ws_compare_item_new_for   (const WsPreset      *preset,
                                          const WsPattern     *pattern);
WsCompareItem *ws_compare_item_copy      (const WsCompareItem *item);
void           ws_compare_item_free      (WsCompareItem       *item);
/* Whether the spec names a kernel file ("….cu", "….cu:KERNEL@LINE"). */
gboolean       ws_compare_spec_is_kernel (const char          *spec);
/* The block of the item's launch. */
WsDim3         ws_compare_item_get_block (const WsCompareItem *item);
/* Names the items of a comparison so that no two are alike: those of one
 * preset by the parameters they differ in ("Stride sweep, stride = 1" and
 * "…, stride = 32"), then by their instruction. */
void           ws_compare_items_name     (GPtrArray           *items);
/* The instruction that says most about the pattern, in warp 0 of block 0:
 * the longest schedule in shared, local or constant memory, else in global. */
guint          ws_compare_main_access    (const WsPattern     *pattern);
/* "ID,ID[:NAME=VALUE],…" into items; fails on a bad one or a wrong count. */
GPtrArray     *ws_compare_parse_list     (const char          *list,
                                          GError             **error);

gboolean       ws_compare_cost_compute   (const WsPattern     *pattern,
                                          WsCompareCost       *cost,
                                          GCancellable        *cancellable,
                                          GError             **error);
/* ws_compare_cost_compute for a preset's pattern, or the same for a kernel. */
gboolean       ws_compare_item_cost      (const WsCompareItem *item,
                                          WsCompareCost       *cost,
                                          GCancellable        *cancellable,
                                          GError             **error);
/* The view of item i, for ws_compare_figure_draw. */
WsWarpResult  *ws_compare_item_analyze   (const WsCompareItem *item,
                                          GError             **error);
/* What the instruction in view does: "global store in[y * N + x], 4 B";
 * a kernel's says its line first ("line 57: global store …"). English. */
char          *ws_compare_item_describe  (const WsCompareItem *item);
/* "title: what the instruction does", as a figure's caption, English */
char          *ws_compare_item_caption   (const WsCompareItem *item);
/* The item's title in the words @gettext_func gives (the preset's title and
 * the marks, N_() in the model), the English with NULL: item->title, which
 * stays English for files of data. */
guint64        ws_compare_item_threads   (const WsCompareItem *item);
char          *ws_compare_item_dup_title (const WsCompareItem *item,
                                          WsGettextFunc        gettext_func);
/* The caption with the title in those words (the description of the
 * instruction is the model's English). */
char          *ws_compare_item_dup_caption (const WsCompareItem *item,
                                            WsGettextFunc        gettext_func);

const WsCompareSet *ws_compare_sets_get_all (guint            *n_sets);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsCompareItem, ws_compare_item_free)

G_END_DECLS
