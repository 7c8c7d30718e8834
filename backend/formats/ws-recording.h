/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "ws-measurement.h"
#include "ws-pattern.h"

G_BEGIN_DECLS

/* A device description plus measurements, saved as versioned JSON, so that a
 * recording made on a GPU server opens on a laptop with no GPU. */

#define WS_RECORDING_FORMAT_VERSION 1

/* What a recording may hold, so that no file makes loading slow or large. */
#define WS_RECORDING_MAX_BYTES (256 * 1024 * 1024)
#define WS_RECORDING_MAX_PARAMS 64       /* per measurement */
#define WS_RECORDING_MAX_COUNTERS 256    /* per measurement */
#define WS_RECORDING_MAX_OUTCOMES 16     /* per measurement */
#define WS_RECORDING_MAX_SPANS 4096      /* per measurement's timeline */
#define WS_RECORDING_MAX_LINE_COUNTERS 16384   /* per measurement: counters of a kernel text's lines */

#define WS_RECORDING_ERROR (ws_recording_error_quark ())

typedef enum
{
  WS_RECORDING_ERROR_PARSE,      /* not JSON */
  WS_RECORDING_ERROR_VERSION,    /* a format version this program cannot read */
  WS_RECORDING_ERROR_INVALID,    /* a field missing or of the wrong type, with its path */
} WsRecordingError;

GQuark               ws_recording_error_quark      (void);

#define WS_TYPE_RECORDING (ws_recording_get_type ())
G_DECLARE_FINAL_TYPE (WsRecording, ws_recording, WS, RECORDING, GObject)

WsRecording         *ws_recording_new              (const WsDeviceInfo *device);
/* An empty recording that carries source's device, date and program
 * version, and says that its numbers were not measured here: what a
 * measurement copied from source is written in. */
WsRecording         *ws_recording_new_copy_of      (WsRecording        *source);
/* FALSE for a recording whose numbers were copied from another (its JSON
 * says "not_measured_here": true). */
gboolean             ws_recording_get_measured_here (WsRecording       *self);
WsRecording         *ws_recording_load_file        (GFile              *file,
                                                    GCancellable       *cancellable,
                                                    GError            **error);
WsRecording         *ws_recording_load_data        (const char         *data,
                                                    gssize              length,
                                                    GError            **error);
/* Writes atomically: an existing file is replaced only once the new one is complete. */
gboolean             ws_recording_save_file        (WsRecording        *self,
                                                    GFile              *file,
                                                    GCancellable       *cancellable,
                                                    GError            **error);
char                *ws_recording_to_data          (WsRecording        *self,
                                                    gsize              *length);

const WsDeviceInfo  *ws_recording_get_device       (WsRecording        *self);
const char          *ws_recording_get_program_version (WsRecording     *self);
GDateTime           *ws_recording_get_date         (WsRecording        *self);
guint                ws_recording_get_n_measurements (WsRecording      *self);
const WsMeasurement *ws_recording_get_measurement  (WsRecording        *self,
                                                    guint               i);
void                 ws_recording_add              (WsRecording        *self,
                                                    const WsMeasurement *m);
/* Every measurement of a kernel, in the order recorded. */
GPtrArray           *ws_recording_find             (WsRecording        *self,
                                                    const char         *id);
/* The measurements of a kernel whose parameters agree with params: each
 * one both name has the same value in both, but except (NULL: none), which
 * a sweep varies. In the order recorded; the array is the caller's, the
 * measurements stay the recording's. */
GPtrArray           *ws_recording_lookup           (WsRecording        *self,
                                                    const char         *id,
                                                    const WsParamValue *params,
                                                    guint               n_params,
                                                    const char         *except);
/* The same, with the parameters of a pattern. */
GPtrArray           *ws_recording_lookup_pattern   (WsRecording        *self,
                                                    const char         *id,
                                                    const WsPattern    *pattern,
                                                    const char         *except);

/* The recordings shipped with the program (made on real GPUs), by file
 * name: the installed ones, else the source tree's (data/recordings);
 * empty when there are none. */
GStrv                ws_recording_bundled_paths    (void);
gboolean             ws_recording_is_bundled       (const char         *path);
/* The one the program and the CLI replay without a GPU: the one named
 * WS_DEFAULT_RECORDING in meson.build (h200.json, which measured every
 * preset) where it is among them, else the first by name; NULL when there
 * are none. */
char                *ws_recording_bundled_default  (void);
/* That one, or NULL with an error that says where it was looked for. */
WsRecording         *ws_recording_load_bundled     (GError            **error);

/* One measurement or device description in the recording's JSON, checked
 * as strictly as a file. ws_device_info_to_json () wraps it as
 * {"device": {...}}, which ws_device_info_from_json () reads. */
JsonNode            *ws_measurement_to_json        (const WsMeasurement *m);
WsMeasurement       *ws_measurement_from_json      (JsonNode           *node,
                                                    GError            **error);
JsonNode            *ws_device_info_to_json        (const WsDeviceInfo *info);
WsDeviceInfo        *ws_device_info_from_json      (JsonNode           *node,
                                                    GError            **error);

G_END_DECLS
