/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

#include "ws-device-profile.h"
#include "ws-gpu.h"

G_BEGIN_DECLS

/* A calibration (ws_gpu_calibrate ()) as the GPU worker sends it, and the
 * device profile it makes: the fields it measured or queried, over a base
 * that gives the rest — the profile shipped for the same device, or
 * defaults — and, per field, where its value came from.
 *
 * The file is a device profile (ws-device-json.h) with one member more,
 * which the loader ignores:
 *   "calibration": {"date": …, "base": …, "measured": [FIELD…],
 *                   "fields": {FIELD: "measured: …" | "queried: …" | "from …" | "default: …"}} */

typedef struct
{
  char *name;                  /* the device's, as the driver gives it */
  GArray *values;              /* WsCalibrated, field names the profile's own */
} WsCalibration;

WsCalibration   *ws_calibration_new          (const char            *name,
                                              GArray                *values);
void             ws_calibration_free         (WsCalibration         *calibration);
JsonNode        *ws_calibration_to_json      (const WsCalibration   *calibration);
/* Untrusted input: unknown fields and values that are not numbers are errors. */
WsCalibration   *ws_calibration_from_json    (JsonNode              *node,
                                              GError               **error);
const WsCalibrated *ws_calibration_lookup    (const WsCalibration   *calibration,
                                              const char            *field);

/* What a device profile can start from when none ships for the device:
 * cautious values of a recent data-centre GPU, sized by what the
 * calibration queried. */
WsDeviceProfile *ws_device_profile_defaults  (const WsCalibration   *calibration);

typedef struct
{
  WsDeviceProfile *profile;
  JsonNode *provenance;        /* the "calibration" member */
  GPtrArray *notes;            /* measurements not used, and why */
} WsCalibratedProfile;

/* base (NULL: defaults) with the calibration's fields in place; base_name
 * says where base came from ("data/devices/nvidia-h200.json"). A value out
 * of its field's range keeps the base's, with a note. */
WsCalibratedProfile *ws_calibrated_profile_new  (const WsCalibration   *calibration,
                                                 const WsDeviceProfile *base,
                                                 const char            *base_name,
                                                 const char            *date,
                                                 GError               **error);
void                 ws_calibrated_profile_free (WsCalibratedProfile   *cp);
/* The file's text: the profile and its "calibration" member. */
char                *ws_calibrated_profile_to_data (const WsCalibratedProfile *cp);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsCalibration, ws_calibration_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsCalibratedProfile, ws_calibrated_profile_free)

G_END_DECLS
