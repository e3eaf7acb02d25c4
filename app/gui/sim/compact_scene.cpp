#include "compact_scene.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace schedscope::gui {

namespace {
// Cell parts in pixels: a label line of the panes' 10 px font, a 2 px
// border inside each cell and 3 px between cells (the detail layout's
// spacing at fit scale).
constexpr double kCellPadPx = 2.0;
constexpr double kCellGapPx = 3.0;
constexpr double kLabelPx = 12.0;
// Below this cell height the label would crowd out the PUs: cells are then
// told apart by position and tooltip only.
constexpr double kMinLabelledCellPx = 34.0;
// The memory bar and the cache strip take these shares of a cell's height,
// with a floor so they stay visible in a small cell.
constexpr double kMemoryShare = 0.2;
constexpr double kMemoryMinPx = 3.0;
constexpr double kHeatShare = 0.08;
constexpr double kHeatMinPx = 2.0;
constexpr double kQueueShare = 0.12;
constexpr double kQueueMinPx = 3.0;
// Nodes [first, last) have the same PUs and memory: a fold may stand for
// them without hiding a node unlike the rest (as the Topology tab's folds).
bool identical_nodes(const Topology &topo, int first, int last)
{
    const auto shape = [&topo](int k) {
        return std::pair(topo.pus_of_node(k).count(), topo.obj(topo.numa_node(k)).memory_bytes);
    };
    for (int k = first + 1; k < last; ++k)
        if (shape(k) != shape(first))
            return false;
    return true;
}
} // namespace

PaneMode choose_pane_mode(int pu_count, int numa_count, double fit_scale, double zoom)
{
    if (zoom > 1.0 || numa_count < 2 || pu_count <= kCompactAbovePus || fit_scale >= kReadableScale)
        return PaneMode::Detail;
    return PaneMode::Compact;
}

std::string compact_fold_label(int hidden) { return "\u00d7" + std::to_string(hidden) + " more"; }

GridShape choose_square_grid(int n, double w, double h)
{
    if (n <= 1 || w <= 0 || h <= 0)
        return {1, 1};
    GridShape best_full{n, 1}, best_ragged{n, 1};
    double full_side = 0, ragged_side = 0;
    for (int columns = 1; columns <= n; ++columns) {
        const int rows = (n + columns - 1) / columns;
        if (columns > 1 && (n + columns - 2) / (columns - 1) == rows)
            continue; // fewer columns hold the same rows: this one only adds an empty column
        const double side = std::min(w / columns, h / rows);
        const bool full = rows * columns == n;
        if (full && side > full_side) {
            full_side = side;
            best_full = {columns, rows};
        } else if (!full && side > ragged_side) {
            ragged_side = side;
            best_ragged = {columns, rows};
        }
    }
    return ragged_side > full_side * kRaggedGridMinGain ? best_ragged : best_full;
}

