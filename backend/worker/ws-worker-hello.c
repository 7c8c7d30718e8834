/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "ws-config.h"
#include "ws-worker-hello.h"
#include "ws-worker-transport.h"

#include <glib/gi18n-lib.h>
#include <string.h>

G_DEFINE_BOXED_TYPE (WsWorkerHello, ws_worker_hello, ws_worker_hello_copy, ws_worker_hello_free)

#define MAX_GPUS 1024
#define MAX_TEXT 1024

static WsGpuSummary *
summary_copy (const WsGpuSummary *s)
{
  WsGpuSummary *c = g_memdup2 (s, sizeof *s);

  c->name = g_strdup (s->name);
  return c;
}

static WsWorkerHello *
hello_new (void)
{
  WsWorkerHello *h = g_new0 (WsWorkerHello, 1);

  h->gpus = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_gpu_summary_free);
  return h;
}

WsWorkerHello *
ws_worker_hello_copy (const WsWorkerHello *h)
{
  WsWorkerHello *c;

  g_return_val_if_fail (h != NULL, NULL);

  c = hello_new ();
  c->version = g_strdup (h->version);
  c->protocol = h->protocol;
  c->host = g_strdup (h->host);
  for (guint i = 0; i < h->gpus->len; i++)
    g_ptr_array_add (c->gpus, summary_copy (g_ptr_array_index (h->gpus, i)));
  c->gpu = h->gpu;
  c->no_gpu = h->no_gpu ? g_error_copy (h->no_gpu) : NULL;
  c->job = g_strdup (h->job);
  c->replay = g_strdup (h->replay);
  return c;
}

void
ws_worker_hello_free (WsWorkerHello *h)
{
  if (h == NULL)
    return;
  g_free (h->version);
  g_free (h->host);
  g_ptr_array_unref (h->gpus);
  g_clear_error (&h->no_gpu);
  g_free (h->job);
  g_free (h->replay);
  g_free (h);
}

const WsGpuSummary *
ws_worker_hello_get_gpu (const WsWorkerHello *h)
{
  g_return_val_if_fail (h != NULL, NULL);

  for (guint i = 0; i < h->gpus->len; i++)
    {
      const WsGpuSummary *s = g_ptr_array_index (h->gpus, i);
      if (s->index == h->gpu)
        return s;
    }
  return NULL;
}

char *
ws_worker_hello_describe_gpu (const WsWorkerHello *h)
{
  const WsGpuSummary *s = ws_worker_hello_get_gpu (h);
  g_autofree char *memory = NULL;

  if (h->no_gpu)
    /* Translators: why there is none */
    return g_strdup_printf (_("no usable GPU: %s"), h->no_gpu->message);
  if (s == NULL)
    return g_strdup (_("no GPU"));
  memory = g_format_size_full (s->memory_bytes, G_FORMAT_SIZE_IEC_UNITS);
  if (h->gpus->len > 1)
    /* Translators: a GPU's name, its compute capability as CUDA names it
     * (sm_90), its memory, then which of the host's GPUs it is, counting from 0 */
    return g_strdup_printf (_("%s (sm_%d%d, %s), GPU %d of %u"), s->name, s->cc_major, s->cc_minor, memory,
                            s->index, h->gpus->len);
  return g_strdup_printf ("%s (sm_%d%d, %s)", s->name, s->cc_major, s->cc_minor, memory);
}

/* ------------------------------------------------------------------ */
/* The worker's side                                                  */
/* ------------------------------------------------------------------ */

static void
add_gpu (JsonBuilder        *b,
         const WsGpuSummary *s)
{
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "index");
  json_builder_add_int_value (b, s->index);
  json_builder_set_member_name (b, "name");
  json_builder_add_string_value (b, s->name);
  json_builder_set_member_name (b, "cc_major");
  json_builder_add_int_value (b, s->cc_major);
  json_builder_set_member_name (b, "cc_minor");
  json_builder_add_int_value (b, s->cc_minor);
  json_builder_set_member_name (b, "memory_bytes");
  json_builder_add_int_value (b, s->memory_bytes);
  json_builder_end_object (b);
}

static void
add_error (JsonBuilder  *b,
           const GError *error)
{
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "domain");
  json_builder_add_string_value (b, g_quark_to_string (error->domain));
  json_builder_set_member_name (b, "code");
  json_builder_add_int_value (b, error->code);
  json_builder_set_member_name (b, "message");
  json_builder_add_string_value (b, error->message);
  json_builder_end_object (b);
}

