// `schedscope --screenshot`: the real executable, offscreen, must write a
// PNG with real content (many colours, not a blank or black window).
#include "app_options.h"
#include "image_checks.h"
#include "window_test_support.h"

#include <catch2/catch.hpp>

#include <QImage>
#include <QSet>
#include <QTemporaryDir>

using namespace schedscope::gui;

using schedscope::test::distinct_colours;
using schedscope::test::GuiRun;
using schedscope::test::has_colour;
using schedscope::test::run_gui;

TEST_CASE("screenshot mode writes a PNG with real content for small and large machines", "[screenshot]")
{
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const auto spec = GENERATE(as<QString>{}, "synthetic:pack:2 [numa] l3:1 core:6 pu:2",
                               "synthetic:pack:16 [numa] l3:1 core:32 pu:2");
    INFO(spec.toStdString());
    const QString out = dir.filePath("shot.png");
    const GuiRun run = run_gui({"--topology", spec, "--screenshot", out, "--size", "1200x800"});
    INFO(run.err.toStdString());
    REQUIRE(run.exit_code == 0);
    QImage image(out);
    REQUIRE(!image.isNull());
    CHECK(image.size() == QSize(1200, 800));
    CHECK(distinct_colours(image) > 40);
    // The small machine is drawn in full (package green); the 1024-PU one
    // as compact node cells (their background), too small to draw in full.
    if (spec.contains(QStringLiteral("pack:2 ")))
        CHECK(has_colour(image, qRgb(210, 231, 164)));
    else
        CHECK(has_colour(image, qRgb(250, 250, 252)));
    CHECK(has_colour(image, qRgb(190, 190, 190)));
}

TEST_CASE("screenshot mode fails cleanly on bad input", "[screenshot]")
{
    QTemporaryDir dir;
    const QString out = dir.filePath("shot.png");
    GuiRun run = run_gui({"--topology", dir.filePath("missing.xml"), "--screenshot", out});
    CHECK(run.exit_code == 2);
    CHECK(run.err.contains("missing.xml"));
    CHECK_FALSE(QFile::exists(out));

    run = run_gui({"--topology", "synthetic:pu:2", "--screenshot", out, "--size", "huge"});
    CHECK(run.exit_code == 2);
    CHECK(run.err.contains("--size"));
}

TEST_CASE("command line options", "[options]")
{
    auto parsed = parse_app_options({"schedscope"});
    REQUIRE(parsed.options);
    CHECK(parsed.options->topology == "detect");
    CHECK_FALSE(parsed.options->headless());

    parsed = parse_app_options(
        {"schedscope", "--topology", "sample:nec-tx7", "--screenshot", "a.png", "--size", "800x600"});
    REQUIRE(parsed.options);
    CHECK(parsed.options->topology == "sample:nec-tx7");
    CHECK(parsed.options->headless());
    CHECK(parsed.options->size == QSize(800, 600));

    parsed = parse_app_options({"schedscope", "--no-such-option"});
    CHECK_FALSE(parsed.options);
    CHECK(parsed.exit_code == 2);

    parsed = parse_app_options({"schedscope", "--help"});
    CHECK_FALSE(parsed.options);
    CHECK(parsed.exit_code == 0);
    CHECK(parsed.message.contains("--topology"));
}
