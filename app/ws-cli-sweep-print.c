/* SPDX-License-Identifier: GPL-3.0-or-later */
/* warpscope-cli sweep's table: each point measured (or recorded), with the
 * model's time beside it where the device is known. */
#include "ws-config.h"
#include "ws-cli-measuring.h"
#include "ws-truth.h"
#if WS_HAVE_FIGURES
#include "ws-plot-model.h"
#endif

#include <math.h>
#include <stdio.h>

/* The profile the model predicts the points with: the session's (--device's,
 * else this GPU's calibration or the profile shipped for it, else the
 * recording's GPU's). Defaults alone predict no column: nothing is known
 * of the device the points were measured on. */
static const WsDeviceProfile *
sweep_profile (WsSession *session)
{
  if (ws_session_get_profile_origin (session) == WS_PROFILE_ORIGIN_DEFAULT)
    return NULL;
  return ws_session_get_device_profile (session);
}

/* The model's time for a point, in ms (NAN where it has none): the plots'
 * model of the same launch, so that a sweep after the preset's plot, or
 * again, finds it in the model's cache where it would follow every launch
 * of the sweep once more. */
static double
predict_point (const WsMeasurement   *m,
               const WsDeviceProfile *profile)
{
#if WS_HAVE_FIGURES
  const WsPreset *preset = NULL;
  g_autoptr (WsPattern) p = ws_truth_measurement_pattern (m, &preset);
  g_autoptr (WsPlotModel) model = p ? ws_plot_model_compute (preset, p, profile, NULL, NULL) : NULL;

  return model ? model->predicted_s * 1e3 : NAN;
#else
  /* built without the plots: the same model, kept by no cache */
  return ws_truth_predict_measurement (m, profile);
#endif
}

void
ws_cli_print_sweep_table (const char *param,
                   GPtrArray  *results,
                   WsSession  *session)
{
  const WsDeviceProfile *profile = sweep_profile (session);

  printf ("%12s %12s %12s %12s %12s %6s %8s", param, "median ms", "min ms", "max ms", "GB/s", "regs", "warps/SM");
  if (profile)
    printf (" %12s", "model ms");
  printf ("\n");
  for (guint i = 0; i < results->len; i++)
    {
      const WsMeasurement *m = g_ptr_array_index (results, i);
      gint64 v = 0;

      ws_measurement_get_param (m, param, &v);
      printf ("%12" G_GINT64_FORMAT " %12.4f %12.4f %12.4f %12.1f %6d %8d", v, m->median_ms, m->min_ms, m->max_ms,
              m->bandwidth_gbs, m->registers, m->warps_per_sm);
      if (profile)
        {
          double predicted = predict_point (m, profile);

          if (isnan (predicted))
            printf (" %12s", "—");
          else
            printf (" %12.4f", predicted);
        }
      printf ("\n");
    }
  if (profile && ws_session_get_profile_origin (session) == WS_PROFILE_ORIGIN_CALIBRATED)
    printf ("model: the hierarchy's predicted time on %s (%s)\n", profile->name, ws_session_get_profile_source (session));
  else if (profile)
    printf ("model: the hierarchy's predicted time on %s (data/devices/%s.json)\n", profile->name, profile->id);
}