CompactGeometry CompactGeometry::compute(const Topology &topo, double w, double h)
{
    CompactGeometry g;
    const int n = topo.numa_count();
    if (n <= 0 || w <= 0 || h <= 0)
        return g;
    // The shape of one cell in PU units: the PU grid, a queue column and
    // about two rows for label, heat and memory.
    int max_pus = 1;
    for (int k = 0; k < n; ++k)
        max_pus = std::max(max_pus, topo.pus_of_node(k).count());
    const GridShape pu_grid = choose_grid(max_pus, 1.0, 1.0, 0.15, 1.5);
    const double unit_w = pu_grid.columns + 0.6, unit_h = pu_grid.rows + 2.0;
    GridShape shape = choose_grid(n, unit_w, unit_h, 0.2, w / h);
    g.cell_w = std::max(1.0, (w - (shape.columns - 1) * kCellGapPx) / shape.columns);
    g.cell_h = std::max(1.0, (h - (shape.rows - 1) * kCellGapPx) / shape.rows);
    // Too small to read: as many cells as fit at the readable size, one of
    // them the fold. Folding needs room for a first node, the fold and the last.
    int cells = n, fold_slots = 1;
    if (g.cell_w < kMinCompactCellWPx || g.cell_h < kMinCompactCellHPx) {
        const int columns = static_cast<int>((w + kCellGapPx) / (kMinCompactCellWPx + kCellGapPx));
        const int rows = static_cast<int>((h + kCellGapPx) / (kMinCompactCellHPx + kCellGapPx));
        // The fold takes two places of the last row when it has three, so
        // "×433 more" and its node range read in full.
        fold_slots = columns >= 3 ? 2 : 1;
        const int places = columns * rows;
        if (columns >= 1 && rows >= 1 && places >= 2 + fold_slots && places < n &&
            identical_nodes(topo, places - fold_slots - 1, n - 1)) {
            shape = {columns, rows};
            cells = columns * rows - fold_slots + 1;
            g.folded = n - (cells - 1);
            g.cell_w = (w - (columns - 1) * kCellGapPx) / columns;
            g.cell_h = (h - (rows - 1) * kCellGapPx) / rows;
        }
    }
    // Cells no taller than about twice their content needs: a two-node
    // machine in a big pane gets two wide cells, not two towers.
    g.cell_h = std::min(g.cell_h, g.cell_w * unit_h / unit_w * 2.0);
    g.labelled = g.cell_h >= kMinLabelledCellPx;
    g.width = shape.columns * g.cell_w + (shape.columns - 1) * kCellGapPx;
    g.height = shape.rows * g.cell_h + (shape.rows - 1) * kCellGapPx;

    for (int i = 0; i < cells; ++i) {
        CompactCell c;
        // Folded: nodes 0 .. cells-3 in full, then the fold, then the last node.
        const bool fold = g.folded > 0 && i == cells - 2;
        c.node = g.folded > 0 && i == cells - 1 ? n - 1 : i;
        c.hidden = fold ? g.folded : 0;
        const int slot = g.folded > 0 && i == cells - 1 ? i + fold_slots - 1 : i;
        const int span = fold ? fold_slots : 1;
        c.rect = {(slot % shape.columns) * (g.cell_w + kCellGapPx), (slot / shape.columns) * (g.cell_h + kCellGapPx),
                  span * g.cell_w + (span - 1) * kCellGapPx, g.cell_h};
        const double x = c.rect.x + kCellPadPx, iw = std::max(0.0, c.rect.w - 2 * kCellPadPx);
        double y = c.rect.y + kCellPadPx;
        const double ih = std::max(0.0, g.cell_h - 2 * kCellPadPx);
        if (g.labelled) {
            c.label = {x, y, iw, kLabelPx};
            y += kLabelPx;
        }
        const double mem_h = std::max(kMemoryMinPx, ih * kMemoryShare);
        const double heat_h = std::max(kHeatMinPx, ih * kHeatShare);
        const double bottom = c.rect.y + kCellPadPx + ih;
        c.memory = {x, bottom - mem_h, iw, mem_h};
        c.heat = {x, c.memory.y - 1 - heat_h, iw, heat_h};
        const double pu_h = std::max(0.0, c.heat.y - 1 - y);
        const double q_w = std::max(kQueueMinPx, iw * kQueueShare);
        c.queue = {x + iw - q_w, y, q_w, pu_h};
        c.pu_area = {x, y, std::max(0.0, iw - q_w - 1), pu_h};
        if (fold) { // no squares: the painter draws the hidden nodes' PUs as one bar
            g.cells.push_back(std::move(c));
            continue;
        }

        const CpuSet &pus = topo.pus_of_node(c.node);
        for (int p = pus.first(); p >= 0; p = pus.next(p))
            c.pus.push_back(p);
        const int np = static_cast<int>(c.pus.size());
        if (np > 0 && c.pu_area.w > 0 && c.pu_area.h > 0) {
            const GridShape grid = choose_square_grid(np, c.pu_area.w, c.pu_area.h);
            const double side = std::min(c.pu_area.w / grid.columns, c.pu_area.h / grid.rows);
            const double inner = side > 3 ? side - 1 : side; // a pixel apart once there is room
            for (int k = 0; k < np; ++k)
                c.pu_rect.push_back(
                    {c.pu_area.x + (k % grid.columns) * side, c.pu_area.y + (k / grid.columns) * side, inner, inner});
        } else {
            c.pu_rect.assign(c.pus.size(), LayoutRect{});
        }
        g.cells.push_back(std::move(c));
    }
    return g;
}

int CompactGeometry::cell_at(double x, double y) const
{
    for (size_t i = 0; i < cells.size(); ++i)
        if (cells[i].rect.contains(x, y))
            return static_cast<int>(i);
    return -1;
}

