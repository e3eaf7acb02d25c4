#include "topology_renderer.h"

#include <vector>

namespace schedscope::gui {

void render_topology(const TopologyLayout &layout, Canvas &canvas, const RenderOptions &opt)
{
    const auto &boxes = layout.boxes();
    const bool draw_text = layout.line_height() * opt.scale >= opt.min_text_px;
    // A box skipped for size or visibility hides its descendants too; they
    // come later in drawing order, so one pass with a flag per box suffices.
    std::vector<char> skipped(boxes.size(), 0);
    int highlighted = -1;
    for (size_t i = 0; i < boxes.size(); ++i) {
        const LayoutBox &b = boxes[i];
        if ((b.parent >= 0 && skipped[b.parent]) || (opt.visible && !opt.visible->overlaps(b.rect)) ||
            b.rect.w * opt.scale < opt.min_box_px || b.rect.h * opt.scale < opt.min_box_px) {
            skipped[i] = 1;
            continue;
        }
        const bool fold = b.kind == BoxKind::Fold;
        canvas.box(b.rect, opt.palette.fill(b.type), opt.palette.stroke, fold ? Stroke::Dashed : Stroke::Solid);
        if (b.kind == BoxKind::Object && b.obj == opt.highlighted)
            highlighted = static_cast<int>(i);
        if (!draw_text)
            continue;
        const double pad = layout.padding();
        for (size_t l = 0; l < b.label.size(); ++l) {
            const double top = b.rect.y + pad + l * layout.line_height();
            if (top + layout.line_height() > b.rect.bottom())
                break; // a box too short for more lines (never with our layout, but cheap to guard)
            canvas.text(b.rect.x + pad, top, b.label[l], fold ? opt.palette.fold_text : opt.palette.text);
        }
    }
    // Last, so no sibling painted later covers the outline.
    if (highlighted >= 0)
        canvas.box(boxes[highlighted].rect, opt.palette.fill(boxes[highlighted].type), opt.palette.highlight,
                   Stroke::Highlight);
}

} // namespace schedscope::gui
