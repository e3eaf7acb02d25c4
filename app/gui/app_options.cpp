#include "app_options.h"

#include "dock_registry.h"

#include <QCommandLineParser>
#include <QRegularExpression>

#include <cstdio>
#include <cstring>

namespace schedscope::gui {

namespace {

// The GUI's command line: the parser and its options, registered in the
// order --help lists them.
struct CommandLine {
    QCommandLineParser parser;
    const QCommandLineOption help = parser.addHelpOption();
    const QCommandLineOption version = parser.addVersionOption();
    const QCommandLineOption topology{
        QStringLiteral("topology"),
        QStringLiteral("detect | synthetic:STRING | sample:NAME | FILE (hwloc XML, numactl --hardware text) | "
                       "FOLDER or TARBALL (hwloc-gather-topology snapshot)"),
        QStringLiteral("SPEC"), QStringLiteral("detect")};
    const QCommandLineOption screenshot{QStringLiteral("screenshot"),
                                        QStringLiteral("Render the window offscreen to a PNG file (or, for FILE.svg, "
                                                       "the panes and charts as vector SVG) and exit."),
                                        QStringLiteral("FILE")};
    const QCommandLineOption size{QStringLiteral("size"),
                                  QStringLiteral("Window size for --screenshot, WIDTHxHEIGHT (default 1600x1000)."),
                                  QStringLiteral("WxH"), QStringLiteral("1600x1000")};
    const QCommandLineOption scenario{QStringLiteral("scenario"), QStringLiteral("Open a scenario file."),
                                      QStringLiteral("FILE")};
    const QCommandLineOption workload{QStringLiteral("workload"),
                                      QStringLiteral("Compare on this workload, NAME[:key=value,...]."),
                                      QStringLiteral("WORKLOAD")};
    const QCommandLineOption policy{QStringLiteral("policy"),
                                    QStringLiteral("A policy to compare, NAME[:key=value,...]; repeat for 2-4 panes."),
                                    QStringLiteral("POLICY")};
    const QCommandLineOption duration{QStringLiteral("duration"),
                                      QStringLiteral("Simulated duration for --workload, e.g. 10s."),
                                      QStringLiteral("TIME")};
    const QCommandLineOption run_to{
        QStringLiteral("run-to"),
        QStringLiteral("Run the comparison to this simulated time before --screenshot, e.g. 5s."),
        QStringLiteral("TIME")};
    const QCommandLineOption benchmark{QStringLiteral("benchmark-render"),
                                       QStringLiteral("Play for SECONDS of wall time, print frames per second, exit."),
                                       QStringLiteral("SECONDS")};
    const QCommandLineOption speed{QStringLiteral("speed"),
                                   QStringLiteral("Simulated seconds per real second (0 = as fast as possible)."),
                                   QStringLiteral("X")};
    const QCommandLineOption docks{QStringLiteral("docks"),
                                   QStringLiteral("Show these docks, comma-separated: %1 (e.g. for --screenshot).")
                                       .arg(dock_ids().join(QStringLiteral(", "))),
                                   QStringLiteral("LIST")};
    const QCommandLineOption export_charts{
        QStringLiteral("export-charts"),
        QStringLiteral(
            "After --run-to, write each chart as PNG, SVG and CSV (columns named by the panes) into DIR and exit."),
        QStringLiteral("DIR")};

