#include "topology_layout.h"

#include "object_text.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace schedscope::gui {

double TextMetrics::width(std::string_view utf8) const
{
    // Monospace: one advance per code point (continuation bytes skipped).
    int code_points = 0;
    for (unsigned char c : utf8)
        if ((c & 0xC0) != 0x80)
            ++code_points;
    return code_points * char_width;
}

bool default_folding(const Topology &topo) { return topo.pu_count() > kFoldAbovePus; }

namespace {

// Rows of `columns` items, each row as tall as its tallest item.
void measure_grid(const std::vector<ItemSize> &items, int columns, double gap, double &w, double &h)
{
    w = 0;
    h = 0;
    for (size_t start = 0; start < items.size(); start += columns) {
        double row_w = 0, row_h = 0;
        for (size_t i = start; i < std::min(items.size(), start + columns); ++i) {
            row_w += (i > start ? gap : 0) + items[i].w;
            row_h = std::max(row_h, items[i].h);
        }
        w = std::max(w, row_w);
        h += (start > 0 ? gap : 0) + row_h;
    }
}

// What one empty cell of the last row costs against the log of the aspect
// ratio: enough to prefer 2x2 over 4x1 when both are about as far off.
constexpr double kEmptyCellCost = 0.15;

} // namespace

GridShape choose_grid(const std::vector<ItemSize> &items, double gap, double aspect)
{
    const int n = static_cast<int>(items.size());
    if (n <= 1)
        return {1, 1};
    GridShape best{n, 1};
    double best_cost = std::numeric_limits<double>::max();
    int previous_columns = 0;
    for (int rows = 1; rows <= n; ++rows) {
        const int columns = (n + rows - 1) / rows;
        if (columns == previous_columns)
            continue; // the same shape with an empty row
        previous_columns = columns;
        const int used_rows = (n + columns - 1) / columns;
        double w, h;
        measure_grid(items, columns, gap, w, h);
        if (w <= 0 || h <= 0)
            continue;
        const double cost = std::abs(std::log(w / h) - std::log(aspect)) + kEmptyCellCost * (used_rows * columns - n);
        if (cost < best_cost - 1e-9) {
            best_cost = cost;
            best = {columns, used_rows};
        }
    }
    return best;
}

GridShape choose_grid(int n, double w, double h, double gap, double aspect)
{
    return choose_grid(std::vector<ItemSize>(static_cast<size_t>(std::max(n, 0)), ItemSize{w, h}), gap, aspect);
}

namespace {

// A laid-out subtree in its own coordinates. Boxes with parent -1 get
// attached to whichever box encloses the block once it is placed.
struct Block {
    double w = 0, h = 0;
    std::vector<LayoutBox> boxes;
};

void append(Block &dst, Block &&src, double dx, double dy, int attach)
{
    const int base = static_cast<int>(dst.boxes.size());
    for (LayoutBox &b : src.boxes) {
        b.rect.x += dx;
        b.rect.y += dy;
        b.parent = b.parent < 0 ? attach : b.parent + base;
        dst.boxes.push_back(std::move(b));
    }
}

// Structural identity used for folding: two siblings fold together only if
// their whole subtrees have the same shapes and sizes, so a fold never hides
// a node with a different amount of memory.
class Signatures {
public:
    explicit Signatures(const Topology &topo) : topo_(topo), ids_of_(topo.objects().size(), -1) {}

    int of(ObjId id)
    {
        if (ids_of_[id] >= 0)
            return ids_of_[id];
        const TopoObject &o = topo_.obj(id);
        std::string key = std::to_string(static_cast<int>(o.type)) + ':' + std::to_string(o.cache_size_bytes) + ':' +
                          std::to_string(o.memory_bytes) + ':' + o.subtype + "(";
        for (ObjId m : o.memory_children)
            key += 'm' + std::to_string(of(m)) + ',';
        for (ObjId c : o.children)
            key += std::to_string(of(c)) + ',';
        key += ')';
        auto [it, inserted] = ids_.emplace(std::move(key), static_cast<int>(ids_.size()));
        return ids_of_[id] = it->second;
    }

