// The layout pass alone: geometry of boxes, folding, labels. No painter, no
// display (the QApplication of main.cpp is not used here).
#include "object_text.h"
#include "test_machines.h"
#include "topology_layout.h"

#include <catch2/catch.hpp>

#include <map>
#include <set>

using namespace schedscope;
using namespace schedscope::gui;
using schedscope::test::MachineShape;
using schedscope::test::make_machine;

namespace {

void check_nesting_and_no_overlap(const TopologyLayout &layout)
{
    const auto &boxes = layout.boxes();
    REQUIRE(!boxes.empty());
    CHECK(boxes[0].parent == -1);
    for (size_t i = 0; i < boxes.size(); ++i) {
        const LayoutBox &b = boxes[i];
        CHECK(b.rect.w > 0);
        CHECK(b.rect.h > 0);
        if (b.parent >= 0) {
            REQUIRE(b.parent < static_cast<int>(i)); // parents are drawn first
            INFO("box " << i << " (" << obj_type_name(b.type) << ") in parent " << b.parent);
            CHECK(boxes[b.parent].rect.contains(b.rect));
        }
    }
    // Siblings (same enclosing box) never overlap. Quadratic per parent, fine
    // for test sizes.
    std::map<int, std::vector<int>> by_parent;
    for (size_t i = 0; i < boxes.size(); ++i)
        by_parent[boxes[i].parent].push_back(static_cast<int>(i));
    for (const auto &[parent, kids] : by_parent)
        for (size_t a = 0; a < kids.size(); ++a)
            for (size_t b = a + 1; b < kids.size(); ++b) {
                INFO("siblings " << kids[a] << " and " << kids[b] << " under " << parent);
                CHECK_FALSE(boxes[kids[a]].rect.overlaps(boxes[kids[b]].rect));
            }
}

LayoutOptions unfolded_options()
{
    LayoutOptions o;
    o.fold = false;
    return o;
}

// What the view does: fold only machines too big to show in full.
TopologyLayout default_layout(const Topology &topo)
{
    LayoutOptions o;
    o.fold = default_folding(topo);
    return TopologyLayout::compute(topo, o);
}

} // namespace

TEST_CASE("format_bytes prints sizes the way lstopo does", "[layout]")
{
    CHECK(format_bytes(32 * 1024) == "32KB");
    CHECK(format_bytes(4096 * 1024) == "4096KB");
    CHECK(format_bytes(std::uint64_t{16} << 20) == "16MB");
    CHECK(format_bytes(std::uint64_t{64} << 30) == "64GB");
    CHECK(format_bytes(512) == "512B");
}

TEST_CASE("a small machine shows every object, nested, without overlap", "[layout]")
{
    const Topology topo = make_machine({});
    REQUIRE_FALSE(default_folding(topo));
    const TopologyLayout layout = default_layout(topo);
    check_nesting_and_no_overlap(layout);
    CHECK(layout.count(BoxKind::Fold) == 0);
    CHECK(layout.count(ObjType::PU) == 24);
    CHECK(layout.count(ObjType::Core) == 12);
    CHECK(layout.count(ObjType::NUMANode) == 2);
    CHECK(layout.count(ObjType::L3) == 2);
    for (int pu = 0; pu < topo.pu_count(); ++pu) {
        const int box = layout.box_of(topo.pu(pu));
        REQUIRE(box >= 0);
        // Each PU sits inside its core's box.
        const int core_box = layout.box_of(topo.ancestor_of_pu(pu, ObjType::Core));
        CHECK(layout.boxes()[box].parent == core_box);
    }
    CHECK(layout.width() > 0);
    CHECK(layout.height() > 0);
}

TEST_CASE("labels carry the lstopo attributes", "[layout]")
{
    const Topology topo = make_machine({});
    const TopologyLayout layout = default_layout(topo);
    const auto label_of = [&](ObjId id) { return layout.boxes()[layout.box_of(id)].label.front(); };
    CHECK(label_of(topo.numa_node(1)) == "NUMANode L#1 P#1 (16GB)");
    CHECK(label_of(topo.objects_of(ObjType::L3).front()) == "L3 (16MB)");
    CHECK(label_of(topo.pu(3)) == "PU P#3");
    CHECK(label_of(topo.root()) == "Machine (32GB total)");
}

TEST_CASE("cache bars sit above the cores they serve, NUMA bars at the top", "[layout]")
{
    const Topology topo = make_machine({});
    const TopologyLayout layout = default_layout(topo);
    const ObjId pkg = topo.objects_of(ObjType::Package).front();
    const LayoutBox &node = layout.boxes()[layout.box_of(topo.obj(pkg).memory_children.front())];
    const LayoutBox &l3 = layout.boxes()[layout.box_of(topo.obj(pkg).children.front())];
    const LayoutBox &core = layout.boxes()[layout.box_of(topo.ancestor_of_pu(0, ObjType::Core))];
    CHECK(node.rect.bottom() <= l3.rect.y);
    CHECK(l3.rect.bottom() <= core.rect.y);
    // The bar spans the cores below it.
    CHECK(l3.rect.x <= core.rect.x);
    CHECK(l3.parent == core.parent);
}

TEST_CASE("labels fit inside their boxes", "[layout]")
{
    const Topology topo = make_machine({.packages = 4, .cores_per_package = 3});
    LayoutOptions options; // folding on: the fold labels must fit too
    options.unfold_budget_pus = 0;
    const TopologyLayout layout = TopologyLayout::compute(topo, options);
    for (const LayoutBox &b : layout.boxes()) {
        for (const auto &line : b.label)
            CHECK(options.text.width(line) + layout.padding() <= b.rect.w);
        CHECK(layout.padding() + b.label.size() * layout.line_height() <= b.rect.h);
    }
}

