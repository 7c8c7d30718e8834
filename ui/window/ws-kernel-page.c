/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The Kernel page: the editor feeds the modeller as one types; the
 * modeller's warp of the cursor's line goes to the lane views, its whole
 * launch to the editor's gutter; Measure runs the text on the session's
 * GPU and its counters by line join the gutter. */
#include <glib/gi18n.h>
#include "ws-config.h"
#include "ws-kernel-page.h"
#include "ws-player-controls.h"

#include <string.h>

#include "ws-plot-listing.h"

struct _WsKernelPage
{
  GtkWidget parent_instance;

  /* template */
  GtkWidget *paned;
  WsKernelEditor *editor;
  GtkLabel *line_label;
  GtkWidget *site_box;
  GtkLabel *site_label;
  GtkWidget *prev_site;
  GtkWidget *next_site;
  GtkSpinButton *warp_spin;
  GtkSpinButton *execution_spin;
  GtkWidget *kernel_box;           /* shown when the file has several kernels */
  GtkDropDown *kernel_dropdown;
  GtkStringList *kernel_names;
  char *kernel_choice;             /* the one picked there, or NULL */
  gboolean filling_kernels;
  GtkStack *view_stack;
  GtkLabel *caption;
  GtkButton *measure_button;
  GtkLabel *status;
  WsPlayerControls *player_controls;

  WsFigureView *views[WS_N_FIGURES];
  WsSchedulePlayer *player;        /* the views' position: the schedule played, or all of it */
  GtkWidget *empty;                /* what the views say while there is no instruction */
  GtkLabel *empty_label;

  WsSession *session;
  WsKernelModeller *modeller;
  guint site;                      /* of the line's, the one shown */
  char *caption_text;
  WsMeasurement *measurement;      /* of the text measured_hash says, or NULL */
  char *measured_hash;
  GCancellable *measure_cancellable;
};

enum
{
  PROP_0,
  PROP_SESSION,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (WsKernelPage, ws_kernel_page, GTK_TYPE_WIDGET)

/* What File ▸ New Kernel gives: a launch comment and a kernel that reads it. */
static const char blank_kernel[] =
  "/* warpscope:\n"
  " *   n      = 1 << 20\n"
  " *   grid   = n / 256\n"
  " *   block  = 256\n"
  " *   in[n]  = i\n"
  " *   out[n] = 0\n"
  " */\n"
  "__global__ void copy(float *out, const float *in)\n"
  "{\n"
  "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
  "  out[i] = in[i];\n"
  "}\n";

/* ------------------------------------------------------------------ */
/* The caption                                                        */
/* ------------------------------------------------------------------ */

/* "0, 1, 2 … 31": the lanes of a mask, the first few and the last. */
static char *
describe_lanes (guint32 lanes)
{
  GString *s = g_string_new (NULL);
  guint n = 0, total = __builtin_popcount (lanes), last = 0;

  for (guint l = 0; l < 32; l++)
    if (lanes & (1u << l))
      last = l;
  for (guint l = 0; l < 32; l++)
    {
      if (!(lanes & (1u << l)))
        continue;
      if (n == 4 && total > 5)
        {
          g_string_append_printf (s, " … %u", last);
          break;
        }
      g_string_append_printf (s, "%s%u", n ? ", " : "", l);
      n++;
    }
  return g_string_free (s, FALSE);
}

/* The bank that must deliver the most distinct words in one phase, and the
 * lanes that ask it for them. */
static guint
busiest_bank (const WsWarpResult *r,
              guint32            *lanes_out,
              guint              *bank_out)
{
  guint lanes_per_phase = r->elem_size <= 4 ? 32 : 32 / (r->elem_size / 4);
  guint best = 0;

  *lanes_out = 0;
  *bank_out = 0;
  for (guint p = 0; p < 32 / lanes_per_phase; p++)
    for (guint b = 0; b < 32; b++)
      {
        gint64 words[32];
        guint n = 0;
        guint32 lanes = 0;

        for (guint l = p * lanes_per_phase; l < (p + 1) * lanes_per_phase; l++)
          {
            gboolean seen = FALSE;

            if (!(r->active & (1u << l)) || r->bank[l] != b)
              continue;
            lanes |= 1u << l;
            for (guint k = 0; k < n; k++)
              seen |= words[k] == r->address[l] / 4;
            if (!seen)
              words[n++] = r->address[l] / 4;
          }
        if (n > best)
          {
            best = n;
            *lanes_out = lanes;
            *bank_out = b;
          }
      }
  return best;
}

static char *
shared_caption (const WsWarpResult *r)
{
  const WsWarpCounts *c = &r->counts;
  guint32 lanes;
  guint bank;
  guint words = busiest_bank (r, &lanes, &bank);
  g_autofree char *list = describe_lanes (lanes);

  if (c->wavefronts <= c->ideal_wavefronts || words < 2)
    /* Translators: a shared-memory access with no bank conflict */
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "No bank conflict: no bank holds more than one word the "
                                         "lanes ask for, so %u wavefront serves the warp.",
                                         "No bank conflict: no bank holds more than one word the lanes ask for at "
                                         "a time, so %u wavefronts serve the warp, the fewest possible.",
                                         c->wavefronts),
                            c->wavefronts);
  /* Translators: lanes "0, 1, 2, 3 … 31" reach one bank in several words:
   * the words, the bank, the wavefronts, the fewest possible, and the
   * conflict's degree again ("a 32-way bank conflict") */
  return g_strdup_printf (_("Lanes %s reach bank %u in %u different words, which it gives one per wavefront: "
                            "%u wavefronts where %u would do (a %u-way bank conflict)."),
                          list, bank, words, c->wavefronts, c->ideal_wavefronts, words);
}

