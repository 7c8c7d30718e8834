/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What device, list, measure, sweep, record and truth share: a session
 * (the window's backend thread and GPU worker process, waited for here),
 * progress on a terminal, printing devices and measurements, the bundled
 * recording's numbers when there is no GPU, and the options that say how
 * to measure. */
#include "ws-config.h"
#include "ws-cli-measuring.h"
#include "ws-json.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

void
ws_cli_progress_init (WsCliProgress *p,
                      guint          points)
{
  memset (p, 0, sizeof *p);
  p->tty = isatty (STDERR_FILENO);
  p->points = MAX (points, 1);
  p->sweep_start = G_MAXUINT;
}

/* done of total within the current point (samples of a measurement, or
 * points of a sweep that counts as points of its own). */
void
ws_cli_progress_draw (WsCliProgress *p,
                      guint          done,
                      guint          total)
{
  double fraction = MIN (1, (p->point + (total ? (double) done / total : 0)) / p->points);
  char bar[31];
  gint64 now = g_get_monotonic_time ();
  guint filled = (guint) (fraction * 30);

  if (!p->tty || (now - p->last_us < 50000 && done != total))
    return;
  p->last_us = now;
  memset (bar, '#', filled);
  memset (bar + filled, '.', 30 - filled);
  bar[30] = '\0';
  fprintf (stderr, "\r[%s] %3d %%  %u/%u  %-40.40s", bar, (int) (fraction * 100), MIN (p->point + 1, p->points),
           p->points, p->what ? p->what : "");
  fflush (stderr);
}

void
ws_cli_progress_clear (WsCliProgress *p)
{
  if (p->tty)
    fprintf (stderr, "\r%100s\r", "");
}

/* ------------------------------------------------------------------ */
/* The session: the same backend thread and GPU worker as the window  */
/* ------------------------------------------------------------------ */

static void
on_measure_progress (WsSession     *session,
                     guint          done,
                     guint          total,
                     WsCliProgress *p)
{
  if (p->sweep_start == G_MAXUINT)
    ws_cli_progress_draw (p, done, total);
}

/* A sweep's points are points of the bar: the sweep started at sweep_start. */
static void
on_sweep_progress (WsSession           *session,
                   guint                done,
                   guint                total,
                   const WsMeasurement *latest,
                   WsCliProgress       *p)
{
  if (p->sweep_start == G_MAXUINT)
    return;
  p->point = p->sweep_start + done;
  ws_cli_progress_draw (p, 0, 1);
}

/* What the worker's start says, on a terminal: a Slurm job waits. */
static void
on_connection (WsSession  *session,
               GParamSpec *pspec,
               gpointer    data)
{
  if (ws_session_get_connection (session) == WS_SESSION_CONNECTION_QUEUED && isatty (STDERR_FILENO))
    {
      g_autofree char *described = ws_session_describe_gpu (session);
      /* it may quote the command given: control characters as escapes */
      g_autofree char *where = ws_text_printable (described, 0);

      fputc ('\r', stderr);
      /* Translators: %s is where the GPU is: a Slurm job waiting in the queue */
      fprintf (stderr, _("%s (Ctrl+C withdraws it)"), where);
      fflush (stderr);
    }
}

WsSession *
ws_cli_session_new (WsCliProgress     *progress,
                    const WsGpuTarget *target)
{
  g_autoptr (WsBackend) backend = target ? ws_backend_new_for_target (target) : NULL;
  WsSession *session = ws_session_new (backend);

  g_signal_connect (session, "notify::connection", G_CALLBACK (on_connection), NULL);
  if (progress)
    {
      progress->sweep_start = G_MAXUINT;
      g_signal_connect (session, "measure-progress", G_CALLBACK (on_measure_progress), progress);
      g_signal_connect (session, "sweep-progress", G_CALLBACK (on_sweep_progress), progress);
    }
  return session;
}

static void
got_result (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
}

/* Runs the main context until an asynchronous call has answered. */
static GAsyncResult *
wait_for (GAsyncResult **result)
{
  while (*result == NULL)
    g_main_context_iteration (NULL, TRUE);
  return *result;
}

const WsDeviceInfo *
ws_cli_probe (WsSession *session,
              GError   **error)
{
  ws_session_probe (session);
  while (!ws_session_get_probed (session))
    g_main_context_iteration (NULL, TRUE);
  if (ws_session_get_device (session) == NULL)
    {
      g_propagate_error (error, g_error_copy (ws_session_get_probe_error (session)));
      return NULL;
    }
  return ws_session_get_device (session);
}

WsMeasurement *
ws_cli_run_measure (WsSession              *session,
                    const WsMeasureRequest *request,
                    GError                **error)
{
  g_autoptr (GAsyncResult) result = NULL;

  ws_session_measure_async (session, request, NULL, got_result, &result);
  return ws_session_measure_finish (session, wait_for (&result), error);
}

WsMeasurement *
ws_cli_run_count (WsSession       *session,
                  const WsPattern *pattern,
                  gboolean         hold,
                  GError         **error)
{
  g_autoptr (GAsyncResult) result = NULL;

  ws_session_count_async (session, pattern, hold, NULL, got_result, &result);
  return ws_session_count_finish (session, wait_for (&result), error);
}

static void
on_calibrate_progress (WsBackend           *backend,
                       guint                done,
                       guint                total,
                       const WsMeasurement *latest,
                       gpointer             user_data)
{
  if (user_data)
    ws_cli_progress_draw (user_data, done, total);
}

WsSessionCalibration *
ws_cli_run_calibrate (WsSession             *session,
                      const WsDeviceProfile *base,
                      const char            *base_name,
                      WsCliProgress         *progress,
                      GError               **error)
{
  g_autoptr (GAsyncResult) result = NULL;

  ws_session_calibrate_async (session, base, base_name, on_calibrate_progress, progress, NULL, NULL, got_result,
                              &result);
  return ws_session_calibrate_finish (session, wait_for (&result), error);
}

WsMeasureRequest *
ws_cli_kernel_request (const char             *id,
                       GArray                 *params,
                       const WsMeasureOptions *options)
{
  WsMeasureRequest *request = ws_measure_request_new ();

  request->kernel_id = g_strdup (id);
  for (guint i = 0; i < params->len; i++)
    {
      const WsParamValue *p = &g_array_index (params, WsParamValue, i);
      ws_measure_request_set_param (request, p->name, p->value);
    }
  request->options = *options;
  return request;
}

char *
ws_cli_format_bytes (gint64 bytes)
{
  g_autofree char *size = g_format_size_full (bytes, G_FORMAT_SIZE_IEC_UNITS);
  return g_strdup_printf ("%" G_GINT64_FORMAT " (%s)", bytes, size);
}

void
ws_cli_print_device (const WsDeviceInfo *d)
{
  g_autofree char *mem = ws_cli_format_bytes (d->global_mem_bytes);
  g_autofree char *l2 = ws_cli_format_bytes (d->l2_bytes);

  printf ("%s\n", d->name);
  printf ("  compute capability   %d.%d (sm_%d%d)\n", d->cc_major, d->cc_minor, d->cc_major, d->cc_minor);
  printf ("  SMs                  %d\n", d->sm_count);
  printf ("  memory               %s\n", mem);
  printf ("  L2                   %s\n", l2);
  if (d->l2_persisting_max_bytes > 0)
    {
      g_autofree char *aside = ws_cli_format_bytes (d->l2_persisting_max_bytes);
      printf ("  L2 set-aside         at most %s for persisting lines\n", aside);
    }
  printf ("  shared memory        %" G_GINT64_FORMAT " bytes per SM, %" G_GINT64_FORMAT " per block (opt-in)\n",
          d->shared_per_sm, d->shared_per_block_optin);
  printf ("  registers            %d per SM\n", d->registers_per_sm);
  printf ("  residency            %d threads, %d blocks per SM\n", d->max_threads_per_sm, d->max_blocks_per_sm);
  printf ("  SM clock             %d MHz (maximum)\n", d->sm_clock_mhz);
  printf ("  memory               %d MHz, %d-bit bus: %.0f GB/s peak\n", d->mem_clock_mhz, d->mem_bus_bits,
          d->peak_bandwidth_gbs);
  printf ("  driver, runtime      CUDA %s, CUDA %s\n", d->driver_version, d->runtime_version);
}

void
ws_cli_print_measurement (const WsMeasurement *m,
                          const WsDeviceInfo  *d)
{
  printf ("%s\n", m->id);
  printf ("  %s\n", m->description ? m->description : "");
  printf ("  samples        %u, %s\n", m->samples_ms->len,
          m->cold ? "cold (L2 flushed before each)" : "hot (L2 as the previous launch left it)");
  printf ("  median         %.4f ms  (min %.4f, max %.4f)\n", m->median_ms, m->min_ms, m->max_ms);
  if (m->bytes > 0)
    {
      g_autofree char *bytes = ws_cli_format_bytes (m->bytes);
      printf ("  bytes          %s\n", bytes);
      if (d && d->peak_bandwidth_gbs > 0)
        printf ("  bandwidth      %.1f GB/s (%.0f %% of the %.0f GB/s peak)\n", m->bandwidth_gbs,
                100 * m->bandwidth_gbs / d->peak_bandwidth_gbs, d->peak_bandwidth_gbs);
      else
        printf ("  bandwidth      %.1f GB/s\n", m->bandwidth_gbs);
    }
  if (m->sm_clock_mhz)
    printf ("  SM clock       %d MHz (measured after the samples)\n", m->sm_clock_mhz);
  if (m->registers || m->blocks_per_sm)
    {
      printf ("  registers      %d per thread; local %d bytes, static shared %d bytes\n",
              m->registers, m->local_bytes, m->shared_bytes);
      printf ("  occupancy      %d blocks, %d warps per SM\n", m->blocks_per_sm, m->warps_per_sm);
    }
  printf ("  verified       %s\n", m->verified ? "yes, against a CPU reference" : "no");
  if (m->trials > 0)
    {
      printf ("  trials         %" G_GINT64_FORMAT "\n", m->trials);
      for (guint i = 0; i < m->outcomes->len; i++)
        {
          const WsOutcome *o = &g_array_index (m->outcomes, WsOutcome, i);
          printf ("    %-12s %" G_GINT64_FORMAT " (%.3g %%)\n", o->name, o->count, 100.0 * o->count / m->trials);
        }
    }
  if (m->timeline->len > 0)
    {
      printf ("  timeline       one launch, from its start:\n");
      for (guint i = 0; i < m->timeline->len; i++)
        {
          const WsSpan *span = &g_array_index (m->timeline, WsSpan, i);
          printf ("    stream %-3u %-15s %9.4f to %9.4f ms\n", span->stream, ws_span_kind_to_string (span->kind),
                  span->start_ms, span->end_ms);
        }
    }
  for (guint i = 0; i < m->counters->len; i++)
    {
      const WsCounter *c = &g_array_index (m->counters, WsCounter, i);
      printf ("  %-60s %.0f\n", c->name, c->value);
    }
  if (m->warning)
    printf ("  warning        %s\n", m->warning);
}

void
ws_cli_print_recording_json (WsRecording *r)
{
  g_autofree char *data = ws_recording_to_data (r, NULL);

  printf ("%s\n", data);
}

const WsMeasurement *
ws_cli_recorded (WsRecording *r,
                 const char  *id,
                 GArray      *params)
{
  g_autoptr (GPtrArray) found = NULL;

  if (r == NULL)
    return NULL;
  found = ws_recording_lookup (r, id, (const WsParamValue *) params->data, params->len, NULL);
  return found->len > 0 ? g_ptr_array_index (found, 0) : NULL;
}

/* --samples N asked for, and a recording made with another count. */
static gboolean
samples_differ (guint                samples,
                const WsMeasurement *recorded)
{
  return samples > 0 && recorded != NULL && recorded->samples_ms->len != samples;
}

void
ws_cli_print_recorded_header (WsRecording         *r,
                              gboolean             hot,
                              guint                samples,
                              const WsMeasurement *recorded)
{
  const WsDeviceInfo *d = ws_recording_get_device (r);
  g_autofree char *date = g_date_time_format (ws_recording_get_date (r), "%Y-%m-%d");

  printf ("NOT MEASURED HERE: numbers from the recording that ships with Warpscope,\n"
          "made on %s (sm_%d%d, CUDA %s) on %s by Warpscope %s.\n\n",
          d->name, d->cc_major, d->cc_minor, d->driver_version, date, ws_recording_get_program_version (r));
  if (hot)
    printf ("--hot asks for samples with L2 warm; the recording holds cold ones (L2 flushed before each "
            "sample).\n\n");
  if (samples_differ (samples, recorded))
    printf ("--samples %u asks for %u samples; the recording holds the %u it was made with.\n\n", samples, samples,
            recorded->samples_ms->len);
}

void
ws_cli_warn_recorded_cold (const char          *command,
                           gboolean             hot,
                           guint                samples,
                           const WsMeasurement *recorded)
{
  if (hot)
    g_printerr (_("warpscope-cli %s: --hot asks for samples with L2 warm; the recording holds cold ones (L2 flushed "
                  "before each sample)\n"),
                command);
  if (samples_differ (samples, recorded))
    g_printerr (_("warpscope-cli %s: --samples %u asks for %u samples; the recording holds the %u it was made with\n"),
                command, samples, samples, recorded->samples_ms->len);
}

int
ws_cli_no_gpu (const char *command,
               GError     *error)
{
  /* the GPU's machine out of reach is no statement about its GPU */
  if (ws_cli_gpu_unreachable (error))
    return ws_cli_fail (command, ws_cli_failure_status (error), "%s", error->message);
  return ws_cli_fail (command, WS_CLI_NO_GPU, _("no usable GPU: %s"), error->message);
}

gboolean
ws_cli_measure_options (const char                *command,
                        const WsCliMeasureOptions *c,
                        WsMeasureOptions          *options)
{
  *options = WS_MEASURE_OPTIONS_DEFAULT;
  if (c->cold && c->hot)
    {
      ws_cli_fail (command, WS_CLI_USAGE, _("--cold and --hot contradict each other"));
      return FALSE;
    }
  if (c->samples != 0 && c->samples < 10)
    {
      ws_cli_fail (command, WS_CLI_USAGE, _("--samples: %d is too few; a measurement takes at least 10"), c->samples);
      return FALSE;
    }
  if (c->samples)
    options->samples = (guint) c->samples;
  if (c->deadline < 0 || c->deadline > 3600)
    {
      ws_cli_fail (command, WS_CLI_USAGE, _("--deadline: %g is not a number of seconds from 0 to 3600"), c->deadline);
      return FALSE;
    }
  options->deadline_ms = (guint) (c->deadline * 1000 + 0.5);
  options->cold = !c->hot;
  options->counters = c->counters;
  return TRUE;
}

/* Every parameter of the kernel: its default, or what --set says. */
GArray *
ws_cli_kernel_params (const char         *command,
                      const WsKernelInfo *info,
                      char              **sets)
{
  g_autoptr (GArray) params = g_array_new (FALSE, TRUE, sizeof (WsParamValue));

  for (guint i = 0; i < info->n_params; i++)
    {
      WsParamValue p = { (char *) info->params[i].name, info->params[i].def };
      g_array_append_val (params, p);
    }
  for (guint s = 0; sets && sets[s]; s++)
    {
      g_autoptr (GError) error = NULL;
      g_autofree char *name = NULL;
      gint64 value;
      guint i;

      if (!ws_cli_parse_assignment (sets[s], &name, &value, &error))
        {
          ws_cli_fail (command, WS_CLI_USAGE, "%s", error->message);
          return NULL;
        }
      for (i = 0; i < params->len; i++)
        if (strcmp (g_array_index (params, WsParamValue, i).name, name) == 0)
          break;
      if (i == params->len)
        {
          g_autoptr (GString) known = g_string_new (NULL);

          for (guint k = 0; k < params->len; k++)
            g_string_append_printf (known, "%s%s", k ? ", " : "", g_array_index (params, WsParamValue, k).name);
          ws_cli_fail (command, WS_CLI_USAGE, _("--set: %s has no parameter “%s”; its parameters are %s"), info->id,
                       name, known->len ? known->str : _("none"));
          return NULL;
        }
      g_array_index (params, WsParamValue, i).value = value;
    }
  return g_steal_pointer (&params);
}

const WsKernelInfo *
ws_cli_lookup_kernel (const char *command,
                      const char *id)
{
  const WsKernelInfo *info = ws_gpu_kernel_lookup (id);

  if (info == NULL)
    {
      /* every kernel is a preset's, with its id */
      const char *near = ws_preset_suggest (id);

      if (near && ws_gpu_kernel_lookup (near))
        ws_cli_fail (command, WS_CLI_USAGE, _("no kernel “%s”; did you mean %s? (warpscope-cli list shows them)"), id,
                     near);
      else
        ws_cli_fail (command, WS_CLI_USAGE, _("no kernel “%s” (warpscope-cli list shows them)"), id);
    }
  return info;
}

int
ws_cli_failure_status (const GError *error)
{
  if (error->domain == WS_WORKER_ERROR)
    return WS_CLI_UNREACHABLE;
  if (error->domain == WS_GPU_ERROR &&
      (error->code == WS_GPU_ERROR_INVALID_PARAM || error->code == WS_GPU_ERROR_UNKNOWN_KERNEL))
    return WS_CLI_USAGE;
  if (error->domain == WS_GPU_ERROR &&
      (error->code == WS_GPU_ERROR_NOT_BUILT || error->code == WS_GPU_ERROR_NO_DRIVER ||
       error->code == WS_GPU_ERROR_DRIVER_TOO_OLD || error->code == WS_GPU_ERROR_NO_DEVICE ||
       error->code == WS_GPU_ERROR_UNSUPPORTED))
    return WS_CLI_NO_GPU;
  return WS_CLI_FAILED;
}

void
ws_cli_print_json_node (JsonNode *node)
{
  g_autofree char *text = ws_json_to_text (node, TRUE);

  printf ("%s\n", text);
}

void
ws_cli_set_param (GArray     *params,
                  const char *name,
                  gint64      value)
{
  for (guint i = 0; i < params->len; i++)
    if (strcmp (g_array_index (params, WsParamValue, i).name, name) == 0)
      g_array_index (params, WsParamValue, i).value = value;
}
