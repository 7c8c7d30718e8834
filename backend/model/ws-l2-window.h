/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* What an L2 access-policy window asks the cache to keep, for a hot set read
 * again and again while other data streams through. The window marks
 * hit_ratio of its bytes persisting; persisting lines live in the part of L2
 * set aside for them (cudaLimitPersistingL2CacheSize), and other lines may
 * use whatever of it they leave. The estimate is the textbook's, under LRU:
 * a cyclic reuse keeps a set of lines only if they and everything read
 * between two reads of a line fit in the cache that serves them — all of it
 * or none. The hardware's replacement is not LRU; the measurement says what
 * it does. */

typedef struct
{
  gint64 l2_bytes;
  gint64 set_aside_bytes;        /* 0: nothing set aside (no window) */
  gint64 window_bytes;           /* the window's size over the hot set; 0: none */
  double hit_ratio;              /* of the window, 0 … 1 */
  gint64 hot_bytes;              /* read again and again */
  gint64 streamed_bytes;         /* other data through L2 between two reads of a hot line */
} WsL2Window;

typedef struct
{
  gint64 persisting_bytes;       /* of the hot set, marked persisting */
  gint64 persisting_resident;    /* of them, what the set-aside keeps */
  gint64 normal_bytes;           /* the rest of the hot set */
  gint64 normal_capacity;        /* L2 less what persisting lines hold */
  gint64 normal_resident;        /* of the rest, what the stream leaves */
  gboolean thrashing;            /* more persisting lines than the set-aside holds */
  double resident_fraction;      /* of the hot set, 0 … 1 */
} WsL2Residency;

void ws_l2_residency (const WsL2Window *window,
                      WsL2Residency    *out);

G_END_DECLS
