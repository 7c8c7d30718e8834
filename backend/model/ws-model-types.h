/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define WS_WARP_SIZE 32
#define WS_SECTOR_BYTES 32
#define WS_LINE_BYTES 128
#define WS_N_BANKS 32
#define WS_BANK_BYTES 4

/* The limits a launch must respect on every GPU we target (Turing to Hopper). */
#define WS_MAX_THREADS_PER_BLOCK 1024
#define WS_MAX_SHARED_BYTES (227 * 1024)
#define WS_MAX_CONSTANT_BYTES (64 * 1024)
#define WS_MAX_LOCAL_BYTES (512 * 1024)
/* A private array kept in registers: at most the 255 32-bit registers a
 * thread can have (a real kernel needs some for everything else too). */
#define WS_MAX_REGISTER_BYTES (255 * 4)

typedef enum
{
  WS_SPACE_GLOBAL,
  WS_SPACE_SHARED,
  WS_SPACE_CONSTANT,
  WS_SPACE_LOCAL,
  WS_SPACE_REGISTER,   /* a private array the compiler keeps in registers: no memory instruction */
  WS_N_SPACES
} WsSpace;

typedef enum
{
  WS_ACCESS_LOAD,
  WS_ACCESS_STORE,
  WS_ACCESS_ATOMIC,
  WS_N_ACCESS_KINDS
} WsAccessKind;

typedef struct
{
  guint x;
  guint y;
  guint z;
} WsDim3;

#define WS_DIM3(X, Y, Z) ((WsDim3) { (X), (Y), (Z) })

const char *ws_space_to_string        (WsSpace       space);
gboolean    ws_space_from_string      (const char   *text,
                                       WsSpace      *space);
const char *ws_access_kind_to_string  (WsAccessKind  kind);
gboolean    ws_access_kind_from_string (const char  *text,
                                        WsAccessKind *kind);
gboolean    ws_elem_size_is_valid     (guint         elem_size);

guint64     ws_dim3_count             (WsDim3        d);
/* The block of a grid whose linear index (x fastest, then y, then z) is linear. */
WsDim3      ws_dim3_block_of          (WsDim3        grid,
                                       guint64       linear);
gboolean    ws_dim3_parse             (const char   *text,
                                       WsDim3       *out,
                                       GError      **error);
char       *ws_dim3_to_string         (WsDim3        d);

/* Text someone typed or a file held, made fit to show: valid UTF-8,
 * control characters written as escapes (\n, \x1b), at most max_chars
 * characters (then “…”; 0: no limit). */
char       *ws_text_printable         (const char   *text,
                                       guint         max_chars);
/* The same, at most 80 characters: what a message or a label quotes (a
 * GPU's name, an id, a file's path). */
char       *ws_text_for_message       (const char   *text);
/* Text to show, lines and all: valid UTF-8, at most max_chars characters,
 * the “…” of one cut short included. Cheap for short text. */
char       *ws_text_bounded           (const char   *text,
                                       guint         max_chars);

G_END_DECLS
