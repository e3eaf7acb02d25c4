#include "simulation_pane.h"

#include "compact_painter.h"
#include "object_text.h"
#include "qpainter_canvas.h"
#include "topology_renderer.h"

#include <QFontMetrics>
#include <QHelpEvent>
#include <QMouseEvent>
#include <QPaintEngine>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace schedscope::gui {

namespace {
constexpr double kMargin = 6.0;
// A 2-PU machine in a big pane would otherwise be drawn poster-size.
constexpr double kMaxScale = 1.6;
// How far the drawing may be spread beyond its packed shape to fill the
// pane: twice as wide or tall keeps boxes boxes rather than long bars.
constexpr double kMaxStretch = 2.0;
// The detail layout is packed for the pane's shape rounded to steps of
// this much (in log of the aspect ratio, about 15 %): a resize repacks it
// only when the shape crosses a step, and two panes of one shape pack the
// same layout whatever sizes each went through before (a pane whose header
// grew a line after its first layout drew its machine a little apart from
// its neighbours').
constexpr double kRelayoutAspectStep = 0.15;

double packed_aspect(double aspect)
{
    return std::exp(std::round(std::log(aspect) / kRelayoutAspectStep) * kRelayoutAspectStep);
}

QString format_count(std::int64_t n) { return n >= 100000 ? QStringLiteral("%1k").arg(n / 1000) : QString::number(n); }
} // namespace

SimulationPane::SimulationPane(QWidget *parent) : QWidget(parent), font_(topology_font())
{
    header_font_ = font();
    header_font_.setPixelSize(12);
    setMinimumSize(kPaneMinWidthPx, kPaneMinHeightPx);
    setAttribute(Qt::WA_OpaquePaintEvent); // every pixel is painted: skip the background erase
    clock_.start();
    anim_timer_.setInterval(16);
    connect(&anim_timer_, &QTimer::timeout, this, &SimulationPane::tickAnimation);
}

void SimulationPane::setTopology(std::shared_ptr<const Topology> topology)
{
    topology_ = std::move(topology);
    scene_ = {};
    compact_scene_ = {};
    frames_.reset();
    moving_.clear();
    move_start_ms_.clear();
    zoom_ = 1.0;
    relayout(true);
    update();
}

const PaneFrame *SimulationPane::frame() const
{
    return frames_ && pane_ < static_cast<int>(frames_->panes.size()) ? &frames_->panes[pane_] : nullptr;
}

void SimulationPane::setFrame(FrameSetPtr frames, int pane, bool continuous)
{
    frames_ = std::move(frames);
    pane_ = pane;
    checkHeader(); // the first frame names the policy: the title may wrap
    updateScenes();
    // After a jump (scrub, reset, re-run) the moves in the frame happened
    // out of sight: tokens are simply where they are now.
    if (continuous) {
        startMoves();
    } else {
        moving_.clear();
        move_start_ms_.clear();
    }
    update();
}

void SimulationPane::startMoves()
{
    const qint64 now = clock_.elapsed();
    for (const Trail &t : scene_.trails) {
        moving_[t.task] = {QPointF(t.x1, t.y1), 0.0, t.cls};
        move_start_ms_[t.task] = now;
    }
    if (!moving_.empty() && !anim_timer_.isActive())
        anim_timer_.start();
}

void SimulationPane::tickAnimation()
{
    const qint64 now = clock_.elapsed();
    for (auto it = moving_.begin(); it != moving_.end();) {
        const double p = static_cast<double>(now - move_start_ms_[it->first]) / kMoveAnimationMs;
        if (p >= 1.0) {
            move_start_ms_.erase(it->first);
            it = moving_.erase(it);
        } else {
            it->second.progress = p;
            ++it;
        }
    }
    if (moving_.empty())
        anim_timer_.stop();
    update();
}

QRectF SimulationPane::contentRect() const
{
    const int header = headerHeight();
    return QRectF(0, header, width(), std::max(0, height() - header));
}

void SimulationPane::updateScenes()
{
    const PaneFrame *f = frame();
    scene_ = f && mode_ == PaneMode::Detail ? PaneScene::compute(geometry_, *f) : PaneScene{};
    compact_scene_ = f && topology_ && mode_ == PaneMode::Compact ? CompactScene::compute(*topology_, compact_, *f)
                                                                  : CompactScene{};
}

