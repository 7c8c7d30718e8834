/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "ws-backend.h"
#include "ws-comparison.h"
#include "ws-device-calibrate.h"
#include "ws-presets.h"
#include "ws-recording.h"
#include "ws-sweep.h"

G_BEGIN_DECLS

/* What one user is looking at and measuring (docs/DESIGN.md, "The session holds the policy"): the
 * backend and the GPU it found, that GPU's profile, the recordings, what
 * was measured now, the sweep under way and the comparison. No widgets:
 * the window shows a session, warpscope-cli runs one, the tests drive one.
 *
 * Every measurement goes through the backend thread to the GPU worker
 * process, and comes back through one callback that keeps it among the live
 * measurements and emits "measured". */

#define WS_TYPE_SESSION (ws_session_get_type ())
G_DECLARE_FINAL_TYPE (WsSession, ws_session, WS, SESSION, GObject)

/* A measurement made in this session. */
typedef struct
{
  char *key;                 /* the pattern less its sweep parameter (ws_pattern_sweep_key), or a
                              * kernel of one's own's ws_kernel_spec_live_key */
  char *preset_id;           /* the preset whose kernel ran; NULL for a generated kernel */
  double x;                  /* the sweep parameter's value, NAN without one */
  WsMeasurement *m;
} WsLiveEntry;

void                 ws_live_entry_free               (WsLiveEntry            *entry);

WsSession           *ws_session_new                   (WsBackend              *backend);
WsBackend           *ws_session_get_backend           (WsSession              *self);

/* The GPU: looked for once, on the backend thread; "probed" turns TRUE
 * when the answer is in, with a device or the reason there is none. */
void                 ws_session_probe                 (WsSession              *self);
gboolean             ws_session_get_probed            (WsSession              *self);
const WsDeviceInfo  *ws_session_get_device            (WsSession              *self);
const GError        *ws_session_get_probe_error       (WsSession              *self);
/* Where the GPU is (ws-worker-target.h), and how far the session got in
 * reaching it. The GPU worker is started, and the handshake made, by the
 * first probe; a worker that ends is started again by the next job. */
typedef enum
{
  WS_SESSION_CONNECTION_NONE,        /* not tried yet */
  WS_SESSION_CONNECTION_CONNECTING,  /* starting the worker: logging in, asking Slurm */
  WS_SESSION_CONNECTION_QUEUED,      /* the Slurm job waits in the queue: the detail is its id */
  WS_SESSION_CONNECTION_CONNECTED,   /* the handshake is in (ws_session_get_hello) */
  WS_SESSION_CONNECTION_FAILED,      /* it could not be reached: the error says why */
  WS_SESSION_CONNECTION_LOST,        /* it answered, then went: the next measurement connects again */
} WsSessionConnection;

/* Measures where the backend's GPU worker runs from now on: the device is
 * looked for again there; live measurements and recordings stay. */
void                 ws_session_set_backend           (WsSession              *self,
                                                       WsBackend              *backend);
/* The same with a backend of its own, for target. */
void                 ws_session_set_target            (WsSession              *self,
                                                       const WsGpuTarget      *target);
const WsGpuTarget   *ws_session_get_target            (WsSession              *self);
/* "connection" follows it, and "connection-detail" (a queued job's id). */
WsSessionConnection  ws_session_get_connection        (WsSession              *self);
const char          *ws_session_get_connection_detail (WsSession              *self);
/* Why the worker could not be reached, or went (FAILED and LOST), or NULL. */
const GError        *ws_session_get_connection_error  (WsSession              *self);
/* The worker's handshake (host, GPUs, the one chosen), once connected. */
const WsWorkerHello *ws_session_get_hello             (WsSession              *self);
/* Stops waiting for the worker (a Slurm job is withdrawn). */
void                 ws_session_cancel_connecting     (WsSession              *self);
/* Forgets the device and the reason there was none, and looks again. */
void                 ws_session_reconnect             (WsSession              *self);
/* "gpu01 over ssh: NVIDIA H100 (sm_90, 80 GiB)", "this computer: no usable
 * GPU (…)", "Slurm partition gpu: job 42 waits in the queue": where
 * measurements run, in one line. */
char                *ws_session_describe_gpu          (WsSession              *self);
/* The machine in a word: "this computer", "gpu01", a Slurm node by its host
 * once it answered, "Slurm (gpu)" before. */
