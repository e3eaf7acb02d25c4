#pragma once
// Help > About: the program's version and the versions of the libraries it
// runs with (not the ones it was built against: a packaged build meets the
// distribution's Qt and hwloc).

#include <QString>

namespace schedscope::gui {

// "2.11.2" from hwloc_get_api_version() (the loaded library's API version).
QString hwloc_runtime_version();

// Rich text for the About box.
QString about_text();

} // namespace schedscope::gui
