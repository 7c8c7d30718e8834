/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "ws-block-schedule.h"
#include "ws-hierarchy.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

G_BEGIN_DECLS

/* The hierarchy's state while a launch is walked: ws-hierarchy.c walks,
 * ws-hier-l1.c keeps the SMs' L1 and store buffers, ws-hier-l2.c keeps L2
 * and counts DRAM. Lines are 128 bytes of 4 sectors; a line's tag is its
 * address / 128, with the array it belongs to in the top byte, plus one (0
 * marks an empty entry). */

#define WS_HIER_SECTORS_PER_LINE 4
#define WS_HIER_FULL_MASK 0xffffffffu
#define WS_HIER_DRAM_ROWS 1024
#define WS_HIER_PENDING 256       /* slots for lines of a block's stores merged before L2 */
#define WS_HIER_PENDING_MAX 192   /* lines held there at most (the rest of the slots keep probes short) */
#define WS_HIER_ATOMIC_SKETCH 65536
#define WS_HIER_L2_MEMO 1024      /* lines whose place in L2 is remembered */
#define WS_HIER_HELD 3            /* warps the walk has shown, not yet at the caches */

/* What L2 knows of a line: its tag and the state of its sectors. 32
 * bytes, so that a line's record is one cache line of the CPU's, the only
 * one that a line found by its key touches. */
typedef struct
{
  guint64 tag;                    /* 0: empty */
  guint32 gen;                    /* changes when the line leaves or is cleaned */
  guint8 writer;                  /* the access that wrote it last (< WS_PATTERN_MAX_ACCESSES) */
  guint8 valid;                   /* sectors holding the whole sector's data */
  guint8 dirty;                   /* valid sectors written since read from DRAM */
  guint8 partial;                 /* sectors written in part only (not valid) */
  guint32 mask[WS_HIER_SECTORS_PER_LINE];   /* bytes written of sectors written in part */
} WsL2Info;

G_STATIC_ASSERT (WS_PATTERN_MAX_ACCESSES <= G_MAXUINT8 + 1);

G_STATIC_ASSERT (sizeof (WsL2Info) == 32);

typedef struct
{
  guint32 *line;
  guint32 *gen;
  gsize size;
  gsize head;
  gsize len;
} WsLineQueue;

typedef struct
{
  guint64 tag;
  guint8 sectors;
  guint16 writer;
  guint32 mask[WS_HIER_SECTORS_PER_LINE];
} WsPendingLine;

/* Where a line was found in L2 last: the way still holds it while its
 * record's tag is the line's. */
typedef struct
{
  guint64 tag;                    /* 0: none */
  guint32 set_way;                /* set << 6 | way */
} WsL2Memo;

typedef struct
{
  guint64 tag;                    /* 0: empty */
  guint8 sectors;
  guint16 writer;
  guint32 age;
  guint32 mask[WS_HIER_SECTORS_PER_LINE];
} WsStoreEntry;

/* A warp's request: the distinct sectors (ascending) and the bytes of each. */
typedef struct
{
  guint n;
  guint64 sector[WS_WARP_SIZE * 4];
  guint32 mask[WS_WARP_SIZE * 4];
} WsSectors;

/* What the SMs ask of L2, in order: on two cores a launch's L1 and store
 * buffers run on the walk's thread and L2 on a thread of its own, which
 * gets these in the order they were made (ws-hier-pipe.c). */
typedef enum
{
  WS_L2_OP_READ,                  /* sectors: the sectors read */
  WS_L2_OP_ATOMIC,                /* sectors: the sector (0 to 3) */
  WS_L2_OP_PENDING,               /* sectors (none or one) and its mask: stores merged into the
                                   * block's pending line */
  WS_L2_OP_APPLY,                 /* the block's pending lines go to L2 */
} WsL2OpKind;

typedef struct
{
  guint64 tag;
  guint32 mask;
  guint8 kind;
  guint8 access;
  guint8 sectors;
} WsL2Op;

G_STATIC_ASSERT (sizeof (WsL2Op) == 16);

typedef struct _WsHierPipe WsHierPipe;

/* A warp the walk has shown, waiting for its turn at the caches. */
typedef struct
{
  guint64 block;
  WsBlockPlace place;
  WsSectors *sectors;             /* per access */
} WsHeldWarp;

