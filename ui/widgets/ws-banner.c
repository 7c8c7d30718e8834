/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <glib/gi18n.h>
#include "ws-banner.h"

struct _WsBanner
{
  GtkWidget parent_instance;

  GtkWidget *box;
  GtkImage *icon;
  GtkLabel *label;
  GtkButton *button;
  GtkButton *help_button;
  char *help_topic;
};

G_DEFINE_FINAL_TYPE (WsBanner, ws_banner, GTK_TYPE_WIDGET)

enum
{
  PROP_0,
  PROP_REVEALED,
  PROP_TITLE,
  PROP_BUTTON_LABEL,
  N_PROPS
};

enum
{
  SIGNAL_BUTTON_CLICKED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void
on_button_clicked (WsBanner *self)
{
  g_signal_emit (self, signals[SIGNAL_BUTTON_CLICKED], 0);
}

static GtkWidget *
flat_button (const char *icon_name,
             const char *tooltip)
{
  GtkWidget *b = gtk_button_new_from_icon_name (icon_name);

  gtk_widget_set_valign (b, GTK_ALIGN_CENTER);
  gtk_widget_set_tooltip_text (b, tooltip);
  gtk_widget_add_css_class (b, "flat");
  return b;
}

static void
ws_banner_init (WsBanner *self)
{
  GtkWidget *close;

  self->box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));
  gtk_widget_add_css_class (GTK_WIDGET (self), "ws-banner");

  self->icon = GTK_IMAGE (gtk_image_new_from_icon_name ("dialog-information-symbolic"));
  gtk_widget_set_valign (GTK_WIDGET (self->icon), GTK_ALIGN_CENTER);
  gtk_box_append (GTK_BOX (self->box), GTK_WIDGET (self->icon));

  self->label = GTK_LABEL (gtk_label_new (NULL));
  gtk_widget_set_hexpand (GTK_WIDGET (self->label), TRUE);
  gtk_widget_set_valign (GTK_WIDGET (self->label), GTK_ALIGN_CENTER);
  gtk_label_set_xalign (self->label, 0);
  gtk_label_set_ellipsize (self->label, PANGO_ELLIPSIZE_END);
  gtk_box_append (GTK_BOX (self->box), GTK_WIDGET (self->label));

  self->button = GTK_BUTTON (gtk_button_new ());
  gtk_button_set_use_underline (self->button, TRUE);
  gtk_widget_set_valign (GTK_WIDGET (self->button), GTK_ALIGN_CENTER);
  gtk_widget_set_visible (GTK_WIDGET (self->button), FALSE);
  g_signal_connect_object (self->button, "clicked", G_CALLBACK (on_button_clicked), self, G_CONNECT_SWAPPED);
  gtk_box_append (GTK_BOX (self->box), GTK_WIDGET (self->button));

  self->help_button = GTK_BUTTON (gtk_button_new_with_mnemonic (_("_Learn More")));
  gtk_widget_set_valign (GTK_WIDGET (self->help_button), GTK_ALIGN_CENTER);
  gtk_widget_set_visible (GTK_WIDGET (self->help_button), FALSE);
  gtk_box_append (GTK_BOX (self->box), GTK_WIDGET (self->help_button));

  close = flat_button ("window-close-symbolic", _("Dismiss"));
  g_signal_connect_object (close, "clicked", G_CALLBACK (ws_banner_dismiss), self, G_CONNECT_SWAPPED);
  gtk_box_append (GTK_BOX (self->box), close);

  gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
}

static void
ws_banner_dispose (GObject *object)
{
  WsBanner *self = WS_BANNER (object);

  g_clear_pointer (&self->box, gtk_widget_unparent);
  G_OBJECT_CLASS (ws_banner_parent_class)->dispose (object);
}

static void
ws_banner_finalize (GObject *object)
{
  g_free (WS_BANNER (object)->help_topic);
  G_OBJECT_CLASS (ws_banner_parent_class)->finalize (object);
}

