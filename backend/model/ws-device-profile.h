/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ws-occupancy.h"

G_BEGIN_DECLS

/* What the model needs to know of one GPU: its shape (SMs, L1 and L2), and
 * the throughputs and latencies that turn the hierarchy's counts into time.
 * Sizes are bytes, rates are per second, times are nanoseconds unless the
 * name says otherwise. Profiles are plain data: data/devices/<id>.json holds
 * one, written by `warpscope-cli calibrate` or by hand (backend/ws-device-json.c
 * reads and writes them); every field is range-checked when loaded.
 *
 * The rules the fields parametrise are in docs/hardware-model.md. */

#define WS_DEVICE_PROFILE_VERSION 1
#define WS_DEVICE_PROFILE_ERROR (ws_device_profile_error_quark ())
#define WS_DEVICE_MAX_CARVEOUTS 16

typedef struct
{
  char *id;                         /* slug of the name: "nvidia-h200" */
  char *name;                       /* as the driver says it: "NVIDIA H200" */
  char *source;                     /* how the profile was made */
  int cc_major;
  int cc_minor;

  /* shape */
  guint sms;
  double sm_clock_mhz;              /* while measuring */
  double memory_clock_mhz;
  guint64 l1_shared_bytes;          /* unified L1 and shared memory per SM */
  guint n_carveouts;
  guint carveouts_kib[WS_DEVICE_MAX_CARVEOUTS];   /* shared-memory sizes the SM can set, ascending */
  guint l1_ways;
  guint store_buffer_lines;         /* lines an SM's L1 merges stores in */
  guint64 l2_bytes;                 /* as the driver says */
  guint64 l2_reuse_bytes;           /* what a working set can reuse: effective capacity */
  guint l2_ways;
  guint l2_slices;                  /* atomics on one slice are applied one after another */
  guint64 l2_dirty_bytes;           /* dirty lines L2 holds before it writes back */
  guint64 l2_partial_bytes;         /* lines with sectors written in part it holds before completing them */

  /* DRAM */
  double dram_read_bytes_per_s;     /* streaming reads of whole lines */
  double dram_write_bytes_per_s;    /* streaming writes of whole lines */
  double dram_burst_ns;             /* extra per isolated 32/64-byte transfer (a row opened for it) */
  double dram_turnaround;           /* fraction lost when reads and writes mix evenly */

  /* L2 and L1 */
  double l2_sectors_per_s;          /* sectors L2 serves (hits and fills) */
  double l2_read_requests_per_s;
  double l2_write_requests_per_s;   /* requests of whole sectors */
  double l2_partial_writes_per_s;   /* sectors written in part (byte masks merged in L2) */
  double l1_cycles_per_line;        /* per 128-byte line a request touches, per SM */
  double l1_cycles_per_miss;        /* per sector L1 sends on to L2, per SM */
  double l1_cycles_per_local_line;  /* per 128-byte line a local request touches, per SM */
  double shared_cycles_per_wavefront;
  double constant_cycles_per_instruction;
  double constant_cycles_per_address;
  double atomic_same_address_ns;    /* one update of one address, all SMs together */
  double atomic_pass_ns;            /* one pass of an atomic request over a sector, in its L2 slice */
  double atomic_passes_per_s;       /* passes over sectors all slices make together */
  double shared_atomic_cycles;      /* per conflicting lane of a shared atomic */
  double alu_warp_instructions_per_cycle;   /* per SM, of the kernels' arithmetic */

  /* launch and latency */
  double launch_us;                 /* a launch timed alone, with nothing to do */
  double block_ns;                  /* an SM starts a block at most this often */
  double warp_ns;                   /* what each warp resident on the SM adds to a block's life */
  double l1_latency_ns;             /* a block's life when its loads hit L1 */
  double l2_latency_ns;             /* … when they hit L2 */
  double dram_latency_ns;           /* … when they go to DRAM */
  double store_latency_ns;          /* what stores that wait for loads add to it */
  double sync_ns;                   /* what a __syncthreads () adds to it */

  /* host transfers */
  double pcie_pageable_bytes_per_s;
  double pcie_pinned_bytes_per_s;

  /* managed memory the kernel's page faults migrate: a fixed cost per
   * launch that faults, then bytes at this rate (optional in files) */
  double managed_fault_bytes_per_s;
  double managed_fault_us;

  /* links of a block's chain, each waiting for the one before (optional
   * in files): a shared load, a dependent arithmetic instruction, and what
   * each fence adds to a store, with one block of 8 warps on the SM; and
   * what each further warp resident on the SM adds to a link (they issue
   * from the same schedulers). sync_ns above is a link too. A chain of
   * arithmetic is one thread's while the others wait: it has no such part. */
  double shared_latency_ns;
  double alu_latency_ns;
  double l1_cycles_per_request;     /* per global load a warp makes, besides its lines (optional) */
  double fence_block_ns;
  double fence_gpu_ns;
  double fence_system_ns;
  double sync_warp_ns;
  double shared_latency_warp_ns;
  double fence_block_warp_ns;
  double fence_gpu_warp_ns;
  double fence_system_warp_ns;
  double tex_cycles_per_request;    /* per texture fetch a warp makes (tex2D, point sampled; optional) */
  double message_ns;                /* one block sees a flag another block stores (volatile, through L2; optional) */
} WsDeviceProfile;

