#include "compact_scene.h"

#include <algorithm>
#include <cmath>

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
} // namespace

PaneMode choose_pane_mode(int pu_count, int numa_count, double fit_scale, double zoom)
{
    if (zoom > 1.0 || numa_count < 2 || pu_count <= kCompactAbovePus || fit_scale >= kReadableScale)
        return PaneMode::Detail;
    return PaneMode::Compact;
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
    const GridShape shape = choose_grid(n, unit_w, unit_h, 0.2, w / h);
    g.cell_w = std::max(1.0, (w - (shape.columns - 1) * kCellGapPx) / shape.columns);
    g.cell_h = std::max(1.0, (h - (shape.rows - 1) * kCellGapPx) / shape.rows);
    // Cells no taller than about twice their content needs: a two-node
    // machine in a big pane gets two wide cells, not two towers.
    g.cell_h = std::min(g.cell_h, g.cell_w * unit_h / unit_w * 2.0);
    g.labelled = g.cell_h >= kMinLabelledCellPx;
    g.width = shape.columns * g.cell_w + (shape.columns - 1) * kCellGapPx;
    g.height = shape.rows * g.cell_h + (shape.rows - 1) * kCellGapPx;

    for (int k = 0; k < n; ++k) {
        CompactCell c;
        c.node = k;
        c.rect = {(k % shape.columns) * (g.cell_w + kCellGapPx), (k / shape.columns) * (g.cell_h + kCellGapPx),
                  g.cell_w, g.cell_h};
        const double x = c.rect.x + kCellPadPx, iw = std::max(0.0, g.cell_w - 2 * kCellPadPx);
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

        const CpuSet &pus = topo.pus_of_node(k);
        for (int p = pus.first(); p >= 0; p = pus.next(p))
            c.pus.push_back(p);
        const int np = static_cast<int>(c.pus.size());
        if (np > 0 && c.pu_area.w > 0 && c.pu_area.h > 0) {
            const GridShape grid = choose_grid(np, 1.0, 1.0, 0.1, c.pu_area.w / c.pu_area.h);
            const double side = std::min(c.pu_area.w / grid.columns, c.pu_area.h / grid.rows);
            const double inner = side > 3 ? side - 1 : side; // a pixel apart once there is room
            for (int i = 0; i < np; ++i)
                c.pu_rect.push_back(
                    {c.pu_area.x + (i % grid.columns) * side, c.pu_area.y + (i / grid.columns) * side, inner, inner});
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
    // Caches by node: the node of the first PU each one serves.
    std::vector<double> heat_sum(g.cells.size(), 0.0), heat_max(g.cells.size(), -1.0);
    std::vector<int> heat_n(g.cells.size(), 0);
    sc.cells.resize(g.cells.size());
    for (const CacheFrame &cf : f.caches) {
        const int first = topo.obj(cf.obj).cpuset.first();
        if (first < 0)
            continue;
        const int node = topo.node_of_pu(first);
        if (node < 0 || node >= static_cast<int>(g.cells.size()))
            continue;
        heat_sum[node] += cf.heat;
        ++heat_n[node];
        if (cf.heat > heat_max[node]) {
            heat_max[node] = cf.heat;
            sc.cells[node].heat_proc = cf.dominant;
        }
    }
    for (size_t i = 0; i < g.cells.size(); ++i) {
        const CompactCell &c = g.cells[i];
        CompactCellState &s = sc.cells[i];
        // Caches the frame does not list are cold.
        s.heat = heat_n[i] > 0 ? static_cast<float>(heat_sum[i] / heat_n[i]) : 0.0f;
        for (int p : c.pus) {
            ProcId proc = -1;
            if (p < static_cast<int>(f.pus.size())) {
                const PuFrame &pu = f.pus[p];
                if (pu.current >= 0 && pu.current < static_cast<TaskId>(f.tasks.size()))
                    proc = f.tasks[pu.current].colour;
                s.queued += static_cast<int>(pu.queued.size());
            }
            s.running.push_back(proc);
            s.busy += proc >= 0 ? 1 : 0;
        }
        sc.max_queued = std::max(sc.max_queued, s.queued);
        for (size_t proc = 0; proc < f.proc_node_bytes.size(); ++proc) {
            const auto &by_node = f.proc_node_bytes[proc];
            const double bytes = c.node < static_cast<int>(by_node.size()) ? by_node[c.node] : 0.0;
            if (bytes > 0)
                s.memory.emplace_back(static_cast<ProcId>(proc), bytes);
        }
        double node_bytes = 0;
        for (const auto &m : s.memory)
            node_bytes += m.second;
        sc.max_node_bytes = std::max(sc.max_node_bytes, node_bytes);
    }
    return sc;
}

} // namespace schedscope::gui
