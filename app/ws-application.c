/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "ws-config.h"

#include <glib/gi18n.h>
#include "ws-application.h"

#include <stdio.h>

#include "ws-app-windows.h"
#include "ws-benchmark.h"
#include "ws-gpu-chooser.h"
#include "ws-window.h"

struct _WsApplication
{
  AdwApplication parent_instance;

  WsBackend *backend;
  GSettings *settings;
  char *preset;
  char *compare;
  char *recording;
  char *screenshot;
  char *style;
  char *size;
  char *gpu;
  char *view;
  gboolean benchmark;
  gboolean recovery_offered;      /* an unsaved kernel left by a run that ended was offered back */
};

G_DEFINE_FINAL_TYPE (WsApplication, ws_application, ADW_TYPE_APPLICATION)

static GtkWindow *
active_window (gpointer app)
{
  return gtk_application_get_active_window (GTK_APPLICATION (app));
}

/* The explorer, which the About window or the guide may stand in front of. */
static WsWindow *
explorer_window (gpointer app)
{
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (app)); l; l = l->next)
    if (WS_IS_WINDOW (l->data))
      return l->data;
  return NULL;
}

static void
about_activated (GSimpleAction *action,
                 GVariant      *param,
                 gpointer       app)
{
  ws_show_about_window (active_window (app));
}

static void
preferences_activated (GSimpleAction *action,
                       GVariant      *param,
                       gpointer       app)
{
  ws_show_preferences_window (active_window (app));
}

static void
help_activated (GSimpleAction *action,
                GVariant      *param,
                gpointer       app)
{
  GtkWindow *window = active_window (app);

  /* the guide opens at the topic of the preset on show */
  ws_show_help_window (window, WS_IS_WINDOW (window) ? ws_window_get_preset_id (WS_WINDOW (window)) : NULL);
}

static void
quit_activated (GSimpleAction *action,
                GVariant      *param,
                gpointer       app)
{
  GList *windows = g_list_copy (gtk_application_get_windows (GTK_APPLICATION (app)));

  /* closing each window lets it remember its size */
  for (GList *l = windows; l; l = l->next)
    gtk_window_close (l->data);
  g_list_free (windows);
}

static const GActionEntry app_entries[] = {
  { .name = "about", .activate = about_activated },
  { .name = "preferences", .activate = preferences_activated },
  { .name = "help", .activate = help_activated },
  { .name = "quit", .activate = quit_activated },
};

static void
apply_color_scheme (WsApplication *self)
{
  g_autofree char *scheme = NULL;
  AdwColorScheme value = ADW_COLOR_SCHEME_DEFAULT;

  g_assert (WS_IS_APPLICATION (self));

  scheme = self->style ? g_strdup (self->style) : g_settings_get_string (self->settings, "color-scheme");
  if (g_str_equal (scheme, "light"))
    value = ADW_COLOR_SCHEME_FORCE_LIGHT;
  else if (g_str_equal (scheme, "dark"))
    value = ADW_COLOR_SCHEME_FORCE_DARK;
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), value);
}

static void
ws_application_startup (GApplication *app)
{
  WsApplication *self = WS_APPLICATION (app);
  static const struct
  {
    const char *action;
    const char *accels[3];
  } accels[] = {
    { "app.quit", { "<Control>q", NULL } },
    { "app.preferences", { "<Control>comma", NULL } },
    { "app.help", { "F1", NULL } },
    { "win.show-help-overlay", { "<Control>question", NULL } },
  };

  G_APPLICATION_CLASS (ws_application_parent_class)->startup (app);

  g_action_map_add_action_entries (G_ACTION_MAP (app), app_entries, G_N_ELEMENTS (app_entries), app);
  for (guint i = 0; i < G_N_ELEMENTS (accels); i++)
    gtk_application_set_accels_for_action (GTK_APPLICATION (app), accels[i].action, accels[i].accels);
  self->settings = g_settings_new (WS_APP_ID);
  g_signal_connect_object (self->settings, "changed::color-scheme", G_CALLBACK (apply_color_scheme), self,
                           G_CONNECT_SWAPPED);
  apply_color_scheme (self);
  /* where measurements run: --gpu chooses (and it is remembered), else the
   * last choice; the windows' sessions share this backend */
  if (self->gpu)
    g_settings_set_string (self->settings, "gpu", self->gpu);
  {
    g_autoptr (WsGpuTarget) target = ws_gpu_chooser_read_target (self->settings);

    if (!ws_gpu_target_is_local (target))
      {
        g_clear_object (&self->backend);
        self->backend = ws_backend_new_for_target (target);
      }
  }
}

