/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>
#include <sys/types.h>

G_BEGIN_DECLS

/* What a signal that ends the process (Ctrl+C, kill, a terminal closed)
 * must not leave behind: the hidden temporary file of a write under way
 * (ws-file-writer.h), and the process group of a GPU worker started by a
 * command, whose children would otherwise outlive the program.
 *
 * While anything is registered, SIGINT, SIGTERM and SIGHUP remove the
 * files and end the groups, then end the process as the signal would have.
 * The handler does only what a signal handler may (unlink, kill); the
 * registry holds a few of each, and more are left to the ordinary paths. */

void ws_exit_cleanup_add_file     (const char *path);
void ws_exit_cleanup_remove_file  (const char *path);
void ws_exit_cleanup_add_group    (pid_t       group);
void ws_exit_cleanup_remove_group (pid_t       group);

G_END_DECLS
