/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The SMs' L1 and store buffers.
 *
 * L1 holds sectors: a warp whose 32 lanes each touch one word of 32
 * different lines takes 32 sectors of room, not 32 lines (64 warps of
 * lane-distinct local words all stay in L1 on the H200). Its tags are taken
 * when the request is made, so a second request for a sector still in flight
 * waits for it instead of going to L2. Loads allocate; global stores go
 * through without allocating, local stores allocate too (a local load after
 * a local store hits).
 *
 * Stores reach L2 through a buffer of a few lines per SM: a store to a line
 * the buffer holds merges with it, so that a warp's three 4-byte stores of a
 * 12-byte structure reach L2 as whole sectors, but a column written by 32
 * warps, one word each, reaches it 32 times. */
#include "ws-hierarchy-private.h"

#include <string.h>

#define LAST_SECTORS G_N_ELEMENTS (((WsSectors *) NULL)->sector)

void
ws_hier_l1_init (WsHier                *h,
                 const WsDeviceProfile *profile,
                 guint64                l1_bytes)
{
  guint64 sectors = l1_bytes / WS_SECTOR_BYTES;
  gsize n_acc = (gsize) profile->sms * MAX (h->n_accesses, 1);

  /* a power of two of sets, each of about l1_ways ways */
  h->l1_sets = 1;
  while ((guint64) h->l1_sets * 2 * profile->l1_ways <= sectors)
    h->l1_sets *= 2;
  h->l1_ways = (guint) MIN (sectors / h->l1_sets, 64);
  if (h->l1_ways == 0)
    h->l1_sets = 0;
  h->l1_set_bits = (guint) __builtin_ctz (MAX (h->l1_sets, 1));
  h->l1_inserts = g_new0 (guint32, profile->sms);
  if (h->l1_sets > 0)
    {
      gsize sets = (gsize) profile->sms * h->l1_sets;

      h->l1_key = ws_hier_table_new (guint32, sets * h->l1_ways);
      h->l1_ref = ws_hier_table_new (guint64, sets);
      h->l1_hand = g_new0 (guint8, sets);
    }
  h->last_first = g_new0 (guint64, n_acc);
  h->last_sectors = g_new (guint64, n_acc * LAST_SECTORS);
  h->last_n = g_new0 (guint32, n_acc);
  h->last_inserts = g_new0 (guint32, n_acc);
  h->sb_lines = profile->store_buffer_lines;
  h->sb = g_new0 (WsStoreEntry, (gsize) profile->sms * h->sb_lines);
}

void
ws_hier_l1_clear (WsHier *h)
{
  ws_hier_table_free (h->l1_key);
  ws_hier_table_free (h->l1_ref);
  g_free (h->l1_hand);
  g_free (h->l1_inserts);
  g_free (h->last_first);
  g_free (h->last_sectors);
  g_free (h->last_n);
  g_free (h->last_inserts);
  g_free (h->sb);
}

/* A line's set: its address folded onto the set bits by XOR, so that
 * consecutive lines fill the sets evenly and power-of-two strides spread. */
static inline guint
l1_set_of (const WsHier *h,
           guint64       line)
{
  guint64 x = line;
  guint64 folded = 0;

  for (; x; x >>= h->l1_set_bits)
    folded ^= x;
  return (guint) (folded & (h->l1_sets - 1));
}

/* Of a line's sectors (bits of wanted), those the SM's L1 has; the others
 * are taken. The set is picked by the line, so that a line's sectors are
 * looked up together; a sector is known by 32 bits of a hash (two sectors
 * of one set sharing them is a chance of one in 2^28). */
