/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Recordings as versioned JSON. Reading is strict: every field is checked,
 * and an error names the field's path and what is wrong with it, e.g.
 * “measurements[3].median_ms: expected a number, found a string”. */
#include "ws-config.h"
#include "ws-recording-private.h"
#include "ws-file-reader.h"
#include "ws-json.h"
#include "ws-file-writer.h"

#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#define FORMAT_NAME "warpscope-recording"

struct _WsRecording
{
  GObject parent_instance;
  WsDeviceInfo *device;
  char *program_version;
  GDateTime *date;
  gboolean copied;             /* its numbers were copied from another recording, not measured here */
  GPtrArray *measurements;     /* WsMeasurement */
};

G_DEFINE_FINAL_TYPE (WsRecording, ws_recording, G_TYPE_OBJECT)

G_DEFINE_QUARK (ws-recording-error-quark, ws_recording_error)

static void
ws_recording_finalize (GObject *object)
{
  WsRecording *self = WS_RECORDING (object);

  g_clear_pointer (&self->device, ws_device_info_free);
  g_clear_pointer (&self->program_version, g_free);
  g_clear_pointer (&self->date, g_date_time_unref);
  g_clear_pointer (&self->measurements, g_ptr_array_unref);
  G_OBJECT_CLASS (ws_recording_parent_class)->finalize (object);
}

static void
ws_recording_class_init (WsRecordingClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = ws_recording_finalize;
}

static void
ws_recording_init (WsRecording *self)
{
  self->measurements = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_measurement_free);
}

WsRecording *
ws_recording_new (const WsDeviceInfo *device)
{
  WsRecording *self;

  g_return_val_if_fail (device != NULL, NULL);

  self = g_object_new (WS_TYPE_RECORDING, NULL);
  self->device = ws_device_info_copy (device);
  self->program_version = g_strdup (WS_VERSION);
  self->date = g_date_time_new_now_utc ();
  return self;
}

WsRecording *
ws_recording_new_copy_of (WsRecording *source)
{
  WsRecording *self;

  g_return_val_if_fail (WS_IS_RECORDING (source), NULL);

  self = g_object_new (WS_TYPE_RECORDING, NULL);
  self->device = ws_device_info_copy (source->device);
  self->program_version = g_strdup (source->program_version);
  self->date = g_date_time_ref (source->date);
  self->copied = TRUE;
  return self;
}

gboolean
ws_recording_get_measured_here (WsRecording *self)
{
  g_return_val_if_fail (WS_IS_RECORDING (self), FALSE);
  return !self->copied;
}

const WsDeviceInfo *
ws_recording_get_device (WsRecording *self)
{
  g_return_val_if_fail (WS_IS_RECORDING (self), NULL);
  return self->device;
}

const char *
ws_recording_get_program_version (WsRecording *self)
{
  g_return_val_if_fail (WS_IS_RECORDING (self), NULL);
  return self->program_version;
}

GDateTime *
ws_recording_get_date (WsRecording *self)
{
  g_return_val_if_fail (WS_IS_RECORDING (self), NULL);
  return self->date;
}

guint
ws_recording_get_n_measurements (WsRecording *self)
{
  g_return_val_if_fail (WS_IS_RECORDING (self), 0);
  return self->measurements->len;
}

const WsMeasurement *
ws_recording_get_measurement (WsRecording *self,
                              guint        i)
{
  g_return_val_if_fail (WS_IS_RECORDING (self), NULL);
  g_return_val_if_fail (i < self->measurements->len, NULL);
  return g_ptr_array_index (self->measurements, i);
}

void
ws_recording_add (WsRecording         *self,
                  const WsMeasurement *m)
{
  g_return_if_fail (WS_IS_RECORDING (self));
  g_return_if_fail (m != NULL);
  g_ptr_array_add (self->measurements, ws_measurement_copy (m));
}

/* The container is the caller's; the measurements stay the recording's. */
GPtrArray *
ws_recording_find (WsRecording *self,
                   const char  *id)
{
  GPtrArray *found = g_ptr_array_new ();

  g_return_val_if_fail (WS_IS_RECORDING (self), found);
  g_return_val_if_fail (id != NULL, found);
  for (guint i = 0; i < self->measurements->len; i++)
    {
      WsMeasurement *m = g_ptr_array_index (self->measurements, i);
      if (g_strcmp0 (m->id, id) == 0)
        g_ptr_array_add (found, m);
    }
  return found;
}

static gboolean
params_agree (const WsMeasurement *m,
              const WsParamValue  *params,
              guint                n_params,
              const char          *except)
{
  for (guint i = 0; i < n_params; i++)
    {
      gint64 v;

      if (g_strcmp0 (params[i].name, except) != 0 &&
          ws_measurement_get_param (m, params[i].name, &v) && v != params[i].value)
        return FALSE;
    }
  return TRUE;
}

GPtrArray *
ws_recording_lookup (WsRecording        *self,
                     const char         *id,
                     const WsParamValue *params,
                     guint               n_params,
                     const char         *except)
{
  GPtrArray *found = ws_recording_find (self, id);

  g_return_val_if_fail (params != NULL || n_params == 0, found);

  for (guint i = found->len; i > 0; i--)
    if (!params_agree (g_ptr_array_index (found, i - 1), params, n_params, except))
      g_ptr_array_remove_index (found, i - 1);
  return found;
}

