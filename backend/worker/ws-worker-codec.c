/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "ws-config.h"
#include "ws-worker-codec.h"
#include "ws-model-json.h"

#include <glib/gi18n-lib.h>
#include <string.h>

/* A kernel of one's own sets a few dozen names of its launch at most. */
#define MAX_LAUNCH_NAMES 256

/* ------------------------------------------------------------------ */
/* Requests                                                           */
/* ------------------------------------------------------------------ */

static void
param_value_clear (gpointer data)
{
  g_free (((WsParamValue *) data)->name);
}

WsMeasureRequest *
ws_measure_request_new (void)
{
  WsMeasureRequest *r = g_new0 (WsMeasureRequest, 1);

  r->params = g_array_new (FALSE, TRUE, sizeof (WsParamValue));
  g_array_set_clear_func (r->params, param_value_clear);
  r->options = WS_MEASURE_OPTIONS_DEFAULT;
  return r;
}

void
ws_measure_request_set_param (WsMeasureRequest *request,
                              const char       *name,
                              gint64            value)
{
  WsParamValue p;

  g_return_if_fail (request != NULL);
  g_return_if_fail (name != NULL);

  for (guint i = 0; i < request->params->len; i++)
    {
      WsParamValue *q = &g_array_index (request->params, WsParamValue, i);
      if (strcmp (q->name, name) == 0)
        {
          q->value = value;
          return;
        }
    }
  p.name = g_strdup (name);
  p.value = value;
  g_array_append_val (request->params, p);
}

WsMeasureRequest *
ws_measure_request_copy (const WsMeasureRequest *request)
{
  WsMeasureRequest *copy;

  g_return_val_if_fail (request != NULL, NULL);

  copy = ws_measure_request_new ();
  copy->kernel_id = g_strdup (request->kernel_id);
  copy->pattern = request->pattern ? ws_pattern_copy (request->pattern) : NULL;
  copy->kernel_text = request->kernel_text ? ws_kernel_spec_copy (request->kernel_text) : NULL;
  for (guint i = 0; request->params && i < request->params->len; i++)
    {
      const WsParamValue *p = &g_array_index (request->params, WsParamValue, i);
      ws_measure_request_set_param (copy, p->name, p->value);
    }
  copy->options = request->options;
  copy->sweep_param = g_strdup (request->sweep_param);
  return copy;
}

void
ws_measure_request_free (WsMeasureRequest *request)
{
  if (request == NULL)
    return;
  g_free (request->kernel_id);
  g_free (request->sweep_param);
  g_clear_pointer (&request->pattern, ws_pattern_unref);
  g_clear_pointer (&request->kernel_text, ws_kernel_spec_free);
  g_clear_pointer (&request->params, g_array_unref);
  g_free (request);
}

/* ------------------------------------------------------------------ */
/* Writing                                                            */
/* ------------------------------------------------------------------ */

static JsonObject *
kernel_text_to_json (const WsKernelSpec *spec)
{
  JsonObject *o = json_object_new ();
  JsonArray *launch = json_array_new ();

  json_object_set_string_member (o, "text", spec->text);
  json_object_set_string_member (o, "name", spec->display_name);
  if (spec->kernel)
    json_object_set_string_member (o, "kernel", spec->kernel);
  for (guint i = 0; i < spec->names->len; i++)
    {
      JsonArray *pair = json_array_new ();

      json_array_add_string_element (pair, spec->names->pdata[i]);
      json_array_add_string_element (pair, spec->values->pdata[i]);
      json_array_add_array_element (launch, pair);
    }
  json_object_set_array_member (o, "launch", launch);
  return o;
}

JsonObject *
ws_worker_codec_measure (const WsMeasureRequest *request)
{
  JsonObject *o = json_object_new ();
  JsonObject *options = json_object_new ();

  g_return_val_if_fail (request != NULL, NULL);

  json_object_set_string_member (o, "op", "measure");
  if (request->kernel_id)
    {
      JsonObject *params = json_object_new ();

      json_object_set_string_member (o, "kernel", request->kernel_id);
      for (guint i = 0; i < request->params->len; i++)
        {
          const WsParamValue *p = &g_array_index (request->params, WsParamValue, i);
          json_object_set_int_member (params, p->name, p->value);
        }
      json_object_set_object_member (o, "params", params);
    }
  else if (request->kernel_text)
    json_object_set_object_member (o, "kernel_text", kernel_text_to_json (request->kernel_text));
  else
    json_object_set_member (o, "pattern", ws_pattern_to_json (request->pattern));
  json_object_set_int_member (options, "samples", request->options.samples);
  json_object_set_int_member (options, "warmup", request->options.warmup);
  json_object_set_boolean_member (options, "cold", request->options.cold);
  json_object_set_boolean_member (options, "counters", request->options.counters);
  if (request->options.deadline_ms)
    json_object_set_int_member (options, "deadline_ms", request->options.deadline_ms);
  json_object_set_object_member (o, "options", options);
  return o;
}

