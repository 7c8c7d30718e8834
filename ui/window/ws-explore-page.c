/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The Explore page: its template, the views and their player, and where
 * the divider between the views and the plot goes. */
#include "ws-config.h"

#include <glib/gi18n.h>
#include "ws-explore-page-private.h"
#include "ws-chart-view.h"
#include "ws-player-controls.h"
#include "ws-figure.h"
#include "ws-hierarchy-figure.h"
#include "ws-view-style.h"


G_DEFINE_FINAL_TYPE (WsExplorePage, ws_explore_page, GTK_TYPE_WIDGET)

enum
{
  PROP_0,
  PROP_SESSION,
  PROP_PRESENTING,
  PROP_AUTO_MEASURE,
  PROP_MEASURING,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];
guint ws_explore_page_signals[WS_EXPLORE_PAGE_N_SIGNALS];

/* ------------------------------------------------------------------ */
/* The views                                                          */
/* ------------------------------------------------------------------ */

static void update_step_label (WsExplorePage      *self,
                               const WsWarpResult *result);

void
ws_explore_page_show_result (WsExplorePage      *self,
                             const WsWarpResult *result,
                             const char         *title,
                             WsDim3              block,
                             const WsTopicView  *topic_view,
                             gboolean            topic_first)
{
  WsFigureKind kinds[WS_N_FIGURES];
  guint n;
  GtkWidget *visible;
  WsLaunchView *topic;
  gboolean keep = FALSE;

  g_return_if_fail (WS_IS_EXPLORE_PAGE (self));
  g_return_if_fail (result != NULL);

  n = ws_figure_kinds_for (result, kinds);
  visible = gtk_stack_get_visible_child (self->view_stack);
  topic = topic_view ? self->launch_views[*topic_view] : NULL;
  for (guint v = 0; v < WS_N_TOPIC_VIEWS; v++)
    gtk_stack_page_set_visible (gtk_stack_get_page (self->view_stack, GTK_WIDGET (self->launch_views[v])),
                                self->launch_views[v] == topic);
  keep |= topic && visible == GTK_WIDGET (topic);

  for (guint k = 0; k < WS_N_FIGURES; k++)
    {
      gboolean applies = ws_figure_applies (k, result->space, result->kind);
      gtk_stack_page_set_visible (gtk_stack_get_page (self->view_stack, GTK_WIDGET (self->views[k])), applies);
      ws_figure_view_set_result (self->views[k], applies ? result : NULL, title, block);
      keep |= applies && visible == GTK_WIDGET (self->views[k]);
    }
  /* the hierarchy is of the whole launch, whatever the instruction */
  keep |= visible == GTK_WIDGET (self->hierarchy_page);
  /* a topic's own view comes first: its lesson is about the whole launch */
  if (topic && topic_first)
    keep = FALSE;
  if (!keep && topic)
    gtk_stack_set_visible_child (self->view_stack, GTK_WIDGET (topic));
  else if (!keep && n > 0)
    gtk_stack_set_visible_child (self->view_stack, GTK_WIDGET (self->views[kinds[0]]));
  ws_schedule_player_set_n_steps (self->player, result->steps->len);
  update_step_label (self, result);
  ws_explore_page_place_divider (self);
}

char *
ws_explore_page_list_views (WsExplorePage *self)
{
  g_autoptr (GtkSelectionModel) pages = NULL;
  GString *s = g_string_new (NULL);

  g_return_val_if_fail (WS_IS_EXPLORE_PAGE (self), NULL);

  pages = gtk_stack_get_pages (self->view_stack);
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (pages)); i++)
    {
      g_autoptr (GObject) item = g_list_model_get_item (G_LIST_MODEL (pages), i);
      GtkStackPage *page = GTK_STACK_PAGE (item);

      if (gtk_stack_page_get_visible (page))
        g_string_append_printf (s, "%s%s", s->len ? ", " : "", gtk_stack_page_get_name (page));
    }
  return g_string_free (s, FALSE);
}

