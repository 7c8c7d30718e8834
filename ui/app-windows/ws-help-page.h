/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* A help page is a Mallard page (http://projectmallard.org/1.0/), as GNOME
 * writes its user guides, so that itstool can take its text for translation
 * and merge a translation back.  Of Mallard, the reader shows:
 *
 *   <title>                 the page's title, or a section's heading
 *   <section>               a section (its id is for links to it)
 *   <p>                     a paragraph
 *   <list><item><p>         a bullet
 *   <code>, <screen>        outside a paragraph: code, shown verbatim
 *   <em>, <em style="strong">, <gui>, <guiseq>, <key>, <keyseq>, <code>,
 *   <cmd>, <sys>, <file>, <input>, <output>, <var>, <app>, <span>
 *                           inside a paragraph or a title
 *   <link xref="ID">        a link to another page; <link href="URL"> to the web
 *   <info>                  ignored
 *
 * and two elements of its own, in the namespace
 * https://github.com/warpscope/warpscope/help bound to the prefix "ws":
 *
 *   <ws:presets topic="T"/> the presets of a topic, from the model
 *   <ws:topics/>            a list of the topics, linking to their pages
 *
 * Anything else is an error, and a warning.  Links and preset rows activate
 * the widget actions "help.show-page" and "help.load-preset" (parameter
 * "s"), which the help window installs. */

/* The page's title as plain text, or NULL (and a warning) if it cannot be
 * read. */
char      *ws_help_page_parse_title (const char *text);

/* The widget that shows the page (a scrolled window).  With
 * @presets_activatable, preset rows activate "help.load-preset". */
GtkWidget *ws_help_page_build       (const char *text,
                                     gboolean    presets_activatable);

G_END_DECLS
