#pragma once
// A log-spaced histogram (core/analysis LogHistogram) as stacked bars, bins
// below a threshold in one colour and the rest in another. For a run's
// "time since last ran" the threshold is the policy's cache_hot_time, so the
// orange share is the migrations that moved a still-hot task.

#include "analysis/log_histogram.h"

#include <QChartView>

namespace schedscope::gui {

class HistogramView : public QChartView {
    Q_OBJECT
public:
    explicit HistogramView(QWidget *parent = nullptr);
    // Values are in ns; `threshold_ns` < 0 draws no threshold.
    void setHistogram(const LogHistogram &histogram, double threshold_ns, const QString &title,
                      const QString &below_label, const QString &above_label);
    void clear(const QString &title);

    // "100 ns", "2.5 us", "10 ms", "1 s": bin edges as a reader says them.
    static QString durationLabel(double ns);
};

} // namespace schedscope::gui