GPtrArray *
ws_recording_lookup_pattern (WsRecording     *self,
                             const char      *id,
                             const WsPattern *pattern,
                             const char      *except)
{
  guint n = ws_pattern_get_n_params (pattern);
  g_autofree WsParamValue *params = g_new0 (WsParamValue, MAX (n, 1));

  for (guint i = 0; i < n; i++)
    {
      const WsParam *p = ws_pattern_get_param_nth (pattern, i);
      params[i] = (WsParamValue) { p->name, p->value };
    }
  return ws_recording_lookup (self, id, params, n, except);
}

/* ------------------------------------------------------------------ */
/* Writing                                                            */
/* ------------------------------------------------------------------ */

static void
build_device (JsonBuilder        *b,
              const WsDeviceInfo *d)
{
  json_builder_set_member_name (b, "device");
  json_builder_begin_object (b);
  ws_json_add_string (b, "name", d->name);
  ws_json_add_int (b, "cc_major", d->cc_major);
  ws_json_add_int (b, "cc_minor", d->cc_minor);
  ws_json_add_int (b, "sm_count", d->sm_count);
  ws_json_add_int (b, "global_mem_bytes", d->global_mem_bytes);
  ws_json_add_int (b, "l2_bytes", d->l2_bytes);
  ws_json_add_int (b, "shared_per_sm", d->shared_per_sm);
  ws_json_add_int (b, "shared_per_block_optin", d->shared_per_block_optin);
  ws_json_add_int (b, "registers_per_sm", d->registers_per_sm);
  ws_json_add_int (b, "max_threads_per_sm", d->max_threads_per_sm);
  ws_json_add_int (b, "max_blocks_per_sm", d->max_blocks_per_sm);
  ws_json_add_int (b, "sm_clock_mhz", d->sm_clock_mhz);
  ws_json_add_int (b, "mem_clock_mhz", d->mem_clock_mhz);
  ws_json_add_int (b, "mem_bus_bits", d->mem_bus_bits);
  ws_json_add_double (b, "peak_bandwidth_gbs", d->peak_bandwidth_gbs);
  if (d->l2_persisting_max_bytes > 0)
    ws_json_add_int (b, "l2_persisting_max_bytes", d->l2_persisting_max_bytes);
  ws_json_add_string (b, "driver_version", d->driver_version);
  ws_json_add_string (b, "runtime_version", d->runtime_version);
  if (d->host)
    {
      ws_json_add_string (b, "host", d->host);
      ws_json_add_int (b, "gpu_index", d->gpu_index);
    }
  if (d->address)
    ws_json_add_string (b, "address", d->address);
  json_builder_end_object (b);
}

static void
build_measurement (JsonBuilder         *b,
                   const WsMeasurement *m)
{
  json_builder_begin_object (b);
  ws_json_add_string (b, "id", m->id);
  ws_json_add_string (b, "description", m->description);
  json_builder_set_member_name (b, "params");
  json_builder_begin_object (b);
  for (guint i = 0; i < m->params->len; i++)
    {
      const WsParamValue *p = &g_array_index (m->params, WsParamValue, i);
      ws_json_add_int (b, p->name, p->value);
    }
  json_builder_end_object (b);
  json_builder_set_member_name (b, "samples_ms");
  json_builder_begin_array (b);
  for (guint i = 0; i < m->samples_ms->len; i++)
    ws_json_add_double_value (b, g_array_index (m->samples_ms, double, i));
  json_builder_end_array (b);
  ws_json_add_double (b, "median_ms", m->median_ms);
  ws_json_add_double (b, "min_ms", m->min_ms);
  ws_json_add_double (b, "max_ms", m->max_ms);
  ws_json_add_int (b, "bytes", m->bytes);
  ws_json_add_double (b, "bandwidth_gbs", m->bandwidth_gbs);
  ws_json_add_bool (b, "cold", m->cold);
  ws_json_add_int (b, "sm_clock_mhz", m->sm_clock_mhz);
  ws_json_add_int (b, "registers", m->registers);
  ws_json_add_int (b, "local_bytes", m->local_bytes);
  ws_json_add_int (b, "shared_bytes", m->shared_bytes);
  ws_json_add_int (b, "blocks_per_sm", m->blocks_per_sm);
  ws_json_add_int (b, "warps_per_sm", m->warps_per_sm);
  ws_json_add_bool (b, "verified", m->verified);
  json_builder_set_member_name (b, "counters");
  json_builder_begin_object (b);
  for (guint i = 0; i < m->counters->len; i++)
    {
      const WsCounter *c = &g_array_index (m->counters, WsCounter, i);
      ws_json_add_double (b, c->name, c->value);
    }
  json_builder_end_object (b);
  if (m->warning)
    ws_json_add_string (b, "warning", m->warning);
  if (m->trials > 0)
    {
      ws_json_add_int (b, "trials", m->trials);
      json_builder_set_member_name (b, "outcomes");
      json_builder_begin_object (b);
      for (guint i = 0; i < m->outcomes->len; i++)
        {
          const WsOutcome *o = &g_array_index (m->outcomes, WsOutcome, i);
          ws_json_add_int (b, o->name, o->count);
        }
      json_builder_end_object (b);
    }
  if (m->timeline->len > 0)
    {
      json_builder_set_member_name (b, "timeline");
      json_builder_begin_array (b);
      for (guint i = 0; i < m->timeline->len; i++)
        {
          const WsSpan *span = &g_array_index (m->timeline, WsSpan, i);
          json_builder_begin_object (b);
          ws_json_add_int (b, "stream", span->stream);
          ws_json_add_string (b, "kind", ws_span_kind_to_string (span->kind));
          ws_json_add_double (b, "start_ms", span->start_ms);
          ws_json_add_double (b, "end_ms", span->end_ms);
          json_builder_end_object (b);
        }
      json_builder_end_array (b);
    }
  if (m->line_counters->len > 0)
    {
      json_builder_set_member_name (b, "line_counters");
      json_builder_begin_array (b);
      for (guint i = 0; i < m->line_counters->len; i++)
        {
          const WsLineCounter *c = &g_array_index (m->line_counters, WsLineCounter, i);
          json_builder_begin_object (b);
          ws_json_add_int (b, "line", c->line);
          ws_json_add_string (b, "name", c->name);
          ws_json_add_double (b, "value", c->value);
          json_builder_end_object (b);
        }
      json_builder_end_array (b);
    }
  json_builder_end_object (b);
}

