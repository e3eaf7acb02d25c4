#pragma once
// The animation pane's maths, in plain structs tested without painting
// (hotspot's TimeLineData habit): where each PU's token slot, each cache
// box and each NUMA node's memory bar is (PaneGeometry, from the topology
// layout), and where every token, heat fill, memory bar and migration
// trail goes for one frame (PaneScene).

#include "pane_frame.h"
#include "topology_layout.h"

#include <unordered_map>
#include <vector>

namespace schedscope::gui {

// The topology layout options the panes use: nothing folded (every PU must
// be able to show its task), room below PU and node labels for overlays.
// `aspect`: the width/height of the space the pane draws the machine in;
// every level of groups, packages and cores packs to about that shape.
LayoutOptions pane_layout_options(const TextMetrics &text, double aspect = 1.6);

struct PaneGeometry {
    TopologyLayout layout;
    std::vector<LayoutRect> pu_slot;   // per PU logical index: where its token and queue go
    std::vector<LayoutRect> node_slot; // per NUMA logical index: where the memory bars go
    std::unordered_map<ObjId, int> box_of_obj;

    static PaneGeometry compute(const Topology &topo, const LayoutOptions &options);
    // The same from a layout computed (and perhaps stretched) beforehand.
    static PaneGeometry from_layout(const Topology &topo, TopologyLayout layout, const LayoutOptions &options);
    // Centre of a PU's running-token position, for trails and animation.
    double token_cx(int cpu) const;
    double token_cy(int cpu) const;
};

// The running token's side in a PU slot: the slot's height, within reason.
double token_side(const LayoutRect &slot);

struct Token {
    TaskId task = -1;
    ProcId proc = 0;
    int colour = 0; // TaskFrame::colour
    int cpu = kNoCpu;
    bool running = false; // false: queued on that PU's runqueue
    LayoutRect rect;
};

struct QueueOverflow {
    int cpu = kNoCpu;
    int hidden = 0; // queued tasks without a token of their own
    LayoutRect rect;
};

struct HeatFill {
    ObjId obj = kNoObj;
    float heat = 0;
    int proc = -1;   // colour index of the main holder (CacheFrame::dominant)
    LayoutRect rect; // the filled part of the cache box
};

struct MemoryBar {
    int node = 0;
    ProcId proc = 0;
    double bytes = 0;
    LayoutRect rect;
};

struct Trail {
    TaskId task = -1;
    int from_cpu = kNoCpu, to_cpu = kNoCpu;
    DistanceClass cls = DistanceClass::Self;
    double x1 = 0, y1 = 0, x2 = 0, y2 = 0;
};

struct PaneScene {
    std::vector<Token> tokens;
    std::vector<QueueOverflow> overflows;
    std::vector<int> idle_pus;
    std::vector<HeatFill> heat;
    std::vector<MemoryBar> memory;
    std::vector<Trail> trails;
    std::unordered_map<TaskId, int> token_of_task; // index into tokens

    static PaneScene compute(const PaneGeometry &geometry, const PaneFrame &frame);
    const Token *token(TaskId t) const;
};

// Queued tokens are this fraction of the running token's size, so the one
// that runs stands out.
inline constexpr double kQueuedTokenScale = 0.6;

} // namespace schedscope::gui
