/* SPDX-License-Identifier: GPL-3.0-or-later */
/* How the measuring subcommands print: a device, a measurement, a
 * recording or any JSON node. */
#include "ws-config.h"
#include "ws-cli-measuring.h"
#include "ws-json.h"

#include <stdio.h>

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

void
ws_cli_print_json_node (JsonNode *node)
{
  g_autofree char *text = ws_json_to_text (node, TRUE);

  printf ("%s\n", text);
}
