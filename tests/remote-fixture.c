/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "remote-fixture.h"

#include <arpa/inet.h>
#include <errno.h>
#include <glib/gstdio.h>
#include <netinet/in.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

int
ws_test_free_port (void)
{
  struct sockaddr_in addr = { .sin_family = AF_INET, .sin_addr.s_addr = htonl (INADDR_LOOPBACK) };
  socklen_t len = sizeof addr;
  int fd = socket (AF_INET, SOCK_STREAM, 0);
  int port = 0;

  if (fd < 0)
    return 0;
  if (bind (fd, (struct sockaddr *) &addr, sizeof addr) == 0 &&
      getsockname (fd, (struct sockaddr *) &addr, &len) == 0)
    port = ntohs (addr.sin_port);
  close (fd);
  return port;
}

static gboolean
port_answers (int port)
{
  struct sockaddr_in addr = { .sin_family = AF_INET, .sin_port = htons (port),
                              .sin_addr.s_addr = htonl (INADDR_LOOPBACK) };
  int fd = socket (AF_INET, SOCK_STREAM, 0);
  gboolean ok;

  ok = fd >= 0 && connect (fd, (struct sockaddr *) &addr, sizeof addr) == 0;
  if (fd >= 0)
    close (fd);
  return ok;
}

GArray *
ws_test_children (GPid pid)
{
  GArray *children = g_array_new (FALSE, FALSE, sizeof (GPid));
  g_autoptr (GDir) proc = g_dir_open ("/proc", 0, NULL);
  const char *name;

  while (proc && (name = g_dir_read_name (proc)))
    {
      g_autofree char *path = g_build_filename ("/proc", name, "stat", NULL);
      g_autofree char *stat = NULL;
      const char *after;
      int ppid = 0;

      if (!g_ascii_isdigit (name[0]) || !g_file_get_contents (path, &stat, NULL, NULL))
        continue;
      /* "PID (COMM) STATE PPID …": COMM may hold spaces and parentheses */
      after = strrchr (stat, ')');
      if (after && sscanf (after + 1, " %*c %d", &ppid) == 1 && ppid == pid)
        {
          GPid child = (GPid) atoi (name);
          g_array_append_val (children, child);
        }
    }
  return children;
}

void
ws_test_write_script (const char *path,
                      const char *text)
{
  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  g_assert_cmpint (g_chmod (path, 0755), ==, 0);
}

/* A server the test starts ends with it, even when an assertion aborts
 * it; and it keeps none of the test's output open, for which the test
 * runner would wait. */
static void
die_with_parent (gpointer data)
{
  prctl (PR_SET_PDEATHSIG, SIGTERM);
}

static GSubprocess *
spawn_server (const char * const *argv,
              const char         *slurm_conf,
              GError            **error)
{
  g_autoptr (GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE |
                                                                        G_SUBPROCESS_FLAGS_STDERR_SILENCE);

  g_subprocess_launcher_set_child_setup (launcher, die_with_parent, NULL, NULL);
  if (slurm_conf)
    g_subprocess_launcher_setenv (launcher, "SLURM_CONF", slurm_conf, TRUE);
  return g_subprocess_launcher_spawnv (launcher, argv, error);
}

static gboolean
run (const char *const *argv,
     char              **output)
{
  g_autoptr (GSubprocess) p = g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                                 G_SUBPROCESS_FLAGS_STDERR_MERGE, NULL);

  return p && g_subprocess_communicate_utf8 (p, NULL, NULL, output, NULL, NULL) &&
         g_subprocess_get_if_exited (p) && g_subprocess_get_exit_status (p) == 0;
}

static char *
find_program (const char *name)
{
  g_autofree char *sbin = g_build_filename ("/usr/sbin", name, NULL);
  char *found = g_find_program_in_path (name);

  if (found)
    return found;
  return g_file_test (sbin, G_FILE_TEST_IS_EXECUTABLE) ? g_steal_pointer (&sbin) : NULL;
}

