/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The explorer window: its template (the header bar, the presets beside
 * the pages: Explore, Compare, Kernel), which preset the Explore page
 * shows, presenting, toasts, and what the window remembers. It shows a
 * session (ws-session.h), which holds what is measured. The Explore page
 * models and measures what it shows (ws-explore-page*.c); the banner is in
 * ws-window-measure.c, sweeps in ws-window-sweep.c, actions in
 * ws-window-actions.c. */
#include "ws-config.h"

#include <glib/gi18n.h>
#include "ws-window-private.h"
#include "ws-view-style.h"

#include <math.h>

G_DEFINE_FINAL_TYPE (WsWindow, ws_window, ADW_TYPE_APPLICATION_WINDOW)

enum
{
  PROP_0,
  PROP_PLAYING,
  PROP_PAGE,
  PROP_PRESENTING,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* ------------------------------------------------------------------ */
/* The views                                                          */
/* ------------------------------------------------------------------ */

char *
ws_window_list_views (WsWindow *self)
{
  g_return_val_if_fail (WS_IS_WINDOW (self), NULL);

  return ws_explore_page_list_views (self->explore_page);
}

gboolean
ws_window_show_view (WsWindow   *self,
                     const char *name)
{
  g_return_val_if_fail (WS_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);

  return ws_explore_page_show_view (self->explore_page, name);
}

static void
on_playing_changed (WsWindow *self)
{
  g_assert (WS_IS_WINDOW (self));

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PLAYING]);
}

gboolean
ws_window_comparing (WsWindow *self)
{
  /* the template's buttons ask before the stack is bound */
  return self->page_stack && g_strcmp0 (gtk_stack_get_visible_child_name (self->page_stack), "compare") == 0;
}

WsSchedulePlayer *
ws_window_active_player (WsWindow *self)
{
  if (ws_window_kernel_shown (self))
    return ws_kernel_page_get_player (self->kernel_page);
  return ws_window_comparing (self) ? ws_compare_view_get_player (ws_compare_page_get_view (self->compare_page)) : explore_player (self);
}

/* The keys, the play button and the window's "playing" follow the page in view. */
static void
on_page_changed (WsWindow *self)
{
  gboolean exploring;

  g_assert (WS_IS_WINDOW (self));

  /* the comparison has choosers of its own and wants the width the presets
   * take; so does a kernel of one's own */
  exploring = g_strcmp0 (gtk_stack_get_visible_child_name (self->page_stack), "explore") == 0;
  /* and keeps it: a page narrower for a while (a message instead of a
   * figure) unfolds the flap, which would reveal the presets on its own */
  adw_flap_set_locked (self->flap, !exploring);

  if (!exploring && !adw_flap_get_folded (self->flap) && adw_flap_get_reveal_flap (self->flap))
    {
      self->flap_was_revealed = adw_flap_get_reveal_flap (self->flap);
      adw_flap_set_reveal_flap (self->flap, FALSE);
    }
  else if (exploring && self->flap_was_revealed)
    {
      adw_flap_set_reveal_flap (self->flap, TRUE);
      self->flap_was_revealed = FALSE;
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PAGE]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PLAYING]);
  ws_window_update_actions (self);
  ws_window_update_subtitle (self);
  /* the GPU measures the comparison while it is in view */
  ws_session_set_measure_comparison (self->session, ws_window_comparing (self));
}

/* the compare page's player, or the Kernel page's */
static void
on_compare_playing (WsWindow *self)
{
  g_assert (WS_IS_WINDOW (self));

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PLAYING]);
}

void
ws_window_show_banner (WsWindow   *self,
                       const char *icon_name,
                       const char *text,
                       const char *tooltip,
                       const char *button_label,
                       const char *help_topic)
{
  g_autofree char *line = ws_text_bounded (text, WS_WINDOW_LINE_CHARS);
  g_autofree char *tip = ws_text_bounded (tooltip ? tooltip : text, WS_WINDOW_TIP_CHARS);

  ws_banner_show (self->banner, icon_name, line, tip, button_label, help_topic);
}

char *
ws_window_file_name (const char *path)
{
  g_autofree char *base = g_path_get_basename (path);
  g_autofree char *display = g_filename_display_name (base);

  return ws_text_for_message (display);
}

/* A toast's title is markup in libadwaita 1.2, and what it says quotes
 * files and workers (“R&D.json”, “<data>:1:2: …”): never markup. A new
 * toast takes the place of the one on screen at once (the overlay would
 * keep it waiting until that one's time is up: an error 6 s late). */
