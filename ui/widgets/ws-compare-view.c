/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <glib/gi18n.h>
#include "ws-compare-view.h"
#include "ws-player-controls.h"
#include "ws-view-style.h"

#include <math.h>
#include <string.h>

#include "ws-comparison.h"
#include "ws-listing-figure.h"
#include "ws-presets.h"

typedef struct
{
  GtkWidget *column;
  GtkDropDown *chooser;
  GtkWidget *kernel_label;     /* in the chooser's place for a kernel of one's own */
  char *kernel;                /* its spec, "FILE.cu[:KERNEL][@LINE]", or NULL */
  GtkWidget *listing_button;   /* a kernel's: its listing in place of the view */
  GtkWidget *listing_scroll;
  GtkWidget *listing_area;
  const WsListingFigure *listing;
  gpointer listing_owner;
  GDestroyNotify listing_free;
  GtkWidget *remove;
  WsFigureView *view;
  GBinding *binding;
  guint n_steps;
} Slot;

struct _WsCompareView
{
  GtkWidget parent_instance;

  GtkWidget *box;
  GtkMenuButton *sets_button;
  GtkWidget *add_button;
  WsPlayerControls *player_controls;
  GtkPaned *paned;
  GtkGrid *columns;
  WsChartView *chart;

  WsSchedulePlayer *player;
  Slot slots[WS_COMPARE_VIEW_MAX];
  guint n_items;
  gboolean updating;           /* choosers set from code: no signal each */
  guint n_columns;             /* the views side by side, or in two rows when narrow */
  GtkWidget *toolbar;
  gboolean allocating;
  int paned_set;               /* the divider's position we set */
  gboolean paned_moved;        /* by hand: it stays */
  int cell_width;              /* what each view was last allocated across */
  guint heights_idle;          /* the views' least heights, set after the allocation that changes them */
};

/* A view needs at least this much width to show its 32 lanes legibly. */
#define MIN_VIEW_WIDTH 260
/* and a listing its source and bars (ws-listing-figure.c) */
#define LISTING_MIN_WIDTH 480

