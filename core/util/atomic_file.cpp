#include "util/atomic_file.h"

#include "util/input_error.h"

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <unistd.h>

namespace schedscope {

namespace {
std::string errno_text() { return std::strerror(errno); }
} // namespace

void write_file_atomically(const std::string &path, const std::string &contents)
{
    // The temporary sits in the same directory so that rename() stays within
    // one file system and is atomic.
    std::string tmp = path + ".tmp." + std::to_string(::getpid());
    int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0)
        throw InputError(path, "cannot write: " + errno_text());
    const char *data = contents.data();
    size_t left = contents.size();
    while (left > 0) {
        ssize_t n = ::write(fd, data, left);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            std::string why = errno_text();
            ::close(fd);
            ::unlink(tmp.c_str());
            throw InputError(path, "cannot write: " + why);
        }
        data += n;
        left -= static_cast<size_t>(n);
    }
    // Without fsync a crash right after rename can leave an empty file under
    // the final name on some file systems.
    const bool synced = ::fsync(fd) == 0;
    std::string why = synced ? std::string() : errno_text();
    const bool closed = ::close(fd) == 0;
    if (synced && !closed)
        why = errno_text();
    if (!synced || !closed) {
        ::unlink(tmp.c_str());
        throw InputError(path, "cannot write: " + why);
    }
    if (::rename(tmp.c_str(), path.c_str()) != 0) {
        std::string why = errno_text();
        ::unlink(tmp.c_str());
        throw InputError(path, "cannot replace: " + why);
    }
}

} // namespace schedscope