CompactScene CompactScene::compute(const Topology &topo, const CompactGeometry &g, const PaneFrame &f)
{
    CompactScene sc;
    // Which cell shows each node: its own, or the fold's.
    std::vector<int> cell_of_node(std::max(0, topo.numa_count()), -1);
    for (size_t i = 0; i < g.cells.size(); ++i) {
        const CompactCell &c = g.cells[i];
        for (int k = c.node; k < c.node + std::max(1, c.hidden) && k < static_cast<int>(cell_of_node.size()); ++k)
            cell_of_node[k] = static_cast<int>(i);
    }
    // Caches by cell: the node of the first PU each one serves.
    std::vector<double> heat_sum(g.cells.size(), 0.0), heat_max(g.cells.size(), -1.0);
    std::vector<int> heat_n(g.cells.size(), 0);
    sc.cells.resize(g.cells.size());
    for (const CacheFrame &cf : f.caches) {
        const int first = topo.obj(cf.obj).cpuset.first();
        if (first < 0)
            continue;
        const int node = topo.node_of_pu(first);
        if (node < 0 || node >= static_cast<int>(cell_of_node.size()) || cell_of_node[node] < 0)
            continue;
        const int i = cell_of_node[node];
        heat_sum[i] += cf.heat;
        ++heat_n[i];
        if (cf.heat > heat_max[i]) {
            heat_max[i] = cf.heat;
            sc.cells[i].heat_proc = cf.dominant;
        }
    }
    const auto colour_on = [&f](int p) {
        if (p >= static_cast<int>(f.pus.size()))
            return -1;
        const PuFrame &pu = f.pus[p];
        return pu.current >= 0 && pu.current < static_cast<TaskId>(f.tasks.size()) ? f.tasks[pu.current].colour : -1;
    };
    const auto queued_on = [&f](int p) {
        return p < static_cast<int>(f.pus.size()) ? static_cast<int>(f.pus[p].queued.size()) : 0;
    };
    for (size_t i = 0; i < g.cells.size(); ++i) {
        const CompactCell &c = g.cells[i];
        CompactCellState &s = sc.cells[i];
        // Caches the frame does not list are cold.
        s.heat = heat_n[i] > 0 ? static_cast<float>(heat_sum[i] / heat_n[i]) : 0.0f;
        for (int p : c.pus) {
            const int colour = colour_on(p);
            s.queued += queued_on(p);
            s.running.push_back(colour);
            s.busy += colour >= 0 ? 1 : 0;
        }
        std::map<int, int> by_colour; // a fold: its PUs counted by what runs there
        for (int k = c.node; c.hidden > 0 && k < c.node + c.hidden; ++k) {
            const CpuSet &pus = topo.pus_of_node(k);
            for (int p = pus.first(); p >= 0; p = pus.next(p)) {
                const int colour = colour_on(p);
                s.queued += queued_on(p);
                ++s.pu_total;
                if (colour >= 0) {
                    ++s.busy;
                    ++by_colour[colour];
                }
            }
        }
        s.busy_by_colour.assign(by_colour.begin(), by_colour.end());
        if (c.hidden == 0)
            s.pu_total = static_cast<int>(c.pus.size());
        if (c.hidden == 0) // a fold's queue is drawn per hidden node
            sc.max_queued = std::max(sc.max_queued, s.queued);
        for (size_t proc = 0; proc < f.proc_node_bytes.size(); ++proc) {
            const auto &by_node = f.proc_node_bytes[proc];
            double bytes = 0;
            for (int k = c.node; k < c.node + std::max(1, c.hidden); ++k)
                bytes += k < static_cast<int>(by_node.size()) ? by_node[k] : 0.0;
            if (bytes > 0)
                s.memory.emplace_back(static_cast<ProcId>(proc), bytes);
        }
        // A fold's bar is per hidden node on average, so it reads on the
        // same scale as the nodes beside it.
        if (c.hidden > 1)
            for (auto &m : s.memory)
                m.second /= c.hidden;
        double node_bytes = 0;
        for (const auto &m : s.memory)
            node_bytes += m.second;
        sc.max_node_bytes = std::max(sc.max_node_bytes, node_bytes);
    }
    return sc;
}

} // namespace schedscope::gui
