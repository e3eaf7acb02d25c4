#pragma once
// Scratch files for tests: a temporary directory removed afterwards (unique
// per instance, so tests of one binary never share one) and reading a file
// back whole.

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <unistd.h>

namespace schedscope::test {

struct TempDir {
    std::filesystem::path path;
    explicit TempDir(const std::string &prefix = "schedscope-test")
    {
        static int n = 0;
        path = std::filesystem::temp_directory_path() /
               (prefix + "-" + std::to_string(::getpid()) + "-" + std::to_string(n++));
        std::filesystem::remove_all(path);
        std::filesystem::create_directories(path);
    }
    ~TempDir() { std::filesystem::remove_all(path); }
    TempDir(const TempDir &) = delete;
    TempDir &operator=(const TempDir &) = delete;
};

inline std::string read_file(const std::filesystem::path &p)
{
    std::ifstream in(p, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

} // namespace schedscope::test
