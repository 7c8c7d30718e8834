/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Host transfers: copies from pageable and pinned memory followed by a
 * kernel, a kernel reading mapped host memory, and chunks of copy in,
 * kernel, copy out spread over streams — with a kernel that computes long
 * enough to hide the copies behind it, or not. bytes counts what crosses
 * the bus. Each measurement ends with one launch timed copy by copy, kernel
 * by kernel: its timeline. */
#include "ws-gpu-private.h"

#include <string.h>

enum { SEED_IN = 1 };

typedef struct
{
  guint32 *host_in;
  guint32 *host_out;           /* streams only */
  void *mapped;                /* device address of host_in, mapped only */
  cudaStream_t *streams;
  guint n_streams;
  int work;                    /* rounds of arithmetic per element (overlap only) */
} TransferRun;

static void
copy_then_kernel_launch (WsRun *run)
{
  TransferRun *t = run->data;
  int span = ws_run_span_begin (run, 0);

  cudaMemcpyAsync (run->d[0], t->host_in, run->n * 4, cudaMemcpyHostToDevice, 0);
  ws_run_span_end (run, span, 0, WS_SPAN_HOST_TO_DEVICE, 0);
  span = ws_run_span_begin (run, 0);
  ws_launch_scale (run->d[0], run->d[1], run->n, 0, &run->shape);
  ws_run_span_end (run, span, 0, WS_SPAN_KERNEL, 0);
}

static void
mapped_launch (WsRun *run)
{
  TransferRun *t = run->data;
  int span = ws_run_span_begin (run, 0);

  ws_launch_scale (t->mapped, run->d[1], run->n, 0, &run->shape);
  ws_run_span_end (run, span, 0, WS_SPAN_KERNEL, 0);
}

/* the blocking streams wait for what came before on the legacy default
 * stream, and the stop event there waits for them */
static void
streams_launch (WsRun *run)
{
  TransferRun *t = run->data;
  gint64 chunk = (run->n + t->n_streams - 1) / t->n_streams;
  int span;

  for (guint c = 0; c < t->n_streams; c++)
    {
      gint64 off = c * chunk, len = MIN (chunk, run->n - off);
      cudaStream_t s = t->streams[c];

      if (len <= 0)
        break;
      span = ws_run_span_begin (run, s);
      cudaMemcpyAsync ((guint32 *) run->d[0] + off, t->host_in + off, len * 4, cudaMemcpyHostToDevice, s);
      ws_run_span_end (run, span, c, WS_SPAN_HOST_TO_DEVICE, s);
      span = ws_run_span_begin (run, s);
      if (t->work)
        ws_launch_scale_work ((guint32 *) run->d[0] + off, (guint32 *) run->d[1] + off, len, t->work, s, &run->shape);
      else
        ws_launch_scale ((guint32 *) run->d[0] + off, (guint32 *) run->d[1] + off, len, s, &run->shape);
      ws_run_span_end (run, span, c, WS_SPAN_KERNEL, s);
      span = ws_run_span_begin (run, s);
      cudaMemcpyAsync (t->host_out + off, (guint32 *) run->d[1] + off, len * 4, cudaMemcpyDeviceToHost, s);
      ws_run_span_end (run, span, c, WS_SPAN_DEVICE_TO_HOST, s);
    }
}

static gboolean
host_buffers (WsRun       *run,
              TransferRun *t,
              GError     **error)
{
  gsize bytes = run->n * 4;

  if (g_str_equal (run->info->id, "transfer/pageable"))
    t->host_in = ws_gpu_pageable (bytes, error);
  else if (g_str_equal (run->info->id, "transfer/mapped"))
    t->host_in = ws_gpu_mapped (bytes, &t->mapped, error);
  else
    t->host_in = ws_gpu_pinned (1, bytes, error);
  if (t->host_in == NULL)
    return FALSE;
  ws_run_fill_host (t->host_in, run->n, SEED_IN);
  if (g_str_equal (run->info->id, "transfer/streams") || g_str_equal (run->info->id, "transfer/overlap"))
    {
      /* pinned buffer 0 is where results come back to be checked: here
       * the kernel's own output is that */
      t->n_streams = (guint) ws_run_param (run, "streams");
      t->host_out = ws_gpu_pinned (0, bytes, error);
      t->streams = t->host_out ? ws_gpu_streams (t->n_streams, error) : NULL;
      if (t->streams == NULL)
        return FALSE;
      memset (t->host_out, WS_POISON_BYTE, bytes);
    }
  return TRUE;
}

static gboolean
transfer_prepare (WsRun   *run,
                  GError **error)
{
  TransferRun *t = g_new0 (TransferRun, 1);
  gboolean streams = g_str_equal (run->info->id, "transfer/streams") || g_str_equal (run->info->id, "transfer/overlap");

  run->data = t;
  run->data_free = g_free;
  run->n = ws_run_param (run, "N");
  if (ws_kernel_info_get_param (run->info, "work"))
    t->work = (int) ws_run_param (run, "work");
  run->bytes = (streams ? 8 : 4) * run->n;
  if (streams)
    run->launch = streams_launch;
  else if (g_str_equal (run->info->id, "transfer/mapped"))
    run->launch = mapped_launch;
  else
    run->launch = copy_then_kernel_launch;
  run->d[0] = ws_gpu_buffer (0, run->n * 4, error);
  run->d[1] = run->d[0] ? ws_gpu_buffer (1, run->n * 4, error) : NULL;
  return run->d[1] != NULL &&
         host_buffers (run, t, error) &&
         ws_gpu_set_bytes (run->d[1], WS_POISON_BYTE, run->n * 4, error);
}

static guint32
scale_expect (gsize    k,
              gpointer data)
{
  return ws_value (k, SEED_IN) * 3u + 1u;
}

static guint32
work_expect (gsize    k,
             gpointer data)
{
  TransferRun *t = ((WsRun *) data)->data;

  return ws_work (ws_value (k, SEED_IN), t->work);
}

static gboolean
transfer_verify (WsRun   *run,
                 GError **error)
{
  TransferRun *t = run->data;
  WsExpectFunc expect = t->work ? work_expect : scale_expect;

  if (t->host_out)
    return ws_run_check_words (run, "host_out", t->host_out, run->n, expect, run, error);
  return ws_run_verify_words (run, "out", run->d[1], run->n, expect, run, error);
}

static const WsKernelOps ops[] = {
  { "transfer/pageable", 0, transfer_prepare, transfer_verify, NULL, ws_run_report_timeline },
  { "transfer/pinned", 0, transfer_prepare, transfer_verify, NULL, ws_run_report_timeline },
  { "transfer/mapped", 0, transfer_prepare, transfer_verify, NULL, ws_run_report_timeline },
  { "transfer/streams", 0, transfer_prepare, transfer_verify, NULL, ws_run_report_timeline },
  { "transfer/overlap", 0, transfer_prepare, transfer_verify, NULL, ws_run_report_timeline },
};

const WsKernelOps *
ws_gpu_transfer_ops (const char *id)
{
  for (guint i = 0; i < G_N_ELEMENTS (ops); i++)
    if (g_str_equal (ops[i].id, id))
      return &ops[i];
  return NULL;
}