void
ws_window_toast (WsWindow   *self,
                 const char *text)
{
  g_autofree char *shown = ws_text_printable (text, WS_WINDOW_LINE_CHARS);
  g_autofree char *escaped = g_markup_escape_text (shown, -1);
  AdwToast *toast = adw_toast_new (escaped);

  g_free (self->last_toast);
  self->last_toast = g_steal_pointer (&shown);
  self->last_toast_us = g_get_monotonic_time ();
  /* a screenshot waits for it, however long the window takes to settle */
  adw_toast_set_timeout (toast, self->keep_toasts ? 0 : 6);
  if (self->toast != NULL)
    adw_toast_dismiss (self->toast);
  g_set_weak_pointer (&self->toast, toast);
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
}

const char *
ws_window_get_last_toast (WsWindow *self)
{
  g_return_val_if_fail (WS_IS_WINDOW (self), NULL);

  return self->last_toast;
}

void
ws_window_keep_toasts (WsWindow *self)
{
  g_return_if_fail (WS_IS_WINDOW (self));

  self->keep_toasts = TRUE;
}

/* A toast slides in for a quarter of a second: half a second is room. */
gboolean
ws_window_toast_settling (WsWindow *self)
{
  g_return_val_if_fail (WS_IS_WINDOW (self), FALSE);

  return self->last_toast && g_get_monotonic_time () - self->last_toast_us < G_USEC_PER_SEC / 2;
}

/* ------------------------------------------------------------------ */
/* Presets and edits                                                  */
/* ------------------------------------------------------------------ */

gboolean
ws_window_load_preset (WsWindow   *self,
                       const char *id)
{
  const WsPreset *preset = ws_preset_lookup (id);

  g_return_val_if_fail (WS_IS_WINDOW (self), FALSE);
  if (preset == NULL)
    return FALSE;

  ws_window_cancel_sweep (self);
  ws_explore_page_show_preset (self->explore_page, preset);
  g_settings_set_string (self->settings, "last-preset", id);
  return TRUE;
}

/* A pattern of one's own: a coalesced load of the default element size,
 * to edit from there. */
void
ws_window_new_pattern (WsWindow *self)
{
  g_autoptr (WsPattern) pattern = ws_pattern_new ();
  guint elem = g_settings_get_uint (self->settings, "default-elem-size");
  g_autoptr (GError) error = NULL;

  g_return_if_fail (WS_IS_WINDOW (self));

  if (!ws_pattern_set_block (pattern, WS_DIM3 (256, 1, 1), &error) ||
      !ws_pattern_set_grid (pattern, WS_DIM3 (1024, 1, 1), &error) ||
      !ws_pattern_add_access (pattern, "in", WS_SPACE_GLOBAL, WS_ACCESS_LOAD, elem,
                              "blockIdx.x * blockDim.x + threadIdx.x", 0, &error))
    g_error ("the new pattern is broken: %s", error->message);
  ws_window_cancel_sweep (self);
  ws_explore_page_show_pattern (self->explore_page, pattern);
}

const char *
ws_window_get_preset_id (WsWindow *self)
{
  g_return_val_if_fail (WS_IS_WINDOW (self), NULL);
  return explore_preset (self) ? explore_preset (self)->id : NULL;
}

static void
on_preset_activated (WsWindow   *self,
                     const char *id)
{
  g_assert (WS_IS_WINDOW (self));

  ws_window_load_preset (self, id);
  gtk_stack_set_visible_child_name (self->page_stack, "explore");
  if (adw_flap_get_folded (self->flap))
    adw_flap_set_reveal_flap (self->flap, FALSE);
}

/* A preset or a pattern shown, an edit: the presets' list, the subtitle,
 * the plot, the actions. */
static void
on_pattern_changed (WsWindow *self)
{
  const WsPreset *preset = explore_preset (self);

  ws_preset_sidebar_select (self->sidebar, preset ? preset->id : NULL);
  ws_window_update_subtitle (self);
  ws_window_rebuild_chart (self);
  ws_window_update_actions (self);
}

/* Another instruction in view, or the pattern wrong or right again: the
 * plot shows what is in view. */
static void
on_shown_changed (WsWindow *self)
{
  ws_window_rebuild_chart (self);
}

