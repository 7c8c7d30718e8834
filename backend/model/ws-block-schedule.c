/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "ws-block-schedule.h"

struct _WsBlockSchedule
{
  guint sms;
  guint slots;
  double block_ns;
  double duration_ns;
  double jitter;
  guint64 block;
  guint next_sm;           /* where a tie goes: round the SMs in turn */
  double *dispatch;        /* per SM: when it can start its next block */
  double *free_at;         /* per SM and slot */
  double *earliest;        /* per SM: its first free slot's time */
};

WsBlockSchedule *
ws_block_schedule_new (guint  sms,
                       guint  slots,
                       double block_ns,
                       double duration_ns,
                       double jitter)
{
  WsBlockSchedule *s = g_new0 (WsBlockSchedule, 1);

  g_return_val_if_fail (sms > 0 && slots > 0, NULL);

  s->sms = sms;
  s->slots = slots;
  s->block_ns = block_ns;
  s->duration_ns = duration_ns;
  s->jitter = CLAMP (jitter, 0, 0.99);
  s->dispatch = g_new0 (double, sms);
  s->free_at = g_new0 (double, (gsize) sms * slots);
  s->earliest = g_new0 (double, sms);
  return s;
}

void
ws_block_schedule_free (WsBlockSchedule *s)
{
  if (s == NULL)
    return;
  g_free (s->dispatch);
  g_free (s->free_at);
  g_free (s->earliest);
  g_free (s);
}

/* A fixed pseudo-random number in [-1, 1) per block (splitmix64). */
static double
jitter_of (guint64 b)
{
  guint64 z = b + G_GUINT64_CONSTANT (0x9e3779b97f4a7c15);

  z = (z ^ (z >> 30)) * G_GUINT64_CONSTANT (0xbf58476d1ce4e5b9);
  z = (z ^ (z >> 27)) * G_GUINT64_CONSTANT (0x94d049bb133111eb);
  z ^= z >> 31;
  return (double) (z >> 11) / (double) (G_GUINT64_CONSTANT (1) << 52) - 1.0;
}

static guint
first_free_slot (const WsBlockSchedule *s,
                 guint                  sm,
                 double                *at)
{
  const double *f = s->free_at + (gsize) sm * s->slots;
  guint best = 0;

  for (guint k = 1; k < s->slots; k++)
    if (f[k] < f[best])
      best = k;
  *at = f[best];
  return best;
}

void
ws_block_schedule_next (WsBlockSchedule *s,
                        WsBlockPlace    *place)
{
  guint best_sm = s->next_sm;
  double best = G_MAXDOUBLE;
  double start, unused;
  guint slot;

  /* the SM that can start a block first; ties go round in turn */
  for (guint k = 0; k < s->sms; k++)
    {
      guint sm = (s->next_sm + k) % s->sms;
      double t = MAX (s->dispatch[sm], s->earliest[sm]);

      if (t < best)
        {
          best = t;
          best_sm = sm;
        }
    }
  start = best;
  slot = first_free_slot (s, best_sm, &unused);
  s->free_at[(gsize) best_sm * s->slots + slot] = start + s->duration_ns * (1.0 + s->jitter * jitter_of (s->block));
  s->dispatch[best_sm] = start + s->block_ns;
  first_free_slot (s, best_sm, &s->earliest[best_sm]);
  s->next_sm = (best_sm + 1) % s->sms;
  s->block++;
  place->sm = best_sm;
  place->slot = slot;
  place->start_ns = start;
}
