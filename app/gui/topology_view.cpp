#include "topology_view.h"

#include "object_text.h"
#include "qpainter_canvas.h"
#include "topology_export.h"
#include "topology_renderer.h"

#include <QApplication>
#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace schedscope::gui {

namespace {
constexpr double kMinZoom = 0.02; // a 1024-PU machine fits a small window
constexpr double kMaxZoom = 8.0;
// Fitting a 2-PU machine into a big window would blow labels up to poster
// size; beyond this, fit leaves white space around the machine.
constexpr double kMaxFitZoom = 2.0;
constexpr double kZoomStep = 1.25;    // per key press or menu action
constexpr double kWheelBase = 1.0015; // per wheel angle unit: one notch (120) is about x1.2
} // namespace

TopologyView::TopologyView(QWidget *parent) : QAbstractScrollArea(parent), font_(topology_font())
{
    viewport()->setMouseTracking(false);
    viewport()->setBackgroundRole(QPalette::Base);
    viewport()->setAutoFillBackground(false);
    horizontalScrollBar()->setSingleStep(20);
    verticalScrollBar()->setSingleStep(20);
    setFocusPolicy(Qt::StrongFocus);
    setMinimumSize(200, 150);
}

void TopologyView::setTopology(std::shared_ptr<const Topology> topology)
{
    topology_ = std::move(topology);
    options_.unfolded.clear();
    options_.fold = topology_ && default_folding(*topology_);
    highlighted_ = kNoObj;
    fit_mode_ = true;
    relayout();
}

void TopologyView::relayout()
{
    options_.text = text_metrics(font_);
    layout_ = topology_ ? TopologyLayout::compute(*topology_, options_) : TopologyLayout{};
    if (fit_mode_)
        fitToWindow();
    else
        updateScrollBars();
    viewport()->update();
}

void TopologyView::setFoldingEnabled(bool enabled)
{
    if (options_.fold == enabled)
        return;
    options_.fold = enabled;
    options_.unfolded.clear();
    relayout();
}

void TopologyView::unfold(ObjId parent)
{
    options_.unfolded.insert(parent);
    relayout();
}

QPointF TopologyView::contentOrigin() const
{
    const QSize vp = viewport()->size();
    const double cw = (layout_.width() + 2 * kViewMargin) * zoom_;
    const double ch = (layout_.height() + 2 * kViewMargin) * zoom_;
    // Smaller than the viewport: centre it; larger: the scroll bars decide.
    const double x = cw <= vp.width() ? (vp.width() - cw) / 2 : -horizontalScrollBar()->value();
    const double y = ch <= vp.height() ? (vp.height() - ch) / 2 : -verticalScrollBar()->value();
    return {x + kViewMargin * zoom_, y + kViewMargin * zoom_};
}

QPointF TopologyView::toLayout(QPointF viewport_pos) const { return (viewport_pos - contentOrigin()) / zoom_; }

int TopologyView::boxAt(QPointF viewport_pos) const
{
    const QPointF p = toLayout(viewport_pos);
    return layout_.hit_test(p.x(), p.y());
}

void TopologyView::updateScrollBars()
{
    const QSize vp = viewport()->size();
    const int cw = static_cast<int>(std::ceil((layout_.width() + 2 * kViewMargin) * zoom_));
    const int ch = static_cast<int>(std::ceil((layout_.height() + 2 * kViewMargin) * zoom_));
    horizontalScrollBar()->setRange(0, std::max(0, cw - vp.width()));
    verticalScrollBar()->setRange(0, std::max(0, ch - vp.height()));
    horizontalScrollBar()->setPageStep(vp.width());
    verticalScrollBar()->setPageStep(vp.height());
}

void TopologyView::setZoom(double zoom)
{
    fit_mode_ = false;
    zoomAround(zoom, QPointF(viewport()->width() / 2.0, viewport()->height() / 2.0));
}

void TopologyView::zoomIn() { setZoom(zoom_ * kZoomStep); }

void TopologyView::zoomOut() { setZoom(zoom_ / kZoomStep); }

void TopologyView::zoomAround(double zoom, QPointF anchor)
{
    zoom = std::clamp(zoom, kMinZoom, kMaxZoom);
    const QPointF under = toLayout(anchor);
    zoom_ = zoom;
    updateScrollBars();
    // Keep the layout point under the anchor where it was.
    horizontalScrollBar()->setValue(static_cast<int>(std::lround((kViewMargin + under.x()) * zoom_ - anchor.x())));
    verticalScrollBar()->setValue(static_cast<int>(std::lround((kViewMargin + under.y()) * zoom_ - anchor.y())));
    viewport()->update();
    emit zoomChanged(zoom_);
}

void TopologyView::fitToWindow()
{
    fit_mode_ = true;
    const QSize vp = viewport()->size();
    if (layout_.empty() || vp.isEmpty())
        return;
    const double zx = vp.width() / (layout_.width() + 2 * kViewMargin);
    const double zy = vp.height() / (layout_.height() + 2 * kViewMargin);
    zoom_ = std::clamp(std::min({zx, zy, kMaxFitZoom}), kMinZoom, kMaxZoom);
    updateScrollBars();
    viewport()->update();
    emit zoomChanged(zoom_);
}