gboolean
ws_window_pattern_is_wrong (WsWindow *self,
                            gboolean  say)
{
  const char *error = ws_explore_page_get_pattern_error (self->explore_page);
  g_autofree char *text = NULL;

  if (error == NULL)
    return FALSE;
  if (say)
    {
      /* Translators: what the editor says is wrong with the pattern */
      text = g_strdup_printf (_("Fix the pattern first: %s"), error);
      ws_window_toast (self, text);
    }
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* State kept between runs                                            */
/* ------------------------------------------------------------------ */

static void
restore_state (WsWindow *self)
{
  gtk_window_set_default_size (GTK_WINDOW (self), g_settings_get_int (self->settings, "window-width"),
                               g_settings_get_int (self->settings, "window-height"));
  if (g_settings_get_boolean (self->settings, "window-maximized"))
    gtk_window_maximize (GTK_WINDOW (self));
  g_settings_bind (self->settings, "animation-speed", explore_player (self), "speed", G_SETTINGS_BIND_DEFAULT);
}

/* The views' width changes with the window's and the presets': the
 * Explore page places its divider again. */
static void
watch_width (WsWindow *self)
{
  g_signal_connect_object (self->flap, "notify::reveal-progress", G_CALLBACK (ws_explore_page_queue_place_divider),
                           self->explore_page, G_CONNECT_SWAPPED);
  g_signal_connect_object (self, "notify::default-width", G_CALLBACK (ws_explore_page_queue_place_divider),
                           self->explore_page, G_CONNECT_SWAPPED);
  g_signal_connect_object (self, "notify::maximized", G_CALLBACK (ws_explore_page_queue_place_divider),
                           self->explore_page, G_CONNECT_SWAPPED);
  g_signal_connect_object (self, "notify::fullscreened", G_CALLBACK (ws_explore_page_queue_place_divider),
                           self->explore_page, G_CONNECT_SWAPPED);
}

static gboolean
on_close_request (WsWindow *self)
{
  int w, h;

  g_assert (WS_IS_WINDOW (self));

  if (ws_window_kernel_close_request (self))
    return TRUE;
  gtk_window_get_default_size (GTK_WINDOW (self), &w, &h);
  g_settings_delay (self->settings);
  g_settings_set_int (self->settings, "window-width", w);
  g_settings_set_int (self->settings, "window-height", h);
  g_settings_set_boolean (self->settings, "window-maximized", gtk_window_is_maximized (GTK_WINDOW (self)));
  g_settings_apply (self->settings);
  return FALSE;
}

gboolean
ws_window_is_settled (WsWindow *self)
{
  g_return_val_if_fail (WS_IS_WINDOW (self), FALSE);

  return ws_session_get_probed (self->session) && ws_session_get_recording_loaded (self->session) &&
         explore_launch (self) != NULL && !ws_hierarchy_page_is_running (explore_hierarchy (self)) &&
         !ws_session_get_calibrating (self->session) &&
         !ws_explore_page_get_measuring (self->explore_page) && !ws_window_is_opening (self) && ws_plot_panel_is_settled (explore_plot (self)) &&
         ws_compare_page_is_settled (self->compare_page);
}

/* ------------------------------------------------------------------ */
/* Presenting                                                         */
/* ------------------------------------------------------------------ */

gboolean
ws_window_get_presenting (WsWindow *self)
{
  g_return_val_if_fail (WS_IS_WINDOW (self), FALSE);
  /* the page presents the views; asked for before the template is bound */
  return self->explore_page && ws_explore_page_get_presenting (self->explore_page);
}

/* Full screen, the presets hidden, larger text in the figures and the
 * window; a clicker's keys drive the player (ws_window_presenting_key). */
void
ws_window_set_presenting (WsWindow *self,
                          gboolean  presenting)
{
  g_return_if_fail (WS_IS_WINDOW (self));

  presenting = !!presenting;
  if (presenting == ws_explore_page_get_presenting (self->explore_page))
    return;
  if (presenting)
    {
      self->flap_before_presenting = adw_flap_get_reveal_flap (self->flap);
      adw_flap_set_reveal_flap (self->flap, FALSE);
      /* the room is the figures': F5 or Escape leave */
      gtk_widget_set_visible (self->header_bar, FALSE);
      ws_banner_dismiss (self->banner);
      gtk_widget_add_css_class (GTK_WIDGET (self), "presenting");
      ws_explore_page_set_presenting (self->explore_page, TRUE);
      gtk_window_fullscreen (GTK_WINDOW (self));
      /* the figure, not the lesson's text (which the focus would select) */
      gtk_widget_grab_focus (gtk_stack_get_visible_child (ws_window_comparing (self)
                                                            ? GTK_STACK (self->page_stack) : explore_views (self)));
    }
  else
    {
      gtk_window_unfullscreen (GTK_WINDOW (self));
      ws_explore_page_set_presenting (self->explore_page, FALSE);
      gtk_widget_remove_css_class (GTK_WIDGET (self), "presenting");
      adw_flap_set_reveal_flap (self->flap, self->flap_before_presenting);
      gtk_widget_set_visible (self->header_bar, TRUE);
      ws_window_update_banner (self);
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PRESENTING]);
}

