#include "panels/task_snapshot_html.h"

#include "panels/chart_data.h"

#include <QCoreApplication>

#include <algorithm>
#include <numeric>

namespace schedscope::gui {

namespace {

QString tr(const char *text) { return QCoreApplication::translate("TaskSnapshot", text); }

QString bytes_text(double b)
{
    if (b >= 1024.0 * 1024 * 1024)
        return QString::number(b / (1024.0 * 1024 * 1024), 'f', 2) + QStringLiteral(" GiB");
    if (b >= 1024.0 * 1024)
        return QString::number(b / (1024.0 * 1024), 'f', 1) + QStringLiteral(" MiB");
    return QString::number(b / 1024.0, 'f', 0) + QStringLiteral(" KiB");
}

// A bar drawn with a table cell: QTextBrowser's HTML subset has no CSS
// width on inline elements, but it honours table cell widths.
QString bar(double fraction, const char *colour)
{
    const int pct = std::clamp(static_cast<int>(fraction * 100.0 + 0.5), 0, 100);
    if (pct == 0)
        return QStringLiteral(
            "<table width=\"120\" cellspacing=\"0\"><tr><td bgcolor=\"#eeeeee\">&nbsp;</td></tr></table>");
    return QStringLiteral("<table width=\"120\" cellspacing=\"0\"><tr><td width=\"%1%\" bgcolor=\"%2\">&nbsp;</td>"
                          "<td bgcolor=\"#eeeeee\"></td></tr></table>")
        .arg(pct)
        .arg(QLatin1String(colour));
}

QString time_text(SimTime ns) { return QString::fromStdString(format_time_s(static_cast<double>(ns) / 1e9)); }

} // namespace

QString task_snapshot_html(const TaskSnapshot &s)
{
    QString h;
    h += QStringLiteral("<h3>%1 %2 <small>(%3, process %4)</small></h3>")
             .arg(tr("Task"))
             .arg(s.task)
             .arg(QString::fromStdString(s.name).toHtmlEscaped(), QString::fromStdString(s.process).toHtmlEscaped());
    if (!s.state.empty())
        h += QStringLiteral("<p>%1 at %2, %3 CPU %4.</p>")
                 .arg(QString::fromStdString(s.state).toHtmlEscaped(), time_text(s.at_ns), tr("on"))
                 .arg(s.cpu);

    h += QStringLiteral("<h4>%1</h4>").arg(tr("Path over CPUs"));
    if (s.path.empty()) {
        h += s.first_cpu >= 0 ? tr("<p>Placed on CPU %1 and never moved.</p>").arg(s.first_cpu)
                              : tr("<p>No migrations recorded.</p>");
    } else {
        h += QStringLiteral("<p>");
        if (s.first_cpu >= 0)
            h += tr("CPU %1").arg(s.first_cpu);
        for (const auto &hop : s.path)
            h += QStringLiteral(" \u2192 <b>CPU %1</b> <small>(%2, %3, %4 %5)</small>")
                     .arg(hop.to_cpu)
                     .arg(time_text(hop.time_ns), QString::fromUtf8(distance_class_name(hop.cls)),
                          time_text(hop.since_last_ran_ns), tr("after it last ran"));
        h += tr("</p><p>Moves: %1.</p>").arg(s.path.size());
    }

    if (!s.state.empty()) {
        h += QStringLiteral("<h4>%1 <small>(%2 %3)</small></h4>")
                 .arg(tr("Warmth per cache"), tr("working set"), bytes_text(s.working_set_bytes));
        if (s.warmth.empty())
            h += tr("<p>No cache holds any of it: it is cold everywhere.</p>");
        else {
            h += QStringLiteral("<table cellspacing=\"2\">");
            for (const auto &w : s.warmth) {
                const double of_ws = s.working_set_bytes > 0 ? w.bytes / s.working_set_bytes : 0.0;
                h += QStringLiteral("<tr><td>%1%2</td><td>%3</td><td>%4</td></tr>")
                         .arg(QString::fromStdString(w.label).toHtmlEscaped(),
                              w.above_current_cpu ? tr(" <i>(here)</i>") : QString(), bar(of_ws, "#e6550d"),
                              bytes_text(w.bytes));
            }
            h += QStringLiteral("</table>");
        }

        h += QStringLiteral("<h4>%1</h4>").arg(tr("Where its memory is"));
        const double total = std::accumulate(s.process_node_bytes.begin(), s.process_node_bytes.end(), 0.0);
        h += QStringLiteral("<table cellspacing=\"2\"><tr><th>%1</th><th>%2</th><th></th><th>%3</th></tr>")
                 .arg(tr("Node"), tr("Process memory"), tr("Its accesses"));
        for (std::size_t n = 0; n < s.process_node_bytes.size(); ++n) {
            const double share = n < s.access_share_by_node.size() ? s.access_share_by_node[n] : 0.0;
            h += QStringLiteral("<tr><td>%1%2</td><td>%3</td><td>%4</td><td>%5 %</td></tr>")
                     .arg(n)
                     .arg(static_cast<int>(n) == s.preferred_node ? tr(" (preferred)") : QString())
                     .arg(bar(total > 0 ? s.process_node_bytes[n] / total : 0.0, "#3182bd"),
                          bytes_text(s.process_node_bytes[n]))
                     .arg(share * 100.0, 0, 'f', 0);
        }
        h += QStringLiteral("</table>");
    }
    return h;
}

} // namespace schedscope::gui
