#include "sim_palette.h"

#include <QColor>

#include <array>
#include <cmath>

namespace schedscope::gui {

Rgb process_colour(int proc)
{
    static constexpr std::array<Rgb, 10> kTableau10{{{78, 121, 167},
                                                     {242, 142, 43},
                                                     {89, 161, 79},
                                                     {225, 87, 89},
                                                     {118, 183, 178},
                                                     {237, 201, 72},
                                                     {176, 122, 161},
                                                     {255, 157, 167},
                                                     {156, 117, 95},
                                                     {186, 176, 172}}};
    if (proc < 0)
        return {120, 120, 120};
    if (proc < static_cast<int>(kTableau10.size()))
        return kTableau10[proc];
    constexpr double kGoldenAngleDeg = 137.508;
    const int hue = static_cast<int>(std::fmod(proc * kGoldenAngleDeg, 360.0));
    // Alternate lightness so two processes of similar hue still differ.
    const QColor c = QColor::fromHsl(hue, 150, proc % 2 ? 110 : 150);
    return {static_cast<std::uint8_t>(c.red()), static_cast<std::uint8_t>(c.green()),
            static_cast<std::uint8_t>(c.blue())};
}

MoveStyle move_style(DistanceClass cls)
{
    switch (cls) {
    case DistanceClass::Self: return {{150, 150, 150}, false};
    case DistanceClass::SameCore: return {{40, 160, 60}, false};
    case DistanceClass::SharedL2: return {{20, 150, 150}, false};
    case DistanceClass::SharedL3: return {{30, 100, 210}, false};
    case DistanceClass::SamePackage: return {{120, 60, 200}, true};
    case DistanceClass::SameNode: return {{230, 130, 0}, true};
    case DistanceClass::RemoteNode: return {{210, 20, 30}, true};
    }
    return {{0, 0, 0}, false};
}

std::string move_label(DistanceClass cls)
{
    switch (cls) {
    case DistanceClass::Self: return "same PU";
    case DistanceClass::SameCore: return "same core (SMT)";
    case DistanceClass::SharedL2: return "shared L2";
    case DistanceClass::SharedL3: return "shared L3";
    case DistanceClass::SamePackage: return "same package";
    case DistanceClass::SameNode: return "same node";
    case DistanceClass::RemoteNode: return "remote node";
    }
    return "?";
}

} // namespace schedscope::gui
