/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "ws-config.h"
#include "ws-device-calibrate.h"
#include "ws-device-json.h"
#include "ws-json.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* The calibration, as JSON                                           */
/* ------------------------------------------------------------------ */

static void
clear_calibrated (gpointer data)
{
  g_free (((WsCalibrated *) data)->how);
}

WsCalibration *
ws_calibration_new (const char *name,
                    GArray     *values)
{
  WsCalibration *c = g_new0 (WsCalibration, 1);

  c->name = g_strdup (name);
  c->values = values ? g_array_ref (values) : g_array_new (FALSE, TRUE, sizeof (WsCalibrated));
  if (values == NULL)
    g_array_set_clear_func (c->values, clear_calibrated);
  return c;
}

void
ws_calibration_free (WsCalibration *calibration)
{
  if (calibration == NULL)
    return;
  g_free (calibration->name);
  g_array_unref (calibration->values);
  g_free (calibration);
}

JsonNode *
ws_calibration_to_json (const WsCalibration *calibration)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();

  g_return_val_if_fail (calibration != NULL, NULL);

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "name");
  json_builder_add_string_value (b, calibration->name ? calibration->name : "");
  json_builder_set_member_name (b, "values");
  json_builder_begin_array (b);
  for (guint i = 0; i < calibration->values->len; i++)
    {
      const WsCalibrated *v = &g_array_index (calibration->values, WsCalibrated, i);

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "field");
      json_builder_add_string_value (b, v->field);
      json_builder_set_member_name (b, "value");
      json_builder_add_double_value (b, v->value);
      json_builder_set_member_name (b, "how");
      json_builder_add_string_value (b, v->how ? v->how : "");
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

static gboolean
number_in (JsonObject *o,
           const char *member,
           double     *out)
{
  JsonNode *n = json_object_get_member (o, member);

  if (n == NULL || !JSON_NODE_HOLDS_VALUE (n))
    return FALSE;
  if (json_node_get_value_type (n) == G_TYPE_INT64)
    *out = (double) json_node_get_int (n);
  else if (json_node_get_value_type (n) == G_TYPE_DOUBLE)
    *out = json_node_get_double (n);
  else
    return FALSE;
  return isfinite (*out);
}

/* A string member of valid UTF-8, at most max bytes. */
static gboolean
is_text (JsonObject *o,
         const char *member,
         gsize       max)
{
  const char *t = ws_json_string_or (o, member, NULL);

  return t != NULL && strlen (t) <= max && g_utf8_validate (t, -1, NULL);
}

WsCalibration *
ws_calibration_from_json (JsonNode *node,
                          GError  **error)
{
  g_autoptr (WsCalibration) c = NULL;
  JsonObject *o;
  JsonNode *values;
  JsonArray *a;

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    goto bad;
  o = json_node_get_object (node);
  values = json_object_get_member (o, "values");
  if (values == NULL || !JSON_NODE_HOLDS_ARRAY (values) || !is_text (o, "name", 256))
    goto bad;
  c = ws_calibration_new (json_object_get_string_member (o, "name"), NULL);
  a = json_node_get_array (values);
  for (guint i = 0; i < json_array_get_length (a) && i < 256; i++)
    {
      JsonNode *e = json_array_get_element (a, i);
      JsonObject *v = JSON_NODE_HOLDS_OBJECT (e) ? json_node_get_object (e) : NULL;
      const WsProfileField *f = v ? ws_device_profile_field (ws_json_string_or (v, "field", "")) : NULL;
      WsCalibrated out = { 0 };

      if (f == NULL || !number_in (v, "value", &out.value) ||
          (json_object_has_member (v, "how") && !is_text (v, "how", 4096)))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       /* Translators: values is a member of the GPU worker's answer, %u an index in it */
                       _("calibration: values[%u] is no profile field with a number and how, as text"), i);
          return NULL;
        }
      out.field = f->name;
      out.how = g_strdup (ws_json_string_or (v, "how", ""));
      g_array_append_val (c->values, out);
    }
  return g_steal_pointer (&c);

bad:
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("calibration: expected {\"name\": …, \"values\": […]}"));
  return NULL;
}

const WsCalibrated *
ws_calibration_lookup (const WsCalibration *calibration,
                       const char          *field)
{
  for (guint i = 0; i < calibration->values->len; i++)
    {
      const WsCalibrated *v = &g_array_index (calibration->values, WsCalibrated, i);

      if (g_strcmp0 (v->field, field) == 0)
        return v;
    }
  return NULL;
}

/* ------------------------------------------------------------------ */
/* Defaults                                                           */
/* ------------------------------------------------------------------ */

static double
queried (const WsCalibration *c,
         const char          *field,
         double               otherwise)
{
  const WsCalibrated *v = ws_calibration_lookup (c, field);
  const WsProfileField *f = ws_device_profile_field (field);

  /* a worker's answer is not trusted: a value outside the field's range
   * (which the profile would refuse anyway) keeps the default */
  if (v == NULL || (f != NULL && (v->value < f->min || v->value > f->max)))
    return otherwise;
  return v->value;
}

