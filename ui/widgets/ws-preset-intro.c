/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <glib/gi18n.h>
#include "ws-preset-intro.h"

#include "ws-preset-kernels.h"

#include <string.h>

struct _WsPresetIntro
{
  GtkWidget parent_instance;

  GtkWidget *box;
  GtkLabel *title;
  GtkLabel *summary;
  GtkWidget *kernel_button;
  const WsPreset *preset;
  gboolean has_kernel;
};

G_DEFINE_FINAL_TYPE (WsPresetIntro, ws_preset_intro, GTK_TYPE_WIDGET)

/* A preset's text as markup: the names it quotes in `backticks` (its
 * parameters) in a monospace face, everything else as it is. */
static char *
summary_markup (const char *text)
{
  GString *s = g_string_new (NULL);
  gboolean code = FALSE;

  for (const char *p = text; *p;)
    {
      const char *tick = strchr (p, '`');
      gsize n = tick ? (gsize) (tick - p) : strlen (p);
      g_autofree char *escaped = g_markup_escape_text (p, (gssize) n);

      g_string_append (s, escaped);
      if (tick == NULL)
        break;
      /* a lone backtick at the end stays one */
      if (!code && strchr (tick + 1, '`') == NULL)
        {
          g_string_append_c (s, '`');
          p = tick + 1;
          continue;
        }
      g_string_append (s, code ? "</tt>" : "<tt>");
      code = !code;
      p = tick + 1;
    }
  if (code)
    g_string_append (s, "</tt>");
  return g_string_free (s, FALSE);
}

static GtkLabel *
wrapped_label (const char *css_class)
{
  GtkLabel *label = GTK_LABEL (gtk_label_new (NULL));

  gtk_label_set_xalign (label, 0);
  gtk_label_set_wrap (label, TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (label), css_class);
  return label;
}

static GtkWidget *
action_button (const char *label,
               const char *action,
               const char *tooltip)
{
  return g_object_new (GTK_TYPE_BUTTON, "label", label, "action-name", action, "tooltip-text", tooltip, NULL);
}

static void
ws_preset_intro_init (WsPresetIntro *self)
{
  GtkWidget *buttons = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);

  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 18);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));
  self->title = wrapped_label ("title-2");
  gtk_box_append (GTK_BOX (self->box), GTK_WIDGET (self->title));
  self->summary = wrapped_label ("ws-summary");
  gtk_label_set_selectable (self->summary, TRUE);
  gtk_box_append (GTK_BOX (self->box), GTK_WIDGET (self->summary));

  gtk_widget_set_halign (buttons, GTK_ALIGN_START);
  self->kernel_button = action_button (_("Open the Kernel as a Copy"), "win.open-preset-kernel", NULL);
  gtk_box_append (GTK_BOX (buttons), self->kernel_button);
  gtk_box_append (GTK_BOX (buttons),
                  action_button (_("Open the Pattern as a Kernel"), "win.open-pattern-kernel",
                                 _("Opens the accesses the views show on the Kernel page, written out as a "
                                   "kernel: every thread makes them once")));
  gtk_box_append (GTK_BOX (self->box), buttons);
}

static void
ws_preset_intro_dispose (GObject *object)
{
  g_clear_pointer (&WS_PRESET_INTRO (object)->box, gtk_widget_unparent);
  G_OBJECT_CLASS (ws_preset_intro_parent_class)->dispose (object);
}

static void
ws_preset_intro_class_init (WsPresetIntroClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = ws_preset_intro_dispose;
  gtk_widget_class_set_layout_manager_type (GTK_WIDGET_CLASS (klass), GTK_TYPE_BIN_LAYOUT);
}

GtkWidget *
ws_preset_intro_new (void)
{
  return g_object_new (WS_TYPE_PRESET_INTRO, NULL);
}

static void
set_kernel (WsPresetIntro  *self,
            const WsPreset *preset)
{
  g_autofree char *path = preset ? ws_preset_kernel_path (preset->id) : NULL;
  const char *why;

  self->preset = preset;
  self->has_kernel = path != NULL;
  if (self->has_kernel)
    why = _("Opens this preset’s kernel on the Kernel page, as a new text to change and save");
  else if (preset)
    why = _("This preset’s kernel is not written as a kernel text yet: its real kernel needs the host’s API, "
            "or has not been written out");
  else
    why = _("A pattern of your own has no preset’s kernel");
  gtk_widget_set_tooltip_text (self->kernel_button, why);
}

void
ws_preset_intro_show_preset (WsPresetIntro  *self,
                             const WsPreset *preset)
{
  g_autofree char *markup = NULL;

  g_return_if_fail (WS_IS_PRESET_INTRO (self));
  g_return_if_fail (preset != NULL);

  gtk_label_set_text (self->title, _(preset->title));
  markup = summary_markup (_(preset->summary));
  gtk_label_set_markup (self->summary, markup);
  set_kernel (self, preset);
}

void
ws_preset_intro_show_own (WsPresetIntro  *self,
                          const WsPreset *from)
{
  g_return_if_fail (WS_IS_PRESET_INTRO (self));

  if (from)
    {
      g_autofree char *title = g_strdup_printf (_("Your pattern, from “%s”"), _(from->title));

      gtk_label_set_text (self->title, title);
      gtk_label_set_text (self->summary,
                          _("A pattern of your own, changed from the preset: its lesson was about the preset's "
                            "pattern, so it is not shown. The views, the model and the plot follow what you "
                            "wrote, and Measure runs it as a kernel generated from it."));
    }
  else
    {
      gtk_label_set_text (self->title, _("Your pattern"));
      gtk_label_set_text (self->summary,
                          _("Thread i reads element i. Change the memory space, the access, the element size "
                            "and the index, and watch what the hardware makes of it."));
    }
  set_kernel (self, NULL);
}

const WsPreset *
ws_preset_intro_get_preset (WsPresetIntro *self)
{
  g_return_val_if_fail (WS_IS_PRESET_INTRO (self), NULL);

  return self->preset;
}

gboolean
ws_preset_intro_get_has_kernel (WsPresetIntro *self)
{
  g_return_val_if_fail (WS_IS_PRESET_INTRO (self), FALSE);

  return self->has_kernel;
}

const char *
ws_preset_intro_get_title (WsPresetIntro *self)
{
  g_return_val_if_fail (WS_IS_PRESET_INTRO (self), NULL);

  return gtk_label_get_text (self->title);
}

const char *
ws_preset_intro_get_summary (WsPresetIntro *self)
{
  g_return_val_if_fail (WS_IS_PRESET_INTRO (self), NULL);

  return gtk_label_get_text (self->summary);
}

GtkWidget *
ws_preset_intro_get_kernel_button (WsPresetIntro *self)
{
  g_return_val_if_fail (WS_IS_PRESET_INTRO (self), NULL);

  return self->kernel_button;
}
