/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What device, list, measure, sweep, record and truth share besides the
 * session (ws-cli-session.c) and printing (ws-cli-print.c): the options
 * that say how to measure, a kernel's parameters, the bundled recording's
 * numbers when there is no GPU, and the exit status an error deserves. */
#include "ws-config.h"
#include "ws-cli-measuring.h"

#include <stdio.h>
#include <string.h>

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
ws_cli_set_param (GArray     *params,
                  const char *name,
                  gint64      value)
{
  for (guint i = 0; i < params->len; i++)
    if (strcmp (g_array_index (params, WsParamValue, i).name, name) == 0)
      g_array_index (params, WsParamValue, i).value = value;
}