void SimulationPane::relayout(bool force)
{
    laid_out_header_ = headerHeight();
    const QRectF c = contentRect().adjusted(kMargin, kMargin, -kMargin, -kMargin);
    if (!topology_) {
        geometry_ = {};
        base_layout_ = {};
        compact_ = {};
        layout_aspect_ = 0;
    } else if (c.width() > 0 && c.height() > 0) {
        const double aspect = packed_aspect(c.width() / c.height());
        if (force || layout_aspect_ != aspect) {
            base_layout_ = TopologyLayout::compute(*topology_, pane_layout_options(text_metrics(font_), aspect));
            layout_aspect_ = aspect;
        }
        // Packing alone leaves a margin on one side (four packages are a
        // row or a square, the pane something between): spread the boxes
        // to fill both sides at the text's fit scale, within kMaxStretch.
        TopologyLayout filled = base_layout_;
        if (!filled.empty()) {
            const double fit = std::min({c.width() / filled.width(), c.height() / filled.height(), kMaxScale});
            filled.stretch(std::min(kMaxStretch, c.width() / (filled.width() * fit)),
                           std::min(kMaxStretch, c.height() / (filled.height() * fit)));
        }
        geometry_ = PaneGeometry::from_layout(*topology_, std::move(filled), pane_layout_options(text_metrics(font_)));
    } else if (force) {
        base_layout_ = TopologyLayout::compute(*topology_, pane_layout_options(text_metrics(font_)));
        geometry_ = PaneGeometry::from_layout(*topology_, base_layout_, pane_layout_options(text_metrics(font_)));
        layout_aspect_ = 0;
    }
    zoom_ = 1.0; // a new size fits the machine afresh
    updateTransform();
    mode_ = topology_ ? choose_pane_mode(topology_->pu_count(), topology_->numa_count(), fit_scale_, zoom_)
                      : PaneMode::Detail;
    if (mode_ == PaneMode::Compact) {
        compact_ = CompactGeometry::compute(*topology_, c.width(), c.height());
        compact_origin_ = QPointF(c.x() + (c.width() - compact_.width) / 2, c.y());
    } else {
        compact_ = {};
    }
    updateScenes();
}

void SimulationPane::updateTransform()
{
    const QRectF c = contentRect().adjusted(kMargin, kMargin, -kMargin, -kMargin);
    const TopologyLayout &l = geometry_.layout;
    if (l.empty() || c.width() <= 0 || c.height() <= 0) {
        fit_scale_ = scale_ = 1.0;
        origin_ = c.topLeft();
    } else {
        fit_scale_ = std::min({c.width() / l.width(), c.height() / l.height(), kMaxScale});
        scale_ = fit_scale_;
        // Centred across, top-aligned: the header and the machine read as one.
        origin_ = QPointF(c.x() + (c.width() - l.width() * scale_) / 2, c.y());
    }
    static_dirty_ = true;
}

void SimulationPane::setZoom(double zoom, QPointF anchor)
{
    zoom = std::clamp(zoom, 1.0, kMaxZoom);
    if (zoom == zoom_ || !topology_)
        return;
    if (zoom == 1.0) {
        zoom_ = 1.0;
        relayout(false); // back to fit, and to the compact cells on a big machine
        update();
        return;
    }
    QPointF layout_point = toLayout(anchor);
    const PaneMode before = mode_;
    // From the compact cells, origin_ and scale_ describe a drawing that is
    // not on screen: find the node under the pointer in the cells and keep
    // the same spot of that node's box under it (N#0 stays under the mouse).
    if (before == PaneMode::Compact) {
        const QPointF in_cells = anchor - compact_origin_;
        const int cell = compact_.cell_at(in_cells.x(), in_cells.y());
        if (cell >= 0) {
            const CompactCell &cc = compact_.cells[static_cast<std::size_t>(cell)];
            const int box = geometry_.layout.box_of(topology_->numa_node(cc.node));
            if (box >= 0 && cc.rect.w > 0 && cc.rect.h > 0) {
                const LayoutRect &r = geometry_.layout.boxes()[static_cast<std::size_t>(box)].rect;
                const double fx = std::clamp((in_cells.x() - cc.rect.x) / cc.rect.w, 0.0, 1.0);
                const double fy = std::clamp((in_cells.y() - cc.rect.y) / cc.rect.h, 0.0, 1.0);
                layout_point = QPointF(r.x + fx * r.w, r.y + fy * r.h);
            }
        }
    }
    zoom_ = zoom;
    mode_ = PaneMode::Detail;
    scale_ = fit_scale_ * zoom_;
    origin_ = anchor - layout_point * scale_;
    if (before != mode_) {
        compact_ = {};
        updateScenes();
    }
    static_dirty_ = true;
    update();
}