static guint
l1_line (WsHier  *h,
         guint    sm,
         guint64  line,
         guint    wanted)
{
  gsize set = (gsize) sm * h->l1_sets + l1_set_of (h, line);
  guint32 *keys = h->l1_key + set * h->l1_ways;
  guint64 *ref = &h->l1_ref[set];
  guint hits = 0;

  for (guint k = 0; k < WS_HIER_SECTORS_PER_LINE; k++)
    {
      guint32 key;
      guint64 match;
      guint v;

      if (!(wanted & (1u << k)))
        continue;
      key = (guint32) ws_hier_hash ((line << 2) | k) | 1;
      match = ws_hier_match32 (keys, h->l1_ways, key);
      if (match)
        {
          *ref |= match;
          hits |= 1u << k;
          continue;
        }
      v = ws_hier_clock_victim (ref, &h->l1_hand[set], h->l1_ways);
      keys[v] = key;
      *ref |= G_GUINT64_CONSTANT (1) << v;
      h->l1_inserts[sm]++;
    }
  return hits;
}

void
ws_hier_l1_prefetch (const WsHier    *h,
                     guint            access,
                     guint            sm,
                     const WsSectors *s)
{
  const WsHierStats *st = &h->stats[access];
  /* L2 too where most of the access's sectors missed so far (and L2 is
   * here: the pipe's thread asks for its own) */
  gboolean l2 = (st->l1_hits * 2 < st->l1_sectors || h->l1_sets == 0) && h->pipe == NULL;
  guint64 line = G_MAXUINT64;

  for (guint i = 0; i < s->n; i++)
    {
      if (s->sector[i] >> 2 == line)
        continue;
      line = s->sector[i] >> 2;
      if (h->l1_sets > 0)
        {
          gsize set = (gsize) sm * h->l1_sets + l1_set_of (h, line);

          __builtin_prefetch (h->l1_key + set * h->l1_ways);
          __builtin_prefetch (h->l1_ref + set);
        }
      if (l2)
        ws_hier_l2_prefetch (h, line + 1);
    }
}

void
ws_hier_l1_prefetch_entries (const WsHier    *h,
                             guint            access,
                             const WsSectors *s)
{
  const WsHierStats *st = &h->stats[access];
  guint64 line = G_MAXUINT64;

  if ((st->l1_hits * 2 >= st->l1_sectors && h->l1_sets > 0) || h->pipe)
    return;
  for (guint i = 0; i < s->n; i++)
    if (s->sector[i] >> 2 != line)
      {
        line = s->sector[i] >> 2;
        ws_hier_l2_prefetch_entry (h, line + 1);
      }
}

static guint64
hash_sectors (const guint64 *sector,
              guint          n)
{
  guint64 x = n;

  for (guint i = 0; i < n; i++)
    x = ws_hier_hash (x ^ sector[i]);
  return x;
}

/* Whether a request asks for the sectors of the last one (as many, from
 * the same first one): the model's rule is the same hash of them all,
 * which the same sectors meet without hashing. */
static gboolean
same_request (const guint64   *last,
              const WsSectors *s)
{
  if (memcmp (last, s->sector, s->n * sizeof *last) == 0)
    return TRUE;
  return hash_sectors (last, s->n) == hash_sectors (s->sector, s->n);
}

