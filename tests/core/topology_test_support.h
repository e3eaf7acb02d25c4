#pragma once
// Shared by the topology and CLI tests: test-data paths, file reading and
// running a command to capture its output and exit status.

#include "util/input_error.h"

#include <catch2/catch.hpp>

#include <array>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>

namespace schedscope::testing {

inline std::string data_path(const std::string &rel) { return std::string(SCHEDSCOPE_TEST_DATA_DIR) + "/" + rel; }

inline std::string read_file(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    REQUIRE(in.good());
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// Single quotes for /bin/sh, so paths and synthetic strings pass unchanged.
inline std::string shell_quote(const std::string &s)
{
    std::string q = "'";
    for (char c : s)
        q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

struct CommandResult {
    int exit_code = -1;
    std::string out;
};

// Runs `command` through the shell; stdout captured, stderr as redirected by the caller.
inline CommandResult run_command(const std::string &command)
{
    CommandResult r;
    FILE *p = popen(command.c_str(), "r");
    REQUIRE(p != nullptr);
    std::array<char, 4096> buf{};
    size_t n;
    while ((n = fread(buf.data(), 1, buf.size(), p)) > 0)
        r.out.append(buf.data(), n);
    int status = pclose(p);
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return r;
}

// The InputError an expression throws, for checking its line and text.
template <typename F> InputError input_error_of(F &&f)
{
    try {
        f();
    } catch (const InputError &e) {
        return e;
    }
    FAIL("expected an InputError");
    return InputError("", "");
}

} // namespace schedscope::testing