gboolean
ws_window_presenting_key (WsWindow *self,
                          guint     keyval)
{
  WsSchedulePlayer *player;

  g_return_val_if_fail (WS_IS_WINDOW (self), FALSE);

  if (!ws_explore_page_get_presenting (self->explore_page))
    return FALSE;
  player = ws_window_active_player (self);
  switch (keyval)
    {
    case GDK_KEY_Page_Down:
    case GDK_KEY_KP_Page_Down:
      ws_schedule_player_set_playing (player, FALSE);
      ws_schedule_player_step (player, 1);
      return TRUE;
    case GDK_KEY_Page_Up:
    case GDK_KEY_KP_Page_Up:
      ws_schedule_player_set_playing (player, FALSE);
      ws_schedule_player_step (player, -1);
      return TRUE;
    case GDK_KEY_space:
    case GDK_KEY_KP_Space:
      ws_schedule_player_set_playing (player, !ws_schedule_player_get_playing (player));
      return TRUE;
    case GDK_KEY_Escape:
      ws_window_set_presenting (self, FALSE);
      return TRUE;
    default:
      return FALSE;
    }
}

/* Before any widget sees them: a clicker's Page Up and Down, and the space
 * bar, are for the player while presenting, wherever the focus is. */
static gboolean
on_key_pressed (GtkEventControllerKey *controller,
                guint                  keyval,
                guint                  keycode,
                GdkModifierType        state,
                WsWindow              *self)
{
  if (state & (GDK_CONTROL_MASK | GDK_ALT_MASK))
    return FALSE;
  return ws_window_presenting_key (self, keyval);
}

static void
watch_presenting_keys (WsWindow *self)
{
  GtkEventController *key = gtk_event_controller_key_new ();

  gtk_event_controller_set_propagation_phase (key, GTK_PHASE_CAPTURE);
  g_signal_connect (key, "key-pressed", G_CALLBACK (on_key_pressed), self);
  gtk_widget_add_controller (GTK_WIDGET (self), key);
}

/* ------------------------------------------------------------------ */
/* Screenshots                                                        */
/* ------------------------------------------------------------------ */

gboolean
ws_window_save_screenshot (WsWindow   *self,
                           const char *path,
                           GError    **error)
{
  g_autoptr (GdkPaintable) paintable = NULL;
  g_autoptr (GtkSnapshot) snapshot = gtk_snapshot_new ();
  g_autoptr (GskRenderNode) node = NULL;
  g_autoptr (GdkTexture) texture = NULL;
  GskRenderer *renderer;
  int w = gtk_widget_get_width (GTK_WIDGET (self)), h = gtk_widget_get_height (GTK_WIDGET (self));

  g_return_val_if_fail (WS_IS_WINDOW (self), FALSE);

  renderer = gtk_native_get_renderer (GTK_NATIVE (self));
  if (renderer == NULL || w <= 0 || h <= 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED, _("the window is not on screen yet"));
      return FALSE;
    }
  paintable = gtk_widget_paintable_new (GTK_WIDGET (self));
  gdk_paintable_snapshot (paintable, GDK_SNAPSHOT (snapshot), w, h);
  node = gtk_snapshot_to_node (snapshot);
  if (node == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("the window drew nothing"));
      return FALSE;
    }
  texture = gsk_renderer_render_texture (renderer, node, &GRAPHENE_RECT_INIT (0, 0, w, h));
  if (!gdk_texture_save_to_png (texture, path))
    {
      /* Translators: %s is a file's name */
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("could not write %s"), path);
      return FALSE;
    }
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* GObject                                                            */
/* ------------------------------------------------------------------ */

static void
ws_window_dispose (GObject *object)
{
  WsWindow *self = WS_WINDOW (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_weak_pointer (&self->toast);
  ws_window_gpu_dispose (self);
  if (self->session)
    ws_session_set_measure_comparison (self->session, FALSE);
  gtk_widget_dispose_template (GTK_WIDGET (self), WS_TYPE_WINDOW);
  G_OBJECT_CLASS (ws_window_parent_class)->dispose (object);
}

static void
ws_window_finalize (GObject *object)
{
  WsWindow *self = WS_WINDOW (object);

  g_clear_object (&self->settings);
  g_clear_object (&self->session);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->last_toast, g_free);
  G_OBJECT_CLASS (ws_window_parent_class)->finalize (object);
}