JsonObject *
ws_worker_codec_count (const WsPattern *pattern,
                       gboolean         cold,
                       gboolean         hold)
{
  JsonObject *o = json_object_new ();

  json_object_set_string_member (o, "op", "count");
  json_object_set_member (o, "pattern", ws_pattern_to_json (pattern));
  json_object_set_boolean_member (o, "cold", cold);
  json_object_set_boolean_member (o, "hold", hold);
  return o;
}

JsonObject *
ws_worker_codec_simple (const char *op)
{
  JsonObject *o = json_object_new ();

  json_object_set_string_member (o, "op", op);
  return o;
}

/* ------------------------------------------------------------------ */
/* Reading                                                            */
/* ------------------------------------------------------------------ */

static gboolean
holds_type (JsonNode *node,
            GType     type)
{
  return node != NULL && JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == type;
}

const char *
ws_worker_codec_read_op (JsonObject *request)
{
  JsonNode *op = json_object_get_member (request, "op");

  return holds_type (op, G_TYPE_STRING) ? json_node_get_string (op) : NULL;
}

gint64
ws_worker_codec_read_id (JsonObject *request)
{
  JsonNode *id = json_object_get_member (request, "id");

  return holds_type (id, G_TYPE_INT64) ? json_node_get_int (id) : 0;
}

/* An optional member: absent (def), or of its type and in its range. */
static gboolean
read_int (JsonObject *o,
          const char *name,
          gint64      min,
          gint64      max,
          guint      *value,
          GError    **error)
{
  JsonNode *node = json_object_get_member (o, name);

  if (node == NULL)
    return TRUE;
  if (!holds_type (node, G_TYPE_INT64) || json_node_get_int (node) < min || json_node_get_int (node) > max)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   /* Translators: options.NAME is a member of the request; then the range it must be in */
                   _("options.%s: expected an integer from %lld to %lld"), name, (long long) min, (long long) max);
      return FALSE;
    }
  *value = (guint) json_node_get_int (node);
  return TRUE;
}

static gboolean
read_bool (JsonObject *o,
           const char *name,
           gboolean    def,
           gboolean   *value,
           GError    **error)
{
  JsonNode *node = json_object_get_member (o, name);

  *value = def;
  if (node == NULL)
    return TRUE;
  if (!holds_type (node, G_TYPE_BOOLEAN))
    {
      /* Translators: %s is a member of the request */
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, _("%s: expected true or false"), name);
      return FALSE;
    }
  *value = json_node_get_boolean (node);
  return TRUE;
}

/* An object member, or NULL (absent) and TRUE; FALSE if it is something else. */
static gboolean
read_object (JsonObject  *o,
             const char  *name,
             JsonObject **value,
             GError     **error)
{
  JsonNode *node = json_object_get_member (o, name);

  *value = NULL;
  if (node == NULL)
    return TRUE;
  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      /* Translators: %s is a member of the request */
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, _("%s: expected an object"), name);
      return FALSE;
    }
  *value = json_node_get_object (node);
  return TRUE;
}

/* A string member: present and a string, or absent where optional. */
static gboolean
read_string (JsonObject  *o,
             const char  *path,
             const char  *name,
             gboolean     optional,
             const char **value,
             GError     **error)
{
  JsonNode *node = json_object_get_member (o, name);

  *value = NULL;
  if (node == NULL && optional)
    return TRUE;
  if (!holds_type (node, G_TYPE_STRING))
    {
      /* Translators: PATH.NAME is a member of the request */
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, _("%s.%s: expected a string"), path, name);
      return FALSE;
    }
  *value = json_node_get_string (node);
  return TRUE;
}

/* What a request may ask for: ws_gpu_measure () checks the samples; the
 * warm-up is bounded here, else it could run for days. */
static gboolean
read_options (JsonObject       *request,
              WsMeasureOptions *options,
              GError          **error)
{
  JsonObject *o;

  *options = WS_MEASURE_OPTIONS_DEFAULT;
  if (!read_object (request, "options", &o, error))
    return FALSE;
  if (o == NULL)
    return TRUE;
  return read_int (o, "samples", 0, G_MAXUINT32, &options->samples, error) &&
         read_int (o, "warmup", 0, 1000, &options->warmup, error) &&
         read_bool (o, "cold", options->cold, &options->cold, error) &&
         read_bool (o, "counters", options->counters, &options->counters, error) &&
         read_int (o, "deadline_ms", 0, 3600 * 1000, &options->deadline_ms, error);
}

