#pragma once
// A TaskSnapshot as the short HTML page the explain view shows: path over
// CPUs, warmth per cache with a bar, memory per node with a bar.

#include "panels/task_snapshot.h"

#include <QString>

namespace schedscope::gui {

QString task_snapshot_html(const TaskSnapshot &snapshot);

} // namespace schedscope::gui