enum
{
  ITEMS_CHANGED,
  KERNEL_REFUSED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (WsCompareView, ws_compare_view, GTK_TYPE_WIDGET)

/* ------------------------------------------------------------------ */
/* Presets in the choosers: "Topic: title", in the sidebar's order    */
/* ------------------------------------------------------------------ */

static GListModel *
preset_names (void)
{
  guint n;
  const WsPreset *presets = ws_presets_get_all (&n);
  GtkStringList *list = gtk_string_list_new (NULL);

  for (guint i = 0; i < n; i++)
    {
      const WsTopic *topic = ws_topic_lookup (presets[i].topic);
      /* Translators: a topic and one of its presets, "Shared-memory banks: Stride sweep" */
      g_autofree char *name = g_strdup_printf (_("%s: %s"), topic ? _(topic->title) : presets[i].topic,
                                               _(presets[i].title));
      gtk_string_list_append (list, name);
    }
  return G_LIST_MODEL (list);
}

static guint
preset_index (const char *id)
{
  guint n;
  const WsPreset *presets = ws_presets_get_all (&n);

  for (guint i = 0; i < n; i++)
    if (g_str_equal (presets[i].id, id))
      return i;
  return GTK_INVALID_LIST_POSITION;
}

static const char *
slot_id (WsCompareView *self,
         guint          i)
{
  guint n, k = gtk_drop_down_get_selected (self->slots[i].chooser);
  const WsPreset *presets = ws_presets_get_all (&n);

  if (self->slots[i].kernel)
    return self->slots[i].kernel;
  return k < n ? presets[k].id : presets[0].id;
}

/* "transpose.cu: transposeNaive", for the label in a kernel's slot. */
static char *
kernel_label (const char *spec)
{
  const char *end = strstr (spec, ".cu:") ? strstr (spec, ".cu:") + 3 : NULL;
  g_autofree char *path = end ? g_strndup (spec, end - spec) : g_strdup (spec);
  g_autofree char *base = NULL;
  g_autofree char *name = end ? g_strndup (end + 1, strcspn (end + 1, "@")) : NULL;
  char *at = strrchr (path, '@');

  /* the line is the caption's to say */
  if (end == NULL && at && strstr (path, ".cu@"))
    *at = '\0';
  base = g_path_get_basename (path);
  /* Translators: a kernel file and the kernel of it compared: "transpose.cu: transposeNaive" */
  return name ? g_strdup_printf (_("%s: %s"), base, name) : g_steal_pointer (&base);
}

/* ------------------------------------------------------------------ */

/* The widest of the views' least widths: one row if each gets that. */
static double
widest_view (WsCompareView *self)
{
  double widest = MIN_VIEW_WIDTH;

  for (guint i = 0; i < self->n_items; i++)
    if (self->slots[i].view)
      widest = MAX (widest, ws_figure_view_min_width (self->slots[i].view));
  return widest;
}

static guint
columns_for (WsCompareView *self,
             int            width)
{
  guint n = MAX (1, self->n_items);

  /* side by side where each view is legible: in one row they keep the
   * height two rows would take from the chart (a projector's 720 rows) */
  return n <= 2 || width / (double) n >= widest_view (self) ? n : (n + 1) / 2;
}

/* Puts the views in the grid: side by side, or in two rows. */
static void
place_slots (WsCompareView *self)
{
  GtkLayoutManager *layout = gtk_widget_get_layout_manager (GTK_WIDGET (self->columns));

  for (guint i = 0; i < WS_COMPARE_VIEW_MAX; i++)
    {
      GtkGridLayoutChild *child = GTK_GRID_LAYOUT_CHILD (gtk_layout_manager_get_layout_child (layout,
                                                                                            self->slots[i].column));
      guint cols = MAX (1, self->n_columns);
      gtk_grid_layout_child_set_column (child, i % cols);
      gtk_grid_layout_child_set_row (child, i / cols);
    }
}

/* Each view asks for the height its figure needs at the width it has: a
 * short window scrolls them rather than draw them too small. */
static gboolean
set_view_heights (gpointer data)
{
  WsCompareView *self = data;

  self->heights_idle = 0;
  for (guint i = 0; i < WS_COMPARE_VIEW_MAX; i++)
    if (self->slots[i].view)
      {
        int h = (int) ceil (ws_figure_view_min_height (self->slots[i].view, self->cell_width));
        gtk_widget_set_size_request (GTK_WIDGET (self->slots[i].view), 160, MAX (160, h));
      }
  return G_SOURCE_REMOVE;
}

static void
queue_view_heights (WsCompareView *self)
{
  if (self->heights_idle == 0)
    self->heights_idle = g_idle_add (set_view_heights, self);
}

static void
ws_compare_view_size_allocate (GtkWidget *widget,
                               int        width,
                               int        height,
                               int        baseline)
{
  WsCompareView *self = WS_COMPARE_VIEW (widget);
  guint cols = columns_for (self, width);
  int cell_width = width / (int) MAX (1, cols);

  self->allocating = TRUE;
  if (cell_width != self->cell_width)
    {
      self->cell_width = cell_width;
      queue_view_heights (self);
    }
  /* the views move before the box is allocated, so this frame shows them in place */
  if (cols != self->n_columns)
    {
      self->n_columns = cols;
      place_slots (self);
    }
  /* the views take the larger share of the height, two rows of them more */
  if (!self->paned_moved)
    {
      const WsChart *chart = ws_chart_view_get_chart (self->chart);
      int toolbar_h, chart_h = 0;

      gtk_widget_measure (self->toolbar, GTK_ORIENTATION_VERTICAL, width, &toolbar_h, NULL, NULL, NULL);
      /* but never so much that the chart is too small to draw: the views scroll */
      if (chart)
        chart_h = (int) ceil (ws_chart_min_height (chart, ws_figure_style_get (WS_FIGURE_STYLE_LIGHT), width)) + 8;
      self->paned_set = MIN ((height - toolbar_h) * (cols < self->n_items ? 0.66 : 0.56), height - toolbar_h - chart_h);
      self->paned_set = MAX (self->paned_set, 160);
      if (gtk_paned_get_position (self->paned) != self->paned_set)
        gtk_paned_set_position (self->paned, self->paned_set);
    }
  gtk_widget_allocate (self->box, width, height, baseline, NULL);
  self->allocating = FALSE;
}

static void
ws_compare_view_measure (GtkWidget      *widget,
                         GtkOrientation  orientation,
                         int             for_size,
                         int            *minimum,
                         int            *natural,
                         int            *minimum_baseline,
                         int            *natural_baseline)
{
  gtk_widget_measure (WS_COMPARE_VIEW (widget)->box, orientation, for_size, minimum, natural, minimum_baseline,
                      natural_baseline);
}

static void
update_slots (WsCompareView *self)
{
  guint cols = columns_for (self, gtk_widget_get_width (GTK_WIDGET (self)));

  if (cols != self->n_columns)
    {
      self->n_columns = cols;
      place_slots (self);
    }
  for (guint i = 0; i < WS_COMPARE_VIEW_MAX; i++)
    {
      gtk_widget_set_visible (self->slots[i].column, i < self->n_items);
      gtk_widget_set_sensitive (self->slots[i].remove, self->n_items > WS_COMPARE_VIEW_MIN);
    }
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "compare.add", self->n_items < WS_COMPARE_VIEW_MAX);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "compare.add-kernel", self->n_items < WS_COMPARE_VIEW_MAX);
}

