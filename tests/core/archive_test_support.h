#pragma once
// Writing tar archives in tests with libarchive's writer: the real snapshots
// re-packed, and the catalogue of hostile archives the snapshot importer must
// refuse (also written to tests/data/linux-sysfs/hostile/ by the hidden test
// "[.write-hostile-catalogue]").

#include <archive.h>
#include <archive_entry.h>

#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace schedscope::testing {

struct TarEntry {
    enum class Kind { File, Dir, Symlink, Hardlink, CharDevice, BlockDevice, Fifo };
    Kind kind = Kind::File;
    std::string name;
    std::string data;                // File: the content written
    std::string target;              // Symlink, Hardlink
    std::int64_t declared_size = -1; // File: header size when > data (libarchive pads with zeros)
};

enum class Compression { None, Gzip, Bzip2, Xz };

inline la_ssize_t append_to_string(archive *, void *out, const void *buf, size_t n)
{
    static_cast<std::string *>(out)->append(static_cast<const char *>(buf), n);
    return static_cast<la_ssize_t>(n);
}

inline std::string make_tar(const std::vector<TarEntry> &entries, Compression c = Compression::Gzip)
{
    std::string out;
    archive *a = archive_write_new();
    REQUIRE(a);
    REQUIRE(archive_write_set_format_pax_restricted(a) == ARCHIVE_OK);
    switch (c) {
    case Compression::None: break;
    case Compression::Gzip:
        REQUIRE(archive_write_add_filter_gzip(a) == ARCHIVE_OK);
        // Level 1: the bombs are megabytes of zeros; fast beats small here.
        archive_write_set_filter_option(a, "gzip", "compression-level", "1");
        break;
    case Compression::Bzip2: REQUIRE(archive_write_add_filter_bzip2(a) == ARCHIVE_OK); break;
    case Compression::Xz: REQUIRE(archive_write_add_filter_xz(a) == ARCHIVE_OK); break;
    }
    archive_write_set_bytes_in_last_block(a, 1); // no padding after the end marker
    REQUIRE(archive_write_open(a, &out, nullptr, append_to_string, nullptr) == ARCHIVE_OK);
    for (const TarEntry &t : entries) {
        archive_entry *e = archive_entry_new();
        archive_entry_set_pathname(e, t.name.c_str());
        archive_entry_set_perm(e, 0644);
        archive_entry_set_mtime(e, 1'000'000'000, 0); // fixed: the same bytes on every run
        switch (t.kind) {
        case TarEntry::Kind::File:
            archive_entry_set_filetype(e, AE_IFREG);
            archive_entry_set_size(e, t.declared_size >= 0 ? t.declared_size : static_cast<la_int64_t>(t.data.size()));
            break;
        case TarEntry::Kind::Dir:
            archive_entry_set_filetype(e, AE_IFDIR);
            archive_entry_set_perm(e, 0755);
            break;
        case TarEntry::Kind::Symlink:
            archive_entry_set_filetype(e, AE_IFLNK);
            archive_entry_set_symlink(e, t.target.c_str());
            break;
        case TarEntry::Kind::Hardlink:
            archive_entry_set_filetype(e, AE_IFREG);
            archive_entry_set_hardlink(e, t.target.c_str());
            break;
        case TarEntry::Kind::CharDevice:
            archive_entry_set_filetype(e, AE_IFCHR);
            archive_entry_set_rdev(e, 0x0103); // 1:3 is /dev/null
            break;
        case TarEntry::Kind::BlockDevice:
            archive_entry_set_filetype(e, AE_IFBLK);
            archive_entry_set_rdev(e, 0x0800); // 8:0 is /dev/sda
            break;
        case TarEntry::Kind::Fifo: archive_entry_set_filetype(e, AE_IFIFO); break;
        }
        REQUIRE(archive_write_header(a, e) >= ARCHIVE_WARN);
        if (t.kind == TarEntry::Kind::File && !t.data.empty())
            REQUIRE(archive_write_data(a, t.data.data(), t.data.size()) == static_cast<la_ssize_t>(t.data.size()));
        archive_entry_free(e);
    }
    REQUIRE(archive_write_close(a) == ARCHIVE_OK);
    archive_write_free(a);
    return out;
}

// A minimal tree hwloc reads as a 2-PU machine: what a snapshot must hold
// for the importer to get past "not a snapshot" (the hostile archives put
// their bad entry after it).
inline std::vector<TarEntry> tiny_snapshot(const std::string &top = "snap")
{
    using K = TarEntry::Kind;
    std::vector<TarEntry> v{{K::Dir, top + "/", {}, {}},
                            {K::Dir, top + "/sys/devices/system/cpu/", {}, {}},
                            {K::File, top + "/sys/devices/system/cpu/online", "0-1\n", {}},
                            {K::File, top + "/sys/devices/system/cpu/possible", "0-1\n", {}}};
    for (const char *cpu : {"cpu0", "cpu1"}) {
        const std::string d = top + "/sys/devices/system/cpu/" + cpu + "/topology/";
        v.push_back({K::Dir, d, {}, {}});
        v.push_back({K::File, d + "physical_package_id", "0\n", {}});
        v.push_back({K::File, d + "core_id", std::string(cpu) == "cpu0" ? "0\n" : "1\n", {}});
        v.push_back({K::File, d + "core_cpus", std::string(cpu) == "cpu0" ? "1\n" : "2\n", {}});
        v.push_back({K::File, d + "package_cpus", "3\n", {}});
    }
    return v;
}

} // namespace schedscope::testing
