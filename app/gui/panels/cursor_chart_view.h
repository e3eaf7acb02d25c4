#pragma once
// One analysis chart: the lines of a ChartData, a vertical time cursor that
// can be set from outside and dragged with the mouse, and the values of
// every line at the mouse position while hovering. All charts of a panel
// share one time range, so they line up with each other and the panes.

#include "panels/chart_data.h"

#include <QChartView>
#include <QFontMetricsF>
#include <QStringList>

class QGraphicsLineItem;
class QLineSeries;
class QGraphicsSimpleTextItem;
class QGraphicsRectItem;

namespace schedscope::gui {

// `text` in at most `max_lines` lines broken between words, each at most
// `width` pixels of `metrics`; only what three lines cannot hold is cut (the
// last line elided). The overlap notes of the charts and the small
// multiples wrap this way instead of being cut to one line.
QStringList wrap_note(const QString &text, const QFontMetricsF &fm, qreal width, int max_lines);
// Lines an overlap note may take.
inline constexpr int kMaxNoteLines = 3;

class CursorChartView : public QChartView {
    Q_OBJECT
public:
    explicit CursorChartView(QWidget *parent = nullptr);

    void setChartData(const ChartData &data, const QString &subtitle = {});
    // Whether the chart draws its own legend (default). The charts dock
    // names the panes once in a key of its own, with the labels whole.
    void setLegendShown(bool shown) { legend_shown_ = shown; }
    // A small multiple: two or three ticks per axis, no axis titles, a
    // narrower left margin and a small title (NodeMultiplesView).
    void setCompact(bool compact);
    const ChartData &chartData() const { return data_; }
    void setTimeRange(double t_max_s);
    void setCursorTime(double t_s);
    double cursorTime() const { return cursor_s_; }
    // The hover text at time t: one "label: value unit" line per line.
    QString valuesText(double t_s) const;
    // The note a full-size chart draws at the top of its plot when lines of
    // different panes lie on top of each other (one would hide the other):
    // "on top of each other: a = b"; empty when none do. Small multiples
    // leave it to NodeMultiplesView, which says it under them.
    QString overlapNote() const { return overlap_text_; }

    static QColor runColour(int run);
    static QColor groupColour(int group);
    static QColor cursorColour();
    // How the migrations chart draws a distance class: "dashed"...
    static QString migrationStyleName(int distance_class);

signals:
    void cursorDragged(double t_s);

protected:
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void leaveEvent(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    void alignPlotArea();
    // A compact chart too short for a time axis and three value ticks keeps
    // the plot instead: no time labels (its neighbours and the timeline
    // carry the time), ticks at 0 and the top only.
    void fitCompactAxes();
    double timeAt(const QPointF &view_pos) const;
    void placeCursor();
    void addMarks(double y_top);
    void placeMarks();
    void updateOverlapNote();
    void placeOverlapNote();
    void showHover(const QPointF &view_pos);

    ChartData data_;
    double t_max_s_ = 1;
    double cursor_s_ = 0;
    bool dragging_ = false;
    bool aligning_ = false;
    bool legend_shown_ = true;
    bool compact_ = false;
    QGraphicsLineItem *cursor_ = nullptr;
    // One dashed series and one text per reference mark (data_.marks).
    std::vector<QLineSeries *> mark_series_;
    std::vector<QGraphicsSimpleTextItem *> mark_labels_;
    QString overlap_text_;
    QGraphicsSimpleTextItem *overlap_note_ = nullptr;
    QGraphicsRectItem *hover_box_ = nullptr;
    QGraphicsSimpleTextItem *hover_text_ = nullptr;
};

} // namespace schedscope::gui