static void
items_changed (WsCompareView *self)
{
  update_slots (self);
  g_signal_emit (self, signals[ITEMS_CHANGED], 0);
}

static void
on_chooser_selected (WsCompareView *self)
{
  g_assert (WS_IS_COMPARE_VIEW (self));

  if (!self->updating)
    items_changed (self);
}

static void
slot_clear_listing (Slot *slot)
{
  if (slot->listing_free && slot->listing_owner)
    slot->listing_free (slot->listing_owner);
  slot->listing = NULL;
  slot->listing_owner = NULL;
  slot->listing_free = NULL;
  gtk_widget_set_sensitive (slot->listing_button, FALSE);
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (slot->listing_button), FALSE);
}

static void
set_slot_id (WsCompareView *self,
             guint          i,
             const char    *id)
{
  Slot *slot = &self->slots[i];
  gboolean kernel = ws_compare_spec_is_kernel (id);
  guint k = kernel ? GTK_INVALID_LIST_POSITION : preset_index (id);

  if (g_strcmp0 (slot->kernel, kernel ? id : NULL) != 0)
    slot_clear_listing (slot);
  g_free (slot->kernel);
  slot->kernel = kernel ? g_strdup (id) : NULL;
  if (kernel)
    {
      g_autofree char *label = kernel_label (id);

      gtk_label_set_text (GTK_LABEL (slot->kernel_label), label);
      gtk_widget_set_tooltip_text (slot->kernel_label, id);
    }
  gtk_widget_set_visible (slot->kernel_label, kernel);
  gtk_widget_set_visible (slot->listing_button, kernel);
  gtk_widget_set_visible (GTK_WIDGET (slot->chooser), !kernel);
  self->updating = TRUE;
  if (!kernel)
    gtk_drop_down_set_selected (slot->chooser, k == GTK_INVALID_LIST_POSITION ? 0 : k);
  self->updating = FALSE;
}

void
ws_compare_view_set_ids (WsCompareView      *self,
                         const char * const *ids)
{
  guint n = ids ? g_strv_length ((char **) ids) : 0;

  g_return_if_fail (WS_IS_COMPARE_VIEW (self));
  g_return_if_fail (n >= WS_COMPARE_VIEW_MIN && n <= WS_COMPARE_VIEW_MAX);

  for (guint i = 0; i < n; i++)
    set_slot_id (self, i, ids[i]);
  self->n_items = n;
  items_changed (self);
}

