/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The hardware rules, one memory space at a time, for the addresses of one
 * warp instruction. docs/hardware-model.md says where each rule comes from. */
#include "ws-analysis.h"
#include "ws-program-private.h"

#include <string.h>

#define MAX_WORDS (WS_WARP_SIZE * 4)

static inline void
sort_values (gint64 *v,
             guint   n)
{
  guint i;

  for (i = 1; i < n && v[i - 1] <= v[i]; i++)
    ;
  for (; i < n; i++)
    {
      gint64 x = v[i];
      guint j = i;
      while (j > 0 && v[j - 1] > x)
        {
          v[j] = v[j - 1];
          j--;
        }
      v[j] = x;
    }
}

static inline guint
count_runs (const gint64 *sorted,
            guint         n,
            guint         shift)
{
  guint runs = n > 0;

  for (guint i = 1; i < n; i++)
    runs += (sorted[i] >> shift) != (sorted[i - 1] >> shift);
  return runs;
}

static inline guint
gather (guint32       active,
        const gint64 *addresses,
        gint64       *out)
{
  guint n = 0;

  for (guint l = 0; l < WS_WARP_SIZE; l++)
    if (active & (1u << l))
      out[n++] = addresses[l];
  return n;
}

static void
add_step (GArray    *steps,
          WsStepKind kind,
          guint32    lanes,
          gint64     address,
          guint      phase,
          guint      round,
          guint32    banks)
{
  WsStep step = { kind, lanes, address, phase, round, banks };
  g_array_append_val (steps, step);
}

/* The lanes that share each distinct address, for atomics and constants. */
static guint
address_multiplicity (guint32       active,
                      const gint64 *addresses,
                      const gint64 *sorted,
                      guint         n,
                      guint        *depth)
{
  guint distinct = 0;
  guint best = 0;

  for (guint i = 0; i < n;)
    {
      guint j = i + 1;
      while (j < n && sorted[j] == sorted[i])
        j++;
      best = MAX (best, j - i);
      distinct++;
      i = j;
    }
  *depth = best;
  (void) active;
  (void) addresses;
  return distinct;
}

/* Runs of equal addresses, sectors and lines of a sorted list; FALSE if the
 * list is not sorted. Branch-free, so that it vectorises. */
WS_LANE_LOOPS static gboolean
sorted_runs (const gint64 *a,
             guint         n,
             guint        *distinct,
             guint        *sectors,
             guint        *lines)
{
  guint64 unsorted = 0, d = 0, s = 0, ln = 0;

  for (guint i = 1; i < n; i++)
    {
      unsorted |= a[i] < a[i - 1];
      d += a[i] != a[i - 1];
      s += (a[i] >> 5) != (a[i - 1] >> 5);
      ln += (a[i] >> 7) != (a[i - 1] >> 7);
    }
  *distinct = 1 + d;
  *sectors = 1 + s;
  *lines = 1 + ln;
  return !unsorted;
}

static void
count_global (WsAccessKind  kind,
              guint         elem_size,
              guint32       active,
              const gint64 *addresses,
              WsWarpCounts *c,
              GArray       *steps)
{
  gint64 buffer[WS_WARP_SIZE];
  gint64 *a = buffer;
  guint n;
  guint distinct, sectors, lines;

  /* one pass when the addresses come sorted, as they mostly do */
  if (active == 0xffffffffu && (kind != WS_ACCESS_ATOMIC && steps == NULL))
    {
      n = WS_WARP_SIZE;
      a = (gint64 *) addresses;
    }
  else
    n = gather (active, addresses, buffer);
  if (!sorted_runs (a, n, &distinct, &sectors, &lines))
    {
      if (a != buffer)
        {
          memcpy (buffer, a, sizeof buffer);
          a = buffer;
        }
      sort_values (a, n);
      distinct = count_runs (a, n, 0);
      sectors = count_runs (a, n, 5);
      lines = count_runs (a, n, 7);
    }
  c->requests = 1;
  c->sectors = sectors;
  c->lines = lines;
  c->distinct_addresses = distinct;
  c->bytes_requested = distinct * elem_size;
  c->bytes_moved = sectors * WS_SECTOR_BYTES;

  if (kind == WS_ACCESS_ATOMIC)
    {
      /* Lanes on one address are applied one after another: a sector is
       * visited once per lane on its busiest address (measured with
       * l1tex__t_sectors_pipe_lsu_mem_global_op_red). */
      guint hw_sectors = 0;

      for (guint i = 0; i < n;)
        {
          guint most = 0;
          guint j = i;
          while (j < n && (a[j] >> 5) == (a[i] >> 5))
            {
              guint k = j + 1;
              while (k < n && a[k] == a[j])
                k++;
              most = MAX (most, k - j);
              j = k;
            }
          hw_sectors += most;
          i = j;
        }
      c->sectors = hw_sectors;
      address_multiplicity (active, addresses, a, n, &c->atomic_depth);
      c->atomic_conflicts = n - distinct;
      c->replays = c->atomic_depth - 1;
    }

  if (steps == NULL)
    return;

  for (guint i = 0; i < n;)
    {
      gint64 sector = a[i] >> 5;
      guint j = i;
      while (j < n && (a[j] >> 5) == sector)
        j++;
      if (kind != WS_ACCESS_ATOMIC)
        {
          guint32 lanes = 0;
          for (guint l = 0; l < WS_WARP_SIZE; l++)
            if ((active & (1u << l)) && (addresses[l] >> 5) == sector)
              lanes |= 1u << l;
          add_step (steps, WS_STEP_SECTOR, lanes, sector << 5, 0, 0, 0);
        }
      else
        {
          /* round r serves the r-th lane of every address in the sector */
          for (guint round = 0;; round++)
            {
              guint32 lanes = 0;
              for (guint k = i; k < j;)
                {
                  guint seen = 0;
                  gint64 addr = a[k];
                  for (guint l = 0; l < WS_WARP_SIZE; l++)
                    if ((active & (1u << l)) && addresses[l] == addr && seen++ == round)
                      lanes |= 1u << l;
                  while (k < j && a[k] == addr)
                    k++;
                }
              if (lanes == 0)
                break;
              add_step (steps, WS_STEP_ATOMIC, lanes, sector << 5, 0, round, 0);
            }
        }
      i = j;
    }
}

