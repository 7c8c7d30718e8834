/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Recordings as versioned JSON. Reading is strict: every field is checked,
 * and an error names the field's path and what is wrong with it, e.g.
 * “measurements[3].median_ms: expected a number, found a string”. */
#include "ws-config.h"
#include "ws-recording.h"
#include "ws-json-limits.h"
#include "ws-file-writer.h"

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
add_int (JsonBuilder *b,
         const char  *name,
         gint64       value)
{
  json_builder_set_member_name (b, name);
  json_builder_add_int_value (b, value);
}

/* json-glib 1.6 writes a double whose shortest form has an exponent but no
 * point (1e-05) with ".0" after it, which no parser reads: such a number
 * is written as an integer when it is one, else one ulp off. JSON has no
 * NaN or infinity; a measurement never holds one. */
static void
add_double_value (JsonBuilder *b,
                  double       value)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (!isfinite (value))
    value = 0;
  for (;;)
    {
      g_ascii_dtostr (buf, sizeof buf, value);
      if (!strchr (buf, 'e') || strchr (buf, '.'))
        break;
      if (value == trunc (value) && fabs (value) < 9e18)
        {
          json_builder_add_int_value (b, (gint64) value);
          return;
        }
      value = nextafter (value, INFINITY);
    }
  json_builder_add_double_value (b, value);
}

static void
add_double (JsonBuilder *b,
            const char  *name,
            double       value)
{
  json_builder_set_member_name (b, name);
  add_double_value (b, value);
}

static void
add_string (JsonBuilder *b,
            const char  *name,
            const char  *value)
{
  json_builder_set_member_name (b, name);
  json_builder_add_string_value (b, value ? value : "");
}

static void
add_bool (JsonBuilder *b,
          const char  *name,
          gboolean     value)
{
  json_builder_set_member_name (b, name);
  json_builder_add_boolean_value (b, value);
}

static void
build_device (JsonBuilder        *b,
              const WsDeviceInfo *d)
{
  json_builder_set_member_name (b, "device");
  json_builder_begin_object (b);
  add_string (b, "name", d->name);
  add_int (b, "cc_major", d->cc_major);
  add_int (b, "cc_minor", d->cc_minor);
  add_int (b, "sm_count", d->sm_count);
  add_int (b, "global_mem_bytes", d->global_mem_bytes);
  add_int (b, "l2_bytes", d->l2_bytes);
  add_int (b, "shared_per_sm", d->shared_per_sm);
  add_int (b, "shared_per_block_optin", d->shared_per_block_optin);
  add_int (b, "registers_per_sm", d->registers_per_sm);
  add_int (b, "max_threads_per_sm", d->max_threads_per_sm);
  add_int (b, "max_blocks_per_sm", d->max_blocks_per_sm);
  add_int (b, "sm_clock_mhz", d->sm_clock_mhz);
  add_int (b, "mem_clock_mhz", d->mem_clock_mhz);
  add_int (b, "mem_bus_bits", d->mem_bus_bits);
  add_double (b, "peak_bandwidth_gbs", d->peak_bandwidth_gbs);
  add_string (b, "driver_version", d->driver_version);
  add_string (b, "runtime_version", d->runtime_version);
  json_builder_end_object (b);
}