static char *
sectors_caption (const WsWarpResult *r)
{
  const WsWarpCounts *c = &r->counts;
  guint fewest = (c->bytes_requested + 31) / 32;
  gint64 stride = 0;
  int first = -1;

  for (guint l = 0; l < 32; l++)
    if (r->active & (1u << l))
      {
        if (first < 0)
          first = (int) l;
        else
          {
            stride = (r->address[l] - r->address[first]) / (gint64) (l - (guint) first);
            break;
          }
      }
  if (c->sectors <= fewest)
    /* Translators: the bytes the lanes ask for, then the 32-byte sectors moved */
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Coalesced: the lanes' %u bytes lie together, in %u "
                                         "sector of 32 bytes, the fewest possible.",
                                         "Coalesced: the lanes' %u bytes lie together, in %u sectors of 32 "
                                         "bytes, the fewest possible.", c->sectors),
                            c->bytes_requested, c->sectors);
  /* Translators: the bytes asked for, the sectors moved, the fewest that
   * would hold those bytes, and the distance between neighbouring lanes */
  return g_strdup_printf (_("The lanes ask for %u bytes but %u sectors of 32 bytes move, where %u would hold "
                            "them: neighbouring lanes are %lld bytes apart."),
                          c->bytes_requested, c->sectors, MAX (fewest, 1), (long long) stride);
}

/* One sentence: which lanes conflict, how many sectors or wavefronts, why. */
static char *
warp_caption (const WsWarpResult *r)
{
  if (r->active == 0)
    return g_strdup (_("No lane of this warp makes the access."));
  if (r->kind == WS_ACCESS_ATOMIC)
    {
      if (r->counts.atomic_conflicts == 0)
        return g_strdup (_("Every lane updates an address of its own: no update waits for another."));
      /* Translators: lanes that wait, then the most lanes on one address */
      return g_strdup_printf (_("%u lanes wait for another lane's update of the same address (up to %u on one): "
                                "the updates are served one after another."),
                              r->counts.atomic_conflicts, r->counts.atomic_depth);
    }
  switch (r->space)
    {
    case WS_SPACE_SHARED:
      return shared_caption (r);
    case WS_SPACE_CONSTANT:
      if (r->counts.distinct_addresses <= 1)
        return g_strdup (_("All lanes read one address: the constant cache broadcasts it in one request."));
      /* Translators: distinct constant addresses, served one after another */
      return g_strdup_printf (_("The lanes read %u different addresses, which the constant cache serves one "
                                "after another: %u requests where 1 would do."),
                              r->counts.distinct_addresses, r->counts.distinct_addresses);
    case WS_SPACE_REGISTER:
      return g_strdup (_("The compiler keeps this array in registers: no memory instruction."));
    default:
      return sectors_caption (r);
    }
}

/* ------------------------------------------------------------------ */
/* The views                                                          */
/* ------------------------------------------------------------------ */

static const WsWarpResult *
shown_result (WsKernelPage *self,
              const char  **why_not)
{
  *why_not = NULL;
  if (self->site >= ws_kernel_modeller_get_n_warps (self->modeller))
    return NULL;
  return ws_kernel_modeller_get_warp (self->modeller, self->site, NULL, why_not);
}

static void
show_empty (WsKernelPage *self,
            const char   *text)
{
  for (guint k = 0; k < WS_N_FIGURES; k++)
    {
      gtk_stack_page_set_visible (gtk_stack_get_page (self->view_stack, GTK_WIDGET (self->views[k])), FALSE);
      ws_figure_view_set_result (self->views[k], NULL, NULL, (WsDim3) { 1, 1, 1 });
    }
  gtk_label_set_text (self->empty_label, text);
  gtk_stack_page_set_visible (gtk_stack_get_page (self->view_stack, self->empty), TRUE);
  gtk_stack_set_visible_child (self->view_stack, self->empty);
  g_clear_pointer (&self->caption_text, g_free);
  gtk_label_set_text (self->caption, "");
}

/* The first line of the kernel in view that makes a memory access, or 0. */
static guint
first_access_line (WsKernelInstance *instance)
{
  guint first = 0;

  for (guint i = 0; instance && i < ws_kernel_instance_get_n_sites (instance); i++)
    {
      const WsKernelSite *site = ws_kernel_instance_get_site (instance, i);

      if (site->space != WS_SPACE_REGISTER && site->line > 0 && (first == 0 || site->line < first))
        first = site->line;
    }
  return first;
}

/* What nvcc keeps in registers of a line's accesses through a loop, as
 * sentences, or NULL where it keeps nothing. */
static char *
kept_caption (WsKernelInstance *instance,
              guint             line)
{
  GString *s = NULL;

  for (guint i = 0; instance && i < ws_kernel_instance_get_n_sites (instance); i++)
    {
      const WsKernelSite *site = ws_kernel_instance_get_site (instance, i);
      g_autofree char *text = site->line == line ? ws_kernel_site_keep_text (site) : NULL;

      if (text == NULL)
        continue;
      if (s == NULL)
        s = g_string_new (text);
      else
        g_string_append_printf (s, " %s", text);
    }
  return s ? g_string_free (s, FALSE) : NULL;
}

/* The cursor on a line where no access is: the text says where the
 * kernel's first is, as a link that puts the cursor there; or, where the
 * line's accesses are all kept in registers, why none is made. */