gboolean
ws_compare_view_add_id (WsCompareView *self,
                        const char    *id)
{
  g_return_val_if_fail (WS_IS_COMPARE_VIEW (self), FALSE);
  g_return_val_if_fail (id != NULL, FALSE);

  if (self->n_items >= WS_COMPARE_VIEW_MAX)
    return FALSE;
  set_slot_id (self, self->n_items, id);
  self->n_items++;
  items_changed (self);
  return TRUE;
}

char **
ws_compare_view_get_ids (WsCompareView *self)
{
  GStrvBuilder *b = g_strv_builder_new ();
  char **ids;

  g_return_val_if_fail (WS_IS_COMPARE_VIEW (self), NULL);
  for (guint i = 0; i < self->n_items; i++)
    g_strv_builder_add (b, slot_id (self, i));
  ids = g_strv_builder_end (b);
  g_strv_builder_unref (b);
  return ids;
}

guint
ws_compare_view_get_n_items (WsCompareView *self)
{
  g_return_val_if_fail (WS_IS_COMPARE_VIEW (self), 0);
  return self->n_items;
}

/* ------------------------------------------------------------------ */
/* Adding and removing                                                */
/* ------------------------------------------------------------------ */

/* The next preset of the last one's topic not shown yet, else the next one. */
static const char *
next_preset (WsCompareView *self)
{
  guint n, last = preset_index (slot_id (self, self->n_items - 1));
  const WsPreset *presets = ws_presets_get_all (&n);

  /* after a kernel of one's own, the first preset not shown */
  if (last == GTK_INVALID_LIST_POSITION)
    last = n - 1;

  for (guint k = 1; k < n; k++)
    {
      const WsPreset *p = &presets[(last + k) % n];
      gboolean shown = FALSE;

      for (guint i = 0; i < self->n_items; i++)
        shown |= g_str_equal (slot_id (self, i), p->id);
      if (!shown && g_str_equal (p->topic, presets[last].topic))
        return p->id;
    }
  return presets[(last + 1) % n].id;
}

static void
add_action (GtkWidget  *widget,
            const char *name,
            GVariant   *param)
{
  WsCompareView *self = WS_COMPARE_VIEW (widget);

  if (self->n_items >= WS_COMPARE_VIEW_MAX)
    return;
  set_slot_id (self, self->n_items, next_preset (self));
  self->n_items++;
  items_changed (self);
}

static void
on_kernel_chosen (GtkNativeDialog *dialog,
                  int              response,
                  gpointer         data)
{
  g_autoptr (WsCompareView) self = data;
  g_autoptr (GFile) file = NULL;
  g_autofree char *path = NULL;

  if (response == GTK_RESPONSE_ACCEPT && (file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog))) &&
      (path = g_file_get_path (file)))
    {
      /* a file whose name does not say .cu is still a kernel the user chose */
      g_autofree char *spec = ws_compare_spec_is_kernel (path) ? g_strdup (path) : NULL;

      if (spec)
        ws_compare_view_add_id (self, spec);
      else
        g_signal_emit (self, signals[KERNEL_REFUSED], 0, path);
    }
  g_object_unref (dialog);
}

static void
add_kernel_action (GtkWidget  *widget,
                   const char *name,
                   GVariant   *param)
{
  WsCompareView *self = WS_COMPARE_VIEW (widget);
  GtkRoot *root = gtk_widget_get_root (widget);
  GtkFileChooserNative *dialog;
  g_autoptr (GtkFileFilter) filter = gtk_file_filter_new ();

  if (self->n_items >= WS_COMPARE_VIEW_MAX)
    return;
  dialog = gtk_file_chooser_native_new (_("Add a Kernel to the Comparison"), GTK_IS_WINDOW (root) ? GTK_WINDOW (root)
                                                                                              : NULL,
                                        GTK_FILE_CHOOSER_ACTION_OPEN, _("_Add"), _("_Cancel"));
  gtk_file_filter_set_name (filter, _("CUDA kernels"));
  gtk_file_filter_add_pattern (filter, "*.cu");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), filter);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  g_signal_connect (dialog, "response", G_CALLBACK (on_kernel_chosen), g_object_ref (self));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static void
