/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Benchmark: the hierarchy model against what the H200 measured, pattern by
 * pattern (tests/data/h200/), and its speed. Run with
 * `meson test --benchmark`; WS_ONLY=TEXT keeps the records whose name
 * contains TEXT. */
#include "ws-config.h"
#include "ws-device-json.h"
#include "ws-hierarchy.h"
#include "hierarchy-data.h"
#include "ws-presets.h"
#include "ws-timing.h"
#include "ws-kernel-launch.h"

#include <json-glib/json-glib.h>

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

static double
rel (double model,
     double hw)
{
  if (hw == 0 && model == 0)
    return 0;
  return (model - hw) / MAX (fabs (hw), 1);
}

static void
run_file (const char            *path,
          GHashTable            *specs,
          const WsDeviceProfile *profile)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) records = ws_hier_records_load (path, specs, &error);
  const char *only = g_getenv ("WS_ONLY");

  g_assert_no_error (error);
  if (g_getenv ("WS_TIME"))
    {
      printf ("%-30s %9s %9s %6s %-8s %8s %8s %8s %8s %8s %8s %8s %8s\n", "name", "hw us", "model", "err", "bound",
              "dram", "l2", "l1", "shared", "const", "atomic", "blocks", "launch");
      for (guint i = 0; i < records->len; i++)
        {
          WsHierRecord *r = g_ptr_array_index (records, i);
          g_autoptr (WsHierarchy) h = NULL;
          WsTiming t;

          if (r->pattern == NULL || (only && !strstr (r->name, only)))
            continue;
          h = ws_hierarchy_analyze (r->pattern, profile, NULL, NULL, &error);
          g_assert_no_error (error);
          ws_timing_predict (h, profile, NULL, &t);
          printf ("%-30s %9.2f %9.2f %+6.2f %-8s", r->name, r->median_ms * 1e3, t.predicted_ms * 1e3,
                  t.predicted_ms / r->median_ms - 1, ws_bound_to_string (t.bound));
          for (guint b = 0; b < WS_N_BOUNDS; b++)
            printf (" %8.2f", t.level_ms[b] * 1e3);
          printf ("\n");
        }
      return;
    }
  printf ("%-30s %10s %10s %6s %10s %10s %6s %9s %9s %6s %9s %9s %6s %7s\n", "name", "L2r", "hw", "err", "L2w",
          "hw", "err", "DRr MB", "hw", "err", "DRw MB", "hw", "err", "s");
  for (guint i = 0; i < records->len; i++)
    {
      WsHierRecord *r = g_ptr_array_index (records, i);
      g_autoptr (WsHierarchy) h = NULL;
      double l2r, l2w, dr, dw;

      if (r->pattern == NULL || (only && !strstr (r->name, only)))
        continue;
      h = ws_hierarchy_analyze (r->pattern, profile, NULL, NULL, &error);
      if (h == NULL)
        {
          printf ("%-30s %s\n", r->name, error->message);
          g_clear_error (&error);
          continue;
        }
      l2r = ws_hier_record_counter (r, "lts__t_sectors_srcunit_tex_op_read.sum");
      l2w = ws_hier_record_counter (r, "lts__t_sectors_srcunit_tex_op_write.sum");
      dr = ws_hier_record_counter (r, "dram__bytes_read.sum");
      dw = ws_hier_record_counter (r, "dram__bytes_write.sum");
      printf ("%-30s %10" G_GUINT64_FORMAT " %10.0f %+6.2f %10" G_GUINT64_FORMAT " %10.0f %+6.2f %9.2f %9.2f %+6.2f %9.2f %9.2f %+6.2f %7.3f\n",
              r->name, h->total.l2_read_sectors, l2r, rel (h->total.l2_read_sectors, l2r),
              h->total.l2_write_sectors, l2w, rel (h->total.l2_write_sectors, l2w),
              h->total.dram_read_bytes / 1e6, dr / 1e6, rel (h->total.dram_read_bytes, dr),
              h->total.dram_write_bytes / 1e6, dw / 1e6, rel (h->total.dram_write_bytes, dw), h->seconds);
    }
}