    CommandLine()
    {
        parser.setApplicationDescription(
            QStringLiteral("schedscope: watch OS schedulers place tasks and memory on a machine topology."));
        parser.addOptions({topology, screenshot, size, scenario, workload, policy, duration, run_to, benchmark, speed,
                           docks, export_charts});
    }
};

// The run's timing and display options (--duration to --docks) into
// `options`; the message for the first bad one.
std::optional<QString> read_run_options(const CommandLine &cl, AppOptions &options)
{
    const QCommandLineParser &parser = cl.parser;
    if (parser.isSet(cl.duration)) {
        const auto ns = parse_duration_ns(parser.value(cl.duration));
        if (!ns)
            return QStringLiteral("--duration: expected a time such as 10s or 500ms, got '%1'")
                .arg(parser.value(cl.duration));
        options.duration_s = static_cast<double>(*ns) / 1e9;
    }
    if (parser.isSet(cl.run_to)) {
        const auto ns = parse_duration_ns(parser.value(cl.run_to));
        if (!ns)
            return QStringLiteral("--run-to: expected a time such as 5s or 500ms, got '%1'")
                .arg(parser.value(cl.run_to));
        options.run_to_ns = *ns;
    }
    if (parser.isSet(cl.benchmark)) {
        bool ok = false;
        options.benchmark_s = parser.value(cl.benchmark).toDouble(&ok);
        if (!ok || options.benchmark_s <= 0 || options.benchmark_s > 3600)
            return QStringLiteral("--benchmark-render: expected seconds in (0, 3600], got '%1'")
                .arg(parser.value(cl.benchmark));
    }
    if (parser.isSet(cl.speed)) {
        bool ok = false;
        options.speed = parser.value(cl.speed).toDouble(&ok);
        if (!ok || options.speed < 0)
            return QStringLiteral("--speed: expected a number >= 0, got '%1'").arg(parser.value(cl.speed));
    }
    options.export_charts = parser.value(cl.export_charts);
    if (parser.isSet(cl.docks))
        options.docks = parser.value(cl.docks).split(QLatin1Char(','), Qt::SkipEmptyParts);
    return std::nullopt;
}

// The options' values into `options`, checked; the message for the first
// bad one.
std::optional<QString> read_options(const CommandLine &cl, AppOptions &options)
{
    const QCommandLineParser &parser = cl.parser;
    options.topology = parser.value(cl.topology).toStdString();
    options.screenshot = parser.value(cl.screenshot);
    static const QRegularExpression size_re(QStringLiteral("^(\\d{2,5})x(\\d{2,5})$"));
    const auto match = size_re.match(parser.value(cl.size));
    if (!match.hasMatch())
        return QStringLiteral("--size: expected WIDTHxHEIGHT such as 1600x1000, got '%1'").arg(parser.value(cl.size));
    options.size = QSize(match.captured(1).toInt(), match.captured(2).toInt());
    options.scenario = parser.value(cl.scenario);
    options.workload = parser.value(cl.workload).toStdString();
    for (const QString &p : parser.values(cl.policy))
        options.policies.push_back(p.toStdString());
    if (!options.policies.empty() && options.workload.empty())
        return QStringLiteral("--policy needs --workload");
    if (!options.scenario.isEmpty() && !options.workload.empty())
        return QStringLiteral("give either --scenario or --workload, not both");
    return read_run_options(cl, options);
}

} // namespace

ParsedOptions parse_app_options(const QStringList &args)
{
    CommandLine cl;
    QCommandLineParser &parser = cl.parser;
    ParsedOptions result;
    if (!parser.parse(args)) {
        result.exit_code = 2;
        result.message = parser.errorText();
        return result;
    }
    if (parser.isSet(cl.help) || parser.isSet(QStringLiteral("help-all"))) {
        // Without a QCoreApplication yet, Qt cannot name the program itself.
        result.message = parser.helpText().replace(QStringLiteral("<executable_name>"), QStringLiteral("schedscope"));
        return result;
    }
    if (parser.isSet(cl.version)) {
        result.message = QStringLiteral("schedscope ") + QStringLiteral(SCHEDSCOPE_VERSION);
        return result;
    }
    if (!parser.positionalArguments().isEmpty()) {
        result.exit_code = 2;
        result.message = QStringLiteral("unexpected argument '%1'").arg(parser.positionalArguments().first());
        return result;
    }
    AppOptions options;
    if (const std::optional<QString> error = read_options(cl, options)) {
        result.exit_code = 2;
        result.message = *error;
        return result;
    }
    result.options = options;
    return result;
}

std::optional<std::int64_t> parse_duration_ns(const QString &text)
{
    static const QRegularExpression re(QStringLiteral("^\\s*([0-9]*\\.?[0-9]+)\\s*(ns|us|ms|s|m)?\\s*$"));
    const auto m = re.match(text);
    if (!m.hasMatch())
        return std::nullopt;
    const double v = m.captured(1).toDouble();
    const QString unit = m.captured(2).isEmpty() ? QStringLiteral("s") : m.captured(2);
    const double scale = unit == QLatin1String("ns")   ? 1.0
                         : unit == QLatin1String("us") ? 1e3
                         : unit == QLatin1String("ms") ? 1e6
                         : unit == QLatin1String("m")  ? 60e9
                                                       : 1e9;
    const double ns = v * scale;
    if (ns > 1e16) // beyond any run worth simulating (about 115 days)
        return std::nullopt;
    return static_cast<std::int64_t>(ns);
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
        const bool screenshot = std::strcmp(argv[i], "--screenshot") == 0 ||
                                std::strncmp(argv[i], "--screenshot=", 13) == 0;
        const bool charts = std::strcmp(argv[i], "--export-charts") == 0 ||
                            std::strncmp(argv[i], "--export-charts=", 16) == 0;
        if (screenshot || charts) {
            // (--benchmark-render is measured on a real display, e.g. Xvfb,
            // so it keeps the platform it is given.)
            if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
                qputenv("QT_QPA_PLATFORM", "offscreen");
            return;
        }
    }
}

} // namespace schedscope::gui
