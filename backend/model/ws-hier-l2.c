/* SPDX-License-Identifier: GPL-3.0-or-later */
/* L2, and what it asks of DRAM.
 *
 * One set-associative cache of the profile's effective capacity (what a
 * working set can reuse: the H200's 60 MiB hold about 42 MiB of a launch's
 * data), least recently used lines leaving first, sets picked by a hash of
 * the line.
 *
 * - A read miss fetches the aligned 64 bytes around the sector (DRAM reads
 *   64 bytes per sector for strides of 64 bytes and more, 32 for sequential
 *   data, whose pair is used).
 * - Stores are kept with a byte mask per sector; a sector written whole is
 *   valid and dirty without any read. A sector written in part is completed
 *   from DRAM (32 bytes read) when it is read, or once the lines with partial
 *   sectors exceed l2_partial_bytes — the oldest first.
 * - Dirty lines are written back when evicted, or when they exceed
 *   l2_dirty_bytes (the oldest first; they stay, clean); a line with partial
 *   sectors counts three times. What is dirty when the launch ends stays in
 *   L2 and is not counted, as the hardware counters do not count it. */
#include "ws-hierarchy-private.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* A line with a sector written in part weighs this much against the dirty
 * limit (the H200 keeps 30 MB of whole dirty lines, 16 MB when 7 MB of them
 * are partial). */
#define PARTIAL_WEIGHT 3
#define DRAM_ROW_SHIFT 12
/* how far ahead in a queue of lines their records are asked for */
#define QUEUE_AHEAD 8

/* ------------------------------------------------------------------ */
/* Tables                                                             */
/* ------------------------------------------------------------------ */

#define HUGE_PAGE ((gsize) 2 << 20)

