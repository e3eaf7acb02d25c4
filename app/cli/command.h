#pragma once
// Each schedscope-cli subcommand lives in its own cmd_*.cpp and registers
// itself here with a static CommandRegistrar, so adding a command touches
// no other file.

#include <CLI/CLI.hpp>

#include <cerrno>
#include <cstdlib>
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

// CLI11 2.1 converts "-1" and "99999999999999999999999" into an unsigned
// option as 2^64-1 (strtoull wraps and saturates); this refuses them instead.
inline const CLI::Validator kWholeNumber64(
    [](std::string &text) -> std::string {
        errno = 0;
        char *end = nullptr;
        const bool digits = !text.empty() && text.find_first_not_of("0123456789") == std::string::npos;
        if (digits)
            (void)std::strtoull(text.c_str(), &end, 10);
        if (!digits || errno == ERANGE)
            return "'" + text + "' is not a whole number in [0, 18446744073709551615]";
        return {};
    },
    "UINT64");

struct CommandRegistrar {
    explicit CommandRegistrar(Command c) { command_registry().push_back(std::move(c)); }
};

} // namespace schedscope::cli