void SimulationPane::wheelEvent(QWheelEvent *event)
{
    if (!(event->modifiers() & Qt::ControlModifier) || event->angleDelta().y() == 0) {
        QWidget::wheelEvent(event);
        return;
    }
    const double notches = event->angleDelta().y() / 120.0;
    double zoom = zoom_ * std::pow(kZoomStep, notches);
    // From the compact cells the first step in lands where labels are
    // readable: a 1024-PU machine magnified by 1.25 would still be a mesh.
    if (notches > 0 && mode_ == PaneMode::Compact && fit_scale_ > 0)
        zoom = std::max(zoom, kReadableScale / fit_scale_);
    // And the way out skips the unreadable scales too: below the readable
    // scale a machine that fits as compact cells goes back to them rather
    // than through a black mesh of boxes too small for their labels.
    if (notches < 0 && topology_ && fit_scale_ > 0 && fit_scale_ * zoom < kReadableScale &&
        choose_pane_mode(topology_->pu_count(), topology_->numa_count(), fit_scale_, 1.0) == PaneMode::Compact)
        zoom = 1.0;
    setZoom(zoom, event->position());
    event->accept();
}

void SimulationPane::mousePressEvent(QMouseEvent *event)
{
    if (zoom_ > 1.0 && event->button() == Qt::LeftButton && event->position().y() >= headerHeight()) {
        dragging_ = true;
        drag_from_ = event->position();
        setCursor(Qt::ClosedHandCursor);
        return;
    }
    QWidget::mousePressEvent(event);
}

void SimulationPane::mouseMoveEvent(QMouseEvent *event)
{
    if (!dragging_) {
        QWidget::mouseMoveEvent(event);
        return;
    }
    origin_ += event->position() - drag_from_;
    drag_from_ = event->position();
    static_dirty_ = true;
    update();
}

void SimulationPane::mouseReleaseEvent(QMouseEvent *event)
{
    if (dragging_) {
        dragging_ = false;
        unsetCursor();
        return;
    }
    QWidget::mouseReleaseEvent(event);
}

QPointF SimulationPane::toLayout(QPointF widget_pos) const { return (widget_pos - origin_) / scale_; }

void SimulationPane::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    relayout(false);
    checkHeader(); // the width decides how many lines the header takes
}

void SimulationPane::renderStatic()
{
    const qreal dpr = devicePixelRatioF();
    static_layer_ = QPixmap(size() * dpr);
    static_layer_.setDevicePixelRatio(dpr);
    static_layer_.fill(Qt::white);
    if (!geometry_.layout.empty()) {
        QPainter p(&static_layer_);
        p.setClipRect(contentRect());
        paintStatic(p, dpr);
    }
    static_dirty_ = false;
}

void SimulationPane::paintStatic(QPainter &p, qreal dpr) const
{
    if (mode_ == PaneMode::Compact) {
        p.save();
        p.translate(compact_origin_);
        paint_compact_static(p, compact_, font_);
        p.restore();
        return;
    }
    p.save();
    p.setRenderHint(QPainter::TextAntialiasing);
    p.translate(origin_);
    p.scale(scale_, scale_);
    RenderOptions ro;
    ro.scale = scale_ * dpr;
    QPainterCanvas canvas(p, font_);
    render_topology(geometry_.layout, canvas, ro);
    p.restore();
}

QString SimulationPane::headerTitle() const
{
    const PaneFrame *f = frame();
    QString t = f ? QString::fromStdString(f->policy) : tr("(no run)");
    // One space: "bind mode=hard" reads as the pane's label does.
    if (!params_text_.isEmpty())
        t += QLatin1Char(' ') + params_text_;
    return t;
}

QFont SimulationPane::headerTitleFont() const
{
    QFont bold = header_font_;
    bold.setBold(true);
    return bold;
}

