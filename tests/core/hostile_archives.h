#pragma once
// The catalogue of hostile and broken archives the snapshot importer must
// refuse with one line naming the archive and the entry. Every archive but
// the bombs sized to the real limits is small and also kept as a file under
// tests/data/linux-sysfs/hostile/ (for the CLI bad-input test and the fuzz
// corpus); the hidden test "[.write-hostile-catalogue]" rewrites them.

#include "archive_test_support.h"
#include "topology/archive_extract.h"
#include "topology_test_support.h"

#include <string>
#include <vector>

namespace schedscope::testing {

struct HostileArchive {
    std::string file; // name under tests/data/linux-sysfs/hostile/
    std::string bytes;
    std::string says;     // part of the one-line message
    bool kept = true;     // also a file in tests/data (false: too big or too slow to make)
    bool unpacks = false; // a sound archive, refused only as not being a snapshot
};

// A raw gzip stream of text: compressed, but not a tar archive inside.
inline std::string gzip_of(const std::string &text)
{
    std::string out;
    archive *a = archive_write_new();
    REQUIRE(archive_write_set_format_raw(a) == ARCHIVE_OK);
    REQUIRE(archive_write_add_filter_gzip(a) == ARCHIVE_OK);
    REQUIRE(archive_write_open(a, &out, nullptr, append_to_string, nullptr) == ARCHIVE_OK);
    archive_entry *e = archive_entry_new();
    archive_entry_set_filetype(e, AE_IFREG);
    REQUIRE(archive_write_header(a, e) == ARCHIVE_OK);
    REQUIRE(archive_write_data(a, text.data(), text.size()) == static_cast<la_ssize_t>(text.size()));
    archive_entry_free(e);
    REQUIRE(archive_write_close(a) == ARCHIVE_OK);
    archive_write_free(a);
    return out;
}

// The bombs are sized against `limits`: the tests pass small limits so that
// the bombs stay cheap to make, and the kept files use the real ones.
inline std::vector<HostileArchive> hostile_catalogue(const ArchiveLimits &limits = {})
{
    using K = TarEntry::Kind;
    auto with = [](std::vector<TarEntry> extra, Compression c = Compression::Gzip) {
        std::vector<TarEntry> v = tiny_snapshot();
        v.insert(v.end(), extra.begin(), extra.end());
        return make_tar(v, c);
    };
    std::vector<HostileArchive> out = {
        {"absolute-path.tar.gz", with({{K::File, "/tmp/schedscope-escaped.txt", "x", {}}}), "is an absolute path"},
        {"dotdot-path.tar.gz", with({{K::File, "snap/../../schedscope-escaped.txt", "x", {}}}), "has a '..' component"},
        {"symlink-out.tar.gz", with({{K::Symlink, "snap/out", {}, "../../.."}}), "points outside the folder"},
        {"symlink-absolute.tar.gz", with({{K::Symlink, "snap/etc", {}, "/etc"}}), "to the absolute path '/etc'"},
        {"symlink-up-after-name.tar.gz", with({{K::Symlink, "snap/sys/up", {}, "devices/../../../.."}}),
         "'..' after a name"},
        {"through-symlink.tar.gz",
         with({{K::Symlink, "snap/top", {}, ".."}, {K::File, "snap/top/schedscope-escaped.txt", "x", {}}}),
         "lies below the symbolic link 'snap/top'"},
        {"hardlink-out.tar.gz", with({{K::Hardlink, "snap/passwd", {}, "../../etc/passwd"}}), "hard link to"},
        {"hardlink-absolute.tar.gz", with({{K::Hardlink, "snap/passwd", {}, "/etc/passwd"}}), "hard link to"},
        {"hardlink-to-symlink.tar.gz",
         with({{K::Symlink, "snap/sys/up", {}, ".."}, {K::Hardlink, "top-up", {}, "snap/sys/up"}}),
         "not a regular file unpacked before it"},
        {"char-device.tar.gz", with({{K::CharDevice, "snap/null", {}, {}}}), "is a character device"},
        {"block-device.tar.gz", with({{K::BlockDevice, "snap/sda", {}, {}}}), "is a block device"},
        {"fifo.tar.gz", with({{K::Fifo, "snap/pipe", {}, {}}}), "is a FIFO"},
        {"duplicate-entry.tar.gz", with({{K::File, "snap/sys/devices/system/cpu/online", "0-63\n", {}}}),
         "appears twice"},
        {"not-snapshot.tar.gz", make_tar({{K::File, "notes/hello.txt", "hello\n", {}}}),
         "expected an hwloc-gather-topology tarball", true, true},
        {"empty.tar", make_tar({}, Compression::None), "expected an hwloc-gather-topology tarball", true, true},
        {"not-tar.gz", gzip_of("hello, not a tar archive\n"), "tar archive"},
    };
    // A real snapshot cut short, and one with a damaged compressed stream.
    const std::string real = read_file(data_path("linux-sysfs/16amd64-8n2c.tar.bz2"));
    out.push_back({"truncated.tar.bz2", real.substr(0, real.size() / 2), "damaged"});
    std::string corrupt = real;
    for (std::size_t i = corrupt.size() / 3; i < corrupt.size() / 3 + 64; ++i)
        corrupt[i] = static_cast<char>(corrupt[i] ^ 0x5a);
    out.push_back({"corrupt.tar.bz2", corrupt, "damaged"});

    // One file declaring more than the byte limit: bzip2 squeezes the zeros to
    // a few hundred bytes (slow to make at the real limit: kept as a file).
    const bool real_limits = limits.max_unpacked_bytes == kMaxArchiveUnpackedBytes;
    std::vector<TarEntry> bomb = tiny_snapshot();
    bomb.push_back({K::File, "snap/zeros", {}, {}, static_cast<std::int64_t>(limits.max_unpacked_bytes) + 1});
    if (!real_limits)
        out.push_back({"size-bomb.tar.bz2", make_tar(bomb, Compression::Bzip2), "unpacks to more than", false});
    // Many files that only together pass the byte limit.
    std::vector<TarEntry> many = tiny_snapshot();
    for (int i = 0; i < 3; ++i)
        many.push_back({K::File,
                        "snap/zeros" + std::to_string(i),
                        {},
                        {},
                        static_cast<std::int64_t>(limits.max_unpacked_bytes / 2)});
    if (!real_limits)
        out.push_back({"many-files-bomb.tar.gz", make_tar(many), "unpacks to more than", false});
    // More entries than the limit, each an empty folder.
    if (limits.max_entries < kMaxArchiveEntries) {
        std::vector<TarEntry> count = tiny_snapshot();
        for (std::uint64_t i = count.size(); i <= limits.max_entries; ++i)
            count.push_back({K::Dir, "snap/d" + std::to_string(i) + "/", {}, {}});
        out.push_back({"entry-count-bomb.tar.gz", make_tar(count), "entries, more than any", false});
    }
    return out;
}

// The size bomb at the real limit, as kept in tests/data (seconds to make).
inline HostileArchive real_size_bomb()
{
    std::vector<TarEntry> bomb = tiny_snapshot();
    bomb.push_back(
        {TarEntry::Kind::File, "snap/zeros", {}, {}, static_cast<std::int64_t>(kMaxArchiveUnpackedBytes) + 1});
    return {"size-bomb.tar.bz2", make_tar(bomb, Compression::Bzip2), "unpacks to more than"};
}

} // namespace schedscope::testing