remove_action (GtkWidget  *widget,
               const char *name,
               GVariant   *param)
{
  WsCompareView *self = WS_COMPARE_VIEW (widget);
  guint at = g_variant_get_uint32 (param);

  if (self->n_items <= WS_COMPARE_VIEW_MIN || at >= self->n_items)
    return;
  for (guint i = at; i + 1 < self->n_items; i++)
    set_slot_id (self, i, slot_id (self, i + 1));
  self->n_items--;
  items_changed (self);
}

/* ------------------------------------------------------------------ */
/* The views                                                          */
/* ------------------------------------------------------------------ */

static void
update_n_steps (WsCompareView *self)
{
  guint most = 0;

  for (guint i = 0; i < self->n_items; i++)
    most = MAX (most, self->slots[i].n_steps);
  ws_schedule_player_set_n_steps (self->player, most);
}

/* A view of the kind the result needs, in place of the slot's old one. */
static void
ensure_view (WsCompareView *self,
             Slot          *slot,
             WsFigureKind   kind)
{
  if (slot->view && ws_figure_view_get_kind (slot->view) == kind)
    return;
  if (slot->view)
    {
      g_clear_pointer (&slot->binding, g_binding_unbind);
      gtk_box_remove (GTK_BOX (slot->column), GTK_WIDGET (slot->view));
    }
  slot->view = WS_FIGURE_VIEW (ws_figure_view_new (kind));
  gtk_widget_set_vexpand (GTK_WIDGET (slot->view), TRUE);
  gtk_widget_set_size_request (GTK_WIDGET (slot->view), 160, 160);
  gtk_widget_set_visible (GTK_WIDGET (slot->view),
                          !gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (slot->listing_button)));
  gtk_box_append (GTK_BOX (slot->column), GTK_WIDGET (slot->view));
  slot->binding = g_object_bind_property (self->player, "position", slot->view, "position", G_BINDING_SYNC_CREATE);
}

void
ws_compare_view_set_cell (WsCompareView      *self,
                          guint               i,
                          const WsWarpResult *result,
                          const char         *title,
                          WsDim3              block_dim)
{
  WsFigureKind kinds[WS_N_FIGURES];
  Slot *slot;

  g_return_if_fail (WS_IS_COMPARE_VIEW (self));
  g_return_if_fail (i < WS_COMPARE_VIEW_MAX);

  slot = &self->slots[i];
  if (result && ws_figure_kinds_for (result, kinds) > 0)
    ensure_view (self, slot, kinds[0]);
  if (slot->view)
    ws_figure_view_set_result (slot->view, result, title, block_dim);
  queue_view_heights (self);
  slot->n_steps = result ? result->steps->len : 0;
  update_n_steps (self);
}

/* The listing in place of the view while the slot's Listing button is down. */
static void
on_listing_toggled (GtkToggleButton *button,
                    Slot            *slot)
{
  gboolean listing = gtk_toggle_button_get_active (button);

  gtk_widget_set_visible (slot->listing_scroll, listing);
  if (slot->view)
    gtk_widget_set_visible (GTK_WIDGET (slot->view), !listing);
}

static void
draw_listing (GtkDrawingArea *area,
              cairo_t        *cr,
              int             width,
              int             height,
              gpointer        data)
{
  Slot *slot = data;

  if (slot->listing)
    ws_listing_figure_draw (cr, ws_view_style_get (), width, height, (gpointer) slot->listing);
}

/* As tall as the listing is at the width it has: the scroller scrolls it. */
static void
on_listing_resize (GtkDrawingArea *area,
                   int             width,
                   int             height,
                   gpointer        data)
{
  Slot *slot = data;
  int natural;

  if (slot->listing == NULL || width <= 0)
    return;
  natural = (int) ceil (ws_listing_figure_natural_height (slot->listing, ws_view_style_get (), width));
  if (natural != gtk_drawing_area_get_content_height (area))
    gtk_drawing_area_set_content_height (area, natural);
}

