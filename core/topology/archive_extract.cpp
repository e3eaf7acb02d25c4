#include "topology/archive_extract.h"

#include "util/input_error.h"

#include <archive.h>
#include <archive_entry.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <set>
#include <sstream>
#include <system_error>
#include <vector>

namespace fs = std::filesystem;

namespace schedscope {

namespace {

// Longest entry name quoted in a message.
constexpr std::size_t kMaxQuotedName = 120;
// Everything unpacked is private to the user: the snapshot's own permission
// bits are not needed, and a folder saved as mode 000 could not be removed.
constexpr int kFolderMode = 0700;
constexpr int kFileMode = 0600;

// An entry name as it can appear in a one-line message.
std::string quoted(const char *name)
{
    std::string out;
    for (const char *p = name; p && *p; ++p) {
        if (out.size() >= kMaxQuotedName) {
            out += "...";
            break;
        }
        const unsigned char c = static_cast<unsigned char>(*p);
        out += c < 0x20 || c == 0x7f ? '?' : static_cast<char>(c);
    }
    return "'" + out + "'";
}

struct ArchiveFree {
    void operator()(archive *a) const { archive_read_free(a); }
};
struct WriterFree {
    void operator()(archive *a) const { archive_write_free(a); }
};
using Reader = std::unique_ptr<archive, ArchiveFree>;
using Writer = std::unique_ptr<archive, WriterFree>;

Reader open_reader(const std::string &data, const std::string &source)
{
    Reader a(archive_read_new());
    if (!a)
        throw std::bad_alloc();
    // Only what hwloc-gather-topology writes (tar.bz2) and its usual
    // recompressions: fewer decoders, less to attack.
    archive_read_support_filter_gzip(a.get());
    archive_read_support_filter_bzip2(a.get());
    archive_read_support_filter_xz(a.get());
    archive_read_support_filter_lzma(a.get());
    archive_read_support_filter_none(a.get());
    archive_read_support_format_tar(a.get());
    if (archive_read_open_memory(a.get(), data.data(), data.size()) != ARCHIVE_OK) {
        const char *why = archive_error_string(a.get());
        throw InputError(source, std::string("not a readable tar archive (damaged, truncated or another format; "
                                             "expected an hwloc-gather-topology tarball: .tar.bz2, .tar.gz, "
                                             ".tar.xz or .tar): ") +
                                     (why ? why : "unreadable"));
    }
    return a;
}

// A relative path split into its components, with "" and "." dropped.
// Returns false (and says why) for an absolute path or a ".." component.
bool split_relative(const char *text, std::vector<std::string> &parts, std::string &why)
{
    parts.clear();
    if (!text || !*text) {
        why = "has an empty name";
        return false;
    }
    if (std::strlen(text) > kMaxArchivePathBytes) {
        why = "name is longer than " + std::to_string(kMaxArchivePathBytes) + " bytes";
        return false;
    }
    if (text[0] == '/') {
        why = "is an absolute path";
        return false;
    }
    std::string part;
    std::istringstream in(text);
    while (std::getline(in, part, '/')) {
        if (part.empty() || part == ".")
            continue;
        if (part == "..") {
            why = "has a '..' component";
            return false;
        }
        parts.push_back(part);
    }
    return true;
}

std::string join(const std::vector<std::string> &parts, std::size_t n)
{
    std::string out;
    for (std::size_t i = 0; i < n && i < parts.size(); ++i)
        out += (i ? "/" : "") + parts[i];
    return out;
}

// What the archive has put where so far: the same bookkeeping in the checking
// pass and in the writing pass, so both refuse the same entry.
class EntryChecker {
public:
    EntryChecker(std::string source, const ArchiveLimits &limits) : source_(std::move(source)), limits_(limits) {}