static void
build_measurement (JsonBuilder         *b,
                   const WsMeasurement *m)
{
  json_builder_begin_object (b);
  add_string (b, "id", m->id);
  add_string (b, "description", m->description);
  json_builder_set_member_name (b, "params");
  json_builder_begin_object (b);
  for (guint i = 0; i < m->params->len; i++)
    {
      const WsParamValue *p = &g_array_index (m->params, WsParamValue, i);
      add_int (b, p->name, p->value);
    }
  json_builder_end_object (b);
  json_builder_set_member_name (b, "samples_ms");
  json_builder_begin_array (b);
  for (guint i = 0; i < m->samples_ms->len; i++)
    add_double_value (b, g_array_index (m->samples_ms, double, i));
  json_builder_end_array (b);
  add_double (b, "median_ms", m->median_ms);
  add_double (b, "min_ms", m->min_ms);
  add_double (b, "max_ms", m->max_ms);
  add_int (b, "bytes", m->bytes);
  add_double (b, "bandwidth_gbs", m->bandwidth_gbs);
  add_bool (b, "cold", m->cold);
  add_int (b, "sm_clock_mhz", m->sm_clock_mhz);
  add_int (b, "registers", m->registers);
  add_int (b, "local_bytes", m->local_bytes);
  add_int (b, "shared_bytes", m->shared_bytes);
  add_int (b, "blocks_per_sm", m->blocks_per_sm);
  add_int (b, "warps_per_sm", m->warps_per_sm);
  add_bool (b, "verified", m->verified);
  json_builder_set_member_name (b, "counters");
  json_builder_begin_object (b);
  for (guint i = 0; i < m->counters->len; i++)
    {
      const WsCounter *c = &g_array_index (m->counters, WsCounter, i);
      add_double (b, c->name, c->value);
    }
  json_builder_end_object (b);
  if (m->warning)
    add_string (b, "warning", m->warning);
  json_builder_end_object (b);
}

char *
ws_recording_to_data (WsRecording *self,
                      gsize       *length)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  g_autoptr (JsonGenerator) gen = json_generator_new ();
  g_autoptr (JsonNode) root = NULL;
  g_autofree char *date = NULL;

  g_return_val_if_fail (WS_IS_RECORDING (self), NULL);

  date = g_date_time_format_iso8601 (self->date);
  json_builder_begin_object (b);
  add_string (b, "format", FORMAT_NAME);
  add_int (b, "version", WS_RECORDING_FORMAT_VERSION);
  add_string (b, "program_version", self->program_version);
  add_string (b, "date", date);
  build_device (b, self->device);
  json_builder_set_member_name (b, "measurements");
  json_builder_begin_array (b);
  for (guint i = 0; i < self->measurements->len; i++)
    build_measurement (b, g_ptr_array_index (self->measurements, i));
  json_builder_end_array (b);
  json_builder_end_object (b);

  root = json_builder_get_root (b);
  json_generator_set_root (gen, root);
  json_generator_set_pretty (gen, TRUE);
  json_generator_set_indent (gen, 1);
  return json_generator_to_data (gen, length);
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
      g_prefix_error (error, "saving %s: ", name);
      return FALSE;
    }
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Reading                                                            */
/* ------------------------------------------------------------------ */

static const char *
kind_of (JsonNode *node)
{
  switch (json_node_get_node_type (node))
    {
    case JSON_NODE_OBJECT:
      return "an object";
    case JSON_NODE_ARRAY:
      return "an array";
    case JSON_NODE_NULL:
      return "null";
    default:
      switch (json_node_get_value_type (node))
        {
        case G_TYPE_STRING:
          return "a string";
        case G_TYPE_BOOLEAN:
          return "a boolean";
        case G_TYPE_INT64:
          return "an integer";
        default:
          return "a number";
        }
    }
}

/* Line breaks and tabs may be in a description; nothing else a terminal
 * would act on. */
static gboolean
text_has_no_controls (const char *text)
{
  for (const guchar *p = (const guchar *) text; *p; p++)
    if ((*p < 0x20 && *p != '\n' && *p != '\t') || *p == 0x7f)
      return FALSE;
  return TRUE;
}

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

static gboolean
invalid (GError    **error,
         const char *path,
         const char *format,
         ...) G_GNUC_PRINTF (3, 4);

static gboolean
invalid (GError    **error,
         const char *path,
         const char *format,
         ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (error, WS_RECORDING_ERROR, WS_RECORDING_ERROR_INVALID, "%s: %s", path, message);
  return FALSE;
}

static JsonNode *
member (JsonObject *o,
        const char *path,
        const char *name,
        char      **full,
        GError    **error)
{
  JsonNode *node;

  *full = *path ? g_strdup_printf ("%s.%s", path, name) : g_strdup (name);
  node = json_object_get_member (o, name);
  if (node == NULL)
    invalid (error, *full, "missing");
  return node;
}

static gboolean
is_value (JsonNode *node,
          GType     type)
{
  return JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == type;
}

