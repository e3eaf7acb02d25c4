#include "panels/cursor_chart_view.h"

#include "panels/chart_overlap.h"

#include <QChart>
#include <QFontMetricsF>
#include <QGraphicsLineItem>
#include <QGraphicsRectItem>
#include <QGraphicsSimpleTextItem>
#include <QLegendMarker>
#include <QLineSeries>
#include <QMouseEvent>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <set>

namespace schedscope::gui {

namespace {

// Beyond this many lines the legend would crowd out the plot; the hover
// text still names every line.
constexpr int kMaxLegendLines = 12;
constexpr int kMaxHoverLines = 10;
// Every chart's plot area starts and ends at the same distance from the
// view's edges, whatever its axis labels: charts of equal width then share
// one time scale on screen, and the cursors line up across them.
constexpr qreal kPlotLeftPx = 72;
constexpr qreal kPlotRightPx = 18;
// Small multiples share their axes and sit side by side: a narrower margin
// (tick labels only, no axis title) and fewer ticks fit a 150 px chart.
constexpr qreal kCompactPlotLeftPx = 40;
// Between a value label and the plot: the tick and a gap.
constexpr qreal kCompactLabelGapPx = 26;
constexpr qreal kMinChartWidthPx = 100;
constexpr qreal kMinChartHeightPx = 80;
constexpr double kCompactTicks = 2;
// Value ticks of a small multiple tall enough for them (kShortCompactHeightPx).
constexpr int kCompactValueIntervals = 5;
// A compact chart's height outside its plot (title, time labels, margins:
// 70 of a 149 px mini), and the least plot height per value tick: at 16 px
// apart Qt wrote "..." for every label.
constexpr int kCompactChromePx = 70;
constexpr int kMinTickSpacingPx = 24;
// Below this height a compact chart's plot would be squeezed to a few
// pixels by its time labels and title (a 2 x 2 grid in a 1280 x 720
// window's charts dock), and Qt cuts the tick labels to "...".
constexpr int kShortCompactHeightPx = 110;

// The time cursor: the one red mark of every chart.
const QColor kCursorColour(200, 0, 0);
// The note on lines lying on top of each other: the node charts' brown.
const QColor kOverlapNoteColour(0x6a, 0x4a, 0x00);

// Six styles, one per migration distance class (smt ... remote node): with
// five, remote-node wrapped round to smt's solid line. The last is a long
// dash (kLongDashPenWidths), drawn with a custom pattern.
const Qt::PenStyle kStyles[] = {Qt::SolidLine,   Qt::DashLine,       Qt::DotLine,
                                Qt::DashDotLine, Qt::DashDotDotLine, Qt::CustomDashLine};
// Dash and gap in pen widths: dashes three times DashLine's.
constexpr qreal kLongDashPenWidths = 12;
constexpr qreal kLongGapPenWidths = 4;

void set_style(QPen &pen, int index)
{
    const Qt::PenStyle style = kStyles[static_cast<std::size_t>(std::max(index, 0)) % std::size(kStyles)];
    if (style == Qt::CustomDashLine)
        pen.setDashPattern({kLongDashPenWidths, kLongGapPenWidths});
    else
        pen.setStyle(style);
}

bool is_percent(ChartKind k)
{
    return k == ChartKind::LocalAccess || k == ChartKind::IdlePct || k == ChartKind::Progress;
}

// About kTimeTicks ticks across the time axis, each 1, 2 or 5 times a power of ten.
constexpr double kTimeTicks = 5;

QString label_format(int decimals) { return QStringLiteral("%.%1f").arg(decimals); }

} // namespace

QStringList wrap_note(const QString &text, const QFontMetricsF &fm, qreal width, int max_lines)
{
    QStringList lines{QString()};
    for (const QString &word : text.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        const QString longer = lines.back().isEmpty() ? word : lines.back() + QLatin1Char(' ') + word;
        if (lines.back().isEmpty() || fm.horizontalAdvance(longer) <= width || lines.size() >= max_lines)
            lines.back() = longer;
        else
            lines << word;
    }
    // A single word wider than the line, or the rest past the last line.
    for (QString &line : lines)
        if (fm.horizontalAdvance(line) > width)
            line = fm.elidedText(line, Qt::ElideRight, width);
    return lines;
}

QColor CursorChartView::runColour(int run)
{
    // Tableau-like colours: distinct for up to four panes, and readable on white.
    static const QColor colours[] = {QColor(31, 119, 180), QColor(255, 127, 14),  QColor(44, 160, 44),
                                     QColor(214, 39, 40),  QColor(148, 103, 189), QColor(140, 86, 75)};
    return colours[static_cast<std::size_t>(std::max(run, 0)) % std::size(colours)];
}

QColor CursorChartView::groupColour(int group)
{
    // Nodes: eight colours that stay apart from each other on white and from
    // the other marks of a chart, the red time cursor (kCursorColour) and
    // the grey reference marks: no red, no grey. Past eight they repeat.
    static const QColor colours[] = {QColor(31, 119, 180),  QColor(255, 127, 14), QColor(44, 160, 44),
                                     QColor(148, 103, 189), QColor(140, 86, 75),  QColor(227, 119, 194),
                                     QColor(188, 189, 34),  QColor(23, 190, 207)};
    return colours[static_cast<std::size_t>(std::max(group, 0)) % std::size(colours)];
}

QColor CursorChartView::cursorColour() { return kCursorColour; }

QString CursorChartView::migrationStyleName(int distance_class)
{
    static const char *const names[] = {"solid", "dashed", "dotted", "dash-dot", "dash-dot-dot", "long-dashed"};
    static_assert(std::size(names) == std::size(kStyles));
    // The same index setChartData picks: class 1 (SMT) is the first style.
    return QString::fromLatin1(names[static_cast<std::size_t>(std::max(distance_class - 1, 0)) % std::size(names)]);
}

CursorChartView::CursorChartView(QWidget *parent) : QChartView(new QChart, parent)
{
    setRenderHint(QPainter::Antialiasing);
    setMouseTracking(true);
    chart()->legend()->setAlignment(Qt::AlignBottom);
    // A smaller legend font keeps "policy node N" labels whole with four runs.
    QFont legend_font = chart()->legend()->font();
    legend_font.setPointSizeF(legend_font.pointSizeF() * 0.85);
    chart()->legend()->setFont(legend_font);
    chart()->setMargins(QMargins(4, 4, 4, 4));
    // QChart's own minimum (title, axis labels) can exceed a narrow view,
    // which then shows only the chart's left part, cursor cut off: let the
    // chart shrink with the view instead.
    chart()->setMinimumSize(QSizeF(kMinChartWidthPx, kMinChartHeightPx));
    cursor_ = new QGraphicsLineItem(chart());
    cursor_->setPen(QPen(kCursorColour, 1.5));
    cursor_->setZValue(10);
    overlap_note_ = new QGraphicsSimpleTextItem(chart());
    overlap_note_->setBrush(kOverlapNoteColour);
    overlap_note_->setZValue(9);
    overlap_note_->hide();
    hover_box_ = new QGraphicsRectItem(chart());
    hover_box_->setBrush(QColor(255, 255, 255, 230));
    hover_box_->setPen(QPen(QColor(160, 160, 160)));
    hover_box_->setZValue(11);
    hover_text_ = new QGraphicsSimpleTextItem(hover_box_);
    hover_box_->hide();
    connect(chart(), &QChart::plotAreaChanged, this, [this] {
        alignPlotArea();
        placeCursor();
    });
}

void CursorChartView::alignPlotArea()
{
    if (aligning_)
        return;
    const QRectF auto_area = chart()->plotArea();
    qreal left = compact_ ? kCompactPlotLeftPx : kPlotLeftPx;
    if (compact_)
        // Room for the widest value label ("1250" needs more than "400"),
        // or Qt writes "..." for every tick.
        for (QAbstractAxis *a : chart()->axes(Qt::Vertical))
            if (auto *y = qobject_cast<QValueAxis *>(a)) {
                const QString widest = QString::asprintf(y->labelFormat().toLatin1().constData(), y->max());
                left = std::max(left, QFontMetricsF(y->labelsFont()).horizontalAdvance(widest) + kCompactLabelGapPx);
            }
    const qreal right = chart()->size().width() - kPlotRightPx;
    if (auto_area.isEmpty() || right <= left + 10)
        return;
    if (qAbs(auto_area.left() - left) < 0.5 && qAbs(auto_area.right() - right) < 0.5)
        return;
    // Keep Qt's vertical layout (title, legend rows), fix the horizontal one.
    aligning_ = true;
    chart()->setPlotArea(QRectF(QPointF(left, auto_area.top()), QPointF(right, auto_area.bottom())));
    aligning_ = false;
}

void CursorChartView::setCompact(bool compact)
{
    if (compact == compact_)
        return;
    compact_ = compact;
    QFont title = chart()->titleFont();
    title.setPointSizeF(title.pointSizeF() * (compact ? 0.85 : 1 / 0.85));
    chart()->setTitleFont(title);
}

void CursorChartView::fitCompactAxes()
{
    if (!compact_)
        return;
    const bool short_view = height() < kShortCompactHeightPx;
    for (QAbstractAxis *a : chart()->axes(Qt::Horizontal))
        a->setLabelsVisible(!short_view);
    // As many value ticks as the plot has room for, each label well over a
    // line of text apart (six in 79 px of plot came out as "..." labels).
    const int intervals = short_view ? 1
                                     : std::clamp((height() - kCompactChromePx) / kMinTickSpacingPx, 2,
                                                  kCompactValueIntervals);
    const AxisScale scale = tight_axis_scale(data_.y_max, intervals);
    for (QAbstractAxis *a : chart()->axes(Qt::Vertical))
        if (auto *y = qobject_cast<QValueAxis *>(a)) {
            y->setRange(0, scale.top);
            y->setTickInterval(scale.step);
            y->setLabelFormat(label_format(scale.decimals));
        }
}

void CursorChartView::resizeEvent(QResizeEvent *event)
{
    fitCompactAxes();
    // Back to automatic layout for the new size; alignPlotArea() then fixes
    // the horizontal edges once Qt has computed it.
    chart()->setPlotArea(QRectF());
    QChartView::resizeEvent(event);
}

void CursorChartView::setChartData(const ChartData &data, const QString &subtitle)
{
    data_ = data;
    QChart *c = chart();
    c->removeAllSeries(); // deletes them, the marks' series too
    mark_series_.clear();
    for (QGraphicsSimpleTextItem *label : mark_labels_)
        delete label;
    mark_labels_.clear();
    // removeAxis only hands the axis back: delete it, or its labels and
    // grid linger in the scene and are drawn over the new ones.
    for (QAbstractAxis *axis : c->axes()) {
        c->removeAxis(axis);
        delete axis;
    }
    c->setTitle(subtitle.isEmpty()
                    ? QString::fromUtf8(chart_title(data.kind))
                    : QStringLiteral("%1 \u2014 %2").arg(QString::fromUtf8(chart_title(data.kind)), subtitle));

    auto *x = new QValueAxis;
    // Short: a 180 px chart showed "simulated tim...".
    x->setTitleText(tr("time (s)"));
    x->setLabelFormat(QStringLiteral("%.1f"));
    auto *y = new QValueAxis;
    y->setTitleText(QString::fromUtf8(chart_unit(data.kind)));
    c->addAxis(x, Qt::AlignBottom);
    c->addAxis(y, Qt::AlignLeft);

    for (const ChartLine &line : data.lines) {
        auto *s = new QLineSeries;
        s->setName(QString::fromStdString(line.label));
        QList<QPointF> points;
        points.reserve(static_cast<qsizetype>(line.t_s.size()));
        for (std::size_t i = 0; i < line.t_s.size(); ++i)
            points.append(QPointF(line.t_s[i], line.y[i]));
        s->replace(points);
        // A line of one sample (the first 100 ms) would draw nothing at all.
        s->setPointsVisible(points.size() == 1);
        // Memory per node reads like autonuma-benchmark's chart: a colour per
        // node, the policy in the line style. Elsewhere the policy is the colour.
        const bool by_node = data.kind == ChartKind::NodeMemory;
        QPen pen(by_node ? groupColour(line.group) : runColour(line.run), 2);
        const int style_index = by_node ? line.run : (data.kind == ChartKind::MigrationRate ? line.group - 1 : 0);
        set_style(pen, style_index);
        s->setPen(pen);
        c->addSeries(s);
        s->attachAxis(x);
        s->attachAxis(y);
    }
    c->legend()->setVisible(legend_shown_ && !data.lines.empty() && data.lines.size() <= kMaxLegendLines);
    // Round ticks with as many decimals as they need (value_axis_scale):
    // 0, 0.002, 0.004 s of system time, 0-1 % idle when idle stays low.
    AxisScale scale = value_axis_scale(data.y_max, is_percent(data.kind));
    if (compact_) {
        // Rounded once, from the data: rounding value_axis_scale's top again
        // took a 384 MiB peak to a 0-1000 axis.
        scale = tight_axis_scale(data.y_max, kCompactValueIntervals);
        x->setTitleVisible(false);
        y->setTitleVisible(false);
    }
    y->setRange(0, scale.top);
    y->setTickType(QValueAxis::TicksDynamic);
    y->setTickAnchor(0.0);
    y->setTickInterval(scale.step);
    y->setLabelFormat(label_format(scale.decimals));
    addMarks(scale.top);
    updateOverlapNote();
    fitCompactAxes();
    // New labels, new legend: let Qt lay the chart out again before aligning.
    c->setPlotArea(QRectF());
    setTimeRange(t_max_s_);
}

void CursorChartView::setTimeRange(double t_max_s)
{
    t_max_s_ = t_max_s > 0 ? t_max_s : 1.0;
    const auto axes = chart()->axes(Qt::Horizontal);
    if (!axes.isEmpty()) {
        axes.first()->setRange(0.0, t_max_s_);
        // Ticks on round times (0, 1, 2 s or 0, 0.5, 1 s), not at fifths of
        // whatever the run reached (1.3, 2.5, 3.8).
        if (auto *x = qobject_cast<QValueAxis *>(axes.first())) {
            const double step = nice_step(t_max_s_, compact_ ? kCompactTicks : kTimeTicks);
            x->setTickType(QValueAxis::TicksDynamic);
            x->setTickAnchor(0.0);
            x->setTickInterval(step);
            x->setLabelFormat(label_format(decimals_for_step(step)));
        }
    }
    // Horizontal marks span the whole time axis.
    for (std::size_t i = 0; i < mark_series_.size() && i < data_.marks.size(); ++i)
        if (!data_.marks[i].vertical)
            mark_series_[i]->replace({QPointF(0, data_.marks[i].value), QPointF(t_max_s_, data_.marks[i].value)});
    placeCursor();
}

void CursorChartView::addMarks(double y_top)
{
    QChart *c = chart();
    const auto x_axes = c->axes(Qt::Horizontal);
    const auto y_axes = c->axes(Qt::Vertical);
    for (const ReferenceMark &m : data_.marks) {
        auto *s = new QLineSeries;
        s->setName(QString::fromStdString(m.label));
        if (m.vertical)
            s->replace({QPointF(m.value, 0), QPointF(m.value, y_top)});
        else
            s->replace({QPointF(0, m.value), QPointF(t_max_s_, m.value)});
        QPen pen(m.run >= 0 ? runColour(m.run).darker(130) : QColor(90, 90, 90), 1.5, Qt::DashLine);
        s->setPen(pen);
        c->addSeries(s);
        s->attachAxis(x_axes.first());
        s->attachAxis(y_axes.first());
        // The text beside the line names it; the legend keeps to the runs.
        for (QLegendMarker *marker : c->legend()->markers(s))
            marker->setVisible(false);
        mark_series_.push_back(s);
        auto *label = new QGraphicsSimpleTextItem(QString::fromStdString(m.label), c);
        label->setBrush(pen.color());
        QFont f = label->font();
        f.setPointSizeF(f.pointSizeF() * 0.8);
        label->setFont(f);
        label->setZValue(9);
        mark_labels_.push_back(label);
    }
}

void CursorChartView::placeMarks()
{
    const QRectF area = chart()->plotArea();
    if (mark_series_.empty() || area.isEmpty())
        return;
    for (std::size_t i = 0; i < mark_labels_.size() && i < data_.marks.size(); ++i) {
        const ReferenceMark &m = data_.marks[i];
        QGraphicsSimpleTextItem *label = mark_labels_[i];
        const QPointF at = chart()->mapToPosition(m.vertical ? QPointF(m.value, 0) : QPointF(0, m.value),
                                                  mark_series_[i]);
        const QRectF box = label->boundingRect();
        // Stacked from the top when vertical, so several times stay readable.
        qreal x = m.vertical ? at.x() + 3 : area.left() + 4;
        qreal y = m.vertical ? area.top() + 2 + static_cast<qreal>(i) * box.height() : at.y() - box.height();
        // A time past the axis' end: the label at the right edge says where it lies.
        const bool beyond = m.vertical && at.x() > area.right();
        label->setText(QString::fromStdString(m.label) + (beyond ? QStringLiteral(" \u2192") : QString()));
        if (x + label->boundingRect().width() > area.right())
            x = area.right() - label->boundingRect().width() - 2;
        y = std::clamp(y, area.top(), area.bottom() - box.height());
        label->setPos(x, y);
        label->setVisible(m.vertical || (at.y() >= area.top() - 0.5 && at.y() <= area.bottom() + 0.5));
    }
}

void CursorChartView::updateOverlapNote()
{
    overlap_text_.clear();
    if (!compact_) {
        QStringList groups;
        for (const std::vector<int> &group : overlapping_lines(data_, overlap_tolerance(data_.y_max))) {
            // Only lines of different panes hide one another: a pane's own
            // classes at the same rate are told apart by the hover text.
            std::set<int> runs;
            bool drawn_above_zero = false;
            QStringList names;
            for (int i : group) {
                const ChartLine &line = data_.lines[static_cast<std::size_t>(i)];
                runs.insert(line.run);
                drawn_above_zero = drawn_above_zero ||
                                   std::any_of(line.y.begin(), line.y.end(), [](double v) { return v != 0.0; });
                names << QString::fromStdString(line.label);
            }
            // Lines that stay at 0 lie on the axis, which the note cannot help.
            if (runs.size() < 2 || !drawn_above_zero)
                continue;
            // The policy they share said once: "bind mode=hard = mode=inverse".
            const QString first_word = names.front().section(QLatin1Char(' '), 0, 0) + QLatin1Char(' ');
            if (std::all_of(names.begin(), names.end(), [&](const QString &n) { return n.startsWith(first_word); }))
                for (qsizetype i = 1; i < names.size(); ++i)
                    names[i] = names[i].mid(first_word.size());
            groups << names.join(QStringLiteral(" = "));
        }
        if (!groups.isEmpty())
            overlap_text_ = tr("on top of each other: %1").arg(groups.join(QStringLiteral("; ")));
    }
    overlap_note_->setVisible(!overlap_text_.isEmpty());
}

void CursorChartView::placeOverlapNote()
{
    const QRectF area = chart()->plotArea();
    if (overlap_text_.isEmpty() || area.isEmpty()) {
        overlap_note_->hide();
        if (!compact_)
            setToolTip({});
        return;
    }
    // Across the top of the plot, wrapped between words to its width (up
    // to kMaxNoteLines lines, cut only past them); the whole note is also
    // the view's tooltip.
    const QFontMetricsF fm(overlap_note_->font());
    overlap_note_->setText(
        wrap_note(overlap_text_, fm, std::max(area.width() - 8, 20.0), kMaxNoteLines).join(QLatin1Char('\n')));
    overlap_note_->setPos(area.left() + 4, area.top() + 2);
    overlap_note_->show();
    setToolTip(overlap_text_);
}

void CursorChartView::setCursorTime(double t_s)
{
    cursor_s_ = t_s;
    placeCursor();
}

void CursorChartView::placeCursor()
{
    placeMarks();
    placeOverlapNote();
    const QRectF area = chart()->plotArea();
    if (chart()->series().isEmpty() || area.isEmpty()) {
        cursor_->hide();
        return;
    }
    const double x = chart()->mapToPosition(QPointF(cursor_s_, 0), chart()->series().first()).x();
    cursor_->setLine(x, area.top(), x, area.bottom());
    cursor_->setVisible(x >= area.left() - 0.5 && x <= area.right() + 0.5);
}

double CursorChartView::timeAt(const QPointF &view_pos) const
{
    if (chart()->series().isEmpty())
        return 0;
    const QPointF scene = mapToScene(view_pos.toPoint());
    const QPointF in_chart = chart()->mapFromScene(scene);
    return std::clamp(chart()->mapToValue(in_chart, chart()->series().first()).x(), 0.0, t_max_s_);
}

QString CursorChartView::valuesText(double t_s) const
{
    QStringList lines{QString::fromStdString(format_time_s(t_s))};
    int shown = 0;
    for (const ChartLine &line : data_.lines) {
        if (shown == kMaxHoverLines) {
            lines << tr("... %1 more").arg(static_cast<int>(data_.lines.size()) - shown);
            break;
        }
        const auto v = value_at(line, t_s);
        lines << QStringLiteral("%1: %2 %3")
                     .arg(QString::fromStdString(line.label),
                          v ? QString::number(*v, 'f', *v >= 100 ? 0 : 1) : QStringLiteral("-"),
                          QString::fromUtf8(chart_unit(data_.kind)));
        ++shown;
    }
    return lines.join(QLatin1Char('\n'));
}

void CursorChartView::showHover(const QPointF &view_pos)
{
    const QPointF in_chart = chart()->mapFromScene(mapToScene(view_pos.toPoint()));
    if (!chart()->plotArea().contains(in_chart) || data_.lines.empty()) {
        hover_box_->hide();
        return;
    }
    hover_text_->setText(valuesText(timeAt(view_pos)));
    const QRectF text = hover_text_->boundingRect();
    hover_text_->setPos(4, 2);
    hover_box_->setRect(0, 0, text.width() + 8, text.height() + 4);
    // Top corner away from the mouse, so the box never hides what it describes.
    const QRectF area = chart()->plotArea();
    const bool left = in_chart.x() > area.center().x();
    hover_box_->setPos(left ? area.left() + 4 : area.right() - text.width() - 12, area.top() + 4);
    hover_box_->show();
}

void CursorChartView::mousePressEvent(QMouseEvent *event)
{
    if (event->button() == Qt::LeftButton && !chart()->series().isEmpty()) {
        dragging_ = true;
        setCursorTime(timeAt(event->position()));
        emit cursorDragged(cursor_s_);
        event->accept();
        return;
    }
    QChartView::mousePressEvent(event);
}

void CursorChartView::mouseMoveEvent(QMouseEvent *event)
{
    if (dragging_) {
        setCursorTime(timeAt(event->position()));
        emit cursorDragged(cursor_s_);
    }
    showHover(event->position());
    QChartView::mouseMoveEvent(event);
}

void CursorChartView::mouseReleaseEvent(QMouseEvent *event)
{
    dragging_ = false;
    QChartView::mouseReleaseEvent(event);
}

void CursorChartView::leaveEvent(QEvent *event)
{
    hover_box_->hide();
    QChartView::leaveEvent(event);
}

} // namespace schedscope::gui