/* The GPUs there are, and the one asked for chosen; or why there is none. */
static GPtrArray *
choose_gpu (int       gpu,
            GError  **no_gpu,
            GError  **error)
{
  g_autoptr (GPtrArray) gpus = ws_gpu_list (no_gpu);
  g_autoptr (GError) local = NULL;

  if (gpus == NULL)
    return g_ptr_array_new_with_free_func ((GDestroyNotify) ws_gpu_summary_free);
  if (gpus->len == 0)
    {
      g_set_error_literal (no_gpu, WS_GPU_ERROR, WS_GPU_ERROR_NO_DEVICE, _("the NVIDIA driver sees no GPU"));
      return g_steal_pointer (&gpus);
    }
  if (!ws_gpu_select (gpu, &local))
    {
      /* an index it does not have: the client asked for the wrong one */
      g_set_error_literal (error, WS_WORKER_ERROR, WS_WORKER_ERROR_NO_SUCH_GPU, local->message);
      return NULL;
    }
  return g_steal_pointer (&gpus);
}

JsonNode *
ws_worker_hello_answer (JsonObject         *request,
                        const WsDeviceInfo *replay_device,
                        const char         *replay_name,
                        GError            **error)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  g_autoptr (GPtrArray) gpus = NULL;
  g_autoptr (GError) no_gpu = NULL;
  JsonNode *gpu_node = json_object_get_member (request, "gpu");
  /* an index, or absent (0): anything else is no index at all */
  gboolean is_int = gpu_node == NULL || (JSON_NODE_HOLDS_VALUE (gpu_node) &&
                                         json_node_get_value_type (gpu_node) == G_TYPE_INT64);
  gint64 gpu = gpu_node && is_int ? json_node_get_int (gpu_node) : 0;
  const char *job = g_getenv ("SLURM_JOB_ID");

  if (!is_int)
    {
      /* Translators: “gpu” is the request's member, a number */
      g_set_error_literal (error, WS_WORKER_ERROR, WS_WORKER_ERROR_NO_SUCH_GPU, _("“gpu” must be an index, from 0"));
      return NULL;
    }
  if (gpu < 0 || gpu > MAX_GPUS)
    {
      g_set_error (error, WS_WORKER_ERROR, WS_WORKER_ERROR_NO_SUCH_GPU, _("GPU %lld: an index counts from 0"),
                   (long long) gpu);
      return NULL;
    }
  if (replay_device)
    {
      WsGpuSummary s = { 0, replay_device->name, replay_device->cc_major, replay_device->cc_minor,
                         replay_device->global_mem_bytes };

      if (gpu != 0)
        {
          g_set_error (error, WS_WORKER_ERROR, WS_WORKER_ERROR_NO_SUCH_GPU,
                       /* Translators: a recording's name, then the GPU asked for */
                       _("this worker plays back %s, which holds one GPU (0), not GPU %lld"),
                       replay_name, (long long) gpu);
          return NULL;
        }
      gpus = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_gpu_summary_free);
      g_ptr_array_add (gpus, summary_copy (&s));
    }
  else if ((gpus = choose_gpu ((int) gpu, &no_gpu, error)) == NULL)
    return NULL;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "program");
  json_builder_add_string_value (b, "warpscope-gpu-worker");
  json_builder_set_member_name (b, "version");
  json_builder_add_string_value (b, WS_VERSION);
  json_builder_set_member_name (b, "protocol");
  json_builder_add_int_value (b, WS_WORKER_PROTOCOL);
  json_builder_set_member_name (b, "host");
  json_builder_add_string_value (b, g_get_host_name ());
  json_builder_set_member_name (b, "gpus");
  json_builder_begin_array (b);
  for (guint i = 0; i < gpus->len; i++)
    add_gpu (b, g_ptr_array_index (gpus, i));
  json_builder_end_array (b);
  json_builder_set_member_name (b, "gpu");
  json_builder_add_int_value (b, gpu);
  if (no_gpu)
    {
      json_builder_set_member_name (b, "no_gpu");
      add_error (b, no_gpu);
    }
  if (job && job[0])
    {
      json_builder_set_member_name (b, "job");
      json_builder_add_string_value (b, job);
    }
  if (replay_name)
    {
      json_builder_set_member_name (b, "replay");
      json_builder_add_string_value (b, replay_name);
    }
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

/* ------------------------------------------------------------------ */
/* The client's side                                                  */
/* ------------------------------------------------------------------ */

JsonObject *
ws_worker_hello_request (int gpu)
{
  JsonObject *o = json_object_new ();

  json_object_set_string_member (o, "op", "hello");
  json_object_set_int_member (o, "protocol", WS_WORKER_PROTOCOL);
  json_object_set_string_member (o, "version", WS_VERSION);
  json_object_set_int_member (o, "gpu", gpu);
  return o;
}

