/* SPDX-License-Identifier: GPL-3.0-or-later */
/* L2 on a thread of its own.
 *
 * Of a launch's walk through the caches, about half the time goes to L2
 * (and the block's pending stores, and DRAM), the other half to the walk,
 * L1 and the store buffers. L2 only hears of the SMs through their misses,
 * their stores and their blocks' ends, in order: those requests go through
 * here, in chunks, to a thread that runs them in the same order on an L2
 * of its own. What either side counts only adds up, so the figures are the
 * same, to the last sector, as on one thread. */
#include "ws-hierarchy-private.h"

#include <string.h>

#define CHUNK_OPS 4096
#define N_CHUNKS 8
/* how far ahead of a request its lookups are asked for: the set's keys,
 * then (those come) the record of its line */
#define AHEAD_KEYS 16
#define AHEAD_ENTRY 8
#define RING 32                   /* > AHEAD_KEYS, a power of two */

typedef struct
{
  guint n;                        /* 0: the last */
  WsL2Op op[CHUNK_OPS];
} Chunk;

struct _WsHierPipe
{
  WsHierPipeHead head;            /* first: see ws_hier_send */
  WsHier l2;                      /* its L2, pending lines, DRAM rows and stats */
  GAsyncQueue *full;              /* chunks to run, in order */
  GAsyncQueue *free;
  Chunk *filling;                 /* the walk's side, written through head */
  GThread *thread;
};

/* A lookup's requests: reads and atomics (pending stores are looked up
 * when their block's lines apply). */
static inline gboolean
looks_up (const WsL2Op *op)
{
  return op->kind == WS_L2_OP_READ || op->kind == WS_L2_OP_ATOMIC;
}

static void
run_chunk (WsHier      *h,
           const Chunk *c)
{
  WsL2Where where[RING];

  for (guint j = 0; j < MIN (AHEAD_KEYS, c->n); j++)
    if (looks_up (&c->op[j]))
      {
        where[j % RING] = ws_hier_l2_where (h, c->op[j].tag);
        ws_hier_l2_prefetch_at (h, where[j % RING]);
      }
  for (guint i = 0; i < c->n; i++)
    {
      const WsL2Op *op = &c->op[i];
      guint ahead = i + AHEAD_KEYS;
      guint near = i + AHEAD_ENTRY;

      if (ahead < c->n && looks_up (&c->op[ahead]))
        {
          where[ahead % RING] = ws_hier_l2_where (h, c->op[ahead].tag);
          ws_hier_l2_prefetch_at (h, where[ahead % RING]);
        }
      if (near < c->n && looks_up (&c->op[near]))
        ws_hier_l2_prefetch_entry_at (h, where[near % RING]);
      switch ((WsL2OpKind) op->kind)
        {
        case WS_L2_OP_READ:
          ws_hier_l2_read_at (h, op->access, op->tag, op->sectors, where[i % RING]);
          break;
        case WS_L2_OP_ATOMIC:
          ws_hier_l2_atomic_at (h, op->access, op->tag, op->sectors, where[i % RING]);
          break;
        case WS_L2_OP_PENDING:
        case WS_L2_OP_APPLY:
        default:
          ws_hier_l2_do (h, op->kind, op->access, op->tag, op->sectors, op->mask);
          break;
        }
    }
}

static gpointer
pipe_thread (gpointer data)
{
  WsHierPipe *pipe = data;

  for (;;)
    {
      Chunk *c = g_async_queue_pop (pipe->full);
      gboolean last = c->n == 0;

      run_chunk (&pipe->l2, c);
      g_async_queue_push (pipe->free, c);
      if (last)
        break;
    }
  return NULL;
}

static void
start_chunk (WsHierPipe *pipe)
{
  pipe->filling = g_async_queue_pop (pipe->free);
  pipe->head.next = pipe->filling->op;
  pipe->head.end = pipe->filling->op + CHUNK_OPS;
}

/* Two threads take about a third more CPU time together than one alone,
 * and give the answer sooner wherever a second core is there: on two
 * cores, every preset's whole launch at its defaults took 39.7 s against
 * 51.6 s (tests/bench-hierarchy, WS_SPEED=presets; coalescing/stride 1.01
 * against 2.17 s, the transposes alone about the same). The figures are
 * the same either way. */
gboolean
ws_hier_pipe_wanted (void)
{
  /* WS_HIER_PIPE=1 or 0 decides (the tests run both ways) */
  const char *force = g_getenv ("WS_HIER_PIPE");

  if (force != NULL && *force != '\0')
    return g_str_equal (force, "1");
  return g_get_num_processors () >= 2;
}

WsHierPipe *
ws_hier_pipe_new (const WsDeviceProfile *profile,
                  guint                  n_accesses)
{
  WsHierPipe *pipe = g_new0 (WsHierPipe, 1);

  pipe->l2.n_accesses = n_accesses;
  pipe->l2.stats = g_new0 (WsHierStats, MAX (n_accesses, 1));
  ws_hier_l2_init (&pipe->l2, profile);
  pipe->full = g_async_queue_new ();
  pipe->free = g_async_queue_new ();
  for (guint i = 0; i < N_CHUNKS; i++)
    g_async_queue_push (pipe->free, g_new (Chunk, 1));
  start_chunk (pipe);
  pipe->thread = g_thread_new ("ws-hier-l2", pipe_thread, pipe);
  return pipe;
}

void
ws_hier_pipe_next_chunk (WsHierPipe *pipe)
{
  pipe->filling->n = CHUNK_OPS;
  g_async_queue_push (pipe->full, pipe->filling);
  start_chunk (pipe);
}

/* Sends what is left, waits for L2's thread to run it, adds L2's figures
 * to stats and frees the pipe. */
void
ws_hier_pipe_finish (WsHierPipe  *pipe,
                     WsHierStats *stats)
{
  Chunk *c;

  if (pipe->head.next > pipe->filling->op)
    {
      pipe->filling->n = (guint) (pipe->head.next - pipe->filling->op);
      g_async_queue_push (pipe->full, pipe->filling);
      start_chunk (pipe);
    }
  pipe->filling->n = 0;
  g_async_queue_push (pipe->full, g_steal_pointer (&pipe->filling));
  g_thread_join (pipe->thread);
  for (guint i = 0; stats && i < pipe->l2.n_accesses; i++)
    ws_hier_stats_add (&stats[i], &pipe->l2.stats[i]);
  while ((c = g_async_queue_try_pop (pipe->free)))
    g_free (c);
  g_async_queue_unref (pipe->full);
  g_async_queue_unref (pipe->free);
  ws_hier_l2_clear (&pipe->l2);
  g_free (pipe->l2.stats);
  g_free (pipe);
}