gpointer
ws_hier_table_alloc (gsize n,
                     gsize size)
{
  gsize bytes;
  gsize align = 64;
  gpointer p = NULL;

  if (!g_size_checked_mul (&bytes, MAX (n, 1), size))
    g_error ("%s: a table of %" G_GSIZE_FORMAT " × %" G_GSIZE_FORMAT " bytes overflows", G_STRLOC, n, size);
  if (bytes >= HUGE_PAGE)
    {
      align = HUGE_PAGE;
      bytes = (bytes + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
    }
  if (posix_memalign (&p, align, bytes) != 0)
    g_error ("%s: failed to allocate %" G_GSIZE_FORMAT " bytes", G_STRLOC, bytes);
#ifdef MADV_HUGEPAGE
  /* a hint: where it is refused, the table is on small pages */
  if (align == HUGE_PAGE)
    madvise (p, bytes, MADV_HUGEPAGE);
#endif
  memset (p, 0, bytes);
  return p;
}

void
ws_hier_table_free (gpointer table)
{
  free (table);
}

/* ------------------------------------------------------------------ */
/* Queues of lines                                                    */
/* ------------------------------------------------------------------ */

static void
queue_init (WsLineQueue *q)
{
  q->size = 1024;
  q->line = g_new (guint32, q->size);
  q->gen = g_new (guint32, q->size);
  q->head = q->len = 0;
}

static void
queue_clear (WsLineQueue *q)
{
  g_free (q->line);
  g_free (q->gen);
}

static void
queue_push (WsLineQueue *q,
            guint32      line,
            guint32      gen)
{
  gsize tail;

  if (q->len == q->size)
    {
      gsize size = q->size * 2;
      guint32 *l = g_new (guint32, size);
      guint32 *g = g_new (guint32, size);

      for (gsize i = 0; i < q->len; i++)
        {
          l[i] = q->line[(q->head + i) % q->size];
          g[i] = q->gen[(q->head + i) % q->size];
        }
      queue_clear (q);
      q->line = l;
      q->gen = g;
      q->size = size;
      q->head = 0;
    }
  tail = (q->head + q->len) % q->size;
  q->line[tail] = line;
  q->gen[tail] = gen;
  q->len++;
}

static gboolean
queue_pop (WsLineQueue *q,
           guint32     *line,
           guint32     *gen)
{
  if (q->len == 0)
    return FALSE;
  *line = q->line[q->head];
  *gen = q->gen[q->head];
  q->head = (q->head + 1) % q->size;
  q->len--;
  return TRUE;
}

void
ws_hier_l2_init (WsHier                *h,
                 const WsDeviceProfile *p)
{
  guint64 lines = MAX (p->l2_reuse_bytes / WS_LINE_BYTES, 1);
  gsize n;

  h->l2_ways = (guint) MIN (MIN (p->l2_ways, 64), lines);
  h->l2_sets = (guint) MAX (lines / h->l2_ways, 1);
  n = (gsize) h->l2_sets * h->l2_ways;
  h->l2_key = ws_hier_table_new (guint16, n);
  h->l2_info = ws_hier_table_new (WsL2Info, n);
  h->l2_ref = g_new0 (guint64, h->l2_sets);
  h->l2_dirty_ways = g_new0 (guint64, h->l2_sets);
  h->l2_hand = g_new0 (guint8, h->l2_sets);
  if (h->l2_sets < (1u << 26))
    h->l2_memo = g_new0 (WsL2Memo, WS_HIER_L2_MEMO);
  queue_init (&h->dirty_queue);
  queue_init (&h->partial_queue);
  h->dirty_limit = p->l2_dirty_bytes / WS_LINE_BYTES;
  h->partial_limit = p->l2_partial_bytes / WS_LINE_BYTES;
}

void
ws_hier_l2_clear (WsHier *h)
{
  ws_hier_table_free (h->l2_key);
  ws_hier_table_free (h->l2_info);
  g_free (h->l2_ref);
  g_free (h->l2_dirty_ways);
  g_free (h->l2_hand);
  g_free (h->l2_memo);
  queue_clear (&h->dirty_queue);
  queue_clear (&h->partial_queue);
}

/* ------------------------------------------------------------------ */
/* DRAM                                                               */
/* ------------------------------------------------------------------ */

static void
dram (WsHier  *h,
      guint    access,
      guint64  tag,
      guint    bytes,
      gboolean write)
{
  WsHierStats *st = &h->stats[access];
  guint64 row = ((tag - 1) >> (DRAM_ROW_SHIFT - 7)) + 1;
  guint slot = (guint) (ws_hier_hash (row) % WS_HIER_DRAM_ROWS);

  if (bytes == 0)
    return;
  if (write)
    st->dram_write_bytes += bytes;
  else
    st->dram_read_bytes += bytes;
  st->dram_transfers++;
  if (h->dram_row[slot] != row)
    {
      st->dram_row_misses++;
      h->dram_row[slot] = row;
    }
}

/* ------------------------------------------------------------------ */
/* Lines                                                              */
/* ------------------------------------------------------------------ */

static inline guint
weight_of (const WsHier *h,
           guint         idx)
{
  return h->l2_info[idx].partial ? PARTIAL_WEIGHT : h->l2_info[idx].dirty ? 1 : 0;
}

/* Changes a line's dirty and partial sectors, keeping the weights, the
 * queues and the set's dirty ways up to date. */
static void
set_state (WsHier *h,
           guint   idx,
           guint8  dirty,
           guint8  partial)
{
  WsL2Info *info = &h->l2_info[idx];
  guint before = weight_of (h, idx);
  gboolean was_partial = info->partial != 0;
  guint set = idx / h->l2_ways;
  guint64 bit = G_GUINT64_CONSTANT (1) << (idx % h->l2_ways);
  guint after;

  info->dirty = dirty;
  info->partial = partial;
  after = weight_of (h, idx);
  h->dirty_weight += after;
  h->dirty_weight -= before;
  if (after)
    h->l2_dirty_ways[set] |= bit;
  else
    h->l2_dirty_ways[set] &= ~bit;
  if (before == 0 && after > 0)
    queue_push (&h->dirty_queue, idx, info->gen);
  if (!was_partial && partial)
    {
      h->partial_lines++;
      queue_push (&h->partial_queue, idx, info->gen);
    }
  else if (was_partial && !partial)
    h->partial_lines--;
}

/* Sectors written in part are read from DRAM and merged: whole and dirty. */
static void
complete (WsHier *h,
          guint   idx,
          guint8  sectors)
{
  WsL2Info *info = &h->l2_info[idx];
  guint8 p = info->partial & sectors;

  if (p == 0)
    return;
  for (guint k = 0; k < WS_HIER_SECTORS_PER_LINE; k++)
    if (p & (1u << k))
      info->mask[k] = 0;
  dram (h, info->writer, info->tag, 32 * ws_hier_n_sectors (p), FALSE);
  info->valid |= p;
  set_state (h, idx, info->dirty | p, info->partial & ~p);
}

/* Dirty sectors go to DRAM, in 64 bytes where a whole aligned pair is dirty;
 * the line stays, clean. */
static void
write_back (WsHier *h,
            guint   idx)
{
  WsL2Info *info = &h->l2_info[idx];
  WsHierStats *st = &h->stats[info->writer];

  complete (h, idx, info->partial);
  for (guint k = 0; k < WS_HIER_SECTORS_PER_LINE; k += 2)
    {
      guint pair = (info->dirty >> k) & 3;

      if (pair == 3)
        dram (h, info->writer, info->tag, 64, TRUE);
      else if (pair != 0)
        {
          dram (h, info->writer, info->tag, 32, TRUE);
          st->dram_small_writes++;
        }
    }
  set_state (h, idx, 0, 0);
  info->gen++;
}

/* Over the limits: the oldest partial lines are completed, the oldest dirty
 * ones written back. */
static void
keep_limits (WsHier *h)
{
  guint32 idx, gen;

  while (h->partial_lines > h->partial_limit && queue_pop (&h->partial_queue, &idx, &gen))
    if (gen == h->l2_info[idx].gen && h->l2_info[idx].partial)
      complete (h, idx, h->l2_info[idx].partial);
  while (h->dirty_weight > h->dirty_limit && queue_pop (&h->dirty_queue, &idx, &gen))
    {
      /* the lines to write back come in the queue's order: ask ahead */
      if (h->dirty_queue.len > QUEUE_AHEAD)
        {
          guint32 next = h->dirty_queue.line[(h->dirty_queue.head + QUEUE_AHEAD) % h->dirty_queue.size];

          __builtin_prefetch (h->l2_info + next, 1);
        }
      if (gen == h->l2_info[idx].gen && weight_of (h, idx) > 0)
        write_back (h, idx);
    }
}

#define key_of ws_hier_l2_key

/* The way of the set that holds the line, or -1: of the ways whose key is
 * the line's, the one whose record has its tag (two keys alike in a set of
 * 64 ways is a chance of one in a thousand; the tag settles it). */
static inline int
find_way (const WsHier *h,
          guint         base,
          guint64       tag,
          guint16       key)
{
  guint64 match = ws_hier_match16 (h->l2_key + base, h->l2_ways, key);

  for (; match; match &= match - 1)
    {
      guint w = (guint) __builtin_ctzll (match);

      if (h->l2_info[base + w].tag == tag)
        return (int) w;
    }
  return -1;
}

/* The line's entry; taken if absent, from the set's CLOCK victim, which
 * is written back first. */
static guint
line_at (WsHier     *h,
         guint64     tag,
         WsL2Where   where)
{
  WsL2Memo *memo = h->l2_memo ? &h->l2_memo[tag % WS_HIER_L2_MEMO] : NULL;
  guint set;
  guint base;
  int w;
  guint victim;
  WsL2Info *info;

  /* where it was last, if it is still there: what the search below finds */
  if (memo && memo->tag == tag)
    {
      guint mw = memo->set_way & 63;

      set = memo->set_way >> 6;
      base = set * h->l2_ways;
      if (h->l2_info[base + mw].tag == tag)
        {
          h->l2_ref[set] |= G_GUINT64_CONSTANT (1) << mw;
          return base + mw;
        }
    }
  set = where.set;
  base = set * h->l2_ways;
  w = find_way (h, base, tag, where.key);
  if (w >= 0)
    {
      h->l2_ref[set] |= G_GUINT64_CONSTANT (1) << w;
      if (memo)
        *memo = (WsL2Memo) { tag, set << 6 | (guint) w };
      return base + (guint) w;
    }
  victim = ws_hier_clock_victim (&h->l2_ref[set], &h->l2_hand[set], h->l2_ways);
  h->l2_ref[set] |= G_GUINT64_CONSTANT (1) << victim;
  if (memo)
    *memo = (WsL2Memo) { tag, set << 6 | victim };
  if (h->l2_dirty_ways[set] & (G_GUINT64_CONSTANT (1) << victim))
    write_back (h, base + victim);
  victim += base;
  info = &h->l2_info[victim];
  if (info->tag != 0)
    info->gen++;
  info->tag = tag;
  info->valid = 0;
  h->l2_key[victim] = where.key;
  return victim;
}

static inline guint
line_of (WsHier  *h,
         guint64  tag)
{
  return line_at (h, tag, ws_hier_l2_where (h, tag));
}

void
ws_hier_l2_prefetch_at (const WsHier *h,
                        WsL2Where     where)
{
  guint base = where.set * h->l2_ways;

  for (guint w = 0; w < h->l2_ways; w += 64 / sizeof *h->l2_key)
    __builtin_prefetch (h->l2_key + base + w);
  __builtin_prefetch (h->l2_ref + where.set);
}

void
ws_hier_l2_prefetch (const WsHier *h,
                     guint64       tag)
{
  ws_hier_l2_prefetch_at (h, ws_hier_l2_where (h, tag));
}

void
ws_hier_l2_prefetch_entry_at (const WsHier *h,
                              WsL2Where     where)
{
  guint set = where.set;
  guint base = set * h->l2_ways;
  guint64 match = ws_hier_match16 (h->l2_key + base, h->l2_ways, where.key);
  guint w = match ? (guint) __builtin_ctzll (match) : ws_hier_clock_peek (h->l2_ref[set], h->l2_hand[set], h->l2_ways);

  __builtin_prefetch (h->l2_info + base + w, 1);
}

void
ws_hier_l2_prefetch_entry (const WsHier *h,
                           guint64       tag)
{
  ws_hier_l2_prefetch_entry_at (h, ws_hier_l2_where (h, tag));
}

/* The block's stores to this line reach L2 before it is read. */
static void
apply_pending_line (WsHier  *h,
                    guint64  tag)
{
  guint i = ws_hier_pending_find (h, tag);
  WsPendingLine p;

  if (h->pending[i].tag != tag)
    return;
  p = ws_hier_pending_take (h, i);
  ws_hier_l2_write (h, p.writer, tag, p.sectors, p.mask);
}

/* The sector's data is needed, from the line's entry: TRUE if L2 has it.
 * A miss reads the aligned 64 bytes around it (a sibling written in part
 * is completed on the way). */
static gboolean
fetch_sector (WsHier *h,
              guint   access,
              guint64 tag,
              guint   idx,
              guint   k)
{
  guint8 bit = 1u << k;
  guint8 need;

  if (h->l2_info[idx].valid & bit)
    return TRUE;
  if (h->l2_info[idx].partial & bit)
    {
      h->l2_info[idx].writer = access;
      complete (h, idx, bit);
      return FALSE;
    }
  need = (3u << (k & ~1u)) & ~h->l2_info[idx].valid;
  if (h->l2_info[idx].partial & need)
    {
      guint8 p = h->l2_info[idx].partial & need;

      for (guint j = 0; j < WS_HIER_SECTORS_PER_LINE; j++)
        if (p & (1u << j))
          h->l2_info[idx].mask[j] = 0;
      set_state (h, idx, h->l2_info[idx].dirty | p, h->l2_info[idx].partial & ~p);
    }
  dram (h, access, tag, 32 * ws_hier_n_sectors (need), FALSE);
  h->l2_info[idx].valid |= need;
  return FALSE;
}

/* The line's entry, the block's stores to it applied first. */
static guint
fetch_line (WsHier    *h,
            guint64    tag,
            WsL2Where  where)
{
  if (h->n_pending > 0)
    apply_pending_line (h, tag);
  return line_at (h, tag, where);
}

/* Reading a line's sectors one after another finds the line where the
 * first one left it: nothing in between takes a line. */
void
ws_hier_l2_read_at (WsHier    *h,
                    guint      access,
                    guint64    tag,
                    guint      sectors,
                    WsL2Where  where)
{
  WsHierStats *st = &h->stats[access];
  guint idx = fetch_line (h, tag, where);

  for (guint k = 0; k < WS_HIER_SECTORS_PER_LINE; k++)
    if (sectors & (1u << k))
      {
        st->l2_read_sectors++;
        if (fetch_sector (h, access, tag, idx, k))
          st->l2_read_hits++;
      }
}

void
ws_hier_l2_read (WsHier  *h,
                 guint    access,
                 guint64  tag,
                 guint    sectors)
{
  ws_hier_l2_read_at (h, access, tag, sectors, ws_hier_l2_where (h, tag));
}

void
ws_hier_l2_atomic_at (WsHier    *h,
                      guint      access,
                      guint64    tag,
                      guint      k,
                      WsL2Where  where)
{
  guint idx = fetch_line (h, tag, where);

  fetch_sector (h, access, tag, idx, k);
  h->l2_info[idx].writer = access;
  set_state (h, idx, h->l2_info[idx].dirty | (1u << k), h->l2_info[idx].partial);
  keep_limits (h);
}

void
ws_hier_l2_atomic (WsHier  *h,
                   guint    access,
                   guint64  tag,
                   guint    k)
{
  ws_hier_l2_atomic_at (h, access, tag, k, ws_hier_l2_where (h, tag));
}

void
ws_hier_l2_write (WsHier        *h,
                  guint          access,
                  guint64        tag,
                  guint8         sectors,
                  const guint32 *mask)
{
  guint idx = line_of (h, tag);
  guint8 dirty = h->l2_info[idx].dirty;
  guint8 partial = h->l2_info[idx].partial;

  h->l2_info[idx].writer = access;
  for (guint k = 0; k < WS_HIER_SECTORS_PER_LINE; k++)
    {
      guint8 bit = 1u << k;

      if (!(sectors & bit))
        continue;
      if (h->l2_info[idx].valid & bit)
        dirty |= bit;
      else if ((h->l2_info[idx].mask[k] | mask[k]) == WS_HIER_FULL_MASK || mask[k] == WS_HIER_FULL_MASK)
        {
          /* whole now: valid and dirty, no read */
          h->l2_info[idx].mask[k] = 0;
          h->l2_info[idx].valid |= bit;
          dirty |= bit;
          partial &= ~bit;
        }
      else
        {
          h->l2_info[idx].mask[k] |= mask[k];
          partial |= bit;
        }
    }
  set_state (h, idx, dirty, partial);
  keep_limits (h);
}