    // Calls f(first, length) for each run of identical consecutive children.
    template <typename F> void for_each_run(const std::vector<ObjId> &kids, F &&f)
    {
        for (size_t i = 0; i < kids.size();) {
            size_t run = 1;
            while (i + run < kids.size() && of(kids[i + run]) == of(kids[i]))
                ++run;
            f(i, run);
            i += run;
        }
    }

private:
    const Topology &topo_;
    std::vector<int> ids_of_;
    std::map<std::string, int> ids_;
};

// Which objects to show unfolded beyond the user's choice: whole levels, top
// down, while the visible PUs fit the budget (see LayoutOptions).
class FoldPlanner {
public:
    FoldPlanner(const Topology &topo, const LayoutOptions &opt, Signatures &sig) : topo_(topo), opt_(opt), sig_(sig) {}

    std::set<ObjId> unfolded()
    {
        std::set<ObjId> unfolded = opt_.unfolded;
        if (!opt_.fold || opt_.unfold_budget_pus <= 0)
            return unfolded;
        // Parents with at least one foldable run, by depth.
        std::vector<std::vector<ObjId>> levels;
        collect(topo_.root(), 0, levels);
        for (const auto &level : levels) {
            std::set<ObjId> candidate = unfolded;
            candidate.insert(level.begin(), level.end());
            if (visible_pus(topo_.root(), candidate) > opt_.unfold_budget_pus)
                break;
            unfolded = std::move(candidate);
        }
        return unfolded;
    }

private:
    bool has_foldable_run(const std::vector<ObjId> &kids)
    {
        bool any = false;
        sig_.for_each_run(kids, [&](size_t, size_t run) { any |= static_cast<int>(run) >= opt_.fold_min_run; });
        return any;
    }

    void collect(ObjId id, size_t depth, std::vector<std::vector<ObjId>> &levels)
    {
        const auto &kids = topo_.obj(id).children;
        if (has_foldable_run(kids)) {
            if (levels.size() <= depth)
                levels.resize(depth + 1);
            levels[depth].push_back(id);
        }
        for (ObjId c : kids)
            collect(c, depth + 1, levels);
    }

    int visible_pus(ObjId id, const std::set<ObjId> &unfolded)
    {
        const TopoObject &o = topo_.obj(id);
        if (o.type == ObjType::PU)
            return 1;
        int n = 0;
        const bool fold = !unfolded.count(id);
        sig_.for_each_run(o.children, [&](size_t first, size_t run) {
            if (fold && static_cast<int>(run) >= opt_.fold_min_run)
                n += visible_pus(o.children[first], unfolded) + visible_pus(o.children[first + run - 1], unfolded);
            else
                for (size_t k = 0; k < run; ++k)
                    n += visible_pus(o.children[first + k], unfolded);
        });
        return n;
    }

    const Topology &topo_;
    const LayoutOptions &opt_;
    Signatures &sig_;
};

class Builder {
public:
    Builder(const Topology &topo, const LayoutOptions &opt, Signatures &sig, std::set<ObjId> unfolded)
        : topo_(topo), opt_(opt), sig_(sig), unfolded_(std::move(unfolded))
    {
        // Every object of a type is as wide as the widest label of that type,
        // so "Core L#9" and "Core L#10" line up in columns.
        for (const TopoObject &o : topo.objects()) {
            double &w = type_label_width_[static_cast<int>(o.type)];
            w = std::max(w, label_width(object_label(topo, o.id)));
        }
    }

    Block object_block(ObjId id) { return is_cache(topo_.obj(id).type) ? cache_block(id) : boxed_block(id); }

private:
    double label_width(const std::vector<std::string> &lines) const
    {
        double w = 0;
        for (const auto &l : lines)
            w = std::max(w, opt_.text.width(l));
        return w;
    }
    double bar_height() const { return opt_.text.line_height + 2 * opt_.padding; }
    double node_height() const { return bar_height() + opt_.numa_overlay_height; }
    double type_label_width(ObjType t) const { return type_label_width_[static_cast<int>(t)]; }

