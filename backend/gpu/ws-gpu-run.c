/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the kernels' run functions share: their parameters, their errors, and
 * checking their output against the CPU reference. */
#include "ws-config.h"
#include "ws-gpu-private.h"

#include <glib/gi18n-lib.h>
#include <string.h>

gint64
ws_run_param (WsRun      *run,
              const char *name)
{
  for (guint i = 0; i < run->info->n_params; i++)
    if (strcmp (run->info->params[i].name, name) == 0)
      return run->p[i];
  g_error ("kernel %s has no parameter %s", run->info->id, name);
}

/* Buffer 0 holds in_words of input made from seed, buffer 1 out_words of
 * poison that the kernel must overwrite. */
gboolean
ws_run_alloc_in_out (WsRun   *run,
                     gsize    in_words,
                     gsize    out_words,
                     guint32  seed,
                     GError **error)
{
  run->d[0] = ws_gpu_buffer (0, in_words * 4, error);
  run->d[1] = run->d[0] ? ws_gpu_buffer (1, out_words * 4, error) : NULL;
  return run->d[1] != NULL &&
         ws_gpu_fill (run->d[0], in_words, seed, error) &&
         ws_gpu_set_bytes (run->d[1], WS_POISON_BYTE, out_words * 4, error);
}

gboolean
ws_run_set_error (WsRun      *run,
                  GError    **error,
                  const char *format,
                  ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (error, WS_GPU_ERROR, WS_GPU_ERROR_INVALID_PARAM, "%s: %s", run->info->id, message);
  return FALSE;
}

/* ------------------------------------------------------------------ */
/* Timelines                                                          */
/* ------------------------------------------------------------------ */

typedef struct
{
  cudaEvent_t begin;
  cudaEvent_t end;
  guint stream;
  WsSpanKind kind;
  gboolean ended;
} Mark;

struct _WsTimeline
{
  cudaEvent_t origin;
  GArray *marks;                 /* Mark */
  gboolean failed;
};

int
ws_run_span_begin (WsRun        *run,
                   cudaStream_t  s)
{
  Mark mark = { 0 };

  if (run->timeline == NULL || run->timeline->failed)
    return -1;
  if (cudaEventCreate (&mark.begin) != cudaSuccess || cudaEventCreate (&mark.end) != cudaSuccess ||
      cudaEventRecord (mark.begin, s) != cudaSuccess)
    {
      run->timeline->failed = TRUE;
      cudaGetLastError ();
    }
  g_array_append_val (run->timeline->marks, mark);
  return (int) run->timeline->marks->len - 1;
}

void
ws_run_span_end (WsRun        *run,
                 int           span,
                 guint         stream,
                 WsSpanKind    kind,
                 cudaStream_t  s)
{
  Mark *mark;

  if (run->timeline == NULL || span < 0 || run->timeline->failed)
    return;
  mark = &g_array_index (run->timeline->marks, Mark, span);
  mark->stream = stream;
  mark->kind = kind;
  mark->ended = cudaEventRecord (mark->end, s) == cudaSuccess;
  if (!mark->ended)
    {
      run->timeline->failed = TRUE;
      cudaGetLastError ();
    }
}

static void
timeline_free (struct _WsTimeline *t)
{
  for (guint i = 0; i < t->marks->len; i++)
    {
      Mark *mark = &g_array_index (t->marks, Mark, i);
      if (mark->begin)
        cudaEventDestroy (mark->begin);
      if (mark->end)
        cudaEventDestroy (mark->end);
    }
  if (t->origin)
    cudaEventDestroy (t->origin);
  g_array_unref (t->marks);
  g_free (t);
}

static gboolean
timeline_read (struct _WsTimeline *t,
               WsMeasurement      *m,
               GError            **error)
{
  for (guint i = 0; i < t->marks->len; i++)
    {
      Mark *mark = &g_array_index (t->marks, Mark, i);
      float begin = 0, end = 0;

      if (!mark->ended)
        continue;
      if (!ws_gpu_check (cudaEventElapsedTime (&begin, t->origin, mark->begin), _("reading a timeline"), error) ||
          !ws_gpu_check (cudaEventElapsedTime (&end, t->origin, mark->end), _("reading a timeline"), error))
        return FALSE;
      ws_measurement_add_span (m, mark->stream, mark->kind, MAX (begin, 0), MAX (MAX (begin, 0), end));
    }
  return TRUE;
}

