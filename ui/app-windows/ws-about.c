/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The About window: AdwAboutWindow (libadwaita 1.2).  Its release notes
 * come from the AppStream metainfo compiled into our resources, so the
 * window and the software centre say the same thing. */
#include "ws-config.h"

#include <glib/gi18n.h>
#include "ws-app-windows.h"

#include <adwaita.h>

#define METAINFO_RESOURCE "/io/github/warpscope/Warpscope/" WS_APP_ID ".metainfo.xml"
#define WS_HOMEPAGE "https://github.com/warpscope/warpscope"

/* Collects the <description> of the first <release> as the markup subset
 * AdwAboutWindow reads (p, ul, ol, li, em, code). */
typedef struct
{
  GString *notes;
  char *version;
  gboolean in_release;
  gboolean in_description;
  gboolean done;
} ReleaseParser;

static void
release_start (GMarkupParseContext *context,
               const char          *element,
               const char         **names,
               const char         **values,
               gpointer             user_data,
               GError             **error)
{
  ReleaseParser *rp = user_data;

  if (rp->done)
    return;
  if (g_str_equal (element, "release") && rp->version == NULL)
    {
      for (guint i = 0; names[i]; i++)
        if (g_str_equal (names[i], "version"))
          rp->version = g_strdup (values[i]);
      rp->in_release = TRUE;
    }
  else if (rp->in_release && g_str_equal (element, "description"))
    rp->in_description = TRUE;
  else if (rp->in_description)
    g_string_append_printf (rp->notes, "<%s>", element);
}

static void
release_end (GMarkupParseContext *context,
             const char          *element,
             gpointer             user_data,
             GError             **error)
{
  ReleaseParser *rp = user_data;

  if (rp->done)
    return;
  if (g_str_equal (element, "release") && rp->in_release)
    {
      rp->in_release = FALSE;
      rp->done = TRUE;
    }
  else if (g_str_equal (element, "description") && rp->in_description)
    rp->in_description = FALSE;
  else if (rp->in_description)
    g_string_append_printf (rp->notes, "</%s>", element);
}

static void
release_text (GMarkupParseContext *context,
              const char          *text,
              gsize                len,
              gpointer             user_data,
              GError             **error)
{
  ReleaseParser *rp = user_data;
  g_autofree char *escaped = NULL;

  if (rp->done || !rp->in_description)
    return;
  escaped = g_markup_escape_text (text, len);
  g_string_append (rp->notes, escaped);
}

/* Sets the release notes of the newest release, if it is this version. */
static void
set_release_notes (AdwAboutWindow *about)
{
  static const GMarkupParser parser = { release_start, release_end, release_text, NULL, NULL };
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (GMarkupParseContext) context = NULL;
  g_autoptr (GError) error = NULL;
  ReleaseParser rp = { g_string_new (NULL), NULL, FALSE, FALSE, FALSE };
  gsize size;
  const char *data;

  bytes = g_resources_lookup_data (METAINFO_RESOURCE, G_RESOURCE_LOOKUP_FLAGS_NONE, &error);
  if (bytes == NULL)
    {
      g_warning ("No release notes: %s", error->message);
      goto out;
    }
  data = g_bytes_get_data (bytes, &size);
  context = g_markup_parse_context_new (&parser, G_MARKUP_TREAT_CDATA_AS_TEXT, &rp, NULL);
  if (!g_markup_parse_context_parse (context, data, size, &error) ||
      !g_markup_parse_context_end_parse (context, &error))
    {
      g_warning ("No release notes: %s: %s", METAINFO_RESOURCE, error->message);
      goto out;
    }
  if (g_strcmp0 (rp.version, WS_VERSION) == 0 && rp.notes->len > 0)
    {
      adw_about_window_set_release_notes_version (about, rp.version);
      adw_about_window_set_release_notes (about, g_strstrip (rp.notes->str));
    }

out:
  g_string_free (rp.notes, TRUE);
  g_free (rp.version);
}

static char *
debug_info (void)
{
  return g_strdup_printf ("Warpscope %s\n"
                          "GLib %u.%u.%u\n"
                          "GTK %u.%u.%u\n"
                          "libadwaita %u.%u.%u\n"
                          "CUDA backend: %s\n",
                          WS_VERSION,
                          glib_major_version, glib_minor_version, glib_micro_version,
                          gtk_get_major_version (), gtk_get_minor_version (), gtk_get_micro_version (),
                          adw_get_major_version (), adw_get_minor_version (), adw_get_micro_version (),
                          WS_HAVE_CUDA ? "built in" : "not built (model and recordings only)");
}

void
ws_show_about_window (GtkWindow *parent)
{
  static const char *developers[] = { "The Warpscope developers", NULL };
  AdwAboutWindow *about;
  g_autofree char *info = debug_info ();

  g_return_if_fail (parent == NULL || GTK_IS_WINDOW (parent));

  about = ADW_ABOUT_WINDOW (adw_about_window_new ());
  adw_about_window_set_application_name (about, "Warpscope");
  adw_about_window_set_application_icon (about, WS_APP_ID);
  adw_about_window_set_version (about, WS_VERSION);
  adw_about_window_set_developer_name (about, _("The Warpscope developers"));
  adw_about_window_set_developers (about, developers);
  adw_about_window_set_comments (about,
                                 _("See how a GPU serves a warp's memory accesses: where the 32 lanes' "
                                   "addresses land in sectors, cache lines and shared-memory banks, "
                                   "and what real CUDA kernels measure beside what the model predicts."));
  adw_about_window_set_copyright (about, _("© 2026 The Warpscope developers"));
  /* Translators: your names, one per line, with an e-mail address if you like */
  if (!g_str_equal (_("translator-credits"), "translator-credits"))
    adw_about_window_set_translator_credits (about, _("translator-credits"));
  adw_about_window_set_license_type (about, GTK_LICENSE_GPL_3_0);
  adw_about_window_set_website (about, WS_HOMEPAGE);
  adw_about_window_set_issue_url (about, WS_HOMEPAGE "/issues");
  adw_about_window_add_link (about, _("_Source Code"), WS_HOMEPAGE);
  adw_about_window_add_link (about, _("_Hardware Model"), WS_HOMEPAGE "/blob/main/docs/hardware-model.md");
  adw_about_window_set_debug_info (about, info);
  adw_about_window_set_debug_info_filename (about, "warpscope-debug-info.txt");
  set_release_notes (about);

  if (parent)
    {
      gtk_window_set_transient_for (GTK_WINDOW (about), parent);
      gtk_window_set_modal (GTK_WINDOW (about), TRUE);
    }
  gtk_window_present (GTK_WINDOW (about));
}