static void
show_no_access (WsKernelPage     *self,
                WsKernelInstance *instance)
{
  guint first = first_access_line (instance);
  g_autofree char *markup = NULL;
  g_autofree char *kept = kept_caption (instance, ws_kernel_editor_get_cursor_line (self->editor));

  if (kept != NULL)
    {
      show_empty (self, kept);
      return;
    }
  if (first == 0)
    {
      show_empty (self, _("This kernel makes no memory access that the views show."));
      return;
    }
  show_empty (self, "");
  /* Translators: %u is a line number; keep the <a> and its href as they are */
  markup = g_strdup_printf (_("This line makes no memory access. The kernel's first is on <a href=\"line:%u\">line "
                              "%u</a>; or click the figures of a line in the gutter."), first, first);
  gtk_label_set_markup (self->empty_label, markup);
}

static gboolean
on_empty_link (GtkLabel     *label,
               const char   *uri,
               WsKernelPage *self)
{
  guint64 line = 0;

  if (!g_str_has_prefix (uri, "line:") || !g_ascii_string_to_unsigned (uri + 5, 10, 1, G_MAXUINT, &line, NULL))
    return FALSE;
  ws_kernel_editor_place_cursor (self->editor, (guint) line, 1);
  gtk_widget_grab_focus (GTK_WIDGET (self->editor));
  return TRUE;
}

static void
update_site_controls (WsKernelPage *self)
{
  guint n = ws_kernel_modeller_get_n_warps (self->modeller);
  g_autofree char *text = NULL;
  g_autofree char *line = NULL;
  guint site_index;
  const WsKernelSite *site = NULL;
  WsKernelInstance *instance = ws_kernel_modeller_get_instance (self->modeller);

  if (self->site < n && instance && ws_kernel_modeller_get_warp (self->modeller, self->site, &site_index, NULL))
    site = ws_kernel_instance_get_site (instance, site_index);
  else if (self->site < n && instance)
    {
      ws_kernel_modeller_get_warp (self->modeller, self->site, &site_index, NULL);
      site = ws_kernel_instance_get_site (instance, site_index);
    }
  /* Translators: which of a line's memory instructions is shown, of how many */
  text = g_strdup_printf (_("%u of %u"), MIN (self->site + 1, n), n);
  gtk_label_set_text (self->site_label, text);
  gtk_widget_set_visible (self->site_box, n > 1);
  gtk_widget_set_sensitive (self->prev_site, self->site > 0);
  gtk_widget_set_sensitive (self->next_site, self->site + 1 < n);
  if (site)
    /* Translators: the line, then the access as written ("tile[threadIdx.x][threadIdx.y + j]") */
    line = g_strdup_printf (_("Line %u: %s"), site->line, site->text);
  else
    line = g_strdup_printf (_("Line %u"), ws_kernel_editor_get_cursor_line (self->editor));
  gtk_label_set_text (self->line_label, line);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->line_label), line);
}

static void
show_warp (WsKernelPage *self)
{
  const char *why_not = NULL;
  const WsWarpResult *r;
  WsKernelInstance *instance = ws_kernel_modeller_get_instance (self->modeller);
  WsFigureKind kinds[WS_N_FIGURES];
  GtkWidget *visible = gtk_stack_get_visible_child (self->view_stack);
  gboolean keep = FALSE;
  guint n;
  g_autofree char *title = NULL;

  update_site_controls (self);
  if (ws_kernel_modeller_get_error (self->modeller))
    {
      show_empty (self, ws_kernel_modeller_get_error (self->modeller)->message);
      return;
    }
  if (instance == NULL)
    {
      show_empty (self, _("Modelling the kernel…"));
      return;
    }
  if (ws_kernel_modeller_get_n_warps (self->modeller) == 0)
    {
      show_no_access (self, instance);
      return;
    }
  r = shown_result (self, &why_not);
  if (r == NULL)
    {
      show_empty (self, why_not ? why_not : _("This warp does not make the access."));
      return;
    }
  n = ws_figure_kinds_for (r, kinds);
  title = g_strdup (ws_kernel_instance_get_kernel_name (instance));
  gtk_stack_page_set_visible (gtk_stack_get_page (self->view_stack, self->empty), FALSE);
  for (guint k = 0; k < WS_N_FIGURES; k++)
    {
      gboolean applies = ws_figure_applies (k, r->space, r->kind);

      gtk_stack_page_set_visible (gtk_stack_get_page (self->view_stack, GTK_WIDGET (self->views[k])), applies);
      ws_figure_view_set_result (self->views[k], applies ? r : NULL, title, ws_kernel_instance_get_block (instance));
      keep |= applies && visible == GTK_WIDGET (self->views[k]);
    }
  /* the whole schedule served, a still of what the warp costs, until one
   * plays it (a new instruction while it plays plays from its start) */
  ws_schedule_player_set_n_steps (self->player, r->steps->len);
  if (!keep && n > 0)
    gtk_stack_set_visible_child (self->view_stack, GTK_WIDGET (self->views[kinds[0]]));
  g_free (self->caption_text);
  self->caption_text = warp_caption (r);
  {
    g_autofree char *kept = kept_caption (instance, ws_kernel_instance_get_site (instance, r->access)->line);
    if (kept != NULL)
      {
        char *both = g_strconcat (self->caption_text, "\n", kept, NULL);
        g_free (self->caption_text);
        self->caption_text = both;
      }
  }
  gtk_label_set_text (self->caption, self->caption_text);
}