static gboolean
has_program (const char *name)
{
  g_autofree char *path = g_find_program_in_path (name);

  return path != NULL;
}

/* ------------------------------------------------------------------ */
/* sshd                                                               */
/* ------------------------------------------------------------------ */

static char *
keygen (const char *dir,
        const char *name)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  const char *argv[] = { "ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", name, "-f", path, NULL };
  g_autofree char *out = NULL;

  if (!run (argv, &out))
    return g_strdup_printf ("ssh-keygen failed: %s", out ? out : "not found");
  return NULL;
}

static char *
client_command (WsTestSshd *s,
                const char *name,
                const char *key,
                const char *known_hosts)
{
  g_autofree char *config = g_build_filename (s->dir, name, NULL);
  g_autofree char *text = g_strdup_printf ("Host *\n"
                                           "  IdentityFile %s/%s\n"
                                           "  IdentitiesOnly yes\n"
                                           "  IdentityAgent none\n"
                                           "  UserKnownHostsFile %s/%s\n"
                                           "  GlobalKnownHostsFile /dev/null\n"
                                           "  StrictHostKeyChecking yes\n",
                                           s->dir, key, s->dir, known_hosts);

  g_assert_true (g_file_set_contents (config, text, -1, NULL));
  return g_strdup_printf ("ssh -F %s", config);
}

/* The privilege separation directory sshd wants exists when a service
 * manager made it; as root, make it. */
static char *
check_privsep (void)
{
  if (geteuid () != 0 || g_file_test ("/run/sshd", G_FILE_TEST_IS_DIR))
    return NULL;
  if (g_mkdir_with_parents ("/run/sshd", 0755) != 0)
    return g_strdup_printf ("sshd needs /run/sshd, which cannot be made: %s", g_strerror (errno));
  return NULL;
}

