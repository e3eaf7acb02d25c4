// GUI tests: the QApplication must exist before any widget, font metric or
// pixmap, so it is created first and Catch2 runs inside it (heaptrack's way).
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <QApplication>
#include <QTemporaryDir>

int main(int argc, char *argv[])
{
    // Headless by default, like hotspot's test utilities; a developer can
    // still set QT_QPA_PLATFORM=xcb to watch.
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    // Settings, saved profiles and caches of this process only: ctest runs
    // the cases in parallel processes, and one window's saved layout or
    // "last sample" must not reach another's, nor the developer's own.
    const QTemporaryDir home;
    if (home.isValid())
        for (const char *var : {"XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"})
            qputenv(var, (home.path() + QLatin1Char('/') + QLatin1String(var)).toLocal8Bit());
    // Catch2 gets its own arguments untouched by QApplication's parsing.
    int qt_argc = 1;
    QApplication app(qt_argc, argv);
    return Catch::Session().run(argc, argv);
}