    LayoutBox make_box(ObjId id, double w, double h) const
    {
        LayoutBox b;
        b.type = topo_.obj(id).type;
        b.obj = id;
        b.rect = {0, 0, w, h};
        b.label = object_label(topo_, id);
        return b;
    }

    // An object drawn as a box around its label, memory bars and children.
    Block boxed_block(ObjId id)
    {
        const TopoObject &o = topo_.obj(id);
        const auto label = object_label(topo_, id);
        const double label_h = label.size() * opt_.text.line_height;
        Block grid = children_grid(id, o.children);
        double inner_w = std::max(type_label_width(o.type), grid.w);
        if (o.type == ObjType::PU)
            inner_w = std::max(inner_w, opt_.pu_min_inner_width);
        Block mem = memory_rows(o.memory_children, inner_w);
        inner_w = std::max(inner_w, mem.w);

        double y = opt_.padding + label_h;
        if (o.type == ObjType::PU)
            y += opt_.pu_overlay_height;
        const double mem_y = y + opt_.gap;
        if (!mem.boxes.empty())
            y = mem_y + mem.h;
        const double grid_y = y + opt_.gap;
        if (!grid.boxes.empty())
            y = grid_y + grid.h;

        Block b;
        b.w = inner_w + 2 * opt_.padding;
        b.h = y + opt_.padding;
        b.boxes.push_back(make_box(id, b.w, b.h));
        append(b, std::move(mem), opt_.padding, mem_y, 0);
        append(b, std::move(grid), opt_.padding, grid_y, 0);
        return b;
    }

    // lstopo draws a cache as a bar over the objects it serves; the bar and
    // those objects are siblings inside the enclosing box.
    Block cache_block(ObjId id)
    {
        const TopoObject &o = topo_.obj(id);
        Block grid = children_grid(id, o.children);
        double w = std::max(type_label_width(o.type) + 2 * opt_.padding, grid.w);
        Block mem = memory_rows(o.memory_children, w);
        w = std::max(w, mem.w);

        Block b;
        b.w = w;
        double y = bar_height();
        b.boxes.push_back(make_box(id, w, y));
        if (!mem.boxes.empty()) {
            append(b, std::move(mem), 0, y + opt_.gap, -1);
            y += opt_.gap + mem.h;
        }
        if (!grid.boxes.empty()) {
            append(b, std::move(grid), 0, y + opt_.gap, -1);
            y += opt_.gap + grid.h;
        }
        b.h = y;
        return b;
    }

    // NUMA nodes as equal bars, as many per row as the width allows,
    // stretched to fill it.
    Block memory_rows(const std::vector<ObjId> &nodes, double width)
    {
        Block b;
        if (nodes.empty())
            return b;
        double bar_w = type_label_width(ObjType::NUMANode) + 2 * opt_.padding;
        width = std::max(width, bar_w);
        const int n = static_cast<int>(nodes.size());
        const int per_row = std::clamp(static_cast<int>((width + opt_.gap) / (bar_w + opt_.gap)), 1, n);
        bar_w = (width - (per_row - 1) * opt_.gap) / per_row;
        const int rows = (n + per_row - 1) / per_row;
        for (int i = 0; i < n; ++i) {
            LayoutBox box = make_box(nodes[i], bar_w, node_height());
            box.rect.x = (i % per_row) * (bar_w + opt_.gap);
            box.rect.y = (i / per_row) * (node_height() + opt_.gap);
            box.parent = -1;
            b.boxes.push_back(std::move(box));
        }
        b.w = width;
        b.h = rows * node_height() + (rows - 1) * opt_.gap;
        return b;
    }

    Block fold_block(ObjId parent, ObjId first_hidden, int hidden, double height)
    {
        LayoutBox box;
        box.kind = BoxKind::Fold;
        box.type = topo_.obj(first_hidden).type;
        box.obj = first_hidden;
        box.fold_parent = parent;
        box.hidden = hidden;
        box.label = {"\xC3\x97" + std::to_string(hidden) + " more"}; // "×N more"
        Block b;
        b.w = label_width(box.label) + 2 * opt_.padding;
        b.h = height;
        box.rect = {0, 0, b.w, b.h};
        b.boxes.push_back(std::move(box));
        return b;
    }