/* Lane pairs (2k, 2k+1) asking for one address let an 8- or 16-byte load be
 * served in phases of twice as many lanes (measured on sm_90: a broadcast
 * 8-byte load takes 1 wavefront, lane % 16 takes 2). */
static gboolean
pairs_share_addresses (guint32       active,
                       const gint64 *addresses)
{
  for (guint k = 0; k < WS_WARP_SIZE; k += 2)
    {
      guint32 both = (3u << k);
      if ((active & both) == both && addresses[k] != addresses[k + 1])
        return FALSE;
    }
  return TRUE;
}

static void
count_shared (WsAccessKind  kind,
              guint         elem_size,
              guint32       active,
              const gint64 *addresses,
              WsWarpCounts *c,
              GArray       *steps)
{
  guint words_per_lane = elem_size <= 4 ? 1 : elem_size / 4;
  guint phase_lanes = elem_size <= 4 ? WS_WARP_SIZE : (WS_N_BANKS * WS_BANK_BYTES) / elem_size;
  gint64 sorted[WS_WARP_SIZE];
  guint n;

  if (elem_size > 4 && kind != WS_ACCESS_STORE && pairs_share_addresses (active, addresses))
    phase_lanes *= 2;

  c->requests = 1;
  for (guint phase = 0; phase * phase_lanes < WS_WARP_SIZE; phase++)
    {
      guint32 mask = (phase_lanes == 32 ? 0xffffffffu : ((1u << phase_lanes) - 1) << (phase * phase_lanes)) & active;
      gint64 words[MAX_WORDS];
      guint n_words = 0;
      guint per_bank[WS_N_BANKS] = { 0 };
      guint wavefronts = 0;
      guint distinct = 0;

      if (mask == 0)
        continue;
      for (guint l = 0; l < WS_WARP_SIZE; l++)
        if (mask & (1u << l))
          for (guint w = 0; w < words_per_lane; w++)
            words[n_words++] = (addresses[l] >> 2) + w;
      sort_values (words, n_words);
      for (guint i = 0; i < n_words; i++)
        if (i == 0 || words[i] != words[i - 1])
          {
            guint b = (guint) (words[i] & (WS_N_BANKS - 1));
            words[distinct++] = words[i];
            per_bank[b]++;
            wavefronts = MAX (wavefronts, per_bank[b]);
          }
      c->wavefronts += wavefronts;
      c->ideal_wavefronts += 1;

      if (steps == NULL)
        continue;

      /* Wavefront k delivers the k-th distinct word of every bank; a lane is
       * done in the wavefront that delivers its last word. */
      for (guint k = 0; k < wavefronts; k++)
        {
          guint32 lanes = 0;
          guint32 banks = 0;
          guint rank[WS_N_BANKS] = { 0 };

          for (guint i = 0; i < distinct; i++)
            {
              guint b = (guint) (words[i] & (WS_N_BANKS - 1));
              if (rank[b]++ == k)
                banks |= 1u << b;
            }
          for (guint l = 0; l < WS_WARP_SIZE; l++)
            {
              guint last = 0;

              if (!(mask & (1u << l)))
                continue;
              for (guint w = 0; w < words_per_lane; w++)
                {
                  gint64 word = (addresses[l] >> 2) + w;
                  guint b = (guint) (word & (WS_N_BANKS - 1));
                  guint r = 0;
                  for (guint i = 0; i < distinct && words[i] < word; i++)
                    r += (guint) (words[i] & (WS_N_BANKS - 1)) == b;
                  last = MAX (last, r);
                }
              if (last == k)
                lanes |= 1u << l;
            }
          add_step (steps, WS_STEP_WAVEFRONT, lanes, 0, phase, k, banks);
        }
    }

  n = gather (active, addresses, sorted);
  sort_values (sorted, n);
  c->distinct_addresses = address_multiplicity (active, addresses, sorted, n, &c->atomic_depth);
  if (kind == WS_ACCESS_ATOMIC)
    c->atomic_conflicts = n - c->distinct_addresses;
  else
    c->atomic_depth = 0;
}