static void
ws_window_get_property (GObject    *object,
                        guint       prop_id,
                        GValue     *value,
                        GParamSpec *pspec)
{
  WsWindow *self = WS_WINDOW (object);

  switch (prop_id)
    {
    case PROP_PLAYING:
      /* asked for before the template's pages are bound */
      g_value_set_boolean (value, self->explore_page && ws_schedule_player_get_playing (ws_window_active_player (self)));
      break;
    case PROP_PAGE:
      /* the template's switcher asks before the stack is bound */
      g_value_set_string (value, self->page_stack ? gtk_stack_get_visible_child_name (self->page_stack) : "explore");
      break;
    case PROP_PRESENTING:
      g_value_set_boolean (value, ws_window_get_presenting (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ws_window_set_property (GObject      *object,
                        guint         prop_id,
                        const GValue *value,
                        GParamSpec   *pspec)
{
  WsWindow *self = WS_WINDOW (object);

  switch (prop_id)
    {
    case PROP_PLAYING:
      ws_schedule_player_set_playing (ws_window_active_player (self), g_value_get_boolean (value));
      break;
    case PROP_PAGE:
      if (gtk_stack_get_child_by_name (self->page_stack, g_value_get_string (value)))
        gtk_stack_set_visible_child_name (self->page_stack, g_value_get_string (value));
      break;
    case PROP_PRESENTING:
      ws_window_set_presenting (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ws_window_class_init (WsWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ws_window_dispose;
  object_class->finalize = ws_window_finalize;
  object_class->get_property = ws_window_get_property;
  object_class->set_property = ws_window_set_property;

  properties[PROP_PLAYING] = g_param_spec_boolean ("playing", NULL, NULL, TRUE,
                                                   G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY |
                                                     G_PARAM_STATIC_STRINGS);
  properties[PROP_PAGE] = g_param_spec_string ("page", NULL, NULL, "explore",
                                               G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_PRESENTING] = g_param_spec_boolean ("presenting", NULL, NULL, FALSE,
                                                      G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY |
                                                        G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (WS_TYPE_BANNER);
  g_type_ensure (WS_TYPE_GPU_BUTTON);
  g_type_ensure (WS_TYPE_PRESET_SIDEBAR);
  g_type_ensure (WS_TYPE_EXPLORE_PAGE);
  g_type_ensure (WS_TYPE_COMPARE_PAGE);
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/warpscope/Warpscope/ws-window.ui");
  gtk_widget_class_bind_template_child (widget_class, WsWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, page_stack);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, compare_page);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, recent_menu);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, primary_menu);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, bundled_open_menu);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, bundled_add_menu);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, window_title);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, banner);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, header_bar);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, flap);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, sidebar);
  gtk_widget_class_bind_template_child (widget_class, WsWindow, explore_page);
  ws_window_class_init_actions (widget_class);
  ws_window_gpu_class_init (widget_class);
  ws_window_kernel_class_init (widget_class);
}