namespace {
// `text` in at most `max_lines` lines of whole words at `room` pixels,
// greedily; what does not fit the last line is cut there at a word.
QStringList wrap_words(const QString &text, const QFontMetrics &fm, int room, int max_lines)
{
    QStringList lines{QString()};
    for (const QString &word : text.split(QLatin1Char(' '))) {
        QString &line = lines.back();
        if (line.isEmpty() && word.isEmpty() && lines.size() > 1)
            continue; // a double space at a break
        const QString longer = line.isEmpty() ? word : line + QLatin1Char(' ') + word;
        if (line.isEmpty() || fm.horizontalAdvance(longer) <= room || word.isEmpty())
            line = longer;
        else
            lines << word;
    }
    while (lines.size() > max_lines) {
        lines[lines.size() - 2] += QLatin1Char(' ') + lines.back();
        lines.removeLast();
    }
    for (QString &l : lines)
        l = elide_words(l, fm, room);
    return lines;
}
} // namespace

QString SimulationPane::shownHeaderTitle() const
{
    // A second line rather than "autonuma…" when the parameters do not fit
    // beside the policy's name (four panes in a row at 1280x720).
    return wrap_words(headerTitle(), QFontMetrics(headerTitleFont()), width() - 12, kMaxHeaderTitleLines)
        .join(QLatin1Char('\n'));
}

int SimulationPane::headerTitleLines() const
{
    return static_cast<int>(shownHeaderTitle().count(QLatin1Char('\n'))) + 1;
}

namespace {
// The figures' separator, where a two-line header breaks.
const QString kFigureSeparator = QStringLiteral(" | ");
} // namespace

namespace {
// The widest figures a run shows (a finished fixed-work run, six-figure
// counts): the lines they take at a width are the lines every run's take.
const QString &widest_figures()
{
    static const QString widest = QStringLiteral(
        "done in 9999.99 s | idle 100.0% | migrations 999.9k (999.9k remote) | local access 100.0% | sys 9999.99 s");
    return widest;
}

// `figures` split into lines of whole figures, greedily, at `room` pixels.
QStringList wrap_figures(const QString &figures, const QFontMetrics &fm, int room)
{
    QStringList lines;
    for (const QString &part : figures.split(kFigureSeparator)) {
        if (!lines.isEmpty() && fm.horizontalAdvance(lines.back() + kFigureSeparator + part) <= room)
            lines.back() += kFigureSeparator + part;
        else
            lines << part;
    }
    return lines;
}
} // namespace

int SimulationPane::headerFigureLines() const
{
    const qsizetype lines = wrap_figures(widest_figures(), QFontMetrics(header_font_), width() - 12).size();
    return static_cast<int>(std::clamp<qsizetype>(lines, 1, kMaxHeaderFigureLines));
}

int SimulationPane::naturalHeaderHeight() const
{
    return kPaneHeaderPx + (headerTitleLines() - 1 + headerFigureLines() - 1) * kPaneHeaderLinePx;
}

void SimulationPane::setHeaderFloor(int px)
{
    if (px == header_floor_)
        return;
    header_floor_ = px;
    if (headerHeight() != laid_out_header_) {
        relayout(false);
        update();
    }
}

void SimulationPane::checkHeader()
{
    const int natural = naturalHeaderHeight();
    if (natural != last_natural_header_) {
        last_natural_header_ = natural;
        emit naturalHeaderHeightChanged();
    }
    if (headerHeight() != laid_out_header_) {
        relayout(false);
        update();
    }
}

QString SimulationPane::shownHeaderFigures() const
{
    const QFontMetrics fm(header_font_);
    const int room = width() - 12;
    const int max_lines = headerFigureLines();
    QStringList lines = wrap_figures(headerFigures(), fm, room);
    // Past the lines the header has room for, the rest joins the last one
    // (and is cut there): the widest figures decided the count.
    while (lines.size() > max_lines) {
        lines[lines.size() - 2] += kFigureSeparator + lines.back();
        lines.removeLast();
    }
    for (QString &l : lines)
        l = elide_words(l, fm, room);
    return lines.join(QLatin1Char('\n'));
}