gboolean
ws_explore_page_show_view (WsExplorePage *self,
                           const char    *name)
{
  GtkWidget *child;

  g_return_val_if_fail (WS_IS_EXPLORE_PAGE (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);

  child = gtk_stack_get_child_by_name (self->view_stack, name);
  if (child == NULL || !gtk_stack_page_get_visible (gtk_stack_get_page (self->view_stack, child)))
    return FALSE;
  gtk_stack_set_visible_child (self->view_stack, child);
  return TRUE;
}

/* The figure counts the steps; the label says what one step is (a label
 * that changed every step would lay the window out again, 16 times a second). */
static void
update_step_label (WsExplorePage      *self,
                   const WsWarpResult *result)
{
  const char *text = "";

  if (result->steps->len > 0)
    switch (g_array_index (result->steps, WsStep, 0).kind)
      {
      case WS_STEP_SECTOR:
        text = _("a step moves one 32-byte sector");
        break;
      case WS_STEP_WAVEFRONT:
        text = _("a step is one wavefront through the banks");
        break;
      case WS_STEP_ADDRESS:
        text = _("a step serves one address");
        break;
      case WS_STEP_ATOMIC:
        text = _("a step applies one round of updates");
        break;
      case WS_STEP_REGISTER:
      default:
        text = _("no memory instruction");
        break;
      }
  gtk_label_set_text (self->step_label, text);
}

static void
setup_views (WsExplorePage *self)
{
  GtkStackPage *page;

  /* the whole launch, for the topics whose lesson is about it: the first
   * tabs, shown for those presets only (ws_explore_page_show_result) */
  for (guint v = 0; v < WS_N_TOPIC_VIEWS; v++)
    {
      self->launch_views[v] = WS_LAUNCH_VIEW (ws_launch_view_new (v));
      page = gtk_stack_add_titled (self->view_stack, GTK_WIDGET (self->launch_views[v]), ws_topic_view_to_string (v),
                                   ws_topic_view_title (v));
      gtk_stack_page_set_visible (page, FALSE);
    }
  for (guint k = 0; k < WS_N_FIGURES; k++)
    {
      self->views[k] = WS_FIGURE_VIEW (ws_figure_view_new (k));
      page = gtk_stack_add_titled (self->view_stack, GTK_WIDGET (self->views[k]), ws_figure_kind_to_string (k),
                                   ws_figure_kind_title (k));
      gtk_stack_page_set_visible (page, FALSE);
      g_object_bind_property (self->player, "position", self->views[k], "position", G_BINDING_SYNC_CREATE);
    }
  /* the launch below L1, whatever the instruction */
  self->hierarchy_page = WS_HIERARCHY_PAGE (ws_hierarchy_page_new ());
  page = gtk_stack_add_titled (self->view_stack, GTK_WIDGET (self->hierarchy_page), "hierarchy", _("Hierarchy"));
  gtk_stack_page_set_visible (page, TRUE);
  ws_schedule_player_attach (self->player, GTK_WIDGET (self->view_stack));
  ws_player_controls_set_player (self->player_controls, self->player);
}

/* ------------------------------------------------------------------ */
/* The divider between the views and the plot                         */
/* ------------------------------------------------------------------ */

/* The least height the view in sight is legible at, at its width. */
static double
view_needs (WsExplorePage *self)
{
  GtkWidget *view = gtk_stack_get_visible_child (self->view_stack);
  const WsFigureStyle *style = ws_view_style_get ();
  double width = MAX (1, gtk_widget_get_width (view));

  if (WS_IS_FIGURE_VIEW (view))
    return ws_figure_view_min_height (WS_FIGURE_VIEW (view), width);
  if (WS_IS_LAUNCH_VIEW (view) && ws_launch_view_get_figure (WS_LAUNCH_VIEW (view)))
    return ws_topic_figure_min_height (ws_launch_view_get_figure (WS_LAUNCH_VIEW (view)), style, width);
  if (WS_IS_HIERARCHY_PAGE (view) && ws_hierarchy_view_get_figure (ws_hierarchy_page_get_view (WS_HIERARCHY_PAGE (view))))
    return ws_hierarchy_figure_min_height (ws_hierarchy_view_get_figure (ws_hierarchy_page_get_view (WS_HIERARCHY_PAGE (view))),
                                           style, width);
  return 0;
}

/* The figures' text this much larger while presenting: a projector's 720
 * rows hold the view and the plot at 1.25, 1080 at 1.5. */
static double
presenting_text_scale (WsExplorePage *self)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  int h = root ? gtk_widget_get_height (GTK_WIDGET (root)) : 0;

  return h <= 0 ? 1.25 : CLAMP (1.25 + (h - 720) / 360.0 * 0.25, 1.25, 1.5);
}

/* What a side of the divider holds beside its view or plot (toolbars,
 * margins): from their sizes once allocated, before that (the first
 * placing, as the window maps) from what they ask for. */
static int
around (GtkWidget *side,
        GtkWidget *inner)
{
  int side_min = 0, inner_min = 0;

  if (gtk_widget_get_height (side) > 0)
    return gtk_widget_get_height (side) - gtk_widget_get_height (inner);
  gtk_widget_measure (side, GTK_ORIENTATION_VERTICAL, -1, &side_min, NULL, NULL, NULL);
  gtk_widget_measure (inner, GTK_ORIENTATION_VERTICAL, -1, &inner_min, NULL, NULL, NULL);
  return MAX (0, side_min - inner_min);
}

