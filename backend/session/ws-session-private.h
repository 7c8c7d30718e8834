/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/* What the parts of WsSession share: ws-session.c (the object, the GPU,
 * recordings), ws-session-measure.c (measurements, sweeps, counters) and
 * ws-session-compare.c (the comparison). */

#include "ws-session.h"

G_BEGIN_DECLS

enum
{
  WS_SESSION_PROP_0,
  WS_SESSION_PROP_BACKEND,
  WS_SESSION_PROP_PROBED,
  WS_SESSION_PROP_DEVICE,
  WS_SESSION_PROP_DEVICE_PROFILE,
  WS_SESSION_PROP_SAMPLES,
  WS_SESSION_PROP_COLD,
  WS_SESSION_PROP_RECORDING,
  WS_SESSION_PROP_RECORDING_LOADED,
  WS_SESSION_PROP_SWEEPING,
  WS_SESSION_PROP_MEASURE_COMPARISON,
  WS_SESSION_PROP_TARGET,
  WS_SESSION_PROP_CONNECTION,
  WS_SESSION_PROP_CONNECTION_DETAIL,
  WS_SESSION_PROP_HELLO,
  WS_SESSION_PROP_CALIBRATING,
  WS_SESSION_PROP_SWEEP,
  WS_SESSION_N_PROPS
};

enum
{
  WS_SESSION_SIGNAL_MEASURED,
  WS_SESSION_SIGNAL_MEASURE_PROGRESS,
  WS_SESSION_SIGNAL_SWEEP_PROGRESS,
  WS_SESSION_SIGNAL_MEASURE_FAILED,
  WS_SESSION_SIGNAL_RECORDINGS_CHANGED,
  WS_SESSION_SIGNAL_COMPARISON_CHANGED,
  WS_SESSION_SIGNAL_CALIBRATION_DONE,
  WS_SESSION_N_SIGNALS
};

extern GParamSpec *ws_session_properties[WS_SESSION_N_PROPS];
extern guint ws_session_signals[WS_SESSION_N_SIGNALS];

struct _WsSession
{
  GObject parent_instance;

  WsBackend *backend;
  GCancellable *cancellable;       /* everything the session started; cancelled when it goes */

  /* the GPU */
  gboolean probing;
  gboolean probed;
  WsDeviceInfo *device;            /* NULL: none (probe_error says why) */
  GError *probe_error;

  /* the device profile (ws-session-profile.c) */
  WsDeviceProfile *profile;
  WsProfileOrigin profile_origin;
  char *profile_source;
  WsDeviceProfile *chosen;         /* what the user gave, loaded; NULL: the policy's */
  guint calibrating;               /* calibrations under way */
  char *calibration_failed;        /* the GPU whose calibration failed: not again by itself */
  gboolean auto_calibrate;

  /* how the GPU is reached (ws-session-gpu.c) */
  WsSessionConnection connection;
  char *connection_detail;
  GError *connection_error;
  WsWorkerHello *hello;
  GCancellable *connect_cancellable;
  gulong state_handler;

  /* how it measures */
  guint samples;
  gboolean cold;

  /* recordings */
  char *recording_path;            /* NULL: the bundled one */
  WsRecording *recording;
  GError *recording_error;
  gboolean recording_loaded;
  gboolean recording_loading;      /* a read of the main recording is under way */
  guint recording_serial;          /* a read that a newer recording overtook is dropped */
  GPtrArray *compared;             /* WsRecording, beside the main one */

  /* measurements */
  GPtrArray *live;                 /* WsLiveEntry, newest last */
  guint sweeps;                    /* under way */
  WsSweep *sweep;                  /* the latest made through the session (ws-sweep.c) */
  gpointer model;                  /* the model's thread and what it keeps (ws-session-model.c) */

  /* the comparison (ws-session-compare.c) */
  GPtrArray *comparison;           /* WsCompareItem */
  WsCompareCost costs[WS_COMPARE_MAX];
  gboolean costed;
  gboolean measure_comparison;
  gboolean comparison_measuring;
  GCancellable *comparison_cancellable;
};

/* ws-session-gpu.c */
/* Starts the worker, then probes (probe_done); or probes at once where no
 * worker is needed. */
void     ws_session_connect_and_probe   (WsSession           *self,
                                         GAsyncReadyCallback  probe_done);
/* A job failed: a lost worker changes the connection. */
void     ws_session_note_failure        (WsSession           *self,
                                         const GError        *error);
/* Follows the backend's worker as it starts. */
void     ws_session_gpu_watch           (WsSession           *self);
void     ws_session_gpu_finalize        (WsSession           *self);
void     ws_session_gpu_install         (GParamSpec         **properties);
gboolean ws_session_gpu_get_property    (WsSession           *self,
                                         guint                prop_id,
                                         GValue              *value);

/* ws-session-measure.c */
/* ws_session_sweep_async, with a hook that hears of each point. */
void     ws_session_sweep_run           (WsSession              *self,
                                         const WsMeasureRequest *request,
                                         const char             *param,
                                         GArray                 *values,
                                         WsBackendProgress       hook,
                                         gpointer                hook_data,
                                         GCancellable           *cancellable,
                                         GAsyncReadyCallback     callback,
                                         gpointer                user_data);
/* The key a sweep's points are kept under. */
char    *ws_session_sweep_key           (const WsMeasureRequest *request,
                                         const char             *param);

/* ws-session-model.c */
void     ws_session_model_finalize      (WsSession *self);

/* ws-session-profile.c */
/* Chooses the profile again, unless the GPU or the main recording is still
 * being looked for. */
void     ws_session_update_profile      (WsSession *self);
void     ws_session_profile_finalize    (WsSession *self);

/* ws-session-compare.c */
/* Measures the next item not measured yet, if it may. */
void     ws_session_compare_measure     (WsSession *self);
void     ws_session_compare_dispose     (WsSession *self);

G_END_DECLS