    // Checks one entry; returns its cleaned relative path ("" for the
    // archive's own top folder "./", which is skipped). Throws InputError.
    std::string check(archive_entry *e)
    {
        const char *name = archive_entry_pathname(e);
        if (!name)
            name = archive_entry_pathname_utf8(e);
        if (++entries_ > limits_.max_entries)
            refuse(name, "more than " + std::to_string(limits_.max_entries) +
                             " entries, more than any topology snapshot holds (an archive bomb?)");
        std::vector<std::string> parts;
        std::string why;
        if (!split_relative(name, parts, why))
            refuse(name, why + ": refusing to unpack outside the temporary folder");
        const std::string path = join(parts, parts.size());
        const auto type = archive_entry_filetype(e);
        const char *hardlink = archive_entry_hardlink(e);
        if (path.empty()) {
            if (type == AE_IFDIR && !hardlink)
                return path;
            refuse(name, "names the archive's top folder but is not a folder");
        }
        for (std::size_t n = 1; n < parts.size(); ++n) {
            const std::string prefix = join(parts, n);
            if (symlinks_.count(prefix))
                refuse(name, "lies below the symbolic link '" + prefix + "' (could be written outside the folder)");
            if (files_.count(prefix))
                refuse(name, "lies below the file '" + prefix + "'");
        }
        if (files_.count(path) || symlinks_.count(path) || (dirs_.count(path) && type != AE_IFDIR))
            refuse(name, "appears twice in the archive");

        if (hardlink) {
            std::vector<std::string> target;
            if (!split_relative(hardlink, target, why))
                refuse(name, "hard link to " + quoted(hardlink) + " which " + why + " (outside the folder)");
            if (!files_.count(join(target, target.size())))
                refuse(name, "hard link to " + quoted(hardlink) + ", not a regular file unpacked before it");
            add_bytes(name, e);
            files_.insert(path);
        } else if (type == AE_IFREG) {
            if (archive_entry_sparse_count(e) > 0)
                refuse(name, "is a sparse file (not in a topology snapshot)");
            add_bytes(name, e);
            files_.insert(path);
        } else if (type == AE_IFDIR) {
            dirs_.insert(path);
        } else if (type == AE_IFLNK) {
            check_symlink(name, parts, archive_entry_symlink(e));
            symlinks_.insert(path);
        } else {
            refuse(name,
                   std::string("is a ") + type_name(type) + ", not a regular file, folder or symbolic link (refused)");
        }
        for (std::size_t n = 1; n < parts.size(); ++n)
            dirs_.insert(join(parts, n)); // libarchive makes the missing parents
        return path;
    }

    // The writing pass counts what is actually written too.
    void wrote(const char *name, std::uint64_t bytes)
    {
        written_ += bytes;
        if (written_ > limits_.max_unpacked_bytes)
            refuse(name, "unpacks to more than " + std::to_string(limits_.max_unpacked_bytes) + " bytes");
    }

    [[noreturn]] void refuse(const char *name, const std::string &why) const
    {
        throw InputError(source_, "entry " + quoted(name) + ": " + why);
    }

private:
    static const char *type_name(unsigned type)
    {
        switch (type) {
        case AE_IFCHR: return "character device";
        case AE_IFBLK: return "block device";
        case AE_IFIFO: return "FIFO";
        case AE_IFSOCK: return "socket";
        default: return "file of unknown type";
        }
    }

    void add_bytes(const char *name, archive_entry *e)
    {
        const std::int64_t size = archive_entry_size_is_set(e) ? archive_entry_size(e) : 0;
        if (size < 0 || static_cast<std::uint64_t>(size) > limits_.max_unpacked_bytes - declared_)
            refuse(name, "unpacks to more than " + std::to_string(limits_.max_unpacked_bytes) +
                             " bytes, more than any topology snapshot (an archive bomb?)");
        declared_ += static_cast<std::uint64_t>(size);
    }