typedef struct
{
  /* L1 of every SM: sets (picked by line) × ways of sectors, each known by
   * 32 bits of a hash of the sector (two sectors of one set sharing them is
   * a chance of one in 2^28); replaced by CLOCK */
  guint l1_sets;                  /* a power of two */
  guint l1_set_bits;
  guint l1_ways;
  guint32 *l1_key;                /* per SM, set and way; 0: empty */
  guint64 *l1_ref;                /* per SM and set: ways used since the hand passed */
  guint8 *l1_hand;
  guint32 *l1_inserts;            /* per SM: sectors taken so far */

  /* the last request per SM and access: a warp asking for exactly the
   * sectors the one before it got hits them all */
  guint64 *last_first;
  guint64 *last_sectors;          /* G_N_ELEMENTS (WsSectors.sector) each */
  guint32 *last_n;
  guint32 *last_inserts;

  /* store buffers of every SM */
  guint sb_lines;
  WsStoreEntry *sb;
  guint32 sb_clock;

  /* a block's stores reach L2 merged per line when it ends (the model's
   * shortcut: counts are taken as they arrive); an open-addressed table,
   * by a hash of the line, probed in order */
  WsPendingLine pending[WS_HIER_PENDING];
  guint n_pending;

  /* L2: sets × ways, replaced by CLOCK; a line is looked for by 16 bits
   * of a hash of its tag, and found where its record's tag is its own */
  guint l2_sets;
  guint l2_ways;
  guint16 *l2_key;                /* 0: empty */
  WsL2Info *l2_info;              /* aligned: a record a cache line */
  guint64 *l2_ref;                /* per set */
  guint64 *l2_dirty_ways;         /* per set: ways with dirty or partial sectors */
  guint8 *l2_hand;
  WsLineQueue dirty_queue;        /* lines in the order they became dirty */
  WsLineQueue partial_queue;      /* lines in the order a sector was written in part */
  WsL2Memo *l2_memo;              /* by the tag's low bits; NULL: not kept */
  guint64 dirty_weight;
  guint64 dirty_limit;            /* in lines; a line with partial sectors weighs 3 */
  guint64 partial_lines;
  guint64 partial_limit;

  guint64 dram_row[WS_HIER_DRAM_ROWS];

  /* atomics: updates per address (a sketch: addresses that share a counter
   * add up) and sector passes per L2 slice */
  guint64 *atomic_sketch;
  guint64 *slice_passes;
  guint n_slices;

  /* the launch */
  const WsPattern *pattern;
  guint n_accesses;
  const WsAccessShape *shapes;    /* per access */
  guint8 *array_id;               /* per access */
  WsHierStats *stats;             /* per access */
  WsBlockSchedule *schedule;
  guint64 block;                  /* the block at the caches, and its place */
  gboolean started;
  WsBlockPlace place;
  guint64 ahead_block;            /* the last block the schedule dealt */
  gboolean ahead_started;
  WsBlockPlace ahead_place;
  WsHeldWarp held[WS_HIER_HELD];  /* the warp the walk showed last is held[(n_visited - 1) % WS_HIER_HELD] */
  guint64 n_visited;
  guint warps_per_block;
  guint slots;
  guint sms;
  guint max_warps_per_sm;
  guint64 local_slice;            /* bytes of local memory per warp */
  const guint64 *repeat;          /* per access, or NULL */

  /* NULL: L2 is this structure's own, run at once; else what L2 is asked
   * goes to the pipe, whose thread keeps L2 (and the pending lines) */
  WsHierPipe *pipe;
} WsHier;

static inline guint64
ws_hier_hash (guint64 x)
{
  x ^= x >> 31;
  x *= G_GUINT64_CONSTANT (0x7fb5d329728ea185);
  x ^= x >> 27;
  x *= G_GUINT64_CONSTANT (0x81dadef4bc2dd44d);
  x ^= x >> 33;
  return x;
}

/* How many of a line's sectors are in bits: a table, where
 * __builtin_popcount would be a call without the popcnt instruction. */
static inline guint
ws_hier_n_sectors (guint bits)
{
  return (guint) (G_GUINT64_CONSTANT (0x4332322132212110) >> ((bits & 15) * 4)) & 15;
}

/* A table of the caches' state, zeroed, aligned on the CPU's cache lines
 * so that a set's keys take as few of them as they can; one of megabytes
 * is asked to lie on huge pages, where its random lookups would otherwise
 * miss the TLB mostly. Freed with ws_hier_table_free. */