void
ws_compare_view_set_listing (WsCompareView         *self,
                             guint                  i,
                             const WsListingFigure *figure,
                             gpointer               owner,
                             GDestroyNotify         owner_free)
{
  Slot *slot;

  g_return_if_fail (WS_IS_COMPARE_VIEW (self));
  g_return_if_fail (i < WS_COMPARE_VIEW_MAX);

  slot = &self->slots[i];
  if (slot->listing_free && slot->listing_owner)
    slot->listing_free (slot->listing_owner);
  slot->listing = figure;
  slot->listing_owner = owner;
  slot->listing_free = owner_free;
  gtk_widget_set_sensitive (slot->listing_button, figure != NULL);
  if (figure == NULL)
    gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (slot->listing_button), FALSE);
  on_listing_resize (GTK_DRAWING_AREA (slot->listing_area), gtk_widget_get_width (slot->listing_area), 0, slot);
  gtk_widget_queue_draw (slot->listing_area);
}

gboolean
ws_compare_view_get_listing_shown (WsCompareView *self,
                                   guint          i)
{
  g_return_val_if_fail (WS_IS_COMPARE_VIEW (self), FALSE);
  g_return_val_if_fail (i < WS_COMPARE_VIEW_MAX, FALSE);
  return self->slots[i].listing != NULL && gtk_widget_get_visible (self->slots[i].listing_scroll);
}

void
ws_compare_view_show_listing (WsCompareView *self,
                              guint          i,
                              gboolean       show)
{
  g_return_if_fail (WS_IS_COMPARE_VIEW (self));
  g_return_if_fail (i < WS_COMPARE_VIEW_MAX);
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->slots[i].listing_button),
                                show && self->slots[i].listing != NULL);
}

WsFigureView *
ws_compare_view_get_figure (WsCompareView *self,
                            guint          i)
{
  g_return_val_if_fail (WS_IS_COMPARE_VIEW (self), NULL);
  g_return_val_if_fail (i < WS_COMPARE_VIEW_MAX, NULL);
  return self->slots[i].view;
}

WsChartView *
ws_compare_view_get_chart (WsCompareView *self)
{
  g_return_val_if_fail (WS_IS_COMPARE_VIEW (self), NULL);
  return self->chart;
}

WsSchedulePlayer *
ws_compare_view_get_player (WsCompareView *self)
{
  g_return_val_if_fail (WS_IS_COMPARE_VIEW (self), NULL);
  return self->player;
}

void
ws_compare_view_set_sets_menu (WsCompareView *self,
                               GMenuModel    *menu)
{
  g_return_if_fail (WS_IS_COMPARE_VIEW (self));
  gtk_menu_button_set_menu_model (self->sets_button, menu);
}

/* ------------------------------------------------------------------ */

static void
setup_label (GtkSignalListItemFactory *factory,
             GtkListItem              *item,
             gpointer                  ellipsize)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  if (ellipsize)
    gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_list_item_set_child (item, label);
}

static void
bind_label (GtkSignalListItemFactory *factory,
            GtkListItem              *item,
            gpointer                  data)
{
  GtkStringObject *s = gtk_list_item_get_item (item);

  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (item)), gtk_string_object_get_string (s));
}

static GtkListItemFactory *
label_factory (gboolean ellipsize)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();

  g_signal_connect (factory, "setup", G_CALLBACK (setup_label), GINT_TO_POINTER (ellipsize));
  g_signal_connect (factory, "bind", G_CALLBACK (bind_label), NULL);
  return factory;
}