static gboolean
read_string (JsonObject *o,
             const char *path,
             const char *name,
             char      **out,
             GError    **error)
{
  g_autofree char *full = NULL;
  JsonNode *node = member (o, path, name, &full, error);

  if (node == NULL)
    return FALSE;
  if (!is_value (node, G_TYPE_STRING))
    return invalid (error, full, "expected a string, found %s", kind_of (node));
  if (!g_utf8_validate (json_node_get_string (node), -1, NULL))
    return invalid (error, full, "not valid UTF-8");
  if (!text_has_no_controls (json_node_get_string (node)))
    return invalid (error, full, "holds a control character");
  *out = json_node_dup_string (node);
  return TRUE;
}

static gboolean
check_int (JsonNode   *node,
           const char *path,
           gint64      min,
           gint64      max,
           gint64     *out,
           GError    **error)
{
  gint64 v;

  if (!is_value (node, G_TYPE_INT64))
    return invalid (error, path, "expected an integer, found %s", kind_of (node));
  v = json_node_get_int (node);
  if (v < min || v > max)
    return invalid (error, path, "%" G_GINT64_FORMAT " is out of range (%" G_GINT64_FORMAT " to %" G_GINT64_FORMAT ")",
                    v, min, max);
  *out = v;
  return TRUE;
}

static gboolean
read_int64 (JsonObject *o,
            const char *path,
            const char *name,
            gint64      min,
            gint64      max,
            gint64     *out,
            GError    **error)
{
  g_autofree char *full = NULL;
  JsonNode *node = member (o, path, name, &full, error);

  return node != NULL && check_int (node, full, min, max, out, error);
}

static gboolean
read_int (JsonObject *o,
          const char *path,
          const char *name,
          int         min,
          int         max,
          int        *out,
          GError    **error)
{
  gint64 v;

  if (!read_int64 (o, path, name, min, max, &v, error))
    return FALSE;
  *out = (int) v;
  return TRUE;
}

static gboolean
check_double (JsonNode   *node,
              const char *path,
              double      min,
              double      max,
              double     *out,
              GError    **error)
{
  double v;

  if (is_value (node, G_TYPE_INT64))
    v = (double) json_node_get_int (node);
  else if (is_value (node, G_TYPE_DOUBLE))
    v = json_node_get_double (node);
  else
    return invalid (error, path, "expected a number, found %s", kind_of (node));
  if (!isfinite (v) || v < min || v > max)
    return invalid (error, path, "%g is out of range (%g to %g)", v, min, max);
  *out = v;
  return TRUE;
}

static gboolean
read_double (JsonObject *o,
             const char *path,
             const char *name,
             double      min,
             double      max,
             double     *out,
             GError    **error)
{
  g_autofree char *full = NULL;
  JsonNode *node = member (o, path, name, &full, error);

  return node != NULL && check_double (node, full, min, max, out, error);
}

static gboolean
read_bool (JsonObject *o,
           const char *path,
           const char *name,
           gboolean   *out,
           GError    **error)
{
  g_autofree char *full = NULL;
  JsonNode *node = member (o, path, name, &full, error);

  if (node == NULL)
    return FALSE;
  if (!is_value (node, G_TYPE_BOOLEAN))
    return invalid (error, full, "expected true or false, found %s", kind_of (node));
  *out = json_node_get_boolean (node);
  return TRUE;
}

static JsonObject *
read_object (JsonObject *o,
             const char *path,
             const char *name,
             GError    **error)
{
  g_autofree char *full = NULL;
  JsonNode *node = member (o, path, name, &full, error);

  if (node == NULL)
    return NULL;
  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      invalid (error, full, "expected an object, found %s", kind_of (node));
      return NULL;
    }
  return json_node_get_object (node);
}

static JsonArray *
read_array (JsonObject *o,
            const char *path,
            const char *name,
            GError    **error)
{
  g_autofree char *full = NULL;
  JsonNode *node = member (o, path, name, &full, error);

  if (node == NULL)
    return NULL;
  if (!JSON_NODE_HOLDS_ARRAY (node))
    {
      invalid (error, full, "expected an array, found %s", kind_of (node));
      return NULL;
    }
  return json_node_get_array (node);
}

