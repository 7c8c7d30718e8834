/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <glib/gi18n.h>
#include "ws-gpu-button.h"

#include "ws-gpu-chooser.h"

struct _WsGpuButton
{
  GtkWidget parent_instance;

  GtkMenuButton *button;
  GtkImage *icon;
  GtkLabel *label;
  GtkPopover *popover;
  GtkWidget *chooser;
  WsSession *session;
  char *icon_name;
};

G_DEFINE_FINAL_TYPE (WsGpuButton, ws_gpu_button, GTK_TYPE_WIDGET)

enum
{
  PROP_0,
  PROP_SESSION,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* what the session says of where measurements run, as the session changes */
static const char * const notified[] = { "notify::connection", "notify::connection-detail", "notify::hello",
                                         "notify::probed", "notify::target" };

static void
update (WsGpuButton *self)
{
  static const char *icons[] = { "computer-symbolic", "network-server-symbolic", "network-workgroup-symbolic",
                                 "utilities-terminal-symbolic" };
  const WsGpuTarget *target;
  const WsWorkerHello *hello;
  g_autofree char *label = NULL;
  g_autofree char *tip = NULL;

  if (self->session == NULL)
    return;
  target = ws_session_get_target (self->session);
  hello = ws_session_get_hello (self->session);
  tip = ws_session_describe_gpu (self->session);
  label = ws_gpu_target_is_local (target) ? g_strdup (_("This Computer")) : ws_session_dup_place (self->session);
  /* which GPU, where there is a choice */
  if (hello && hello->gpus->len > 1)
    {
      g_autofree char *shorter = g_steal_pointer (&label);
      label = g_strdup_printf (_("%s · GPU %d"), shorter, hello->gpu);
    }
  gtk_label_set_text (self->label, label);
  g_free (self->icon_name);
  self->icon_name = g_strdup (target->kind < G_N_ELEMENTS (icons) ? icons[target->kind] : icons[0]);
  gtk_image_set_from_icon_name (self->icon, self->icon_name);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->button), tip);
}

static void
ws_gpu_button_init (WsGpuButton *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);

  self->button = GTK_MENU_BUTTON (gtk_menu_button_new ());
  gtk_widget_set_parent (GTK_WIDGET (self->button), GTK_WIDGET (self));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->button), _("Where Measurements Run"));

  self->icon_name = g_strdup ("computer-symbolic");
  self->icon = GTK_IMAGE (gtk_image_new_from_icon_name (self->icon_name));
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->icon));
  self->label = GTK_LABEL (gtk_label_new (_("This Computer")));
  gtk_label_set_ellipsize (self->label, PANGO_ELLIPSIZE_MIDDLE);
  gtk_label_set_max_width_chars (self->label, 24);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->label));
  gtk_box_append (GTK_BOX (box), gtk_image_new_from_icon_name ("pan-down-symbolic"));
  gtk_menu_button_set_child (self->button, box);

  self->popover = GTK_POPOVER (gtk_popover_new ());
  gtk_widget_add_css_class (GTK_WIDGET (self->popover), "ws-gpu-popover");
  gtk_menu_button_set_popover (self->button, GTK_WIDGET (self->popover));
}

static void
ws_gpu_button_dispose (GObject *object)
{
  WsGpuButton *self = WS_GPU_BUTTON (object);

  ws_gpu_button_set_session (self, NULL);
  if (self->button)
    gtk_widget_unparent (GTK_WIDGET (self->button));
  self->button = NULL;
  G_OBJECT_CLASS (ws_gpu_button_parent_class)->dispose (object);
}

static void
ws_gpu_button_finalize (GObject *object)
{
  g_free (WS_GPU_BUTTON (object)->icon_name);
  G_OBJECT_CLASS (ws_gpu_button_parent_class)->finalize (object);
}

static void
ws_gpu_button_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  switch (prop_id)
    {
    case PROP_SESSION:
      g_value_set_object (value, WS_GPU_BUTTON (object)->session);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ws_gpu_button_set_property (GObject      *object,
                            guint         prop_id,
                            const GValue *value,
                            GParamSpec   *pspec)
{
  switch (prop_id)
    {
    case PROP_SESSION:
      ws_gpu_button_set_session (WS_GPU_BUTTON (object), g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ws_gpu_button_class_init (WsGpuButtonClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ws_gpu_button_dispose;
  object_class->finalize = ws_gpu_button_finalize;
  object_class->get_property = ws_gpu_button_get_property;
  object_class->set_property = ws_gpu_button_set_property;

  properties[PROP_SESSION] = g_param_spec_object ("session", NULL, NULL, WS_TYPE_SESSION,
                                                  G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

GtkWidget *
ws_gpu_button_new (void)
{
  return g_object_new (WS_TYPE_GPU_BUTTON, NULL);
}

void
ws_gpu_button_set_settings (WsGpuButton *self,
                            GSettings   *settings)
{
  g_return_if_fail (WS_IS_GPU_BUTTON (self));
  g_return_if_fail (G_IS_SETTINGS (settings));
  g_return_if_fail (self->chooser == NULL);

  self->chooser = ws_gpu_chooser_new (settings);
  gtk_widget_set_margin_start (self->chooser, 6);
  gtk_widget_set_margin_end (self->chooser, 6);
  gtk_widget_set_margin_top (self->chooser, 6);
  gtk_widget_set_margin_bottom (self->chooser, 6);
  gtk_widget_set_size_request (self->chooser, 380, -1);
  gtk_popover_set_child (self->popover, self->chooser);
  if (self->session)
    ws_gpu_chooser_set_session (WS_GPU_CHOOSER (self->chooser), self->session);
}

WsSession *
ws_gpu_button_get_session (WsGpuButton *self)
{
  g_return_val_if_fail (WS_IS_GPU_BUTTON (self), NULL);

  return self->session;
}

void
ws_gpu_button_set_session (WsGpuButton *self,
                           WsSession   *session)
{
  g_return_if_fail (WS_IS_GPU_BUTTON (self));
  g_return_if_fail (session == NULL || WS_IS_SESSION (session));

  if (self->session == session)
    return;
  if (self->session)
    g_signal_handlers_disconnect_by_func (self->session, update, self);
  g_set_object (&self->session, session);
  if (self->chooser)
    ws_gpu_chooser_set_session (WS_GPU_CHOOSER (self->chooser), session);
  if (session)
    {
      for (guint i = 0; i < G_N_ELEMENTS (notified); i++)
        g_signal_connect_object (session, notified[i], G_CALLBACK (update), self, G_CONNECT_SWAPPED);
      update (self);
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SESSION]);
}

const char *
ws_gpu_button_get_label (WsGpuButton *self)
{
  g_return_val_if_fail (WS_IS_GPU_BUTTON (self), NULL);

  return gtk_label_get_text (self->label);
}

const char *
ws_gpu_button_get_icon_name (WsGpuButton *self)
{
  g_return_val_if_fail (WS_IS_GPU_BUTTON (self), NULL);

  return self->icon_name;
}

GtkWidget *
ws_gpu_button_get_popover (WsGpuButton *self)
{
  g_return_val_if_fail (WS_IS_GPU_BUTTON (self), NULL);

  return GTK_WIDGET (self->popover);
}

void
ws_gpu_button_popup (WsGpuButton *self)
{
  g_return_if_fail (WS_IS_GPU_BUTTON (self));

  gtk_menu_button_popup (self->button);
}

void
ws_gpu_button_popdown (WsGpuButton *self)
{
  g_return_if_fail (WS_IS_GPU_BUTTON (self));

  gtk_menu_button_popdown (self->button);
}