char                *ws_session_dup_place             (WsSession              *self);

/* The device profile the model uses (ws-session-profile.c): one policy
 * for the window and warpscope-cli alike, looked at in this order. */
typedef enum
{
  WS_PROFILE_ORIGIN_NONE,        /* none yet: the GPU or the main recording is still being looked for */
  WS_PROFILE_ORIGIN_CHOSEN,      /* the file or id the user gave (ws_session_choose_profile) */
  WS_PROFILE_ORIGIN_CALIBRATED,  /* this GPU's calibration, kept in the user's cache */
  WS_PROFILE_ORIGIN_SHIPPED,     /* the profile Warpscope ships for the GPU here */
  WS_PROFILE_ORIGIN_RECORDING,   /* the profile Warpscope ships for the main recording's GPU */
  WS_PROFILE_ORIGIN_DEFAULT,     /* cautious defaults: nothing is known of the device */
} WsProfileOrigin;

/* The profile, or NULL while the GPU or the main recording is being looked
 * for (origin NONE); "device-profile" is notified when it, or where it
 * comes from, changes. */
const WsDeviceProfile *ws_session_get_device_profile  (WsSession              *self);
WsProfileOrigin      ws_session_get_profile_origin    (WsSession              *self);
/* Where it comes from, in a few words: "the profile shipped for this GPU",
 * "calibrated on this GPU on 24/11/2026"; NULL without a profile. */
const char          *ws_session_get_profile_source    (WsSession              *self);
/* The profile to use whatever the GPU: an id of data/devices/ or a file
 * (ws_device_profile_find); NULL goes back to the policy. FALSE, with the
 * error naming what was given, when it does not load: nothing changes. */
gboolean             ws_session_choose_profile        (WsSession              *self,
                                                       const char             *id_or_path,
                                                       GError                **error);

/* A calibration, and what the session made of it. */
typedef struct
{
  WsCalibration *calibration;      /* what the GPU's microkernels measured */
  WsCalibratedProfile *calibrated; /* the profile it makes over base */
  WsDeviceProfile *base;           /* the fields not measured came from it; NULL: defaults */
  char *base_name;                 /* "data/devices/nvidia-h200.json", or NULL */
  char *kept;                      /* the file in the user's cache the session reads it from */
} WsSessionCalibration;

void                 ws_session_calibration_free      (WsSessionCalibration   *calibration);
/* Where a GPU's calibration is kept (id: the slug of its name), for the
 * window and warpscope-cli alike. */
char                *ws_session_calibration_path      (const char             *id);
/* Calibrates the GPU in use with the worker's microkernels, over base
 * (NULL: the profile shipped for the device, else defaults; base_name says
 * where base came from), keeps the profile in the user's cache and uses it
 * from then on. "calibrating" is TRUE meanwhile; "calibration-done" says
 * how it went (a GError, or NULL), to whoever asked or not. */
void                 ws_session_calibrate_async       (WsSession              *self,
                                                       const WsDeviceProfile  *base,
                                                       const char             *base_name,
                                                       WsBackendProgress       progress,
                                                       gpointer                progress_data,
                                                       GDestroyNotify          progress_destroy,
                                                       GCancellable           *cancellable,
                                                       GAsyncReadyCallback     callback,
                                                       gpointer                user_data);
WsSessionCalibration *ws_session_calibrate_finish     (WsSession              *self,
                                                       GAsyncResult           *result,
                                                       GError                **error);
/* The same for a calibration made elsewhere (it is taken): kept in the
 * cache, and used when its GPU is the one in use. */
WsSessionCalibration *ws_session_keep_calibration     (WsSession              *self,
                                                       WsCalibration          *calibration,
                                                       const WsDeviceProfile  *base,
                                                       const char             *base_name,
                                                       GError                **error);
gboolean             ws_session_get_calibrating       (WsSession              *self);
/* A GPU that nothing is known of (no calibration kept, no profile shipped)
 * is calibrated by itself, once: what the window wants, and not a command
 * that was asked for something else. Off by default. */
void                 ws_session_set_auto_calibrate    (WsSession              *self,
                                                       gboolean                auto_calibrate);