/* what: the member of the answer that is wrong, or NULL when the answer is
 * no object at all */
static gboolean
protocol_error (GError    **error,
                const char *place,
                const char *what)
{
  if (what == NULL)
    g_set_error (error, WS_WORKER_ERROR, WS_WORKER_ERROR_PROTOCOL,
                 /* Translators: where the GPU worker runs: a host's name, “this
                  * computer”, Slurm (and its partition or job) or “the machine
                  * the command reaches” */
                 _("the GPU worker on %s answered the handshake with something else than Warpscope's (not an "
                   "object)"), place);
  else
    g_set_error (error, WS_WORKER_ERROR, WS_WORKER_ERROR_PROTOCOL,
                 /* Translators: where the GPU worker runs (a host's name, “this
                  * computer”, Slurm or “the machine the command reaches”), then the
                  * member of its answer that is wrong, as the protocol names it */
                 _("the GPU worker on %s answered the handshake with something else than Warpscope's (%s)"),
                 place, what);
  return FALSE;
}

/* A member that is a string of sane length, or absent when optional. */
static gboolean
get_text (JsonObject *o,
          const char *name,
          gboolean    optional,
          char      **out,
          const char *place,
          GError    **error)
{
  JsonNode *n = json_object_get_member (o, name);
  const char *s;

  if (n == NULL && optional)
    return TRUE;
  if (n == NULL || !JSON_NODE_HOLDS_VALUE (n) || json_node_get_value_type (n) != G_TYPE_STRING)
    return protocol_error (error, place, name);
  s = json_node_get_string (n);
  if (strlen (s) > MAX_TEXT || !g_utf8_validate (s, -1, NULL))
    return protocol_error (error, place, name);
  *out = g_strdup (s);
  return TRUE;
}

static gboolean
get_int (JsonObject *o,
         const char *name,
         gint64      min,
         gint64      max,
         gint64     *out,
         const char *place,
         GError    **error)
{
  JsonNode *n = json_object_get_member (o, name);

  if (n == NULL || !JSON_NODE_HOLDS_VALUE (n) || json_node_get_value_type (n) != G_TYPE_INT64 ||
      json_node_get_int (n) < min || json_node_get_int (n) > max)
    return protocol_error (error, place, name);
  *out = json_node_get_int (n);
  return TRUE;
}

static gboolean
read_gpus (JsonObject    *o,
           WsWorkerHello *h,
           const char    *place,
           GError       **error)
{
  JsonNode *n = json_object_get_member (o, "gpus");
  JsonArray *a;

  if (n == NULL || !JSON_NODE_HOLDS_ARRAY (n) || json_array_get_length (a = json_node_get_array (n)) > MAX_GPUS)
    return protocol_error (error, place, "gpus");
  for (guint i = 0; i < json_array_get_length (a); i++)
    {
      JsonNode *e = json_array_get_element (a, i);
      g_autoptr (WsGpuSummary) s = g_new0 (WsGpuSummary, 1);
      gint64 index, major, minor;

      if (!JSON_NODE_HOLDS_OBJECT (e))
        return protocol_error (error, place, "gpus");
      o = json_node_get_object (e);
      if (!get_int (o, "index", 0, MAX_GPUS, &index, place, error) ||
          !get_text (o, "name", FALSE, &s->name, place, error) ||
          !get_int (o, "cc_major", 0, 1000, &major, place, error) ||
          !get_int (o, "cc_minor", 0, 1000, &minor, place, error) ||
          !get_int (o, "memory_bytes", 0, G_MAXINT64, &s->memory_bytes, place, error))
        return FALSE;
      s->index = (int) index;
      s->cc_major = (int) major;
      s->cc_minor = (int) minor;
      g_ptr_array_add (h->gpus, g_steal_pointer (&s));
    }
  return TRUE;
}

