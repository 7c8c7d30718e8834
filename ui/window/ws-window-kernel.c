/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The Kernel page in the window (ws-kernel-page.c): its files, as the main
 * menu, the keys and the command line reach them, and its unsaved changes
 * when the window closes. */
#include <glib/gi18n.h>
#include "ws-window-private.h"
#include "ws-preset-kernels.h"
#include "ws-pattern-kernel.h"

#include <string.h>

/* Ctrl+O and Ctrl+S are the page's: kernels on the Kernel page,
 * recordings elsewhere. */
gboolean
ws_window_kernel_shown (WsWindow *self)
{
  return self->page_stack && g_strcmp0 (gtk_stack_get_visible_child_name (self->page_stack), "kernel") == 0;
}

static void
say_error (WsWindow     *self,
           const char   *what,
           const GError *error)
{
  g_autofree char *text = NULL;

  if (error == NULL || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  /* Translators: what failed ("Could not open the kernel"), then why */
  text = g_strdup_printf (_("%s: %s"), what, error->message);
  ws_window_toast (self, text);
}

static void
opened (GObject      *source,
        GAsyncResult *result,
        gpointer      user_data)
{
  g_autoptr (WsWindow) self = user_data;
  g_autoptr (GError) error = NULL;

  if (!ws_kernel_page_open_finish (WS_KERNEL_PAGE (source), result, &error))
    say_error (self, _("Could not open the kernel"), error);
}

void
ws_window_open_kernel (WsWindow *self,
                       GFile    *file)
{
  g_return_if_fail (WS_IS_WINDOW (self));

  gtk_stack_set_visible_child_name (self->page_stack, "kernel");
  ws_kernel_page_open_async (self->kernel_page, file, GTK_WINDOW (self), opened, g_object_ref (self));
}

static void
saved (GObject      *source,
       GAsyncResult *result,
       gpointer      user_data)
{
  g_autoptr (WsWindow) self = user_data;
  g_autoptr (GError) error = NULL;

  if (!ws_kernel_editor_save_dialog_finish (WS_KERNEL_EDITOR (source), result, &error))
    say_error (self, _("Could not save the kernel"), error);
}

static void
saved_in_place (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr (WsWindow) self = user_data;
  g_autoptr (GError) error = NULL;

  if (!ws_kernel_editor_save_finish (WS_KERNEL_EDITOR (source), result, &error))
    say_error (self, _("Could not save the kernel"), error);
}

static void
save_kernel (WsWindow *self,
             gboolean  as)
{
  WsKernelEditor *editor = ws_kernel_page_get_editor (self->kernel_page);

  gtk_stack_set_visible_child_name (self->page_stack, "kernel");
  if (!as && ws_kernel_editor_get_file (editor))
    ws_kernel_editor_save_async (editor, NULL, NULL, saved_in_place, g_object_ref (self));
  else
    ws_kernel_editor_save_dialog_async (editor, GTK_WINDOW (self), saved, g_object_ref (self));
}

typedef struct
{
  WsWindow *window;
  char *text;                      /* NULL: the blank kernel */
  char *name;                      /* what the copy is called until saved; NULL: "Untitled kernel" */
} NewData;

static void
new_confirmed (GObject      *source,
               GAsyncResult *result,
               gpointer      user_data)
{
  NewData *d = user_data;
  g_autoptr (GError) error = NULL;

  if (ws_kernel_editor_confirm_close_finish (WS_KERNEL_EDITOR (source), result, &error))
    ws_kernel_page_new_kernel_named (d->window->kernel_page, d->text, d->name);
  else
    say_error (d->window, _("Could not save the kernel"), error);
  g_object_unref (d->window);
  g_free (d->text);
  g_free (d->name);
  g_free (d);
}

/* text (NULL: the blank kernel) as a new, unsaved text on the Kernel
 * page, once unsaved changes are saved or let go. */
static void
start_new (WsWindow *self,
           char     *text,
           char     *name)
{
  NewData *d = g_new0 (NewData, 1);

  gtk_stack_set_visible_child_name (self->page_stack, "kernel");
  d->window = g_object_ref (self);
  d->text = text;
  d->name = name;
  ws_kernel_editor_confirm_close_async (ws_kernel_page_get_editor (self->kernel_page), GTK_WINDOW (self),
                                        new_confirmed, d);
}

/* A blank kernel, or a copy of an example's text (path). */
static void
new_kernel (WsWindow   *self,
            const char *path)
{
  g_autofree char *text = NULL;
  g_autoptr (GError) error = NULL;

  if (path && !g_file_get_contents (path, &text, NULL, &error))
    {
      say_error (self, _("Could not read the example"), error);
      return;
    }
  start_new (self, g_steal_pointer (&text), NULL);
}

/* A copy of preset id's kernel text, called "coalescing-sequential.cu"
 * until it is saved. */
static void
new_kernel_from_preset (WsWindow   *self,
                        const char *id)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *text = ws_preset_dup_kernel_text (id, &error);
  g_autofree char *dashed = g_strdup (id);

  if (text == NULL)
    {
      if (error == NULL)
        /* Translators: %s is a preset's id, "coalescing/sequential" */
        error = g_error_new (G_FILE_ERROR, G_FILE_ERROR_NOENT, _("%s has no kernel text"), id);
      say_error (self, _("Could not open the preset’s kernel"), error);
      return;
    }
  g_strdelimit (dashed, "/", '-');
  start_new (self, g_steal_pointer (&text), g_strconcat (dashed, ".cu", NULL));
}

