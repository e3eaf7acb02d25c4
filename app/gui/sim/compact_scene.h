#pragma once
// Semantic zoom for big machines. Drawn in full, a 1024-PU machine is a
// mesh of box borders with tokens a few pixels wide; above a threshold a
// pane instead draws each NUMA node as one compact cell: a grid of its PUs
// coloured by the process running there, a mark for the depth of its run
// queues, a memory bar per process and the heat of its caches. Plain
// structs, computed without painting, so the choice of mode and the
// geometry are tested headless (as PaneScene is).

#include "pane_frame.h"
#include "topology/topology.h"
#include "topology_layout.h"

#include <string>
#include <vector>

namespace schedscope::gui {

enum class PaneMode {
    Detail,  // every object as lstopo draws it (PaneGeometry / PaneScene)
    Compact, // one cell per NUMA node (CompactGeometry / CompactScene)
};

// Full detail while the machine is small (at most kCompactAbovePus PUs) or
// its drawing at the pane's fit-to-size scale keeps labels readable
// (fit_scale >= kReadableScale), or when the user has zoomed in (zoom > 1).
// Otherwise, on a machine with at least two NUMA nodes, compact cells.
inline constexpr int kCompactAbovePus = 64;
// Layout units are pixels of a 10 px label font: below 0.6 the labels are
// 6 px high, the smallest text the panes still draw.
inline constexpr double kReadableScale = 0.6;
PaneMode choose_pane_mode(int pu_count, int numa_count, double fit_scale, double zoom);

// Below this size a cell's label and PU squares are no longer readable
// (the 10 px label "N#511" and a queue count need about 56 px across). When
// the nodes do not all fit at it, the pane folds a run of identical nodes
// into one "×N more" cell, as the Topology tab folds identical siblings:
// first nodes, the fold (two places wide where the row has three), the last
// node. Ctrl+wheel still shows them all.
inline constexpr double kMinCompactCellWPx = 56.0;
inline constexpr double kMinCompactCellHPx = 44.0;

// "×N more": the label of a fold cell (UTF-8).
std::string compact_fold_label(int hidden);

// Rows and columns for n equal squares in a w x h area: the shape with the
// biggest squares, except that a shape with a ragged last row (8 as 3+3+2)
// must give squares kRaggedGridMinGain bigger than the best full shape
// (8 as 4x2) to win; a full block reads as a unit, a ragged one as a typo.
inline constexpr double kRaggedGridMinGain = 1.25;
GridShape choose_square_grid(int n, double w, double h);

struct CompactCell {
    int node = 0;                    // NUMA logical index (a fold: its first hidden node)
    int hidden = 0;                  // a fold: how many consecutive nodes from `node` it stands for
    LayoutRect rect;                 // the whole cell
    LayoutRect label;                // "N#k" (empty when the cell is too small for text)
    LayoutRect pu_area;              // where the PU squares go
    LayoutRect queue;                // the run-queue depth mark, right of the PUs
    LayoutRect heat;                 // a strip for the node's caches
    LayoutRect memory;               // the memory bar
    std::vector<int> pus;            // PU logical indices, in order
    std::vector<LayoutRect> pu_rect; // one per entry of pus
};

struct CompactGeometry {
    std::vector<CompactCell> cells;
    double width = 0, height = 0; // in pixels: compact cells are laid out at the pane's size
    double cell_w = 0, cell_h = 0;
    bool labelled = false; // node labels drawn
    int folded = 0;        // nodes hidden in the fold cell (0: every node has its cell)
    // Compact cells fill a w x h area (pixels).
    static CompactGeometry compute(const Topology &topo, double w, double h);
    int cell_at(double x, double y) const; // -1 outside every cell
};

struct CompactCellState {
    std::vector<int> running; // per PU of the cell: the running task's colour (TaskFrame::colour), -1 idle
    int queued = 0;           // runnable tasks waiting on the node's PUs
    int busy = 0;             // PUs running a task
    float heat = 0;           // the node's caches: mean fill, 0..1
    int heat_proc = -1;       // colour index holding most of the hottest cache
    std::vector<std::pair<ProcId, double>> memory; // bytes per process on the node, in process order
    // A fold: how many of its PUs run each colour (TaskFrame::colour), in
    // colour order, and how many PUs it has in all.
    std::vector<std::pair<int, int>> busy_by_colour;
    int pu_total = 0;
};

struct CompactScene {
    std::vector<CompactCellState> cells; // parallel to CompactGeometry::cells
    int max_queued = 0;                  // the deepest node queue, scales every queue mark
    // The most any node holds: every memory bar is scaled to it, so the
    // fullest node's bar is full however thinly the workload spreads.
    double max_node_bytes = 0;
    static CompactScene compute(const Topology &topo, const CompactGeometry &g, const PaneFrame &frame);
};

} // namespace schedscope::gui
