// schedscope: the GUI front end. Everything lives in the schedscope_gui
// library; this file only parses the command line and starts a window.

#include "app_options.h"
#include "headless_runner.h"
#include "main_window.h"
#include "sim/comparison_page.h"
#include "sim/simulation_controller.h"

#include <QApplication>
#include <QSettings>

#include <cstdio>

int main(int argc, char *argv[])
{
    using namespace schedscope::gui;
    if (const auto exit_code = handle_info_options(argc, argv))
        return *exit_code;
    prepare_platform(argc, argv);
    QApplication app(argc, argv);
    // QSettings' path comes from these: ~/.config/schedscope/schedscope.conf
    // rather than under "Unknown Organization".
    QApplication::setOrganizationName(QStringLiteral("schedscope"));
    QApplication::setApplicationName(QStringLiteral("schedscope"));
    QApplication::setApplicationVersion(QStringLiteral(SCHEDSCOPE_VERSION));

    const ParsedOptions parsed = parse_app_options(QApplication::arguments());
    if (!parsed.options) {
        std::fprintf(parsed.exit_code ? stderr : stdout, "%s\n", qUtf8Printable(parsed.message));
        return parsed.exit_code;
    }

    MainWindow window;
    if (parsed.options->headless())
        return run_headless(window, *parsed.options);
    bool restored = false;
    {
        QSettings settings;
        restored = window.restoreSettings(settings);
    }
    open_from_options(window, *parsed.options);
    window.show();
    // A first launch shows the charts that matter beside the panes (the
    // charts dock shows only progress or throughput and, on NUMA, node
    // convergence until "All charts" is ticked); later launches keep the
    // user's layout.
    if (!restored && parsed.options->docks.isEmpty())
        window.showDocks({QStringLiteral("charts")});
    window.showDocks(parsed.options->docks); // after show(): sized against the real window
    return app.exec();
}
