#include "pane_scene.h"

#include <algorithm>
#include <utility>

namespace schedscope::gui {

namespace {
// Overlay sizes in layout units (the label font is 10 px): a token the
// size of a capital letter, memory bars half a line high.
constexpr double kPuOverlayHeight = 12.0;
constexpr double kPuMinInnerWidth = 48.0;
constexpr double kNumaOverlayHeight = 8.0;
// A pane stretched to fill its shape gives PU slots more room; tokens grow
// with it up to this factor, then stay put so labels still lead.
constexpr double kMaxTokenGrowth = 1.5;
} // namespace

LayoutOptions pane_layout_options(const TextMetrics &text, double aspect)
{
    LayoutOptions o;
    o.text = text;
    o.aspect = aspect;
    o.fold = false;
    o.pu_overlay_height = kPuOverlayHeight;
    o.pu_min_inner_width = kPuMinInnerWidth;
    o.numa_overlay_height = kNumaOverlayHeight;
    return o;
}

PaneGeometry PaneGeometry::compute(const Topology &topo, const LayoutOptions &options)
{
    return from_layout(topo, TopologyLayout::compute(topo, options), options);
}

PaneGeometry PaneGeometry::from_layout(const Topology &topo, TopologyLayout layout, const LayoutOptions &options)
{
    PaneGeometry g;
    g.layout = std::move(layout);
    const auto &boxes = g.layout.boxes();
    for (size_t i = 0; i < boxes.size(); ++i)
        if (boxes[i].kind == BoxKind::Object)
            g.box_of_obj.emplace(boxes[i].obj, static_cast<int>(i));
    const double pad = g.layout.padding(), lh = g.layout.line_height();
    g.pu_slot.resize(topo.pu_count());
    for (int p = 0; p < topo.pu_count(); ++p) {
        const auto it = g.box_of_obj.find(topo.pu(p));
        if (it == g.box_of_obj.end())
            continue; // cannot happen unfolded; an empty slot draws nothing
        const LayoutRect &r = boxes[it->second].rect;
        const double top = r.y + pad + boxes[it->second].label.size() * lh;
        g.pu_slot[p] = {r.x + pad, top, std::max(0.0, r.w - 2 * pad), std::max(0.0, r.bottom() - pad - top)};
    }
    g.node_slot.resize(topo.numa_count());
    for (int n = 0; n < topo.numa_count(); ++n) {
        const auto it = g.box_of_obj.find(topo.numa_node(n));
        if (it == g.box_of_obj.end())
            continue;
        const LayoutRect &r = boxes[it->second].rect;
        const double h = std::min(options.numa_overlay_height, std::max(0.0, r.h - 2 * pad));
        g.node_slot[n] = {r.x + pad, r.bottom() - pad - h, std::max(0.0, r.w - 2 * pad), h};
    }
    return g;
}

double token_side(const LayoutRect &slot) { return std::min({slot.h, slot.w, kPuOverlayHeight * kMaxTokenGrowth}); }

double PaneGeometry::token_cx(int cpu) const
{
    const LayoutRect &s = pu_slot.at(cpu);
    return s.x + token_side(s) / 2;
}

double PaneGeometry::token_cy(int cpu) const
{
    const LayoutRect &s = pu_slot.at(cpu);
    return s.y + token_side(s) / 2;
}

PaneScene PaneScene::compute(const PaneGeometry &g, const PaneFrame &f)
{
    PaneScene sc;
    const int npu = static_cast<int>(std::min(g.pu_slot.size(), f.pus.size()));
    for (int c = 0; c < npu; ++c) {
        const LayoutRect &slot = g.pu_slot[c];
        const PuFrame &pu = f.pus[c];
        if (pu.current < 0 && pu.queued.empty()) {
            sc.idle_pus.push_back(c);
            continue;
        }
        const double d = token_side(slot);
        auto proc_of = [&](TaskId t) {
            return t >= 0 && t < static_cast<TaskId>(f.tasks.size()) ? f.tasks[t].proc : -1;
        };
        auto colour_of = [&](TaskId t) {
            return t >= 0 && t < static_cast<TaskId>(f.tasks.size()) ? f.tasks[t].colour : -1;
        };
        if (pu.current >= 0) {
            sc.token_of_task[pu.current] = static_cast<int>(sc.tokens.size());
            sc.tokens.push_back(
                {pu.current, proc_of(pu.current), colour_of(pu.current), c, true, {slot.x, slot.y, d, d}});
        }
        // The queue lines up right of the running token, as many as fit;
        // the rest are counted in an overflow marker.
        const double q = d * kQueuedTokenScale;
        const double step = q + 1.0;
        double x = slot.x + d + 2.0;
        const double y = slot.y + (d - q) / 2;
        const int fit = std::max(0, static_cast<int>((slot.right() - x) / step));
        const int n = static_cast<int>(pu.queued.size());
        const int shown = n <= fit ? n : std::max(0, fit - 1); // keep a place for the "+k"
        for (int i = 0; i < shown; ++i, x += step) {
            const TaskId t = pu.queued[i];
            sc.token_of_task[t] = static_cast<int>(sc.tokens.size());
            sc.tokens.push_back({t, proc_of(t), colour_of(t), c, false, {x, y, q, q}});
        }
        if (shown < n)
            sc.overflows.push_back({c, n - shown, {x, slot.y, std::max(0.0, slot.right() - x), d}});
    }

    const auto &boxes = g.layout.boxes();
    for (const CacheFrame &cf : f.caches) {
        const auto it = g.box_of_obj.find(cf.obj);
        if (it == g.box_of_obj.end() || cf.heat <= 0)
            continue;
        LayoutRect r = boxes[it->second].rect;
        r.w *= cf.heat;
        sc.heat.push_back({cf.obj, cf.heat, cf.dominant, r});
    }

    if (f.total_memory_bytes > 0) {
        for (int n = 0; n < static_cast<int>(g.node_slot.size()); ++n) {
            const LayoutRect &slot = g.node_slot[n];
            double x = slot.x;
            for (size_t p = 0; p < f.proc_node_bytes.size(); ++p) {
                const auto &by_node = f.proc_node_bytes[p];
                const double bytes = n < static_cast<int>(by_node.size()) ? by_node[n] : 0.0;
                if (bytes <= 0)
                    continue;
                // Scaled to the whole workload's memory: a full bar means
                // all of it sits on this node.
                const double w = slot.w * bytes / f.total_memory_bytes;
                sc.memory.push_back({n, static_cast<ProcId>(p), bytes, {x, slot.y, w, slot.h}});
                x += w;
            }
        }
    }

    for (const MoveFrame &m : f.moves) {
        if (m.from_cpu < 0 || m.to_cpu < 0 || m.from_cpu >= npu || m.to_cpu >= npu)
            continue;
        sc.trails.push_back({m.task, m.from_cpu, m.to_cpu, m.cls, g.token_cx(m.from_cpu), g.token_cy(m.from_cpu),
                             g.token_cx(m.to_cpu), g.token_cy(m.to_cpu)});
    }
    return sc;
}

const Token *PaneScene::token(TaskId t) const
{
    const auto it = token_of_task.find(t);
    return it == token_of_task.end() ? nullptr : &tokens[it->second];
}

} // namespace schedscope::gui