static void
ws_window_init (WsWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->settings = g_settings_new (WS_APP_ID);
  self->cancellable = g_cancellable_new ();
  g_signal_connect_object (explore_player (self), "notify::playing", G_CALLBACK (on_playing_changed), self,
                           G_CONNECT_SWAPPED);
  restore_state (self);
  g_signal_connect_object (self->sidebar, "preset-activated", G_CALLBACK (on_preset_activated), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->explore_page, "pattern-changed", G_CALLBACK (on_pattern_changed), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->explore_page, "shown-changed", G_CALLBACK (on_shown_changed), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect (self, "close-request", G_CALLBACK (on_close_request), NULL);
  watch_width (self);
  watch_presenting_keys (self);
  g_signal_connect_object (self->page_stack, "notify::visible-child", G_CALLBACK (on_page_changed), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (ws_compare_view_get_player (ws_compare_page_get_view (self->compare_page)), "notify::playing",
                           G_CALLBACK (on_compare_playing), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (ws_kernel_page_get_player (self->kernel_page), "notify::playing",
                           G_CALLBACK (on_compare_playing), self, G_CONNECT_SWAPPED);
  ws_window_recordings_init (self);
}

WsWindow *
ws_window_new (GtkApplication *application,
               WsSession      *session)
{
  WsWindow *self = g_object_new (WS_TYPE_WINDOW, "application", application, NULL);
  g_autofree char *last = NULL;

  g_return_val_if_fail (session == NULL || WS_IS_SESSION (session), NULL);

  if (session)
    self->session = g_object_ref (session);
  else
    {
      self->session = ws_session_new (NULL);
      ws_session_load_recording (self->session, NULL);
    }
  /* how the session measures is what the user set */
  g_settings_bind (self->settings, "samples", self->session, "samples", G_SETTINGS_BIND_GET);
  g_settings_bind (self->settings, "cold-cache", self->session, "cold", G_SETTINGS_BIND_GET);
  ws_explore_page_set_session (self->explore_page, self->session);
  g_settings_bind (self->settings, "auto-measure", self->explore_page, "auto-measure", G_SETTINGS_BIND_GET);
  ws_window_measure_init (self);
  ws_window_hierarchy_follow (self);
  ws_window_sweep_init (self);
  ws_window_gpu_init (self);
  ws_window_compare_init (self);
  ws_window_kernel_init (self);
  last = g_settings_get_string (self->settings, "last-preset");
  if (!ws_window_load_preset (self, last))
    ws_window_load_preset (self, "coalescing/sequential");
  return self;
}

WsBanner *
ws_window_get_banner (WsWindow *self)
{
  g_return_val_if_fail (WS_IS_WINDOW (self), NULL);

  return self->banner;
}

WsGpuButton *
ws_window_get_gpu_button (WsWindow *self)
{
  g_return_val_if_fail (WS_IS_WINDOW (self), NULL);

  return self->gpu_button;
}

WsExplorePage *
ws_window_get_explore_page (WsWindow *self)
{
  g_return_val_if_fail (WS_IS_WINDOW (self), NULL);
  return self->explore_page;
}

WsComparePage *
ws_window_get_compare_page (WsWindow *self)
{
  g_return_val_if_fail (WS_IS_WINDOW (self), NULL);
  return self->compare_page;
}

WsSession *
ws_window_get_session (WsWindow *self)
{
  g_return_val_if_fail (WS_IS_WINDOW (self), NULL);
  return self->session;
}

WsKernelPage *
ws_window_get_kernel_page (WsWindow *self)
{
  g_return_val_if_fail (WS_IS_WINDOW (self), NULL);
  return self->kernel_page;
}

const char *
ws_window_get_page (WsWindow *self)
{
  g_return_val_if_fail (WS_IS_WINDOW (self), NULL);
  return gtk_stack_get_visible_child_name (self->page_stack);
}

void
ws_window_set_page (WsWindow   *self,
                    const char *name)
{
  g_return_if_fail (WS_IS_WINDOW (self));
  g_return_if_fail (name != NULL);

  g_object_set (self, "page", name, NULL);
}

WsPresetSidebar *
ws_window_get_sidebar (WsWindow *self)
{
  g_return_val_if_fail (WS_IS_WINDOW (self), NULL);
  return self->sidebar;
}

gboolean
ws_window_get_presets_shown (WsWindow *self)
{
  g_return_val_if_fail (WS_IS_WINDOW (self), FALSE);
  return adw_flap_get_reveal_flap (self->flap);
}

void
ws_window_set_presets_shown (WsWindow *self,
                             gboolean  shown)
{
  g_return_if_fail (WS_IS_WINDOW (self));
  adw_flap_set_reveal_flap (self->flap, shown);
}

GtkWidget *
ws_window_get_header_bar (WsWindow *self)
{
  g_return_val_if_fail (WS_IS_WINDOW (self), NULL);
  return self->header_bar;
}

const char *
ws_window_get_subtitle (WsWindow *self)
{
  g_return_val_if_fail (WS_IS_WINDOW (self), NULL);
  return adw_window_title_get_subtitle (self->window_title);
}

GMenuModel *
ws_window_get_menu (WsWindow   *self,
                    const char *name)
{
  g_return_val_if_fail (WS_IS_WINDOW (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  if (g_str_equal (name, "primary"))
    return G_MENU_MODEL (self->primary_menu);
  if (g_str_equal (name, "recent"))
    return G_MENU_MODEL (self->recent_menu);
  if (g_str_equal (name, "bundled-open"))
    return G_MENU_MODEL (self->bundled_open_menu);
  if (g_str_equal (name, "bundled-add"))
    return G_MENU_MODEL (self->bundled_add_menu);
  return NULL;
}