static GError *
mismatch (const WsWorkerHello *h,
          const char          *place)
{
  if (h->host)
    place = h->host;
  if (h->protocol < WS_WORKER_PROTOCOL && h->version)
    return g_error_new (WS_WORKER_ERROR, WS_WORKER_ERROR_VERSION_MISMATCH,
                        /* Translators: where the GPU worker runs, its version and protocol, this
                         * program's version and protocol, then where it runs again */
                        _("the GPU worker on %s is Warpscope %s (protocol %d), older than this program (Warpscope "
                          "%s, protocol %d): update Warpscope on %s"), place, h->version, h->protocol, WS_VERSION,
                        WS_WORKER_PROTOCOL, place);
  if (h->protocol < WS_WORKER_PROTOCOL)
    return g_error_new (WS_WORKER_ERROR, WS_WORKER_ERROR_VERSION_MISMATCH,
                        /* Translators: where the GPU worker runs, its protocol, this program's
                         * version and protocol, then where it runs again */
                        _("the GPU worker on %s is Warpscope older (protocol %d), older than this program (Warpscope "
                          "%s, protocol %d): update Warpscope on %s"), place, h->protocol, WS_VERSION,
                        WS_WORKER_PROTOCOL, place);
  if (h->version)
    return g_error_new (WS_WORKER_ERROR, WS_WORKER_ERROR_VERSION_MISMATCH,
                        /* Translators: where the GPU worker runs, its version and protocol, then
                         * this program's version and protocol */
                        _("the GPU worker on %s is Warpscope %s (protocol %d), newer than this program (Warpscope "
                          "%s, protocol %d): update Warpscope on this computer"), place, h->version, h->protocol,
                        WS_VERSION, WS_WORKER_PROTOCOL);
  return g_error_new (WS_WORKER_ERROR, WS_WORKER_ERROR_VERSION_MISMATCH,
                      /* Translators: where the GPU worker runs, its protocol, then this
                       * program's version and protocol */
                      _("the GPU worker on %s is Warpscope older (protocol %d), newer than this program (Warpscope "
                        "%s, protocol %d): update Warpscope on this computer"), place, h->protocol, WS_VERSION,
                      WS_WORKER_PROTOCOL);
}

WsWorkerHello *
ws_worker_hello_from_json (JsonNode   *reply,
                           const char *place,
                           GError    **error)
{
  g_autoptr (WsWorkerHello) h = hello_new ();
  JsonObject *o;
  JsonNode *no_gpu;
  gint64 protocol, gpu;

  if (!JSON_NODE_HOLDS_OBJECT (reply))
    {
      protocol_error (error, place, NULL);
      return NULL;
    }
  o = json_node_get_object (reply);
  /* the version first: what else it says may be another protocol's */
  if (!get_int (o, "protocol", 0, G_MAXINT, &protocol, place, error) ||
      !get_text (o, "version", FALSE, &h->version, place, error) ||
      !get_text (o, "host", TRUE, &h->host, place, error))
    return NULL;
  h->protocol = (int) protocol;
  if (h->protocol != WS_WORKER_PROTOCOL)
    {
      g_propagate_error (error, mismatch (h, place));
      return NULL;
    }
  if (h->host == NULL)
    {
      protocol_error (error, place, "host");
      return NULL;
    }
  if (!read_gpus (o, h, place, error) ||
      !get_int (o, "gpu", 0, MAX_GPUS, &gpu, place, error) ||
      !get_text (o, "job", TRUE, &h->job, place, error) ||
      !get_text (o, "replay", TRUE, &h->replay, place, error))
    return NULL;
  h->gpu = (int) gpu;
  if ((no_gpu = json_object_get_member (o, "no_gpu")) != NULL)
    {
      JsonObject *e;
      g_autofree char *domain = NULL;
      g_autofree char *message = NULL;
      gint64 code;

      if (!JSON_NODE_HOLDS_OBJECT (no_gpu))
        {
          protocol_error (error, place, "no_gpu");
          return NULL;
        }
      e = json_node_get_object (no_gpu);
      if (!get_text (e, "domain", FALSE, &domain, place, error) ||
          !get_int (e, "code", 0, G_MAXINT, &code, place, error) ||
          !get_text (e, "message", FALSE, &message, place, error))
        return NULL;
      h->no_gpu = g_error_new_literal (g_quark_from_string (domain), (int) code, message);
    }
  return g_steal_pointer (&h);
}

GError *
ws_worker_hello_refused (const GError *error,
                         const char   *place)
{
  /* protocol 1 knew no handshake */
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT) && strstr (error->message, "hello"))
    return g_error_new (WS_WORKER_ERROR, WS_WORKER_ERROR_VERSION_MISMATCH,
                        /* Translators: where the GPU worker runs, this program's version and
                         * protocol, then where it runs again */
                        _("the GPU worker on %s is an older Warpscope (protocol 1, without a handshake) than this "
                          "program (Warpscope %s, protocol %d): update Warpscope on %s"), place, WS_VERSION,
                        WS_WORKER_PROTOCOL, place);
  if (error->domain == WS_WORKER_ERROR)
    return g_error_new (error->domain, error->code, "%s: %s", place, error->message);
  return g_error_new (WS_WORKER_ERROR, WS_WORKER_ERROR_PROTOCOL,
                      /* Translators: where the GPU worker runs, then why it refused */
                      _("the GPU worker on %s refused the handshake: %s"), place, error->message);
}
