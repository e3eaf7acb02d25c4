#pragma once
// Each schedscope-cli subcommand lives in its own cmd_*.cpp and registers
// itself here with a static CommandRegistrar, so adding a command touches
// no other file.

#include <CLI/CLI.hpp>

#include <functional>
#include <string>
#include <vector>

namespace schedscope::cli {

// Exit codes of every subcommand.
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1; // something went wrong that is not the user's input
inline constexpr int kExitBadInput = 2;

struct Command {
    std::string name;
    // Adds the subcommand to `app` and returns the function that runs it
    // once parsing succeeded.
    std::function<std::function<int()>(CLI::App &app)> setup;
};

std::vector<Command> &command_registry();

struct CommandRegistrar {
    explicit CommandRegistrar(Command c) { command_registry().push_back(std::move(c)); }
};

} // namespace schedscope::cli
