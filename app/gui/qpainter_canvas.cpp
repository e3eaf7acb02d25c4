#include "qpainter_canvas.h"

#include <QFontMetricsF>
#include <QPainter>
#include <algorithm>

namespace schedscope::gui {

namespace {
QColor qcolor(Rgb c) { return QColor(c.r, c.g, c.b); }
// Layout units per label font pixel: lstopo's default font size is 10.
constexpr int kFontPixelSize = 10;
} // namespace

QFont topology_font()
{
    QFont font(QStringLiteral("DejaVu Sans Mono"));
    font.setStyleHint(QFont::Monospace);
    font.setPixelSize(kFontPixelSize);
    // Unhinted glyphs scale linearly, so a label measured at zoom 1 still
    // fits its box at zoom 0.4 or 3.
    font.setHintingPreference(QFont::PreferNoHinting);
    return font;
}

TextMetrics text_metrics(const QFont &font)
{
    QFontMetricsF fm(font);
    TextMetrics m;
    // The widest of a few typical glyphs, in case the fallback font is not
    // strictly monospace.
    m.char_width = std::max({fm.horizontalAdvance(QLatin1Char('M')), fm.horizontalAdvance(QLatin1Char('0')),
                             fm.horizontalAdvance(QChar(0x00D7))});
    m.line_height = fm.height();
    return m;
}

QPainterCanvas::QPainterCanvas(QPainter &painter, const QFont &font)
    : painter_(painter), font_(font), ascent_(QFontMetricsF(font).ascent())
{
    painter_.setFont(font_);
}

void QPainterCanvas::box(const LayoutRect &rect, Rgb fill, Rgb stroke, Stroke style)
{
    // Cosmetic pens keep outlines one device pixel wide at every zoom, like
    // lstopo's 1px strokes, instead of vanishing when zoomed out.
    QPen pen(qcolor(stroke));
    pen.setCosmetic(true);
    if (style == Stroke::Dashed)
        pen.setStyle(Qt::DashLine);
    if (style == Stroke::Highlight)
        pen.setWidthF(3.0);
    painter_.setPen(pen);
    painter_.setBrush(style == Stroke::Highlight ? QBrush(Qt::NoBrush) : QBrush(qcolor(fill)));
    painter_.drawRect(QRectF(rect.x, rect.y, rect.w, rect.h));
}

void QPainterCanvas::line(double x1, double y1, double x2, double y2, Rgb color)
{
    QPen pen(qcolor(color));
    pen.setCosmetic(true);
    painter_.setPen(pen);
    painter_.drawLine(QPointF(x1, y1), QPointF(x2, y2));
}

void QPainterCanvas::text(double x, double top, const std::string &utf8, Rgb color)
{
    painter_.setPen(qcolor(color));
    painter_.drawText(QPointF(x, top + ascent_), QString::fromStdString(utf8));
}

} // namespace schedscope::gui