char *
ws_test_sshd_start (WsTestSshd *s)
{
  g_autofree char *sshd = find_program ("sshd");
  g_autofree char *config = NULL;
  g_autofree char *text = NULL;
  g_autofree char *host_pub = NULL;
  g_autofree char *known = NULL;
  g_autofree char *id_pub = NULL;
  g_autofree char *log = NULL;
  char *why;

  memset (s, 0, sizeof *s);
  if (sshd == NULL)
    return g_strdup ("no sshd here (the openssh-server package)");
  if (!has_program ("ssh"))
    return g_strdup ("no ssh here (the openssh-client package)");
  if ((why = check_privsep ()))
    return why;
  s->dir = g_dir_make_tmp ("ws-sshd-XXXXXX", NULL);
  s->user = g_strdup (g_get_user_name ());
  if ((why = keygen (s->dir, "host_key")) || (why = keygen (s->dir, "id")) || (why = keygen (s->dir, "other_id")))
    return why;

  /* the user's key is the only one accepted; the host key is known */
  config = g_build_filename (s->dir, "id.pub", NULL);
  g_assert_true (g_file_get_contents (config, &id_pub, NULL, NULL));
  g_free (config);
  config = g_build_filename (s->dir, "authorized_keys", NULL);
  g_assert_true (g_file_set_contents (config, id_pub, -1, NULL));
  g_chmod (config, 0600);
  g_free (config);
  s->port = ws_test_free_port ();
  config = g_build_filename (s->dir, "host_key.pub", NULL);
  g_assert_true (g_file_get_contents (config, &host_pub, NULL, NULL));
  g_free (config);
  known = g_strdup_printf ("[127.0.0.1]:%d %s", s->port, host_pub);
  config = g_build_filename (s->dir, "known_hosts", NULL);
  g_assert_true (g_file_set_contents (config, known, -1, NULL));
  g_free (config);
  config = g_build_filename (s->dir, "no_known_hosts", NULL);
  g_assert_true (g_file_set_contents (config, "", -1, NULL));
  g_free (config);

  text = g_strdup_printf ("Port %d\n"
                          "ListenAddress 127.0.0.1\n"
                          "HostKey %s/host_key\n"
                          "AuthorizedKeysFile %s/authorized_keys\n"
                          "PidFile %s/sshd.pid\n"
                          "StrictModes no\n"
                          "PasswordAuthentication no\n"
                          "KbdInteractiveAuthentication no\n"
                          "UsePAM no\n"
                          "PermitRootLogin prohibit-password\n"
                          "MaxStartups 100\n"
                          "MaxSessions 100\n"
                          "LogLevel VERBOSE\n",
                          s->port, s->dir, s->dir, s->dir);
  config = g_build_filename (s->dir, "sshd_config", NULL);
  g_assert_true (g_file_set_contents (config, text, -1, NULL));
  log = g_build_filename (s->dir, "sshd.log", NULL);
  {
    const char *argv[] = { sshd, "-D", "-f", config, "-E", log, NULL };
    s->sshd = spawn_server (argv, NULL, NULL);
  }
  if (s->sshd == NULL)
    return g_strdup_printf ("%s cannot be started", sshd);
  for (guint i = 0; i < 100 && !port_answers (s->port); i++)
    {
      if (g_subprocess_get_identifier (s->sshd) == NULL)
        {
          g_autofree char *said = NULL;
          g_file_get_contents (log, &said, NULL, NULL);
          return g_strdup_printf ("sshd did not start: %s", said ? g_strstrip (said) : "it said nothing");
        }
      g_usleep (50000);
    }
  if (!port_answers (s->port))
    return g_strdup_printf ("sshd does not listen on port %d after 5 s", s->port);
  s->ssh_command = client_command (s, "ssh_config", "id", "known_hosts");
  s->wrong_key_command = client_command (s, "ssh_config_wrong_key", "other_id", "known_hosts");
  s->unknown_host_command = client_command (s, "ssh_config_unknown_host", "id", "no_known_hosts");
  return NULL;
}

char *
ws_test_sshd_address (WsTestSshd *s,
                      const char *options)
{
  return g_strdup_printf ("ssh://%s@127.0.0.1:%d%s%s", s->user, s->port, options ? "?" : "", options ? options : "");
}

guint
ws_test_sshd_drop_connections (WsTestSshd *s)
{
  g_autoptr (GArray) children = NULL;

  if (s->sshd == NULL || g_subprocess_get_identifier (s->sshd) == NULL)
    return 0;
  children = ws_test_children ((GPid) atoi (g_subprocess_get_identifier (s->sshd)));
  for (guint i = 0; i < children->len; i++)
    kill (g_array_index (children, GPid, i), SIGKILL);
  return children->len;
}

void
ws_test_sshd_stop (WsTestSshd *s)
{
  if (s->sshd)
    {
      /* connections first: they outlive the listener */
      ws_test_sshd_drop_connections (s);
      g_subprocess_force_exit (s->sshd);
      g_subprocess_wait (s->sshd, NULL, NULL);
      g_clear_object (&s->sshd);
    }
  if (s->dir)
    {
      const char *argv[] = { "rm", "-rf", s->dir, NULL };
      run (argv, NULL);
    }
  g_free (s->dir);
  g_free (s->user);
  g_free (s->ssh_command);
  g_free (s->wrong_key_command);
  g_free (s->unknown_host_command);
  memset (s, 0, sizeof *s);
}

/* ------------------------------------------------------------------ */
/* Slurm                                                              */
/* ------------------------------------------------------------------ */

static GSubprocess *
daemon_start (WsTestSlurm        *sl,
              const char * const *argv,
              char              **why)
{
  g_autoptr (GError) error = NULL;
  GSubprocess *p = spawn_server (argv, sl->conf, &error);

  if (p == NULL)
    *why = g_strdup_printf ("%s: %s", argv[0], error->message);
  else
    g_ptr_array_add (sl->daemons, p);
  return p;
}

