#include "app_options.h"

#include <QCommandLineParser>
#include <QRegularExpression>

#include <cstdio>
#include <cstring>

namespace schedscope::gui {

ParsedOptions parse_app_options(const QStringList &args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("schedscope: watch OS schedulers place tasks and memory on a machine topology."));
    const auto help = parser.addHelpOption();
    const auto version = parser.addVersionOption();
    const QCommandLineOption topology(
        QStringLiteral("topology"),
        QStringLiteral("detect | synthetic:STRING | sample:NAME | FILE (hwloc XML, numactl --hardware text)"),
        QStringLiteral("SPEC"), QStringLiteral("detect"));
    const QCommandLineOption screenshot(QStringLiteral("screenshot"),
                                        QStringLiteral("Render the window offscreen to a PNG file and exit."),
                                        QStringLiteral("FILE"));
    const QCommandLineOption size(QStringLiteral("size"),
                                  QStringLiteral("Window size for --screenshot, WIDTHxHEIGHT (default 1600x1000)."),
                                  QStringLiteral("WxH"), QStringLiteral("1600x1000"));
    parser.addOptions({topology, screenshot, size});

    ParsedOptions result;
    if (!parser.parse(args)) {
        result.exit_code = 2;
        result.message = parser.errorText();
        return result;
    }
    if (parser.isSet(help) || parser.isSet(QStringLiteral("help-all"))) {
        // Without a QCoreApplication yet, Qt cannot name the program itself.
        result.message = parser.helpText().replace(QStringLiteral("<executable_name>"), QStringLiteral("schedscope"));
        return result;
    }
    if (parser.isSet(version)) {
        result.message = QStringLiteral("schedscope ") + QStringLiteral(SCHEDSCOPE_VERSION);
        return result;
    }
    if (!parser.positionalArguments().isEmpty()) {
        result.exit_code = 2;
        result.message = QStringLiteral("unexpected argument '%1'").arg(parser.positionalArguments().first());
        return result;
    }

    AppOptions options;
    options.topology = parser.value(topology).toStdString();
    options.screenshot = parser.value(screenshot);
    static const QRegularExpression size_re(QStringLiteral("^(\\d{2,5})x(\\d{2,5})$"));
    const auto match = size_re.match(parser.value(size));
    if (!match.hasMatch()) {
        result.exit_code = 2;
        result.message = QStringLiteral("--size: expected WIDTHxHEIGHT such as 1600x1000, got '%1'")
                             .arg(parser.value(size));
        return result;
    }
    options.size = QSize(match.captured(1).toInt(), match.captured(2).toInt());
    result.options = options;
    return result;
}

std::optional<int> handle_info_options(int argc, char **argv)
{
    QStringList args;
    bool info = false;
    for (int i = 0; i < argc; ++i) {
        args << QString::fromLocal8Bit(argv[i]);
        for (const char *o : {"--help", "--help-all", "-h", "-?", "--version", "-v"})
            info |= i > 0 && std::strcmp(argv[i], o) == 0;
    }
    if (!info)
        return std::nullopt;
    const ParsedOptions parsed = parse_app_options(args);
    std::fprintf(parsed.exit_code ? stderr : stdout, "%s\n", qUtf8Printable(parsed.message));
    return parsed.exit_code;
}

void prepare_platform(int argc, char **argv)
{
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--screenshot") == 0 || std::strncmp(argv[i], "--screenshot=", 13) == 0) {
            if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
                qputenv("QT_QPA_PLATFORM", "offscreen");
            return;
        }
    }
}

} // namespace schedscope::gui