#define BIG (G_GINT64_CONSTANT (1) << 62)
#define MAX_MS 1e7             /* close to three hours: no sample is longer */
#define MAX_GBS 1e7

static gboolean
read_device (JsonObject   *root,
             WsDeviceInfo *d,
             GError      **error)
{
  const char *p = "device";
  JsonObject *o = read_object (root, "", p, error);

  return o != NULL &&
         read_string (o, p, "name", &d->name, error) &&
         read_int (o, p, "cc_major", 0, 1000, &d->cc_major, error) &&
         read_int (o, p, "cc_minor", 0, 1000, &d->cc_minor, error) &&
         read_int (o, p, "sm_count", 0, 1 << 20, &d->sm_count, error) &&
         read_int64 (o, p, "global_mem_bytes", 0, BIG, &d->global_mem_bytes, error) &&
         read_int64 (o, p, "l2_bytes", 0, BIG, &d->l2_bytes, error) &&
         read_int64 (o, p, "shared_per_sm", 0, BIG, &d->shared_per_sm, error) &&
         read_int64 (o, p, "shared_per_block_optin", 0, BIG, &d->shared_per_block_optin, error) &&
         read_int (o, p, "registers_per_sm", 0, G_MAXINT, &d->registers_per_sm, error) &&
         read_int (o, p, "max_threads_per_sm", 0, G_MAXINT, &d->max_threads_per_sm, error) &&
         read_int (o, p, "max_blocks_per_sm", 0, G_MAXINT, &d->max_blocks_per_sm, error) &&
         read_int (o, p, "sm_clock_mhz", 0, 1000000, &d->sm_clock_mhz, error) &&
         read_int (o, p, "mem_clock_mhz", 0, 1000000, &d->mem_clock_mhz, error) &&
         read_int (o, p, "mem_bus_bits", 0, 1 << 20, &d->mem_bus_bits, error) &&
         read_double (o, p, "peak_bandwidth_gbs", 0, MAX_GBS, &d->peak_bandwidth_gbs, error) &&
         read_string (o, p, "driver_version", &d->driver_version, error) &&
         read_string (o, p, "runtime_version", &d->runtime_version, error);
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
    return invalid (error, path, "%s: %u members; a measurement has at most %u",
                    what, json_object_get_size (o), max);
  names = json_object_get_members (o);
  for (GList *l = names; l; l = l->next, i++)
    if (!valid (l->data))
      {
        /* the name may not be printable: say where it is instead */
        g_autofree char *shown = g_utf8_validate (l->data, -1, NULL) && text_has_no_controls (l->data)
                                   ? g_strdup_printf ("“%.64s”", (const char *) l->data)
                                   : g_strdup_printf ("number %u", i + 1);
        return invalid (error, path, "%s: the name %s is not a valid name", what, shown);
      }
  return TRUE;
}