char *
ws_recording_to_data (WsRecording *self,
                      gsize       *length)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  g_autoptr (JsonNode) root = NULL;
  g_autofree char *date = NULL;
  char *text;

  g_return_val_if_fail (WS_IS_RECORDING (self), NULL);

  date = g_date_time_format_iso8601 (self->date);
  json_builder_begin_object (b);
  ws_json_add_string (b, "format", FORMAT_NAME);
  ws_json_add_int (b, "version", WS_RECORDING_FORMAT_VERSION);
  ws_json_add_string (b, "program_version", self->program_version);
  ws_json_add_string (b, "date", date);
  /* only when set: every recording made before the flag was measured */
  if (self->copied)
    ws_json_add_bool (b, "not_measured_here", TRUE);
  build_device (b, self->device);
  json_builder_set_member_name (b, "measurements");
  json_builder_begin_array (b);
  for (guint i = 0; i < self->measurements->len; i++)
    build_measurement (b, g_ptr_array_index (self->measurements, i));
  json_builder_end_array (b);
  json_builder_end_object (b);

  root = json_builder_get_root (b);
  /* numbers in their shortest exact form, as every JSON the program writes */
  text = ws_json_to_text (root, TRUE);
  if (length)
    *length = strlen (text);
  return text;
}

gboolean
ws_recording_save_file (WsRecording  *self,
                        GFile        *file,
                        GCancellable *cancellable,
                        GError      **error)
{
  g_autofree char *data = NULL;
  gsize length = 0;

  g_return_val_if_fail (WS_IS_RECORDING (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  data = ws_recording_to_data (self, &length);
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;
  /* a local file: through any link, synced, renamed over the old one */
  if (g_file_peek_path (file) != NULL)
    return ws_file_write_atomic (g_file_peek_path (file), data, length, error);
  if (!g_file_replace_contents (file, data, length, NULL, FALSE, G_FILE_CREATE_NONE, NULL, cancellable, error))
    {
      g_autofree char *name = g_file_get_parse_name (file);
      /* Translators: a file's name, before what went wrong in saving it */
      g_prefix_error (error, _("saving %s: "), name);
      return FALSE;
    }
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Reading                                                            */
/* ------------------------------------------------------------------ */

static const WsJsonErrors errors = { ws_recording_error_quark, WS_RECORDING_ERROR_INVALID, "" };

/* Text from a file made fit to show: valid UTF-8, control characters as
 * “?”. */
static char *
printable (const char *text)
{
  char *valid = g_utf8_make_valid (text, -1);

  for (char *p = valid; *p; p++)
    if ((guchar) *p < 0x20 || *p == 0x7f)
      *p = '?';
  return valid;
}

#define BIG (G_GINT64_CONSTANT (1) << 62)
#define MAX_MS 1e7             /* close to three hours: no sample is longer */
#define MAX_GBS 1e7

/* Where it was measured: absent from recordings older than remote GPUs. */
static gboolean
read_where (JsonObject   *o,
            const char   *p,
            WsDeviceInfo *d,
            GError      **error)
{
  if (json_object_has_member (o, "host") &&
      (!ws_json_read_string (&errors, o, p, "host", &d->host, error) ||
       !ws_json_read_int (&errors, o, p, "gpu_index", 0, 1 << 20, &d->gpu_index, error)))
    return FALSE;
  return !json_object_has_member (o, "address") ||
         ws_json_read_string (&errors, o, p, "address", &d->address, error);
}

static gboolean
read_device (JsonObject   *root,
             WsDeviceInfo *d,
             GError      **error)
{
  const char *p = "device";
  JsonObject *o = ws_json_read_object (&errors, root, "", p, error);

  return o != NULL &&
         ws_json_read_string (&errors, o, p, "name", &d->name, error) &&
         ws_json_read_int (&errors, o, p, "cc_major", 0, 1000, &d->cc_major, error) &&
         ws_json_read_int (&errors, o, p, "cc_minor", 0, 1000, &d->cc_minor, error) &&
         ws_json_read_int (&errors, o, p, "sm_count", 0, 1 << 20, &d->sm_count, error) &&
         ws_json_read_int64 (&errors, o, p, "global_mem_bytes", 0, BIG, &d->global_mem_bytes, error) &&
         ws_json_read_int64 (&errors, o, p, "l2_bytes", 0, BIG, &d->l2_bytes, error) &&
         ws_json_read_int64 (&errors, o, p, "shared_per_sm", 0, BIG, &d->shared_per_sm, error) &&
         ws_json_read_int64 (&errors, o, p, "shared_per_block_optin", 0, BIG, &d->shared_per_block_optin, error) &&
         ws_json_read_int (&errors, o, p, "registers_per_sm", 0, G_MAXINT, &d->registers_per_sm, error) &&
         ws_json_read_int (&errors, o, p, "max_threads_per_sm", 0, G_MAXINT, &d->max_threads_per_sm, error) &&
         ws_json_read_int (&errors, o, p, "max_blocks_per_sm", 0, G_MAXINT, &d->max_blocks_per_sm, error) &&
         ws_json_read_int (&errors, o, p, "sm_clock_mhz", 0, 1000000, &d->sm_clock_mhz, error) &&
         ws_json_read_int (&errors, o, p, "mem_clock_mhz", 0, 1000000, &d->mem_clock_mhz, error) &&
         ws_json_read_int (&errors, o, p, "mem_bus_bits", 0, 1 << 20, &d->mem_bus_bits, error) &&
         ws_json_read_double (&errors, o, p, "peak_bandwidth_gbs", 0, MAX_GBS, &d->peak_bandwidth_gbs, error) &&
         ws_json_read_string (&errors, o, p, "driver_version", &d->driver_version, error) &&
         ws_json_read_string (&errors, o, p, "runtime_version", &d->runtime_version, error) &&
         /* optional: recordings made before it was asked for lack it */
         (!json_object_has_member (o, "l2_persisting_max_bytes") ||
          ws_json_read_int64 (&errors, o, p, "l2_persisting_max_bytes", 0, BIG, &d->l2_persisting_max_bytes, error)) &&
         read_where (o, p, d, error);
}

/* A kernel's parameter: a C identifier, as every kernel's parameters are. */
static gboolean
param_name_is_valid (const char *name)
{
  if (!(g_ascii_isalpha (name[0]) || name[0] == '_') || strlen (name) > 64)
    return FALSE;
  for (const char *p = name; *p; p++)
    if (!(g_ascii_isalnum (*p) || *p == '_'))
      return FALSE;
  return TRUE;
}

/* An Nsight Compute metric name: letters, digits and _ . : only. */
static gboolean
counter_name_is_valid (const char *name)
{
  if (name[0] == '\0' || strlen (name) > 256)
    return FALSE;
  for (const char *p = name; *p; p++)
    if (!(g_ascii_isalnum (*p) || *p == '_' || *p == '.' || *p == ':'))
      return FALSE;
  return TRUE;
}

/* What went wrong in a trial, for people: "wrong sum", "timed out". */
static gboolean
outcome_name_is_valid (const char *name)
{
  if (!g_ascii_isalpha (name[0]) || strlen (name) > 64)
    return FALSE;
  for (const char *p = name; *p; p++)
    if (!(g_ascii_isalnum (*p) || *p == ' ' || *p == '-' || *p == '_'))
      return FALSE;
  return TRUE;
}

/* Members are added one by one, each looked up first: bounded, so that a
 * file cannot make loading quadratic. */
static gboolean
check_members (JsonObject *o,
               const char *path,
               const char *what,
               guint       max,
               gboolean  (*valid) (const char *name),
               GError    **error)
{
  g_autoptr (GList) names = NULL;
  guint i = 0;

  if (json_object_get_size (o) > max)
    return ws_json_invalid (&errors, error, path,
                            /* Translators: a member of a recording (params, counters or
                             * outcomes, JSON's names), how many it has, and the most it may have */
                            g_dngettext (GETTEXT_PACKAGE, "%s: %u member; a measurement has at most %u",
                                         "%s: %u members; a measurement has at most %u", json_object_get_size (o)),
                            what, json_object_get_size (o), max);
  names = json_object_get_members (o);
  for (GList *l = names; l; l = l->next, i++)
    if (!valid (l->data))
      {
        /* the name may not be printable: say where it is instead */
        if (g_utf8_validate (l->data, -1, NULL) && ws_json_text_is_clean (l->data))
          /* Translators: a member of a recording (params, counters or outcomes,
           * JSON's names), then the name in it that is wrong */
          return ws_json_invalid (&errors, error, path, _("%s: the name “%.64s” is not a valid name"), what,
                                  (const char *) l->data);
        /* Translators: a member of a recording (params, counters or outcomes,
         * JSON's names), then which of the names in it is wrong, counting from 1 */
        return ws_json_invalid (&errors, error, path, _("%s: the name number %u is not a valid name"), what, i + 1);
      }
  return TRUE;
}

static gboolean
read_params (JsonObject    *o,
             const char    *path,
             WsMeasurement *m,
             GError       **error)
{
  JsonObject *params = ws_json_read_object (&errors, o, path, "params", error);
  g_autoptr (GList) names = NULL;

  if (params == NULL ||
      !check_members (params, path, "params", WS_RECORDING_MAX_PARAMS, param_name_is_valid, error))
    return FALSE;
  names = json_object_get_members (params);
  for (GList *l = names; l; l = l->next)
    {
      g_autofree char *full = g_strdup_printf ("%s.params.%s", path, (const char *) l->data);
      gint64 v;

      if (!ws_json_check_int (&errors, json_object_get_member (params, l->data), full, G_MININT64, G_MAXINT64, &v, error))
        return FALSE;
      ws_measurement_set_param (m, l->data, v);
    }
  return TRUE;
}

static gboolean
read_samples (JsonObject    *o,
              const char    *path,
              WsMeasurement *m,
              GError       **error)
{
  JsonArray *a = ws_json_read_array (&errors, o, path, "samples_ms", error);
  guint n;

  if (a == NULL)
    return FALSE;
  n = json_array_get_length (a);
  if (n == 0)
    {
      /* a count (the counters of one launch, untimed: the truth table's)
       * has none, and says so with a median of 0 */
      JsonNode *median = json_object_get_member (o, "median_ms");
      JsonNode *counters = json_object_get_member (o, "counters");

      if (median && JSON_NODE_HOLDS_VALUE (median) && json_node_get_value_type (median) != G_TYPE_STRING &&
          json_node_get_double (median) == 0 && counters && JSON_NODE_HOLDS_OBJECT (counters) &&
          json_object_get_size (json_node_get_object (counters)) > 0)
        return TRUE;
      return ws_json_invalid (&errors, error, path, "%s",
                              /* Translators: samples_ms is the member's name in the file */
                              _("samples_ms: empty; a timed measurement has at least one sample"));
    }
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *full = g_strdup_printf ("%s.samples_ms[%u]", path, i);
      double v;

      if (!ws_json_check_double (&errors, json_array_get_element (a, i), full, 0, MAX_MS, &v, error))
        return FALSE;
      ws_measurement_add_sample (m, v);
    }
  return TRUE;
}

static gboolean
read_counters (JsonObject    *o,
               const char    *path,
               WsMeasurement *m,
               GError       **error)
{
  JsonObject *counters = ws_json_read_object (&errors, o, path, "counters", error);
  g_autoptr (GList) names = NULL;

  if (counters == NULL ||
      !check_members (counters, path, "counters", WS_RECORDING_MAX_COUNTERS, counter_name_is_valid, error))
    return FALSE;
  names = json_object_get_members (counters);
  for (GList *l = names; l; l = l->next)
    {
      g_autofree char *full = g_strdup_printf ("%s.counters.%s", path, (const char *) l->data);
      double v;

      if (!ws_json_check_double (&errors, json_object_get_member (counters, l->data), full, -1e300, 1e300, &v, error))
        return FALSE;
      ws_measurement_add_counter (m, l->data, v);
    }
  return TRUE;
}

/* optional: trials and their outcomes, for kernels that may go wrong */
static gboolean
read_outcomes (JsonObject    *o,
               const char    *path,
               WsMeasurement *m,
               GError       **error)
{
  JsonObject *outcomes;
  g_autoptr (GList) names = NULL;

  if (!json_object_has_member (o, "trials"))
    return TRUE;
  if (!ws_json_read_int64 (&errors, o, path, "trials", 1, BIG, &m->trials, error) ||
      (outcomes = ws_json_read_object (&errors, o, path, "outcomes", error)) == NULL ||
      !check_members (outcomes, path, "outcomes", WS_RECORDING_MAX_OUTCOMES, outcome_name_is_valid, error))
    return FALSE;
  names = json_object_get_members (outcomes);
  for (GList *l = names; l; l = l->next)
    {
      g_autofree char *full = g_strdup_printf ("%s.outcomes.%s", path, (const char *) l->data);
      gint64 v;

      if (!ws_json_check_int (&errors, json_object_get_member (outcomes, l->data), full, 0, m->trials, &v, error))
        return FALSE;
      ws_measurement_add_outcome (m, l->data, v);
    }
  return TRUE;
}

/* optional: one launch's copies and kernels */
static gboolean
read_timeline (JsonObject    *o,
               const char    *path,
               WsMeasurement *m,
               GError       **error)
{
  JsonArray *a;

  if (!json_object_has_member (o, "timeline"))
    return TRUE;
  if ((a = ws_json_read_array (&errors, o, path, "timeline", error)) == NULL)
    return FALSE;
  if (json_array_get_length (a) > WS_RECORDING_MAX_SPANS)
    return ws_json_invalid (&errors, error, path,
                            /* Translators: timeline is the member's name in the file */
                            g_dngettext (GETTEXT_PACKAGE, "timeline: %u span; a measurement has at most %u",
                                         "timeline: %u spans; a measurement has at most %u", json_array_get_length (a)),
                            json_array_get_length (a), WS_RECORDING_MAX_SPANS);
  for (guint i = 0; i < json_array_get_length (a); i++)
    {
      g_autofree char *full = g_strdup_printf ("%s.timeline[%u]", path, i);
      g_autofree char *kind = NULL;
      JsonNode *node = json_array_get_element (a, i);
      JsonObject *span;
      WsSpan s;
      gint64 stream;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        return ws_json_wrong_kind (&errors, error, full, WS_JSON_KIND_OBJECT, node);
      span = json_node_get_object (node);
      if (!ws_json_read_int64 (&errors, span, full, "stream", 0, 1024, &stream, error) ||
          !ws_json_read_string (&errors, span, full, "kind", &kind, error) ||
          !ws_json_read_double (&errors, span, full, "start_ms", 0, MAX_MS, &s.start_ms, error) ||
          !ws_json_read_double (&errors, span, full, "end_ms", s.start_ms, MAX_MS, &s.end_ms, error))
        return FALSE;
      if (!ws_span_kind_from_string (kind, &s.kind))
        return ws_json_invalid (&errors, error, full,
                                /* Translators: kind is the member's name in the file; kernel,
                                 * host-to-device, device-to-host and prefetch are the values it may have */
                                _("kind: “%s” is not kernel, host-to-device, device-to-host or prefetch"), kind);
      ws_measurement_add_span (m, (guint) stream, s.kind, s.start_ms, s.end_ms);
    }
  return TRUE;
}

/* optional: counters of a kernel text's source lines */
static gboolean
read_line_counters (JsonObject    *o,
                    const char    *path,
                    WsMeasurement *m,
                    GError       **error)
{
  JsonArray *a;

  if (!json_object_has_member (o, "line_counters"))
    return TRUE;
  if ((a = ws_json_read_array (&errors, o, path, "line_counters", error)) == NULL)
    return FALSE;
  if (json_array_get_length (a) > WS_RECORDING_MAX_LINE_COUNTERS)
    return ws_json_invalid (&errors, error, path,
                            /* Translators: line_counters is the member's name in the file */
                            g_dngettext (GETTEXT_PACKAGE, "line_counters: %u counter; a measurement has at most %u",
                                         "line_counters: %u counters; a measurement has at most %u",
                                         json_array_get_length (a)),
                            json_array_get_length (a), WS_RECORDING_MAX_LINE_COUNTERS);
  for (guint i = 0; i < json_array_get_length (a); i++)
    {
      g_autofree char *full = g_strdup_printf ("%s.line_counters[%u]", path, i);
      g_autofree char *name = NULL;
      JsonNode *node = json_array_get_element (a, i);
      JsonObject *c;
      gint64 line;
      double value;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        return ws_json_wrong_kind (&errors, error, full, WS_JSON_KIND_OBJECT, node);
      c = json_node_get_object (node);
      if (!ws_json_read_int64 (&errors, c, full, "line", 1, 1 << 24, &line, error) ||
          !ws_json_read_string (&errors, c, full, "name", &name, error) ||
          !ws_json_read_double (&errors, c, full, "value", -1e300, 1e300, &value, error))
        return FALSE;
      if (!counter_name_is_valid (name))
        /* Translators: name is the member's name in the file */
        return ws_json_invalid (&errors, error, full, "%s", _("name: not a counter's name"));
      ws_measurement_add_line_counter (m, (guint) line, name, value);
    }
  return TRUE;
}

static gboolean
read_summary (JsonObject    *o,
              const char    *p,
              WsMeasurement *m,
              GError       **error)
{
  if (!ws_json_read_double (&errors, o, p, "median_ms", 0, MAX_MS, &m->median_ms, error) ||
      !ws_json_read_double (&errors, o, p, "min_ms", 0, MAX_MS, &m->min_ms, error) ||
      !ws_json_read_double (&errors, o, p, "max_ms", 0, MAX_MS, &m->max_ms, error))
    return FALSE;
  if (!(m->min_ms <= m->median_ms && m->median_ms <= m->max_ms))
    /* Translators: min_ms, median_ms and max_ms are members' names in the file */
    return ws_json_invalid (&errors, error, p, _("min_ms ≤ median_ms ≤ max_ms does not hold (%g, %g, %g)"),
                            m->min_ms, m->median_ms, m->max_ms);
  return ws_json_read_int64 (&errors, o, p, "bytes", 0, BIG, &m->bytes, error) &&
         ws_json_read_double (&errors, o, p, "bandwidth_gbs", 0, MAX_GBS, &m->bandwidth_gbs, error);
}

static WsMeasurement *
read_measurement (JsonNode   *node,
                  const char *p,
                  GError    **error)
{
  g_autoptr (WsMeasurement) m = ws_measurement_new (NULL);
  JsonObject *o;
  JsonNode *warning;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      ws_json_wrong_kind (&errors, error, p, WS_JSON_KIND_OBJECT, node);
      return NULL;
    }
  o = json_node_get_object (node);
  if (!ws_json_read_string (&errors, o, p, "id", &m->id, error) ||
      !ws_json_read_string (&errors, o, p, "description", &m->description, error) ||
      !read_params (o, p, m, error) ||
      !read_samples (o, p, m, error) ||
      !read_summary (o, p, m, error) ||
      !ws_json_read_bool (&errors, o, p, "cold", &m->cold, error) ||
      !ws_json_read_int (&errors, o, p, "sm_clock_mhz", 0, 1000000, &m->sm_clock_mhz, error) ||
      !ws_json_read_int (&errors, o, p, "registers", 0, 65536, &m->registers, error) ||
      !ws_json_read_int (&errors, o, p, "local_bytes", 0, G_MAXINT, &m->local_bytes, error) ||
      !ws_json_read_int (&errors, o, p, "shared_bytes", 0, G_MAXINT, &m->shared_bytes, error) ||
      !ws_json_read_int (&errors, o, p, "blocks_per_sm", 0, 1 << 16, &m->blocks_per_sm, error) ||
      !ws_json_read_int (&errors, o, p, "warps_per_sm", 0, 1 << 16, &m->warps_per_sm, error) ||
      !ws_json_read_bool (&errors, o, p, "verified", &m->verified, error) ||
      !read_counters (o, p, m, error) ||
      !read_outcomes (o, p, m, error) ||
      !read_timeline (o, p, m, error) ||
      !read_line_counters (o, p, m, error))
    return NULL;
  if (*m->id == '\0')
    {
      /* Translators: id is the member's name in the file */
      ws_json_invalid (&errors, error, p, "%s", _("id: empty"));
      return NULL;
    }
  /* optional: what went wrong beside the timings */
  warning = json_object_get_member (o, "warning");
  if (warning && !ws_json_read_string (&errors, o, p, "warning", &m->warning, error))
    return NULL;
  return g_steal_pointer (&m);
}

static gboolean
read_header (JsonObject  *root,
             WsRecording *self,
             GError     **error)
{
  g_autofree char *format = NULL, *date = NULL;
  gint64 version;

  if (!ws_json_read_string (&errors, root, "", "format", &format, error))
    return FALSE;
  if (g_strcmp0 (format, FORMAT_NAME) != 0)
    {
      g_autofree char *shown = ws_text_for_message (format);

      /* Translators: the format a recording names, then the one this file names */
      return ws_json_invalid (&errors, error, "format", _("expected “%s”, found “%s”: not a Warpscope recording"),
                              FORMAT_NAME, shown);
    }
  if (!ws_json_read_int64 (&errors, root, "", "version", G_MININT64, G_MAXINT64, &version, error))
    return FALSE;
  if (version != WS_RECORDING_FORMAT_VERSION)
    {
      if (version > WS_RECORDING_FORMAT_VERSION)
        g_set_error (error, WS_RECORDING_ERROR, WS_RECORDING_ERROR_VERSION,
                     /* Translators: version is the member's name in the file; the file's
                      * version, then the one this program reads */
                     _("version: %lld is not a version this program reads (it reads version %d); "
                       "a newer Warpscope made it"), (long long) version, WS_RECORDING_FORMAT_VERSION);
      else
        g_set_error (error, WS_RECORDING_ERROR, WS_RECORDING_ERROR_VERSION,
                     /* Translators: version is the member's name in the file; the file's
                      * version, then the one this program reads */
                     _("version: %lld is not a version this program reads (it reads version %d)"),
                     (long long) version, WS_RECORDING_FORMAT_VERSION);
      return FALSE;
    }
  if (!ws_json_read_string (&errors, root, "", "program_version", &self->program_version, error) ||
      !ws_json_read_string (&errors, root, "", "date", &date, error))
    return FALSE;
  self->date = g_date_time_new_from_iso8601 (date, NULL);
  if (self->date == NULL)
    {
      g_autofree char *shown = ws_text_for_message (date);

      return ws_json_invalid (&errors, error, "date", _("“%s” is not an ISO 8601 date and time with a time zone"),
                              shown);
    }
  if (json_object_has_member (root, "not_measured_here") &&
      !ws_json_read_bool (&errors, root, "", "not_measured_here", &self->copied, error))
    return FALSE;
  return TRUE;
}

static gboolean
read_root (JsonNode    *node,
           WsRecording *self,
           GError     **error)
{
  JsonObject *root;
  JsonArray *measurements;

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    /* Translators: where in a recording, in the place of a member's name:
     * "the top level: expected an object, found an array" */
    return ws_json_wrong_kind (&errors, error, _("the top level"), WS_JSON_KIND_OBJECT, node);
  root = json_node_get_object (node);
  if (!read_header (root, self, error))
    return FALSE;
  self->device = ws_device_info_new ();
  if (!read_device (root, self->device, error))
    return FALSE;
  measurements = ws_json_read_array (&errors, root, "", "measurements", error);
  if (measurements == NULL)
    return FALSE;
  for (guint i = 0; i < json_array_get_length (measurements); i++)
    {
      g_autofree char *path = g_strdup_printf ("measurements[%u]", i);
      WsMeasurement *m = read_measurement (json_array_get_element (measurements, i), path, error);

      if (m == NULL)
        return FALSE;
      g_ptr_array_add (self->measurements, m);
    }
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* One measurement or device, on its own (the GPU worker's messages)  */
/* ------------------------------------------------------------------ */

JsonNode *
ws_measurement_to_json (const WsMeasurement *m)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();

  g_return_val_if_fail (m != NULL, NULL);
  build_measurement (b, m);
  return json_builder_get_root (b);
}

WsMeasurement *
ws_measurement_from_json (JsonNode *node,
                          GError  **error)
{
  g_return_val_if_fail (node != NULL, NULL);
  return read_measurement (node, "measurement", error);
}

JsonNode *
ws_device_info_to_json (const WsDeviceInfo *info)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();

  g_return_val_if_fail (info != NULL, NULL);
  /* build_device writes the member "device" of an enclosing object */
  json_builder_begin_object (b);
  build_device (b, info);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

WsDeviceInfo *
ws_device_info_from_json (JsonNode *node,
                          GError  **error)
{
  g_autoptr (WsDeviceInfo) info = ws_device_info_new ();

  g_return_val_if_fail (node != NULL, NULL);
  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      /* Translators: what the GPU worker sent, in the place of a member's
       * name: "the device message: expected an object, found an array" */
      ws_json_wrong_kind (&errors, error, _("the device message"), WS_JSON_KIND_OBJECT, node);
      return NULL;
    }
  if (!read_device (json_node_get_object (node), info, error))
    return NULL;
  return g_steal_pointer (&info);
}

WsRecording *
ws_recording_load_data (const char *data,
                        gssize      length,
                        GError    **error)
{
  g_autoptr (JsonParser) parser = json_parser_new_immutable ();
  g_autoptr (WsRecording) self = NULL;
  g_autoptr (GError) parse_error = NULL;

  g_return_val_if_fail (data != NULL, NULL);

  if (length < 0)
    length = (gssize) strlen (data);
  if ((gsize) length > WS_RECORDING_MAX_BYTES)
    {
      g_set_error (error, WS_RECORDING_ERROR, WS_RECORDING_ERROR_PARSE,
                   /* Translators: the data's size, then the most a recording may have */
                   g_dngettext (GETTEXT_PACKAGE, "%lld byte: a recording is at most %d MiB",
                                "%lld bytes: a recording is at most %d MiB", (gulong) length),
                   (long long) length, WS_RECORDING_MAX_BYTES >> 20);
      return NULL;
    }
  /* before json-glib, whose parser recurses once per level */
  if (!ws_json_check_depth (data, (gsize) length, WS_JSON_MAX_DEPTH, &parse_error))
    {
      /* Translators: what is wrong with the data */
      g_set_error (error, WS_RECORDING_ERROR, WS_RECORDING_ERROR_PARSE, _("not a recording: %s"),
                   parse_error->message);
      return NULL;
    }
  if (!json_parser_load_from_data (parser, data, length, &parse_error))
    {
      /* json-glib quotes the bytes it stopped at, which may be anything */
      g_autofree char *shown = printable (parse_error->message);

      g_set_error (error, WS_RECORDING_ERROR, WS_RECORDING_ERROR_PARSE,
                   /* Translators: what json-glib says is wrong */
                   _("not JSON (a truncated or damaged file?): %s"), shown);
      return NULL;
    }
  if (json_parser_get_root (parser) == NULL)
    {
      g_set_error (error, WS_RECORDING_ERROR, WS_RECORDING_ERROR_PARSE, _("not JSON: the data is empty"));
      return NULL;
    }
  self = g_object_new (WS_TYPE_RECORDING, NULL);
  if (!read_root (json_parser_get_root (parser), self, error))
    return NULL;
  return g_steal_pointer (&self);
}

WsRecording *
ws_recording_load_file (GFile        *file,
                        GCancellable *cancellable,
                        GError      **error)
{
  g_autofree char *data = NULL;
  g_autofree char *name = NULL;
  g_autoptr (GError) local = NULL;
  gsize length = 0;
  WsRecording *self;

  g_return_val_if_fail (G_IS_FILE (file), NULL);

  name = g_file_get_parse_name (file);
  /* a regular file, read no further than the cap: /dev/zero, a pipe or a
   * file of /proc report no size */
  data = ws_file_load_bounded (file, WS_RECORDING_MAX_BYTES, &length, cancellable, &local);
  if (g_error_matches (local, G_IO_ERROR, G_IO_ERROR_IS_DIRECTORY))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_IS_DIRECTORY, _("%s is a folder, not a recording"), name);
      return NULL;
    }
  if (g_error_matches (local, G_IO_ERROR, G_IO_ERROR_MESSAGE_TOO_LARGE))
    {
      g_set_error (error, WS_RECORDING_ERROR, WS_RECORDING_ERROR_PARSE,
                   /* Translators: a file's name, then the most a recording may have */
                   _("%s: more than %d MiB; a recording is at most %d MiB"), name, WS_RECORDING_MAX_BYTES >> 20,
                   WS_RECORDING_MAX_BYTES >> 20);
      return NULL;
    }
  if (data == NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local));
      return NULL;
    }
  self = ws_recording_load_data (data, (gssize) length, error);
  if (self == NULL)
    g_prefix_error (error, "%s: ", name);
  return self;
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return g_strcmp0 (*(const char *const *) a, *(const char *const *) b);
}

