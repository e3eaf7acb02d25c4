#pragma once
// The layout pass of the topology view, in the manner of lstopo's prepare
// pass: plain structs with rectangles and label lines, no QPainter, so the
// geometry can be tested without a display and drawn by any backend
// (screen, PNG, SVG) through topology_renderer.h.
//
// Visual language (lstopo's): an object is a box with its label on top;
// memory children (NUMA nodes) are full-width bars at the top of their
// parent; a cache is a bar drawn above the objects it serves rather than a
// box around them; other children are arranged in a grid below. Runs of
// identical children can be folded to "first, xN more, last".

#include "topology/topology.h"

#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace schedscope::gui {

struct LayoutRect {
    double x = 0, y = 0, w = 0, h = 0;
    double right() const { return x + w; }
    double bottom() const { return y + h; }
    bool contains(double px, double py) const { return px >= x && px < right() && py >= y && py < bottom(); }
    bool contains(const LayoutRect &r) const
    {
        return r.x >= x && r.y >= y && r.right() <= right() && r.bottom() <= bottom();
    }
    // Interiors overlap; touching edges do not count.
    bool overlaps(const LayoutRect &r) const
    {
        return r.x < right() && x < r.right() && r.y < bottom() && y < r.bottom();
    }
};

// Text size as the layout sees it. The views use a monospace font and fill
// this from its real metrics; tests use the defaults.
struct TextMetrics {
    double char_width = 6.0; // advance of one character
    double line_height = 13.0;
    double width(std::string_view utf8) const;
};

enum class BoxKind {
    Object, // one topology object
    Fold,   // stands for a run of identical siblings that are not drawn
};

struct LayoutBox {
    BoxKind kind = BoxKind::Object;
    ObjType type = ObjType::Machine; // the object's type, or the folded objects' type
    ObjId obj = kNoObj;              // the object; for a Fold, the first hidden object
    ObjId fold_parent = kNoObj;      // Fold: the object whose children are folded
    int hidden = 0;                  // Fold: how many objects it stands for
    // Index of the box that geometrically encloses this one, -1 for the root.
    // A cache bar is not a container, so the cores below an L3 bar have the
    // package (not the L3) as parent here.
    int parent = -1;
    int depth = 0;
    LayoutRect rect;
    std::vector<std::string> label;
};

struct LayoutOptions {
    TextMetrics text;
    double padding = 5.0;     // inside a box, around its label and content
    double gap = 5.0;         // between siblings
    double aspect = 1.6;      // preferred width/height of each grid of children (a wide screen)
    bool fold = true;         // fold runs of identical children
    int fold_min_run = 4;     // lstopo factorizes runs of at least 4 (its --factorize default)
    std::set<ObjId> unfolded; // objects whose children are always shown in full
    // With folding on, whole levels are still shown unfolded from the top
    // down while the number of visible PUs stays within this budget: a
    // 16-package machine shows its 16 packages and folds their cores rather
    // than folding everything to "first, x14 more, last". 0 turns it off.
    int unfold_budget_pus = 128;
    // Room the animation panes reserve below a PU's label (for its task
    // token and queue) and below a NUMA node's label (for its memory bars).
    // 0 in the plain topology view.
    double pu_overlay_height = 0;
    double pu_min_inner_width = 0;
    double numa_overlay_height = 0;
};

// Rows and columns for a grid of items. Only full shapes are candidates:
// for each row count, the fewest columns that hold every item, so 4 items
// pack 2x2 (never 3+1) and 6 pack 3x2 or 2x3 (never 5+1). Among those, the
// grid whose width/height comes closest to `aspect` wins; an empty cell in
// the last row costs a little, so a full grid wins a near tie.
struct GridShape {
    int columns = 1;
    int rows = 1;
};
struct ItemSize {
    double w = 0, h = 0;
};
GridShape choose_grid(const std::vector<ItemSize> &items, double gap, double aspect);
// Uniform items: n of them, each w x h.
GridShape choose_grid(int n, double w, double h, double gap, double aspect);

// Folding is on by default only where drawing everything would make boxes
// too small to read at fit-to-window size.
inline constexpr int kFoldAbovePus = 64;
bool default_folding(const Topology &topo);

class TopologyLayout {
public:
    static TopologyLayout compute(const Topology &topo, const LayoutOptions &options = {});

    // In drawing order: every box comes after the box that encloses it.
    const std::vector<LayoutBox> &boxes() const { return boxes_; }
    double width() const { return width_; }
    double height() const { return height_; }
    bool empty() const { return boxes_.empty(); }
    // Where label lines go: line i of a box's label has its top at
    // rect.y + padding() + i * line_height(), starting at rect.x + padding().
    double padding() const { return padding_; }
    double line_height() const { return line_height_; }

    // Spreads the drawing to sx times its width and sy times its height
    // (both >= 1): boxes and the gaps between them grow, text does not, so
    // a pane can fill its shape without distorting labels.
    void stretch(double sx, double sy);

    // The frontmost (last drawn) box containing the point, or -1.
    int hit_test(double x, double y) const;
    // The box drawn for an object, or -1 if it is folded away.
    int box_of(ObjId obj) const;
    int count(BoxKind kind) const;
    int count(ObjType type) const; // Object boxes of that type

private:
    std::vector<LayoutBox> boxes_;
    double width_ = 0, height_ = 0;
    double padding_ = 0, line_height_ = 0;
};

} // namespace schedscope::gui