gpointer ws_hier_table_alloc      (gsize                  n,
                                   gsize                  size);
void     ws_hier_table_free       (gpointer               table);
#define ws_hier_table_new(type, n) ((type *) ws_hier_table_alloc ((n), sizeof (type)))

/* The ways whose key is key, as bits. */
static inline guint64
ws_hier_match16 (const guint16 *keys,
                 guint          n,
                 guint16        key)
{
  guint64 m = 0;
  guint w = 0;

#ifdef __SSE2__
  __m128i k = _mm_set1_epi16 ((short) key);

  for (; w + 16 <= n; w += 16)
    {
      __m128i a = _mm_cmpeq_epi16 (_mm_loadu_si128 ((const __m128i *) (keys + w)), k);
      __m128i b = _mm_cmpeq_epi16 (_mm_loadu_si128 ((const __m128i *) (keys + w + 8)), k);

      m |= (guint64) (guint) _mm_movemask_epi8 (_mm_packs_epi16 (a, b)) << w;
    }
#endif
  for (; w < n; w++)
    m |= (guint64) (keys[w] == key) << w;
  return m;
}

static inline guint64
ws_hier_match32 (const guint32 *keys,
                 guint          n,
                 guint32        key)
{
  guint64 m = 0;
  guint w = 0;

#ifdef __SSE2__
  __m128i k = _mm_set1_epi32 ((int) key);

  for (; w + 16 <= n; w += 16)
    {
      __m128i a = _mm_packs_epi32 (_mm_cmpeq_epi32 (_mm_loadu_si128 ((const __m128i *) (keys + w)), k),
                                   _mm_cmpeq_epi32 (_mm_loadu_si128 ((const __m128i *) (keys + w + 4)), k));
      __m128i b = _mm_packs_epi32 (_mm_cmpeq_epi32 (_mm_loadu_si128 ((const __m128i *) (keys + w + 8)), k),
                                   _mm_cmpeq_epi32 (_mm_loadu_si128 ((const __m128i *) (keys + w + 12)), k));

      m |= (guint64) (guint) _mm_movemask_epi8 (_mm_packs_epi16 (a, b)) << w;
    }
#endif
  for (; w < n; w++)
    m |= (guint64) (keys[w] == key) << w;
  return m;
}

/* CLOCK: the first way from the hand not used since it last passed (those
 * passed over lose their mark); the hand moves past it. */
static inline guint
ws_hier_clock_victim (guint64 *ref,
                      guint8  *hand,
                      guint    ways)
{
  guint64 all = ways >= 64 ? G_MAXUINT64 : ((G_GUINT64_CONSTANT (1) << ways) - 1);
  guint64 unused = ~*ref & all;
  guint h = *hand;
  guint v;

  if (unused == 0)
    {
      *ref = 0;
      v = h;
    }
  else
    {
      guint64 ahead = unused & (G_MAXUINT64 << h);

      if (ahead)
        {
          v = (guint) __builtin_ctzll (ahead);
          /* passed over: [h, v) */
          *ref &= ~((G_MAXUINT64 << h) & ~(G_MAXUINT64 << v));
        }
      else
        {
          v = (guint) __builtin_ctzll (unused);
          *ref &= ~(G_MAXUINT64 << h) & (G_MAXUINT64 << v);
        }
    }
  *hand = (guint8) ((v + 1) % ways);
  return v;
}

/* The way ws_hier_clock_victim would give up, without taking it. */
static inline guint
ws_hier_clock_peek (guint64 ref,
                    guint   hand,
                    guint   ways)
{
  guint64 all = ways >= 64 ? G_MAXUINT64 : ((G_GUINT64_CONSTANT (1) << ways) - 1);
  guint64 unused = ~ref & all;
  guint64 ahead = unused & (G_MAXUINT64 << hand);

  if (unused == 0)
    return hand;
  return (guint) __builtin_ctzll (ahead ? ahead : unused);
}

/* A line's set: runs of 64 lines (8 KiB) keep their order, each run starts
 * at a set of its own, picked by a hash: sets fill as randomly as a hash of
 * every line would fill them, while a stream walks the sets in order (which
 * keeps the model's own memory traffic in order). */
