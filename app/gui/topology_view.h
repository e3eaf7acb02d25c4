#pragma once
// The central topology view: an lstopo-style drawing of the machine with
// zoom (Ctrl+wheel, zoomIn/zoomOut), pan (drag, scroll bars, wheel),
// fit-to-window, tooltips, and folds that unfold on click.
//
// Geometry comes from TopologyLayout and pixels from render_topology; the
// widget only maps between viewport pixels and layout units.

#include "topology_layout.h"

#include <QAbstractScrollArea>
#include <QFont>

#include <memory>

namespace schedscope::gui {

class TopologyView : public QAbstractScrollArea {
    Q_OBJECT
public:
    explicit TopologyView(QWidget *parent = nullptr);

    void setTopology(std::shared_ptr<const Topology> topology);
    const TopologyLayout &topologyLayout() const { return layout_; }
    const LayoutOptions &layoutOptions() const { return options_; }
    double zoom() const { return zoom_; }
    bool foldingEnabled() const { return options_.fold; }
    ObjId highlighted() const { return highlighted_; }

    // Layout coordinates of a viewport pixel, and the box under it (-1 if none).
    QPointF toLayout(QPointF viewport_pos) const;
    int boxAt(QPointF viewport_pos) const;

public slots:
    void setFoldingEnabled(bool enabled);
    void unfold(ObjId parent);
    void zoomIn();
    void zoomOut();
    void setZoom(double zoom);
    void fitToWindow();
    void highlight(ObjId obj); // kNoObj clears; scrolls the box into view

signals:
    void objectActivated(ObjId obj); // a click on an object's box
    void zoomChanged(double zoom);

protected:
    void paintEvent(QPaintEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void wheelEvent(QWheelEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    bool viewportEvent(QEvent *event) override;
    void scrollContentsBy(int dx, int dy) override;

private:
    void relayout();
    void updateScrollBars();
    void zoomAround(double zoom, QPointF viewport_anchor);
    QPointF contentOrigin() const; // viewport position of layout (0, 0)
    void handleClick(QPointF viewport_pos);

    std::shared_ptr<const Topology> topology_;
    LayoutOptions options_;
    TopologyLayout layout_;
    QFont font_;
    double zoom_ = 1.0;
    // Follow the window size (set by fitToWindow, cleared by any manual zoom).
    bool fit_mode_ = true;
    ObjId highlighted_ = kNoObj;
    QPoint press_pos_;
    QPoint last_drag_pos_;
    bool pressed_ = false;
    bool dragging_ = false;
};

} // namespace schedscope::gui
