/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Preferences: every row is bound to its GSettings key with
 * g_settings_bind, so the window holds no state of its own and the main
 * window sees a change as soon as it is made. */
#include "ws-config.h"
#include "ws-preferences-window.h"
#include "ws-app-windows.h"
#include "ws-gpu-chooser.h"

#include <math.h>

struct _WsPreferencesWindow
{
  AdwPreferencesWindow parent_instance;

  GSettings *settings;

  GtkAdjustment *samples_adjustment;
  GtkSwitch *cold_cache_switch;
  GtkSwitch *auto_measure_switch;
  AdwComboRow *elem_size_row;
  AdwComboRow *style_row;
  GtkAdjustment *speed_adjustment;
  GtkScale *speed_scale;
  AdwComboRow *export_style_row;
  AdwPreferencesGroup *gpu_group;
};

G_DEFINE_FINAL_TYPE (WsPreferencesWindow, ws_preferences_window, ADW_TYPE_PREFERENCES_WINDOW)

/* The choices of the schema's enumerated keys, in the order of the rows'
 * string lists in ws-preferences-window.ui. */
static const char *const style_choices[] = { "default", "light", "dark", NULL };
static const char *const export_style_choices[] = { "screen", "print", NULL };
static const guint32 elem_size_choices[] = { 1, 2, 4, 8, 16 };

static gboolean
string_to_selected (GValue   *value,
                    GVariant *variant,
                    gpointer  user_data)
{
  const char *const *choices = user_data;
  const char *s = g_variant_get_string (variant, NULL);

  for (guint i = 0; choices[i]; i++)
    if (g_str_equal (choices[i], s))
      {
        g_value_set_uint (value, i);
        return TRUE;
      }
  return FALSE;
}

static GVariant *
selected_to_string (const GValue       *value,
                    const GVariantType *expected_type,
                    gpointer            user_data)
{
  const char *const *choices = user_data;
  guint selected = g_value_get_uint (value);

  if (selected >= g_strv_length ((char **) choices))
    return NULL;
  return g_variant_new_string (choices[selected]);
}

static gboolean
elem_size_to_selected (GValue   *value,
                       GVariant *variant,
                       gpointer  user_data)
{
  guint32 size = g_variant_get_uint32 (variant);
  guint selected = 0;

  /* the schema allows 1 to 16: show any other size as the widest choice
   * that does not exceed it */
  for (guint i = 0; i < G_N_ELEMENTS (elem_size_choices); i++)
    if (elem_size_choices[i] <= size)
      selected = i;
  g_value_set_uint (value, selected);
  return TRUE;
}

static GVariant *
selected_to_elem_size (const GValue       *value,
                       const GVariantType *expected_type,
                       gpointer            user_data)
{
  guint selected = g_value_get_uint (value);

  if (selected >= G_N_ELEMENTS (elem_size_choices))
    return NULL;
  return g_variant_new_uint32 (elem_size_choices[selected]);
}

/* The speed scale runs over log2 (speed), from -3 (⅛×) to 3 (8×), so that
 * 1× sits in the middle and every doubling is the same distance. */
static gboolean
speed_to_log2 (GValue   *value,
               GVariant *variant,
               gpointer  user_data)
{
  g_value_set_double (value, log2 (g_variant_get_double (variant)));
  return TRUE;
}

static GVariant *
log2_to_speed (const GValue       *value,
               const GVariantType *expected_type,
               gpointer            user_data)
{
  return g_variant_new_double (exp2 (g_value_get_double (value)));
}

static void
add_speed_marks (WsPreferencesWindow *self)
{
  static const char *const labels[] = { "⅛×", "¼×", "½×", "1×", "2×", "4×", "8×" };

  for (int i = -3; i <= 3; i++)
    gtk_scale_add_mark (self->speed_scale, i, GTK_POS_BOTTOM, labels[i + 3]);
}

static void
bind_settings (WsPreferencesWindow *self)
{
  GSettings *s = self->settings;

  g_settings_bind (s, "samples", self->samples_adjustment, "value", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (s, "cold-cache", self->cold_cache_switch, "active", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (s, "auto-measure", self->auto_measure_switch, "active", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind_with_mapping (s, "default-elem-size", self->elem_size_row, "selected",
                                G_SETTINGS_BIND_DEFAULT, elem_size_to_selected, selected_to_elem_size,
                                NULL, NULL);
  g_settings_bind_with_mapping (s, "color-scheme", self->style_row, "selected",
                                G_SETTINGS_BIND_DEFAULT, string_to_selected, selected_to_string,
                                (gpointer) style_choices, NULL);
  g_settings_bind_with_mapping (s, "export-style", self->export_style_row, "selected",
                                G_SETTINGS_BIND_DEFAULT, string_to_selected, selected_to_string,
                                (gpointer) export_style_choices, NULL);
  g_settings_bind_with_mapping (s, "animation-speed", self->speed_adjustment, "value",
                                G_SETTINGS_BIND_DEFAULT, speed_to_log2, log2_to_speed, NULL, NULL);
}

static void
ws_preferences_window_dispose (GObject *object)
{
  WsPreferencesWindow *self = WS_PREFERENCES_WINDOW (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), WS_TYPE_PREFERENCES_WINDOW);
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (ws_preferences_window_parent_class)->dispose (object);
}

static void
ws_preferences_window_class_init (WsPreferencesWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ws_preferences_window_dispose;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/warpscope/Warpscope/ws-preferences-window.ui");
  gtk_widget_class_bind_template_child (widget_class, WsPreferencesWindow, samples_adjustment);
  gtk_widget_class_bind_template_child (widget_class, WsPreferencesWindow, cold_cache_switch);
  gtk_widget_class_bind_template_child (widget_class, WsPreferencesWindow, auto_measure_switch);
  gtk_widget_class_bind_template_child (widget_class, WsPreferencesWindow, elem_size_row);
  gtk_widget_class_bind_template_child (widget_class, WsPreferencesWindow, style_row);
  gtk_widget_class_bind_template_child (widget_class, WsPreferencesWindow, speed_adjustment);
  gtk_widget_class_bind_template_child (widget_class, WsPreferencesWindow, speed_scale);
  gtk_widget_class_bind_template_child (widget_class, WsPreferencesWindow, export_style_row);
  gtk_widget_class_bind_template_child (widget_class, WsPreferencesWindow, gpu_group);
}

static void
ws_preferences_window_init (WsPreferencesWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->settings = g_settings_new (WS_APP_ID);
  add_speed_marks (self);
  bind_settings (self);
  {
    GtkWidget *chooser = ws_gpu_chooser_new (self->settings);

    ws_gpu_chooser_set_heading (WS_GPU_CHOOSER (chooser), NULL);
    adw_preferences_group_add (self->gpu_group, chooser);
  }
}

WsPreferencesWindow *
ws_preferences_window_new (void)
{
  return g_object_new (WS_TYPE_PREFERENCES_WINDOW, NULL);
}

void
ws_show_preferences_window (GtkWindow *parent)
{
  WsPreferencesWindow *window;

  g_return_if_fail (parent == NULL || GTK_IS_WINDOW (parent));

  window = ws_preferences_window_new ();
  if (parent)
    {
      gtk_window_set_transient_for (GTK_WINDOW (window), parent);
      gtk_window_set_modal (GTK_WINDOW (window), TRUE);
    }
  gtk_window_present (GTK_WINDOW (window));
}
