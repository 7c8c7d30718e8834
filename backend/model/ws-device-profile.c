/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "ws-config.h"
#include "ws-device-profile.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n-lib.h>

G_DEFINE_QUARK (ws-device-profile-error-quark, ws_device_profile_error)

#define F(NAME, TYPE, MEMBER, MIN, MAX, DESC) \
  { NAME, WS_PROFILE_FIELD_##TYPE, G_STRUCT_OFFSET (WsDeviceProfile, MEMBER), MIN, MAX, DESC, NAN }
/* the H200's (data/devices/nvidia-h200.json), for files made before the
 * fields were */
#define L1_CYCLES_PER_REQUEST 1.0
#define SHARED_LATENCY_NS 14.7
#define ALU_LATENCY_NS 2.16
#define FENCE_BLOCK_NS 25
#define FENCE_GPU_NS 387
#define FENCE_SYSTEM_NS 1033
#define SYNC_WARP_NS 0.95
#define SHARED_LATENCY_WARP_NS 0.32
#define FENCE_BLOCK_WARP_NS 2.4
#define FENCE_GPU_WARP_NS 2.7
#define FENCE_SYSTEM_WARP_NS 0
#define TEX_CYCLES_PER_REQUEST 7.97
#define MESSAGE_NS 266
/* a field added since version 1 of the format: files that lack it get the value */
#define F_SINCE(NAME, TYPE, MEMBER, MIN, MAX, DESC, OTHERWISE) \
  { NAME, WS_PROFILE_FIELD_##TYPE, G_STRUCT_OFFSET (WsDeviceProfile, MEMBER), MIN, MAX, DESC, OTHERWISE }

static const WsProfileField fields[] = {
  F ("id", STRING, id, 1, 64, "slug of the device's name, as data/truth/ names files"),
  F ("name", STRING, name, 1, 256, "the device's name, as the driver gives it"),
  F ("source", STRING, source, 0, 4096, "how the profile was made"),
  F ("cc_major", INT, cc_major, 7, 12, "compute capability, major"),
  F ("cc_minor", INT, cc_minor, 0, 9, "compute capability, minor"),
  F ("sms", INT, sms, 1, 1024, "streaming multiprocessors"),
  F ("sm_clock_mhz", DOUBLE, sm_clock_mhz, 100, 5000, "SM clock while measuring"),
  F ("memory_clock_mhz", DOUBLE, memory_clock_mhz, 100, 50000, "memory clock"),
  F ("l1_shared_bytes", UINT64, l1_shared_bytes, 16384, 4194304, "unified L1 and shared memory per SM"),
  F ("carveouts_kib", CARVEOUTS, carveouts_kib, 0, 4096, "shared-memory carve-outs an SM can take, KiB, ascending"),
  F ("l1_ways", INT, l1_ways, 1, 64, "associativity the model gives L1"),
  F ("store_buffer_lines", INT, store_buffer_lines, 1, 64, "lines an SM merges stores in before they go to L2"),
  F ("l2_bytes", UINT64, l2_bytes, 65536, 1099511627776.0, "L2 size, as the driver gives it"),
  F ("l2_reuse_bytes", UINT64, l2_reuse_bytes, 65536, 1099511627776.0, "data a launch can reuse through L2 (effective capacity)"),
  F ("l2_ways", INT, l2_ways, 1, 64, "associativity the model gives L2"),
  F ("l2_slices", INT, l2_slices, 1, 4096, "L2 slices: atomics on addresses of one slice are applied one after another"),
  F ("l2_dirty_bytes", UINT64, l2_dirty_bytes, 0, 1099511627776.0, "dirty lines L2 keeps before writing back"),
  F ("l2_partial_bytes", UINT64, l2_partial_bytes, 0, 1099511627776.0, "lines with sectors written in part L2 keeps before completing them from DRAM"),
  F ("dram_read_bytes_per_s", DOUBLE, dram_read_bytes_per_s, 1e9, 1e14, "DRAM reads of whole lines, streaming"),
  F ("dram_write_bytes_per_s", DOUBLE, dram_write_bytes_per_s, 1e9, 1e14, "DRAM writes of whole lines, streaming"),
  F ("dram_burst_ns", DOUBLE, dram_burst_ns, 0, 1000, "extra time of an isolated DRAM transfer, all channels together"),
  F ("dram_turnaround", DOUBLE, dram_turnaround, 0, 0.9, "fraction of DRAM time lost when reads and writes mix evenly"),
  F ("l2_sectors_per_s", DOUBLE, l2_sectors_per_s, 1e9, 1e14, "32-byte sectors L2 serves per second"),
  F ("l2_read_requests_per_s", DOUBLE, l2_read_requests_per_s, 1e9, 1e14, "read requests L2 takes per second"),
  F ("l2_write_requests_per_s", DOUBLE, l2_write_requests_per_s, 1e9, 1e14, "write requests L2 takes per second"),
  F ("l2_partial_writes_per_s", DOUBLE, l2_partial_writes_per_s, 1e9, 1e14, "sectors written in part that L2 merges per second"),
  F ("l1_cycles_per_line", DOUBLE, l1_cycles_per_line, 0.01, 100, "SM cycles per 128-byte line a global or local request touches"),
  F ("l1_cycles_per_miss", DOUBLE, l1_cycles_per_miss, 0, 100, "SM cycles per sector L1 sends on to L2"),
  F ("l1_cycles_per_local_line", DOUBLE, l1_cycles_per_local_line, 0.01, 100, "SM cycles per 128-byte line a local request touches"),
  F ("shared_cycles_per_wavefront", DOUBLE, shared_cycles_per_wavefront, 0.01, 100, "SM cycles per shared-memory wavefront"),
  F ("constant_cycles_per_instruction", DOUBLE, constant_cycles_per_instruction, 0, 1000, "SM cycles per constant-load instruction of a warp"),
  F ("constant_cycles_per_address", DOUBLE, constant_cycles_per_address, 0.01, 1000, "SM cycles per distinct constant address of a warp"),
  F ("atomic_same_address_ns", DOUBLE, atomic_same_address_ns, 0.001, 1000, "time of one atomic update of one address"),
  F ("atomic_pass_ns", DOUBLE, atomic_pass_ns, 0.001, 1000, "one pass of an atomic request over a sector, in its L2 slice"),
  F ("atomic_passes_per_s", DOUBLE, atomic_passes_per_s, 1e8, 1e14, "passes of atomic requests over sectors, all L2 slices together"),
  F ("shared_atomic_cycles", DOUBLE, shared_atomic_cycles, 0.01, 1000, "SM cycles per lane a shared atomic serialises"),
  F ("alu_warp_instructions_per_cycle", DOUBLE, alu_warp_instructions_per_cycle, 0.01, 64, "warp instructions an SM issues per cycle: the accesses' and the rest"),
  F ("launch_us", DOUBLE, launch_us, 0, 1000, "a launch alone, with nothing to do, timed as measurements time it"),
  F ("block_ns", DOUBLE, block_ns, 0, 100000, "an SM starts a block at most this often"),
  F ("warp_ns", DOUBLE, warp_ns, 0, 100000, "what each warp resident on an SM adds to a block's life"),
  F ("l1_latency_ns", DOUBLE, l1_latency_ns, 1, 100000, "a block's life when its loads hit L1"),
  F ("l2_latency_ns", DOUBLE, l2_latency_ns, 1, 100000, "a block's life when its loads hit L2"),
  F ("dram_latency_ns", DOUBLE, dram_latency_ns, 1, 100000, "a block's life when its loads go to DRAM"),
  F ("store_latency_ns", DOUBLE, store_latency_ns, 0, 100000, "what stores that wait for loads add to a block's life"),
  F ("sync_ns", DOUBLE, sync_ns, 0, 100000, "what a __syncthreads () adds to a block's life"),
  F ("pcie_pageable_bytes_per_s", DOUBLE, pcie_pageable_bytes_per_s, 1e7, 1e13, "host copies from pageable memory"),
  F ("pcie_pinned_bytes_per_s", DOUBLE, pcie_pinned_bytes_per_s, 1e7, 1e13, "host copies from pinned memory"),
  /* the H200's, where a file has none */
  F_SINCE ("managed_fault_bytes_per_s", DOUBLE, managed_fault_bytes_per_s, 1e7, 1e13,
           "managed memory the kernel's page faults migrate to the device", 1.0e10),
  F_SINCE ("managed_fault_us", DOUBLE, managed_fault_us, 0, 1e6,
           "what a launch whose managed memory is on the host pays before the first page arrives", 120),
  F_SINCE ("l1_cycles_per_request", DOUBLE, l1_cycles_per_request, 0, 100,
           "SM cycles per global load of a warp, besides its lines", L1_CYCLES_PER_REQUEST),
  F_SINCE ("shared_latency_ns", DOUBLE, shared_latency_ns, 0, 100000,
           "a shared load that waits for the one before, one block of 8 warps on the SM", SHARED_LATENCY_NS),
  F_SINCE ("alu_latency_ns", DOUBLE, alu_latency_ns, 0, 100000,
           "an arithmetic instruction that waits for the one before, one block of 8 warps on the SM", ALU_LATENCY_NS),
  F_SINCE ("fence_block_ns", DOUBLE, fence_block_ns, 0, 1e6,
           "what __threadfence_block () adds to a thread's store, one block of 8 warps on the SM", FENCE_BLOCK_NS),
  F_SINCE ("fence_gpu_ns", DOUBLE, fence_gpu_ns, 0, 1e6,
           "what __threadfence () adds to a thread's store, one block of 8 warps on the SM", FENCE_GPU_NS),
  F_SINCE ("fence_system_ns", DOUBLE, fence_system_ns, 0, 1e6,
           "what __threadfence_system () adds to a thread's store, one block of 8 warps on the SM", FENCE_SYSTEM_NS),
  F_SINCE ("sync_warp_ns", DOUBLE, sync_warp_ns, 0, 10000,
           "what each warp resident on the SM beyond 8 adds to a __syncthreads ()", SYNC_WARP_NS),
  F_SINCE ("shared_latency_warp_ns", DOUBLE, shared_latency_warp_ns, 0, 10000,
           "what each warp resident on the SM beyond 8 adds to a shared load's wait", SHARED_LATENCY_WARP_NS),
  F_SINCE ("fence_block_warp_ns", DOUBLE, fence_block_warp_ns, 0, 10000,
           "what each warp resident on the SM beyond 8 adds to __threadfence_block ()", FENCE_BLOCK_WARP_NS),
  F_SINCE ("fence_gpu_warp_ns", DOUBLE, fence_gpu_warp_ns, 0, 10000,
           "what each warp resident on the SM beyond 8 adds to __threadfence ()", FENCE_GPU_WARP_NS),
  F_SINCE ("fence_system_warp_ns", DOUBLE, fence_system_warp_ns, 0, 10000,
           "what each warp resident on the SM beyond 8 adds to __threadfence_system ()", FENCE_SYSTEM_WARP_NS),
  F_SINCE ("tex_cycles_per_request", DOUBLE, tex_cycles_per_request, 0, 1000,
           "SM cycles per texture fetch of a warp (tex2D of 32 texels, point sampled), besides L1's lines",
           TEX_CYCLES_PER_REQUEST),
  F_SINCE ("message_ns", DOUBLE, message_ns, 0, 1e6,
           "from one block's store of a flag to another block's seeing it (a volatile load again and again)",
           MESSAGE_NS),
};

#undef F

const WsProfileField *
ws_device_profile_fields (guint *n_fields)
{
  *n_fields = G_N_ELEMENTS (fields);
  return fields;
}

const WsProfileField *
ws_device_profile_field (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
    if (g_strcmp0 (fields[i].name, name) == 0)
      return &fields[i];
  return NULL;
}

double
ws_device_profile_get_number (const WsDeviceProfile *profile,
                              const char            *name)
{
  const WsProfileField *f = ws_device_profile_field (name);
  const char *base = (const char *) profile;

  g_return_val_if_fail (profile != NULL, NAN);

  switch (f ? f->type : WS_PROFILE_FIELD_STRING)
    {
    case WS_PROFILE_FIELD_INT:
      return *(const int *) (base + f->offset);
    case WS_PROFILE_FIELD_UINT64:
      return (double) *(const guint64 *) (base + f->offset);
    case WS_PROFILE_FIELD_DOUBLE:
      return *(const double *) (base + f->offset);
    case WS_PROFILE_FIELD_STRING:
    case WS_PROFILE_FIELD_CARVEOUTS:
    default:
      return NAN;
    }
}

gboolean
ws_device_profile_set_number (WsDeviceProfile *profile,
                              const char      *name,
                              double           value)
{
  const WsProfileField *f = ws_device_profile_field (name);
  char *base = (char *) profile;

  g_return_val_if_fail (profile != NULL, FALSE);

  if (f == NULL || !isfinite (value) || value < f->min || value > f->max)
    return FALSE;
  switch (f->type)
    {
    case WS_PROFILE_FIELD_INT:
      *(int *) (base + f->offset) = (int) round (value);
      return TRUE;
    case WS_PROFILE_FIELD_UINT64:
      *(guint64 *) (base + f->offset) = (guint64) round (value);
      return TRUE;
    case WS_PROFILE_FIELD_DOUBLE:
      *(double *) (base + f->offset) = value;
      return TRUE;
    case WS_PROFILE_FIELD_STRING:
    case WS_PROFILE_FIELD_CARVEOUTS:
    default:
      return FALSE;
    }
}

WsDeviceProfile *
ws_device_profile_new (void)
{
  return g_new0 (WsDeviceProfile, 1);
}

WsDeviceProfile *
ws_device_profile_copy (const WsDeviceProfile *profile)
{
  WsDeviceProfile *copy;

  g_return_val_if_fail (profile != NULL, NULL);

  copy = g_memdup2 (profile, sizeof *profile);
  copy->id = g_strdup (profile->id);
  copy->name = g_strdup (profile->name);
  copy->source = g_strdup (profile->source);
  return copy;
}

void
ws_device_profile_free (WsDeviceProfile *profile)
{
  if (profile == NULL)
    return;
  g_free (profile->id);
  g_free (profile->name);
  g_free (profile->source);
  g_free (profile);
}

/* ------------------------------------------------------------------ */
/* Checks                                                             */
/* ------------------------------------------------------------------ */

static gboolean
out_of_range (const WsProfileField *f,
              double                v,
              GError              **error)
{
  if (isfinite (v) && v >= f->min && v <= f->max)
    return FALSE;
  g_set_error (error, WS_DEVICE_PROFILE_ERROR, 0, _ ("%s = %g is out of range (%g to %g: %s)"),
               f->name, v, f->min, f->max, f->description);
  return TRUE;
}

static gboolean
check_field (const WsDeviceProfile *p,
             const WsProfileField  *f,
             GError               **error)
{
  const char *base = (const char *) p;

  switch (f->type)
    {
    case WS_PROFILE_FIELD_STRING:
      {
        const char *s = *(char *const *) (base + f->offset);
        gsize len = s ? strlen (s) : 0;

        if ((s == NULL && f->min > 0) || len < f->min || len > f->max || (s && !g_utf8_validate (s, -1, NULL)))
          {
            g_set_error (error, WS_DEVICE_PROFILE_ERROR, 0, _ ("%s must be text of %g to %g characters (%s)"),
                         f->name, f->min, f->max, f->description);
            return FALSE;
          }
        return TRUE;
      }
    case WS_PROFILE_FIELD_INT:
      return !out_of_range (f, *(const int *) (base + f->offset), error);
    case WS_PROFILE_FIELD_UINT64:
      return !out_of_range (f, (double) *(const guint64 *) (base + f->offset), error);
    case WS_PROFILE_FIELD_DOUBLE:
      return !out_of_range (f, *(const double *) (base + f->offset), error);
    case WS_PROFILE_FIELD_CARVEOUTS:
      if (p->n_carveouts < 1 || p->n_carveouts > WS_DEVICE_MAX_CARVEOUTS)
        {
          g_set_error (error, WS_DEVICE_PROFILE_ERROR, 0, _ ("%s must list 1 to %d sizes"), f->name,
                       WS_DEVICE_MAX_CARVEOUTS);
          return FALSE;
        }
      for (guint i = 0; i < p->n_carveouts; i++)
        if ((double) p->carveouts_kib[i] * 1024 > (double) p->l1_shared_bytes ||
            (i > 0 && p->carveouts_kib[i] <= p->carveouts_kib[i - 1]))
          {
            g_set_error (error, WS_DEVICE_PROFILE_ERROR, 0,
                         _ ("%s must be ascending and within l1_shared_bytes (%u KiB at position %u)"),
                         f->name, p->carveouts_kib[i], i);
            return FALSE;
          }
      return TRUE;
    default:
      g_assert_not_reached ();
    }
}

gboolean
ws_device_profile_validate (const WsDeviceProfile *profile,
                            GError               **error)
{
  g_return_val_if_fail (profile != NULL, FALSE);

  for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
    if (!check_field (profile, &fields[i], error))
      return FALSE;
  if (profile->l2_reuse_bytes > profile->l2_bytes || profile->l2_dirty_bytes > profile->l2_reuse_bytes)
    {
      g_set_error (error, WS_DEVICE_PROFILE_ERROR, 0,
                   /* Translators: the three fields' names stay; then their values */
                   _("l2_dirty_bytes ≤ l2_reuse_bytes ≤ l2_bytes must hold (%llu, %llu, %llu)"),
                   (unsigned long long) profile->l2_dirty_bytes, (unsigned long long) profile->l2_reuse_bytes,
                   (unsigned long long) profile->l2_bytes);
      return FALSE;
    }
  if (ws_device_profile_sm_limits (profile) == NULL)
    {
      g_set_error (error, WS_DEVICE_PROFILE_ERROR, 0, _ ("cc_major, cc_minor = %d.%d: the model knows no such SM"),
                   profile->cc_major, profile->cc_minor);
      return FALSE;
    }
  return TRUE;
}

char *
ws_device_slug (const char *name)
{
  g_autofree char *lower = NULL;
  GString *s;

  g_return_val_if_fail (name != NULL, NULL);

  lower = g_ascii_strdown (name, -1);
  s = g_string_new (NULL);
  for (const char *p = lower; *p; p++)
    {
      if (g_ascii_isalnum (*p))
        g_string_append_c (s, *p);
      else if (s->len > 0 && s->str[s->len - 1] != '-')
        g_string_append_c (s, '-');
    }
  while (s->len > 0 && s->str[s->len - 1] == '-')
    g_string_truncate (s, s->len - 1);
  return g_string_free (s, FALSE);
}

const WsSmLimits *
ws_device_profile_sm_limits (const WsDeviceProfile *profile)
{
  g_return_val_if_fail (profile != NULL, NULL);
  return ws_sm_limits_lookup (profile->cc_major, profile->cc_minor);
}

guint64
ws_device_profile_l1_bytes (const WsDeviceProfile *profile,
                            guint                  blocks_per_sm,
                            guint64                shared_per_block)
{
  guint64 need = shared_per_block ? (guint64) MAX (blocks_per_sm, 1) * (shared_per_block + 1024) : 0;
  guint64 carve;

  g_return_val_if_fail (profile != NULL && profile->n_carveouts > 0, 0);

  carve = (guint64) profile->carveouts_kib[profile->n_carveouts - 1] * 1024;
  for (guint i = 0; i < profile->n_carveouts; i++)
    if ((guint64) profile->carveouts_kib[i] * 1024 >= need)
      {
        carve = (guint64) profile->carveouts_kib[i] * 1024;
        break;
      }
  return profile->l1_shared_bytes > carve ? profile->l1_shared_bytes - carve : 0;
}