TEST_CASE("a 1024-PU machine folds identical children into 'xN more' boxes", "[layout]")
{
    const Topology topo = make_machine({.packages = 16, .cores_per_package = 32, .pus_per_core = 2});
    REQUIRE(topo.pu_count() == 1024);
    REQUIRE(default_folding(topo));

    SECTION("whole levels stay unfolded within the PU budget: 16 packages, folded cores")
    {
        const TopologyLayout layout = TopologyLayout::compute(topo);
        check_nesting_and_no_overlap(layout);
        CHECK(layout.count(ObjType::Package) == 16);
        CHECK(layout.count(ObjType::PU) == 16 * 2 * 2);
        CHECK(layout.count(BoxKind::Fold) == 16);
        for (const LayoutBox &b : layout.boxes())
            if (b.kind == BoxKind::Fold)
                CHECK(b.label.front() == "\xC3\x97"
                                         "30 more");
    }

    LayoutOptions strict;
    strict.unfold_budget_pus = 0;
    const TopologyLayout folded = TopologyLayout::compute(topo, strict);
    check_nesting_and_no_overlap(folded);
    CHECK(folded.count(ObjType::Package) == 2); // first and last
    CHECK(folded.count(ObjType::PU) == 8);      // 2 packages x 2 cores x 2 PUs
    std::multiset<std::string> fold_labels;
    for (const LayoutBox &b : folded.boxes())
        if (b.kind == BoxKind::Fold)
            fold_labels.insert(b.label.front());
    CHECK(fold_labels.count("\xC3\x97"
                            "14 more") == 1); // packages
    CHECK(fold_labels.count("\xC3\x97"
                            "30 more") == 2); // cores in each shown package

    const LayoutBox &pkg_fold = *std::find_if(folded.boxes().begin(), folded.boxes().end(), [](const LayoutBox &b) {
        return b.kind == BoxKind::Fold && b.type == ObjType::Package;
    });
    CHECK(pkg_fold.hidden == 14);
    CHECK(pkg_fold.fold_parent == topo.root());
    CHECK(pkg_fold.obj == topo.objects_of(ObjType::Package)[1]);

    SECTION("unfolding the machine shows every package, cores stay folded")
    {
        LayoutOptions options = strict;
        options.unfolded.insert(topo.root());
        const TopologyLayout layout = TopologyLayout::compute(topo, options);
        check_nesting_and_no_overlap(layout);
        CHECK(layout.count(ObjType::Package) == 16);
        CHECK(layout.count(BoxKind::Fold) == 16);
    }
    SECTION("without folding every PU gets a box")
    {
        const TopologyLayout layout = TopologyLayout::compute(topo, unfolded_options());
        check_nesting_and_no_overlap(layout);
        CHECK(layout.count(BoxKind::Fold) == 0);
        CHECK(layout.count(ObjType::PU) == 1024);
        // The grid keeps the picture screen-shaped instead of one long row.
        const double aspect = layout.width() / layout.height();
        CHECK(aspect > 0.8);
        CHECK(aspect < 3.0);
    }
}

TEST_CASE("short runs are never folded, and different siblings never fold together", "[layout]")
{
    LayoutOptions strict; // folding on, no budget
    strict.unfold_budget_pus = 0;
    const Topology three = make_machine({.packages = 3, .cores_per_package = 3});
    CHECK(TopologyLayout::compute(three, strict).count(BoxKind::Fold) == 0);

    // Four packages whose nodes differ in memory: not identical, no fold.
    Topology t;
    TopoObject m;
    m.type = ObjType::Machine;
    const ObjId root = t.add(m, kNoObj);
    for (int p = 0; p < 4; ++p) {
        TopoObject pkg;
        pkg.type = ObjType::Package;
        const ObjId pk = t.add(pkg, root);
        TopoObject node;
        node.type = ObjType::NUMANode;
        node.os_index = p;
        node.memory_bytes = (p < 2 ? std::uint64_t{32} : std::uint64_t{64}) << 30;
        t.add(node, pk, true);
        TopoObject core;
        core.type = ObjType::Core;
        const ObjId co = t.add(core, pk);
        TopoObject pu;
        pu.type = ObjType::PU;
        pu.os_index = p;
        t.add(pu, co);
    }
    t.finalize();
    CHECK(TopologyLayout::compute(t, strict).count(BoxKind::Fold) == 0);
}

TEST_CASE("hit testing finds the innermost box", "[layout]")
{
    const Topology topo = make_machine({});
    const TopologyLayout layout = default_layout(topo);
    const LayoutRect &pu = layout.boxes()[layout.box_of(topo.pu(5))].rect;
    const int hit = layout.hit_test(pu.x + pu.w / 2, pu.y + pu.h / 2);
    REQUIRE(hit >= 0);
    CHECK(layout.boxes()[hit].obj == topo.pu(5));
    CHECK(layout.hit_test(-5, -5) == -1);
    CHECK(layout.boxes()[layout.hit_test(1, 1)].type == ObjType::Machine);
}

TEST_CASE("an empty topology gives an empty layout", "[layout]")
{
    const Topology empty;
    const TopologyLayout layout = TopologyLayout::compute(empty);
    CHECK(layout.empty());
    CHECK(layout.hit_test(0, 0) == -1);
}
