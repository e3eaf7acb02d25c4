// schedscope-cli: the headless front end over core. Subcommands register
// themselves (command.h); main only parses and maps errors to exit codes.

#include "command.h"

#include "util/input_error.h"

#include <algorithm>
#include <iostream>
#include <map>

namespace schedscope::cli {
std::vector<Command> &command_registry()
{
    static std::vector<Command> commands;
    return commands;
}
} // namespace schedscope::cli

int main(int argc, char **argv)
{
    using namespace schedscope::cli;
    CLI::App app{"schedscope-cli: simulate and compare scheduling policies on a machine topology"};
    app.set_version_flag("--version", std::string("schedscope-cli ") + SCHEDSCOPE_VERSION);
    app.require_subcommand(1);

    auto commands = command_registry();
    std::sort(commands.begin(), commands.end(), [](auto &a, auto &b) { return a.name < b.name; });
    std::map<std::string, std::function<int()>> runners;
    for (auto &c : commands)
        runners[c.name] = c.setup(app);

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError &e) {
        if (e.get_exit_code() == 0) // --help, --version
            return app.exit(e);
        // One line, like every other bad input (CLI11 would add a second).
        std::cerr << "schedscope-cli: " << e.what() << " (see --help)\n";
        return kExitBadInput;
    }
    try {
        for (auto *sub : app.get_subcommands())
            return runners.at(sub->get_name())();
    } catch (const schedscope::InputError &e) {
        std::cerr << "schedscope-cli: " << e.what() << "\n";
        return kExitBadInput;
    } catch (const std::bad_alloc &) {
        std::cerr << "schedscope-cli: out of memory\n";
        return kExitFailure;
    } catch (const std::exception &e) {
        std::cerr << "schedscope-cli: error: " << e.what() << "\n";
        return kExitFailure;
    }
    return kExitOk;
}