static double
cpu_seconds (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The speed target: a 10000 × 10000 transpose, hierarchy included, in wall
 * seconds and in CPU seconds of all its threads (on two cores or more, L2
 * runs on a thread of its own beside the walk). */
static void
run_speed (const char            *id,
           const WsDeviceProfile *profile)
{
  g_autoptr (WsPattern) p = ws_preset_build (ws_preset_lookup (id));
  g_autoptr (GError) error = NULL;
  g_autoptr (WsHierarchy) h = NULL;
  double t0, wall;
  gint64 w0;

  ws_pattern_set_param (p, "N", 10000, NULL);
  ws_pattern_set_grid (p, WS_DIM3 (313, 313, 1), NULL);
  t0 = cpu_seconds ();
  w0 = g_get_monotonic_time ();
  h = ws_hierarchy_analyze (p, profile, NULL, NULL, &error);
  g_assert_no_error (error);
  wall = (g_get_monotonic_time () - w0) / 1e6;
  t0 = cpu_seconds () - t0;
  printf ("%-28s 10000 × 10000 %10" G_GUINT64_FORMAT " warp instructions in %.3f s (%.3f s of CPU): %6.2f M/s\n",
          id, h->launch->total.instructions, wall, t0, h->launch->total.instructions / wall / 1e6);
}

/* Every preset at its defaults, as `model --preset` and the window take it:
 * the whole launch (its counts, then the hierarchy and the time) and the
 * view of one warp instruction (the first access of warp 0 of block 0, what
 * the Explore page draws first), in wall seconds on all the cores; then the
 * memory peak. The targets: 0.5 s and 10 ms. */
static void
run_presets (const WsDeviceProfile *profile)
{
  const char *only = g_getenv ("WS_ONLY");
  guint n_presets, over_launch = 0, over_warp = 0, n = 0;
  const WsPreset *presets = ws_presets_get_all (&n_presets);
  double worst = 0, total = 0;
  const char *worst_id = NULL;
  struct rusage usage;

  printf ("# every preset at its defaults: the whole launch (counts, hierarchy, time) and one warp's view, "
          "wall seconds on %u cores\n", g_get_num_processors ());
  printf ("%-34s %10s %10s %10s %9s\n", "preset", "warps", "launch s", "hier s", "warp ms");
  for (guint i = 0; i < n_presets; i++)
    {
      const WsPreset *preset = &presets[i];
      g_autoptr (WsPattern) p = ws_preset_build (preset);
      g_autoptr (GError) error = NULL;
      g_autoptr (WsLaunchStats) ls = NULL;
      g_autoptr (WsKernelLaunch) launch = NULL;
      g_autoptr (WsLaunchPrediction) pred = NULL;
      g_autoptr (WsWarpResult) warp = NULL;
      double hier = 0;
      gint64 t0, t1;

      if (only && !strstr (preset->id, only))
        continue;
      t0 = g_get_monotonic_time ();
      warp = ws_model_analyze_warp (p, 0, WS_DIM3 (0, 0, 0), 0, &error);
      t1 = g_get_monotonic_time ();
      g_clear_error (&error);
      ls = ws_model_analyze_launch (p, NULL, &error);
      g_assert_no_error (error);
      launch = ws_kernel_launch_choose (preset->id, p, &error);
      g_assert_no_error (error);
      pred = ws_launch_predict (launch, profile, NULL, &error);
      g_assert_no_error (error);
      for (guint k = 0; k < pred->phases->len; k++)
        hier += ((WsHierarchy *) g_ptr_array_index (pred->phases, k))->seconds;
      {
        double launch_s = (g_get_monotonic_time () - t1) / 1e6;
        double warp_ms = (t1 - t0) / 1e3;

        printf ("%-34s %10" G_GUINT64_FORMAT " %10.3f %10.3f %9.3f%s%s\n", preset->id, ls->warps, launch_s, hier,
                warp_ms, launch_s > 0.5 ? "  launch over 0.5 s" : "", warp_ms > 10 ? "  warp over 10 ms" : "");
        over_launch += launch_s > 0.5;
        over_warp += warp_ms > 10;
        total += launch_s;
        if (launch_s > worst)
          {
            worst = launch_s;
            worst_id = preset->id;
          }
        n++;
      }
    }
  getrusage (RUSAGE_SELF, &usage);
  printf ("%u presets in %.2f s: %u whole launches over 0.5 s, %u warp views over 10 ms; slowest %s (%.3f s); "
          "memory peak %.0f MB\n", n, total, over_launch, over_warp, worst_id ? worst_id : "-", worst,
          usage.ru_maxrss / 1024.0);
}

/* The preset's pattern with the record's parameters. */
static WsPattern *
kernel_pattern (const WsHierRecord *r,
                GError            **error)
{
  const WsPreset *preset = ws_preset_lookup (r->kernel);
  g_autoptr (WsPattern) p = NULL;
  GHashTableIter iter;
  gpointer key, value;

  if (preset == NULL)
    return NULL;
  p = ws_preset_build (preset);
  g_hash_table_iter_init (&iter, r->params);
  while (g_hash_table_iter_next (&iter, &key, &value))
    if (ws_pattern_get_param (p, key, NULL) && !ws_pattern_set_param (p, key, *(gint64 *) value, error))
      return NULL;
  if (!ws_preset_fit_grid (preset, p, error))
    return NULL;
  return g_steal_pointer (&p);
}

/* A recording's measurements as records: kernel, parameters, median. */
static GPtrArray *
recording_records (const char *path,
                   GError    **error)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GPtrArray) records = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_hier_record_free);
  JsonArray *ms;

  if (!json_parser_load_from_file (parser, path, error))
    return NULL;
  ms = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "measurements");
  for (guint i = 0; i < json_array_get_length (ms); i++)
    {
      JsonObject *m = json_array_get_object_element (ms, i);
      JsonObject *params = json_object_get_object_member (m, "params");
      g_autoptr (GList) keys = params ? json_object_get_members (params) : NULL;
      WsHierRecord *r = g_new0 (WsHierRecord, 1);
      GString *name = g_string_new (json_object_get_string_member (m, "id"));

      r->kernel = g_strdup (json_object_get_string_member (m, "id"));
      r->params = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
      r->counters = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
      g_string_append_c (name, '@');
      for (GList *l = keys; l; l = l->next)
        {
          gint64 *v = g_new (gint64, 1);
          *v = json_object_get_int_member (params, l->data);
          g_hash_table_insert (r->params, g_strdup (l->data), v);
          g_string_append_printf (name, "%s%s=%" G_GINT64_FORMAT, l == keys ? "" : ",", (char *) l->data, *v);
        }
      r->name = g_string_free (name, FALSE);
      r->median_ms = json_object_get_double_member (m, "median_ms");
      g_ptr_array_add (records, r);
    }
  return g_steal_pointer (&records);
}