static void
open_comparison (WsWindow   *window,
                 const char *list)
{
  g_auto (GStrv) ids = g_strsplit (list, ",", -1);

  /* a kernel file named from where the program was started */
  for (guint i = 0; ids[i]; i++)
    if (ws_compare_spec_is_kernel (ids[i]) && !g_path_is_absolute (ids[i]))
      {
        char *absolute = g_canonicalize_filename (ids[i], NULL);
        g_free (ids[i]);
        ids[i] = absolute;
      }
  if (!ws_window_compare_presets (window, (const char * const *) ids))
    g_printerr ("warpscope: --compare takes two to four preset ids or kernel files (FILE.cu[:KERNEL][@LINE]), not "
                "“%s”; warpscope-cli model --list-presets lists the presets\n", list);
}

static void
ws_application_activate (GApplication *app)
{
  WsApplication *self = WS_APPLICATION (app);
  GtkWindow *window = GTK_WINDOW (explorer_window (app));
  int w, h;

  if (window == NULL)
    {
      g_autoptr (WsSession) session = ws_application_new_session (self, self->recording);

      window = GTK_WINDOW (ws_window_new (GTK_APPLICATION (app), session));
      if (self->preset && !ws_window_load_preset (WS_WINDOW (window), self->preset))
        {
          const char *near = ws_preset_suggest (self->preset);

          if (near)
            g_printerr (_("warpscope: there is no preset “%s”; did you mean %s? warpscope-cli model --list-presets "
                          "lists them\n"), self->preset, near);
          else
            g_printerr (_("warpscope: there is no preset “%s”; warpscope-cli model --list-presets lists them\n"),
                        self->preset);
        }
      if (self->compare)
        open_comparison (WS_WINDOW (window), self->compare);
      if (self->view && !ws_window_show_view (WS_WINDOW (window), self->view))
        {
          g_autofree char *views = ws_window_list_views (WS_WINDOW (window));
          /* Translators: the view asked for, then the views the pattern has ("banks, hierarchy") */
          g_printerr (_("warpscope: the pattern has no view “%s”; its views are %s\n"), self->view, views);
        }
      if (self->size && sscanf (self->size, "%dx%d", &w, &h) == 2)
        {
          gtk_window_unmaximize (window);
          gtk_window_set_default_size (window, w, h);
        }
    }
  gtk_window_present (window);
  if (self->benchmark)
    ws_benchmark_run (WS_WINDOW (window));
  else if (self->screenshot)
    ws_benchmark_screenshot (WS_WINDOW (window), self->screenshot);
  else if (!self->recovery_offered)
    {
      /* a kernel left unsaved when the program last ended, once a run */
      self->recovery_offered = TRUE;
      ws_window_recover_kernel (WS_WINDOW (window));
    }
}

/* Recordings given on the command line, or opened from Files: the first in
 * place of the main recording (the session drops the bundled one if it is
 * still being read), the others beside it. */
static void
ws_application_open (GApplication  *app,
                     GFile        **files,
                     int            n_files,
                     const char    *hint)
{
  g_application_activate (app);
  if (!ws_window_open_files (explorer_window (app), files, (guint) n_files))
    g_printerr ("warpscope: nothing to open: recordings are local files\n");
}

/* Run from the build tree, or installed without its schema, the program
 * would abort in g_settings_new: say what to do instead, in one line. */
static gboolean
schema_installed (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr (GSettingsSchema) schema = source ? g_settings_schema_source_lookup (source, WS_APP_ID, TRUE) : NULL;

  return schema != NULL;
}

static int
ws_application_handle_local_options (GApplication *app,
                                     GVariantDict *options)
{
  WsApplication *self = WS_APPLICATION (app);

  if (g_variant_dict_contains (options, "version"))
    {
      g_print ("warpscope %s\n", WS_VERSION);
      return 0;
    }
  if (!schema_installed ())
    {
      g_printerr ("warpscope: the settings schema %s is not installed: run the program from its build with "
                  "`meson devenv -C _build warpscope`, or install it with `meson install -C _build`\n", WS_APP_ID);
      return 1;
    }
  g_variant_dict_lookup (options, "preset", "s", &self->preset);
  g_variant_dict_lookup (options, "compare", "s", &self->compare);
  g_variant_dict_lookup (options, "recording", "^ay", &self->recording);
  g_variant_dict_lookup (options, "screenshot", "^ay", &self->screenshot);
  g_variant_dict_lookup (options, "style", "s", &self->style);
  g_variant_dict_lookup (options, "size", "s", &self->size);
  g_variant_dict_lookup (options, "gpu", "s", &self->gpu);
  if (self->gpu)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (WsGpuTarget) target = ws_gpu_target_parse (self->gpu, &error);

      if (target == NULL)
        {
          g_printerr ("warpscope: --gpu: %s\n", error->message);
          return 2;
        }
    }
  g_variant_dict_lookup (options, "view", "s", &self->view);
  self->benchmark = g_variant_dict_contains (options, "benchmark");
  if (self->style && !g_str_equal (self->style, "light") && !g_str_equal (self->style, "dark"))
    {
      g_printerr ("warpscope: --style takes light or dark, not “%s”\n", self->style);
      return 2;
    }
  /* a run that makes a file and quits is its own instance */
  if (self->screenshot || self->benchmark)
    g_application_set_flags (app, g_application_get_flags (app) | G_APPLICATION_NON_UNIQUE);
  return -1;
}