static inline guint
ws_hier_set_of (guint64 line,
                guint   sets)
{
  guint64 start = ((ws_hier_hash (line >> 6) >> 32) * sets) >> 32;
  guint64 set = start + (line & 63);

  /* start < sets: no division where sets >= 64 */
  if (sets >= 64)
    return (guint) (set >= sets ? set - sets : set);
  return (guint) (set % sets);
}

/* A line's key in L2: 16 bits of a hash of its tag, never 0. */
static inline guint16
ws_hier_l2_key (guint64 tag)
{
  return (guint16) (ws_hier_hash (tag) >> 48) | 1;
}

/* Where L2 looks a line up: its set and its key, worked out once for the
 * lookup and the prefetches before it. */
typedef struct
{
  guint set;
  guint16 key;
} WsL2Where;

static inline WsL2Where
ws_hier_l2_where (const WsHier *h,
                  guint64       tag)
{
  return (WsL2Where) { ws_hier_set_of (tag - 1, h->l2_sets), ws_hier_l2_key (tag) };
}

G_STATIC_ASSERT ((WS_HIER_PENDING & (WS_HIER_PENDING - 1)) == 0 && WS_HIER_PENDING_MAX < WS_HIER_PENDING);

/* A line's first pending slot: the top bits of the tag times 2^64 / φ
 * (lines a stride apart land far apart; probing settles the rest). */
static inline guint
ws_hier_pending_home (guint64 tag)
{
  return (guint) ((tag * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15)) >> (64 - __builtin_ctz (WS_HIER_PENDING)));
}

/* The pending slot that holds the line, or the empty one its probe ends at. */
static inline guint
ws_hier_pending_find (const WsHier *h,
                      guint64       tag)
{
  guint i = ws_hier_pending_home (tag);

  while (h->pending[i].tag != 0 && h->pending[i].tag != tag)
    i = (i + 1) & (WS_HIER_PENDING - 1);
  return i;
}

/* The pending line in slot i leaves the table (the caller sends it on). */
static inline WsPendingLine
ws_hier_pending_take (WsHier *h,
                      guint   i)
{
  const guint last = WS_HIER_PENDING - 1;
  WsPendingLine taken = h->pending[i];

  /* the lines after it in its run move back where their probes would
   * not find them past the gap */
  for (guint j = (i + 1) & last; h->pending[j].tag != 0; j = (j + 1) & last)
    {
      guint home = ws_hier_pending_home (h->pending[j].tag);

      /* home cyclically in (i, j]: it stays */
      if (((home - i - 1) & last) < ((j - i) & last))
        continue;
      h->pending[i] = h->pending[j];
      i = j;
    }
  h->pending[i].tag = 0;
  h->n_pending--;
  return taken;
}

/* ws-hier-l2.c */
void     ws_hier_l2_init          (WsHier                *h,
                                   const WsDeviceProfile *profile);
void     ws_hier_l2_clear         (WsHier                *h);
/* Asks for the cache lines that looking the line up will read. */
void     ws_hier_l2_prefetch      (const WsHier          *h,
                                   guint64                tag);
/* Asks for the record of the line's entry, the one it holds or the one a
 * miss would take: call it once ws_hier_l2_prefetch's lines have come. */
void     ws_hier_l2_prefetch_entry (const WsHier         *h,
                                    guint64               tag);
void     ws_hier_l2_prefetch_at   (const WsHier          *h,
                                   WsL2Where              where);
void     ws_hier_l2_prefetch_entry_at (const WsHier      *h,
                                       WsL2Where          where);
void     ws_hier_l2_read_at       (WsHier                *h,
                                   guint                  access,
                                   guint64                tag,
                                   guint                  sectors,
                                   WsL2Where              where);
void     ws_hier_l2_atomic_at     (WsHier                *h,
                                   guint                  access,
                                   guint64                tag,
                                   guint                  k,
                                   WsL2Where              where);
/* Sectors of a line read (bits of sectors), in order. */
void     ws_hier_l2_read          (WsHier                *h,
                                   guint                  access,
                                   guint64                tag,
                                   guint                  sectors);
void     ws_hier_l2_atomic        (WsHier                *h,
                                   guint                  access,
                                   guint64                tag,
                                   guint                  k);
/* A line's sectors written, with the bytes of each (counted by the caller). */
void     ws_hier_l2_write         (WsHier                *h,
                                   guint                  access,
                                   guint64                tag,
                                   guint8                 sectors,
                                   const guint32         *mask);

/* ws-hier-l1.c */
void     ws_hier_l1_init          (WsHier                *h,
                                   const WsDeviceProfile *profile,
                                   guint64                l1_bytes);