/* How measurements are taken: at least 10 samples, L2 flushed before each
 * or not. The window binds them to its settings. */
guint                ws_session_get_samples           (WsSession              *self);
void                 ws_session_set_samples           (WsSession              *self,
                                                       guint                   samples);
gboolean             ws_session_get_cold              (WsSession              *self);
void                 ws_session_set_cold              (WsSession              *self,
                                                       gboolean                cold);

/* Recordings: the main one, and up to three more plotted beside it.
 * "recordings-changed" follows every change. */
/* Reads the main recording on a thread (path NULL: the bundled one);
 * "recording-loaded" turns TRUE when done, with it or with the reason.
 * A recording set or opened in its place meanwhile wins. */
void                 ws_session_load_recording        (WsSession              *self,
                                                       const char             *path);
/* Sets the main recording, read elsewhere (path may be NULL). */
void                 ws_session_set_recording         (WsSession              *self,
                                                       WsRecording            *recording,
                                                       const char             *path);
gboolean             ws_session_get_recording_loaded  (WsSession              *self);
WsRecording         *ws_session_get_recording         (WsSession              *self);
const char          *ws_session_get_recording_path    (WsSession              *self);
const GError        *ws_session_get_recording_error   (WsSession              *self);
/* Reads a recording on a thread; once read it replaces the main one, or
 * joins those beside it (the oldest leaves after three). A file that is no
 * recording changes nothing. */
void                 ws_session_open_recording_async  (WsSession              *self,
                                                       const char             *path,
                                                       gboolean                beside,
                                                       GCancellable           *cancellable,
                                                       GAsyncReadyCallback     callback,
                                                       gpointer                user_data);
WsRecording         *ws_session_open_recording_finish (WsSession              *self,
                                                       GAsyncResult           *result,
                                                       GError                **error);
/* The recordings beside the main one (WsRecording; may be empty). */
GPtrArray           *ws_session_get_compared          (WsSession              *self);
void                 ws_session_forget_compared       (WsSession              *self);
/* Every recording, the main one first; the array does not own them. */
GPtrArray           *ws_session_dup_recordings        (WsSession              *self);
/* What this session measured, as a recording of its GPU; with nothing
 * measured, the main recording; NULL with an error if neither. */
WsRecording         *ws_session_to_recording          (WsSession              *self,
                                                       GError                **error);

/* Live measurements: what was measured now, newest last (WsLiveEntry). */
GPtrArray           *ws_session_get_live              (WsSession              *self);
/* The newest of key at x (NAN: at any x), or NULL. */
const WsLiveEntry   *ws_session_find_live             (WsSession              *self,
                                                       const char             *key,
                                                       double                  x);
/* The newest of a preset's kernel at x (NAN: at any x), or NULL. */
const WsLiveEntry   *ws_session_find_live_preset      (WsSession              *self,
                                                       const char             *preset_id,
                                                       double                  x);
/* The request that measures pattern: the preset's own kernel, at its own
 * sizes but the pattern's value of its sweep parameter, when the pattern
 * is the preset's but for that value; else a kernel generated from the
 * pattern. preset may be NULL. With the session's samples and cache. */
WsMeasureRequest    *ws_session_request_for           (WsSession              *self,
                                                       const WsPreset         *preset,
                                                       const WsPattern        *pattern,
                                                       gboolean                counters);
/* Measures on the GPU. The measurement joins the live ones (under the key
 * of request->pattern, or of the preset's pattern at request->params) and
 * "measured" is emitted before callback runs; "measure-progress" reports
 * the samples. */
void                 ws_session_measure_async         (WsSession              *self,
                                                       const WsMeasureRequest *request,
                                                       GCancellable           *cancellable,
                                                       GAsyncReadyCallback     callback,
                                                       gpointer                user_data);
WsMeasurement       *ws_session_measure_finish        (WsSession              *self,
                                                       GAsyncResult           *result,
                                                       GError                **error);

/* A sweep: request once per value of param, point by point
 * ("sweep-progress" brings each); when every point is in, they join the
 * live measurements. values NULL: the kernel's standard sweep. */
void                 ws_session_sweep_async           (WsSession              *self,
                                                       const WsMeasureRequest *request,
                                                       const char             *param,
                                                       GArray                 *values,
                                                       GCancellable           *cancellable,
                                                       GAsyncReadyCallback     callback,
                                                       gpointer                user_data);
