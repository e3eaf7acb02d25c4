#include "pane_painter.h"

#include <QPainter>
#include <QPainterPath>

#include <algorithm>

namespace schedscope::gui {

namespace {

// Heat is a wash over the cache box, light enough that its label stays
// readable through it.
constexpr int kHeatAlpha = 110;
// Below this many device pixels a token is a plain square: outlines and
// round shapes only cost time and blur at that size.
constexpr double kDetailTokenPx = 5.0;

QPen cosmetic_pen(QColor c, double width = 1.0, Qt::PenStyle style = Qt::SolidLine)
{
    QPen pen(c, width, style);
    pen.setCosmetic(true);
    return pen;
}

QRectF qrect(const LayoutRect &r) { return {r.x, r.y, r.w, r.h}; }

void paint_trail(QPainter &p, QPointF a, QPointF b, DistanceClass cls, double fade)
{
    const MoveStyle st = move_style(cls);
    p.setPen(cosmetic_pen(to_qcolor(st.colour, static_cast<int>(255 * fade)), 2.0,
                          st.dashed ? Qt::DashLine : Qt::SolidLine));
    p.drawLine(a, b);
}

} // namespace

void paint_pane_scene(QPainter &p, const PaneGeometry &g, const PaneScene &sc, const PanePaintOptions &opt)
{
    const SimPalette &pal = opt.palette;
    const bool detail = g.pu_slot.empty() || g.pu_slot[0].h * opt.scale >= kDetailTokenPx;
    p.setRenderHint(QPainter::Antialiasing, detail);

    for (const HeatFill &h : sc.heat) {
        const Rgb c = h.proc >= 0 ? process_colour(h.proc) : Rgb{160, 160, 160};
        p.fillRect(qrect(h.rect), to_qcolor(c, kHeatAlpha));
    }

    for (int n = 0; n < static_cast<int>(g.node_slot.size()); ++n) {
        const LayoutRect &s = g.node_slot[n];
        if (s.w <= 0 || s.h <= 0)
            continue;
        p.fillRect(qrect(s), to_qcolor(pal.node_track));
        if (detail) {
            p.setPen(cosmetic_pen(QColor(150, 150, 150)));
            p.setBrush(Qt::NoBrush);
            p.drawRect(qrect(s));
        }
    }
    for (const MemoryBar &m : sc.memory)
        p.fillRect(qrect(m.rect), to_qcolor(process_colour(m.proc)));

    // Idle PUs: a grey slot with a dash, the way a terminal shows nothing.
    for (int c : sc.idle_pus) {
        const LayoutRect &s = g.pu_slot[c];
        p.fillRect(qrect(s), to_qcolor(pal.idle_pu));
        if (detail) {
            p.setPen(cosmetic_pen(to_qcolor(pal.idle_mark), 1.5));
            const double y = s.y + s.h / 2;
            p.drawLine(QPointF(s.x + s.h * 0.25, y), QPointF(s.x + s.h * 0.75, y));
        }
    }

    // Trails under the tokens, so a token is never hidden by a line.
    if (opt.moving) {
        for (const Trail &t : sc.trails) {
            const auto it = opt.moving->find(t.task);
            if (it != opt.moving->end() && it->second.progress < 1.0)
                paint_trail(p, QPointF(t.x1, t.y1), QPointF(t.x2, t.y2), t.cls, 1.0 - 0.7 * it->second.progress);
        }
    }

    for (const Token &t : sc.tokens) {
        QRectF r = qrect(t.rect);
        if (opt.moving) {
            const auto it = opt.moving->find(t.task);
            if (it != opt.moving->end() && it->second.progress < 1.0) {
                // Ease out: fast start, gentle landing where the eye expects it.
                const double e = 1.0 - (1.0 - it->second.progress) * (1.0 - it->second.progress);
                const QPointF c = it->second.from_centre + (r.center() - it->second.from_centre) * e;
                r.moveCenter(c);
            }
        }
        const QColor fill = to_qcolor(process_colour(t.colour));
        if (!detail) {
            p.fillRect(r, fill);
            continue;
        }
        p.setBrush(fill);
        p.setPen(cosmetic_pen(t.running ? to_qcolor(pal.busy_outline) : fill.darker(150), t.running ? 1.2 : 1.0));
        if (t.running)
            p.drawEllipse(r);
        else
            p.drawRoundedRect(r, r.width() * 0.2, r.height() * 0.2);
    }

    if (detail) {
        p.setPen(QColor(60, 60, 60));
        QFont f = p.font();
        for (const QueueOverflow &o : sc.overflows) {
            if (o.rect.w <= 0)
                continue;
            f.setPixelSize(std::max(1, static_cast<int>(o.rect.h * 0.8)));
            p.setFont(f);
            p.drawText(qrect(o.rect), Qt::AlignLeft | Qt::AlignVCenter, QStringLiteral("+%1").arg(o.hidden));
        }
    }
}

} // namespace schedscope::gui
