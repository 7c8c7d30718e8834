/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* A help page's text is a small markup of its own:
 *
 *   # Title                 the page's title (the first line)
 *   ## Heading              a section heading
 *   text…                   a paragraph of Pango markup, up to a blank line;
 *                           <a href="help:ID">…</a> links to another page
 *   - text…                 a bullet (continued by lines indented two spaces)
 *       code                four spaces: a line of code, shown verbatim
 *   [presets TOPIC]         the presets of a topic, from the model
 *   [topics]                a list of the topics, linking to their pages
 *
 * Links and preset rows activate the widget actions "help.show-page" and
 * "help.load-preset" (parameter "s"), which the help window installs. */

/* The page's title, or NULL if its first line is not "# Title". */
char      *ws_help_page_parse_title (const char *text);

/* The widget that shows the page (a scrolled window).  With
 * @presets_activatable, preset rows activate "help.load-preset". */
GtkWidget *ws_help_page_build       (const char *text,
                                     gboolean    presets_activatable);

G_END_DECLS