/* The views get the larger share of the height, whatever the window's
 * size, until the divider is moved by hand; and on a short screen (a
 * projector's 720 rows) as much as the view in sight needs to be legible,
 * and the plot below as much as it needs, where both fit. */
void
ws_explore_page_place_divider (WsExplorePage *self)
{
  GtkPaned *paned;
  int max = 0, total, start_bar, end_bar;
  double want, chart_need = 0;
  const WsChart *chart;
  WsChartView *chart_view;

  g_return_if_fail (WS_IS_EXPLORE_PAGE (self));

  paned = self->view_paned;
  chart_view = ws_plot_panel_get_chart_view (self->plot_panel);
  /* the text first, since what the views need depends on it */
  if (self->presenting)
    ws_view_style_set_text_scale (presenting_text_scale (self));
  if (self->paned_by_hand || !gtk_widget_get_realized (GTK_WIDGET (paned)))
    return;
  g_object_get (paned, "max-position", &max, NULL);
  total = gtk_widget_get_height (GTK_WIDGET (paned));
  /* what each side holds beside the view and the plot: toolbars, margins */
  start_bar = around (gtk_paned_get_start_child (paned), GTK_WIDGET (self->view_stack));
  end_bar = around (gtk_paned_get_end_child (paned), GTK_WIDGET (chart_view));
  chart = ws_chart_view_get_chart (chart_view);
  if (chart)
    chart_need = ws_chart_min_height (chart, ws_view_style_get (), MAX (1, gtk_widget_get_width (GTK_WIDGET (paned))));
  want = MAX (total * 0.62, start_bar + view_needs (self));
  if (chart_need > 0)
    want = MIN (want, total - end_bar - chart_need - 6);
  self->paned_set = CLAMP ((int) want, 0, max);
  if (gtk_paned_get_position (paned) != self->paned_set)
    gtk_paned_set_position (paned, self->paned_set);
}

static void
on_paned_range (WsExplorePage *self)
{
  ws_explore_page_place_divider (self);
}

/* A divider moved by hand stays where it was put: a move while the
 * pointer's button is down on the paned is one (the window's size, which
 * moves it too, is not). */
static void
on_paned_moved (WsExplorePage *self)
{
  if (self->paned_pressed && gtk_paned_get_position (self->view_paned) != self->paned_set)
    self->paned_by_hand = TRUE;
}

static void
on_paned_pressed (GtkGestureClick *click,
                  int              n_press,
                  double           x,
                  double           y,
                  WsExplorePage   *self)
{
  self->paned_pressed = TRUE;
}

static void
on_paned_released (GtkGestureClick *click,
                   int              n_press,
                   double           x,
                   double           y,
                   WsExplorePage   *self)
{
  self->paned_pressed = FALSE;
}

/* The plot's least height depends on its width: placed again, once laid
 * out, when the views' width changes (the presets shown or hidden, the
 * inspector's divider moved, the window resized). */
static gboolean
place_divider_later (gpointer data)
{
  WsExplorePage *self = data;

  self->place_idle = 0;
  ws_explore_page_place_divider (self);
  return G_SOURCE_REMOVE;
}

void
ws_explore_page_queue_place_divider (WsExplorePage *self)
{
  g_return_if_fail (WS_IS_EXPLORE_PAGE (self));

  if (self->place_idle == 0)
    self->place_idle = g_idle_add_full (G_PRIORITY_LOW, place_divider_later, self, NULL);
}

static void
watch_paned (WsExplorePage *self)
{
  GtkGesture *click = gtk_gesture_click_new ();

  gtk_event_controller_set_propagation_phase (GTK_EVENT_CONTROLLER (click), GTK_PHASE_CAPTURE);
  g_signal_connect (click, "pressed", G_CALLBACK (on_paned_pressed), self);
  g_signal_connect (click, "released", G_CALLBACK (on_paned_released), self);
  g_signal_connect_swapped (click, "cancel", G_CALLBACK (on_paned_released), self);
  gtk_widget_add_controller (GTK_WIDGET (self->view_paned), GTK_EVENT_CONTROLLER (click));
  g_signal_connect_swapped (self->view_paned, "notify::max-position", G_CALLBACK (on_paned_range), self);
  g_signal_connect_swapped (self->view_paned, "notify::position", G_CALLBACK (on_paned_moved), self);
  g_signal_connect_swapped (self->main_paned, "notify::position", G_CALLBACK (ws_explore_page_queue_place_divider),
                            self);
}