static void
ws_application_dispose (GObject *object)
{
  WsApplication *self = WS_APPLICATION (object);

  g_clear_object (&self->backend);
  g_clear_object (&self->settings);
  g_clear_pointer (&self->preset, g_free);
  g_clear_pointer (&self->compare, g_free);
  g_clear_pointer (&self->recording, g_free);
  g_clear_pointer (&self->screenshot, g_free);
  g_clear_pointer (&self->style, g_free);
  g_clear_pointer (&self->size, g_free);
  g_clear_pointer (&self->gpu, g_free);
  g_clear_pointer (&self->view, g_free);
  G_OBJECT_CLASS (ws_application_parent_class)->dispose (object);
}

static void
ws_application_class_init (WsApplicationClass *klass)
{
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = ws_application_dispose;
  app_class->startup = ws_application_startup;
  app_class->activate = ws_application_activate;
  app_class->open = ws_application_open;
  app_class->handle_local_options = ws_application_handle_local_options;
}

static void
ws_application_init (WsApplication *self)
{
  static const GOptionEntry entries[] = {
    { "preset", 'p', 0, G_OPTION_ARG_STRING, NULL, N_("Open this preset (warpscope-cli model --list-presets)"), "ID" },
    { "compare", 'c', 0, G_OPTION_ARG_STRING, NULL, N_("Compare two to four presets or kernel files side by side"),
      "ID,FILE.cu…" },
    { "recording", 'r', 0, G_OPTION_ARG_FILENAME, NULL, N_("Plot the measurements of this recording"), "FILE" },
    { "style", 0, 0, G_OPTION_ARG_STRING, NULL, N_("Light or dark, whatever the system says"), "light|dark" },
    { "size", 0, 0, G_OPTION_ARG_STRING, NULL, N_("The window's size"), "WIDTHxHEIGHT" },
    { "gpu", 0, 0, G_OPTION_ARG_STRING, NULL,
      N_("Measure there (and remember it): local, ssh://[USER@]HOST[:PORT], slurm://PARTITION or command:CMD"), "WHERE" },
    { "view", 0, 0, G_OPTION_ARG_STRING, NULL, N_("Show this view of the pattern: warp, banks, constant, local, "
         "atomics, occupancy, timeline, l2 or hierarchy, as the pattern has them"), "VIEW" },
    { "screenshot", 0, 0, G_OPTION_ARG_FILENAME, NULL, N_("Save a PNG of the window once it has settled, and quit"),
      "FILE" },
    { "benchmark", 0, 0, G_OPTION_ARG_NONE, NULL,
      N_("Measure frame times while a sweep runs, print them, and quit"), NULL },
    { "version", 0, 0, G_OPTION_ARG_NONE, NULL, N_("Print the version and quit"), NULL },
    { NULL }
  };

  self->backend = ws_backend_new ();
  g_application_add_main_option_entries (G_APPLICATION (self), entries);
  g_application_set_option_context_parameter_string (G_APPLICATION (self), "[RECORDING…]");
  g_application_set_option_context_summary (G_APPLICATION (self),
                                            _("See how a GPU serves the memory accesses of a warp, and measure them."));
}

WsApplication *
ws_application_new (void)
{
  return g_object_new (WS_TYPE_APPLICATION, "application-id", WS_APP_ID, "flags", G_APPLICATION_HANDLES_OPEN,
                       "resource-base-path", "/io/github/warpscope/Warpscope", NULL);
}

WsBackend *
ws_application_get_backend (WsApplication *self)
{
  g_return_val_if_fail (WS_IS_APPLICATION (self), NULL);
  return self->backend;
}

WsSession *
ws_application_new_session (WsApplication *self,
                            const char    *recording_path)
{
  WsSession *session;

  g_return_val_if_fail (WS_IS_APPLICATION (self), NULL);

  session = ws_session_new (self->backend);
  ws_session_load_recording (session, recording_path);
  return session;
}
