#include "topology_opener.h"

#include "topology/import.h"
#include "util/input_error.h"

#include <QMessageBox>
#include <QObject>

#include <cstdio>
#include <new>

namespace schedscope::gui {

ErrorSink message_box_sink(QWidget *parent)
{
    return [parent](const QString &title, const QString &message) { QMessageBox::warning(parent, title, message); };
}

ErrorSink stderr_sink()
{
    return [](const QString &title, const QString &message) {
        std::fprintf(stderr, "schedscope: %s: %s\n", qUtf8Printable(title), qUtf8Printable(message));
    };
}

std::shared_ptr<const Topology> open_topology(const std::string &spec, const ErrorSink &sink)
{
    const QString title = QObject::tr("Cannot open topology");
    try {
        auto topology = std::make_shared<Topology>(load_topology(spec));
        if (topology->pu_count() == 0) {
            sink(title, QObject::tr("%1: the topology has no PU to run tasks on").arg(QString::fromStdString(spec)));
            return nullptr;
        }
        return topology;
    } catch (const InputError &e) {
        // what() already names the source and line.
        sink(title, QString::fromStdString(e.what()));
    } catch (const std::bad_alloc &) {
        sink(title, QObject::tr("%1: out of memory while loading").arg(QString::fromStdString(spec)));
    } catch (const std::exception &e) {
        sink(title, QObject::tr("%1: %2").arg(QString::fromStdString(spec), QString::fromUtf8(e.what())));
    }
    return nullptr;
}

} // namespace schedscope::gui
