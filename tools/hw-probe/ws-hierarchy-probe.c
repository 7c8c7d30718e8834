/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ws-hierarchy-probe: what patterns cost below L1, measured. For every
 * pattern of a spec file it generates the kernel (as `warpscope-cli measure
 * --expr` does), reads the hardware counters of one cold launch (L2 flushed
 * before every profiler pass) and times it cold; with --kernels it does the
 * same for every real kernel of the registry and its standard sweep. One JSON
 * object per line on standard output, flushed as it goes, so that a run cut
 * short keeps what it measured.
 *
 *   ws-hierarchy-probe SPEC            patterns of the spec file
 *   ws-hierarchy-probe --kernels       the registry's kernels and sweeps
 *   ws-hierarchy-probe --dry SPEC      the model alone, no GPU
 *   ws-hierarchy-probe --once SPEC     each pattern launched once after a
 *                                      flush, no CUPTI: for ncu to profile
 *
 * A spec line is seven fields separated by '|':
 *   name | block | grid | params | definitions | guard | accesses
 * block and grid as 256 or 32,8; params as N=1024 stride=2 (or -);
 * definitions as i = …; j = … (or -); guard an expression (or -);
 * accesses as array:space:kind:bytes:index, separated by ';'.
 */
#include "ws-config.h"
#include "hierarchy-data.h"
#include "ws-counters.h"
#include "ws-gpu.h"
#include "ws-jit.h"
#include "ws-model-types.h"
#include "ws-presets.h"

#include <json-glib/json-glib.h>
#include <stdio.h>
#include <string.h>

static void
add_stats (JsonBuilder   *b,
           const char    *member,
           const WsStats *s)
{
  json_builder_set_member_name (b, member);
  json_builder_begin_object (b);
#define MEMBER(F) json_builder_set_member_name (b, #F); json_builder_add_int_value (b, (gint64) s->F)
  MEMBER (instructions);
  MEMBER (requests);
  MEMBER (sectors);
  MEMBER (lines);
  MEMBER (bytes_requested);
  MEMBER (bytes_moved);
  MEMBER (wavefronts);
  MEMBER (distinct_addresses);
  MEMBER (replays);
  MEMBER (min_address);
  MEMBER (end_address);
#undef MEMBER
  json_builder_end_object (b);
}

static void
add_measurement (JsonBuilder         *b,
                 const WsMeasurement *m)
{
  json_builder_set_member_name (b, "median_ms");
  json_builder_add_double_value (b, m->median_ms);
  json_builder_set_member_name (b, "min_ms");
  json_builder_add_double_value (b, m->min_ms);
  json_builder_set_member_name (b, "max_ms");
  json_builder_add_double_value (b, m->max_ms);
  json_builder_set_member_name (b, "bytes");
  json_builder_add_int_value (b, m->bytes);
  json_builder_set_member_name (b, "sm_clock_mhz");
  json_builder_add_int_value (b, m->sm_clock_mhz);
  json_builder_set_member_name (b, "registers");
  json_builder_add_int_value (b, m->registers);
  json_builder_set_member_name (b, "blocks_per_sm");
  json_builder_add_int_value (b, m->blocks_per_sm);
  if (m->warning)
    {
      json_builder_set_member_name (b, "warning");
      json_builder_add_string_value (b, m->warning);
    }
  json_builder_set_member_name (b, "counters");
  json_builder_begin_object (b);
  for (guint i = 0; i < m->counters->len; i++)
    {
      const WsCounter *c = &g_array_index (m->counters, WsCounter, i);
      json_builder_set_member_name (b, c->name);
      json_builder_add_double_value (b, c->value);
    }
  json_builder_end_object (b);
}

static void
emit (JsonBuilder *b)
{
  g_autoptr (JsonGenerator) gen = json_generator_new ();
  g_autoptr (JsonNode) root = json_builder_get_root (b);
  g_autofree char *text = NULL;

  json_generator_set_root (gen, root);
  text = json_generator_to_data (gen, NULL);
  printf ("%s\n", text);
  fflush (stdout);
}

static void
emit_error (const char *name,
            const char *message)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "name");
  json_builder_add_string_value (b, name);
  json_builder_set_member_name (b, "error");
  json_builder_add_string_value (b, message);
  json_builder_end_object (b);
  emit (b);
}

