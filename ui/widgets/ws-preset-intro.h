/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "ws-presets.h"

G_BEGIN_DECLS

/* What the Explore page says first: the preset's title and its lesson (the
 * names it quotes in `backticks` in a monospace face), or that the pattern
 * is one's own; and the buttons that open the preset's kernel text
 * (win.open-preset-kernel, whose tooltip says why not where there is none)
 * and the pattern written out as a kernel (win.open-pattern-kernel). */
#define WS_TYPE_PRESET_INTRO (ws_preset_intro_get_type ())
G_DECLARE_FINAL_TYPE (WsPresetIntro, ws_preset_intro, WS, PRESET_INTRO, GtkWidget)

GtkWidget      *ws_preset_intro_new                (void);
/* A preset: its title and lesson; its kernel text is looked for. */
void            ws_preset_intro_show_preset        (WsPresetIntro  *self,
                                                    const WsPreset *preset);
/* A pattern of one's own, new (from NULL) or changed from a preset. */
void            ws_preset_intro_show_own           (WsPresetIntro  *self,
                                                    const WsPreset *from);
/* The preset shown; NULL for a pattern of one's own. */
const WsPreset *ws_preset_intro_get_preset         (WsPresetIntro  *self);
/* Whether the preset shown has a kernel text to open. */
gboolean        ws_preset_intro_get_has_kernel     (WsPresetIntro  *self);
const char     *ws_preset_intro_get_title          (WsPresetIntro  *self);
/* The lesson as shown, without its markup. */
const char     *ws_preset_intro_get_summary        (WsPresetIntro  *self);
/* "Open the Kernel as a Copy": its tooltip says what it opens, or why not. */
GtkWidget      *ws_preset_intro_get_kernel_button  (WsPresetIntro  *self);

G_END_DECLS