static void
build_slot (WsCompareView *self,
            guint          i,
            GListModel    *names)
{
  Slot *slot = &self->slots[i];
  GtkWidget *header = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);
  g_autofree char *tooltip = g_strdup_printf (_("Pattern %u"), i + 1);

  slot->column = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_widget_add_css_class (slot->column, "ws-compare-column");
  slot->chooser = GTK_DROP_DOWN (gtk_drop_down_new (g_object_ref (names), gtk_property_expression_new (
                                                      GTK_TYPE_STRING_OBJECT, NULL, "string")));
  gtk_drop_down_set_enable_search (slot->chooser, TRUE);
  /* the button ellipsizes a long title; the list shows it whole */
  gtk_drop_down_set_factory (slot->chooser, label_factory (TRUE));
  gtk_drop_down_set_list_factory (slot->chooser, label_factory (FALSE));
  gtk_widget_set_hexpand (GTK_WIDGET (slot->chooser), TRUE);
  gtk_widget_set_tooltip_text (GTK_WIDGET (slot->chooser), tooltip);
  g_signal_connect_object (slot->chooser, "notify::selected", G_CALLBACK (on_chooser_selected), self,
                           G_CONNECT_SWAPPED);
  slot->remove = gtk_button_new_from_icon_name ("window-close-symbolic");
  gtk_widget_add_css_class (slot->remove, "flat");
  gtk_widget_set_tooltip_text (slot->remove, _("Remove This Pattern"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (slot->remove), "compare.remove");
  gtk_actionable_set_action_target_value (GTK_ACTIONABLE (slot->remove), g_variant_new_uint32 (i));
  slot->kernel_label = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (slot->kernel_label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (slot->kernel_label), PANGO_ELLIPSIZE_MIDDLE);
  gtk_widget_set_hexpand (slot->kernel_label, TRUE);
  gtk_widget_add_css_class (slot->kernel_label, "heading");
  gtk_widget_set_visible (slot->kernel_label, FALSE);
  slot->listing_button = gtk_toggle_button_new ();
  gtk_button_set_icon_name (GTK_BUTTON (slot->listing_button), "view-list-symbolic");
  gtk_widget_add_css_class (slot->listing_button, "flat");
  gtk_widget_set_tooltip_text (slot->listing_button, _("The Kernel's Listing, Line by Line"));
  gtk_widget_set_visible (slot->listing_button, FALSE);
  gtk_widget_set_sensitive (slot->listing_button, FALSE);
  g_signal_connect (slot->listing_button, "toggled", G_CALLBACK (on_listing_toggled), slot);
  gtk_box_append (GTK_BOX (header), GTK_WIDGET (slot->chooser));
  gtk_box_append (GTK_BOX (header), slot->kernel_label);
  gtk_box_append (GTK_BOX (header), slot->listing_button);
  gtk_box_append (GTK_BOX (header), slot->remove);
  gtk_widget_add_css_class (header, "ws-compare-header");
  gtk_box_append (GTK_BOX (slot->column), header);
  slot->listing_area = gtk_drawing_area_new ();
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (slot->listing_area), draw_listing, slot, NULL);
  g_signal_connect (slot->listing_area, "resize", G_CALLBACK (on_listing_resize), slot);
  slot->listing_scroll = gtk_scrolled_window_new ();
  /* a narrow column scrolls the listing across rather than fold it away */
  gtk_drawing_area_set_content_width (GTK_DRAWING_AREA (slot->listing_area), LISTING_MIN_WIDTH);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (slot->listing_scroll), GTK_POLICY_AUTOMATIC,
                                  GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (slot->listing_scroll), slot->listing_area);
  gtk_widget_set_vexpand (slot->listing_scroll, TRUE);
  gtk_widget_set_size_request (slot->listing_scroll, 160, 160);
  gtk_widget_set_visible (slot->listing_scroll, FALSE);
  gtk_box_append (GTK_BOX (slot->column), slot->listing_scroll);
  gtk_grid_attach (self->columns, slot->column, i, 0, 1, 1);
}

/* A move of the divider that we did not make is the user's, and holds. */
static void
on_paned_moved (WsCompareView *self)
{
  g_assert (WS_IS_COMPARE_VIEW (self));

  if (!self->allocating && gtk_paned_get_position (self->paned) != self->paned_set)
    self->paned_moved = TRUE;
}

