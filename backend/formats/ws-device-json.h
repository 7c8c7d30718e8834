/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "ws-device-profile.h"

G_BEGIN_DECLS

/* Device profiles as files: data/devices/<id>.json, versioned
 * ({ "version": 1, "profile": { … } }). Files are untrusted input: every
 * field is checked for its type and range, and an error names the field and
 * the file. Unknown members are ignored (a newer minor version may add
 * some); a missing one is an error. */

WsDeviceProfile *ws_device_profile_from_data  (const char            *data,
                                               gssize                 length,
                                               const char            *where,
                                               GError               **error);
WsDeviceProfile *ws_device_profile_load       (const char            *path,
                                               GError               **error);
char            *ws_device_profile_to_data    (const WsDeviceProfile *profile);
/* The file as JSON ({"version": …, "profile": {…}}), to add members to, and
 * its text as to_data () writes it. */
JsonNode        *ws_device_profile_to_json    (const WsDeviceProfile *profile);
char            *ws_device_profile_json_to_data (JsonNode            *node);
gboolean         ws_device_profile_save       (const WsDeviceProfile *profile,
                                               const char            *path,
                                               GError               **error);

/* A profile by id ("nvidia-h200") from the installed data, or the source
 * tree's when running uninstalled; or by path, when text names a file (it
 * contains a '/' or ends in .json). */
WsDeviceProfile *ws_device_profile_find       (const char            *id_or_path,
                                               GError               **error);
/* The ids of the profiles shipped, sorted; never NULL. */
GStrv            ws_device_profile_list_ids   (void);
/* Where ws_device_profile_find () looks for id: the installed folder, then
 * the source tree's. */
char            *ws_device_profile_path_for   (const char            *id);

/* The files of a folder of data/ (installed to share/warpscope/), one per
 * device: "devices", "truth". An id is a device's slug (letters, digits
 * and '-', at most 64); the path is the installed file if there is one,
 * else the source tree's; the ids are both folders', sorted. */
gboolean         ws_data_id_is_valid          (const char            *id);
char            *ws_data_path_for             (const char            *folder,
                                               const char            *id);
GStrv            ws_data_list_ids             (const char            *folder);

G_END_DECLS
