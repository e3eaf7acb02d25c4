#pragma once
// One policy's animation: a header with live figures over the machine
// drawn lstopo-style, tokens on PUs, queues, cache heat, node memory bars
// and migration trails. It paints only from the PaneFrame it was given.
// The static topology drawing is cached in a pixmap per size, so a frame
// repaints only the overlays.

#include "pane_painter.h"
#include "pane_scene.h"

#include <QElapsedTimer>
#include <QFont>
#include <QPixmap>
#include <QTimer>
#include <QWidget>

#include <memory>
#include <unordered_map>

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
        update();
    }

    const PaneGeometry &geometry() const { return geometry_; }
    const PaneScene &scene() const { return scene_; }
    const PaneFrame *frame() const;
    int paintCount() const { return paints_; }
    double lastPaintMs() const { return last_paint_ms_; }

    // Header text lines, also used by tests and the docs.
    QString headerTitle() const;
    QString headerFigures() const;

    // The layout point under a widget pixel (tooltips).
    QPointF toLayout(QPointF widget_pos) const;

signals:
    void editRequested(); // the user asked for this pane's parameters

protected:
    void paintEvent(QPaintEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    bool event(QEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;

private:
    QRectF contentRect() const;
    void updateTransform();
    void renderStatic();
    void paintStatic(QPainter &p, qreal device_pixel_ratio) const; // the machine's boxes, labels, caches
    void startMoves();
    void tickAnimation();

    std::shared_ptr<const Topology> topology_;
    PaneGeometry geometry_;
    PaneScene scene_;
    FrameSetPtr frames_;
    int pane_ = 0;
    QString params_text_;
    QFont font_;
    QFont header_font_;
    double scale_ = 1.0;
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

// How long a migrating token takes to glide to its new PU, in wall time.
inline constexpr int kMoveAnimationMs = 450;

} // namespace schedscope::gui