static void
run_kernels (const char            *path,
             const WsDeviceProfile *profile)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) records = g_str_has_suffix (path, ".jsonl") ? ws_hier_records_load (path, NULL, &error)
                                                                     : recording_records (path, &error);
  const char *only = g_getenv ("WS_ONLY");
  guint n = 0, ok = 0;

  g_assert_no_error (error);
  printf ("%-44s %9s %9s %6s %-8s %8s %8s %6s %8s %8s %6s %8s %8s %6s %8s %8s %6s\n", "kernel", "hw us", "model", "err",
          "bound", "L2r M", "hw", "err", "L2w M", "hw", "err", "DRr MB", "hw", "err", "DRw MB", "hw", "err");
  for (guint i = 0; i < records->len; i++)
    {
      WsHierRecord *r = g_ptr_array_index (records, i);
      g_autoptr (WsPattern) pattern = NULL;
      g_autoptr (WsKernelLaunch) launch = NULL;
      g_autoptr (WsLaunchPrediction) pred = NULL;
      double l2r, l2w, dr, dw, err;

      if (r->kernel == NULL || (only && !strstr (r->name, only)))
        continue;
      pattern = kernel_pattern (r, &error);
      if (pattern == NULL)
        {
          printf ("%-44s %s\n", r->name, error ? error->message : "no preset");
          g_clear_error (&error);
          continue;
        }
      launch = ws_kernel_launch_new (r->kernel, pattern, &error);
      pred = launch ? ws_launch_predict (launch, profile, NULL, &error) : NULL;
      if (pred == NULL)
        {
          printf ("%-44s %s\n", r->name, error->message);
          g_clear_error (&error);
          continue;
        }
      l2r = ws_hier_record_counter (r, "lts__t_sectors_srcunit_tex_op_read.sum");
      l2w = ws_hier_record_counter (r, "lts__t_sectors_srcunit_tex_op_write.sum");
      dr = ws_hier_record_counter (r, "dram__bytes_read.sum");
      dw = ws_hier_record_counter (r, "dram__bytes_write.sum");
      err = pred->timing.predicted_ms / r->median_ms - 1;
      n++;
      ok += fabs (err) <= 0.25;
      printf ("%-44s %9.2f %9.2f %+6.2f %-8s %8.3f %8.3f %+6.2f %8.3f %8.3f %+6.2f %8.2f %8.2f %+6.2f %8.2f %8.2f %+6.2f\n",
              r->name, r->median_ms * 1e3, pred->timing.predicted_ms * 1e3, err, ws_bound_to_string (pred->timing.bound),
              pred->total.l2_read_sectors / 1e6, l2r / 1e6, rel (pred->total.l2_read_sectors, l2r),
              pred->total.l2_write_sectors / 1e6, l2w / 1e6, rel (pred->total.l2_write_sectors, l2w),
              pred->total.dram_read_bytes / 1e6, dr / 1e6, rel (pred->total.dram_read_bytes, dr),
              pred->total.dram_write_bytes / 1e6, dw / 1e6, rel (pred->total.dram_write_bytes, dw));
      if (g_getenv ("WS_TERMS"))
        {
          printf ("    ");
          for (guint b = 0; b < WS_N_BOUNDS; b++)
            printf (" %s %.2f", ws_bound_to_string (b), pred->timing.level_ms[b] * 1e3);
          printf ("\n");
        }
    }
  printf ("%u of %u kernels within 25 %% of the measured time\n", ok, n);
}

