#include "about_text.h"

#include <QObject>

#include <hwloc.h>

namespace schedscope::gui {

QString hwloc_runtime_version()
{
    // HWLOC_API_VERSION layout: 0xMMmmpp00 since hwloc 2.0.
    const unsigned v = hwloc_get_api_version();
    return QStringLiteral("%1.%2.%3").arg((v >> 16) & 0xff).arg((v >> 8) & 0xff).arg(v & 0xff);
}

QString about_text()
{
    return QObject::tr("<b>schedscope %1</b><p>Simulates OS schedulers on machine topologies and animates "
                       "them. The topology view follows hwloc's lstopo.</p>"
                       "<p>Running with Qt %2 and hwloc API %3.</p>")
        .arg(QStringLiteral(SCHEDSCOPE_VERSION), QString::fromLatin1(qVersion()), hwloc_runtime_version());
}

} // namespace schedscope::gui
