#include "panels/histogram_view.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QStackedBarSeries>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <limits>

namespace schedscope::gui {

HistogramView::HistogramView(QWidget *parent) : QChartView(new QChart, parent)
{
    setRenderHint(QPainter::Antialiasing);
    chart()->legend()->setAlignment(Qt::AlignBottom);
    chart()->setMargins(QMargins(2, 2, 2, 2));
}

QString HistogramView::durationLabel(double ns)
{
    struct Unit {
        double ns;
        const char *name;
    };
    static constexpr Unit units[] = {{1e9, "s"}, {1e6, "ms"}, {1e3, "us"}, {1, "ns"}};
    for (const Unit &u : units)
        if (ns >= u.ns) {
            const double v = ns / u.ns;
            // "2.5 ms", "620 us", "1 s": one decimal only where it says something.
            QString text = QString::number(v, 'f', v < 10 ? 1 : 0);
            if (text.endsWith(QLatin1String(".0")))
                text.chop(2);
            return text + QLatin1Char(' ') + QLatin1String(u.name);
        }
    return QStringLiteral("0");
}

void HistogramView::clear(const QString &title)
{
    chart()->removeAllSeries();
    for (QAbstractAxis *axis : chart()->axes())
        chart()->removeAxis(axis);
    chart()->setTitle(title);
}

void HistogramView::setHistogram(const LogHistogram &h, double threshold_ns, const QString &title,
                                 const QString &below_label, const QString &above_label)
{
    clear(title);
    auto *below = new QBarSet(below_label);
    auto *above = new QBarSet(above_label);
    below->setColor(QColor(253, 141, 60));
    above->setColor(QColor(107, 174, 214));
    QStringList categories;
    auto add = [&](const QString &label, double upper_edge_ns, std::int64_t count) {
        // A bin counts as below the threshold when all of it is.
        const bool is_below = threshold_ns >= 0 && upper_edge_ns <= threshold_ns;
        *below << (is_below ? static_cast<qreal>(count) : 0.0);
        *above << (is_below ? 0.0 : static_cast<qreal>(count));
        categories << label;
    };
    const auto &edges = h.edges();
    const auto &counts = h.counts();
    add(QStringLiteral("<") + durationLabel(edges.front()), edges.front(), h.below());
    // One bar per decade: 32 bins would need unreadable labels. Each bin is
    // still judged hot or cold on its own before it is summed, so the
    // decade holding the threshold shows both colours.
    const std::size_t per_decade = counts.size() /
                                   std::max<std::size_t>(1, static_cast<std::size_t>(
                                                                std::lround(std::log10(edges.back() / edges.front()))));
    for (std::size_t first = 0; first < counts.size(); first += per_decade) {
        qreal hot = 0, cold = 0;
        for (std::size_t i = first; i < std::min(first + per_decade, counts.size()); ++i)
            (threshold_ns >= 0 && edges[i + 1] <= threshold_ns ? hot : cold) += static_cast<qreal>(counts[i]);
        *below << hot;
        *above << cold;
        categories << durationLabel(edges[first]);
    }
    add(QStringLiteral("\u2265") + durationLabel(edges.back()), std::numeric_limits<double>::infinity(), h.above());

    auto *series = new QStackedBarSeries;
    series->setBarWidth(0.95);
    series->append(below);
    series->append(above);
    chart()->addSeries(series);
    auto *x = new QBarCategoryAxis;
    x->append(categories);
    QFont small = x->labelsFont();
    small.setPointSizeF(small.pointSizeF() * 0.75);
    x->setLabelsFont(small);
    x->setLabelsAngle(-45); // ten duration labels side by side do not fit level
    auto *y = new QValueAxis;
    y->setLabelFormat(QStringLiteral("%.0f"));
    qreal top = 1;
    for (int i = 0; i < below->count(); ++i)
        top = std::max(top, below->at(i) + above->at(i));
    y->setRange(0, top);
    // Whole counts: at most five ticks, never a tick between two integers.
    y->setTickCount(static_cast<int>(std::min<qreal>(top, 4)) + 1);
    if (top > 4)
        y->applyNiceNumbers();
    chart()->addAxis(x, Qt::AlignBottom);
    chart()->addAxis(y, Qt::AlignLeft);
    series->attachAxis(x);
    series->attachAxis(y);
}

} // namespace schedscope::gui
