/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the GPU worker is sent (lines of requests): every line gets at most
 * one answer, each a JSON object of valid UTF-8 with an integer id, and the
 * worker ends when its input does. (Built without CUDA, the worker answers
 * every GPU request with the reason there is none: the parsing and checking
 * of requests are what is fuzzed.) */
#include "fuzz-common.h"

#include <string.h>

#include "ws-worker-server.h"
#include "ws-json.h"

int
LLVMFuzzerInitialize (int    *argc,
                      char ***argv)
{
  fuzz_init_glib ();
  return 0;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr (GInputStream) in = g_memory_input_stream_new_from_data (g_memdup2 (data, size), size, g_free);
  g_autoptr (GOutputStream) out = g_memory_output_stream_new_resizable ();
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  guint n_lines = 1;

  for (size_t i = 0; i < size; i++)
    n_lines += data[i] == '\n';
  FUZZ_CHECK (ws_gpu_worker_run (in, out) == 0);
  FUZZ_CHECK (g_output_stream_close (out, NULL, NULL));
  if (g_memory_output_stream_get_data_size (G_MEMORY_OUTPUT_STREAM (out)) == 0)
    return 0;
  text = g_strndup (g_memory_output_stream_get_data (G_MEMORY_OUTPUT_STREAM (out)),
                    g_memory_output_stream_get_data_size (G_MEMORY_OUTPUT_STREAM (out)));
  FUZZ_CHECK (strlen (text) == g_memory_output_stream_get_data_size (G_MEMORY_OUTPUT_STREAM (out)));
  FUZZ_CHECK (g_utf8_validate (text, -1, NULL));
  lines = g_strsplit (text, "\n", -1);
  FUZZ_CHECK (g_strv_length (lines) <= n_lines + 1);
  for (guint i = 0; lines[i]; i++)
    {
      g_autoptr (JsonNode) node = NULL;
      JsonObject *o;

      if (*lines[i] == '\0')
        continue;
      node = json_from_string (lines[i], NULL);
      FUZZ_CHECK (node != NULL && JSON_NODE_HOLDS_OBJECT (node));
      o = json_node_get_object (node);
      FUZZ_CHECK (json_object_has_member (o, "id"));
      FUZZ_CHECK (json_node_get_value_type (json_object_get_member (o, "id")) == G_TYPE_INT64);
    }
  return 0;
}