static gboolean
read_params (JsonObject       *request,
             WsMeasureRequest *r,
             GError          **error)
{
  JsonObject *params = NULL;
  g_autoptr (GList) names = NULL;

  if (!read_object (request, "params", &params, error))
    return FALSE;
  /* a kernel has a few parameters: any more is not a request of ours */
  if (params && json_object_get_size (params) > 64)
    {
      /* Translators: params is a member of the request */
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, _("params: more than 64"));
      return FALSE;
    }
  names = params ? json_object_get_members (params) : NULL;
  for (GList *l = names; l; l = l->next)
    {
      JsonNode *value = json_object_get_member (params, l->data);

      if (!holds_type (value, G_TYPE_INT64))
        {
          g_autofree char *shown = ws_text_for_message (l->data);
          /* Translators: params.NAME is a member of the request */
          g_set_error (error, WS_GPU_ERROR, WS_GPU_ERROR_INVALID_PARAM, _("params.%s: expected an integer"), shown);
          return FALSE;
        }
      ws_measure_request_set_param (r, l->data, json_node_get_int (value));
    }
  return TRUE;
}

static WsKernelSpec *
read_kernel_text (JsonObject  *request,
                  GError     **error)
{
  JsonObject *o = NULL;
  const char *text, *name, *kernel;
  JsonNode *launch_node;
  JsonArray *launch;
  g_autoptr (WsKernelSpec) spec = NULL;

  if (!read_object (request, "kernel_text", &o, error) ||
      !read_string (o, "kernel_text", "text", FALSE, &text, error) ||
      !read_string (o, "kernel_text", "name", TRUE, &name, error) ||
      !read_string (o, "kernel_text", "kernel", TRUE, &kernel, error))
    return NULL;
  if (strlen (text) > WS_KERNEL_MAX_TEXT)
    {
      /* Translators: kernel_text.text is a member of the request; %u the most bytes it may have */
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, _("kernel_text.text: longer than %u bytes"),
                   (guint) WS_KERNEL_MAX_TEXT);
      return NULL;
    }
  spec = ws_kernel_spec_new (text, name);
  ws_kernel_spec_set_kernel (spec, kernel);
  launch_node = json_object_get_member (o, "launch");
  if (launch_node == NULL)
    return g_steal_pointer (&spec);
  if (!JSON_NODE_HOLDS_ARRAY (launch_node) ||
      json_array_get_length (launch = json_node_get_array (launch_node)) > MAX_LAUNCH_NAMES)
    {
      /* Translators: kernel_text.launch is a member of the request; %u the most pairs it may have */
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("kernel_text.launch: expected an array of at most %u [name, value] pairs"), MAX_LAUNCH_NAMES);
      return NULL;
    }
  for (guint i = 0; i < json_array_get_length (launch); i++)
    {
      JsonNode *pair = json_array_get_element (launch, i);
      JsonArray *a = JSON_NODE_HOLDS_ARRAY (pair) ? json_node_get_array (pair) : NULL;

      if (a == NULL || json_array_get_length (a) != 2 ||
          !holds_type (json_array_get_element (a, 0), G_TYPE_STRING) ||
          !holds_type (json_array_get_element (a, 1), G_TYPE_STRING))
        {
          /* Translators: kernel_text.launch[N] is a member of the request */
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                       _("kernel_text.launch[%u]: expected a [name, value] pair of strings"), i);
          return NULL;
        }
      ws_kernel_spec_set (spec, json_array_get_string_element (a, 0), json_array_get_string_element (a, 1));
    }
  return g_steal_pointer (&spec);
}

WsMeasureRequest *
ws_worker_codec_read_measure (JsonObject *request,
                              GError    **error)
{
  g_autoptr (WsMeasureRequest) r = ws_measure_request_new ();

  if (!read_options (request, &r->options, error))
    return NULL;
  if (json_object_has_member (request, "pattern"))
    {
      if ((r->pattern = ws_pattern_from_json (json_object_get_member (request, "pattern"), error)) == NULL)
        return NULL;
    }
  else if (json_object_has_member (request, "kernel_text"))
    {
      if ((r->kernel_text = read_kernel_text (request, error)) == NULL)
        return NULL;
    }
  else
    {
      const char *kernel;

      if (!read_string (request, "measure", "kernel", FALSE, &kernel, error) || !read_params (request, r, error))
        return NULL;
      r->kernel_id = g_strdup (kernel);
    }
  return g_steal_pointer (&r);
}

WsPattern *
ws_worker_codec_read_count (JsonObject *request,
                            gboolean   *cold,
                            gboolean   *hold,
                            GError    **error)
{
  g_autoptr (WsPattern) pattern = NULL;

  if (!json_object_has_member (request, "pattern"))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, _("a count request needs a pattern"));
      return NULL;
    }
  pattern = ws_pattern_from_json (json_object_get_member (request, "pattern"), error);
  if (pattern == NULL || !read_bool (request, "cold", TRUE, cold, error) ||
      !read_bool (request, "hold", FALSE, hold, error))
    return NULL;
  return g_steal_pointer (&pattern);
}
