#pragma once
// Where an export streams its bytes. A real file is written to a temporary
// beside the target and renamed over it only by commit(), so a failed or
// cancelled export never truncates a file that was already there. Without a
// path it only counts bytes: size estimates run the very same formatting
// code into one of these.

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

namespace schedscope {

class OutputFile {
public:
    OutputFile() = default; // counting only
    explicit OutputFile(std::string path);
    OutputFile(const OutputFile &) = delete;
    OutputFile &operator=(const OutputFile &) = delete;
    ~OutputFile(); // an uncommitted file is discarded

    void write(std::string_view text);
    // Flush, sync and rename over the target. Throws InputError naming the
    // target on failure (the temporary is then removed).
    void commit();
    void abort();

    std::uint64_t bytes() const { return bytes_; }
    const std::string &path() const { return path_; }
    bool counting() const { return path_.empty(); }

private:
    [[noreturn]] void fail(const std::string &what);

    std::string path_, tmp_;
    std::FILE *f_ = nullptr;
    std::uint64_t bytes_ = 0;
};

} // namespace schedscope