GPtrArray           *ws_session_sweep_finish          (WsSession              *self,
                                                       GAsyncResult           *result,
                                                       GError                **error);
/* A sweep of request over values of param (NULL: the kernel's standard
 * ones) on the GPU, not started yet (ws_sweep_start); it becomes the
 * session's "sweep". */
WsSweep             *ws_session_new_sweep             (WsSession              *self,
                                                       const WsMeasureRequest *request,
                                                       const char             *param,
                                                       GArray                 *values);
/* Recorded points of a sweep (WsMeasurement, copied), shown one every
 * interval_ms once started: what a sweep shows without a GPU. */
WsSweep             *ws_session_new_replay            (WsSession              *self,
                                                       GPtrArray              *recorded,
                                                       const char             *param,
                                                       guint                   interval_ms);
/* The latest sweep made through the session ("sweep"), or NULL. */
WsSweep             *ws_session_get_sweep             (WsSession              *self);
/* A sweep that failed (a lost connection) keeps the points it measured
 * among the live ones; these are the values (of values, NULL: the standard
 * sweep) that no live point of the sweep has yet: what resuming measures. */
GArray              *ws_session_sweep_values_left     (WsSession              *self,
                                                       const WsMeasureRequest *request,
                                                       const char             *param,
                                                       GArray                 *values);
gboolean             ws_session_get_sweeping          (WsSession              *self);

/* Work for the model (ws-session-model.c): done on the session's one
 * model thread, below the main thread's priority, one job after another.
 * A job with a key is done once: its result is kept (the newest few) and
 * handed out again through copy (g_array_ref, say); asked for again while
 * it runs, the same job answers both. func returns the result, or NULL
 * with an error; it may run after the caller has given up, and must check
 * cancellable. */
typedef gpointer (*WsModelJob) (gpointer      data,
                                GCancellable *cancellable,
                                GError      **error);

void                 ws_session_model_async           (WsSession              *self,
                                                       const char             *key,
                                                       WsModelJob              func,
                                                       gpointer                data,
                                                       GDestroyNotify          data_free,
                                                       GBoxedCopyFunc          copy,
                                                       GDestroyNotify          result_free,
                                                       GCancellable           *cancellable,
                                                       GAsyncReadyCallback     callback,
                                                       gpointer                user_data);
/* The result, the caller's to free with the job's result_free. */
gpointer             ws_session_model_finish          (WsSession              *self,
                                                       GAsyncResult           *result,
                                                       GError                **error);
/* The result kept for key (a copy), or NULL. */
gpointer             ws_session_model_lookup          (WsSession              *self,
                                                       const char             *key);

/* The hardware counters of one launch of a pattern's generated kernel
 * (warpscope-cli truth); hold keeps the profiler for the next one. */
void                 ws_session_count_async           (WsSession              *self,
                                                       const WsPattern        *pattern,
                                                       gboolean                hold,
                                                       GCancellable           *cancellable,
                                                       GAsyncReadyCallback     callback,
                                                       gpointer                user_data);
WsMeasurement       *ws_session_count_finish          (WsSession              *self,
                                                       GAsyncResult           *result,
                                                       GError                **error);

/* The comparison: two to four "ID[@N][:NAME=VALUE]" or
 * "FILE.cu[:KERNEL][@LINE]" specs (ws-comparison.h). The model costs
 * them on a thread; while "measure-comparison" is TRUE, the GPU measures
 * the items it has not measured yet, one after another.
 * "comparison-changed" follows every change. */
gboolean             ws_session_set_comparison        (WsSession              *self,
                                                       const char * const     *specs,
                                                       GError                **error);
/* WsCompareItem, or NULL before a comparison is set. */
GPtrArray           *ws_session_get_comparison        (WsSession              *self);
/* One per item, or NULL while the model costs them. */
const WsCompareCost *ws_session_get_comparison_costs  (WsSession              *self);
void                 ws_session_set_measure_comparison (WsSession             *self,
                                                       gboolean                measure);
/* The costs are in, and no measurement of the comparison is under way. */
gboolean             ws_session_comparison_is_settled (WsSession              *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsLiveEntry, ws_live_entry_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsSessionCalibration, ws_session_calibration_free)

G_END_DECLS