static void
on_warp_ready (WsKernelPage *self)
{
  if (self->site >= ws_kernel_modeller_get_n_warps (self->modeller))
    self->site = 0;
  show_warp (self);
}

static void
on_failed (WsKernelPage *self)
{
  show_warp (self);
  ws_kernel_editor_set_prediction (self->editor, NULL, NULL);
}

/* A measurement of another text says nothing of this one. */
static void
check_measurement (WsKernelPage *self)
{
  const WsKernelSpec *spec = ws_kernel_modeller_get_spec (self->modeller);
  g_autofree char *hash = spec ? ws_kernel_spec_hash (spec) : NULL;

  if (self->measured_hash && g_strcmp0 (hash, self->measured_hash) != 0)
    {
      g_clear_pointer (&self->measurement, ws_measurement_free);
      g_clear_pointer (&self->measured_hash, g_free);
      ws_kernel_editor_set_measurement (self->editor, NULL);
    }
}

static void
on_prediction_ready (WsKernelPage *self)
{
  check_measurement (self);
  ws_kernel_editor_set_prediction (self->editor, ws_kernel_modeller_get_instance (self->modeller),
                                   ws_kernel_modeller_get_prediction (self->modeller));
}

/* ------------------------------------------------------------------ */
/* The editor                                                         */
/* ------------------------------------------------------------------ */

/* A file of several kernels, as the editor's check (on its thread) last
 * found them: the dropdown lists them, and the page shows the one picked
 * there, else the one its launch comment names, else the first. Returns
 * that one (the editor's, until its next check), or NULL when the file has
 * one. */
static const char *
update_kernels (WsKernelPage *self)
{
  const char * const *kernels = ws_kernel_editor_get_kernels (self->editor);
  const char *named = ws_kernel_editor_get_named_kernel (self->editor);
  guint n = g_strv_length ((char **) kernels);
  guint listed = g_list_model_get_n_items (G_LIST_MODEL (self->kernel_names));
  const char *chosen = NULL;
  gboolean same = n == listed;

  if (n < 2)
    {
      gtk_widget_set_visible (self->kernel_box, FALSE);
      return NULL;
    }
  for (guint i = 0; same && i < n; i++)
    same = g_strcmp0 (gtk_string_list_get_string (self->kernel_names, i), kernels[i]) == 0;
  self->filling_kernels = TRUE;
  if (!same)
    gtk_string_list_splice (self->kernel_names, 0, listed, kernels);
  for (guint i = 0; i < n && chosen == NULL; i++)
    if (g_strcmp0 (self->kernel_choice, kernels[i]) == 0)
      chosen = kernels[i];
  for (guint i = 0; i < n && chosen == NULL; i++)
    if (g_strcmp0 (named, kernels[i]) == 0)
      chosen = kernels[i];
  if (chosen == NULL)
    chosen = kernels[0];
  for (guint i = 0; i < n; i++)
    if (chosen == kernels[i])
      gtk_drop_down_set_selected (self->kernel_dropdown, i);
  self->filling_kernels = FALSE;
  gtk_widget_set_visible (self->kernel_box, TRUE);
  return chosen;
}

static void
set_spec (WsKernelPage *self,
          const char   *kernel)
{
  g_autofree char *text = ws_kernel_editor_get_text (self->editor);
  g_autoptr (WsKernelSpec) spec = ws_kernel_spec_new (text, ws_kernel_editor_get_title (self->editor));

  if (kernel != NULL)
    ws_kernel_spec_set_kernel (spec, kernel);
  ws_kernel_modeller_set_spec (self->modeller, spec);
}

static void
set_spec_from_editor (WsKernelPage *self)
{
  set_spec (self, update_kernels (self));
}

static void
on_text_changed (WsKernelPage *self)
{
  g_autofree char *text = ws_kernel_editor_get_text (self->editor);
  const WsKernelSpec *spec = ws_kernel_modeller_get_spec (self->modeller);

  if (spec == NULL || g_strcmp0 (spec->display_name, ws_kernel_editor_get_title (self->editor)) != 0)
    {
      /* another file: its kernels come with the check of its text (on_checked) */
      g_clear_pointer (&self->kernel_choice, g_free);
      set_spec (self, ws_kernel_editor_get_checking (self->editor) ? NULL : update_kernels (self));
    }
  else
    ws_kernel_modeller_set_text (self->modeller, text);
}

/* The text checked: its kernels listed, and another shown if the one shown
 * is gone or none was chosen yet. */
static void
on_checked (WsKernelPage *self)
{
  const WsKernelSpec *spec = ws_kernel_modeller_get_spec (self->modeller);
  const char *kernel = update_kernels (self);

  if (spec != NULL && g_strcmp0 (spec->kernel, kernel) != 0)
    set_spec (self, kernel);
}

static void
on_kernel_picked (WsKernelPage *self)
{
  guint i = gtk_drop_down_get_selected (self->kernel_dropdown);

  if (self->filling_kernels || i == GTK_INVALID_LIST_POSITION)
    return;
  g_free (self->kernel_choice);
  self->kernel_choice = g_strdup (gtk_string_list_get_string (self->kernel_names, i));
  set_spec_from_editor (self);
}

static void
set_line (WsKernelPage *self,
          guint         line)
{
  if (line == 0 || line == ws_kernel_modeller_get_line (self->modeller))
    return;
  self->site = 0;
  ws_kernel_modeller_set_line (self->modeller, line);
  update_site_controls (self);
}