gboolean
ws_explore_page_get_presenting (WsExplorePage *self)
{
  g_return_val_if_fail (WS_IS_EXPLORE_PAGE (self), FALSE);

  return self->presenting;
}

/* The text's scale is every view's (ws_view_style_set_text_scale): the
 * page sets it while presenting, and gives it back after. */
void
ws_explore_page_set_presenting (WsExplorePage *self,
                                gboolean       presenting)
{
  g_return_if_fail (WS_IS_EXPLORE_PAGE (self));

  presenting = !!presenting;
  if (presenting == self->presenting)
    return;
  self->presenting = presenting;
  ws_view_style_set_text_scale (presenting ? presenting_text_scale (self) : 1);
  ws_explore_page_queue_place_divider (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PRESENTING]);
}

/* ------------------------------------------------------------------ */
/* Its parts                                                          */
/* ------------------------------------------------------------------ */

WsPresetIntro *
ws_explore_page_get_intro (WsExplorePage *self)
{
  g_return_val_if_fail (WS_IS_EXPLORE_PAGE (self), NULL);
  return self->preset_intro;
}

WsPatternEditor *
ws_explore_page_get_editor (WsExplorePage *self)
{
  g_return_val_if_fail (WS_IS_EXPLORE_PAGE (self), NULL);
  return self->editor;
}

WsNumbersView *
ws_explore_page_get_numbers (WsExplorePage *self)
{
  g_return_val_if_fail (WS_IS_EXPLORE_PAGE (self), NULL);
  return self->numbers;
}

WsPlotPanel *
ws_explore_page_get_plot_panel (WsExplorePage *self)
{
  g_return_val_if_fail (WS_IS_EXPLORE_PAGE (self), NULL);
  return self->plot_panel;
}

WsHierarchyPage *
ws_explore_page_get_hierarchy_page (WsExplorePage *self)
{
  g_return_val_if_fail (WS_IS_EXPLORE_PAGE (self), NULL);
  return self->hierarchy_page;
}

WsSchedulePlayer *
ws_explore_page_get_player (WsExplorePage *self)
{
  g_return_val_if_fail (WS_IS_EXPLORE_PAGE (self), NULL);
  return self->player;
}

WsPlayerControls *
ws_explore_page_get_player_controls (WsExplorePage *self)
{
  g_return_val_if_fail (WS_IS_EXPLORE_PAGE (self), NULL);
  return self->player_controls;
}

GtkStack *
ws_explore_page_get_view_stack (WsExplorePage *self)
{
  g_return_val_if_fail (WS_IS_EXPLORE_PAGE (self), NULL);
  return self->view_stack;
}

WsFigureView *
ws_explore_page_get_figure_view (WsExplorePage *self,
                                 WsFigureKind   kind)
{
  g_return_val_if_fail (WS_IS_EXPLORE_PAGE (self), NULL);
  g_return_val_if_fail ((guint) kind < WS_N_FIGURES, NULL);
  return self->views[kind];
}

WsLaunchView *
ws_explore_page_get_launch_view (WsExplorePage *self,
                                 WsTopicView    view)
{
  g_return_val_if_fail (WS_IS_EXPLORE_PAGE (self), NULL);
  g_return_val_if_fail ((guint) view < WS_N_TOPIC_VIEWS, NULL);
  return self->launch_views[view];
}

/* ------------------------------------------------------------------ */
/* GObject                                                            */
/* ------------------------------------------------------------------ */

static void
ws_explore_page_dispose (GObject *object)
{
  WsExplorePage *self = WS_EXPLORE_PAGE (object);

  g_clear_handle_id (&self->place_idle, g_source_remove);
  ws_explore_page_pattern_dispose (self);
  ws_explore_page_measure_dispose (self);
  /* the views' text scale is every window's */
  if (self->presenting)
    ws_view_style_set_text_scale (1);
  self->presenting = FALSE;
  gtk_widget_dispose_template (GTK_WIDGET (self), WS_TYPE_EXPLORE_PAGE);
  g_clear_object (&self->player);
  G_OBJECT_CLASS (ws_explore_page_parent_class)->dispose (object);
}

/* Out of its window, nothing of the page is presented: the text's scale,
 * which is every view's, goes back (the page itself may live on a while,
 * until the launch's model it waits for is cancelled). */
static void
ws_explore_page_unroot (GtkWidget *widget)
{
  WsExplorePage *self = WS_EXPLORE_PAGE (widget);

  ws_explore_page_set_presenting (self, FALSE);
  GTK_WIDGET_CLASS (ws_explore_page_parent_class)->unroot (widget);
}

