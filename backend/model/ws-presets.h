/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-pattern.h"

G_BEGIN_DECLS

/* The catalogue: named patterns with an explanation, grouped by the topics
 * of docs/DESIGN.md. A preset is declared once, here, for the model and the GPU
 * alike: its id is the id of its real kernel, its parameters (with their
 * defaults, ranges and standard sweep) are the kernel's, and its grid is the
 * one the kernel launches for them. The GPU layer's registry
 * (ws_gpu_kernels) is read from this table, so `warpscope-cli model --preset
 * X` analyses the launch `warpscope-cli measure X` runs. HACKING.md says how
 * to add a kernel. */

typedef struct
{
  const char *id;
  const char *title;
  const char *summary;
} WsTopic;

/* Who reads a parameter. */
typedef enum
{
  WS_PARAM_SHARED,           /* the model's pattern and the real kernel */
  WS_PARAM_MODEL_ONLY,       /* the pattern alone: which step of the kernel's loop the views show */
  WS_PARAM_KERNEL_ONLY,      /* the kernel alone: how often it repeats what the pattern shows */
} WsParamUse;

typedef struct
{
  const char *name;
  gint64 value;              /* the default, for the model and the kernel alike */
  gint64 min;
  gint64 max;
  const char *description;
  WsParamUse use;
} WsPresetParam;

typedef struct
{
  const char *array;
  WsSpace space;
  WsAccessKind kind;
  guint elem_size;         /* 0: the parameter elem_size */
  const char *index;
  gint64 base;
} WsPresetAccess;

#define WS_PRESET_MAX_PARAMS 4
#define WS_PRESET_MAX_ACCESSES 8

typedef struct
{
  const char *id;
  const char *topic;
  const char *title;
  const char *kernel;        /* what the real kernel does, for `warpscope-cli list`; NULL: none */
  const char *summary;
  WsDim3 block;
  const char *grid;          /* blocks as expressions of the parameters: "(N + 255) / 256", "132", "X, Y" */
  const char *definitions;   /* "name = expr; name = expr" */
  const char *guard;
  WsPresetParam params[WS_PRESET_MAX_PARAMS];
  WsPresetAccess accesses[WS_PRESET_MAX_ACCESSES];
  const char *sweep_param;   /* what its standard sweep varies, or NULL */
  const char *sweep_values;  /* "1:32", "1:64:2" or "1,2,4,8" */
} WsPreset;

const WsTopic  *ws_topics_get_all          (guint          *n_topics);
const WsTopic  *ws_topic_lookup            (const char     *id);
const WsPreset *ws_presets_get_all         (guint          *n_presets);
const WsPreset *ws_preset_lookup           (const char     *id);
/* The preset id nearest a mistyped one ("banks/strid", "stride"), or NULL
 * when none is near: for "did you mean". */
const char     *ws_preset_suggest          (const char     *id);
WsPattern      *ws_preset_build            (const WsPreset *preset);
/* Sets the pattern's grid to the one the preset's kernel launches for the
 * pattern's parameters (after a --set N=…). */
gboolean        ws_preset_fit_grid         (const WsPreset *preset,
                                            WsPattern      *pattern,
                                            GError        **error);
const WsPresetParam *ws_preset_get_param   (const WsPreset *preset,
                                            const char     *name);

/* The parameter the preset's standard sweep varies, if the pattern has it
 * (NULL for none, or for a pattern of one's own). */
const char     *ws_preset_sweep_param      (const WsPreset  *preset,
                                            const WsPattern *pattern);
/* Whether pattern differs from the preset's by more than the value of its
 * sweep parameter: the preset's kernel still measures a pattern whose only
 * change is that. TRUE for a pattern of one's own (preset NULL). */
gboolean        ws_preset_differs          (const WsPreset  *preset,
                                            const WsPattern *pattern);
/* The pattern less the value of sweep_param: what the points of one sweep
 * share (the key of live measurements). */
char           *ws_pattern_sweep_key       (const WsPattern *pattern,
                                            const char      *sweep_param);

/* A preset's title less an aside that is code: "Strided", not "Strided (blockIdx.x + …)". */
char           *ws_preset_short_title      (const char     *title);

/* Parses a sweep's values: "A:B[:STEP]" or "A,B,C". */
GArray         *ws_sweep_values_parse      (const char     *text,
                                            GError        **error);

G_END_DECLS