typedef enum
{
  WS_PROFILE_FIELD_STRING,
  WS_PROFILE_FIELD_INT,
  WS_PROFILE_FIELD_UINT64,
  WS_PROFILE_FIELD_DOUBLE,
  WS_PROFILE_FIELD_CARVEOUTS,
} WsProfileFieldType;

/* One field: its JSON name, where it lives, its range and what it means. */
typedef struct
{
  const char *name;
  WsProfileFieldType type;
  gsize offset;
  double min;
  double max;
  const char *description;
  double otherwise;             /* the value a file that lacks it gets; NAN: the field is required */
} WsProfileField;

GQuark                ws_device_profile_error_quark (void);
const WsProfileField *ws_device_profile_fields     (guint                 *n_fields);

/* The field of that JSON name, or NULL. */
const WsProfileField *ws_device_profile_field      (const char            *name);
/* A number field's value by its name; NAN for a field that is no number or
 * no field. */
double                ws_device_profile_get_number (const WsDeviceProfile *profile,
                                                    const char            *name);
/* Sets a number field, rounded when it counts whole things; FALSE, and
 * nothing changed, when the value is out of the field's range or the field
 * is no number. */
gboolean              ws_device_profile_set_number (WsDeviceProfile       *profile,
                                                    const char            *name,
                                                    double                 value);

WsDeviceProfile      *ws_device_profile_new        (void);
WsDeviceProfile      *ws_device_profile_copy       (const WsDeviceProfile *profile);
void                  ws_device_profile_free       (WsDeviceProfile       *profile);

/* Every field in its range, and the carve-outs ascending; the message names
 * the field. */
gboolean              ws_device_profile_validate   (const WsDeviceProfile *profile,
                                                    GError               **error);

/* The slug data/truth/ and data/devices/ name files after: lower case,
 * runs of other characters as one '-': "NVIDIA H100 80GB HBM3" →
 * "nvidia-h100-80gb-hbm3". */
char                 *ws_device_slug               (const char            *name);

/* The SM's limits for occupancy, from the compute capability. */
const WsSmLimits     *ws_device_profile_sm_limits  (const WsDeviceProfile *profile);

/* The L1 that the shared-memory carve-out leaves when blocks_per_sm blocks
 * of shared_per_block bytes each are resident: the driver picks the smallest
 * carve-out that holds them (1 KiB reserved per block). */
guint64               ws_device_profile_l1_bytes   (const WsDeviceProfile *profile,
                                                    guint                  blocks_per_sm,
                                                    guint64                shared_per_block);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsDeviceProfile, ws_device_profile_free)

G_END_DECLS