static void
on_cursor_line (WsKernelPage *self)
{
  set_line (self, ws_kernel_editor_get_cursor_line (self->editor));
}

static void
on_line_activated (WsKernelPage *self,
                   guint         line)
{
  set_line (self, line);
}

static void
on_site_clicked (GtkButton    *button,
                 WsKernelPage *self)
{
  guint n = ws_kernel_modeller_get_n_warps (self->modeller);

  if (GTK_WIDGET (button) == self->prev_site && self->site > 0)
    ws_kernel_page_set_site (self, self->site - 1);
  else if (GTK_WIDGET (button) == self->next_site && self->site + 1 < n)
    ws_kernel_page_set_site (self, self->site + 1);
}

static void
on_warp_chosen (WsKernelPage *self)
{
  ws_kernel_modeller_set_warp (self->modeller, (WsDim3) { 0, 0, 0 },
                               (guint) gtk_spin_button_get_value_as_int (self->warp_spin),
                               (guint) gtk_spin_button_get_value_as_int (self->execution_spin));
}

/* ------------------------------------------------------------------ */
/* Measuring                                                          */
/* ------------------------------------------------------------------ */

static void
update_measure_button (WsKernelPage *self)
{
  const WsDeviceInfo *device = self->session ? ws_session_get_device (self->session) : NULL;
  const GError *why = self->session ? ws_session_get_probe_error (self->session) : NULL;
  g_autofree char *tip = NULL;

  if (device)
    tip = g_strdup (_("Run the kernel on the GPU, with its hardware counters by line"));
  else if (self->session && !ws_session_get_probed (self->session))
    tip = g_strdup (_("Looking for a GPU…"));
  else
    /* Translators: why the kernel cannot be measured: the GPU's absence and why */
    tip = g_strdup_printf (_("No GPU to measure on: %s"), why ? why->message : _("none was found"));
  gtk_widget_set_sensitive (GTK_WIDGET (self->measure_button), device != NULL && self->measure_cancellable == NULL);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->measure_button), tip);
}

static void
measure_done (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr (WsKernelPage) self = user_data;
  g_autoptr (GError) error = NULL;
  g_autoptr (WsMeasurement) m = ws_session_measure_finish (WS_SESSION (source), result, &error);
  g_autofree char *text = NULL;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  g_clear_object (&self->measure_cancellable);
  update_measure_button (self);
  if (m == NULL)
    {
      g_clear_pointer (&self->measured_hash, g_free);
      text = g_strdup_printf (_("Could not measure: %s"), error->message);
      gtk_label_set_text (self->status, text);
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->status), text);
      return;
    }
  g_clear_pointer (&self->measurement, ws_measurement_free);
  self->measurement = g_steal_pointer (&m);
  ws_kernel_editor_set_measurement (self->editor, self->measurement);
  /* Translators: the samples of a measurement's median */
  text = g_strdup_printf (_("Measured: median of %u samples; the counters are in the gutter"),
                          self->measurement->samples_ms ? self->measurement->samples_ms->len : 0);
  gtk_label_set_text (self->status, text);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->status), text);
  /* the text may have changed while it ran */
  check_measurement (self);
}

void
ws_kernel_page_measure (WsKernelPage *self)
{
  g_autoptr (WsMeasureRequest) request = NULL;
  const WsKernelSpec *spec;
  guint samples = 0;
  gboolean cold = FALSE;

  g_return_if_fail (WS_IS_KERNEL_PAGE (self));

  spec = ws_kernel_modeller_get_spec (self->modeller);
  if (self->session == NULL || ws_session_get_device (self->session) == NULL || spec == NULL)
    return;
  g_cancellable_cancel (self->measure_cancellable);
  g_clear_object (&self->measure_cancellable);
  self->measure_cancellable = g_cancellable_new ();
  g_object_get (self->session, "samples", &samples, "cold", &cold, NULL);
  request = ws_measure_request_new ();
  request->kernel_text = ws_kernel_spec_copy (spec);
  request->options.samples = samples;
  request->options.cold = cold;
  request->options.counters = TRUE;
  g_free (self->measured_hash);
  g_free (self->kernel_choice);
  self->measured_hash = ws_kernel_spec_hash (spec);
  gtk_label_set_text (self->status, _("Measuring…"));
  update_measure_button (self);
  ws_session_measure_async (self->session, request, self->measure_cancellable, measure_done, g_object_ref (self));
}

static void
on_profile_changed (WsKernelPage *self)
{
  ws_kernel_modeller_set_profile (self->modeller, ws_session_get_device_profile (self->session), 0);
}

/* ------------------------------------------------------------------ */
/* Public                                                             */
/* ------------------------------------------------------------------ */

WsSession *
ws_kernel_page_get_session (WsKernelPage *self)
{
  g_return_val_if_fail (WS_IS_KERNEL_PAGE (self), NULL);
  return self->session;
}

void
ws_kernel_page_set_session (WsKernelPage *self,
                            WsSession    *session)
{
  g_return_if_fail (WS_IS_KERNEL_PAGE (self));
  g_return_if_fail (session == NULL || WS_IS_SESSION (session));

  if (self->session == session)
    return;
  if (self->session)
    g_signal_handlers_disconnect_by_data (self->session, self);
  g_set_object (&self->session, session);
  if (session)
    {
      g_signal_connect_swapped (session, "notify::probed", G_CALLBACK (update_measure_button), self);
      g_signal_connect_swapped (session, "notify::device", G_CALLBACK (update_measure_button), self);
      g_signal_connect_swapped (session, "notify::device-profile", G_CALLBACK (on_profile_changed), self);
      on_profile_changed (self);
    }
  update_measure_button (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SESSION]);
}