/* The .json files of dir, by name; NULL when there are none. */
static GStrv
recordings_in (const char *dir)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  g_autoptr (GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  if (d == NULL)
    return NULL;
  while ((name = g_dir_read_name (d)))
    if (g_str_has_suffix (name, ".json"))
      g_ptr_array_add (paths, g_build_filename (dir, name, NULL));
  if (paths->len == 0)
    return NULL;
  g_ptr_array_sort (paths, compare_names);
  g_ptr_array_add (paths, NULL);
  return (GStrv) g_ptr_array_free (g_steal_pointer (&paths), FALSE);
}

GStrv
ws_recording_bundled_paths (void)
{
  g_autofree char *installed = g_build_filename (WS_PKGDATADIR, "recordings", NULL);
  g_autofree char *source = g_build_filename (WS_SOURCE_DATADIR, "recordings", NULL);
  GStrv paths = recordings_in (installed);

  if (paths == NULL)
    paths = recordings_in (source);
  return paths ? paths : g_new0 (char *, 1);
}

gboolean
ws_recording_is_bundled (const char *path)
{
  g_auto (GStrv) paths = ws_recording_bundled_paths ();
  g_autofree char *absolute = NULL;

  g_return_val_if_fail (path != NULL, FALSE);

  absolute = g_canonicalize_filename (path, NULL);
  for (guint i = 0; paths[i]; i++)
    {
      g_autofree char *bundled = g_canonicalize_filename (paths[i], NULL);
      if (g_str_equal (bundled, absolute))
        return TRUE;
    }
  return FALSE;
}

