#include "sim_legend.h"

#include "pane_painter.h"
#include "sim_palette.h"

#include <QPainter>

#include <array>

namespace schedscope::gui {

QStringList legend_process_entries(const std::vector<std::string> &names)
{
    const int n = static_cast<int>(names.size());
    if (n > kLegendMaxProcesses)
        return {QObject::tr("%1 processes, a colour each").arg(n)};
    QStringList out;
    for (const std::string &name : names)
        out << QString::fromStdString(name);
    return out;
}

std::vector<DistanceClass> machine_migration_classes(const Topology &topology)
{
    std::array<bool, kDistanceClassCount> seen{};
    for (int pu = 1; pu < topology.pu_count(); ++pu)
        seen[static_cast<std::size_t>(topology.distance(0, pu).cls)] = true;
    std::vector<DistanceClass> out;
    for (int c = kDistanceClassCount - 1; c > static_cast<int>(DistanceClass::Self); --c)
        if (seen[static_cast<std::size_t>(c)])
            out.push_back(static_cast<DistanceClass>(c));
    return out;
}

SimLegend::SimLegend(QWidget *parent) : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    for (int c = kDistanceClassCount - 1; c > static_cast<int>(DistanceClass::Self); --c)
        classes_.push_back(static_cast<DistanceClass>(c));
}

void SimLegend::setMigrationClasses(std::vector<DistanceClass> classes)
{
    if (classes == classes_)
        return;
    classes_ = std::move(classes);
    update();
}

void SimLegend::setProcesses(const std::vector<std::string> &names)
{
    if (names == processes_)
        return;
    processes_ = names;
    update();
}

QSize SimLegend::sizeHint() const { return {800, 2 * fontMetrics().height() + 10}; }

void SimLegend::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    p.fillRect(rect(), palette().window());
    const QFontMetrics fm = fontMetrics();
    const int row_h = fm.height() + 4;
    const int sw = fm.height() - 2; // swatch size
    int x = 6, y = 3;
    auto item = [&](auto &&draw_swatch, const QString &text, int row_y) {
        const int w = sw + 4 + fm.horizontalAdvance(text) + 14;
        if (x + w > width() && x > 6)
            return; // out of room: later entries are less important
        draw_swatch(QRect(x, row_y + 2, sw, sw));
        p.setPen(palette().color(QPalette::WindowText));
        p.drawText(QRect(x + sw + 4, row_y, w, row_h), Qt::AlignLeft | Qt::AlignVCenter, text);
        x += w;
    };

    // Row 1: processes, idle, heat, memory. Past kLegendMaxProcesses the
    // names would crowd everything else out: one entry with a strip of
    // their colours stands for them all ("32 processes").
    const int n = static_cast<int>(processes_.size());
    if (n > kLegendMaxProcesses) {
        const int strip = 6;
        const int saved_x = x;
        for (int i = 0; i < strip; ++i)
            p.fillRect(QRect(x + i * (sw / 2 + 1), y + 2, sw / 2, sw), to_qcolor(process_colour(i)));
        x += strip * (sw / 2 + 1) - sw - 4;
        item([](QRect) {}, legend_process_entries(processes_).front(), y);
        if (x == saved_x + strip * (sw / 2 + 1) - sw - 4)
            x = saved_x; // did not fit
    }
    for (int i = 0; i < n && n <= kLegendMaxProcesses; ++i) {
        const QColor c = to_qcolor(process_colour(i));
        item(
            [&](QRect r) {
                p.setPen(Qt::black);
                p.setBrush(c);
                p.drawEllipse(r);
            },
            QString::fromStdString(processes_[i]), y);
    }
    const SimPalette pal;
    item(
        [&](QRect r) {
            p.fillRect(r, to_qcolor(pal.idle_pu));
            p.setPen(to_qcolor(pal.idle_mark));
            p.drawLine(r.left() + 2, r.center().y(), r.right() - 2, r.center().y());
        },
        tr("idle PU"), y);
    item(
        [&](QRect r) {
            p.setPen(Qt::black);
            p.setBrush(Qt::white);
            p.drawRect(r);
            p.fillRect(QRect(r.left(), r.top(), r.width() * 2 / 3, r.height()), to_qcolor(process_colour(0), 110));
        },
        tr("cache heat (fill = share used, tint = main process)"), y);
    item(
        [&](QRect r) {
            p.fillRect(r, to_qcolor(pal.node_track));
            p.fillRect(QRect(r.left(), r.top() + r.height() / 3, r.width() / 2, r.height() / 3),
                       to_qcolor(process_colour(0)));
            p.fillRect(QRect(r.left() + r.width() / 2, r.top() + r.height() / 3, r.width() / 4, r.height() / 3),
                       to_qcolor(process_colour(1)));
        },
        tr("node memory per process"), y);

    // Row 2: migration classes.
    x = 6;
    y += row_h;
    p.setPen(palette().color(QPalette::WindowText));
    const QString lead = tr("migrations:");
    p.drawText(QRect(x, y, 200, row_h), Qt::AlignLeft | Qt::AlignVCenter, lead);
    x += fm.horizontalAdvance(lead) + 8;
    for (const DistanceClass cls : classes_) {
        const MoveStyle st = move_style(cls);
        item(
            [&](QRect r) {
                QPen pen(to_qcolor(st.colour), 2.5, st.dashed ? Qt::DashLine : Qt::SolidLine);
                p.setPen(pen);
                const QRect wide = r.adjusted(-2, 0, 8, 0);
                p.drawLine(wide.left(), wide.center().y(), wide.right(), wide.center().y());
            },
            QStringLiteral("   ") + QString::fromStdString(move_label(cls)), y);
    }
}

} // namespace schedscope::gui