WsKernelEditor *
ws_kernel_page_get_editor (WsKernelPage *self)
{
  g_return_val_if_fail (WS_IS_KERNEL_PAGE (self), NULL);
  return self->editor;
}

WsKernelModeller *
ws_kernel_page_get_modeller (WsKernelPage *self)
{
  g_return_val_if_fail (WS_IS_KERNEL_PAGE (self), NULL);
  return self->modeller;
}

void
ws_kernel_page_new_kernel (WsKernelPage *self,
                           const char   *text)
{
  ws_kernel_page_new_kernel_named (self, text, NULL);
}

void
ws_kernel_page_new_kernel_named (WsKernelPage *self,
                                 const char   *text,
                                 const char   *name)
{
  g_return_if_fail (WS_IS_KERNEL_PAGE (self));

  ws_kernel_editor_set_untitled_name (self->editor, name);
  ws_kernel_editor_set_file (self->editor, NULL);
  ws_kernel_editor_set_text (self->editor, text ? text : blank_kernel);
  /* a copy is a text of one's own, unsaved; the blank kernel holds
   * nothing of one's own yet, and closing it asks nothing */
  ws_kernel_editor_set_modified (self->editor, text != NULL);
  set_spec_from_editor (self);
}

static int
compare_paths (gconstpointer a,
               gconstpointer b)
{
  return g_strcmp0 (*(const char * const *) a, *(const char * const *) b);
}

static GStrv
cu_files_in (const char *dir)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  g_autoptr (GPtrArray) paths = g_ptr_array_new ();
  const char *name;

  if (d == NULL)
    return NULL;
  while ((name = g_dir_read_name (d)))
    if (g_str_has_suffix (name, ".cu"))
      g_ptr_array_add (paths, g_build_filename (dir, name, NULL));
  if (paths->len == 0)
    return NULL;
  g_ptr_array_sort (paths, compare_paths);
  g_ptr_array_add (paths, NULL);
  return (GStrv) g_ptr_array_steal (paths, NULL);
}

GStrv
ws_kernel_page_list_examples (void)
{
  g_autofree char *installed = g_build_filename (WS_PKGDATADIR, "examples", NULL);
  g_autofree char *source = g_build_filename (WS_SOURCE_DATADIR, "..", "tests", "data", "kernels", NULL);
  GStrv paths = cu_files_in (installed);

  if (paths == NULL)
    paths = cu_files_in (source);
  return paths ? paths : g_new0 (char *, 1);
}

typedef struct
{
  GFile *file;
  GtkWindow *parent;
} OpenData;

static void
open_data_free (OpenData *d)
{
  g_clear_object (&d->file);
  g_clear_object (&d->parent);
  g_free (d);
}

static void
open_loaded (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr (GTask) task = user_data;
  WsKernelPage *self = g_task_get_source_object (task);
  GError *error = NULL;

  if (!ws_kernel_editor_load_finish (WS_KERNEL_EDITOR (source), result, &error))
    {
      g_task_return_error (task, error);
      return;
    }
  set_spec_from_editor (self);
  g_task_return_boolean (task, TRUE);
}

static void
open_dialog_done (GObject      *source,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr (GTask) task = user_data;
  WsKernelPage *self = g_task_get_source_object (task);
  GError *error = NULL;

  if (!ws_kernel_editor_open_dialog_finish (WS_KERNEL_EDITOR (source), result, &error))
    {
      g_task_return_error (task, error);
      return;
    }
  set_spec_from_editor (self);
  g_task_return_boolean (task, TRUE);
}

static void
open_confirmed (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr (GTask) task = user_data;
  WsKernelPage *self = g_task_get_source_object (task);
  OpenData *d = g_task_get_task_data (task);
  GError *error = NULL;

  if (!ws_kernel_editor_confirm_close_finish (WS_KERNEL_EDITOR (source), result, &error))
    {
      if (error == NULL)
        error = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED, _("The unsaved changes were kept"));
      g_task_return_error (task, error);
      return;
    }
  if (d->file)
    ws_kernel_editor_load_async (self->editor, d->file, NULL, open_loaded, g_steal_pointer (&task));
  else
    ws_kernel_editor_open_dialog_async (self->editor, d->parent, open_dialog_done, g_steal_pointer (&task));
}

/* file NULL: asks which, in a file chooser. */
void
ws_kernel_page_open_async (WsKernelPage        *self,
                           GFile               *file,
                           GtkWindow           *parent,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  g_autoptr (GTask) task = NULL;
  OpenData *d = g_new0 (OpenData, 1);

  g_return_if_fail (WS_IS_KERNEL_PAGE (self));

  task = g_task_new (self, NULL, callback, user_data);
  g_task_set_source_tag (task, ws_kernel_page_open_async);
  d->file = file ? g_object_ref (file) : NULL;
  d->parent = parent ? g_object_ref (parent) : NULL;
  g_task_set_task_data (task, d, (GDestroyNotify) open_data_free);
  ws_kernel_editor_confirm_close_async (self->editor, parent, open_confirmed, g_steal_pointer (&task));
}

