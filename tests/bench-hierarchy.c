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

#include <math.h>
#include <stdio.h>
#include <string.h>
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

/* The speed target: a 10000 × 10000 transpose, hierarchy included, on one
 * core (the hierarchy runs on the calling thread). */
static void
run_speed (const char            *id,
           const WsDeviceProfile *profile)
{
  g_autoptr (WsPattern) p = ws_preset_build (ws_preset_lookup (id));
  g_autoptr (GError) error = NULL;
  g_autoptr (WsHierarchy) h = NULL;
  double t0;

  ws_pattern_set_param (p, "N", 10000, NULL);
  ws_pattern_set_grid (p, WS_DIM3 (313, 313, 1), NULL);
  t0 = cpu_seconds ();
  h = ws_hierarchy_analyze (p, profile, NULL, NULL, &error);
  g_assert_no_error (error);
  t0 = cpu_seconds () - t0;
  printf ("%-28s 10000 × 10000 %10" G_GUINT64_FORMAT " warp instructions in %.3f s of CPU: %6.2f M/s\n",
          id, h->launch->total.instructions, t0, h->launch->total.instructions / t0 / 1e6);
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
  g_autoptr (WsDeviceProfile) profile = ws_device_profile_find ("nvidia-h200", &error);

  g_assert_no_error (error);
  override_fields (profile);
  if (g_getenv ("WS_SPEED"))
    {
      const char *one = g_getenv ("WS_SPEED");

      if (strchr (one, '/'))
        run_speed (one, profile);
      else
        {
          run_speed ("transpose/read-coalesced", profile);
          run_speed ("transpose/write-coalesced", profile);
          run_speed ("transpose/copy", profile);
        }
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
