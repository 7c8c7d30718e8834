/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the Explore page says first (WsPresetIntro), on its own: a preset's
 * title and lesson, whether its kernel text can be opened and why not, and
 * a pattern of one's own, new or changed from a preset. */
#include <gtk/gtk.h>
#include <string.h>

#include "ws-preset-intro.h"
#include "ws-preset-kernels.h"

static void
test_intro (void)
{
  GtkWidget *window = gtk_window_new ();
  WsPresetIntro *intro = WS_PRESET_INTRO (ws_preset_intro_new ());
  const WsPreset *offset = ws_preset_lookup ("coalescing/offset");
  const WsPreset *without = NULL;
  guint n;
  const WsPreset *all = ws_presets_get_all (&n);
  g_autofree char *kernel = NULL;

  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (intro));
  gtk_window_present (GTK_WINDOW (window));

  /* a preset: its title, its lesson without the backticks that quote its
   * parameters */
  g_assert_nonnull (offset);
  ws_preset_intro_show_preset (intro, offset);
  g_assert_true (ws_preset_intro_get_preset (intro) == offset);
  g_assert_cmpstr (ws_preset_intro_get_title (intro), ==, "Misaligned (+1 element)");
  g_assert_null (strchr (ws_preset_intro_get_summary (intro), '`'));
  g_assert_cmpuint (strlen (ws_preset_intro_get_summary (intro)), >, 40);

  /* its kernel text, where there is one */
  kernel = ws_preset_kernel_path (offset->id);
  g_assert_cmpint (ws_preset_intro_get_has_kernel (intro), ==, kernel != NULL);
  if (kernel)
    g_assert_true (g_str_has_prefix (gtk_widget_get_tooltip_text (ws_preset_intro_get_kernel_button (intro)),
                                     "Opens this preset’s kernel"));
  for (guint i = 0; i < n && without == NULL; i++)
    {
      g_autofree char *path = ws_preset_kernel_path (all[i].id);

      if (path == NULL)
        without = &all[i];
    }
  if (without)
    {
      ws_preset_intro_show_preset (intro, without);
      g_assert_false (ws_preset_intro_get_has_kernel (intro));
      g_assert_nonnull (strstr (gtk_widget_get_tooltip_text (ws_preset_intro_get_kernel_button (intro)),
                                "not written as a kernel text yet"));
    }

  /* a pattern changed from the preset, and a new one */
  ws_preset_intro_show_own (intro, offset);
  g_assert_null (ws_preset_intro_get_preset (intro));
  g_assert_false (ws_preset_intro_get_has_kernel (intro));
  g_assert_cmpstr (ws_preset_intro_get_title (intro), ==, "Your pattern, from “Misaligned (+1 element)”");
  g_assert_null (strstr (ws_preset_intro_get_summary (intro), "offset"));
  ws_preset_intro_show_own (intro, NULL);
  g_assert_cmpstr (ws_preset_intro_get_title (intro), ==, "Your pattern");
  g_assert_cmpstr (gtk_widget_get_tooltip_text (ws_preset_intro_get_kernel_button (intro)), ==,
                   "A pattern of your own has no preset’s kernel");
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  g_test_add_func ("/preset-intro/preset-and-own", test_intro);
  return g_test_run ();
}
