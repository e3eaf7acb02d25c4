// The renderer against a recording canvas: what gets drawn at which scale.
#include "test_machines.h"
#include "topology_renderer.h"

#include <catch2/catch.hpp>

using namespace schedscope;
using namespace schedscope::gui;

namespace {
struct RecordingCanvas : Canvas {
    int boxes = 0, texts = 0, dashed = 0, highlights = 0;
    std::vector<Rgb> fills;
    void box(const LayoutRect &, Rgb fill, Rgb, Stroke style) override
    {
        ++boxes;
        fills.push_back(fill);
        dashed += style == Stroke::Dashed;
        highlights += style == Stroke::Highlight;
    }
    void line(double, double, double, double, Rgb) override {}
    void text(double, double, const std::string &, Rgb) override { ++texts; }
};
} // namespace

TEST_CASE("the renderer draws every box and label at scale 1 in lstopo colours", "[render]")
{
    const Topology topo = test::make_machine({});
    LayoutOptions lo;
    lo.fold = false;
    const TopologyLayout layout = TopologyLayout::compute(topo, lo);
    RecordingCanvas canvas;
    render_topology(layout, canvas);
    CHECK(canvas.boxes == static_cast<int>(layout.boxes().size()));
    CHECK(canvas.texts == static_cast<int>(layout.boxes().size()));
    const TopologyPalette palette;
    CHECK(std::count(canvas.fills.begin(), canvas.fills.end(), palette.package) == 2);
    CHECK(std::count(canvas.fills.begin(), canvas.fills.end(), palette.core) == 12);
    CHECK(std::count(canvas.fills.begin(), canvas.fills.end(), palette.numa_node) == 2);
}

TEST_CASE("zoomed out, labels are dropped and tiny boxes skipped", "[render]")
{
    const Topology topo = test::make_machine({.packages = 16, .cores_per_package = 32});
    LayoutOptions lo;
    lo.fold = false;
    const TopologyLayout layout = TopologyLayout::compute(topo, lo);
    RenderOptions ro;
    ro.scale = 0.05; // a PU box is then about 3 x 1 pixels
    RecordingCanvas canvas;
    render_topology(layout, canvas, ro);
    CHECK(canvas.texts == 0);
    CHECK(canvas.boxes > 0);
    CHECK(canvas.boxes < static_cast<int>(layout.boxes().size()));
}

TEST_CASE("only visible boxes are drawn", "[render]")
{
    const Topology topo = test::make_machine({.packages = 8});
    const TopologyLayout layout = TopologyLayout::compute(topo);
    RenderOptions ro;
    ro.visible = LayoutRect{0, 0, 50, 50};
    RecordingCanvas canvas;
    render_topology(layout, canvas, ro);
    CHECK(canvas.boxes >= 2); // the machine and the first package at least
    CHECK(canvas.boxes < static_cast<int>(layout.boxes().size()) / 4);
}

TEST_CASE("fold boxes are dashed and the highlight is drawn last", "[render]")
{
    const Topology topo = test::make_machine({.packages = 6});
    LayoutOptions lo;
    lo.unfold_budget_pus = 0;
    const TopologyLayout layout = TopologyLayout::compute(topo, lo);
    REQUIRE(layout.count(BoxKind::Fold) > 0);
    RenderOptions ro;
    ro.highlighted = topo.pu(0);
    RecordingCanvas canvas;
    render_topology(layout, canvas, ro);
    CHECK(canvas.dashed == layout.count(BoxKind::Fold));
    CHECK(canvas.highlights == 1);
}