const char *
ws_recording_default_among (const char *const *paths,
                            const char        *name)
{
  g_return_val_if_fail (paths != NULL, NULL);
  g_return_val_if_fail (name != NULL, NULL);

  for (guint i = 0; paths[i]; i++)
    {
      g_autofree char *base = g_path_get_basename (paths[i]);
      if (g_str_equal (base, name))
        return paths[i];
    }
  return paths[0];
}

/* Named, not found: choosing by date or by the number of measurements would
 * parse every bundled recording each time one is wanted (5 to 20 ms each). */
char *
ws_recording_bundled_default (void)
{
  g_auto (GStrv) paths = ws_recording_bundled_paths ();

  return g_strdup (ws_recording_default_among ((const char *const *) paths, WS_DEFAULT_RECORDING));
}

WsRecording *
ws_recording_load_bundled (GError **error)
{
  g_autofree char *path = ws_recording_bundled_default ();
  g_autoptr (GFile) file = NULL;

  if (path == NULL)
    {
      g_autofree char *installed = g_build_filename (WS_PKGDATADIR, "recordings", NULL);
      g_autofree char *source = g_build_filename (WS_SOURCE_DATADIR, "recordings", NULL);

      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   /* Translators: the two folders a bundled recording is looked for in */
                   _("no bundled recording: no .json file in %s (installed) or %s (source tree)"), installed, source);
      return NULL;
    }
  file = g_file_new_for_path (path);
  return ws_recording_load_file (file, NULL, error);
}