static void
probe_pattern (const char *name,
               const char *spec,
               WsPattern  *p,
               gboolean    once)
{
  WsMeasureOptions options = { 10, 2, TRUE, TRUE };
  g_autoptr (GError) error = NULL;
  g_autoptr (JsonBuilder) b = json_builder_new ();
  g_autoptr (WsMeasurement) m = NULL;
  g_autoptr (WsLaunchStats) stats = ws_model_analyze_launch (p, NULL, &error);

  if (stats == NULL)
    {
      emit_error (name, error->message);
      return;
    }
  if (once)
    {
      g_autoptr (WsJitLaunch) jl = ws_jit_prepare (p, NULL, &error);
      if (jl == NULL)
        {
          emit_error (name, error->message);
          return;
        }
      ws_gpu_flush_before (NULL);
      if (!ws_jit_launch_sync (jl, &error))
        emit_error (name, error->message);
      return;
    }
  m = ws_gpu_measure_pattern (p, &options, NULL, NULL, NULL, &error);
  if (m == NULL)
    {
      emit_error (name, error->message);
      return;
    }
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "name");
  json_builder_add_string_value (b, name);
  json_builder_set_member_name (b, "spec");
  json_builder_add_string_value (b, spec);
  add_stats (b, "model", &stats->total);
  json_builder_set_member_name (b, "accesses");
  json_builder_begin_array (b);
  for (guint i = 0; i < stats->n_accesses; i++)
    {
      json_builder_begin_object (b);
      add_stats (b, "model", &stats->accesses[i]);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  add_measurement (b, m);
  json_builder_end_object (b);
  emit (b);
}

static gboolean dry_run;

static int
run_spec (const char *path,
          gboolean    once)
{
  g_autofree char *text = NULL;
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) lines = NULL;

  if (!g_file_get_contents (path, &text, NULL, &error))
    {
      g_printerr ("%s\n", error->message);
      return 2;
    }
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      g_autofree char *name = NULL;
      g_autoptr (WsPattern) p = NULL;
      char *line = g_strstrip (lines[i]);

      if (*line == '\0' || *line == '#')
        continue;
      /* the spec format the tests read the results back with */
      p = ws_hier_spec_parse (line, &name, &error);
      if (p == NULL)
        {
          g_printerr ("%s:%u: %s\n", path, i + 1, error->message);
          g_clear_error (&error);
          continue;
        }
      if (dry_run)
        {
          g_autoptr (WsLaunchStats) st = ws_model_analyze_launch (p, NULL, &error);
          if (st == NULL)
            g_printerr ("%s: %s\n", name, error->message);
          else
            printf ("%-28s %12" G_GUINT64_FORMAT " instructions %12" G_GUINT64_FORMAT " sectors %.2fs\n", name,
                    st->total.instructions, st->total.sectors, st->seconds);
          g_clear_error (&error);
          continue;
        }
      probe_pattern (name, line, p, once);
    }
  return 0;
}

static void
probe_kernel (const WsKernelInfo *info,
              const char         *param,
              gint64              value)
{
  WsMeasureOptions options = { 10, 2, TRUE, TRUE };
  g_autoptr (GError) error = NULL;
  g_autoptr (JsonBuilder) b = json_builder_new ();
  g_autoptr (WsMeasurement) m = NULL;
  WsParamValue pv = { (char *) param, value };

  m = ws_gpu_measure (info->id, param ? &pv : NULL, param ? 1 : 0, &options, NULL, NULL, NULL, &error);
  if (m == NULL)
    {
      emit_error (info->id, error->message);
      return;
    }
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "kernel");
  json_builder_add_string_value (b, info->id);
  json_builder_set_member_name (b, "params");
  json_builder_begin_object (b);
  for (guint i = 0; i < m->params->len; i++)
    {
      const WsParamValue *v = &g_array_index (m->params, WsParamValue, i);
      json_builder_set_member_name (b, v->name);
      json_builder_add_int_value (b, v->value);
    }
  json_builder_end_object (b);
  add_measurement (b, m);
  json_builder_end_object (b);
  emit (b);
}

static int
run_kernels (const char *only)
{
  guint n;
  const WsKernelInfo *k = ws_gpu_kernels (&n);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr (GArray) values = NULL;

      if (only && !g_str_has_prefix (k[i].id, only))
        continue;
      probe_kernel (&k[i], NULL, 0);
      if (k[i].sweep_param == NULL)
        continue;
      values = ws_sweep_values_parse (k[i].sweep_values, NULL);
      for (guint j = 0; values && j < values->len; j++)
        probe_kernel (&k[i], k[i].sweep_param, g_array_index (values, gint64, j));
    }
  return 0;
}

int
main (int    argc,
      char **argv)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *device = NULL;

  if (argc < 2)
    {
      g_printerr ("usage: %s SPEC | --kernels [PREFIX] | --once SPEC\n", argv[0]);
      return 2;
    }
  if (strcmp (argv[1], "--dry") == 0 && argc > 2)
    {
      dry_run = TRUE;
      return run_spec (argv[2], FALSE);
    }
  device = ws_jit_device_name (&error);
  if (device == NULL)
    {
      g_printerr ("%s\n", error->message);
      return 3;
    }
  g_printerr ("device: %s\n", device);
  if (strcmp (argv[1], "--kernels") == 0)
    {
      int rc;
      ws_counters_hold (TRUE);
      rc = run_kernels (argc > 2 ? argv[2] : NULL);
      ws_counters_hold (FALSE);
      return rc;
    }
  if (strcmp (argv[1], "--once") == 0 && argc > 2)
    return run_spec (argv[2], TRUE);
  ws_counters_hold (TRUE);
  return run_spec (argv[1], FALSE);
}
