#include "export/output_file.h"

#include "util/input_error.h"

#include <atomic>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace schedscope {

namespace {
std::string errno_text() { return std::strerror(errno); }

// Several exports may run at once in one process (GUI): the pid alone would
// not keep their temporaries apart.
std::atomic<unsigned> g_tmp_counter{0};

// Big enough that a trace of millions of short lines costs few syscalls.
constexpr size_t kBufferBytes = 1 << 20;
} // namespace

OutputFile::OutputFile(std::string path) : path_(std::move(path))
{
    if (path_.empty())
        return;
    // Same directory as the target, so rename() stays on one file system.
    tmp_ = path_ + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(g_tmp_counter++);
    const int fd = ::open(tmp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0)
        throw InputError(path_, "cannot write: " + errno_text());
    f_ = ::fdopen(fd, "wb");
    if (!f_) {
        const std::string why = errno_text();
        ::close(fd);
        ::unlink(tmp_.c_str());
        throw InputError(path_, "cannot write: " + why);
    }
    std::setvbuf(f_, nullptr, _IOFBF, kBufferBytes);
}

OutputFile::~OutputFile() { abort(); }

void OutputFile::write(std::string_view text)
{
    bytes_ += text.size();
    if (!f_)
        return;
    if (std::fwrite(text.data(), 1, text.size(), f_) != text.size())
        fail("cannot write");
}

void OutputFile::fail(const std::string &what)
{
    const std::string why = errno ? errno_text() : std::string("I/O error");
    abort();
    throw InputError(path_, what + ": " + why);
}

void OutputFile::commit()
{
    if (!f_)
        return;
    errno = 0;
    if (std::fflush(f_) != 0)
        fail("cannot write");
    // Without fsync a crash right after rename can leave an empty file under
    // the final name on some file systems.
    if (::fsync(::fileno(f_)) != 0)
        fail("cannot sync");
    const int rc = std::fclose(f_);
    f_ = nullptr;
    if (rc != 0) {
        ::unlink(tmp_.c_str());
        throw InputError(path_, "cannot write: " + errno_text());
    }
    if (::rename(tmp_.c_str(), path_.c_str()) != 0) {
        const std::string why = errno_text();
        ::unlink(tmp_.c_str());
        throw InputError(path_, "cannot replace: " + why);
    }
}

void OutputFile::abort()
{
    if (!f_)
        return;
    std::fclose(f_);
    f_ = nullptr;
    ::unlink(tmp_.c_str());
}

} // namespace schedscope