/* Open the Pattern as a Kernel, on the Explore page: the accesses the
 * views show, written out as a kernel text (a preset's pattern or one's
 * own), called after the preset or "pattern.cu" until it is saved. */
static void
new_kernel_from_pattern (WsWindow *self)
{
  g_autofree char *text = ws_pattern_to_kernel_text (explore_pattern (self), explore_preset (self) ? explore_preset (self)->title : NULL);
  g_autofree char *dashed = g_strdup (explore_preset (self) ? explore_preset (self)->id : "pattern");

  g_strdelimit (dashed, "/", '-');
  start_new (self, g_steal_pointer (&text), g_strconcat (dashed, explore_preset (self) ? "-pattern.cu" : ".cu", NULL));
}

/* Open the Kernel as a Copy, on the Explore page: for the preset shown,
 * while it has a kernel text (the intro looked for it once, as the preset
 * was shown: the actions are updated many times a second while a sweep
 * runs), its tooltip the intro's. */
void
ws_window_kernel_update_actions (WsWindow *self)
{
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.open-preset-kernel",
                                 explore_preset (self) && ws_preset_intro_get_has_kernel (explore_intro (self)));
}

static void
kernel_action (GtkWidget  *widget,
               const char *name,
               GVariant   *param)
{
  WsWindow *self = WS_WINDOW (widget);

  if (g_str_equal (name, "win.new-kernel"))
    new_kernel (self, NULL);
  else if (g_str_equal (name, "win.new-kernel-from"))
    new_kernel (self, g_variant_get_string (param, NULL));
  else if (g_str_equal (name, "win.new-kernel-from-preset"))
    new_kernel_from_preset (self, g_variant_get_string (param, NULL));
  else if (g_str_equal (name, "win.open-preset-kernel") && explore_preset (self))
    new_kernel_from_preset (self, explore_preset (self)->id);
  else if (g_str_equal (name, "win.open-pattern-kernel") && explore_pattern (self))
    new_kernel_from_pattern (self);
  else if (g_str_equal (name, "win.choose-preset-kernel"))
    ws_window_choose_preset_kernel (self);
  else if (g_str_equal (name, "win.open-kernel"))
    ws_window_open_kernel (self, NULL);
  else if (g_str_equal (name, "win.save-kernel"))
    save_kernel (self, FALSE);
  else if (g_str_equal (name, "win.save-kernel-as"))
    save_kernel (self, TRUE);
  else if (g_str_equal (name, "win.measure-kernel"))
    ws_kernel_page_measure (self->kernel_page);
  else if (g_str_equal (name, "win.open"))
    gtk_widget_activate_action (widget, ws_window_kernel_shown (self) ? "win.open-kernel" : "win.open-recording",
                                NULL);
  else if (g_str_equal (name, "win.save"))
    gtk_widget_activate_action (widget, ws_window_kernel_shown (self) ? "win.save-kernel" : "win.save-recording",
                                NULL);
}