gboolean
ws_run_report_timeline (WsRun         *run,
                        WsMeasurement *m,
                        GError       **error)
{
  struct _WsTimeline *t = g_new0 (struct _WsTimeline, 1);
  /* Translators: %s is a kernel's id */
  g_autofree char *what = g_strdup_printf (_("running %s for its timeline"), run->info->id);
  gboolean ok;

  t->marks = g_array_new (FALSE, TRUE, sizeof (Mark));
  if (run->before)
    run->before (run);
  ok = ws_gpu_check (cudaEventCreate (&t->origin), _("creating an event"), error) &&
       ws_gpu_check (cudaEventRecord (t->origin, 0), _("recording an event"), error);
  if (ok)
    {
      run->timeline = t;
      run->launch (run);
      run->timeline = NULL;
      ok = ws_gpu_sync (what, error);
    }
  if (ok && t->failed)
    {
      /* the timings stand without it */
      m->warning = g_strdup_printf ("%s%sno timeline: the events could not be recorded",
                                    m->warning ? m->warning : "", m->warning ? "; " : "");
    }
  else if (ok)
    ok = timeline_read (t, m, error);
  timeline_free (t);
  return ok;
}

/* ------------------------------------------------------------------ */
/* Verification                                                       */
/* ------------------------------------------------------------------ */

const void *
ws_run_fetch (WsRun      *run,
              const void *src,
              gsize       bytes,
              GError    **error)
{
  void *host = ws_gpu_pinned (0, bytes, error);

  if (host == NULL ||
      !ws_gpu_check (cudaMemcpy (host, src, bytes, cudaMemcpyDeviceToHost), _("reading the output back"), error))
    return NULL;
  return host;
}

typedef struct
{
  const guint32 *got;
  gsize start, end;
  WsExpectFunc expect;
  gpointer data;
  gsize bad;           /* first mismatch, or end */
  guint32 bad_expected;
} Chunk;

static gpointer
check_chunk (gpointer user_data)
{
  Chunk *c = user_data;

  c->bad = c->end;
  for (gsize k = c->start; k < c->end; k++)
    {
      guint32 e = c->expect (k, c->data);
      if (c->got[k] != e)
        {
          c->bad = k;
          c->bad_expected = e;
          break;
        }
    }
  return NULL;
}

gboolean
ws_run_check_words (WsRun         *run,
                    const char    *array,
                    const guint32 *got,
                    gsize          n,
                    WsExpectFunc   expect,
                    gpointer       data,
                    GError       **error)
{
  guint n_threads = n < (1 << 20) ? 1 : CLAMP (g_get_num_processors (), 1, 16);
  g_autofree Chunk *chunks = g_new0 (Chunk, n_threads);
  g_autofree GThread **threads = g_new0 (GThread *, n_threads);

  for (guint t = 0; t < n_threads; t++)
    {
      chunks[t] = (Chunk) { got, n * t / n_threads, n * (t + 1) / n_threads, expect, data, 0, 0 };
      if (t > 0)
        threads[t] = g_thread_new ("ws-verify", check_chunk, &chunks[t]);
    }
  check_chunk (&chunks[0]);
  for (guint t = 1; t < n_threads; t++)
    g_thread_join (threads[t]);
  for (guint t = 0; t < n_threads; t++)
    if (chunks[t].bad < chunks[t].end)
      {
        gsize k = chunks[t].bad;
        g_set_error (error, WS_GPU_ERROR, WS_GPU_ERROR_VERIFY_FAILED,
                     /* Translators: the kernel's id, an array and an index in it, then the
                      * word read and the word expected */
                     _("%s: %s[%llu] is 0x%08x, but the CPU reference says 0x%08x"),
                     run->info->id, array, (unsigned long long) k, got[k], chunks[t].bad_expected);
        return FALSE;
      }
  return TRUE;
}

gboolean
ws_run_verify_words (WsRun        *run,
                     const char   *array,
                     const void   *src,
                     gsize         n,
                     WsExpectFunc  expect,
                     gpointer      data,
                     GError      **error)
{
  const guint32 *got = ws_run_fetch (run, src, n * 4, error);

  return got != NULL && ws_run_check_words (run, array, got, n, expect, data, error);
}

typedef struct
{
  guint32 *p;
  gsize start, end;
  guint32 seed;
} FillChunk;

static gpointer
fill_chunk (gpointer user_data)
{
  FillChunk *c = user_data;

  for (gsize k = c->start; k < c->end; k++)
    c->p[k] = ws_value (k, c->seed);
  return NULL;
}

void
ws_run_fill_host (guint32 *p,
                  gsize    n,
                  guint32  seed)
{
  guint n_threads = n < (1 << 20) ? 1 : CLAMP (g_get_num_processors (), 1, 16);
  g_autofree FillChunk *chunks = g_new0 (FillChunk, n_threads);
  g_autofree GThread **threads = g_new0 (GThread *, n_threads);

  for (guint t = 0; t < n_threads; t++)
    {
      chunks[t] = (FillChunk) { p, n * t / n_threads, n * (t + 1) / n_threads, seed };
      if (t > 0)
        threads[t] = g_thread_new ("ws-fill", fill_chunk, &chunks[t]);
    }
  fill_chunk (&chunks[0]);
  for (guint t = 1; t < n_threads; t++)
    g_thread_join (threads[t]);
}