void     ws_hier_l1_clear         (WsHier                *h);
/* Asks for the cache lines that a load of these sectors on this SM will
 * look up in L1, and in L2 if the access has missed L1 mostly. */
void     ws_hier_l1_prefetch      (const WsHier          *h,
                                   guint                  access,
                                   guint                  sm,
                                   const WsSectors       *s);
/* Then, once those keys have come, the records of the L2 entries they
 * point at. */
void     ws_hier_l1_prefetch_entries (const WsHier       *h,
                                      guint               access,
                                      const WsSectors    *s);
void     ws_hier_load             (WsHier                *h,
                                   guint                  access,
                                   const WsSectors       *s);
void     ws_hier_store            (WsHier                *h,
                                   guint                  access,
                                   const WsSectors       *s,
                                   gboolean               allocate_l1);
void     ws_hier_atomic           (WsHier                *h,
                                   guint                  access,
                                   const WsSectors       *s);
/* Merges stores into the block's pending line (L2's side): sectors is
 * none or one, mask its bytes. */
void     ws_hier_pending_add      (WsHier                *h,
                                   guint                  access,
                                   guint64                tag,
                                   guint                  sectors,
                                   guint32                mask);
/* One request to L2, run on L2's side. */
void     ws_hier_l2_do            (WsHier                *h,
                                   WsL2OpKind             kind,
                                   guint                  access,
                                   guint64                tag,
                                   guint                  sectors,
                                   guint32                mask);

/* ws-hier-pipe.c: L2 on a thread of its own, fed with a WsHier's requests
 * in their order. The L2 it keeps is its own WsHier's, with its own stats
 * per access; ws_hier_pipe_finish waits for the last and adds them up.
 * Wanted where a core is free for it. */
gboolean    ws_hier_pipe_wanted   (void);
WsHierPipe *ws_hier_pipe_new      (const WsDeviceProfile *profile,
                                   guint                  n_accesses);
/* The chunk being filled is full: it goes, the next comes. */
void     ws_hier_pipe_next_chunk  (WsHierPipe            *pipe);
void     ws_hier_pipe_finish      (WsHierPipe            *pipe,
                                   WsHierStats           *stats);

/* The start of a WsHierPipe: where the walk's side writes. */
typedef struct
{
  WsL2Op *next;                   /* the chunk's next free request */
  WsL2Op *end;
} WsHierPipeHead;

#define WS_HIER_PUSH_AHEAD 32     /* requests: the chunk's lines were L2's thread's last, asked for ahead */

/* A request to L2: run here, or sent to the pipe's thread (written field by
 * field, where a request built and copied whole would wait for its parts). */
static inline void
ws_hier_send (WsHier     *h,
              WsL2OpKind  kind,
              guint       access,
              guint64     tag,
              guint       sectors,
              guint32     mask)
{
  WsHierPipeHead *head = (WsHierPipeHead *) h->pipe;
  WsL2Op *op;

  if (head == NULL)
    {
      ws_hier_l2_do (h, kind, access, tag, sectors, mask);
      return;
    }
  op = head->next++;
  /* (a prefetch past the chunk's end is harmless) */
  __builtin_prefetch (op + WS_HIER_PUSH_AHEAD, 1);
  op->tag = tag;
  op->mask = mask;
  op->kind = (guint8) kind;
  op->access = (guint8) access;
  op->sectors = (guint8) sectors;
  if (head->next == head->end)
    ws_hier_pipe_next_chunk (h->pipe);
}

static inline void
ws_hier_send_read (WsHier  *h,
                   guint    access,
                   guint64  tag,
                   guint    sectors)
{
  if (h->pipe)
    ws_hier_send (h, WS_L2_OP_READ, access, tag, sectors, 0);
  else
    ws_hier_l2_read (h, access, tag, sectors);
}

/* The block's merged stores go to L2 (now, or in their turn). */
static inline void
ws_hier_send_apply (WsHier *h)
{
  ws_hier_send (h, WS_L2_OP_APPLY, 0, 0, 0, 0);
}

/* What the SM's store buffer holds goes to L2. */
void     ws_hier_flush_stores     (WsHier                *h,
                                   guint                  sm);
/* The block's merged stores go to L2 (L2's side). */
void     ws_hier_apply_pending    (WsHier                *h);


G_END_DECLS
