#pragma once
// Loading a topology from the GUI: every failure becomes one message through
// an injectable sink (a message box on screen, stderr in headless mode, a
// recorder in tests), never an exception escaping into Qt's event loop.

#include "topology/topology.h"

#include <QString>

#include <functional>
#include <memory>

class QWidget;

namespace schedscope::gui {

using ErrorSink = std::function<void(const QString &title, const QString &message)>;

ErrorSink message_box_sink(QWidget *parent);
ErrorSink stderr_sink();

// spec: "detect" | "synthetic:STRING" | "sample:NAME" | a file path, as
// schedscope::load_topology takes it. Returns null after reporting.
std::shared_ptr<const Topology> open_topology(const std::string &spec, const ErrorSink &sink);

} // namespace schedscope::gui