WsDeviceProfile *
ws_device_profile_defaults (const WsCalibration *c)
{
  /* the carve-outs the SMs since Ampere offer, as many as fit */
  static const guint carveouts[] = { 0, 8, 16, 32, 64, 100, 132, 164, 196, 228 };
  WsDeviceProfile *p = ws_device_profile_new ();
  double l2;

  p->name = g_strdup (c->name && *c->name ? c->name : "unknown GPU");
  p->id = ws_device_slug (p->name);
  if (*p->id == '\0')
    {
      g_free (p->id);
      p->id = g_strdup ("gpu");
    }
  p->source = g_strdup ("defaults");
  p->cc_major = (int) queried (c, "cc_major", 8);
  p->cc_minor = (int) queried (c, "cc_minor", 0);
  p->sms = (guint) queried (c, "sms", 80);
  p->sm_clock_mhz = queried (c, "sm_clock_mhz", 1400);
  p->memory_clock_mhz = queried (c, "memory_clock_mhz", 1500);
  p->l1_shared_bytes = (guint64) queried (c, "l1_shared_bytes", 196608);
  for (guint i = 0; i < G_N_ELEMENTS (carveouts); i++)
    if (carveouts[i] * 1024 + 28 * 1024 <= p->l1_shared_bytes)
      p->carveouts_kib[p->n_carveouts++] = carveouts[i];
  p->l1_ways = 4;
  p->store_buffer_lines = 4;
  l2 = queried (c, "l2_bytes", 40 << 20);
  p->l2_bytes = (guint64) l2;
  p->l2_reuse_bytes = (guint64) (l2 * 0.7);
  p->l2_ways = 16;
  p->l2_slices = 64;
  p->l2_dirty_bytes = (guint64) (l2 * 0.5);
  p->l2_partial_bytes = (guint64) (l2 * 0.1);
  p->dram_read_bytes_per_s = 1.5e12;
  p->dram_write_bytes_per_s = 1.4e12;
  p->dram_burst_ns = 0.01;
  p->dram_turnaround = 0.2;
  p->l2_sectors_per_s = 1.5e11;
  p->l2_read_requests_per_s = 7e10;
  p->l2_write_requests_per_s = 5e10;
  p->l2_partial_writes_per_s = 3e10;
  p->l1_cycles_per_line = 1.0;
  p->l1_cycles_per_miss = 0;
  p->l1_cycles_per_local_line = 0.25;
  p->shared_cycles_per_wavefront = 1.0;
  p->constant_cycles_per_instruction = 3;
  p->constant_cycles_per_address = 2;
  p->atomic_same_address_ns = 1.0;
  p->atomic_pass_ns = 0.8;
  p->atomic_passes_per_s = 3e10;
  p->shared_atomic_cycles = 0.5;
  p->alu_warp_instructions_per_cycle = 4;
  p->launch_us = 3;
  p->block_ns = 100;
  p->warp_ns = 4;
  p->l1_latency_ns = 300;
  p->l2_latency_ns = 400;
  p->dram_latency_ns = 600;
  p->store_latency_ns = 150;
  p->sync_ns = 50;
  p->pcie_pageable_bytes_per_s = 8e9;
  p->pcie_pinned_bytes_per_s = 2.5e10;
  p->managed_fault_bytes_per_s = 1.0e10;
  p->managed_fault_us = 120;
  p->l1_cycles_per_request = 1.0;
  p->shared_latency_ns = 20;
  p->alu_latency_ns = 3;
  p->fence_block_ns = 200;
  p->fence_gpu_ns = 800;
  p->fence_system_ns = 1500;
  p->sync_warp_ns = 1;
  p->shared_latency_warp_ns = 0.3;
  p->fence_block_warp_ns = 2.5;
  p->fence_gpu_warp_ns = 3;
  p->fence_system_warp_ns = 0;
  p->tex_cycles_per_request = 8;
  p->message_ns = 266;
  return p;
}

/* ------------------------------------------------------------------ */
/* The profile                                                        */
/* ------------------------------------------------------------------ */

/* What the L2's sizes that were not measured become when l2_bytes was:
 * what they were of the base's L2, and never more than it. */
static void
fit_l2 (WsDeviceProfile *p,
        GHashTable      *how)
{
  if (p->l2_reuse_bytes <= p->l2_bytes && p->l2_dirty_bytes <= p->l2_reuse_bytes)
    return;
  p->l2_reuse_bytes = MIN (p->l2_reuse_bytes, p->l2_bytes);
  p->l2_dirty_bytes = MIN (p->l2_dirty_bytes, p->l2_reuse_bytes);
  g_hash_table_insert (how, (gpointer) "l2_reuse_bytes", g_strdup ("the base's, cut to l2_bytes"));
  g_hash_table_insert (how, (gpointer) "l2_dirty_bytes", g_strdup ("the base's, cut to l2_reuse_bytes"));
}

