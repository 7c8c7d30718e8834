/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* Real servers for the tests of remote GPU workers, each started in a
 * temporary directory of its own and stopped with everything it started:
 * an OpenSSH server on a free port of 127.0.0.1, with its own host key
 * and a key pair made for the run; and a one-node Slurm cluster (munge,
 * slurmctld, slurmd). When one cannot start, the reason says why, for
 * g_test_skip (). */

typedef struct
{
  char *dir;
  GSubprocess *sshd;
  int port;
  char *user;
  char *ssh_command;         /* for WS_SSH_COMMAND: ssh with this server's client configuration */
  char *wrong_key_command;   /* the same with a key the server does not accept */
  char *unknown_host_command;/* the same with an empty list of known hosts */
} WsTestSshd;

/* NULL, or why there can be no sshd here. */
char    *ws_test_sshd_start        (WsTestSshd *sshd);
/* ssh://USER@127.0.0.1:PORT, with the options given (NULL: none). */
char    *ws_test_sshd_address      (WsTestSshd *sshd,
                                    const char *options);
/* Kills the server's processes that serve connections (not the
 * listener): every connection through it drops at once. How many. */
guint    ws_test_sshd_drop_connections (WsTestSshd *sshd);
void     ws_test_sshd_stop         (WsTestSshd *sshd);

typedef struct
{
  char *dir;
  char *conf;                /* for SLURM_CONF */
  GPtrArray *daemons;        /* GSubprocess */
  char *partition;
} WsTestSlurm;

char    *ws_test_slurm_start       (WsTestSlurm *slurm);
void     ws_test_slurm_stop        (WsTestSlurm *slurm);

/* A free TCP port on 127.0.0.1, or 0. */
int      ws_test_free_port         (void);
/* The pids whose parent is pid. */
GArray  *ws_test_children          (GPid        pid);
/* An executable file at path, with text as its contents. */
void     ws_test_write_script      (const char *path,
                                    const char *text);

G_END_DECLS