gboolean
ws_kernel_page_open_finish (WsKernelPage  *self,
                            GAsyncResult  *result,
                            GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

WsSchedulePlayer *
ws_kernel_page_get_player (WsKernelPage *self)
{
  g_return_val_if_fail (WS_IS_KERNEL_PAGE (self), NULL);
  return self->player;
}

WsFigureView *
ws_kernel_page_get_figure (WsKernelPage *self)
{
  GtkWidget *visible;

  g_return_val_if_fail (WS_IS_KERNEL_PAGE (self), NULL);

  visible = gtk_stack_get_visible_child (self->view_stack);
  return WS_IS_FIGURE_VIEW (visible) ? WS_FIGURE_VIEW (visible) : NULL;
}

const char *
ws_kernel_page_get_caption (WsKernelPage *self)
{
  g_return_val_if_fail (WS_IS_KERNEL_PAGE (self), NULL);
  return self->caption_text;
}

GtkDropDown *
ws_kernel_page_get_kernel_dropdown (WsKernelPage *self)
{
  g_return_val_if_fail (WS_IS_KERNEL_PAGE (self), NULL);
  return self->kernel_dropdown;
}

GtkLabel *
ws_kernel_page_get_message (WsKernelPage *self)
{
  g_return_val_if_fail (WS_IS_KERNEL_PAGE (self), NULL);
  return self->empty_label;
}

guint
ws_kernel_page_get_site (WsKernelPage *self)
{
  g_return_val_if_fail (WS_IS_KERNEL_PAGE (self), 0);
  return self->site;
}

void
ws_kernel_page_set_site (WsKernelPage *self,
                         guint         i)
{
  g_return_if_fail (WS_IS_KERNEL_PAGE (self));

  self->site = i;
  show_warp (self);
}

gboolean
ws_kernel_page_is_settled (WsKernelPage *self)
{
  g_return_val_if_fail (WS_IS_KERNEL_PAGE (self), FALSE);

  return !ws_kernel_modeller_get_busy (self->modeller) && !ws_kernel_editor_get_checking (self->editor);
}

/* ------------------------------------------------------------------ */
/* The listing                                                        */
/* ------------------------------------------------------------------ */

gboolean
ws_kernel_page_can_export (WsKernelPage *self,
                           GError      **error)
{
  g_return_val_if_fail (WS_IS_KERNEL_PAGE (self), FALSE);

  if (ws_kernel_modeller_get_instance (self->modeller) && ws_kernel_modeller_get_prediction (self->modeller))
    return TRUE;
  g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                       ws_kernel_modeller_get_error (self->modeller)
                         ? _("the kernel does not model, so it has no listing to export")
                         : _("the kernel's listing is still being modelled"));
  return FALSE;
}

gpointer
ws_kernel_page_listing_new (WsKernelPage *self)
{
  g_return_val_if_fail (WS_IS_KERNEL_PAGE (self), NULL);

  if (!ws_kernel_page_can_export (self, NULL))
    return NULL;
  return ws_plot_listing_new (ws_kernel_modeller_get_instance (self->modeller),
                              ws_kernel_modeller_get_prediction (self->modeller), self->measurement, NULL);
}

void
ws_kernel_page_listing_free (gpointer listing)
{
  ws_plot_listing_free (listing);
}

void
ws_kernel_page_listing_draw (cairo_t             *cr,
                             const WsFigureStyle *style,
                             double               width,
                             double               height,
                             gpointer             listing)
{
  ws_listing_figure_draw (cr, style, width, height, (gpointer) ws_plot_listing_figure (listing));
}

double
ws_kernel_page_listing_height (gpointer             listing,
                               const WsFigureStyle *style,
                               double               width)
{
  return ws_listing_figure_natural_height (ws_plot_listing_figure (listing), style, width);
}

gboolean
ws_kernel_page_export (WsKernelPage        *self,
                       const char          *path,
                       WsExportFormat       format,
                       double               width,
                       double               height,
                       double               scale,
                       const WsFigureStyle *style,
                       GError             **error)
{
  g_return_val_if_fail (WS_IS_KERNEL_PAGE (self), FALSE);

  if (!ws_kernel_page_can_export (self, error))
    return FALSE;
  return ws_plot_listing_export (path, format, width, height, scale, style,
                                 ws_kernel_modeller_get_instance (self->modeller),
                                 ws_kernel_modeller_get_prediction (self->modeller), self->measurement, error);
}

/* ------------------------------------------------------------------ */
/* GObject                                                            */
/* ------------------------------------------------------------------ */

static void
ws_kernel_page_dispose (GObject *object)
{
  WsKernelPage *self = WS_KERNEL_PAGE (object);

  g_cancellable_cancel (self->measure_cancellable);
  g_clear_object (&self->measure_cancellable);
  if (self->modeller)
    g_signal_handlers_disconnect_by_data (self->modeller, self);
  g_clear_object (&self->modeller);
  g_clear_object (&self->player);
  if (self->session)
    g_signal_handlers_disconnect_by_data (self->session, self);
  g_clear_object (&self->session);
  g_clear_pointer (&self->paned, gtk_widget_unparent);
  G_OBJECT_CLASS (ws_kernel_page_parent_class)->dispose (object);
}

static void
ws_kernel_page_finalize (GObject *object)
{
  WsKernelPage *self = WS_KERNEL_PAGE (object);

  g_free (self->caption_text);
  g_free (self->measured_hash);
  g_free (self->kernel_choice);
  g_clear_pointer (&self->measurement, ws_measurement_free);
  G_OBJECT_CLASS (ws_kernel_page_parent_class)->finalize (object);
}

