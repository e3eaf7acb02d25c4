#pragma once
// One policy's animation: a header with live figures over the machine
// drawn lstopo-style, tokens on PUs, queues, cache heat, node memory bars
// and migration trails. It paints only from the PaneFrame it was given.
// The static topology drawing is cached in a pixmap per size, so a frame
// repaints only the overlays.
//
// The machine is laid out for the pane's shape (groups, packages and cores
// pack to its aspect ratio). A big machine that would be unreadable at the
// pane's size is drawn as one compact cell per NUMA node (compact_scene.h);
// Ctrl+wheel zooms into the full drawing around the pointer, a drag pans it,
// and zooming back out returns to the cells.

#include "compact_scene.h"
#include "pane_painter.h"
#include "pane_scene.h"

#include <QElapsedTimer>
#include <QFont>
#include <QPixmap>
#include <QTimer>
#include <QWidget>

#include <algorithm>
#include <memory>
#include <unordered_map>

class QFontMetrics;
class QHelpEvent;
class QPainter;

namespace schedscope::gui {

class SimulationPane : public QWidget {
    Q_OBJECT
public:
    explicit SimulationPane(QWidget *parent = nullptr);

    void setTopology(std::shared_ptr<const Topology> topology);
    // `continuous`: the frame follows the previous one in time, so its moves
    // animate; after a scrub or reset they just appear.
    void setFrame(FrameSetPtr frames, int pane, bool continuous);
    void setParamsText(const QString &text)
    {
        params_text_ = text;
        checkHeader();
        update();
    }

    const PaneGeometry &geometry() const { return geometry_; }
    const CompactGeometry &compactGeometry() const { return compact_; }
    // Where the compact cells' (0, 0) sits in the widget.
    QPointF compactOrigin() const { return compact_origin_; }
    const CompactScene &compactScene() const { return compact_scene_; }
    PaneMode mode() const { return mode_; }
    // 1 = the whole machine fits; above 1 the full drawing is magnified.
    double zoom() const { return zoom_; }
    // Zooms keeping the layout point under `anchor` (widget pixels) in place.
    void setZoom(double zoom, QPointF anchor);
    // Layout units per pixel at fit-to-pane size (what choose_pane_mode reads).
    double fitScale() const { return fit_scale_; }
    const PaneScene &scene() const { return scene_; }
    const PaneFrame *frame() const;
    int paintCount() const { return paints_; }
    double lastPaintMs() const { return last_paint_ms_; }

    // Header text lines, also used by tests and the docs.
    QString headerTitle() const;
    QString headerFigures() const;
    // What the header shows at the pane's width (one or two lines, split
    // and elided at word boundaries) and its tooltip, which always carries
    // the full title and figures.
    QString shownHeaderTitle() const;
    int headerTitleLines() const;
    // One line, or two or three (split between figures) when the widest
    // figures a run can show do not fit the pane's width on one: every
    // figure stays visible in a 3-4 pane layout.
    QString shownHeaderFigures() const;
    QString headerToolTip() const;
    // One or two title lines and 1 to 3 lines of figures, as many as the widest
    // figures a run can show take at this width (a function of the width
    // only, so the drawing does not jump as the numbers grow): what this
    // pane's header needs.
    int naturalHeaderHeight() const;
    // The header's height: its natural height, or the floor the comparison
    // sets (the tallest natural header of its panes), whichever is more, so
    // panes side by side start their drawings at the same height when one
    // title wraps to two lines.
    int headerHeight() const { return std::max(naturalHeaderHeight(), header_floor_); }
    void setHeaderFloor(int px);
    int headerFloor() const { return header_floor_; }
    int headerFigureLines() const;

    // The layout point under a widget pixel (tooltips).
    QPointF toLayout(QPointF widget_pos) const;

signals:
    void editRequested(); // the user asked for this pane's parameters
    // The header this pane needs grew or shrank (a resize, a new title).
    void naturalHeaderHeightChanged();

protected:
    void paintEvent(QPaintEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    bool event(QEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;
    void wheelEvent(QWheelEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;

private:
    QFont headerTitleFont() const;
    // After the title or width changed: says whether the natural header
    // height moved, and lays the machine out again below a header of a
    // new height.
    void checkHeader();
    QRectF contentRect() const;
    void relayout(bool force);
    void updateTransform();
    void updateScenes();
    bool compactTooltip(const QHelpEvent *help);
    void renderStatic();
    void paintStatic(QPainter &p, qreal dpr) const; // the machine's boxes, labels, caches
    void startMoves();
    void tickAnimation();

    std::shared_ptr<const Topology> topology_;
    TopologyLayout base_layout_; // packed for layout_aspect_, before stretching to the pane
    PaneGeometry geometry_;
    PaneScene scene_;
    FrameSetPtr frames_;
    int pane_ = 0;
    QString params_text_;
    int header_floor_ = 0;
    int last_natural_header_ = -1;
    int laid_out_header_ = -1; // the header height the drawing was laid out under
    QFont font_;
    QFont header_font_;
    double scale_ = 1.0;
    double fit_scale_ = 1.0;
    double zoom_ = 1.0;
    double layout_aspect_ = 0; // the aspect the detail layout was packed for
    PaneMode mode_ = PaneMode::Detail;
    CompactGeometry compact_;
    CompactScene compact_scene_;
    QPointF compact_origin_;
    QPointF drag_from_;
    bool dragging_ = false;
    QPointF origin_;
    QPixmap static_layer_;
    bool static_dirty_ = true;
    std::unordered_map<TaskId, MovingToken> moving_;
    std::unordered_map<TaskId, qint64> move_start_ms_;
    QElapsedTimer clock_;
    QTimer anim_timer_;
    int paints_ = 0;
    double last_paint_ms_ = 0;
};

// `text` cut to `width` pixels at a word boundary, with an ellipsis; as is
// when it fits.
QString elide_words(const QString &text, const QFontMetrics &fm, int width);

// A pane's header (two lines of text; a third when the figures wrap) and
// its minimum size, in pixels.
inline constexpr int kPaneHeaderPx = 40;
inline constexpr int kPaneHeaderLinePx = 17;
inline constexpr int kMaxHeaderFigureLines = 3;
inline constexpr int kMaxHeaderTitleLines = 2;
inline constexpr int kPaneMinWidthPx = 160;
inline constexpr int kPaneMinHeightPx = 120;

// Ctrl+wheel: one notch magnifies by this much; at most kMaxZoom.
inline constexpr double kZoomStep = 1.25;
inline constexpr double kMaxZoom = 64.0;

// How long a migrating token takes to glide to its new PU, in wall time.
inline constexpr int kMoveAnimationMs = 450;

} // namespace schedscope::gui