WsCalibratedProfile *
ws_calibrated_profile_new (const WsCalibration   *calibration,
                           const WsDeviceProfile *base,
                           const char            *base_name,
                           const char            *date,
                           GError               **error)
{
  g_autoptr (WsDeviceProfile) p = NULL;
  g_autoptr (GHashTable) how = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
  g_autoptr (GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (JsonBuilder) b = json_builder_new ();
  g_autoptr (GError) local = NULL;
  g_autofree char *from = NULL;
  const WsProfileField *fields;
  WsCalibratedProfile *cp;
  guint n_fields, n_measured = 0, n_queried = 0;

  g_return_val_if_fail (calibration != NULL, NULL);

  p = base ? ws_device_profile_copy (base) : ws_device_profile_defaults (calibration);
  from = base ? g_strdup_printf ("from %s", base_name) : g_strdup ("default: no profile ships for this device");
  for (guint i = 0; i < calibration->values->len; i++)
    {
      const WsCalibrated *v = &g_array_index (calibration->values, WsCalibrated, i);
      const WsProfileField *f = ws_device_profile_field (v->field);

      if (f == NULL)
        continue;
      if (!ws_device_profile_set_number (p, f->name, v->value))
        {
          g_ptr_array_add (notes, g_strdup_printf ("%s = %g is out of range (%g to %g): kept %s", f->name, v->value,
                                                   f->min, f->max, base ? base_name : "the default"));
          continue;
        }
      g_hash_table_insert (how, (gpointer) f->name, g_strdup (v->how));
      if (g_str_has_prefix (v->how, "queried"))
        n_queried++;
      else
        n_measured++;
    }
  if (calibration->name && *calibration->name)
    {
      g_free (p->name);
      p->name = g_strdup (calibration->name);
      g_free (p->id);
      p->id = ws_device_slug (calibration->name);
      if (*p->id == '\0')
        {
          g_free (p->id);
          p->id = g_strdup ("gpu");
        }
    }
  fit_l2 (p, how);
  g_free (p->source);
  p->source = g_strdup_printf ("calibrated on %s with Warpscope's microkernels: %u fields measured, %u queried, "
                               "the rest %s", date, n_measured, n_queried,
                               base ? from : "defaults (no profile ships for this device)");
  if (!ws_device_profile_validate (p, &local))
    {
      /* Translators: %s says what is wrong with the profile */
      g_set_error (error, WS_DEVICE_PROFILE_ERROR, 0, _("the calibrated profile is not valid: %s"), local->message);
      return NULL;
    }

  fields = ws_device_profile_fields (&n_fields);
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "date");
  json_builder_add_string_value (b, date);
  json_builder_set_member_name (b, "tool");
  json_builder_add_string_value (b, "warpscope-cli calibrate " WS_VERSION);
  json_builder_set_member_name (b, "base");
  json_builder_add_string_value (b, base ? base_name : "defaults");
  json_builder_set_member_name (b, "measured");
  json_builder_begin_array (b);
  for (guint i = 0; i < n_fields; i++)
    if (g_hash_table_contains (how, fields[i].name) &&
        (g_str_has_prefix (g_hash_table_lookup (how, fields[i].name), "measured") ||
         g_str_has_prefix (g_hash_table_lookup (how, fields[i].name), "queried")))
      json_builder_add_string_value (b, fields[i].name);
  json_builder_end_array (b);
  json_builder_set_member_name (b, "fields");
  json_builder_begin_object (b);
  for (guint i = 0; i < n_fields; i++)
    {
      const char *h = g_hash_table_lookup (how, fields[i].name);

      if (g_str_equal (fields[i].name, "source"))
        continue;
      if (h == NULL && (g_str_equal (fields[i].name, "id") || g_str_equal (fields[i].name, "name")))
        h = "the driver's name of the device";
      json_builder_set_member_name (b, fields[i].name);
      json_builder_add_string_value (b, h ? h : from);
    }
  json_builder_end_object (b);
  if (notes->len > 0)
    {
      json_builder_set_member_name (b, "notes");
      json_builder_begin_array (b);
      for (guint i = 0; i < notes->len; i++)
        json_builder_add_string_value (b, g_ptr_array_index (notes, i));
      json_builder_end_array (b);
    }
  json_builder_end_object (b);

  cp = g_new0 (WsCalibratedProfile, 1);
  cp->profile = g_steal_pointer (&p);
  cp->provenance = json_builder_get_root (b);
  cp->notes = g_steal_pointer (&notes);
  return cp;
}

void
ws_calibrated_profile_free (WsCalibratedProfile *cp)
{
  if (cp == NULL)
    return;
  ws_device_profile_free (cp->profile);
  g_clear_pointer (&cp->provenance, json_node_unref);
  g_clear_pointer (&cp->notes, g_ptr_array_unref);
  g_free (cp);
}

char *
ws_calibrated_profile_to_data (const WsCalibratedProfile *cp)
{
  g_autoptr (JsonNode) root = NULL;

  g_return_val_if_fail (cp != NULL, NULL);

  root = ws_device_profile_to_json (cp->profile);
  json_object_set_member (json_node_get_object (root), "calibration", json_node_copy (cp->provenance));
  return ws_device_profile_json_to_data (root);
}