void TopologyView::highlight(ObjId obj)
{
    highlighted_ = obj;
    const int box = obj == kNoObj ? -1 : layout_.box_of(obj);
    if (box >= 0) {
        const LayoutRect &r = layout_.boxes()[box].rect;
        const QPointF o = contentOrigin();
        const QRectF on_screen(o.x() + r.x * zoom_, o.y() + r.y * zoom_, r.w * zoom_, r.h * zoom_);
        if (!QRectF(viewport()->rect()).contains(on_screen)) {
            const QPointF c = on_screen.center() - QPointF(viewport()->width() / 2.0, viewport()->height() / 2.0);
            horizontalScrollBar()->setValue(horizontalScrollBar()->value() + static_cast<int>(c.x()));
            verticalScrollBar()->setValue(verticalScrollBar()->value() + static_cast<int>(c.y()));
        }
    }
    viewport()->update();
}

void TopologyView::paintEvent(QPaintEvent *)
{
    QPainter painter(viewport());
    RenderOptions options;
    const Rgb bg = options.palette.background;
    painter.fillRect(viewport()->rect(), QColor(bg.r, bg.g, bg.b));
    if (layout_.empty())
        return;
    painter.setRenderHint(QPainter::TextAntialiasing);
    const QPointF origin = contentOrigin();
    painter.translate(origin);
    painter.scale(zoom_, zoom_);
    const QPointF tl = toLayout(QPointF(0, 0));
    options.visible = LayoutRect{tl.x(), tl.y(), viewport()->width() / zoom_, viewport()->height() / zoom_};
    options.scale = zoom_;
    options.highlighted = highlighted_;
    QPainterCanvas canvas(painter, font_);
    render_topology(layout_, canvas, options);
}

void TopologyView::resizeEvent(QResizeEvent *event)
{
    QAbstractScrollArea::resizeEvent(event);
    if (fit_mode_)
        fitToWindow();
    else
        updateScrollBars();
}

void TopologyView::scrollContentsBy(int, int) { viewport()->update(); }

void TopologyView::wheelEvent(QWheelEvent *event)
{
    if (event->modifiers() & Qt::ControlModifier) {
        fit_mode_ = false;
        zoomAround(zoom_ * std::pow(kWheelBase, event->angleDelta().y()), event->position());
        event->accept();
        return;
    }
    QAbstractScrollArea::wheelEvent(event);
}

void TopologyView::mousePressEvent(QMouseEvent *event)
{
    if (event->button() != Qt::LeftButton)
        return QAbstractScrollArea::mousePressEvent(event);
    pressed_ = true;
    dragging_ = false;
    press_pos_ = last_drag_pos_ = event->position().toPoint();
}

void TopologyView::mouseMoveEvent(QMouseEvent *event)
{
    if (!pressed_)
        return QAbstractScrollArea::mouseMoveEvent(event);
    const QPoint pos = event->position().toPoint();
    if (!dragging_ && (pos - press_pos_).manhattanLength() >= QApplication::startDragDistance()) {
        dragging_ = true;
        viewport()->setCursor(Qt::ClosedHandCursor);
    }
    if (dragging_) {
        const QPoint delta = pos - last_drag_pos_;
        horizontalScrollBar()->setValue(horizontalScrollBar()->value() - delta.x());
        verticalScrollBar()->setValue(verticalScrollBar()->value() - delta.y());
        last_drag_pos_ = pos;
    }
}

void TopologyView::mouseReleaseEvent(QMouseEvent *event)
{
    if (event->button() != Qt::LeftButton || !pressed_)
        return QAbstractScrollArea::mouseReleaseEvent(event);
    pressed_ = false;
    if (dragging_) {
        dragging_ = false;
        viewport()->unsetCursor();
        return;
    }
    handleClick(event->position());
}

void TopologyView::handleClick(QPointF viewport_pos)
{
    const int index = boxAt(viewport_pos);
    if (index < 0)
        return;
    const LayoutBox &box = layout_.boxes()[index];
    if (box.kind == BoxKind::Fold) {
        unfold(box.fold_parent);
        return;
    }
    highlight(box.obj);
    emit objectActivated(box.obj);
}

bool TopologyView::viewportEvent(QEvent *event)
{
    if (event->type() != QEvent::ToolTip || !topology_)
        return QAbstractScrollArea::viewportEvent(event);
    auto *help = static_cast<QHelpEvent *>(event);
    const int index = boxAt(help->pos());
    if (index < 0) {
        QToolTip::hideText();
        event->ignore();
        return true;
    }
    const LayoutBox &box = layout_.boxes()[index];
    QString text;
    if (box.kind == BoxKind::Fold) {
        text = tr("%1 more %2 objects identical to their neighbours\nclick to show them")
                   .arg(box.hidden)
                   .arg(QString::fromUtf8(obj_type_name(box.type)));
    } else {
        text = QString::fromStdString(object_tooltip(*topology_, box.obj));
    }
    QToolTip::showText(help->globalPos(), text, viewport());
    return true;
}

} // namespace schedscope::gui