/* WS_PROFILE_SET="name=value …" changes fields of the profile, to try
 * others. */
static void
override_fields (WsDeviceProfile *p)
{
  const char *text = g_getenv ("WS_PROFILE_SET");
  g_auto (GStrv) items = text ? g_strsplit (text, " ", -1) : NULL;
  const WsProfileField *fields;
  guint n;

  fields = ws_device_profile_fields (&n);
  for (guint i = 0; items && items[i]; i++)
    {
      g_auto (GStrv) kv = g_strsplit (items[i], "=", 2);
      double v;

      if (g_strv_length (kv) != 2)
        continue;
      v = g_ascii_strtod (kv[1], NULL);
      for (guint f = 0; f < n; f++)
        if (g_strcmp0 (fields[f].name, kv[0]) == 0)
          {
            char *base = (char *) p;
            if (fields[f].type == WS_PROFILE_FIELD_INT)
              *(int *) (base + fields[f].offset) = (int) v;
            else if (fields[f].type == WS_PROFILE_FIELD_UINT64)
              *(guint64 *) (base + fields[f].offset) = (guint64) v;
            else if (fields[f].type == WS_PROFILE_FIELD_DOUBLE)
              *(double *) (base + fields[f].offset) = v;
          }
    }
}

int
main (int    argc,
      char **argv)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_build_filename (WS_SOURCE_DATADIR, "..", "tests", "data", "h200", NULL);
  g_autofree char *patterns = g_build_filename (dir, "hierarchy-patterns.jsonl", NULL);
  g_autofree char *kernels = g_build_filename (dir, "hierarchy-kernels.jsonl", NULL);
  g_autofree char *spec_path = g_build_filename (dir, "kernel-specs.txt", NULL);
  g_autoptr (GHashTable) specs = NULL;
  g_autoptr (WsDeviceProfile) profile = ws_device_profile_find (g_getenv ("WS_DEVICE") ? g_getenv ("WS_DEVICE") : "nvidia-h200", &error);

  g_assert_no_error (error);
  override_fields (profile);
  if (g_getenv ("WS_SPEED"))
    {
      const char *one = g_getenv ("WS_SPEED");

      if (strchr (one, '/'))
        run_speed (one, profile);
      else if (g_strcmp0 (one, "presets") == 0)
        run_presets (profile);
      else
        {
          run_speed ("transpose/read-coalesced", profile);
          run_speed ("transpose/write-coalesced", profile);
          run_speed ("transpose/copy", profile);
          run_presets (profile);
        }
      return 0;
    }
  if (g_getenv ("WS_KERNELS"))
    {
      run_kernels (g_str_has_prefix (g_getenv ("WS_KERNELS"), "/") ? g_getenv ("WS_KERNELS") : kernels, profile);
      return 0;
    }
  run_file (patterns, NULL, profile);
  if (g_file_test (spec_path, G_FILE_TEST_EXISTS))
    {
      specs = ws_hier_kernel_specs_load (spec_path, &error);
      g_assert_no_error (error);
      run_file (kernels, specs, profile);
    }
  return 0;
}
