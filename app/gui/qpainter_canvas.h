#pragma once
// The QPainter backend of Canvas. One backend serves the screen (a widget's
// painter), PNG (a QImage) and SVG (a QSvgGenerator is a paint device too).

#include "canvas.h"

#include <QFont>

class QPainter;

namespace schedscope::gui {

// The font every backend draws labels with; the layout is computed from its
// metrics so that labels fit their boxes at any zoom.
QFont topology_font();
TextMetrics text_metrics(const QFont &font);

class QPainterCanvas : public Canvas {
public:
    QPainterCanvas(QPainter &painter, const QFont &font);
    void box(const LayoutRect &rect, Rgb fill, Rgb stroke, Stroke style) override;
    void line(double x1, double y1, double x2, double y2, Rgb color) override;
    void text(double x, double top, const std::string &utf8, Rgb color) override;

private:
    QPainter &painter_;
    QFont font_;
    double ascent_;
};

} // namespace schedscope::gui
