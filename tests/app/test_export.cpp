// Whole-layout exports through the same renderer: PNG and SVG.
#include "test_machines.h"
#include "topology_export.h"

#include <catch2/catch.hpp>

#include <QFile>
#include <QImage>
#include <QTemporaryDir>

using namespace schedscope;
using namespace schedscope::gui;

TEST_CASE("the view exports as PNG and SVG", "[export]")
{
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    LayoutOptions options;
    options.fold = false;
    const Topology topo = test::make_machine({.packages = 16, .cores_per_package = 32});
    const TopologyLayout layout = TopologyLayout::compute(topo, options);

    const QString png = dir.filePath("topo.png");
    CHECK(export_topology_png(layout, png, 1.0).isEmpty());
    const QImage image(png);
    REQUIRE_FALSE(image.isNull());
    CHECK(image.width() == qCeil(layout.width() + 2 * kViewMargin));
    CHECK(image.pixel(image.width() / 2, 2) == qRgb(255, 255, 255)); // the margin

    const QString svg = dir.filePath("topo.svg");
    CHECK(export_topology_svg(layout, svg).isEmpty());
    QFile f(svg);
    REQUIRE(f.open(QIODevice::ReadOnly));
    const QByteArray text = f.readAll();
    CHECK(text.contains("<svg"));
    CHECK(text.contains("PU P#1023"));
    CHECK(text.contains("#d2e7a4")); // lstopo's package green

    CHECK_FALSE(export_topology_png(layout, dir.filePath("no/such/dir/x.png")).isEmpty());
}