void
ws_hier_load (WsHier          *h,
              guint            access,
              const WsSectors *s)
{
  WsHierStats *st = &h->stats[access];
  guint sm = h->place.sm;
  gsize last = (gsize) sm * h->n_accesses + access;
  guint64 *last_sectors = h->last_sectors + last * LAST_SECTORS;
  guint64 requested = 0;

  st->l1_sectors += s->n;
  if (s->n == 0)
    return;
  if (h->l1_sets == 0)
    {
      for (guint i = 0; i < s->n; i++)
        {
          guint64 tag = (s->sector[i] >> 2) + 1;

          st->l2_read_requests += tag != requested;
          requested = tag;
          ws_hier_send_read (h, access, tag, 1u << (s->sector[i] & 3));
        }
      return;
    }
  /* the sectors the last request of this access on this SM took, with
   * nothing taken since: all there */
  if (h->last_n[last] == s->n && h->last_first[last] == s->sector[0] && h->last_inserts[last] == h->l1_inserts[sm] &&
      same_request (last_sectors, s))
    {
      st->l1_hits += s->n;
      return;
    }
  for (guint i = 0; i < s->n;)
    {
      guint64 line = s->sector[i] >> 2;
      guint wanted = 0, hits;
      guint j;

      for (j = i; j < s->n && (s->sector[j] >> 2) == line; j++)
        wanted |= 1u << (s->sector[j] & 3);
      hits = l1_line (h, sm, line, wanted);
      st->l1_hits += ws_hier_n_sectors (hits);
      if (wanted & ~hits)
        {
          st->l2_read_requests++;
          ws_hier_send_read (h, access, line + 1, wanted & ~hits);
        }
      i = j;
    }
  h->last_n[last] = s->n;
  h->last_first[last] = s->sector[0];
  memcpy (last_sectors, s->sector, s->n * sizeof *last_sectors);
  h->last_inserts[last] = h->l1_inserts[sm];
}

void
ws_hier_atomic (WsHier          *h,
                guint            access,
                const WsSectors *s)
{
  for (guint i = 0; i < s->n; i++)
    ws_hier_send (h, WS_L2_OP_ATOMIC, access, (s->sector[i] >> 2) + 1, s->sector[i] & 3, 0);
}

/* ------------------------------------------------------------------ */
/* Stores                                                             */
/* ------------------------------------------------------------------ */

/* The block's pending entry for a line: the one holding it, else a new
 * one (where the table is as full as it may be, the block's lines so far go
 * to L2 first). */
static inline WsPendingLine *
pending_line (WsHier  *h,
              guint64  tag)
{
  guint i = ws_hier_pending_find (h, tag);
  WsPendingLine *p = &h->pending[i];

  if (p->tag == tag)
    return p;
  if (h->n_pending >= WS_HIER_PENDING_MAX)
    {
      ws_hier_apply_pending (h);
      p = &h->pending[ws_hier_pending_find (h, tag)];
    }
  p->tag = tag;
  p->sectors = 0;
  memset (p->mask, 0, sizeof p->mask);
  h->n_pending++;
  return p;
}

/* A buffered line reaches L2: one request, its sectors; merged with the
 * block's other stores to the line (the model's shortcut) until the block
 * ends. */
static void
flush_entry (WsHier       *h,
             WsStoreEntry *e)
{
  WsHierStats *st = &h->stats[e->writer];
  guint whole = 0;

  if (e->tag == 0)
    return;
  for (guint k = 0; k < WS_HIER_SECTORS_PER_LINE; k++)
    whole |= (guint) (e->mask[k] == WS_HIER_FULL_MASK) << k;
  st->l2_write_requests++;
  st->l2_write_sectors += ws_hier_n_sectors (e->sectors);
  st->l2_partial_sectors += ws_hier_n_sectors (e->sectors & ~whole);

  /* a sector at a time: the first takes the line's pending entry, the
   * others find it (a line with none takes its entry too) */
  if (e->sectors == 0)
    ws_hier_send (h, WS_L2_OP_PENDING, e->writer, e->tag, 0, 0);
  for (guint k = 0; k < WS_HIER_SECTORS_PER_LINE; k++)
    if (e->sectors & (1u << k))
      ws_hier_send (h, WS_L2_OP_PENDING, e->writer, e->tag, 1u << k, e->mask[k]);
  e->tag = 0;
}

void
ws_hier_pending_add (WsHier  *h,
                     guint    access,
                     guint64  tag,
                     guint    sectors,
                     guint32  mask)
{
  WsPendingLine *p = pending_line (h, tag);

  p->sectors |= sectors;
  p->writer = access;
  if (sectors)
    p->mask[__builtin_ctz (sectors)] |= mask;
}

