/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Addresses of GPU workers. Every part of one ends up in a command line
 * (ssh's, srun's, a remote shell's): each is checked against what that
 * part can be, so that no address can pass an option or shell syntax on. */
#include "ws-config.h"
#include "ws-worker-target.h"

#include <glib/gi18n-lib.h>

#include <string.h>

G_DEFINE_QUARK (ws-gpu-target-error-quark, ws_gpu_target_error)
G_DEFINE_BOXED_TYPE (WsGpuTarget, ws_gpu_target, ws_gpu_target_copy, ws_gpu_target_free)

#define MAX_PART 256
#define MAX_COMMAND 4096
#define MAX_WAIT_S (24 * 3600)
#define MAX_GPU 1024

static gboolean
invalid (GError    **error,
         const char *format,
         ...) G_GNUC_PRINTF (2, 3);

static gboolean
invalid (GError    **error,
         const char *format,
         ...)
{
  va_list args;

  va_start (args, format);
  g_propagate_error (error, g_error_new_valist (WS_GPU_TARGET_ERROR, WS_GPU_TARGET_ERROR_INVALID, format, args));
  va_end (args);
  return FALSE;
}

WsGpuTarget *
ws_gpu_target_new_local (void)
{
  return g_new0 (WsGpuTarget, 1);
}

void
ws_gpu_target_free (WsGpuTarget *t)
{
  if (t == NULL)
    return;
  g_free (t->user);
  g_free (t->host);
  g_free (t->partition);
  g_free (t->gres);
  g_free (t->time);
  g_free (t->account);
  g_free (t->jobid);
  g_free (t->command);
  g_free (t->worker);
  g_free (t);
}

WsGpuTarget *
ws_gpu_target_copy (const WsGpuTarget *t)
{
  WsGpuTarget *c;

  g_return_val_if_fail (t != NULL, NULL);

  c = g_memdup2 (t, sizeof *t);
  c->user = g_strdup (t->user);
  c->host = g_strdup (t->host);
  c->partition = g_strdup (t->partition);
  c->gres = g_strdup (t->gres);
  c->time = g_strdup (t->time);
  c->account = g_strdup (t->account);
  c->jobid = g_strdup (t->jobid);
  c->command = g_strdup (t->command);
  c->worker = g_strdup (t->worker);
  return c;
}

gboolean
ws_gpu_target_equal (const WsGpuTarget *a,
                     const WsGpuTarget *b)
{
  g_autofree char *sa = NULL;
  g_autofree char *sb = NULL;

  if (a == NULL || b == NULL)
    return a == b;
  sa = ws_gpu_target_to_string (a);
  sb = ws_gpu_target_to_string (b);
  return g_str_equal (sa, sb);
}

/* ------------------------------------------------------------------ */
/* Checking the parts                                                 */
/* ------------------------------------------------------------------ */

/* Letters, digits and the characters of extra; never a leading '-', which
 * ssh or srun would read as an option. */
static gboolean
is_word (const char *s,
         const char *extra)
{
  if (s == NULL || s[0] == '\0' || s[0] == '-' || strlen (s) > MAX_PART)
    return FALSE;
  for (const char *p = s; *p; p++)
    if (!g_ascii_isalnum (*p) && strchr (extra, *p) == NULL)
      return FALSE;
  return TRUE;
}

typedef enum
{
  PART_GRES,
  PART_TIME,
  PART_ACCOUNT,
  PART_JOB,
  PART_HOST,
  PART_USER,
  PART_PARTITION,
} Part;

static gboolean
check_word (Part        part,
            const char *value,
            const char *extra,
            GError    **error)
{
  if (is_word (value, extra))
    return TRUE;
  /* a sentence for each part, for translators; in each, the value as typed
   * and the characters it may hold besides letters and digits */
  switch (part)
    {
    case PART_GRES:
      return invalid (error, _("the generic resource (gres) “%s” is not one: it may hold letters, digits and “%s”, "
                               "and not begin with “-”"), value, extra);
    case PART_TIME:
      return invalid (error, _("the time limit “%s” is not one: it may hold letters, digits and “%s”, and not begin "
                               "with “-”"), value, extra);
    case PART_ACCOUNT:
      return invalid (error, _("the account “%s” is not one: it may hold letters, digits and “%s”, and not begin "
                               "with “-”"), value, extra);
    case PART_JOB:
      return invalid (error, _("the job id “%s” is not one: it may hold letters, digits and “%s”, and not begin "
                               "with “-”"), value, extra);
    case PART_HOST:
      return invalid (error, _("the host “%s” is not one: it may hold letters, digits and “%s”, and not begin "
                               "with “-”"), value, extra);
    case PART_USER:
      return invalid (error, _("the user “%s” is not one: it may hold letters, digits and “%s”, and not begin "
                               "with “-”"), value, extra);
    case PART_PARTITION:
    default:
      return invalid (error, _("the partition “%s” is not one: it may hold letters, digits and “%s”, and not begin "
                               "with “-”"), value, extra);
    }
}

/* The worker's path goes inside a remote shell's double quotes. */
static gboolean
check_worker (const char *path,
              GError    **error)
{
  if (path[0] == '\0' || path[0] == '-' || strlen (path) > MAX_PART || !g_utf8_validate (path, -1, NULL))
    return invalid (error, _("the worker's path “%s” is not a path"), path);
  for (const char *p = path; *p; p++)
    if ((guchar) *p < 0x20 || *p == 0x7f || strchr ("'\"$`\\!", *p))
      return invalid (error, _("the worker's path “%s” holds “%c”, which Warpscope does not pass to a remote "
                      "shell: give a path without quotes, “$”, “`”, “\\” or “!”"), path, *p);
  return TRUE;
}

gboolean
ws_gpu_target_set_worker (WsGpuTarget *t,
                          const char  *path,
                          GError     **error)
{
  g_return_val_if_fail (t != NULL, FALSE);

  if (path && !check_worker (path, error))
    return FALSE;
  if (path && t->kind == WS_GPU_TARGET_COMMAND)
    return invalid (error, _("a command starts the worker itself: --gpu-worker goes with local, ssh:// or slurm://"));
  g_free (t->worker);
  t->worker = g_strdup (path);
  return TRUE;
}

gboolean
ws_gpu_target_set_gpu (WsGpuTarget *t,
                       int          gpu,
                       GError     **error)
{
  g_return_val_if_fail (t != NULL, FALSE);

  if (gpu < 0 || gpu > MAX_GPU)
    return invalid (error, _("GPU index %d: an index counts from 0"), gpu);
  t->gpu = gpu;
  return TRUE;
}

static gboolean
parse_number (const char *what,
              const char *text,
              guint64     min,
              guint64     max,
              guint64    *out,
              GError    **error)
{
  g_autoptr (GError) local = NULL;

  if (!g_ascii_string_to_unsigned (text, 10, min, max, out, &local))
    return invalid (error, _("%s “%s”: a whole number from %llu to %llu is needed"),
                    what, text, (unsigned long long) min, (unsigned long long) max);
  return TRUE;
}

/* One NAME=VALUE of the query; the kinds take the names they know. */
static gboolean
set_option (WsGpuTarget *t,
            const char  *name,
            const char  *value,
            GError     **error)
{
  gboolean slurm = t->kind == WS_GPU_TARGET_SLURM;
  guint64 n;

  if (g_str_equal (name, "gpu"))
    {
      if (!parse_number ("gpu", value, 0, MAX_GPU, &n, error))
        return FALSE;
      t->gpu = (int) n;
    }
  else if (g_str_equal (name, "wait"))
    {
      if (!parse_number ("wait", value, 1, MAX_WAIT_S, &n, error))
        return FALSE;
      t->wait_s = (guint) n;
    }
  else if (g_str_equal (name, "worker") && t->kind != WS_GPU_TARGET_COMMAND)
    return ws_gpu_target_set_worker (t, value, error);
  else if (g_str_equal (name, "run") && t->kind == WS_GPU_TARGET_COMMAND)
    {
      g_free (t->command);
      t->command = g_strdup (value);
    }
  else if (slurm && g_str_equal (name, "gres"))
    {
      if (!check_word (PART_GRES, value, "_.:,=-", error))
        return FALSE;
      g_free (t->gres);
      t->gres = g_strdup (value);
    }
  else if (slurm && g_str_equal (name, "time"))
    {
      if (!check_word (PART_TIME, value, ":-", error))
        return FALSE;
      g_free (t->time);
      t->time = g_strdup (value);
    }
  else if (slurm && g_str_equal (name, "account"))
    {
      if (!check_word (PART_ACCOUNT, value, "_.-", error))
        return FALSE;
      g_free (t->account);
      t->account = g_strdup (value);
    }
  else if (slurm && g_str_equal (name, "jobid"))
    {
      if (!check_word (PART_JOB, value, "_", error))
        return FALSE;
      g_free (t->jobid);
      t->jobid = g_strdup (value);
    }
  else
    return invalid (error, _("“%s=”: a %s address takes no such option"), name,
                    t->kind == WS_GPU_TARGET_SSH ? "ssh://" : slurm ? "slurm://" :
                    t->kind == WS_GPU_TARGET_COMMAND ? "command:" : "local");
  return TRUE;
}

static gboolean
parse_query (WsGpuTarget *t,
             const char  *query,
             GError     **error)
{
  g_autoptr (GHashTable) params = NULL;
  g_autoptr (GError) local = NULL;
  GHashTableIter iter;
  gpointer name, value;

  if (query == NULL || query[0] == '\0')
    return TRUE;
  params = g_uri_parse_params (query, -1, "&", G_URI_PARAMS_NONE, &local);
  if (params == NULL)
    return invalid (error, _("the options “%s” are not NAME=VALUE&…: %s"), query, local->message);
  g_hash_table_iter_init (&iter, params);
  while (g_hash_table_iter_next (&iter, &name, &value))
    if (!set_option (t, name, value, error))
      return FALSE;
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Parsing                                                            */
/* ------------------------------------------------------------------ */

static gboolean
parse_ssh (WsGpuTarget *t,
           GUri        *uri,
           GError     **error)
{
  const char *host = g_uri_get_host (uri);
  const char *user = g_uri_get_user (uri);

  if (g_uri_get_password (uri) != NULL)
    return invalid (error, _("ssh://: Warpscope never sends a password; leave it out of the address and log in "
                    "with a key (or your ssh agent)"));
  if (host == NULL || host[0] == '\0')
    return invalid (error, _("ssh://: which host? write ssh://HOST or ssh://USER@HOST:PORT"));
  if (!check_word (PART_HOST, host, ".-_:", error) || (user && !check_word (PART_USER, user, "._-", error)))
    return FALSE;
  if (g_uri_get_path (uri)[0] != '\0' && !g_str_equal (g_uri_get_path (uri), "/"))
    return invalid (error, _("ssh://%s%s: an address names a host, not a path; the worker's path goes in "
                    "?worker=PATH (or --gpu-worker)"), host, g_uri_get_path (uri));
  t->host = g_strdup (host);
  t->user = g_strdup (user);
  t->port = MAX (g_uri_get_port (uri), 0);
  return parse_query (t, g_uri_get_query (uri), error);
}

static gboolean
parse_slurm (WsGpuTarget *t,
             GUri        *uri,
             GError     **error)
{
  const char *partition = g_uri_get_host (uri);

  if (g_uri_get_user (uri) || g_uri_get_port (uri) > 0 ||
      (g_uri_get_path (uri)[0] != '\0' && !g_str_equal (g_uri_get_path (uri), "/")))
    return invalid (error, _("slurm://: write slurm://PARTITION?gres=…&time=…&account=…"));
  if (partition && partition[0] != '\0')
    {
      if (!check_word (PART_PARTITION, partition, "_.,-", error))
        return FALSE;
      t->partition = g_strdup (partition);
    }
  return parse_query (t, g_uri_get_query (uri), error);
}

/* Whether the text after a command's last '?' is options this program
 * takes (wait=N, gpu=N, joined by '&'), not a shell's '?': “command:CMD?wait=90”. */
static gboolean
is_command_query (const char *query)
{
  g_auto (GStrv) pairs = g_strsplit (query, "&", -1);

  if (pairs[0] == NULL)
    return FALSE;
  for (guint i = 0; pairs[i]; i++)
    if (!g_str_has_prefix (pairs[i], "wait=") && !g_str_has_prefix (pairs[i], "gpu="))
      return FALSE;
  return TRUE;
}

/* "local" and "command:", which are no URIs, then those that are. */
WsGpuTarget *
ws_gpu_target_parse (const char *address,
                     GError    **error)
{
  g_autoptr (WsGpuTarget) t = ws_gpu_target_new_local ();
  g_autoptr (GUri) uri = NULL;
  g_autoptr (GError) local = NULL;
  const char *query;

  g_return_val_if_fail (address != NULL, NULL);

  if (!g_utf8_validate (address, -1, NULL) || strlen (address) > MAX_COMMAND + 64)
    {
      invalid (error, _("a GPU address is text of at most %d bytes"), MAX_COMMAND);
      return NULL;
    }
  if (g_str_has_prefix (address, "command:"))
    {
      const char *rest = address + strlen ("command:");

      t->kind = WS_GPU_TARGET_COMMAND;
      if (rest[0] != '?')
        {
          const char *q = strrchr (rest, '?');
          g_autofree char *command = NULL;
          g_autoptr (WsGpuTarget) c = NULL;

          if (q == NULL || !is_command_query (q + 1))
            return ws_gpu_target_new_command (rest, error);
          /* command:CMD?wait=N: the options are this program's, not the shell's */
          command = g_strndup (rest, q - rest);
          c = ws_gpu_target_new_command (command, error);
          if (c == NULL || !parse_query (c, q + 1, error))
            return NULL;
          return g_steal_pointer (&c);
        }
      if (!parse_query (t, rest + 1, error))
        return NULL;
      if (t->command == NULL)
        {
          invalid (error, _("command:?…: which command? give run=COMMAND"));
          return NULL;
        }
      return g_steal_pointer (&t);
    }
  query = strchr (address, '?');
  if (g_str_equal (address, "local") || g_str_equal (address, "") ||
      (query && strncmp (address, "local", query - address) == 0 && query - address == 5))
    {
      if (query && !parse_query (t, query + 1, error))
        return NULL;
      return g_steal_pointer (&t);
    }
  uri = g_uri_parse (address, G_URI_FLAGS_ENCODED_QUERY | G_URI_FLAGS_HAS_PASSWORD, &local);
  if (uri == NULL || g_uri_get_scheme (uri) == NULL)
    {
      invalid (error, _("“%s” is not a GPU address: write local, ssh://[USER@]HOST[:PORT], slurm://PARTITION "
                      "or command:COMMAND"), address);
      return NULL;
    }
  if (g_str_equal (g_uri_get_scheme (uri), "ssh"))
    {
      t->kind = WS_GPU_TARGET_SSH;
      if (!parse_ssh (t, uri, error))
        return NULL;
    }
  else if (g_str_equal (g_uri_get_scheme (uri), "slurm"))
    {
      t->kind = WS_GPU_TARGET_SLURM;
      if (!parse_slurm (t, uri, error))
        return NULL;
    }
  else
    {
      invalid (error, _("“%s:”: Warpscope reaches a GPU with local, ssh://, slurm:// or command:"),
                      g_uri_get_scheme (uri));
      return NULL;
    }
  return g_steal_pointer (&t);
}

WsGpuTarget *
ws_gpu_target_new_command (const char *command,
                           GError    **error)
{
  g_autoptr (WsGpuTarget) t = ws_gpu_target_new_local ();
  const char *p = command;

  g_return_val_if_fail (command != NULL, NULL);

  while (g_ascii_isspace (*p))
    p++;
  if (*p == '\0')
    {
      invalid (error, _("the command that starts the GPU worker is empty"));
      return NULL;
    }
  if (strlen (command) > MAX_COMMAND || !g_utf8_validate (command, -1, NULL))
    {
      invalid (error, _("the command that starts the GPU worker is longer than %d bytes"), MAX_COMMAND);
      return NULL;
    }
  t->kind = WS_GPU_TARGET_COMMAND;
  t->command = g_strdup (command);
  return g_steal_pointer (&t);
}

/* ------------------------------------------------------------------ */
/* Writing                                                            */
/* ------------------------------------------------------------------ */

static void
append_option (GString    *s,
               const char *name,
               const char *value)
{
  g_autofree char *escaped = NULL;

  if (value == NULL)
    return;
  escaped = g_uri_escape_string (value, "/:,~", FALSE);
  g_string_append_printf (s, "%c%s=%s", strchr (s->str, '?') ? '&' : '?', name, escaped);
}

static void
append_number (GString    *s,
               const char *name,
               guint       value)
{
  g_autofree char *text = value ? g_strdup_printf ("%u", value) : NULL;

  append_option (s, name, text);
}

char *
ws_gpu_target_to_string (const WsGpuTarget *t)
{
  GString *s = g_string_new (NULL);

  g_return_val_if_fail (t != NULL, NULL);

  switch (t->kind)
    {
    case WS_GPU_TARGET_LOCAL:
      g_string_append (s, "local");
      break;
    case WS_GPU_TARGET_SSH:
      g_string_append (s, "ssh://");
      if (t->user)
        g_string_append_printf (s, "%s@", t->user);
      g_string_append_printf (s, strchr (t->host, ':') ? "[%s]" : "%s", t->host);
      if (t->port)
        g_string_append_printf (s, ":%d", t->port);
      break;
    case WS_GPU_TARGET_SLURM:
      g_string_append_printf (s, "slurm://%s", t->partition ? t->partition : "");
      append_option (s, "gres", t->gres);
      append_option (s, "time", t->time);
      append_option (s, "account", t->account);
      append_option (s, "jobid", t->jobid);
      break;
    case WS_GPU_TARGET_COMMAND:
      g_string_append (s, "command:");
      append_option (s, "run", t->command);
      break;
    default:
      g_assert_not_reached ();
    }
  append_option (s, "worker", t->worker);
  append_number (s, "gpu", t->gpu);
  append_number (s, "wait", t->wait_s);
  return g_string_free (s, FALSE);
}

char *
ws_gpu_target_place (const WsGpuTarget *t)
{
  g_return_val_if_fail (t != NULL, NULL);

  /* for the user's eyes only, in the user's language: never in a file */
  switch (t->kind)
    {
    case WS_GPU_TARGET_LOCAL:
      /* Translators: where the GPU is, in a sentence such as “Measuring on
       * this computer” or “The GPU worker on this computer stopped” */
      return g_strdup (_("this computer"));
    case WS_GPU_TARGET_SSH:
      return g_strdup (t->host);
    case WS_GPU_TARGET_SLURM:
      if (t->jobid)
        /* Translators: where the GPU is: a Slurm job, by its number */
        return g_strdup_printf (_("Slurm job %s"), t->jobid);
      /* Translators: where the GPU is: Slurm and the partition asked for */
      return t->partition ? g_strdup_printf (_("Slurm (%s)"), t->partition) : g_strdup ("Slurm");
    case WS_GPU_TARGET_COMMAND:
      /* Translators: where the GPU is: the machine a command of the user's
       * starts the worker on */
      return g_strdup (_("a custom command"));
    default:
      g_assert_not_reached ();
    }
}

char *
ws_gpu_target_describe (const WsGpuTarget *t)
{
  g_return_val_if_fail (t != NULL, NULL);

  switch (t->kind)
    {
    case WS_GPU_TARGET_LOCAL:
      return g_strdup (_("this computer"));
    case WS_GPU_TARGET_SSH:
      if (t->user)
        /* Translators: how the GPU is reached: a user at a host, over ssh
         * (“alice@gpu01 over ssh”) */
        return g_strdup_printf (_("%s@%s over ssh"), t->user, t->host);
      /* Translators: how the GPU is reached: a host, over ssh */
      return g_strdup_printf (_("%s over ssh"), t->host);
    case WS_GPU_TARGET_SLURM:
      if (t->jobid)
        return g_strdup_printf (_("Slurm job %s"), t->jobid);
      if (t->partition)
        /* Translators: how the GPU is reached: a Slurm partition, by name */
        return g_strdup_printf (_("Slurm partition %s"), t->partition);
      return g_strdup (_("Slurm's default partition"));
    case WS_GPU_TARGET_COMMAND:
      {
        g_autofree char *shown = g_utf8_substring (t->command, 0, MIN (g_utf8_strlen (t->command, -1), 40));

        if (g_utf8_strlen (t->command, -1) > 40)
          /* Translators: how the GPU is reached: the first 40 characters of
           * the user's command, cut short */
          return g_strdup_printf (_("the command “%s…”"), shown);
        /* Translators: how the GPU is reached: the user's command */
        return g_strdup_printf (_("the command “%s”"), shown);
      }
    default:
      g_assert_not_reached ();
    }
}

gboolean
ws_gpu_target_is_local (const WsGpuTarget *t)
{
  return t == NULL || t->kind == WS_GPU_TARGET_LOCAL;
}

/* A login takes seconds; Slurm's queue may take minutes. */
guint
ws_gpu_target_get_wait (const WsGpuTarget *t)
{
  g_return_val_if_fail (t != NULL, 30);

  if (t->wait_s)
    return t->wait_s;
  switch (t->kind)
    {
    case WS_GPU_TARGET_SLURM:
      return 600;
    case WS_GPU_TARGET_COMMAND:
      return 60;
    case WS_GPU_TARGET_LOCAL:
    case WS_GPU_TARGET_SSH:
    default:
      return 30;
    }
}