QString SimulationPane::headerToolTip() const
{
    QString t = headerTitle() + QLatin1Char('\n') + headerFigures();
    if (frame())
        t += tr("\nDouble-click to change this pane's policy parameters.");
    return t;
}

QString elide_words(const QString &text, const QFontMetrics &fm, int width)
{
    if (fm.horizontalAdvance(text) <= width)
        return text;
    const QString ellipsis(QChar(0x2026));
    const QString cut = fm.elidedText(text, Qt::ElideRight, width);
    // elidedText cuts anywhere ("local access 31...."): back off to the
    // last word boundary, and in a list of figures to the last " | ", so
    // no figure is shown without its number.
    qsizetype keep = cut.endsWith(ellipsis) ? cut.size() - 1 : cut.size();
    if (keep < text.size() && !text.at(keep).isSpace()) {
        qsizetype boundary = keep;
        while (boundary > 0 && !text.at(boundary - 1).isSpace())
            --boundary;
        if (boundary > 0)
            keep = boundary;
    }
    const QString separator = QStringLiteral(" | ");
    if (const qsizetype bar = text.lastIndexOf(separator, keep - 1); bar > 0)
        keep = bar;
    while (keep > 0 && text.at(keep - 1).isSpace())
        --keep;
    return keep > 0 ? text.left(keep) + ellipsis : cut;
}

QString SimulationPane::headerFigures() const
{
    const PaneFrame *f = frame();
    if (!f)
        return tr("loading...");
    const PaneFigures &g = f->figures;
    QString lead;
    if (g.fixed_work)
        lead = g.finished ? tr("done in %1 s").arg(static_cast<double>(g.end_ns) / 1e9, 0, 'f', 2)
                          : tr("progress %1%").arg(g.progress * 100, 0, 'f', 1);
    else
        lead = tr("%1 ops/s").arg(g.throughput, 0, 'f', 0);
    const std::int64_t remote = g.migrations_by_class[static_cast<int>(DistanceClass::RemoteNode)];
    return tr("%1 | idle %2% | migrations %3 (%4 remote) | local access %5% | sys %6 s")
        .arg(lead)
        .arg(g.idle_pct, 0, 'f', 1)
        .arg(format_count(g.migrations))
        .arg(format_count(remote))
        .arg(g.local_pct, 0, 'f', 1)
        .arg(g.sys_s, 0, 'f', 2);
}

void SimulationPane::paintEvent(QPaintEvent *)
{
    QElapsedTimer t;
    t.start();
    QPainter p(this);
    // On screen the machine's boxes come from a cached pixmap; painted into
    // an SVG (or a printer) they are drawn as shapes and text instead, so an
    // exported view stays vector.
    if (p.paintEngine() && p.paintEngine()->type() != QPaintEngine::Raster) {
        p.fillRect(rect(), Qt::white);
        if (!geometry_.layout.empty()) {
            p.save();
            p.setClipRect(contentRect());
            paintStatic(p, 1.0);
            p.restore();
        }
    } else {
        if (static_dirty_ || static_layer_.size() != size() * devicePixelRatioF())
            renderStatic();
        p.drawPixmap(0, 0, static_layer_);
    }

    const SimPalette pal;
    const int header = headerHeight();
    p.fillRect(QRect(0, 0, width(), header), to_qcolor(pal.header_bg));
    p.setPen(QColor(200, 200, 205));
    p.drawLine(0, header - 1, width(), header - 1);
    p.setPen(to_qcolor(pal.header_text));
    p.setFont(headerTitleFont());
    const QStringList title_lines = shownHeaderTitle().split(QLatin1Char('\n'));
    for (int i = 0; i < title_lines.size(); ++i)
        p.drawText(QRect(6, 3 + i * kPaneHeaderLinePx, width() - 12, kPaneHeaderLinePx),
                   Qt::AlignLeft | Qt::AlignVCenter, title_lines[i]);
    p.setFont(header_font_);
    const int figures_top = 20 + (static_cast<int>(title_lines.size()) - 1) * kPaneHeaderLinePx;
    const QStringList figure_lines = shownHeaderFigures().split(QLatin1Char('\n'));
    for (int i = 0; i < figure_lines.size(); ++i)
        p.drawText(QRect(6, figures_top + i * kPaneHeaderLinePx, width() - 12, kPaneHeaderLinePx),
                   Qt::AlignLeft | Qt::AlignVCenter, figure_lines[i]);

    if (frame() && mode_ == PaneMode::Compact) {
        p.setClipRect(contentRect());
        p.translate(compact_origin_);
        paint_compact_scene(p, compact_, compact_scene_);
    } else if (frame()) {
        p.setClipRect(contentRect());
        p.translate(origin_);
        p.scale(scale_, scale_);
        PanePaintOptions o;
        o.scale = scale_ * devicePixelRatioF();
        o.moving = &moving_;
        paint_pane_scene(p, geometry_, scene_, o);
    }
    ++paints_;
    last_paint_ms_ = static_cast<double>(t.nsecsElapsed()) / 1e6;
}

