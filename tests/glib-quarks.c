/* SPDX-License-Identifier: GPL-3.0-or-later */
/* GLib's first block of quarks, which LeakSanitizer would report.
 *
 * GLib's library constructor takes room for 2048 quarks. When the 2048th
 * is made, GLib moves them to a bigger block and lets the first go
 * unfreed, on purpose: lookups then need no lock (gquark.c). Every test
 * that starts GTK makes that many. The block's allocation stack ends in
 * GLib's constructor, before main, and GLib is built without frame
 * pointers: a suppression could only name that constructor where every
 * allocation's stack is unwound in full, which made the GTK tests several
 * times slower (app-windows ten times). So, while the block is still GLib's
 * only one, a test finds it where GLib keeps it, a pointer in GLib's own
 * data, and tells LeakSanitizer to ignore it; nothing else is forgiven. */
#define _GNU_SOURCE
#include "glib-quarks.h"

#if defined(__SANITIZE_ADDRESS__)
#define WS_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define WS_ASAN 1
#endif
#endif

#ifdef WS_ASAN

#include <link.h>
#include <sanitizer/asan_interface.h>
#include <sanitizer/lsan_interface.h>
#include <string.h>

/* A quark of our own, so that the block is told apart by a pointer only
 * it can hold: this string's, at this quark's index. */
static const char own_quark[] = "warpscope-tests";

typedef struct
{
  GQuark own;
  gpointer block;
} Search;

/* Whether p is the start of a heap block that holds every quark so far,
 * ours last: GLib's block. */
static gboolean
is_quark_block (gpointer p,
                GQuark   own)
{
  const char * const *strings = p;
  void *start = NULL;
  size_t size = 0;

  if (p == NULL || (guintptr) p % sizeof (gpointer) != 0)
    return FALSE;
  /* ASan's allocator says, reading nothing at p: the start of a heap
   * block, still allocated, long enough to read */
  if (g_strcmp0 (__asan_locate_address (p, NULL, 0, &start, &size), "heap") != 0 || start != p
      || size < (own + 1) * sizeof (char *) || __asan_region_is_poisoned (p, (own + 1) * sizeof (char *)))
    return FALSE;
  for (GQuark q = 1; q <= own; q++)
    if (strings[q] != g_quark_to_string (q))
      return FALSE;
  return strings[own] == own_quark;
}

static int
search_glib (struct dl_phdr_info *info,
             size_t               info_size,
             void                *data)
{
  Search *search = data;

  if (strstr (info->dlpi_name, "/libglib-2.0.so") == NULL)
    return 0;
  for (int i = 0; i < info->dlpi_phnum; i++)
    {
      const ElfW (Phdr) *ph = &info->dlpi_phdr[i];
      guintptr end = info->dlpi_addr + ph->p_vaddr + ph->p_memsz;
      guintptr at = (info->dlpi_addr + ph->p_vaddr + sizeof (gpointer) - 1) & ~(guintptr) (sizeof (gpointer) - 1);

      if (ph->p_type != PT_LOAD || (ph->p_flags & PF_W) == 0)
        continue;
      for (; at + sizeof (gpointer) <= end; at += sizeof (gpointer))
        if (is_quark_block (*(gpointer *) at, search->own))
          {
            search->block = *(gpointer *) at;
            return 1;
          }
    }
  return 0;
}

void
glib_quarks_ignore_first_block (void)
{
  Search search = { g_quark_from_static_string (own_quark), NULL };

  dl_iterate_phdr (search_glib, &search);
  /* none: GLib keeps its quarks otherwise now, or has moved them already;
   * LeakSanitizer says whether a block leaks all the same */
  if (search.block != NULL)
    __lsan_ignore_object (search.block);
}

#else

void
glib_quarks_ignore_first_block (void)
{
}

#endif