static void
ws_banner_get_property (GObject    *object,
                        guint       prop_id,
                        GValue     *value,
                        GParamSpec *pspec)
{
  WsBanner *self = WS_BANNER (object);

  switch (prop_id)
    {
    case PROP_REVEALED:
      g_value_set_boolean (value, ws_banner_get_revealed (self));
      break;
    case PROP_TITLE:
      g_value_set_string (value, ws_banner_get_title (self));
      break;
    case PROP_BUTTON_LABEL:
      g_value_set_string (value, ws_banner_get_button_label (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ws_banner_class_init (WsBannerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ws_banner_dispose;
  object_class->finalize = ws_banner_finalize;
  object_class->get_property = ws_banner_get_property;

  properties[PROP_REVEALED] = g_param_spec_boolean ("revealed", NULL, NULL, FALSE,
                                                    G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_TITLE] = g_param_spec_string ("title", NULL, NULL, NULL,
                                                G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_BUTTON_LABEL] = g_param_spec_string ("button-label", NULL, NULL, NULL,
                                                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* the banner's own button, for what it says */
  signals[SIGNAL_BUTTON_CLICKED] = g_signal_new ("button-clicked", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                                 0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "banner");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

GtkWidget *
ws_banner_new (void)
{
  return g_object_new (WS_TYPE_BANNER, NULL);
}

void
ws_banner_show (WsBanner   *self,
                const char *icon_name,
                const char *title,
                const char *tooltip,
                const char *button_label,
                const char *help_topic)
{
  gboolean was = ws_banner_get_revealed (self);
  g_autofree char *old_button = g_strdup (ws_banner_get_button_label (self));

  g_return_if_fail (WS_IS_BANNER (self));
  g_return_if_fail (title != NULL);

  gtk_image_set_from_icon_name (self->icon, icon_name ? icon_name : "dialog-information-symbolic");
  if (g_strcmp0 (gtk_label_get_text (self->label), title) != 0)
    {
      gtk_label_set_text (self->label, title);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TITLE]);
    }
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->label), tooltip ? tooltip : title);
  gtk_widget_set_visible (GTK_WIDGET (self->button), button_label != NULL);
  if (button_label)
    gtk_button_set_label (self->button, button_label);
  if (g_strcmp0 (old_button, ws_banner_get_button_label (self)) != 0)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUTTON_LABEL]);
  g_free (self->help_topic);
  self->help_topic = g_strdup (help_topic);
  gtk_widget_set_visible (GTK_WIDGET (self->help_button), help_topic != NULL);
  /* the action with its topic, never without one: win.show-help takes a string */
  if (help_topic)
    {
      gtk_actionable_set_action_target (GTK_ACTIONABLE (self->help_button), "s", help_topic);
      gtk_actionable_set_action_name (GTK_ACTIONABLE (self->help_button), "win.show-help");
    }
  gtk_widget_set_visible (GTK_WIDGET (self), TRUE);
  if (!was)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_REVEALED]);
}

void
ws_banner_dismiss (WsBanner *self)
{
  g_return_if_fail (WS_IS_BANNER (self));

  if (!ws_banner_get_revealed (self))
    return;
  gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_REVEALED]);
}

gboolean
ws_banner_get_revealed (WsBanner *self)
{
  g_return_val_if_fail (WS_IS_BANNER (self), FALSE);

  return gtk_widget_get_visible (GTK_WIDGET (self));
}

const char *
ws_banner_get_title (WsBanner *self)
{
  g_return_val_if_fail (WS_IS_BANNER (self), NULL);

  return gtk_label_get_text (self->label);
}

const char *
ws_banner_get_tooltip (WsBanner *self)
{
  g_return_val_if_fail (WS_IS_BANNER (self), NULL);

  return gtk_widget_get_tooltip_text (GTK_WIDGET (self->label));
}

const char *
ws_banner_get_button_label (WsBanner *self)
{
  g_return_val_if_fail (WS_IS_BANNER (self), NULL);

  return gtk_widget_get_visible (GTK_WIDGET (self->button)) ? gtk_button_get_label (self->button) : NULL;
}

const char *
ws_banner_get_help_topic (WsBanner *self)
{
  g_return_val_if_fail (WS_IS_BANNER (self), NULL);

  return self->help_topic;
}