bool SimulationPane::event(QEvent *event)
{
    if (event->type() != QEvent::ToolTip)
        return QWidget::event(event);
    auto *help = static_cast<QHelpEvent *>(event);
    // The header: its full text, which a narrow pane elides.
    if (help->pos().y() < headerHeight()) {
        QToolTip::showText(help->globalPos(), headerToolTip(), this);
        return true;
    }
    if (mode_ == PaneMode::Compact)
        return compactTooltip(help);
    const QPointF lp = toLayout(help->pos());
    const PaneFrame *f = frame();
    if (f) {
        for (const Token &t : scene_.tokens) {
            if (!t.rect.contains(lp.x(), lp.y()))
                continue;
            const QString proc = t.proc >= 0 && t.proc < static_cast<int>(f->process_names.size())
                                     ? QString::fromStdString(f->process_names[t.proc])
                                     : QString::number(t.proc);
            QToolTip::showText(help->globalPos(),
                               tr("task %1 of process %2 (%3)\n%4 on CPU %5")
                                   .arg(t.task)
                                   .arg(t.proc)
                                   .arg(proc)
                                   .arg(t.running ? tr("running") : tr("queued"))
                                   .arg(topology_ ? topology_->pu_os_index(t.cpu) : t.cpu),
                               this);
            return true;
        }
    }
    const int box = geometry_.layout.hit_test(lp.x(), lp.y());
    if (box >= 0 && topology_ && geometry_.layout.boxes()[box].kind == BoxKind::Object) {
        QToolTip::showText(help->globalPos(),
                           QString::fromStdString(object_tooltip(*topology_, geometry_.layout.boxes()[box].obj)), this);
        return true;
    }
    QToolTip::hideText();
    event->ignore();
    return true;
}

bool SimulationPane::compactTooltip(const QHelpEvent *help)
{
    const QPointF p = QPointF(help->pos()) - compact_origin_;
    const int i = compact_.cell_at(p.x(), p.y());
    const PaneFrame *f = frame();
    if (i < 0 || !topology_) {
        QToolTip::hideText();
        return true;
    }
    const CompactCell &c = compact_.cells[i];
    QString text = c.hidden > 0 ? tr("NUMA nodes L#%1 to L#%2: %3 identical nodes folded to fit the pane")
                                      .arg(c.node)
                                      .arg(c.node + c.hidden - 1)
                                      .arg(c.hidden)
                                : QString::fromStdString(object_tooltip(*topology_, topology_->numa_node(c.node)));
    if (f && i < static_cast<int>(compact_scene_.cells.size())) {
        const CompactCellState &s = compact_scene_.cells[i];
        text += tr("\n%1 of %2 PUs busy, %3 queued").arg(s.busy).arg(s.pu_total).arg(s.queued);
        if (c.hidden > 0)
            text += tr("\nmemory per node, on average:");
        for (const auto &[proc, bytes] : s.memory) {
            const QString name = proc < static_cast<int>(f->process_names.size())
                                     ? QString::fromStdString(f->process_names[proc])
                                     : QString::number(proc);
            text += tr("\n%1: %2 MiB here").arg(name).arg(bytes / (1024.0 * 1024.0), 0, 'f', 1);
        }
    }
    text += tr("\nCtrl+wheel zooms into the full drawing.");
    QToolTip::showText(help->globalPos(), text, this);
    return true;
}

void SimulationPane::mouseDoubleClickEvent(QMouseEvent *event)
{
    if (event->position().y() < headerHeight())
        emit editRequested();
    QWidget::mouseDoubleClickEvent(event);
}

} // namespace schedscope::gui