static void
ws_kernel_page_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  WsKernelPage *self = WS_KERNEL_PAGE (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      g_value_set_object (value, self->session);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ws_kernel_page_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  WsKernelPage *self = WS_KERNEL_PAGE (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      ws_kernel_page_set_session (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ws_kernel_page_class_init (WsKernelPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ws_kernel_page_dispose;
  object_class->finalize = ws_kernel_page_finalize;
  object_class->get_property = ws_kernel_page_get_property;
  object_class->set_property = ws_kernel_page_set_property;

  properties[PROP_SESSION] = g_param_spec_object ("session", NULL, NULL, WS_TYPE_SESSION,
                                                  G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY |
                                                    G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (WS_TYPE_KERNEL_EDITOR);
  g_type_ensure (WS_TYPE_PLAYER_CONTROLS);
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/warpscope/Warpscope/ws-kernel-page.ui");
  gtk_widget_class_bind_template_child (widget_class, WsKernelPage, paned);
  gtk_widget_class_bind_template_child (widget_class, WsKernelPage, editor);
  gtk_widget_class_bind_template_child (widget_class, WsKernelPage, line_label);
  gtk_widget_class_bind_template_child (widget_class, WsKernelPage, site_box);
  gtk_widget_class_bind_template_child (widget_class, WsKernelPage, site_label);
  gtk_widget_class_bind_template_child (widget_class, WsKernelPage, prev_site);
  gtk_widget_class_bind_template_child (widget_class, WsKernelPage, next_site);
  gtk_widget_class_bind_template_child (widget_class, WsKernelPage, warp_spin);
  gtk_widget_class_bind_template_child (widget_class, WsKernelPage, kernel_box);
  gtk_widget_class_bind_template_child (widget_class, WsKernelPage, kernel_dropdown);
  gtk_widget_class_bind_template_child (widget_class, WsKernelPage, kernel_names);
  gtk_widget_class_bind_template_child (widget_class, WsKernelPage, execution_spin);
  gtk_widget_class_bind_template_child (widget_class, WsKernelPage, view_stack);
  gtk_widget_class_bind_template_child (widget_class, WsKernelPage, caption);
  gtk_widget_class_bind_template_child (widget_class, WsKernelPage, measure_button);
  gtk_widget_class_bind_template_child (widget_class, WsKernelPage, status);
  gtk_widget_class_bind_template_child (widget_class, WsKernelPage, player_controls);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
ws_kernel_page_init (WsKernelPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->empty_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_wrap (self->empty_label, TRUE);
  gtk_label_set_justify (self->empty_label, GTK_JUSTIFY_CENTER);
  gtk_widget_add_css_class (GTK_WIDGET (self->empty_label), "dim-label");
  g_signal_connect (self->empty_label, "activate-link", G_CALLBACK (on_empty_link), self);
  gtk_widget_set_margin_start (GTK_WIDGET (self->empty_label), 24);
  gtk_widget_set_margin_end (GTK_WIDGET (self->empty_label), 24);
  self->empty = GTK_WIDGET (self->empty_label);
  gtk_stack_add_named (self->view_stack, self->empty, "none");
  for (guint k = 0; k < WS_N_FIGURES; k++)
    {
      self->views[k] = WS_FIGURE_VIEW (ws_figure_view_new (k));
      gtk_stack_add_titled (self->view_stack, GTK_WIDGET (self->views[k]), ws_figure_kind_to_string (k),
                            ws_figure_kind_title (k));
      gtk_stack_page_set_visible (gtk_stack_get_page (self->view_stack, GTK_WIDGET (self->views[k])), FALSE);
    }
  self->player = ws_schedule_player_new ();
  /* a still until one plays it */
  ws_schedule_player_set_playing (self->player, FALSE);
  for (guint k = 0; k < WS_N_FIGURES; k++)
    g_object_bind_property (self->player, "position", self->views[k], "position", G_BINDING_SYNC_CREATE);
  ws_schedule_player_attach (self->player, GTK_WIDGET (self->view_stack));
  ws_player_controls_set_player (self->player_controls, self->player);

  self->modeller = ws_kernel_modeller_new ();
  g_signal_connect_swapped (self->modeller, "warp-ready", G_CALLBACK (on_warp_ready), self);
  g_signal_connect_swapped (self->modeller, "prediction-ready", G_CALLBACK (on_prediction_ready), self);
  g_signal_connect_swapped (self->modeller, "failed", G_CALLBACK (on_failed), self);
  ws_kernel_modeller_set_line (self->modeller, ws_kernel_editor_get_cursor_line (self->editor));

  g_signal_connect_object (self->editor, "changed", G_CALLBACK (on_text_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->editor, "checked", G_CALLBACK (on_checked), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->editor, "notify::cursor-line", G_CALLBACK (on_cursor_line), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->editor, "line-activated", G_CALLBACK (on_line_activated), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect (self->prev_site, "clicked", G_CALLBACK (on_site_clicked), self);
  g_signal_connect (self->next_site, "clicked", G_CALLBACK (on_site_clicked), self);
  g_signal_connect_swapped (self->warp_spin, "value-changed", G_CALLBACK (on_warp_chosen), self);
  g_signal_connect_swapped (self->kernel_dropdown, "notify::selected", G_CALLBACK (on_kernel_picked), self);
  g_signal_connect_swapped (self->execution_spin, "value-changed", G_CALLBACK (on_warp_chosen), self);
  g_signal_connect_swapped (self->measure_button, "clicked", G_CALLBACK (ws_kernel_page_measure), self);

  show_empty (self, _("Open a kernel (Ctrl+O), or start one from the main menu."));
  update_site_controls (self);
  update_measure_button (self);
}