guint
ws_access_machine_instructions (WsSpace      space,
                                WsAccessKind kind,
                                guint        elem_size)
{
  return space == WS_SPACE_CONSTANT && elem_size == 16 ? 4 : 1;
}

/* One request per distinct address, for each LDC the access becomes
 * (idc__requests). */
static void
count_constant (guint         elem_size,
                guint32       active,
                const gint64 *addresses,
                WsWarpCounts *c,
                GArray       *steps)
{
  gint64 a[WS_WARP_SIZE];
  guint n = gather (active, addresses, a);
  guint ldcs = ws_access_machine_instructions (WS_SPACE_CONSTANT, WS_ACCESS_LOAD, elem_size);
  guint depth;

  sort_values (a, n);
  c->distinct_addresses = address_multiplicity (active, addresses, a, n, &depth);
  c->requests = c->distinct_addresses * ldcs;
  c->replays = c->requests - ldcs;

  if (steps == NULL)
    return;
  for (guint i = 0; i < n; i++)
    if (i == 0 || a[i] != a[i - 1])
      {
        guint32 lanes = 0;
        for (guint l = 0; l < WS_WARP_SIZE; l++)
          if ((active & (1u << l)) && addresses[l] == a[i])
            lanes |= 1u << l;
        add_step (steps, WS_STEP_ADDRESS, lanes, a[i], 0, 0, 0);
      }
}

/* Local memory: word w of lane l sits at (w * 32 + l) * 4, so its sector is
 * w * 4 + l / 8 and its 128-byte line is w. */
static void
count_local (guint         elem_size,
             guint32       active,
             const gint64 *offsets,
             WsWarpCounts *c,
             GArray       *steps)
{
  guint words_per_lane = elem_size <= 4 ? 1 : elem_size / 4;
  gint64 sectors[MAX_WORDS];
  gint64 lines[MAX_WORDS];
  guint n = 0;
  guint n_lanes = 0;

  for (guint l = 0; l < WS_WARP_SIZE; l++)
    if (active & (1u << l))
      {
        n_lanes++;
        for (guint w = 0; w < words_per_lane; w++)
          {
            gint64 word = (offsets[l] >> 2) + w;
            sectors[n] = word * 4 + l / 8;
            lines[n] = word;
            n++;
          }
      }
  sort_values (sectors, n);
  sort_values (lines, n);
  c->requests = words_per_lane;
  c->sectors = count_runs (sectors, n, 0);
  c->lines = count_runs (lines, n, 0);
  c->replays = c->lines > c->requests ? c->lines - c->requests : 0;
  c->bytes_requested = n_lanes * elem_size;
  c->bytes_moved = c->sectors * WS_SECTOR_BYTES;
  c->distinct_addresses = n_lanes;

  if (steps == NULL)
    return;
  for (guint i = 0; i < n; i++)
    if (i == 0 || sectors[i] != sectors[i - 1])
      {
        guint32 lanes = 0;
        for (guint l = 0; l < WS_WARP_SIZE; l++)
          if (active & (1u << l))
            for (guint w = 0; w < words_per_lane; w++)
              if (((offsets[l] >> 2) + w) * 4 + l / 8 == sectors[i])
                lanes |= 1u << l;
        add_step (steps, WS_STEP_SECTOR, lanes, sectors[i] * WS_SECTOR_BYTES, 0, 0, 0);
      }
}

void
ws_model_count_warp (WsSpace       space,
                     WsAccessKind  kind,
                     guint         elem_size,
                     guint32       active,
                     const gint64 *addresses,
                     WsWarpCounts *counts,
                     GArray       *steps)
{
  g_return_if_fail (ws_elem_size_is_valid (elem_size));
  g_return_if_fail (counts != NULL);

  memset (counts, 0, sizeof *counts);
  if (active == 0)
    return;

  switch (space)
    {
    case WS_SPACE_GLOBAL:
      count_global (kind, elem_size, active, addresses, counts, steps);
      break;
    case WS_SPACE_SHARED:
      count_shared (kind, elem_size, active, addresses, counts, steps);
      break;
    case WS_SPACE_CONSTANT:
      count_constant (elem_size, active, addresses, counts, steps);
      break;
    case WS_SPACE_LOCAL:
      count_local (elem_size, active, addresses, counts, steps);
      break;
    case WS_SPACE_REGISTER:
      if (steps)
        add_step (steps, WS_STEP_REGISTER, active, 0, 0, 0, 0);
      break;
    case WS_N_SPACES:
    default:
      g_assert_not_reached ();
    }
}

const char *
ws_step_kind_to_string (WsStepKind kind)
{
  static const char *names[] = { "sector", "wavefront", "address", "atomic", "register" };

  g_return_val_if_fail (kind < G_N_ELEMENTS (names), NULL);
  return names[kind];
}
