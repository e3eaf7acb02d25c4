#pragma once
// Every colour the animation uses, in one place: processes, distance
// classes of migrations, idle PUs. The legend, the panes and the docs read
// from here so they cannot disagree.

#include "canvas.h"
#include "topology/topology.h"

#include <string>

namespace schedscope::gui {

// A colour per process. The first ten are the Tableau 10 qualitative
// palette (distinct for colour-blind readers too); beyond that the hue keeps
// turning by the golden angle so neighbours stay distinguishable.
Rgb process_colour(int proc);

// How a migration's distance class is drawn: colour and whether the trail is
// dashed. Near moves are cool and solid, far moves warm and dashed, so the
// expensive ones catch the eye even in greyscale.
struct MoveStyle {
    Rgb colour;
    bool dashed = false;
};
MoveStyle move_style(DistanceClass cls);
std::string move_label(DistanceClass cls); // "same core (SMT)", "remote node", ...

struct SimPalette {
    Rgb idle_pu{236, 236, 236};   // a PU with nothing to run
    Rgb idle_mark{170, 170, 170}; // the dash drawn across an idle PU
    Rgb busy_outline{40, 40, 40};
    Rgb header_bg{248, 248, 250};
    Rgb header_text{20, 20, 20};
    Rgb cache_cold{255, 255, 255};
    Rgb node_track{250, 245, 245}; // background of a node's memory bar
};

} // namespace schedscope::gui
