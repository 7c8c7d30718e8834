/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-pattern.h"

G_BEGIN_DECLS

/* What the H200 measured (tests/data/h200/hierarchy-*.jsonl): per pattern or
 * kernel, its spec (a pattern in one line), the counters of one cold launch
 * and the cold median time. */

typedef struct
{
  char *name;
  char *spec;
  char *kernel;              /* a real kernel's id (a preset's), or NULL */
  GHashTable *params;        /* its parameters: name → gint64 * */
  WsPattern *pattern;        /* NULL where the spec gives none */
  double median_ms;
  guint registers;
  GHashTable *counters;      /* name → double * */
} WsHierRecord;

void        ws_hier_record_free      (WsHierRecord *r);
double      ws_hier_record_counter   (const WsHierRecord *r,
                                      const char         *name);

/* A spec line: name | block | grid | params | definitions | guard | accesses,
 * block and grid as 256 or 32,8; params as N=1024 stride=2 (or -);
 * definitions as i = …; j = … (or -); a guard (or -); accesses as
 * array:space:kind:bytes:index, separated by ';' — as tools/hw-probe's. */
WsPattern  *ws_hier_spec_parse       (const char   *line,
                                      char        **name,
                                      GError      **error);

/* The records of a .jsonl file of tests/data/h200/; kernels (which carry no
 * spec) get theirs from specs, a table of kernel@params → spec, when given. */
GPtrArray  *ws_hier_records_load     (const char   *path,
                                      GHashTable   *specs,
                                      GError      **error);

/* tests/data/h200/kernel-specs.txt: "kernel@N=…,…|spec" per line. */
GHashTable *ws_hier_kernel_specs_load (const char  *path,
                                       GError     **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsHierRecord, ws_hier_record_free)

G_END_DECLS
