/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The presets' kernels as kernel texts, one file a preset:
 * PRESETS/TOPIC/NAME.cu for the preset TOPIC/NAME, where PRESETS is
 * $WS_PRESETS_DIR if set, else the installed pkgdatadir/presets, else the
 * source tree's data/presets (a build run where it was built). They are
 * offered to users as copies to start from; the model and the GPU still
 * read the presets' patterns and real kernels. */

char *ws_preset_kernels_dir      (void);
/* The file of preset id's kernel text, or NULL when it has none. */
char *ws_preset_kernel_path      (const char  *id);
/* Preset id's kernel text; NULL with no error when it has none, NULL and
 * an error when its file could not be read or is not UTF-8 text. */
char *ws_preset_dup_kernel_text  (const char  *id,
                                  GError     **error);

G_END_DECLS
