/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The window's side of the Compare page (ws-compare-page.c): the sets of
 * the menu, the Kernel page's kernel beside the presets, and what the page
 * has to say, as toasts. */
#include <glib/gi18n.h>
#include "ws-window-private.h"

gboolean
ws_window_compare_presets (WsWindow           *self,
                           const char * const *ids)
{
  g_return_val_if_fail (WS_IS_WINDOW (self), FALSE);

  if (!ws_compare_page_compare (self->compare_page, ids))
    return FALSE;
  gtk_stack_set_visible_child_name (self->page_stack, "compare");
  return TRUE;
}

/* The kernel's spec, at the editor's line if that line has a memory
 * instruction; NULL with what stands in the way. */
static char *
kernel_page_spec (WsWindow *self,
                  char    **why)
{
  WsKernelEditor *editor = ws_kernel_page_get_editor (self->kernel_page);
  WsKernelInstance *inst = ws_kernel_modeller_get_instance (ws_kernel_page_get_modeller (self->kernel_page));
  GFile *file = ws_kernel_editor_get_file (editor);
  g_autofree char *path = file ? g_file_get_path (file) : NULL;
  guint line = ws_kernel_editor_get_cursor_line (editor);
  gboolean has_line = FALSE;

  if (path == NULL || ws_kernel_editor_get_modified (editor))
    *why = g_strdup (_("Save the kernel first: a comparison reads it from its file"));
  else if (!ws_compare_spec_is_kernel (path))
    *why = g_strdup (_("A comparison takes kernel files whose names end in .cu"));
  else if (inst == NULL)
    *why = g_strdup (_("The kernel does not model yet: its problems are underlined"));
  if (*why)
    return NULL;
  for (guint i = 0; i < ws_kernel_instance_get_n_sites (inst); i++)
    has_line |= ws_kernel_instance_get_site (inst, i)->line == line;
  if (has_line)
    return g_strdup_printf ("%s:%s@%u", path, ws_kernel_instance_get_kernel_name (inst), line);
  return g_strdup_printf ("%s:%s", path, ws_kernel_instance_get_kernel_name (inst));
}

gboolean
ws_window_compare_kernel (WsWindow *self)
{
  g_autofree char *why = NULL;
  g_autofree char *spec = NULL;

  g_return_val_if_fail (WS_IS_WINDOW (self), FALSE);

  if ((spec = kernel_page_spec (self, &why)) == NULL)
    {
      ws_window_toast (self, why);
      return FALSE;
    }
  gtk_stack_set_visible_child_name (self->page_stack, "compare");
  return ws_compare_page_add_kernel (self->compare_page, spec);
}

static void
compare_kernel_action (GtkWidget  *widget,
                       const char *name,
                       GVariant   *param)
{
  ws_window_compare_kernel (WS_WINDOW (widget));
}

static void
compare_set_action (GtkWidget  *widget,
                    const char *name,
                    GVariant   *param)
{
  guint n_sets, i = g_variant_get_uint32 (param);
  const WsCompareSet *sets = ws_compare_sets_get_all (&n_sets);

  if (i < n_sets)
    ws_window_compare_presets (WS_WINDOW (widget), sets[i].ids);
}

void
ws_window_compare_class_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.compare-set", "u", compare_set_action);
  gtk_widget_class_install_action (widget_class, "win.compare-kernel", NULL, compare_kernel_action);
}

void
ws_window_compare_init (WsWindow *self)
{
  g_signal_connect_object (self->compare_page, "toast", G_CALLBACK (ws_window_toast), self, G_CONNECT_SWAPPED);
  ws_compare_page_set_session (self->compare_page, self->session);
}