    Block children_grid(ObjId parent, const std::vector<ObjId> &kids)
    {
        std::vector<Block> items;
        const bool fold = opt_.fold && !unfolded_.count(parent);
        sig_.for_each_run(kids, [&](size_t i, size_t run) {
            if (fold && static_cast<int>(run) >= opt_.fold_min_run) {
                items.push_back(object_block(kids[i]));
                items.push_back(fold_block(parent, kids[i + 1], static_cast<int>(run) - 2, items.back().h));
                items.push_back(object_block(kids[i + run - 1]));
            } else {
                for (size_t k = 0; k < run; ++k)
                    items.push_back(object_block(kids[i + k]));
            }
        });
        return arrange(std::move(items));
    }

    Block arrange(std::vector<Block> items)
    {
        Block out;
        if (items.empty())
            return out;
        const int n = static_cast<int>(items.size());
        // Each level stays roughly the shape of the space it is drawn in, so
        // the whole machine fits at a readable scale.
        std::vector<ItemSize> sizes;
        for (const Block &b : items)
            sizes.push_back({b.w, b.h});
        const int best_cols = choose_grid(sizes, opt_.gap, opt_.aspect).columns;
        double y = 0;
        for (int start = 0; start < n; start += best_cols) {
            double x = 0, row_h = 0;
            for (int i = start; i < std::min(n, start + best_cols); ++i) {
                const double w = items[i].w, h = items[i].h;
                append(out, std::move(items[i]), x, y, -1);
                x += w + opt_.gap;
                row_h = std::max(row_h, h);
                out.w = std::max(out.w, x - opt_.gap);
            }
            y += row_h + opt_.gap;
        }
        out.h = y - opt_.gap;
        return out;
    }

    const Topology &topo_;
    const LayoutOptions &opt_;
    Signatures &sig_;
    std::set<ObjId> unfolded_;
    double type_label_width_[static_cast<int>(ObjType::PU) + 1] = {};
};

} // namespace

TopologyLayout TopologyLayout::compute(const Topology &topo, const LayoutOptions &options)
{
    TopologyLayout layout;
    layout.padding_ = options.padding;
    layout.line_height_ = options.text.line_height;
    if (topo.root() == kNoObj)
        return layout;
    Signatures signatures(topo);
    Builder builder(topo, options, signatures, FoldPlanner(topo, options, signatures).unfolded());
    Block root = builder.object_block(topo.root());
    layout.width_ = root.w;
    layout.height_ = root.h;
    layout.boxes_ = std::move(root.boxes);
    for (LayoutBox &b : layout.boxes_)
        b.depth = b.parent < 0 ? 0 : layout.boxes_[b.parent].depth + 1;
    return layout;
}

void TopologyLayout::stretch(double sx, double sy)
{
    sx = std::max(1.0, sx);
    sy = std::max(1.0, sy);
    for (LayoutBox &b : boxes_)
        b.rect = {b.rect.x * sx, b.rect.y * sy, b.rect.w * sx, b.rect.h * sy};
    width_ *= sx;
    height_ *= sy;
}

int TopologyLayout::hit_test(double x, double y) const
{
    for (int i = static_cast<int>(boxes_.size()) - 1; i >= 0; --i)
        if (boxes_[i].rect.contains(x, y))
            return i;
    return -1;
}

int TopologyLayout::box_of(ObjId obj) const
{
    for (size_t i = 0; i < boxes_.size(); ++i)
        if (boxes_[i].kind == BoxKind::Object && boxes_[i].obj == obj)
            return static_cast<int>(i);
    return -1;
}

int TopologyLayout::count(BoxKind kind) const
{
    return static_cast<int>(
        std::count_if(boxes_.begin(), boxes_.end(), [&](const LayoutBox &b) { return b.kind == kind; }));
}

int TopologyLayout::count(ObjType type) const
{
    return static_cast<int>(std::count_if(
        boxes_.begin(), boxes_.end(), [&](const LayoutBox &b) { return b.kind == BoxKind::Object && b.type == type; }));
}

} // namespace schedscope::gui
