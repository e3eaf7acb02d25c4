#pragma once
// Unpacking an hwloc-gather-topology tarball (tar, optionally gzip, bzip2 or
// xz compressed) into a private temporary folder, refusing anything that could
// write outside it or exhaust the disk. Internal to core/topology: the snapshot
// importer (snapshot_import.cpp) and the topology loader (topology_loader.cpp)
// are its only users besides the tests.
//
// Every entry is checked twice: once in a first pass over the whole archive
// that writes nothing (so a hostile archive is refused before a single file
// exists), and again just before libarchive writes it (libarchive's own
// secure-extraction flags are on as well).

#include <cstdint>
#include <string>

namespace schedscope {

// Entries: hwloc-gather-topology saves about 45-75 files and folders per PU
// (the 16-PU test snapshot holds 730 entries, the 48-PU one 3 602); 100 per
// PU at the largest machine schedscope models (kMaxHwlocPus, topology.h)
// keeps every real snapshot and refuses an inode bomb.
inline constexpr std::uint64_t kMaxArchiveEntries = 100ull * 8192;
// Unpacked bytes: sysfs files are a few bytes each and /proc/cpuinfo about
// 1.5 KB per PU (the 48-PU test snapshot unpacks to 82 KB); 16 KiB per PU at
// 8192 PUs is ten times what a real snapshot needs and bounds a size bomb.
inline constexpr std::uint64_t kMaxArchiveUnpackedBytes = 16ull * 1024 * 8192;
// The compressed archive is read whole into memory first (both passes read
// the same bytes, so the file cannot change in between); topology inputs are
// kilobytes, the test snapshots 7 and 21 KB.
inline constexpr std::uint64_t kMaxArchiveFileBytes = 64ull << 20;
// Entry names and link targets: sysfs paths in a snapshot stay under 300
// bytes. The cap keeps every path far below PATH_MAX (4096), so libarchive
// never falls back to changing the process's working directory to reach a
// deep path (a process-wide change other threads would see).
inline constexpr std::size_t kMaxArchivePathBytes = 1024;

struct ArchiveLimits {
    std::uint64_t max_entries = kMaxArchiveEntries;
    std::uint64_t max_unpacked_bytes = kMaxArchiveUnpackedBytes;
};

// A folder made with mkdtemp under the system's temporary directory ($TMPDIR
// or /tmp), removed with everything in it when the object goes away. Symbolic
// links inside are removed, never followed.
class TempDir {
public:
    // Throws InputError(source, ...) when the folder cannot be made.
    explicit TempDir(const std::string &source);
    ~TempDir();
    TempDir(const TempDir &) = delete;
    TempDir &operator=(const TempDir &) = delete;
    // Canonical (no symbolic link in it): libarchive's secure-symlink check
    // looks at every component of the paths it writes.
    const std::string &path() const { return path_; }

private:
    std::string path_;
};

// Unpacks the tar archive held in `data` into `dest_dir` (an existing, empty,
// canonical folder). Only regular files, folders, hard links to regular files
// of the same archive and relative symbolic links that stay inside the folder
// are accepted. Throws InputError(source, "entry 'NAME': ...") on the first
// refused entry or libarchive error; `dest_dir` may then hold part of the
// archive (the caller removes it).
void extract_archive(const std::string &data, const std::string &source, const std::string &dest_dir,
                     const ArchiveLimits &limits = {});

// Reads an archive file whole (at most kMaxArchiveFileBytes). Throws InputError(path, ...).
std::string read_archive_file(const std::string &path);

// True when `head` (the first bytes of a file) starts like a gzip, bzip2 or xz
// stream or a POSIX/GNU tar archive: the loader sends such files here.
bool looks_like_archive(const std::string &head);

} // namespace schedscope