static gboolean
slurm_ready (WsTestSlurm *sl)
{
  const char *argv[] = { "sinfo", "-h", "-o", "%t", NULL };
  g_autofree char *out = NULL;

  return run (argv, &out) && out && g_str_has_prefix (out, "idle");
}

static char *
tail_of (const char *path)
{
  g_autofree char *text = NULL;
  gsize n;

  if (!g_file_get_contents (path, &text, &n, NULL))
    return g_strdup ("no log");
  return g_strdup (n > 600 ? text + n - 600 : text);
}

char *
ws_test_slurm_start (WsTestSlurm *sl)
{
  g_autofree char *munged = find_program ("munged");
  g_autofree char *slurmctld = find_program ("slurmctld");
  g_autofree char *slurmd = find_program ("slurmd");
  g_autofree char *key = NULL;
  g_autofree char *socket = NULL;
  g_autofree char *text = NULL;
  g_autofree char *host = NULL;
  g_autofree char *spool = NULL;
  g_autofree char *state = NULL;
  char *why = NULL;
  guchar random[1024];
  int ctld_port, slurmd_port;

  memset (sl, 0, sizeof *sl);
  sl->daemons = g_ptr_array_new_with_free_func (g_object_unref);
  if (munged == NULL || slurmctld == NULL || slurmd == NULL || !has_program ("srun"))
    return g_strdup ("no Slurm here (the slurm-wlm and munge packages)");
  if (geteuid () != 0)
    return g_strdup ("slurmd runs jobs as their users, so it must run as root, and this test does not");
  sl->dir = g_dir_make_tmp ("ws-slurm-XXXXXX", NULL);
  g_chmod (sl->dir, 0755);
  key = g_build_filename (sl->dir, "munge.key", NULL);
  for (guint i = 0; i < sizeof random; i++)
    random[i] = (guchar) g_random_int_range (0, 256);
  g_assert_true (g_file_set_contents (key, (char *) random, sizeof random, NULL));
  g_chmod (key, 0600);
  socket = g_build_filename (sl->dir, "munge.socket", NULL);
  spool = g_build_filename (sl->dir, "spool", NULL);
  state = g_build_filename (sl->dir, "state", NULL);
  g_mkdir (spool, 0755);
  g_mkdir (state, 0755);
  host = g_strdup (g_get_host_name ());
  if (strchr (host, '.'))
    *strchr (host, '.') = '\0';
  ctld_port = ws_test_free_port ();
  slurmd_port = ws_test_free_port ();
  sl->partition = g_strdup ("wstest");
  text = g_strdup_printf ("ClusterName=wstest\n"
                          "SlurmctldHost=%s(127.0.0.1)\n"
                          "SlurmctldPort=%d\n"
                          "SlurmdPort=%d\n"
                          "SlurmUser=root\n"
                          "AuthType=auth/munge\n"
                          "AuthInfo=socket=%s\n"
                          "CredType=cred/munge\n"
                          "StateSaveLocation=%s\n"
                          "SlurmdSpoolDir=%s\n"
                          "SlurmctldPidFile=%s/slurmctld.pid\n"
                          "SlurmdPidFile=%s/slurmd.pid\n"
                          "SlurmctldLogFile=%s/slurmctld.log\n"
                          "SlurmdLogFile=%s/slurmd.log\n"
                          "ProctrackType=proctrack/linuxproc\n"
                          "TaskPlugin=task/none\n"
                          "SelectType=select/cons_tres\n"
                          "SelectTypeParameters=CR_Core\n"
                          "MpiDefault=none\n"
                          "ReturnToService=2\n"
                          "JobAcctGatherType=jobacct_gather/none\n"
                          "AccountingStorageType=accounting_storage/none\n"
                          "JobCompType=jobcomp/none\n"
                          "SlurmdParameters=config_overrides\n"
                          "NodeName=%s NodeAddr=127.0.0.1 CPUs=1 State=UNKNOWN\n"
                          "PartitionName=%s Nodes=%s Default=YES MaxTime=INFINITE State=UP\n",
                          host, ctld_port, slurmd_port, socket, state, spool, sl->dir, sl->dir, sl->dir, sl->dir,
                          host, sl->partition, host);
  sl->conf = g_build_filename (sl->dir, "slurm.conf", NULL);
  g_assert_true (g_file_set_contents (sl->conf, text, -1, NULL));
  /* the commands the tests run (srun, sinfo) read it too */
  g_setenv ("SLURM_CONF", sl->conf, TRUE);

  {
    g_autofree char *pid = g_build_filename (sl->dir, "munged.pid", NULL);
    g_autofree char *log = g_build_filename (sl->dir, "munged.log", NULL);
    g_autofree char *seed = g_build_filename (sl->dir, "munged.seed", NULL);
    g_autofree char *key_arg = g_strdup_printf ("--key-file=%s", key);
    g_autofree char *socket_arg = g_strdup_printf ("--socket=%s", socket);
    g_autofree char *pid_arg = g_strdup_printf ("--pid-file=%s", pid);
    g_autofree char *log_arg = g_strdup_printf ("--log-file=%s", log);
    g_autofree char *seed_arg = g_strdup_printf ("--seed-file=%s", seed);
    const char *argv[] = { munged, "-F", "-f", key_arg, socket_arg, pid_arg, log_arg, seed_arg, NULL };

    if (!daemon_start (sl, argv, &why))
      return why;
    for (guint i = 0; i < 100 && !g_file_test (socket, G_FILE_TEST_EXISTS); i++)
      g_usleep (50000);
    if (!g_file_test (socket, G_FILE_TEST_EXISTS))
      {
        g_autofree char *said = tail_of (log);
        return g_strdup_printf ("munged did not start: %s", said);
      }
  }
  {
    const char *ctld[] = { slurmctld, "-D", "-i", NULL };
    const char *d[] = { slurmd, "-D", NULL };

    if (!daemon_start (sl, ctld, &why) || !daemon_start (sl, d, &why))
      return why;
  }
  for (guint i = 0; i < 200 && !slurm_ready (sl); i++)
    g_usleep (100000);
  if (!slurm_ready (sl))
    {
      g_autofree char *ctld_log = g_build_filename (sl->dir, "slurmctld.log", NULL);
      g_autofree char *d_log = g_build_filename (sl->dir, "slurmd.log", NULL);
      g_autofree char *a = tail_of (ctld_log);
      g_autofree char *b = tail_of (d_log);
      return g_strdup_printf ("Slurm's node is not idle after 20 s: slurmctld: …%s; slurmd: …%s", a, b);
    }
  return NULL;
}

void
ws_test_slurm_stop (WsTestSlurm *sl)
{
  /* slurmd, slurmctld, munged: the last started goes first */
  for (guint i = sl->daemons ? sl->daemons->len : 0; i > 0; i--)
    {
      GSubprocess *p = g_ptr_array_index (sl->daemons, i - 1);
      gint64 until = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;

      g_subprocess_send_signal (p, SIGTERM);
      while (g_subprocess_get_identifier (p) && g_get_monotonic_time () < until)
        g_usleep (20000);
      g_subprocess_force_exit (p);
      g_subprocess_wait (p, NULL, NULL);
    }
  g_clear_pointer (&sl->daemons, g_ptr_array_unref);
  if (sl->dir)
    {
      const char *argv[] = { "rm", "-rf", sl->dir, NULL };
      run (argv, NULL);
    }
  g_free (sl->dir);
  g_free (sl->conf);
  g_free (sl->partition);
  memset (sl, 0, sizeof *sl);
}