    // A link is followed from the folder it lies in. Accepted: relative
    // targets whose ".." components all come first and climb no higher than
    // the folder's depth. A ".." after a named component is refused: if that
    // component is itself a link, ".." climbs from wherever the link points,
    // which a look at the names cannot bound.
    void check_symlink(const char *name, const std::vector<std::string> &parts, const char *target)
    {
        if (!target || !*target)
            refuse(name, "symbolic link with an empty target");
        if (std::strlen(target) > kMaxArchivePathBytes)
            refuse(name, "symbolic link target is longer than " + std::to_string(kMaxArchivePathBytes) + " bytes");
        if (target[0] == '/')
            refuse(name, "symbolic link to the absolute path " + quoted(target) + " (outside the folder)");
        std::size_t ups = 0;
        bool named = false;
        std::string part;
        std::istringstream in(target);
        while (std::getline(in, part, '/')) {
            if (part.empty() || part == ".")
                continue;
            if (part != "..") {
                named = true;
                continue;
            }
            if (named)
                refuse(name,
                       "symbolic link to " + quoted(target) + ": '..' after a name could lead outside the folder");
            ++ups;
        }
        if (ups > parts.size() - 1)
            refuse(name, "symbolic link to " + quoted(target) + " points outside the folder");
    }

    std::string source_;
    ArchiveLimits limits_;
    std::uint64_t entries_ = 0, declared_ = 0, written_ = 0;
    std::set<std::string> files_, dirs_, symlinks_;
};

// ARCHIVE_WARN (an unknown pax keyword, a name in another charset) still
// gives a usable entry; anything worse ends the archive.
void check_status(int status, archive *a, const std::string &source, const char *after)
{
    if (status >= ARCHIVE_WARN)
        return;
    const char *why = archive_error_string(a);
    throw InputError(source, std::string("damaged or truncated archive") +
                                 (after ? " after entry " + quoted(after) : "") + ": " +
                                 (why ? why : "libarchive could not read it"));
}

// Pass 1: headers only, nothing written. Every refusal happens here for an
// archive that does not change; pass 2 repeats the checks anyway.
void check_whole_archive(const std::string &data, const std::string &source, const ArchiveLimits &limits)
{
    Reader a = open_reader(data, source);
    EntryChecker checker(source, limits);
    archive_entry *e = nullptr;
    std::string last;
    for (;;) {
        const int status = archive_read_next_header(a.get(), &e);
        if (status == ARCHIVE_EOF)
            break;
        check_status(status, a.get(), source, last.empty() ? nullptr : last.c_str());
        checker.check(e);
        const char *name = archive_entry_pathname(e);
        last = name ? name : "";
        // Reading on skips the data (decompressing it, which also finds a
        // truncated stream now rather than half-way through writing).
        check_status(archive_read_data_skip(a.get()), a.get(), source, last.c_str());
    }
}

void write_whole_archive(const std::string &data, const std::string &source, const std::string &dest_dir,
                         const ArchiveLimits &limits)
{
    Reader a = open_reader(data, source);
    Writer w(archive_write_disk_new());
    if (!w)
        throw std::bad_alloc();
    // Owner, permissions, times, ACLs, xattrs and file flags are not restored
    // (no ARCHIVE_EXTRACT_OWNER/PERM/TIME/...). The names handed to libarchive
    // are absolute (dest_dir/NAME), so ARCHIVE_EXTRACT_SECURE_NOABSOLUTEPATHS
    // cannot be used; the checker has refused absolute entry names already.
    archive_write_disk_set_options(w.get(), ARCHIVE_EXTRACT_SECURE_SYMLINKS | ARCHIVE_EXTRACT_SECURE_NODOTDOT |
                                                ARCHIVE_EXTRACT_NO_OVERWRITE);
    EntryChecker checker(source, limits);
    archive_entry *e = nullptr;
    for (;;) {
        const int status = archive_read_next_header(a.get(), &e);
        if (status == ARCHIVE_EOF)
            break;
        check_status(status, a.get(), source, nullptr);
        const std::string name = archive_entry_pathname(e) ? archive_entry_pathname(e) : "";
        const std::string rel = checker.check(e);
        if (rel.empty())
            continue;
        archive_entry_set_pathname(e, (dest_dir + "/" + rel).c_str());
        if (const char *hardlink = archive_entry_hardlink(e)) {
            std::vector<std::string> target;
            std::string why;
            split_relative(hardlink, target, why); // checked above
            archive_entry_set_hardlink(e, (dest_dir + "/" + join(target, target.size())).c_str());
        }
        if (archive_entry_filetype(e) != AE_IFLNK)
            archive_entry_set_perm(e, archive_entry_filetype(e) == AE_IFDIR ? kFolderMode : kFileMode);
        if (archive_write_header(w.get(), e) < ARCHIVE_WARN)
            checker.refuse(name.c_str(), std::string("cannot be unpacked: ") +
                                             (archive_error_string(w.get()) ? archive_error_string(w.get()) : "?"));
        const void *block = nullptr;
        std::size_t size = 0;
        la_int64_t offset = 0;
        for (;;) {
            const int r = archive_read_data_block(a.get(), &block, &size, &offset);
            if (r == ARCHIVE_EOF)
                break;
            check_status(r, a.get(), source, name.c_str());
            checker.wrote(name.c_str(), size);
            if (archive_write_data_block(w.get(), block, size, offset) < ARCHIVE_WARN)
                checker.refuse(name.c_str(), std::string("cannot be written: ") +
                                                 (archive_error_string(w.get()) ? archive_error_string(w.get()) : "?"));
        }
        if (archive_write_finish_entry(w.get()) < ARCHIVE_WARN)
            checker.refuse(name.c_str(), std::string("cannot be written: ") +
                                             (archive_error_string(w.get()) ? archive_error_string(w.get()) : "?"));
    }
    if (archive_write_close(w.get()) < ARCHIVE_WARN)
        throw InputError(source, std::string("cannot finish unpacking: ") +
                                     (archive_error_string(w.get()) ? archive_error_string(w.get()) : "?"));
}

} // namespace

TempDir::TempDir(const std::string &source)
{
    std::error_code ec;
    fs::path base = fs::temp_directory_path(ec);
    if (ec)
        base = "/tmp";
    std::string pattern = (base / "schedscope-snapshot-XXXXXX").string();
    std::vector<char> buf(pattern.begin(), pattern.end());
    buf.push_back('\0');
    if (!mkdtemp(buf.data()))
        throw InputError(source, std::string("cannot make a temporary folder to unpack into under ") + base.string() +
                                     ": " + std::strerror(errno));
    const fs::path made(buf.data());
    const fs::path canonical = fs::canonical(made, ec);
    path_ = ec ? made.string() : canonical.string();
}

TempDir::~TempDir()
{
    std::error_code ec;
    // remove_all removes symbolic links themselves and never follows them.
    fs::remove_all(path_, ec);
}

void extract_archive(const std::string &data, const std::string &source, const std::string &dest_dir,
                     const ArchiveLimits &limits)
{
    check_whole_archive(data, source, limits);
    write_whole_archive(data, source, dest_dir, limits);
}

std::string read_archive_file(const std::string &path)
{
    std::error_code ec;
    const auto size = fs::file_size(path, ec);
    if (ec)
        throw InputError(path, "cannot read the archive: " + ec.message());
    if (size > kMaxArchiveFileBytes)
        throw InputError(path, "archive is larger than " + std::to_string(kMaxArchiveFileBytes) +
                                   " bytes, too large to be a topology snapshot");
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw InputError(path, "cannot open the archive for reading");
    std::ostringstream buf;
    buf << in.rdbuf();
    if (in.bad())
        throw InputError(path, "error while reading the archive");
    return buf.str();
}

bool looks_like_archive(const std::string &head)
{
    auto starts = [&](const char *magic, std::size_t n) {
        return head.size() >= n && head.compare(0, n, magic, n) == 0;
    };
    constexpr std::size_t kTarMagicOffset = 257; // "ustar" in a POSIX or GNU tar header
    return starts("\x1f\x8b", 2) ||              // gzip
           (starts("BZh", 3) && head.size() > 3 && head[3] >= '1' && head[3] <= '9') || // bzip2
           starts("\xfd"
                  "7zXZ\0",
                  6) || // xz
           (head.size() >= kTarMagicOffset + 5 && head.compare(kTarMagicOffset, 5, "ustar") == 0);
}

} // namespace schedscope