void
ws_hier_l2_do (WsHier     *h,
               WsL2OpKind  kind,
               guint       access,
               guint64     tag,
               guint       sectors,
               guint32     mask)
{
  switch (kind)
    {
    case WS_L2_OP_READ:
      ws_hier_l2_read (h, access, tag, sectors);
      break;
    case WS_L2_OP_ATOMIC:
      ws_hier_l2_atomic (h, access, tag, sectors);
      break;
    case WS_L2_OP_PENDING:
      ws_hier_pending_add (h, access, tag, sectors, mask);
      break;
    case WS_L2_OP_APPLY:
    default:
      ws_hier_apply_pending (h);
      break;
    }
}

void
ws_hier_apply_pending (WsHier *h)
{
  /* the lines are looked up one after another: ask for them all first */
  for (guint i = 0, n = 0; n < h->n_pending && i < WS_HIER_PENDING; i++)
    if (h->pending[i].tag != 0)
      {
        ws_hier_l2_prefetch (h, h->pending[i].tag);
        n++;
      }
  /* then, their keys on the way, the records of their entries */
  for (guint i = 0, n = 0; n < h->n_pending && i < WS_HIER_PENDING; i++)
    if (h->pending[i].tag != 0)
      {
        ws_hier_l2_prefetch_entry (h, h->pending[i].tag);
        n++;
      }
  for (guint i = 0; h->n_pending > 0 && i < WS_HIER_PENDING; i++)
    {
      WsPendingLine *p = &h->pending[i];

      if (p->tag == 0)
        continue;
      ws_hier_l2_write (h, p->writer, p->tag, p->sectors, p->mask);
      p->tag = 0;
      h->n_pending--;
    }
}

void
ws_hier_flush_stores (WsHier *h,
                      guint   sm)
{
  for (guint j = 0; j < h->sb_lines; j++)
    flush_entry (h, &h->sb[(gsize) sm * h->sb_lines + j]);
}

/* The buffer's entry for the line: the one holding it, else the first
 * empty one, else the least recently used one, flushed. */
static WsStoreEntry *
buffer_entry (WsHier  *h,
              guint64  tag)
{
  WsStoreEntry *buf = h->sb + (gsize) h->place.sm * h->sb_lines;
  guint n = h->sb_lines;
  WsStoreEntry *oldest = NULL;
  WsStoreEntry *empty = NULL;
  WsStoreEntry *e;

  for (guint j = 0; j < n; j++)
    {
      e = &buf[j];
      if (e->tag == tag)
        {
          e->age = ++h->sb_clock;
          return e;
        }
      if (e->tag == 0)
        empty = empty ? empty : e;
      else if (oldest == NULL || e->age < oldest->age)
        oldest = e;
    }
  e = empty ? empty : oldest;
  flush_entry (h, e);
  e->tag = tag;
  e->sectors = 0;
  memset (e->mask, 0, sizeof e->mask);
  e->age = ++h->sb_clock;
  return e;
}

#define MAX_FAST_SB_LINES 16

/* The order in which the SM's buffer gives its entries up when every store
 * is to a line it does not hold: the empty ones first, then the others from
 * the least recently used; after that, over again in the same order, as
 * long as the lines that come are younger than all of them (FALSE where
 * an entry's age is beyond the clock, which has wrapped since). */
static gboolean
victim_order (const WsStoreEntry *buf,
              guint               n,
              guint32             clock,
              guint              *order)
{
  guint m = 0;
  guint n_empty;

  for (guint j = 0; j < n; j++)
    if (buf[j].tag == 0)
      order[m++] = j;
    else if (buf[j].age > clock)
      return FALSE;
  n_empty = m;
  for (guint j = 0; j < n; j++)
    {
      guint i = m;

      if (buf[j].tag == 0)
        continue;
      for (; i > n_empty && buf[order[i - 1]].age > buf[j].age; i--)
        order[i] = order[i - 1];
      order[i] = j;
      m++;
    }
  return TRUE;
}