void
ws_window_kernel_class_init (GtkWidgetClass *widget_class)
{
  g_type_ensure (WS_TYPE_KERNEL_PAGE);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, kernel_page);
  gtk_widget_class_install_action (widget_class, "win.new-kernel", NULL, kernel_action);
  gtk_widget_class_install_action (widget_class, "win.new-kernel-from", "s", kernel_action);
  gtk_widget_class_install_action (widget_class, "win.new-kernel-from-preset", "s", kernel_action);
  gtk_widget_class_install_action (widget_class, "win.open-preset-kernel", NULL, kernel_action);
  gtk_widget_class_install_action (widget_class, "win.choose-preset-kernel", NULL, kernel_action);
  gtk_widget_class_install_action (widget_class, "win.open-pattern-kernel", NULL, kernel_action);
  gtk_widget_class_install_action (widget_class, "win.open-kernel", NULL, kernel_action);
  gtk_widget_class_install_action (widget_class, "win.save-kernel", NULL, kernel_action);
  gtk_widget_class_install_action (widget_class, "win.save-kernel-as", NULL, kernel_action);
  gtk_widget_class_install_action (widget_class, "win.open", NULL, kernel_action);
  gtk_widget_class_install_action (widget_class, "win.save", NULL, kernel_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_o, GDK_CONTROL_MASK, "win.open", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_s, GDK_CONTROL_MASK, "win.save", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_s, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "win.save-kernel-as", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_3, GDK_ALT_MASK, "win.page", "s", "kernel");
}

/* "transpose.cu": a label's underscores are not mnemonics */
static char *
example_label (const char *path)
{
  g_autofree char *base = g_path_get_basename (path);
  g_auto (GStrv) parts = g_strsplit (base, "_", -1);

  return g_strjoinv ("__", parts);
}

/* The main menu's kernel items: New Kernel, New from Example, Open, Save. */
static void
fill_menu (WsWindow *self)
{
  g_autoptr (GMenu) section = g_menu_new ();
  g_autoptr (GMenu) examples = g_menu_new ();
  g_auto (GStrv) paths = ws_kernel_page_list_examples ();

  for (guint i = 0; paths[i]; i++)
    {
      g_autofree char *label = example_label (paths[i]);
      g_autoptr (GMenuItem) item = g_menu_item_new (label, NULL);

      g_menu_item_set_action_and_target_value (item, "win.new-kernel-from", g_variant_new_string (paths[i]));
      g_menu_append_item (examples, item);
    }
  g_menu_append (section, _("New _Kernel"), "win.new-kernel");
  if (paths[0])
    g_menu_append_submenu (section, _("New Kernel from _Example"), G_MENU_MODEL (examples));
  g_menu_append (section, _("New Kernel from Prese_t…"), "win.choose-preset-kernel");
  g_menu_append (section, _("Open K_ernel…"), "win.open-kernel");
  g_menu_append (section, _("Save Ker_nel"), "win.save-kernel");
  g_menu_append (section, _("Save Kernel _As…"), "win.save-kernel-as");
  g_menu_append (section, _("Add Kernel to _Comparison"), "win.compare-kernel");
  /* after New Pattern's section */
  g_menu_insert_section (self->primary_menu, 1, NULL, G_MENU_MODEL (section));
}

static void
recovered (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr (WsWindow) self = user_data;
  g_autoptr (GError) error = NULL;

  if (ws_kernel_editor_recover_finish (WS_KERNEL_EDITOR (source), result, &error))
    gtk_stack_set_visible_child_name (self->page_stack, "kernel");
  else
    say_error (self, _("Could not recover the unsaved kernel"), error);
}

void
ws_window_kernel_init (WsWindow *self)
{
  WsKernelEditor *editor = ws_kernel_page_get_editor (self->kernel_page);

  ws_kernel_page_set_session (self->kernel_page, self->session);
  ws_kernel_editor_set_autosave (editor, TRUE);
  fill_menu (self);
}

void
ws_window_recover_kernel (WsWindow *self)
{
  g_return_if_fail (WS_IS_WINDOW (self));

  ws_kernel_editor_recover_async (ws_kernel_page_get_editor (self->kernel_page), GTK_WINDOW (self), recovered,
                                  g_object_ref (self));
}

static void
close_confirmed (GObject      *source,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr (WsWindow) self = user_data;
  g_autoptr (GError) error = NULL;

  if (ws_kernel_editor_confirm_close_finish (WS_KERNEL_EDITOR (source), result, &error))
    {
      /* saved or discarded: nothing is left to ask about */
      ws_kernel_editor_set_modified (WS_KERNEL_EDITOR (source), FALSE);
      gtk_window_close (GTK_WINDOW (self));
    }
  else
    say_error (self, _("Could not save the kernel"), error);
}

gboolean
ws_window_kernel_close_request (WsWindow *self)
{
  WsKernelEditor *editor = ws_kernel_page_get_editor (self->kernel_page);

  if (!ws_kernel_editor_get_modified (editor))
    return FALSE;
  gtk_stack_set_visible_child_name (self->page_stack, "kernel");
  ws_kernel_editor_confirm_close_async (editor, GTK_WINDOW (self), close_confirmed, g_object_ref (self));
  return TRUE;
}
