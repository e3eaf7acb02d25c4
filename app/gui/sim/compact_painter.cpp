#include "compact_painter.h"

#include "pane_painter.h"
#include "sim_palette.h"

#include <QFont>
#include <QFontMetrics>
#include <QPainter>

#include <algorithm>

namespace schedscope::gui {

namespace {
QRectF qrect(const LayoutRect &r) { return {r.x, r.y, r.w, r.h}; }
// The same wash as the detail view's cache heat.
constexpr int kHeatAlpha = 150;
const QColor kCellBorder(150, 150, 160);
const QColor kCellBackground(250, 250, 252);
const QColor kQueueColour(90, 90, 90);
} // namespace

QString compact_cell_label(const CompactCell &c)
{
    return c.hidden > 0 ? QString::fromStdString(compact_fold_label(c.hidden)) : QStringLiteral("N#%1").arg(c.node);
}

void paint_compact_static(QPainter &p, const CompactGeometry &g, const QFont &font)
{
    const SimPalette pal;
    p.save();
    p.setPen(QPen(kCellBorder, 1.0));
    p.setBrush(kCellBackground);
    for (const CompactCell &c : g.cells)
        p.drawRect(qrect(c.rect).adjusted(0.5, 0.5, -0.5, -0.5));
    p.setPen(Qt::NoPen);
    for (const CompactCell &c : g.cells) {
        p.fillRect(qrect(c.memory), to_qcolor(pal.node_track));
        p.fillRect(qrect(c.heat), QColor(240, 240, 240));
    }
    if (g.labelled) {
        QFont f = font;
        f.setPixelSize(10);
        p.setFont(f);
        p.setPen(QColor(40, 40, 40));
        const QFontMetrics fm(f);
        for (const CompactCell &c : g.cells)
            p.drawText(qrect(c.label), Qt::AlignLeft | Qt::AlignVCenter,
                       fm.elidedText(compact_cell_label(c), Qt::ElideRight, static_cast<int>(c.label.w)));
        // Which nodes a fold stands for, under its "×N more".
        for (const CompactCell &c : g.cells)
            if (c.hidden > 0)
                p.drawText(qrect(c.pu_area).adjusted(0, 0, 0, -qrect(c.pu_area).height() / 2),
                           Qt::AlignLeft | Qt::AlignVCenter,
                           fm.elidedText(QStringLiteral("N#%1\u2013%2").arg(c.node).arg(c.node + c.hidden - 1),
                                         Qt::ElideRight, static_cast<int>(c.pu_area.w)));
    }
    p.restore();
}

void paint_compact_scene(QPainter &p, const CompactGeometry &g, const CompactScene &sc)
{
    const SimPalette pal;
    p.save();
    p.setRenderHint(QPainter::Antialiasing, false);
    const size_t n = std::min(g.cells.size(), sc.cells.size());
    for (size_t i = 0; i < n; ++i) {
        const CompactCell &c = g.cells[i];
        const CompactCellState &s = sc.cells[i];
        if (c.hidden > 0 && s.pu_total > 0) {
            // A fold: its PUs as one bar in the lower half of the PU area,
            // a stretch per colour in proportion to the PUs it runs on.
            const QRectF bar = qrect(c.pu_area).adjusted(0, c.pu_area.h / 2, 0, 0);
            p.fillRect(bar, to_qcolor(pal.idle_pu));
            double x = bar.x();
            for (const auto &[colour, count] : s.busy_by_colour) {
                const double w = bar.width() * count / s.pu_total;
                p.fillRect(QRectF(x, bar.y(), w, bar.height()), to_qcolor(process_colour(colour)));
                x += w;
            }
        }
        for (size_t k = 0; k < c.pu_rect.size() && k < s.running.size(); ++k)
            p.fillRect(qrect(c.pu_rect[k]),
                       s.running[k] >= 0 ? to_qcolor(process_colour(s.running[k])) : to_qcolor(pal.idle_pu));
        // Queue depth: a bar rising from the bottom of the queue column,
        // full at the deepest queue of the machine, with the count when it fits.
        if (s.queued > 0 && sc.max_queued > 0) {
            LayoutRect q = c.queue;
            const double per_node = c.hidden > 0 ? static_cast<double>(s.queued) / c.hidden : s.queued;
            const double h = q.h * std::min(1.0, per_node / sc.max_queued);
            p.fillRect(QRectF(q.x, q.bottom() - h, q.w, h), kQueueColour);
        }
        if (s.heat > 0) {
            const Rgb col = s.heat_proc >= 0 ? process_colour(s.heat_proc) : Rgb{160, 160, 160};
            p.fillRect(QRectF(c.heat.x, c.heat.y, c.heat.w * std::min(1.0f, s.heat), c.heat.h),
                       to_qcolor(col, kHeatAlpha));
        }
        if (sc.max_node_bytes > 0) {
            double x = c.memory.x;
            for (const auto &[proc, bytes] : s.memory) {
                const double w = c.memory.w * bytes / sc.max_node_bytes;
                p.fillRect(QRectF(x, c.memory.y, w, c.memory.h), to_qcolor(process_colour(proc)));
                x += w;
            }
        }
    }
    // Queue counts over the marks, where a digit fits.
    if (g.labelled) {
        QFont f = p.font();
        f.setPixelSize(9);
        p.setFont(f);
        p.setPen(QColor(20, 20, 20));
        for (size_t i = 0; i < n; ++i)
            if (sc.cells[i].queued > 0 && g.cells[i].hidden == 0) // a fold's total would mislead
                p.drawText(qrect(g.cells[i].label), Qt::AlignRight | Qt::AlignVCenter,
                           QStringLiteral("q%1").arg(sc.cells[i].queued));
    }
    p.restore();
}

} // namespace schedscope::gui