/* A warp's stores to sectors of lines all different (a column written by a
 * warp, one word per lane): what ws_hier_store does entry by entry, taken a
 * line at a time. Each line takes the next entry of the victim order, and
 * leaves for L2 when sb_lines lines have come after it, so the entries only
 * hold the last sb_lines lines. FALSE, having done nothing, where a line is
 * in the buffer when its turn comes, or the shortcut does not hold (a
 * buffer beyond it, a clock that wraps). */
static gboolean
store_lines (WsHier          *h,
             guint            access,
             const WsSectors *s)
{
  WsStoreEntry *buf = h->sb + (gsize) h->place.sm * h->sb_lines;
  guint n_slots = h->sb_lines;
  guint order[MAX_FAST_SB_LINES];
  guint first_kept = s->n > n_slots ? s->n - n_slots : 0;
  WsHierStats *st = &h->stats[access];
  guint partial = 0;

  if (n_slots == 0 || n_slots > MAX_FAST_SB_LINES || s->n > G_MAXUINT32 - h->sb_clock)
    return FALSE;
  for (guint i = 1; i < s->n; i++)
    if ((s->sector[i] >> 2) <= (s->sector[i - 1] >> 2))
      return FALSE;
  if (!victim_order (buf, n_slots, h->sb_clock, order))
    return FALSE;
  /* a line of the first n_slots meets the old entries not yet given up */
  for (guint i = 0; i < MIN (s->n, n_slots); i++)
    for (guint j = i; j < n_slots; j++)
      if (buf[order[j]].tag == (s->sector[i] >> 2) + 1)
        return FALSE;

  for (guint i = 0; i < MIN (s->n, n_slots); i++)
    flush_entry (h, &buf[order[i]]);
  for (guint i = 0; i < first_kept; i++)
    {
      partial += s->mask[i] != WS_HIER_FULL_MASK;
      ws_hier_send (h, WS_L2_OP_PENDING, access, (s->sector[i] >> 2) + 1, 1u << (s->sector[i] & 3), s->mask[i]);
    }
  st->l2_write_requests += first_kept;
  st->l2_write_sectors += first_kept;
  st->l2_partial_sectors += partial;
  for (guint i = first_kept; i < s->n; i++)
    {
      WsStoreEntry *e = &buf[order[i % n_slots]];
      guint k = s->sector[i] & 3;

      e->tag = (s->sector[i] >> 2) + 1;
      e->sectors = 1u << k;
      memset (e->mask, 0, sizeof e->mask);
      e->mask[k] = s->mask[i];
      e->writer = access;
      e->age = h->sb_clock + i + 1;
    }
  h->sb_clock += s->n;
  return TRUE;
}

void
ws_hier_store (WsHier          *h,
               guint            access,
               const WsSectors *s,
               gboolean         allocate_l1)
{
  WsStoreEntry *e = NULL;

  if (!allocate_l1 && s->n > 1 && store_lines (h, access, s))
    return;
  /* L1 takes the sectors first, a line's run of them at a time (in their
   * order, as one by one: L1 and the store buffer share nothing) */
  for (guint i = 0, j; allocate_l1 && i < s->n; i = j)
    {
      guint64 line = s->sector[i] >> 2;
      guint wanted = 1u << (s->sector[i] & 3);

      for (j = i + 1; j < s->n && (s->sector[j] >> 2) == line && (s->sector[j] & 3) > (s->sector[j - 1] & 3); j++)
        wanted |= 1u << (s->sector[j] & 3);
      l1_line (h, h->place.sm, line, wanted);
    }
  for (guint i = 0; i < s->n; i++)
    {
      guint64 tag = (s->sector[i] >> 2) + 1;
      guint k = s->sector[i] & 3;

      if (e == NULL || e->tag != tag)
        e = buffer_entry (h, tag);
      e->writer = access;
      e->sectors |= 1u << k;
      e->mask[k] |= s->mask[i];
    }
}