static gboolean
read_params (JsonObject    *o,
             const char    *path,
             WsMeasurement *m,
             GError       **error)
{
  JsonObject *params = read_object (o, path, "params", error);
  g_autoptr (GList) names = NULL;

  if (params == NULL ||
      !check_members (params, path, "params", WS_RECORDING_MAX_PARAMS, param_name_is_valid, error))
    return FALSE;
  names = json_object_get_members (params);
  for (GList *l = names; l; l = l->next)
    {
      g_autofree char *full = g_strdup_printf ("%s.params.%s", path, (const char *) l->data);
      gint64 v;

      if (!check_int (json_object_get_member (params, l->data), full, G_MININT64, G_MAXINT64, &v, error))
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
  JsonArray *a = read_array (o, path, "samples_ms", error);
  guint n;

  if (a == NULL)
    return FALSE;
  n = json_array_get_length (a);
  if (n == 0)
    return invalid (error, path, "samples_ms: empty; a measurement has at least one sample");
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *full = g_strdup_printf ("%s.samples_ms[%u]", path, i);
      double v;

      if (!check_double (json_array_get_element (a, i), full, 0, MAX_MS, &v, error))
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
  JsonObject *counters = read_object (o, path, "counters", error);
  g_autoptr (GList) names = NULL;

  if (counters == NULL ||
      !check_members (counters, path, "counters", WS_RECORDING_MAX_COUNTERS, counter_name_is_valid, error))
    return FALSE;
  names = json_object_get_members (counters);
  for (GList *l = names; l; l = l->next)
    {
      g_autofree char *full = g_strdup_printf ("%s.counters.%s", path, (const char *) l->data);
      double v;

      if (!check_double (json_object_get_member (counters, l->data), full, -1e300, 1e300, &v, error))
        return FALSE;
      ws_measurement_add_counter (m, l->data, v);
    }
  return TRUE;
}

static gboolean
read_summary (JsonObject    *o,
              const char    *p,
              WsMeasurement *m,
              GError       **error)
{
  if (!read_double (o, p, "median_ms", 0, MAX_MS, &m->median_ms, error) ||
      !read_double (o, p, "min_ms", 0, MAX_MS, &m->min_ms, error) ||
      !read_double (o, p, "max_ms", 0, MAX_MS, &m->max_ms, error))
    return FALSE;
  if (!(m->min_ms <= m->median_ms && m->median_ms <= m->max_ms))
    return invalid (error, p, "min_ms ≤ median_ms ≤ max_ms does not hold (%g, %g, %g)",
                    m->min_ms, m->median_ms, m->max_ms);
  return read_int64 (o, p, "bytes", 0, BIG, &m->bytes, error) &&
         read_double (o, p, "bandwidth_gbs", 0, MAX_GBS, &m->bandwidth_gbs, error);
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
      invalid (error, p, "expected an object, found %s", kind_of (node));
      return NULL;
    }
  o = json_node_get_object (node);
  if (!read_string (o, p, "id", &m->id, error) ||
      !read_string (o, p, "description", &m->description, error) ||
      !read_params (o, p, m, error) ||
      !read_samples (o, p, m, error) ||
      !read_summary (o, p, m, error) ||
      !read_bool (o, p, "cold", &m->cold, error) ||
      !read_int (o, p, "sm_clock_mhz", 0, 1000000, &m->sm_clock_mhz, error) ||
      !read_int (o, p, "registers", 0, 65536, &m->registers, error) ||
      !read_int (o, p, "local_bytes", 0, G_MAXINT, &m->local_bytes, error) ||
      !read_int (o, p, "shared_bytes", 0, G_MAXINT, &m->shared_bytes, error) ||
      !read_int (o, p, "blocks_per_sm", 0, 1 << 16, &m->blocks_per_sm, error) ||
      !read_int (o, p, "warps_per_sm", 0, 1 << 16, &m->warps_per_sm, error) ||
      !read_bool (o, p, "verified", &m->verified, error) ||
      !read_counters (o, p, m, error))
    return NULL;
  if (*m->id == '\0')
    {
      invalid (error, p, "id: empty");
      return NULL;
    }
  /* optional: what went wrong beside the timings */
  warning = json_object_get_member (o, "warning");
  if (warning && !read_string (o, p, "warning", &m->warning, error))
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

  if (!read_string (root, "", "format", &format, error))
    return FALSE;
  if (g_strcmp0 (format, FORMAT_NAME) != 0)
    return invalid (error, "format", "expected “%s”, found “%s”: not a Warpscope recording", FORMAT_NAME, format);
  if (!read_int64 (root, "", "version", G_MININT64, G_MAXINT64, &version, error))
    return FALSE;
  if (version != WS_RECORDING_FORMAT_VERSION)
    {
      g_set_error (error, WS_RECORDING_ERROR, WS_RECORDING_ERROR_VERSION,
                   "version: %" G_GINT64_FORMAT " is not a version this program reads (it reads version %d)%s",
                   version, WS_RECORDING_FORMAT_VERSION,
                   version > WS_RECORDING_FORMAT_VERSION ? "; a newer Warpscope made it" : "");
      return FALSE;
    }
  if (!read_string (root, "", "program_version", &self->program_version, error) ||
      !read_string (root, "", "date", &date, error))
    return FALSE;
  self->date = g_date_time_new_from_iso8601 (date, NULL);
  if (self->date == NULL)
    return invalid (error, "date", "“%s” is not an ISO 8601 date and time with a time zone", date);
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
    return invalid (error, "the top level", "expected an object, found %s", node ? kind_of (node) : "nothing");
  root = json_node_get_object (node);
  if (!read_header (root, self, error))
    return FALSE;
  self->device = ws_device_info_new ();
  if (!read_device (root, self->device, error))
    return FALSE;
  measurements = read_array (root, "", "measurements", error);
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
      invalid (error, "the device message", "expected an object, found %s", kind_of (node));
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
                   "%" G_GSSIZE_FORMAT " bytes: a recording is at most %d MiB", length, WS_RECORDING_MAX_BYTES >> 20);
      return NULL;
    }
  /* before json-glib, whose parser recurses once per level */
  if (!ws_json_check_depth (data, (gsize) length, WS_JSON_MAX_DEPTH, &parse_error))
    {
      g_set_error (error, WS_RECORDING_ERROR, WS_RECORDING_ERROR_PARSE, "not a recording: %s",
                   parse_error->message);
      return NULL;
    }
  if (!json_parser_load_from_data (parser, data, length, &parse_error))
    {
      /* json-glib quotes the bytes it stopped at, which may be anything */
      g_autofree char *shown = printable (parse_error->message);

      g_set_error (error, WS_RECORDING_ERROR, WS_RECORDING_ERROR_PARSE,
                   "not JSON (a truncated or damaged file?): %s", shown);
      return NULL;
    }
  if (json_parser_get_root (parser) == NULL)
    {
      g_set_error (error, WS_RECORDING_ERROR, WS_RECORDING_ERROR_PARSE, "not JSON: the data is empty");
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
  g_autoptr (GFileInfo) info = NULL;
  gsize length = 0;
  WsRecording *self;

  g_return_val_if_fail (G_IS_FILE (file), NULL);

  name = g_file_get_parse_name (file);
  info = g_file_query_info (file, G_FILE_ATTRIBUTE_STANDARD_SIZE "," G_FILE_ATTRIBUTE_STANDARD_TYPE,
                            G_FILE_QUERY_INFO_NONE, cancellable, error);
  if (info == NULL)
    return NULL;
  if (g_file_info_get_file_type (info) == G_FILE_TYPE_DIRECTORY)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_IS_DIRECTORY, "%s is a folder, not a recording", name);
      return NULL;
    }
  if (g_file_info_get_size (info) > WS_RECORDING_MAX_BYTES)
    {
      g_set_error (error, WS_RECORDING_ERROR, WS_RECORDING_ERROR_PARSE,
                   "%s: %" G_GOFFSET_FORMAT " bytes; a recording is at most %d MiB", name,
                   g_file_info_get_size (info), WS_RECORDING_MAX_BYTES >> 20);
      return NULL;
    }
  if (!g_file_load_contents (file, cancellable, &data, &length, NULL, error))
    return NULL;
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

static WsRecording *
load_first_in (const char *dir,
               GError    **error)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  if (d == NULL)
    return NULL;
  while ((name = g_dir_read_name (d)))
    if (g_str_has_suffix (name, ".json"))
      g_ptr_array_add (names, g_strdup (name));
  if (names->len == 0)
    return NULL;
  g_ptr_array_sort (names, compare_names);
  {
    g_autofree char *path = g_build_filename (dir, g_ptr_array_index (names, 0), NULL);
    g_autoptr (GFile) file = g_file_new_for_path (path);
    return ws_recording_load_file (file, NULL, error);
  }
}

WsRecording *
ws_recording_load_bundled (GError **error)
{
  g_autofree char *installed = g_build_filename (WS_PKGDATADIR, "recordings", NULL);
  g_autofree char *source = g_build_filename (WS_SOURCE_DATADIR, "recordings", NULL);
  GError *local = NULL;
  WsRecording *r;

  r = load_first_in (installed, &local);
  if (r == NULL && local == NULL)
    r = load_first_in (source, &local);
  if (r == NULL && local == NULL)
    g_set_error (&local, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                 "no bundled recording: no .json file in %s (installed) or %s (source tree)", installed, source);
  if (local)
    g_propagate_error (error, local);
  return r;
}