static void
ws_compare_view_dispose (GObject *object)
{
  WsCompareView *self = WS_COMPARE_VIEW (object);

  for (guint i = 0; i < WS_COMPARE_VIEW_MAX; i++)
    {
      g_clear_pointer (&self->slots[i].binding, g_binding_unbind);
      g_clear_pointer (&self->slots[i].kernel, g_free);
      if (self->slots[i].listing_free && self->slots[i].listing_owner)
        self->slots[i].listing_free (self->slots[i].listing_owner);
      self->slots[i].listing_owner = NULL;
      self->slots[i].listing = NULL;
    }
  g_clear_handle_id (&self->heights_idle, g_source_remove);
  gtk_widget_dispose_template (GTK_WIDGET (self), WS_TYPE_COMPARE_VIEW);
  g_clear_object (&self->player);
  G_OBJECT_CLASS (ws_compare_view_parent_class)->dispose (object);
}

static void
ws_compare_view_class_init (WsCompareViewClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = ws_compare_view_dispose;
  /* a layout of its own: the views go in one row or two as the width allows */
  widget_class->size_allocate = ws_compare_view_size_allocate;
  widget_class->measure = ws_compare_view_measure;
  signals[ITEMS_CHANGED] = g_signal_new ("items-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                                         NULL, NULL, G_TYPE_NONE, 0);
  /* a file chosen with Add Kernel File… that names no kernel file */
  signals[KERNEL_REFUSED] = g_signal_new ("kernel-refused", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                                          NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
  g_type_ensure (WS_TYPE_CHART_VIEW);
  g_type_ensure (WS_TYPE_PLAYER_CONTROLS);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/warpscope/Warpscope/ui/ws-compare-view.ui");
  gtk_widget_class_bind_template_child (widget_class, WsCompareView, box);
  gtk_widget_class_bind_template_child (widget_class, WsCompareView, toolbar);
  gtk_widget_class_bind_template_child (widget_class, WsCompareView, sets_button);
  gtk_widget_class_bind_template_child (widget_class, WsCompareView, add_button);
  gtk_widget_class_bind_template_child (widget_class, WsCompareView, player_controls);
  gtk_widget_class_bind_template_child (widget_class, WsCompareView, paned);
  gtk_widget_class_bind_template_child (widget_class, WsCompareView, columns);
  gtk_widget_class_bind_template_child (widget_class, WsCompareView, chart);
  gtk_widget_class_install_action (widget_class, "compare.add", NULL, add_action);
  gtk_widget_class_install_action (widget_class, "compare.add-kernel", NULL, add_kernel_action);
  gtk_widget_class_install_action (widget_class, "compare.remove", "u", remove_action);
  gtk_widget_class_set_css_name (widget_class, "compareview");
}

/* The theme or the text's size changed: the listings draw again. */
static void
queue_listings (WsCompareView *self)
{
  for (guint i = 0; i < WS_COMPARE_VIEW_MAX; i++)
    if (self->slots[i].listing_area)
      {
        on_listing_resize (GTK_DRAWING_AREA (self->slots[i].listing_area),
                           gtk_widget_get_width (self->slots[i].listing_area), 0, &self->slots[i]);
        gtk_widget_queue_draw (self->slots[i].listing_area);
      }
}

static void
ws_compare_view_init (WsCompareView *self)
{
  g_autoptr (GListModel) names = preset_names ();
  const char *ids[] = { "coalescing/sequential", "coalescing/stride", NULL };

  gtk_widget_init_template (GTK_WIDGET (self));
  /* larger text (presenting) needs taller views */
  g_signal_connect_object (ws_view_style_get_default (), "changed", G_CALLBACK (queue_view_heights), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (ws_view_style_get_default (), "changed", G_CALLBACK (queue_listings), self,
                           G_CONNECT_SWAPPED);
  self->player = ws_schedule_player_new ();
  for (guint i = 0; i < WS_COMPARE_VIEW_MAX; i++)
    build_slot (self, i, names);
  ws_schedule_player_attach (self->player, GTK_WIDGET (self->columns));
  ws_player_controls_set_player (self->player_controls, self->player);
  g_signal_connect_object (self->paned, "notify::position", G_CALLBACK (on_paned_moved), self, G_CONNECT_SWAPPED);
  ws_compare_view_set_ids (self, ids);
}

GtkWidget *
ws_compare_view_new (void)
{
  return g_object_new (WS_TYPE_COMPARE_VIEW, NULL);
}