static void
ws_explore_page_finalize (GObject *object)
{
  ws_explore_page_pattern_finalize (WS_EXPLORE_PAGE (object));
  G_OBJECT_CLASS (ws_explore_page_parent_class)->finalize (object);
}

static void
ws_explore_page_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  WsExplorePage *self = WS_EXPLORE_PAGE (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      g_value_set_object (value, self->session);
      break;
    case PROP_PRESENTING:
      g_value_set_boolean (value, self->presenting);
      break;
    case PROP_AUTO_MEASURE:
      g_value_set_boolean (value, self->auto_measure);
      break;
    case PROP_MEASURING:
      g_value_set_boolean (value, ws_explore_page_get_measuring (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ws_explore_page_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  WsExplorePage *self = WS_EXPLORE_PAGE (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      ws_explore_page_set_session (self, g_value_get_object (value));
      break;
    case PROP_PRESENTING:
      ws_explore_page_set_presenting (self, g_value_get_boolean (value));
      break;
    case PROP_AUTO_MEASURE:
      ws_explore_page_set_auto_measure (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ws_explore_page_class_init (WsExplorePageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ws_explore_page_dispose;
  object_class->finalize = ws_explore_page_finalize;
  widget_class->unroot = ws_explore_page_unroot;
  object_class->get_property = ws_explore_page_get_property;
  object_class->set_property = ws_explore_page_set_property;

  properties[PROP_SESSION] = g_param_spec_object ("session", NULL, NULL, WS_TYPE_SESSION,
                                                 G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_PRESENTING] = g_param_spec_boolean ("presenting", NULL, NULL, FALSE,
                                                      G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY |
                                                        G_PARAM_STATIC_STRINGS);
  properties[PROP_AUTO_MEASURE] = g_param_spec_boolean ("auto-measure", NULL, NULL, FALSE,
                                                        G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY |
                                                          G_PARAM_STATIC_STRINGS);
  properties[PROP_MEASURING] = g_param_spec_boolean ("measuring", NULL, NULL, FALSE,
                                                     G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  ws_explore_page_signals[WS_EXPLORE_PAGE_SIGNAL_PATTERN_CHANGED] =
    g_signal_new ("pattern-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  ws_explore_page_signals[WS_EXPLORE_PAGE_SIGNAL_SHOWN_CHANGED] =
    g_signal_new ("shown-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  ws_explore_page_signals[WS_EXPLORE_PAGE_SIGNAL_LAUNCH_CHANGED] =
    g_signal_new ("launch-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  g_type_ensure (WS_TYPE_PLAYER_CONTROLS);
  g_type_ensure (WS_TYPE_PRESET_INTRO);
  g_type_ensure (WS_TYPE_PATTERN_EDITOR);
  g_type_ensure (WS_TYPE_NUMBERS_VIEW);
  g_type_ensure (WS_TYPE_CHART_VIEW);
  g_type_ensure (WS_TYPE_PLOT_PANEL);
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/warpscope/Warpscope/ws-explore-page.ui");
  gtk_widget_class_bind_template_child (widget_class, WsExplorePage, main_paned);
  gtk_widget_class_bind_template_child (widget_class, WsExplorePage, preset_intro);
  gtk_widget_class_bind_template_child (widget_class, WsExplorePage, editor);
  gtk_widget_class_bind_template_child (widget_class, WsExplorePage, numbers);
  gtk_widget_class_bind_template_child (widget_class, WsExplorePage, view_paned);
  gtk_widget_class_bind_template_child (widget_class, WsExplorePage, view_stack);
  gtk_widget_class_bind_template_child (widget_class, WsExplorePage, step_label);
  gtk_widget_class_bind_template_child (widget_class, WsExplorePage, player_controls);
  gtk_widget_class_bind_template_child (widget_class, WsExplorePage, plot_panel);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
ws_explore_page_init (WsExplorePage *self)
{
  self->player = ws_schedule_player_new ();
  self->paned_set = -1;
  gtk_widget_init_template (GTK_WIDGET (self));
  setup_views (self);
  watch_paned (self);
  ws_explore_page_pattern_init (self);
  /* the chart's size may change what the views above it get */
  g_signal_connect_object (self->plot_panel, "rebuilt", G_CALLBACK (ws_explore_page_place_divider), self,
                           G_CONNECT_SWAPPED);
}

GtkWidget *
ws_explore_page_new (void)
{
  return g_object_new (WS_TYPE_EXPLORE_PAGE, NULL);
}
