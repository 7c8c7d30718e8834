/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-pattern.h"

G_BEGIN_DECLS

/* Named patterns with an explanation, grouped by the topics of DESIGN.md.
 * A preset's id is also the id of its real kernel in the backend. */

typedef struct
{
  const char *id;
  const char *title;
  const char *summary;
} WsTopic;

typedef struct
{
  const char *name;
  gint64 value;
  gint64 min;
  gint64 max;
  const char *description;
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
#define WS_PRESET_MAX_ACCESSES 4

typedef struct
{
  const char *id;
  const char *topic;
  const char *title;
  const char *summary;
  WsDim3 block;
  WsDim3 grid;
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
WsPattern      *ws_preset_build            (const WsPreset *preset);

/* Parses a sweep's values: "A:B[:STEP]" or "A,B,C". */
GArray         *ws_sweep_values_parse      (const char     *text,
                                            GError        **error);

G_END_DECLS
